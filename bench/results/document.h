/* The rtipc-bench/1 document (docs/json-schema.md) on the streaming writer
 * (json_writer.h): the one place every target turns results into JSON.
 *
 * Two ways in. A hosted run has the whole model (bench_run_t) and calls
 * bench_doc_run. A firmware that keeps no model (the bare-metal and ESP-IDF
 * suites print rows as they finish) writes the same document in pieces:
 *
 *   bench_doc_begin; bench_doc_env_begin, extra env members, bench_doc_env_end;
 *   bench_doc_results_begin, bench_doc_result per row, bench_doc_list_end;
 *   bench_doc_experiments_begin, bench_doc_experiment each, bench_doc_list_end;
 *   bench_doc_claims or bench_doc_claims_unaudited; bench_doc_end
 *
 * Nothing here allocates. Context: the thread that owns the writer. */
#ifndef BENCH_RESULTS_DOCUMENT_H
#define BENCH_RESULTS_DOCUMENT_H

#include <stdbool.h>

#include "../harness/env.h"
#include "json_writer.h"
#include "result.h"

#define BENCH_SCHEMA "rtipc-bench/1"
/* Lines around the document on a console shared with other output (the
 * firmwares' UART or semihosting): docs/porting.md says how to cut it out. */
#define BENCH_DOC_BEGIN_MARKER "==== rtipc-bench/1 JSON begin ===="
#define BENCH_DOC_END_MARKER "==== rtipc-bench/1 JSON end ===="

/* A writer laid out as rtipc-bench writes files: one line per env member,
 * experiment and result row. */
void bench_doc_writer_init(bench_jw_t *w, bench_jw_sink_fn sink, void *ctx);

/* The whole document from a run's model (harness/run.h). */
struct bench_run;
void bench_doc_run(bench_jw_t *w, const struct bench_run *run);

/* The pieces, in the order above. */
void bench_doc_begin(bench_jw_t *w);
/* "env": { with every member of *e; the caller may add members after it. */
void bench_doc_env_begin(bench_jw_t *w, const bench_env_t *e);
void bench_doc_env_end(bench_jw_t *w);
void bench_doc_results_begin(bench_jw_t *w);
/* One row: a distribution, a value or a missing mechanism (r->kind). */
void bench_doc_result(bench_jw_t *w, const bench_result_t *r);
void bench_doc_experiments_begin(bench_jw_t *w);
/* One experiment entry; failure is written when failed (NULL reads
 * "unknown"), notes may be NULL. */
typedef struct {
    const char *id, *summary, *definitions, *notes;
    bool failed;
    const char *failure;
    double seconds;
} bench_doc_experiment_t;
void bench_doc_experiment(bench_jw_t *w, const bench_doc_experiment_t *x);
/* Closes "results" or "experiments". */
void bench_doc_list_end(bench_jw_t *w);
/* "claims": the audit's BENCH_CLAIMS verdicts. */
void bench_doc_claims(bench_jw_t *w, const bench_claim_t claims[BENCH_CLAIMS]);
/* "claims" for a writer that does not audit: all nine not-testable, saying
 * that `rtipc-bench audit FILE` on the host gives the verdicts; @p platform
 * names the suite in the rule ("the Cortex-M3 bare-metal suite"). */
void bench_doc_claims_unaudited(bench_jw_t *w, const char *platform);
void bench_doc_end(bench_jw_t *w);

#endif
