/* PLACEHOLDER: replaced by the real experiment before this branch merges. */
#include "experiments.h"

static int run_footprint(bench_run_t *run)
{
    return bench_fail(run, "footprint: not implemented yet");
}

const bench_experiment_t exp_footprint = {
    .id = "footprint",
    .summary = "(not implemented yet)",
    .definitions = "(not implemented yet)",
    .run = run_footprint,
};
