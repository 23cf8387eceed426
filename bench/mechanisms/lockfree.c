/* Mechanisms whose receiver only polls (mechanisms.h): the physical floor
 * of a handoff, one cache line written by the sender and polled by the
 * receiver, and two lock-free SPSC libraries, Concurrency Kit's ck_ring and
 * boost::lockfree::spsc_queue (through lockfree_cxx.cpp). Built for Linux
 * only (absent.c lists them elsewhere); a library whose headers were not
 * there at build time is absent, and says so. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../names.h"
#include "lockfree_cxx.h"
#include "mechanisms.h"
#include "peers_wanted.h"

#if defined(BENCH_PEERS_LOOKED_FOR)
#if defined(BENCH_LOOK_CK) && __has_include(<ck_ring.h>)
#include <ck_ring.h>
#define HAVE_CK 1
#endif
#if defined(BENCH_LOOK_BOOST) && __has_include(<boost/lockfree/spsc_queue.hpp>)
#define HAVE_BOOST_HEADERS 1  /* what lockfree_cxx.cpp includes */
#endif
#endif

/* ---- spin: one cache line, written by the sender, polled by the receiver */

typedef struct {
    _Alignas(64) _Atomic uint32_t word;  /* sequence number + 1 of the last message */
    _Alignas(64) uint32_t seen;          /* receiver's: the last value it took */
} spin_word_t;

static int spin_create(size_t depth, void **obj, char *why, size_t n)
{
    (void)depth;
    spin_word_t *w = bench_mech_alloc(sizeof *w);
    if (!w)
        return bench_mech_no_memory(why, n);
    atomic_init(&w->word, 0);
    *obj = w;
    return 0;
}

static int spin_send(void *obj, uint32_t seq)
{
    spin_word_t *w = obj;
    /* Release: pairs with the receiver's acquire load. */
    atomic_store_explicit(&w->word, seq + 1, memory_order_release);
    return 0;
}

static int spin_recv(void *obj, uint32_t *seq)
{
    spin_word_t *w = obj;
    bench_mech_spin_t spin = {0};
    for (;;) {
        /* Acquire: pairs with the sender's release store. */
        uint32_t v = atomic_load_explicit(&w->word, memory_order_acquire);
        if (v != w->seen) {
            w->seen = v;
            *seq = v - 1;
            return 0;
        }
        if (bench_mech_spin_pause(&spin))
            return BENCH_MECH_ESTALL;
    }
}

static int spin_pairs(void *obj, uint32_t seq, int n)
{
    spin_word_t *w = obj;
    for (int i = 0; i < n; i++) {
        uint32_t want = seq + (uint32_t)i + 1;
        atomic_store_explicit(&w->word, want, memory_order_release);
        if (atomic_load_explicit(&w->word, memory_order_acquire) != want)
            return -1;
    }
    return 0;
}

const bench_mech_t bench_mech_spin = {
    .name = BENCH_MECH_SPIN,
    .traits = BENCH_MECH_SPINS,
    .create = spin_create,
    .destroy = free,
    .send = spin_send,
    .try_send = spin_send,
    .recv = spin_recv,
    .pairs = spin_pairs,
};

/* ---- ck-ring: Concurrency Kit's SPSC ring of pointers, the u32 carried in
 * the pointer value (slots are 8 bytes); depth rounded up to a power of two
 * slots, one of which ck_ring keeps empty.
 *
 * ck_ring orders its indices with plain volatile accesses and compiler
 * barriers (enough on x86), which ThreadSanitizer cannot see: under TSan it
 * would report the ring's own slots as races, so it is left out there. */

#if defined(HAVE_CK) && !defined(BENCH_MECH_TSAN)
typedef struct {
    _Alignas(64) ck_ring_t ring;
    _Alignas(64) ck_ring_buffer_t buf[];
} ck_t;

static int ck_create(size_t depth, void **obj, char *why, size_t n)
{
    unsigned slots = 2;
    while (slots < depth)
        slots *= 2;
    ck_t *c = bench_mech_alloc(sizeof *c + slots * sizeof c->buf[0]);
    if (!c)
        return bench_mech_no_memory(why, n);
    ck_ring_init(&c->ring, slots);
    *obj = c;
    return 0;
}

