/* What the recorder costs the handoff it annotates: queue-latency's
 * cross-core row (same queue, same tasks, same adapters) run in rounds that
 * alternate between the recorder off and the recorder storing every message,
 * the order flipped every round so a drift of the shared machine hits both
 * alike. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../experiments/experiments.h"
#include "trace.h"

#define ROUNDS_FULL 10
#define ROUNDS_QUICK 6
#define ROUND_SAMPLES_FULL 1000  /* p99 needs 1,000 per condition: quick has 6 x 200 */
#define ROUND_SAMPLES_QUICK 200
#define ROUND_WARMUP 100
#define COST_BATCHES 51
#define COST_EVENTS 96       /* per batch: 8 messages' worth of the reserve */

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median time of one event recorded by this thread (no other recording
 * thread: the uncontended cost a hook adds to the code around it). */
static double event_cost_ns(void)
{
    double per[COST_BATCHES];
    for (int b = 0; b < COST_BATCHES; b++) {
        bench_trace_scratch_begin(COST_EVENTS / 12);
        int64_t t0 = bench_now_ns();
        for (uint32_t i = 0; i < COST_EVENTS; i++)
            BENCH_TRACE(TRACE_DEPTH, TRACE_TASK_PRODUCER, 0, i, 0);
        per[b] = (double)(bench_now_ns() - t0) / COST_EVENTS;
        bench_trace_scratch_end();
    }
    qsort(per, COST_BATCHES, sizeof *per, by_value);
    return per[COST_BATCHES / 2];
}

int bench_trace_measure_overhead(bench_run_t *run, bench_trace_overhead_t *out)
{
    memset(out, 0, sizeof *out);
    if (!bench_trace_enabled())
        return bench_fail(run, "trace overhead: tracing is off");
    size_t rounds = bench_quick(run) ? ROUNDS_QUICK : ROUNDS_FULL;
    size_t per = bench_quick(run) ? ROUND_SAMPLES_QUICK : ROUND_SAMPLES_FULL;
    rtipc_queue_t *q;
    int rc = rtipc_queue_create(100, sizeof(uint32_t), &q);
    if (rc != 0)
        return bench_fail(run, "trace overhead: queue create: %s", rtipc_strerror(rc));
    handoff_ops_t ops = {.send = bench_rtipc_queue_send, .recv = bench_rtipc_queue_recv, .depth = bench_rtipc_queue_depth, .obj = q};
    handoff_cfg_t cfg = handoff_default(run, per, per);
    cfg.samples = per;          /* fixed: the reserve of the recorder holds one round */
    cfg.warmup = ROUND_WARMUP;  /* cfg.mechanism stays NULL: no row of its own */

    /* [0] off, [1] on; [2], [3]: off in even, odd rounds (the noise floor) */
    bench_samples_t pool[4] = {{0}}, round = {0};
    bench_stats_t st[4] = {{0}};
    rc = -1;
    if (bench_samples_init(&pool[0], per * rounds) || bench_samples_init(&pool[1], per * rounds) ||
        bench_samples_init(&pool[2], per * rounds) || bench_samples_init(&pool[3], per * rounds) ||
        bench_samples_init(&round, per)) {
        bench_fail(run, "trace overhead: out of memory");
        goto out;
    }
    for (size_t r = 0; r < rounds; r++) {
        for (int k = 0; k < 2; k++) {
            int traced = k ^ (int)(r & 1);
            if (traced)
                bench_trace_scratch_begin(per + ROUND_WARMUP);
            int hr = handoff_run(run, &ops, &cfg, &round);
            if (traced)
                out->short_events += bench_trace_scratch_end();
            if (hr != 0) {
                bench_fail(run, "trace overhead: rtipc-queue/cross-core (%s)", traced ? "traced" : "untraced");
                goto out;
            }
            for (size_t i = 0; i < round.n; i++) {
                bench_samples_push(&pool[traced], round.ns[i]);
                if (!traced)
                    bench_samples_push(&pool[2 + (r & 1)], round.ns[i]);
            }
        }
    }
    if (bench_stats_compute(&pool[0], &st[0]) || bench_stats_compute(&pool[1], &st[1]) ||
        bench_stats_compute(&pool[2], &st[2]) || bench_stats_compute(&pool[3], &st[3])) {
        bench_fail(run, "trace overhead: out of memory");
        goto out;
    }
    out->rounds = rounds;
    out->samples = pool[0].n;
    out->off_p50 = st[0].p50;
    out->on_p50 = st[1].p50;
    out->off_p99 = st[0].p99;
    out->on_p99 = st[1].p99;
    out->off_p50_lo = st[0].p50_lo;
    out->off_p50_hi = st[0].p50_hi;
    out->on_p50_lo = st[1].p50_lo;
    out->on_p50_hi = st[1].p50_hi;
    out->noise_p50 = fabs(st[2].p50 - st[3].p50);
    out->event_ns = event_cost_ns();
    rc = 0;
out:
    for (int i = 0; i < 4; i++) {
        bench_stats_free(&st[i]);
        bench_samples_free(&pool[i]);
    }
    bench_samples_free(&round);
    rtipc_queue_delete(q);
    return rc;
}

void bench_trace_describe_overhead(const bench_trace_overhead_t *o, char *buf, size_t size)
{
    int used = snprintf(buf, size,
                        "trace overhead (queue-latency rtipc-queue cross-core, %lu alternating rounds, %lu "
                        "messages untraced vs %lu with every message traced): p50 %+.0f ns (%.3f -> %.3f us; "
                        "95%% intervals %.3f-%.3f and %.3f-%.3f us), p99 %+.0f ns (%.3f -> %.3f us); the "
                        "untraced rounds alone differ by %.0f ns in p50 (even vs odd rounds): a difference "
                        "of that size is the machine's drift, not the recorder; one recorded event costs its "
                        "thread %.0f ns",
                        (unsigned long)o->rounds, (unsigned long)o->samples, (unsigned long)o->samples, o->on_p50 - o->off_p50, o->off_p50 / 1000,
                        o->on_p50 / 1000, o->off_p50_lo / 1000, o->off_p50_hi / 1000, o->on_p50_lo / 1000,
                        o->on_p50_hi / 1000, o->on_p99 - o->off_p99, o->off_p99 / 1000, o->on_p99 / 1000,
                        o->noise_p50, o->event_ns);
    if (o->short_events && used > 0 && (size_t)used < size)
        snprintf(buf + used, size - (size_t)used,
                 "; %lu events found the reserve full, so the traced rounds cost less than a traced row",
                 (unsigned long)o->short_events);
}

void bench_trace_report_overhead(bench_run_t *run, const bench_trace_overhead_t *o)
{
    const char *q = BENCH_MECH_RTIPC_QUEUE, *v = BENCH_VARIANT_CROSS_CORE;
    bench_add_value(run, q, v, BENCH_METRIC_TRACE_OVERHEAD_P50, "ns", o->on_p50 - o->off_p50);
    bench_add_value(run, q, v, BENCH_METRIC_TRACE_OVERHEAD_P99, "ns", o->on_p99 - o->off_p99);
    bench_add_value(run, q, v, "trace-event-cost", "ns", o->event_ns);
    char text[800];
    bench_trace_describe_overhead(o, text, sizeof text);
    bench_note(run, "%s", text);
}
