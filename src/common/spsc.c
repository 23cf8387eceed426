/* The SPSC ring's wait-free core: portable C11, no OS calls, so that it can
 * run bare-metal. Parking and waking live in the port (spsc_wait.c), reached
 * only through rtipc__spsc_wake when a side is seen sleeping.
 *
 * Memory ordering. Labels name the pairs:
 *
 *   R1 producer: release store of tail after filling slots
 *      pairs with A1, the consumer's acquire load of tail (refreshing
 *      tail_cache). Publishes the contents of the slots up to tail.
 *   R2 consumer: release store of head after copying slots out
 *      pairs with A2, the producer's acquire load of head (refreshing
 *      head_cache). Publishes that the consumer has finished reading the
 *      slots below head, so the producer may overwrite them. R2 also pairs
 *      with A3 in rtipc_spsc_size (a tail read after a head is not smaller).
 *
 * Checking for a parked peer ("publish, then check for sleepers") is a
 * Dekker-style handshake and needs a full fence on each side; acquire and
 * release are not enough, because each side stores one variable and then
 * loads another (store->load order):
 *
 *   producer (here)                    consumer about to park (spsc_wait.c)
 *   store tail (R1)                    store sleeping[CONSUMER] = 1
 *   F1: fence(seq_cst)                 F3: fence(seq_cst)
 *   load sleeping[CONSUMER]            load tail (A1); empty -> park
 *
 * The two seq_cst fences are totally ordered. If F1 comes first, the
 * consumer's load of tail sees the new tail and it does not park. If F3 comes
 * first, the producer's load sees sleeping = 1 (or a later value: a later 0 is
 * only stored by whoever woke the consumer, or by the consumer once it no
 * longer waits) and the producer wakes it. Either way no wake-up is lost. The
 * consumer sets the flag and queues itself in one critical section of the
 * port lock, and the producer's wake takes that lock, so a producer that saw
 * the flag finds the consumer queued. F2 (consumer, after R2) and F4
 * (producer parking) are the mirror image for a producer parked on a full
 * ring. The fences are the only cost the fast path pays for blocking; without
 * a sleeper no lock is taken and no system call made.
 *
 * Asymmetric fences (RTIPC__SPSC_ASYM, rtipc_spsc_set_fence, where the port
 * has a process-wide barrier: membarrier on Linux). The fast side's F1/F2
 * become compiler barriers and the parking side's F3/F4 the process-wide
 * barrier, which
 * makes the fast side's thread (wherever it runs) execute a full fence at
 * that point. So either that forced fence falls between the fast side's
 * index store and its flag load, and the pair behaves as two seq_cst
 * fences, or the store and the load both come before it (the parking side
 * then sees the index: it does not park) or both after it (the fast side
 * then sees the flag: it wakes). The parking side pays the barrier; every
 * push and pop saves a full fence. The default where the port has the
 * barrier: without it, each push and pop waits for its index store to
 * reach the other core (about 100 ns here), which no ring that parks its
 * peer can otherwise avoid; on a virtual machine the barrier's interrupts
 * cost up to tens of microseconds per park instead. */
#include <stdint.h>
#include <string.h>

#include "create.h"
#include "item_copy.h"
#include "rtipc/error.h"
#include "spsc_internal.h"

#include "port.h"

/* The fence of rings created now (rtipc_spsc_set_fence), or POLICY_PORT
 * until a caller chooses: the asymmetric fence where the port has a
 * process-wide barrier, else the symmetric one. Relaxed: a ring reads it
 * once, before its handle is published (with release) to both sides, who
 * then read the ring's own flag. */
#define POLICY_PORT (-1)
static _Atomic int fence_policy = POLICY_PORT;

static rtipc_spsc_fence_t policy_now(void)
{
    int p = atomic_load_explicit(&fence_policy, memory_order_relaxed);
    if (p == POLICY_PORT)
        return rtipc__port_asym_fence() ? RTIPC_SPSC_FENCE_ASYMMETRIC : RTIPC_SPSC_FENCE_SYMMETRIC;
    return (rtipc_spsc_fence_t)p;
}

