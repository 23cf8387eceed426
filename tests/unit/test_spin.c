/* Spin-then-park waiting (spin.h): the budget setters, the wait counters,
 * and the rules, observed through the counters rather than through time:
 * - budget 0 parks at once; a large budget receives a cross-core handoff
 *   while spinning, and the waker then makes no FUTEX_WAKE call;
 * - a task ready on the waiter's core makes the waiter park at once, or stop
 *   spinning when it becomes ready mid-spin, and it runs meanwhile;
 * - a waker that ran on the waiter's core disables the next spin;
 * - an unpinned waiter never spins. */
#define _GNU_SOURCE /* pthread_attr_setaffinity_np */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "test_support.h"

/* A budget no handoff in these tests comes near: a spin that runs it out
 * means the rule under test failed (the test then fails on a counter). */
#define LONG_SPIN_NS 1000000000LL
/* Bound on polling loops: only a broken implementation waits this long. */
#define PATIENCE_MS 10000

static rtipc_spin_stats_t stats_of(rtipc_task_t *t)
{
    rtipc_spin_stats_t s;
    assert_int_equal(rtipc_spin_stats(t, &s), RTIPC_OK);
    return s;
}

static uint64_t waits_started(const rtipc_spin_stats_t *s) { return s->spins + s->same_core_parks + s->sleeps; }

/* Poll (from any thread) until t has slept in the kernel at least `want`
 * times; returns whether it did within PATIENCE_MS. */
static int wait_for_sleeps(rtipc_task_t *t, uint64_t want)
{
    int64_t deadline = rtipc_time_ns() + (int64_t)PATIENCE_MS * 1000000;
    rtipc_spin_stats_t s;
    while (rtipc_spin_stats(t, &s) == RTIPC_OK && s.sleeps < want) {
        if (rtipc_time_ns() > deadline)
            return 0;
        sched_yield();
    }
    return 1;
}

static int two_cores(void) { return rtipc_core_count() >= 2; }

/* The same-core rules are the Linux port's, and need two cores. FreeRTOS
 * runs this file on the single-core simulator, where nothing spins (spin.h,
 * Port notes), which the budget tests check there; a multicore FreeRTOS
 * kernel's rules are checked by targets/qemu-virt-rv32/freertos/spin_main.c. */
#define SKIP_UNLESS_SPIN_RULES()                                                                 \
    do {                                                                                       \
        if (RTIPC_PORT_FREERTOS) {                                                             \
            print_message("single-core FreeRTOS never spins (spin.h, Port notes)\n");        \
            skip();                                                                            \
        }                                                                                      \
        if (!two_cores())                                                                      \
            skip();                                                                            \
    } while (0)

/* ---- setters and their return paths ------------------------------------- */

static void global_default_validates_and_restores(void **state)
{
    (void)state;
    assert_int_equal(rtipc_spin_default(), RTIPC_SPIN_NS_DEFAULT);
    assert_int_equal(rtipc_spin_set_default(0), RTIPC_OK);
    assert_int_equal(rtipc_spin_default(), 0);
    assert_int_equal(rtipc_spin_set_default(RTIPC_SPIN_MAX_NS), RTIPC_OK);
    assert_int_equal(rtipc_spin_default(), RTIPC_SPIN_MAX_NS);
    assert_int_equal(rtipc_spin_set_default(RTIPC_SPIN_MAX_NS + 1), RTIPC_EINVAL);
    assert_int_equal(rtipc_spin_set_default(-2), RTIPC_EINVAL);
    assert_int_equal(rtipc_spin_set_default(INT64_MIN), RTIPC_EINVAL);
    assert_int_equal(rtipc_spin_default(), RTIPC_SPIN_MAX_NS); /* refused calls change nothing */
    assert_int_equal(rtipc_spin_set_default(RTIPC_SPIN_DEFAULT), RTIPC_OK);
    assert_int_equal(rtipc_spin_default(), RTIPC_SPIN_NS_DEFAULT);
    /* Any context: the global budget is a plain atomic. */
    enter_interrupt_context();
    int rc = rtipc_spin_set_default(1000);
    leave_interrupt_context();
    assert_int_equal(rc, RTIPC_OK);
    assert_int_equal(rtipc_spin_default(), 1000);
    assert_int_equal(rtipc_spin_set_default(RTIPC_SPIN_DEFAULT), RTIPC_OK);
}

