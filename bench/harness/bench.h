/* rtipc-bench harness: options, the run, results, experiments.
 *
 * An experiment is a function that measures, then records what it measured
 * with bench_add_* calls. The harness prints the tables, writes JSON/CSV and
 * audits the claims from the recorded results; experiments never print
 * results themselves. Latencies are recorded in nanoseconds. */
#ifndef BENCH_H
#define BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "env.h"
#include "stats.h"

/* Command-line options an experiment may read. Zero means "the experiment's
 * default" for the numeric ones. */
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

typedef struct bench_experiment bench_experiment_t;

/* How one experiment went. */
typedef struct {
    const bench_experiment_t *experiment;
    int failed;              /* 1 when it failed (its rows may be partial) */
    char failure[256];       /* why */
    char notes[2048];        /* its remarks */
    double seconds;          /* wall time it took */
} bench_outcome_t;

/* Verdict of one audited claim. */
typedef enum { CLAIM_HOLDS, CLAIM_DOES_NOT_HOLD, CLAIM_NOT_TESTABLE } bench_verdict_t;
typedef struct {
    int id;
    const char *claim;       /* the claim, as docs/experiments.md states it */
    const char *rule;        /* how the verdict is computed */
    bench_verdict_t verdict;
    char evidence[512];      /* the figures behind it */
} bench_claim_t;

#define BENCH_MAX_EXPERIMENTS 32
#define BENCH_CLAIMS 9

typedef struct {
    bench_opts_t opts;
    bench_env_t env;
    bench_result_t *results;
    size_t n_results, cap_results;
    const bench_experiment_t *current;  /* experiment being run */
    const char *clock;                  /* provenance of this run's timestamps
                                           (results/row_clock.h), given to each timed row */
    char failure[256];                  /* why the current experiment failed */
    char notes[2048];                   /* remarks printed under its tables */
    bench_outcome_t outcomes[BENCH_MAX_EXPERIMENTS];
    size_t n_outcomes;
    bench_claim_t claims[BENCH_CLAIMS];
} bench_run_t;

/* An experiment's entry in the registry; every target lists every
 * experiment. One that cannot run on the target is reported as missing,
 * with the reason (bench_experiment_unavailable), by `list` and `run`. */
struct bench_experiment {
    const char *id;
    const char *summary;      /* one line, for `list` */
    const char *definitions;  /* what each metric spans, for `help ID` */
    int (*run)(bench_run_t *run);  /* 0, or -1 after bench_fail(); NULL when not compiled */
    unsigned requires;        /* BENCH_TARGET_* features it needs (target/target.h) */
    const char *unavailable;  /* set when its code is not compiled for this target: why */
};

/* ---- recording results (from the experiment's own thread) ---- */

/* Compute statistics of @p s (sorted in place) and add a distribution row.
 * Returns the row, or NULL (and a failure message) when s is empty. */
bench_result_t *bench_add_dist(bench_run_t *run, const char *mechanism, const char *variant,
                               const char *metric, bench_samples_t *s);
/* Add a scalar row (rates, bytes, counts, ratios). */
bench_result_t *bench_add_value(bench_run_t *run, const char *mechanism, const char *variant,
                                const char *metric, const char *unit, double value);
