/* Fault injection: a long time passes at once, and the clock nears the end of
 * int64 nanoseconds.
 *
 * A tick count reached after a day at 100 kHz, or 200 days, or a clock near
 * INT64_MAX ns, cannot be waited for in a test. The program moves
 * CLOCK_MONOTONIC forward instead, as if it had been stopped (SIGSTOP) for
 * that long: link-time wraps (tests/CMakeLists.txt) add a shift to every
 * CLOCK_MONOTONIC reading of the program and of librtipc.a, and take it off
 * the absolute deadlines rtipc hands to the futex system call, so a sleep
 * still lasts what it should. The shift only grows, as a monotonic clock
 * does. Checked (tick.h): across a rate change the tick count stays
 * continuous whatever count and period meet, delay_until wakes at its tick
 * after the rate was lowered following a long run at a high rate, and a
 * wake tick whose time does not fit in int64 ns is never reached (the task
 * sleeps until deleted). No arithmetic overflows: the ASan+UBSan build, where
 * UBSan is fatal, runs the same program. */
#include "test_support.h"

#include <linux/futex.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>

/* ---- the shifted clock ------------------------------------------------------ */
static _Atomic int64_t shift_ns;

int __real_clock_gettime(clockid_t id, struct timespec *ts);
int __wrap_clock_gettime(clockid_t id, struct timespec *ts);
long __real_syscall(long nr, ...);
long __wrap_syscall(long nr, ...);

int __wrap_clock_gettime(clockid_t id, struct timespec *ts)
{
    int rc = __real_clock_gettime(id, ts);
    if (rc != 0 || id != CLOCK_MONOTONIC)
        return rc;
    int64_t s = atomic_load(&shift_ns);
    ts->tv_sec += (time_t)(s / 1000000000);
    ts->tv_nsec += (long)(s % 1000000000);
    if (ts->tv_nsec >= 1000000000) {
        ts->tv_nsec -= 1000000000;
        ts->tv_sec += 1;
    }
    return rc;
}

/* rtipc's futex waits take an absolute CLOCK_MONOTONIC deadline (futex.h):
 * the kernel knows nothing of the shift. */
