/* Queue sets on FreeRTOS: a kernel queue set (xQueueCreateSetStatic; on
 * kernels without it xQueueCreateSet, from the kernel heap) over
 * rtipc queues, semaphores and ring buffers (through the counting semaphore
 * each ring buffer carries, ringbuf.c; on ESP-IDF, ESP-IDF's ring buffer
 * itself, ringbuf_espidf.c). The kernel member handle is the address of the
 * kernel object inside rtipc's wrapper, whose head keeps the rtipc handle it
 * stands for. */
#include <string.h>

#include "port_internal.h" /* the kernel's queue.h, through semphr.h */
#include "rtipc/queueset.h"
#include "common/checks.h"
#include "common/create.h"

#if !defined(configUSE_QUEUE_SETS) || configUSE_QUEUE_SETS != 1
#error "rtipc on FreeRTOS needs configUSE_QUEUE_SETS 1"
#endif

#if !RTIPC__HAVE_QUEUE_SET_STATIC && (!defined(configSUPPORT_DYNAMIC_ALLOCATION) || configSUPPORT_DYNAMIC_ALLOCATION != 1)
#error "rtipc on a FreeRTOS kernel without xQueueCreateSetStatic needs configSUPPORT_DYNAMIC_ALLOCATION 1 (queue sets come from xQueueCreateSet)"
#endif

struct rtipc__queueset {
    uint32_t length;
    uint32_t used;    /* sum of the members' capacities */
    uint32_t members;
#if RTIPC__HAVE_QUEUE_SET_STATIC
    StaticQueue_t cb;
#endif
    QueueSetHandle_t handle;
    volatile uint32_t waiters;
    int64_t spin;
};

static struct rtipc__queueset *get(const rtipc_queueset_t *handle)
{
    return rtipc__handle_get(handle, RTIPC__H_QUEUESET);
}

/* The kernel's set in @p set (its events in the block after it, where the
 * kernel has static sets), and its handle. */
static int init(struct rtipc__queueset *set, size_t length, rtipc_queueset_t **out)
{
    memset(set, 0, sizeof *set);
    set->length = (uint32_t)length;
    set->spin = RTIPC_SPIN_DEFAULT;
#if RTIPC__HAVE_QUEUE_SET_STATIC
    set->handle = xQueueCreateSetStatic((UBaseType_t)length, (uint8_t *)(set + 1), &set->cb);
#else
    set->handle = xQueueCreateSet((UBaseType_t)length);
    if (set->handle == NULL)
        return RTIPC_ENOMEM;
#endif
    uintptr_t h = rtipc__open(set, RTIPC__H_QUEUESET, NULL);
    if (h == 0) {
        vQueueDelete(set->handle);
        return RTIPC_ENOMEM;
    }
    *out = (rtipc_queueset_t *)h;
    return RTIPC_OK;
}

int rtipc_queueset_create(size_t length, rtipc_queueset_t **out)
{
#if RTIPC__HAVE_QUEUE_SET_STATIC
    size_t events = length * sizeof(void *); /* the set's storage follows it */
#else
    size_t events = 0; /* a second block, from the kernel heap */
#endif
    int rc;
    struct rtipc__queueset *set =
        RTIPC__CREATE_ALLOC(out && rtipc__queueset_length_ok(length), struct rtipc__queueset, events, &rc);
    if (!set)
        return rc;
    rc = init(set, length, out);
    if (rc != RTIPC_OK)
        rtipc__port_free(set, _Alignof(struct rtipc__queueset));
    return rc;
}

int rtipc_queueset_delete(rtipc_queueset_t *handle)
{
    struct rtipc__queueset *set = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!set)
        return RTIPC_EINVAL;
    if (set->members != 0 || rtipc__waited_on(&set->waiters))
        return RTIPC_EBUSY;
    /* From here on the handle is refused, before the memory goes. */
    rtipc__handle_close((uintptr_t)handle);
    vQueueDelete(set->handle);
    rtipc__port_free(set, _Alignof(struct rtipc__queueset));
    return RTIPC_OK;
}

