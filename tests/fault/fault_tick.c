/* Fault injection: the tick delayed.
 *
 * rtipc has no tick thread (src/port/posix/kernel/tick.c): the tick is a grid over
 * CLOCK_MONOTONIC. A wake-up that a handler defers (a _from_isr call that
 * readies a task of its core without rtipc_irq_yield, irq.h) is released by
 * the core's interrupt thread at the next grid boundary, or earlier by a
 * rescheduling rtipc call of a task on that core. delay_until sleeps to a
 * boundary directly. What a test can delay through the public API:
 * - the tick rate (rtipc_tick_set_rate): at 2 Hz a deferred wake-up waits up
 *   to 500 ms for its tick;
 * - the interrupt thread of the core: a handler of the same core that runs
 *   long (handlers of a core run one at a time) holds back the tick that
 *   releases deferred wake-ups, and the core's timer interrupts;
 * - the task itself: a task that is late (busy past its wake tick) makes
 *   delay_until return at once with *missed set.
 * Checked: every deferred wake-up happens once the tick runs, none before it
 * (unless a rescheduling call on the core comes first, which releases them
 * at once), none lost; a late periodic timer runs once for the expiries it
 * missed and keeps its grid; delay_until catches up tick by tick. */
#include "test_support.h"
#include "fault_common.h"

#include <stdio.h>
#include <time.h>

#define WAITERS 4
#define STALL_MS 80
#define PROMPT_MS 5000

