/* The results every target records and writes: result rows and the claim
 * audit's verdicts (docs/json-schema.md). Experiments make rows with the
 * calls of harness/experiment.h, the driver keeps them in its run
 * (harness/run.h), the writer (document.h) and the firmwares' console
 * (console.h) turn them into rtipc-bench/1 JSON. */
#ifndef BENCH_RESULTS_RESULT_H
#define BENCH_RESULTS_RESULT_H

#include "../harness/stats.h"

typedef enum { BENCH_DIST, BENCH_VALUE, BENCH_MISSING } bench_kind_t;

/* One row of results. */
typedef struct {
    bench_kind_t kind;
    char experiment[32];
    char mechanism[48];
    char variant[64];
    char metric[32];
    char unit[16];
    bench_stats_t stats;   /* BENCH_DIST */
    double value;          /* BENCH_VALUE */
    char note[160];        /* BENCH_MISSING: why; otherwise optional remark */
    char clock[24];        /* the clock that measured it (results/row_clock.h); "" for
                              sizes and counts, and when unknown */
} bench_result_t;

/* Verdict of one audited claim. */
typedef enum { CLAIM_HOLDS, CLAIM_DOES_NOT_HOLD, CLAIM_NOT_TESTABLE } bench_verdict_t;
typedef struct {
    int id;
    const char *claim;       /* the claim, as docs/experiments.md states it */
    const char *rule;        /* how the verdict is computed */
    bench_verdict_t verdict;
    char evidence[512];      /* the figures behind it */
} bench_claim_t;

/* The claims of docs/experiments.md, each audited in every run. */
#define BENCH_CLAIMS 9

/* "holds", "does-not-hold" or "not-testable", as JSON and tables write it. */
const char *bench_verdict_name(bench_verdict_t v);

#endif
