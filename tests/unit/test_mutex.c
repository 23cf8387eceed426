/* Mutexes (include/rtipc/mutex.h): every return path of every call,
 * recursion, waiting order, timeouts, deletion and priority inheritance,
 * including its effect on the kernel priority under SCHED_FIFO.
 *
 * Worker tasks never assert: they record what they saw in a struct that the
 * main thread checks after the task is done (flags polled across threads go
 * through __atomic builtins). Observations made while tasks are still running
 * are kept in locals and asserted only after the tasks have been released and
 * joined, so a failing check does not leave tasks behind. */
#define _GNU_SOURCE /* syscall(SYS_gettid) */
#include "../../src/common/handle.h"
#include "test_support.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

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
/* How long a worker waits for the main thread's next step before giving up
 * (only reached when a test has already failed). */
#define STEP_LIMIT_MS 30000

/* Priorities used by the inheritance tests. */
#define LOW 2
#define MID 5
#define HIGH 9

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

/* In a task: wait (sleeping) until *flag >= want; bounded by STEP_LIMIT_MS. */
static void task_wait_step(const int *flag, int want)
{
    int64_t t0 = rtipc_time_ns();
    while (load(flag) < want && elapsed_ms(t0) < STEP_LIMIT_MS)
        rtipc_task_delay(rtipc_ms(1));
}

/* On the main thread: poll a task's effective priority until it equals want
 * or ms pass; returns the last value seen. */
static int wait_effective(const rtipc_task_t *t, int want, unsigned ms)
{
    int64_t t0 = rtipc_time_ns();
    int p = rtipc_task_effective_priority(t);
    while (p != want && elapsed_ms(t0) < (int64_t)ms) {
        sleep_ms(1);
        p = rtipc_task_effective_priority(t);
    }
    return p;
}

/* A task that locks n mutexes in order, then, step by step as the main thread
 * raises `release`, unlocks one more of them (m[0] first), and ends when the
 * main thread sets `finish`. */
typedef struct {
    rtipc_mutex_t *m[2];
    int n;
    int tid;            /* kernel thread id, set before locking */
    int locked;         /* flag: holds all n */
    int release;        /* main: how many to unlock so far */
    int unlocked;       /* flag: how many it has unlocked */
    int finish;         /* main: end now */
    int lock_rc[2];
    int unlock_rc[2];
    int effective_after[2]; /* its own effective priority after each unlock */
} holder_t;

static void holder_task(void *arg)
{
    holder_t *h = arg;
    __atomic_store_n(&h->tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
    for (int i = 0; i < h->n; ++i)
        h->lock_rc[i] = rtipc_mutex_lock(h->m[i], RTIPC_NO_WAIT);
    store(&h->locked, 1);
    for (int i = 0; i < h->n; ++i) {
        task_wait_step(&h->release, i + 1);
        h->unlock_rc[i] = rtipc_mutex_unlock(h->m[i]);
        h->effective_after[i] = rtipc_task_effective_priority(rtipc_task_current());
        store(&h->unlocked, i + 1);
    }
    task_wait_step(&h->finish, 1);
}

static rtipc_task_t *start_holder(holder_t *h, unsigned prio)
{
    for (int i = 0; i < 2; ++i) {
        h->lock_rc[i] = h->unlock_rc[i] = NOT_RUN;
        h->effective_after[i] = -1;
    }
    rtipc_task_t *t = start_task("holder", prio, RTIPC_CORE_ANY, holder_task, h);
    wait_for_flag(&h->locked, 1, PROMPT_MS);
    return t;
}

/* Let a holder unlock everything and end, then join it. */
static void end_holder(rtipc_task_t *t, holder_t *h)
{
    store(&h->release, h->n);
    store(&h->finish, 1);
    join_task(t);
}

/* A task that locks once, records the outcome, and unlocks if it got it. */
typedef struct {
    rtipc_mutex_t *m;
    rtipc_timeout_t timeout;
    int *tickets;           /* shared: order in which waiters got the mutex */
    int started;            /* flag: about to call lock */
    int done;               /* flag: lock returned (and unlock, if taken) */
    int rc;                 /* what lock returned */
    int ticket;             /* 1-based order of success, 0 if none */
    int held_by_self;       /* holder() named this task while it held it */
    int unlock_rc;
    int64_t elapsed_ns;     /* time spent in lock */
} waiter_t;

static void waiter_task(void *arg)
{
    waiter_t *w = arg;
    store(&w->started, 1);
    int64_t t0 = rtipc_time_ns();
    int rc = rtipc_mutex_lock(w->m, w->timeout);
    w->elapsed_ns = rtipc_time_ns() - t0;
    w->rc = rc;
    if (rc == RTIPC_OK) {
        if (w->tickets)
            w->ticket = __atomic_add_fetch(w->tickets, 1, __ATOMIC_ACQ_REL);
        w->held_by_self = rtipc_mutex_holder(w->m) == rtipc_task_current();
        w->unlock_rc = rtipc_mutex_unlock(w->m);
    }
    store(&w->done, 1);
}

static waiter_t make_waiter(rtipc_mutex_t *m, rtipc_timeout_t timeout, int *tickets)
{
    waiter_t w = {.m = m, .timeout = timeout, .tickets = tickets, .rc = NOT_RUN, .unlock_rc = NOT_RUN};
    return w;
}

static rtipc_task_t *start_waiter(const char *name, unsigned prio, waiter_t *w)
{
    rtipc_task_t *t = start_task(name, prio, RTIPC_CORE_ANY, waiter_task, w);
    wait_for_flag(&w->started, 1, PROMPT_MS);
    return t;
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

/* ---- allocation failure (first: adoption can only fail while the task
 * descriptor pool is empty, i.e. before any task has been joined) --------- */
static void create_fails_with_nomem_when_allocation_fails(void **state)
{
    (void)state;
#if CAN_FAIL_ALLOC
    rtipc_mutex_t *plain = NULL, *rec = NULL;
    set_fail_alloc(1);
    int rc_plain = rtipc_mutex_create(false, &plain);
    int rc_rec = rtipc_mutex_create(true, &rec);
    set_fail_alloc(0);
    assert_int_equal(rc_plain, RTIPC_ENOMEM);
    assert_int_equal(rc_rec, RTIPC_ENOMEM);
    assert_null(plain);
    assert_null(rec);
    assert_int_equal(rtipc_mutex_create(false, &plain), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(plain), RTIPC_OK);
#else
    skip_without_alloc_failure(__func__);
#endif
}

#if CAN_FAIL_ALLOC
typedef struct {
    rtipc_mutex_t *m;
    int rc_lock;
    int rc_unlock;
} foreign_t;

/* A plain pthread (not an rtipc task) whose adoption cannot allocate. */
static void *foreign_locker(void *arg)
{
    foreign_t *f = arg;
    set_fail_alloc(1);
    f->rc_lock = rtipc_mutex_lock(f->m, RTIPC_NO_WAIT);
    f->rc_unlock = rtipc_mutex_unlock(f->m);
    set_fail_alloc(0);
    return NULL;
}
#endif

static void lock_from_a_thread_that_cannot_be_adopted_fails_with_nomem(void **state)
{
    SKIP_ON_FREERTOS("a thread rtipc did not create");
    (void)state;
#if CAN_FAIL_ALLOC
    foreign_t f = {0};
    assert_int_equal(rtipc_mutex_create(false, &f.m), RTIPC_OK);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, foreign_locker, &f), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_int_equal(f.rc_lock, RTIPC_ENOMEM);
    /* Without a task it cannot hold the mutex, so it cannot release it. */
    assert_int_equal(f.rc_unlock, RTIPC_EPERM);
    assert_null(rtipc_mutex_holder(f.m));
    assert_int_equal(rtipc_mutex_delete(f.m), RTIPC_OK);
#else
    skip_without_alloc_failure(__func__);
#endif
}

/* ---- creation ------------------------------------------------------------ */
static void mutex_is_created_available(void **state)
{
    (void)state;
    for (int recursive = 0; recursive <= 1; ++recursive) {
        rtipc_mutex_t *m = NULL;
        assert_int_equal(rtipc_mutex_create(recursive, &m), RTIPC_OK);
        assert_non_null(m);
        assert_null(rtipc_mutex_holder(m));
        assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_OK);
        assert_ptr_equal(rtipc_mutex_holder(m), rtipc_task_current());
        assert_int_equal(rtipc_mutex_unlock(m), RTIPC_OK);
        assert_null(rtipc_mutex_holder(m));
        assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
    }
}

