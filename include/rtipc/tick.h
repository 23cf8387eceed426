/**
 * @file tick.h
 * @brief The tick: a periodic time base (default 1000 Hz), tick count,
 *        delay-until, and the moment deferred wake-ups are released.
 *
 * Ticks are boundaries of a fixed grid over CLOCK_MONOTONIC, counted from the
 * first use of the tick. Nothing runs on a tick unless something waits for it
 * (a task readied by a handler that did not yield, see irq.h), so an idle
 * process pays nothing for the tick.
 *
 * Range: the tick count is an unsigned 64-bit number that wraps (after 5.8
 * million years at the highest rate). A rate change starts a new grid at the
 * tick that is running, so no tick count is ever multiplied by a period:
 * whatever rates follow each other and however long the process ran, the
 * count stays continuous and no computation overflows. A tick whose time lies
 * beyond INT64_MAX nanoseconds of CLOCK_MONOTONIC (292 years after boot) is
 * "never": delay-until sleeps until deleted, and a deferred wake-up waiting
 * for it is released only by a rescheduling call (irq.h).
 */
#ifndef RTIPC_TICK_H
#define RTIPC_TICK_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Default tick rate in Hz (FreeRTOS configTICK_RATE_HZ). */
#define RTIPC_TICK_HZ_DEFAULT 1000u

/**
 * Set the tick rate. The tick count stays continuous across a change: the
 * tick running at the call continues, and from now on every tick lasts the
 * new period (also after a long run at a high rate: no overflow, see above).
 * Context: task only. Never blocks.
 * @retval 0 set. @retval RTIPC_EINVAL hz is 0 or above 100000.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * Port notes: FreeRTOS accepts only configTICK_RATE_HZ (RTIPC_ENOTSUP
 * otherwise); bare metal has no tick.
 */
int rtipc_tick_set_rate(uint32_t hz);

/** The tick rate in Hz. Context: any. Never blocks. */
uint32_t rtipc_tick_rate(void);

/** The tick period in nanoseconds. Context: any. Never blocks. */
int64_t rtipc_tick_period_ns(void);

/** Ticks since the tick started (starts on first use). Context: any. */
uint64_t rtipc_tick_count(void);

/**
 * Sleep until tick *previous_wake + increment, then store that tick in
 * *previous_wake (FreeRTOS xTaskDelayUntil): a periodic task without drift.
 * If that tick has already passed, returns at once and sets *missed;
 * *previous_wake still advances by exactly @p increment, so a task that was
 * late catches up one period per call without skipping a wake tick.
 * The tick number is unsigned and wraps; a wake tick from before the last
 * rate change has passed (returns at once, *missed set); a wake tick too far
 * away for its time to fit in int64 nanoseconds is never reached (the task
 * sleeps until it is deleted). A deletion point.
 * Context: task only. Blocking: until the tick.
 * @param missed optional; set to whether the wake tick had already passed.
 * @retval 0 done. @retval RTIPC_EINVAL previous_wake NULL or increment 0.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted.
 */
int rtipc_task_delay_until(uint64_t *previous_wake, uint32_t increment, bool *missed);

#ifdef __cplusplus
}
#endif
#endif
