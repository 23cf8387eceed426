/**
 * @file streambuf.h
 * @brief Stream buffers: a byte ring from one writer to one reader
 *        (FreeRTOS stream buffer semantics).
 *
 * Bytes are copied in by the writer and out by the reader, with no message
 * boundaries: one send of 10 bytes may be read as 3 + 7, and two sends may be
 * read at once.
 *
 * Trigger level: a reader that finds the buffer empty blocks until the
 * buffered bytes reach the trigger level (0 counts as 1) or its timeout
 * expires; at the timeout it takes whatever bytes are there. A reader that
 * finds bytes on entry takes them at once, even fewer than the trigger level.
 *
 * Writing: a send waits until the whole request fits (or, for a request
 * larger than the buffer, until the buffer is empty), then writes as much as
 * fits. With RTIPC_NO_WAIT, or when a finite timeout expires, it writes what
 * fits at that moment. The number of bytes written comes back in *sent and is
 * below the request only in those cases; the call returns an error only when
 * it wrote nothing. So an error always means "nothing happened", and 0 means
 * "*sent bytes were written", as FreeRTOS's byte count would say.
 *
 * As in FreeRTOS, a writer that waits for more than size - (trigger - 1)
 * free bytes can wait forever against a reader that waits for the trigger
 * level (fewer bytes than the trigger are buffered, yet too few are free for
 * the writer). With long timeouts on both sides, keep each send at most
 * size - trigger + 1 bytes.
 *
 * Concurrency (the single-writer / single-reader contract of FreeRTOS, made
 * checkable): at most one task or handler may be inside a writing call
 * (send, send_from_isr) and at most one inside a reading call (receive,
 * receive_from_isr) at any time; a writer and a reader may run concurrently
 * with each other and with the queries. A second writer (or reader) that
 * calls while another is inside its call, blocked or not, is refused with
 * RTIPC_EBUSY and changes nothing. (FreeRTOS leaves that case undefined.)
 * Refusal is the detection of a contract violation, not a way to share the
 * buffer: use a queue or a mutex for several writers.
 *
 * Memory: a control block of rtipc_streambuf_footprint_for(0) bytes (72 with
 * the Linux port on 64-bit hosts) plus @p size bytes of storage, all usable (no byte is lost to
 * tell full from empty; on the FreeRTOS port the kernel's buffer needs
 * @p size + 1 bytes). One allocation when created dynamically; caller
 * storage when created statically.
 */
#ifndef RTIPC_STREAMBUF_H
#define RTIPC_STREAMBUF_H

#include <stdbool.h>
#include <stddef.h>

#include "rtipc/config.h"
#include "rtipc/spin.h"
#include "rtipc/time.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque stream buffer handle. */
typedef struct rtipc_streambuf rtipc_streambuf_t;

/** Caller-provided memory for a statically created stream buffer's control
 *  block (the byte storage is passed separately): RTIPC_STREAMBUF_STATIC_SIZE
 *  bytes, per port (config.h). */
typedef struct {
    RTIPC_ALIGNAS(8) unsigned char opaque[RTIPC_STREAMBUF_STATIC_SIZE];
} rtipc_streambuf_static_t;

/** Bytes of storage a static stream buffer of @p size usable bytes needs:
 *  size on Linux, size + 1 on FreeRTOS. Usable in constant expressions. */
#define RTIPC_STREAMBUF_STORAGE_SIZE(size) ((size) + RTIPC_BYTEBUF_STORAGE_EXTRA)

