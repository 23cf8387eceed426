/**
 * @file ringbuf.h
 * @brief Ring buffers of variable-length items, received in place (ESP-IDF
 *        ring buffer semantics).
 *
 * A ring buffer stores items of any length in one block of storage; its
 * capacity is counted in bytes, not items. Receiving is zero-copy: a receive
 * hands out a pointer into the storage and the item's length, and the space
 * stays occupied until the item is given back with rtipc_ringbuf_return.
 * Space is reclaimed in order: returning an item frees nothing while an item
 * received before it is still out. Several received items may be out at once
 * (item types; a byte buffer allows one read at a time).
 *
 * Three types:
 * - RTIPC_RINGBUF_NOSPLIT: every item is stored in one piece. When it does
 *   not fit in the free space at the end of the storage, that end becomes an
 *   unused "dummy" run and the item goes to the start. Only this type offers
 *   zero-copy sending (rtipc_ringbuf_acquire, fill, rtipc_ringbuf_complete).
 * - RTIPC_RINGBUF_ALLOWSPLIT: an item that does not fit at the end is split
 *   there; the rest goes to the start with its own header. Received with
 *   rtipc_ringbuf_receive_split, which yields both parts at once; each part
 *   is returned on its own.
 * - RTIPC_RINGBUF_BYTEBUF: a byte stream with no headers and no item
 *   boundaries: sends are appended, rtipc_ringbuf_receive_up_to hands out up
 *   to N contiguous bytes (data that wraps takes two receives).
 *
 * Memory (exact; ESP-IDF's figures in brackets):
 * - control block: rtipc_ringbuf_footprint_for(0, type) bytes, 72 on a
 *   64-bit Linux host (one allocation with the storage when created
 *   dynamically; caller memory when created statically);
 * - storage: the size given at creation (rounded up to a multiple of 4 for
 *   item types when created dynamically);
 * - per item (no-split, allow-split): a 4-byte header [8] plus the data
 *   rounded up to a multiple of 4 [same]; RTIPC_RINGBUF_ITEM_BYTES(n);
 * - per wrap: no-split leaves the end of the storage unused until the items
 *   before it are reclaimed (less than one item's footprint); allow-split
 *   costs one more 4-byte header for the second part, or leaves 4 bytes when
 *   exactly 4 remain at the end;
 * - byte buffer: nothing per item or per wrap.
 * Item pointers are 4-byte aligned (item types). The largest item is the
 * size minus 4 (item types) or the size (byte buffer) [no-split: half the
 * size rounded up to 4, minus 8; allow-split: the size minus 16], because an
 * empty buffer starts over at offset 0 [ESP-IDF's does not].
 *
 * Concurrency: any number of tasks may send, acquire, complete, receive and
 * return at the same time, and interrupt handlers may use the _from_isr
 * calls; each call is atomic under the object's lock. Waiting senders and
 * receivers are ordered by priority, FIFO among equals. When space is freed,
 * the highest-priority waiting sender whose item now fits is woken (a large
 * item can be overtaken by smaller ones that fit). A woken waiter is not
 * handed the space or the item; it competes again with the time it has left.
 *
 * Port notes: on FreeRTOS the ring buffer is rtipc's own over the port's
 * critical sections (the kernel has none): "the object's lock" is a critical
 * section, so a copy masks interrupts for its length; the control block
 * holds a counting semaphore, its queue-set member (160 B on a 32-bit
 * Cortex-M3); a wait parks at once (no spin).
 * Port notes: ESP-IDF maps every call onto ESP-IDF's own ring buffer
 * (freertos/ringbuf.h, docs/porting.md): the figures in brackets above; a
 * 160 B control block on the ESP32; a wait blocks at once (no spin). It
 * wakes one waiter per call: a return wakes the highest-priority waiting
 * sender whether or not its item fits (not the first that fits), a send or
 * completion one receiver, and a byte buffer's return no receiver (one that
 * waited while a read was out wakes at the next send); the others wait for
 * a later call or their timeout. While the ring buffer is in a queue set, a
 * send wakes no task blocked in a receive on the ring buffer itself (ESP-IDF
 * tells only the set): select, then receive with RTIPC_NO_WAIT.
 *
 * Deadlock hazard (as in ESP-IDF): received items pin their space until
 * returned, and acquired items block the readers behind them until completed.
 * A task that holds a received item and waits for another, or holds an
 * acquired item and waits to acquire another, may wait forever; use
 * RTIPC_NO_WAIT or a finite timeout for such second calls.
 */
