/* PLACEHOLDER: replaced by the real experiment before this branch merges. */
#include "experiments.h"

static int run_queue_set(bench_run_t *run)
{
    return bench_fail(run, "queue-set: not implemented yet");
}

const bench_experiment_t exp_queue_set = {
    .id = "queue-set",
    .summary = "(not implemented yet)",
    .definitions = "(not implemented yet)",
    .run = run_queue_set,
};
