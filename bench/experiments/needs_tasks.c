/* The registry entries of the experiments that need tasks
 * (needs_tasks.h) on a target that does not build them (bare metal: rtipc's
 * bare-metal port has the lock-free objects alone): each says why, so that
 * `list` and `run` report it as missing instead of leaving it out. */
#include "experiments.h"
#include "needs_tasks.h"

#define NO_TASKS "not built for a target without tasks: rtipc's bare-metal port has only the lock-free objects"
#define NOT_HERE(name, ident, upper)                                                   \
    const bench_experiment_t name = {.id = ident,                                      \
                                     .summary = EXP_##upper##_SUMMARY,                 \
                                     .definitions = "Not built for this target: " NO_TASKS ".", \
                                     .requires = EXP_##upper##_REQUIRES,               \
                                     .unavailable = NO_TASKS}

NOT_HERE(exp_queue_latency, BENCH_EXP_QUEUE_LATENCY, QUEUE_LATENCY);
NOT_HERE(exp_queue_placement, BENCH_EXP_QUEUE_PLACEMENT, QUEUE_PLACEMENT);
NOT_HERE(exp_isr_handoff, BENCH_EXP_ISR_HANDOFF, ISR_HANDOFF);
NOT_HERE(exp_byte_stream, BENCH_EXP_BYTE_STREAM, BYTE_STREAM);
NOT_HERE(exp_blocked_producer, BENCH_EXP_BLOCKED_PRODUCER, BLOCKED_PRODUCER);
NOT_HERE(exp_state_vs_event, BENCH_EXP_STATE_VS_EVENT, STATE_VS_EVENT);
NOT_HERE(exp_batching, BENCH_EXP_BATCHING, BATCHING);
NOT_HERE(exp_queue_set, BENCH_EXP_QUEUE_SET, QUEUE_SET);
NOT_HERE(exp_footprint, BENCH_EXP_FOOTPRINT, FOOTPRINT);
NOT_HERE(exp_notify_vs_sem, BENCH_EXP_NOTIFY_VS_SEM, NOTIFY_VS_SEM);
NOT_HERE(exp_notify_modes, BENCH_EXP_NOTIFY_MODES, NOTIFY_MODES);
NOT_HERE(exp_core_placement, BENCH_EXP_CORE_PLACEMENT, CORE_PLACEMENT);
NOT_HERE(exp_round_trip, BENCH_EXP_ROUND_TRIP, ROUND_TRIP);
NOT_HERE(exp_mechanism_compare, BENCH_EXP_MECHANISM_COMPARE, MECHANISM_COMPARE);
NOT_HERE(exp_interference, BENCH_EXP_INTERFERENCE, INTERFERENCE);