#ifndef RTIPC_RINGBUF_H
#define RTIPC_RINGBUF_H

#include <stdbool.h>
#include <stddef.h>

#include "rtipc/config.h"
#include "rtipc/spin.h"
#include "rtipc/time.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Ring buffer types. */
typedef enum {
    RTIPC_RINGBUF_NOSPLIT = 0,    /**< items stored whole; acquire/complete allowed */
    RTIPC_RINGBUF_ALLOWSPLIT = 1, /**< items may wrap in two parts */
    RTIPC_RINGBUF_BYTEBUF = 2,    /**< a byte stream without item boundaries */
} rtipc_ringbuf_type_t;

/** Bytes of the header in front of each item (or part) of the item types:
 *  4; on ESP-IDF, ESP-IDF's header (a length and a flags word: 8 on the
 *  32-bit ESP32 chips). */
#ifdef ESP_PLATFORM
#define RTIPC_RINGBUF_HEADER_SIZE ((unsigned)(2 * sizeof(size_t)))
#else
#define RTIPC_RINGBUF_HEADER_SIZE 4u
#endif
/** Storage bytes an item of @p n bytes takes in a no-split or allow-split
 *  buffer when stored in one piece: header plus data rounded up to 4. */
#define RTIPC_RINGBUF_ITEM_BYTES(n) (RTIPC_RINGBUF_HEADER_SIZE + (((size_t)(n) + 3u) & ~(size_t)3u))
/** Largest storage size accepted (256 MiB). */
#define RTIPC_RINGBUF_MAX_SIZE ((size_t)1 << 28)

/** Opaque ring buffer handle. */
typedef struct rtipc_ringbuf rtipc_ringbuf_t;

/** Caller-provided memory for a statically created ring buffer's control
 *  block (RTIPC_RINGBUF_STATIC_SIZE bytes: 72 on Linux; on FreeRTOS it
 *  holds a kernel semaphore for queue-set membership besides, 192 on a
 *  32-bit target, rtipc/config.h). */
typedef struct {
    RTIPC_ALIGNAS(8) unsigned char opaque[RTIPC_RINGBUF_STATIC_SIZE];
} rtipc_ringbuf_static_t;

/**
 * Create a ring buffer, control block and storage in one allocation.
 * For the item types @p size is rounded up to a multiple of 4.
 * Context: task only. Blocking: no.
 * @param size storage bytes: 5 .. RTIPC_RINGBUF_MAX_SIZE for the item types
 *        (5 to 7 are rounded up to 8, the least that holds one header and one
 *        data word), 1 .. RTIPC_RINGBUF_MAX_SIZE for a byte buffer.
 * @retval 0 created; *out holds the handle.
 * @retval RTIPC_EINVAL out NULL, type unknown, or size out of range.
 * @retval RTIPC_ENOMEM allocation failed, or every handle is in use (error.h).
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * Port notes: ESP-IDF gives the item types at least 20 bytes (less holds no
 * item there) in the same allocation.
 */
int rtipc_ringbuf_create(size_t size, rtipc_ringbuf_type_t type, rtipc_ringbuf_t **out);