typedef int (*setter_fn)(void *obj, int64_t ns);

/* Every setter accepts the whole range and refuses what is outside it. */
static void check_setter(setter_fn set, void *obj)
{
    static const int64_t good[] = {RTIPC_SPIN_DEFAULT, 0, 1, 20000, RTIPC_SPIN_MAX_NS, RTIPC_SPIN_DEFAULT};
    static const int64_t bad[] = {-2, INT64_MIN, RTIPC_SPIN_MAX_NS + 1, INT64_MAX};
    for (size_t i = 0; i < sizeof good / sizeof *good; ++i)
        assert_int_equal(set(obj, good[i]), RTIPC_OK);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i)
        assert_int_equal(set(obj, bad[i]), RTIPC_EINVAL);
    assert_int_equal(set(NULL, 0), RTIPC_EINVAL);
    /* Setters work in handlers too. */
    enter_interrupt_context();
    int rc = set(obj, 5000);
    leave_interrupt_context();
    assert_int_equal(rc, RTIPC_OK);
}

static int set_queue(void *o, int64_t ns) { return rtipc_queue_set_spin(o, ns); }
static int set_sem(void *o, int64_t ns) { return rtipc_sem_set_spin(o, ns); }
static int set_mutex(void *o, int64_t ns) { return rtipc_mutex_set_spin(o, ns); }
static int set_eventgroup(void *o, int64_t ns) { return rtipc_eventgroup_set_spin(o, ns); }
static int set_streambuf(void *o, int64_t ns) { return rtipc_streambuf_set_spin(o, ns); }
static int set_msgbuf(void *o, int64_t ns) { return rtipc_msgbuf_set_spin(o, ns); }
static int set_ringbuf(void *o, int64_t ns) { return rtipc_ringbuf_set_spin(o, ns); }
static int set_spsc(void *o, int64_t ns) { return rtipc_spsc_set_spin(o, ns); }
static int set_mailbox(void *o, int64_t ns) { return rtipc_mailbox_set_spin(o, ns); }
static int set_queueset(void *o, int64_t ns) { return rtipc_queueset_set_spin(o, ns); }

static void object_setters_validate_their_arguments(void **state)
{
    (void)state;
    rtipc_queue_t *q;
    rtipc_sem_t *s;
    rtipc_mutex_t *m;
    rtipc_eventgroup_t *eg;
    rtipc_streambuf_t *sb;
    rtipc_msgbuf_t *mb;
    rtipc_ringbuf_t *rb;
    rtipc_spsc_t *r;
    rtipc_mailbox_t *mbox;
    rtipc_queueset_t *set;
    uint32_t zero = 0;
    assert_int_equal(rtipc_queue_create(4, 4, &q), RTIPC_OK);
    assert_int_equal(rtipc_sem_create_binary(&s), RTIPC_OK);
    assert_int_equal(rtipc_mutex_create(false, &m), RTIPC_OK);
    assert_int_equal(rtipc_eventgroup_create(&eg), RTIPC_OK);
    assert_int_equal(rtipc_streambuf_create(64, 1, &sb), RTIPC_OK);
    assert_int_equal(rtipc_msgbuf_create(64, &mb), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_create(256, RTIPC_RINGBUF_NOSPLIT, &rb), RTIPC_OK);
    assert_int_equal(rtipc_spsc_create(8, 4, &r), RTIPC_OK);
    assert_int_equal(rtipc_mailbox_create(sizeof zero, &zero, &mbox), RTIPC_OK);
    assert_int_equal(rtipc_queueset_create(4, &set), RTIPC_OK);

    check_setter(set_queue, q);
    check_setter(set_sem, s);
    check_setter(set_mutex, m);
    check_setter(set_eventgroup, eg);
    check_setter(set_streambuf, sb);
    check_setter(set_msgbuf, mb);
    check_setter(set_ringbuf, rb);
    check_setter(set_spsc, r);
    check_setter(set_mailbox, mbox);
    check_setter(set_queueset, set);
    /* A handle of the wrong kind is not a live object of the setter's kind. */
    assert_int_equal(rtipc_msgbuf_set_spin((rtipc_msgbuf_t *)(void *)sb, 0), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_set_spin((rtipc_streambuf_t *)(void *)mb, 0), RTIPC_EINVAL);

    assert_int_equal(rtipc_queueset_delete(set), RTIPC_OK);
    assert_int_equal(rtipc_mailbox_delete(mbox), RTIPC_OK);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(rb), RTIPC_OK);
    assert_int_equal(rtipc_msgbuf_delete(mb), RTIPC_OK);
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
    assert_int_equal(rtipc_eventgroup_delete(eg), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_OK);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void idle(void *arg) { (void)arg; }

