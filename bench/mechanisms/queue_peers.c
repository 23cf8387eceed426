/* More lock-free queue libraries beside rtipc's objects (mechanisms.h):
 * atomic_queue's SPSC variant, moodycamel's ReaderWriterQueue (polled and
 * blocking) and BlockingConcurrentQueue (through queue_peers_cxx.cpp), and
 * userspace RCU's wait-free concurrent queue (cds_wfcq, C, liburcu-common).
 * Built for Linux only (absent.c lists them elsewhere); a library whose
 * header was not there at build time is absent, and says so. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "../names.h"
#include "mechanisms.h"
#include "peers_wanted.h"
#include "queue_peers_cxx.h"

#if defined(BENCH_PEERS_LOOKED_FOR)
#if defined(BENCH_LOOK_ATOMIC_QUEUE) && __has_include(<atomic_queue/atomic_queue.h>)
#define HAVE_ATOMIC_QUEUE_HEADERS 1  /* what queue_peers_cxx.cpp includes */
#endif
#if defined(BENCH_LOOK_RWQ) && __has_include(<readerwriterqueue/readerwriterqueue.h>)
#define HAVE_RWQ_HEADERS 1
#endif
#if defined(BENCH_LOOK_CQ) && __has_include(<concurrentqueue/blockingconcurrentqueue.h>)
#define HAVE_CQ_HEADERS 1
#endif
/* BENCH_HAVE_URCU: set by the build when liburcu-common was found to link. */
#if defined(BENCH_LOOK_URCU) && defined(BENCH_HAVE_URCU) && __has_include(<urcu/wfcqueue.h>)
#include <urcu/wfcqueue.h>
#define HAVE_URCU 1
#endif
#endif

/* ConcurrentQueue orders its slots with relaxed accesses and
 * std::atomic_thread_fence, which ThreadSanitizer does not model: under
 * TSan it reports the queue's own slots as races, so it is left out there. */
#if defined(HAVE_CQ_HEADERS) && !defined(BENCH_MECH_TSAN)
#define BUILD_CQ 1
#endif
#if defined(HAVE_ATOMIC_QUEUE_HEADERS) || defined(HAVE_RWQ_HEADERS) || defined(BUILD_CQ)
#define HAVE_CXX_PEERS 1
#endif
#if defined(HAVE_RWQ_HEADERS) || defined(BUILD_CQ)
#define HAVE_BLOCKING_PEERS 1
#endif

/* ---- the C++ queues: one set of adapters, the kind in the object ---- */

#if defined(HAVE_CXX_PEERS)

static int cxx_make(bench_peer_kind_t kind, const char *header, size_t depth, void **obj, char *why, size_t n)
{
    if (!bench_peer_available(kind)) {
        snprintf(why, n, "<%s> was not found when queue_peers_cxx.cpp was built", header);
        return 1;
    }
    *obj = bench_peer_create(kind, depth);
    return *obj ? 0 : bench_mech_no_memory(why, n);
}

static void cxx_destroy(void *obj) { bench_peer_delete(obj); }
static int cxx_send(void *obj, uint32_t seq) { return bench_peer_try_push(obj, seq) ? 0 : BENCH_MECH_EFULL; }

static int cxx_recv_spin(void *obj, uint32_t *seq)
{
    bench_mech_spin_t spin = {0};
    while (!bench_peer_try_pop(obj, seq))
        if (bench_mech_spin_pause(&spin))
            return BENCH_MECH_ESTALL;
    return 0;
}

static int cxx_pairs(void *obj, uint32_t seq, int n) { return bench_peer_pairs(obj, seq, n); }
static int cxx_push_each(void *o, const uint32_t *it, int n) { return bench_peer_push_each(o, it, n); }

/* A polled C++ ring: the entry every such peer shares but for its name and
 * its create. */
