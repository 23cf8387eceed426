/* Argument checks every port makes before it touches an object, so that the
 * Linux and FreeRTOS ports accept and refuse exactly the same inputs (the
 * headers' RTIPC_EINVAL cases). Pure functions of their arguments: any
 * context. The ring buffer's shape rules live with its layout
 * (ringbuf_core.h). */
#ifndef RTIPC_COMMON_CHECKS_H
#define RTIPC_COMMON_CHECKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rtipc/config.h"
#include "rtipc/eventgroup.h"
#include "rtipc/msgbuf.h"
#include "rtipc/notify.h"

/* A queue of @p length items of @p item_size bytes: both positive, at most
 * INT32_MAX items, storage within 32 bits (queue.h). */
static inline bool rtipc__queue_shape_ok(size_t length, size_t item_size)
{
    return length > 0 && item_size > 0 && length <= INT32_MAX && item_size <= UINT32_MAX / length;
}

/* A counting (or binary, max 1) semaphore: 1 <= max <= INT32_MAX and an
 * initial count no larger than max (sem.h). */
static inline bool rtipc__sem_counts_ok(unsigned max, unsigned initial)
{
    return max > 0 && max <= INT32_MAX && initial <= max;
}

/* Bits an event group may hold: the 24 usable ones (eventgroup.h). */
static inline bool rtipc__eventgroup_bits_ok(uint32_t bits) { return (bits & ~(uint32_t)RTIPC_EVENTGROUP_BITS_MASK) == 0; }

/* A stream buffer of @p size bytes (1 .. INT32_MAX) whose trigger level is
 * at most its size (streambuf.h). */
static inline bool rtipc__streambuf_shape_ok(size_t size, size_t trigger)
{
    return size > 0 && size <= INT32_MAX && trigger <= size;
}

/* A message buffer: room for one length prefix and one byte at least, at most
 * INT32_MAX (msgbuf.h). */
static inline bool rtipc__msgbuf_size_ok(size_t size)
{
    return size >= RTIPC_MSGBUF_LENGTH_BYTES + 1 && size <= INT32_MAX;
}

/* A queue set of 1 .. INT32_MAX events (queueset.h). */
static inline bool rtipc__queueset_length_ok(size_t length) { return length > 0 && length <= INT32_MAX; }

/* A notification slot and action (notify.h). */
static inline bool rtipc__notify_index_ok(unsigned index) { return index < RTIPC_NOTIFY_SLOTS; }
static inline bool rtipc__notify_action_ok(rtipc_notify_action_t action)
{
    return (unsigned)action <= RTIPC_NOTIFY_NO_OVERWRITE;
}

#endif
