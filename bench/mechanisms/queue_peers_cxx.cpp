// The C++ queue peers (queue_peers_cxx.h), each used the way its library
// documents: the per-item and call-cost loops are C++ templates over the
// library's own calls, so the C side pays one call per batch, not per item.
// A library whose header was not there at build time makes no queue.
#include "queue_peers_cxx.h"

#include "peers_wanted.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <new>

// GCC 12 reports a false -Wstringop-overflow inside concurrentqueue.h's
// bulk enqueue once it is inlined here (an atomic load in a block it cannot
// size); the warning is about the library's code, not this file's.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

#if defined(BENCH_PEERS_LOOKED_FOR)
#if defined(BENCH_LOOK_ATOMIC_QUEUE) && __has_include(<atomic_queue/atomic_queue.h>)
#include <atomic_queue/atomic_queue.h>
#define BENCH_HAVE_ATOMIC_QUEUE 1
#endif
#if defined(BENCH_LOOK_RWQ) && __has_include(<readerwriterqueue/readerwriterqueue.h>)
#include <readerwriterqueue/readerwriterqueue.h>
#define BENCH_HAVE_RWQ 1
#endif
#if defined(BENCH_LOOK_CQ) && __has_include(<concurrentqueue/blockingconcurrentqueue.h>)
#include <concurrentqueue/blockingconcurrentqueue.h>
#define BENCH_HAVE_CQ 1
#endif
#endif

namespace {

// A blocked BlockingReaderWriterQueue consumer re-checks its kick flag this
// often: the queue's semaphore is private, and a second producer would break
// the single-producer contract.
constexpr std::int64_t kRwqWaitSliceUs = 100000;

} // namespace

struct bench_peer_queue {
    explicit bench_peer_queue(bench_peer_kind_t k) : kind(k) {}
    virtual ~bench_peer_queue() = default;
    bench_peer_kind_t kind;
    std::atomic<bool> kicked{false};
};

