/* Unit tests of include/rtipc/mailbox.h: every return path of every call,
 * versions, exact copies of odd-sized values (nothing written past the
 * value), readers undisturbed by a write in progress, writers refused (not
 * blocked) by another write in progress, waiting for a newer version from
 * tasks woken by every kind of write, and interrupt-context calls in real
 * handlers.
 *
 * Worker tasks never assert: they record what they saw and publish it with a
 * release store of `done`; the main thread asserts after joining. Some tests
 * look inside the control block (mailbox_internal.h) to stage a write in
 * progress or to check the sleepers flag. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../src/common/mailbox_internal.h"
#include "rtipc/mailbox.h"
#include "../../src/common/handle.h"
#include "test_support.h"

/* ---- allocation failure injection (alloc_fail.h) ---- */
#include "alloc_fail.h"

#define PROMPT_MS 5000 /* generous: other programs may keep a core busy */
#define SLACK_MS 300
#define SETTLE_MS 20
#define LONG_MS 20000

/* A value whose halves must agree. */
typedef struct {
    uint64_t seq[4];
    uint64_t inv[4];
} value_t;

static value_t val(uint64_t seq)
{
    value_t v;
    for (int i = 0; i < 4; ++i) {
        v.seq[i] = seq;
        v.inv[i] = ~seq;
    }
    return v;
}

static int is_val(const value_t *v, uint64_t seq)
{
    for (int i = 0; i < 4; ++i)
        if (v->seq[i] != seq || v->inv[i] != ~seq)
            return 0;
    return 1;
}

static rtipc_mailbox_t *new_mailbox(uint64_t initial_seq)
{
    rtipc_mailbox_t *mb = NULL;
    value_t v = val(initial_seq);
    assert_int_equal(rtipc_mailbox_create(sizeof v, &v, &mb), RTIPC_OK);
    assert_non_null(mb);
    return mb;
}

static void write_seq(rtipc_mailbox_t *mb, uint64_t seq)
{
    value_t v = val(seq);
    assert_int_equal(rtipc_mailbox_write(mb, &v), RTIPC_OK);
}

static uint32_t sleepers_flag(rtipc_mailbox_t *mb)
{
    struct rtipc__mailbox *in = rtipc__mailbox_of(mb);
    if (!in)
        abort(); /* not a live mailbox: the caller's bug */
    return atomic_load(&in->sleepers);
}

/* ---- workers ------------------------------------------------------------------ */
typedef struct {
    rtipc_mailbox_t *mb;
    uint64_t last_seen;
    rtipc_timeout_t timeout;
    int tid;
    int started;
    int done;
    int rc;
    value_t got;
    uint64_t version;
    int64_t elapsed_ns;
    int seen_blocked;
} waiter_t;

static waiter_t make_waiter(rtipc_mailbox_t *mb, uint64_t last_seen, rtipc_timeout_t timeout)
{
    /* rc 1: a waiter that never ran cannot pass. */
    return (waiter_t){.mb = mb, .last_seen = last_seen, .timeout = timeout, .rc = 1, .version = UINT64_MAX};
}

static void waiter_task(void *arg)
{
    waiter_t *w = arg;
    w->tid = (int)syscall(SYS_gettid);
    __atomic_store_n(&w->started, 1, __ATOMIC_RELEASE);
    int64_t t0 = rtipc_time_ns();
    w->rc = rtipc_mailbox_wait_newer(w->mb, &w->got, w->last_seen, &w->version, w->timeout);
    w->elapsed_ns = rtipc_time_ns() - t0;
    __atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
}

static int is_done(waiter_t *w) { return __atomic_load_n(&w->done, __ATOMIC_ACQUIRE); }

/* Start a waiter on @p core and wait until it is parked (asleep inside its
 * call). Sets w->seen_blocked. */
static rtipc_task_t *start_waiter_on(const char *name, unsigned priority, int core, waiter_t *w)
{
    rtipc_task_t *t = start_task(name, priority, core, waiter_task, w);
    w->seen_blocked = test_wait_parked(&w->started, &w->done, &w->tid, PROMPT_MS, SETTLE_MS, SETTLE_MS);
    return t;
}

static rtipc_task_t *start_waiter(waiter_t *w) { return start_waiter_on("wait", 3, test_core(1), w); }

/* ======================================================================== */
/* allocation failure                                                        */
/* ======================================================================== */
#if CAN_FAIL_ALLOC
typedef struct {
    rtipc_mailbox_t *mb;
    int rc_must_wait, rc_need_not_wait;
} foreign_t;

static void *foreign_thread(void *arg)
{
    foreign_t *f = arg;
    value_t v;
    set_fail_alloc(1);
    f->rc_must_wait = rtipc_mailbox_wait_newer(f->mb, &v, 0, NULL, rtipc_ms(20));
    f->rc_need_not_wait = rtipc_mailbox_write(f->mb, &v) == RTIPC_OK
                              ? rtipc_mailbox_wait_newer(f->mb, &v, 0, NULL, rtipc_ms(20))
                              : RTIPC_EINVAL;
    set_fail_alloc(0);
    return NULL;
}
#endif

