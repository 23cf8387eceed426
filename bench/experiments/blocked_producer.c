/* PLACEHOLDER: replaced by the real experiment before this branch merges. */
#include "experiments.h"

static int run_blocked_producer(bench_run_t *run)
{
    return bench_fail(run, "blocked-producer: not implemented yet");
}

const bench_experiment_t exp_blocked_producer = {
    .id = "blocked-producer",
    .summary = "(not implemented yet)",
    .definitions = "(not implemented yet)",
    .run = run_blocked_producer,
};
