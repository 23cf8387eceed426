/* C++ peers of the `peers` experiment, behind a C API: a bounded
 * std::queue + std::mutex + std::condition_variable, and
 * boost::lockfree::spsc_queue<uint32_t>. Benchmark-only (the library stays
 * C11). */
#ifndef BENCH_PEERS_CXX_H
#define BENCH_PEERS_CXX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- std::queue<uint32_t> + std::mutex + two std::condition_variable, at
 * most @p cap items: push waits while full, pop waits while empty, each
 * notifies the other side's condition variable (notify_one) after it
 * unlocked. Waits are unbounded, as a user would write them; a stuck waiter
 * is released by pushing (or popping) from another thread. */
typedef struct peers_stdq peers_stdq_t;

/* NULL when memory runs out or cap is 0. */
peers_stdq_t *peers_stdq_create(size_t cap);
void peers_stdq_delete(peers_stdq_t *q);
/* 0, or -1 on an internal error (an exception). */
int peers_stdq_push(peers_stdq_t *q, uint32_t v);
int peers_stdq_pop(peers_stdq_t *q, uint32_t *v);
/* Never wait: 0, 1 when full (push) / empty (pop), -1 on an internal error. */
int peers_stdq_try_push(peers_stdq_t *q, uint32_t v);
int peers_stdq_try_pop(peers_stdq_t *q, uint32_t *v);
/* call-cost: @p pairs rounds of push(seq + i) then pop on the calling
 * thread, each popped value checked. 0, or -1 at the first mismatch or
 * error. */
int peers_stdq_pairs(peers_stdq_t *q, uint32_t seq, int pairs);

/* ---- boost::lockfree::spsc_queue<uint32_t>, capacity fixed at run time.
 * One producer and one consumer, as for any SPSC ring. */
typedef struct peers_boost peers_boost_t;

/* NULL when boost's headers were not there at build time, memory runs out,
 * or cap is 0. */
peers_boost_t *peers_boost_create(size_t cap);
void peers_boost_delete(peers_boost_t *q);
/* true when Boost.Lockfree was available at build time. */
bool peers_boost_available(void);
/* One item: true when pushed / popped. */
bool peers_boost_push(peers_boost_t *q, uint32_t v);
bool peers_boost_pop(peers_boost_t *q, uint32_t *v);
/* Up to n items one at a time (push(v) / pop(v) in a loop, inlined) until
 * the ring is full / empty: the number moved, 0..n. */
int peers_boost_push_each(peers_boost_t *q, const uint32_t *items, int n);
int peers_boost_pop_each(peers_boost_t *q, uint32_t *items, int n);
/* Up to n items with boost's array calls push(items, n) / pop(items, n): the
 * number moved, 0..n. */
int peers_boost_push_bulk(peers_boost_t *q, const uint32_t *items, int n);
int peers_boost_pop_bulk(peers_boost_t *q, uint32_t *items, int n);
/* call-cost: as peers_stdq_pairs. */
int peers_boost_pairs(peers_boost_t *q, uint32_t seq, int pairs);

#ifdef __cplusplus
}
#endif
#endif