/**
 * Create a ring buffer in caller memory: the control block in @p cb, the
 * storage in @p storage (@p size bytes). Both must outlive the ring buffer.
 * Context: task or interrupt (FreeRTOS: task only, Port notes below).
 * Blocking: no. Allocates nothing, except that from a task it may grow the
 * handle table (error.h).
 * @param size as for rtipc_ringbuf_create; for the item types it must be a
 *        multiple of 4 and @p storage 4-byte aligned (nothing is rounded).
 * @retval 0 created; *out holds its handle, which names @p cb (a handle
 *         is not the address of cb, error.h).
 * @retval RTIPC_ENOMEM every handle is in use (error.h).
 * @retval RTIPC_EINVAL out, cb or storage NULL, type unknown, size out of
 *         range, or (item types) size not a multiple of 4 or storage not
 *         4-byte aligned.
 * Port notes: FreeRTOS refuses it from an interrupt handler with
 * RTIPC_ECONTEXT (the kernel's creation enters a task-level critical
 * section); static control blocks are RTIPC_RINGBUF_STATIC_SIZE bytes, per port
 * (rtipc/config.h). Port notes: ESP-IDF: item-type storage below 20 bytes
 * holds no item (max item size 0: every send gets RTIPC_EINVAL).
 */
int rtipc_ringbuf_create_static(size_t size, rtipc_ringbuf_type_t type, void *storage, rtipc_ringbuf_static_t *cb,
                                rtipc_ringbuf_t **out);

/**
 * Delete a ring buffer (freeing it if it was created dynamically). Items
 * still stored are discarded.
 * Context: task only. Blocking: no. Concurrency: no other call on the ring
 * buffer may be in progress; a call that follows gets RTIPC_EINVAL
 * (error.h).
 * @retval 0 deleted.
 * @retval RTIPC_EINVAL rb is not a live ring buffer.
 * @retval RTIPC_EBUSY tasks are waiting on it, or items are out (received
 *         and not returned, or acquired and not completed: their pointers
 *         would dangle); it was not deleted.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_ringbuf_delete(rtipc_ringbuf_t *rb);

/**
 * Copy an item of @p size bytes into the ring buffer, waiting up to
 * @p timeout for space. In a byte buffer the bytes are appended to the
 * stream, all or nothing.
 * Context: task only (use rtipc_ringbuf_send_from_isr in handlers).
 * Blocking: up to timeout. Concurrency: any number of callers.
 * @retval 0 sent.
 * @retval RTIPC_EINVAL rb not a live ring buffer, data NULL, size 0 or above
 *         rtipc_ringbuf_max_item_size (it could never fit).
 * @retval RTIPC_EWOULDBLOCK no room now and timeout is RTIPC_NO_WAIT.
 * @retval RTIPC_ETIMEDOUT still no room when the timeout expired.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted to wait.
 * Port notes: ESP-IDF wakes one receiver and no further sender that would
 * fit (file comment); it never returns RTIPC_ENOMEM.
 */
int rtipc_ringbuf_send(rtipc_ringbuf_t *rb, const void *data, size_t size, rtipc_timeout_t timeout);

/**
 * Reserve space for an item of @p size bytes and hand out a pointer to it
 * (4-byte aligned), waiting up to @p timeout for space. The caller fills it
 * and publishes it with rtipc_ringbuf_complete. Items are received in the
 * order they were acquired: an item acquired and not yet completed holds
 * back every item after it, however they were sent.
 * Context: task only. Blocking: up to timeout. Concurrency: any number of
 * callers; each may hold several acquired items.
 * @retval 0 reserved; *item points to @p size writable bytes.
 * @retval RTIPC_EINVAL rb not live, item NULL, size 0 or above the maximum.
 * @retval RTIPC_ENOTSUP the ring buffer is not of type RTIPC_RINGBUF_NOSPLIT.
 * @retval RTIPC_EWOULDBLOCK no room now and timeout is RTIPC_NO_WAIT.
 * @retval RTIPC_ETIMEDOUT still no room when the timeout expired.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted to wait.
 */
