/* core-placement: the closed-loop handoff with both tasks on one core vs one
 * task per core, for a queue, a binary semaphore and a task notification;
 * on FreeRTOS the kernel's own three beside rtipc's, in the same rounds. */
#include "../harness/handoff_rounds.h"
#include "experiments.h"
#include "kernel_rows.h"
#include "needs_tasks.h"

#include <stdio.h>
#include <string.h>

enum { MECHS = 3, SIDES = 2, PLACES = 2, MAX_CASES = MECHS * SIDES * PLACES };

/* rtipc's mechanisms; on FreeRTOS, each one's kernel twin beside it. */
static const char *const names[MECHS] = {BENCH_MECH_RTIPC_QUEUE, BENCH_MECH_RTIPC_SEM, BENCH_MECH_RTIPC_NOTIFY};

static int run_core_placement(bench_run_t *run)
{
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

    /* One core: both tasks would share it whatever the placement, so only
     * the same-core rows are measured (no row may claim to cross cores). */
    const bool two = bench_two_cores(run);
    if (!two)
        bench_note(run, "one core here: the cross-core rows and the cross/same ratios are not measured");

    size_t rounds = bench_quick(run) ? 2 : 4;
    handoff_case_t cases[MAX_CASES] = {{0}};
    kernel_round_t kr[MECHS][PLACES] = {{{0}}};
    int at[MECHS][SIDES][PLACES]; /* index in cases; -1: not measured here */
    const char *mech[MECHS][SIDES] = {{0}};
    size_t n = 0;
    for (int m = 0; m < MECHS && !bench_failed(run); m++) {
        const bench_mech_t *twin = bench_mech_kernel_twin(names[m]);
        mech[m][0] = names[m];
        mech[m][1] = twin ? twin->name : NULL;
        for (int side = 0; side < SIDES; side++) {
            for (int same = 0; same < PLACES; same++) {
                at[m][side][same] = -1;
                if ((side && !twin) || (!same && !two) || bench_failed(run))
                    continue;
                handoff_case_t *c = &cases[n];
                c->ops = ops[m];
                if (side) {
                    if (kernel_round_init(run, &kr[m][same], twin, 100, &c->ops) != 0)
                        continue;  /* missing (recorded) or failed */
                    c->start = kernel_round_start;
                    c->stop = kernel_round_stop;
                    c->ctx = &kr[m][same];
                }
                at[m][side][same] = (int)n++;
                c->mechanism = mech[m][side];
                c->variant = same ? BENCH_VARIANT_SAME_CORE : BENCH_VARIANT_CROSS_CORE;
                c->cfg = handoff_default(run, 12000, 1500);
                c->cfg.warmup = bench_warmup_count(run, c->cfg.samples / rounds);
                /* Same core: the consumer (12) outranks the producer (10), so
                 * the send switches to it at once. */
                if (same)
                    c->cfg.producer_cpu = c->cfg.consumer_cpu;
            }
        }
    }
    kernel_rows_fit_heap(run, cases, n);
    /* The budget grows with the kernel's cases: each case has its share. */
    double budget_s = (bench_quick(run) ? 1.2 : 8.5) * (double)n / (2 * MECHS);
    bench_progress(run, 0.0);
    if (!bench_failed(run) && handoff_measure_rounds(run, cases, n, rounds, 0.0, 1.0, budget_s) == 0 && two) {
        char diff[480] = "";
        for (int m = 0; m < MECHS; m++) {
            for (int side = 0; side < SIDES; side++) {
                if (at[m][side][0] < 0 || at[m][side][1] < 0)
                    continue;
                const bench_result_t *x = cases[at[m][side][0]].row, *s = cases[at[m][side][1]].row;
                bench_add_value(run, mech[m][side], "cross/same", BENCH_METRIC_P50_RATIO, "x", bench_p50_ratio(x, s));
                size_t l = strlen(diff);
                snprintf(diff + l, sizeof diff - l, "%s%s %+.2f us (same-core %.2f us)", l ? ", " : "",
                         mech[m][side], (x->stats.p50 - s->stats.p50) / 1000, s->stats.p50 / 1000);
            }
        }
        bench_note(run,
                   "cross-core minus same-core p50: %s. Same core, the send switches straight to "
                   "the woken consumer; cross-core, the consumer's idle core must be woken first, "
                   "whatever the mechanism.",
                   diff);
    }
    for (int m = 0; m < MECHS; m++)
        for (int same = 0; same < PLACES; same++)
            kernel_round_done(&kr[m][same]);

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
        "  kernel-queue, kernel-sem, kernel-notify (FreeRTOS targets only): the kernel's own calls,\n"
        "    a fresh object per round: xQueueSend(q, &seq, portMAX_DELAY) -> xQueueReceive(q, &seq,\n"
        "    portMAX_DELAY), depth 100; the number stored, then xSemaphoreGive on a binary semaphore\n"
        "    -> xSemaphoreTake(portMAX_DELAY), then read; the number stored, then xTaskNotifyGive ->\n"
        "    ulTaskNotifyTake(pdTRUE, portMAX_DELAY), then read (a count other than 1 fails).\n"
        "cross-core: producer on core 1 (priority 10), consumer on core 0 (priority 12). With one\n"
        "  core there are no cross-core rows and no cross/same ratios (a note says so).\n"
        "same-core: both on core 0; the consumer (12) outranks the producer (10).\n"
        "cross/same p50-ratio: cross-core p50 / same-core p50 per mechanism (kernel's too).\n"
        "Cases (rtipc's and the kernel's) run interleaved in rounds (4, quick: 2) and their samples\n"
        "  are pooled; where the heap reports its free size they fit in half of it (a note says).\n"
        "On a machine so loaded that the next round would overrun the experiment's time budget,\n"
        "  no further round starts and a note says so (not with --samples).\n"
        "The timestamp overhead (env.timestamp_overhead_ns) is included, not subtracted.",
    .run = run_core_placement,
};
