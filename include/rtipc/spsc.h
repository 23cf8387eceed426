/**
 * @file spsc.h
 * @brief Lock-free single-producer single-consumer ring of fixed-size items.
 *
 * A bounded FIFO for exactly one producer and one consumer. Items are copied
 * in and out by value. The capacity is a power of two and the item size is
 * fixed at creation.
 *
 * - try_push / try_pop / push_bulk / pop_bulk / peek are wait-free: a bounded
 *   number of steps, no lock and no system call, whatever the other side
 *   does. The only exception is the wake-up of a parked peer (below).
 * - rtipc_spsc_push / rtipc_spsc_pop wait up to a timeout: they poll the ring
 *   for a short bounded time, then park the calling task. A parked side is
 *   woken by the other side's next successful operation, without lost
 *   wake-ups.
 * - Waking costs the other side the ring's internal lock and one wake-up
 *   call, and only when a side actually sleeps: with nobody parked, every
 *   operation stays lock-free. Each successful operation checks for a
 *   sleeper behind a fence (the bulk calls once per call): on Linux, where
 *   the kernel offers a process-wide barrier, a compiler barrier, the side
 *   about to park paying the barrier; elsewhere a full memory fence
 *   (rtipc_spsc_fence_t).
 *
 * Concurrency contract (not checked): at any moment at most one thread or
 * handler produces (try_push, push_bulk, push, push_from_isr,
 * push_bulk_from_isr) and at most one consumes (try_pop, pop_bulk, peek, pop,
 * pop_from_isr, pop_bulk_from_isr). Producer and consumer run concurrently
 * with each other. A second concurrent producer or consumer is a contract
 * violation: items may be lost, duplicated or torn. The producer role may
 * pass from one thread to another (for example from a task to a handler)
 * only through synchronisation that orders the two, e.g. a lock or a
 * semaphore; the same holds for the consumer. rtipc_spsc_size and
 * rtipc_spsc_capacity may be called by anyone at any time.
 *
 * Interrupt handlers may produce or consume with the non-blocking calls. If
 * the other side is parked, the _from_isr calls wake it through the
 * interrupt path and report it in their woken flag (see irq.h); the plain
 * try/bulk calls wake it the same way but report nothing.
 *
 * Memory: a control block of three 64-byte cache lines (192 bytes: the
 * producer's index, the consumer's index and the shared read-mostly part
 * each on its own line, so the two sides never write the same line) plus
 * capacity x item_size bytes of storage; rtipc_spsc_footprint_for gives the
 * total.
 */
#ifndef RTIPC_SPSC_H
#define RTIPC_SPSC_H

#include <stdbool.h>
#include <stddef.h>

#include "rtipc/config.h"
#include "rtipc/spin.h"
#include "rtipc/time.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque ring handle. */
typedef struct rtipc_spsc rtipc_spsc_t;

/** Caller-provided memory for a statically created ring's control block:
 *  three cache lines, 64-byte aligned (a declared variable of this type is). */
typedef struct {
    RTIPC_ALIGNAS(64) unsigned char opaque[192];
} rtipc_spsc_static_t;

/** Largest capacity a ring may have (2^30 items). */
#define RTIPC_SPSC_MAX_CAPACITY (1u << 30)

/**
 * Create a ring: control block and storage in one cache-line-aligned
 * allocation.
 * Context: task only. Blocking: no.
 * @param capacity items the ring holds: a power of two, 1 .. 2^30.
 * @param item_size bytes per item, > 0; capacity x item_size <= UINT32_MAX.
 * @retval 0 created; *out holds the handle (empty ring).
 * @retval RTIPC_EINVAL out NULL, capacity 0, not a power of two or above
 *         RTIPC_SPSC_MAX_CAPACITY, item_size 0, or the storage size overflows.
 * @retval RTIPC_ENOMEM allocation failed, or every handle is in use (error.h).
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * Port notes: bare metal (no kernel, no heap) has no rtipc_spsc_create; use
 * rtipc_spsc_create_static.
 */
int rtipc_spsc_create(size_t capacity, size_t item_size, rtipc_spsc_t **out);

