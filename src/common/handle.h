/* Handles that cannot be confused: every rtipc task, interrupt source and
 * object is reached through a handle that names a slot of one table and the
 * generation of that slot. Closing a handle bumps the generation, so a stale
 * handle (of a task that was joined, an object that was deleted) no longer
 * matches its slot and is refused, even after the slot and the memory behind
 * it were given to something new. A lookup reads only the table, which is
 * never freed, so a stale handle never reads freed memory.
 *
 * Layout of a handle value (a uintptr_t cast to the public opaque pointer):
 *
 *   | tag = generation << KIND_BITS | kind | index |
 *
 * with the index in the low RTIPC__HANDLE_INDEX_BITS bits (32 on 64-bit
 * targets, 16 on 32-bit ones). The generation starts at 1, so no handle is
 * NULL. Freed slots are reused first-in first-out, so a slot comes back only
 * after every other free slot did: a stale handle is refused until its slot
 * was reused 2^GEN_BITS times (2^24 on 64-bit, 2^12 on 32-bit targets).
 *
 * Concurrency: lookups take no lock (one acquire load pairs with the release
 * in rtipc__handle_open). Open and close take the port's handle lock
 * (rtipc__port_handle_lock). A lookup racing the close of the same handle
 * either finds the object still open or is refused; which one is the
 * caller's race (the headers forbid calls on an object being deleted). */
#ifndef RTIPC_COMMON_HANDLE_H
#define RTIPC_COMMON_HANDLE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "rtipc/config.h"

/* What a handle names; a handle of one kind is refused by every other. */
enum rtipc__handle_kind {
    RTIPC__H_TASK = 1,
    RTIPC__H_IRQ,
    RTIPC__H_QUEUE,
    RTIPC__H_SEM,
    RTIPC__H_MUTEX,
    RTIPC__H_EVENTGROUP,
    RTIPC__H_STREAMBUF,
    RTIPC__H_MSGBUF,
    RTIPC__H_RINGBUF,
    RTIPC__H_QUEUESET,
    RTIPC__H_MAILBOX,
    RTIPC__H_SPSC,
    RTIPC__H_KINDS
};

#if UINTPTR_MAX > 0xffffffffu
#define RTIPC__HANDLE_INDEX_BITS 32
#define RTIPC__HANDLE_KIND_BITS 8
#ifndef RTIPC__HANDLE_CHUNK_SHIFT
#define RTIPC__HANDLE_CHUNK_SHIFT 8 /* 256 slots a chunk */
#endif
#ifndef RTIPC__HANDLE_MAX_CHUNKS
#define RTIPC__HANDLE_MAX_CHUNKS 4096 /* 1,048,576 handles open at once */
#endif
#else
#define RTIPC__HANDLE_INDEX_BITS 16
#define RTIPC__HANDLE_KIND_BITS 4
#ifndef RTIPC__HANDLE_CHUNK_SHIFT
#define RTIPC__HANDLE_CHUNK_SHIFT 5 /* 32 slots a chunk */
#endif
#ifndef RTIPC__HANDLE_MAX_CHUNKS
#define RTIPC__HANDLE_MAX_CHUNKS 64 /* 2,048 handles open at once */
#endif
#endif
_Static_assert(RTIPC__H_KINDS <= (1u << RTIPC__HANDLE_KIND_BITS), "handle kinds fit their bits");
_Static_assert(((uint64_t)RTIPC__HANDLE_MAX_CHUNKS << RTIPC__HANDLE_CHUNK_SHIFT) <=
                   ((uint64_t)1 << RTIPC__HANDLE_INDEX_BITS),
               "every slot has an index");

#define RTIPC__HANDLE_CHUNK ((uint32_t)1 << RTIPC__HANDLE_CHUNK_SHIFT)
#define RTIPC__HANDLE_INDEX_MASK ((uintptr_t)(((uint64_t)1 << RTIPC__HANDLE_INDEX_BITS) - 1))
#define RTIPC__HANDLE_KIND_MASK ((1u << RTIPC__HANDLE_KIND_BITS) - 1)
/* The tag is what is left of a handle above the index. */
#define RTIPC__HANDLE_TAG_BITS (8 * (int)sizeof(uintptr_t) - RTIPC__HANDLE_INDEX_BITS)
#define RTIPC__HANDLE_GEN_MASK ((uint32_t)((1ull << (RTIPC__HANDLE_TAG_BITS - RTIPC__HANDLE_KIND_BITS)) - 1))

typedef struct rtipc__handle_slot {
    _Atomic uint32_t tag; /* generation << KIND_BITS | kind while open, 0 while free */
    uint32_t gen;         /* generation the slot's next open uses (handle lock) */
    void *_Atomic obj;    /* what the open handle names */
    uint32_t next_free;   /* free list link (handle lock) */
} rtipc__handle_slot_t;

/* The table: chunk 0 is static (no allocation for the first chunk's worth of
 * handles, as a bare-metal build needs), later chunks come from the port's
 * allocator and are never freed. */
extern rtipc__handle_slot_t *_Atomic rtipc__handle_chunks[RTIPC__HANDLE_MAX_CHUNKS];

