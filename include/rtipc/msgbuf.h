/**
 * @file msgbuf.h
 * @brief Message buffers: variable-length messages from one writer to one
 *        reader (FreeRTOS message buffer semantics).
 *
 * A message buffer is a stream buffer (streambuf.h) whose writes and reads
 * are whole messages. Each message is stored behind a length prefix of
 * RTIPC_MSGBUF_LENGTH_BYTES (4) bytes, on every target, in host byte order:
 * a message of n bytes takes n + 4 bytes of the buffer. (FreeRTOS uses
 * sizeof(size_t), which is 4 on its 32-bit targets; a fixed 4 keeps capacity
 * planning identical on a 64-bit host and on the MCU.)
 *
 * Messages are all-or-nothing: a send waits until the whole message fits and,
 * if the timeout expires first, writes nothing. A receive takes exactly one
 * message. A blocked reader is woken by any complete message (there is no
 * trigger level).
 *
 * A receive buffer too small for the next message: FreeRTOS returns 0 and
 * leaves the message. rtipc also leaves the message (nothing is consumed or
 * copied) but fails with RTIPC_EINVAL, the code for "a length argument this
 * call cannot use", and reports the message's length through @p len, so the
 * caller can retry with a large enough buffer. *len > cap tells this case
 * apart from the other invalid arguments, for which *len is 0.
 *
 * Concurrency: as for stream buffers, at most one writer inside a writing
 * call and one reader inside a reading call at a time; a second one is
 * refused with RTIPC_EBUSY.
 *
 * Memory: a control block of rtipc_msgbuf_footprint_for(0) bytes (72 with
 * the Linux port on 64-bit hosts) plus @p size bytes of storage (@p size + 1 on the FreeRTOS
 * port: the kernel keeps one byte free); one allocation when created
 * dynamically.
 */
#ifndef RTIPC_MSGBUF_H
#define RTIPC_MSGBUF_H

#include <stdbool.h>
#include <stddef.h>

#include "rtipc/config.h"
#include "rtipc/spin.h"
#include "rtipc/time.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes of length prefix stored before each message, on every target. */
#define RTIPC_MSGBUF_LENGTH_BYTES 4

/** Opaque message buffer handle. */
typedef struct rtipc_msgbuf rtipc_msgbuf_t;

/** Caller-provided memory for a statically created message buffer's control
 *  block (the storage is passed separately): RTIPC_MSGBUF_STATIC_SIZE bytes,
 *  per port (config.h). */
typedef struct {
    RTIPC_ALIGNAS(8) unsigned char opaque[RTIPC_MSGBUF_STATIC_SIZE];
} rtipc_msgbuf_static_t;

/** Bytes of storage a static message buffer of @p size bytes (prefixes
 *  included) needs: size on Linux, size + 1 on FreeRTOS. Usable in constant
 *  expressions. */
#define RTIPC_MSGBUF_STORAGE_SIZE(size) ((size) + RTIPC_BYTEBUF_STORAGE_EXTRA)

/**
 * Create a message buffer of @p size bytes (prefixes included), control
 * block and storage in one allocation. The largest message is
 * size - RTIPC_MSGBUF_LENGTH_BYTES bytes.
 * Context: task only. Blocking: no.
 * @retval 0 created; *out holds the handle.
 * @retval RTIPC_EINVAL out NULL, size below RTIPC_MSGBUF_LENGTH_BYTES + 1
 *         or above INT32_MAX.
 * @retval RTIPC_ENOMEM allocation failed, or every handle is in use (error.h).
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_msgbuf_create(size_t size, rtipc_msgbuf_t **out);

/**
 * Create a message buffer in caller memory: control block in @p cb, storage
 * of at least RTIPC_MSGBUF_STORAGE_SIZE(size) bytes in @p storage. Both must
 * outlive the buffer.
 * Context: task or interrupt. Blocking: no. Allocates nothing, except
 * that from a task it may grow the handle table (error.h).
 * @retval 0 created; *out holds its handle, which names @p cb (a handle
 *         is not the address of cb, error.h).
 * @retval RTIPC_ENOMEM every handle is in use (error.h).
 * @retval RTIPC_EINVAL out, cb or storage NULL, or size as for
 *         rtipc_msgbuf_create.
 * @retval RTIPC_ECONTEXT (FreeRTOS only) called from an interrupt handler.
 * Port notes: FreeRTOS: task context only (the kernel's creation enters a
 * task-level critical section); the storage is size + 1 bytes.
 */
