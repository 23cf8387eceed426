/* Queues on Linux: a ring of fixed-size items under the object lock, with
 * priority-ordered wait lists for senders and receivers (wait.h). */
#include "rtipc/queue.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "common/create.h"
#include "common/handle.h"
#include "common/item_copy.h"
#include "port/posix/kernel/kernel.h"
#include "queueset_internal.h"
#include "rtipc/error.h"

#define QUEUE_DYNAMIC 0x1u

struct rtipc__queue {
    rtipc__lock_t lock;
    unsigned slot : RTIPC__HANDLE_SLOT_BITS; /* its handle's slot (src/common/handle.h) */
    unsigned flags : 8;
    uint32_t length;             /* capacity in items */
    uint32_t item_size;          /* bytes per item */
    uint32_t head;               /* index of the front item */
    _Atomic uint32_t count;      /* items held; written under lock, read anywhere */
    unsigned char *storage;      /* length x item_size bytes */
    rtipc__waitlist_t senders;    /* tasks waiting for space */
    rtipc__waitlist_t receivers;  /* tasks waiting for an item */
    struct rtipc__queueset *set; /* the queue set it belongs to, or NULL */
    rtipc__spin_setting_t spin;   /* spin budget of its waiters (spin.h); with
                                    its padding it took the block from 56 to
                                    64 bytes on 64-bit hosts */
};

_Static_assert(sizeof(struct rtipc__queue) <= sizeof(rtipc_queue_static_t),
               "rtipc_queue_static_t must hold the control block");
_Static_assert(sizeof(struct rtipc__queue) <= 64, "queue control block budget is 64 bytes");

/* The control block a handle names, or NULL: NULL, stale (the queue was
 * deleted), another kind's or never a handle (src/common/handle.h). */
static struct rtipc__queue *get(const rtipc_queue_t *handle) { return rtipc__handle_get(handle, RTIPC__H_QUEUE); }

static bool shape_ok(size_t length, size_t item_size) { return rtipc__queue_shape_ok(length, item_size); }

size_t rtipc_queue_footprint_for(size_t length, size_t item_size)
{
    if (length == 0 && item_size == 0)
        return sizeof(struct rtipc__queue);
    if (!shape_ok(length, item_size))
        return 0;
    return sizeof(struct rtipc__queue) + length * item_size;
}

/* Initialise q and open its handle; false when the handle table is full. */
static bool init(struct rtipc__queue *q, size_t length, size_t item_size, void *storage, unsigned flags,
                 rtipc_queue_t **out)
{
    memset(q, 0, sizeof *q);
    q->length = (uint32_t)length;
    q->item_size = (uint32_t)item_size;
    q->storage = storage;
    q->flags = flags;
    uintptr_t h = rtipc__handle_open(q, RTIPC__H_QUEUE);
    if (h == 0)
        return false;
    /* Read only by set membership, which needs the handle handed out here. */
    q->slot = rtipc__handle_index(h);
    *out = (rtipc_queue_t *)h;
    return true;
}

int rtipc_queue_create(size_t length, size_t item_size, rtipc_queue_t **out)
{
    int rc;
    struct rtipc__queue *q = RTIPC__CREATE_ALLOC(out && shape_ok(length, item_size), struct rtipc__queue,
                                                 length * item_size, &rc);
    if (q && !init(q, length, item_size, (unsigned char *)(q + 1), QUEUE_DYNAMIC, out)) {
        free(q);
        rc = RTIPC_ENOMEM;
    }
    return rc;
}

int rtipc_queue_create_static(size_t length, size_t item_size, void *storage, rtipc_queue_static_t *cb,
                              rtipc_queue_t **out)
{
    if (!out || !cb || !storage || !shape_ok(length, item_size))
        return RTIPC_EINVAL;
    return init((struct rtipc__queue *)(void *)cb, length, item_size, storage, 0, out) ? RTIPC_OK : RTIPC_ENOMEM;
}

int rtipc_queue_delete(rtipc_queue_t *handle)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__queue *q = get(handle);
    if (!q)
        return RTIPC_EINVAL;
    rtipc__lock(&q->lock);
    if (!rtipc__waitlist_empty(&q->senders) || !rtipc__waitlist_empty(&q->receivers) || q->set) {
        rtipc__unlock(&q->lock);
        return RTIPC_EBUSY;
    }
    /* From here on the handle is refused, before the memory goes. */
    rtipc__handle_close((uintptr_t)handle);
    rtipc__unlock(&q->lock);
    if (q->flags & QUEUE_DYNAMIC)
        free(q);
    return RTIPC_OK;
}

