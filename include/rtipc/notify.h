/**
 * @file notify.h
 * @brief Task notifications: RTIPC_NOTIFY_SLOTS 32-bit slots per task.
 *
 * Each slot holds a value and a pending flag. Any task may notify any task;
 * only the owning task receives (take or wait act on the caller's own slots),
 * so each slot has exactly one receiver by construction. Any action marks the
 * slot pending and wakes the owner if it waits on that slot.
 *
 * Difference from FreeRTOS, on purpose: FreeRTOS's ulTaskNotifyTake returns
 * 0 when it is woken by a notification that leaves the value at 0 (for
 * example a no-action notify) before its timeout; rtipc_notify_take keeps
 * waiting until the value is non-zero or the timeout expires.
 *
 * Memory: 8 bytes per slot inside the task descriptor.
 *
 * RTIPC_NOTIFY_SLOTS (rtipc/config.h) is 3 unless the build sets it. On
 * FreeRTOS slot i is the kernel's notification index i, so the build's count
 * is at most configTASK_NOTIFICATION_ARRAY_ENTRIES: the ESP-IDF component
 * takes one slot per menuconfig entry below 4 (ESP-IDF's and Arduino's
 * default of 1 gives one slot).
 *
 * Port notes: a FreeRTOS build in direct mode (RTIPC_DIRECT, rtipc/config.h)
 * makes the hot calls the kernel's own, in line, without refusing a stale
 * handle or an interrupt handler: rtipc/freertos_direct.h lists them and
 * what changes.
 */
#ifndef RTIPC_NOTIFY_H
#define RTIPC_NOTIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "rtipc/config.h"
#include "rtipc/spin.h"
#include "rtipc/task.h"
#include "rtipc/time.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a notification does to the slot's value. */
typedef enum {
    RTIPC_NOTIFY_NO_ACTION = 0,    /**< value unchanged; slot marked pending */
    RTIPC_NOTIFY_SET_BITS = 1,     /**< value |= arg */
    RTIPC_NOTIFY_INCREMENT = 2,    /**< value += 1 (arg ignored; wraps) */
    RTIPC_NOTIFY_OVERWRITE = 3,    /**< value = arg */
    RTIPC_NOTIFY_NO_OVERWRITE = 4, /**< value = arg unless pending (then RTIPC_EPENDING) */
} rtipc_notify_action_t;

/**
 * Notify slot @p index of @p task with @p action and @p arg. The slot becomes
 * pending and its owner is woken if it waits on that slot.
 * Context: task only (the _from_isr variant serves handlers). Never blocks.
 * Concurrency: any number of notifiers, concurrently with the owner.
 * @param previous if not NULL, receives the value before the action (also
 *        on RTIPC_EPENDING).
 * @retval 0 done.
 * @retval RTIPC_EINVAL task not a live task, index >= RTIPC_NOTIFY_SLOTS or
 *         action unknown.
 * @retval RTIPC_EPENDING action NO_OVERWRITE and the slot was pending; the
 *         value is unchanged.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_notify(rtipc_task_t *task, unsigned index, uint32_t arg, rtipc_notify_action_t action,
                 uint32_t *previous);

/**
 * Increment slot @p index of @p task (the lightweight counting-semaphore
 * "give"). Same as rtipc_notify(task, index, 0, RTIPC_NOTIFY_INCREMENT, NULL).
 */
int rtipc_notify_give(rtipc_task_t *task, unsigned index);

/**
 * Interrupt-safe rtipc_notify; never blocks. Same parameters and errors but
 * RTIPC_ECONTEXT.
 * Context: interrupt or task.
 * @param woken if not NULL, set to true (never cleared) when the notified task
 *        was waiting on the slot and outranks the interrupted task (irq.h).
 */
int rtipc_notify_from_isr(rtipc_task_t *task, unsigned index, uint32_t arg, rtipc_notify_action_t action,
                          uint32_t *previous, bool *woken);

/** Interrupt-safe rtipc_notify_give; as rtipc_notify_from_isr. */
int rtipc_notify_give_from_isr(rtipc_task_t *task, unsigned index, bool *woken);

