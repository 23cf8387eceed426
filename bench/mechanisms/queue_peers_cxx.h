/* The C++ queue libraries of queue_peers.c, behind one C API: max0x7ba's
 * atomic_queue (its SPSC variant), moodycamel's ReaderWriterQueue and
 * BlockingReaderWriterQueue (SPSC) and BlockingConcurrentQueue (MPMC, used
 * with one producer and one consumer). Each holds uint32_t sequence numbers
 * and is made for at least the depth asked. Benchmark-only (the library
 * stays C11). */
#ifndef BENCH_MECHANISMS_QUEUE_PEERS_CXX_H
#define BENCH_MECHANISMS_QUEUE_PEERS_CXX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    BENCH_PEER_ATOMIC_QUEUE_SPSC,  /* atomic_queue::AtomicQueueB2<uint32_t, ..., SPSC = true> */
    BENCH_PEER_RWQ,                /* moodycamel::ReaderWriterQueue<uint32_t> */
    BENCH_PEER_BLOCKING_RWQ,       /* moodycamel::BlockingReaderWriterQueue<uint32_t> */
    BENCH_PEER_BLOCKING_CQ,        /* moodycamel::BlockingConcurrentQueue<uint32_t> + tokens */
} bench_peer_kind_t;

typedef struct bench_peer_queue bench_peer_queue_t;

/* true when the library's header was there when queue_peers_cxx.cpp was
 * built. */
bool bench_peer_available(bench_peer_kind_t kind);
/* NULL when the library is not available, memory runs out or cap is 0. */
bench_peer_queue_t *bench_peer_create(bench_peer_kind_t kind, size_t cap);
void bench_peer_delete(bench_peer_queue_t *q);

/* One item without waiting: true when pushed / popped. */
bool bench_peer_try_push(bench_peer_queue_t *q, uint32_t v);
bool bench_peer_try_pop(bench_peer_queue_t *q, uint32_t *v);
/* The blocking kinds: the library's blocking dequeue. 0, or -1 once
 * bench_peer_kick released it (BlockingReaderWriterQueue; the concurrent
 * queue's kick is an item). */
int bench_peer_wait_pop(bench_peer_queue_t *q, uint32_t *v);
/* From any thread, never blocking: release a receiver blocked in
 * bench_peer_wait_pop (the concurrent queue: an extra producer pushes
 * UINT32_MAX; the SPSC queue: a flag its timed wait sees). */
void bench_peer_kick(bench_peer_queue_t *q);

/* Up to n items one call per item, looped in C++: the number moved, 0..n
 * (0: full / empty). The blocking kinds' pop_each waits for the first item
 * with the blocking dequeue, then takes what is there without waiting;
 * -1 when kicked. */
int bench_peer_push_each(bench_peer_queue_t *q, const uint32_t *items, int n);
int bench_peer_pop_each(bench_peer_queue_t *q, uint32_t *items, int n);
/* The concurrent queue's array calls, try_enqueue_bulk (all n or none) /
 * try_dequeue_bulk: the number moved, 0..n; -1 for the other kinds. */
int bench_peer_push_bulk(bench_peer_queue_t *q, const uint32_t *items, int n);
int bench_peer_pop_bulk(bench_peer_queue_t *q, uint32_t *items, int n);
/* Call cost: @p pairs rounds of try-push(seq + i) then try-pop on the
 * calling thread, each value checked. 0, or -1 at the first mismatch. */
int bench_peer_pairs(bench_peer_queue_t *q, uint32_t seq, int pairs);

#ifdef __cplusplus
}
#endif
#endif
