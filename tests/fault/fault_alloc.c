/* Fault injection: allocation failure on every dynamic creation path.
 *
 * For each path the n-th allocation of the calling thread is made to fail,
 * for n = 1, 2, ... until the call succeeds (alloc_fail.h, counting mode:
 * link-time wrapping, so it runs in the Release, ASan+UBSan and TSan builds
 * alike). Every failing call must return RTIPC_ENOMEM, leave *out untouched
 * and leave no block allocated; the call that finally succeeds must give a
 * working object, and deleting it must return every block. LeakSanitizer
 * (ASan build) checks the whole run on top of the block count.
 *
 * Task descriptors are recycled, never freed (src/port/posix/kernel/task.c): a task
 * that ends leaves its descriptor in a pool for the next task. The task
 * paths therefore check that the pool grows by at most the tasks that
 * existed at once, and that a further create/join cycle allocates nothing. */
#define RTIPC_TEST_ALLOC_WRAP 1
#include "test_support.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "alloc_fail.h"

/* Stored in *out before each call: a failing call must leave it there. */
static int sentinel_storage;
#define SENTINEL ((void *)&sentinel_storage)

/* Calls in a row that may fail before the path must have succeeded; far
 * above the allocations any creation makes. */
#define MAX_STEPS 64

static int paths_run;

/* Run create with the n-th allocation failing, n = 1, 2, ... until it
 * succeeds; check each failure. Returns the object; *injected gets the
 * failures injected. */
/* One call of create with the n-th allocation failing; *out starts as
 * SENTINEL so that a failed call is seen to leave it alone. */
static int create_failing_nth(long n, int (*create)(void **out), void **out)
{
    *out = SENTINEL;
    alloc_fail_nth(n);
    int rc = create(out);
    alloc_fail_nth(0);
    return rc;
}

static void *fail_until_success(const char *what, int (*create)(void **out), long *injected)
{
    long n;
    for (n = 1; n <= MAX_STEPS; ++n) {
        long live = alloc_live();
        long before = alloc_injected_count();
        void *out;
        int rc = create_failing_nth(n, create, &out);
        if (rc == RTIPC_OK) {
            /* The n-th allocation was not reached: the call made n - 1. */
            assert_int_equal(alloc_injected_count(), before);
            assert_non_null(out);
            assert_ptr_not_equal(out, SENTINEL);
            *injected = n - 1;
            ++paths_run;
            return out;
        }
        if (rc != RTIPC_ENOMEM)
            fail_msg("%s: allocation %ld failed: %s, expected RTIPC_ENOMEM", what, n, rtipc_strerror(rc));
        assert_int_equal(alloc_injected_count(), before + 1);
        assert_ptr_equal(out, SENTINEL);
        if (alloc_live() != live)
            fail_msg("%s: allocation %ld failed and %ld block(s) stayed allocated", what, n, alloc_live() - live);
    }
    fail_msg("%s: still failing after %d injected failures", what, MAX_STEPS);
    return NULL;
}

static long total_injected;
static int total_paths;

static void account(const char *what, long injected)
{
    printf("[  INFO    ] %-28s %ld allocation(s), each failed once\n", what, injected);
    total_injected += injected;
    ++total_paths;
}

