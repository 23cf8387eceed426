/* Ring buffers on FreeRTOS: the portable byte layout (src/common/ringbuf_core.c)
 * inside the port's critical sections, with tasks that wait parked on rtipc's
 * notification index (park.h), woken highest priority first. The kernel has
 * no ring buffer of its own; ESP-IDF's is a separate component.
 *
 * Each ring buffer carries a counting semaphore, its queue-set member: while
 * it belongs to a set, every item that becomes receivable gives it once and
 * every receive takes it once, so the set reports the ring buffer as often as
 * it has items (queueset.c maps the semaphore back to the ring buffer).
 *
 * Copies into and out of the storage happen inside the critical section, as
 * they do under the object lock on Linux: a large item masks interrupts for
 * the length of its memcpy. */
#include <string.h>

#include "common/create.h"
#include "common/handle.h"
#include "common/ringbuf_core.h"
#include "park.h"
#include "rtipc/ringbuf.h"

struct rtipc__ringbuf {
    struct rtipc__qhead member; /* the counting semaphore a queue set holds */
    uint32_t flags;
    unsigned type;                 /* fixed at creation */
    rtipc__rb_t core;              /* guarded by the critical section */
    rtipc__parked_t *senders;   /* parked in send or acquire; key = bytes wanted */
    rtipc__parked_t *receivers; /* parked in a receive */
};

_Static_assert(sizeof(struct rtipc__ringbuf) <= sizeof(rtipc_ringbuf_static_t),
               "rtipc_ringbuf_static_t holds the ring buffer (raise RTIPC_RINGBUF_STATIC_SIZE)");
_Static_assert(sizeof(struct rtipc__ringbuf) % 8 == 0, "the storage after a dynamic control block is aligned");

static struct rtipc__ringbuf *get(const rtipc_ringbuf_t *handle)
{
    return rtipc__handle_get(handle, RTIPC__H_RINGBUF);
}

static QueueHandle_t member_sem(struct rtipc__ringbuf *rb) { return rtipc__qhandle(&rb->member); }

/* ---- creation ----------------------------------------------------------------- */

size_t rtipc_ringbuf_footprint_for(size_t size, rtipc_ringbuf_type_t type)
{
    if (size == 0)
        return rtipc__rb_type_ok((unsigned)type) ? sizeof(struct rtipc__ringbuf) : 0;
    uint32_t cap = rtipc__rb_capacity_for(size, (unsigned)type, true);
    return cap ? sizeof(struct rtipc__ringbuf) + cap : 0;
}

static int init(struct rtipc__ringbuf *rb, rtipc_ringbuf_type_t type, void *storage, uint32_t cap,
                uint32_t flags, rtipc_ringbuf_t **out)
{
    memset(rb, 0, sizeof *rb);
    rtipc__rb_init(&rb->core, (unsigned)type, storage, cap);
    rb->type = (unsigned)type;
    rb->flags = flags;
    rb->member.spin = RTIPC_SPIN_DEFAULT;
    (void)xSemaphoreCreateCountingStatic((UBaseType_t)rtipc__rb_set_capacity(&rb->core), 0,
                                         (StaticSemaphore_t *)(void *)&rb->member.cb);
    /* The member's head keeps the ring buffer's handle: a set reports it
     * for the member (queueset.c). */
    uintptr_t h = rtipc__open(rb, RTIPC__H_RINGBUF, &rb->member.handle);
    if (h == 0) {
        vSemaphoreDelete(member_sem(rb));
        return RTIPC_ENOMEM;
    }
    *out = (rtipc_ringbuf_t *)h;
    return RTIPC_OK;
}

