/**
 * @file eventgroup.h
 * @brief Event groups: 24 event bits that tasks wait on (FreeRTOS semantics).
 *
 * An event group holds bits 0..23 (RTIPC_EVENTGROUP_BITS_MASK). Bits 24..31
 * are reserved, as in FreeRTOS builds with a 32-bit tick type, where the
 * kernel keeps its own flags there: passing any of them to a call is
 * RTIPC_EINVAL, so code that runs here runs on the MCU too.
 *
 * A task waits for any or all of a set of bits, optionally clearing them when
 * its wait succeeds. Setting bits wakes EVERY waiter whose condition is now
 * met, not just one: each of them receives the bits as they were right after
 * the set (before any clearing), and only then are the clear-on-exit bits of
 * all the woken waiters cleared together. So two tasks waiting for the same
 * bit with clear-on-exit both see it. Waiters are woken in priority order.
 *
 * Sync is a rendezvous: set bits and wait for all of another set, in one
 * atomic step, clearing the awaited bits on success.
 *
 * Any number of tasks may set, clear and wait concurrently.
 *
 * Difference from FreeRTOS, on purpose: FreeRTOS defers set and clear from an
 * interrupt to its timer service task (so the handler's time does not grow
 * with the number of waiters, and the call can fail when the timer queue is
 * full). rtipc applies them directly inside the handler: they always succeed
 * and take effect before the handler returns, but the handler's time grows
 * with the number of waiters it walks (one lock hold, no allocation).
 *
 * Memory: rtipc_eventgroup_footprint() bytes (24 with the Linux port on
 * 64-bit hosts; the FreeRTOS port adds the kernel's event group), one
 * allocation when dynamic. A waiting task uses only its own stack.
 */
#ifndef RTIPC_EVENTGROUP_H
#define RTIPC_EVENTGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rtipc/config.h"
#include "rtipc/spin.h"
#include "rtipc/time.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Number of usable event bits. */
#define RTIPC_EVENTGROUP_BITS 24
/** The usable bits, 0..23; bits 24..31 are reserved. */
#define RTIPC_EVENTGROUP_BITS_MASK 0x00ffffffu

/** Opaque event group handle. */
typedef struct rtipc_eventgroup rtipc_eventgroup_t;

/** Caller-provided memory for a statically created event group. */
typedef struct {
    RTIPC_ALIGNAS(8) unsigned char opaque[RTIPC_EVENTGROUP_STATIC_SIZE];
} rtipc_eventgroup_static_t;

/**
 * Create an event group with every bit clear.
 * Context: task only. Blocking: no.
 * @retval 0 created. @retval RTIPC_EINVAL out NULL.
 * @retval RTIPC_ENOMEM allocation failed, or every handle is in use (error.h).
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_eventgroup_create(rtipc_eventgroup_t **out);

/**
 * Create an event group in caller memory @p cb (which must outlive it).
 * Context: task or interrupt. Blocking: no. Allocates nothing, except
 * that from a task it may grow the handle table (error.h).
 * @retval 0 created; *out holds its handle, which names @p cb (a handle
 *         is not the address of cb, error.h).
 * @retval RTIPC_ENOMEM every handle is in use (error.h).
 * @retval RTIPC_EINVAL out or cb NULL.
 * Port notes: FreeRTOS refuses it from an interrupt handler with
 * RTIPC_ECONTEXT (the kernel's creation enters a task-level critical
 * section); static control blocks are RTIPC_EVENTGROUP_STATIC_SIZE bytes, per port
 * (rtipc/config.h).
 */
int rtipc_eventgroup_create_static(rtipc_eventgroup_static_t *cb, rtipc_eventgroup_t **out);

/**
 * Delete an event group.
 * Context: task only. Blocking: no. Concurrency: no other call on it may be
 * in progress; a call that follows gets RTIPC_EINVAL (error.h).
 * @retval 0 deleted. @retval RTIPC_EINVAL not a live event group.
 * @retval RTIPC_EBUSY tasks are waiting on it (wait or sync); not deleted.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_eventgroup_delete(rtipc_eventgroup_t *eg);

/**
 * Set @p bits, wake every waiter whose condition is met, then clear the
 * clear-on-exit bits of those waiters.
 * Context: task only (use the _from_isr variant in handlers). Never blocks.
 * Concurrency: any.
 * @param value if not NULL, receives the bits when the call returns (after
 *        the woken waiters' clearing).
 * @retval 0 set. @retval RTIPC_EINVAL eg not a live event group, or bits has
 *         a reserved bit (24..31); nothing changed.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_eventgroup_set_bits(rtipc_eventgroup_t *eg, uint32_t bits, uint32_t *value);

/**
 * Clear @p bits. Wakes nobody (clearing cannot satisfy a wait).
 * Context: task only (use the _from_isr variant in handlers). Never blocks.
 * Concurrency: any.
 * @param previous if not NULL, receives the bits before clearing.
 * @retval 0 cleared. @retval RTIPC_EINVAL not live, or a reserved bit.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_eventgroup_clear_bits(rtipc_eventgroup_t *eg, uint32_t bits, uint32_t *previous);

/**
 * The bits now (a snapshot, 0 .. 0xffffff), or RTIPC_EINVAL.
 * Context: task or interrupt. Never blocks. Concurrency: any.
 */
