/**
 * @file queue.h
 * @brief Queues of fixed-size items copied by value (FreeRTOS queue semantics).
 *
 * Items are copied in on send and out on receive. Senders and receivers that
 * must wait are queued by task priority, FIFO among equal priorities; a woken
 * waiter is not handed an item but competes for it again with the time it has
 * left (as in FreeRTOS). Any number of tasks may send and receive
 * concurrently.
 *
 * Memory: a control block of rtipc_queue_footprint_for(0, 0) bytes (64 on
 * 64-bit hosts, 8 of them the spin budget and its padding) plus
 * length x item_size bytes of storage (one allocation when created
 * dynamically; caller storage when created statically).
 *
 * Port notes: a FreeRTOS build in direct mode (RTIPC_DIRECT, rtipc/config.h)
 * makes the hot calls the kernel's own, in line, without refusing a stale
 * handle or an interrupt handler: rtipc/freertos_direct.h lists them and
 * what changes.
 */
#ifndef RTIPC_QUEUE_H
#define RTIPC_QUEUE_H

#include <stdbool.h>
#include <stddef.h>

#include "rtipc/config.h"
#include "rtipc/spin.h"
#include "rtipc/time.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque queue handle. */
typedef struct rtipc_queue rtipc_queue_t;

/** Caller-provided memory for a statically created queue's control block. */
typedef struct {
    RTIPC_ALIGNAS(8) unsigned char opaque[RTIPC_QUEUE_STATIC_SIZE];
} rtipc_queue_static_t;

/**
 * Create a queue, control block and storage in one allocation.
 * Context: task only. Blocking: no.
 * @retval 0 created; *out holds the handle.
 * @retval RTIPC_EINVAL out NULL, length or item_size 0, or length x item_size
 *         overflows (length above INT32_MAX, or more than UINT32_MAX bytes).
 * @retval RTIPC_ENOMEM allocation failed, or every handle is in use (error.h).
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_queue_create(size_t length, size_t item_size, rtipc_queue_t **out);

/**
 * Create a queue in caller memory: the control block in @p cb, the items in
 * @p storage (at least length x item_size bytes). Both must outlive the queue.
 * Context: task or interrupt. Blocking: no. Allocates nothing, except
 * that from a task it may grow the handle table (error.h).
 * @retval 0 created; *out holds its handle, which names @p cb (a handle
 *         is not the address of cb, error.h).
 * @retval RTIPC_ENOMEM every handle is in use (error.h).
 * @retval RTIPC_EINVAL out, cb or storage NULL, length or item_size 0, or the
 *         size overflows.
 * Port notes: FreeRTOS refuses it from an interrupt handler with
 * RTIPC_ECONTEXT (the kernel's creation enters a task-level critical
 * section); static control blocks are RTIPC_QUEUE_STATIC_SIZE bytes, per port
 * (rtipc/config.h).
 */
int rtipc_queue_create_static(size_t length, size_t item_size, void *storage, rtipc_queue_static_t *cb,
                              rtipc_queue_t **out);

/**
 * Delete a queue (freeing it if it was created dynamically). Items still in
 * it are discarded, as the caller asked.
 * Context: task only. Blocking: no. Concurrency: no other call on the queue
 * may be in progress; calls that follow get RTIPC_EINVAL (error.h).
 * @retval 0 deleted.
 * @retval RTIPC_EINVAL q is not a live queue.
 * @retval RTIPC_EBUSY tasks are waiting on the queue, or it is a member of a
 *         queue set (queueset.h); it was not deleted.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_queue_delete(rtipc_queue_t *q);

/**
 * Copy @p item to the back of the queue, waiting up to @p timeout for space.
 * Context: task only (use the _from_isr variant in handlers).
 * Blocking: up to timeout. Concurrency: any number of senders and receivers.
 * @retval 0 sent.
 * @retval RTIPC_EINVAL q not a live queue, or item NULL.
 * @retval RTIPC_EWOULDBLOCK full and timeout is RTIPC_NO_WAIT.
 * @retval RTIPC_ETIMEDOUT still full when the timeout expired.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted to wait.
 */
int rtipc_queue_send(rtipc_queue_t *q, const void *item, rtipc_timeout_t timeout);

/**
 * As rtipc_queue_send, but the item goes to the front: it is received next.
 * Same context, blocking, concurrency and error codes.
 */
int rtipc_queue_send_to_front(rtipc_queue_t *q, const void *item, rtipc_timeout_t timeout);

/**
 * Move the front item into @p item, waiting up to @p timeout for one.
 * Context: task only. Blocking: up to timeout. Concurrency: any.
 * @retval 0 received.
 * @retval RTIPC_EINVAL q not a live queue, or item NULL.
 * @retval RTIPC_EWOULDBLOCK empty and timeout is RTIPC_NO_WAIT.
 * @retval RTIPC_ETIMEDOUT still empty when the timeout expired.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted to wait.
 */
int rtipc_queue_receive(rtipc_queue_t *q, void *item, rtipc_timeout_t timeout);

