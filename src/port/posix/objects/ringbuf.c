/* Ring buffers on Linux: the portable byte layout (src/common/ringbuf_core.c)
 * under the object lock, with priority-ordered wait lists for senders
 * (waiting for space) and receivers (waiting for an item). */
#include "rtipc/ringbuf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/create.h"
#include "common/ringbuf_core.h"
#include "common/handle.h"
#include "port/posix/kernel/kernel.h"
#include "queueset_internal.h"
#include "rtipc/error.h"

#define RINGBUF_DYNAMIC 0x1u

struct rtipc__ringbuf {
    rtipc__lock_t lock;
    unsigned slot : RTIPC__HANDLE_SLOT_BITS; /* its handle's slot (src/common/handle.h) */
    unsigned flags : 4;
    unsigned type : 4;           /* fixed at creation: read without the lock
                                    (the core's copy shares a word with a
                                    counter and is read only under it; this
                                    word is never written after creation) */
    rtipc__rb_t core;            /* layout and offsets, guarded by lock */
    rtipc__waitlist_t senders;    /* tasks waiting for space (send, acquire) */
    rtipc__waitlist_t receivers;  /* tasks waiting for an item */
    struct rtipc__queueset *set; /* the queue set its read side belongs to, or NULL */
    rtipc__spin_setting_t spin;   /* spin budget of its waiters (spin.h) */
};

_Static_assert(sizeof(struct rtipc__ringbuf) <= sizeof(rtipc_ringbuf_static_t),
               "rtipc_ringbuf_static_t must hold the control block");

/* The ring buffer a handle names, or NULL (src/common/handle.h). */
static struct rtipc__ringbuf *get(const rtipc_ringbuf_t *handle) { return rtipc__handle_get(handle, RTIPC__H_RINGBUF); }

static bool type_ok(rtipc_ringbuf_type_t type) { return rtipc__rb_type_ok((unsigned)type); }

/* The core's shape rules (ringbuf_core.h), the same on every port. */
static uint32_t capacity_for(size_t size, rtipc_ringbuf_type_t type, bool round)
{
    return rtipc__rb_capacity_for(size, (unsigned)type, round);
}

size_t rtipc_ringbuf_footprint_for(size_t size, rtipc_ringbuf_type_t type)
{
    if (size == 0)
        return type_ok(type) ? sizeof(struct rtipc__ringbuf) : 0;
    uint32_t cap = capacity_for(size, type, true);
    return cap ? sizeof(struct rtipc__ringbuf) + cap : 0;
}

int rtipc_ringbuf_set_spin(rtipc_ringbuf_t *handle, int64_t ns)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb)
        return RTIPC_EINVAL;
    return rtipc__spin_setting_set(&rb->spin, ns);
}

/* Initialise rb and open its handle; false when the handle table is full. */
static bool init(struct rtipc__ringbuf *rb, rtipc_ringbuf_type_t type, void *storage, uint32_t cap, unsigned flags,
                 rtipc_ringbuf_t **out)
{
    memset(rb, 0, sizeof *rb);
    rtipc__rb_init(&rb->core, (unsigned)type, storage, cap);
    rb->type = (unsigned)type;
    rb->flags = flags;
    uintptr_t h = rtipc__handle_open(rb, RTIPC__H_RINGBUF);
    if (h == 0)
        return false;
    rb->slot = rtipc__handle_index(h); /* for set membership, which needs *out first */
    *out = (rtipc_ringbuf_t *)h;
    return true;
}

int rtipc_ringbuf_create(size_t size, rtipc_ringbuf_type_t type, rtipc_ringbuf_t **out)
{
    uint32_t cap = capacity_for(size, type, true);
    /* The control block is a multiple of 8 bytes: the storage after it is
     * aligned for headers. */
    int rc;
    struct rtipc__ringbuf *rb = RTIPC__CREATE_ALLOC(out && cap != 0, struct rtipc__ringbuf, cap, &rc);
    if (rb && !init(rb, type, (unsigned char *)(rb + 1), cap, RINGBUF_DYNAMIC, out)) {
        free(rb);
        rc = RTIPC_ENOMEM;
    }
    return rc;
}