static int64_t load64(const int64_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static void store64(int64_t *p, int64_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }

/* Sleep without any rtipc call: an rtipc call of the main thread on the
 * interrupt's core would release the deferred wake-ups itself. */
static void plain_sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static long deferred_released, stalls_injected;

/* ---- the waiters ------------------------------------------------------------ */
typedef struct {
    rtipc_sem_t *s;
    int64_t released_ns;
    uint64_t released_tick;
    int rc;
    int done;
} waiter_t;

static void waiter_task(void *arg)
{
    waiter_t *w = arg;
    w->rc = rtipc_sem_take(w->s, rtipc_ms(20000));
    w->released_tick = rtipc_tick_count();
    store64(&w->released_ns, rtipc_time_ns());
    store(&w->done, 1);
}

/* ---- the handlers -------------------------------------------------------------- */
/* The context of the giver, the staller and the yielder below: one type,
 * each using its own fields. */
typedef struct {
    rtipc_sem_t *s;
    int stall_ms;           /* giver: then holds the interrupt thread this long */
    int gives_ok, woken;
    int64_t gave_ns, stall_end_ns;
    uint64_t gave_tick;
    int ms;                 /* staller: holds the interrupt thread this long */
    int64_t start_ns, end_ns;
    int go;                 /* yielder */
    int64_t yielded_ns;
} helper_t;

/* Gives the semaphore once per waiter, never yields: every wake-up of a task
 * of this core is deferred to the tick. Then, if asked, runs on for
 * stall_ms: the interrupt thread, which runs the tick of its core, is held
 * up (nothing else on the core may release the wake-ups meanwhile). */
static void giver_isr(void *arg)
{
    helper_t *g = arg;
    bool woken = false;
    int ok = 0;
    for (int i = 0; i < WAITERS; ++i)
        ok += rtipc_sem_give_from_isr(g->s, &woken) == RTIPC_OK;
    g->gives_ok = ok;
    g->woken = woken;
    g->gave_tick = rtipc_tick_count();
    store64(&g->gave_ns, rtipc_time_ns());
    while (rtipc_time_ns() - g->gave_ns < (int64_t)g->stall_ms * 1000000)
        ;
    store64(&g->stall_end_ns, rtipc_time_ns());
}

/* Holds the core's interrupt thread for ms milliseconds. */
static void staller_isr(void *arg)
{
    helper_t *st = arg;
    st->start_ns = rtipc_time_ns();
    while (rtipc_time_ns() - st->start_ns < (int64_t)st->ms * 1000000)
        ;
    store64(&st->end_ns, rtipc_time_ns());
}

typedef struct {
    waiter_t w[WAITERS];
    rtipc_task_t *t[WAITERS];
    rtipc_sem_t *s;
    int core;
} waiters_t;

static void start_waiters(waiters_t *ws, int core)
{
    ws->core = core;
    assert_int_equal(rtipc_sem_create_counting(WAITERS, 0, &ws->s), RTIPC_OK);
    for (int i = 0; i < WAITERS; ++i) {
        ws->w[i] = (waiter_t){.s = ws->s, .rc = 1};
        ws->t[i] = start_task("waiter", 5, core, waiter_task, &ws->w[i]);
    }
    sleep_ms(50); /* all parked */
}

static void finish_waiters(waiters_t *ws)
{
    for (int i = 0; i < WAITERS; ++i) {
        join_task(ws->t[i]);
        assert_int_equal(ws->w[i].rc, RTIPC_OK);
    }
    assert_int_equal(rtipc_sem_count(ws->s), 0);
    assert_int_equal(rtipc_sem_delete(ws->s), RTIPC_OK);
    deferred_released += WAITERS;
}

/* A slow tick (2 Hz): the deferred wake-ups wait for the next boundary, then
 * all happen. The waiters are pinned to the interrupt's core. */
static void test_slow_tick_releases_every_deferred_wakeup(void **state)
{
    (void)state;
    assert_int_equal(rtipc_tick_set_rate(2), RTIPC_OK);
    waiters_t ws;
    start_waiters(&ws, 0);
    helper_t g = {.s = ws.s};
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(0, giver_isr, &g, &irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
    int all = 1;
    for (int i = 0; i < WAITERS; ++i)
        all &= wait_for_flag(&ws.w[i].done, 1, PROMPT_MS);
    assert_int_equal(rtipc_tick_set_rate(RTIPC_TICK_HZ_DEFAULT), RTIPC_OK);
    assert_true(all);
    assert_int_equal(g.gives_ok, WAITERS);
    for (int i = 0; i < WAITERS; ++i) {
        /* Released at a later tick than the one the handler ran in. */
        assert_true(ws.w[i].released_tick > g.gave_tick);
        assert_true(ws.w[i].released_ns >= load64(&g.gave_ns));
    }
    finish_waiters(&ws);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
}

/* Same slow tick, but a task of the core makes a rescheduling call (a yield)
 * soon after: the deferred wake-ups happen then, well before the tick. */
static void yielder_task(void *arg)
{
    helper_t *y = arg;
    while (!load(&y->go))
        rtipc_task_delay(rtipc_ms(1));
    store64(&y->yielded_ns, rtipc_time_ns());
    rtipc_task_yield();
}

static void test_rescheduling_call_releases_before_the_slow_tick(void **state)
{
    (void)state;
    assert_int_equal(rtipc_tick_set_rate(1), RTIPC_OK); /* next tick up to 1 s away */
    waiters_t ws;
    start_waiters(&ws, 0);
    helper_t y = {0};
    rtipc_task_t *yt = start_task("yielder", 1, 0, yielder_task, &y);
    helper_t g = {.s = ws.s};
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(0, giver_isr, &g, &irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
    while (load64(&g.gave_ns) == 0)
        plain_sleep_ms(1);
    store(&y.go, 1);
    int all = 1;
    for (int i = 0; i < WAITERS; ++i)
        all &= wait_for_flag(&ws.w[i].done, 1, PROMPT_MS);
    join_task(yt);
    assert_int_equal(rtipc_tick_set_rate(RTIPC_TICK_HZ_DEFAULT), RTIPC_OK);
    assert_true(all);
    int before_tick = 0;
    for (int i = 0; i < WAITERS; ++i) {
        assert_true(ws.w[i].released_ns >= load64(&g.gave_ns));
        before_tick += ws.w[i].released_tick == g.gave_tick;
    }
    /* With a 1 s tick, nearly always all of them (a tick boundary may fall
     * between the handler and the yield); checked loosely: at least one. */
    assert_true(before_tick >= 1);
    finish_waiters(&ws);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
}

/* The interrupt thread held up after the handler readied the tasks: the
 * ticks that would release the deferred wake-ups (80 of them at 1000 Hz)
 * come late, and the first one that runs releases them all. */
static void test_stalled_interrupt_thread_releases_after_the_stall(void **state)
{
    (void)state;
    waiters_t ws;
    start_waiters(&ws, 0);
    helper_t g = {.s = ws.s, .stall_ms = STALL_MS};
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(0, giver_isr, &g, &irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
    int all = 1;
    for (int i = 0; i < WAITERS; ++i)
        all &= wait_for_flag(&ws.w[i].done, 1, PROMPT_MS + STALL_MS);
    assert_true(all);
    int64_t stall_end = load64(&g.stall_end_ns);
    assert_true(stall_end > 0);
    for (int i = 0; i < WAITERS; ++i)
        assert_true(ws.w[i].released_ns >= stall_end); /* not before the late tick */
    ++stalls_injected;
    finish_waiters(&ws);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
}

/* A periodic timer held up by a long handler of its core: the expiries it
 * missed are merged into one run, then it keeps its grid. */
static int64_t timer_runs[256];
static int timer_count;

static void timer_isr(void *arg)
{
    (void)arg;
    int n = load(&timer_count);
    if (n < 256)
        timer_runs[n] = rtipc_time_ns();
    store(&timer_count, n + 1);
}

static void test_late_periodic_timer_merges_missed_expiries(void **state)
{
    (void)state;
    const int64_t period = 5000000; /* 5 ms */
    helper_t st = {.ms = STALL_MS};
    rtipc_irq_t *timer, *stall_irq;
    assert_int_equal(rtipc_irq_create(0, staller_isr, &st, &stall_irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_create(0, timer_isr, NULL, &timer), RTIPC_OK);
    assert_int_equal(rtipc_irq_timer_start(timer, period, period), RTIPC_OK);
    plain_sleep_ms(30);
    int before = load(&timer_count);
    assert_int_equal(rtipc_irq_trigger(stall_irq), RTIPC_OK);
    while (load64(&st.end_ns) == 0)
        plain_sleep_ms(1);
    plain_sleep_ms(40);
    assert_int_equal(rtipc_irq_timer_stop(timer), RTIPC_OK);
    int n = load(&timer_count);
    assert_int_equal(rtipc_irq_delete(timer), RTIPC_OK);
    assert_int_equal(rtipc_irq_delete(stall_irq), RTIPC_OK);
    int64_t start = st.start_ns, end = load64(&st.end_ns);
    /* No run during the stall; then one run for all the missed expiries. */
    int during = 0, after = 0;
    for (int i = before; i < n && i < 256; ++i) {
        if (timer_runs[i] > start + period / 2 && timer_runs[i] < end)
            ++during;
        if (timer_runs[i] >= end)
            ++after;
    }
    assert_int_equal(during, 0);
    assert_true(after >= 1);
    /* The ~16 expiries of the stall did not each run afterwards: the runs
     * after the stall fit the time left after it, plus the merged one. */
    int64_t window = rtipc_time_ns() - end;
    assert_true(after <= window / period + 2);
    ++stalls_injected;
    printf("[  INFO    ] periodic 5 ms timer: stalled %d ms, %d runs after the stall (merged)\n", STALL_MS, after);
}

/* delay_until by a task that is late: it returns at once with *missed set,
 * its wake tick advanced by exactly the increment each time, until it has
 * caught up; then it sleeps to the tick again. */
typedef struct {
    int missed_count, slept;
    uint64_t wakes[8];
    int rc;
} periodic_t;

static void periodic_task(void *arg)
{
    periodic_t *p = arg;
    const uint32_t inc = 10;
    uint64_t prev = rtipc_tick_count();
    uint64_t start = prev;
    /* Busy for 35 ticks: the next three wake ticks pass meanwhile. */
    int64_t busy_until = rtipc_time_ns() + 35 * rtipc_tick_period_ns();
    while (rtipc_time_ns() < busy_until)
        ;
    for (int i = 0; i < 8; ++i) {
        bool missed = false;
        p->rc = rtipc_task_delay_until(&prev, inc, &missed);
        if (p->rc != RTIPC_OK)
            return;
        p->wakes[i] = prev - start;
        if (missed)
            ++p->missed_count;
        else if (rtipc_tick_count() >= prev)
            ++p->slept;
    }
}

static void test_late_task_catches_up_with_delay_until(void **state)
{
    (void)state;
    periodic_t p = {.rc = 1};
    join_task(start_task("periodic", 3, RTIPC_CORE_ANY, periodic_task, &p));
    assert_int_equal(p.rc, RTIPC_OK);
    for (int i = 0; i < 8; ++i)
        assert_int_equal(p.wakes[i], (uint64_t)(10 * (i + 1))); /* no tick skipped */
    assert_true(p.missed_count >= 3); /* ticks 10, 20, 30 had passed */
    assert_true(p.slept >= 1);        /* one of ticks 40..80 at least was slept to */
    printf("[  INFO    ] delay_until: %d late wake ticks returned at once, %d slept to\n", p.missed_count, p.slept);
}

static void test_summary(void **state)
{
    (void)state;
    printf("fault-tick: %ld deferred wake-ups released after a slowed or stalled tick, %ld interrupt-thread "
           "stalls injected, 0 lost\n",
           deferred_released, stalls_injected);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slow_tick_releases_every_deferred_wakeup),
        cmocka_unit_test(test_rescheduling_call_releases_before_the_slow_tick),
        cmocka_unit_test(test_stalled_interrupt_thread_releases_after_the_stall),
        cmocka_unit_test(test_late_periodic_timer_merges_missed_expiries),
        cmocka_unit_test(test_late_task_catches_up_with_delay_until),
        cmocka_unit_test(test_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
