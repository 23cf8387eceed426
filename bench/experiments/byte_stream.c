/* PLACEHOLDER: replaced by the real experiment before this branch merges. */
#include "experiments.h"

static int run_byte_stream(bench_run_t *run)
{
    return bench_fail(run, "byte-stream: not implemented yet");
}

const bench_experiment_t exp_byte_stream = {
    .id = "byte-stream",
    .summary = "(not implemented yet)",
    .definitions = "(not implemented yet)",
    .run = run_byte_stream,
};