int rtipc_ringbuf_create_static(size_t size, rtipc_ringbuf_type_t type, void *storage, rtipc_ringbuf_static_t *cb,
                                rtipc_ringbuf_t **out)
{
    uint32_t cap = capacity_for(size, type, false);
    if (!out || !cb || cap == 0 || !rtipc__rb_storage_ok((unsigned)type, storage))
        return RTIPC_EINVAL;
    return init((struct rtipc__ringbuf *)(void *)cb, type, storage, cap, 0, out) ? RTIPC_OK : RTIPC_ENOMEM;
}

int rtipc_ringbuf_delete(rtipc_ringbuf_t *handle)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!rb)
        return RTIPC_EINVAL;
    rtipc__lock(&rb->lock);
    if (!rtipc__waitlist_empty(&rb->senders) || !rtipc__waitlist_empty(&rb->receivers) ||
        rtipc__rb_in_use(&rb->core) || rb->set) {
        rtipc__unlock(&rb->lock);
        return RTIPC_EBUSY;
    }
    /* From here on the handle is refused, before the memory goes. */
    rtipc__handle_close((uintptr_t)handle);
    rtipc__unlock(&rb->lock);
    if (rb->flags & RINGBUF_DYNAMIC)
        free(rb);
    return RTIPC_OK;
}

/* ---- whom to wake (all under the lock) ----------------------------------- */
typedef struct {
    rtipc__op_t op; /* first: the blocking loop hands us back this pointer */
    struct rtipc__ringbuf *rb;
    const void *data;        /* send */
    uint32_t size;           /* send, acquire: item length; receive: max bytes */
    void *acquired;          /* acquire: result */
    rtipc__rb_span_t span;   /* receive: result */
    struct rtipc__task *wake2; /* a second task to unpark after the loop unlocked */
} rb_op_t;

/* Waiters chosen under the lock, to be woken (unlinked and marked) there and
 * unparked after unlocking. */
typedef struct {
    rtipc__waiter_t *receiver, *sender;
} wakes_t;

/* The highest-priority waiting sender whose item fits now, or NULL. Senders
 * wait for different amounts of space, so the first in line may not be the
 * one that can proceed. */
static rtipc__waiter_t *fitting_sender(struct rtipc__ringbuf *rb)
{
    for (rtipc__waiter_t *w = rb->senders.head; w; w = w->next)
        if (rtipc__rb_fits(&rb->core, ((rb_op_t *)w->op)->size))
            return w;
    return NULL;
}

/* The receiver to wake when a receive would now succeed, or NULL. */
static rtipc__waiter_t *ready_receiver(struct rtipc__ringbuf *rb)
{
    return rtipc__rb_readable(&rb->core) ? rb->receivers.head : NULL;
}

/* `items` items have just become receivable. This is the one place where
 * readers learn of new data (send, send_from_isr, complete), so the read-side
 * queue-set hook belongs here: one post to rb->set per item. Returns the
 * receiver to wake, or NULL. */
static rtipc__waiter_t *items_available(struct rtipc__ringbuf *rb, uint32_t items, bool *woken)
{
    if (items == 0)
        return NULL;
    if (rb->set)
        for (uint32_t i = 0; i < items; ++i)
            rtipc__queueset_post(rb->set, rtipc__handle_at(rb->slot), woken);
    return ready_receiver(rb);
}

/* After storing an item (or reserving space): a receiver for it, and the next
 * waiting sender that still fits, so that senders for whom a return freed
 * room proceed one after the other. */
static wakes_t after_store(struct rtipc__ringbuf *rb, uint32_t items, bool *woken)
{
    return (wakes_t){items_available(rb, items, woken), fitting_sender(rb)};
}

/* After a give-back: the sender that now fits (if space was freed) and, for
 * a byte buffer, a receiver (the stream is no longer held by that read). */
static wakes_t after_return(struct rtipc__ringbuf *rb, bool freed)
{
    wakes_t w = {NULL, NULL};
    if (freed)
        w.sender = fitting_sender(rb);
    if (rb->type == RTIPC__RB_BYTEBUF)
        w.receiver = ready_receiver(rb);
    return w;
}