int rtipc_ringbuf_acquire(rtipc_ringbuf_t *rb, void **item, size_t size, rtipc_timeout_t timeout);

/**
 * Publish an item reserved with rtipc_ringbuf_acquire. Items may be completed
 * in any order; they become receivable in acquisition order.
 * Context: task only. Blocking: no. Concurrency: any.
 * Cost: walks the items not yet received (O(items stored)).
 * @retval 0 completed.
 * @retval RTIPC_EINVAL rb not live, or @p item is not an acquired item of
 *         this ring buffer that is still incomplete (already completed, or
 *         never acquired).
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * Port notes: ESP-IDF: rtipc checks that @p item lies among the acquired
 * items; one completed twice before the items ahead of it stops at ESP-IDF's
 * configASSERT instead. A queue set gets one event per completion, even while
 * the item waits behind an incomplete one (the set may name it early).
 */
int rtipc_ringbuf_complete(rtipc_ringbuf_t *rb, void *item);

/**
 * Receive the next item in place, waiting up to @p timeout for one. For a
 * byte buffer: all the bytes that are stored contiguously (at most up to the
 * end of the storage). Give it back with rtipc_ringbuf_return.
 * Context: task only. Blocking: up to timeout. Concurrency: any number of
 * receivers. A byte buffer hands out one read at a time: while one is out,
 * other receivers wait as if it were empty.
 * @retval 0 received: *item points into the storage, *size is its length.
 * @retval RTIPC_EINVAL rb not live, item or size NULL.
 * @retval RTIPC_ENOTSUP an allow-split ring buffer (its items may come in two
 *         parts: use rtipc_ringbuf_receive_split).
 * @retval RTIPC_EWOULDBLOCK nothing to receive and timeout is RTIPC_NO_WAIT.
 * @retval RTIPC_ETIMEDOUT still nothing when the timeout expired.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted to wait.
 * Outputs are written only on success.
 */
int rtipc_ringbuf_receive(rtipc_ringbuf_t *rb, void **item, size_t *size, rtipc_timeout_t timeout);

/**
 * Receive the next item in place as one or two parts, waiting up to
 * @p timeout. An item that wrapped gives its first part in @p head and the
 * rest in @p tail; otherwise *tail is NULL and *tail_size 0. Each non-NULL
 * part must be given back with rtipc_ringbuf_return.
 * Context: task only. Blocking: up to timeout. Concurrency: any number of
 * receivers.
 * @retval 0 received.
 * @retval RTIPC_EINVAL rb not live, or an output pointer NULL.
 * @retval RTIPC_ENOTSUP a byte buffer.
 * @retval RTIPC_EWOULDBLOCK nothing to receive and timeout is RTIPC_NO_WAIT.
 * @retval RTIPC_ETIMEDOUT still nothing when the timeout expired.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted to wait.
 * Outputs are written only on success.
 */
int rtipc_ringbuf_receive_split(rtipc_ringbuf_t *rb, void **head, size_t *head_size, void **tail,
                                size_t *tail_size, rtipc_timeout_t timeout);

/**
 * Byte buffers: receive up to @p max contiguous bytes in place, waiting up
 * to @p timeout for at least one. Give them back with rtipc_ringbuf_return
 * before the next receive (one read at a time; other receivers wait).
 * Context: task only. Blocking: up to timeout. Concurrency: any number of
 * receivers.
 * @retval 0 received: *size is 1 .. max.
 * @retval RTIPC_EINVAL rb not live, item or size NULL, or max 0.
 * @retval RTIPC_ENOTSUP not a byte buffer.
 * @retval RTIPC_EWOULDBLOCK nothing to receive and timeout is RTIPC_NO_WAIT.
 * @retval RTIPC_ETIMEDOUT still nothing when the timeout expired.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted to wait.
 * Outputs are written only on success.
 */
