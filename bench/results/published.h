/* The figures the published field reports give (docs/experiments.md, "The
 * published figures"), as references shown beside the row that measures
 * the same thing: the run's console tables and the HTML report print them,
 * labelled with the report, the board and the method. They are never
 * written into a results file and never enter a claim's verdict: a figure
 * from a board timed another way is context, not a measurement of this
 * run. */
#ifndef BENCH_RESULTS_PUBLISHED_H
#define BENCH_RESULTS_PUBLISHED_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const char *experiment, *mechanism, *variant, *metric;  /* the row it stands beside */
    const char *board;   /* "ESP32-WROOM-32E", "ESP32-S3, queue in PSRAM" */
    const char *figure;  /* as published: "2.8 us +-0.6", "about 0.4 us" */
    const char *source;  /* report, and what and how it timed */
} bench_published_t;

/* The references of the row named by the four strings, up to @p cap of
 * them into @p out; returns how many there are. A reference names the
 * FreeRTOS kernel's (or ESP-IDF's) object the reports timed; in a run
 * without kernel rows (@p kernel_run false: Linux, where rtipc implements
 * the objects) it stands beside rtipc's object of the same kind instead. */
size_t bench_published_for(const char *experiment, const char *mechanism, const char *variant, const char *metric,
                           bool kernel_run, const bench_published_t **out, size_t cap);

/* "published (board): figure, source" for reference @p p into buf. */
const char *bench_published_text(const bench_published_t *p, char *buf, size_t n);

#endif