static void wake_tasks(struct rtipc__ringbuf *rb, wakes_t w, struct rtipc__task *out[2])
{
    out[0] = w.receiver ? rtipc__waitlist_wake(&rb->receivers, w.receiver) : NULL;
    out[1] = w.sender ? rtipc__waitlist_wake(&rb->senders, w.sender) : NULL;
}

static void wake_isr(struct rtipc__ringbuf *rb, wakes_t w, rtipc__isr_wake_t out[2])
{
    rtipc__isr_wake_t none = {NULL, false};
    out[0] = w.receiver ? rtipc__isr_wake(&rb->receivers, w.receiver) : none;
    out[1] = w.sender ? rtipc__isr_wake(&rb->senders, w.sender) : none;
}

/* In an attempt: the first task goes to the blocking loop, the second is
 * unparked by the caller once the loop has returned (and unlocked). */
static void hand_over(rb_op_t *o, struct rtipc__task *t[2])
{
    o->op.wake = t[0] ? t[0] : t[1];
    o->wake2 = t[0] ? t[1] : NULL;
}

/* Outside the lock: unpark what the calls above chose. */
static void unpark_all(struct rtipc__task *a, struct rtipc__task *b)
{
    if (a)
        rtipc__unpark(a);
    if (b)
        rtipc__unpark(b);
    if (a || b)
        rtipc__reschedule_point(rtipc__current_or_null()); /* waking a task reschedules */
}

/* ---- sending ------------------------------------------------------------------ */
static int attempt_send(rtipc__op_t *op)
{
    rb_op_t *o = (rb_op_t *)op;
    struct rtipc__ringbuf *rb = o->rb;
    o->wake2 = NULL;
    if (!rtipc__rb_fits(&rb->core, o->size))
        return RTIPC_EWOULDBLOCK;
    uint32_t items = rtipc__rb_write(&rb->core, o->data, o->size);
    struct rtipc__task *t[2];
    wake_tasks(rb, after_store(rb, items, NULL), t);
    hand_over(o, t);
    return RTIPC_OK;
}

static int attempt_acquire(rtipc__op_t *op)
{
    rb_op_t *o = (rb_op_t *)op;
    struct rtipc__ringbuf *rb = o->rb;
    o->wake2 = NULL;
    if (!rtipc__rb_fits(&rb->core, o->size))
        return RTIPC_EWOULDBLOCK;
    o->acquired = rtipc__rb_acquire(&rb->core, o->size);
    struct rtipc__task *t[2];
    wake_tasks(rb, after_store(rb, 0, NULL), t); /* nothing receivable until completed */
    hand_over(o, t);
    return RTIPC_OK;
}

/* Common check of the sending calls: 0, or the error to return. */
static int check_size(const struct rtipc__ringbuf *rb, size_t size)
{
    return rtipc__rb_check_item(rb->type, rb->core.size, size);
}

int rtipc_ringbuf_send(rtipc_ringbuf_t *handle, const void *data, size_t size, rtipc_timeout_t timeout)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!rb || !data || check_size(rb, size))
        return RTIPC_EINVAL;
    rb_op_t o = {.op = {.attempt = attempt_send}, .rb = rb, .data = data, .size = (uint32_t)size};
    int rc = rtipc__block(&rb->lock, &rb->senders, &o.op, timeout, rtipc__spin_setting(&rb->spin));
    unpark_all(o.wake2, NULL);
    return rc;
}

int rtipc_ringbuf_acquire(rtipc_ringbuf_t *handle, void **item, size_t size, rtipc_timeout_t timeout)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!rb || !item)
        return RTIPC_EINVAL;
    if (rb->type != RTIPC__RB_NOSPLIT)
        return RTIPC_ENOTSUP;
    if (check_size(rb, size))
        return RTIPC_EINVAL;
    rb_op_t o = {.op = {.attempt = attempt_acquire}, .rb = rb, .size = (uint32_t)size};
    int rc = rtipc__block(&rb->lock, &rb->senders, &o.op, timeout, rtipc__spin_setting(&rb->spin));
    unpark_all(o.wake2, NULL);
    if (rc == RTIPC_OK)
        *item = o.acquired;
    return rc;
}

