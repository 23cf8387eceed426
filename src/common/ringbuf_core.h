/* The byte layout of rtipc ring buffers, free of locking and waiting.
 *
 * Every function here runs with the owning object's lock held (the port
 * provides the lock and the wait lists); nothing here blocks or allocates, so
 * the same core serves the Linux port and an RTOS port.
 *
 * Item buffers (no-split, allow-split) store each item, or each part of a
 * split item, as a unit: a 4-byte header followed by the data rounded up to a
 * multiple of 4, so every unit and every data pointer is 4-byte aligned.
 *
 *   header bits 0-1  state: ACQUIRED (space reserved, not yet completed),
 *                    READY (receivable), READ (handed to a reader),
 *                    RETURNED (given back, waiting for in-order reclaim)
 *   header bit 2     DUMMY: the buffer's unused tail, skipped by readers
 *   header bit 3     SPLIT: first part of an item whose rest is at offset 0
 *   header bits 4-31 data length of this unit (< 2^28)
 *
 * Offsets, all in [0, size):
 *
 *   head     first occupied byte, the next unit to reclaim
 *   read     next unit to hand to a reader (never rests on a DUMMY)
 *   write    head + used, wrapped: where the next unit goes (derived)
 *
 *   [head, read)   received units: READ or RETURNED (and a passed DUMMY)
 *   [read, write)  units not yet received: ACQUIRED or READY
 *
 * Space is reclaimed in order: a returned unit is freed only once every unit
 * before it has been returned. When the buffer becomes empty all offsets go
 * back to 0, so an empty buffer always has its whole length in one piece.
 *
 * Byte buffers store raw bytes from head, used bytes long, wrapping freely.
 * At most one read is outstanding at a time ("pending" bytes at head). */
#ifndef RTIPC_COMMON_RINGBUF_CORE_H
#define RTIPC_COMMON_RINGBUF_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rtipc/error.h"

/* Buffer types (the public enum in rtipc/ringbuf.h has the same values). */
enum { RTIPC__RB_NOSPLIT = 0, RTIPC__RB_ALLOWSPLIT = 1, RTIPC__RB_BYTEBUF = 2 };

#define RTIPC__RB_HEADER 4u          /* bytes of one unit header */
#define RTIPC__RB_ALIGN 4u           /* units and data are aligned to this */
#define RTIPC__RB_MAX_SIZE (1u << 28) /* largest capacity: lengths fit 28 bits */

typedef struct {
    unsigned char *buf; /* storage, size bytes, 4-byte aligned for item types */
    uint32_t size;      /* capacity in bytes (a multiple of 4 for item types) */
    uint32_t head;      /* first occupied byte */
    uint32_t read;      /* item types: next unit to receive */
    uint32_t used;      /* occupied bytes: units, padding and wrap waste */
    uint32_t pending;   /* item types: items stored and not yet received
                           (acquired ones included); byte buffer: length of
                           the outstanding read, 0 when none */
    /* One word, hence one memory location: like every field but buf and
     * size (fixed at creation), read and written only under the lock. */
    unsigned type : 2;      /* RTIPC__RB_* */
    unsigned acquired : 30; /* items acquired and not yet completed */
} rtipc__rb_t;

/* A received or reserved item: one part, or two when it wraps. */
typedef struct {
    unsigned char *p[2];
    uint32_t n[2];
} rtipc__rb_span_t;

/* size: capacity (checked by the caller: item types need a multiple of 4, at
 * least 8, and 4-byte aligned storage; all types at most RTIPC__RB_MAX_SIZE). */
void rtipc__rb_init(rtipc__rb_t *r, unsigned type, void *buf, uint32_t size);

/* Largest item an empty buffer of this type and capacity accepts: one unit
 * may span all of it, since an empty buffer starts over at offset 0. */
static inline uint32_t rtipc__rb_max_item_for(unsigned type, uint32_t size)
{
    return type == RTIPC__RB_BYTEBUF ? size : size - RTIPC__RB_HEADER;
}

/* The same for r (under the lock: it reads the type). */
static inline uint32_t rtipc__rb_max_item(const rtipc__rb_t *r) { return rtipc__rb_max_item_for(r->type, r->size); }

/* Largest item that could be stored now without waiting: every length from
 * 1 up to it fits, and no larger one does. */
uint32_t rtipc__rb_free_size(const rtipc__rb_t *r);

static inline bool rtipc__rb_fits(const rtipc__rb_t *r, uint32_t len)
{
    return len <= rtipc__rb_free_size(r);
}

/* Store a copy of len bytes (which must fit). Returns how many items became
 * receivable: 1, or 0 when the item waits behind an acquired, incomplete one. */
uint32_t rtipc__rb_write(rtipc__rb_t *r, const void *data, uint32_t len);

/* No-split only: reserve an item of len bytes (which must fit) for the
 * caller to fill; returns its data pointer. */
void *rtipc__rb_acquire(rtipc__rb_t *r, uint32_t len);

/* Mark an acquired item complete. False if p is not an acquired, incomplete
 * item of this buffer. *published: items that became receivable (the item
 * and those completed after it, once nothing before them is incomplete). */
bool rtipc__rb_complete(rtipc__rb_t *r, const void *p, uint32_t *published);

/* Whether a receive would succeed now. */
bool rtipc__rb_readable(const rtipc__rb_t *r);

/* Receive the next item (item types: both parts of a split item; max is
 * ignored) or up to max contiguous bytes (byte buffer). False if nothing is
 * receivable. */
bool rtipc__rb_take(rtipc__rb_t *r, uint32_t max, rtipc__rb_span_t *out);