int rtipc_msgbuf_create_static(size_t size, void *storage, rtipc_msgbuf_static_t *cb, rtipc_msgbuf_t **out);

/**
 * Delete a message buffer (freeing it if dynamic); messages in it are lost.
 * Context: task only. Blocking: no. Concurrency: no call may be in
 * progress; a call that follows gets RTIPC_EINVAL (error.h).
 * @retval 0 deleted. @retval RTIPC_EINVAL mb is not a live message buffer.
 * @retval RTIPC_EBUSY a writer or reader is inside a call on it; not deleted.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_msgbuf_delete(rtipc_msgbuf_t *mb);

/**
 * Write the message @p msg of @p len bytes, waiting up to @p timeout until
 * len + 4 bytes are free. All or nothing.
 * Context: task only. Blocking: up to timeout.
 * Concurrency: the single writer; concurrent with the reader and queries.
 * @retval 0 the whole message was written; a blocked reader was woken.
 * @retval RTIPC_EINVAL mb not a live message buffer, msg NULL, len 0, or
 *         len + 4 above the buffer's size (it could never fit).
 * @retval RTIPC_EBUSY another writer is inside a writing call; nothing written.
 * @retval RTIPC_EWOULDBLOCK not enough space and timeout RTIPC_NO_WAIT;
 *         nothing written.
 * @retval RTIPC_ETIMEDOUT still not enough space when the timeout expired;
 *         nothing written.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted to wait.
 */
int rtipc_msgbuf_send(rtipc_msgbuf_t *mb, const void *msg, size_t len, rtipc_timeout_t timeout);

/**
 * Take the next message into @p buf (capacity @p cap), waiting up to
 * @p timeout for one.
 * Context: task only. Blocking: up to timeout, only while the buffer is empty.
 * Concurrency: the single reader; concurrent with the writer and queries.
 * @param len receives the message's length: on success the bytes copied; on
 *        RTIPC_EINVAL because cap is too small, the length needed (> cap);
 *        0 on every other outcome.
 * @retval 0 one message of *len bytes was copied and removed; a blocked
 *         writer was woken if the space it waits for is now free.
 * @retval RTIPC_EINVAL the next message is longer than @p cap: it stays in
 *         the buffer, *len is its length. Also (with *len 0): mb not a live
 *         message buffer, buf or len NULL, or cap 0.
 * @retval RTIPC_EBUSY another reader is inside a reading call.
 * @retval RTIPC_EWOULDBLOCK empty and timeout RTIPC_NO_WAIT.
 * @retval RTIPC_ETIMEDOUT still empty when the timeout expired.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted to wait.
 */
int rtipc_msgbuf_receive(rtipc_msgbuf_t *mb, void *buf, size_t cap, size_t *len, rtipc_timeout_t timeout);

/**
 * Interrupt-safe send: writes the whole message now or nothing.
 * Context: interrupt or task. Concurrency: the single writer.
 * @param woken if not NULL, set to true (never cleared) when a task of higher
 *        priority than the interrupted one was readied (see irq.h).
 * @retval 0 written. @retval RTIPC_EINVAL as for rtipc_msgbuf_send.
 * @retval RTIPC_EBUSY another writer is inside a writing call.
 * @retval RTIPC_EWOULDBLOCK not enough space now; nothing written.
 */
int rtipc_msgbuf_send_from_isr(rtipc_msgbuf_t *mb, const void *msg, size_t len, bool *woken);

