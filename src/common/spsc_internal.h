/* The SPSC ring's control block, shared by the portable core (spsc.c) and a
 * port's waiting part (src/port/posix/objects/spsc_wait.c on Linux).
 *
 * Three cache lines, so that each side writes only its own line on the fast
 * path:
 *
 *   line 0  shared, read-mostly: shape, storage pointer, the two "sleeping"
 *           flags and the port's waiting part (lock, wait lists). Written only
 *           at creation and when a side parks or wakes a parked side, so on
 *           the fast path it sits in both cores' caches in the shared state.
 *   line 1  producer: tail (the producer's free-running index) and
 *           head_cache, the producer's private copy of the consumer's index.
 *   line 2  consumer: head and tail_cache, the mirror image.
 *
 * A side keeps its cache of the other side's index on its own line because
 * it writes that line on every operation anyway (its index): a separate line
 * for the cache would cost 64 more bytes and save no coherence transfer.
 *
 * Indices run freely over uint32_t; the slot of index i is i & mask, and
 * tail - head (mod 2^32) is the number of items, at most capacity <= 2^30. */
#ifndef RTIPC_COMMON_SPSC_INTERNAL_H
#define RTIPC_COMMON_SPSC_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "handle.h"
#include "port.h"
#include "rtipc/spsc.h"

#define RTIPC__CACHE_LINE 64
#define RTIPC__SPSC_DYNAMIC 0x1u
/* The ring's parking handshake uses the port's asymmetric fence (port.h):
 * fixed at creation, read by both sides. */
#define RTIPC__SPSC_ASYM 0x2u
#define RTIPC__SPSC_MAX_CAPACITY (1u << 30)

/* Which side is parked or to be woken: indexes sleeping[] and the port's wait
 * lists. */
enum { RTIPC__SPSC_CONSUMER = 0, RTIPC__SPSC_PRODUCER = 1 };

/* Bytes line 0 reserves for the port's waiting part (lock and two wait lists
 * on Linux: 24 bytes). The port checks that its part fits. */
#define RTIPC__SPSC_PORT_BYTES 32

struct rtipc__spsc {
    /* ---- line 0: shared, read-mostly ---- */
    _Alignas(RTIPC__CACHE_LINE) uint32_t flags;
    uint32_t mask;              /* capacity - 1 */
    uint32_t item_size;         /* bytes per item */
    unsigned char *slots;       /* capacity x item_size bytes */
    /* sleeping[side] is 1 while that side is parked (or about to park) in a
     * blocking call. Set by that side under the port lock; cleared under the
     * port lock by the side itself or by the waker. Read lock-free by the
     * other side after every successful operation (see spsc.c). */
    _Atomic uint32_t sleeping[2];
    _Alignas(8) unsigned char port[RTIPC__SPSC_PORT_BYTES];
    /* ---- line 1: the producer's ---- */
    _Alignas(RTIPC__CACHE_LINE) _Atomic uint32_t tail; /* next index to fill */
    uint32_t head_cache;        /* producer only: last head it read */
    /* ---- line 2: the consumer's ---- */
    _Alignas(RTIPC__CACHE_LINE) _Atomic uint32_t head; /* next index to take */
    uint32_t tail_cache;        /* consumer only: last tail it read */
};

_Static_assert(sizeof(struct rtipc__spsc) == 3 * RTIPC__CACHE_LINE, "SPSC control block is three cache lines");
_Static_assert(offsetof(struct rtipc__spsc, tail) == RTIPC__CACHE_LINE, "tail starts line 1");
_Static_assert(offsetof(struct rtipc__spsc, head) == 2 * RTIPC__CACHE_LINE, "head starts line 2");
_Static_assert(sizeof(struct rtipc__spsc) <= sizeof(rtipc_spsc_static_t), "rtipc_spsc_static_t holds the block");
_Static_assert(_Alignof(rtipc_spsc_static_t) >= RTIPC__CACHE_LINE, "static block is cache-line aligned");