/* ---- item ring (all under the lock) ----------------------------------- */
static inline uint32_t count_of(const struct rtipc__queue *q)
{
    return atomic_load_explicit(&q->count, memory_order_relaxed);
}

static inline void set_count(struct rtipc__queue *q, uint32_t n)
{
    atomic_store_explicit(&q->count, n, memory_order_relaxed);
}

static inline unsigned char *slot(struct rtipc__queue *q, uint32_t index)
{
    return q->storage + (size_t)index * q->item_size;
}

static void put_back(struct rtipc__queue *q, const void *item)
{
    uint32_t tail = q->head + count_of(q);
    if (tail >= q->length)
        tail -= q->length;
    rtipc__copy_item(slot(q, tail), item, q->item_size);
    set_count(q, count_of(q) + 1);
}

static void put_front(struct rtipc__queue *q, const void *item)
{
    q->head = q->head == 0 ? q->length - 1 : q->head - 1;
    memcpy(slot(q, q->head), item, q->item_size);
    set_count(q, count_of(q) + 1);
}

static void take_front(struct rtipc__queue *q, void *item)
{
    rtipc__copy_item(item, slot(q, q->head), q->item_size);
    if (++q->head == q->length)
        q->head = 0;
    set_count(q, count_of(q) - 1);
}

/* Tell q's set of one more item: its event is q's handle. Under q's lock. */
static void post(struct rtipc__queue *q, bool *woken) { rtipc__queueset_post(q->set, rtipc__handle_at(q->slot), woken); }

/* ---- operations --------------------------------------------------------- */
typedef struct {
    rtipc__op_t op; /* first: the blocking loop hands us back this pointer */
    struct rtipc__queue *q;
    const void *in;
    void *out;
    bool front;
} queue_op_t;

static int attempt_send(rtipc__op_t *op)
{
    queue_op_t *o = (queue_op_t *)op;
    struct rtipc__queue *q = o->q;
    if (count_of(q) == q->length)
        return RTIPC_EWOULDBLOCK;
    if (o->front)
        put_front(q, o->in);
    else
        put_back(q, o->in);
    if (q->set)
        post(q, NULL);
    op->wake = rtipc__waitlist_wake_one(&q->receivers);
    return RTIPC_OK;
}

static int attempt_receive(rtipc__op_t *op)
{
    queue_op_t *o = (queue_op_t *)op;
    struct rtipc__queue *q = o->q;
    if (count_of(q) == 0)
        return RTIPC_EWOULDBLOCK;
    take_front(q, o->out);
    op->wake = rtipc__waitlist_wake_one(&q->senders);
    return RTIPC_OK;
}

static int attempt_peek(rtipc__op_t *op)
{
    queue_op_t *o = (queue_op_t *)op;
    struct rtipc__queue *q = o->q;
    if (count_of(q) == 0)
        return RTIPC_EWOULDBLOCK;
    memcpy(o->out, slot(q, q->head), q->item_size);
    /* The item is still there: let the next receiver have a go at it. */
    op->wake = rtipc__waitlist_wake_one(&q->receivers);
    return RTIPC_OK;
}

static int send(rtipc_queue_t *handle, const void *item, rtipc_timeout_t timeout, bool front)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__queue *q = get(handle);
    if (!q || !item)
        return RTIPC_EINVAL;
    rtipc__lock(&q->lock);
    /* The common case in line: room, to the back, nobody to tell. */
    if (!front && count_of(q) < q->length && !q->set && rtipc__waitlist_empty(&q->receivers)) {
        put_back(q, item);
        rtipc__unlock(&q->lock);
        return RTIPC_OK;
    }
    queue_op_t o = {.op = {.attempt = attempt_send}, .q = q, .in = item, .front = front};
    return rtipc__block_held(&q->lock, &q->senders, &o.op, timeout, rtipc__spin_setting(&q->spin));
}

int rtipc_queue_send(rtipc_queue_t *q, const void *item, rtipc_timeout_t timeout)
{
    return send(q, item, timeout, false);
}