/**
 * Create a ring in caller memory: the control block in @p cb (64-byte
 * aligned), the items in @p storage (capacity x item_size bytes, any
 * alignment). Both must outlive the ring.
 * Context: task or interrupt. Blocking: no. Allocates nothing, except
 * that from a task it may grow the handle table (error.h).
 * @retval 0 created; *out holds its handle, which names @p cb (a handle
 *         is not the address of cb, error.h).
 * @retval RTIPC_ENOMEM every handle is in use (error.h).
 * @retval RTIPC_EINVAL out, cb or storage NULL, cb not 64-byte aligned, or an
 *         invalid shape (as for rtipc_spsc_create).
 */
int rtipc_spsc_create_static(size_t capacity, size_t item_size, void *storage, rtipc_spsc_static_t *cb,
                             rtipc_spsc_t **out);

/**
 * Delete a ring (freeing it if created dynamically); items still in it are
 * discarded.
 * Context: task only. Blocking: no. Concurrency: no other call on the ring
 * may be in progress; a call that follows gets RTIPC_EINVAL (error.h).
 * @retval 0 deleted.
 * @retval RTIPC_EINVAL r is not a live ring.
 * @retval RTIPC_EBUSY a task is parked in rtipc_spsc_push or rtipc_spsc_pop;
 *         the ring was not deleted.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * Port notes: bare metal frees nothing (static rings only) and cannot tell
 * an interrupt handler from the main loop: delete from the main loop; it is
 * never RTIPC_EBUSY there (nothing parks).
 */
int rtipc_spsc_delete(rtipc_spsc_t *r);

/**
 * Producer: copy @p item in at the back if there is room. Wait-free; wakes a
 * parked consumer.
 * Context: task or interrupt. Blocking: never.
 * Concurrency: the one producer, concurrently with the one consumer.
 * @retval 0 pushed.
 * @retval RTIPC_EINVAL r not a live ring, or item NULL.
 * @retval RTIPC_EWOULDBLOCK the ring is full.
 */
int rtipc_spsc_try_push(rtipc_spsc_t *r, const void *item);

/**
 * Consumer: move the front item into @p item if there is one. Wait-free; wakes
 * a parked producer.
 * Context: task or interrupt. Blocking: never.
 * Concurrency: the one consumer, concurrently with the one producer.
 * @retval 0 popped.
 * @retval RTIPC_EINVAL r not a live ring, or item NULL.
 * @retval RTIPC_EWOULDBLOCK the ring is empty.
 */
int rtipc_spsc_try_pop(rtipc_spsc_t *r, void *item);

/**
 * Producer: copy up to @p n items from the array @p items (n x item_size
 * bytes) in, as many as fit, in order. Wait-free; one fence for the batch.
 * Context: task or interrupt. Blocking: never. Concurrency: as try_push.
 * @return the number of items pushed, 0 .. n (0: the ring is full), or
 * @retval RTIPC_EINVAL r not a live ring, items NULL, or n 0.
 */
int rtipc_spsc_push_bulk(rtipc_spsc_t *r, const void *items, size_t n);

/**
 * Consumer: move up to @p n front items into the array @p items (room for
 * n x item_size bytes), in order. Wait-free; one fence for the batch.
 * Context: task or interrupt. Blocking: never. Concurrency: as try_pop.
 * @return the number of items popped, 0 .. n (0: the ring is empty), or
 * @retval RTIPC_EINVAL r not a live ring, items NULL, or n 0.
 */
int rtipc_spsc_pop_bulk(rtipc_spsc_t *r, void *items, size_t n);

/**
 * Consumer: copy the front item into @p item without removing it. Wait-free.
 * Context: task or interrupt. Blocking: never. Concurrency: a consumer call
 * (only the consumer may peek).
 * @retval 0 copied.
 * @retval RTIPC_EINVAL r not a live ring, or item NULL.
 * @retval RTIPC_EWOULDBLOCK the ring is empty.
 */
int rtipc_spsc_peek(rtipc_spsc_t *r, void *item);

