/* Clock provenance: which clock measured a row's figure. A latency in
 * instructions under QEMU -icount and one in TSC nanoseconds share the unit
 * "ns" on some targets and still mean different things, so every timed row
 * names its clock and `compare` refuses to set rows of different clocks side
 * by side unless asked to (--allow-mixed-clocks).
 *
 * Context: any; pure functions over static strings. */
#ifndef BENCH_RESULTS_CLOCK_H
#define BENCH_RESULTS_CLOCK_H

#include <stdbool.h>

/* The host CPU's invariant counter, calibrated to ns (x86 TSC, ARM CNTVCT). */
#define BENCH_CLOCK_HOST_TSC "host-tsc"
/* An operating-system clock (CLOCK_MONOTONIC_RAW, a kernel's tick count). */
#define BENCH_CLOCK_OS "os-clock"
/* A microcontroller's cycle counter on real hardware (DWT CYCCNT, CCOUNT). */
#define BENCH_CLOCK_MCU_CYCLES "mcu-cycles"
/* Instructions retired in an emulator that counts them (QEMU -icount). */
#define BENCH_CLOCK_EMULATED_INSTRUCTIONS "emulated-instructions"
/* An emulator's virtual time without instruction counting. */
#define BENCH_CLOCK_EMULATED_WALL "emulated-wall-clock"

/* True for one of the five names above. */
bool bench_clock_known(const char *name);

/* The provenance of the timestamps of a run whose env.clock_source is
 * @p source (rtipc_cycles_source(): "tsc", "cntvct", "clock_monotonic_raw",
 * "clock_monotonic" (the FreeRTOS simulator), "freertos_tick", ...), for files written before rows named their clock.
 * "" when the source says nothing certain. */
const char *bench_clock_of_source(const char *source);

/* Units whose figures no clock measured (sizes, counts, flags): such rows
 * carry no clock. */
bool bench_clock_free_unit(const char *unit);

#endif