static void wait_from_a_thread_that_cannot_be_adopted_fails_with_nomem(void **state)
{
    SKIP_ON_FREERTOS("a thread rtipc did not create");
    (void)state;
#if CAN_FAIL_ALLOC
    foreign_t f = {0};
    f.mb = new_mailbox(0);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, foreign_thread, &f), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_int_equal(f.rc_must_wait, RTIPC_ENOMEM);
    assert_int_equal(f.rc_need_not_wait, RTIPC_OK); /* newer at once: no task needed */
    assert_int_equal(sleepers_flag(f.mb), 0);
    assert_int_equal(rtipc_mailbox_delete(f.mb), RTIPC_OK);
#else
    printf("[  NOTE    ] allocation failure cannot be injected under a sanitizer\n");
    skip();
#endif
}

/* Creates (and at once deletes) the largest valid mailbox; its result. */
static int create_largest_mailbox(void *unused)
{
    (void)unused;
    rtipc_mailbox_t *mb = NULL;
    int rc = rtipc_mailbox_create(RTIPC_MAILBOX_MAX_VALUE_SIZE, NULL, &mb); /* 2 GiB of copies */
    if (rc == RTIPC_OK)
        rtipc_mailbox_delete(mb);
    return rc;
}

static void create_fails_with_nomem_when_memory_is_exhausted(void **state)
{
    (void)state;
    if (RTIPC_PORT_FREERTOS) {
        /* The kernel's heap (configTOTAL_HEAP_SIZE) cannot hold it. */
        rtipc_mailbox_t *mb = NULL;
        assert_int_equal(rtipc_mailbox_create(RTIPC_MAILBOX_MAX_VALUE_SIZE, NULL, &mb), RTIPC_ENOMEM);
        assert_null(mb);
        return;
    }
  assert_int_equal(with_address_space_capped(create_largest_mailbox, NULL), RTIPC_ENOMEM);
    assert_true(rtipc_mailbox_footprint_for(RTIPC_MAILBOX_MAX_VALUE_SIZE) > 0);
}

/* ======================================================================== */
/* creation and deletion                                                     */
/* ======================================================================== */
static void create_holds_the_initial_value_as_version_0(void **state)
{
    (void)state;
    rtipc_mailbox_t *mb = new_mailbox(17);
    value_t v;
    uint64_t ver = 99;
    assert_int_equal(rtipc_mailbox_read(mb, &v, &ver), RTIPC_OK);
    assert_true(is_val(&v, 17));
    assert_int_equal(ver, 0);
    assert_int_equal(rtipc_mailbox_version(mb, &ver), RTIPC_OK);
    assert_int_equal(ver, 0);
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
}

static void create_without_an_initial_value_holds_zeros(void **state)
{
    (void)state;
    rtipc_mailbox_t *mb = NULL;
    assert_int_equal(rtipc_mailbox_create(13, NULL, &mb), RTIPC_OK);
    unsigned char buf[13], zero[13] = {0};
    memset(buf, 0xaa, sizeof buf);
    assert_int_equal(rtipc_mailbox_read(mb, buf, NULL), RTIPC_OK);
    assert_memory_equal(buf, zero, sizeof buf);
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
}

static void create_with_an_invalid_size_is_invalid(void **state)
{
    (void)state;
    rtipc_mailbox_t *mb = (rtipc_mailbox_t *)(uintptr_t)1;
    assert_int_equal(rtipc_mailbox_create(8, NULL, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_mailbox_create(0, NULL, &mb), RTIPC_EINVAL);
    assert_int_equal(rtipc_mailbox_create(RTIPC_MAILBOX_MAX_VALUE_SIZE + 1, NULL, &mb), RTIPC_EINVAL);
    assert_ptr_equal(mb, (rtipc_mailbox_t *)(uintptr_t)1);
    assert_int_equal(rtipc_mailbox_footprint_for(RTIPC_MAILBOX_MAX_VALUE_SIZE + 1), 0);
}

static void static_mailbox_uses_caller_storage(void **state)
{
    (void)state;
    static rtipc_mailbox_static_t cb;
    static uint64_t storage[RTIPC_MAILBOX_STORAGE_SIZE(sizeof(value_t)) / 8];
    rtipc_mailbox_t *mb = NULL;
    value_t v = val(3);
    assert_int_equal(rtipc_mailbox_create_static(sizeof v, &v, storage, &cb, &mb), RTIPC_OK);
    /* The handle is a table entry (src/common/handle.h), not the caller's
     * memory, and it names the control block there. */
    assert_ptr_not_equal((void *)mb, (void *)&cb);
    assert_ptr_equal(rtipc__handle_get(mb, RTIPC__H_MAILBOX), (void *)&cb);
    assert_int_equal(storage[0], 3); /* version 0 sits in copy 0 of the caller's storage */
    write_seq(mb, 4);
    assert_int_equal(storage[sizeof(value_t) / 8], 4); /* version 1 in copy 1 */
    assert_int_equal(rtipc_mailbox_footprint(mb), rtipc_mailbox_footprint_for(0) + sizeof storage);
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
    assert_int_equal(rtipc_mailbox_read(mb, &v, NULL), RTIPC_EINVAL); /* dead */
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_EINVAL);
}

