/* Binary and counting semaphores (include/rtipc/sem.h): every return path of
 * every call, waiting order, timeouts and deletion.
 *
 * Worker tasks never assert: they record what they saw in a struct that the
 * main thread checks after the task is done (flags polled across threads go
 * through __atomic builtins). Observations made while tasks are still running
 * are kept in locals and asserted only after the tasks have been released and
 * joined, so a failing check does not leave tasks behind. */
#include "../../src/common/handle.h"
#include "test_support.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Time a started task is given to reach its blocking call and park. */
#define SETTLE_MS 50
/* Result slots start as this (no rtipc call returns a positive value), so a
 * task that never got to record its result cannot pass for a success. */
#define NOT_RUN 1
/* Generous bound for anything that should happen "at once" (the machines are
 * shared with other real-time tests). */
#define PROMPT_MS 5000
/* Time budget of a worker in the concurrency test, normally ~100x its need. */
#define WORKER_BUDGET_MS 15000
/* Slack allowed above a requested timeout on a noisy machine. */
#define SLACK_MS 200

/* ---- allocation failure injection (alloc_fail.h) ---- */
#include "alloc_fail.h"

#if !CAN_FAIL_ALLOC
/* Say why, then skip the calling test (main thread only; does not return). */
static void skip_without_alloc_failure(const char *what)
{
    printf("[  NOTE    ] %s: allocation failure cannot be injected under a sanitizer\n", what);
    skip();
}
#endif

