/* Fault injection: extreme timeouts on every blocking call.
 *
 * rtipc_timeout_t (time.h) holds nanoseconds: 0 = RTIPC_NO_WAIT, any
 * negative value = RTIPC_FOREVER, else a duration; rtipc_ns() clamps a
 * negative duration to 0. Every blocking call is run by a task with:
 * - RTIPC_NO_WAIT, and rtipc_ns(-5) (the same): RTIPC_EWOULDBLOCK, and the
 *   task never slept in the kernel (its spin statistics);
 * - 1 ns: RTIPC_ETIMEDOUT, promptly;
 * - huge timeouts: INT64_MAX ns, a value whose deadline (now + timeout)
 *   overflows int64, and a raw negative value (forever): the call waits
 *   without overflow (UBSan watches in the ASan build) until the event,
 *   made EVENT_MS later, and then succeeds with the event's data.
 * Delays and delay_until get the same values (a huge one blocks until the
 * task is deleted), and the interrupt timer gets huge delays and periods
 * (no overflow; negative ones are RTIPC_EINVAL). */
#include "fault_calls.h"
#include "fault_common.h"

#include <limits.h>
#include <stdio.h>

#define EVENT_MS 20
#define PROMPT_MS 5000

typedef enum { T_NO_WAIT, T_NEG_NS, T_ONE_NS, T_MAX, T_OVERFLOW, T_RAW_NEGATIVE, T_COUNT } tmode_t;
static const char *tmode_name[T_COUNT] = {"RTIPC_NO_WAIT", "rtipc_ns(-5)", "1 ns", "INT64_MAX ns",
                                          "deadline overflow", "raw -5 (forever)"};

static rtipc_timeout_t timeout_for(tmode_t m)
{
    switch (m) {
    case T_NO_WAIT: return RTIPC_NO_WAIT;
    case T_NEG_NS: return rtipc_ns(-5);
    case T_ONE_NS: return rtipc_ns(1);
    case T_MAX: return rtipc_ns(INT64_MAX);
    case T_OVERFLOW: return rtipc_ns(INT64_MAX - rtipc_time_ns() / 2); /* now + t > INT64_MAX */
    default: return (rtipc_timeout_t){-5};
    }
}

static bool waits_for_event(tmode_t m) { return m >= T_MAX; }

typedef struct {
    ctx_t c;
    uint64_t sleeps_before, sleeps_after;
} tctx_t;

static void waiter_task(void *arg)
{
    tctx_t *t = arg;
    rtipc_spin_stats_t st;
    rtipc_spin_stats(NULL, &st);
    t->sleeps_before = st.sleeps;
    t->c.value = -1;
    store(&t->c.ready, 1);
    t->c.started_ns = rtipc_time_ns();
    t->c.rc = do_call(&t->c);
    t->c.returned_ns = rtipc_time_ns();
    rtipc_spin_stats(NULL, &st);
    t->sleeps_after = st.sleeps;
    store(&t->c.done, 1);
}

static long calls_run, never_blocked, prompt_timeouts, huge_waits;

static void run(call_t call, tmode_t mode)
{
    tctx_t t = {.c = {.call = call, .rc = NOT_RUN, .timeout = timeout_for(mode)}};
    ctx_t *c = &t.c;
    prepare(c);
    c->task = start_task("waiter", 4, RTIPC_CORE_ANY, waiter_task, &t);
    int early = 0;
    if (waits_for_event(mode)) {
        assert_true(wait_for_flag(&c->ready, 1, PROMPT_MS));
        sleep_ms(EVENT_MS);
        early = load(&c->done);
        if (!early)
            make_event(c);
    }
    int finished = wait_for_flag(&c->done, 1, PROMPT_MS);
    if (!finished) {
        if (!waits_for_event(mode))
            make_event(c);
        wait_for_flag(&c->done, 1, PROMPT_MS);
        fail_msg("%s with %s: did not return", call_name[call], tmode_name[mode]);
    }
    join_task(c->task);
    if (early)
        fail_msg("%s with %s: returned %s before its event", call_name[call], tmode_name[mode],
                 rtipc_strerror(c->rc));
    int64_t took_ms = (c->returned_ns - c->started_ns) / 1000000;
    switch (mode) {
    case T_NO_WAIT:
    case T_NEG_NS:
        if (c->rc != RTIPC_EWOULDBLOCK)
            fail_msg("%s with %s: %s", call_name[call], tmode_name[mode], rtipc_strerror(c->rc));
        assert_int_equal(t.sleeps_after, t.sleeps_before); /* never slept */
        ++never_blocked;
        break;
    case T_ONE_NS:
        if (c->rc != RTIPC_ETIMEDOUT)
            fail_msg("%s with 1 ns: %s", call_name[call], rtipc_strerror(c->rc));
        if (took_ms > 1000)
            fail_msg("%s with 1 ns: took %lld ms", call_name[call], (long long)took_ms);
        ++prompt_timeouts;
        break;
    default:
        if (c->rc != RTIPC_OK)
            fail_msg("%s with %s: %s", call_name[call], tmode_name[mode], rtipc_strerror(c->rc));
        check_success(c);
        ++huge_waits;
        break;
    }
    ++calls_run;
    cleanup(c);
}

static void test_every_call_every_extreme_timeout(void **state)
{
    (void)state;
    for (int k = 0; k < C_COUNT; ++k)
        for (int m = 0; m < T_COUNT; ++m)
            run((call_t)k, (tmode_t)m);
}