static void notify_setter_and_stats_validate_their_arguments(void **state)
{
    (void)state;
    /* NULL names the caller (adopted if needed). */
    assert_int_equal(rtipc_notify_set_spin(NULL, 0), RTIPC_OK);
    assert_int_equal(rtipc_notify_set_spin(NULL, RTIPC_SPIN_DEFAULT), RTIPC_OK);
    assert_int_equal(rtipc_notify_set_spin(rtipc_task_current(), RTIPC_SPIN_MAX_NS), RTIPC_OK);
    assert_int_equal(rtipc_notify_set_spin(NULL, RTIPC_SPIN_MAX_NS + 1), RTIPC_EINVAL);
    assert_int_equal(rtipc_notify_set_spin(NULL, -5), RTIPC_EINVAL);
    assert_int_equal(rtipc_notify_set_spin(NULL, RTIPC_SPIN_DEFAULT), RTIPC_OK);

    rtipc_spin_stats_t st;
    rtipc_task_t *me = rtipc_task_current(); /* task context only (task.h) */
    assert_int_equal(rtipc_spin_stats(NULL, &st), RTIPC_OK);
    assert_int_equal(rtipc_spin_stats(me, &st), RTIPC_OK);
    assert_int_equal(rtipc_spin_stats(NULL, NULL), RTIPC_EINVAL);

    /* A task that has ended is no longer live (descriptors are recycled,
     * never freed, so the handle may still be looked at). */
    rtipc_task_t *t = start_task("ended", 1, RTIPC_CORE_ANY, idle, NULL);
    join_task(t);
    assert_int_equal(rtipc_notify_set_spin(t, 0), RTIPC_EINVAL);
    assert_int_equal(rtipc_spin_stats(t, &st), RTIPC_EINVAL);

    enter_interrupt_context();
    int set_rc = rtipc_notify_set_spin(NULL, 0);
    int stats_null_rc = rtipc_spin_stats(NULL, &st);
    int stats_task_rc = rtipc_spin_stats(me, &st);
    leave_interrupt_context();
    assert_int_equal(set_rc, RTIPC_ECONTEXT);
    assert_int_equal(stats_null_rc, RTIPC_ECONTEXT);
    assert_int_equal(stats_task_rc, RTIPC_OK);
}

/* ---- budget 0 and a large budget ------------------------------------------ */

typedef struct {
    rtipc_sem_t *sem;
    int rounds;
    atomic_int round;   /* waiter: the round it is about to wait for */
    atomic_int rc;      /* first failure, or 0 */
    rtipc_spin_stats_t end;
} handoff_t;

static void sem_waiter(void *arg)
{
    handoff_t *h = arg;
    for (int i = 1; i <= h->rounds; ++i) {
        atomic_store(&h->round, i);
        int rc = rtipc_sem_take(h->sem, RTIPC_FOREVER);
        if (rc != RTIPC_OK)
            atomic_store(&h->rc, rc);
    }
    rtipc_spin_stats(NULL, &h->end);
}

/* Single-core FreeRTOS (spin.h, Port notes): whatever the budget, the
 * waiter blocks in the kernel at once, every handoff arrives, and every counter stays 0. On
 * one core the waiter outranks the giver (the test task), so each give finds
 * it blocked. */