static inline bool ck_put(ck_t *c, uint32_t v)
{
    return ck_ring_enqueue_spsc(&c->ring, c->buf, (void *)(uintptr_t)v);
}

static inline bool ck_get(ck_t *c, uint32_t *v)
{
    void *p;
    if (!ck_ring_dequeue_spsc(&c->ring, c->buf, &p))
        return false;
    *v = (uint32_t)(uintptr_t)p;
    return true;
}

static int ck_send(void *obj, uint32_t seq) { return ck_put(obj, seq) ? 0 : BENCH_MECH_EFULL; }

static int ck_recv(void *obj, uint32_t *seq)
{
    bench_mech_spin_t spin = {0};
    while (!ck_get(obj, seq))
        if (bench_mech_spin_pause(&spin))
            return BENCH_MECH_ESTALL;
    return 0;
}

static int ck_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t s = BENCH_MECH_MARKER;
        if (!ck_put(obj, seq + (uint32_t)i) || !ck_get(obj, &s) || s != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}

static int ck_push_each(void *obj, const uint32_t *items, int n)
{
    int k = 0;
    while (k < n && ck_put(obj, items[k]))
        k++;
    return k;
}

static int ck_pop_each(void *obj, uint32_t *items, int n)
{
    int k = 0;
    while (k < n && ck_get(obj, &items[k]))
        k++;
    return k;
}

const bench_mech_t bench_mech_ck_ring = {
    .name = BENCH_MECH_CK_RING,
    .traits = BENCH_MECH_SPINS,
    .create = ck_create,
    .destroy = free,
    .send = ck_send,
    .try_send = ck_send,
    .recv = ck_recv,
    .pairs = ck_pairs,
    .push_each = ck_push_each,
    .pop_each = ck_pop_each,
};
#elif defined(BENCH_MECH_TSAN)
const bench_mech_t bench_mech_ck_ring = {
    .name = BENCH_MECH_CK_RING,
    .absent = "not built under ThreadSanitizer (ck_ring's x86 barriers are invisible to it)",
};
#else
const bench_mech_t bench_mech_ck_ring = {
    .name = BENCH_MECH_CK_RING,
    .absent = BENCH_PEER_ABSENT("Concurrency Kit's <ck_ring.h>", "libck-dev"),
};
#endif

/* ---- spsc-fence-floor: the least a ring that can park its peer does per
 * item without a process-wide barrier. A textbook SPSC ring of 1024 4-byte
 * slots (each side's index and its cache of the other's on a line of its
 * own, as in rtipc's ring), inlined here with no handle, no call and no
 * size switch, whose every push and pop then does what a symmetric parking
 * handshake needs after publishing (spsc.c, F1/F2): a full fence and a load
 * of the peer's sleeping flag. Nobody ever parks on it; its figures are the
 * ceiling of rtipc-spsc's default ring on this machine. Not in the table
 * (it has no handoff: pairs and streams only; mechanisms.h). ---- */

#define FLOOR_SLOTS 1024u

typedef struct {
    _Alignas(64) _Atomic uint32_t sleeping[2]; /* never set: only read */
    _Alignas(64) _Atomic uint32_t tail;        /* producer's line */
    uint32_t head_cache;
    _Alignas(64) _Atomic uint32_t head;        /* consumer's line */
    uint32_t tail_cache;
    _Alignas(64) uint32_t slot[FLOOR_SLOTS];
} floor_ring_t;

static int floor_create(size_t depth, void **obj, char *why, size_t n)
{
    (void)depth; /* 1024, the depth every bounded peer gets */
    floor_ring_t *f = bench_mech_alloc(sizeof *f);
    if (!f)
        return bench_mech_no_memory(why, n);
    *obj = f;
    return 0;
}

