/* PLACEHOLDER: replaced by the real experiment before this branch merges. */
#include "experiments.h"

static int run_mechanism_compare(bench_run_t *run)
{
    return bench_fail(run, "mechanism-compare: not implemented yet");
}

const bench_experiment_t exp_mechanism_compare = {
    .id = "mechanism-compare",
    .summary = "(not implemented yet)",
    .definitions = "(not implemented yet)",
    .run = run_mechanism_compare,
};