int rtipc_ringbuf_receive_up_to(rtipc_ringbuf_t *rb, void **item, size_t *size, size_t max,
                                rtipc_timeout_t timeout);

/**
 * Give back a received item (or one part of a split item). Its space is
 * freed once everything received before it has been given back too; a
 * waiting sender whose item then fits is woken.
 * Context: task only (use rtipc_ringbuf_return_from_isr in handlers).
 * Blocking: no. Concurrency: any; any task may return any received item.
 * Cost: walks the items received and not yet freed (O(items out)).
 * @retval 0 returned.
 * @retval RTIPC_EINVAL rb not live, or @p item is not a pointer handed out
 *         by a receive of this ring buffer that is still out (never
 *         received, already returned, or not the start of the item).
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * Port notes: ESP-IDF: rtipc refuses a pointer outside the storage (or
 * misaligned); one inside it that is not out (returned twice, never
 * received) is caught only by ESP-IDF's configASSERT, or not at all in a
 * byte buffer, where any return frees the outstanding read.
 */
int rtipc_ringbuf_return(rtipc_ringbuf_t *rb, void *item);

/**
 * Interrupt-safe send; never blocks.
 * Context: interrupt or task. Concurrency: any.
 * @param woken if not NULL, set to true (never cleared) when a task of higher
 *        priority than the interrupted one was readied (see irq.h).
 * @retval 0 sent.
 * @retval RTIPC_EINVAL rb not live, data NULL, size 0 or above the maximum.
 * @retval RTIPC_EWOULDBLOCK no room.
 * Port notes: ESP-IDF's from-ISR calls are in flash, not usable while the
 * cache is off, when CONFIG_RINGBUF_PLACE_ISR_FUNCTIONS_INTO_FLASH is set.
 */
int rtipc_ringbuf_send_from_isr(rtipc_ringbuf_t *rb, const void *data, size_t size, bool *woken);

/**
 * Interrupt-safe rtipc_ringbuf_receive; never blocks. Takes no woken flag:
 * receiving frees no space, so it readies no task.
 * Context: interrupt or task. Concurrency: any.
 * @retval 0 received. @retval RTIPC_EINVAL rb not live, item or size NULL.
 * @retval RTIPC_ENOTSUP an allow-split ring buffer.
 * @retval RTIPC_EWOULDBLOCK nothing to receive.
 */
int rtipc_ringbuf_receive_from_isr(rtipc_ringbuf_t *rb, void **item, size_t *size);

/**
 * Interrupt-safe rtipc_ringbuf_receive_split; never blocks, readies no task.
 * Context: interrupt or task.
 * @retval 0 received. @retval RTIPC_EINVAL rb not live or an output NULL.
 * @retval RTIPC_ENOTSUP a byte buffer.
 * @retval RTIPC_EWOULDBLOCK nothing to receive.
 */
int rtipc_ringbuf_receive_split_from_isr(rtipc_ringbuf_t *rb, void **head, size_t *head_size, void **tail,
                                         size_t *tail_size);

/**
 * Interrupt-safe rtipc_ringbuf_receive_up_to; never blocks, readies no task.
 * Context: interrupt or task.
 * @retval 0 received. @retval RTIPC_EINVAL rb not live, item or size NULL,
 *         or max 0. @retval RTIPC_ENOTSUP not a byte buffer.
 * @retval RTIPC_EWOULDBLOCK nothing to receive (or a read is out).
 */
int rtipc_ringbuf_receive_up_to_from_isr(rtipc_ringbuf_t *rb, void **item, size_t *size, size_t max);

/**
 * Interrupt-safe rtipc_ringbuf_return; never blocks.
 * Context: interrupt or task. Concurrency: any.
 * @param woken as for rtipc_ringbuf_send_from_isr (a sender waiting for
 *        space, or for a byte buffer a receiver, may be readied).
 * @retval 0 returned.
 * @retval RTIPC_EINVAL rb not live, or @p item is not a received item that
 *         is still out.
 */
