/* Fault injection: signals interrupting every blocking wait.
 *
 * SIGUSR1 is installed without SA_RESTART, so every signal makes the futex
 * wait under a blocking rtipc call return EINTR. A plain thread sends the
 * waiting task SIGUSR1 (pthread_kill) every SIGNAL_EVERY_US while it is
 * blocked in each blocking call of the API:
 * - with a finite timeout and no event: the call must return RTIPC_ETIMEDOUT
 *   (never success, never another code) and only once the whole timeout has
 *   elapsed on CLOCK_MONOTONIC;
 * - with RTIPC_FOREVER and an event made FOREVER_EVENT_MS later: the call
 *   must not return before the event, and must then succeed with the right
 *   data.
 * Delays are checked the same way (delay, delay_until: they return 0 only
 * at their time; a FOREVER delay stays blocked until the task is deleted). */
#define _GNU_SOURCE /* pthread_kill, sigaction under -std=c11 */
#include "test_support.h"
#include "fault_common.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define TIMEOUT_MS 100
#define FOREVER_EVENT_MS 60
#define SIGNAL_EVERY_US 500
#define PROMPT_MS 5000

static long signals_caught; /* atomic builtins: written in the handler */
static _Thread_local volatile long my_signals; /* caught on this thread */

static void on_signal(int sig)
{
    (void)sig;
    __atomic_add_fetch(&signals_caught, 1, __ATOMIC_RELAXED);
    my_signals = my_signals + 1;
}

/* The waiter starts its call only once the signaller is seen running (its
 * first signal has arrived), so the call is interrupted on a loaded host. */