int rtipc_eventgroup_get_bits(const rtipc_eventgroup_t *eg);

/**
 * Wait up to @p timeout until any (@p wait_all false) or all (true) of
 * @p bits are set. If the condition already holds, returns at once.
 * Context: task only. Blocking: up to timeout. Concurrency: any number of
 * waiters, setters and clearers.
 * @param clear_on_exit on success, clear @p bits (atomically with the
 *        success: no other waiter can see them in between, unless it was
 *        woken by the same set).
 * @param value if not NULL, receives on success the bits at the moment the
 *        condition was met, before clearing; on RTIPC_EWOULDBLOCK or
 *        RTIPC_ETIMEDOUT the bits when the wait gave up; 0 on other errors.
 * @retval 0 the condition was met.
 * @retval RTIPC_EINVAL eg not live, bits 0, or bits has a reserved bit.
 * @retval RTIPC_EWOULDBLOCK not met and timeout RTIPC_NO_WAIT.
 * @retval RTIPC_ETIMEDOUT not met when the timeout expired (nothing cleared).
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted to wait.
 */
int rtipc_eventgroup_wait_bits(rtipc_eventgroup_t *eg, uint32_t bits, bool clear_on_exit, bool wait_all,
                               uint32_t *value, rtipc_timeout_t timeout);

/**
 * Rendezvous: set @p set (waking waiters as rtipc_eventgroup_set_bits does),
 * then wait up to @p timeout until all of @p wait_for are set, and clear
 * @p wait_for on success. Setting and starting to wait are one atomic step,
 * so the last task to arrive always finds the others waiting or done. The
 * last to arrive does not block; it clears @p wait_for itself.
 * Context: task only. Blocking: up to timeout. Concurrency: any.
 * @param value as for rtipc_eventgroup_wait_bits; on success the bits as they
 *        stood when the rendezvous completed (the caller's @p set included),
 *        before clearing.
 * @retval 0 all of @p wait_for were set; they have been cleared.
 * @retval RTIPC_EINVAL eg not live, wait_for 0, or a reserved bit in set or
 *         wait_for; nothing set.
 * @retval RTIPC_EWOULDBLOCK not complete and timeout RTIPC_NO_WAIT (@p set
 *         stays set).
 * @retval RTIPC_ETIMEDOUT not complete when the timeout expired (@p set
 *         stays set, as in FreeRTOS).
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted to wait.
 */
int rtipc_eventgroup_sync(rtipc_eventgroup_t *eg, uint32_t set, uint32_t wait_for, uint32_t *value,
                          rtipc_timeout_t timeout);

/**
 * Interrupt-safe set: as rtipc_eventgroup_set_bits, done inside the handler
 * (see the difference from FreeRTOS above). Never blocks.
 * Context: interrupt or task. Concurrency: any.
 * @param woken if not NULL, set to true (never cleared) when a woken waiter
 *        outranks the interrupted task (see irq.h).
 * @retval 0 set. @retval RTIPC_EINVAL not live, or a reserved bit.
 * Port notes: FreeRTOS defers a handler's change to its timer service task
 * (it takes effect after the handler; RTIPC_EWOULDBLOCK when the timer queue
 * is full); from a task it acts at once.
 */
int rtipc_eventgroup_set_bits_from_isr(rtipc_eventgroup_t *eg, uint32_t bits, uint32_t *value, bool *woken);

/**
 * Interrupt-safe clear: as rtipc_eventgroup_clear_bits, done inside the
 * handler. Never blocks. Context: interrupt or task. Concurrency: any.
 * @retval 0 cleared. @retval RTIPC_EINVAL not live, or a reserved bit.
 * Port notes: FreeRTOS defers a handler's change to its timer service task,
 * as for rtipc_eventgroup_set_bits_from_isr.
 */
int rtipc_eventgroup_clear_bits_from_isr(rtipc_eventgroup_t *eg, uint32_t bits, uint32_t *previous);

/**
 * Bytes an event group occupies (0 if eg is not live; NULL gives the size of
 * any event group). Context: any. Never blocks.
 */
size_t rtipc_eventgroup_footprint(const rtipc_eventgroup_t *eg);

/**
 * Set the spin budget of this event group's waiters (wait_bits and sync):
 * how long a blocking call spins before it parks (spin.h says when a task
 * may spin at all).
 * Context: task or interrupt. Never blocks. Concurrency: any; a wait already
 * spinning keeps the budget it started with.
 * @param ns RTIPC_SPIN_DEFAULT (follow rtipc_spin_default(); the setting of a
 *        new object), or 0 (park at once) .. RTIPC_SPIN_MAX_NS.
 * @retval 0 set. @retval RTIPC_EINVAL eg not a live event group, or ns out of range.
 */
int rtipc_eventgroup_set_spin(rtipc_eventgroup_t *eg, int64_t ns);

#ifdef __cplusplus
}
#endif
#endif