static int add(struct rtipc__queueset *set, struct rtipc__qhead *m, uint32_t capacity)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (m->set != NULL || uxQueueMessagesWaiting(rtipc__qhandle(m)) != 0)
        return RTIPC_EBUSY;
    if (capacity > set->length - set->used)
        return RTIPC_EOVERFLOW;
    if (xQueueAddToSet(rtipc__qhandle(m), set->handle) != pdPASS)
        return RTIPC_EBUSY;
    m->set = set;
    set->used += capacity;
    set->members++;
    return RTIPC_OK;
}

/* The set's queue holds the kernel handles of the members that got data.
 * A member read without a select leaves its handle there; once the member
 * has left the set it may be deleted, and a select that found the handle
 * would read the freed wrapper. So its events go when it leaves: every
 * event is taken out and the others put back, in one critical section, so
 * no task or handler posts in between and the others keep their order.
 * The queue calls cannot block or switch tasks here: a receiver blocks on
 * the set only while it is empty, and nothing ever waits to post to it. */
void rtipc__set_purge(QueueSetHandle_t kernel_set, QueueSetMemberHandle_t member)
{
    RTIPC__TASK_CRIT_ENTER();
    for (UBaseType_t n = uxQueueMessagesWaiting(kernel_set); n > 0; --n) {
        QueueSetMemberHandle_t e;
        if (xQueueReceive(kernel_set, &e, 0) != pdPASS)
            break;
        if (e != member)
            (void)xQueueSend(kernel_set, &e, 0);
    }
    RTIPC__TASK_CRIT_EXIT();
}

static int remove_member(struct rtipc__queueset *set, struct rtipc__qhead *m, uint32_t capacity)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (m->set != set)
        return RTIPC_EINVAL;
    if (xQueueRemoveFromSet(rtipc__qhandle(m), set->handle) != pdPASS)
        return RTIPC_EBUSY; /* not empty */
    rtipc__set_purge(set->handle, (QueueSetMemberHandle_t)rtipc__qhandle(m));
    m->set = NULL;
    set->used -= capacity;
    set->members--;
    return RTIPC_OK;
}

int rtipc_queueset_add_queue(rtipc_queueset_t *handle, rtipc_queue_t *q)
{
    struct rtipc__queueset *set = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    uint32_t capacity = 0;
    struct rtipc__qhead *m = rtipc__queue_member(q, &capacity);
    if (!set || !m)
        return RTIPC_EINVAL;
    return add(set, m, capacity);
}

int rtipc_queueset_add_sem(rtipc_queueset_t *handle, rtipc_sem_t *s)
{
    struct rtipc__queueset *set = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    uint32_t capacity = 0;
    struct rtipc__qhead *m = rtipc__sem_member(s, &capacity);
    if (!set || !m)
        return RTIPC_EINVAL;
    return add(set, m, capacity);
}

int rtipc_queueset_remove_queue(rtipc_queueset_t *handle, rtipc_queue_t *q)
{
    struct rtipc__queueset *set = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    uint32_t capacity = 0;
    struct rtipc__qhead *m = rtipc__queue_member(q, &capacity);
    if (!set || !m)
        return RTIPC_EINVAL;
    return remove_member(set, m, capacity);
}

int rtipc_queueset_remove_sem(rtipc_queueset_t *handle, rtipc_sem_t *s)
{
    struct rtipc__queueset *set = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    uint32_t capacity = 0;
    struct rtipc__qhead *m = rtipc__sem_member(s, &capacity);
    if (!set || !m)
        return RTIPC_EINVAL;
    return remove_member(set, m, capacity);
}

/* A ring buffer joins and leaves a set only while nothing is in it or out
 * of it (its own count, not its member's, says so). */
int rtipc_queueset_add_ringbuf(rtipc_queueset_t *handle, rtipc_ringbuf_t *rb)
{
    struct rtipc__queueset *set = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!set)
        return RTIPC_EINVAL;
    uint32_t capacity;