int rtipc_spsc_set_fence(rtipc_spsc_fence_t fence)
{
    if (rtipc__port_in_interrupt())
        return RTIPC_ECONTEXT;
    if (fence != RTIPC_SPSC_FENCE_SYMMETRIC && fence != RTIPC_SPSC_FENCE_ASYMMETRIC)
        return RTIPC_EINVAL;
    if (fence == RTIPC_SPSC_FENCE_ASYMMETRIC && !rtipc__port_asym_fence())
        return RTIPC_ENOTSUP;
    atomic_store_explicit(&fence_policy, (int)fence, memory_order_relaxed);
    return RTIPC_OK;
}

rtipc_spsc_fence_t rtipc_spsc_fence(void) { return policy_now(); }

int rtipc_spsc_fence_of(const rtipc_spsc_t *handle)
{
    const struct rtipc__spsc *r = rtipc__spsc_of(handle);
    if (!r)
        return RTIPC_EINVAL;
    return (r->flags & RTIPC__SPSC_ASYM) ? RTIPC_SPSC_FENCE_ASYMMETRIC : RTIPC_SPSC_FENCE_SYMMETRIC;
}

static bool is_pow2(size_t x) { return x != 0 && (x & (x - 1)) == 0; }

bool rtipc__spsc_shape_ok(size_t capacity, size_t item_size)
{
    return is_pow2(capacity) && capacity <= RTIPC__SPSC_MAX_CAPACITY && item_size > 0 &&
           item_size <= UINT32_MAX && capacity <= UINT32_MAX / item_size;
}

size_t rtipc_spsc_footprint_for(size_t capacity, size_t item_size)
{
    if (capacity == 0 && item_size == 0)
        return sizeof(struct rtipc__spsc);
    if (!rtipc__spsc_shape_ok(capacity, item_size))
        return 0;
    return sizeof(struct rtipc__spsc) + capacity * item_size;
}

size_t rtipc_spsc_footprint(const rtipc_spsc_t *handle)
{
    const struct rtipc__spsc *r = rtipc__spsc_of(handle);
    if (!r)
        return 0;
    return rtipc_spsc_footprint_for((size_t)r->mask + 1, r->item_size);
}

void rtipc__spsc_init(struct rtipc__spsc *r, size_t capacity, size_t item_size, void *storage, uint32_t flags)
{
    memset(r, 0, sizeof *r);
    r->mask = (uint32_t)(capacity - 1);
    r->item_size = (uint32_t)item_size;
    r->slots = storage;
    r->flags = flags | (policy_now() == RTIPC_SPSC_FENCE_ASYMMETRIC ? RTIPC__SPSC_ASYM : 0u);
    rtipc__spsc_port_init(r);
}

int rtipc__spsc_open(struct rtipc__spsc *r, rtipc_spsc_t **out)
{
    uintptr_t h = rtipc__handle_open(r, RTIPC__H_SPSC);
    if (h == 0)
        return RTIPC_ENOMEM;
    *out = (rtipc_spsc_t *)h;
    return RTIPC_OK;
}

int rtipc_spsc_create_static(size_t capacity, size_t item_size, void *storage, rtipc_spsc_static_t *cb,
                             rtipc_spsc_t **out)
{
    if (!out || !cb || !storage || !rtipc__spsc_shape_ok(capacity, item_size))
        return RTIPC_EINVAL;
    /* The layout promise (each side on its own line) needs the alignment. */
    if ((uintptr_t)(void *)cb % RTIPC__CACHE_LINE != 0)
        return RTIPC_EINVAL;
    struct rtipc__spsc *r = (struct rtipc__spsc *)(void *)cb;
    rtipc__spsc_init(r, capacity, item_size, storage, 0);
    return rtipc__spsc_open(r, out);
}

int rtipc_spsc_create(size_t capacity, size_t item_size, rtipc_spsc_t **out)
{
    bool ok = out && rtipc__spsc_shape_ok(capacity, item_size);
    size_t storage = ok ? capacity * item_size : 0;
    /* A valid shape this address space cannot hold asks for everything,
     * which the allocator refuses (RTIPC_ENOMEM). */
    size_t bytes = storage > SIZE_MAX - sizeof(struct rtipc__spsc) ? SIZE_MAX : sizeof(struct rtipc__spsc) + storage;
    int rc;
    struct rtipc__spsc *r = rtipc__create_alloc(ok, bytes, RTIPC__CACHE_LINE, &rc);
    if (!r)
        return rc;
    rtipc__spsc_init(r, capacity, item_size, (unsigned char *)(r + 1), RTIPC__SPSC_DYNAMIC);
    rc = rtipc__spsc_open(r, out);
    if (rc != RTIPC_OK)
        rtipc__port_free(r, RTIPC__CACHE_LINE);
    return rc;
}

