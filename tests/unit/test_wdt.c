/* The task watchdog: subscribers, idle starvation, trip actions. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_support.h"

#define TIMEOUT_NS 100000000LL /* 100 ms */

static struct {
    _Atomic int task_trips;
    _Atomic int idle_trips;
    _Atomic int idle_cores; /* bit per starved core */
    rtipc_task_t *_Atomic last_task;
} seen;

static void record_trip(const rtipc_wdt_trip_t *trip, void *arg)
{
    (void)arg;
    if (trip->task) {
        atomic_fetch_add(&seen.task_trips, 1);
        atomic_store(&seen.last_task, trip->task);
    } else {
        atomic_fetch_add(&seen.idle_trips, 1);
        atomic_fetch_or(&seen.idle_cores, 1 << trip->core);
    }
}

static int start_recording(bool idle_check)
{
    memset(&seen, 0, sizeof seen);
    rtipc_wdt_config_t cfg = {.timeout_ns = TIMEOUT_NS, .idle_check = idle_check, .on_trip = record_trip};
    return rtipc_wdt_start(&cfg);
}

typedef struct {
    rtipc_queue_t *q;
    bool subscribe;
    bool feed;
    int64_t run_ns;
    int rc;
} worker_t;

static void worker(void *arg)
{
    worker_t *w = arg;
    if (w->subscribe)
        w->rc = rtipc_wdt_add(NULL);
    int64_t end = rtipc_time_ns() + w->run_ns;
    int v;
    if (w->feed) {
        while (rtipc_time_ns() < end) {
            rtipc_wdt_reset();
            rtipc_task_delay(rtipc_ms(20));
        }
    } else {
        /* Blocked on an empty queue for the whole time (a stalled consumer). */
        rtipc_queue_receive(w->q, &v, rtipc_ns(w->run_ns));
    }
    if (w->subscribe)
        rtipc_wdt_delete(NULL);
}

static void run_worker(worker_t *w)
{
    assert_int_equal(rtipc_queue_create(1, sizeof(int), &w->q), RTIPC_OK);
    rtipc_task_t *t = start_task("worker", 5, test_core(1), worker, w);
    join_task(t);
    assert_int_equal(w->rc, RTIPC_OK);
    assert_int_equal(rtipc_queue_delete(w->q), RTIPC_OK);
}

static void subscribed_task_blocked_past_the_timeout_trips_it(void **state)
{
    (void)state;
    uint64_t before = rtipc_wdt_trip_count();
    assert_int_equal(start_recording(false), RTIPC_OK);
    worker_t w = {.subscribe = true, .run_ns = 4 * TIMEOUT_NS};
    run_worker(&w);
    assert_int_equal(rtipc_wdt_stop(), RTIPC_OK);
    assert_in_range(atomic_load(&seen.task_trips), 1, 4);
    assert_non_null(atomic_load(&seen.last_task));
    assert_true(rtipc_wdt_trip_count() - before >= 1);
}

static void task_blocked_without_subscribing_does_not_trip_it(void **state)
{
    (void)state;
    assert_int_equal(start_recording(true), RTIPC_OK);
    worker_t w = {.subscribe = false, .run_ns = 4 * TIMEOUT_NS};
    run_worker(&w);
    assert_int_equal(rtipc_wdt_stop(), RTIPC_OK);
    assert_int_equal(atomic_load(&seen.task_trips), 0);
    /* The blocked task leaves core 1 idle: its idle task is never starved
     * (core 0 may be, by other processes' real-time work on a shared VM). */
    assert_false(atomic_load(&seen.idle_cores) & (1 << 1));
}

static void subscribed_task_that_resets_does_not_trip_it(void **state)
{
    (void)state;
    assert_int_equal(start_recording(true), RTIPC_OK);
    worker_t w = {.subscribe = true, .feed = true, .run_ns = 4 * TIMEOUT_NS};
    run_worker(&w);
    assert_int_equal(rtipc_wdt_stop(), RTIPC_OK);
    assert_int_equal(atomic_load(&seen.task_trips), 0);
}

static void hog(void *arg)
{
    int64_t end = rtipc_time_ns() + *(int64_t *)arg;
    while (rtipc_time_ns() < end)
        ;
}