/**
 * Create a stream buffer of @p size bytes, control block and storage in one
 * allocation.
 * Context: task only. Blocking: no.
 * @param trigger_level bytes a blocked reader waits for (0 means 1).
 * @retval 0 created; *out holds the handle.
 * @retval RTIPC_EINVAL out NULL, size 0 or above INT32_MAX, or trigger_level
 *         above size.
 * @retval RTIPC_ENOMEM allocation failed, or every handle is in use (error.h).
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_streambuf_create(size_t size, size_t trigger_level, rtipc_streambuf_t **out);

/**
 * Create a stream buffer in caller memory: the control block in @p cb, the
 * bytes in @p storage (at least RTIPC_STREAMBUF_STORAGE_SIZE(size) bytes).
 * Both must outlive the buffer.
 * Context: task or interrupt. Blocking: no. Allocates nothing, except
 * that from a task it may grow the handle table (error.h).
 * @retval 0 created; *out holds its handle, which names @p cb (a handle
 *         is not the address of cb, error.h).
 * @retval RTIPC_ENOMEM every handle is in use (error.h).
 * @retval RTIPC_EINVAL out, cb or storage NULL, or size/trigger_level as for
 *         rtipc_streambuf_create.
 * @retval RTIPC_ECONTEXT (FreeRTOS only) called from an interrupt handler.
 * Port notes: FreeRTOS: task context only (the kernel's creation enters a
 * task-level critical section); the storage is size + 1 bytes.
 */
int rtipc_streambuf_create_static(size_t size, size_t trigger_level, void *storage,
                                  rtipc_streambuf_static_t *cb, rtipc_streambuf_t **out);

/**
 * Delete a stream buffer (freeing it if it was created dynamically); bytes
 * still in it are discarded.
 * Context: task only. Blocking: no. Concurrency: no other call on the buffer
 * may be in progress; a call that follows gets RTIPC_EINVAL (error.h).
 * @retval 0 deleted.
 * @retval RTIPC_EINVAL sb is not a live stream buffer.
 * @retval RTIPC_EBUSY a writer or reader is inside a call on it (blocked or
 *         not); not deleted.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_streambuf_delete(rtipc_streambuf_t *sb);

/**
 * Write up to @p len bytes from @p data (see "Writing" above).
 * Context: task only (use the _from_isr variant in handlers).
 * Blocking: up to timeout, until min(len, size) bytes are free.
 * Concurrency: the single writer; concurrent with the reader and queries.
 * @param sent receives the bytes written (1..len on success, 0 on error).
 *        Fewer than len only with RTIPC_NO_WAIT, after a finite timeout
 *        expired, or when len exceeds the buffer's size.
 * @retval 0 *sent bytes were written; a blocked reader was woken if the
 *         buffered bytes reached the trigger level.
 * @retval RTIPC_EINVAL sb not a live stream buffer, data or sent NULL, or
 *         len 0.
 * @retval RTIPC_EBUSY another writer is inside a writing call; nothing written.
 * @retval RTIPC_EWOULDBLOCK full and timeout RTIPC_NO_WAIT.
 * @retval RTIPC_ETIMEDOUT still full when the timeout expired.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted to wait.
 */
int rtipc_streambuf_send(rtipc_streambuf_t *sb, const void *data, size_t len, size_t *sent,
                         rtipc_timeout_t timeout);

/**
 * Read up to @p len bytes into @p buf (see "Trigger level" above).
 * Context: task only. Blocking: up to timeout, only while the buffer is empty.
 * Concurrency: the single reader; concurrent with the writer and queries.
 * @param received receives the bytes read (1..len on success, 0 on error).
 * @retval 0 *received bytes were read; a blocked writer was woken if the
 *         space it waits for is now free.
 * @retval RTIPC_EINVAL sb not a live stream buffer, buf or received NULL, or
 *         len 0.
 * @retval RTIPC_EBUSY another reader is inside a reading call.
 * @retval RTIPC_EWOULDBLOCK empty and timeout RTIPC_NO_WAIT.
 * @retval RTIPC_ETIMEDOUT still empty when the timeout expired.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted to wait.
 */
int rtipc_streambuf_receive(rtipc_streambuf_t *sb, void *buf, size_t len, size_t *received,
                            rtipc_timeout_t timeout);

/**
 * Interrupt-safe send: writes what fits now, never blocks.
 * Context: interrupt or task. Concurrency: the single writer (a handler
 * counts as a writer like a task).
 * @param woken if not NULL, set to true (never cleared) when a task of higher
 *        priority than the interrupted one was readied (see irq.h).
 * @retval 0 *sent (1..len) bytes written.
 * @retval RTIPC_EINVAL sb not live, data or sent NULL, or len 0.
 * @retval RTIPC_EBUSY another writer is inside a writing call.
 * @retval RTIPC_EWOULDBLOCK the buffer is full.
 */
