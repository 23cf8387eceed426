/* The handle table (handle.h): slots in chunks that are never freed, a FIFO
 * free list, and a generation per slot. */
#include "handle.h"

#include <stdbool.h>
#include <string.h>

#include "port.h"

#if RTIPC_DIRECT
/* Direct mode: handles are addresses (handle.h); nothing to keep. */
uintptr_t rtipc__handle_open_or_free(void *obj, unsigned kind, size_t align)
{
    (void)align;
    return rtipc__handle_open(obj, kind);
}
#else

#define CHUNK_ALIGN _Alignof(rtipc__handle_slot_t)

static rtipc__handle_slot_t chunk0[RTIPC__HANDLE_CHUNK];

rtipc__handle_slot_t *_Atomic rtipc__handle_chunks[RTIPC__HANDLE_MAX_CHUNKS] = {chunk0};

/* Under the handle lock. */
static uint32_t chunks_used = 1;      /* chunks installed; slots below chunks_used * CHUNK exist */
static uint32_t fresh = 0;            /* slots ever handed out: the next never-used index */
static uint32_t free_head, free_tail; /* FIFO of closed slots, by index */
static uint32_t free_count;
static size_t open_count;

static rtipc__handle_slot_t *slot_of(uint32_t index)
{
    rtipc__handle_slot_t *chunk =
        atomic_load_explicit(&rtipc__handle_chunks[index >> RTIPC__HANDLE_CHUNK_SHIFT], memory_order_relaxed);
    return &chunk[index & (RTIPC__HANDLE_CHUNK - 1)];
}

/* Under the lock: a slot index to open, or false when every existing slot is
 * open (then the caller grows the table). */
static bool take_slot(uint32_t *index)
{
    if (free_count > 0) {
        *index = free_head;
        free_head = slot_of(free_head)->next_free;
        --free_count;
        return true;
    }
    if (fresh < chunks_used * RTIPC__HANDLE_CHUNK) {
        *index = fresh++;
        return true;
    }
    return false;
}

uintptr_t rtipc__handle_open(void *obj, unsigned kind)
{
    uint32_t index;
    rtipc__port_handle_lock();
    while (!take_slot(&index)) {
        /* Grow by one chunk, allocated without the lock (the allocator may
         * block or take its own locks); another opener may have grown the
         * table meanwhile, in which case the spare chunk is kept for later. */
        uint32_t want = chunks_used;
        rtipc__port_handle_unlock();
        if (want >= RTIPC__HANDLE_MAX_CHUNKS)
            return 0;
        rtipc__handle_slot_t *chunk =
            rtipc__port_in_interrupt() ? NULL : rtipc__port_alloc(RTIPC__HANDLE_CHUNK * sizeof *chunk, CHUNK_ALIGN);
        if (chunk == NULL)
            return 0;
        memset(chunk, 0, RTIPC__HANDLE_CHUNK * sizeof *chunk);
        rtipc__port_handle_lock();
        if (chunks_used < RTIPC__HANDLE_MAX_CHUNKS &&
            atomic_load_explicit(&rtipc__handle_chunks[chunks_used], memory_order_relaxed) == NULL) {
            /* Release: pairs with the acquire load of the chunk pointer in
             * rtipc__handle_get; publishes the zeroed slots. */
            atomic_store_explicit(&rtipc__handle_chunks[chunks_used], chunk, memory_order_release);
            ++chunks_used;
            chunk = NULL;
        }
        if (chunk != NULL) {
            /* Another opener grew the table first: give this one back. */
            rtipc__port_handle_unlock();
            rtipc__port_free(chunk, CHUNK_ALIGN);
            rtipc__port_handle_lock();
        }
    }
    rtipc__handle_slot_t *s = slot_of(index);
    if (s->gen == 0)
        s->gen = 1;
    uint32_t tag = (s->gen << RTIPC__HANDLE_KIND_BITS) | (uint32_t)kind;
    atomic_store_explicit(&s->obj, obj, memory_order_relaxed);
    /* Release: pairs with the acquire load of tag in rtipc__handle_get;
     * publishes obj and the object's initialisation done before this call. */
    atomic_store_explicit(&s->tag, tag, memory_order_release);
    ++open_count;
    rtipc__port_handle_unlock();
    return ((uintptr_t)tag << RTIPC__HANDLE_INDEX_BITS) | index;
}

uintptr_t rtipc__handle_open_or_free(void *obj, unsigned kind, size_t align)
{
    uintptr_t h = rtipc__handle_open(obj, kind);
    if (h == 0)
        rtipc__port_free(obj, align);
    return h;
}

void rtipc__handle_close(uintptr_t h)
{
    uint32_t tag = (uint32_t)(h >> RTIPC__HANDLE_INDEX_BITS);
    uint32_t index = (uint32_t)(h & RTIPC__HANDLE_INDEX_MASK);
    if (tag == 0 || (index >> RTIPC__HANDLE_CHUNK_SHIFT) >= RTIPC__HANDLE_MAX_CHUNKS)
        return;
    rtipc__port_handle_lock();
    if (index < fresh && atomic_load_explicit(&slot_of(index)->tag, memory_order_relaxed) == tag) {
        rtipc__handle_slot_t *s = slot_of(index);
        /* Relaxed: a lookup that still reads the old tag races the close,
         * which the callers' contracts forbid; one that reads 0 is refused. */
        atomic_store_explicit(&s->tag, 0, memory_order_relaxed);
        atomic_store_explicit(&s->obj, NULL, memory_order_relaxed);
        s->gen = (s->gen + 1) & RTIPC__HANDLE_GEN_MASK;
        s->next_free = 0;
        if (free_count == 0)
            free_head = index;
        else
            slot_of(free_tail)->next_free = index;
        free_tail = index;
        ++free_count;
        --open_count;
    }
    rtipc__port_handle_unlock();
}

size_t rtipc__handle_open_count(void)
{
    rtipc__port_handle_lock();
    size_t n = open_count;
    rtipc__port_handle_unlock();
    return n;
}

size_t rtipc__handle_free_count(void)
{
    rtipc__port_handle_lock();
    size_t n = free_count;
    rtipc__port_handle_unlock();
    return n;
}

size_t rtipc__handle_capacity(void)
{
    rtipc__port_handle_lock();
    size_t n = (size_t)chunks_used * RTIPC__HANDLE_CHUNK;
    rtipc__port_handle_unlock();
    return n;
}
#endif