static void create_with_null_out_fails_with_inval(void **state)
{
    (void)state;
    assert_int_equal(rtipc_mutex_create(false, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_mutex_create(true, NULL), RTIPC_EINVAL);
}

static void static_mutex_lives_in_caller_memory(void **state)
{
    (void)state;
    rtipc_mutex_static_t cb;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create_static(false, &cb, &m), RTIPC_OK);
    /* The handle is a table entry (src/common/handle.h), not the caller's
     * memory, and it names the control block there. */
    assert_ptr_not_equal((void *)m, (void *)&cb);
    assert_ptr_equal(rtipc__handle_get(m, RTIPC__H_MUTEX), (void *)&cb);
    assert_null(rtipc_mutex_holder(m));
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_EDEADLOCK); /* plain */
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_EINVAL); /* dead now */

    assert_int_equal(rtipc_mutex_create_static(true, &cb, &m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_OK); /* recursive */
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

static void static_creation_with_null_memory_or_out_fails_with_inval(void **state)
{
    (void)state;
    rtipc_mutex_static_t cb;
    rtipc_mutex_t *const sentinel = (rtipc_mutex_t *)(uintptr_t)0x1;
    rtipc_mutex_t *m = sentinel;
    assert_int_equal(rtipc_mutex_create_static(false, NULL, &m), RTIPC_EINVAL);
    assert_int_equal(rtipc_mutex_create_static(true, &cb, NULL), RTIPC_EINVAL);
    assert_ptr_equal(m, sentinel);
}

static void footprint_is_the_size_of_a_mutex(void **state)
{
    (void)state;
    size_t any = rtipc_mutex_footprint(NULL);
    assert_true(any > 0);
    assert_true(any <= sizeof(rtipc_mutex_static_t));
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(true, &m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_footprint(m), any);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
    rtipc_mutex_static_t cb;
    assert_int_equal(rtipc_mutex_create_static(false, &cb, &m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_footprint(m), any);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_footprint(m), 0); /* no longer live */
}

/* ---- invalid handles and wrong context ------------------------------------ */
static void calls_on_a_dead_or_foreign_handle_fail_with_inval(void **state)
{
    (void)state;
    assert_int_equal(rtipc_mutex_delete(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_mutex_lock(NULL, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_mutex_lock(NULL, RTIPC_FOREVER), RTIPC_EINVAL);
    assert_int_equal(rtipc_mutex_unlock(NULL), RTIPC_EINVAL);
    assert_null(rtipc_mutex_holder(NULL));

    /* A deleted mutex (static, so its memory is still readable). */
    rtipc_mutex_static_t cb;
    rtipc_mutex_t *dead = NULL;
    assert_int_equal(rtipc_mutex_create_static(false, &cb, &dead), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(dead), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(dead), RTIPC_EINVAL);
    assert_int_equal(rtipc_mutex_lock(dead, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_mutex_lock(dead, RTIPC_FOREVER), RTIPC_EINVAL);
    assert_int_equal(rtipc_mutex_unlock(dead), RTIPC_EINVAL);
    assert_null(rtipc_mutex_holder(dead));

    /* A live object of another type. */
    rtipc_sem_static_t scb;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_static(1, 1, &scb, &s), RTIPC_OK);
    rtipc_mutex_t *foreign = (rtipc_mutex_t *)(void *)s;
    assert_int_equal(rtipc_mutex_lock(foreign, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_mutex_unlock(foreign), RTIPC_EINVAL);
    assert_null(rtipc_mutex_holder(foreign));
    assert_int_equal(rtipc_mutex_footprint(foreign), 0);
    assert_int_equal(rtipc_mutex_delete(foreign), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_count(s), 1); /* untouched by the above */
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

static void every_call_but_the_queries_fails_with_context_error_in_an_interrupt(void **state)
{
    (void)state;
    rtipc_mutex_t *held = NULL, *free_one = NULL;
    assert_int_equal(rtipc_mutex_create(false, &held), RTIPC_OK);
    assert_int_equal(rtipc_mutex_create(true, &free_one), RTIPC_OK);
    assert_int_equal(rtipc_mutex_lock(held, RTIPC_NO_WAIT), RTIPC_OK);
    rtipc_task_t *self = rtipc_task_current();
    rtipc_mutex_t *created = NULL, *created_static = NULL;
    rtipc_mutex_static_t cb;

    enter_interrupt_context();
    int rc_create = rtipc_mutex_create(false, &created);
    int rc_create_static = rtipc_mutex_create_static(false, &cb, &created_static);
    int rc_lock = rtipc_mutex_lock(free_one, RTIPC_NO_WAIT);
    int rc_lock_forever = rtipc_mutex_lock(free_one, RTIPC_FOREVER);
    int rc_unlock = rtipc_mutex_unlock(held);
    int rc_delete = rtipc_mutex_delete(free_one);
    /* The "any context" calls still answer. */
    rtipc_task_t *holder = rtipc_mutex_holder(held);
    size_t fp = rtipc_mutex_footprint(held);
    leave_interrupt_context();

    assert_int_equal(rc_create, RTIPC_ECONTEXT);
    assert_int_equal(rc_create_static, RTIPC_ECONTEXT);
    assert_null(created);
    assert_null(created_static);
    assert_int_equal(rc_lock, RTIPC_ECONTEXT);
    assert_int_equal(rc_lock_forever, RTIPC_ECONTEXT);
    assert_int_equal(rc_unlock, RTIPC_ECONTEXT);
    assert_int_equal(rc_delete, RTIPC_ECONTEXT);
    assert_ptr_equal(holder, self);
    assert_int_equal(fp, rtipc_mutex_footprint(NULL));
    /* Nothing changed: still held, the other still free and alive. */
    assert_ptr_equal(rtipc_mutex_holder(held), self);
    assert_null(rtipc_mutex_holder(free_one));
    assert_int_equal(rtipc_mutex_unlock(held), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(held), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(free_one), RTIPC_OK);
}

/* ---- ownership and recursion --------------------------------------------- */
static void relocking_a_plain_mutex_is_deadlock(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_FOREVER), RTIPC_OK);
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_EDEADLOCK);
    assert_int_equal(rtipc_mutex_lock(m, rtipc_ms(3000)), RTIPC_EDEADLOCK);
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_FOREVER), RTIPC_EDEADLOCK);
    assert_true(elapsed_ms(t0) < PROMPT_MS); /* refused, not waited */
    /* The refused relocks did not count: one unlock frees it. */
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_OK);
    assert_null(rtipc_mutex_holder(m));
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_EPERM);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

