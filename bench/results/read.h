/* Reading rtipc-bench/1 files (docs/json-schema.md): one loader and
 * validator for every command that reads results (compare, audit, report),
 * so that all of them accept and refuse the same files with the same words.
 *
 * A file is read whole (at most BENCH_RESULTS_MAX_BYTES), parsed, checked
 * member by member and turned into a bench_results_t: the rows as typed
 * records, an index to find a row by its key in O(log n), and the parse tree
 * for the members the model leaves as they are (env, experiments, claims,
 * members this schema does not define).
 *
 * What the model promises its users:
 * - every string is a valid C string (names may be empty only where the
 *   schema allows: variant, note);
 * - a number that is null, absent where optional, or not finite in the file
 *   (1e999) is NAN: it never takes part in a verdict;
 * - a distribution has n >= 1; its interval of the median is the file's
 *   p50_ci95, else a bootstrap from its histogram, else none, and when there
 *   is none, ci_why says why;
 * - rows with the same (experiment, mechanism, variant, metric) are kept;
 *   the first is the one lookups find, the others name it in dup_of.
 *
 * Context: any thread; a bench_results_t is not shared between threads while
 * it is loaded or freed. */
#ifndef BENCH_RESULTS_READ_H
#define BENCH_RESULTS_READ_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bootstrap.h"

/* The largest file read: a full run writes a few MB (960 histogram buckets
 * per row at most); a larger file is refused after this many bytes, so that
 * /dev/zero or a runaway file cannot exhaust memory. */
#define BENCH_RESULTS_MAX_BYTES ((size_t)16 << 20)
#define BENCH_RESULTS_MAX_BYTES_TEXT "16 MiB"
/* The most rows a file may hold (a full run has a few hundred). */
#define BENCH_RESULTS_MAX_ROWS 100000u
/* Resamples of each bootstrap, and the work all bootstraps of one file may
 * do, in draws (bench_bootstrap_cost). Rows past the budget get no interval
 * (ci_why says so); about 0.2 s of a Release build's time per file. */
#define BENCH_RESULTS_BOOTSTRAP_RESAMPLES 200u
#define BENCH_RESULTS_BOOTSTRAP_BUDGET 50000000ull
#define BENCH_RESULTS_BOOTSTRAP_BUDGET_TEXT "5e7 draws"

typedef enum { BENCH_ROW_DIST, BENCH_ROW_VALUE, BENCH_ROW_MISSING } bench_row_kind_t;
typedef enum { BENCH_CI_NONE, BENCH_CI_FILE, BENCH_CI_BOOTSTRAP } bench_ci_source_t;

/* One entry of "results". Strings point into the parse tree. */
typedef struct {
    size_t index;  /* position in "results" */
    bench_row_kind_t kind;
    const char *experiment, *mechanism, *variant;
    const char *metric, *unit;  /* "" for a missing mechanism */
    const char *note;           /* "" when absent */
    const char *clock;          /* provenance name (results/row_clock.h); "" for sizes and counts
                                   and when neither the row nor env says */
    /* BENCH_ROW_VALUE */
    double value;
    /* BENCH_ROW_DIST: NAN for any statistic that is null or absent. */
    uint64_t n;
    double min, mean, p50, p90, p99, p999, max, stddev, jitter;
    bench_ci_source_t ci;
    double ci_lo, ci_hi;   /* NAN when ci is BENCH_CI_NONE */
    const char *ci_why;    /* BENCH_CI_NONE: why there is no interval (a static string) */
    unsigned sub_bucket_bits;
    bench_hist_bin_t *bins;  /* the histogram's buckets, NULL when it has none */
    size_t n_bins;
    /* Duplicates: SIZE_MAX, or the index of the earlier row with this key. */
    size_t dup_of;
} bench_row_t;

typedef struct {
    cJSON *root;                              /* the whole file */
    const cJSON *env, *experiments, *claims;  /* NULL when absent */
    uint32_t tick_hz;                         /* env.tick_hz; 0 when absent or null */
    bench_row_t *rows;
    size_t n_rows;
    size_t *by_key;   /* row indexes sorted by key, then index */
    size_t *by_experiment;  /* row indexes sorted by experiment, then index */
    size_t n_duplicates;
    size_t n_budget_skipped;  /* distributions left without an interval: budget spent */
} bench_results_t;

/* Reads the file at PATH ("-": standard input, to its end) into *RES.
 * Returns 0, or -1 with *RES empty (safe
 * to free) and the reason in ERR, one line without the path (callers print
 * "PROG: PATH: reason"): cannot read (with strerror), larger than
 * BENCH_RESULTS_MAX_BYTES, empty, holds a NUL byte, not JSON (with the byte
 * offset), not the rtipc-bench/1 schema, a member of the wrong type (naming
 * it: "results[7] lacks the string \"metric\""), more than
 * BENCH_RESULTS_MAX_ROWS rows, or out of memory. */
int bench_results_load(bench_results_t *res, const char *path, char *err, size_t errlen);

/* How long bench_results_load waits for a named FIFO, socket or device to
 * have something to read, in seconds (commands offer --timeout for it). */
#define BENCH_RESULTS_WAIT_S 30.0

/* bench_results_load with that wait set: WAIT_S seconds, 0 for ever. Past
 * it: -1 with "nothing to read within N s". Standard input is never timed:
 * a pipe from a long run is read as it comes. */
int bench_results_load_waiting(bench_results_t *res, const char *path, double wait_s, char *err, size_t errlen);

/* The same checks on TEXT, a C string (the file's bytes up to its first
 * NUL): `run --report` reads back the JSON it wrote this way. */
int bench_results_parse(bench_results_t *res, const char *text, char *err, size_t errlen);

/* SRC for a terminal, into DST (N bytes, always terminated, cut short when
 * it does not fit): each control byte (below 0x20, and 0x7f) as "\xHH", so
 * that a name read from a file cannot move the cursor, set the title or
 * the colours. Returns DST. */
const char *bench_text_printable(char *dst, size_t n, const char *src);

/* Frees what a load or parse allocated; *RES becomes empty. Accepts an empty
 * or zeroed *RES. */
void bench_results_free(bench_results_t *res);

/* The first row with this key, or NULL. O(log n). */
const bench_row_t *bench_results_find(const bench_results_t *res, const char *experiment, const char *mechanism,
                                      const char *variant, const char *metric);

/* The rows of EXPERIMENT in file order: *FIRST indexes by_experiment, and
 * the return value is how many follow (0 when none). O(log n). */
size_t bench_results_experiment_rows(const bench_results_t *res, const char *experiment, size_t *first);

/* Warnings about a loaded file, one line each on OUT, prefixed "PROG:
 * warning: PATH: ": each repeated key, and the bootstrap budget when it ran
 * out. */
void bench_results_warn(const bench_results_t *res, FILE *out, const char *prog, const char *path);

/* A number member of an object of the model (env, an experiment, a claim):
 * its value, or NAN when it is absent, null, not a number or not finite. */
double bench_results_number(const cJSON *object, const char *key);

/* A string member: its value, or FALLBACK when it is absent or not a string. */
const char *bench_results_string(const cJSON *object, const char *key, const char *fallback);

#endif
