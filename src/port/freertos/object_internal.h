/* What the FreeRTOS port's object wrappers share: the head of a wrapped
 * kernel queue (which a queue set maps back to rtipc's handle), queue-set
 * membership across queue, semaphore and ring buffer, and opening a
 * wrapper's handle. */
#ifndef RTIPC_PORT_FREERTOS_OBJECT_INTERNAL_H
#define RTIPC_PORT_FREERTOS_OBJECT_INTERNAL_H

#include "task_internal.h"

/* Wrappers of kernel queues (queue, semaphore, mutex, a ring buffer's
 * member semaphore) share this head so that a queue set can map a kernel
 * member handle back to the rtipc handle it stands for, which the head
 * keeps (flags sit after waiters, in what would be padding on 64-bit). Each
 * wrapper starts with it. */
struct rtipc__qhead {
#if RTIPC_DIRECT
    /* Direct mode: the wrapper's address is the kernel handle and the rtipc
     * handle (rtipc/freertos_direct.h). */
    StaticQueue_t cb;
    uintptr_t handle;
#else
    uintptr_t handle; /* the rtipc object's handle (a ring buffer's, for its member) */
    StaticQueue_t cb; /* the kernel object; its handle is &cb */
#endif
    void *set;        /* the rtipc queue set it belongs to, or NULL */
    volatile uint32_t waiters; /* tasks inside a blocking call (delete -> EBUSY) */
    uint32_t flags;
    int64_t spin;
};

_Static_assert(!RTIPC_DIRECT || offsetof(struct rtipc__qhead, cb) == 0, "direct mode: a wrapper's address is its kernel handle");

static inline QueueHandle_t rtipc__qhandle(struct rtipc__qhead *h) { return (QueueHandle_t)(void *)&h->cb; }

static inline struct rtipc__qhead *rtipc__qhead_of(void *kernel_handle)
{
    return (struct rtipc__qhead *)(void *)((unsigned char *)kernel_handle - offsetof(struct rtipc__qhead, cb));
}

#ifdef ESP_PLATFORM
/* ESP-IDF: a ring buffer is ESP-IDF's own (ringbuf_espidf.c) and joins a set
 * itself (xRingbufferAddToQueueSetRead), posting the address of its
 * StaticRingbuffer_t, which its wrapper keeps where struct rtipc__qhead
 * keeps cb. Join @p set (kernel set @p kernel_set, @p room events left):
 * 0 and *capacity, RTIPC_EINVAL (not live), RTIPC_EBUSY (items in it or out
 * of it, or in a set already) or RTIPC_EOVERFLOW (more than room). Leave:
 * 0 and *capacity, RTIPC_EINVAL (not live, or not in @p set) or
 * RTIPC_EBUSY. Task context; queueset.c keeps the set's counts. */
int rtipc__ringbuf_join(rtipc_ringbuf_t *rb, void *set, QueueSetHandle_t kernel_set, uint32_t room,
                           uint32_t *capacity);
int rtipc__ringbuf_leave(rtipc_ringbuf_t *rb, void *set, QueueSetHandle_t kernel_set, uint32_t *capacity);
#endif
/* Take the events @p member left in @p kernel_set (read without a select
 * before it left the set) out of the set, keeping the order of the others,
 * so that no select ever returns a member that left: its memory may be gone.
 * Task context, right after the member left the set (queueset.c). */
void rtipc__set_purge(QueueSetHandle_t kernel_set, QueueSetMemberHandle_t member);
/* A ring buffer's queue-set member (ringbuf.c): its counting semaphore and
 * the capacity it takes in a set, with 0, or RTIPC_EBUSY (items in it or
 * out of it; adding: in a set already; both outputs set), or RTIPC_EINVAL
 * (not a live ring buffer). */
int rtipc__ringbuf_member(rtipc_ringbuf_t *rb, bool adding, struct rtipc__qhead **member,
                             uint32_t *capacity);

/* The same for queues and semaphores (queue.c, sem.c): the member head of a
 * live handle and the capacity it takes in a set, or NULL. */
struct rtipc__qhead *rtipc__queue_member(const void *queue, uint32_t *capacity);
struct rtipc__qhead *rtipc__sem_member(const void *sem, uint32_t *capacity);

/* Open the handle of a wrapper whose kernel object was just created: the
 * handle (also kept in @p keep when non-NULL), or 0 when the table is full
 * (the caller undoes the kernel object: RTIPC_ENOMEM). */
static inline uintptr_t rtipc__open(void *obj, unsigned kind, uintptr_t *keep)
{
    uintptr_t h = rtipc__handle_open(obj, kind);
    if (keep != NULL)
        *keep = h;
    return h;
}

#endif
