/* The tick: rate, count and delay-until. */
#include "test_support.h"

static void default_rate_is_1000_hz(void **state)
{
    (void)state;
    assert_int_equal(rtipc_tick_rate(), RTIPC_TICK_HZ_DEFAULT);
    assert_int_equal(rtipc_tick_period_ns(), 1000000);
}

static void set_rate_rejects_zero_and_absurd_rates(void **state)
{
    (void)state;
    assert_int_equal(rtipc_tick_set_rate(0), RTIPC_EINVAL);
    assert_int_equal(rtipc_tick_set_rate(100001), RTIPC_EINVAL);
    assert_int_equal(rtipc_tick_rate(), 1000);
}

static void set_rate_from_a_handler_is_wrong_context(void **state)
{
    (void)state;
    enter_interrupt_context();
    int rc = rtipc_tick_set_rate(100);
    leave_interrupt_context();
    assert_int_equal(rc, RTIPC_ECONTEXT);
}

static void tick_count_advances_at_the_rate(void **state)
{
    (void)state;
    uint64_t t0 = rtipc_tick_count();
    int64_t n0 = rtipc_time_ns();
    sleep_ms(100);
    uint64_t t1 = rtipc_tick_count();
    int64_t elapsed_ms = (rtipc_time_ns() - n0) / 1000000;
    assert_true(t1 - t0 + 1 >= (uint64_t)elapsed_ms - 1);
    assert_true(t1 - t0 <= (uint64_t)elapsed_ms + 1);
}

static void tick_count_stays_continuous_across_a_rate_change(void **state)
{
    (void)state;
    uint64_t before = rtipc_tick_count();
    if (RTIPC_PORT_FREERTOS) {
        /* tick.h, Port notes: only configTICK_RATE_HZ. */
        unsigned rate = rtipc_tick_rate();
        assert_int_equal(rtipc_tick_set_rate(rate == 100 ? 1000 : 100), RTIPC_ENOTSUP);
        assert_int_equal(rtipc_tick_set_rate(rate), RTIPC_OK);
        assert_int_equal(rtipc_tick_rate(), rate);
        assert_int_equal(rtipc_tick_period_ns(), 1000000000 / rate);
        return;
    }
    assert_int_equal(rtipc_tick_set_rate(100), RTIPC_OK);
    uint64_t after = rtipc_tick_count();
    assert_true(after >= before && after <= before + 1);
    assert_int_equal(rtipc_tick_rate(), 100);
    assert_int_equal(rtipc_tick_period_ns(), 10000000);
    sleep_ms(50);
    uint64_t later = rtipc_tick_count();
    assert_in_range(later - after, 4, 7);
    assert_int_equal(rtipc_tick_set_rate(1000), RTIPC_OK);
}

/* How many periods (of 10 ms each) the periodic task records. */
enum { PERIODS = 10 };

/* The summary first (what every run checks), then one entry per period. */
typedef struct {
    int rc;
    bool missed_any;
    int64_t woke_at[PERIODS];
    uint64_t woke_tick[PERIODS];
    uint64_t target[PERIODS];
} periodic_t;

static void periodic_task(void *arg)
{
    periodic_t *p = arg;
    uint64_t wake = rtipc_tick_count();
    for (int i = 0; i < PERIODS; ++i) {
        bool missed = false;
        int rc = rtipc_task_delay_until(&wake, 10, &missed);
        if (rc != RTIPC_OK)
            p->rc = rc;
        p->missed_any |= missed;
        p->target[i] = wake;
        p->woke_at[i] = rtipc_time_ns();
        p->woke_tick[i] = rtipc_tick_count();
        /* Work of varying length must not shift the period. */
        int64_t busy_until = rtipc_time_ns() + (i % 3) * 2000000;
        while (rtipc_time_ns() < busy_until)
            ;
    }
}

static void delay_until_wakes_on_its_tick_without_drift(void **state)
{
    (void)state;
    periodic_t p = {0};
    rtipc_task_t *t = start_task("periodic", 5, test_core(1), periodic_task, &p);
    join_task(t);
    assert_int_equal(p.rc, RTIPC_OK);
    assert_false(p.missed_any);
    for (int i = 0; i < PERIODS; ++i)
        assert_true(p.woke_tick[i] >= p.target[i]); /* never early */
    /* Nine periods of 10 ms between the first and last wake: no drift. */
    int64_t span = p.woke_at[PERIODS - 1] - p.woke_at[0];
    assert_in_range(span, 89000000, 97000000);
}

static void delay_until_reports_a_missed_wake_tick(void **state)
{
    (void)state;
    uint64_t wake = rtipc_tick_count();
    sleep_ms(20);
    bool missed = false;
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_task_delay_until(&wake, 5, &missed), RTIPC_OK);
    assert_true(missed);
    assert_true(rtipc_time_ns() - t0 < 5000000); /* returned at once */
}

static void delay_until_rejects_bad_arguments(void **state)
{
    (void)state;
    uint64_t wake = 0;
    assert_int_equal(rtipc_task_delay_until(NULL, 1, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_task_delay_until(&wake, 0, NULL), RTIPC_EINVAL);
    enter_interrupt_context();
    int rc = rtipc_task_delay_until(&wake, 1, NULL);
    leave_interrupt_context();
    assert_int_equal(rc, RTIPC_ECONTEXT);
}

/* Every test starts at the default rate, even after a failed one. */
static int default_rate(void **state)
{
    (void)state;
    return rtipc_tick_set_rate(RTIPC_TICK_HZ_DEFAULT) == RTIPC_OK ? 0 : -1;
}

/* A wake tick whose time overflows int64 nanoseconds is never reached: the
 * task sleeps until it is deleted (no overflow; UBSan checks in ASan builds). */
static int far_done;
static void delay_until_far(void *arg)
{
    uint64_t prev = UINT64_MAX / 2;
    (void)arg;
    rtipc_task_delay_until(&prev, 1, NULL);
    __atomic_store_n(&far_done, 1, __ATOMIC_RELEASE);
}

static void delay_until_a_tick_beyond_int64_time_sleeps_until_deleted(void **state)
{
    (void)state;
    rtipc_task_t *t = start_task("far", 1, RTIPC_CORE_ANY, delay_until_far, NULL);
    sleep_ms(50);
    int returned = __atomic_load_n(&far_done, __ATOMIC_ACQUIRE);
    assert_int_equal(rtipc_task_delete(t), RTIPC_OK);
    assert_int_equal(returned, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(default_rate_is_1000_hz, default_rate),
        cmocka_unit_test_setup(set_rate_rejects_zero_and_absurd_rates, default_rate),
        cmocka_unit_test_setup(set_rate_from_a_handler_is_wrong_context, default_rate),
        cmocka_unit_test_setup(tick_count_advances_at_the_rate, default_rate),
        cmocka_unit_test_setup(tick_count_stays_continuous_across_a_rate_change, default_rate),
        cmocka_unit_test_setup(delay_until_wakes_on_its_tick_without_drift, default_rate),
        cmocka_unit_test_setup(delay_until_reports_a_missed_wake_tick, default_rate),
        cmocka_unit_test_setup(delay_until_rejects_bad_arguments, default_rate),
        cmocka_unit_test_setup(delay_until_a_tick_beyond_int64_time_sleeps_until_deleted, default_rate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
