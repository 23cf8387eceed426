/* rtipc-bench/1 JSON for the ESP-IDF suite (docs/json-schema.md), in portable
 * C (stdio only) so that a host test can check what the board would print
 * (tests/bench/esp32_bench_json.sh). Statistics are bench/harness/stats.c's. */
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
} ebj_t;

/* Print the begin marker, the schema and env, and open "results". */
void ebj_begin(ebj_t *w, FILE *out, const ebj_env_t *env);
/* One distribution row from statistics taken by bench_stats_compute. */
void ebj_dist_stats(ebj_t *w, const char *experiment, const char *mechanism, const char *variant,
                    const char *metric, const bench_stats_t *st);
/* The same from the samples (ns; sorted in place). 0, or -1 when there are
 * no samples or no memory (nothing printed). */
int ebj_dist(ebj_t *w, const char *experiment, const char *mechanism, const char *variant, const char *metric,
             bench_samples_t *samples);
/* Close "results", print the experiments, the 9 claims (not testable on
 * this suite) and the end marker. */
void ebj_end(ebj_t *w, const ebj_experiment_t *experiments, int count);

#endif
