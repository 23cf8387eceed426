/* What an experiment calls: recording rows and remarks, failing, the sizing
 * options, a seeded pseudo-random stream, time. The harness pieces that
 * experiments share (handoff.h, handoff_rounds.h, throughput.h,
 * watchdog.h) and the mechanisms (mechanisms/) call the same.
 *
 * An experiment is a function that measures, then records what it measured
 * with bench_add_* calls. The driver (run.h) prints the tables, writes
 * JSON/CSV and audits the claims from the recorded rows; experiments never
 * print results themselves. Latencies are recorded in nanoseconds.
 *
 * The run is opaque here: an experiment reads its options and state through
 * these calls only, never the driver's fields. */
#ifndef BENCH_HARNESS_EXPERIMENT_H
#define BENCH_HARNESS_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../results/result.h"
#include "../target/target.h"
#include "rtipc/spin.h"
#include "stats.h"

/* The run an experiment is part of (run.h has its fields). */
typedef struct bench_run bench_run_t;

/* An experiment's entry in the registry (experiments/registry.c); every
 * target lists every experiment. One that cannot run on the target is
 * reported as missing, with the reason (bench_experiment_unavailable), by
 * `list` and `run`. */
typedef struct bench_experiment {
    const char *id;           /* names.h: BENCH_EXP_* */
    const char *summary;      /* one line, for `list` */
    const char *definitions;  /* what each metric spans, for `help ID` */
    int (*run)(bench_run_t *run);  /* 0, or -1 after bench_fail(); NULL when not compiled */
    unsigned requires;        /* BENCH_TARGET_* features it needs (target/target.h) */
    const char *unavailable;  /* set when its code is not compiled for this target: why */
} bench_experiment_t;

/* ---- recording results (from the experiment's own thread) ---- */

/* Compute statistics of @p s (sorted in place) and add a distribution row.
 * Returns the row, or NULL (and a failure message) when s is empty. */
bench_result_t *bench_add_dist(bench_run_t *run, const char *mechanism, const char *variant,
                               const char *metric, bench_samples_t *s);
/* Add a scalar row (rates, bytes, counts, ratios). */
bench_result_t *bench_add_value(bench_run_t *run, const char *mechanism, const char *variant,
                                const char *metric, const char *unit, double value);
/* Spans whose two readings are taken on one core may use the core's own
 * clock, finer than the run's (bench_core_now_ns). True when the run has
 * one; then every row of such spans is labelled with it by
 * bench_row_core_clocked (its `clock` becomes the core clock's provenance). */
bool bench_has_core_clock(const bench_run_t *run);
/* Label @p row (NULL: nothing) as timed by the core clock; nothing without one. */
void bench_row_core_clocked(const bench_run_t *run, bench_result_t *row);
/* Record that a mechanism the experiment names does not exist here, and
 * why. Once per mechanism and experiment: a second call for a mechanism
 * already recorded missing adds nothing. */
void bench_add_missing(bench_run_t *run, const char *mechanism, const char *why);
/* A remark printed under the experiment's tables (and kept in JSON). */
void bench_note(bench_run_t *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Set row @p r's own note (results/result.h: cut to BENCH_NOTE_MAX); when
 * memory runs out the run fails, saying so. */
void bench_row_note(bench_run_t *run, bench_result_t *r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Record why the experiment failed; returns -1 for `return bench_fail(...)`.
 * Only the first reason is kept (later ones are its consequences). */
int bench_fail(bench_run_t *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Put what was being done in front of the recorded reason ("pipe
 * throughput: " + "sent 10 items, received 9"); nothing when none is
 * recorded. */
void bench_fail_prefix(bench_run_t *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* True once the experiment has recorded a failure (bench_fail). */
bool bench_failed(const bench_run_t *run);

/* Progress of the current experiment, 0..1 (shown on a terminal only). */
void bench_progress(bench_run_t *run, double fraction);

/* The id of the experiment being run, "" between experiments. */
const char *bench_experiment_id(const bench_run_t *run);

/* ---- reading results (ratios between rows) ---- */

/* The row matching all given fields (NULL field = any), or NULL; missing
 * rows are never returned. Rows move when rows are added: keep values, not
 * the pointer, across bench_add_* calls. */
const bench_result_t *bench_find(const bench_run_t *run, const char *experiment,
                                 const char *mechanism, const char *variant, const char *metric);
/* The ratio of two rows' p50 (NAN when either is missing or den's p50 is
 * not positive). */
double bench_p50_ratio(const bench_result_t *num, const bench_result_t *den);

/* ---- the options, and sizing from them ---- */

/* True for a --quick run (CI, smoke tests): few samples, short phases. */
bool bench_quick(const bench_run_t *run);
/* True when --samples fixed the sample count: an experiment then obeys it
 * whatever it costs (no time caps, no scaling of its defaults). */
bool bench_samples_fixed(const bench_run_t *run);
/* Samples to record: --samples, else quick or full default. */
size_t bench_sample_count(const bench_run_t *run, size_t full, size_t quick);
/* @p samples, or fewer where the target's heap says how much is free (an
 * MCU late in a run that keeps every row): as many as one @p share-th of
 * the free heap holds at @p bytes each, their warm-up included, never fewer
 * than 100. A cut is noted, naming @p what. */
size_t bench_samples_fit_heap(bench_run_t *run, size_t samples, size_t bytes, unsigned share, const char *what);
/* Warm-up samples: --warmup, else a tenth of @p samples (at least 100). */
size_t bench_warmup_count(const bench_run_t *run, size_t samples);
/* The same with another floor: --warmup, else a tenth of @p samples (at
 * least @p least). */
size_t bench_warmup_count_min(const bench_run_t *run, size_t samples, size_t least);
/* Seconds for a timed phase: --duration, else quick or full default. */
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
/* The tick rate in force during the run, Hz (env.tick_hz). */
uint32_t bench_tick_hz(const bench_run_t *run);
/* The median cost of one timestamp measured at start-up, ns
 * (env.timestamp_overhead_ns). */
double bench_timestamp_overhead_ns(const bench_run_t *run);

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
/* Now on the calling core's own clock where the run has one
 * (bench_target_core_now_ns), else bench_now_ns(): only for spans whose two
 * readings are taken on one core, with rows labelled bench_row_core_clocked. */
int64_t bench_core_now_ns(void);
/* Spin until bench_now_ns() >= t (the caller keeps its core). */
void bench_spin_until(int64_t t);
/* A pause in a spinning wait is rtipc_cpu_relax (rtipc/spin.h). */
/* Sleep at least @p ns nanoseconds: bench_target_sleep_ns. Linux:
 * nanosleep, no rtipc call, so a task that sleeps this way releases nothing
 * rtipc defers to its next call. FreeRTOS: vTaskDelay (whole ticks; the
 * kernel must run others), which a native task may call too. */
void bench_sleep_ns(int64_t ns);
/* Block in the kernel's delay, as a published program's task sleeps:
 * bench_target_delay_ns (rtipc_task_delay on Linux, vTaskDelay on
 * FreeRTOS, in rtipc's and native tasks alike). */
void bench_delay_ns(int64_t ns);
/* How much longer than asked a sleep (bench_sleep_ns, bench_delay_ns) may
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

#endif
