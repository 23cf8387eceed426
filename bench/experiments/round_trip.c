/* round-trip: a request and its reply between two tasks of one priority on
 * one core, through rtipc's queue, binary semaphore and notification, and
 * both ends in one task (the calls without a switch). Where rtipc runs on
 * FreeRTOS the kernel's own queue, semaphore and notification are measured
 * beside them in the same run, and the p50 ratios say what rtipc's layer
 * costs over the kernel's path. The mechanisms are the table's
 * (bench/mechanisms/mechanisms.h): two objects make the two directions.
 * Every round carries its sequence number (the semaphore and notification
 * pass it in a word): a lost, repeated or wrong reply fails the
 * experiment. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "../harness/handoff.h"
#include "../mechanisms/mechanisms.h"
#include "experiments.h"
#include "needs_tasks.h"

#define PRIORITY 10
#define STALL_NS 2000000000LL

typedef struct {
    const bench_mech_t *m;
    void *there, *back;        /* ping -> echo, echo -> ping */
    size_t total, warmup;
    bench_samples_t *out;
    atomic_size_t done;        /* rounds the pinger finished */
    atomic_int go;             /* both objects bound to their receivers (release by
                                  the runner, acquire by the tasks) */
    atomic_int echo_ready;     /* the echo is on its way into its first receive */
    bench_failure_t failure;
} rt_state_t;

/* Until the runner has bound the objects; false when it failed meanwhile. */
static bool wait_go(rt_state_t *st)
{
    while (!atomic_load_explicit(&st->go, memory_order_acquire)) {
        if (bench_failure_is_set(&st->failure))
            return false;
        bench_sleep_ns(1000000);
    }
    return true;
}

static void echo_task(void *arg)
{
    rt_state_t *st = arg;
    if (!wait_go(st))
        return;
    atomic_store_explicit(&st->echo_ready, 1, memory_order_release);
    for (size_t i = 0; i < st->total; i++) {
        uint32_t v = UINT32_MAX;
        if (st->m->recv(st->there, &v) != 0 || st->m->send(st->back, v) != 0) {
            bench_failure_set(&st->failure, "%s: echo %lu failed", st->m->name, (unsigned long)i);
            return;
        }
    }
}

static void ping_task(void *arg)
{
    rt_state_t *st = arg;
    if (!wait_go(st))
        return;
    /* The echo first, so that it waits when the first request comes. */
    while (!atomic_load_explicit(&st->echo_ready, memory_order_acquire))
        bench_sleep_ns(1000000);
    bench_sleep_ns(1000000);
    for (size_t i = 0; i < st->total; i++) {
        uint32_t got = UINT32_MAX;
        int64_t t0 = bench_core_now_ns();  /* both stamps in this task, on one core */
        int rc = st->m->send(st->there, (uint32_t)i);
        if (rc == 0)
            rc = st->m->recv(st->back, &got);
        int64_t t1 = bench_core_now_ns();
        if (rc != 0 || got != (uint32_t)i) {
            bench_failure_set(&st->failure, "%s: round %lu did not bring back its number", st->m->name,
                              (unsigned long)i);
            return;
        }
        if (i >= st->warmup)
            (void)bench_samples_push(st->out, t1 - t0);
        atomic_store_explicit(&st->done, i + 1, memory_order_release);
    }
}

/* A task of the round, the kernel's own for a kernel mechanism. */
static bench_task_t *start(bench_run_t *run, const char *name, rtipc_task_fn fn, rt_state_t *st)
{
    bench_task_spec_t c = {.name = name, .priority = PRIORITY, .core = bench_cpu(run, 0), .entry = fn, .arg = st,
                           .native = (st->m->traits & BENCH_MECH_NATIVE) != 0};
    bench_task_t *t = NULL;
    int rc = bench_target_task_start(&c, &t);
    if (rc != 0)
        bench_failure_set(&st->failure, "%s: task creation: %s", st->m->name, rtipc_strerror(rc));
    return rc == 0 ? t : NULL;
}

/* Two tasks of one priority, bound before they start: each object to the
 * task that receives on it (a notification is given to its consumer's
 * task). The row, or NULL (absent: recorded as missing; or failed). */