/**
 * Interrupt-safe receive: takes the next message if there is one; never
 * blocks. @p len and the too-small case as for rtipc_msgbuf_receive.
 * Context: interrupt or task. Concurrency: the single reader.
 * @retval 0 one message of *len bytes copied and removed.
 * @retval RTIPC_EINVAL as for rtipc_msgbuf_receive.
 * @retval RTIPC_EBUSY another reader is inside a reading call.
 * @retval RTIPC_EWOULDBLOCK the buffer is empty.
 */
int rtipc_msgbuf_receive_from_isr(rtipc_msgbuf_t *mb, void *buf, size_t cap, size_t *len, bool *woken);

/**
 * Length of the next message (a snapshot), 0 when the buffer is empty, or
 * RTIPC_EINVAL. Messages are never empty, so 0 always means "no message".
 * Context: task or interrupt. Never blocks. Concurrency: any.
 */
int rtipc_msgbuf_next_length(const rtipc_msgbuf_t *mb);

/**
 * Discard every message. Refused while a writer or reader is inside a call.
 * Context: task or interrupt. Never blocks. Concurrency: any.
 * @retval 0 emptied. @retval RTIPC_EINVAL mb not a live message buffer.
 * @retval RTIPC_EBUSY a writer or reader is inside a call; nothing changed.
 * @retval RTIPC_ENOTSUP from an interrupt on a FreeRTOS kernel before V11.1,
 *         which has no interrupt-safe reset (docs/porting.md); nothing changed.
 */
int rtipc_msgbuf_reset(rtipc_msgbuf_t *mb);

/**
 * Bytes in use now, prefixes included (a snapshot), or RTIPC_EINVAL.
 * Context: task or interrupt. Never blocks. Concurrency: any.
 */
int rtipc_msgbuf_bytes_available(const rtipc_msgbuf_t *mb);

/**
 * Free bytes now, prefixes not subtracted (a snapshot; the largest message
 * that fits now is 4 bytes less), or RTIPC_EINVAL.
 * Context: task or interrupt. Never blocks. Concurrency: any.
 */
int rtipc_msgbuf_spaces_available(const rtipc_msgbuf_t *mb);

/**
 * 1 if no message is buffered, 0 otherwise (a snapshot), or RTIPC_EINVAL.
 * Context: task or interrupt. Never blocks. Concurrency: any.
 */
int rtipc_msgbuf_is_empty(const rtipc_msgbuf_t *mb);

/**
 * 1 if not even a 1-byte message fits (at most 4 bytes free), 0 otherwise
 * (a snapshot), or RTIPC_EINVAL.
 * Context: task or interrupt. Never blocks. Concurrency: any.
 */
int rtipc_msgbuf_is_full(const rtipc_msgbuf_t *mb);

/**
 * Bytes this buffer occupies: control block plus storage. 0 if mb is not
 * live. Context: any. Never blocks.
 */
size_t rtipc_msgbuf_footprint(const rtipc_msgbuf_t *mb);

/**
 * Bytes a message buffer of @p size bytes occupies, or 0 if the size is
 * invalid; rtipc_msgbuf_footprint_for(0) is the control block alone.
 * Context: any. Never blocks.
 */
size_t rtipc_msgbuf_footprint_for(size_t size);

/**
 * Set the spin budget of this message buffer's writer and reader: how long
 * a blocking call spins before it parks (spin.h says when a task may spin at
 * all).
 * Context: task or interrupt. Never blocks. Concurrency: any; a wait already
 * spinning keeps the budget it started with.
 * @param ns RTIPC_SPIN_DEFAULT (follow rtipc_spin_default(); the setting of a
 *        new object), or 0 (park at once) .. RTIPC_SPIN_MAX_NS.
 * @retval 0 set. @retval RTIPC_EINVAL mb not a live message buffer, or ns out of range.
 */
int rtipc_msgbuf_set_spin(rtipc_msgbuf_t *mb, int64_t ns);

#ifdef __cplusplus
}
#endif
#endif
