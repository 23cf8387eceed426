/**
 * @file queueset.h
 * @brief Queue sets: block on several queues, semaphores and ring buffers at once
 *        (FreeRTOS queue-set semantics, with the rules enforced).
 *
 * A set is a queue of member handles: every item sent to a member queue,
 * every give of a member semaphore and every item made receivable in a member
 * ring buffer (read side, as ESP-IDF's xRingbufferAddToQueueSetRead) pushes
 * that member's handle into the set.
 * rtipc_queueset_select returns the handle of a member that has data; read
 * that member right after with RTIPC_NO_WAIT (it is then guaranteed to
 * succeed if only the selecting task reads the members).
 *
 * Rules, checked when a member is added (FreeRTOS only asserts them):
 * - the set's length must cover the sum of its members' capacities (a queue
 *   counts its length, a semaphore its maximum count, a ring buffer the number
 *   of smallest items it can hold: a byte buffer its size in bytes), else
 *   RTIPC_EOVERFLOW;
 * - a member must be empty when added or removed, else RTIPC_EBUSY;
 * - a member belongs to at most one set, else RTIPC_EBUSY.
 * Reading a member without selecting it first leaves its handle in the set,
 * and a later select returns a member that is already empty: always select,
 * then read (FreeRTOS has the same rule). If such misuse fills the set, the
 * member's item is still stored but its event is dropped and counted
 * (rtipc_queueset_overflows), never silently. Resetting a member queue
 * (rtipc_queue_reset) takes all its events out of the set, those left by
 * such reads included, keeping the order of the other members' events
 * (Linux port; the FreeRTOS kernel leaves them, docs/porting.md). Removing a
 * member takes its events out too, on every port, so a select never names a
 * member that left the set (the kernel would name it, even once deleted).
 *
 * Memory: rtipc_queueset_footprint() bytes (a control block plus a queue of
 * length x pointer-sized items).
 */
#ifndef RTIPC_QUEUESET_H
#define RTIPC_QUEUESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rtipc/queue.h"
#include "rtipc/ringbuf.h"
#include "rtipc/sem.h"
#include "rtipc/spin.h"
#include "rtipc/time.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque queue-set handle. */
typedef struct rtipc_queueset rtipc_queueset_t;

/**
 * Create a set able to hold @p length member events.
 * Context: task only. Blocking: no.
 * @retval 0 created. @retval RTIPC_EINVAL out NULL or length 0 or above INT32_MAX.
 * @retval RTIPC_ENOMEM allocation failed, or every handle is in use (error.h).
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_queueset_create(size_t length, rtipc_queueset_t **out);

/**
 * Delete a set. Its members must have been removed.
 * Context: task only. Blocking: no. Concurrency: no other call on the set may
 * be in progress; a call that follows gets RTIPC_EINVAL (error.h).
 * @retval 0 deleted. @retval RTIPC_EINVAL not a live set.
 * @retval RTIPC_EBUSY it still has members or waiting tasks.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_queueset_delete(rtipc_queueset_t *set);

/**
 * Add a queue to the set.
 * Context: task only. Blocking: no. Concurrency: any, but the queue must be
 * empty (no send may race with the add).
 * @retval 0 added. @retval RTIPC_EINVAL set or q not live.
 * @retval RTIPC_EBUSY q is not empty, or already in a set.
 * @retval RTIPC_EOVERFLOW the set's length cannot cover q's length on top of
 *         its current members.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_queueset_add_queue(rtipc_queueset_t *set, rtipc_queue_t *q);

/** Add a semaphore (counts its maximum). Same contract as add_queue. */
int rtipc_queueset_add_sem(rtipc_queueset_t *set, rtipc_sem_t *s);

/**
 * Remove a queue from the set.
 * Context: task only. Blocking: no.
 * @retval 0 removed. @retval RTIPC_EINVAL set or q not live, or q not in set.
 * @retval RTIPC_EBUSY q is not empty.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_queueset_remove_queue(rtipc_queueset_t *set, rtipc_queue_t *q);

/** Remove a semaphore. Same contract as remove_queue. */
int rtipc_queueset_remove_sem(rtipc_queueset_t *set, rtipc_sem_t *s);

/**
 * Add a ring buffer's read side (it must be empty, with no item received and
 * not yet returned). Same contract as add_queue. A byte buffer posts one
 * event per send, but one receive may take the bytes of several sends, so
 * later selects may name it while it is empty: receive with RTIPC_NO_WAIT and
 * accept RTIPC_EWOULDBLOCK there.
 * Port notes: ESP-IDF: the ring buffer joins through
 * xRingbufferAddToQueueSetRead and posts one event per send or completion
 * (rtipc_ringbuf_complete); an event that finds the set full (misuse) is
 * dropped without being counted in rtipc_queueset_overflows.
 */
int rtipc_queueset_add_ringbuf(rtipc_queueset_t *set, rtipc_ringbuf_t *rb);

/** Remove a ring buffer. Same contract as remove_queue. */
int rtipc_queueset_remove_ringbuf(rtipc_queueset_t *set, rtipc_ringbuf_t *rb);

/**
 * Wait up to @p timeout for a member with data; store its handle (the
 * rtipc_queue_t * or rtipc_sem_t * that was added) in *member.
 * Context: task only. Blocking: up to timeout. Concurrency: any number of
 * selecting tasks (each event goes to one).
 * @retval 0 *member holds a member handle.
 * @retval RTIPC_EINVAL set not live or member NULL.
 * @retval RTIPC_EWOULDBLOCK no event and timeout RTIPC_NO_WAIT.
 * @retval RTIPC_ETIMEDOUT no event before the timeout.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted.
 */
int rtipc_queueset_select(rtipc_queueset_t *set, void **member, rtipc_timeout_t timeout);

/**
 * Interrupt-safe select; never blocks.
 * Context: interrupt or task.
 * @retval 0 *member holds a member handle. @retval RTIPC_EINVAL as above.
 * @retval RTIPC_EWOULDBLOCK no event.
 */
int rtipc_queueset_select_from_isr(rtipc_queueset_t *set, void **member);

/**
 * Events dropped because the set was full (only possible when members were
 * read without select), or RTIPC_EINVAL. Context: any. Never blocks.
 * Port notes: FreeRTOS cannot count them: always 0 (a set sized by the add
 * rules never overflows; on misuse the kernel stops at configASSERT).
 */
int64_t rtipc_queueset_overflows(const rtipc_queueset_t *set);

/** Bytes the set occupies (0 if not live). Context: any. Never blocks. */
size_t rtipc_queueset_footprint(const rtipc_queueset_t *set);

/**
 * Set the spin budget of this set's rtipc_queueset_select callers: how long
 * a blocking select spins before it parks (spin.h says when a task may spin
 * at all).
 * Context: task or interrupt. Never blocks. Concurrency: any; a wait already
 * spinning keeps the budget it started with.
 * @param ns RTIPC_SPIN_DEFAULT (follow rtipc_spin_default(); the setting of a
 *        new object), or 0 (park at once) .. RTIPC_SPIN_MAX_NS.
 * @retval 0 set. @retval RTIPC_EINVAL set not a live queue set, or ns out of range.
 */
int rtipc_queueset_set_spin(rtipc_queueset_t *set, int64_t ns);

#ifdef __cplusplus
}
#endif
#endif