static void freertos_waits_never_spin(int64_t budget)
{
    handoff_t h = {.rounds = 3};
    assert_int_equal(rtipc_sem_create_binary(&h.sem), RTIPC_OK);
    assert_int_equal(rtipc_sem_set_spin(h.sem, budget), RTIPC_OK);
    rtipc_task_t *t = start_task("parker", 5, RTIPC_CORE_ANY, sem_waiter, &h);
    for (int i = 1; i <= h.rounds; ++i) {
        assert_true(wait_for_flag((volatile int *)&h.round, i, 5000));
        assert_int_equal(rtipc_sem_give(h.sem), RTIPC_OK);
    }
    join_task(t);
    assert_int_equal(atomic_load(&h.rc), RTIPC_OK);
    assert_int_equal(h.end.spins, 0);
    assert_int_equal(h.end.spin_wakeups, 0);
    assert_int_equal(h.end.same_core_parks, 0);
    assert_int_equal(h.end.sleeps, 0);
    assert_int_equal(h.end.futex_wakes, 0);
    assert_int_equal(rtipc_sem_delete(h.sem), RTIPC_OK);
}

static void budget_zero_parks_at_once(void **state)
{
    (void)state;
    if (RTIPC_PORT_FREERTOS) {
        freertos_waits_never_spin(0);
        return;
    }
    if (!two_cores())
        skip();
    handoff_t h = {.rounds = 3};
    assert_int_equal(rtipc_sem_create_binary(&h.sem), RTIPC_OK);
    /* The object's 0 wins over a global budget that would spin for ages. */
    assert_int_equal(rtipc_spin_set_default(LONG_SPIN_NS), RTIPC_OK);
    assert_int_equal(rtipc_sem_set_spin(h.sem, 0), RTIPC_OK);
    rtipc_task_t *t = start_task("parker", 5, test_core(1), sem_waiter, &h);
    for (int i = 1; i <= h.rounds; ++i) {
        /* Give only once the waiter sleeps: with budget 0 it gets there
         * without spinning, or the counters below say otherwise. */
        assert_true(wait_for_sleeps(t, (uint64_t)i));
        assert_int_equal(rtipc_sem_give(h.sem), RTIPC_OK);
    }
    join_task(t);
    assert_int_equal(rtipc_spin_set_default(RTIPC_SPIN_DEFAULT), RTIPC_OK);
    assert_int_equal(atomic_load(&h.rc), RTIPC_OK);
    assert_int_equal(h.end.spins, 0);
    assert_int_equal(h.end.spin_wakeups, 0);
    assert_true(h.end.sleeps >= (uint64_t)h.rounds);
    /* It announced every sleep, so every give paid for a FUTEX_WAKE. */
    assert_true(h.end.futex_wakes >= (uint64_t)h.rounds);
    assert_int_equal(rtipc_sem_delete(h.sem), RTIPC_OK);
}

typedef struct {
    handoff_t *h;
} giver_t;

/* On core 0: give each round once the waiter (core 1) has started waiting
 * for it, so every give finds it spinning (or parked, if spinning failed). */
static void cross_core_giver(void *arg)
{
    giver_t *g = arg;
    handoff_t *h = g->h;
    for (int i = 1; i <= h->rounds; ++i) {
        while (atomic_load(&h->round) < i)
            ;
        /* Let the waiter get into its wait before the give. */
        int64_t until = rtipc_time_ns() + 20000;
        while (rtipc_time_ns() < until)
            ;
        if (rtipc_sem_give(h->sem) != RTIPC_OK)
            atomic_store(&h->rc, RTIPC_EOVERFLOW);
    }
}