static const bench_result_t *two_tasks(bench_run_t *run, const bench_mech_t *m, size_t samples)
{
    static rt_state_t st;
    bench_samples_t s;
    st = (rt_state_t){.m = m, .total = bench_warmup_count(run, samples) + samples, .out = &s};
    st.warmup = st.total - samples;
    if (bench_mech_make(run, m, 1, &st.there) != 0)
        return NULL;
    if (bench_mech_make(run, m, 1, &st.back) != 0) {
        m->destroy(st.there);
        return NULL;
    }
    if (bench_samples_init(&s, samples) != 0) {
        m->destroy(st.there);
        m->destroy(st.back);
        bench_fail(run, "%s: no memory for %lu samples", m->name, (unsigned long)samples);
        return NULL;
    }
    bench_task_t *echo = start(run, "rt-echo", echo_task, &st), *ping = NULL;
    if (echo)
        ping = start(run, "rt-ping", ping_task, &st);
    if (ping && m->bind) {
        m->bind(st.there, NULL, echo);
        m->bind(st.back, NULL, ping);
    }
    atomic_store_explicit(&st.go, 1, memory_order_release);
    /* Bounded: a lost reply leaves both blocked for ever, and deleting them
     * (a deletion point; a kernel wait ends with the kernel's task) ends the
     * run. */
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
            bench_target_task_delete(ping);
        if (echo)
            bench_target_task_delete(echo);
    } else {
        bench_target_task_join(ping);
        bench_target_task_join(echo);
    }
    m->destroy(st.there);
    m->destroy(st.back);
    bench_result_t *r = NULL;
    if (bench_failure_is_set(&st.failure))
        bench_fail(run, "%s", st.failure.why);
    else
        r = bench_add_dist(run, m->name, BENCH_VARIANT_EQUAL_PRIORITY, BENCH_METRIC_ROUND_TRIP, &s);
    bench_row_core_clocked(run, r);
    bench_samples_free(&s);
    return r;
}

/* Both ends in one task, nobody waiting: ONE_TASK_ROUNDS rounds of the
 * mechanism's pairs (send then receive, give then take) between two
 * stamps, a sample being their mean. A round is a few stamp counts on a
 * coarse clock (40 instructions a count on the Cortex-M3): one round a
 * sample would round a 3 % difference to a whole count, 20 %. */
#define ONE_TASK_ROUNDS 8
static const bench_result_t *one_task_body(bench_run_t *run, const bench_mech_t *m, const char *metric,
                                           size_t samples)
{
    void *obj;
    if (!m->pairs || bench_mech_make(run, m, 1, &obj) != 0)
        return NULL;
    bench_samples_t s;
    if (bench_samples_init(&s, samples) != 0) {
        m->destroy(obj);
        bench_fail(run, "%s: no memory for %lu samples", m->name, (unsigned long)samples);
        return NULL;
    }
    size_t total = bench_warmup_count(run, samples) + samples;
    int failed = 0;
    for (size_t i = 0; i < total && !failed; i++) {
        int64_t t0 = bench_core_now_ns();
        failed = m->pairs(obj, (uint32_t)(i * ONE_TASK_ROUNDS), ONE_TASK_ROUNDS) != 0;
        int64_t t1 = bench_core_now_ns();
        if (i >= total - samples)
            (void)bench_samples_push(&s, (t1 - t0 + ONE_TASK_ROUNDS / 2) / ONE_TASK_ROUNDS);
    }
    m->destroy(obj);
    bench_result_t *r = NULL;
    if (failed)
        bench_fail(run, "%s: a call in one task failed or returned the wrong item", m->name);
    else
        r = bench_add_dist(run, m->name, BENCH_VARIANT_ONE_TASK, metric, &s);
    bench_row_core_clocked(run, r);
    bench_samples_free(&s);
    return r;
}

/* ---- from an interrupt: the send (give) alone, timed inside the handler,
 * into an object with room whose receiver is the experiment's own task
 * (it takes the item back after each run, checking its number). ---- */

typedef struct {
    const bench_mech_t *m;
    void *obj;
    uint32_t seq;           /* the number the next run sends */
    int64_t took;           /* the last run's call, between its two stamps */
    int rc;                 /* the last run's result */
    atomic_uint runs;       /* handler runs finished */
} isr_state_t;

static void isr_send_once(void *arg)
{
    isr_state_t *st = arg;
    bool woken = false; /* the receiver is the task that raised us: nothing to switch to */
    int64_t t0 = bench_core_now_ns();
    int rc = st->m->isr_send(st->obj, st->seq, &woken);
    int64_t t1 = bench_core_now_ns();
    st->took = t1 - t0;
    st->rc = rc;
    /* Release: the task reads took and rc after it sees the count. */
    atomic_fetch_add_explicit(&st->runs, 1, memory_order_release);
}