#define POLLED_CXX_PEER(mech_name, create_fn)                                                                \
    {                                                                                                        \
        .name = (mech_name), .traits = BENCH_MECH_SPINS, .create = (create_fn), .destroy = cxx_destroy,      \
        .send = cxx_send, .try_send = cxx_send, .recv = cxx_recv_spin, .pairs = cxx_pairs,                   \
        .push_each = cxx_push_each, .pop_each = cxx_pop_each,                                                \
    }

static int cxx_pop_each(void *o, uint32_t *it, int n)
{
    int k = bench_peer_pop_each(o, it, n);
    return k >= 0 ? k : BENCH_MECH_EOS(ECANCELED);
}
#endif

#if defined(HAVE_BLOCKING_PEERS)
static int cxx_recv_wait(void *obj, uint32_t *seq)
{
    return bench_peer_wait_pop(obj, seq) == 0 ? 0 : BENCH_MECH_EOS(ECANCELED);
}

static void cxx_kick(void *obj) { bench_peer_kick(obj); }

/* The fields every blocking C++ peer shares but for its name and create. */
#define BLOCKING_CXX_PEER(mech_name, create_fn)                                                              \
    .name = (mech_name), .traits = BENCH_MECH_PARKS | BENCH_MECH_SPINS | BENCH_MECH_FOREIGN_WAIT,            \
    .create = (create_fn), .destroy = cxx_destroy, .send = cxx_send, .try_send = cxx_send,                   \
    .recv = cxx_recv_wait, .recv_spin = cxx_recv_spin, .kick = cxx_kick, .pairs = cxx_pairs,                 \
    .push_each = cxx_push_each, .pop_each = cxx_pop_each
#endif

/* ---- atomic-queue-spsc: atomic_queue::AtomicQueueB2<uint32_t,
 * std::allocator<uint32_t>, true, false, true>, try_push/try_pop polled;
 * its size is rounded up to a power of two, at least 4096 slots */

#if defined(HAVE_ATOMIC_QUEUE_HEADERS)
static int aq_create(size_t depth, void **obj, char *why, size_t n)
{
    return cxx_make(BENCH_PEER_ATOMIC_QUEUE_SPSC, "atomic_queue/atomic_queue.h", depth, obj, why, n);
}

const bench_mech_t bench_mech_atomic_queue_spsc = POLLED_CXX_PEER(BENCH_MECH_ATOMIC_QUEUE_SPSC, aq_create);
#else
const bench_mech_t bench_mech_atomic_queue_spsc = {
    .name = BENCH_MECH_ATOMIC_QUEUE_SPSC,
    .absent = BENCH_PEER_ABSENT("<atomic_queue/atomic_queue.h>", "libatomic-queue-dev"),
};
#endif

/* ---- moodycamel-rwq: moodycamel::ReaderWriterQueue<uint32_t>(depth),
 * try_enqueue/try_dequeue polled; moodycamel-blocking-rwq: its
 * BlockingReaderWriterQueue, try_enqueue and the blocking
 * wait_dequeue_timed (semaphore: spins 1024 times, then parks) */

#if defined(HAVE_RWQ_HEADERS)
static int rwq_create(size_t depth, void **obj, char *why, size_t n)
{
    return cxx_make(BENCH_PEER_RWQ, "readerwriterqueue/readerwriterqueue.h", depth, obj, why, n);
}

static int brwq_create(size_t depth, void **obj, char *why, size_t n)
{
    return cxx_make(BENCH_PEER_BLOCKING_RWQ, "readerwriterqueue/readerwriterqueue.h", depth, obj, why, n);
}

const bench_mech_t bench_mech_moodycamel_rwq = POLLED_CXX_PEER(BENCH_MECH_MOODYCAMEL_RWQ, rwq_create);

/* Its semaphore is its own: a kick sets a flag the consumer's timed wait
 * (100 ms slices) sees, so the watchdog can release it. */