int rtipc_queue_send_to_front(rtipc_queue_t *q, const void *item, rtipc_timeout_t timeout)
{
    return send(q, item, timeout, true);
}

static int receive(rtipc_queue_t *handle, void *item, rtipc_timeout_t timeout, int (*attempt)(rtipc__op_t *))
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__queue *q = get(handle);
    if (!q || !item)
        return RTIPC_EINVAL;
    rtipc__lock(&q->lock);
    /* The common case in line: an item there, no sender waiting for room. */
    if (attempt == attempt_receive && count_of(q) != 0 && rtipc__waitlist_empty(&q->senders)) {
        take_front(q, item);
        rtipc__unlock(&q->lock);
        return RTIPC_OK;
    }
    queue_op_t o = {.op = {.attempt = attempt}, .q = q, .out = item};
    return rtipc__block_held(&q->lock, &q->receivers, &o.op, timeout, rtipc__spin_setting(&q->spin));
}

int rtipc_queue_receive(rtipc_queue_t *q, void *item, rtipc_timeout_t timeout)
{
    return receive(q, item, timeout, attempt_receive);
}

int rtipc_queue_peek(rtipc_queue_t *q, void *item, rtipc_timeout_t timeout)
{
    return receive(q, item, timeout, attempt_peek);
}

int rtipc_queue_overwrite(rtipc_queue_t *handle, const void *item)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__queue *q = get(handle);
    if (!q || !item)
        return RTIPC_EINVAL;
    if (q->length != 1)
        return RTIPC_ENOTSUP;
    rtipc__lock(&q->lock);
    memcpy(q->storage, item, q->item_size);
    q->head = 0;
    /* A set hears of the item once: only when the queue was empty. */
    if (q->set && count_of(q) == 0)
        post(q, NULL);
    set_count(q, 1);
    struct rtipc__task *wake = rtipc__waitlist_wake_one(&q->receivers);
    rtipc__unlock(&q->lock);
    if (wake)
        rtipc__wake_from_task(wake);
    return RTIPC_OK;
}

int rtipc_queue_reset(rtipc_queue_t *handle)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__queue *q = get(handle);
    if (!q)
        return RTIPC_EINVAL;
    rtipc__lock(&q->lock);
    /* The items' events go with them (also those left by items read without
     * select): a select must not name this queue for an item that is gone
     * (queueset.h promises the read after it works). */
    if (q->set)
        rtipc__queueset_forget(q->set, handle);
    q->head = 0;
    set_count(q, 0);
    struct rtipc__task *wake = rtipc__waitlist_wake_one(&q->senders);
    rtipc__unlock(&q->lock);
    if (wake)
        rtipc__wake_from_task(wake);
    return RTIPC_OK;
}

/* ---- interrupt-safe calls --------------------------------------------- */
enum isr_kind { ISR_SEND, ISR_SEND_FRONT, ISR_OVERWRITE, ISR_RECEIVE };

static int isr_op(rtipc_queue_t *handle, const void *in, void *out, enum isr_kind kind, bool *woken)
{
    struct rtipc__queue *q = get(handle);
    if (!q || (kind == ISR_RECEIVE ? out == NULL : in == NULL))
        return RTIPC_EINVAL;
    if (kind == ISR_OVERWRITE && q->length != 1)
        return RTIPC_ENOTSUP;
    rtipc__isr_wake_t wake = {NULL, false};
    int rc = RTIPC_OK;
    rtipc__lock(&q->lock);
    if (kind == ISR_RECEIVE) {
        if (count_of(q) == 0) {
            rc = RTIPC_EWOULDBLOCK;
        } else {
            take_front(q, out);
            wake = rtipc__isr_wake_one(&q->senders);
        }
    } else if (kind == ISR_OVERWRITE) {
        memcpy(q->storage, in, q->item_size);
        q->head = 0;
        if (q->set && count_of(q) == 0)
            post(q, woken);
        set_count(q, 1);
        wake = rtipc__isr_wake_one(&q->receivers);
    } else if (count_of(q) == q->length) {
        rc = RTIPC_EWOULDBLOCK;
    } else {
        if (kind == ISR_SEND_FRONT)
            put_front(q, in);
        else
            put_back(q, in);
        if (q->set)
            post(q, woken);
        wake = rtipc__isr_wake_one(&q->receivers);
    }
    rtipc__unlock(&q->lock);
    rtipc__isr_release(wake, woken);
    return rc;
}