static void large_budget_receives_cross_core_without_sleeping(void **state)
{
    (void)state;
    if (RTIPC_PORT_FREERTOS) {
        freertos_waits_never_spin(LONG_SPIN_NS);
        return;
    }
    if (!two_cores())
        skip();
    handoff_t h = {.rounds = 200};
    assert_int_equal(rtipc_sem_create_binary(&h.sem), RTIPC_OK);
    /* The object's budget wins over a global 0. */
    assert_int_equal(rtipc_spin_set_default(0), RTIPC_OK);
    assert_int_equal(rtipc_sem_set_spin(h.sem, LONG_SPIN_NS), RTIPC_OK);
    rtipc_task_t *w = start_task("spinner", 5, test_core(1), sem_waiter, &h);
    giver_t g = {.h = &h};
    rtipc_task_t *gt = start_task("giver", 5, test_core(0), cross_core_giver, &g);
    join_task(gt);
    join_task(w);
    assert_int_equal(rtipc_spin_set_default(RTIPC_SPIN_DEFAULT), RTIPC_OK);
    assert_int_equal(atomic_load(&h.rc), RTIPC_OK);
    /* Received while spinning, every time it had to wait: never slept, and
     * the giver never paid for a FUTEX_WAKE. */
    assert_true(h.end.spins >= 1);
    assert_int_equal(h.end.spin_wakeups, h.end.spins);
    assert_int_equal(h.end.sleeps, 0);
    assert_int_equal(h.end.futex_wakes, 0);
    assert_int_equal(h.end.same_core_parks, 0);
    assert_int_equal(rtipc_sem_delete(h.sem), RTIPC_OK);
}

/* ---- the same-core rules -------------------------------------------------- */

typedef struct {
    atomic_int stop;
    atomic_long progress;
} busy_t;

/* A lower-priority task that is always ready: it never blocks. */
static void busy_low(void *arg)
{
    busy_t *b = arg;
    while (!atomic_load(&b->stop))
        atomic_fetch_add(&b->progress, 1);
}

static int wait_for_progress(atomic_long *counter, long beyond)
{
    int64_t deadline = rtipc_time_ns() + (int64_t)PATIENCE_MS * 1000000;
    while (atomic_load(counter) <= beyond) {
        if (rtipc_time_ns() > deadline)
            return 0;
        sched_yield();
    }
    return 1;
}

static void ready_task_on_the_core_makes_the_waiter_park_at_once(void **state)
{
    (void)state;
    SKIP_UNLESS_SPIN_RULES();
    busy_t b = {0};
    rtipc_task_t *low = start_task("busy-low", 2, test_core(1), busy_low, &b);
    assert_true(wait_for_progress(&b.progress, 0));
    handoff_t h = {.rounds = 1};
    assert_int_equal(rtipc_sem_create_binary(&h.sem), RTIPC_OK);
    assert_int_equal(rtipc_sem_set_spin(h.sem, LONG_SPIN_NS), RTIPC_OK);
    rtipc_task_t *high = start_task("waiter-high", 6, test_core(1), sem_waiter, &h);
    assert_true(wait_for_sleeps(high, 1));
    /* The lower-priority task runs while the waiter waits. */
    long before = atomic_load(&b.progress);
    assert_true(wait_for_progress(&b.progress, before));
    assert_int_equal(rtipc_sem_give(h.sem), RTIPC_OK);
    join_task(high);
    atomic_store(&b.stop, 1);
    join_task(low);
    assert_int_equal(atomic_load(&h.rc), RTIPC_OK);
    assert_int_equal(h.end.spins, 0);
    assert_int_equal(h.end.same_core_parks, 1);
    assert_true(h.end.sleeps >= 1);
    assert_int_equal(rtipc_sem_delete(h.sem), RTIPC_OK);
}

typedef struct {
    rtipc_sem_t *wake_low, *wake_high;
    atomic_long progress;
} relay_t;

/* Lower priority, same core as the spinner: blocked until readied from
 * core 0, then it does its work and wakes the spinner. */
static void relay_low(void *arg)
{
    relay_t *r = arg;
    if (rtipc_sem_take(r->wake_low, RTIPC_FOREVER) == RTIPC_OK) {
        atomic_fetch_add(&r->progress, 1);
        rtipc_sem_give(r->wake_high);
    }
}