const bench_mech_t bench_mech_moodycamel_blocking_rwq = {BLOCKING_CXX_PEER(BENCH_MECH_MOODYCAMEL_BLOCKING_RWQ, brwq_create)};
#else
const bench_mech_t bench_mech_moodycamel_rwq = {
    .name = BENCH_MECH_MOODYCAMEL_RWQ,
    .absent = BENCH_PEER_ABSENT("<readerwriterqueue/readerwriterqueue.h>", "libreaderwriterqueue-dev"),
};
const bench_mech_t bench_mech_moodycamel_blocking_rwq = {
    .name = BENCH_MECH_MOODYCAMEL_BLOCKING_RWQ,
    .absent = BENCH_PEER_ABSENT("<readerwriterqueue/readerwriterqueue.h>", "libreaderwriterqueue-dev"),
};
#endif

/* ---- moodycamel-blocking-cq: moodycamel::BlockingConcurrentQueue<uint32_t>
 * (depth), one producer token and one consumer token; try_enqueue, the
 * blocking wait_dequeue (semaphore: spins up to 10000 times, then parks),
 * try_enqueue_bulk / try_dequeue_bulk for bulk */

#if defined(BUILD_CQ)
static int cxx_push_bulk(void *o, const uint32_t *it, int n) { return bench_peer_push_bulk(o, it, n); }
static int cxx_pop_bulk(void *o, uint32_t *it, int n) { return bench_peer_pop_bulk(o, it, n); }

static int bcq_create(size_t depth, void **obj, char *why, size_t n)
{
    return cxx_make(BENCH_PEER_BLOCKING_CQ, "concurrentqueue/blockingconcurrentqueue.h", depth, obj, why, n);
}

const bench_mech_t bench_mech_moodycamel_blocking_cq = {
    BLOCKING_CXX_PEER(BENCH_MECH_MOODYCAMEL_BLOCKING_CQ, bcq_create),
    .push_bulk = cxx_push_bulk,
    .pop_bulk = cxx_pop_bulk,
};
#elif defined(HAVE_CQ_HEADERS)
const bench_mech_t bench_mech_moodycamel_blocking_cq = {
    .name = BENCH_MECH_MOODYCAMEL_BLOCKING_CQ,
    .absent = "not built under ThreadSanitizer (ConcurrentQueue's std::atomic_thread_fence ordering is invisible "
              "to it)",
};
#else
const bench_mech_t bench_mech_moodycamel_blocking_cq = {
    .name = BENCH_MECH_MOODYCAMEL_BLOCKING_CQ,
    .absent = BENCH_PEER_ABSENT("<concurrentqueue/blockingconcurrentqueue.h>", "libconcurrentqueue-dev"),
};
#endif

/* ---- urcu-wfcq: userspace RCU's wait-free concurrent queue, a list of
 * caller-owned nodes: cds_wfcq_enqueue, and __cds_wfcq_dequeue_nonblocking
 * polled (one dequeuer, so no dequeue lock: the head is a __cds_wfcq_head).
 * The nodes come from a pool of depth nodes taken in order: FIFO with one
 * consumer returns them in the same order, so the producer reuses node i
 * once the consumer's count says it was dequeued, which bounds the queue at
 * depth. Each queue call is a call into liburcu-common (the library's
 * exported functions, not its LGPL inline versions). */

#if defined(HAVE_URCU) && !defined(BENCH_MECH_TSAN)
typedef struct {
    struct cds_wfcq_node node;
    uint32_t v;
} wfcq_item_t;

typedef struct {
    _Alignas(64) struct __cds_wfcq_head head;
    _Alignas(64) struct cds_wfcq_tail tail;
    _Alignas(64) uint64_t sent;        /* producer's */
    uint64_t taken_seen;               /* producer's copy of taken */
    _Alignas(64) _Atomic uint64_t taken; /* consumer's: nodes dequeued */
    _Alignas(64) size_t slots;
    wfcq_item_t *pool;
} wfcq_t;

