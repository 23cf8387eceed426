/* Every experiment, in the order docs/experiments.md lists them (and `run`
 * runs them), on every target. The Linux-only ones are entries without code
 * where they are not built (linux_only.c); an experiment that needs what the
 * target lacks is reported as missing with the reason
 * (bench_experiment_unavailable). */
#include <string.h>

#include "../harness/run.h"
#include "experiments.h"

extern const bench_experiment_t exp_queue_latency;
extern const bench_experiment_t exp_queue_placement;
extern const bench_experiment_t exp_isr_handoff;
extern const bench_experiment_t exp_mechanism_compare;
extern const bench_experiment_t exp_byte_stream;
extern const bench_experiment_t exp_blocked_producer;
extern const bench_experiment_t exp_state_vs_event;
extern const bench_experiment_t exp_core_placement;
extern const bench_experiment_t exp_batching;
extern const bench_experiment_t exp_queue_set;
extern const bench_experiment_t exp_footprint;
extern const bench_experiment_t exp_interference;
extern const bench_experiment_t exp_notify_vs_sem;
extern const bench_experiment_t exp_notify_modes;
extern const bench_experiment_t exp_peers;
extern const bench_experiment_t exp_round_trip;
extern const bench_experiment_t exp_lockfree_cost;

const bench_experiment_t *const bench_experiments[] = {
    &exp_queue_latency,
    &exp_queue_placement,
    &exp_isr_handoff,
    &exp_mechanism_compare,
    &exp_byte_stream,
    &exp_blocked_producer,
    &exp_state_vs_event,
    &exp_core_placement,
    &exp_batching,
    &exp_queue_set,
    &exp_footprint,
    &exp_interference,
    &exp_notify_vs_sem,
    &exp_notify_modes,
    &exp_peers,
    &exp_round_trip,
    &exp_lockfree_cost,
};
const size_t bench_experiment_count = sizeof bench_experiments / sizeof bench_experiments[0];
_Static_assert(sizeof bench_experiments / sizeof bench_experiments[0] <= BENCH_MAX_EXPERIMENTS,
               "a run keeps an outcome for every experiment (run.h)");

const bench_experiment_t *bench_experiment_find(const char *id)
{
    for (size_t i = 0; i < bench_experiment_count; i++)
        if (strcmp(bench_experiments[i]->id, id) == 0)
            return bench_experiments[i];
    return NULL;
}