/* Record that a mechanism the experiment names does not exist here. */
void bench_add_missing(bench_run_t *run, const char *mechanism, const char *why);
/* A remark printed under the experiment's tables (and kept in JSON). */
void bench_note(bench_run_t *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Record why the experiment failed; returns -1 for `return bench_fail(...)`. */
int bench_fail(bench_run_t *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Whether the current experiment has failed (bench_fail was called). */
bool bench_failed(const bench_run_t *run);

/* Progress of the current experiment, 0..1 (shown on a terminal only). */
void bench_progress(bench_run_t *run, double fraction);

/* ---- reading results (claim audit, ratios) ---- */

/* The row matching all given fields (NULL field = any), or NULL. */
const bench_result_t *bench_find(const bench_run_t *run, const char *experiment,
                                 const char *mechanism, const char *variant, const char *metric);

/* ---- sizing helpers ---- */

/* Samples to record: opts.samples, else quick or full default. */
size_t bench_sample_count(const bench_run_t *run, size_t full, size_t quick);
/* Warm-up samples: opts.warmup, else a tenth of @p samples (at least 100). */
size_t bench_warmup_count(const bench_run_t *run, size_t samples);
/* Seconds for a timed phase: opts.duration_s, else quick or full default. */
double bench_duration(const bench_run_t *run, double full, double quick);
/* CPU id of logical core 0 or 1. */
int bench_cpu(const bench_run_t *run, int logical_core);
/* True when logical cores 0 and 1 are different CPUs. On one core (a
 * one-CPU host, FreeRTOS's POSIX simulator) "core 1" tasks share core 0,
 * and rows named cross-core are not measured or are named same-core. */
bool bench_two_cores(const bench_run_t *run);
/* "cross-core" with two cores, else "same-core": the variant of a row whose
 * sender runs on logical core 1 and receiver on logical core 0 (or the
 * reverse). */
const char *bench_core_variant(const bench_run_t *run);

/* A deterministic pseudo-random stream (xorshift64*), seeded from --seed. */
typedef struct { uint64_t s; } bench_rng_t;
void bench_rng_init(bench_rng_t *r, const bench_run_t *run, uint64_t stream);
uint64_t bench_rng_next(bench_rng_t *r);
/* Uniform in [lo, hi]. */
int64_t bench_rng_range(bench_rng_t *r, int64_t lo, int64_t hi);

/* ---- time (the target's: target/target.h says what each target does) ---- */
/* Nanoseconds (or instructions, where the target's clock counts them) from
 * the target's clock, bench_target_now_ns(). */
int64_t bench_now_ns(void);
/* Spin until bench_now_ns() >= t (the caller keeps its core). */
void bench_spin_until(int64_t t);
/* Sleep at least @p ns nanoseconds: bench_target_sleep_ns. Linux:
 * nanosleep, no rtipc call, so a task that sleeps this way releases nothing
 * rtipc defers to its next call. FreeRTOS: rtipc_task_delay (whole ticks;
 * the kernel must run others). */
void bench_sleep_ns(int64_t ns);
/* How much longer than asked a sleep (bench_sleep_ns, rtipc_task_delay) may
 * last by design: bench_target_sleep_overshoot_ns, 0 on Linux
 * (high-resolution timers), two tick periods on FreeRTOS (delays are whole
 * ticks, rounded up). Code that sleeps, then spins to a deadline, sleeps
 * this much less. */
int64_t bench_sleep_overshoot_ns(void);
/* Sleep (without spinning) until bench_now_ns() >= t; on FreeRTOS it may
 * wake up to two ticks late. */
void bench_sleep_until(int64_t t);
/* Sleep through most of the wait until @p t, then spin the last 100 us (plus
 * the overshoot): a deadline met to the spin's precision. */
void bench_sleep_then_spin_until(int64_t t);
/* CPU time the calling thread has used, in nanoseconds
 * (bench_target_thread_cpu_ns; -1 where the target cannot tell). */
int64_t bench_thread_cpu_ns(void);
/* Context switches of the calling thread so far, voluntary + involuntary
 * (0 when the kernel does not say). */
long bench_thread_switches(void);

/* ---- output (report.c) ---- */
void bench_print_experiment(FILE *out, const bench_run_t *run, const bench_outcome_t *oc);
void bench_print_env(FILE *out, const bench_env_t *env);
/* The target's memory figures of env->memory (after the run), one line. */
void bench_print_memory(FILE *out, const bench_env_t *env);
void bench_print_claims(FILE *out, const bench_run_t *run);
/* The run in the rtipc-bench/1 schema into PATH through the target's sink
 * (bench_target_output): a file written whole or not at all
 * (results/outfile.h), or the console on a target without files. 0, or -1
 * with the reason in ERR ("cannot write PATH: No space left on device"). */
int bench_write_json(const bench_run_t *run, const char *path, char *err, size_t errlen);
/* The text bench_write_json writes (less its final newline), malloc'd: free()
 * it. NULL with errno set when memory runs out. */
char *bench_json_text(const bench_run_t *run);
/* One CSV line per result into PATH, as bench_write_json writes. */
int bench_write_csv(const bench_run_t *run, const char *path, char *err, size_t errlen);

/* ---- the claim audit (claims.c) ---- */
void bench_audit_claims(bench_run_t *run);
const char *bench_verdict_name(bench_verdict_t v);

/* ---- the experiment list ---- */
extern const bench_experiment_t *const bench_experiments[];
extern const size_t bench_experiment_count;
const bench_experiment_t *bench_experiment_find(const char *id);
/* Why @p e cannot run on this target (its code is not compiled here, or the
 * target lacks a feature it requires: "needs two cores, which this target
 * (freertos) lacks"), written into @p buf; NULL when it can run. */
const char *bench_experiment_unavailable(const bench_experiment_t *e, char *buf, size_t len);

#endif