int rtipc_ringbuf_create(size_t size, rtipc_ringbuf_type_t type, rtipc_ringbuf_t **out)
{
    uint32_t cap = rtipc__rb_capacity_for(size, (unsigned)type, true);
    int rc;
    struct rtipc__ringbuf *rb = RTIPC__CREATE_ALLOC(out && cap != 0, struct rtipc__ringbuf, cap, &rc);
    if (!rb)
        return rc;
    rc = init(rb, type, (unsigned char *)(rb + 1), cap, RTIPC__DYNAMIC, out);
    if (rc != RTIPC_OK)
        rtipc__port_free(rb, _Alignof(struct rtipc__ringbuf));
    return rc;
}

int rtipc_ringbuf_create_static(size_t size, rtipc_ringbuf_type_t type, void *storage, rtipc_ringbuf_static_t *cb,
                                rtipc_ringbuf_t **out)
{
    /* Its member semaphore's creation enters a task-level critical section. */
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    uint32_t cap = rtipc__rb_capacity_for(size, (unsigned)type, false);
    if (!out || !cb || cap == 0 || !rtipc__rb_storage_ok((unsigned)type, storage))
        return RTIPC_EINVAL;
    return init((struct rtipc__ringbuf *)(void *)cb, type, storage, cap, 0, out);
}

int rtipc_ringbuf_delete(rtipc_ringbuf_t *handle)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb)
        return RTIPC_EINVAL;
    rtipc__crit_t c = rtipc__enter();
    bool busy = rb->senders || rb->receivers || rtipc__rb_in_use(&rb->core) || rb->member.set;
    rtipc__exit(c);
    if (busy)
        return RTIPC_EBUSY;
    /* From here on the handle is refused, before the memory goes. */
    rtipc__handle_close((uintptr_t)handle);
    vSemaphoreDelete(member_sem(rb));
    if (rb->flags & RTIPC__DYNAMIC)
        rtipc__port_free(rb, _Alignof(struct rtipc__ringbuf));
    return RTIPC_OK;
}

int rtipc_ringbuf_set_spin(rtipc_ringbuf_t *handle, int64_t ns)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb || !rtipc__spin_ok(ns))
        return RTIPC_EINVAL;
    rb->member.spin = ns; /* kept for the contract; a wait parks at once here */
    return RTIPC_OK;
}

/* ---- whom to wake (inside rtipc__wake_enter) --------------------------------- */

static UBaseType_t priority_of(const rtipc__parked_t *n, bool isr)
{
    return isr ? uxTaskPriorityGetFromISR(n->task) : uxTaskPriorityGet(n->task);
}

/* The parked task of highest priority, the longest waiting among equals (a
 * list is linked at its head, so the later of two equals waited longer),
 * among those @p ok accepts; NULL when none. */
static rtipc__parked_t *first_in_line(struct rtipc__ringbuf *rb, rtipc__parked_t *list, bool isr,
                                         bool (*ok)(struct rtipc__ringbuf *, const rtipc__parked_t *))
{
    rtipc__parked_t *best = NULL;
    UBaseType_t best_prio = 0;
    for (rtipc__parked_t *n = list; n; n = n->next) {
        if (!ok(rb, n))
            continue;
        UBaseType_t p = priority_of(n, isr);
        if (!best || p >= best_prio) {
            best = n;
            best_prio = p;
        }
    }
    return best;
}

/* Senders wait for different amounts of space: the first in line may not be
 * the one that can proceed. */
static bool sender_fits(struct rtipc__ringbuf *rb, const rtipc__parked_t *n)
{
    return rtipc__rb_fits(&rb->core, (uint32_t)n->key);
}

static bool receiver_can(struct rtipc__ringbuf *rb, const rtipc__parked_t *n)
{
    (void)n;
    return rtipc__rb_readable(&rb->core);
}

/* Wake the receiver that can now receive and the sender that now fits, as
 * asked. A woken task is not handed anything: it competes again. */
