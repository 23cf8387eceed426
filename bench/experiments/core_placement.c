/* PLACEHOLDER: replaced by the real experiment before this branch merges. */
#include "experiments.h"

static int run_core_placement(bench_run_t *run)
{
    return bench_fail(run, "core-placement: not implemented yet");
}

const bench_experiment_t exp_core_placement = {
    .id = "core-placement",
    .summary = "(not implemented yet)",
    .definitions = "(not implemented yet)",
    .run = run_core_placement,
};