/* The flag load's result must be used, or the compiler drops the load. */
static inline bool floor_put(floor_ring_t *f, uint32_t v, unsigned *peer)
{
    uint32_t t = atomic_load_explicit(&f->tail, memory_order_relaxed);
    if (t - f->head_cache == FLOOR_SLOTS) {
        /* Acquire: pairs with the consumer's release of head; the slot it
         * read is free. */
        f->head_cache = atomic_load_explicit(&f->head, memory_order_acquire);
        if (t - f->head_cache == FLOOR_SLOTS)
            return false;
    }
    f->slot[t % FLOOR_SLOTS] = v;
    /* Release: pairs with the consumer's acquire of tail; publishes the slot. */
    atomic_store_explicit(&f->tail, t + 1, memory_order_release);
    atomic_thread_fence(memory_order_seq_cst); /* the handshake's store->load fence */
    *peer |= atomic_load_explicit(&f->sleeping[0], memory_order_relaxed);
    return true;
}

static inline bool floor_get(floor_ring_t *f, uint32_t *v, unsigned *peer)
{
    uint32_t h = atomic_load_explicit(&f->head, memory_order_relaxed);
    if (h == f->tail_cache) {
        /* Acquire: pairs with the producer's release of tail. */
        f->tail_cache = atomic_load_explicit(&f->tail, memory_order_acquire);
        if (h == f->tail_cache)
            return false;
    }
    *v = f->slot[h % FLOOR_SLOTS];
    /* Release: pairs with the producer's acquire of head; the slot is read. */
    atomic_store_explicit(&f->head, h + 1, memory_order_release);
    atomic_thread_fence(memory_order_seq_cst);
    *peer |= atomic_load_explicit(&f->sleeping[1], memory_order_relaxed);
    return true;
}

static int floor_pairs(void *obj, uint32_t seq, int n)
{
    unsigned peer = 0;
    for (int i = 0; i < n; i++) {
        uint32_t s = BENCH_MECH_MARKER;
        if (!floor_put(obj, seq + (uint32_t)i, &peer) || !floor_get(obj, &s, &peer) || s != seq + (uint32_t)i)
            return -1;
    }
    return peer ? -1 : 0;
}

static int floor_push_each(void *obj, const uint32_t *items, int n)
{
    unsigned peer = 0;
    int k = 0;
    while (k < n && floor_put(obj, items[k], &peer))
        k++;
    return peer ? -1 : k;
}

static int floor_pop_each(void *obj, uint32_t *items, int n)
{
    unsigned peer = 0;
    int k = 0;
    while (k < n && floor_get(obj, &items[k], &peer))
        k++;
    return peer ? -1 : k;
}

/* Up to n items in one call: one index store, one fence and one flag load
 * for all of them, the slots copied in at most two runs (the wrap). */
static int floor_push_bulk(void *obj, const uint32_t *items, int n)
{
    floor_ring_t *f = obj;
    uint32_t t = atomic_load_explicit(&f->tail, memory_order_relaxed);
    uint32_t room = FLOOR_SLOTS - (t - f->head_cache);
    if (room < (uint32_t)n) {
        /* Acquire: as in floor_put. */
        f->head_cache = atomic_load_explicit(&f->head, memory_order_acquire);
        room = FLOOR_SLOTS - (t - f->head_cache);
    }
    uint32_t k = room < (uint32_t)n ? room : (uint32_t)n;
    if (k == 0)
        return 0;
    uint32_t first = t % FLOOR_SLOTS, run = FLOOR_SLOTS - first < k ? FLOOR_SLOTS - first : k;
    memcpy(&f->slot[first], items, run * sizeof items[0]);
    memcpy(&f->slot[0], items + run, (k - run) * sizeof items[0]);
    /* Release: as in floor_put, for all k slots. */
    atomic_store_explicit(&f->tail, t + k, memory_order_release);
    atomic_thread_fence(memory_order_seq_cst);
    return atomic_load_explicit(&f->sleeping[0], memory_order_relaxed) ? -1 : (int)k;
}