/**
 * Producer: push @p item, waiting up to @p timeout for room. With no room it
 * polls the ring for a bounded time (64 polls, plus the library's spin budget
 * when one is configured), then parks until the consumer frees a slot.
 * Context: task only. Blocking: up to timeout.
 * Concurrency: the one producer, concurrently with the one consumer.
 * @retval 0 pushed.
 * @retval RTIPC_EINVAL r not a live ring, or item NULL.
 * @retval RTIPC_EWOULDBLOCK full and timeout is RTIPC_NO_WAIT.
 * @retval RTIPC_ETIMEDOUT still full when the timeout expired.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted to park.
 * Port notes: bare metal (no kernel) cannot wait: a call that would have to
 * is RTIPC_ENOTSUP, and it cannot tell an interrupt handler (no
 * RTIPC_ECONTEXT there).
 */
int rtipc_spsc_push(rtipc_spsc_t *r, const void *item, rtipc_timeout_t timeout);

/**
 * Consumer: pop the front item into @p item, waiting up to @p timeout for one;
 * polls, then parks as rtipc_spsc_push does.
 * Context: task only. Blocking: up to timeout.
 * Concurrency: the one consumer, concurrently with the one producer.
 * @retval 0 popped.
 * @retval RTIPC_EINVAL r not a live ring, or item NULL.
 * @retval RTIPC_EWOULDBLOCK empty and timeout is RTIPC_NO_WAIT.
 * @retval RTIPC_ETIMEDOUT still empty when the timeout expired.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted to park.
 * Port notes: bare metal (no kernel) cannot wait: a call that would have to
 * is RTIPC_ENOTSUP, and it cannot tell an interrupt handler (no
 * RTIPC_ECONTEXT there).
 */
int rtipc_spsc_pop(rtipc_spsc_t *r, void *item, rtipc_timeout_t timeout);

/**
 * Interrupt-safe push: as rtipc_spsc_try_push, and if the consumer was parked
 * it is woken through the interrupt path.
 * Context: interrupt or task. Blocking: never. Concurrency: as try_push.
 * @param woken if not NULL, set to true (never cleared) when the woken
 *        consumer outranks the interrupted task (see irq.h).
 * @retval 0 pushed. @retval RTIPC_EINVAL r not a live ring, or item NULL.
 * @retval RTIPC_EWOULDBLOCK the ring is full.
 */
int rtipc_spsc_push_from_isr(rtipc_spsc_t *r, const void *item, bool *woken);

/**
 * Interrupt-safe pop: as rtipc_spsc_try_pop, waking a parked producer through
 * the interrupt path; @p woken as for rtipc_spsc_push_from_isr.
 * Context: interrupt or task. Blocking: never. Concurrency: as try_pop.
 * @retval 0 popped. @retval RTIPC_EINVAL r not a live ring, or item NULL.
 * @retval RTIPC_EWOULDBLOCK the ring is empty.
 */
int rtipc_spsc_pop_from_isr(rtipc_spsc_t *r, void *item, bool *woken);

/**
 * Interrupt-safe bulk push: as rtipc_spsc_push_bulk, with @p woken as for
 * rtipc_spsc_push_from_isr.
 * @return items pushed (0 .. n), or RTIPC_EINVAL as rtipc_spsc_push_bulk.
 */
int rtipc_spsc_push_bulk_from_isr(rtipc_spsc_t *r, const void *items, size_t n, bool *woken);

/**
 * Interrupt-safe bulk pop: as rtipc_spsc_pop_bulk, with @p woken as for
 * rtipc_spsc_push_from_isr.
 * @return items popped (0 .. n), or RTIPC_EINVAL as rtipc_spsc_pop_bulk.
 */
int rtipc_spsc_pop_bulk_from_isr(rtipc_spsc_t *r, void *items, size_t n, bool *woken);

/**
 * Items in the ring, or RTIPC_EINVAL: a snapshot, never above the capacity.
 * The other side may change it at once, but in a known direction: called by
 * the consumer, at least this many items can be popped; called by the
 * producer, at least capacity - size items can be pushed.
 * Context: any. Never blocks. Concurrency: any.
 */
