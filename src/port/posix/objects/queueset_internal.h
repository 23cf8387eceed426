/* The link between queue sets and their members (queue.c, sem.c, ringbuf.c). */
#ifndef RTIPC_POSIX_QUEUESET_INTERNAL_H
#define RTIPC_POSIX_QUEUESET_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "rtipc/queue.h"

struct rtipc__queueset;

/* A member gained an item: push its handle into the set. Called with the
 * member's lock held (lock order: member, then the set's event queue), from
 * task or interrupt context; never blocks (the sizing rule guarantees room). */
void rtipc__queueset_post(struct rtipc__queueset *set, void *member, bool *woken);

/* A member lost all its items (queue reset) or left the set: take every
 * event of that member out of the set, keeping the order of the others.
 * Called with the member's lock held, as rtipc__queueset_post, or once the
 * member has detached (it posts no more). */
void rtipc__queueset_forget(struct rtipc__queueset *set, void *member);

/* Member side, implemented by each member type (member is its handle): under
 * the member's lock, attach to set if the member is empty and in no set
 * (RTIPC_EBUSY otherwise), or detach from set if it is empty (RTIPC_EBUSY)
 * and in set (RTIPC_EINVAL). RTIPC_EINVAL too for a handle that is not a
 * live member of that type. *capacity receives what the member counts
 * against the set's length. */
int rtipc__queue_attach_set(void *q, struct rtipc__queueset *set, uint32_t *capacity);
int rtipc__queue_detach_set(void *q, struct rtipc__queueset *set, uint32_t *capacity);
int rtipc__sem_attach_set(void *s, struct rtipc__queueset *set, uint32_t *capacity);
int rtipc__sem_detach_set(void *s, struct rtipc__queueset *set, uint32_t *capacity);
int rtipc__ringbuf_attach_set(void *rb, struct rtipc__queueset *set, uint32_t *capacity);
int rtipc__ringbuf_detach_set(void *rb, struct rtipc__queueset *set, uint32_t *capacity);

/* The set's event queue: remove every item equal to *item (item_size bytes),
 * keeping the order of the rest. Any context; never blocks. */
void rtipc__queue_drop_items(rtipc_queue_t *q, const void *item);

#endif