#if RTIPC_DIRECT
/* Direct mode (FreeRTOS, rtipc/config.h): a handle is the object's own
 * address, which the public in-line calls use as the kernel object
 * (rtipc/freertos_direct.h). No table: nothing is refused but NULL, and a
 * stale handle is the caller's error, as a deleted kernel handle is. */
static inline uintptr_t rtipc__handle_open(void *obj, unsigned kind)
{
    (void)kind;
    return (uintptr_t)obj;
}
uintptr_t rtipc__handle_open_or_free(void *obj, unsigned kind, size_t align);
static inline void rtipc__handle_close(uintptr_t h) { (void)h; }
static inline void *rtipc__handle_get(const void *handle, unsigned kind)
{
    (void)kind;
    return (void *)(uintptr_t)handle;
}
#else
/* Open a handle for @p obj of @p kind. Returns the handle, or 0 when the table
 * is full or a new chunk could not be allocated (the caller's ENOMEM). Any
 * context the port's handle lock allows. */
uintptr_t rtipc__handle_open(void *obj, unsigned kind);

/* rtipc__handle_open for a freshly made @p obj whose only undo is to free
 * it: the handle, or 0 with the block given back to the port's allocator
 * (rtipc__port_free with @p align, as allocated). Task context. */
uintptr_t rtipc__handle_open_or_free(void *obj, unsigned kind, size_t align);

/* Close an open handle: from now on it is refused. The slot is reused
 * later (first in, first out). Closing a stale handle does nothing. */
void rtipc__handle_close(uintptr_t h);

/* The object an open handle of @p kind names, or NULL for NULL, a handle of
 * another kind, a closed (stale) handle or a value that was never a handle.
 * Any context; lock-free. */
static inline void *rtipc__handle_get(const void *handle, unsigned kind)
{
    uintptr_t h = (uintptr_t)handle;
    uint32_t tag = (uint32_t)(h >> RTIPC__HANDLE_INDEX_BITS);
    uint32_t index = (uint32_t)(h & RTIPC__HANDLE_INDEX_MASK);
    if ((tag & RTIPC__HANDLE_KIND_MASK) != kind || (index >> RTIPC__HANDLE_CHUNK_SHIFT) >= RTIPC__HANDLE_MAX_CHUNKS)
        return NULL;
    /* Acquire: pairs with the release that installed the chunk. */
    rtipc__handle_slot_t *chunk =
        atomic_load_explicit(&rtipc__handle_chunks[index >> RTIPC__HANDLE_CHUNK_SHIFT], memory_order_acquire);
    if (chunk == NULL)
        return NULL;
    rtipc__handle_slot_t *s = &chunk[index & (RTIPC__HANDLE_CHUNK - 1)];
    /* Acquire: pairs with the release store of tag in rtipc__handle_open;
     * publishes obj and everything the creator initialised before opening. */
    if (atomic_load_explicit(&s->tag, memory_order_acquire) != tag)
        return NULL;
    return atomic_load_explicit(&s->obj, memory_order_relaxed);
}
#endif

/* The slot index of a handle: what a control block keeps (where its magic
 * number used to be, beside its flags) to find its own handle again with
 * rtipc__handle_at, as a queue-set member does to post itself. Every index
 * fits RTIPC__HANDLE_SLOT_BITS. */
#define RTIPC__HANDLE_SLOT_BITS 24
_Static_assert(((uint64_t)RTIPC__HANDLE_MAX_CHUNKS << RTIPC__HANDLE_CHUNK_SHIFT) <=
                   ((uint64_t)1 << RTIPC__HANDLE_SLOT_BITS),
               "a slot index fits a control block's slot field");
static inline uint32_t rtipc__handle_index(uintptr_t h) { return (uint32_t)(h & RTIPC__HANDLE_INDEX_MASK); }

/* The handle open in slot @p index: only for an object that is alive and
 * owns that slot (its handle cannot close meanwhile). Relaxed loads: the
 * caller reached the object through this very handle (rtipc__handle_get's
 * acquire) or opened it itself, so the chunk and the tag are visible. */
static inline void *rtipc__handle_at(uint32_t index)
{
    rtipc__handle_slot_t *chunk =
        atomic_load_explicit(&rtipc__handle_chunks[index >> RTIPC__HANDLE_CHUNK_SHIFT], memory_order_relaxed);
    uint32_t tag = atomic_load_explicit(&chunk[index & (RTIPC__HANDLE_CHUNK - 1)].tag, memory_order_relaxed);
    return (void *)(((uintptr_t)tag << RTIPC__HANDLE_INDEX_BITS) | index);
}

/* Handles open now (for tests and leak checks). */
size_t rtipc__handle_open_count(void);
/* For tests: closed slots waiting in the FIFO to be reused (the next
 * rtipc__handle_free_count() opens take them, oldest first), and the slots
 * of the chunks installed so far (what can be open without growing). */
size_t rtipc__handle_free_count(void);
size_t rtipc__handle_capacity(void);

/* ---- what a port provides (src/port/<port>/core_hooks.c) ----------------
 * A lock around open and close, usable in every context that may create or
 * delete an object. New chunks come from the port's allocator (port.h),
 * never from an interrupt handler: there the table does not grow. */
void rtipc__port_handle_lock(void);
void rtipc__port_handle_unlock(void);

#endif