int rtipc_ringbuf_complete(rtipc_ringbuf_t *handle, void *item)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!rb || !item)
        return RTIPC_EINVAL;
    uint32_t items;
    struct rtipc__task *t[2] = {NULL, NULL};
    rtipc__lock(&rb->lock);
    bool ok = rtipc__rb_complete(&rb->core, item, &items);
    if (ok)
        wake_tasks(rb, (wakes_t){items_available(rb, items, NULL), NULL}, t);
    rtipc__unlock(&rb->lock);
    unpark_all(t[0], t[1]);
    return ok ? RTIPC_OK : RTIPC_EINVAL;
}

int rtipc_ringbuf_send_from_isr(rtipc_ringbuf_t *handle, const void *data, size_t size, bool *woken)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb || !data || check_size(rb, size))
        return RTIPC_EINVAL;
    rtipc__isr_wake_t wake[2] = {{NULL, false}, {NULL, false}};
    int rc = RTIPC_OK;
    rtipc__lock(&rb->lock);
    if (!rtipc__rb_fits(&rb->core, (uint32_t)size)) {
        rc = RTIPC_EWOULDBLOCK;
    } else {
        uint32_t items = rtipc__rb_write(&rb->core, data, (uint32_t)size);
        wake_isr(rb, after_store(rb, items, woken), wake);
    }
    rtipc__unlock(&rb->lock);
    rtipc__isr_release(wake[0], woken);
    rtipc__isr_release(wake[1], woken);
    return rc;
}

/* ---- receiving ------------------------------------------------------------------ */
static int attempt_receive(rtipc__op_t *op)
{
    rb_op_t *o = (rb_op_t *)op;
    struct rtipc__ringbuf *rb = o->rb;
    o->wake2 = NULL;
    if (!rtipc__rb_take(&rb->core, o->size, &o->span))
        return RTIPC_EWOULDBLOCK;
    /* Several items may have become receivable at once (a completion): the
     * next receiver in line gets its turn now. */
    rtipc__waiter_t *w = ready_receiver(rb);
    if (w)
        op->wake = rtipc__waitlist_wake(&rb->receivers, w);
    return RTIPC_OK;
}

enum recv_kind { RECV_WHOLE = RTIPC__RB_RECV_WHOLE, RECV_SPLIT = RTIPC__RB_RECV_SPLIT, RECV_UP_TO = RTIPC__RB_RECV_UP_TO };

/* Argument and type checks of every receive: 0, or the error to return. */
static int check_receive(const struct rtipc__ringbuf *rb, enum recv_kind kind, const void *a, const void *b,
                         const void *c, const void *d, size_t max)
{
    return rb ? rtipc__rb_check_receive(rb->type, (int)kind, a, b, c, d, max) : RTIPC_EINVAL;
}

static uint32_t clamp_max(size_t max) { return max > UINT32_MAX ? UINT32_MAX : (uint32_t)max; }

static int receive(struct rtipc__ringbuf *rb, rtipc__rb_span_t *span, size_t max, rtipc_timeout_t timeout)
{
    rb_op_t o = {.op = {.attempt = attempt_receive}, .rb = rb, .size = clamp_max(max)};
    int rc = rtipc__block(&rb->lock, &rb->receivers, &o.op, timeout, rtipc__spin_setting(&rb->spin));
    if (rc == RTIPC_OK)
        *span = o.span;
    return rc;
}

/* Interrupt-safe receive: one attempt, wakes nobody (receiving frees no
 * space; a task woken for an earlier item passes the turn on itself). */
static int receive_isr(struct rtipc__ringbuf *rb, rtipc__rb_span_t *span, size_t max)
{
    rtipc__lock(&rb->lock);
    bool ok = rtipc__rb_take(&rb->core, clamp_max(max), span);
    rtipc__unlock(&rb->lock);
    return ok ? RTIPC_OK : RTIPC_EWOULDBLOCK;
}