/* The ring a handle names, or NULL: NULL, a deleted ring's handle, another
 * kind's or never a handle (handle.h). */
static inline struct rtipc__spsc *rtipc__spsc_of(const rtipc_spsc_t *handle)
{
    return rtipc__handle_get(handle, RTIPC__H_SPSC);
}

/* The fence after a side's index store, before it looks for a sleeping
 * peer (F1/F2 in spsc.c), and the one a side about to park makes after
 * raising its flag (F3/F4 in the port). With RTIPC__SPSC_ASYM the first is a
 * compiler barrier and the second the port's process-wide barrier; without,
 * both are full fences. */
static inline void rtipc__spsc_fast_fence(const struct rtipc__spsc *r)
{
    if (r->flags & RTIPC__SPSC_ASYM)
        atomic_signal_fence(memory_order_seq_cst);
    else
        atomic_thread_fence(memory_order_seq_cst);
}

static inline void rtipc__spsc_park_fence(const struct rtipc__spsc *r)
{
    if (r->flags & RTIPC__SPSC_ASYM)
        rtipc__port_heavy_fence();
    else
        atomic_thread_fence(memory_order_seq_cst);
}

/* Whether (capacity, item_size) is a valid shape. */
bool rtipc__spsc_shape_ok(size_t capacity, size_t item_size);

/* Initialise a control block (zeroing the port part). */
void rtipc__spsc_init(struct rtipc__spsc *r, size_t capacity, size_t item_size, void *storage, uint32_t flags);

/* Open r's handle (r initialised, and the port's part too) into *out:
 * RTIPC_OK, or RTIPC_ENOMEM when the handle table is full. */
int rtipc__spsc_open(struct rtipc__spsc *r, rtipc_spsc_t **out);

/* The wait-free moves. Copy up to n items in (put, producer side) or out
 * (get, consumer side); return how many moved. When at least one moved,
 * *peer_sleeping tells whether the other side was seen parked afterwards (the
 * caller must then wake it); with none moved it is false. */
uint32_t rtipc__spsc_put(struct rtipc__spsc *r, const void *items, uint32_t n, bool *peer_sleeping);
uint32_t rtipc__spsc_get(struct rtipc__spsc *r, void *items, uint32_t n, bool *peer_sleeping);

/* One non-blocking push or pop of one item, waking a parked peer (woken as
 * for rtipc__spsc_wake): RTIPC_OK or RTIPC_EWOULDBLOCK. For the ports'
 * blocking calls, which have looked the handle up already. */
int rtipc__spsc_try_push(struct rtipc__spsc *r, const void *item, bool *woken);
int rtipc__spsc_try_pop(struct rtipc__spsc *r, void *item, bool *woken);

/* Provided by the port: make the waiting part ready, after rtipc__spsc_init
 * zeroed it. Any context. */
void rtipc__spsc_port_init(struct rtipc__spsc *r);

/* Provided by the port, for rtipc_spsc_delete: RTIPC_EBUSY while a side is
 * parked on r; otherwise close @p handle (from then on neither side can
 * park) and RTIPC_OK. Task context. */
int rtipc__spsc_port_retire(struct rtipc__spsc *r, uintptr_t handle);

/* Provided by the port: wake the side `side` parked on r, which the caller
 * saw sleeping. From a handler, through the interrupt path (setting *woken as
 * irq.h says, woken may be NULL); from a task, directly. */
void rtipc__spsc_wake(struct rtipc__spsc *r, unsigned side, bool *woken);

/* Provided by the port: the blocking push (side RTIPC__SPSC_PRODUCER, from
 * @p in) or pop (RTIPC__SPSC_CONSUMER, into @p out) after a first try failed
 * and @p timeout allows waiting: its spin and park, then RTIPC_OK,
 * RTIPC_ETIMEDOUT or RTIPC_ENOMEM (a caller that could not be adopted).
 * Task context. */
int rtipc__spsc_wait(struct rtipc__spsc *r, unsigned side, const void *in, void *out, rtipc_timeout_t timeout);

#endif