int rtipc_ringbuf_return_from_isr(rtipc_ringbuf_t *rb, void *item, bool *woken);

/**
 * Largest item that could be sent now without waiting (every smaller length
 * fits too), or RTIPC_EINVAL. A snapshot.
 * Context: task or interrupt. Never blocks. Concurrency: any.
 * Port notes: ESP-IDF's figure; for allow-split it counts two headers when
 * the free space wraps (an item 8 bytes larger may fit at the end). Its
 * queries take the task form of the critical section: with
 * CONFIG_FREERTOS_CHECK_PORT_CRITICAL_COMPLIANCE, not from a handler.
 */
int rtipc_ringbuf_free_size(const rtipc_ringbuf_t *rb);

/**
 * Largest item the ring buffer accepts at all (into its empty storage):
 * size - 4 for the item types, size for a byte buffer; or RTIPC_EINVAL.
 * Context: task or interrupt. Never blocks. Concurrency: any.
 * Port notes: ESP-IDF: no-split (size / 2 rounded up to 4) - 8, allow-split
 * size - 16 (0 where that would be below 1).
 */
int rtipc_ringbuf_max_item_size(const rtipc_ringbuf_t *rb);

/**
 * Items stored and not yet received (acquired, incomplete items not
 * counted); for a byte buffer, bytes not yet received. Or RTIPC_EINVAL.
 * A snapshot. Context: task or interrupt. Never blocks. Concurrency: any.
 * Port notes: ESP-IDF counts each part of a split item (allow-split).
 */
int rtipc_ringbuf_items_waiting(const rtipc_ringbuf_t *rb);

/**
 * Storage bytes occupied now: headers, padding, wrap waste and items not yet
 * freed included; or RTIPC_EINVAL. A snapshot.
 * Context: task or interrupt. Never blocks. Concurrency: any.
 */
int rtipc_ringbuf_bytes_used(const rtipc_ringbuf_t *rb);

/**
 * Bytes this ring buffer occupies: control block plus storage (for a static
 * one, the caller's memory counted the same way). 0 if rb is not live.
 * Context: any. Never blocks.
 */
size_t rtipc_ringbuf_footprint(const rtipc_ringbuf_t *rb);

/**
 * Bytes a ring buffer created dynamically with this size and type occupies,
 * or 0 if the arguments are invalid. rtipc_ringbuf_footprint_for(0, type) is
 * the control block alone. Context: any. Never blocks.
 */
size_t rtipc_ringbuf_footprint_for(size_t size, rtipc_ringbuf_type_t type);

/**
 * Storage bytes one item of @p size bytes takes when stored in one piece
 * (no-split, allow-split: RTIPC_RINGBUF_ITEM_BYTES(size); byte buffer:
 * size), or 0 if type is unknown or size is 0 or above the largest size.
 * Wrap waste comes on top (see the file comment). Context: any.
 * Port notes: ESP-IDF's header is 8 bytes (RTIPC_RINGBUF_HEADER_SIZE).
 */
size_t rtipc_ringbuf_item_footprint(rtipc_ringbuf_type_t type, size_t size);

/**
 * Set the spin budget of this ring buffer's waiters (send, acquire,
 * receive): how long a blocking call spins before it parks (spin.h says when
 * a task may spin at all).
 * Context: task or interrupt. Never blocks. Concurrency: any; a wait already
 * spinning keeps the budget it started with.
 * @param ns RTIPC_SPIN_DEFAULT (follow rtipc_spin_default(); the setting of a
 *        new object), or 0 (park at once) .. RTIPC_SPIN_MAX_NS.
 * @retval 0 set. @retval RTIPC_EINVAL rb not a live ring buffer, or ns out of range.
 */
int rtipc_ringbuf_set_spin(rtipc_ringbuf_t *rb, int64_t ns);

#ifdef __cplusplus
}
#endif
#endif