int rtipc_spsc_delete(rtipc_spsc_t *handle)
{
    if (rtipc__port_in_interrupt())
        return RTIPC_ECONTEXT;
    struct rtipc__spsc *r = rtipc__spsc_of(handle);
    if (!r)
        return RTIPC_EINVAL;
    int rc = rtipc__spsc_port_retire(r, (uintptr_t)handle);
    if (rc == RTIPC_OK && (r->flags & RTIPC__SPSC_DYNAMIC))
        rtipc__port_free(r, RTIPC__CACHE_LINE);
    return rc;
}

/* ---- copying with wrap-around ------------------------------------------- */
static void copy_in(struct rtipc__spsc *r, uint32_t index, const unsigned char *src, uint32_t n)
{
    if (n == 1 && rtipc__copy_small(r->slots + (size_t)(index & r->mask) * r->item_size, src, r->item_size))
        return;
    uint32_t first = index & r->mask;
    uint32_t room = r->mask + 1 - first; /* slots before the end of storage */
    uint32_t k = n < room ? n : room;
    size_t sz = r->item_size;
    memcpy(r->slots + (size_t)first * sz, src, (size_t)k * sz);
    if (n > k)
        memcpy(r->slots, src + (size_t)k * sz, (size_t)(n - k) * sz);
}

static void copy_out(const struct rtipc__spsc *r, uint32_t index, unsigned char *dst, uint32_t n)
{
    if (n == 1 && rtipc__copy_small(dst, r->slots + (size_t)(index & r->mask) * r->item_size, r->item_size))
        return;
    uint32_t first = index & r->mask;
    uint32_t room = r->mask + 1 - first;
    uint32_t k = n < room ? n : room;
    size_t sz = r->item_size;
    memcpy(dst, r->slots + (size_t)first * sz, (size_t)k * sz);
    if (n > k)
        memcpy(dst + (size_t)k * sz, r->slots, (size_t)(n - k) * sz);
}

/* ---- the wait-free moves -------------------------------------------------- */
uint32_t rtipc__spsc_put(struct rtipc__spsc *r, const void *items, uint32_t n, bool *peer_sleeping)
{
    uint32_t cap = r->mask + 1;
    /* Relaxed: only the producer writes tail. */
    uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    uint32_t room = cap - (tail - r->head_cache);
    if (room < n) {
        /* The cached head says there is too little room; look at the real
         * one. A2: acquire, pairs with R2 in get(); the consumer has finished
         * reading every slot below head, so we may overwrite them. */
        r->head_cache = atomic_load_explicit(&r->head, memory_order_acquire);
        room = cap - (tail - r->head_cache);
    }
    if (n > room)
        n = room;
    *peer_sleeping = false;
    if (n == 0)
        return 0;
    copy_in(r, tail, items, n);
    /* R1: release, pairs with A1 in get()/peek(); publishes the slots just
     * filled. */
    atomic_store_explicit(&r->tail, tail + n, memory_order_release);
    /* F1: pairs with F3 in the consumer's park (spsc_wait.c): orders the
     * tail store before the load of the sleeping flag (see the top of this
     * file); a compiler barrier where F3 is the process-wide one. */
    rtipc__spsc_fast_fence(r);
    *peer_sleeping = atomic_load_explicit(&r->sleeping[RTIPC__SPSC_CONSUMER], memory_order_relaxed) != 0;
    return n;
}

/* The consumer's count of items it can see, refreshing tail_cache when the
 * cached value shows fewer than `want`. */
static uint32_t available(struct rtipc__spsc *r, uint32_t head, uint32_t want)
{
    uint32_t avail = r->tail_cache - head;
    if (avail < want) {
        /* A1: acquire, pairs with R1 in put(); makes the contents of the
         * slots below tail visible to us. */
        r->tail_cache = atomic_load_explicit(&r->tail, memory_order_acquire);
        avail = r->tail_cache - head;
    }
    return avail;
}