/* ---- delays -------------------------------------------------------------------- */
typedef struct {
    int which; /* 0: delay(timeout), 1: delay_until(prev, inc) */
    rtipc_timeout_t timeout;
    uint64_t prev;
    uint32_t inc;
    int rc, done;
    bool missed;
} delay_t;

static void delay_task(void *arg)
{
    delay_t *d = arg;
    if (d->which == 0)
        d->rc = rtipc_task_delay(d->timeout);
    else
        d->rc = rtipc_task_delay_until(&d->prev, d->inc, &d->missed);
    store(&d->done, 1);
}

/* Returns whether the delay returned within PROMPT_MS (else it was deleted
 * after 50 ms, having not returned). */
static bool run_delay(delay_t *d, bool expect_return)
{
    d->rc = NOT_RUN;
    rtipc_task_t *t = start_task("delay", 4, RTIPC_CORE_ANY, delay_task, d);
    if (expect_return) {
        assert_true(wait_for_flag(&d->done, 1, PROMPT_MS));
        join_task(t);
        return true;
    }
    sleep_ms(50);
    int returned = load(&d->done);
    assert_int_equal(rtipc_task_delete(t), RTIPC_OK);
    assert_int_equal(returned, 0);
    return false;
}

static void test_delays(void **state)
{
    (void)state;
    delay_t d = {.which = 0, .timeout = RTIPC_NO_WAIT};
    run_delay(&d, true);
    assert_int_equal(d.rc, RTIPC_OK);
    d = (delay_t){.which = 0, .timeout = rtipc_ns(1)};
    run_delay(&d, true);
    assert_int_equal(d.rc, RTIPC_OK);
    d = (delay_t){.which = 0, .timeout = rtipc_ns(-5)};
    run_delay(&d, true);
    assert_int_equal(d.rc, RTIPC_OK);
    /* Huge and forever delays block until the task is deleted. */
    rtipc_timeout_t huge[3] = {rtipc_ns(INT64_MAX), rtipc_ns(INT64_MAX - rtipc_time_ns() / 2), {-5}};
    for (int i = 0; i < 3; ++i) {
        d = (delay_t){.which = 0, .timeout = huge[i]};
        run_delay(&d, false);
    }
    /* delay_until: a wake tick already passed returns at once; the largest
     * increment and a wake tick beyond any representable time block (until
     * deleted) without overflow. */
    (void)rtipc_tick_count(); /* the tick has started: tick 1 is past after 5 ms */
    sleep_ms(5);
    d = (delay_t){.which = 1, .prev = 0, .inc = 1};
    run_delay(&d, true);
    assert_int_equal(d.rc, RTIPC_OK);
    assert_true(d.missed);
    assert_int_equal(d.prev, 1);
    d = (delay_t){.which = 1, .prev = rtipc_tick_count(), .inc = UINT32_MAX};
    run_delay(&d, false);
    d = (delay_t){.which = 1, .prev = UINT64_MAX / 2, .inc = 1};
    run_delay(&d, false);
    d = (delay_t){.which = 1, .prev = UINT64_MAX - 1, .inc = UINT32_MAX}; /* the tick number wraps */
    run_delay(&d, false); /* to tick 2^32 - 3: 49 days at 1000 Hz */
    assert_int_equal(rtipc_task_delay_until(NULL, 1, NULL), RTIPC_EINVAL);
    uint64_t prev = 0;
    assert_int_equal(rtipc_task_delay_until(&prev, 0, NULL), RTIPC_EINVAL);
    calls_run += 10;
}

/* ---- the interrupt timer ----------------------------------------------------------- */
static int timer_hits;
static void count_isr(void *arg)
{
    (void)arg;
    __atomic_add_fetch(&timer_hits, 1, __ATOMIC_RELEASE);
}

static void test_timer_extremes(void **state)
{
    (void)state;
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(0, count_isr, NULL, &irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_timer_start(irq, -1, 0), RTIPC_EINVAL);
    assert_int_equal(rtipc_irq_timer_start(irq, 0, -1), RTIPC_EINVAL);
    /* A first expiry beyond any representable time: never. */
    assert_int_equal(rtipc_irq_timer_start(irq, INT64_MAX, 0), RTIPC_OK);
    sleep_ms(30);
    assert_int_equal(load(&timer_hits), 0);
    /* At once, then a period beyond any representable time: exactly once. */
    assert_int_equal(rtipc_irq_timer_start(irq, 0, INT64_MAX), RTIPC_OK);
    assert_true(wait_for_flag(&timer_hits, 1, PROMPT_MS));
    sleep_ms(30);
    assert_int_equal(load(&timer_hits), 1);
    assert_int_equal(rtipc_irq_timer_stop(irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
    /* The tick rate's bounds. */
    assert_int_equal(rtipc_tick_set_rate(0), RTIPC_EINVAL);
    assert_int_equal(rtipc_tick_set_rate(100001), RTIPC_EINVAL);
    calls_run += 5;
}

static void test_summary(void **state)
{
    (void)state;
    printf("fault-timeout: %ld calls with extreme timeouts (%d blocking calls x %d values, delays, "
           "timer): %ld never blocked, %ld timed out promptly, %ld huge waits completed on their event\n",
           calls_run, (int)C_COUNT, (int)T_COUNT, never_blocked, prompt_timeouts, huge_waits);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_call_every_extreme_timeout),
        cmocka_unit_test(test_delays),
        cmocka_unit_test(test_timer_extremes),
        cmocka_unit_test(test_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