static void task_readied_mid_spin_stops_the_spin(void **state)
{
    (void)state;
    SKIP_UNLESS_SPIN_RULES();
    relay_t r = {0};
    assert_int_equal(rtipc_sem_create_binary(&r.wake_low), RTIPC_OK);
    assert_int_equal(rtipc_sem_set_spin(r.wake_low, 0), RTIPC_OK);
    rtipc_task_t *low = start_task("relay-low", 2, test_core(1), relay_low, &r);
    assert_true(wait_for_sleeps(low, 1)); /* blocked: the spinner may spin */

    handoff_t h = {.rounds = 1};
    assert_int_equal(rtipc_sem_create_binary(&h.sem), RTIPC_OK);
    assert_int_equal(rtipc_sem_set_spin(h.sem, LONG_SPIN_NS), RTIPC_OK);
    r.wake_high = h.sem;
    rtipc_task_t *high = start_task("spin-high", 6, test_core(1), sem_waiter, &h);
    int64_t deadline = rtipc_time_ns() + (int64_t)PATIENCE_MS * 1000000;
    while (stats_of(high).spins == 0 && rtipc_time_ns() < deadline)
        sched_yield();
    /* Ready the low task from here: the spinner must make way for it, or
     * it would spin out its whole budget before the low task could run. */
    assert_int_equal(rtipc_sem_give(r.wake_low), RTIPC_OK);
    join_task(high);
    join_task(low);
    assert_int_equal(atomic_load(&h.rc), RTIPC_OK);
    assert_int_equal(atomic_load(&r.progress), 1);
    assert_int_equal(h.end.spins, 1);
    if (rtipc_sched_policy() == RTIPC_SCHED_FIFO) {
        /* The low task could run only once the spinner had parked. */
        assert_int_equal(h.end.spin_wakeups, 0);
        assert_int_equal(h.end.same_core_parks, 1);
        assert_int_equal(h.end.sleeps, 1);
    } else {
        /* Time-sharing may run the low task (and its give) mid-spin. */
        assert_int_equal(h.end.spin_wakeups + h.end.same_core_parks, 1);
    }
    assert_int_equal(rtipc_sem_delete(h.sem), RTIPC_OK);
    assert_int_equal(rtipc_sem_delete(r.wake_low), RTIPC_OK);
}

typedef struct {
    handoff_t *h;
    rtipc_task_t *waiter;
    uint64_t sleeps_before; /* the waiter's sleep count before this round */
    atomic_int failed;
} foreign_t;

/* A thread rtipc did not create, pinned to the waiter's core: it is in no
 * core's ready count, so only the waker-CPU rule can see it. */
static void *foreign_giver(void *arg)
{
    foreign_t *f = arg;
    for (int i = 1; i <= f->h->rounds; ++i) {
        /* Give once the waiter has started waiting for round i. */
        int64_t deadline = rtipc_time_ns() + (int64_t)PATIENCE_MS * 1000000;
        rtipc_spin_stats_t s;
        while (atomic_load(&f->h->round) < i ||
               (rtipc_spin_stats(f->waiter, &s) == RTIPC_OK && waits_started(&s) < (uint64_t)(2 * i - 1))) {
            if (rtipc_time_ns() > deadline) {
                atomic_store(&f->failed, 1);
                break;
            }
            sched_yield();
        }
        if (rtipc_sem_give(f->h->sem) != RTIPC_OK)
            atomic_store(&f->failed, 1);
    }
    return NULL;
}

static void waker_on_the_waiters_core_disables_the_next_spin(void **state)
{
    (void)state;
    SKIP_UNLESS_SPIN_RULES();
    /* The first wait spins, since nothing says the waker is on this core;
     * a short budget keeps the starved foreign thread's wait short. */
    handoff_t h = {.rounds = 2};
    assert_int_equal(rtipc_sem_create_binary(&h.sem), RTIPC_OK);
    assert_int_equal(rtipc_sem_set_spin(h.sem, 20000000), RTIPC_OK);
    rtipc_task_t *w = start_task("waiter", 6, test_core(1), sem_waiter, &h);
    foreign_t f = {.h = &h, .waiter = w};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(1, &set);
    pthread_attr_setaffinity_np(&attr, sizeof set, &set);
    pthread_t th;
    assert_int_equal(pthread_create(&th, &attr, foreign_giver, &f), 0);
    pthread_attr_destroy(&attr);
    pthread_join(th, NULL);
    join_task(w);
    assert_int_equal(atomic_load(&f.failed), 0);
    assert_int_equal(atomic_load(&h.rc), RTIPC_OK);
    /* Round 1 spun (and, under SCHED_FIFO, ran out: the giver had no CPU);
     * round 2 saw that its last waker ran on its core and parked at once. */
    assert_int_equal(h.end.spins, 1);
    assert_int_equal(h.end.same_core_parks, 1);
    assert_int_equal(rtipc_sem_delete(h.sem), RTIPC_OK);
}

