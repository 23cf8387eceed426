/* The digital lines of a capture, as rtipc-bench scope reads them from any
 * instrument's file: per line its name, its level at the capture's start and
 * the sample index of each change, on one sample clock for all lines.
 *
 * Times are whole sample indices (the instrument's own clock), so that a
 * latency between two lines is exact to the sample; the rate (samples per
 * second) turns them into seconds only when a row is written. A file that
 * gives times in seconds without a rate is read on a clock the reader
 * chooses and says so (rate_known false). */
#ifndef BENCH_HOST_SCOPE_LINES_H
#define BENCH_HOST_SCOPE_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    char *name;
    int initial;      /* level at the first sample: 0, 1, or -1 unknown until the first change */
    int64_t *at;      /* sample index of each change, increasing */
    uint8_t *level;   /* the level from that sample on */
    size_t n, cap;
} scope_line_t;

typedef struct {
    scope_line_t *lines;
    size_t n, cap;
    double rate_hz;        /* samples per second (> 0) */
    bool rate_known;       /* the file (or --sample-rate) gave it */
    int64_t first, last;   /* the capture's first and last sample */
    size_t gaps;           /* stretches without data inside the capture (Saleae chunks):
                              a change of level in one is seen where the data resumes */
    char format[32];       /* "vcd", "sigrok", "saleae-csv", "saleae-binary-v0", ... */
    char instrument[128];  /* what the file says made it, or "unknown" */
} scope_lines_t;

void scope_lines_init(scope_lines_t *c);
void scope_lines_free(scope_lines_t *c);

/* A new line named @p name (copied): its index, or -1 when memory runs out. */
int scope_lines_add(scope_lines_t *c, const char *name);

/* Line @p index takes @p level (0 or 1) from sample @p at on. The first call
 * on a line before any change only sets its initial level when @p at is the
 * capture's first sample. A level equal to the current one adds nothing.
 * 0, -1 when memory runs out, -2 when @p at is before the line's last change
 * (a file out of order). */
int scope_lines_set(scope_lines_t *c, int index, int64_t at, int level);

/* The line named @p spec, or numbered so (its 0-based index in the file's
 * order, or a name that is a number): its index, or -1. */
int scope_lines_find(const scope_lines_t *c, const char *spec);

/* Removes the pulses of line @p index shorter than @p min_samples (both
 * edges of each): a glitch filter. Returns the pulses removed. */
size_t scope_lines_deglitch(scope_lines_t *c, int index, int64_t min_samples);

/* The level line @p index rests at: the one it spends most of the capture
 * in (0 or 1), or -1 when it never changes and its level is unknown. */
int scope_lines_idle(const scope_lines_t *c, int index);

#endif
