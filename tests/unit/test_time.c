/* Clocks (rtipc_time_ns, the cycle counter and its calibration) and the
 * timeout helpers of time.h. */
#define _GNU_SOURCE /* RUSAGE_THREAD */

#include "test_support.h"

#include <stdint.h>
#include <sys/resource.h>
#include <string.h>
#include <time.h>

/* Helpers of timing checks run at a high priority, so that SCHED_FIFO load
 * from other processes on the machine disturbs them less. */
#define TIMING_PRIO (RTIPC_PRIORITY_LEVELS - 2)

/* ---- first use ---------------------------------------------------------- */

/* time.h: rtipc_cycles and rtipc_cycles_source never block, even on first
 * use (only the rate conversions calibrate, sleeping about 20 ms). Must run
 * before anything else in this process touches the cycle counter. Blocking
 * shows as a voluntary context switch of the thread; to stay quiet when the
 * machine merely preempts us, it must also have taken 20 ms. */
static long voluntary_switches(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nvcsw : -1;
}

static void cycles_first_call_does_not_block(void **state)
{
    (void)state;
    long v0 = voluntary_switches();
    int64_t t0 = rtipc_time_ns();
    uint64_t c = rtipc_cycles();
    int64_t t1 = rtipc_time_ns();
    long v1 = voluntary_switches();
    const char *src = rtipc_cycles_source();
    int64_t t2 = rtipc_time_ns();
    long v2 = voluntary_switches();
    (void)c;
    assert_non_null(src);
    assert_true(v0 >= 0);
    if (v1 > v0 && t1 - t0 >= 20000000)
        fail_msg("first rtipc_cycles() slept: %lld us", (long long)((t1 - t0) / 1000));
    if (v2 > v1 && t2 - t1 >= 20000000)
        fail_msg("first rtipc_cycles_source() slept: %lld us", (long long)((t2 - t1) / 1000));
}

/* ---- rtipc_time_ns ------------------------------------------------------ */

static void time_ns_is_monotonic(void **state)
{
    (void)state;
    int64_t prev = rtipc_time_ns();
    /* FreeRTOS counts from the scheduler's start (time.h, Port notes): 0
     * until the first tick. */
    assert_true(RTIPC_PORT_FREERTOS ? prev >= 0 : prev > 0);
    long backwards = 0;
    for (int i = 0; i < 200000; ++i) {
        int64_t now = rtipc_time_ns();
        if (now < prev)
            ++backwards;
        prev = now;
    }
    assert_int_equal(backwards, 0);
}

static void time_ns_is_clock_monotonic(void **state)
{
    (void)state;
    struct timespec ts;
    int64_t before = rtipc_time_ns();
    clock_gettime(CLOCK_MONOTONIC, &ts);
    int64_t after = rtipc_time_ns();
    int64_t mono = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    if (RTIPC_PORT_FREERTOS) {
        /* time.h, Port notes: the kernel's tick count times the period. */
        before = rtipc_time_ns();
        mono = (int64_t)rtipc_tick_count() * rtipc_tick_period_ns();
        after = rtipc_time_ns();
    }
    assert_true(before <= mono);
    assert_true(mono <= after);
}

static void time_ns_advances_with_sleep(void **state)
{
    (void)state;
    int64_t t0 = rtipc_time_ns();
    sleep_ms(30);
    int64_t dt = rtipc_time_ns() - t0;
    assert_true(dt >= 30000000);
    assert_true(dt < 30000000 + 200000000);
}

/* ---- the cycle counter -------------------------------------------------- */

/* Observations of a pinned task (assertions stay on the main thread). */
typedef struct {
    long reads;
    long backwards;
    uint64_t first, last;
    uint64_t c0, c1;   /* cycles around a 50 ms sleep */
    int64_t t0, t1;    /* rtipc_time_ns around the same sleep */
} cycles_obs_t;

static void cycles_reader(void *arg)
{
    cycles_obs_t *o = arg;
    uint64_t prev = rtipc_cycles();
    o->first = prev;
    for (long i = 0; i < 200000; ++i) {
        uint64_t now = rtipc_cycles();
        if (now < prev)
            ++o->backwards;
        prev = now;
        ++o->reads;
    }
    o->last = prev;
}

static void cycles_monotonic_on_one_thread(void **state)
{
    (void)state;
    cycles_obs_t o;
    memset(&o, 0, sizeof o);
    rtipc_task_t *t = start_task("cycles", 1, test_core(0), cycles_reader, &o);
    join_task(t);
    assert_int_equal(o.reads, 200000);
    assert_int_equal(o.backwards, 0);
    assert_true(o.last > o.first); /* it advances at all */
}

static void cycles_interval(void *arg)
{
    cycles_obs_t *o = arg;
    o->t0 = rtipc_time_ns();
    o->c0 = rtipc_cycles();
    sleep_ms(50);
    o->c1 = rtipc_cycles();
    o->t1 = rtipc_time_ns();
}

