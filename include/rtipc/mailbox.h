/**
 * @file mailbox.h
 * @brief Latest-value mailbox: writers publish, readers copy the newest value.
 *
 * rtipc's answer to "state values sent through a queue go stale": a mailbox
 * holds one value of a fixed size, always the newest one written. Writers
 * never block and never wait for readers; any number of readers get a
 * consistent copy of the newest complete value, never a torn mix of two
 * writes. Every completed write adds one to a 64-bit version (0 is the
 * initial value given at creation), and readers learn the version of their
 * copy, so they can tell how many updates they missed.
 *
 * Protocol: two buffers and a 64-bit sequence (version x 2, +1 while a write
 * is in progress). A writer claims the sequence with one compare-and-swap,
 * fills the buffer the newest value is NOT in, and publishes it by advancing
 * the sequence. A reader copies the buffer of the version it sees and checks
 * afterwards that no later write reused that buffer meanwhile; if one did, it
 * copies again. So a reader is never held up by one write in progress (not
 * even by a writer preempted in the middle of it), retries only when two
 * writes complete-and-start during one copy, and the writer never looks at
 * readers. Copies use relaxed atomic word accesses, so the protocol is free
 * of data races under the C11 memory model (docs/design.md explains why a
 * plain memcpy would not be).
 *
 * Several writers: allowed. The compare-and-swap serialises them without
 * waiting: a write that finds another write in progress does not wait for it
 * (the other writer may be a preempted task, or the task the calling handler
 * interrupted) but returns RTIPC_EWOULDBLOCK, and its value is not written.
 * Nothing is dropped silently: the caller learns it and may retry or let the
 * concurrent value stand. With a single writer this never happens.
 *
 * Waiting: rtipc_mailbox_wait_newer parks until a version newer than the one
 * the caller last saw exists. A write pays for waiters only when some exist:
 * one full fence and a flag load on every write, the mailbox lock and the
 * wake-up calls only while a task waits.
 *
 * Memory: a control block of rtipc_mailbox_footprint_for(0) bytes (64 at
 * most) plus RTIPC_MAILBOX_STORAGE_SIZE(value_size) bytes of storage: two
 * copies of the value, each rounded up to 8 bytes.
 */
#ifndef RTIPC_MAILBOX_H
#define RTIPC_MAILBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rtipc/config.h"
#include "rtipc/spin.h"
#include "rtipc/time.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque mailbox handle. */
typedef struct rtipc_mailbox rtipc_mailbox_t;

/** Caller-provided memory for a statically created mailbox's control block. */
typedef struct {
    RTIPC_ALIGNAS(8) unsigned char opaque[64];
} rtipc_mailbox_static_t;

/** Largest value a mailbox may hold, in bytes (1 GiB). */
#define RTIPC_MAILBOX_MAX_VALUE_SIZE ((size_t)1 << 30)

/** Bytes of storage (8-byte aligned) a static mailbox of values of
 *  @p value_size bytes needs: two copies, each rounded up to 8 bytes. */
#define RTIPC_MAILBOX_STORAGE_SIZE(value_size) ((size_t)2 * ((((size_t)(value_size)) + 7) / 8 * 8))

/**
 * Create a mailbox holding @p initial (value_size bytes; NULL: all zero
 * bytes) as version 0. Control block and storage in one allocation.
 * Context: task only. Blocking: no.
 * @retval 0 created; *out holds the handle.
 * @retval RTIPC_EINVAL out NULL, value_size 0 or above
 *         RTIPC_MAILBOX_MAX_VALUE_SIZE.
 * @retval RTIPC_ENOMEM allocation failed, or every handle is in use (error.h).
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * Port notes: bare metal (no kernel, no heap) has no rtipc_mailbox_create;
 * use rtipc_mailbox_create_static.
 */
int rtipc_mailbox_create(size_t value_size, const void *initial, rtipc_mailbox_t **out);

/**
 * Create a mailbox in caller memory: the control block in @p cb, the two
 * copies of the value in @p storage (RTIPC_MAILBOX_STORAGE_SIZE(value_size)
 * bytes, 8-byte aligned). Both must outlive the mailbox. @p initial as for
 * rtipc_mailbox_create.
 * Context: task or interrupt. Blocking: no. Allocates nothing, except
 * that from a task it may grow the handle table (error.h).
 * @retval 0 created; *out holds its handle, which names @p cb (a handle
 *         is not the address of cb, error.h).
 * @retval RTIPC_ENOMEM every handle is in use (error.h).
 * @retval RTIPC_EINVAL out, cb or storage NULL, storage not 8-byte aligned,
 *         value_size 0 or too large.
 */
int rtipc_mailbox_create_static(size_t value_size, const void *initial, void *storage,
                                rtipc_mailbox_static_t *cb, rtipc_mailbox_t **out);

