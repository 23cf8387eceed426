/* core-placement: the closed-loop handoff with both tasks on one core vs one
 * task per core, for a queue, a binary semaphore and a task notification. */
#include "../harness/handoff_rounds.h"
#include "experiments.h"
#include "needs_tasks.h"

#include <stdio.h>
#include <string.h>

enum { MECHS = 3 };

static int run_core_placement(bench_run_t *run)
{
    static const char *const names[MECHS] = {BENCH_MECH_RTIPC_QUEUE, BENCH_MECH_RTIPC_SEM, BENCH_MECH_RTIPC_NOTIFY};
    rtipc_queue_t *q = NULL;
    bench_rtipc_sem_handoff_t sem = {0};
    bench_rtipc_notify_handoff_t note = {0};
    int rc = rtipc_queue_create(100, sizeof(uint32_t), &q);
    if (rc != 0)
        return bench_fail(run, "queue create: %s", rtipc_strerror(rc));
    rc = rtipc_sem_create_binary(&sem.sem);
    if (rc != 0) {
        rtipc_queue_delete(q);
        return bench_fail(run, "semaphore create: %s", rtipc_strerror(rc));
    }
    const handoff_ops_t ops[MECHS] = {
        {.send = bench_rtipc_queue_send, .recv = bench_rtipc_queue_recv, .depth = bench_rtipc_queue_depth, .obj = q},
        {.send = bench_rtipc_sem_send, .recv = bench_rtipc_sem_recv, .obj = &sem},
        {.send = bench_rtipc_notify_value_send, .recv = bench_rtipc_notify_value_recv, .bind = bench_rtipc_notify_bind,
         .obj = &note},
    };

    size_t rounds = bench_quick(run) ? 2 : 4;
    handoff_case_t cases[2 * MECHS] = {{0}};
    for (int m = 0; m < MECHS; m++) {
        for (int same = 0; same < 2; same++) {
            handoff_case_t *c = &cases[2 * m + same];
            c->mechanism = names[m];
            c->variant = same ? BENCH_VARIANT_SAME_CORE : BENCH_VARIANT_CROSS_CORE;
            c->ops = ops[m];
            c->cfg = handoff_default(run, 12000, 1500);
            c->cfg.warmup = bench_warmup_count(run, c->cfg.samples / rounds);
            /* Same core: the consumer (12) outranks the producer (10), so
             * the send switches to it at once. */
            if (same)
                c->cfg.producer_cpu = c->cfg.consumer_cpu;
        }
    }
    double budget_s = bench_quick(run) ? 1.2 : 8.5;
    bench_progress(run, 0.0);
    if (handoff_measure_rounds(run, cases, 2 * MECHS, rounds, 0.0, 1.0, budget_s) == 0) {
        char diff[200] = "";
        for (int m = 0; m < MECHS; m++) {
            const bench_result_t *x = cases[2 * m].row, *s = cases[2 * m + 1].row;
            bench_add_value(run, names[m], "cross/same", BENCH_METRIC_P50_RATIO, "x", bench_p50_ratio(x, s));
            size_t l = strlen(diff);
            snprintf(diff + l, sizeof diff - l, "%s%s %+.2f us (same-core %.2f us)", m ? ", " : "",
                     names[m], (x->stats.p50 - s->stats.p50) / 1000, s->stats.p50 / 1000);
        }
        bench_note(run,
                   "cross-core minus same-core p50: %s. Same core, the send switches straight to "
                   "the woken consumer; cross-core, the consumer's idle core must be woken first, "
                   "whatever the mechanism.",
                   diff);
    }

    rc = rtipc_sem_delete(sem.sem);
    if (rc != 0)
        bench_fail(run, "semaphore delete: %s", rtipc_strerror(rc));
    rc = rtipc_queue_delete(q);
    if (rc != 0)
        bench_fail(run, "queue delete: %s", rtipc_strerror(rc));
    return bench_failed(run) ? -1 : 0;
}

const bench_experiment_t exp_core_placement = {
    .id = BENCH_EXP_CORE_PLACEMENT,
    .summary = EXP_CORE_PLACEMENT_SUMMARY,
    .requires = EXP_CORE_PLACEMENT_REQUIRES,
    .definitions =
        "latency (closed loop, as queue-latency): from the producer's timestamp taken just before\n"
        "  its send call to the consumer's timestamp taken just after its receive call returned\n"
        "  (the consumer is running). The producer sends only after the previous message was\n"
        "  acknowledged and a random 20-40 us gap, so the consumer is parked in its receive call.\n"
        "  rtipc-queue: rtipc_queue_send -> rtipc_queue_receive, 4-byte item, depth 100.\n"
        "  rtipc-sem: the sequence number is stored in a shared variable, then rtipc_sem_give on\n"
        "    a binary semaphore -> rtipc_sem_take, then the variable is read (a failed give fails).\n"
        "  rtipc-notify: rtipc_notify(consumer, slot 0, seq, set-without-overwrite) ->\n"
        "    rtipc_notify_wait (clearing all bits on exit); a notification still pending fails.\n"
        "cross-core: producer on core 1 (priority 10), consumer on core 0 (priority 12).\n"
        "same-core: both on core 0; the consumer (12) outranks the producer (10).\n"
        "cross/same p50-ratio: cross-core p50 / same-core p50 per mechanism.\n"
        "Cases run interleaved in rounds (4, quick: 2) and their samples are pooled.\n"
        "On a machine so loaded that the next round would overrun the experiment's time budget,\n"
        "  no further round starts and a note says so (not with --samples).\n"
        "The timestamp overhead (env.timestamp_overhead_ns) is included, not subtracted.",
    .run = run_core_placement,
};