static void wake(struct rtipc__ringbuf *rb, bool receiver, bool sender, bool isr, BaseType_t *hp)
{
    rtipc__parked_t *r = receiver ? first_in_line(rb, rb->receivers, isr, receiver_can) : NULL;
    rtipc__parked_t *s = sender ? first_in_line(rb, rb->senders, isr, sender_fits) : NULL;
    if (r)
        rtipc__park_wake(&rb->receivers, r, isr, hp);
    if (s)
        rtipc__park_wake(&rb->senders, s, isr, hp);
}

/* Outside any critical section: one token per newly receivable item for the
 * set the ring buffer belongs to (the member semaphore's give also wakes a
 * task waiting on the set). */
static void post_to_set(struct rtipc__ringbuf *rb, uint32_t items, bool isr, BaseType_t *hp)
{
    if (!rb->member.set)
        return;
    for (uint32_t i = 0; i < items; i++) {
        if (isr)
            (void)xSemaphoreGiveFromISR(member_sem(rb), hp);
        else
            (void)xSemaphoreGive(member_sem(rb));
    }
}

/* A receive took an item: its token, when the ring buffer is in a set. */
static void take_from_set(struct rtipc__ringbuf *rb, bool isr)
{
    if (!rb->member.set)
        return;
    if (isr)
        (void)xSemaphoreTakeFromISR(member_sem(rb), NULL);
    else
        (void)xSemaphoreTake(member_sem(rb), 0);
}

/* ---- the blocking loop ---------------------------------------------------------- */

/* One attempt, inside rtipc__wake_enter: RTIPC_OK (done, the tasks it
 * frees woken), or RTIPC_EWOULDBLOCK. *items: items it made receivable. */
typedef struct rb_op {
    int (*attempt)(struct rtipc__ringbuf *rb, struct rb_op *op, uint32_t *items);
    const void *data;
    uint32_t size; /* send, acquire: item length; receive: most bytes */
    void *acquired;
    rtipc__rb_span_t span;
} rb_op_t;

/* The node on this stack leaves the list before block returns: every pass
 * unlinks it inside the critical section before it attempts, and a pass that
 * returns does not link it again (task deletion unlinks it through the
 * descriptor). GCC cannot follow the unlink through the list walk. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif
static int block(struct rtipc__ringbuf *rb, rtipc__parked_t **list, rb_op_t *op, rtipc_timeout_t timeout)
{
    uint32_t items = 0;
    if (rtipc_timeout_is_no_wait(timeout)) {
        rtipc__crit_t c = rtipc__wake_enter();
        int rc = op->attempt(rb, op, &items);
        rtipc__wake_exit(c);
        if (rc == RTIPC_OK)
            post_to_set(rb, items, false, NULL);
        return rc;
    }
    struct rtipc__task *self = rtipc__self();
    if (!self)
        return RTIPC_ENOMEM;
    rtipc__parked_t me = {.task = xTaskGetCurrentTaskHandle(), .owner = self, .key = op->size};
    TickType_t left = rtipc__ticks(timeout);
    TimeOut_t since;
    vTaskSetTimeOutState(&since);
    bool may_wait = true;
    for (;;) {
        rtipc__crit_t c = rtipc__wake_enter();
        /* Out of the list before the attempt, which may wake the next in
         * line: never ourselves. */
        rtipc__park_unlink(list, &me);
        int rc = op->attempt(rb, op, &items);
        bool wait = rc == RTIPC_EWOULDBLOCK && may_wait;
        if (wait)
            rtipc__park_link(list, &me);
        rtipc__wake_exit(c);
        if (!wait) {
            if (rc == RTIPC_OK)
                post_to_set(rb, items, false, NULL);
            return rc == RTIPC_EWOULDBLOCK ? RTIPC_ETIMEDOUT : rc;
        }
        /* One more attempt after the time is up, as the kernel's own calls
         * look once more before they report a timeout. */
        may_wait = rtipc__park_sleep(&me, &since, &left);
    }
}
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic pop
#endif

/* ---- sending ---------------------------------------------------------------------- */

