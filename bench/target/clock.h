/* What a run's timestamps are: the description every target gives of the
 * clock behind bench_target_now_ns() (target.h), recorded in the run's
 * environment, and the stable names of where such a clock comes from, which
 * results files carry so that figures from different clocks are not
 * compared as if they were alike. */
#ifndef BENCH_TARGET_CLOCK_H
#define BENCH_TARGET_CLOCK_H

/* Where the counts of a timestamp come from. The names (bench_clock_
 * provenance_name) are part of the results format: never rename one. */
typedef enum {
    BENCH_CLOCK_HOST_TSC,               /* "host-tsc": a host's cycle counter (TSC, CNTVCT),
                                           calibrated against the OS clock */
    BENCH_CLOCK_OS,                     /* "os-clock": clock_gettime, or a kernel's tick count */
    BENCH_CLOCK_MCU_CYCLES,             /* "mcu-cycles": a microcontroller's cycle counter
                                           (DWT CYCCNT, CCOUNT) at its known clock */
    BENCH_CLOCK_EMULATED_INSTRUCTIONS,  /* "emulated-instructions": an emulator counting
                                           instructions (QEMU -icount: 1 instruction = 1 ns
                                           of virtual time) */
    BENCH_CLOCK_EMULATED_WALL,          /* "emulated-wall-clock": an emulator's clock that
                                           follows the host's time, not the instructions */
    BENCH_CLOCK_EMULATED_CORE_CYCLES,   /* "emulated-core-cycles": an emulated core's own
                                           cycle counter (a hart's mcycle), read on that core
                                           only; QEMU without -icount derives it from the
                                           host's cycle counter, so it too follows the host's
                                           time, at a finer grain than the shared clock */
    BENCH_CLOCK_LOGIC_ANALYZER,         /* "logic-analyzer": edges of a board's signal lines
                                           sampled by an instrument (logic analyzer,
                                           oscilloscope) at its own sample rate, the board's
                                           clock out of the loop (rtipc-bench scope) */
} bench_clock_provenance_t;

/* Number of provenances (the enum's values are 0 .. this - 1). */
#define BENCH_CLOCK_PROVENANCES 7

/* The stable name of @p p ("host-tsc", "os-clock", "mcu-cycles",
 * "emulated-instructions", "emulated-wall-clock", "emulated-core-cycles",
 * "logic-analyzer"), or NULL for a value out of the enum. Context: any.
 * Never blocks. */
const char *bench_clock_provenance_name(bench_clock_provenance_t p);

/* The provenance named @p name (exactly one of the names above): 0 and *out
 * set, or -1 (and *out untouched) for any other string or NULL.
 * Context: any. Never blocks. */
int bench_clock_provenance_parse(const char *name, bench_clock_provenance_t *out);

/* The unit a clock of provenance @p p measures in: "instr" for emulated
 * instructions (one counts as 1 ns of virtual time), "ns" for the others. */
const char *bench_clock_provenance_unit(bench_clock_provenance_t p);

/* A clock as a target describes it. */
typedef struct {
    char name[96];                       /* what is read: "tsc", "clock_monotonic_raw",
                                            "freertos_tick", a board's counter ... */
    char unit[8];                        /* "ns" or "instr" (bench_clock_provenance_unit) */
    bench_clock_provenance_t provenance;
    double resolution;                   /* smallest step between two readings, in unit */
    double rate_hz;                      /* counts per second of the source (per virtual
                                            second for an emulated one) */
} bench_clock_t;

#endif
