/* rtipc-bench's mechanism table (bench/mechanisms/): one entry per name,
 * every name a row name of names.h, an absent entry says why; and every
 * built mechanism does what its entry says, on one task: items sent one at
 * a time come back in order, the call-cost loop checks out, a stream's
 * pushes come back through its pops (or its count), a bounded one holds
 * the depth asked for and reports its memory, a kick never blocks. */
#include <stdatomic.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "mechanisms/mechanisms.h"
#include "names.h"
#include "rtipc/rtipc.h"

#define DEPTH 16

static const char *const row_names[] = {
    BENCH_MECH_RTIPC_QUEUE,
    BENCH_MECH_RTIPC_SEM,
    BENCH_MECH_RTIPC_NOTIFY,
    BENCH_MECH_RTIPC_MAILBOX,
    BENCH_MECH_RTIPC_SPSC,
    BENCH_MECH_RTIPC_SPSC_SYM,
    BENCH_MECH_RTIPC_RINGBUF_NOSPLIT,
    BENCH_MECH_RTIPC_RINGBUF_ALLOWSPLIT,
    BENCH_MECH_RTIPC_RINGBUF_BYTEBUF,
    BENCH_MECH_SPIN,
    BENCH_MECH_FUTEX,
    BENCH_MECH_EVENTFD,
    BENCH_MECH_PIPE,
    BENCH_MECH_POSIX_MQ,
    BENCH_MECH_POSIX_SEM,
    BENCH_MECH_MUTEX_CONDVAR,
    BENCH_MECH_MUTEX_CONDVAR_PI,
    BENCH_MECH_MUTEX_CONDVAR_LIST,
    BENCH_MECH_STD_QUEUE_MUTEX,
    BENCH_MECH_CK_RING,
    BENCH_MECH_BOOST_SPSC,
    BENCH_MECH_ATOMIC_QUEUE_SPSC,
    BENCH_MECH_MOODYCAMEL_RWQ,
    BENCH_MECH_MOODYCAMEL_BLOCKING_RWQ,
    BENCH_MECH_MOODYCAMEL_BLOCKING_CQ,
    BENCH_MECH_URCU_WFCQ,
    BENCH_MECH_KERNEL_QUEUE,
    BENCH_MECH_KERNEL_SEM,
    BENCH_MECH_KERNEL_NOTIFY,
    BENCH_MECH_KERNEL_QUEUE_OVERWRITE,
    BENCH_MECH_KERNEL_STREAMBUF,
    BENCH_MECH_KERNEL_MSGBUF,
    BENCH_MECH_KERNEL_EVENTGROUP,
    BENCH_MECH_KERNEL_MUTEX_LIST,
    BENCH_MECH_ESPIDF_RINGBUF_NOSPLIT,
    BENCH_MECH_ESPIDF_RINGBUF_ALLOWSPLIT,
    BENCH_MECH_ESPIDF_RINGBUF_BYTEBUF,
};
#define N_NAMES (sizeof row_names / sizeof row_names[0])

static void test_one_entry_per_name(void **state)
{
    (void)state;
    assert_int_equal(bench_mechanism_count, N_NAMES);
    for (size_t i = 0; i < N_NAMES; i++) {
        const bench_mech_t *m = bench_mech_find(row_names[i]);
        assert_non_null(m);
        assert_string_equal(m->name, row_names[i]);
        if (m->absent) {
            assert_null(m->create);
            assert_true(strlen(m->absent) > 0);
        } else {
            assert_non_null(m->create);
            assert_non_null(m->destroy);
            assert_non_null(m->send);
            assert_non_null(m->recv);
            assert_true(m->traits & (BENCH_MECH_PARKS | BENCH_MECH_SPINS));
        }
        for (size_t k = 0; k < i; k++)
            assert_ptr_not_equal(bench_mechanisms[k], m);
    }
    assert_null(bench_mech_find("no-such-mechanism"));
    /* mutex-condvar means one thing: the ring; the list has its own name. */
    assert_ptr_not_equal(bench_mech_find(BENCH_MECH_MUTEX_CONDVAR), bench_mech_find(BENCH_MECH_MUTEX_CONDVAR_LIST));
}

/* What each built mechanism is checked for; runs in an rtipc task (a
 * notification needs the task's handle). */
typedef struct {
    const bench_mech_t *m;
    bench_task_t *self;  /* the task it runs in, for a bind */
    _Atomic int go;      /* self is set (release by the test, acquire by the task) */
    char failure[200];
} check_t;

#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        if (!(cond)) {                                                    \
            snprintf(c->failure, sizeof c->failure, __VA_ARGS__);         \
            goto out;                                                     \
        }                                                                 \
    } while (0)

