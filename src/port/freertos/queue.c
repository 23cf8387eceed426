/* Queues on FreeRTOS: a kernel queue (xQueueCreateStatic) inside rtipc's
 * wrapper; one pvPortMalloc block holds wrapper and items when dynamic. */
#include <string.h>

#include "port_internal.h" /* the kernel's queue.h, through semphr.h */
#include "rtipc/config.h"
#include "rtipc/queue.h"
#include "common/checks.h"
#include "common/create.h"

struct rtipc__queue {
    struct rtipc__qhead h; /* first: kernel handle <-> wrapper */
    uint32_t length;
    uint32_t item_size;
};

_Static_assert(sizeof(struct rtipc__queue) <= sizeof(rtipc_queue_static_t),
               "rtipc_queue_static_t holds the FreeRTOS queue wrapper (raise RTIPC_QUEUE_STATIC_SIZE)");
_Static_assert(_Alignof(struct rtipc__queue) <= _Alignof(rtipc_queue_static_t), "static block alignment");

static struct rtipc__queue *get(const rtipc_queue_t *handle) { return rtipc__handle_get(handle, RTIPC__H_QUEUE); }
static QueueHandle_t kq(struct rtipc__queue *q) { return rtipc__qhandle(&q->h); }

static bool shape_ok(size_t length, size_t item_size) { return rtipc__queue_shape_ok(length, item_size); }

static int init(struct rtipc__queue *q, size_t length, size_t item_size, void *storage, uint32_t flags,
                rtipc_queue_t **out)
{
    memset(q, 0, sizeof *q);
    q->length = (uint32_t)length;
    q->item_size = (uint32_t)item_size;
    q->h.flags = flags;
    q->h.spin = RTIPC_SPIN_DEFAULT;
    (void)xQueueCreateStatic((UBaseType_t)length, (UBaseType_t)item_size, storage, &q->h.cb);
    uintptr_t h = rtipc__open(q, RTIPC__H_QUEUE, &q->h.handle);
    if (h == 0) {
        vQueueDelete(kq(q));
        return RTIPC_ENOMEM;
    }
    *out = (rtipc_queue_t *)h;
    return RTIPC_OK;
}

int rtipc_queue_create(size_t length, size_t item_size, rtipc_queue_t **out)
{
    int rc;
    struct rtipc__queue *q = RTIPC__CREATE_ALLOC(out && shape_ok(length, item_size), struct rtipc__queue,
                                                    length * item_size, &rc);
    if (!q)
        return rc;
    rc = init(q, length, item_size, q + 1, RTIPC__DYNAMIC, out);
    if (rc != RTIPC_OK)
        rtipc__port_free(q, _Alignof(struct rtipc__queue));
    return rc;
}

int rtipc_queue_create_static(size_t length, size_t item_size, void *storage, rtipc_queue_static_t *cb,
                              rtipc_queue_t **out)
{
    /* The kernel's creation enters a task-level critical section: not from
     * a handler on FreeRTOS (docs/porting.md). */
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!out || !cb || !storage || !shape_ok(length, item_size))
        return RTIPC_EINVAL;
    struct rtipc__queue *q = (struct rtipc__queue *)(void *)cb;
    return init(q, length, item_size, storage, 0, out);
}

int rtipc_queue_delete(rtipc_queue_t *handle)
{
    struct rtipc__queue *q = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!q)
        return RTIPC_EINVAL;
    if (rtipc__waited_on(&q->h.waiters) || q->h.set != NULL)
        return RTIPC_EBUSY;
    /* From here on the handle is refused, before the memory goes. */
    rtipc__handle_close((uintptr_t)handle);
    vQueueDelete(kq(q));
    if (q->h.flags & RTIPC__DYNAMIC)
        rtipc__port_free(q, _Alignof(struct rtipc__queue));
    return RTIPC_OK;
}

static int send(struct rtipc__queue *q, const void *item, rtipc_timeout_t timeout, BaseType_t pos)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!q || !item)
        return RTIPC_EINVAL;
    /* First the kernel's call without a wait, which does what the blocking
     * call would do first, with nothing to count and no timeout to convert.
     * No room: on to the blocking call, which looks again. (A sender mostly
     * finds room, so no lock-free look at the count comes first: it would
     * cost every send a call to spare a full queue's first try.) */
    if (xQueueGenericSend(kq(q), item, 0, pos) == pdPASS)
        return RTIPC_OK;
    TickType_t ticks = rtipc__ticks(timeout);
    if (ticks == 0)
        return RTIPC_EWOULDBLOCK;
    struct rtipc__task *waiter = rtipc__wait_in(&q->h.waiters);
    BaseType_t ok = xQueueGenericSend(kq(q), item, ticks, pos);
    rtipc__wait_out(waiter, &q->h.waiters);
    return ok == pdPASS ? RTIPC_OK : RTIPC_ETIMEDOUT;
}

int rtipc_queue_send(rtipc_queue_t *handle, const void *item, rtipc_timeout_t timeout)
{
    struct rtipc__queue *q = get(handle);
    return send(q, item, timeout, queueSEND_TO_BACK);
}

int rtipc_queue_send_to_front(rtipc_queue_t *handle, const void *item, rtipc_timeout_t timeout)
{
    struct rtipc__queue *q = get(handle);
    return send(q, item, timeout, queueSEND_TO_FRONT);
}