static void static_create_with_invalid_arguments_is_invalid(void **state)
{
    (void)state;
    static rtipc_mailbox_static_t cb;
    static uint64_t storage[8];
    rtipc_mailbox_t *mb = NULL;
    assert_int_equal(rtipc_mailbox_create_static(16, NULL, storage, &cb, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_mailbox_create_static(16, NULL, storage, NULL, &mb), RTIPC_EINVAL);
    assert_int_equal(rtipc_mailbox_create_static(16, NULL, NULL, &cb, &mb), RTIPC_EINVAL);
    assert_int_equal(rtipc_mailbox_create_static(0, NULL, storage, &cb, &mb), RTIPC_EINVAL);
    assert_int_equal(rtipc_mailbox_create_static(RTIPC_MAILBOX_MAX_VALUE_SIZE + 1, NULL, storage, &cb, &mb),
                     RTIPC_EINVAL);
    /* The copies are accessed as atomic words: storage must be aligned. */
    assert_int_equal(rtipc_mailbox_create_static(16, NULL, (unsigned char *)storage + 4, &cb, &mb), RTIPC_EINVAL);
    assert_null(mb);
}

static void static_create_is_allowed_in_interrupt_context(void **state)
{
    (void)state;
    static rtipc_mailbox_static_t cb;
    static uint64_t storage[4];
    rtipc_mailbox_t *mb = NULL;
    enter_interrupt_context();
    int rc = rtipc_mailbox_create_static(16, NULL, storage, &cb, &mb);
    leave_interrupt_context();
    assert_int_equal(rc, RTIPC_OK);
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
}

static void task_only_calls_in_interrupt_context_are_wrong_context(void **state)
{
    (void)state;
    rtipc_mailbox_t *mb = new_mailbox(0), *mb2 = NULL;
    value_t v = val(1);
    enter_interrupt_context();
    int rc_create = rtipc_mailbox_create(8, NULL, &mb2);
    int rc_delete = rtipc_mailbox_delete(mb);
    int rc_wait = rtipc_mailbox_wait_newer(mb, &v, 0, NULL, RTIPC_NO_WAIT);
    /* Reading and writing are fine in a handler. */
    int rc_write = rtipc_mailbox_write(mb, &v);
    int rc_read = rtipc_mailbox_read(mb, &v, NULL);
    leave_interrupt_context();
    assert_int_equal(rc_create, RTIPC_ECONTEXT);
    assert_null(mb2);
    assert_int_equal(rc_delete, RTIPC_ECONTEXT);
    assert_int_equal(rc_wait, RTIPC_ECONTEXT);
    assert_int_equal(rc_write, RTIPC_OK);
    assert_int_equal(rc_read, RTIPC_OK);
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
}

static void calls_on_a_dead_or_null_handle_are_invalid(void **state)
{
    (void)state;
    static rtipc_mailbox_static_t never_created;
    rtipc_mailbox_t *handles[] = {NULL, (rtipc_mailbox_t *)(void *)&never_created};
    value_t v = val(1);
    uint64_t ver = 5;
    bool woken = false;
    for (int i = 0; i < 2; ++i) {
        rtipc_mailbox_t *mb = handles[i];
        assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_EINVAL);
        assert_int_equal(rtipc_mailbox_write(mb, &v), RTIPC_EINVAL);
        assert_int_equal(rtipc_mailbox_write_from_isr(mb, &v, &woken), RTIPC_EINVAL);
        assert_int_equal(rtipc_mailbox_read(mb, &v, &ver), RTIPC_EINVAL);
        assert_int_equal(rtipc_mailbox_wait_newer(mb, &v, 0, &ver, rtipc_ms(10)), RTIPC_EINVAL);
        assert_int_equal(rtipc_mailbox_version(mb, &ver), RTIPC_EINVAL);
        assert_int_equal(rtipc_mailbox_footprint(mb), 0);
    }
    assert_int_equal(ver, 5);
    assert_false(woken);
}

