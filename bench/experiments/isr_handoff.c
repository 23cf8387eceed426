/* PLACEHOLDER: replaced by the real experiment before this branch merges. */
#include "experiments.h"

static int run_isr_handoff(bench_run_t *run)
{
    return bench_fail(run, "isr-handoff: not implemented yet");
}

const bench_experiment_t exp_isr_handoff = {
    .id = "isr-handoff",
    .summary = "(not implemented yet)",
    .definitions = "(not implemented yet)",
    .run = run_isr_handoff,
};