static void wait_first_signal(void)
{
    int64_t end = rtipc_time_ns() + 5000000000LL;
    while (my_signals == 0 && rtipc_time_ns() < end) {
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
}

/* ---- the signaller ---------------------------------------------------------- */
typedef struct {
    pthread_t target;
    int stop;
    long sent;
} signaller_t;

static void *signaller(void *arg)
{
    signaller_t *s = arg;
    while (!load(&s->stop)) {
        if (pthread_kill(s->target, SIGUSR1) == 0)
            ++s->sent;
        struct timespec ts = {0, SIGNAL_EVERY_US * 1000L};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

#include "fault_calls.h"

static void waiter_task(void *arg)
{
    ctx_t *c = arg;
    c->thread = pthread_self();
    c->value = -1;
    store(&c->ready, 1);
    wait_first_signal();
    long before = my_signals;
    store(&c->calling, 1);
    c->started_ns = rtipc_time_ns();
    c->rc = do_call(c);
    c->returned_ns = rtipc_time_ns();
    c->in_call = my_signals - before;
    store(&c->done, 1);
}

static long total_signals, total_calls, interrupted_calls;

/* Run one call under signals: finite timeout (forever = false) or FOREVER
 * with an event. */
static void run_under_signals(call_t call, bool forever)
{
    ctx_t c = {.call = call, .rc = NOT_RUN, .timeout = forever ? RTIPC_FOREVER : rtipc_ms(TIMEOUT_MS)};
    prepare(&c);
    c.task = start_task("waiter", 4, RTIPC_CORE_ANY, waiter_task, &c);
    assert_true(wait_for_flag(&c.ready, 1, PROMPT_MS));
    signaller_t s = {.target = c.thread};
    long caught0 = __atomic_load_n(&signals_caught, __ATOMIC_RELAXED);
    pthread_t st;
    assert_int_equal(pthread_create(&st, NULL, signaller, &s), 0);
    int64_t event_ns = 0;
    int early = 0;
    if (forever) {
        assert_true(wait_for_flag(&c.calling, 1, PROMPT_MS));
        long at_call = __atomic_load_n(&signals_caught, __ATOMIC_RELAXED);
        sleep_ms(FOREVER_EVENT_MS);
        /* At least a few signals inside the call before the event. */
        for (int i = 0; i < 1000 && __atomic_load_n(&signals_caught, __ATOMIC_RELAXED) - at_call < 3; ++i)
            sleep_ms(2);
        early = load(&c.done); /* returned before the event: a spurious success */
        event_ns = rtipc_time_ns();
        make_event(&c);
    }
    int finished = wait_for_flag(&c.done, 1, PROMPT_MS + TIMEOUT_MS);
    store(&s.stop, 1);
    pthread_join(st, NULL);
    if (!finished) {
        /* Leave nothing blocked behind: release it, then report. */
        if (!forever)
            make_event(&c);
        wait_for_flag(&c.done, 1, PROMPT_MS);
        fail_msg("%s (%s): did not return under signals", call_name[call], forever ? "forever" : "timeout");
    }
    join_task(c.task);
    long caught = __atomic_load_n(&signals_caught, __ATOMIC_RELAXED) - caught0;
    if (early)
        fail_msg("%s: returned %s before its event", call_name[call], rtipc_strerror(c.rc));
    if (forever) {
        if (c.rc != RTIPC_OK)
            fail_msg("%s (forever): %s after %ld signals", call_name[call], rtipc_strerror(c.rc), caught);
        assert_true(c.returned_ns >= event_ns);
        check_success(&c);
    } else {
        if (c.rc != RTIPC_ETIMEDOUT)
            fail_msg("%s (timeout): %s after %ld signals, expected a timeout", call_name[call],
                     rtipc_strerror(c.rc), caught);
        if (c.returned_ns - c.started_ns < TIMEOUT_MS * 1000000LL)
            fail_msg("%s: timed out after %.3f ms of a %d ms timeout", call_name[call],
                     (double)(c.returned_ns - c.started_ns) / 1e6, TIMEOUT_MS);
    }
    /* The signaller really interrupted the wait (a FOREVER wait always; a
     * timed wait nearly always, checked over all of them in the summary). */
    assert_true(s.sent >= 1);
    if (forever)
        assert_true(c.in_call >= 1);
    interrupted_calls += c.in_call >= 1;
    total_signals += caught;
    ++total_calls;
    cleanup(&c);
}

static void test_timeouts_under_signals(void **state)
{
    (void)state;
    for (int k = 0; k < C_COUNT; ++k)
        run_under_signals((call_t)k, false);
}

static void test_forever_under_signals(void **state)
{
    (void)state;
    for (int k = 0; k < C_COUNT; ++k)
        run_under_signals((call_t)k, true);
}

/* ---- delays ------------------------------------------------------------------ */
typedef struct {
    int which; /* 0 delay, 1 delay_until, 2 delay forever */
    pthread_t thread;
    int ready, done, rc;
    int64_t started_ns, returned_ns;
    uint64_t target_tick, tick_after;
    bool missed;
} delay_ctx_t;

static void delay_task(void *arg)
{
    delay_ctx_t *d = arg;
    d->thread = pthread_self();
    store(&d->ready, 1);
    wait_first_signal();
    d->started_ns = rtipc_time_ns();
    if (d->which == 0) {
        d->rc = rtipc_task_delay(rtipc_ms(TIMEOUT_MS));
    } else if (d->which == 1) {
        uint64_t prev = rtipc_tick_count();
        uint32_t inc = (uint32_t)((int64_t)TIMEOUT_MS * 1000000 / rtipc_tick_period_ns());
        d->target_tick = prev + inc;
        d->rc = rtipc_task_delay_until(&prev, inc, &d->missed);
        d->tick_after = rtipc_tick_count();
    } else {
        d->rc = rtipc_task_delay(RTIPC_FOREVER);
    }
    d->returned_ns = rtipc_time_ns();
    store(&d->done, 1);
}

static void test_delays_under_signals(void **state)
{
    (void)state;
    for (int which = 0; which < 3; ++which) {
        delay_ctx_t d = {.which = which, .rc = NOT_RUN};
        rtipc_task_t *t = start_task("delay", 4, RTIPC_CORE_ANY, delay_task, &d);
        assert_true(wait_for_flag(&d.ready, 1, PROMPT_MS));
        signaller_t s = {.target = d.thread};
        long caught0 = __atomic_load_n(&signals_caught, __ATOMIC_RELAXED);
        pthread_t st;
        assert_int_equal(pthread_create(&st, NULL, signaller, &s), 0);
        if (which == 2) {
            sleep_ms(TIMEOUT_MS * 2);
            int returned = load(&d.done);
            store(&s.stop, 1);
            pthread_join(st, NULL);
            assert_int_equal(rtipc_task_delete(t), RTIPC_OK); /* the only way out */
            assert_int_equal(returned, 0);
            assert_int_equal(d.rc, NOT_RUN);
        } else {
            int finished = wait_for_flag(&d.done, 1, PROMPT_MS + TIMEOUT_MS);
            store(&s.stop, 1);
            pthread_join(st, NULL);
            assert_true(finished);
            join_task(t);
            assert_int_equal(d.rc, RTIPC_OK);
            if (which == 0) {
                assert_true(d.returned_ns - d.started_ns >= TIMEOUT_MS * 1000000LL);
            } else {
                assert_false(d.missed);
                assert_true(d.tick_after >= d.target_tick);
            }
        }
        long caught = __atomic_load_n(&signals_caught, __ATOMIC_RELAXED) - caught0;
        assert_true(caught >= 1);
        interrupted_calls += caught >= 2; /* one was the starting signal */
        total_signals += caught;
        ++total_calls;
    }
}

static void test_summary(void **state)
{
    (void)state;
    /* A timed call may, on a starved host, see no signal in its 100 ms;
     * most must have. */
    assert_true(interrupted_calls * 4 >= total_calls * 3);
    printf("fault-signal: %ld signals delivered into %ld blocking calls (%d calls x timeout/forever, "
           "3 delays; %ld interrupted), 0 spurious returns\n",
           total_signals, total_calls, (int)C_COUNT, interrupted_calls);
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = 0; /* no SA_RESTART: every signal interrupts the futex wait */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timeouts_under_signals),
        cmocka_unit_test(test_forever_under_signals),
        cmocka_unit_test(test_delays_under_signals),
        cmocka_unit_test(test_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