int rtipc_spsc_size(const rtipc_spsc_t *r);

/**
 * The ring's capacity in items, or RTIPC_EINVAL.
 * Context: any. Never blocks. Concurrency: any.
 */
int rtipc_spsc_capacity(const rtipc_spsc_t *r);

/**
 * Bytes this ring occupies: control block plus storage (for a static ring,
 * the caller's memory counted the same way). 0 if r is not a live ring.
 * Context: any. Never blocks.
 */
size_t rtipc_spsc_footprint(const rtipc_spsc_t *r);

/**
 * Bytes a ring of this shape occupies (192 + capacity x item_size), or 0 if
 * the shape is invalid. rtipc_spsc_footprint_for(0, 0) is the control block
 * alone. Context: any. Never blocks.
 */
size_t rtipc_spsc_footprint_for(size_t capacity, size_t item_size);

/**
 * Set the spin budget of both sides of this ring: how long rtipc_spsc_push
 * and rtipc_spsc_pop spin before they park (spin.h says when a task may spin
 * at all). They spin on the ring itself, before raising their sleeping flag,
 * so the other side pays nothing for a spinning peer.
 * Context: task or interrupt. Never blocks. Concurrency: any; a wait already
 * spinning keeps the budget it started with.
 * @param ns RTIPC_SPIN_DEFAULT (follow rtipc_spin_default(); the setting of a
 *        new object), or 0 (park at once) .. RTIPC_SPIN_MAX_NS.
 * @retval 0 set. @retval RTIPC_EINVAL r not a live ring, or ns out of range.
 */
int rtipc_spsc_set_spin(rtipc_spsc_t *r, int64_t ns);

/** How a ring orders its index stores before it looks for a parked peer. */
typedef enum {
    /** A full fence on every successful push and pop: each waits for its
     * index store to reach the other core. The default where the port has
     * no process-wide barrier (FreeRTOS, bare metal; Linux where the kernel
     * refuses it, and ThreadSanitizer builds). Choose it on Linux when no
     * other CPU running the process may be interrupted by a park, e.g. a
     * process with threads on isolated cores. */
    RTIPC_SPSC_FENCE_SYMMETRIC = 0,
    /** A compiler barrier on every push and pop; a side about to park pays
     * a process-wide barrier instead (Linux: membarrier
     * MEMBARRIER_CMD_PRIVATE_EXPEDITED). The default where the port has
     * it. Streams 3-4x faster per item; each park costs the barrier, which
     * interrupts every CPU running a thread of the process (its cost,
     * measured by rtipc-bench peers, is in docs/performance.md), and a
     * message arriving meanwhile waits for it. */
    RTIPC_SPSC_FENCE_ASYMMETRIC = 1,
} rtipc_spsc_fence_t;

/**
 * Choose the fence of the rings created from now on (a ring keeps the one
 * it was created with). Context: task. Never blocks (the first asymmetric
 * choice registers the process with the kernel once). Concurrency: any;
 * a ring created concurrently gets the old or the new policy.
 * @retval 0 in force.
 * @retval RTIPC_EINVAL not one of rtipc_spsc_fence_t.
 * @retval RTIPC_ENOTSUP asymmetric, and the port has no process-wide barrier
 *         or the kernel refuses it (FreeRTOS, bare metal; Linux before 4.14,
 *         seccomp; ThreadSanitizer builds, which cannot see it): the policy
 *         stays as it was.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_spsc_set_fence(rtipc_spsc_fence_t fence);

/** The fence rings created now get: the last one chosen, else the port's
 * default (rtipc_spsc_fence_t). Context: any. Never blocks (the first call
 * on Linux asks the kernel once whether it has the barrier). */
rtipc_spsc_fence_t rtipc_spsc_fence(void);

/** The fence ring @p r was created with, or -1 (RTIPC_EINVAL) when @p r is
 * not a live ring. Context: any. Never blocks. */
int rtipc_spsc_fence_of(const rtipc_spsc_t *r);

#ifdef __cplusplus
}
#endif
#endif