namespace {

#ifdef BENCH_HAVE_ATOMIC_QUEUE
// MAXIMIZE_THROUGHPUT = true, TOTAL_ORDER = false, SPSC = true: the variant
// the library offers for one producer and one consumer. B2 stores plain
// elements beside a state byte, so every uint32_t value is an item (the
// B variant reserves one value as its empty marker).
struct AtomicQueuePeer : bench_peer_queue {
    explicit AtomicQueuePeer(size_t cap) : bench_peer_queue(BENCH_PEER_ATOMIC_QUEUE_SPSC), q(unsigned(cap)) {}
    atomic_queue::AtomicQueueB2<uint32_t, std::allocator<uint32_t>, true, false, true> q;
    bool push(uint32_t v) { return q.try_push(v); }
    bool pop(uint32_t &v) { return q.try_pop(v); }
};
#endif

#ifdef BENCH_HAVE_RWQ
struct RwqPeer : bench_peer_queue {
    explicit RwqPeer(size_t cap) : bench_peer_queue(BENCH_PEER_RWQ), q(cap) {}
    moodycamel::ReaderWriterQueue<uint32_t> q;
    // try_enqueue never allocates: the queue stays at the capacity made.
    bool push(uint32_t v) { return q.try_enqueue(v); }
    bool pop(uint32_t &v) { return q.try_dequeue(v); }
};

struct BlockingRwqPeer : bench_peer_queue {
    explicit BlockingRwqPeer(size_t cap) : bench_peer_queue(BENCH_PEER_BLOCKING_RWQ), q(cap) {}
    moodycamel::BlockingReaderWriterQueue<uint32_t> q;
    bool push(uint32_t v) { return q.try_enqueue(v); }
    bool pop(uint32_t &v) { return q.try_dequeue(v); }
    // The library's semaphore wait (spin, then park), in slices so that a
    // kick is seen.
    bool wait_pop(uint32_t &v)
    {
        while (!q.wait_dequeue_timed(v, kRwqWaitSliceUs))
            if (kicked.load(std::memory_order_acquire))
                return false;
        return true;
    }
};
#endif

#ifdef BENCH_HAVE_CQ
// One producer and one consumer, each with the token the library recommends
// for a thread that enqueues (dequeues) repeatedly. Tokens are not tied to a
// thread, only used by one at a time, as here.
struct BlockingCqPeer : bench_peer_queue {
    // The README's sizing for a producer that must not allocate: a block
    // more than cap fills, as a block is reused only once wholly drained.
    static constexpr size_t kBlock = moodycamel::ConcurrentQueueDefaultTraits::BLOCK_SIZE;
    explicit BlockingCqPeer(size_t cap)
        : bench_peer_queue(BENCH_PEER_BLOCKING_CQ), q(((cap + kBlock - 1) / kBlock + 1) * kBlock), ptok(q), ctok(q)
    {
    }
    moodycamel::BlockingConcurrentQueue<uint32_t> q;
    moodycamel::ProducerToken ptok;
    moodycamel::ConsumerToken ctok;
    // try_enqueue with a token never allocates: bounded by the blocks made.
    bool push(uint32_t v) { return q.try_enqueue(ptok, v); }
    bool pop(uint32_t &v) { return q.try_dequeue(ctok, v); }
    bool wait_pop(uint32_t &v)
    {
        q.wait_dequeue(ctok, v);
        return true;
    }
    int push_bulk(const uint32_t *items, int n) { return q.try_enqueue_bulk(ptok, items, size_t(n)) ? n : 0; }
    int pop_bulk(uint32_t *items, int n) { return int(q.try_dequeue_bulk(ctok, items, size_t(n))); }
};
#endif

template <class Q> int push_each(Q &p, const uint32_t *items, int n)
{
    int k = 0;
    while (k < n && p.push(items[k]))
        k++;
    return k;
}

template <class Q> int pop_each(Q &p, uint32_t *items, int n)
{
    int k = 0;
    while (k < n && p.pop(items[k]))
        k++;
    return k;
}

// The blocking consumer's per-item loop: wait for one, then take the rest
// that is there, one call each.
template <class Q> int wait_pop_each(Q &p, uint32_t *items, int n)
{
    if (n <= 0)
        return 0;
    if (!p.wait_pop(items[0]))
        return -1;
    int k = 1;
    while (k < n && p.pop(items[k]))
        k++;
    return k;
}

template <class Q> int pairs(Q &p, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t v = ~(seq + uint32_t(i));
        if (!p.push(seq + uint32_t(i)) || !p.pop(v) || v != seq + uint32_t(i))
            return -1;
    }
    return 0;
}

// Calls f with q as its own type; @p none when the kind is not built.
template <class F, class R> R visit(bench_peer_queue *q, R none, F f)
{
    (void)f;  // no case calls it when no peer library was found
    switch (q->kind) {
#ifdef BENCH_HAVE_ATOMIC_QUEUE
    case BENCH_PEER_ATOMIC_QUEUE_SPSC: return f(static_cast<AtomicQueuePeer &>(*q));
#endif
#ifdef BENCH_HAVE_RWQ
    case BENCH_PEER_RWQ: return f(static_cast<RwqPeer &>(*q));
    case BENCH_PEER_BLOCKING_RWQ: return f(static_cast<BlockingRwqPeer &>(*q));
#endif
#ifdef BENCH_HAVE_CQ
    case BENCH_PEER_BLOCKING_CQ: return f(static_cast<BlockingCqPeer &>(*q));
#endif
    default: return none;
    }
}

} // namespace