/* One raise of @p irq and its handler's run; false after STALL_NS. */
static bool raise_and_wait(rtipc_irq_t *irq, isr_state_t *st)
{
    unsigned before = atomic_load_explicit(&st->runs, memory_order_relaxed);
    if (bench_target_irq_trigger(irq) != 0)
        return false;
    int64_t give_up = bench_now_ns() + STALL_NS;
    /* Acquire: pairs with the handler's release of runs. */
    while (atomic_load_explicit(&st->runs, memory_order_acquire) == before) {
        if (bench_now_ns() > give_up)
            return false;
        rtipc_cpu_relax();
    }
    return true;
}

static const bench_result_t *from_isr_body(bench_run_t *run, const bench_mech_t *m, const char *metric,
                                           size_t samples, bench_task_t *self)
{
    isr_state_t st = {.m = m};
    if (!m->isr_send || bench_mech_make(run, m, 1, &st.obj) != 0)
        return NULL;
    if (m->bind)
        m->bind(st.obj, NULL, self);
    rtipc_irq_t *irq = NULL;
    bench_samples_t s = {0};
    bench_result_t *r = NULL;
    int rc = bench_target_irq_create(bench_cpu(run, 0), isr_send_once, &st, &irq);
    if (rc != 0) {
        if (rc == RTIPC_ENOTSUP)
            bench_note(run, "%s %s: no row: no interrupt source on this target", m->name, BENCH_VARIANT_FROM_ISR);
        else
            bench_fail(run, "%s: rtipc_irq_create: %s", m->name, rtipc_strerror(rc));
        goto out;
    }
    if (bench_samples_init(&s, samples) != 0) {
        bench_fail(run, "%s: no memory for %lu samples", m->name, (unsigned long)samples);
        goto out;
    }
    size_t total = bench_warmup_count(run, samples) + samples;
    for (size_t i = 0; i < total; i++) {
        st.seq = (uint32_t)i;
        uint32_t got = UINT32_MAX;
        if (!raise_and_wait(irq, &st)) {
            bench_fail(run, "%s: the handler of run %lu did not run", m->name, (unsigned long)i);
            goto out;
        }
        if (st.rc != 0 || m->recv(st.obj, &got) != 0 || got != (uint32_t)i) {
            bench_fail(run, "%s: send %lu from the handler failed (%d) or came back wrong", m->name,
                       (unsigned long)i, st.rc);
            goto out;
        }
        if (i >= total - samples)
            (void)bench_samples_push(&s, st.took);
    }
    r = bench_add_dist(run, m->name, BENCH_VARIANT_FROM_ISR, metric, &s);
    bench_row_core_clocked(run, r);
out:
    if (irq)
        bench_target_irq_delete(irq);
    bench_samples_free(&s);
    m->destroy(st.obj);
    return r;
}

/* The one-task and interrupt rows run in a task of their own: the kernel's
 * for a kernel mechanism, as the published programs run them. */
typedef struct {
    bench_run_t *run;
    const bench_mech_t *m;
    const char *metric;
    size_t samples;
    bool isr;
    const bench_result_t *row;
} own_task_t;

static void own_task_entry(void *arg, bench_task_t *self)
{
    own_task_t *o = arg;
    o->row = o->isr ? from_isr_body(o->run, o->m, o->metric, o->samples, self)
                    : one_task_body(o->run, o->m, o->metric, o->samples);
}

static const bench_result_t *in_own_task(bench_run_t *run, const bench_mech_t *m, const char *metric,
                                         size_t samples, bool isr)
{
    own_task_t o = {.run = run, .m = m, .metric = metric, .samples = samples, .isr = isr};
    if (handoff_in_task(run, (m->traits & BENCH_MECH_NATIVE) != 0, bench_cpu(run, 0), PRIORITY, own_task_entry, &o))
        return NULL;
    return o.row;
}

static const bench_result_t *one_task(bench_run_t *run, const bench_mech_t *m, const char *metric, size_t samples)
{
    return in_own_task(run, m, metric, samples, false);
}

static const bench_result_t *from_isr(bench_run_t *run, const bench_mech_t *m, const char *metric, size_t samples)
{
    return in_own_task(run, m, metric, samples, true);
}

