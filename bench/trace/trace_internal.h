/* Shared by the recorder and its writers (not for experiments). */
#ifndef BENCH_TRACE_INTERNAL_H
#define BENCH_TRACE_INTERNAL_H

#include <stdio.h>

#include "trace.h"

#define BENCH_TRACE_MAX_ROWS 128

typedef struct {
    char experiment[32], mechanism[48], variant[64];
    uint32_t traced;   /* messages traced so far (over all its rounds) */
} bench_trace_row_t;

/* The stored events, in slot order (not time order), and the row table. */
const bench_trace_event_t *bench_trace_events(size_t *n);
const bench_trace_row_t *bench_trace_rows(size_t *n);

/* The stored events' slot numbers ordered by @p rebased: by (row, time) when
 * false; by (time since the row's first event, row) when true. Equal keys
 * keep slot order (one thread's events stay in the order it made them).
 * @p row_start (BENCH_TRACE_MAX_ROWS entries) gets each row's first time.
 * Malloc'd; NULL when out of memory (errno set). */
uint32_t *bench_trace_order(bool rebased, int64_t *row_start, size_t *n);

/* Names used by both writers. */
const char *bench_trace_task_name(unsigned task);

#endif