static int wfcq_create(size_t depth, void **obj, char *why, size_t n)
{
    wfcq_t *q = bench_mech_alloc(sizeof *q);
    if (!q)
        return bench_mech_no_memory(why, n);
    q->slots = depth ? depth : 1;
    q->pool = bench_mech_alloc(q->slots * sizeof q->pool[0]);
    if (!q->pool) {
        free(q);
        return bench_mech_no_memory(why, n);
    }
    __cds_wfcq_init(&q->head, &q->tail);
    atomic_init(&q->taken, 0);
    *obj = q;
    return 0;
}

static void wfcq_destroy(void *obj)
{
    wfcq_t *q = obj;
    free(q->pool);
    free(q);
}

static inline bool wfcq_put(wfcq_t *q, uint32_t v)
{
    if (q->sent - q->taken_seen >= q->slots) {
        /* Acquire: the consumer is done with the node before we reuse it. */
        q->taken_seen = atomic_load_explicit(&q->taken, memory_order_acquire);
        if (q->sent - q->taken_seen >= q->slots)
            return false;
    }
    wfcq_item_t *it = &q->pool[q->sent % q->slots];
    cds_wfcq_node_init(&it->node);
    it->v = v;
    cds_wfcq_enqueue(&q->head, &q->tail, &it->node);
    q->sent++;
    return true;
}

static inline bool wfcq_get(wfcq_t *q, uint32_t *v)
{
    struct cds_wfcq_node *nd = __cds_wfcq_dequeue_nonblocking(&q->head, &q->tail);
    if (!nd || nd == CDS_WFCQ_WOULDBLOCK)
        return false;
    *v = caa_container_of(nd, wfcq_item_t, node)->v;
    /* Release: our read of the node comes before its reuse. */
    atomic_store_explicit(&q->taken, atomic_load_explicit(&q->taken, memory_order_relaxed) + 1,
                          memory_order_release);
    return true;
}

static int wfcq_send(void *obj, uint32_t seq) { return wfcq_put(obj, seq) ? 0 : BENCH_MECH_EFULL; }

static int wfcq_recv(void *obj, uint32_t *seq)
{
    bench_mech_spin_t spin = {0};
    while (!wfcq_get(obj, seq))
        if (bench_mech_spin_pause(&spin))
            return BENCH_MECH_ESTALL;
    return 0;
}

static int wfcq_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t s = BENCH_MECH_MARKER;
        if (!wfcq_put(obj, seq + (uint32_t)i) || !wfcq_get(obj, &s) || s != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}

static int wfcq_push_each(void *obj, const uint32_t *items, int n)
{
    int k = 0;
    while (k < n && wfcq_put(obj, items[k]))
        k++;
    return k;
}

static int wfcq_pop_each(void *obj, uint32_t *items, int n)
{
    int k = 0;
    while (k < n && wfcq_get(obj, &items[k]))
        k++;
    return k;
}

const bench_mech_t bench_mech_urcu_wfcq = {
    .name = BENCH_MECH_URCU_WFCQ,
    .traits = BENCH_MECH_SPINS,
    .create = wfcq_create,
    .destroy = wfcq_destroy,
    .send = wfcq_send,
    .try_send = wfcq_send,
    .recv = wfcq_recv,
    .pairs = wfcq_pairs,
    .push_each = wfcq_push_each,
    .pop_each = wfcq_pop_each,
};
#elif defined(HAVE_URCU)
const bench_mech_t bench_mech_urcu_wfcq = {
    .name = BENCH_MECH_URCU_WFCQ,
    .absent = "not built under ThreadSanitizer (liburcu-common's atomics are not instrumented: it would report "
              "the nodes it hands over as races)",
};
#else
const bench_mech_t bench_mech_urcu_wfcq = {
    .name = BENCH_MECH_URCU_WFCQ,
    .absent = BENCH_PEER_ABSENT("<urcu/wfcqueue.h> or liburcu-common", "liburcu-dev"),
};
#endif