int rtipc_streambuf_send_from_isr(rtipc_streambuf_t *sb, const void *data, size_t len, size_t *sent,
                                  bool *woken);

/**
 * Interrupt-safe receive: reads what is there now, never blocks.
 * Context: interrupt or task. Concurrency: the single reader.
 * @param woken as for rtipc_streambuf_send_from_isr (a blocked writer may be
 *        readied).
 * @retval 0 *received (1..len) bytes read.
 * @retval RTIPC_EINVAL sb not live, buf or received NULL, or len 0.
 * @retval RTIPC_EBUSY another reader is inside a reading call.
 * @retval RTIPC_EWOULDBLOCK the buffer is empty.
 */
int rtipc_streambuf_receive_from_isr(rtipc_streambuf_t *sb, void *buf, size_t len, size_t *received,
                                     bool *woken);

/**
 * Change the trigger level (0 means 1). Takes effect at the next send: a
 * reader already blocked is not woken by this call, as in FreeRTOS.
 * Context: task or interrupt. Never blocks. Concurrency: any.
 * @retval 0 set. @retval RTIPC_EINVAL sb not live, or level above the size.
 */
int rtipc_streambuf_set_trigger_level(rtipc_streambuf_t *sb, size_t level);

/**
 * Empty the buffer. Refused while a writer or reader is inside a call on it
 * (FreeRTOS refuses a reset while a task is blocked on the buffer).
 * Context: task or interrupt. Never blocks. Concurrency: any.
 * @retval 0 emptied. @retval RTIPC_EINVAL sb not a live stream buffer.
 * @retval RTIPC_EBUSY a writer or reader is inside a call; nothing changed.
 * @retval RTIPC_ENOTSUP from an interrupt on a FreeRTOS kernel before V11.1,
 *         which has no interrupt-safe reset (docs/porting.md); nothing changed.
 */
int rtipc_streambuf_reset(rtipc_streambuf_t *sb);

/**
 * Bytes buffered now (a snapshot), or RTIPC_EINVAL.
 * Context: task or interrupt. Never blocks. Concurrency: any.
 */
int rtipc_streambuf_bytes_available(const rtipc_streambuf_t *sb);

/**
 * Free bytes now (a snapshot), or RTIPC_EINVAL.
 * Context: task or interrupt. Never blocks. Concurrency: any.
 */
int rtipc_streambuf_spaces_available(const rtipc_streambuf_t *sb);

/**
 * 1 if no byte is buffered, 0 if some are (a snapshot), or RTIPC_EINVAL.
 * Context: task or interrupt. Never blocks. Concurrency: any.
 */
int rtipc_streambuf_is_empty(const rtipc_streambuf_t *sb);

/**
 * 1 if no byte is free, 0 otherwise (a snapshot), or RTIPC_EINVAL.
 * Context: task or interrupt. Never blocks. Concurrency: any.
 */
int rtipc_streambuf_is_full(const rtipc_streambuf_t *sb);

/**
 * Bytes this buffer occupies: control block plus storage (for a static buffer
 * the caller's memory, counted the same way). 0 if sb is not live.
 * Context: any. Never blocks.
 */
size_t rtipc_streambuf_footprint(const rtipc_streambuf_t *sb);

/**
 * Bytes a stream buffer of @p size bytes occupies, or 0 if the size is
 * invalid; rtipc_streambuf_footprint_for(0) is the control block alone.
 * Context: any. Never blocks.
 */
size_t rtipc_streambuf_footprint_for(size_t size);

/**
 * Set the spin budget of this stream buffer's writer and reader: how long a
 * blocking call spins before it parks (spin.h says when a task may spin at
 * all).
 * Context: task or interrupt. Never blocks. Concurrency: any; a wait already
 * spinning keeps the budget it started with.
 * @param ns RTIPC_SPIN_DEFAULT (follow rtipc_spin_default(); the setting of a
 *        new object), or 0 (park at once) .. RTIPC_SPIN_MAX_NS.
 * @retval 0 set. @retval RTIPC_EINVAL sb not a live stream buffer, or ns out of range.
 */
int rtipc_streambuf_set_spin(rtipc_streambuf_t *sb, int64_t ns);

#ifdef __cplusplus
}
#endif
#endif