static void main_giver(void *arg)
{
    foreign_t *f = arg;
    /* The test thread may have slept in earlier tests: wait for this sleep.
     * FreeRTOS counts none: one core, so this task's delay lets the test
     * task run into its take. */
    if (RTIPC_PORT_FREERTOS)
        sleep_ms(5);
    else if (!wait_for_sleeps(f->waiter, f->sleeps_before + 1))
        atomic_store(&f->failed, 1);
    if (rtipc_sem_give(f->h->sem) != RTIPC_OK)
        atomic_store(&f->failed, 1);
}

static void unpinned_waiter_never_spins(void **state)
{
    (void)state;
    handoff_t h = {.rounds = 1};
    assert_int_equal(rtipc_sem_create_binary(&h.sem), RTIPC_OK);
    assert_int_equal(rtipc_sem_set_spin(h.sem, LONG_SPIN_NS), RTIPC_OK);
    rtipc_task_t *self = rtipc_task_current(); /* the test thread: adopted, not pinned */
    rtipc_spin_stats_t before = stats_of(self);
    foreign_t f = {.h = &h, .waiter = self, .sleeps_before = before.sleeps};
    rtipc_task_t *g = start_task("giver", 5, test_core(1), main_giver, &f);
    assert_int_equal(rtipc_sem_take(h.sem, RTIPC_FOREVER), RTIPC_OK);
    join_task(g);
    rtipc_spin_stats_t after = stats_of(self);
    assert_int_equal(atomic_load(&f.failed), 0);
    /* Not even considered: no rule of the pinned case was consulted. */
    assert_int_equal(after.spins, before.spins);
    assert_int_equal(after.same_core_parks, before.same_core_parks);
    if (RTIPC_PORT_FREERTOS) /* spin.h, Port notes: zeros */
        assert_int_equal(after.sleeps, 0);
    else
        assert_true(after.sleeps > before.sleeps);
    assert_int_equal(rtipc_sem_delete(h.sem), RTIPC_OK);
}

/* ---- other objects' waits spin too ---------------------------------------- */

enum { OBJ_ROUNDS = 50 };

typedef struct {
    rtipc_spsc_t *ring;
    rtipc_mailbox_t *mbox;
    rtipc_mutex_t *mutex;
    rtipc_task_t *notified;
    atomic_int round; /* receiver: round it waits for */
    atomic_int done;  /* giver: round it served */
    atomic_int rc;
    rtipc_spin_stats_t end;
} objects_t;

static void note_rc(objects_t *o, int rc)
{
    if (rc != RTIPC_OK)
        atomic_store(&o->rc, rc);
}

/* Core 1: wait on each object in turn, OBJ_ROUNDS times. */
static void object_receiver(void *arg)
{
    objects_t *o = arg;
    uint64_t seen = 0;
    for (int i = 1; i <= OBJ_ROUNDS; ++i) {
        uint32_t v;
        atomic_store(&o->round, 4 * i - 3);
        note_rc(o, rtipc_spsc_pop(o->ring, &v, RTIPC_FOREVER));
        atomic_store(&o->round, 4 * i - 2);
        note_rc(o, rtipc_mailbox_wait_newer(o->mbox, &v, seen, &seen, RTIPC_FOREVER));
        atomic_store(&o->round, 4 * i - 1);
        note_rc(o, rtipc_notify_take(0, true, NULL, RTIPC_FOREVER));
        atomic_store(&o->round, 4 * i);
        note_rc(o, rtipc_mutex_lock(o->mutex, RTIPC_FOREVER)); /* held by the giver */
        note_rc(o, rtipc_mutex_unlock(o->mutex));
    }
    rtipc_spin_stats(NULL, &o->end);
}

