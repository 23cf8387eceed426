/* PLACEHOLDER: replaced by the real experiment before this branch merges. */
#include "experiments.h"

static int run_interference(bench_run_t *run)
{
    return bench_fail(run, "interference: not implemented yet");
}

const bench_experiment_t exp_interference = {
    .id = "interference",
    .summary = "(not implemented yet)",
    .definitions = "(not implemented yet)",
    .run = run_interference,
};
