/* PLACEHOLDER: replaced by the real experiment before this branch merges. */
#include "experiments.h"

static int run_state_vs_event(bench_run_t *run)
{
    return bench_fail(run, "state-vs-event: not implemented yet");
}

const bench_experiment_t exp_state_vs_event = {
    .id = "state-vs-event",
    .summary = "(not implemented yet)",
    .definitions = "(not implemented yet)",
    .run = run_state_vs_event,
};
