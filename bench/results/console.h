/* rtipc-bench/1 on a firmware's console, for a firmware that keeps no run
 * model (the bare-metal Cortex-M3 firmware; those that run rtipc-bench's
 * command line print through target/console_sink.h): the document between
 * two marker lines on a console that also carries other output
 * (docs/porting.md says how to cut it out). It is document.h in the order
 * such a firmware knows things: env first, rows as they finish, the
 * experiments at the end. Nothing here allocates but
 * bench_console_samples (statistics need their histogram); stdio only, so a
 * host test checks exactly what a board prints (tests/bench). */
#ifndef BENCH_RESULTS_CONSOLE_H
#define BENCH_RESULTS_CONSOLE_H

#include <stdbool.h>
#include <stdio.h>

#include "../harness/stats.h"
#include "row_clock.h"
#include "document.h"

/* What a firmware knows of where it runs. NULL or 0 fields get the ESP-IDF
 * wording shown beside them. */
typedef struct {
    const char *chip;             /* e.g. "esp32s3 rev v0.2" */
    int cores;
    int cpu_mhz;
    const char *idf_version;      /* kept in env when not NULL */
    const char *freertos_version; /* kept in env when not NULL */
    const char *rtipc_version;
    const char *compiler;
    const char *cflags;           /* optimisation level of the build */
    const char *started_utc;      /* ISO 8601 (the device's clock) */
    int tick_hz;
    double timestamp_overhead_ns; /* median of back-to-back counter reads */
    int samples;                  /* samples per series; < 1000 is a quick run */
    const char *platform;         /* the suite, in the claims' rule ("the ESP-IDF suite") */
    const char *kernel;           /* "FreeRTOS <version> (ESP-IDF <version>)" */
    const char *hostname;         /* "esp-idf" */
    const char *sched_detail;     /* "FreeRTOS fixed-priority preemptive, N core(s)" */
    const char *priorities;       /* the FreeRTOS priorities of the suite */
    const char *clock_source;     /* "ccount" */
    double clock_hz;              /* cpu_mhz x 1e6 */
    double clock_resolution_ns;   /* 1000 / cpu_mhz */
    const char *git_commit;       /* "unknown" */
    bench_clock_provenance_t clock; /* the counter's provenance (target/clock.h): every
                                       timed row names it; set it, 0 is host-tsc */
    const char *target;           /* env.target: "esp-idf", "freertos", "bare" */
    bench_memory_t memory;        /* figures after the run ({0} is "none") */
} bench_console_env_t;

typedef struct {
    bench_jw_t w;
    FILE *out;
    const char *platform;
    const char *clock;
} bench_console_t;

/* The begin marker, the schema and env; opens "results". */
void bench_console_begin(bench_console_t *c, FILE *out, const bench_console_env_t *env);
/* One distribution row (statistics from bench_stats_compute) in @p unit. */
void bench_console_dist(bench_console_t *c, const char *experiment, const char *mechanism, const char *variant,
                        const char *metric, const char *unit, const bench_stats_t *st);
/* The same from samples in ns (sorted in place). 0, or -1 when there are no
 * samples or no memory (nothing printed). */
int bench_console_samples(bench_console_t *c, const char *experiment, const char *mechanism, const char *variant,
                          const char *metric, bench_samples_t *samples);
/* A value row (bytes, counts, ratios). */
void bench_console_value(bench_console_t *c, const char *experiment, const char *mechanism, const char *variant,
                         const char *metric, const char *unit, double value);
/* Closes "results", prints the experiments, the nine claims as
 * not-testable (the host's `rtipc-bench audit` gives verdicts) and the end
 * marker. Returns 0, or -1 when the console refused output. */
int bench_console_end(bench_console_t *c, const bench_doc_experiment_t *experiments, int count);

#endif