static void ratio(bench_run_t *run, const char *variant, const bench_result_t *num, const bench_result_t *den)
{
    double r = bench_p50_ratio(num, den);
    if (!isnan(r))
        bench_row_core_clocked(run, bench_add_value(run, BENCH_MECH_RTIPC_OVER_KERNEL, variant, BENCH_METRIC_P50_RATIO, "x", r));
}

/* rtipc's mechanism, the kernel's twin, the one-task metric, the ratio rows. */
static const struct {
    const char *rtipc, *kernel, *one_task, *from_isr, *ratio, *ratio_one_task, *ratio_from_isr;
} kinds[] = {
    {BENCH_MECH_RTIPC_QUEUE, BENCH_MECH_KERNEL_QUEUE, BENCH_METRIC_SEND_RECEIVE, BENCH_METRIC_SEND_FROM_ISR, "queue",
     "queue/one-task", "queue/from-isr"},
    {BENCH_MECH_RTIPC_SEM, BENCH_MECH_KERNEL_SEM, BENCH_METRIC_GIVE_TAKE, BENCH_METRIC_GIVE_FROM_ISR, "sem",
     "sem/one-task", "sem/from-isr"},
    {BENCH_MECH_RTIPC_NOTIFY, BENCH_MECH_KERNEL_NOTIFY, BENCH_METRIC_GIVE_TAKE, BENCH_METRIC_GIVE_FROM_ISR, "notify",
     "notify/one-task", "notify/from-isr"},
};

static int run_round_trip(bench_run_t *run)
{
    /* One sample buffer at a time, in a quarter of the heap. */
    size_t samples = bench_samples_fit_heap(run, bench_sample_count(run, 20000, 1000), sizeof(int64_t), 4, "rows");
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0] && !bench_failed(run); k++) {
        const bench_mech_t *r = bench_mech_find(kinds[k].rtipc), *kern = bench_mech_find(kinds[k].kernel);
        const bench_result_t *two_r = two_tasks(run, r, samples);
        const bench_result_t *two_k = bench_failed(run) ? NULL : two_tasks(run, kern, samples);
        const bench_result_t *one_r = bench_failed(run) ? NULL : one_task(run, r, kinds[k].one_task, samples);
        const bench_result_t *one_k = bench_failed(run) ? NULL : one_task(run, kern, kinds[k].one_task, samples);
        const bench_result_t *isr_r = bench_failed(run) ? NULL : from_isr(run, r, kinds[k].from_isr, samples);
        const bench_result_t *isr_k = bench_failed(run) ? NULL : from_isr(run, kern, kinds[k].from_isr, samples);
        ratio(run, kinds[k].ratio, two_r, two_k);
        ratio(run, kinds[k].ratio_one_task, one_r, one_k);
        ratio(run, kinds[k].ratio_from_isr, isr_r, isr_k);
    }
    return bench_failed(run) ? -1 : 0;
}

const bench_experiment_t exp_round_trip = {
    .id = BENCH_EXP_ROUND_TRIP,
    .summary = EXP_ROUND_TRIP_SUMMARY,
    .definitions =
        "round-trip (ns): the pinger's timestamp before it sends (gives) its request to its timestamp\n"
        "  after the reply returned from its receive (take); the echo, of the same priority on the same\n"
        "  core, waits for the request and sends it back. Queues of depth 1 carry the sequence number;\n"
        "  semaphores and notifications pass it in a word.\n"
        "send+receive, give+take (ns), variant one-task: both calls in one task, nobody waiting (the\n"
        "  notification given to the task itself): the calls' own cost, a sample being the mean of 8\n"
        "  rounds in a row between two stamps (a coarse clock's count is then an eighth).\n"
        "send-from-isr, give-from-isr (ns), variant from-isr: the interrupt-safe send (give) alone,\n"
        "  between two timestamps inside an interrupt handler on core 0 that the experiment's task\n"
        "  raises (rtipc_irq), into an object with room whose receiver is that task, not waiting;\n"
        "  the task takes the item back after each run and checks its number.\n"
        "p50-ratio (x), mechanism rtipc/kernel: rtipc's median over the kernel's own call's median in the\n"
        "  same run, where rtipc runs on FreeRTOS (kernel-* rows; missing elsewhere). On the Cortex-M3\n"
        "  under QEMU -icount shift=0 one ns is one instruction.",
    .run = run_round_trip,
    .requires = EXP_ROUND_TRIP_REQUIRES,
};