/* Every receive (src/common/ringbuf.c unpacks the span). */
int rtipc__ringbuf_receive_span(const rtipc_ringbuf_t *handle, int kind, const void *a, const void *b,
                                const void *c, const void *d, size_t max, rtipc_timeout_t timeout, bool isr_call,
                                rtipc__rb_span_t *span)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (!isr_call && rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    int rc = check_receive(rb, (enum recv_kind)kind, a, b, c, d, max);
    if (rc != RTIPC_OK)
        return rc;
    return isr_call ? receive_isr(rb, span, max) : receive(rb, span, max, timeout);
}

/* ---- returning ------------------------------------------------------------------ */
int rtipc_ringbuf_return(rtipc_ringbuf_t *handle, void *item)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!rb || !item)
        return RTIPC_EINVAL;
    struct rtipc__task *t[2] = {NULL, NULL};
    bool freed;
    rtipc__lock(&rb->lock);
    bool ok = rtipc__rb_give_back(&rb->core, item, &freed);
    if (ok)
        wake_tasks(rb, after_return(rb, freed), t);
    rtipc__unlock(&rb->lock);
    unpark_all(t[0], t[1]);
    return ok ? RTIPC_OK : RTIPC_EINVAL;
}

int rtipc_ringbuf_return_from_isr(rtipc_ringbuf_t *handle, void *item, bool *woken)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb || !item)
        return RTIPC_EINVAL;
    rtipc__isr_wake_t wake[2] = {{NULL, false}, {NULL, false}};
    bool freed;
    rtipc__lock(&rb->lock);
    bool ok = rtipc__rb_give_back(&rb->core, item, &freed);
    if (ok)
        wake_isr(rb, after_return(rb, freed), wake);
    rtipc__unlock(&rb->lock);
    rtipc__isr_release(wake[0], woken);
    rtipc__isr_release(wake[1], woken);
    return ok ? RTIPC_OK : RTIPC_EINVAL;
}

/* ---- queries ---------------------------------------------------------------------- */
/* Queries lock a const handle: the lock is the object's mutable part, and
 * every ring buffer lives in writable memory (malloc or caller storage). */
int rtipc__ringbuf_query(const rtipc_ringbuf_t *handle, int (*field)(const rtipc__rb_t *))
{
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb)
        return RTIPC_EINVAL;
    rtipc__lock(&rb->lock);
    int v = field(&rb->core);
    rtipc__unlock(&rb->lock);
    return v;
}

size_t rtipc_ringbuf_footprint(const rtipc_ringbuf_t *handle)
{
    struct rtipc__ringbuf *rb = get(handle);
    return rb ? sizeof(struct rtipc__ringbuf) + rb->core.size : 0;
}

/* ---- queue-set membership, read side (queueset.c) ---------------------- */
/* Each stored item posts one event, so the most events at once is the number
 * of smallest items that fit: that is what the member counts against the set. */
static uint32_t set_capacity(const struct rtipc__ringbuf *rb) { return rtipc__rb_set_capacity(&rb->core); }

int rtipc__ringbuf_attach_set(void *member, struct rtipc__queueset *set, uint32_t *capacity)
{
    struct rtipc__ringbuf *rb = get(member);
    if (!rb)
        return RTIPC_EINVAL;
    rtipc__lock(&rb->lock);
    int rc = rb->set || rtipc__rb_waiting(&rb->core) != 0 || rtipc__rb_in_use(&rb->core) ? RTIPC_EBUSY
                                                                                           : RTIPC_OK;
    if (rc == RTIPC_OK) {
        rb->set = set;
        *capacity = set_capacity(rb);
    }
    rtipc__unlock(&rb->lock);
    return rc;
}

int rtipc__ringbuf_detach_set(void *member, struct rtipc__queueset *set, uint32_t *capacity)
{
    struct rtipc__ringbuf *rb = get(member);
    if (!rb)
        return RTIPC_EINVAL;
    rtipc__lock(&rb->lock);
    int rc = rb->set != set                                                       ? RTIPC_EINVAL
             : rtipc__rb_waiting(&rb->core) != 0 || rtipc__rb_in_use(&rb->core) ? RTIPC_EBUSY
                                                                                  : RTIPC_OK;
    if (rc == RTIPC_OK) {
        rb->set = NULL;
        *capacity = set_capacity(rb);
    }
    rtipc__unlock(&rb->lock);
    return rc;
}
