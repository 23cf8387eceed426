#include "handoff.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "../names.h"
#include "../target/target.h"
#include "../trace/trace.h"

typedef struct {
    bench_run_t *run;
    const handoff_ops_t *ops;
    const handoff_cfg_t *cfg;
    bench_samples_t *out;
    int64_t *t_send;          /* per message: timed send start or intended time */
    size_t total;             /* warmup + samples */
    bench_rng_t rng;
    /* consumer -> producer: messages received so far. Release by the
     * consumer after it has checked and recorded a message; acquire by the
     * producer before it sends the next (closed loop). */
    _Atomic size_t received;
    _Atomic int consumer_ready;   /* consumer task started (release/acquire) */
    _Atomic int go;               /* ops bound to both tasks: the producer may
                                     start (release by the runner, acquire by
                                     the producer; publishes the bind) */
    int64_t (*stamp)(void);       /* the latency's clock: the core's own when both
                                     tasks share one (handoff_core_clocked) */
    bench_failure_t failure;      /* either side failed; the other stops */
    bool signals;                 /* the target drives scope lines (target.h) */
} handoff_state_t;

static int depth_of(const handoff_ops_t *ops)
{
    return ops->depth ? ops->depth(ops->obj) : -1;
}

/* Wait for the consumer without holding the producer's core when both share
 * one: a spinning producer would keep a lower-priority consumer off it. */
static int wait_received(handoff_state_t *st, size_t want, int64_t deadline)
{
    bool same_cpu = st->cfg->producer_cpu == st->cfg->consumer_cpu;
    while (atomic_load_explicit(&st->received, memory_order_acquire) < want) {
        if (bench_failure_is_set(&st->failure))
            return -1;
        if (bench_now_ns() > deadline)
            return -2;
        if (same_cpu) {
            BENCH_TRACE(TRACE_STOPPED, TRACE_TASK_PRODUCER, st->cfg->producer_cpu, want, 0);
            bench_sleep_ns(20000);
            BENCH_TRACE(TRACE_RUNNING, TRACE_TASK_PRODUCER, st->cfg->producer_cpu, want, 0);
        }
    }
    return 0;
}

static void producer(void *arg)
{
    handoff_state_t *st = arg;
    const handoff_cfg_t *cfg = st->cfg;
    int64_t stall = cfg->stall_ns ? cfg->stall_ns : 2000000000;
    while (!atomic_load_explicit(&st->consumer_ready, memory_order_acquire) ||
           !atomic_load_explicit(&st->go, memory_order_acquire))
        bench_sleep_ns(100000);
    bench_sleep_ns(1000000);  /* let the consumer reach its first receive */

    int64_t period = cfg->mode == HANDOFF_OPEN_LOOP ? (int64_t)(1e9 / cfg->rate_hz) : 0;
    int64_t start = bench_now_ns() + 1000000;
    for (size_t i = 0; i < st->total; i++) {
        if (bench_failure_is_set(&st->failure))
            return;
        if (cfg->mode == HANDOFF_CLOSED_LOOP) {
            int w = wait_received(st, i, bench_now_ns() + stall);
            if (w == -2)
                bench_failure_set(&st->failure, "message %ld not received within %ld ms (lost?)",
                                  (long)i - 1, (long)(stall / 1000000));
            if (w)
                return;
            int64_t gap = bench_rng_range(&st->rng, cfg->gap_min_ns, cfg->gap_max_ns);
            if (gap > 0)
                bench_spin_until(bench_now_ns() + gap);
            if (st->ops->before_send)
                st->ops->before_send(st->ops->obj);
            st->t_send[i] = st->stamp();
            if (st->signals)
                bench_target_signal(BENCH_SIGNAL_SEND, true);
        } else {
            int64_t due = start + (int64_t)i * period;
            st->t_send[i] = due;
            if (st->ops->before_send)
                st->ops->before_send(st->ops->obj);
            /* Sleep through most of the wait and spin the last 100 us: a
             * real-time producer that spun all the time would run into the
             * kernel's real-time throttling (95% of each second) and freeze
             * for 50 ms at a time. */
            bench_sleep_then_spin_until(due);
        }
        int rc = st->ops->send(st->ops->obj, (uint32_t)i);
        if (st->signals)
            bench_target_signal(BENCH_SIGNAL_SEND, false);
        /* Recorded after the send, so that nothing is added to the timed
         * span; the begin reuses the latency's own start stamp. */
        BENCH_TRACE(TRACE_SEND_END, TRACE_TASK_PRODUCER, cfg->producer_cpu, i, 0);
        BENCH_TRACE_AT(st->t_send[i], TRACE_SEND_BEGIN, TRACE_TASK_PRODUCER, cfg->producer_cpu, i, 0);
        BENCH_TRACE(TRACE_DEPTH, TRACE_TASK_PRODUCER, cfg->producer_cpu, i, depth_of(st->ops));
        if (rc != 0) {
            bench_failure_set(&st->failure, "send of message %ld failed with %ld", (long)i, (long)rc);
            return;
        }
    }
    if (wait_received(st, st->total, bench_now_ns() + stall) == -2)
        bench_failure_set(&st->failure, "only %ld of %ld messages received (lost?)",
                          (long)atomic_load(&st->received), (long)st->total);
}

