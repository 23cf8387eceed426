/* PLACEHOLDER: replaced by the real experiment before this branch merges. */
#include "experiments.h"

static int run_queue_placement(bench_run_t *run)
{
    return bench_fail(run, "queue-placement: not implemented yet");
}

const bench_experiment_t exp_queue_placement = {
    .id = "queue-placement",
    .summary = "(not implemented yet)",
    .definitions = "(not implemented yet)",
    .run = run_queue_placement,
};
