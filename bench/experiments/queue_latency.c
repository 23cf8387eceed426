/* queue-latency: the published headline figure. A producer task on core 1
 * sends a 4-byte counter through a depth-100 rtipc queue to a consumer task
 * on core 0 that is blocked in its receive call. On FreeRTOS the kernel's
 * own queue (xQueueSend/xQueueReceive) is measured beside it, each row right
 * after rtipc's of the same variant. */
#include <math.h>

#include "experiments.h"
#include "kernel_rows.h"
#include "needs_tasks.h"
#include "../trace/trace.h"

/* rtipc's row, then the kernel's twin (FreeRTOS only) under the same
 * variant and their p50 ratio; false once the run failed. */
static bool measure_pair(bench_run_t *run, const bench_mech_t *kernel, const char *variant, const handoff_ops_t *ops,
                         const handoff_cfg_t *cfg)
{
    const bench_result_t *r = handoff_measure(run, BENCH_MECH_RTIPC_QUEUE, variant, ops, cfg);
    if (!r || !kernel)
        return r != NULL;
    const bench_result_t *k = kernel_measure(run, kernel, 100, variant, cfg);
    if (bench_failed(run))
        return false;
    double ratio = bench_p50_ratio(r, k);
    if (!isnan(ratio)) {
        bench_result_t *row = bench_add_value(run, BENCH_MECH_RTIPC_OVER_KERNEL, variant, BENCH_METRIC_P50_RATIO, "x",
                                              ratio);
        if (handoff_core_clocked(run, cfg))
            bench_row_core_clocked(run, row);
    }
    return true;
}

static int run_queue_latency(bench_run_t *run)
{
    rtipc_queue_t *q;
    int rc = rtipc_queue_create(100, sizeof(uint32_t), &q);
    if (rc != 0)
        return bench_fail(run, "queue create: %s", rtipc_strerror(rc));
    handoff_ops_t ops = {.send = bench_rtipc_queue_send, .recv = bench_rtipc_queue_recv, .depth = bench_rtipc_queue_depth, .obj = q};

    /* The kernel's queue, where rtipc runs on FreeRTOS (NULL on Linux). */
    const bench_mech_t *kernel = bench_mech_kernel_twin(BENCH_MECH_RTIPC_QUEUE);
    handoff_cfg_t cfg = handoff_default(run, 50000, 3000);
    bench_progress(run, 0.0);
    if (bench_two_cores(run)) {
        if (!measure_pair(run, kernel, BENCH_VARIANT_CROSS_CORE, &ops, &cfg))
            goto out;
    } else {
        bench_note(run, "one core here: the cross-core rows are not measured; the open-loop row runs "
                        "same-core");
    }
    bench_progress(run, 0.4);

    /* Same core: the consumer outranks the producer, so the send switches to
     * it at once (FreeRTOS: a send that readies a higher-priority task
     * yields). */
    cfg.producer_cpu = cfg.consumer_cpu;
    if (!measure_pair(run, kernel, BENCH_VARIANT_SAME_CORE, &ops, &cfg))
        goto out;
    bench_progress(run, 0.7);

    /* Open loop: 5 kHz sends whatever the consumer does, latency from the
     * intended send time. */
    handoff_cfg_t open = handoff_default(run, 10000, 1000);
    open.mode = HANDOFF_OPEN_LOOP;
    open.rate_hz = 5000;
    const char *open_variant = bench_two_cores(run) ? BENCH_VARIANT_CROSS_CORE "/open-loop-5kHz"
                                                   : BENCH_VARIANT_SAME_CORE "/open-loop-5kHz";
    if (!measure_pair(run, kernel, open_variant, &ops, &open))
        goto out;
    bench_progress(run, 0.9);

    /* With --vcd/--perfetto: what the recorder costs the cross-core row. */
    bench_trace_overhead_t overhead;
    if (bench_trace_enabled() && bench_two_cores(run) && bench_trace_measure_overhead(run, &overhead) == 0)
        bench_trace_report_overhead(run, &overhead);
    bench_progress(run, 1.0);
out:
    rtipc_queue_delete(q);
    return bench_failed(run) ? -1 : 0;
}

const bench_experiment_t exp_queue_latency = {
    .id = BENCH_EXP_QUEUE_LATENCY,
    .summary = EXP_QUEUE_LATENCY_SUMMARY,
    .definitions =
        "latency (closed loop): from the producer's timestamp taken just before rtipc_queue_send\n"
        "  to the consumer's timestamp taken just after rtipc_queue_receive returned (the consumer\n"
        "  is running). The consumer is parked in its receive call when the send starts (the\n"
        "  producer waits for the previous message's acknowledgement, then a random 20-40 us gap).\n"
        "  cross-core: producer on core 1 (priority 10), consumer on core 0 (priority 12).\n"
        "  same-core: both on core 0; the consumer outranks the producer.\n"
        "latency (open loop, 5 kHz): from the message's intended send time on a fixed 200 us grid\n"
        "  to the consumer running after its receive; a late producer adds to the latency.\n"
        "kernel-queue (FreeRTOS targets only): the same rows on the kernel's own queue, depth 100,\n"
        "  4-byte item: from the stamp before xQueueSend(q, &seq, portMAX_DELAY) to the stamp\n"
        "  after xQueueReceive(q, &seq, portMAX_DELAY) returned; a fresh queue per row, each\n"
        "  measured right after rtipc's row of the same variant.\n"
        "p50-ratio (x), mechanism rtipc/kernel: rtipc-queue's p50 / kernel-queue's p50, per variant.\n"
        "The timestamp overhead (env.timestamp_overhead_ns) is included, not subtracted.",
    .run = run_queue_latency,
    .requires = EXP_QUEUE_LATENCY_REQUIRES,
};