/* One object path: create under injection, exercise, delete, no block left. */
#define OBJECT_PATH(name, create_expr, ...)                                                             \
    static int create_##name(void **out) { return create_expr; }                                     \
    static void test_##name(void **state)                                                            \
    {                                                                                                \
        (void)state;                                                                                 \
        long live = alloc_live(), injected = 0;                                                        \
        void *obj = fail_until_success(#name, create_##name, &injected);                             \
        assert_true(injected >= 1);                                                                  \
        __VA_ARGS__;                                                                                    \
        assert_int_equal(alloc_live(), live);                                                        \
        account(#name, injected);                                                                    \
    }

OBJECT_PATH(queue, rtipc_queue_create(4, sizeof(int), (rtipc_queue_t **)out), {
    rtipc_queue_t *q = obj;
    int v = 42, r = 0;
    assert_int_equal(rtipc_queue_send(q, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_queue_receive(q, &r, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(r, 42);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
})

OBJECT_PATH(sem_binary, rtipc_sem_create_binary((rtipc_sem_t **)out), {
    rtipc_sem_t *s = obj;
    assert_int_equal(rtipc_sem_take(s, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_sem_give(s), RTIPC_OK);
    assert_int_equal(rtipc_sem_take(s, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
})

OBJECT_PATH(sem_counting, rtipc_sem_create_counting(5, 2, (rtipc_sem_t **)out), {
    rtipc_sem_t *s = obj;
    assert_int_equal(rtipc_sem_count(s), 2);
    assert_int_equal(rtipc_sem_take(s, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_sem_count(s), 1);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
})

OBJECT_PATH(mutex, rtipc_mutex_create(false, (rtipc_mutex_t **)out), {
    rtipc_mutex_t *m = obj;
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_OK);
    assert_ptr_equal(rtipc_mutex_holder(m), rtipc_task_current());
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
})

OBJECT_PATH(mutex_recursive, rtipc_mutex_create(true, (rtipc_mutex_t **)out), {
    rtipc_mutex_t *m = obj;
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
})

OBJECT_PATH(eventgroup, rtipc_eventgroup_create((rtipc_eventgroup_t **)out), {
    rtipc_eventgroup_t *eg = obj;
    uint32_t v = 0;
    assert_int_equal(rtipc_eventgroup_set_bits(eg, 0x5, NULL), RTIPC_OK);
    assert_int_equal(rtipc_eventgroup_wait_bits(eg, 0x4, true, true, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(v, 0x5);
    assert_int_equal(rtipc_eventgroup_get_bits(eg), 0x1);
    assert_int_equal(rtipc_eventgroup_delete(eg), RTIPC_OK);
})

static void exercise_ringbuf(rtipc_ringbuf_t *rb, rtipc_ringbuf_type_t type)
{
    const char msg[] = "fault";
    assert_int_equal(rtipc_ringbuf_send(rb, msg, sizeof msg, RTIPC_NO_WAIT), RTIPC_OK);
    void *item = NULL, *tail = NULL;
    size_t size = 0, tail_size = 0;
    if (type == RTIPC_RINGBUF_ALLOWSPLIT)
        assert_int_equal(rtipc_ringbuf_receive_split(rb, &item, &size, &tail, &tail_size, RTIPC_NO_WAIT),
                         RTIPC_OK);
    else
        assert_int_equal(rtipc_ringbuf_receive(rb, &item, &size, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(size, sizeof msg);
    assert_null(tail);
    assert_memory_equal(item, msg, sizeof msg);
    assert_int_equal(rtipc_ringbuf_return(rb, item), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(rb), RTIPC_OK);
}

OBJECT_PATH(ringbuf_nosplit, rtipc_ringbuf_create(64, RTIPC_RINGBUF_NOSPLIT, (rtipc_ringbuf_t **)out),
            exercise_ringbuf(obj, RTIPC_RINGBUF_NOSPLIT))
OBJECT_PATH(ringbuf_allowsplit, rtipc_ringbuf_create(64, RTIPC_RINGBUF_ALLOWSPLIT, (rtipc_ringbuf_t **)out),
            exercise_ringbuf(obj, RTIPC_RINGBUF_ALLOWSPLIT))
OBJECT_PATH(ringbuf_bytebuf, rtipc_ringbuf_create(64, RTIPC_RINGBUF_BYTEBUF, (rtipc_ringbuf_t **)out),
            exercise_ringbuf(obj, RTIPC_RINGBUF_BYTEBUF))

OBJECT_PATH(streambuf, rtipc_streambuf_create(32, 1, (rtipc_streambuf_t **)out), {
    rtipc_streambuf_t *sb = obj;
    char in[5] = "abcd", back[5] = {0};
    size_t n = 0;
    assert_int_equal(rtipc_streambuf_send(sb, in, 5, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, 5);
    assert_int_equal(rtipc_streambuf_receive(sb, back, 5, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, 5);
    assert_string_equal(back, "abcd");
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
})

OBJECT_PATH(msgbuf, rtipc_msgbuf_create(32, (rtipc_msgbuf_t **)out), {
    rtipc_msgbuf_t *mb = obj;
    char in[5] = "abcd", back[8] = {0};
    size_t n = 0;
    assert_int_equal(rtipc_msgbuf_send(mb, in, 5, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_msgbuf_receive(mb, back, sizeof back, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, 5);
    assert_string_equal(back, "abcd");
    assert_int_equal(rtipc_msgbuf_delete(mb), RTIPC_OK);
})

OBJECT_PATH(mailbox, rtipc_mailbox_create(sizeof(int), NULL, (rtipc_mailbox_t **)out), {
    rtipc_mailbox_t *mb = obj;
    int v = 7, r = 0;
    uint64_t version = 0;
    assert_int_equal(rtipc_mailbox_write(mb, &v), RTIPC_OK);
    assert_int_equal(rtipc_mailbox_wait_newer(mb, &r, 0, &version, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(r, 7);
    assert_int_equal(version, 1);
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
})

OBJECT_PATH(spsc, rtipc_spsc_create(8, sizeof(int), (rtipc_spsc_t **)out), {
    rtipc_spsc_t *r = obj;
    int v = 9, back = 0;
    assert_int_equal(rtipc_spsc_push(r, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_spsc_size(r), 1); /* the ring the failed paths left works */
    assert_int_equal(rtipc_spsc_pop(r, &back, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(back, 9);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
})

/* A set and its members: the set (two allocations: control block and event
 * queue), then adding members, which allocates nothing (checked). */
OBJECT_PATH(queueset, rtipc_queueset_create(8, (rtipc_queueset_t **)out), {
    rtipc_queueset_t *set = obj;
    rtipc_queue_t *q;
    rtipc_sem_t *s;
    assert_int_equal(rtipc_queue_create(4, sizeof(int), &q), RTIPC_OK);
    assert_int_equal(rtipc_sem_create_counting(4, 0, &s), RTIPC_OK);
    long attempts = alloc_attempt_count();
    alloc_fail_nth(1);
    assert_int_equal(rtipc_queueset_add_queue(set, q), RTIPC_OK);
    assert_int_equal(rtipc_queueset_add_sem(set, s), RTIPC_OK);
    alloc_fail_nth(0);
    assert_int_equal(alloc_attempt_count(), attempts); /* adding allocates nothing */
    int v = 3;
    void *member = NULL;
    assert_int_equal(rtipc_queue_send(q, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_queueset_select(set, &member, RTIPC_NO_WAIT), RTIPC_OK);
    assert_ptr_equal(member, q);
    assert_int_equal(rtipc_queue_receive(q, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_queueset_remove_queue(set, q), RTIPC_OK);
    assert_int_equal(rtipc_queueset_remove_sem(set, s), RTIPC_OK);
    assert_int_equal(rtipc_queueset_select(set, &member, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK); /* emptied */
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
    assert_int_equal(rtipc_queueset_delete(set), RTIPC_OK);
})

static void irq_handler(void *arg) { __atomic_add_fetch((int *)arg, 1, __ATOMIC_RELEASE); }
static int irq_hits;

OBJECT_PATH(irq, rtipc_irq_create(0, irq_handler, &irq_hits, (rtipc_irq_t **)out), {
    rtipc_irq_t *irq = obj;
    assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
    assert_true(wait_for_flag(&irq_hits, 1, 5000));
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
})

/* ---- tasks: the descriptor allocation ------------------------------------ */
/* Descriptors of ended tasks are pooled: to make the next task creation or
 * thread adoption allocate, take every pooled descriptor with a task that
 * waits on `hold` until a creation is seen to allocate. */
#define MAX_HOLDERS 32
static rtipc_task_t *holders[MAX_HOLDERS];
static int holder_count;
static rtipc_sem_t *hold;

static void holder_task(void *arg)
{
    (void)arg;
    rtipc_sem_take(hold, RTIPC_FOREVER);
}

static void drain_pool(void)
{
    assert_int_equal(rtipc_sem_create_counting(MAX_HOLDERS, 0, &hold), RTIPC_OK);
    for (holder_count = 0; holder_count < MAX_HOLDERS;) {
        long attempts = alloc_attempt_count();
        holders[holder_count++] = start_task("holder", 1, RTIPC_CORE_ANY, holder_task, NULL);
        if (alloc_attempt_count() != attempts)
            return; /* that one allocated: the pool is empty */
    }
    fail_msg("the descriptor pool did not run dry after %d tasks", MAX_HOLDERS);
}

static void release_holders(void)
{
    for (int i = 0; i < holder_count; ++i)
        assert_int_equal(rtipc_sem_give(hold), RTIPC_OK);
    for (int i = 0; i < holder_count; ++i)
        join_task(holders[i]);
    assert_int_equal(rtipc_sem_delete(hold), RTIPC_OK);
}

static int task_ran;
static void note_run(void *arg) { __atomic_store_n((int *)arg, 1, __ATOMIC_RELEASE); }

static int create_task(void **out)
{
    rtipc_task_config_t cfg = {.name = "fault", .priority = 1, .core = RTIPC_CORE_ANY, .entry = note_run,
                               .arg = &task_ran};
    return rtipc_task_create(&cfg, (rtipc_task_t **)out);
}

static void test_task(void **state)
{
    (void)state;
    /* Joining parks the joiner: adopt this thread first, so that its own
     * descriptor is not counted as the task's. */
    assert_non_null(rtipc_task_current());
    drain_pool();
    long live = alloc_live(), injected = 0;
    rtipc_task_t *t = fail_until_success("task", create_task, &injected);
    assert_int_equal(injected, 1);
    assert_true(wait_for_flag(&task_ran, 1, 5000));
    assert_int_equal(rtipc_task_join(t), RTIPC_OK);
    /* One descriptor, now in the pool; a second cycle reuses it. */
    assert_int_equal(alloc_live(), live + 1);
    long attempts = alloc_attempt_count();
    __atomic_store_n(&task_ran, 0, __ATOMIC_RELEASE);
    void *again = NULL;
    assert_int_equal(create_task(&again), RTIPC_OK);
    assert_true(wait_for_flag(&task_ran, 1, 5000));
    assert_int_equal(rtipc_task_join(again), RTIPC_OK);
    assert_int_equal(alloc_attempt_count(), attempts);
    assert_int_equal(alloc_live(), live + 1);
    release_holders();
    account("task", injected);
}

/* ---- adopting a foreign thread (rtipc_task_current, and a blocking call
 * that must adopt its caller to wait) ---------------------------------------- */
typedef struct {
    int current_null;   /* rtipc_task_current() gave NULL under injection */
    int take_rc;        /* rtipc_sem_take under injection */
    long injected;
    int adopted_after;  /* rtipc_task_current() worked without injection */
    int take_after;     /* the same take without injection: times out */
} adopt_result_t;

static rtipc_sem_t *adopt_sem;

static void *foreign_thread(void *arg)
{
    adopt_result_t *r = arg;
    long before = alloc_injected_count();
    alloc_fail_nth(1);
    r->current_null = rtipc_task_current() == NULL;
    alloc_fail_nth(1);
    r->take_rc = rtipc_sem_take(adopt_sem, rtipc_ms(1));
    alloc_fail_nth(0);
    r->injected = alloc_injected_count() - before;
    r->adopted_after = rtipc_task_current() != NULL;
    r->take_after = rtipc_sem_take(adopt_sem, rtipc_ms(1));
    return NULL;
}

static void test_adoption(void **state)
{
    (void)state;
    assert_int_equal(rtipc_sem_create_binary(&adopt_sem), RTIPC_OK);
    drain_pool();
    long live = alloc_live();
    adopt_result_t r = {0};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, foreign_thread, &r), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_true(r.current_null);
    assert_int_equal(r.take_rc, RTIPC_ENOMEM);
    assert_int_equal(r.injected, 2);
    assert_true(r.adopted_after);
    assert_int_equal(r.take_after, RTIPC_ETIMEDOUT);
    /* The adopted thread's descriptor went back to the pool when it ended. */
    assert_int_equal(alloc_live(), live + 1);
    release_holders();
    assert_int_equal(rtipc_sem_delete(adopt_sem), RTIPC_OK);
    ++paths_run;
    account("adopt (current, sem_take)", r.injected);
}

/* ---- the watchdog: idle tasks and the check interrupt --------------------- */
static int start_wdt(void **out)
{
    rtipc_wdt_config_t cfg = {.timeout_ns = 1000000000, .idle_check = true, .on_trip = NULL};
    static int started_marker; /* the watchdog has no handle: any non-NULL value */
    int rc = rtipc_wdt_start(&cfg);
    if (rc == RTIPC_OK)
        *out = &started_marker;
    return rc;
}

static void test_wdt(void **state)
{
    (void)state;
    /* Idle tasks may take pooled descriptors (then they allocate nothing);
     * the check interrupt always allocates. */
    long live = alloc_live();
    long injected_total = 0;
    bool started = false;
    /* n-th failure until success; after each failure nothing runs. */
    for (long n = 1; n <= MAX_STEPS; ++n) {
        long before = alloc_injected_count();
        void *out;
        int rc = create_failing_nth(n, start_wdt, &out);
        if (rc == RTIPC_OK) {
            assert_int_equal(alloc_injected_count(), before);
            started = true;
            break;
        }
        assert_int_equal(rc, RTIPC_ENOMEM);
        assert_ptr_equal(out, SENTINEL);
        assert_int_equal(alloc_injected_count(), before + 1);
        assert_int_equal(rtipc_wdt_stop(), RTIPC_EINVAL); /* nothing left running */
        ++injected_total;
    }
    assert_true(started); /* it starts once no allocation fails */
    assert_int_equal(rtipc_wdt_add(NULL), RTIPC_OK);
    assert_int_equal(rtipc_wdt_reset(), RTIPC_OK);
    assert_int_equal(rtipc_wdt_delete(NULL), RTIPC_OK);
    assert_int_equal(rtipc_wdt_stop(), RTIPC_OK);
    /* At most one pooled descriptor per idle task may remain; a further
     * start/stop cycle allocates no new block. */
    assert_true(alloc_live() <= live + rtipc_core_count() + 1);
    long steady = alloc_live();
    void *out = NULL;
    assert_int_equal(start_wdt(&out), RTIPC_OK);
    assert_int_equal(rtipc_wdt_stop(), RTIPC_OK);
    assert_int_equal(alloc_live(), steady);
    assert_true(injected_total >= 1); /* the check interrupt at least */
    ++paths_run;
    account("wdt_start", injected_total);
}

/* Reachable later, after creation: none of these allocates (notification
 * slots and the watchdog's subscription live in the task descriptor; a
 * queue set's membership in the member). Armed to fail the first
 * allocation, each must still succeed, and no allocation is attempted. */
static void test_later_calls_allocate_nothing(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current(); /* adopted before arming */
    assert_non_null(self);
    rtipc_wdt_config_t cfg = {.timeout_ns = 1000000000};
    assert_int_equal(rtipc_wdt_start(&cfg), RTIPC_OK);
    long attempts = alloc_attempt_count();
    uint32_t v = 0;
    alloc_fail_nth(1);
    int rc_give = rtipc_notify_give(self, 0);
    int rc_take = rtipc_notify_take(0, true, &v, RTIPC_NO_WAIT);
    int rc_set = rtipc_notify(self, 1, 0x5, RTIPC_NOTIFY_SET_BITS, NULL);
    int rc_wait = rtipc_notify_wait(1, 0, UINT32_MAX, &v, rtipc_ms(1));
    int rc_add = rtipc_wdt_add(NULL);
    int rc_reset = rtipc_wdt_reset();
    int rc_del = rtipc_wdt_delete(NULL);
    alloc_fail_nth(0);
    assert_int_equal(rtipc_wdt_stop(), RTIPC_OK);
    assert_int_equal(rc_give, RTIPC_OK);
    assert_int_equal(rc_take, RTIPC_OK);
    assert_int_equal(rc_set, RTIPC_OK);
    assert_int_equal(rc_wait, RTIPC_OK);
    assert_int_equal(v, 0x5);
    assert_int_equal(rc_add, RTIPC_OK);
    assert_int_equal(rc_reset, RTIPC_OK);
    assert_int_equal(rc_del, RTIPC_OK);
    assert_int_equal(alloc_attempt_count(), attempts);
}

static void test_summary(void **state)
{
    (void)state;
    assert_int_equal(total_paths, paths_run);
    printf("fault-alloc: %ld injected allocation failures over %d creation paths, 0 leaks\n", total_injected,
           total_paths);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_task),
        cmocka_unit_test(test_adoption),
        cmocka_unit_test(test_queue),
        cmocka_unit_test(test_sem_binary),
        cmocka_unit_test(test_sem_counting),
        cmocka_unit_test(test_mutex),
        cmocka_unit_test(test_mutex_recursive),
        cmocka_unit_test(test_eventgroup),
        cmocka_unit_test(test_ringbuf_nosplit),
        cmocka_unit_test(test_ringbuf_allowsplit),
        cmocka_unit_test(test_ringbuf_bytebuf),
        cmocka_unit_test(test_streambuf),
        cmocka_unit_test(test_msgbuf),
        cmocka_unit_test(test_mailbox),
        cmocka_unit_test(test_spsc),
        cmocka_unit_test(test_queueset),
        cmocka_unit_test(test_irq),
        cmocka_unit_test(test_wdt),
        cmocka_unit_test(test_later_calls_allocate_nothing),
        cmocka_unit_test(test_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