int rtipc_queue_send_from_isr(rtipc_queue_t *q, const void *item, bool *woken)
{
    return isr_op(q, item, NULL, ISR_SEND, woken);
}

int rtipc_queue_send_to_front_from_isr(rtipc_queue_t *q, const void *item, bool *woken)
{
    return isr_op(q, item, NULL, ISR_SEND_FRONT, woken);
}

int rtipc_queue_overwrite_from_isr(rtipc_queue_t *q, const void *item, bool *woken)
{
    return isr_op(q, item, NULL, ISR_OVERWRITE, woken);
}

int rtipc_queue_receive_from_isr(rtipc_queue_t *q, void *item, bool *woken)
{
    return isr_op(q, NULL, item, ISR_RECEIVE, woken);
}

int rtipc_queue_peek_from_isr(rtipc_queue_t *handle, void *item)
{
    struct rtipc__queue *q = get(handle);
    if (!q || !item)
        return RTIPC_EINVAL;
    rtipc__lock(&q->lock);
    int rc = count_of(q) == 0 ? RTIPC_EWOULDBLOCK : RTIPC_OK;
    if (rc == RTIPC_OK)
        memcpy(item, slot(q, q->head), q->item_size);
    rtipc__unlock(&q->lock);
    return rc;
}

/* ---- queue-set membership (queueset.c) -------------------------------- */
int rtipc__queue_attach_set(void *member, struct rtipc__queueset *set, uint32_t *capacity)
{
    struct rtipc__queue *q = get(member);
    if (!q)
        return RTIPC_EINVAL;
    rtipc__lock(&q->lock);
    int rc = q->set || count_of(q) != 0 ? RTIPC_EBUSY : RTIPC_OK;
    if (rc == RTIPC_OK) {
        q->set = set;
        *capacity = q->length;
    }
    rtipc__unlock(&q->lock);
    return rc;
}

int rtipc__queue_detach_set(void *member, struct rtipc__queueset *set, uint32_t *capacity)
{
    struct rtipc__queue *q = get(member);
    if (!q)
        return RTIPC_EINVAL;
    rtipc__lock(&q->lock);
    int rc = q->set != set ? RTIPC_EINVAL : count_of(q) != 0 ? RTIPC_EBUSY : RTIPC_OK;
    if (rc == RTIPC_OK) {
        q->set = NULL;
        *capacity = q->length;
    }
    rtipc__unlock(&q->lock);
    return rc;
}

void rtipc__queue_drop_items(rtipc_queue_t *handle, const void *item)
{
    struct rtipc__queue *q = get(handle);
    if (!q)
        return;
    rtipc__lock(&q->lock);
    /* Slide the items that stay towards the head, in order. Nobody waits to
     * send into a set's queue (posts never block), so there is no sender to
     * tell of the space. */
    uint32_t n = count_of(q), kept = 0;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t from = q->head + i, to = q->head + kept;
        from -= from >= q->length ? q->length : 0;
        to -= to >= q->length ? q->length : 0;
        if (memcmp(slot(q, from), item, q->item_size) == 0)
            continue;
        if (to != from)
            memcpy(slot(q, to), slot(q, from), q->item_size);
        ++kept;
    }
    set_count(q, kept);
    if (kept == 0)
        q->head = 0;
    rtipc__unlock(&q->lock);
}

int rtipc_queue_set_spin(rtipc_queue_t *handle, int64_t ns)
{
    struct rtipc__queue *q = get(handle);
    if (!q)
        return RTIPC_EINVAL;
    return rtipc__spin_setting_set(&q->spin, ns);
}

int rtipc_queue_messages_waiting(const rtipc_queue_t *handle)
{
    struct rtipc__queue *q = get(handle);
    if (!q)
        return RTIPC_EINVAL;
    return (int)count_of(q);
}

int rtipc_queue_spaces_available(const rtipc_queue_t *handle)
{
    struct rtipc__queue *q = get(handle);
    if (!q)
        return RTIPC_EINVAL;
    return (int)(q->length - count_of(q));
}

size_t rtipc_queue_footprint(const rtipc_queue_t *handle)
{
    struct rtipc__queue *q = get(handle);
    if (!q)
        return 0;
    return rtipc_queue_footprint_for(q->length, q->item_size);
}
