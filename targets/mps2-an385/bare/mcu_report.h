/* What rtipc's Cortex-M3 firmwares share to record and print their figures
 * (rtipc-mcu-bench on bare metal, rtipc-cm3-freertos-bench on the kernel):
 * experiments with a failure reason, distribution series from the sample
 * buffer, value rows, the human tables and the rtipc-bench/1 JSON
 * (bench/results/console.h). Single-threaded: call it from
 * one task or the main loop only (samples may be taken anywhere, see
 * mcu_sample). Every figure is in instructions unless a row says otherwise. */
#ifndef RTIPC_MCU_REPORT_H
#define RTIPC_MCU_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "console.h"
#include "stats.h"

/* Room for @p samples samples per series. 0, or -1 when memory runs out. */
int mcu_report_init(int samples);
/* Release the statistics and the sample buffer. */
void mcu_report_free(void);

/* "Cortex-M3, QEMU mps2-an385, icount shift=N", from the calibration's
 * instructions per timer count (or the raw figure when no shift fits). */
const char *mcu_env_target(double instr_per_count);

/* Brackets of one experiment: its failure (the first reason wins) and its
 * duration in emulated seconds (deterministic under -icount). */
void mcu_experiment_begin(void);
void mcu_fail(const char *why);
bool mcu_failed(void);
void mcu_experiment_end(const char *id, const char *summary, const char *definitions);

/* Measure an empty stamp pair @p samples times (board_stamp_start then
 * board_stamp_end), keep it as the series (experiment, "board-stamp",
 * "empty", "overhead") in "instr", and make its median the overhead
 * mcu_sample subtracts. Fails the experiment when exact stamps give
 * different values. Returns the series or NULL. */
const bench_stats_t *mcu_measure_stamp_overhead(const char *experiment, int samples);
/* The median cost of an empty stamp pair, subtracted by mcu_sample. */
void mcu_set_overhead(int64_t instr);
int64_t mcu_overhead(void);
/* One sample: @p raw minus the overhead (mcu_sample), or as is. Fails the
 * experiment when the buffer is full. The buffer is plain memory: a handler
 * may push while the task that keeps the series is blocked. */
void mcu_sample(int64_t raw);
void mcu_sample_raw(int64_t value);
/* The samples taken so far become a series (statistics); returns them, or
 * NULL after failing the experiment (no samples, no room). */
const bench_stats_t *mcu_keep(const char *experiment, const char *mechanism, const char *variant,
                              const char *metric, const char *unit);
/* A value row (bytes, counts, rates, ratios). */
void mcu_keep_value(const char *experiment, const char *mechanism, const char *variant, const char *metric,
                    const char *unit, double value);

/* The human tables (series, then value rows) after @p header lines. */
void mcu_print_tables(void);
/* The JSON between its markers. */
void mcu_print_json(const bench_console_env_t *env);
/* Experiments that failed so far. */
int mcu_failures(void);

#endif
