/* boost-spsc for the C side (lockfree.c):
 * boost::lockfree::spsc_queue<uint32_t> with its capacity fixed at run
 * time, one producer and one consumer as for any SPSC ring. Benchmark-only
 * (the library stays C11). */
#ifndef BENCH_MECHANISMS_LOCKFREE_CXX_H
#define BENCH_MECHANISMS_LOCKFREE_CXX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_boost_spsc bench_boost_spsc_t;

/* true when Boost.Lockfree was there at build time. */
bool bench_boost_spsc_available(void);
/* NULL when boost's headers were not there at build time, memory runs out,
 * or cap is 0. */
bench_boost_spsc_t *bench_boost_spsc_create(size_t cap);
void bench_boost_spsc_delete(bench_boost_spsc_t *q);
/* One item: true when pushed / popped. */
bool bench_boost_spsc_push(bench_boost_spsc_t *q, uint32_t v);
bool bench_boost_spsc_pop(bench_boost_spsc_t *q, uint32_t *v);
/* Up to n items one at a time (push(v) / pop(v) in a loop, inlined) until
 * the ring is full / empty: the number moved, 0..n. */
int bench_boost_spsc_push_each(bench_boost_spsc_t *q, const uint32_t *items, int n);
int bench_boost_spsc_pop_each(bench_boost_spsc_t *q, uint32_t *items, int n);
/* Up to n items with boost's array calls push(items, n) / pop(items, n): the
 * number moved, 0..n. */
int bench_boost_spsc_push_bulk(bench_boost_spsc_t *q, const uint32_t *items, int n);
int bench_boost_spsc_pop_bulk(bench_boost_spsc_t *q, uint32_t *items, int n);
/* Call cost: @p pairs rounds of push(seq + i) then pop on the calling
 * thread, each popped value checked. 0, or -1 at the first mismatch. */
int bench_boost_spsc_pairs(bench_boost_spsc_t *q, uint32_t seq, int pairs);

#ifdef __cplusplus
}
#endif
#endif
