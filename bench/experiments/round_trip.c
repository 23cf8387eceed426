/* round-trip: a request and its reply between two tasks of one priority on
 * one core, through rtipc's queue, binary semaphore and notification, and
 * both ends of a queue or semaphore in one task (the calls without a
 * switch). Where rtipc runs on FreeRTOS the kernel's own queue, semaphore
 * and notification are measured beside them in the same run, and the
 * p50 ratios say what rtipc's layer costs over the kernel's path
 * (bench/mechanisms/round_trip.h). Every round carries its sequence number
 * (the semaphore and notification count it): a lost, repeated or wrong
 * reply fails the experiment. */
#include <stdatomic.h>
#include <stdlib.h>

#include "../mechanisms/round_trip.h"
#include "experiments.h"

#define PRIORITY 10
#define STALL_NS 2000000000LL

typedef struct {
    const bench_round_trip_mech_t *m;
    void *obj;
    size_t total, warmup;
    bench_samples_t *out;
    atomic_size_t done;        /* rounds the pinger finished */
    atomic_int echo_ready;     /* the echo bound itself and waits */
    bench_failure_t failure;
} rt_state_t;

static void echo_task(void *arg)
{
    rt_state_t *st = arg;
    st->m->bind_echo(st->obj);
    atomic_store_explicit(&st->echo_ready, 1, memory_order_release);
    for (size_t i = 0; i < st->total; i++)
        if (st->m->echo(st->obj) != 0) {
            bench_failure_set(&st->failure, "%s: echo %lu failed", st->m->name, (unsigned long)i);
            return;
        }
}

static void ping_task(void *arg)
{
    rt_state_t *st = arg;
    st->m->bind_ping(st->obj);
    for (size_t i = 0; i < st->total; i++) {
        int64_t t0 = bench_now_ns();
        int rc = st->m->ping(st->obj, (uint32_t)i);
        int64_t t1 = bench_now_ns();
        if (rc != 0) {
            bench_failure_set(&st->failure, "%s: round %lu did not bring back its number", st->m->name, (unsigned long)i);
            return;
        }
        if (i >= st->warmup)
            (void)bench_samples_push(st->out, t1 - t0);
        atomic_store_explicit(&st->done, i + 1, memory_order_release);
    }
}

static rtipc_task_t *start(bench_run_t *run, const char *name, rtipc_task_fn fn, rt_state_t *st)
{
    rtipc_task_config_t c = {.name = name, .priority = PRIORITY, .core = bench_cpu(run, 0), .entry = fn, .arg = st};
    rtipc_task_t *t = NULL;
    int rc = rtipc_task_create(&c, &t);
    if (rc != 0)
        bench_failure_set(&st->failure, "%s: task creation: %s", st->m->name, rtipc_strerror(rc));
    return rc == 0 ? t : NULL;
}

/* Two tasks of one priority: the echo first, so that it waits when the
 * pinger's first request comes. Returns the row or NULL (failed). */
static const bench_result_t *two_tasks(bench_run_t *run, const bench_round_trip_mech_t *m, size_t samples)
{
    bench_samples_t s;
    static rt_state_t st;
    st = (rt_state_t){.m = m, .total = bench_warmup_count(run, samples) + samples, .out = &s};
    st.warmup = st.total - samples;
    if (bench_samples_init(&s, samples) != 0) {
        bench_fail(run, "%s: no memory for %lu samples", m->name, (unsigned long)samples);
        return NULL;
    }
    if (m->create(&st.obj) != 0) {
        bench_samples_free(&s);
        bench_fail(run, "%s: cannot create the channels", m->name);
        return NULL;
    }
    rtipc_task_t *echo = start(run, "rt-echo", echo_task, &st), *ping = NULL;
    while (echo && !atomic_load_explicit(&st.echo_ready, memory_order_acquire))
        bench_sleep_ns(1000000);
    if (echo)
        ping = start(run, "rt-ping", ping_task, &st);
    /* Bounded: a lost reply leaves both blocked for ever, and deleting them
     * (a deletion point) ends the run. */
    size_t last = 0;
    int64_t since = bench_now_ns();
    while (ping && !bench_failure_is_set(&st.failure)) {
        size_t now = atomic_load_explicit(&st.done, memory_order_acquire);
        if (now == st.total)
            break;
        if (now != last) {
            last = now;
            since = bench_now_ns();
        } else if (bench_now_ns() - since > STALL_NS) {
            bench_failure_set(&st.failure, "%s: round %lu not back within 2 s (lost?)", m->name, (unsigned long)now);
        }
        bench_sleep_ns(10000000);
    }
    if (bench_failure_is_set(&st.failure)) {
        if (ping)
            rtipc_task_delete(ping);
        if (echo)
            rtipc_task_delete(echo);
    } else {
        rtipc_task_join(ping);
        rtipc_task_join(echo);
    }
    m->destroy(st.obj);
    const bench_result_t *r = NULL;
    if (bench_failure_is_set(&st.failure))
        bench_fail(run, "%s", st.failure.why);
    else
        r = bench_add_dist(run, m->name, BENCH_VARIANT_EQUAL_PRIORITY, BENCH_METRIC_ROUND_TRIP, &s);
    bench_samples_free(&s);
    return r;
}

