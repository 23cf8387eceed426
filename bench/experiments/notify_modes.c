/* PLACEHOLDER: replaced by the real experiment before this branch merges. */
#include "experiments.h"

static int run_notify_modes(bench_run_t *run)
{
    return bench_fail(run, "notify-modes: not implemented yet");
}

const bench_experiment_t exp_notify_modes = {
    .id = "notify-modes",
    .summary = "(not implemented yet)",
    .definitions = "(not implemented yet)",
    .run = run_notify_modes,
};