extern "C" {

bool bench_peer_available(bench_peer_kind_t kind)
{
    switch (kind) {
#ifdef BENCH_HAVE_ATOMIC_QUEUE
    case BENCH_PEER_ATOMIC_QUEUE_SPSC: return true;
#endif
#ifdef BENCH_HAVE_RWQ
    case BENCH_PEER_RWQ:
    case BENCH_PEER_BLOCKING_RWQ: return true;
#endif
#ifdef BENCH_HAVE_CQ
    case BENCH_PEER_BLOCKING_CQ: return true;
#endif
    default: return false;
    }
}

bench_peer_queue_t *bench_peer_create(bench_peer_kind_t kind, size_t cap)
{
    if (cap == 0)
        return nullptr;
    try {
        switch (kind) {
#ifdef BENCH_HAVE_ATOMIC_QUEUE
        case BENCH_PEER_ATOMIC_QUEUE_SPSC: return new AtomicQueuePeer(cap);
#endif
#ifdef BENCH_HAVE_RWQ
        case BENCH_PEER_RWQ: return new RwqPeer(cap);
        case BENCH_PEER_BLOCKING_RWQ: return new BlockingRwqPeer(cap);
#endif
#ifdef BENCH_HAVE_CQ
        case BENCH_PEER_BLOCKING_CQ: return new BlockingCqPeer(cap);
#endif
        default: return nullptr;
        }
    } catch (...) {
        return nullptr;
    }
}

void bench_peer_delete(bench_peer_queue_t *q)
{
    delete q;
}

bool bench_peer_try_push(bench_peer_queue_t *q, uint32_t v)
{
    return visit(q, false, [v](auto &p) { return p.push(v); });
}

bool bench_peer_try_pop(bench_peer_queue_t *q, uint32_t *v)
{
    return visit(q, false, [v](auto &p) { return p.pop(*v); });
}

int bench_peer_wait_pop(bench_peer_queue_t *q, uint32_t *v)
{
    (void)v;  // no case reads it when neither blocking queue was found
    switch (q->kind) {
#ifdef BENCH_HAVE_RWQ
    case BENCH_PEER_BLOCKING_RWQ: return static_cast<BlockingRwqPeer *>(q)->wait_pop(*v) ? 0 : -1;
#endif
#ifdef BENCH_HAVE_CQ
    case BENCH_PEER_BLOCKING_CQ: return static_cast<BlockingCqPeer *>(q)->wait_pop(*v) ? 0 : -1;
#endif
    default: return -1;
    }
}

void bench_peer_kick(bench_peer_queue_t *q)
{
    q->kicked.store(true, std::memory_order_release);
#ifdef BENCH_HAVE_CQ
    // A second producer is allowed here (the queue is MPMC): no token, and
    // enqueue may allocate rather than fail when the blocks are taken.
    if (q->kind == BENCH_PEER_BLOCKING_CQ)
        (void)static_cast<BlockingCqPeer *>(q)->q.enqueue(UINT32_MAX);
#endif
}

int bench_peer_push_each(bench_peer_queue_t *q, const uint32_t *items, int n)
{
    return visit(q, -1, [items, n](auto &p) { return push_each(p, items, n); });
}

int bench_peer_pop_each(bench_peer_queue_t *q, uint32_t *items, int n)
{
    switch (q->kind) {
#ifdef BENCH_HAVE_RWQ
    case BENCH_PEER_BLOCKING_RWQ: return wait_pop_each(static_cast<BlockingRwqPeer &>(*q), items, n);
#endif
#ifdef BENCH_HAVE_CQ
    case BENCH_PEER_BLOCKING_CQ: return wait_pop_each(static_cast<BlockingCqPeer &>(*q), items, n);
#endif
    default: return visit(q, -1, [items, n](auto &p) { return pop_each(p, items, n); });
    }
}

int bench_peer_push_bulk(bench_peer_queue_t *q, const uint32_t *items, int n)
{
#ifdef BENCH_HAVE_CQ
    if (q->kind == BENCH_PEER_BLOCKING_CQ)
        return static_cast<BlockingCqPeer *>(q)->push_bulk(items, n);
#endif
    (void)q, (void)items, (void)n;
    return -1;
}

int bench_peer_pop_bulk(bench_peer_queue_t *q, uint32_t *items, int n)
{
#ifdef BENCH_HAVE_CQ
    if (q->kind == BENCH_PEER_BLOCKING_CQ)
        return static_cast<BlockingCqPeer *>(q)->pop_bulk(items, n);
#endif
    (void)q, (void)items, (void)n;
    return -1;
}

int bench_peer_pairs(bench_peer_queue_t *q, uint32_t seq, int n)
{
    return visit(q, -1, [seq, n](auto &p) { return pairs(p, seq, n); });
}

} // extern "C"