static void check_mechanism(void *arg)
{
    check_t *c = arg;
    const bench_mech_t *m = c->m;
    char why[160] = "";
    void *obj = NULL;
    int rc = m->create(DEPTH, &obj, why, sizeof why);
    if (rc == 1)
        return;  /* does not exist on this host: the entry says why, nothing to check */
    CHECK(rc == 0, "create: %s", why);
    while (!atomic_load_explicit(&c->go, memory_order_acquire))
        bench_sleep_ns(100000);
    if (m->bind)
        m->bind(obj, c->self, c->self);

    /* One item at a time (a count, a word, a semaphore hold one). */
    for (uint32_t i = 0; i < 10; i++) {
        uint32_t v = BENCH_MECH_MARKER;
        CHECK(m->send(obj, i) == 0, "send of %u", i);
        CHECK(m->recv(obj, &v) == 0 && v == i, "recv gave %u for %u", v, i);
    }
    if (m->recv_spin) {
        uint32_t v = BENCH_MECH_MARKER;
        CHECK(m->send(obj, 10) == 0 && m->recv_spin(obj, &v) == 0 && v == 10, "recv_spin gave %u", v);
    }
    if (m->pairs)
        CHECK(m->pairs(obj, 100, 50) == 0, "pairs");

    /* A bounded mechanism that holds several items apart: fill it without
     * waiting, measure, drain in order. */
    if (m->try_send && !(m->traits & BENCH_MECH_MERGES) && m->memory) {
        for (uint32_t k = 0; k < DEPTH; k++)
            CHECK(m->try_send(obj, 1000 + k) == 0, "try_send %u of %d", k, DEPTH);
        size_t bytes = 0;
        char note[160] = "";
        CHECK(m->memory(obj, DEPTH, &bytes, note, sizeof note) == 0 && bytes > 0 && note[0], "memory");
        for (uint32_t k = 0; k < DEPTH; k++) {
            uint32_t v = BENCH_MECH_MARKER;
            CHECK(m->recv(obj, &v) == 0 && v == 1000 + k, "drain gave %u for %u", v, 1000 + k);
        }
    }
    if (m->capacity)
        CHECK(m->capacity(obj) >= 1 && m->capacity(obj) <= DEPTH, "capacity %zu", m->capacity(obj));

    /* A stream of 8 items through each push/pop pair offered. */
    struct {
        int (*push)(void *, const uint32_t *, int);
        int (*pop)(void *, uint32_t *, int);
    } ways[2] = {{m->push_each, m->pop_each}, {m->push_bulk, m->pop_bulk}};
    uint32_t items[8], got[8];
    for (int w = 0; w < 2; w++) {
        if (!ways[w].push)
            continue;
        for (uint32_t k = 0; k < 8; k++)
            items[k] = 2000 + k;
        CHECK(ways[w].push(obj, items, 8) == 8, "push of 8");
        if (m->pop_count) {
            bool end = false;
            CHECK(m->pop_count(obj, &end) == 8 && !end, "count of 8");
            CHECK(m->push_marker(obj) == 1, "marker");
            CHECK(m->pop_count(obj, &end) == 0 && end, "marker seen");
            continue;
        }
        int n = 0;
        while (n < 8) {
            int k = ways[w].pop(obj, got + n, 8 - n);
            CHECK(k > 0, "pop after %d", n);
            n += k;
        }
        CHECK(!memcmp(items, got, sizeof items), "stream out of order");
    }

    /* A kick never blocks; whatever it leaves behind is drained by the
     * mechanism's own teardown. */
    if (m->kick)
        m->kick(obj);
out:
    if (obj)
        m->destroy(obj);
}

static void test_every_mechanism_works(void **state)
{
    (void)state;
    for (size_t i = 0; i < bench_mechanism_count; i++) {
        const bench_mech_t *m = bench_mechanisms[i];
        if (m->absent)
            continue;
        check_t c = {.m = m};
        bench_task_spec_t spec = {.name = "mech-check", .priority = 5, .core = 0, .entry = check_mechanism,
                                  .arg = &c, .native = (m->traits & BENCH_MECH_NATIVE) != 0};
        assert_int_equal(bench_target_task_start(&spec, &c.self), 0);
        atomic_store_explicit(&c.go, 1, memory_order_release);
        assert_int_equal(bench_target_task_join(c.self), 0);
        if (c.failure[0])
            fail_msg("%s: %s", m->name, c.failure);
    }
}

/* peers' SPSC floor (not in the table): its pairs check out, and each
 * stream way moves items in order across the end of its 1024 slots, stops
 * when full and gives nothing when empty. */
static void test_fence_floor(void **state)
{
    (void)state;
    const bench_mech_t *m = &bench_spsc_fence_floor;
    assert_string_equal(m->name, BENCH_MECH_SPSC_FENCE_FLOOR);
    assert_null(m->absent);
    char why[160] = "";
    void *obj = NULL;
    assert_int_equal(m->create(16, &obj, why, sizeof why), 0);
    assert_int_equal(m->pairs(obj, 7, 100), 0);
    static uint32_t items[1100], got[1100];
    uint32_t next = 0, expect = 0;
    for (int way = 0; way < 2; way++) {
        int (*push)(void *, const uint32_t *, int) = way ? m->push_bulk : m->push_each;
        int (*pop)(void *, uint32_t *, int) = way ? m->pop_bulk : m->pop_each;
        for (int lap = 0; lap < 5; lap++) {
            for (size_t k = 0; k < 1100; k++)
                items[k] = next + (uint32_t)k;
            /* 64 at a time until full: 1024 of the 1100 go in. */
            int in = 0;
            for (int k; in < 1100 && (k = push(obj, items + in, in + 64 <= 1100 ? 64 : 1100 - in)) > 0;)
                in += k;
            assert_int_equal(in, 1024);
            next += 1024;
            int out = 0;
            for (int k; (k = pop(obj, got + out, 64)) > 0;)
                out += k;
            assert_int_equal(out, 1024);
            for (int k = 0; k < out; k++)
                assert_int_equal(got[k], expect + (uint32_t)k);
            expect += 1024;
            /* Shift the indices so that the next lap wraps mid-call. */
            uint32_t one = next++;
            assert_int_equal(push(obj, &one, 1), 1);
            assert_int_equal(pop(obj, got, 1), 1);
            assert_int_equal(got[0], one);
            expect++;
        }
    }
    m->destroy(obj);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_entry_per_name),
        cmocka_unit_test(test_every_mechanism_works),
        cmocka_unit_test(test_fence_floor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
