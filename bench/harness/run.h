/* What the driver and the command line use: the run (options, environment,
 * rows, each experiment's outcome, the claims), printing and writing it, the
 * audits, and the experiment list. Experiments see none of this: they call
 * experiment.h. */
#ifndef BENCH_HARNESS_RUN_H
#define BENCH_HARNESS_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../results/result.h"
#include "../results/strpool.h"
#include "env.h"
#include "experiment.h"
#include "stats.h"

/* Command-line options of `run`. Zero means "the experiment's default" for
 * the numeric ones. Experiments read them through experiment.h's calls. */
typedef struct {
    bool quick;           /* short run for CI and smoke tests */
    size_t samples;       /* recorded samples per latency row (0 = default) */
    double duration_s;    /* length of rate/throughput phases (0 = default) */
    long warmup;          /* discarded samples before recording (-1 = default) */
    int cpu[2];           /* the CPUs playing "core 0" and "core 1" */
    uint32_t tick_hz;     /* tick rate in force (0 = library default) */
    uint64_t seed;        /* seeds every pseudo-random choice */
    bool progress;        /* progress lines on stderr */
} bench_opts_t;

/* Bytes of remarks an experiment keeps for the tables (each row keeps its
 * own note besides). On a host the peers experiment's targets table alone
 * takes about 3 KiB; an MCU keeps 2 KiB per experiment (see below). */
#if defined(__linux__)
#define BENCH_NOTES_BYTES 8192
#else
#define BENCH_NOTES_BYTES 2048
#endif

/* How one experiment went. */
typedef struct {
    const bench_experiment_t *experiment;
    int failed;              /* 1 when it failed (its rows may be partial) */
    char failure[256];       /* why */
    /* Its remarks: a copy of the run's notes as long as they are, owned
     * (bench_free_rows frees it); "" for none. A fixed buffer in each
     * outcome would hold 40 KiB of an MCU's heap for the whole run. */
    char *notes;
    double seconds;          /* wall time it took */
} bench_outcome_t;

/* Outcomes a run keeps: one per experiment of the registry (checked there),
 * with room for a few more. */
#define BENCH_MAX_EXPERIMENTS 20

struct bench_run {
    bench_opts_t opts;
    bench_env_t env;
    /* The rows, each its own allocation (an MCU's heap has no block for
     * hundreds of rows in one); a slot that already points at a row when
     * the run reaches it is used as it is (storage a caller provides). */
    bench_result_t **results;
    size_t n_results, cap_results;  /* rows recorded; slots in results */
    bench_strpool_t names;          /* the rows' names and units, each kept once */
    const bench_experiment_t *current;  /* experiment being run */
    const char *clock;                  /* provenance of this run's timestamps
                                           (results/row_clock.h), given to each timed row */
    const char *core_clock;             /* provenance of the core clock (env.core_clock),
                                           given to rows timed within one core by it
                                           (bench_row_core_clocked); NULL without one */
    char failure[256];                  /* why the current experiment failed */
    char notes[BENCH_NOTES_BYTES];      /* remarks printed under its tables */
    bench_outcome_t outcomes[BENCH_MAX_EXPERIMENTS];
    size_t n_outcomes;
    bench_claim_t claims[BENCH_CLAIMS];
};

/* Free the run's rows, their statistics, names and the slots (results.c);
 * the run then has none. */
void bench_free_rows(bench_run_t *run);

/* ---- output (results/run_output.c) ---- */
void bench_print_experiment(FILE *out, const bench_run_t *run, const bench_outcome_t *oc);
void bench_print_env(FILE *out, const bench_env_t *env);
/* The target's memory figures of env->memory (after the run), one line. */
void bench_print_memory(FILE *out, const bench_env_t *env);
void bench_print_claims(FILE *out, const bench_run_t *run);
/* The run in the rtipc-bench/1 schema printed on the console between
 * marker lines (target/console_sink.h), as it is written: the JSON output of
 * a target without files (the files are results/run_files.h's). 0, or -1
 * with the reason in ERR when stdout fails or the document cannot be made. */
int bench_print_json_console(const bench_run_t *run, char *err, size_t errlen);
/* The rtipc-bench/1 text (less its final newline), malloc'd: free() it.
 * NULL with errno set when memory runs out. */
char *bench_json_text(const bench_run_t *run);

/* ---- the audits ---- */
/* The claims (claims.c): run->claims from the run's rows. */
void bench_audit_claims(bench_run_t *run);
/* The performance targets of the experiment being run (perf_targets.c),
 * right after it succeeded: each target's ratio from the experiment's rows,
 * recorded as its "target-ratio" rows and printed as its notes. Nothing for
 * an experiment without targets. */
void bench_audit_perf_targets(bench_run_t *run);

/* ---- the experiment list (experiments/registry.c) ---- */
extern const bench_experiment_t *const bench_experiments[];
extern const size_t bench_experiment_count;
const bench_experiment_t *bench_experiment_find(const char *id);
/* Why @p e cannot run on this target (its code is not compiled here, or the
 * target lacks a feature it requires: "needs two cores, which this target
 * (freertos) lacks"), written into @p buf; NULL when it can run. */
const char *bench_experiment_unavailable(const bench_experiment_t *e, char *buf, size_t len);

#endif