static void busy_top_priority_task_starves_the_idle_task_and_trips_it(void **state)
{
    (void)state;
    if (rtipc_sched_policy() != RTIPC_SCHED_FIFO || rtipc_core_count() < 2) {
        print_message("skipped: needs SCHED_FIFO and two cores (%s)\n", rtipc_sched_policy_describe());
        skip();
    }
    assert_int_equal(start_recording(true), RTIPC_OK);
    int64_t run = 4 * TIMEOUT_NS;
    rtipc_task_t *t = start_task("hog", RTIPC_PRIORITY_LEVELS - 1, 1, hog, &run);
    join_task(t);
    sleep_ms(50);
    assert_int_equal(rtipc_wdt_stop(), RTIPC_OK);
    assert_true(atomic_load(&seen.idle_trips) >= 1);
    assert_true(atomic_load(&seen.idle_cores) & (1 << 1)); /* core 1 was starved */
}

static void watchdog_calls_report_their_errors(void **state)
{
    (void)state;
    rtipc_wdt_config_t cfg = {.timeout_ns = TIMEOUT_NS};
    assert_int_equal(rtipc_wdt_start(NULL), RTIPC_EINVAL);
    rtipc_wdt_config_t tiny = {.timeout_ns = 999999};
    assert_int_equal(rtipc_wdt_start(&tiny), RTIPC_EINVAL);
    assert_int_equal(rtipc_wdt_stop(), RTIPC_EINVAL);
    assert_int_equal(rtipc_wdt_add(NULL), RTIPC_EINVAL);  /* not started */
    assert_int_equal(rtipc_wdt_reset(), RTIPC_EINVAL);
    assert_int_equal(rtipc_wdt_delete(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_wdt_start(&cfg), RTIPC_OK);
    assert_int_equal(rtipc_wdt_start(&cfg), RTIPC_EBUSY);
    assert_int_equal(rtipc_wdt_reset(), RTIPC_EINVAL);     /* not subscribed */
    assert_int_equal(rtipc_wdt_delete(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_wdt_add(NULL), RTIPC_OK);
    assert_int_equal(rtipc_wdt_add(NULL), RTIPC_EINVAL);   /* twice */
    assert_int_equal(rtipc_wdt_reset(), RTIPC_OK);
    assert_int_equal(rtipc_wdt_delete(NULL), RTIPC_OK);
    char junk[512] = {0};
    assert_int_equal(rtipc_wdt_add((rtipc_task_t *)(void *)junk), RTIPC_EINVAL);
    enter_interrupt_context();
    int rcs[5] = {rtipc_wdt_start(&cfg), rtipc_wdt_stop(), rtipc_wdt_add(NULL), rtipc_wdt_delete(NULL),
                  rtipc_wdt_reset()};
    leave_interrupt_context();
    for (int i = 0; i < 5; ++i)
        assert_int_equal(rcs[i], RTIPC_ECONTEXT);
    assert_int_equal(rtipc_wdt_stop(), RTIPC_OK);
}

/* Child mode: start with abort_on_trip, subscribe, never reset. */
static int abort_child(void)
{
    rtipc_wdt_config_t cfg = {.timeout_ns = 20000000, .abort_on_trip = true};
    if (rtipc_wdt_start(&cfg) != RTIPC_OK || rtipc_wdt_add(NULL) != RTIPC_OK)
        return 3;
    rtipc_task_delay(rtipc_ms(2000));
    return 4; /* not reached when the watchdog aborts */
}

static void abort_on_trip_aborts_the_process_after_reporting(void **state)
{
    (void)state;
    SKIP_ON_FREERTOS("a child process of the same program (fork and exec)");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* A fresh process image: no inherited rtipc threads. */
        execl("/proc/self/exe", "test_wdt", "--abort-child", (char *)NULL);
        _exit(5);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
}

/* The table at file scope: main only decides between it and the child. */
static const struct CMUnitTest tests[] = {
    cmocka_unit_test(watchdog_calls_report_their_errors),
    cmocka_unit_test(subscribed_task_blocked_past_the_timeout_trips_it),
    cmocka_unit_test(task_blocked_without_subscribing_does_not_trip_it),
    cmocka_unit_test(subscribed_task_that_resets_does_not_trip_it),
    cmocka_unit_test(busy_top_priority_task_starves_the_idle_task_and_trips_it),
    cmocka_unit_test(abort_on_trip_aborts_the_process_after_reporting),
};

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--abort-child") == 0)
        return abort_child();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
