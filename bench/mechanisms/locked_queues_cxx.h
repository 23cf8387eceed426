/* std-queue-mutex for the C side (locked_queues.c): std::queue<uint32_t>
 * behind std::mutex, with two std::condition_variable, as a C++ programmer
 * would write a bounded queue: lock, wait while full / empty, push / pop,
 * unlock, notify_one the other side. Benchmark-only (the library stays
 * C11). Waits are unbounded, as a user would write them; a stuck waiter is
 * released by pushing (or popping) from another thread. */
#ifndef BENCH_MECHANISMS_LOCKED_QUEUES_CXX_H
#define BENCH_MECHANISMS_LOCKED_QUEUES_CXX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_std_queue bench_std_queue_t;

/* At most @p cap items. NULL when memory runs out or cap is 0. */
bench_std_queue_t *bench_std_queue_create(size_t cap);
void bench_std_queue_delete(bench_std_queue_t *q);
/* Push waits while full, pop while empty. 0, or -1 on an internal error
 * (an exception: out of memory). */
int bench_std_queue_push(bench_std_queue_t *q, uint32_t v);
int bench_std_queue_pop(bench_std_queue_t *q, uint32_t *v);
/* Never wait: 0, 1 when full (push) / empty (pop), -1 on an internal error. */
int bench_std_queue_try_push(bench_std_queue_t *q, uint32_t v);
int bench_std_queue_try_pop(bench_std_queue_t *q, uint32_t *v);
/* Call cost: @p pairs rounds of push(seq + i) then pop on the calling
 * thread, each popped value checked. 0, or -1 at the first mismatch or
 * error. */
int bench_std_queue_pairs(bench_std_queue_t *q, uint32_t seq, int pairs);

/* Memory of a queue like @p like (its bound) holding @p items items,
 * measured on a separate instance whose container allocates through a
 * counting allocator (same container type and growth, allocations summed
 * with malloc_usable_size). *control = sizeof the queue object, *heap =
 * heap bytes live with the items in it. 0, or -1 when memory runs out or
 * the items do not fit. Context: one thread at a time. */
int bench_std_queue_memory(const bench_std_queue_t *like, size_t items, size_t *control, size_t *heap);

#ifdef __cplusplus
}
#endif
#endif