static int attempt_send(struct rtipc__ringbuf *rb, rb_op_t *op, uint32_t *items)
{
    if (!rtipc__rb_fits(&rb->core, op->size))
        return RTIPC_EWOULDBLOCK;
    *items = rtipc__rb_write(&rb->core, op->data, op->size);
    wake(rb, *items != 0, true, false, NULL); /* and the next sender that still fits */
    return RTIPC_OK;
}

static int attempt_acquire(struct rtipc__ringbuf *rb, rb_op_t *op, uint32_t *items)
{
    (void)items; /* nothing is receivable until it is completed */
    if (!rtipc__rb_fits(&rb->core, op->size))
        return RTIPC_EWOULDBLOCK;
    op->acquired = rtipc__rb_acquire(&rb->core, op->size);
    wake(rb, false, true, false, NULL);
    return RTIPC_OK;
}

int rtipc_ringbuf_send(rtipc_ringbuf_t *handle, const void *data, size_t size, rtipc_timeout_t timeout)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb || !data || rtipc__rb_check_item(rb->type, rb->core.size, size) != RTIPC_OK)
        return RTIPC_EINVAL;
    rb_op_t op = {.attempt = attempt_send, .data = data, .size = (uint32_t)size};
    return block(rb, &rb->senders, &op, timeout);
}

int rtipc_ringbuf_acquire(rtipc_ringbuf_t *handle, void **item, size_t size, rtipc_timeout_t timeout)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb || !item)
        return RTIPC_EINVAL;
    if (rb->type != RTIPC__RB_NOSPLIT)
        return RTIPC_ENOTSUP;
    if (rtipc__rb_check_item(rb->type, rb->core.size, size) != RTIPC_OK)
        return RTIPC_EINVAL;
    rb_op_t op = {.attempt = attempt_acquire, .size = (uint32_t)size};
    int rc = block(rb, &rb->senders, &op, timeout);
    if (rc == RTIPC_OK)
        *item = op.acquired;
    return rc;
}

int rtipc_ringbuf_complete(rtipc_ringbuf_t *handle, void *item)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb || !item)
        return RTIPC_EINVAL;
    uint32_t items = 0;
    rtipc__crit_t c = rtipc__wake_enter();
    bool ok = rtipc__rb_complete(&rb->core, item, &items);
    if (ok && items)
        wake(rb, true, false, false, NULL);
    rtipc__wake_exit(c);
    post_to_set(rb, items, false, NULL);
    return ok ? RTIPC_OK : RTIPC_EINVAL;
}

int rtipc_ringbuf_send_from_isr(rtipc_ringbuf_t *handle, const void *data, size_t size, bool *woken)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb || !data || rtipc__rb_check_item(rb->type, rb->core.size, size) != RTIPC_OK)
        return RTIPC_EINVAL;
    BaseType_t hp = pdFALSE;
    uint32_t items = 0;
    int rc = RTIPC_EWOULDBLOCK;
    rtipc__crit_t c = rtipc__wake_enter();
    if (rtipc__rb_fits(&rb->core, (uint32_t)size)) {
        items = rtipc__rb_write(&rb->core, data, (uint32_t)size);
        wake(rb, items != 0, true, c.isr, &hp);
        rc = RTIPC_OK;
    }
    rtipc__wake_exit(c);
    post_to_set(rb, items, c.isr, &hp);
    rtipc__woken(hp, woken);
    return rc;
}

/* ---- receiving ---------------------------------------------------------------------- */

static int attempt_receive(struct rtipc__ringbuf *rb, rb_op_t *op, uint32_t *items)
{
    (void)items;
    if (!rtipc__rb_take(&rb->core, op->size, &op->span))
        return RTIPC_EWOULDBLOCK;
    /* Several items may have become receivable at once (a completion): the
     * next receiver in line gets its turn now. */
    wake(rb, true, false, false, NULL);
    return RTIPC_OK;
}