/**
 * Delete a mailbox (freeing it if it was created dynamically).
 * Context: task only. Blocking: no. Concurrency: no other call on the mailbox
 * may be in progress; a call that follows gets RTIPC_EINVAL (error.h).
 * @retval 0 deleted.
 * @retval RTIPC_EINVAL mb is not a live mailbox.
 * @retval RTIPC_EBUSY tasks wait in rtipc_mailbox_wait_newer; not deleted.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * Port notes: bare metal frees nothing (static mailboxes only) and cannot
 * tell an interrupt handler from the main loop: delete from the main loop;
 * it is never RTIPC_EBUSY there (nothing waits).
 */
int rtipc_mailbox_delete(rtipc_mailbox_t *mb);

/**
 * Publish @p value (value_size bytes) as the newest value: version + 1.
 * Lock-free: never blocks, never waits for readers or for another writer.
 * Wakes the tasks waiting for a newer version (from a handler, through the
 * interrupt path, without reporting woken: use the _from_isr variant for
 * that).
 * Context: task or interrupt. Concurrency: any number of writers and readers.
 * @retval 0 written.
 * @retval RTIPC_EINVAL mb not a live mailbox, or value NULL.
 * @retval RTIPC_EWOULDBLOCK another write was in progress (several writers
 *         only); this value was not written.
 */
int rtipc_mailbox_write(rtipc_mailbox_t *mb, const void *value);

/**
 * Interrupt-safe publish: as rtipc_mailbox_write, waking waiters through the
 * interrupt path.
 * Context: interrupt or task. Blocking: never. Concurrency: any.
 * @param woken if not NULL, set to true (never cleared) when a woken task
 *        outranks the interrupted task (see irq.h).
 * @retval 0 written. @retval RTIPC_EINVAL mb not live or value NULL.
 * @retval RTIPC_EWOULDBLOCK another write was in progress; not written.
 */
int rtipc_mailbox_write_from_isr(rtipc_mailbox_t *mb, const void *value, bool *woken);

/**
 * Copy the newest complete value into @p buf (value_size bytes) and its
 * version into *version (if not NULL). Lock-free: never blocks; copies again
 * only if, during its copy, one write completed and the next one started.
 * Context: any (task or interrupt). Concurrency: any number of readers and
 * writers. Per reader, versions never go backwards.
 * @retval 0 copied.
 * @retval RTIPC_EINVAL mb not a live mailbox, or buf NULL.
 */
int rtipc_mailbox_read(const rtipc_mailbox_t *mb, void *buf, uint64_t *version);

/**
 * Wait until the mailbox holds a version newer than @p last_seen, then copy
 * the newest value into @p buf and its version into *version (if not NULL).
 * Returns at once if a newer version already exists. On an error nothing is
 * written to buf or *version.
 * Context: task only. Blocking: up to timeout. Concurrency: any number of
 * waiters, readers and writers.
 * @retval 0 copied; the version is > last_seen.
 * @retval RTIPC_EINVAL mb not a live mailbox, or buf NULL.
 * @retval RTIPC_EWOULDBLOCK no newer version and timeout is RTIPC_NO_WAIT.
 * @retval RTIPC_ETIMEDOUT no newer version when the timeout expired.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted to wait.
 */
int rtipc_mailbox_wait_newer(rtipc_mailbox_t *mb, void *buf, uint64_t last_seen, uint64_t *version,
                             rtipc_timeout_t timeout);

/**
 * The newest complete version (writes completed since creation), without
 * copying the value.
 * Context: any. Never blocks. Concurrency: any.
 * @retval 0 *version set. @retval RTIPC_EINVAL mb not live, or version NULL.
 */
int rtipc_mailbox_version(const rtipc_mailbox_t *mb, uint64_t *version);

/**
 * Bytes this mailbox occupies: control block plus storage (for a static
 * mailbox, the caller's memory counted the same way). 0 if mb is not live.
 * Context: any. Never blocks.
 */
size_t rtipc_mailbox_footprint(const rtipc_mailbox_t *mb);

/**
 * Bytes a mailbox of values of @p value_size bytes occupies, or 0 if the size
 * is invalid. rtipc_mailbox_footprint_for(0) is the control block alone.
 * Context: any. Never blocks.
 */
size_t rtipc_mailbox_footprint_for(size_t value_size);

/**
 * Set the spin budget of this mailbox's rtipc_mailbox_wait_newer callers:
 * how long they spin before they park (spin.h says when a task may spin at
 * all). They spin on the version before raising the sleepers flag, so
 * writers pay nothing for a spinning reader.
 * Context: task or interrupt. Never blocks. Concurrency: any; a wait already
 * spinning keeps the budget it started with.
 * @param ns RTIPC_SPIN_DEFAULT (follow rtipc_spin_default(); the setting of a
 *        new object), or 0 (park at once) .. RTIPC_SPIN_MAX_NS.
 * @retval 0 set. @retval RTIPC_EINVAL mb not a live mailbox, or ns out of range.
 */
int rtipc_mailbox_set_spin(rtipc_mailbox_t *mb, int64_t ns);

#ifdef __cplusplus
}
#endif
#endif