static void settle(void)
{
    int64_t until = rtipc_time_ns() + 20000;
    while (rtipc_time_ns() < until)
        ;
}

/* Core 0: serve each round once the receiver waits for it. */
static void object_giver(void *arg)
{
    objects_t *o = arg;
    for (int i = 1; i <= 4 * OBJ_ROUNDS; ++i) {
        int kind = i % 4;
        /* Hold the mutex before the notification lets the receiver ask for
         * it (the next round), so that its lock has to wait. */
        if (kind == 3)
            note_rc(o, rtipc_mutex_lock(o->mutex, RTIPC_FOREVER));
        while (atomic_load(&o->round) < i)
            ;
        settle();
        uint32_t v = (uint32_t)i;
        if (kind == 1)
            note_rc(o, rtipc_spsc_push(o->ring, &v, RTIPC_FOREVER));
        else if (kind == 2)
            note_rc(o, rtipc_mailbox_write(o->mbox, &v));
        else if (kind == 3)
            note_rc(o, rtipc_notify_give(o->notified, 0));
        else
            note_rc(o, rtipc_mutex_unlock(o->mutex));
    }
}

static void lock_free_objects_mutexes_and_notifications_spin(void **state)
{
    (void)state;
    SKIP_UNLESS_SPIN_RULES();
    objects_t o = {0};
    uint32_t zero = 0;
    assert_int_equal(rtipc_spsc_create(4, sizeof(uint32_t), &o.ring), RTIPC_OK);
    assert_int_equal(rtipc_mailbox_create(sizeof zero, &zero, &o.mbox), RTIPC_OK);
    assert_int_equal(rtipc_mutex_create(false, &o.mutex), RTIPC_OK);
    assert_int_equal(rtipc_spin_set_default(0), RTIPC_OK);
    assert_int_equal(rtipc_spsc_set_spin(o.ring, LONG_SPIN_NS), RTIPC_OK);
    assert_int_equal(rtipc_mailbox_set_spin(o.mbox, LONG_SPIN_NS), RTIPC_OK);
    assert_int_equal(rtipc_mutex_set_spin(o.mutex, LONG_SPIN_NS), RTIPC_OK);
    rtipc_task_t *r = start_task("obj-recv", 5, test_core(1), object_receiver, &o);
    assert_int_equal(rtipc_notify_set_spin(r, LONG_SPIN_NS), RTIPC_OK);
    o.notified = r;
    rtipc_task_t *g = start_task("obj-give", 5, test_core(0), object_giver, &o);
    join_task(g);
    join_task(r);
    assert_int_equal(rtipc_spin_set_default(RTIPC_SPIN_DEFAULT), RTIPC_OK);
    assert_int_equal(atomic_load(&o.rc), RTIPC_OK);
    assert_true(o.end.spins >= 1);
    assert_int_equal(o.end.spin_wakeups, o.end.spins);
    assert_int_equal(o.end.sleeps, 0);
    assert_int_equal(o.end.futex_wakes, 0);
    assert_int_equal(rtipc_mutex_delete(o.mutex), RTIPC_OK);
    assert_int_equal(rtipc_mailbox_delete(o.mbox), RTIPC_OK);
    assert_int_equal(rtipc_spsc_delete(o.ring), RTIPC_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(global_default_validates_and_restores),
        cmocka_unit_test(object_setters_validate_their_arguments),
        cmocka_unit_test(notify_setter_and_stats_validate_their_arguments),
        cmocka_unit_test(budget_zero_parks_at_once),
        cmocka_unit_test(large_budget_receives_cross_core_without_sleeping),
        cmocka_unit_test(ready_task_on_the_core_makes_the_waiter_park_at_once),
        cmocka_unit_test(task_readied_mid_spin_stops_the_spin),
        cmocka_unit_test(waker_on_the_waiters_core_disables_the_next_spin),
        cmocka_unit_test(unpinned_waiter_never_spins),
        cmocka_unit_test(lock_free_objects_mutexes_and_notifications_spin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