static int receive(struct rtipc__queue *q, void *item, rtipc_timeout_t timeout, bool peek)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!q || !item)
        return RTIPC_EINVAL;
    /* An item there (the same hint as in send): the kernel's call without
     * a wait, nothing to count. */
    if (uxQueueMessagesWaitingFromISR(kq(q)) != 0 &&
        (peek ? xQueuePeek(kq(q), item, 0) : xQueueReceive(kq(q), item, 0)) == pdPASS)
        return RTIPC_OK;
    TickType_t ticks = rtipc__ticks(timeout);
    if (ticks == 0)
        return RTIPC_EWOULDBLOCK;
    struct rtipc__task *waiter = rtipc__wait_in(&q->h.waiters);
    /* Spin first where the rules allow (port_internal.h); counted among the
     * waiters, so the queue is not deleted under the spin. */
    TickType_t start = rtipc__spin_start();
    BaseType_t ok;
    if (rtipc__kq_spin(&q->h, item, peek, ticks))
        ok = pdPASS;
    else if (peek)
        ok = xQueuePeek(kq(q), item, rtipc__ticks_left(ticks, start));
    else
        ok = xQueueReceive(kq(q), item, rtipc__ticks_left(ticks, start));
    rtipc__wait_out(waiter, &q->h.waiters);
    return ok == pdPASS ? RTIPC_OK : RTIPC_ETIMEDOUT;
}

int rtipc_queue_receive(rtipc_queue_t *handle, void *item, rtipc_timeout_t timeout) { return receive(get(handle), item, timeout, false); }

int rtipc_queue_peek(rtipc_queue_t *handle, void *item, rtipc_timeout_t timeout) { return receive(get(handle), item, timeout, true); }

int rtipc_queue_overwrite(rtipc_queue_t *handle, const void *item)
{
    struct rtipc__queue *q = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!q || !item)
        return RTIPC_EINVAL;
    if (q->length != 1)
        return RTIPC_ENOTSUP;
    (void)xQueueOverwrite(kq(q), item); /* always succeeds on a length-1 queue */
    return RTIPC_OK;
}

int rtipc_queue_reset(rtipc_queue_t *handle)
{
    struct rtipc__queue *q = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!q)
        return RTIPC_EINVAL;
    (void)xQueueReset(kq(q));
    return RTIPC_OK;
}

static int send_isr(struct rtipc__queue *q, const void *item, bool *woken, BaseType_t pos)
{
    if (!q || !item)
        return RTIPC_EINVAL;
    if (pos == queueOVERWRITE && q->length != 1)
        return RTIPC_ENOTSUP;
    BaseType_t hp = pdFALSE;
    BaseType_t ok = xQueueGenericSendFromISR(kq(q), item, &hp, pos);
    rtipc__woken(hp, woken);
    return ok == pdPASS ? RTIPC_OK : RTIPC_EWOULDBLOCK;
}

int rtipc_queue_send_from_isr(rtipc_queue_t *handle, const void *item, bool *woken)
{
    struct rtipc__queue *q = get(handle);
    return send_isr(q, item, woken, queueSEND_TO_BACK);
}

int rtipc_queue_send_to_front_from_isr(rtipc_queue_t *handle, const void *item, bool *woken)
{
    struct rtipc__queue *q = get(handle);
    return send_isr(q, item, woken, queueSEND_TO_FRONT);
}

int rtipc_queue_overwrite_from_isr(rtipc_queue_t *handle, const void *item, bool *woken)
{
    struct rtipc__queue *q = get(handle);
    return send_isr(q, item, woken, queueOVERWRITE);
}

int rtipc_queue_receive_from_isr(rtipc_queue_t *handle, void *item, bool *woken)
{
    struct rtipc__queue *q = get(handle);
    if (!q || !item)
        return RTIPC_EINVAL;
    BaseType_t hp = pdFALSE;
    BaseType_t ok = xQueueReceiveFromISR(kq(q), item, &hp);
    rtipc__woken(hp, woken);
    return ok == pdPASS ? RTIPC_OK : RTIPC_EWOULDBLOCK;
}

int rtipc_queue_peek_from_isr(rtipc_queue_t *handle, void *item)
{
    struct rtipc__queue *q = get(handle);
    if (!q || !item)
        return RTIPC_EINVAL;
    return xQueuePeekFromISR(kq(q), item) == pdPASS ? RTIPC_OK : RTIPC_EWOULDBLOCK;
}

int rtipc_queue_messages_waiting(const rtipc_queue_t *handle)
{
    struct rtipc__queue *q = get(handle);
    if (!q)
        return RTIPC_EINVAL;
    return (int)uxQueueMessagesWaitingFromISR(kq(q));
}

int rtipc_queue_spaces_available(const rtipc_queue_t *handle)
{
    struct rtipc__queue *q = get(handle);
    if (!q)
        return RTIPC_EINVAL;
    int n = (int)uxQueueMessagesWaitingFromISR(kq(q));
    return (int)q->length - n;
}

size_t rtipc_queue_footprint_for(size_t length, size_t item_size)
{
    if (length == 0 && item_size == 0)
        return sizeof(struct rtipc__queue);
    return shape_ok(length, item_size) ? sizeof(struct rtipc__queue) + length * item_size : 0;
}

size_t rtipc_queue_footprint(const rtipc_queue_t *handle)
{
    struct rtipc__queue *q = get(handle);
    return q ? sizeof(struct rtipc__queue) + (size_t)q->length * q->item_size : 0;
}

int rtipc_queue_set_spin(rtipc_queue_t *handle, int64_t ns)
{
    struct rtipc__queue *q = get(handle);
    if (!q || !rtipc__spin_ok(ns))
        return RTIPC_EINVAL;
    q->h.spin = ns;
    return RTIPC_OK;
}

struct rtipc__qhead *rtipc__queue_member(const void *handle, uint32_t *capacity)
{
    struct rtipc__queue *q = get(handle);
    if (!q)
        return NULL;
    *capacity = q->length;
    return &q->h;
}