static int floor_pop_bulk(void *obj, uint32_t *items, int n)
{
    floor_ring_t *f = obj;
    uint32_t h = atomic_load_explicit(&f->head, memory_order_relaxed);
    uint32_t avail = f->tail_cache - h;
    if (avail < (uint32_t)n) {
        /* Acquire: as in floor_get. */
        f->tail_cache = atomic_load_explicit(&f->tail, memory_order_acquire);
        avail = f->tail_cache - h;
    }
    uint32_t k = avail < (uint32_t)n ? avail : (uint32_t)n;
    if (k == 0)
        return 0;
    uint32_t first = h % FLOOR_SLOTS, run = FLOOR_SLOTS - first < k ? FLOOR_SLOTS - first : k;
    memcpy(items, &f->slot[first], run * sizeof items[0]);
    memcpy(items + run, &f->slot[0], (k - run) * sizeof items[0]);
    /* Release: as in floor_get, for all k slots. */
    atomic_store_explicit(&f->head, h + k, memory_order_release);
    atomic_thread_fence(memory_order_seq_cst);
    return atomic_load_explicit(&f->sleeping[1], memory_order_relaxed) ? -1 : (int)k;
}

const bench_mech_t bench_spsc_fence_floor = {
    .name = BENCH_MECH_SPSC_FENCE_FLOOR,
    .create = floor_create,
    .destroy = free,
    .pairs = floor_pairs,
    .push_each = floor_push_each,
    .pop_each = floor_pop_each,
    .push_bulk = floor_push_bulk,
    .pop_bulk = floor_pop_bulk,
};

/* ---- boost-spsc: boost::lockfree::spsc_queue<uint32_t> (lockfree_cxx.cpp) */

#if defined(HAVE_BOOST_HEADERS)
static int boost_create(size_t depth, void **obj, char *why, size_t n)
{
    if (!bench_boost_spsc_available()) {
        snprintf(why, n, "<boost/lockfree/spsc_queue.hpp> was not found when lockfree_cxx.cpp was built");
        return 1;
    }
    *obj = bench_boost_spsc_create(depth);
    return *obj ? 0 : bench_mech_no_memory(why, n);
}

static void boost_destroy(void *obj) { bench_boost_spsc_delete(obj); }
static int boost_send(void *obj, uint32_t seq) { return bench_boost_spsc_push(obj, seq) ? 0 : BENCH_MECH_EFULL; }

static int boost_recv(void *obj, uint32_t *seq)
{
    bench_mech_spin_t spin = {0};
    while (!bench_boost_spsc_pop(obj, seq))
        if (bench_mech_spin_pause(&spin))
            return BENCH_MECH_ESTALL;
    return 0;
}

static int boost_pairs(void *obj, uint32_t seq, int n) { return bench_boost_spsc_pairs(obj, seq, n); }
static int boost_push_each(void *o, const uint32_t *it, int n) { return bench_boost_spsc_push_each(o, it, n); }
static int boost_pop_each(void *o, uint32_t *it, int n) { return bench_boost_spsc_pop_each(o, it, n); }
static int boost_push_bulk(void *o, const uint32_t *it, int n) { return bench_boost_spsc_push_bulk(o, it, n); }
static int boost_pop_bulk(void *o, uint32_t *it, int n) { return bench_boost_spsc_pop_bulk(o, it, n); }

const bench_mech_t bench_mech_boost_spsc = {
    .name = BENCH_MECH_BOOST_SPSC,
    .traits = BENCH_MECH_SPINS,
    .create = boost_create,
    .destroy = boost_destroy,
    .send = boost_send,
    .try_send = boost_send,
    .recv = boost_recv,
    .pairs = boost_pairs,
    .push_each = boost_push_each,
    .pop_each = boost_pop_each,
    .push_bulk = boost_push_bulk,
    .pop_bulk = boost_pop_bulk,
};
#else
const bench_mech_t bench_mech_boost_spsc = {
    .name = BENCH_MECH_BOOST_SPSC,
    .absent = BENCH_PEER_ABSENT("<boost/lockfree/spsc_queue.hpp>", "libboost-dev"),
};
#endif
