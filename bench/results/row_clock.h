/* Which clock measured a results row. A latency in emulated instructions and
 * one in TSC nanoseconds are different quantities, so every timed row names
 * its clock (the provenance names of target/clock.h) and `compare` refuses
 * rows of different clocks side by side unless asked (--allow-mixed-clocks).
 *
 * Context: any; pure functions over static strings. */
#ifndef BENCH_RESULTS_ROW_CLOCK_H
#define BENCH_RESULTS_ROW_CLOCK_H

#include <stdbool.h>

#include "../target/clock.h"

/* True for one of the provenance names ("host-tsc", "os-clock", ...). */
bool bench_row_clock_known(const char *name);

/* The provenance of the timestamps of a file written before rows named their
 * clock, from its env.clock_source ("tsc", "cntvct", "clock_monotonic_raw",
 * "clock_monotonic" of the FreeRTOS simulator, "freertos_tick"), or "" when
 * the source says nothing certain (a board's counter may be real or
 * emulated). */
const char *bench_row_clock_of_source(const char *source);

/* Units whose figures no clock measured (sizes, counts, flags): rows in them
 * carry no clock. */
bool bench_row_clock_free_unit(const char *unit);

#endif
