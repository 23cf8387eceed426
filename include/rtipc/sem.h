/**
 * @file sem.h
 * @brief Binary and counting semaphores (FreeRTOS semantics).
 *
 * A binary semaphore is created empty and counts 0..1; a counting semaphore
 * counts 0..max from an initial count. Give never blocks and fails on a full
 * semaphore; take waits for a count, tasks queued by priority, FIFO among
 * equals. Any number of tasks may give and take concurrently.
 *
 * Memory: rtipc_sem_footprint() bytes, one allocation when dynamic.
 *
 * Port notes: a FreeRTOS build in direct mode (RTIPC_DIRECT, rtipc/config.h)
 * makes the hot calls the kernel's own, in line, without refusing a stale
 * handle or an interrupt handler: rtipc/freertos_direct.h lists them and
 * what changes.
 */
#ifndef RTIPC_SEM_H
#define RTIPC_SEM_H

#include <stdbool.h>
#include <stddef.h>

#include "rtipc/config.h"
#include "rtipc/spin.h"
#include "rtipc/time.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque semaphore handle. */
typedef struct rtipc_sem rtipc_sem_t;

/** Caller-provided memory for a statically created semaphore. */
typedef struct {
    RTIPC_ALIGNAS(8) unsigned char opaque[RTIPC_SEM_STATIC_SIZE];
} rtipc_sem_static_t;

/**
 * Create a binary semaphore (empty: the first take blocks until a give).
 * Context: task only. Blocking: no.
 * @retval 0 created. @retval RTIPC_EINVAL out NULL.
 * @retval RTIPC_ENOMEM allocation failed, or every handle is in use (error.h).
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_sem_create_binary(rtipc_sem_t **out);

/**
 * Create a counting semaphore with maximum @p max and count @p initial.
 * Context: task only. Blocking: no.
 * @retval 0 created.
 * @retval RTIPC_EINVAL out NULL, max 0 or above INT32_MAX, initial > max.
 * @retval RTIPC_ENOMEM allocation failed, or every handle is in use (error.h).
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_sem_create_counting(unsigned max, unsigned initial, rtipc_sem_t **out);

/**
 * Create a semaphore in caller memory @p cb (binary: max 1, initial 0).
 * Context: task or interrupt. Blocking: no. Allocates nothing, except
 * that from a task it may grow the handle table (error.h).
 * @retval 0 created; *out holds its handle, which names @p cb (a handle
 *         is not the address of cb, error.h).
 * @retval RTIPC_ENOMEM every handle is in use (error.h).
 * @retval RTIPC_EINVAL as for the dynamic forms, or cb NULL.
 * Port notes: FreeRTOS refuses it from an interrupt handler with
 * RTIPC_ECONTEXT (the kernel's creation enters a task-level critical
 * section); static control blocks are RTIPC_SEM_STATIC_SIZE bytes, per port
 * (rtipc/config.h).
 */
int rtipc_sem_create_static(unsigned max, unsigned initial, rtipc_sem_static_t *cb, rtipc_sem_t **out);

/**
 * Delete a semaphore. Context: task only. Blocking: no. Concurrency: no other
 * call on it may be in progress; a call that follows gets RTIPC_EINVAL
 * (error.h).
 * @retval 0 deleted. @retval RTIPC_EINVAL not a live semaphore.
 * @retval RTIPC_EBUSY tasks are waiting on it; not deleted.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_sem_delete(rtipc_sem_t *s);

/**
 * Add one to the count, waking the highest-priority waiter.
 * Context: task only (the _from_isr variant serves handlers). Never blocks.
 * Concurrency: any.
 * @retval 0 given. @retval RTIPC_EINVAL not a live semaphore.
 * @retval RTIPC_EOVERFLOW the count is already at its maximum; unchanged.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_sem_give(rtipc_sem_t *s);

/**
 * Take one from the count, waiting up to @p timeout for it to be non-zero.
 * Context: task only. Blocking: up to timeout. Concurrency: any.
 * @retval 0 taken. @retval RTIPC_EINVAL not a live semaphore.
 * @retval RTIPC_EWOULDBLOCK count 0 and timeout RTIPC_NO_WAIT.
 * @retval RTIPC_ETIMEDOUT still 0 when the timeout expired.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted to wait.
 */
int rtipc_sem_take(rtipc_sem_t *s, rtipc_timeout_t timeout);

/**
 * Interrupt-safe give; never blocks.
 * Context: interrupt or task. Concurrency: any.
 * @param woken if not NULL, set to true (never cleared) when a task of higher
 *        priority than the interrupted one was readied (see irq.h).
 * @retval 0 given. @retval RTIPC_EINVAL not a live semaphore.
 * @retval RTIPC_EOVERFLOW already at its maximum; unchanged.
 */
int rtipc_sem_give_from_isr(rtipc_sem_t *s, bool *woken);

/**
 * Interrupt-safe take; never blocks.
 * Context: interrupt or task. Concurrency: any.
 * @retval 0 taken. @retval RTIPC_EINVAL not a live semaphore.
 * @retval RTIPC_EWOULDBLOCK the count is 0.
 */
int rtipc_sem_take_from_isr(rtipc_sem_t *s, bool *woken);

/** The count now (a snapshot), or RTIPC_EINVAL. Context: any. Never blocks. */
int rtipc_sem_count(const rtipc_sem_t *s);

/** The maximum count, or RTIPC_EINVAL. Context: any. Never blocks. */
int rtipc_sem_max(const rtipc_sem_t *s);

/** Bytes a semaphore occupies (0 if s is not live; NULL gives the size of
 *  any semaphore). Context: any. Never blocks. */
size_t rtipc_sem_footprint(const rtipc_sem_t *s);

/**
 * Set the spin budget of this semaphore's takers: how long a blocking take
 * spins before it parks (spin.h says when a task may spin at all).
 * Context: task or interrupt. Never blocks. Concurrency: any; a wait already
 * spinning keeps the budget it started with.
 * @param ns RTIPC_SPIN_DEFAULT (follow rtipc_spin_default(); the setting of a
 *        new object), or 0 (park at once) .. RTIPC_SPIN_MAX_NS.
 * @retval 0 set. @retval RTIPC_EINVAL s not a live semaphore, or ns out of range.
 */
int rtipc_sem_set_spin(rtipc_sem_t *s, int64_t ns);

#ifdef __cplusplus
}
#endif

#if RTIPC_DIRECT
#include "rtipc/freertos_direct.h" /* the hot calls in line (direct mode) */
#endif
#endif
