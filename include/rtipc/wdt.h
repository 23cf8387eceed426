/**
 * @file wdt.h
 * @brief Task watchdog (ESP-IDF's TWDT semantics).
 *
 * Once started, the watchdog trips when, for a whole timeout:
 * - a core's idle task (one per core, lowest priority, pinned) could not run,
 *   i.e. higher-priority work starved the core; or
 * - a task that subscribed (rtipc_wdt_add) did not call rtipc_wdt_reset.
 * A task blocked forever that never subscribed does not trip it.
 *
 * Each trip is reported once per timeout period that passes without the
 * idle task running or the subscriber resetting: the trip callback runs (in
 * interrupt context on the checking core), the trip counter grows and, if
 * configured, the process aborts. The default callback prints a line to stderr.
 *
 * The checks run in an interrupt handler on core 0 every timeout/4. The idle
 * check needs SCHED_FIFO (rtipc_sched_policy()): under the SCHED_OTHER
 * fallback the kernel shares a core fairly, so starvation cannot be seen.
 *
 * Port notes: FreeRTOS: the checks run in rtipc's monitor task at
 * configMAX_PRIORITIES - 1 on core 0, on the tick clock (a trip needs the
 * timeout rounded up to whole ticks plus one tick of silence); the idle tasks
 * are rtipc tasks of priority 0 ("rtipc-IDLE<core>"), not the kernel's.
 * ESP-IDF (CONFIG_ESP_TASK_WDT_EN): every call maps onto the Task Watchdog
 * Timer (esp_task_wdt_*), whose own idle-task subscriptions and interrupt
 * do the checking; rtipc defines its user hook esp_task_wdt_isr_user_handler.
 * docs/porting.md, "The task watchdog".
 */
#ifndef RTIPC_WDT_H
#define RTIPC_WDT_H

#include <stdbool.h>
#include <stdint.h>

#include "rtipc/task.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Default timeout: 5 s, as ESP-IDF's CONFIG_ESP_TASK_WDT_TIMEOUT_S. */
#define RTIPC_WDT_TIMEOUT_NS_DEFAULT 5000000000LL

/** What tripped the watchdog. */
typedef struct {
    rtipc_task_t *task;   /**< the silent subscriber, or NULL for an idle check (and,
                               ESP-IDF only, a task that subscribed through
                               esp_task_wdt_add itself) */
    const char *name;     /**< its name, or "IDLE<core>" */
    int core;             /**< the starved core (idle check), or the task's core;
                               -1 for a task subscribed through esp_task_wdt_add */
    /** Time since the last reset / idle run.
     *  Port notes: ESP-IDF: for an idle trip, the timeout (the TWDT keeps no
     *  time of the idle task's last run). */
    int64_t silent_ns;
} rtipc_wdt_trip_t;

/**
 * Trip callback: runs in interrupt context; must not block.
 * Port notes: FreeRTOS: runs in rtipc's monitor task (task context, priority
 * configMAX_PRIORITIES - 1, core 0), not in an interrupt; ESP-IDF: in the
 * TWDT's interrupt, as on Linux.
 */
typedef void (*rtipc_wdt_trip_fn)(const rtipc_wdt_trip_t *trip, void *arg);

/** Watchdog settings. Zero-initialised fields take the defaults. */
typedef struct {
    int64_t timeout_ns;      /**< 0 = RTIPC_WDT_TIMEOUT_NS_DEFAULT; at least 1 ms */
    bool idle_check;         /**< watch every core's idle task */
    /** abort() after reporting a trip.
     *  Port notes: ESP-IDF: the TWDT's panic (trigger_panic), after on_trip. */
    bool abort_on_trip;
    /** NULL = print to stderr.
     *  Port notes: ESP-IDF: NULL leaves the report to the TWDT's own log lines. */
    rtipc_wdt_trip_fn on_trip;
    void *arg;               /**< passed to on_trip */
} rtipc_wdt_config_t;

/**
 * Start the watchdog (and the idle tasks, if idle_check).
 * Context: task only. Blocking: no.
 * @retval 0 started. @retval RTIPC_EINVAL cfg NULL, or timeout below 1 ms.
 * @retval RTIPC_EBUSY already started.
 * @retval RTIPC_ENOMEM / RTIPC_ESYSTEM the idle tasks or the check interrupt
 *         could not be created (nothing is left running).
 * @retval RTIPC_ENOTSUP (FreeRTOS only) idle_check on a kernel where rtipc
 *         cannot watch each core's idle time (see Port notes).
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * Port notes: FreeRTOS: creates the monitor task instead of a check
 * interrupt (RTIPC_ENOMEM if it cannot); idle_check is RTIPC_ENOTSUP on an
 * SMP kernel without configUSE_CORE_AFFINITY, or with both
 * configIDLE_SHOULD_YIELD and configUSE_TIME_SLICING 0. ESP-IDF:
 * esp_task_wdt_init, or esp_task_wdt_reconfigure of the TWDT ESP-IDF started
 * at boot (timeout rounded up to whole ms, idle_core_mask every core if
 * idle_check, trigger_panic = abort_on_trip); RTIPC_ESYSTEM if it refuses.
 */
int rtipc_wdt_start(const rtipc_wdt_config_t *cfg);

/**
 * Stop the watchdog, end the idle tasks and drop every subscription.
 * Context: task only. Blocking: until the idle tasks have ended.
 * @retval 0 stopped. @retval RTIPC_EINVAL not started.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * Port notes: FreeRTOS: also until the monitor task has finished a check
 * (and callback) it is in. ESP-IDF: esp_task_wdt_delete of each subscriber,
 * then esp_task_wdt_deinit, or, for the TWDT ESP-IDF started, its menuconfig
 * settings back (esp_task_wdt_reconfigure).
 */
int rtipc_wdt_stop(void);

/**
 * Subscribe @p task (NULL = the caller): from now on it must call
 * rtipc_wdt_reset at least once per timeout.
 * Context: task only. Never blocks.
 * @retval 0 subscribed. @retval RTIPC_EINVAL watchdog not started, task not
 *         live, or already subscribed. @retval RTIPC_ENOMEM no memory.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * Port notes: FreeRTOS: may wait for the monitor task's check in progress.
 * ESP-IDF: esp_task_wdt_add; RTIPC_EINVAL also when the task subscribed
 * through esp_task_wdt_add itself, RTIPC_ESYSTEM when the TWDT refuses.
 */
int rtipc_wdt_add(rtipc_task_t *task);

/**
 * Unsubscribe @p task (NULL = the caller). A subscription also ends when
 * its task ends or is deleted.
 * Context: task only. Never blocks.
 * @retval 0 done. @retval RTIPC_EINVAL not started or not subscribed.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * Port notes: FreeRTOS: may wait for the monitor task's check in progress.
 * ESP-IDF: esp_task_wdt_delete.
 */
int rtipc_wdt_delete(rtipc_task_t *task);

/**
 * Reset the watchdog for the calling task ("feed").
 * Context: task only. Never blocks.
 * @retval 0 done. @retval RTIPC_EINVAL not started or caller not subscribed.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * Port notes: ESP-IDF: esp_task_wdt_reset as well.
 */
int rtipc_wdt_reset(void);

/** Trips since the process started. Context: any. Never blocks. */
uint64_t rtipc_wdt_trip_count(void);

#ifdef __cplusplus
}
#endif
#endif