#ifdef ESP_PLATFORM
    /* ESP-IDF's ring buffer joins the kernel set itself. */
    int rc = rtipc__ringbuf_join(rb, set, set->handle, set->length - set->used, &capacity);
    if (rc == RTIPC_OK) {
        set->used += capacity;
        set->members++;
    }
    return rc;
#else
    struct rtipc__qhead *m;
    int rc = rtipc__ringbuf_member(rb, true, &m, &capacity);
    return rc == RTIPC_OK ? add(set, m, capacity) : rc;
#endif
}

int rtipc_queueset_remove_ringbuf(rtipc_queueset_t *handle, rtipc_ringbuf_t *rb)
{
    struct rtipc__queueset *set = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!set)
        return RTIPC_EINVAL;
    uint32_t capacity;
#ifdef ESP_PLATFORM
    int rc = rtipc__ringbuf_leave(rb, set, set->handle, &capacity);
    if (rc == RTIPC_OK) {
        set->used -= capacity;
        set->members--;
    }
    return rc;
#else
    struct rtipc__qhead *m;
    int rc = rtipc__ringbuf_member(rb, false, &m, &capacity);
    if (rc == RTIPC_EINVAL || m->set != set)
        return RTIPC_EINVAL; /* not a member of this set comes first, busy or not */
    return rc == RTIPC_OK ? remove_member(set, m, capacity) : rc;
#endif
}

/* The rtipc handle a kernel member stands for, as its head keeps it. Only
 * members of the set have events in it (rtipc__set_purge), so the head
 * is alive. */
static void *member_of(QueueSetMemberHandle_t h)
{
#if RTIPC_DIRECT
    return (void *)h; /* the handle is the kernel object (rtipc/freertos_direct.h) */
#else
    return (void *)rtipc__qhead_of(h)->handle;
#endif
}

int rtipc_queueset_select(rtipc_queueset_t *handle, void **member, rtipc_timeout_t timeout)
{
    struct rtipc__queueset *set = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!set || !member)
        return RTIPC_EINVAL;
    TickType_t ticks = rtipc__ticks(timeout);
    struct rtipc__task *waiter = ticks != 0 ? rtipc__wait_in(&set->waiters) : NULL;
    QueueSetMemberHandle_t h = xQueueSelectFromSet(set->handle, ticks);
    if (ticks != 0)
        rtipc__wait_out(waiter, &set->waiters);
    if (!h)
        return rtipc__fail(timeout);
    *member = member_of(h);
    return RTIPC_OK;
}

int rtipc_queueset_select_from_isr(rtipc_queueset_t *handle, void **member)
{
    struct rtipc__queueset *set = get(handle);
    if (!set || !member)
        return RTIPC_EINVAL;
    QueueSetMemberHandle_t h = xQueueSelectFromSetFromISR(set->handle);
    if (!h)
        return RTIPC_EWOULDBLOCK;
    *member = member_of(h);
    return RTIPC_OK;
}

/* The kernel cannot drop an event of a set sized by the rules add enforces;
 * on misuse it stops at configASSERT instead of counting (docs/porting.md). */
int64_t rtipc_queueset_overflows(const rtipc_queueset_t *handle) { return get(handle) ? 0 : RTIPC_EINVAL; }

size_t rtipc_queueset_footprint(const rtipc_queueset_t *handle)
{
    struct rtipc__queueset *set = get(handle);
#if RTIPC__HAVE_QUEUE_SET_STATIC
    return set ? sizeof(struct rtipc__queueset) + (size_t)set->length * sizeof(void *) : 0;
#else
    /* rtipc's block and the kernel's (a queue control block and the storage). */
    return set ? sizeof(struct rtipc__queueset) + sizeof(StaticQueue_t) + (size_t)set->length * sizeof(void *)
                     : 0;
#endif
}

int rtipc_queueset_set_spin(rtipc_queueset_t *handle, int64_t ns)
{
    struct rtipc__queueset *set = get(handle);
    if (!set || !rtipc__spin_ok(ns))
        return RTIPC_EINVAL;
    set->spin = ns;
    return RTIPC_OK;
}
