/* The published third row of the mechanism table: C++ std::queue<uint32_t>
 * guarded by std::mutex, with a std::condition_variable for the receiver.
 * Benchmark-only (the library stays C11); a small C API so that the C
 * experiments can drive it. */
#ifndef BENCH_STD_QUEUE_PEER_H
#define BENCH_STD_QUEUE_PEER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct std_queue_peer std_queue_peer_t;

/* NULL when memory runs out. */
std_queue_peer_t *std_queue_peer_create(void);
void std_queue_peer_delete(std_queue_peer_t *p);
/* Push one item and wake a waiting receiver. 0, or -1 when memory runs out. */
int std_queue_peer_send(std_queue_peer_t *p, uint32_t item);
/* Wait until an item is there and pop it. 0, or -1 on an internal error. */
int std_queue_peer_receive(std_queue_peer_t *p, uint32_t *item);

/* Memory of a peer holding @p items items, measured on a separate instance
 * whose container allocates through a counting allocator (same container
 * type and growth, allocations summed with malloc_usable_size).
 * *control = sizeof the peer object, *heap = heap bytes live with the items
 * in it. 0, or -1 when memory runs out. */
int std_queue_peer_memory(size_t items, size_t *control, size_t *heap);

#ifdef __cplusplus
}
#endif
#endif