/* Give back a received part. False if p is not the data pointer of a part
 * that was received and not yet returned. *freed: space was reclaimed. */
bool rtipc__rb_give_back(rtipc__rb_t *r, const void *p, bool *freed);

/* Items stored and not yet received (acquired, incomplete ones excluded);
 * for a byte buffer, bytes not yet received. */
uint32_t rtipc__rb_waiting(const rtipc__rb_t *r);

/* Items are out: received and not returned, or acquired and not completed. */
bool rtipc__rb_in_use(const rtipc__rb_t *r);

/* Storage bytes one item of len bytes takes when stored in one piece. */
static inline uint32_t rtipc__rb_item_bytes(unsigned type, uint32_t len)
{
    return type == RTIPC__RB_BYTEBUF ? len : RTIPC__RB_HEADER + ((len + RTIPC__RB_ALIGN - 1) & ~(RTIPC__RB_ALIGN - 1));
}

/* ---- argument checks, the same on every port ------------------------------
 * The public calls of rtipc/ringbuf.h accept and refuse the same inputs on
 * every port because they ask these. They return rtipc error codes. */

/* One of the three types. */
static inline bool rtipc__rb_type_ok(unsigned type) { return type <= RTIPC__RB_BYTEBUF; }

/* The capacity a ring buffer of @p size bytes gets, or 0 when the shape is
 * refused. @p round: dynamic creation rounds the item types up to a multiple
 * of 4; static creation demands one. */
static inline uint32_t rtipc__rb_capacity_for(size_t size, unsigned type, bool round)
{
    if (!rtipc__rb_type_ok(type) || size == 0 || size > RTIPC__RB_MAX_SIZE)
        return 0;
    if (type == RTIPC__RB_BYTEBUF)
        return (uint32_t)size;
    if (size % RTIPC__RB_ALIGN != 0) {
        if (!round)
            return 0;
        size = (size + RTIPC__RB_ALIGN - 1) & ~(size_t)(RTIPC__RB_ALIGN - 1);
    }
    /* A header and at least one aligned data word. */
    return size >= RTIPC__RB_HEADER + RTIPC__RB_ALIGN ? (uint32_t)size : 0;
}

/* rtipc_ringbuf_item_footprint: bytes one item takes, 0 for a refused one. */
static inline size_t rtipc__rb_item_footprint(unsigned type, size_t size)
{
    if (!rtipc__rb_type_ok(type) || size == 0 || size > RTIPC__RB_MAX_SIZE)
        return 0;
    return rtipc__rb_item_bytes(type, (uint32_t)size);
}

/* Caller storage of a static ring buffer: 4-byte aligned for the item types. */
static inline bool rtipc__rb_storage_ok(unsigned type, const void *storage)
{
    return storage != NULL && (type == RTIPC__RB_BYTEBUF || (uintptr_t)storage % RTIPC__RB_ALIGN == 0);
}

/* An item of @p size bytes for a buffer of this type and capacity: 0, or
 * RTIPC_EINVAL (empty, or larger than an empty buffer takes). */
static inline int rtipc__rb_check_item(unsigned type, uint32_t capacity, size_t size)
{
    return size == 0 || size > rtipc__rb_max_item_for(type, capacity) ? RTIPC_EINVAL : RTIPC_OK;
}

/* The receive calls, by what they hand back. */
enum { RTIPC__RB_RECV_WHOLE, RTIPC__RB_RECV_SPLIT, RTIPC__RB_RECV_UP_TO };

/* A receive of @p kind on a buffer of @p type: 0, RTIPC_EINVAL (an output
 * pointer NULL, split's two more included; up_to with max 0) or
 * RTIPC_ENOTSUP (a call the type does not have). */
static inline int rtipc__rb_check_receive(unsigned type, int kind, const void *a, const void *b, const void *c,
                                          const void *d, size_t max)
{
    if (!a || !b || (kind == RTIPC__RB_RECV_SPLIT && (!c || !d)))
        return RTIPC_EINVAL;
    if ((kind == RTIPC__RB_RECV_WHOLE && type == RTIPC__RB_ALLOWSPLIT) ||
        (kind == RTIPC__RB_RECV_SPLIT && type == RTIPC__RB_BYTEBUF) ||
        (kind == RTIPC__RB_RECV_UP_TO && type != RTIPC__RB_BYTEBUF))
        return RTIPC_ENOTSUP;
    if (kind == RTIPC__RB_RECV_UP_TO && max == 0)
        return RTIPC_EINVAL;
    return RTIPC_OK;
}

/* How many items a set member may post at once: the smallest items that
 * fit, each one event. */
static inline uint32_t rtipc__rb_set_capacity(const rtipc__rb_t *r)
{
    return r->size / rtipc__rb_item_bytes(r->type, 1);
}

/* ---- what a port provides to src/common/ringbuf.c ------------------------- */
#include "rtipc/ringbuf.h"

/* One receive of @p kind on @p rb: checks (context unless @p isr_call, the
 * handle, rtipc__rb_check_receive), then one attempt (isr_call) or waiting up
 * to @p timeout; the item in *span. An rtipc error code. */
int rtipc__ringbuf_receive_span(const rtipc_ringbuf_t *rb, int kind, const void *a, const void *b, const void *c,
                                const void *d, size_t max, rtipc_timeout_t timeout, bool isr_call,
                                rtipc__rb_span_t *span);
/* @p field of the layout of a live @p rb, read under the port's lock, or
 * RTIPC_EINVAL. */
int rtipc__ringbuf_query(const rtipc_ringbuf_t *rb, int (*field)(const rtipc__rb_t *));

#endif
