/**
 * @file time.h
 * @brief Clocks and timeouts.
 *
 * Two clocks: rtipc_time_ns() is CLOCK_MONOTONIC in nanoseconds (the clock all
 * timeouts are measured against); rtipc_cycles() is the cheapest monotonic
 * counter of the machine (the TSC on x86-64, the virtual counter on AArch64,
 * CLOCK_MONOTONIC_RAW elsewhere), converted with rtipc_cycles_to_ns() after a
 * calibration against CLOCK_MONOTONIC_RAW.
 */
#ifndef RTIPC_TIME_H
#define RTIPC_TIME_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * A timeout: RTIPC_NO_WAIT, RTIPC_FOREVER or a finite duration.
 * A struct so that a timeout cannot be confused with a count or a length.
 *
 * A blocking call measures its timeout on CLOCK_MONOTONIC from its entry and
 * returns only when it has completed, when the whole timeout has elapsed
 * (RTIPC_ETIMEDOUT), or not at all when its task is deleted. A signal
 * delivered to the waiting thread, with or without SA_RESTART, neither ends
 * nor shortens the wait. A duration whose end does not fit in int64
 * nanoseconds (up to INT64_MAX) waits without end, as RTIPC_FOREVER does.
 */
typedef struct {
    int64_t ns; /**< 0 = no wait, negative = forever, else nanoseconds */
} rtipc_timeout_t;

/** Never block: fail with RTIPC_EWOULDBLOCK instead. */
#define RTIPC_NO_WAIT ((rtipc_timeout_t){0})
/** Block until the operation completes. */
#define RTIPC_FOREVER ((rtipc_timeout_t){-1})

/** A finite timeout of @p ns nanoseconds (0 means RTIPC_NO_WAIT). */
static inline rtipc_timeout_t rtipc_ns(int64_t ns)
{
    rtipc_timeout_t t = {ns < 0 ? 0 : ns};
    return t;
}
/** A finite timeout of @p us microseconds. */
static inline rtipc_timeout_t rtipc_us(uint32_t us) { return rtipc_ns((int64_t)us * 1000); }
/** A finite timeout of @p ms milliseconds. */
static inline rtipc_timeout_t rtipc_ms(uint32_t ms) { return rtipc_ns((int64_t)ms * 1000000); }
/** True when @p t is RTIPC_FOREVER. */
static inline bool rtipc_timeout_is_forever(rtipc_timeout_t t) { return t.ns < 0; }
/** True when @p t is RTIPC_NO_WAIT. */
static inline bool rtipc_timeout_is_no_wait(rtipc_timeout_t t) { return t.ns == 0; }

/**
 * CLOCK_MONOTONIC in nanoseconds.
 * Context: any. Never blocks. Thread-safe.
 * Port notes: FreeRTOS: tick resolution (the kernel's tick count times the
 * period), counted from the scheduler's start, so 0 until the first tick.
 */
int64_t rtipc_time_ns(void);

/**
 * Read the cycle counter (serialised so that earlier instructions retire
 * first). Comparable across cores only where the hardware counter is
 * invariant and synchronised (rtipc_cycles_source() names the counter).
 * Context: any. Never blocks. Thread-safe.
 */
uint64_t rtipc_cycles(void);

/**
 * Convert a cycle-counter difference to nanoseconds (saturating at
 * INT64_MAX for differences too large to represent).
 * Calibrates on first use (about 20 ms, once per process).
 * Context: task (first call), any afterwards. Thread-safe.
 */
int64_t rtipc_cycles_to_ns(uint64_t cycles);

/**
 * Counter frequency in Hz (calibrated on first use as above).
 * Context: task (first call), any afterwards. Thread-safe.
 */
double rtipc_cycles_hz(void);

/**
 * Name of the counter behind rtipc_cycles(): "tsc", "cntvct" or
 * "clock_monotonic_raw".
 * Context: any. Never blocks. Thread-safe.
 * Port notes: FreeRTOS: rtipcCONFIG_CYCLES_NAME ("application" when the
 * board's FreeRTOSConfig.h names no counter), or "freertos_tick".
 */
const char *rtipc_cycles_source(void);

#ifdef __cplusplus
}
#endif
#endif