static uint32_t clamp_max(size_t max) { return max > UINT32_MAX ? UINT32_MAX : (uint32_t)max; }

/* Every receive (src/common/ringbuf.c unpacks the span): checks, then one
 * attempt (from a handler) or the loop. */
int rtipc__ringbuf_receive_span(const rtipc_ringbuf_t *handle, int kind, const void *a, const void *b,
                                const void *c2, const void *d, size_t max, rtipc_timeout_t timeout, bool isr_call,
                                rtipc__rb_span_t *span)
{
    if (!isr_call && rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb)
        return RTIPC_EINVAL;
    int rc = rtipc__rb_check_receive(rb->type, kind, a, b, c2, d, max);
    if (rc != RTIPC_OK)
        return rc;
    if (isr_call) {
        /* Receiving frees no space, so it wakes nobody; a task woken for an
         * earlier item passes the turn on itself. */
        rtipc__crit_t c = rtipc__enter();
        bool ok = rtipc__rb_take(&rb->core, clamp_max(max), span);
        rtipc__exit(c);
        if (!ok)
            return RTIPC_EWOULDBLOCK;
        take_from_set(rb, c.isr);
        return RTIPC_OK;
    }
    rb_op_t op = {.attempt = attempt_receive, .size = clamp_max(max)};
    rc = block(rb, &rb->receivers, &op, timeout);
    if (rc == RTIPC_OK) {
        *span = op.span;
        take_from_set(rb, false);
    }
    return rc;
}

/* ---- returning ------------------------------------------------------------------------ */

/* A give-back frees space (senders) and, for a byte buffer, lets the next
 * read start (receivers). */
static int give_back(rtipc_ringbuf_t *handle, void *item, bool isr_call, bool *woken)
{
    if (!isr_call && rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb || !item)
        return RTIPC_EINVAL;
    BaseType_t hp = pdFALSE;
    bool freed = false;
    rtipc__crit_t c = rtipc__wake_enter();
    bool ok = rtipc__rb_give_back(&rb->core, item, &freed);
    if (ok)
        wake(rb, rb->type == RTIPC__RB_BYTEBUF, freed, c.isr, &hp);
    rtipc__wake_exit(c);
    rtipc__woken(hp, woken);
    return ok ? RTIPC_OK : RTIPC_EINVAL;
}

int rtipc_ringbuf_return(rtipc_ringbuf_t *rb, void *item) { return give_back(rb, item, false, NULL); }

int rtipc_ringbuf_return_from_isr(rtipc_ringbuf_t *rb, void *item, bool *woken)
{
    return give_back(rb, item, true, woken);
}

/* ---- queries ----------------------------------------------------------------------------- */

int rtipc__ringbuf_query(const rtipc_ringbuf_t *handle, int (*field)(const rtipc__rb_t *))
{
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb)
        return RTIPC_EINVAL;
    rtipc__crit_t c = rtipc__enter();
    int v = field(&rb->core);
    rtipc__exit(c);
    return v;
}

size_t rtipc_ringbuf_footprint(const rtipc_ringbuf_t *handle)
{
    struct rtipc__ringbuf *rb = get(handle);
    return rb ? sizeof(struct rtipc__ringbuf) + rb->core.size : 0;
}

/* ---- queue-set membership (queueset.c) --------------------------------------------------- */

int rtipc__ringbuf_member(rtipc_ringbuf_t *handle, bool adding, struct rtipc__qhead **member,
                             uint32_t *capacity)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb)
        return RTIPC_EINVAL;
    rtipc__crit_t c = rtipc__enter();
    bool busy = rtipc__rb_waiting(&rb->core) != 0 || rtipc__rb_in_use(&rb->core) || (adding && rb->member.set);
    rtipc__exit(c);
    *member = &rb->member;
    *capacity = rtipc__rb_set_capacity(&rb->core);
    return busy ? RTIPC_EBUSY : RTIPC_OK;
}
