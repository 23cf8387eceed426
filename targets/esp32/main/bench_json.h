/* rtipc-bench/1 JSON for the ESP-IDF suite (docs/json-schema.md), in portable
 * C (stdio only) so that a host test can check what the board would print
 * (tests/bench/esp32_bench_json.sh). Statistics are bench/harness/stats.c's.
 * The bare-metal Cortex-M3 bench (targets/mps2-an385/bare, docs/mcu.md) prints its JSON with it
 * too, through the optional env fields and the unit-taking calls. */
#ifndef ESP32_BENCH_JSON_H
#define ESP32_BENCH_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include "stats.h"

#define EBJ_BEGIN_MARKER "==== rtipc-bench/1 JSON begin ===="
#define EBJ_END_MARKER "==== rtipc-bench/1 JSON end ===="

typedef struct {
    const char *chip;             /* e.g. "esp32s3 rev 0" */
    int cores;
    int cpu_mhz;
    const char *idf_version;
    const char *freertos_version;
    const char *rtipc_version;
    const char *compiler;
    const char *cflags;           /* optimisation level of the build */
    const char *started_utc;      /* ISO 8601 (the device's clock) */
    int tick_hz;
    double timestamp_overhead_ns; /* median of back-to-back counter reads */
    int samples;                  /* samples per series (Kconfig) */
    /* Optional, for other targets: NULL (or 0) keeps the ESP-IDF value. */
    const char *platform;         /* names the target in the claims' texts ("ESP-IDF") */
    const char *kernel;           /* "FreeRTOS <version> (ESP-IDF <version>)" */
    const char *hostname;         /* "esp-idf" */
    const char *sched_detail;     /* FreeRTOS fixed-priority preemptive ... */
    const char *priorities;       /* the FreeRTOS priorities of the suite */
    const char *clock_source;     /* "ccount" */
    double clock_hz;              /* cpu_mhz x 1e6 */
    double clock_resolution_ns;   /* 1000 / cpu_mhz */
    const char *git_commit;       /* "unknown" */
} ebj_env_t;

typedef struct {
    const char *id;
    const char *summary;
    const char *definitions;
    bool ok;
    const char *failure;          /* when !ok */
    double seconds;
} ebj_experiment_t;

typedef struct {
    FILE *out;
    int rows;
    const char *platform;
} ebj_t;

/* Print the begin marker, the schema and env, and open "results". */
void ebj_begin(ebj_t *w, FILE *out, const ebj_env_t *env);
/* One distribution row from statistics taken by bench_stats_compute. */
void ebj_dist_stats(ebj_t *w, const char *experiment, const char *mechanism, const char *variant,
                    const char *metric, const bench_stats_t *st);
/* The same in another unit than "ns" (e.g. "instr" on the bare-metal bench). */
void ebj_dist_stats_unit(ebj_t *w, const char *experiment, const char *mechanism, const char *variant,
                         const char *metric, const char *unit, const bench_stats_t *st);
/* A value row (bytes, counts...): "value" and no distribution. */
void ebj_value(ebj_t *w, const char *experiment, const char *mechanism, const char *variant, const char *metric,
               const char *unit, double value);
/* The same from the samples (ns; sorted in place). 0, or -1 when there are
 * no samples or no memory (nothing printed). */
int ebj_dist(ebj_t *w, const char *experiment, const char *mechanism, const char *variant, const char *metric,
             bench_samples_t *samples);
/* Close "results", print the experiments, the 9 claims (not testable on
 * this suite) and the end marker. */
void ebj_end(ebj_t *w, const ebj_experiment_t *experiments, int count);

#endif