static void consumer(void *arg)
{
    handoff_state_t *st = arg;
    atomic_store_explicit(&st->consumer_ready, 1, memory_order_release);
    int cpu = st->cfg->consumer_cpu;
    for (size_t i = 0; i < st->total; i++) {
        uint32_t seq = UINT32_MAX;
        BENCH_TRACE(TRACE_STOPPED, TRACE_TASK_CONSUMER, cpu, i, 0);
        int rc = st->ops->recv(st->ops->obj, &seq);
        int64_t t = st->stamp();
        if (st->signals)
            bench_target_signal(BENCH_SIGNAL_RECEIVE, true);
        if (rc != 0) {
            bench_failure_set(&st->failure, "receive of message %ld failed with %ld", (long)i, (long)rc);
            return;
        }
        if (seq != (uint32_t)i) {
            bench_failure_set(&st->failure,
                              "message %ld arrived where %ld was due (lost, duplicated or reordered)",
                              (long)seq, (long)i);
            return;
        }
        if (i >= st->total - st->cfg->samples)
            bench_samples_push(st->out, t - st->t_send[i]);
        BENCH_TRACE_AT(t, TRACE_RUNNING, TRACE_TASK_CONSUMER, cpu, i, 0);
        BENCH_TRACE_AT(t, TRACE_RECEIVED, TRACE_TASK_CONSUMER, cpu, seq, 0);
        BENCH_TRACE(TRACE_DEPTH, TRACE_TASK_CONSUMER, cpu, i, depth_of(st->ops));
        if (st->signals)
            bench_target_signal(BENCH_SIGNAL_RECEIVE, false);
        atomic_store_explicit(&st->received, i + 1, memory_order_release);
    }
}

handoff_cfg_t handoff_default(const bench_run_t *run, size_t full_samples, size_t quick_samples)
{
    handoff_cfg_t cfg = {0};
    cfg.producer_cpu = bench_cpu(run, 1);
    cfg.consumer_cpu = bench_cpu(run, 0);
    cfg.producer_prio = 10;
    cfg.consumer_prio = 12;
    cfg.samples = bench_sample_count(run, full_samples, quick_samples);
    cfg.warmup = bench_warmup_count(run, cfg.samples);
    cfg.mode = HANDOFF_CLOSED_LOOP;
    cfg.gap_min_ns = 20000;
    cfg.gap_max_ns = 40000;
    return cfg;
}

bool handoff_core_clocked(const bench_run_t *run, const handoff_cfg_t *cfg)
{
    return cfg->mode == HANDOFF_CLOSED_LOOP && cfg->producer_cpu == cfg->consumer_cpu &&
           bench_has_core_clock(run);
}