static void recursive_mutex_needs_as_many_unlocks_as_locks(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(true, &m), RTIPC_OK);
    rtipc_task_t *self = rtipc_task_current();
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_FOREVER), RTIPC_OK);
    assert_int_equal(rtipc_mutex_lock(m, rtipc_ms(10)), RTIPC_OK);
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_OK);
    assert_ptr_equal(rtipc_mutex_holder(m), self);
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_OK);
    assert_ptr_equal(rtipc_mutex_holder(m), self);
    /* Still held once: another task cannot have it. */
    waiter_t w = make_waiter(m, RTIPC_NO_WAIT, NULL);
    join_task(start_waiter("other", MID, &w));
    assert_int_equal(w.rc, RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_OK);
    assert_null(rtipc_mutex_holder(m));
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_EPERM);
    /* Free now: the other task gets it. */
    w = make_waiter(m, RTIPC_NO_WAIT, NULL);
    join_task(start_waiter("other", MID, &w));
    assert_int_equal(w.rc, RTIPC_OK);
    assert_true(w.held_by_self);
    assert_int_equal(w.unlock_rc, RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

static void recursive_mutex_is_not_released_to_a_waiter_before_the_last_unlock(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(true, &m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_OK);
    waiter_t w = make_waiter(m, RTIPC_FOREVER, NULL);
    rtipc_task_t *t = start_waiter("waiter", MID, &w);
    sleep_ms(SETTLE_MS);
    int rc_first = rtipc_mutex_unlock(m);
    sleep_ms(SETTLE_MS);
    int done_after_first = load(&w.done);
    int rc_last = rtipc_mutex_unlock(m);
    finish_task(t, &w.done);
    assert_int_equal(rc_first, RTIPC_OK);
    assert_false(done_after_first);
    assert_int_equal(rc_last, RTIPC_OK);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_true(w.held_by_self);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

static void unlock_by_non_holder_fails_with_perm(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    /* Free: nobody holds it. */
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_EPERM);
    /* Held by a task: the main thread may not release it. */
    holder_t h = {.m = {m}, .n = 1};
    rtipc_task_t *t = start_holder(&h, LOW);
    int rc_unlock = rtipc_mutex_unlock(m);
    rtipc_task_t *holder_after = rtipc_mutex_holder(m);
    end_holder(t, &h);
    assert_int_equal(h.lock_rc[0], RTIPC_OK);
    assert_int_equal(rc_unlock, RTIPC_EPERM);
    assert_ptr_equal(holder_after, t);
    assert_int_equal(h.unlock_rc[0], RTIPC_OK);
    assert_null(rtipc_mutex_holder(m));
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

static void unlock_of_a_recursive_mutex_by_non_holder_fails_with_perm(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(true, &m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_EPERM);
    holder_t h = {.m = {m}, .n = 1};
    rtipc_task_t *t = start_holder(&h, LOW);
    int rc_unlock = rtipc_mutex_unlock(m);
    rtipc_task_t *holder_after = rtipc_mutex_holder(m);
    end_holder(t, &h);
    assert_int_equal(rc_unlock, RTIPC_EPERM);
    assert_ptr_equal(holder_after, t);
    assert_int_equal(h.unlock_rc[0], RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

static void mutex_holder_reports_the_holder_or_null(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    assert_null(rtipc_mutex_holder(m));
    holder_t h = {.m = {m}, .n = 1};
    rtipc_task_t *t = start_holder(&h, LOW);
    rtipc_task_t *while_held = rtipc_mutex_holder(m);
    store(&h.release, 1);
    wait_for_flag(&h.unlocked, 1, PROMPT_MS);
    rtipc_task_t *after_unlock = rtipc_mutex_holder(m);
    end_holder(t, &h);
    assert_ptr_equal(while_held, t);
    assert_null(after_unlock);
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_OK);
    assert_ptr_equal(rtipc_mutex_holder(m), rtipc_task_current());
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_OK);
    assert_null(rtipc_mutex_holder(m));
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

/* ---- waiting -------------------------------------------------------------- */
static void lock_with_no_wait_on_a_held_mutex_would_block(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    holder_t h = {.m = {m}, .n = 1};
    rtipc_task_t *t = start_holder(&h, LOW);
    int64_t t0 = rtipc_time_ns();
    int rc = rtipc_mutex_lock(m, RTIPC_NO_WAIT);
    int rc_zero = rtipc_mutex_lock(m, rtipc_ns(0));
    int64_t ms = elapsed_ms(t0);
    rtipc_task_t *holder_after = rtipc_mutex_holder(m);
    end_holder(t, &h);
    assert_int_equal(rc, RTIPC_EWOULDBLOCK);
    assert_int_equal(rc_zero, RTIPC_EWOULDBLOCK);
    assert_true(ms < PROMPT_MS);
    assert_ptr_equal(holder_after, t);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

static void lock_times_out_after_about_the_timeout(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    holder_t h = {.m = {m}, .n = 1};
    rtipc_task_t *t = start_holder(&h, LOW);
    int64_t t0 = rtipc_time_ns();
    int rc = rtipc_mutex_lock(m, rtipc_ms(100));
    int64_t ms = elapsed_ms(t0);
    rtipc_task_t *holder_after = rtipc_mutex_holder(m);
    end_holder(t, &h);
    assert_int_equal(rc, RTIPC_ETIMEDOUT);
    assert_true(ms >= 100);
    assert_true(ms < 100 + SLACK_MS);
    assert_ptr_equal(holder_after, t);
    /* The timed-out waiter left no trace. */
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

static void task_lock_times_out_after_about_the_timeout(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_OK);
    waiter_t w = make_waiter(m, rtipc_ms(80), NULL);
    join_task(start_waiter("waiter", MID, &w));
    assert_int_equal(w.rc, RTIPC_ETIMEDOUT);
    assert_true(w.elapsed_ns >= 80 * 1000000LL);
    assert_true(w.elapsed_ns < (80 + SLACK_MS) * 1000000LL);
    assert_ptr_equal(rtipc_mutex_holder(m), rtipc_task_current());
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

static void unlock_wakes_a_blocked_locker(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_OK);
    waiter_t w = make_waiter(m, RTIPC_FOREVER, NULL);
    rtipc_task_t *t = start_waiter("waiter", MID, &w);
    sleep_ms(SETTLE_MS);
    int blocked = !load(&w.done);
    int rc_unlock = rtipc_mutex_unlock(m);
    int woke = finish_task(t, &w.done);
    assert_true(blocked);
    assert_int_equal(rc_unlock, RTIPC_OK);
    assert_true(woke);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_true(w.held_by_self);
    assert_int_equal(w.unlock_rc, RTIPC_OK);
    assert_null(rtipc_mutex_holder(m));
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

static void unlock_wakes_a_locker_before_its_timeout(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    holder_t h = {.m = {m}, .n = 1};
    rtipc_task_t *ht = start_holder(&h, LOW);
    int64_t t0 = rtipc_time_ns();
    store(&h.release, 1); /* the holder unlocks within a few milliseconds */
    int rc = rtipc_mutex_lock(m, rtipc_ms(5000));
    int64_t ms = elapsed_ms(t0);
    rtipc_task_t *holder_now = rtipc_mutex_holder(m);
    if (rc == RTIPC_OK)
        rtipc_mutex_unlock(m);
    end_holder(ht, &h);
    assert_int_equal(rc, RTIPC_OK);
    assert_ptr_equal(holder_now, rtipc_task_current());
    assert_true(ms < 4000);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

static void higher_priority_waiter_gets_the_mutex_first(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_OK);
    int tickets = 0;
    waiter_t w[2] = {make_waiter(m, RTIPC_FOREVER, &tickets), make_waiter(m, RTIPC_FOREVER, &tickets)};
    rtipc_task_t *low = start_waiter("low", LOW, &w[0]); /* queues first */
    sleep_ms(SETTLE_MS);
    rtipc_task_t *high = start_waiter("high", HIGH, &w[1]);
    sleep_ms(SETTLE_MS);
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_OK);
    finish_task(low, &w[0].done);
    finish_task(high, &w[1].done);
    assert_int_equal(w[0].rc, RTIPC_OK);
    assert_int_equal(w[1].rc, RTIPC_OK);
    assert_int_equal(w[1].ticket, 1);
    assert_int_equal(w[0].ticket, 2);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

static void equal_priority_waiters_get_the_mutex_in_fifo_order(void **state)
{
    (void)state;
    enum { N = 4 };
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_OK);
    int tickets = 0;
    waiter_t w[N];
    rtipc_task_t *t[N];
    for (int i = 0; i < N; ++i) {
        w[i] = make_waiter(m, RTIPC_FOREVER, &tickets);
        t[i] = start_waiter("waiter", MID, &w[i]);
        sleep_ms(SETTLE_MS);
    }
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_OK);
    for (int i = 0; i < N; ++i)
        finish_task(t[i], &w[i].done);
    for (int i = 0; i < N; ++i) {
        assert_int_equal(w[i].rc, RTIPC_OK);
        assert_int_equal(w[i].ticket, i + 1);
    }
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

/* ---- deletion ------------------------------------------------------------- */
/* A task that ends holding a mutex stays its holder (mutex.h, "A holder
 * that ends"): the tasks created after it, which may get its recycled
 * descriptor, must never be taken for the holder. */
static rtipc_mutex_static_t orphan_cb;
static rtipc_mutex_t *orphan;

typedef struct {
    int lock_rc, unlock_rc, is_holder;
} orphan_try_t;

static void lock_orphan_and_end(void *arg) { *(int *)arg = rtipc_mutex_lock(orphan, RTIPC_NO_WAIT); }

static void try_orphan(void *arg)
{
    orphan_try_t *r = arg;
    r->is_holder = rtipc_mutex_holder(orphan) == rtipc_task_current();
    r->lock_rc = rtipc_mutex_lock(orphan, RTIPC_NO_WAIT);
    r->unlock_rc = rtipc_mutex_unlock(orphan);
}

static void a_task_that_ends_holding_a_mutex_stays_its_holder(void **state)
{
    (void)state;
    assert_int_equal(rtipc_mutex_create_static(false, &orphan_cb, &orphan), RTIPC_OK);
    int rc = NOT_RUN;
    rtipc_task_t *ended = start_task("ends", LOW, RTIPC_CORE_ANY, lock_orphan_and_end, &rc);
    join_task(ended);
    assert_int_equal(rc, RTIPC_OK);
    for (int i = 0; i < 4; ++i) {
        orphan_try_t r = {NOT_RUN, NOT_RUN, -1};
        join_task(start_task("next", LOW, RTIPC_CORE_ANY, try_orphan, &r));
        assert_int_equal(r.is_holder, 0);
        assert_int_equal(r.lock_rc, RTIPC_EWOULDBLOCK);
        assert_int_equal(r.unlock_rc, RTIPC_EPERM);
    }
    /* mutex.h, Port notes: FreeRTOS reports no holder once it has ended. */
    assert_ptr_equal(rtipc_mutex_holder(orphan), RTIPC_PORT_FREERTOS ? NULL : ended);
    assert_int_equal(rtipc_task_priority(ended), RTIPC_EINVAL);
    assert_int_equal(rtipc_mutex_unlock(orphan), RTIPC_EPERM);
    assert_int_equal(rtipc_mutex_delete(orphan), RTIPC_EBUSY);
}

static void delete_while_held_is_refused_busy(void **state)
{
    (void)state;
    /* Static, so that a delete wrongly done frees nothing still in use. */
    rtipc_mutex_static_t cb;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create_static(false, &cb, &m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_EBUSY);
    assert_ptr_equal(rtipc_mutex_holder(m), rtipc_task_current()); /* alive, still held */
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);

    /* Recursive, held by a task, with a waiter. */
    assert_int_equal(rtipc_mutex_create_static(true, &cb, &m), RTIPC_OK);
    holder_t h = {.m = {m}, .n = 1};
    rtipc_task_t *ht = start_holder(&h, LOW);
    int rc_held = rtipc_mutex_delete(m);
    waiter_t w = make_waiter(m, RTIPC_FOREVER, NULL);
    rtipc_task_t *wt = start_waiter("waiter", MID, &w);
    sleep_ms(SETTLE_MS);
    int rc_waited = rtipc_mutex_delete(m);
    end_holder(ht, &h);
    finish_task(wt, &w.done);
    assert_int_equal(rc_held, RTIPC_EBUSY);
    assert_int_equal(rc_waited, RTIPC_EBUSY);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

static void deleting_a_waiting_task_lets_the_mutex_be_deleted(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_OK);
    waiter_t w = make_waiter(m, RTIPC_FOREVER, NULL);
    rtipc_task_t *t = start_waiter("waiter", MID, &w);
    sleep_ms(SETTLE_MS);
    assert_int_equal(rtipc_task_delete(t), RTIPC_OK); /* released: no join */
    assert_false(load(&w.done));
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

/* ---- priority inheritance ------------------------------------------------- */
static void holder_inherits_priority_of_waiting_task(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    holder_t h = {.m = {m}, .n = 1};
    rtipc_task_t *ht = start_holder(&h, LOW);
    int eff_before = rtipc_task_effective_priority(ht);
    waiter_t w = make_waiter(m, RTIPC_FOREVER, NULL);
    rtipc_task_t *wt = start_waiter("waiter", HIGH, &w);
    int eff_waited = wait_effective(ht, HIGH, PROMPT_MS);
    int base_waited = rtipc_task_priority(ht);
    int waiter_eff = rtipc_task_effective_priority(wt);
    end_holder(ht, &h);
    finish_task(wt, &w.done);
    assert_int_equal(eff_before, LOW);
    assert_int_equal(eff_waited, HIGH);
    assert_int_equal(base_waited, LOW);
    assert_int_equal(waiter_eff, HIGH); /* the waiter keeps its own */
    assert_int_equal(w.rc, RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

static void holder_is_not_lowered_by_a_lower_priority_waiter(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    holder_t h = {.m = {m}, .n = 1};
    rtipc_task_t *ht = start_holder(&h, MID);
    waiter_t w = make_waiter(m, RTIPC_FOREVER, NULL);
    rtipc_task_t *wt = start_waiter("waiter", LOW, &w);
    sleep_ms(SETTLE_MS);
    int blocked = !load(&w.done);
    int eff = rtipc_task_effective_priority(ht);
    end_holder(ht, &h);
    finish_task(wt, &w.done);
    assert_true(blocked);
    assert_int_equal(eff, MID);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

static void holder_drops_back_after_unlock(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    holder_t h = {.m = {m}, .n = 1};
    rtipc_task_t *ht = start_holder(&h, LOW);
    waiter_t w = make_waiter(m, RTIPC_FOREVER, NULL);
    rtipc_task_t *wt = start_waiter("waiter", HIGH, &w);
    int eff_waited = wait_effective(ht, HIGH, PROMPT_MS);
    store(&h.release, 1);
    int unlocked = wait_for_flag(&h.unlocked, 1, PROMPT_MS);
    int eff_after = rtipc_task_effective_priority(ht);
    int base_after = rtipc_task_priority(ht);
    int waiter_done = wait_for_flag(&w.done, 1, PROMPT_MS);
    end_holder(ht, &h);
    finish_task(wt, &w.done);
    assert_int_equal(eff_waited, HIGH);
    assert_true(unlocked);
    assert_int_equal(h.unlock_rc[0], RTIPC_OK);
    assert_int_equal(h.effective_after[0], LOW); /* seen by the holder itself */
    assert_int_equal(eff_after, LOW);
    assert_int_equal(base_after, LOW);
    assert_true(waiter_done);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

static void holder_drops_back_when_the_waiter_times_out(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    holder_t h = {.m = {m}, .n = 1};
    rtipc_task_t *ht = start_holder(&h, LOW);
    waiter_t w = make_waiter(m, rtipc_ms(150), NULL);
    rtipc_task_t *wt = start_waiter("waiter", HIGH, &w);
    int eff_waited = wait_effective(ht, HIGH, PROMPT_MS);
    join_task(wt); /* gives up after 150 ms */
    int eff_after = rtipc_task_effective_priority(ht);
    rtipc_task_t *holder_after = rtipc_mutex_holder(m);
    end_holder(ht, &h);
    assert_int_equal(eff_waited, HIGH);
    assert_int_equal(w.rc, RTIPC_ETIMEDOUT);
    assert_int_equal(eff_after, LOW);
    assert_ptr_equal(holder_after, ht);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

static void holder_drops_to_the_highest_remaining_waiter_when_one_times_out(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    holder_t h = {.m = {m}, .n = 1};
    rtipc_task_t *ht = start_holder(&h, LOW);
    waiter_t stays = make_waiter(m, RTIPC_FOREVER, NULL);
    waiter_t quits = make_waiter(m, rtipc_ms(150), NULL);
    rtipc_task_t *st = start_waiter("stays", MID, &stays);
    int eff_mid = wait_effective(ht, MID, PROMPT_MS);
    rtipc_task_t *qt = start_waiter("quits", HIGH, &quits);
    int eff_high = wait_effective(ht, HIGH, PROMPT_MS);
    join_task(qt);
    int eff_after = rtipc_task_effective_priority(ht);
    int stays_blocked = !load(&stays.done);
    end_holder(ht, &h);
    finish_task(st, &stays.done);
    assert_int_equal(eff_mid, MID);
    assert_int_equal(eff_high, HIGH);
    assert_int_equal(quits.rc, RTIPC_ETIMEDOUT);
    assert_int_equal(eff_after, MID);
    assert_true(stays_blocked);
    assert_int_equal(stays.rc, RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

/* As in FreeRTOS (vTaskDelete gives no priority back): deleting a waiter
 * leaves the holder at the priority it lent, until the holder unlocks. */
static void holder_keeps_priority_when_a_waiting_task_is_deleted(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    holder_t h = {.m = {m}, .n = 1};
    rtipc_task_t *ht = start_holder(&h, LOW);
    waiter_t w = make_waiter(m, RTIPC_FOREVER, NULL);
    rtipc_task_t *wt = start_waiter("waiter", HIGH, &w);
    int eff_waited = wait_effective(ht, HIGH, PROMPT_MS);
    int rc_delete = rtipc_task_delete(wt);
    int eff_after = rtipc_task_effective_priority(ht);
    end_holder(ht, &h);
    assert_int_equal(eff_waited, HIGH);
    assert_int_equal(rc_delete, RTIPC_OK);
    assert_int_equal(eff_after, HIGH);
    assert_int_equal(rtipc_task_effective_priority(ht), RTIPC_EINVAL); /* ended after its unlock */
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

static void lock_with_no_wait_does_not_boost_the_holder(void **state)
{
    (void)state;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    holder_t h = {.m = {m}, .n = 1};
    rtipc_task_t *ht = start_holder(&h, LOW);
    waiter_t w = make_waiter(m, RTIPC_NO_WAIT, NULL);
    join_task(start_waiter("trier", HIGH, &w));
    int eff_after = rtipc_task_effective_priority(ht);
    end_holder(ht, &h);
    assert_int_equal(w.rc, RTIPC_EWOULDBLOCK);
    assert_int_equal(eff_after, LOW); /* nobody waits for it */
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

static void holder_keeps_inheritance_while_holding_another_mutex(void **state)
{
    (void)state;
    rtipc_mutex_t *a = NULL, *b = NULL;
    assert_int_equal(rtipc_mutex_create(false, &a), RTIPC_OK);
    assert_int_equal(rtipc_mutex_create(false, &b), RTIPC_OK);
    holder_t h = {.m = {a, b}, .n = 2};
    rtipc_task_t *ht = start_holder(&h, LOW);
    waiter_t w = make_waiter(a, RTIPC_FOREVER, NULL);
    rtipc_task_t *wt = start_waiter("waiter", HIGH, &w);
    int eff_waited = wait_effective(ht, HIGH, PROMPT_MS);
    /* Release a (the waiter's mutex) but keep b. */
    store(&h.release, 1);
    int unlocked_a = wait_for_flag(&h.unlocked, 1, PROMPT_MS);
    int waiter_done = wait_for_flag(&w.done, 1, PROMPT_MS);
    int eff_holding_b = rtipc_task_effective_priority(ht);
    store(&h.release, 2);
    int unlocked_b = wait_for_flag(&h.unlocked, 2, PROMPT_MS);
    int eff_after = rtipc_task_effective_priority(ht);
    end_holder(ht, &h);
    finish_task(wt, &w.done);
    assert_int_equal(eff_waited, HIGH);
    assert_true(unlocked_a);
    assert_true(waiter_done);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_int_equal(eff_holding_b, HIGH);
    assert_int_equal(h.effective_after[0], HIGH);
    assert_true(unlocked_b);
    assert_int_equal(eff_after, LOW);
    assert_int_equal(h.effective_after[1], LOW);
    assert_int_equal(rtipc_mutex_delete(a), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(b), RTIPC_OK);
}

static void holder_keeps_inheritance_after_a_timeout_while_holding_another_mutex(void **state)
{
    (void)state;
    rtipc_mutex_t *a = NULL, *b = NULL;
    assert_int_equal(rtipc_mutex_create(false, &a), RTIPC_OK);
    assert_int_equal(rtipc_mutex_create(false, &b), RTIPC_OK);
    holder_t h = {.m = {a, b}, .n = 2};
    rtipc_task_t *ht = start_holder(&h, LOW);
    waiter_t w = make_waiter(a, rtipc_ms(150), NULL);
    rtipc_task_t *wt = start_waiter("waiter", HIGH, &w);
    int eff_waited = wait_effective(ht, HIGH, PROMPT_MS);
    finish_task(wt, &w.done);
    int eff_after_timeout = rtipc_task_effective_priority(ht);
    store(&h.release, 2);
    int unlocked = wait_for_flag(&h.unlocked, 2, PROMPT_MS);
    int eff_after = rtipc_task_effective_priority(ht);
    end_holder(ht, &h);
    assert_int_equal(eff_waited, HIGH);
    assert_int_equal(w.rc, RTIPC_ETIMEDOUT);
    assert_int_equal(eff_after_timeout, HIGH); /* holds two: FreeRTOS keeps it */
    assert_true(unlocked);
    assert_int_equal(eff_after, LOW);
    assert_int_equal(rtipc_mutex_delete(a), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(b), RTIPC_OK);
}

/* A task that holds `own`, then waits on `wanted`, then releases both. */
typedef struct {
    rtipc_mutex_t *own, *wanted;
    int locked;   /* flag: holds own, about to wait on wanted */
    int done;     /* flag: released both */
    int rc_own, rc_wanted, rc_unlock_wanted, rc_unlock_own;
} chain_t;

static void chain_task(void *arg)
{
    chain_t *c = arg;
    c->rc_own = rtipc_mutex_lock(c->own, RTIPC_NO_WAIT);
    store(&c->locked, 1);
    c->rc_wanted = rtipc_mutex_lock(c->wanted, RTIPC_FOREVER);
    c->rc_unlock_wanted = rtipc_mutex_unlock(c->wanted);
    c->rc_unlock_own = rtipc_mutex_unlock(c->own);
    store(&c->done, 1);
}

static void inheritance_is_one_level_deep(void **state)
{
    (void)state;
    /* low holds a; mid holds b and waits on a; high waits on b. */
    rtipc_mutex_t *a = NULL, *b = NULL;
    assert_int_equal(rtipc_mutex_create(false, &a), RTIPC_OK);
    assert_int_equal(rtipc_mutex_create(false, &b), RTIPC_OK);
    holder_t low = {.m = {a}, .n = 1};
    rtipc_task_t *lt = start_holder(&low, LOW);
    chain_t mid = {.own = b,
                   .wanted = a,
                   .rc_own = NOT_RUN,
                   .rc_wanted = NOT_RUN,
                   .rc_unlock_wanted = NOT_RUN,
                   .rc_unlock_own = NOT_RUN};
    rtipc_task_t *mt = start_task("mid", MID, RTIPC_CORE_ANY, chain_task, &mid);
    wait_for_flag(&mid.locked, 1, PROMPT_MS);
    int low_eff_mid = wait_effective(lt, MID, PROMPT_MS);
    waiter_t high = make_waiter(b, RTIPC_FOREVER, NULL);
    rtipc_task_t *hwt = start_waiter("high", HIGH, &high);
    int mid_eff = wait_effective(mt, HIGH, PROMPT_MS);
    sleep_ms(SETTLE_MS);
    int low_eff = rtipc_task_effective_priority(lt);
    end_holder(lt, &low);
    finish_task(mt, &mid.done);
    finish_task(hwt, &high.done);
    assert_int_equal(low_eff_mid, MID);
    assert_int_equal(mid_eff, HIGH);
    assert_int_equal(low_eff, MID); /* not passed on to low */
    assert_int_equal(mid.rc_own, RTIPC_OK);
    assert_int_equal(mid.rc_wanted, RTIPC_OK);
    assert_int_equal(mid.rc_unlock_wanted, RTIPC_OK);
    assert_int_equal(mid.rc_unlock_own, RTIPC_OK);
    assert_int_equal(high.rc, RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(a), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(b), RTIPC_OK);
}

static int kernel_priority(int tid, int *policy)
{
    struct sched_param sp = {0};
    *policy = sched_getscheduler((pid_t)tid);
    if (sched_getparam((pid_t)tid, &sp) != 0)
        return -1;
    return sp.sched_priority;
}

static void inherited_priority_reaches_the_kernel_under_sched_fifo(void **state)
{
    (void)state;
    SKIP_ON_FREERTOS("a Linux thread's kernel priority (sched_getparam)");
    if (rtipc_sched_policy() != RTIPC_SCHED_FIFO) {
        printf("[  NOTE    ] %s: policy is %s; kernel priority not checked\n", __func__,
               rtipc_sched_policy_describe());
        skip();
    }
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    holder_t h = {.m = {m}, .n = 1};
    rtipc_task_t *ht = start_holder(&h, LOW);
    int tid = __atomic_load_n(&h.tid, __ATOMIC_ACQUIRE);
    int pol_before, pol_waited, pol_after;
    int kprio_before = kernel_priority(tid, &pol_before);
    waiter_t w = make_waiter(m, RTIPC_FOREVER, NULL);
    rtipc_task_t *wt = start_waiter("waiter", HIGH, &w);
    int eff_waited = wait_effective(ht, HIGH, PROMPT_MS);
    int kprio_waited = kernel_priority(tid, &pol_waited);
    store(&h.release, 1);
    int unlocked = wait_for_flag(&h.unlocked, 1, PROMPT_MS);
    int kprio_after = kernel_priority(tid, &pol_after);
    end_holder(ht, &h);
    finish_task(wt, &w.done);
    assert_true(tid > 0);
    assert_int_equal(pol_before, SCHED_FIFO);
    assert_int_equal(kprio_before, RTIPC_FIFO_BASE + LOW);
    assert_int_equal(eff_waited, HIGH);
    assert_int_equal(pol_waited, SCHED_FIFO);
    assert_int_equal(kprio_waited, RTIPC_FIFO_BASE + HIGH);
    assert_true(unlocked);
    assert_int_equal(pol_after, SCHED_FIFO);
    assert_int_equal(kprio_after, RTIPC_FIFO_BASE + LOW);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

/* ---- concurrency ---------------------------------------------------------- */
typedef struct {
    rtipc_mutex_t *m;
    long *shared; /* plain memory: only the mutex orders the accesses */
    int n;
    int failures;
} worker_t;

static void counting_worker(void *arg)
{
    worker_t *w = arg;
    int64_t t0 = rtipc_time_ns();
    for (int i = 0; i < w->n; ++i) {
        if (rtipc_mutex_lock(w->m, rtipc_ms(PROMPT_MS)) != RTIPC_OK) {
            ++w->failures;
            break;
        }
        long v = *w->shared;
        if (i % 16 == 0)
            rtipc_task_yield(); /* widen the window a broken mutex would leave */
        *w->shared = v + 1;
        /* Over budget means missed wake-ups: stop rather than pay a timeout
         * for every remaining lock. */
        if (rtipc_mutex_unlock(w->m) != RTIPC_OK || elapsed_ms(t0) > WORKER_BUDGET_MS) {
            ++w->failures;
            break;
        }
    }
}

static void mutex_excludes_concurrent_holders(void **state)
{
    (void)state;
    enum { WORKERS = 3 };
    const int n = (int)stress_count(2000);
    long shared = 0;
    rtipc_mutex_t *m = NULL;
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    worker_t w[WORKERS];
    rtipc_task_t *t[WORKERS];
    for (int i = 0; i < WORKERS; ++i) {
        w[i] = (worker_t){.m = m, .shared = &shared, .n = n};
        t[i] = start_task("worker", MID, RTIPC_CORE_ANY, counting_worker, &w[i]);
    }
    for (int i = 0; i < WORKERS; ++i)
        join_task(t[i]);
    for (int i = 0; i < WORKERS; ++i)
        assert_int_equal(w[i].failures, 0);
    assert_int_equal(shared, (long)WORKERS * n);
    assert_null(rtipc_mutex_holder(m));
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        /* Allocation failure first: adoption can only fail while the task
         * descriptor pool is empty, i.e. before any task has been joined. */
        cmocka_unit_test(create_fails_with_nomem_when_allocation_fails),
        cmocka_unit_test(lock_from_a_thread_that_cannot_be_adopted_fails_with_nomem),
        cmocka_unit_test(mutex_is_created_available),
        cmocka_unit_test(create_with_null_out_fails_with_inval),
        cmocka_unit_test(static_mutex_lives_in_caller_memory),
        cmocka_unit_test(static_creation_with_null_memory_or_out_fails_with_inval),
        cmocka_unit_test(footprint_is_the_size_of_a_mutex),
        cmocka_unit_test(calls_on_a_dead_or_foreign_handle_fail_with_inval),
        cmocka_unit_test(every_call_but_the_queries_fails_with_context_error_in_an_interrupt),
        cmocka_unit_test(relocking_a_plain_mutex_is_deadlock),
        cmocka_unit_test(recursive_mutex_needs_as_many_unlocks_as_locks),
        cmocka_unit_test(recursive_mutex_is_not_released_to_a_waiter_before_the_last_unlock),
        cmocka_unit_test(unlock_by_non_holder_fails_with_perm),
        cmocka_unit_test(unlock_of_a_recursive_mutex_by_non_holder_fails_with_perm),
        cmocka_unit_test(mutex_holder_reports_the_holder_or_null),
        cmocka_unit_test(lock_with_no_wait_on_a_held_mutex_would_block),
        cmocka_unit_test(lock_times_out_after_about_the_timeout),
        cmocka_unit_test(task_lock_times_out_after_about_the_timeout),
        cmocka_unit_test(unlock_wakes_a_blocked_locker),
        cmocka_unit_test(unlock_wakes_a_locker_before_its_timeout),
        cmocka_unit_test(higher_priority_waiter_gets_the_mutex_first),
        cmocka_unit_test(equal_priority_waiters_get_the_mutex_in_fifo_order),
        cmocka_unit_test(delete_while_held_is_refused_busy),
        cmocka_unit_test(a_task_that_ends_holding_a_mutex_stays_its_holder),
        cmocka_unit_test(deleting_a_waiting_task_lets_the_mutex_be_deleted),
        cmocka_unit_test(holder_inherits_priority_of_waiting_task),
        cmocka_unit_test(holder_is_not_lowered_by_a_lower_priority_waiter),
        cmocka_unit_test(holder_drops_back_after_unlock),
        cmocka_unit_test(holder_drops_back_when_the_waiter_times_out),
        cmocka_unit_test(holder_drops_to_the_highest_remaining_waiter_when_one_times_out),
        cmocka_unit_test(holder_keeps_priority_when_a_waiting_task_is_deleted),
        cmocka_unit_test(lock_with_no_wait_does_not_boost_the_holder),
        cmocka_unit_test(holder_keeps_inheritance_while_holding_another_mutex),
        cmocka_unit_test(holder_keeps_inheritance_after_a_timeout_while_holding_another_mutex),
        cmocka_unit_test(inheritance_is_one_level_deep),
        cmocka_unit_test(inherited_priority_reaches_the_kernel_under_sched_fifo),
        cmocka_unit_test(mutex_excludes_concurrent_holders),
    };
    printf("[  NOTE    ] scheduling policy: %s\n", rtipc_sched_policy_describe());
    return cmocka_run_group_tests(tests, NULL, NULL);
}
