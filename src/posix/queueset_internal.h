/* The link between queue sets and their members (queue.c, sem.c). */
#ifndef RTIPC_POSIX_QUEUESET_INTERNAL_H
#define RTIPC_POSIX_QUEUESET_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

struct rtipc_queueset;

/* A member gained an item: push its handle into the set. Called with the
 * member's lock held (lock order: member, then the set's event queue), from
 * task or interrupt context; never blocks (the sizing rule guarantees room). */
void rtipc__queueset_post(struct rtipc_queueset *set, void *member, bool *woken);

/* Member side, implemented by each member type: under the member's lock,
 * attach to set if the member is empty and in no set (RTIPC_EBUSY otherwise),
 * or detach from set if it is empty (RTIPC_EBUSY) and in set (RTIPC_EINVAL).
 * *capacity receives what the member counts against the set's length. */
int rtipc__queue_attach_set(void *q, struct rtipc_queueset *set, uint32_t *capacity);
int rtipc__queue_detach_set(void *q, struct rtipc_queueset *set, uint32_t *capacity);
int rtipc__sem_attach_set(void *s, struct rtipc_queueset *set, uint32_t *capacity);
int rtipc__sem_detach_set(void *s, struct rtipc_queueset *set, uint32_t *capacity);
int rtipc__ringbuf_attach_set(void *rb, struct rtipc_queueset *set, uint32_t *capacity);
int rtipc__ringbuf_detach_set(void *rb, struct rtipc_queueset *set, uint32_t *capacity);

#endif
