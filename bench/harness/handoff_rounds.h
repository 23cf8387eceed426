/* Several handoff cases measured in interleaved rounds, so that a slow
 * drift of a shared machine hits all of them alike (queue-placement,
 * core-placement, notify-vs-sem, interference). On the handoff driver
 * (handoff.h). */
#ifndef BENCH_HANDOFF_ROUNDS_H
#define BENCH_HANDOFF_ROUNDS_H

#include <stddef.h>

#include "experiment.h"
#include "handoff.h"

/* One handoff case of an interleaved measurement. */
typedef struct {
    const char *mechanism, *variant;   /* the row's names */
    handoff_ops_t ops;
    handoff_cfg_t cfg;                 /* samples: total for the row; warmup: per round */
    /* Optional, around each round of this case (e.g. start and stop a load).
     * start returns 0 or -1 after bench_fail(); stop is called whenever
     * start succeeded. */
    int (*start)(bench_run_t *run, void *ctx);
    void (*stop)(bench_run_t *run, void *ctx);
    void *ctx;
    const bench_result_t *row;         /* out: the latency row, or NULL */
} handoff_case_t;

/* Measure every case in @p rounds rounds, each round running every case with
 * its share of the samples (alternating the order between rounds, so a slow
 * drift of the shared machine hits all cases alike), then record one
 * "latency" row per case from the pooled samples. Progress goes from p0 to
 * p1. When @p budget_s > 0 and --samples was not given, no further round
 * starts once it would probably end after budget_s seconds (a loaded shared
 * machine): the rows then hold fewer samples, and a note says so.
 * 0, or -1 after bench_fail(). */
int handoff_measure_rounds(bench_run_t *run, handoff_case_t *cases, size_t n_cases, size_t rounds, double p0,
                           double p1, double budget_s);

#endif