static void cycles_to_ns_matches_time_ns(void **state)
{
    (void)state;
    cycles_obs_t o;
    memset(&o, 0, sizeof o);
    (void)rtipc_cycles_hz(); /* calibrate first: not inside the measured interval */
    rtipc_task_t *t = start_task("cyc50", TIMING_PRIO, test_core(1), cycles_interval, &o);
    join_task(t);
    assert_true(o.c1 > o.c0);
    int64_t by_clock = o.t1 - o.t0;
    int64_t by_cycles = rtipc_cycles_to_ns(o.c1 - o.c0);
    assert_true(by_clock >= 50000000);
    /* Within 10% of each other. The FreeRTOS simulator's tick is a host
     * timer that drops ticks when the host is busy: there the tick clock may
     * fall behind the counter, never run ahead of it. */
    if (RTIPC_PORT_FREERTOS && by_cycles > by_clock)
        by_cycles = by_clock;
    int64_t diff = by_cycles > by_clock ? by_cycles - by_clock : by_clock - by_cycles;
    if (diff * 10 > by_clock)
        fail_msg("cycles say %lld ns, clock says %lld ns", (long long)by_cycles, (long long)by_clock);
}

static void cycles_to_ns_scales(void **state)
{
    (void)state;
    assert_int_equal(rtipc_cycles_to_ns(0), 0);
    /* Non-decreasing and never negative, up to the largest difference. */
    int64_t half = rtipc_cycles_to_ns(UINT64_MAX / 2);
    int64_t most = rtipc_cycles_to_ns(UINT64_MAX);
    assert_true(half > 0);
    assert_true(most >= half);
    double hz = rtipc_cycles_hz();
    /* One second's worth of cycles is one second, to rounding. */
    int64_t one_s = rtipc_cycles_to_ns((uint64_t)hz);
    assert_true(one_s > 999999000 && one_s <= 1000000000);
}

static void cycles_hz_positive(void **state)
{
    (void)state;
    double hz = rtipc_cycles_hz();
    assert_true(hz > 0.0);
    /* Calibrated once: the same answer every time. */
    assert_true(rtipc_cycles_hz() == hz);
}

static void cycles_source_is_known(void **state)
{
    (void)state;
    const char *src = rtipc_cycles_source();
    assert_non_null(src);
    if (RTIPC_PORT_FREERTOS) {
        /* time.h, Port notes: the board's counter (FreeRTOSConfig.h names
         * it; "application" when it does not) or the tick clock. */
        assert_true(src[0] != '\0');
        if (strcmp(src, "freertos_tick") == 0)
            assert_true(rtipc_cycles_hz() == 1e9);
        return;
    }
    int known = strcmp(src, "tsc") == 0 || strcmp(src, "cntvct") == 0 || strcmp(src, "clock_monotonic_raw") == 0;
    assert_true(known);
#if defined(__x86_64__) || defined(__i386__)
    assert_string_not_equal(src, "cntvct");
#elif defined(__aarch64__)
    assert_string_equal(src, "cntvct");
#else
    assert_string_equal(src, "clock_monotonic_raw");
#endif
    /* The fallback counter counts nanoseconds. */
    if (strcmp(src, "clock_monotonic_raw") == 0)
        assert_true(rtipc_cycles_hz() == 1e9);
}

/* ---- timeout helpers ---------------------------------------------------- */

static void timeout_helpers(void **state)
{
    (void)state;
    assert_true(rtipc_ms(5).ns == 5000000);
    assert_true(rtipc_us(7).ns == 7000);
    assert_true(rtipc_ns(123).ns == 123);
    /* No overflow at the top of the uint32 argument. */
    assert_true(rtipc_ms(UINT32_MAX).ns == (int64_t)UINT32_MAX * 1000000);
    assert_true(rtipc_us(UINT32_MAX).ns == (int64_t)UINT32_MAX * 1000);

    /* A negative duration is "no wait", never "forever". */
    assert_true(rtipc_timeout_is_no_wait(rtipc_ns(-3)));
    assert_false(rtipc_timeout_is_forever(rtipc_ns(-3)));
    assert_true(rtipc_ns(-3).ns == 0);
    assert_true(rtipc_timeout_is_no_wait(rtipc_ns(0)));
    assert_true(rtipc_timeout_is_no_wait(rtipc_ms(0)));

    assert_true(rtipc_timeout_is_forever(RTIPC_FOREVER));
    assert_false(rtipc_timeout_is_no_wait(RTIPC_FOREVER));
    assert_true(rtipc_timeout_is_no_wait(RTIPC_NO_WAIT));
    assert_false(rtipc_timeout_is_forever(RTIPC_NO_WAIT));

    assert_false(rtipc_timeout_is_no_wait(rtipc_ns(1)));
    assert_false(rtipc_timeout_is_forever(rtipc_ns(1)));
    assert_false(rtipc_timeout_is_forever(rtipc_ms(UINT32_MAX)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cycles_first_call_does_not_block), /* first: see there */
        cmocka_unit_test(time_ns_is_monotonic),
        cmocka_unit_test(time_ns_is_clock_monotonic),
        cmocka_unit_test(time_ns_advances_with_sleep),
        cmocka_unit_test(cycles_monotonic_on_one_thread),
        cmocka_unit_test(cycles_to_ns_matches_time_ns),
        cmocka_unit_test(cycles_to_ns_scales),
        cmocka_unit_test(cycles_hz_positive),
        cmocka_unit_test(cycles_source_is_known),
        cmocka_unit_test(timeout_helpers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