long __wrap_syscall(long nr, ...)
{
    va_list ap;
    va_start(ap, nr);
    long a[6];
    for (int i = 0; i < 6; ++i)
        a[i] = va_arg(ap, long);
    va_end(ap);
    struct timespec real;
    if (nr == SYS_futex && (a[1] & FUTEX_CMD_MASK) == FUTEX_WAIT_BITSET && !(a[1] & FUTEX_CLOCK_REALTIME) &&
        a[3] != 0) {
        const struct timespec *at = (const struct timespec *)a[3];
        int64_t ns = (int64_t)at->tv_sec * 1000000000 + at->tv_nsec - atomic_load(&shift_ns);
        if (ns < 0)
            ns = 0;
        real.tv_sec = (time_t)(ns / 1000000000);
        real.tv_nsec = (long)(ns % 1000000000);
        a[3] = (long)&real;
    }
    return __real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* The program was "stopped" for ns: its clock jumps forward. */
static void time_passes(int64_t ns) { atomic_fetch_add(&shift_ns, ns); }

#define DAY_NS (86400 * (int64_t)1000000000)

static long checks;

/* The tick count across a rate change: the tick that runs when the rate
 * changes carries on (a read just before and one just after may straddle
 * one boundary, and as many more as the reads' own span holds at the faster
 * of the two rates: 10 us ticks at 100 kHz are shorter than a slowed
 * sanitizer build's calls). */
static void set_rate_keeps_count(uint32_t hz)
{
    uint32_t old = rtipc_tick_rate();
    int64_t t0 = rtipc_time_ns();
    uint64_t before = rtipc_tick_count();
    assert_int_equal(rtipc_tick_set_rate(hz), RTIPC_OK);
    uint64_t after = rtipc_tick_count();
    int64_t span = rtipc_time_ns() - t0;
    uint32_t fast = old > hz ? old : hz;
    uint64_t within = (uint64_t)(span > 0 ? span : 0) * fast / 1000000000u;
    assert_true(after >= before);
    assert_true(after - before <= 1 + within);
    assert_int_equal(rtipc_tick_rate(), hz);
    checks++;
}

/* ---- delay_until from a task --------------------------------------------------- */
typedef struct {
    uint64_t prev;
    uint32_t increment;
    int rc;
    bool missed;
    uint64_t woke_tick;
    int64_t started_ns, woke_ns;
    _Atomic int done;
} delay_t;

static void delay_task(void *arg)
{
    delay_t *d = arg;
    d->started_ns = rtipc_time_ns();
    d->rc = rtipc_task_delay_until(&d->prev, d->increment, &d->missed);
    d->woke_tick = rtipc_tick_count();
    d->woke_ns = rtipc_time_ns();
    atomic_store(&d->done, 1);
}

/* Wait up to ms for the task to finish; whether it did. */
static bool finished_within(delay_t *d, int ms)
{
    for (int i = 0; i < ms && !atomic_load(&d->done); ++i)
        sleep_ms(1);
    return atomic_load(&d->done) != 0;
}

/* The next wake tick (increment ticks after now) is reached on time. */
static void delay_until_wakes_on_its_tick(uint32_t increment)
{
    delay_t d = {.prev = rtipc_tick_count(), .increment = increment};
    uint64_t target = d.prev + increment;
    rtipc_task_t *t = start_task("delay", 3, RTIPC_CORE_ANY, delay_task, &d);
    int64_t budget_ms = increment * rtipc_tick_period_ns() / 1000000 + 2000;
    bool done = finished_within(&d, (int)budget_ms);
    if (!done)
        assert_int_equal(rtipc_task_delete(t), RTIPC_OK);
    else
        assert_int_equal(rtipc_task_join(t), RTIPC_OK);
    assert_true(done);
    assert_int_equal(d.rc, RTIPC_OK);
    assert_false(d.missed);
    assert_int_equal(d.prev, target);
    assert_true(d.woke_tick >= target); /* never early */
    checks++;
}

/* ---- the cases ------------------------------------------------------------------------ */
/* A day at 100 kHz, then 100 Hz: the new grid's base tick is 8.64e9, whose
 * time at 10 ms a tick would lie 2.7 years before the start of the clock. */
static void lowering_the_rate_after_a_day_at_100_khz(void **state)
{
    (void)state;
    assert_int_equal(rtipc_tick_set_rate(100000), RTIPC_OK);
    time_passes(DAY_NS);
    assert_true(rtipc_tick_count() >= 8640000000u);
    set_rate_keeps_count(100);
    delay_until_wakes_on_its_tick(2);
}

/* 200 days at 100 kHz, then 1 Hz: count x period is 1.7e21 ns, beyond int64. */
static void lowering_the_rate_after_200_days_at_100_khz(void **state)
{
    (void)state;
    assert_int_equal(rtipc_tick_set_rate(100000), RTIPC_OK);
    time_passes(200 * DAY_NS);
    assert_true(rtipc_tick_count() >= 200 * 8640000000u);
    set_rate_keeps_count(1);
    set_rate_keeps_count(1000);
    delay_until_wakes_on_its_tick(5);
}

/* A wake tick from before the last rate change has passed: returns at once. */
static void a_wake_tick_before_the_rate_change_has_passed(void **state)
{
    (void)state;
    uint64_t prev = rtipc_tick_count();
    assert_int_equal(rtipc_tick_set_rate(10), RTIPC_OK);
    prev -= 1000; /* long before the change */
    bool missed = false;
    assert_int_equal(rtipc_task_delay_until(&prev, 1, &missed), RTIPC_OK);
    assert_true(missed);
    assert_int_equal(rtipc_tick_set_rate(1000), RTIPC_OK);
    checks++;
}

/* The clock 10 s short of INT64_MAX ns: ticks within those 10 s come, a wake
 * tick beyond them never does, and no tick computation overflows. */
static void near_the_end_of_int64_time(void **state)
{
    (void)state;
    time_passes(INT64_MAX - 10 * (int64_t)1000000000 - rtipc_time_ns());
    set_rate_keeps_count(100);
    delay_until_wakes_on_its_tick(3);

    delay_t far = {.prev = rtipc_tick_count(), .increment = 2000}; /* 20 s away: past INT64_MAX ns */
    rtipc_task_t *t = start_task("far", 3, RTIPC_CORE_ANY, delay_task, &far);
    bool returned = finished_within(&far, 200);
    assert_int_equal(rtipc_task_delete(t), RTIPC_OK);
    assert_false(returned); /* sleeps until deleted */
    set_rate_keeps_count(1);
    set_rate_keeps_count(100000);
    checks++;
}

static void summary(void **state)
{
    (void)state;
    printf("fault-clock: %ld tick checks after the clock jumped %lld days and to 10 s before INT64_MAX ns, "
           "0 overflows\n",
           checks, 201LL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lowering_the_rate_after_a_day_at_100_khz),
        cmocka_unit_test(lowering_the_rate_after_200_days_at_100_khz),
        cmocka_unit_test(a_wake_tick_before_the_rate_change_has_passed),
        cmocka_unit_test(near_the_end_of_int64_time),
        cmocka_unit_test(summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