uint32_t rtipc__spsc_get(struct rtipc__spsc *r, void *items, uint32_t n, bool *peer_sleeping)
{
    /* Relaxed: only the consumer writes head. */
    uint32_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    uint32_t avail = available(r, head, n);
    if (n > avail)
        n = avail;
    *peer_sleeping = false;
    if (n == 0)
        return 0;
    copy_out(r, head, items, n);
    /* R2: release, pairs with A2 in put(); publishes that the slots just
     * read are free, ordering our reads before the producer's next writes. */
    atomic_store_explicit(&r->head, head + n, memory_order_release);
    /* F2: pairs with F4 in the producer's park (spsc_wait.c), as F1. */
    rtipc__spsc_fast_fence(r);
    *peer_sleeping = atomic_load_explicit(&r->sleeping[RTIPC__SPSC_PRODUCER], memory_order_relaxed) != 0;
    return n;
}

/* ---- public non-blocking calls ------------------------------------------- */
static uint32_t clamp_count(const struct rtipc__spsc *r, size_t n)
{
    return n > (size_t)r->mask + 1 ? r->mask + 1 : (uint32_t)n;
}

static int push_n(struct rtipc__spsc *r, const void *items, size_t n, bool *woken)
{
    bool sleeping;
    uint32_t moved = rtipc__spsc_put(r, items, clamp_count(r, n), &sleeping);
    if (sleeping)
        rtipc__spsc_wake(r, RTIPC__SPSC_CONSUMER, woken);
    return (int)moved;
}

static int pop_n(struct rtipc__spsc *r, void *items, size_t n, bool *woken)
{
    bool sleeping;
    uint32_t moved = rtipc__spsc_get(r, items, clamp_count(r, n), &sleeping);
    if (sleeping)
        rtipc__spsc_wake(r, RTIPC__SPSC_PRODUCER, woken);
    return (int)moved;
}

/* One item: put() and get() for n = 1, apart so that the per-item path has
 * no count arithmetic and no wrap-around split. The same orderings. */
int rtipc__spsc_try_push(struct rtipc__spsc *r, const void *item, bool *woken)
{
    uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    if (tail - r->head_cache > r->mask) {
        /* A2, as in put(). */
        r->head_cache = atomic_load_explicit(&r->head, memory_order_acquire);
        if (tail - r->head_cache > r->mask)
            return RTIPC_EWOULDBLOCK;
    }
    rtipc__copy_item(r->slots + (size_t)(tail & r->mask) * r->item_size, item, r->item_size);
    /* R1, as in put(): publishes the slot just filled. */
    atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
    /* F1, as in put(). */
    rtipc__spsc_fast_fence(r);
    if (atomic_load_explicit(&r->sleeping[RTIPC__SPSC_CONSUMER], memory_order_relaxed) != 0)
        rtipc__spsc_wake(r, RTIPC__SPSC_CONSUMER, woken);
    return RTIPC_OK;
}

int rtipc__spsc_try_pop(struct rtipc__spsc *r, void *item, bool *woken)
{
    uint32_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    if (head == r->tail_cache) {
        /* A1, as in available(). */
        r->tail_cache = atomic_load_explicit(&r->tail, memory_order_acquire);
        if (head == r->tail_cache)
            return RTIPC_EWOULDBLOCK;
    }
    rtipc__copy_item(item, r->slots + (size_t)(head & r->mask) * r->item_size, r->item_size);
    /* R2, as in get(): the slot just read is free. */
    atomic_store_explicit(&r->head, head + 1, memory_order_release);
    /* F2, as in get(). */
    rtipc__spsc_fast_fence(r);
    if (atomic_load_explicit(&r->sleeping[RTIPC__SPSC_PRODUCER], memory_order_relaxed) != 0)
        rtipc__spsc_wake(r, RTIPC__SPSC_PRODUCER, woken);
    return RTIPC_OK;
}

int rtipc_spsc_push_from_isr(rtipc_spsc_t *handle, const void *item, bool *woken)
{
    struct rtipc__spsc *r = rtipc__spsc_of(handle);
    if (!r || !item)
        return RTIPC_EINVAL;
    return rtipc__spsc_try_push(r, item, woken);
}