int handoff_run(bench_run_t *run, const handoff_ops_t *ops, const handoff_cfg_t *cfg,
                bench_samples_t *out)
{
    if (out->cap < cfg->samples)
        return bench_fail(run, "handoff: sample buffer too small");
    if (cfg->mode == HANDOFF_OPEN_LOOP && !(cfg->rate_hz > 0))
        return bench_fail(run, "handoff: open loop needs a rate");
    handoff_state_t *st = calloc(1, sizeof *st);
    if (!st)
        return bench_fail(run, "handoff: out of memory");
    st->run = run;
    st->ops = ops;
    st->signals = bench_target_has_signals();
    st->cfg = cfg;
    st->stamp = handoff_core_clocked(run, cfg) ? bench_core_now_ns : bench_now_ns;
    st->out = out;
    st->total = cfg->samples + cfg->warmup;
    st->t_send = calloc(st->total, sizeof *st->t_send);
    bench_rng_init(&st->rng, run, (uint64_t)cfg->samples);
    if (!st->t_send) {
        free(st);
        return bench_fail(run, "handoff: out of memory");
    }
    out->n = 0;

    /* Before the tasks exist and after they are joined: their creation and
     * joins order the trace's state with their hooks. */
    bench_trace_row_begin(run, cfg->mechanism, cfg->variant, (uint32_t)cfg->warmup, (uint32_t)cfg->samples);
    bench_task_t *cons = NULL, *prod = NULL;
    bench_task_spec_t cc = {.name = "bench-consumer", .priority = cfg->consumer_prio,
                            .core = cfg->consumer_cpu, .entry = consumer, .arg = st, .native = ops->native};
    bench_task_spec_t pc = {.name = "bench-producer", .priority = cfg->producer_prio,
                            .core = cfg->producer_cpu, .entry = producer, .arg = st, .native = ops->native};
    int rc = bench_target_task_start(&cc, &cons);
    if (rc == 0)
        rc = bench_target_task_start(&pc, &prod);
    if (rc != 0) {
        bench_failure_set(&st->failure, "task creation failed (%d)", rc);
        if (cons)
            bench_target_task_delete(cons);
    } else {
        if (ops->bind)
            ops->bind(ops->obj, prod, cons);
        atomic_store_explicit(&st->go, 1, memory_order_release);
        bench_target_task_join(prod);
        if (bench_failure_is_set(&st->failure))
            bench_target_task_delete(cons);  /* it may be blocked for a lost message */
        else
            bench_target_task_join(cons);
    }
    bench_trace_row_end();
    int result = 0;
    if (bench_failure_is_set(&st->failure))
        result = bench_fail(run, "%s", st->failure.why);
    free(st->t_send);
    free(st);
    return result;
}

const bench_result_t *handoff_measure(bench_run_t *run, const char *mechanism, const char *variant,
                                      const handoff_ops_t *ops, const handoff_cfg_t *cfg)
{
    bench_samples_t s;
    if (bench_samples_init(&s, cfg->samples) != 0) {
        bench_fail(run, "out of memory");
        return NULL;
    }
    const bench_result_t *row = NULL;
    handoff_cfg_t named = *cfg;
    named.mechanism = mechanism;
    named.variant = variant;
    if (handoff_run(run, ops, &named, &s) == 0) {
        bench_result_t *added = bench_add_dist(run, mechanism, variant, BENCH_METRIC_LATENCY, &s);
        if (handoff_core_clocked(run, cfg))
            bench_row_core_clocked(run, added);
        row = added;
    } else
        bench_fail(run, "%s/%s", mechanism, variant);
    bench_samples_free(&s);
    return row;
}

void handoff_wait_done(_Atomic int *first, _Atomic int *second, int64_t deadline_ns, bool *first_set,
                       bool *second_set)
{
    while ((!atomic_load_explicit(first, memory_order_acquire) ||
            !atomic_load_explicit(second, memory_order_acquire)) &&
           bench_now_ns() < deadline_ns)
        bench_sleep_ns(2000000);
    *first_set = atomic_load_explicit(first, memory_order_acquire);
    *second_set = atomic_load_explicit(second, memory_order_acquire);
}

void handoff_join_or_delete(bench_task_t *task, bool finished)
{
    if (finished)
        bench_target_task_join(task);
    else
        bench_target_task_delete(task);
}

bool handoff_task_wait_flag(_Atomic int *flag, const bench_failure_t *failure, int64_t timeout_ns)
{
    int64_t end = bench_now_ns() + timeout_ns;
    while (!atomic_load_explicit(flag, memory_order_acquire)) {
        if (bench_failure_is_set(failure) || bench_now_ns() > end)
            return false;
        bench_delay_ns(200000);
    }
    return true;
}

typedef struct {
    void (*fn)(void *arg, bench_task_t *self);
    void *arg;
    bench_task_t *self;
    _Atomic int go;  /* self is set (release by the runner, acquire by the task) */
} in_task_t;

static void in_task_entry(void *p)
{
    in_task_t *it = p;
    while (!atomic_load_explicit(&it->go, memory_order_acquire))
        bench_delay_ns(1000000);
    it->fn(it->arg, it->self);
}

int handoff_in_task(bench_run_t *run, bool native, int core, unsigned priority,
                    void (*fn)(void *arg, bench_task_t *self), void *arg)
{
    in_task_t it = {.fn = fn, .arg = arg};
    bench_task_spec_t spec = {.name = "bench-one-task", .core = core, .priority = priority,
                              .entry = in_task_entry, .arg = &it, .native = native};
    int rc = bench_target_task_start(&spec, &it.self);
    if (rc != 0)
        return bench_fail(run, "task creation failed (%d)", rc);
    atomic_store_explicit(&it.go, 1, memory_order_release);
    bench_target_task_join(it.self);
    return 0;
}