/**
 * Copy the front item into @p item without removing it, waiting up to
 * @p timeout for one. If other receivers wait, the next one is woken, since
 * the item is still there for it.
 * Same context, blocking, concurrency and error codes as rtipc_queue_receive.
 */
int rtipc_queue_peek(rtipc_queue_t *q, void *item, rtipc_timeout_t timeout);

/**
 * Length-1 queues only ("mailbox"): write @p item whether or not the queue
 * is full, replacing the item it holds. Never blocks; the count stays 1.
 * Context: task only. Concurrency: any.
 * @retval 0 written.
 * @retval RTIPC_EINVAL q not a live queue, or item NULL.
 * @retval RTIPC_ENOTSUP the queue's length is not 1.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_queue_overwrite(rtipc_queue_t *q, const void *item);

/**
 * Empty the queue. Waiting receivers stay blocked; one waiting sender (the
 * highest priority) is woken, as in FreeRTOS. A member of a queue set also
 * loses its events in the set, so no later select names it for an item that
 * is gone (queueset.h; Linux port: the FreeRTOS kernel keeps them).
 * Context: task only. Blocking: no. Concurrency: any.
 * @retval 0 reset. @retval RTIPC_EINVAL q not a live queue.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_queue_reset(rtipc_queue_t *q);

/**
 * Interrupt-safe send to the back: never blocks.
 * Context: interrupt or task. Concurrency: any.
 * @param woken if not NULL, set to true (never cleared) when a task of higher
 *        priority than the interrupted one was readied (see irq.h).
 * @retval 0 sent. @retval RTIPC_EINVAL q not a live queue, or item NULL.
 * @retval RTIPC_EWOULDBLOCK the queue is full.
 */
int rtipc_queue_send_from_isr(rtipc_queue_t *q, const void *item, bool *woken);

/** Interrupt-safe send to the front; as rtipc_queue_send_from_isr. */
int rtipc_queue_send_to_front_from_isr(rtipc_queue_t *q, const void *item, bool *woken);

/**
 * Interrupt-safe overwrite of a length-1 queue; never blocks.
 * Context: interrupt or task.
 * @retval 0 written. @retval RTIPC_EINVAL q not live or item NULL.
 * @retval RTIPC_ENOTSUP the queue's length is not 1.
 */
int rtipc_queue_overwrite_from_isr(rtipc_queue_t *q, const void *item, bool *woken);

/**
 * Interrupt-safe receive; never blocks. @p woken as for send (a sender that
 * was waiting for space may be readied).
 * Context: interrupt or task.
 * @retval 0 received. @retval RTIPC_EINVAL q not live or item NULL.
 * @retval RTIPC_EWOULDBLOCK the queue is empty.
 */
int rtipc_queue_receive_from_isr(rtipc_queue_t *q, void *item, bool *woken);

/**
 * Interrupt-safe peek; never blocks, wakes nobody.
 * Context: interrupt or task.
 * @retval 0 copied. @retval RTIPC_EINVAL q not live or item NULL.
 * @retval RTIPC_EWOULDBLOCK the queue is empty.
 */
int rtipc_queue_peek_from_isr(rtipc_queue_t *q, void *item);

/**
 * Items in the queue now (a snapshot), or RTIPC_EINVAL.
 * Context: task or interrupt. Never blocks. Concurrency: any.
 */
int rtipc_queue_messages_waiting(const rtipc_queue_t *q);

/**
 * Free places in the queue now (a snapshot), or RTIPC_EINVAL.
 * Context: task or interrupt. Never blocks. Concurrency: any.
 */
int rtipc_queue_spaces_available(const rtipc_queue_t *q);

/**
 * Bytes this queue occupies: control block plus item storage (for a static
 * queue, the caller's memory counted the same way). 0 if q is not a live
 * queue. Context: any. Never blocks.
 */
size_t rtipc_queue_footprint(const rtipc_queue_t *q);

/**
 * Bytes a queue of this shape occupies (control block + length x item_size),
 * or 0 if the shape is invalid. rtipc_queue_footprint_for(0, 0) is the
 * control block alone. Context: any. Never blocks.
 */
size_t rtipc_queue_footprint_for(size_t length, size_t item_size);

/**
 * Set the spin budget of this queue's senders and receivers: how long a
 * blocking call spins before it parks (spin.h says when a task may spin at
 * all). A queue set's selectors follow the set's budget instead
 * (rtipc_queueset_set_spin).
 * Context: task or interrupt. Never blocks. Concurrency: any; a wait already
 * spinning keeps the budget it started with.
 * @param ns RTIPC_SPIN_DEFAULT (follow rtipc_spin_default(); the setting of a
 *        new object), or 0 (park at once) .. RTIPC_SPIN_MAX_NS.
 * @retval 0 set. @retval RTIPC_EINVAL q not a live queue, or ns out of range.
 */
int rtipc_queue_set_spin(rtipc_queue_t *q, int64_t ns);

#ifdef __cplusplus
}
#endif

#if RTIPC_DIRECT
#include "rtipc/freertos_direct.h" /* the hot calls in line (direct mode) */
#endif
#endif
