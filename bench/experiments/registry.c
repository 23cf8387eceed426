/* Every experiment, in the order docs/experiments.md lists them (and `run`
 * runs them). On a one-core port (FreeRTOS's POSIX simulator) the list holds
 * those that run on one core without Linux peers (bench/sources.cmake). */
#include <string.h>

#include "experiments.h"
#include "rtipc/config.h"

#if RTIPC_PORT_FREERTOS
#define HOST_ONLY(e)
#else
#define HOST_ONLY(e) e,
#endif

extern const bench_experiment_t exp_queue_latency;
extern const bench_experiment_t exp_queue_placement;
extern const bench_experiment_t exp_isr_handoff;
extern const bench_experiment_t exp_byte_stream;
extern const bench_experiment_t exp_blocked_producer;
extern const bench_experiment_t exp_state_vs_event;
extern const bench_experiment_t exp_batching;
extern const bench_experiment_t exp_queue_set;
extern const bench_experiment_t exp_footprint;
extern const bench_experiment_t exp_notify_vs_sem;
extern const bench_experiment_t exp_notify_modes;
#if !RTIPC_PORT_FREERTOS
extern const bench_experiment_t exp_mechanism_compare;
extern const bench_experiment_t exp_core_placement;
extern const bench_experiment_t exp_interference;
extern const bench_experiment_t exp_peers;
#endif

const bench_experiment_t *const bench_experiments[] = {
    &exp_queue_latency,
    &exp_queue_placement,
    &exp_isr_handoff,
    HOST_ONLY(&exp_mechanism_compare)
    &exp_byte_stream,
    &exp_blocked_producer,
    &exp_state_vs_event,
    HOST_ONLY(&exp_core_placement)
    &exp_batching,
    &exp_queue_set,
    &exp_footprint,
    HOST_ONLY(&exp_interference)
    &exp_notify_vs_sem,
    &exp_notify_modes,
    HOST_ONLY(&exp_peers)
};
const size_t bench_experiment_count = sizeof bench_experiments / sizeof bench_experiments[0];

const bench_experiment_t *bench_experiment_find(const char *id)
{
    for (size_t i = 0; i < bench_experiment_count; i++)
        if (strcmp(bench_experiments[i]->id, id) == 0)
            return bench_experiments[i];
    return NULL;
}
