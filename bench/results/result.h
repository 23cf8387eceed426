/* The results every target records and writes: result rows and the claim
 * audit's verdicts (docs/json-schema.md). Experiments make rows with the
 * calls of harness/experiment.h, the driver keeps them in its run
 * (harness/run.h), the writer (document.h) and the firmwares' console
 * (console.h) turn them into rtipc-bench/1 JSON. */
#ifndef BENCH_RESULTS_RESULT_H
#define BENCH_RESULTS_RESULT_H

#include <stdarg.h>

#include "../harness/stats.h"

typedef enum { BENCH_DIST, BENCH_VALUE, BENCH_MISSING } bench_kind_t;

/* One row of results. */
typedef struct {
    bench_kind_t kind;
    /* The names and the unit, never NULL: a run's rows point into its
     * string pool (bench_add_*), where each name is kept once for every row
     * that carries it; a row made elsewhere points at strings that outlive
     * it. */
    const char *experiment, *mechanism, *variant, *metric, *unit;
    bench_stats_t stats;   /* BENCH_DIST */
    double value;          /* BENCH_VALUE */
    char *note;            /* BENCH_MISSING: why; otherwise an optional remark; NULL
                              for none (most rows: a fixed buffer in each would cost an
                              MCU's run tens of KiB). Owned; set with bench_result_note */
    const char *clock;     /* the clock that measured it (results/row_clock.h): a
                              static provenance name; "" for sizes and counts, and
                              when unknown */
} bench_result_t;

/* The longest note kept, in characters; a longer one is cut, ending in "...". */
#define BENCH_NOTE_MAX 159

/* Set @p r's note from a printf format, replacing any it had (the row owns
 * the copy; cut to BENCH_NOTE_MAX). 0, or -1 when memory runs out (the row
 * then has no note). Context: task. */
int bench_result_note(bench_result_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int bench_result_vnote(bench_result_t *r, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* @p r's note, "" when it has none. */
static inline const char *bench_result_note_text(const bench_result_t *r) { return r->note ? r->note : ""; }
/* Free @p r's note (the row keeps no note). */
void bench_result_note_free(bench_result_t *r);

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