/* Both ends in the experiment's own task, no waiting. */
static const bench_result_t *one_task(bench_run_t *run, const bench_round_trip_mech_t *m, size_t samples)
{
    bench_samples_t s;
    void *obj;
    if (bench_samples_init(&s, samples) != 0) {
        bench_fail(run, "%s: no memory for %lu samples", m->name, (unsigned long)samples);
        return NULL;
    }
    if (m->create(&obj) != 0) {
        bench_samples_free(&s);
        bench_fail(run, "%s: cannot create the channels", m->name);
        return NULL;
    }
    size_t total = bench_warmup_count(run, samples) + samples;
    int failed = 0;
    for (size_t i = 0; i < total && !failed; i++) {
        int64_t t0 = bench_now_ns();
        failed = m->self(obj, (uint32_t)i) != 0;
        int64_t t1 = bench_now_ns();
        if (i >= total - samples)
            (void)bench_samples_push(&s, t1 - t0);
    }
    m->destroy(obj);
    const bench_result_t *r = NULL;
    if (failed)
        bench_fail(run, "%s: a call in one task failed or returned the wrong item", m->name);
    else
        r = bench_add_dist(run, m->name, BENCH_VARIANT_ONE_TASK, m->one_task, &s);
    bench_samples_free(&s);
    return r;
}

static void ratio(bench_run_t *run, const char *variant, const bench_result_t *num, const bench_result_t *den)
{
    if (num && den && den->stats.p50 > 0)
        bench_add_value(run, BENCH_MECH_RTIPC_OVER_KERNEL, variant, BENCH_METRIC_P50_RATIO, "x",
                        num->stats.p50 / den->stats.p50);
}

static int run_round_trip(bench_run_t *run)
{
    size_t samples = bench_sample_count(run, 20000, 1000);
    const bench_result_t *two[2][3] = {{NULL}}, *one[2][3] = {{NULL}};
    for (size_t k = 0; k < 3 && !bench_failed(run); k++) {
        const bench_round_trip_mech_t *r = bench_round_trip_rtipc[k];
        const bench_round_trip_mech_t *kern = k < bench_round_trip_kernel_count ? bench_round_trip_kernel[k] : NULL;
        two[0][k] = two_tasks(run, r, samples);
        if (kern && !bench_failed(run))
            two[1][k] = two_tasks(run, kern, samples);
        if (r->self && !bench_failed(run))
            one[0][k] = one_task(run, r, samples);
        if (kern && kern->self && !bench_failed(run))
            one[1][k] = one_task(run, kern, samples);
    }
    if (bench_failed(run))
        return -1;
    if (bench_round_trip_kernel_count == 0) {
        for (size_t k = 0; k < 3; k++)
            bench_add_missing(run, bench_round_trip_kernel_names[k], bench_round_trip_kernel_absent);
        return 0;
    }
    ratio(run, "queue", two[0][0], two[1][0]);
    ratio(run, "sem", two[0][1], two[1][1]);
    ratio(run, "notify", two[0][2], two[1][2]);
    ratio(run, "queue/one-task", one[0][0], one[1][0]);
    ratio(run, "sem/one-task", one[0][1], one[1][1]);
    return 0;
}

const bench_experiment_t exp_round_trip = {
    .id = BENCH_EXP_ROUND_TRIP,
    .summary = "request/reply between two equal-priority tasks, and both ends in one task: rtipc's queue, "
               "semaphore and notification beside the FreeRTOS kernel's own calls",
    .definitions =
        "round-trip (ns): the pinger's timestamp before it sends (gives) its request to its timestamp\n"
        "  after the reply returned from its receive (take); the echo, of the same priority on the same\n"
        "  core, waits for the request and sends it back. Queues of depth 1 carry the sequence number;\n"
        "  semaphores and notifications count it.\n"
        "send+receive, give+take (ns): both calls in one task, nobody waiting: the calls' own cost.\n"
        "p50-ratio (x), mechanism rtipc/kernel: rtipc's median over the kernel's own call's median in the\n"
        "  same run, where rtipc runs on FreeRTOS (kernel-* rows; missing elsewhere). On the Cortex-M3\n"
        "  under QEMU -icount shift=0 one ns is one instruction.",
    .run = run_round_trip,
    .requires = BENCH_TARGET_TASKS,
};
