/* PLACEHOLDER: replaced by the real experiment before this branch merges. */
#include "experiments.h"

static int run_batching(bench_run_t *run)
{
    return bench_fail(run, "batching: not implemented yet");
}

const bench_experiment_t exp_batching = {
    .id = "batching",
    .summary = "(not implemented yet)",
    .definitions = "(not implemented yet)",
    .run = run_batching,
};