static void null_buffers_are_invalid(void **state)
{
    (void)state;
    rtipc_mailbox_t *mb = new_mailbox(0);
    assert_int_equal(rtipc_mailbox_write(mb, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_mailbox_write_from_isr(mb, NULL, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_mailbox_read(mb, NULL, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_mailbox_wait_newer(mb, NULL, 0, NULL, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_mailbox_version(mb, NULL), RTIPC_EINVAL);
    uint64_t ver;
    assert_int_equal(rtipc_mailbox_version(mb, &ver), RTIPC_OK);
    assert_int_equal(ver, 0); /* nothing was written */
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
}

/* ======================================================================== */
/* reading and writing                                                       */
/* ======================================================================== */
static void each_write_is_read_back_with_the_next_version(void **state)
{
    (void)state;
    rtipc_mailbox_t *mb = new_mailbox(0);
    for (uint64_t i = 1; i <= 10; ++i) {
        write_seq(mb, 100 + i);
        value_t v;
        uint64_t ver = 0;
        assert_int_equal(rtipc_mailbox_read(mb, &v, &ver), RTIPC_OK);
        assert_true(is_val(&v, 100 + i));
        assert_int_equal(ver, i);
    }
    value_t v;
    assert_int_equal(rtipc_mailbox_read(mb, &v, NULL), RTIPC_OK); /* version optional */
    assert_true(is_val(&v, 110));
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
}

static void odd_sized_values_are_copied_exactly_and_nothing_past_them(void **state)
{
    (void)state;
    const size_t sizes[] = {1, 3, 7, 8, 9, 13, 64, 100};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        size_t n = sizes[k];
        unsigned char in[128], out[136], initial[128];
        for (size_t i = 0; i < n; ++i) {
            initial[i] = (unsigned char)(i * 7 + 1);
            in[i] = (unsigned char)(0xc0 + i);
        }
        rtipc_mailbox_t *mb = NULL;
        assert_int_equal(rtipc_mailbox_create(n, initial, &mb), RTIPC_OK);
        memset(out, 0x5a, sizeof out);
        assert_int_equal(rtipc_mailbox_read(mb, out, NULL), RTIPC_OK);
        assert_memory_equal(out, initial, n);
        for (size_t i = n; i < sizeof out; ++i)
            assert_int_equal(out[i], 0x5a); /* nothing written past the value */
        assert_int_equal(rtipc_mailbox_write(mb, in), RTIPC_OK);
        memset(out, 0x5a, sizeof out);
        assert_int_equal(rtipc_mailbox_read(mb, out, NULL), RTIPC_OK);
        assert_memory_equal(out, in, n);
        for (size_t i = n; i < sizeof out; ++i)
            assert_int_equal(out[i], 0x5a);
        assert_int_equal(rtipc_mailbox_footprint(mb), rtipc_mailbox_footprint_for(0) + 2 * ((n + 7) / 8 * 8));
        assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
    }
}

static void the_value_is_copied_in_by_value(void **state)
{
    (void)state;
    rtipc_mailbox_t *mb = new_mailbox(0);
    value_t v = val(1);
    assert_int_equal(rtipc_mailbox_write(mb, &v), RTIPC_OK);
    v = val(2); /* the caller's copy is not the mailbox's */
    value_t out;
    assert_int_equal(rtipc_mailbox_read(mb, &out, NULL), RTIPC_OK);
    assert_true(is_val(&out, 1));
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
}

static void footprint_is_the_control_block_plus_two_copies(void **state)
{
    (void)state;
    size_t cb = rtipc_mailbox_footprint_for(0);
    assert_true(cb > 0 && cb <= 64);
    assert_true(cb <= sizeof(rtipc_mailbox_static_t));
    assert_int_equal(rtipc_mailbox_footprint_for(64), cb + 128);
    assert_int_equal(rtipc_mailbox_footprint_for(1), cb + 16);
    assert_int_equal(RTIPC_MAILBOX_STORAGE_SIZE(13), 32);
    rtipc_mailbox_t *mb = new_mailbox(0);
    assert_int_equal(rtipc_mailbox_footprint(mb), cb + 2 * sizeof(value_t));
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
    print_message("mailbox: control block %zu bytes; 64-byte value: %zu bytes\n", cb,
                  rtipc_mailbox_footprint_for(64));
}

/* Stage a write in progress: claim the sequence as a writer would, and fill
 * the copy the write is going to, then leave it unfinished. */
static void stage_write_in_progress(rtipc_mailbox_t *mb, uint64_t seq_of_new_value)
{
    struct rtipc__mailbox *in = rtipc__mailbox_of(mb);
    uint64_t s = atomic_load(&in->seq);
    atomic_store(&in->seq, s + 1);
    uint64_t v = (s >> 1) + 1;
    value_t half = val(seq_of_new_value);
    /* only the first half: a torn value if anyone read this copy now */
    for (int i = 0; i < 4; ++i)
        atomic_store(&in->buf[(v & 1) * in->words + (size_t)i], half.seq[i]);
}

static void finish_staged_write(rtipc_mailbox_t *mb)
{
    struct rtipc__mailbox *in = rtipc__mailbox_of(mb);
    atomic_fetch_sub(&in->seq, 1); /* back to the state before the claim */
}

static void a_reader_is_not_held_up_by_a_write_in_progress(void **state)
{
    (void)state;
    rtipc_mailbox_t *mb = new_mailbox(0);
    write_seq(mb, 5); /* version 1 */
    stage_write_in_progress(mb, 6);
    value_t v;
    uint64_t ver = 0;
    int rc = rtipc_mailbox_read(mb, &v, &ver); /* returns at once: never waits */
    uint64_t cur = 99;
    rtipc_mailbox_version(mb, &cur);
    finish_staged_write(mb);
    assert_int_equal(rc, RTIPC_OK);
    assert_true(is_val(&v, 5)); /* the newest complete value, not the torn one */
    assert_int_equal(ver, 1);
    assert_int_equal(cur, 1);
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
}

static void a_write_during_another_write_is_refused_with_wouldblock(void **state)
{
    (void)state;
    rtipc_mailbox_t *mb = new_mailbox(0);
    write_seq(mb, 1);
    stage_write_in_progress(mb, 2);
    value_t v = val(3);
    bool woken = false;
    int rc_write = rtipc_mailbox_write(mb, &v);
    int rc_isr = rtipc_mailbox_write_from_isr(mb, &v, &woken);
    finish_staged_write(mb);
    assert_int_equal(rc_write, RTIPC_EWOULDBLOCK);
    assert_int_equal(rc_isr, RTIPC_EWOULDBLOCK);
    assert_false(woken);
    /* Not written: the mailbox still holds version 1. */
    uint64_t ver;
    assert_int_equal(rtipc_mailbox_read(mb, &v, &ver), RTIPC_OK);
    assert_int_equal(ver, 1);
    assert_true(is_val(&v, 1));
    /* And the next write goes through. */
    write_seq(mb, 4);
    assert_int_equal(rtipc_mailbox_read(mb, &v, &ver), RTIPC_OK);
    assert_int_equal(ver, 2);
    assert_true(is_val(&v, 4));
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
}

typedef struct racer {
    rtipc_mailbox_t *mb;
    const unsigned char *value;
    atomic_int stop;
    atomic_long written, refused;
    int other_errors;
    struct racer *other;
    int64_t give_up; /* rtipc_time_ns */
} racer_t;

/* Both have written and collided a few times, or time is up. The racers
 * check it themselves: on one core (the FreeRTOS simulator) the test's own
 * task, below them, does not run until they stop. */
static bool racers_done(racer_t *r)
{
    return rtipc_time_ns() >= r->give_up ||
           (atomic_load(&r->refused) + atomic_load(&r->other->refused) >= 20 && atomic_load(&r->written) >= 100 &&
            atomic_load(&r->other->written) >= 100);
}

static unsigned char big_value[2][65536];

static void racer_task(void *arg)
{
    racer_t *r = arg;
    unsigned x = (unsigned)(uintptr_t)r;
    while (!atomic_load(&r->stop) && !racers_done(r)) {
        int rc = rtipc_mailbox_write(r->mb, r->value);
        if (rc == RTIPC_OK)
            atomic_fetch_add(&r->written, 1);
        else if (rc == RTIPC_EWOULDBLOCK)
            atomic_fetch_add(&r->refused, 1);
        else
            r->other_errors++;
        /* A pause of random length between writes: a writer that writes
         * back to back leaves the other almost no gap to get in. */
        x = x * 1103515245u + 12345u;
        int64_t until = rtipc_time_ns() + (int64_t)((x >> 16) % 20000);
        while (rtipc_time_ns() < until) {
        }
    }
}

static void concurrent_writers_are_serialised_and_every_write_is_counted(void **state)
{
    (void)state;
    /* Two writers of a large value on both cores collide; every write either
     * lands (one version each) or is refused, none is lost silently. They
     * run until both have written and collided a few times (or 20 s, on a
     * machine other programs keep busy). */
    if (rtipc_core_count() < 2) {
        /* One core: the writers take turns whole (the refusal itself is
         * the test before this one). */
        print_message("needs two cores: %d here\n", rtipc_core_count());
        skip();
    }
    memset(big_value[0], 0x11, sizeof big_value[0]);
    memset(big_value[1], 0x22, sizeof big_value[1]);
    rtipc_mailbox_t *mb = NULL;
    assert_int_equal(rtipc_mailbox_create(sizeof big_value[0], NULL, &mb), RTIPC_OK);
    static racer_t a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.mb = b.mb = mb;
    a.value = big_value[0];
    b.value = big_value[1];
    a.other = &b;
    b.other = &a;
    a.give_up = b.give_up = rtipc_time_ns() + 20000000000ll;
    rtipc_task_t *ta = start_task("wa", 3, test_core(0), racer_task, &a);
    rtipc_task_t *tb = start_task("wb", 3, test_core(1), racer_task, &b);
    while (!racers_done(&a))
        sleep_ms(10);
    atomic_store(&a.stop, 1);
    atomic_store(&b.stop, 1);
    join_task(ta);
    join_task(tb);
    uint64_t ver;
    assert_int_equal(rtipc_mailbox_version(mb, &ver), RTIPC_OK);
    long aw = atomic_load(&a.written), bw = atomic_load(&b.written);
    long ar = atomic_load(&a.refused), br = atomic_load(&b.refused);
    print_message("two writers: %ld + %ld written, %ld + %ld refused\n", aw, bw, ar, br);
    assert_int_equal(a.other_errors + b.other_errors, 0);
    assert_int_equal(ver, (uint64_t)(aw + bw));
    assert_true(ar + br > 0); /* they did collide */
    assert_true(aw > 0 && bw > 0);
    /* The value is one writer's, whole. */
    static unsigned char out[65536];
    assert_int_equal(rtipc_mailbox_read(mb, out, NULL), RTIPC_OK);
    unsigned char first = out[0];
    assert_true(first == 0x11 || first == 0x22);
    for (size_t i = 0; i < sizeof out; ++i)
        if (out[i] != first)
            fail_msg("torn value at byte %zu", i);
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
}

/* ======================================================================== */
/* waiting for a newer version                                               */
/* ======================================================================== */
static void wait_newer_returns_at_once_when_a_newer_version_exists(void **state)
{
    (void)state;
    rtipc_mailbox_t *mb = new_mailbox(0);
    write_seq(mb, 1);
    write_seq(mb, 2);
    value_t v;
    uint64_t ver = 0;
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_mailbox_wait_newer(mb, &v, 0, &ver, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(ver, 2); /* the newest, not merely the next */
    assert_true(is_val(&v, 2));
    assert_int_equal(rtipc_mailbox_wait_newer(mb, &v, 1, &ver, RTIPC_FOREVER), RTIPC_OK);
    assert_int_equal(rtipc_mailbox_wait_newer(mb, &v, 1, NULL, rtipc_ms(LONG_MS)), RTIPC_OK);
    assert_true(rtipc_time_ns() - t0 < (int64_t)PROMPT_MS * 1000000);
    assert_int_equal(sleepers_flag(mb), 0);
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
}

static void wait_newer_with_no_wait_and_nothing_newer_would_block(void **state)
{
    (void)state;
    rtipc_mailbox_t *mb = new_mailbox(0);
    write_seq(mb, 1);
    value_t v = val(77);
    uint64_t ver = 77;
    assert_int_equal(rtipc_mailbox_wait_newer(mb, &v, 1, &ver, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_mailbox_wait_newer(mb, &v, 5, &ver, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_true(is_val(&v, 77)); /* untouched */
    assert_int_equal(ver, 77);
    assert_int_equal(sleepers_flag(mb), 0);
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
}

static void wait_newer_times_out_after_about_the_timeout(void **state)
{
    (void)state;
    rtipc_mailbox_t *mb = new_mailbox(0);
    value_t v = val(77);
    uint64_t ver = 77;
    int64_t t0 = rtipc_time_ns();
    int rc = rtipc_mailbox_wait_newer(mb, &v, 0, &ver, rtipc_ms(50));
    int64_t el = rtipc_time_ns() - t0;
    assert_int_equal(rc, RTIPC_ETIMEDOUT);
    assert_true(el >= 50000000);
    assert_true(el < (50 + SLACK_MS) * 1000000ll);
    assert_true(is_val(&v, 77));
    assert_int_equal(ver, 77);
    /* Nobody waits any more: writes are back to the flag check alone. */
    assert_int_equal(sleepers_flag(mb), 0);
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
}

typedef int (*write_fn)(rtipc_mailbox_t *mb, uint64_t seq);

static int by_write(rtipc_mailbox_t *mb, uint64_t seq)
{
    value_t v = val(seq);
    return rtipc_mailbox_write(mb, &v);
}

static int by_write_from_isr_in_task_context(rtipc_mailbox_t *mb, uint64_t seq)
{
    value_t v = val(seq);
    bool woken = false;
    int rc = rtipc_mailbox_write_from_isr(mb, &v, &woken);
    return rc == RTIPC_OK && woken ? RTIPC_EINVAL : rc; /* nothing to report outside a handler */
}

static void check_waiter_is_woken_by(write_fn write)
{
    rtipc_mailbox_t *mb = new_mailbox(0);
    static waiter_t w;
    w = make_waiter(mb, 0, rtipc_ms(LONG_MS));
    rtipc_task_t *t = start_waiter(&w);
    uint32_t announced = sleepers_flag(mb);
    int rc_write = write(mb, 8);
    int ok = wait_for_flag(&w.done, 1, PROMPT_MS);
    join_task(t);
    assert_true(w.seen_blocked);
    assert_int_equal(announced, 1);
    assert_int_equal(rc_write, RTIPC_OK);
    assert_true(ok);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_int_equal(w.version, 1);
    assert_true(is_val(&w.got, 8));
    assert_int_equal(sleepers_flag(mb), 0);
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
}

static void waiter_is_woken_by_a_write(void **state)
{
    (void)state;
    check_waiter_is_woken_by(by_write);
}

static void waiter_is_woken_by_write_from_isr_in_task_context(void **state)
{
    (void)state;
    check_waiter_is_woken_by(by_write_from_isr_in_task_context);
}

static void a_write_wakes_every_waiter_it_is_news_to_and_no_other(void **state)
{
    (void)state;
    /* More waiters than one wake-up round handles, plus two waiting for a
     * later version. */
    enum { OLD = 11, AHEAD = 2 };
    rtipc_mailbox_t *mb = new_mailbox(0);
    static waiter_t w[OLD + AHEAD];
    rtipc_task_t *t[OLD + AHEAD];
    for (int i = 0; i < OLD + AHEAD; ++i) {
        w[i] = make_waiter(mb, i < OLD ? 0 : 1, rtipc_ms(LONG_MS));
        t[i] = start_waiter_on("wait", 3, test_core(i % 2), &w[i]);
    }
    write_seq(mb, 1); /* news to the first OLD only */
    int old_done = 0;
    for (int i = 0; i < OLD; ++i)
        old_done += wait_for_flag(&w[i].done, 1, PROMPT_MS);
    sleep_ms(50);
    int ahead_waiting = 0;
    for (int i = OLD; i < OLD + AHEAD; ++i)
        ahead_waiting += !is_done(&w[i]);
    uint32_t flag_while_ahead_wait = sleepers_flag(mb);
    write_seq(mb, 2);
    int ahead_done = 0;
    for (int i = OLD; i < OLD + AHEAD; ++i)
        ahead_done += wait_for_flag(&w[i].done, 1, PROMPT_MS);
    for (int i = 0; i < OLD + AHEAD; ++i)
        join_task(t[i]);
    for (int i = 0; i < OLD + AHEAD; ++i) {
        if (!w[i].seen_blocked)
            print_message("waiter %d: started %d tid %d done %d rc %d elapsed %lld\n", i, w[i].started, w[i].tid, w[i].done, w[i].rc, (long long)w[i].elapsed_ns);
        assert_true(w[i].seen_blocked);
    }
    assert_int_equal(old_done, OLD);
    assert_int_equal(ahead_waiting, AHEAD);
    assert_int_equal(flag_while_ahead_wait, 1);
    assert_int_equal(ahead_done, AHEAD);
    for (int i = 0; i < OLD; ++i) {
        assert_int_equal(w[i].rc, RTIPC_OK);
        assert_true(w[i].version >= 1);
        assert_true(is_val(&w[i].got, w[i].version));
    }
    for (int i = OLD; i < OLD + AHEAD; ++i) {
        assert_int_equal(w[i].rc, RTIPC_OK);
        assert_int_equal(w[i].version, 2);
        assert_true(is_val(&w[i].got, 2));
    }
    assert_int_equal(sleepers_flag(mb), 0);
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
}

static void delete_with_a_waiter_is_refused_busy(void **state)
{
    (void)state;
    rtipc_mailbox_t *mb = new_mailbox(0);
    static waiter_t w;
    w = make_waiter(mb, 0, rtipc_ms(LONG_MS));
    rtipc_task_t *t = start_waiter(&w);
    int rc_delete = rtipc_mailbox_delete(mb);
    int still_blocked = !is_done(&w);
    uint64_t ver = 9;
    int rc_version = rtipc_mailbox_version(mb, &ver); /* still live */
    write_seq(mb, 1);
    int ok = wait_for_flag(&w.done, 1, PROMPT_MS);
    join_task(t);
    assert_true(w.seen_blocked);
    assert_int_equal(rc_delete, RTIPC_EBUSY);
    assert_true(still_blocked);
    assert_int_equal(rc_version, RTIPC_OK);
    assert_int_equal(ver, 0);
    assert_true(ok);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_int_equal(rtipc_mailbox_delete(mb), RTIPC_OK);
}

/* ======================================================================== */
/* interrupt handlers                                                        */
/* ======================================================================== */
static int irq_core(void) { return rtipc_core_count() >= 2 ? 1 : 0; }

typedef struct {
    rtipc_mailbox_t *mb;
    bool from_isr; /* write_from_isr with woken, else plain write */
    int rc;
    bool woken;
    _Atomic int handled;
} isr_job_t;

static void isr_write_handler(void *arg)
{
    isr_job_t *j = arg;
    value_t v = val(31);
    j->woken = false;
    j->rc = j->from_isr ? rtipc_mailbox_write_from_isr(j->mb, &v, &j->woken) : rtipc_mailbox_write(j->mb, &v);
    rtipc_irq_yield(j->woken);
    atomic_store(&j->handled, 1);
}

static void check_handler_write_readies_the_waiter(bool from_isr)
{
    pin_main_to_core0();
    isr_job_t j;
    memset(&j, 0, sizeof j);
    j.mb = new_mailbox(0);
    j.from_isr = from_isr;
    static waiter_t w;
    w = make_waiter(j.mb, 0, rtipc_ms(LONG_MS));
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(irq_core(), isr_write_handler, &j, &irq), RTIPC_OK);
    rtipc_task_t *t = start_waiter_on("wait", 10, irq_core(), &w);
    assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
    int ran = wait_for_flag((volatile int *)&j.handled, 1, PROMPT_MS);
    int finished = wait_for_flag(&w.done, 1, PROMPT_MS);
    join_task(t);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
    assert_true(w.seen_blocked);
    assert_true(ran);
    assert_int_equal(j.rc, RTIPC_OK);
    assert_int_equal(j.woken, from_isr); /* the waiter outranks the idle core */
    assert_true(finished);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_int_equal(w.version, 1);
    assert_true(is_val(&w.got, 31));
    assert_int_equal(rtipc_mailbox_delete(j.mb), RTIPC_OK);
}

static void write_from_isr_in_a_handler_readies_the_waiter_and_sets_woken(void **state)
{
    (void)state;
    check_handler_write_readies_the_waiter(true);
}

static void plain_write_in_a_handler_readies_the_waiter(void **state)
{
    (void)state;
    check_handler_write_readies_the_waiter(false);
}

typedef struct {
    rtipc_mailbox_t *mb;
    int rc[6];
    uint64_t ver;
    bool woken_kept;
    _Atomic int ran;
} isr_outcomes_t;

static void outcomes_handler(void *arg)
{
    isr_outcomes_t *p = arg;
    value_t v = val(44);
    bool woken = true; /* set-only */
    p->rc[0] = rtipc_mailbox_write_from_isr(p->mb, &v, &woken);
    p->rc[1] = rtipc_mailbox_read(p->mb, &v, &p->ver);
    p->rc[2] = rtipc_mailbox_version(p->mb, &p->ver);
    p->rc[3] = rtipc_mailbox_wait_newer(p->mb, &v, 0, NULL, RTIPC_NO_WAIT); /* task only */
    p->rc[4] = rtipc_mailbox_write_from_isr(p->mb, NULL, &woken);
    p->rc[5] = rtipc_mailbox_write(p->mb, &v);
    p->woken_kept = woken;
    atomic_store(&p->ran, 1);
}

static void interrupt_safe_calls_report_each_outcome_in_a_handler(void **state)
{
    (void)state;
    isr_outcomes_t p;
    memset(&p, 0, sizeof p);
    p.mb = new_mailbox(0);
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(irq_core(), outcomes_handler, &p, &irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
    assert_true(wait_for_flag((volatile int *)&p.ran, 1, PROMPT_MS));
    const int want[6] = {RTIPC_OK, RTIPC_OK, RTIPC_OK, RTIPC_ECONTEXT, RTIPC_EINVAL, RTIPC_OK};
    for (int i = 0; i < 6; ++i)
        assert_int_equal(p.rc[i], want[i]);
    assert_int_equal(p.ver, 1);
    assert_true(p.woken_kept);
    uint64_t ver;
    assert_int_equal(rtipc_mailbox_version(p.mb, &ver), RTIPC_OK);
    assert_int_equal(ver, 2);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
    assert_int_equal(rtipc_mailbox_delete(p.mb), RTIPC_OK);
}

int main(void)
{
    print_message("scheduling: %s\n", rtipc_sched_policy_describe());
    const struct CMUnitTest tests[] = {
        /* Allocation failure first: adoption fails only while the task pool
         * is empty, i.e. before any task has been joined. */
        cmocka_unit_test(wait_from_a_thread_that_cannot_be_adopted_fails_with_nomem),
        cmocka_unit_test(create_fails_with_nomem_when_memory_is_exhausted),
        cmocka_unit_test(create_holds_the_initial_value_as_version_0),
        cmocka_unit_test(create_without_an_initial_value_holds_zeros),
        cmocka_unit_test(create_with_an_invalid_size_is_invalid),
        cmocka_unit_test(static_mailbox_uses_caller_storage),
        cmocka_unit_test(static_create_with_invalid_arguments_is_invalid),
        cmocka_unit_test(static_create_is_allowed_in_interrupt_context),
        cmocka_unit_test(task_only_calls_in_interrupt_context_are_wrong_context),
        cmocka_unit_test(calls_on_a_dead_or_null_handle_are_invalid),
        cmocka_unit_test(null_buffers_are_invalid),
        cmocka_unit_test(each_write_is_read_back_with_the_next_version),
        cmocka_unit_test(odd_sized_values_are_copied_exactly_and_nothing_past_them),
        cmocka_unit_test(the_value_is_copied_in_by_value),
        cmocka_unit_test(footprint_is_the_control_block_plus_two_copies),
        cmocka_unit_test(a_reader_is_not_held_up_by_a_write_in_progress),
        cmocka_unit_test(a_write_during_another_write_is_refused_with_wouldblock),
        cmocka_unit_test(concurrent_writers_are_serialised_and_every_write_is_counted),
        cmocka_unit_test(wait_newer_returns_at_once_when_a_newer_version_exists),
        cmocka_unit_test(wait_newer_with_no_wait_and_nothing_newer_would_block),
        cmocka_unit_test(wait_newer_times_out_after_about_the_timeout),
        cmocka_unit_test(waiter_is_woken_by_a_write),
        cmocka_unit_test(waiter_is_woken_by_write_from_isr_in_task_context),
        cmocka_unit_test(a_write_wakes_every_waiter_it_is_news_to_and_no_other),
        cmocka_unit_test(delete_with_a_waiter_is_refused_busy),
        cmocka_unit_test(write_from_isr_in_a_handler_readies_the_waiter_and_sets_woken),
        cmocka_unit_test(plain_write_in_a_handler_readies_the_waiter),
        cmocka_unit_test(interrupt_safe_calls_report_each_outcome_in_a_handler),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