int rtipc_spsc_pop_from_isr(rtipc_spsc_t *handle, void *item, bool *woken)
{
    struct rtipc__spsc *r = rtipc__spsc_of(handle);
    if (!r || !item)
        return RTIPC_EINVAL;
    return rtipc__spsc_try_pop(r, item, woken);
}

int rtipc_spsc_try_push(rtipc_spsc_t *r, const void *item) { return rtipc_spsc_push_from_isr(r, item, NULL); }

int rtipc_spsc_try_pop(rtipc_spsc_t *r, void *item) { return rtipc_spsc_pop_from_isr(r, item, NULL); }

int rtipc_spsc_push_bulk_from_isr(rtipc_spsc_t *handle, const void *items, size_t n, bool *woken)
{
    struct rtipc__spsc *r = rtipc__spsc_of(handle);
    if (!r || !items || n == 0)
        return RTIPC_EINVAL;
    return push_n(r, items, n, woken);
}

int rtipc_spsc_pop_bulk_from_isr(rtipc_spsc_t *handle, void *items, size_t n, bool *woken)
{
    struct rtipc__spsc *r = rtipc__spsc_of(handle);
    if (!r || !items || n == 0)
        return RTIPC_EINVAL;
    return pop_n(r, items, n, woken);
}

int rtipc_spsc_push_bulk(rtipc_spsc_t *r, const void *items, size_t n)
{
    return rtipc_spsc_push_bulk_from_isr(r, items, n, NULL);
}

int rtipc_spsc_pop_bulk(rtipc_spsc_t *r, void *items, size_t n)
{
    return rtipc_spsc_pop_bulk_from_isr(r, items, n, NULL);
}

int rtipc_spsc_peek(rtipc_spsc_t *handle, void *item)
{
    struct rtipc__spsc *r = rtipc__spsc_of(handle);
    if (!r || !item)
        return RTIPC_EINVAL;
    uint32_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    if (available(r, head, 1) == 0)
        return RTIPC_EWOULDBLOCK;
    copy_out(r, head, item, 1);
    return RTIPC_OK;
}

int rtipc_spsc_size(const rtipc_spsc_t *handle)
{
    const struct rtipc__spsc *r = rtipc__spsc_of(handle);
    if (!r)
        return RTIPC_EINVAL;
    /* Head first. A3: acquire, pairs with R2 in get(): the consumer had read
     * a tail at least as large as this head before storing it, so our later
     * load of tail cannot return a smaller one and the difference is never
     * negative. It may exceed the capacity when both moved in between:
     * clamp. Relaxed tail: a snapshot publishes nothing. */
    uint32_t head = atomic_load_explicit(&r->head, memory_order_acquire);
    uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    uint32_t n = tail - head;
    return (int)(n > r->mask + 1 ? r->mask + 1 : n);
}

int rtipc_spsc_capacity(const rtipc_spsc_t *handle)
{
    const struct rtipc__spsc *r = rtipc__spsc_of(handle);
    return r ? (int)(r->mask + 1) : RTIPC_EINVAL;
}

/* ---- the blocking calls: a first try, then the port's wait -------------------- */

int rtipc_spsc_push(rtipc_spsc_t *handle, const void *item, rtipc_timeout_t timeout)
{
    if (rtipc__port_in_interrupt())
        return RTIPC_ECONTEXT;
    struct rtipc__spsc *r = rtipc__spsc_of(handle);
    if (!r || !item)
        return RTIPC_EINVAL;
    int rc = rtipc__spsc_try_push(r, item, NULL);
    if (rc != RTIPC_EWOULDBLOCK || rtipc_timeout_is_no_wait(timeout))
        return rc;
    return rtipc__spsc_wait(r, RTIPC__SPSC_PRODUCER, item, NULL, timeout);
}

int rtipc_spsc_pop(rtipc_spsc_t *handle, void *item, rtipc_timeout_t timeout)
{
    if (rtipc__port_in_interrupt())
        return RTIPC_ECONTEXT;
    struct rtipc__spsc *r = rtipc__spsc_of(handle);
    if (!r || !item)
        return RTIPC_EINVAL;
    int rc = rtipc__spsc_try_pop(r, item, NULL);
    if (rc != RTIPC_EWOULDBLOCK || rtipc_timeout_is_no_wait(timeout))
        return rc;
    return rtipc__spsc_wait(r, RTIPC__SPSC_CONSUMER, NULL, item, timeout);
}