/**
 * Wait up to @p timeout until the caller's slot @p index has a non-zero value,
 * then either clear it (@p clear true) or decrement it, and clear its pending
 * flag. The pending flag is cleared on every return, also when nothing was
 * taken (as FreeRTOS's take does): a no-action notification that a take
 * found with a value of 0 is consumed by it.
 * Context: task only. Blocking: up to timeout. Concurrency: the owner only
 * (by construction).
 * @param value if not NULL, receives the value before it was cleared or
 *        decremented (0 when the call fails with EWOULDBLOCK or ETIMEDOUT).
 * @retval 0 taken.
 * @retval RTIPC_EINVAL index >= RTIPC_NOTIFY_SLOTS.
 * @retval RTIPC_EWOULDBLOCK value 0 and timeout RTIPC_NO_WAIT.
 * @retval RTIPC_ETIMEDOUT value still 0 when the timeout expired.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted (Linux,
 *         and FreeRTOS kernels that spin before they block; elsewhere on
 *         FreeRTOS the take needs no descriptor and never fails so).
 */
int rtipc_notify_take(unsigned index, bool clear, uint32_t *value, rtipc_timeout_t timeout);

/**
 * Wait up to @p timeout for the caller's slot @p index to be pending. On entry,
 * if nothing is pending and the timeout is not RTIPC_NO_WAIT, the bits of
 * @p clear_on_entry are cleared in the value (FreeRTOS V11 clears them only
 * when the call may block; a no-wait call changes nothing but the exit bits
 * of a value it receives). On success the value is captured into @p value (if not NULL), then
 * the bits of @p clear_on_exit are cleared and the pending flag is cleared.
 * On timeout nothing is cleared on exit (and *value gets the current value).
 * Context: task only. Blocking: up to timeout. Concurrency: the owner only.
 * @retval 0 a notification was received.
 * @retval RTIPC_EINVAL index >= RTIPC_NOTIFY_SLOTS.
 * @retval RTIPC_EWOULDBLOCK nothing pending and timeout RTIPC_NO_WAIT.
 * @retval RTIPC_ETIMEDOUT nothing pending when the timeout expired.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted.
 */
int rtipc_notify_wait(unsigned index, uint32_t clear_on_entry, uint32_t clear_on_exit, uint32_t *value,
                      rtipc_timeout_t timeout);

/**
 * Clear the pending flag of slot @p index of @p task (NULL = the caller).
 * Context: task only. Never blocks. Concurrency: any.
 * @retval 1 it was pending. @retval 0 it was not.
 * @retval RTIPC_EINVAL task not live or index out of range.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM task NULL and the caller could not be adopted.
 */
int rtipc_notify_state_clear(rtipc_task_t *task, unsigned index);

/**
 * Clear @p bits in the value of slot @p index of @p task (NULL = the caller),
 * returning the value before in @p previous (if not NULL).
 * Context: task only. Never blocks. Concurrency: any.
 * @retval 0 done. @retval RTIPC_EINVAL task not live or index out of range.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM task NULL and the caller could not be adopted.
 */
int rtipc_notify_value_clear(rtipc_task_t *task, unsigned index, uint32_t bits, uint32_t *previous);

/**
 * Set the spin budget of @p task's own notification waits (rtipc_notify_take
 * and rtipc_notify_wait): how long they spin before the task parks (spin.h
 * says when a task may spin at all). The budget belongs to the waiting task,
 * since a notification has no object of its own.
 * Context: task only. Never blocks. Concurrency: any; a wait already spinning
 * keeps the budget it started with.
 * @param task the waiting task, or NULL for the caller.
 * @param ns RTIPC_SPIN_DEFAULT (follow rtipc_spin_default(); the setting of a
 *        new task), or 0 (park at once) .. RTIPC_SPIN_MAX_NS.
 * @retval 0 set. @retval RTIPC_EINVAL task not live, or ns out of range.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM task NULL and the caller could not be adopted.
 */
int rtipc_notify_set_spin(rtipc_task_t *task, int64_t ns);

#ifdef __cplusplus
}
#endif

#if RTIPC_DIRECT
#include "rtipc/freertos_direct.h" /* the hot calls in line (direct mode) */
#endif
#endif