/* ---- helpers ------------------------------------------------------------- */
static int load(const int *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static void store(int *p, int v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
static int64_t elapsed_ms(int64_t t0) { return (rtipc_time_ns() - t0) / 1000000; }

/* One task taking once from a semaphore. */
typedef struct {
    rtipc_sem_t *s;
    rtipc_timeout_t timeout;
    int *tickets;       /* shared: order in which takers succeeded */
    int started;        /* flag: about to call take */
    int done;           /* flag: take returned */
    int rc;             /* what take returned */
    int ticket;         /* 1-based order of success, 0 if none */
    int64_t elapsed_ns; /* time spent in take */
} taker_t;

static void taker(void *arg)
{
    taker_t *t = arg;
    store(&t->started, 1);
    int64_t t0 = rtipc_time_ns();
    int rc = rtipc_sem_take(t->s, t->timeout);
    t->elapsed_ns = rtipc_time_ns() - t0;
    t->rc = rc;
    if (rc == RTIPC_OK && t->tickets)
        t->ticket = __atomic_add_fetch(t->tickets, 1, __ATOMIC_ACQ_REL);
    store(&t->done, 1);
}

static taker_t make_taker(rtipc_sem_t *s, rtipc_timeout_t timeout, int *tickets)
{
    taker_t t = {.s = s, .timeout = timeout, .tickets = tickets, .rc = NOT_RUN};
    return t;
}

/* Start a taker and give it time to block. */
static rtipc_task_t *start_blocked_taker(const char *name, unsigned prio, taker_t *t)
{
    rtipc_task_t *task = start_task(name, prio, RTIPC_CORE_ANY, taker, t);
    wait_for_flag(&t->started, 1, PROMPT_MS);
    sleep_ms(SETTLE_MS);
    return task;
}

static int done_count(taker_t *t, int n)
{
    int c = 0;
    for (int i = 0; i < n; ++i)
        c += load(&t[i].done);
    return c;
}

/* Poll until at least want of the n takers are done (or ms pass). */
static int wait_done(taker_t *t, int n, int want, unsigned ms)
{
    int64_t t0 = rtipc_time_ns();
    while (done_count(t, n) < want) {
        if (elapsed_ms(t0) > (int64_t)ms)
            return 0;
        sleep_ms(1);
    }
    return 1;
}

/* Join a task that should be done by now. One still blocked after PROMPT_MS
 * is deleted instead (its results stay unset, so the test fails rather than
 * hangs). Returns whether it was done. */
static int finish_task(rtipc_task_t *t, const int *done)
{
    int was_done = wait_for_flag(done, 1, PROMPT_MS);
    if (was_done)
        join_task(t);
    else
        rtipc_task_delete(t);
    return was_done;
}

/* ---- allocation failure (first: they need an empty descriptor pool, i.e.
 * no task may have been joined yet in this process) ----------------------- */
static void dynamic_creation_fails_with_nomem_when_allocation_fails(void **state)
{
    (void)state;
#if CAN_FAIL_ALLOC
    rtipc_sem_t *bin = NULL, *cnt = NULL;
    set_fail_alloc(1);
    int rc_bin = rtipc_sem_create_binary(&bin);
    int rc_cnt = rtipc_sem_create_counting(4, 1, &cnt);
    set_fail_alloc(0);
    assert_int_equal(rc_bin, RTIPC_ENOMEM);
    assert_int_equal(rc_cnt, RTIPC_ENOMEM);
    assert_null(bin);
    assert_null(cnt);
    /* And it works again once memory is back. */
    assert_int_equal(rtipc_sem_create_binary(&bin), RTIPC_OK);
    assert_int_equal(rtipc_sem_delete(bin), RTIPC_OK);
#else
    skip_without_alloc_failure(__func__);
#endif
}

#if CAN_FAIL_ALLOC
typedef struct {
    rtipc_sem_t *s;
    int rc_must_wait;    /* take on count 0 with a timeout */
    int rc_need_not_wait; /* take on count 1 */
} foreign_t;

/* A plain pthread (not an rtipc task) whose adoption cannot allocate. */
static void *foreign_taker(void *arg)
{
    foreign_t *f = arg;
    set_fail_alloc(1);
    f->rc_must_wait = rtipc_sem_take(f->s, rtipc_ms(20));
    f->rc_need_not_wait = RTIPC_EINVAL;
    if (rtipc_sem_give(f->s) == RTIPC_OK) /* give never needs a task */
        f->rc_need_not_wait = rtipc_sem_take(f->s, rtipc_ms(20));
    set_fail_alloc(0);
    return NULL;
}
#endif

static void take_from_a_thread_that_cannot_be_adopted_fails_with_nomem(void **state)
{
    SKIP_ON_FREERTOS("a thread rtipc did not create");
    (void)state;
#if CAN_FAIL_ALLOC
    foreign_t f = {0};
    assert_int_equal(rtipc_sem_create_binary(&f.s), RTIPC_OK);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, foreign_taker, &f), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_int_equal(f.rc_must_wait, RTIPC_ENOMEM);
    /* A take that need not wait needs no task, so it still succeeds. */
    assert_int_equal(f.rc_need_not_wait, RTIPC_OK);
    assert_int_equal(rtipc_sem_count(f.s), 0);
    assert_int_equal(rtipc_sem_delete(f.s), RTIPC_OK);
#else
    skip_without_alloc_failure(__func__);
#endif
}

/* ---- creation ------------------------------------------------------------ */
static void binary_semaphore_is_created_empty(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_binary(&s), RTIPC_OK);
    assert_non_null(s);
    assert_int_equal(rtipc_sem_count(s), 0);
    assert_int_equal(rtipc_sem_max(s), 1);
    assert_int_equal(rtipc_sem_take(s, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void binary_semaphore_counts_to_one(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_binary(&s), RTIPC_OK);
    assert_int_equal(rtipc_sem_give(s), RTIPC_OK);
    assert_int_equal(rtipc_sem_count(s), 1);
    assert_int_equal(rtipc_sem_give(s), RTIPC_EOVERFLOW);
    assert_int_equal(rtipc_sem_count(s), 1);
    assert_int_equal(rtipc_sem_take(s, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_sem_count(s), 0);
    assert_int_equal(rtipc_sem_take(s, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void counting_semaphore_starts_at_its_initial_count(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_counting(5, 2, &s), RTIPC_OK);
    assert_int_equal(rtipc_sem_count(s), 2);
    assert_int_equal(rtipc_sem_max(s), 5);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
    assert_int_equal(rtipc_sem_create_counting(3, 0, &s), RTIPC_OK);
    assert_int_equal(rtipc_sem_count(s), 0);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void counting_semaphore_counts_to_its_maximum(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_counting(4, 0, &s), RTIPC_OK);
    for (int i = 1; i <= 4; ++i) {
        assert_int_equal(rtipc_sem_give(s), RTIPC_OK);
        assert_int_equal(rtipc_sem_count(s), i);
    }
    assert_int_equal(rtipc_sem_give(s), RTIPC_EOVERFLOW);
    assert_int_equal(rtipc_sem_count(s), 4);
    for (int i = 3; i >= 0; --i) {
        assert_int_equal(rtipc_sem_take(s, RTIPC_NO_WAIT), RTIPC_OK);
        assert_int_equal(rtipc_sem_count(s), i);
    }
    assert_int_equal(rtipc_sem_take(s, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_sem_count(s), 0);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void giving_a_full_semaphore_fails_with_overflow(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_counting(3, 3, &s), RTIPC_OK);
    assert_int_equal(rtipc_sem_give(s), RTIPC_EOVERFLOW);
    assert_int_equal(rtipc_sem_give(s), RTIPC_EOVERFLOW);
    assert_int_equal(rtipc_sem_count(s), 3);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void counting_semaphore_accepts_the_largest_maximum(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_counting(INT32_MAX, INT32_MAX, &s), RTIPC_OK);
    assert_int_equal(rtipc_sem_max(s), INT32_MAX);
    assert_int_equal(rtipc_sem_count(s), INT32_MAX);
    assert_int_equal(rtipc_sem_give(s), RTIPC_EOVERFLOW);
    assert_int_equal(rtipc_sem_take(s, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_sem_count(s), INT32_MAX - 1);
    assert_int_equal(rtipc_sem_give(s), RTIPC_OK);
    assert_int_equal(rtipc_sem_count(s), INT32_MAX);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void dynamic_creation_with_invalid_parameters_fails_with_inval(void **state)
{
    (void)state;
    rtipc_sem_t *const sentinel = (rtipc_sem_t *)(uintptr_t)0x1;
    rtipc_sem_t *s = sentinel;
    assert_int_equal(rtipc_sem_create_binary(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_create_counting(1, 0, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_create_counting(0, 0, &s), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_create_counting((unsigned)INT32_MAX + 1u, 0, &s), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_create_counting(UINT_MAX, 0, &s), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_create_counting(3, 4, &s), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_create_counting(1, UINT_MAX, &s), RTIPC_EINVAL);
    assert_ptr_equal(s, sentinel); /* nothing was written */
}

/* ---- static creation and footprint ---------------------------------------- */
static void static_semaphore_lives_in_caller_memory(void **state)
{
    (void)state;
    rtipc_sem_static_t cb;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_static(1, 0, &cb, &s), RTIPC_OK);
    /* The handle is a table entry (src/common/handle.h), not the caller's
     * memory, and it names the control block there. */
    assert_ptr_not_equal((void *)s, (void *)&cb);
    assert_ptr_equal(rtipc__handle_get(s, RTIPC__H_SEM), (void *)&cb);
    /* Binary parameters: created empty, counts to one. */
    assert_int_equal(rtipc_sem_count(s), 0);
    assert_int_equal(rtipc_sem_max(s), 1);
    assert_int_equal(rtipc_sem_take(s, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_sem_give(s), RTIPC_OK);
    assert_int_equal(rtipc_sem_give(s), RTIPC_EOVERFLOW);
    assert_int_equal(rtipc_sem_take(s, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
    /* Deleted: the memory is the caller's again and the handle is dead. */
    assert_int_equal(rtipc_sem_count(s), RTIPC_EINVAL);

    /* Counting parameters in the same memory. */
    assert_int_equal(rtipc_sem_create_static(7, 5, &cb, &s), RTIPC_OK);
    assert_int_equal(rtipc_sem_count(s), 5);
    assert_int_equal(rtipc_sem_max(s), 7);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void static_creation_with_invalid_parameters_fails_with_inval(void **state)
{
    (void)state;
    rtipc_sem_static_t cb;
    rtipc_sem_t *const sentinel = (rtipc_sem_t *)(uintptr_t)0x1;
    rtipc_sem_t *s = sentinel;
    assert_int_equal(rtipc_sem_create_static(1, 0, NULL, &s), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_create_static(1, 0, &cb, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_create_static(0, 0, &cb, &s), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_create_static(2, 3, &cb, &s), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_create_static((unsigned)INT32_MAX + 1u, 0, &cb, &s), RTIPC_EINVAL);
    assert_ptr_equal(s, sentinel);
}

static void static_creation_is_allowed_in_interrupt_context(void **state)
{
    (void)state;
    rtipc_sem_static_t cb;
    rtipc_sem_t *s = NULL;
    enter_interrupt_context();
    int rc = rtipc_sem_create_static(2, 1, &cb, &s);
    leave_interrupt_context();
    if (RTIPC_PORT_FREERTOS) {
        /* sem.h, Port notes: the kernel's creation is task-level only. */
        assert_int_equal(rc, RTIPC_ECONTEXT);
        assert_int_equal(rtipc_sem_create_static(2, 1, &cb, &s), RTIPC_OK);
    } else {
        assert_int_equal(rc, RTIPC_OK);
    }
    /* The handle is a table entry (src/common/handle.h), not the caller's
     * memory, and it names the control block there. */
    assert_ptr_not_equal((void *)s, (void *)&cb);
    assert_ptr_equal(rtipc__handle_get(s, RTIPC__H_SEM), (void *)&cb);
    assert_int_equal(rtipc_sem_count(s), 1);
    assert_int_equal(rtipc_sem_max(s), 2);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void footprint_is_the_size_of_a_semaphore(void **state)
{
    (void)state;
    size_t any = rtipc_sem_footprint(NULL);
    assert_true(any > 0);
    assert_true(any <= sizeof(rtipc_sem_static_t));

    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_counting(9, 0, &s), RTIPC_OK);
    assert_int_equal(rtipc_sem_footprint(s), any);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);

    rtipc_sem_static_t cb;
    assert_int_equal(rtipc_sem_create_static(1, 0, &cb, &s), RTIPC_OK);
    assert_int_equal(rtipc_sem_footprint(s), any);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
    assert_int_equal(rtipc_sem_footprint(s), 0); /* no longer live */
}

/* ---- invalid handles and wrong context ------------------------------------ */
static void calls_on_a_dead_or_foreign_handle_fail_with_inval(void **state)
{
    (void)state;
    assert_int_equal(rtipc_sem_delete(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_give(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_take(NULL, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_take(NULL, RTIPC_FOREVER), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_count(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_max(NULL), RTIPC_EINVAL);

    /* A deleted semaphore (static, so its memory is still readable). */
    rtipc_sem_static_t cb;
    rtipc_sem_t *dead = NULL;
    assert_int_equal(rtipc_sem_create_static(1, 1, &cb, &dead), RTIPC_OK);
    assert_int_equal(rtipc_sem_delete(dead), RTIPC_OK);
    assert_int_equal(rtipc_sem_delete(dead), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_give(dead), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_take(dead, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_take(dead, RTIPC_FOREVER), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_count(dead), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_max(dead), RTIPC_EINVAL);

    /* A live object of another type. */
    rtipc_mutex_static_t mcb;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create_static(false, &mcb, &m), RTIPC_OK);
    rtipc_sem_t *foreign = (rtipc_sem_t *)(void *)m;
    assert_int_equal(rtipc_sem_give(foreign), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_take(foreign, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_count(foreign), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_max(foreign), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_footprint(foreign), 0);
    assert_int_equal(rtipc_sem_delete(foreign), RTIPC_EINVAL);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK); /* untouched by the above */
}

static void task_only_calls_fail_with_context_error_in_an_interrupt(void **state)
{
    (void)state;
    rtipc_sem_t *one = NULL, *zero = NULL;
    assert_int_equal(rtipc_sem_create_counting(2, 1, &one), RTIPC_OK);
    assert_int_equal(rtipc_sem_create_binary(&zero), RTIPC_OK);
    rtipc_sem_t *created_bin = NULL, *created_cnt = NULL;

    enter_interrupt_context();
    int rc_bin = rtipc_sem_create_binary(&created_bin);
    int rc_cnt = rtipc_sem_create_counting(3, 0, &created_cnt);
    int rc_give = rtipc_sem_give(one);
    int rc_take = rtipc_sem_take(one, RTIPC_NO_WAIT);
    int64_t t0 = rtipc_time_ns();
    int rc_take_forever = rtipc_sem_take(zero, RTIPC_FOREVER); /* must not block */
    int64_t forever_ms = elapsed_ms(t0);
    int rc_delete = rtipc_sem_delete(one);
    /* The "any context" calls still answer. */
    int count = rtipc_sem_count(one);
    int max = rtipc_sem_max(one);
    size_t fp = rtipc_sem_footprint(one);
    leave_interrupt_context();

    assert_int_equal(rc_bin, RTIPC_ECONTEXT);
    assert_int_equal(rc_cnt, RTIPC_ECONTEXT);
    assert_null(created_bin);
    assert_null(created_cnt);
    assert_int_equal(rc_give, RTIPC_ECONTEXT);
    assert_int_equal(rc_take, RTIPC_ECONTEXT);
    assert_int_equal(rc_take_forever, RTIPC_ECONTEXT);
    assert_true(forever_ms < PROMPT_MS);
    assert_int_equal(rc_delete, RTIPC_ECONTEXT);
    assert_int_equal(count, 1); /* neither the give nor the take happened */
    assert_int_equal(max, 2);
    assert_int_equal(fp, rtipc_sem_footprint(NULL));
    /* The refused delete left it alive. */
    assert_int_equal(rtipc_sem_count(one), 1);
    assert_int_equal(rtipc_sem_delete(one), RTIPC_OK);
    assert_int_equal(rtipc_sem_delete(zero), RTIPC_OK);
}

/* ---- taking --------------------------------------------------------------- */
static void take_with_no_wait_on_zero_count_would_block(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_counting(2, 0, &s), RTIPC_OK);
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_sem_take(s, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_sem_take(s, rtipc_ns(0)), RTIPC_EWOULDBLOCK); /* 0 ns is no wait */
    assert_true(elapsed_ms(t0) < PROMPT_MS);
    assert_int_equal(rtipc_sem_count(s), 0);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void take_with_a_count_succeeds_at_once_whatever_the_timeout(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_counting(3, 3, &s), RTIPC_OK);
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_sem_take(s, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_sem_take(s, rtipc_ms(5000)), RTIPC_OK);
    assert_int_equal(rtipc_sem_take(s, RTIPC_FOREVER), RTIPC_OK);
    assert_true(elapsed_ms(t0) < PROMPT_MS);
    assert_int_equal(rtipc_sem_count(s), 0);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void take_times_out_after_about_the_timeout(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_binary(&s), RTIPC_OK);
    int64_t t0 = rtipc_time_ns();
    int rc = rtipc_sem_take(s, rtipc_ms(100));
    int64_t ms = elapsed_ms(t0);
    assert_int_equal(rc, RTIPC_ETIMEDOUT);
    assert_true(ms >= 100);
    assert_true(ms < 100 + SLACK_MS);
    assert_int_equal(rtipc_sem_count(s), 0);
    /* The timed-out taker left no trace: delete is not refused. */
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void task_take_times_out_after_about_the_timeout(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_binary(&s), RTIPC_OK);
    taker_t t = make_taker(s, rtipc_ms(80), NULL);
    rtipc_task_t *task = start_task("taker", 5, RTIPC_CORE_ANY, taker, &t);
    join_task(task);
    assert_int_equal(t.rc, RTIPC_ETIMEDOUT);
    assert_true(t.elapsed_ns >= 80 * 1000000LL);
    assert_true(t.elapsed_ns < (80 + SLACK_MS) * 1000000LL);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void give_wakes_a_blocked_taker(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_binary(&s), RTIPC_OK);
    taker_t t = make_taker(s, RTIPC_FOREVER, NULL);
    rtipc_task_t *task = start_blocked_taker("taker", 5, &t);
    int blocked = !load(&t.done);
    int rc_give = rtipc_sem_give(s);
    int woke = finish_task(task, &t.done);
    assert_true(blocked);
    assert_int_equal(rc_give, RTIPC_OK);
    assert_true(woke);
    assert_int_equal(t.rc, RTIPC_OK);
    assert_int_equal(rtipc_sem_count(s), 0); /* the taker consumed the give */
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void give_wakes_a_taker_before_its_timeout(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_binary(&s), RTIPC_OK);
    taker_t t = make_taker(s, rtipc_ms(5000), NULL);
    rtipc_task_t *task = start_blocked_taker("taker", 5, &t);
    int blocked = !load(&t.done);
    assert_int_equal(rtipc_sem_give(s), RTIPC_OK);
    finish_task(task, &t.done);
    assert_true(blocked);
    assert_int_equal(t.rc, RTIPC_OK);
    assert_true(t.elapsed_ns >= SETTLE_MS * 1000000LL);
    assert_true(t.elapsed_ns < 4000 * 1000000LL);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

/* The one delayed give waits a fixed time: a constant, not a field. */
enum { GIVE_DELAY_MS = 60 };

typedef struct {
    rtipc_sem_t *s;
    int rc;
} giver_t;

static void delayed_giver(void *arg)
{
    giver_t *g = arg;
    rtipc_task_delay(rtipc_ms(GIVE_DELAY_MS));
    g->rc = rtipc_sem_give(g->s);
}

static void give_from_a_task_wakes_the_main_thread(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_binary(&s), RTIPC_OK);
    giver_t g = {.s = s, .rc = NOT_RUN};
    rtipc_task_t *task = start_task("giver", 5, RTIPC_CORE_ANY, delayed_giver, &g);
    int64_t t0 = rtipc_time_ns();
    int rc = rtipc_sem_take(s, rtipc_ms(5000));
    int64_t ms = elapsed_ms(t0);
    join_task(task);
    assert_int_equal(g.rc, RTIPC_OK);
    assert_int_equal(rc, RTIPC_OK);
    assert_true(ms >= 50); /* it did wait for the give */
    assert_true(ms < 4000);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void each_give_releases_exactly_one_taker(void **state)
{
    (void)state;
    enum { N = 3 };
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_counting(N, 0, &s), RTIPC_OK);
    taker_t t[N];
    rtipc_task_t *task[N];
    for (int i = 0; i < N; ++i) {
        t[i] = make_taker(s, RTIPC_FOREVER, NULL);
        task[i] = start_task("taker", 5, RTIPC_CORE_ANY, taker, &t[i]);
    }
    for (int i = 0; i < N; ++i)
        wait_for_flag(&t[i].started, 1, PROMPT_MS);
    sleep_ms(SETTLE_MS);
    int done_before = done_count(t, N);
    rtipc_sem_give(s);
    rtipc_sem_give(s);
    wait_done(t, N, 2, PROMPT_MS);
    sleep_ms(SETTLE_MS); /* room for a wrongly released third taker */
    int done_after_two = done_count(t, N);
    int count_after_two = rtipc_sem_count(s);
    rtipc_sem_give(s);
    for (int i = 0; i < N; ++i)
        finish_task(task[i], &t[i].done);
    assert_int_equal(done_before, 0);
    assert_int_equal(done_after_two, 2);
    assert_int_equal(count_after_two, 0);
    for (int i = 0; i < N; ++i)
        assert_int_equal(t[i].rc, RTIPC_OK);
    assert_int_equal(rtipc_sem_count(s), 0);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

/* ---- waiting order -------------------------------------------------------- */
static void higher_priority_taker_is_served_first(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_binary(&s), RTIPC_OK);
    int tickets = 0;
    taker_t t[2] = {make_taker(s, RTIPC_FOREVER, &tickets), make_taker(s, RTIPC_FOREVER, &tickets)};
    /* The low-priority taker queues first. */
    rtipc_task_t *low = start_blocked_taker("low", 3, &t[0]);
    rtipc_task_t *high = start_blocked_taker("high", 8, &t[1]);
    rtipc_sem_give(s);
    wait_done(t, 2, 1, PROMPT_MS);
    sleep_ms(SETTLE_MS);
    int high_done_first = load(&t[1].done);
    int low_done_first = load(&t[0].done);
    rtipc_sem_give(s);
    finish_task(low, &t[0].done);
    finish_task(high, &t[1].done);
    assert_true(high_done_first);
    assert_false(low_done_first);
    assert_int_equal(t[1].ticket, 1);
    assert_int_equal(t[0].ticket, 2);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void equal_priority_takers_are_served_in_fifo_order(void **state)
{
    (void)state;
    enum { N = 4 };
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_binary(&s), RTIPC_OK);
    int tickets = 0;
    taker_t t[N];
    rtipc_task_t *task[N];
    for (int i = 0; i < N; ++i) {
        t[i] = make_taker(s, RTIPC_FOREVER, &tickets);
        task[i] = start_blocked_taker("taker", 6, &t[i]);
    }
    /* One give at a time, each consumed before the next. */
    for (int i = 1; i <= N; ++i) {
        rtipc_sem_give(s);
        wait_done(t, N, i, PROMPT_MS);
    }
    for (int i = 0; i < N; ++i)
        finish_task(task[i], &t[i].done);
    for (int i = 0; i < N; ++i) {
        assert_int_equal(t[i].rc, RTIPC_OK);
        assert_int_equal(t[i].ticket, i + 1);
    }
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void priority_then_fifo_order_among_mixed_takers(void **state)
{
    (void)state;
    enum { N = 4 };
    static const unsigned prio[N] = {4, 9, 4, 9}; /* queue order */
    static const int expect[N] = {3, 1, 4, 2};    /* service order */
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_binary(&s), RTIPC_OK);
    int tickets = 0;
    taker_t t[N];
    rtipc_task_t *task[N];
    for (int i = 0; i < N; ++i) {
        t[i] = make_taker(s, RTIPC_FOREVER, &tickets);
        task[i] = start_blocked_taker("taker", prio[i], &t[i]);
    }
    for (int i = 1; i <= N; ++i) {
        rtipc_sem_give(s);
        wait_done(t, N, i, PROMPT_MS);
    }
    for (int i = 0; i < N; ++i)
        finish_task(task[i], &t[i].done);
    for (int i = 0; i < N; ++i)
        assert_int_equal(t[i].ticket, expect[i]);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void a_timed_out_taker_leaves_the_queue(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_binary(&s), RTIPC_OK);
    int tickets = 0;
    /* A high-priority taker that gives up, then a low one that waits on. */
    taker_t t[2] = {make_taker(s, rtipc_ms(60), &tickets), make_taker(s, RTIPC_FOREVER, &tickets)};
    rtipc_task_t *quitter = start_task("quitter", 9, RTIPC_CORE_ANY, taker, &t[0]);
    rtipc_task_t *stayer = start_task("stayer", 2, RTIPC_CORE_ANY, taker, &t[1]);
    join_task(quitter);
    int stayer_blocked = !load(&t[1].done);
    rtipc_sem_give(s);
    int stayer_woke = finish_task(stayer, &t[1].done);
    assert_int_equal(t[0].rc, RTIPC_ETIMEDOUT);
    assert_true(stayer_blocked);
    assert_true(stayer_woke); /* the give was not spent on the gone taker */
    assert_int_equal(t[1].rc, RTIPC_OK);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

/* ---- interrupt-safe variants ---------------------------------------------
 * Called here from task context and from the simulated interrupt context of
 * test_support (no real handler: the core-local deferral and the woken flag
 * of irq.h belong to the interrupt tests). */
static void give_from_isr_adds_one_up_to_the_maximum(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_counting(2, 0, &s), RTIPC_OK);
    bool woken = false;
    enter_interrupt_context();
    int rc1 = rtipc_sem_give_from_isr(s, &woken);
    int count1 = rtipc_sem_count(s);
    int rc2 = rtipc_sem_give_from_isr(s, NULL); /* the flag is optional */
    int rc3 = rtipc_sem_give_from_isr(s, &woken);
    leave_interrupt_context();
    assert_int_equal(rc1, RTIPC_OK);
    assert_int_equal(count1, 1);
    assert_int_equal(rc2, RTIPC_OK);
    assert_int_equal(rc3, RTIPC_EOVERFLOW);
    assert_int_equal(rtipc_sem_count(s), 2);
    assert_false(woken); /* nobody was waiting */
    /* Task context is allowed too. */
    assert_int_equal(rtipc_sem_give_from_isr(s, NULL), RTIPC_EOVERFLOW);
    assert_int_equal(rtipc_sem_take(s, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_sem_give_from_isr(s, NULL), RTIPC_OK);
    assert_int_equal(rtipc_sem_count(s), 2);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void give_from_isr_never_clears_the_woken_flag(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_binary(&s), RTIPC_OK);
    bool woken = true;
    enter_interrupt_context();
    int rc_given = rtipc_sem_give_from_isr(s, &woken);
    int rc_full = rtipc_sem_give_from_isr(s, &woken);
    leave_interrupt_context();
    assert_int_equal(rc_given, RTIPC_OK);
    assert_int_equal(rc_full, RTIPC_EOVERFLOW);
    assert_true(woken);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void give_from_isr_wakes_a_blocked_taker(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_binary(&s), RTIPC_OK);
    taker_t t = make_taker(s, RTIPC_FOREVER, NULL);
    rtipc_task_t *task = start_blocked_taker("taker", 5, &t);
    int blocked = !load(&t.done);
    enter_interrupt_context();
    int rc_give = rtipc_sem_give_from_isr(s, NULL);
    leave_interrupt_context();
    int woke = finish_task(task, &t.done);
    assert_true(blocked);
    assert_int_equal(rc_give, RTIPC_OK);
    assert_true(woke);
    assert_int_equal(t.rc, RTIPC_OK);
    assert_int_equal(rtipc_sem_count(s), 0);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void take_from_isr_takes_one_or_would_block(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_counting(3, 2, &s), RTIPC_OK);
    bool woken = false;
    enter_interrupt_context();
    int rc1 = rtipc_sem_take_from_isr(s, &woken);
    int rc2 = rtipc_sem_take_from_isr(s, NULL);
    int rc3 = rtipc_sem_take_from_isr(s, &woken);
    int count = rtipc_sem_count(s);
    leave_interrupt_context();
    assert_int_equal(rc1, RTIPC_OK);
    assert_int_equal(rc2, RTIPC_OK);
    assert_int_equal(rc3, RTIPC_EWOULDBLOCK);
    assert_int_equal(count, 0);
    assert_false(woken);
    /* Task context is allowed too. */
    assert_int_equal(rtipc_sem_take_from_isr(s, NULL), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_sem_give(s), RTIPC_OK);
    assert_int_equal(rtipc_sem_take_from_isr(s, NULL), RTIPC_OK);
    assert_int_equal(rtipc_sem_count(s), 0);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void interrupt_safe_calls_on_a_dead_or_foreign_handle_fail_with_inval(void **state)
{
    (void)state;
    rtipc_sem_static_t cb;
    rtipc_sem_t *dead = NULL;
    assert_int_equal(rtipc_sem_create_static(1, 1, &cb, &dead), RTIPC_OK);
    assert_int_equal(rtipc_sem_delete(dead), RTIPC_OK);
    rtipc_mutex_static_t mcb;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create_static(false, &mcb, &m), RTIPC_OK);
    rtipc_sem_t *foreign = (rtipc_sem_t *)(void *)m;
    bool woken = false;
    enter_interrupt_context();
    int rc[6] = {
        rtipc_sem_give_from_isr(NULL, &woken), rtipc_sem_take_from_isr(NULL, &woken),
        rtipc_sem_give_from_isr(dead, &woken), rtipc_sem_take_from_isr(dead, &woken),
        rtipc_sem_give_from_isr(foreign, &woken), rtipc_sem_take_from_isr(foreign, &woken),
    };
    leave_interrupt_context();
    for (int i = 0; i < 6; ++i)
        assert_int_equal(rc[i], RTIPC_EINVAL);
    assert_false(woken);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

/* ---- deletion ------------------------------------------------------------- */
static void delete_with_a_waiting_task_is_refused_busy(void **state)
{
    (void)state;
    /* Static, so that a delete wrongly done does not free what the taker uses. */
    rtipc_sem_static_t cb;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_static(1, 0, &cb, &s), RTIPC_OK);
    taker_t t = make_taker(s, RTIPC_FOREVER, NULL);
    rtipc_task_t *task = start_blocked_taker("taker", 5, &t);
    int rc_busy = rtipc_sem_delete(s);
    int count_after = rtipc_sem_count(s); /* still alive */
    rtipc_sem_give(s);
    finish_task(task, &t.done);
    assert_int_equal(rc_busy, RTIPC_EBUSY);
    assert_int_equal(count_after, 0);
    assert_int_equal(t.rc, RTIPC_OK);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void deleting_a_waiting_task_lets_the_semaphore_be_deleted(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_binary(&s), RTIPC_OK);
    taker_t t = make_taker(s, RTIPC_FOREVER, NULL);
    rtipc_task_t *task = start_blocked_taker("taker", 5, &t);
    assert_int_equal(rtipc_task_delete(task), RTIPC_OK); /* released: no join */
    assert_false(load(&t.done));                          /* it never returned */
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void delete_with_a_count_left_succeeds(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_counting(3, 3, &s), RTIPC_OK);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

/* ---- concurrency ---------------------------------------------------------- */
typedef struct {
    rtipc_sem_t *s;
    int n;
    int failures; /* calls that did not return 0 */
} worker_t;

static void giving_worker(void *arg)
{
    worker_t *w = arg;
    for (int i = 0; i < w->n; ++i) {
        if (rtipc_sem_give(w->s) != RTIPC_OK)
            ++w->failures;
        if (i % 64 == 0)
            rtipc_task_yield();
    }
}

static void taking_worker(void *arg)
{
    worker_t *w = arg;
    int64_t t0 = rtipc_time_ns();
    for (int i = 0; i < w->n; ++i) {
        int rc = rtipc_sem_take(w->s, rtipc_ms(PROMPT_MS));
        /* Over budget means missed wake-ups (each take then lasts its whole
         * timeout): stop rather than pay that for every remaining take. */
        if (rc != RTIPC_OK || elapsed_ms(t0) > WORKER_BUDGET_MS) {
            ++w->failures;
            break;
        }
    }
}

static void concurrent_gives_and_takes_balance(void **state)
{
    (void)state;
    enum { PAIRS = 2 };
    const int n = (int)stress_count(3000);
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_counting((unsigned)(PAIRS * n), 0, &s), RTIPC_OK);
    worker_t give[PAIRS], take[PAIRS];
    rtipc_task_t *g[PAIRS], *t[PAIRS];
    for (int i = 0; i < PAIRS; ++i) {
        take[i] = (worker_t){.s = s, .n = n};
        give[i] = (worker_t){.s = s, .n = n};
        t[i] = start_task("taker", 4, RTIPC_CORE_ANY, taking_worker, &take[i]);
    }
    for (int i = 0; i < PAIRS; ++i)
        g[i] = start_task("giver", 4, RTIPC_CORE_ANY, giving_worker, &give[i]);
    for (int i = 0; i < PAIRS; ++i) {
        join_task(g[i]);
        join_task(t[i]);
    }
    for (int i = 0; i < PAIRS; ++i) {
        assert_int_equal(give[i].failures, 0);
        assert_int_equal(take[i].failures, 0);
    }
    assert_int_equal(rtipc_sem_count(s), 0);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        /* Allocation failure first: adoption can only fail while the task
         * descriptor pool is empty, i.e. before any task has been joined. */
        cmocka_unit_test(dynamic_creation_fails_with_nomem_when_allocation_fails),
        cmocka_unit_test(take_from_a_thread_that_cannot_be_adopted_fails_with_nomem),
        cmocka_unit_test(binary_semaphore_is_created_empty),
        cmocka_unit_test(binary_semaphore_counts_to_one),
        cmocka_unit_test(counting_semaphore_starts_at_its_initial_count),
        cmocka_unit_test(counting_semaphore_counts_to_its_maximum),
        cmocka_unit_test(giving_a_full_semaphore_fails_with_overflow),
        cmocka_unit_test(counting_semaphore_accepts_the_largest_maximum),
        cmocka_unit_test(dynamic_creation_with_invalid_parameters_fails_with_inval),
        cmocka_unit_test(static_semaphore_lives_in_caller_memory),
        cmocka_unit_test(static_creation_with_invalid_parameters_fails_with_inval),
        cmocka_unit_test(static_creation_is_allowed_in_interrupt_context),
        cmocka_unit_test(footprint_is_the_size_of_a_semaphore),
        cmocka_unit_test(calls_on_a_dead_or_foreign_handle_fail_with_inval),
        cmocka_unit_test(task_only_calls_fail_with_context_error_in_an_interrupt),
        cmocka_unit_test(take_with_no_wait_on_zero_count_would_block),
        cmocka_unit_test(take_with_a_count_succeeds_at_once_whatever_the_timeout),
        cmocka_unit_test(take_times_out_after_about_the_timeout),
        cmocka_unit_test(task_take_times_out_after_about_the_timeout),
        cmocka_unit_test(give_wakes_a_blocked_taker),
        cmocka_unit_test(give_wakes_a_taker_before_its_timeout),
        cmocka_unit_test(give_from_a_task_wakes_the_main_thread),
        cmocka_unit_test(each_give_releases_exactly_one_taker),
        cmocka_unit_test(higher_priority_taker_is_served_first),
        cmocka_unit_test(equal_priority_takers_are_served_in_fifo_order),
        cmocka_unit_test(priority_then_fifo_order_among_mixed_takers),
        cmocka_unit_test(a_timed_out_taker_leaves_the_queue),
        cmocka_unit_test(give_from_isr_adds_one_up_to_the_maximum),
        cmocka_unit_test(give_from_isr_never_clears_the_woken_flag),
        cmocka_unit_test(give_from_isr_wakes_a_blocked_taker),
        cmocka_unit_test(take_from_isr_takes_one_or_would_block),
        cmocka_unit_test(interrupt_safe_calls_on_a_dead_or_foreign_handle_fail_with_inval),
        cmocka_unit_test(delete_with_a_waiting_task_is_refused_busy),
        cmocka_unit_test(deleting_a_waiting_task_lets_the_semaphore_be_deleted),
        cmocka_unit_test(delete_with_a_count_left_succeeds),
        cmocka_unit_test(concurrent_gives_and_takes_balance),
    };
    printf("[  NOTE    ] scheduling policy: %s\n", rtipc_sched_policy_describe());
    return cmocka_run_group_tests(tests, NULL, NULL);
}
