/* The SPSC ring on Linux: creation and deletion, the blocking push/pop, and
 * waking a parked side (the port half of src/common/spsc.c).
 *
 * The waiting part is the usual object lock and two wait lists (one per
 * side), kept in line 0 of the control block. They are touched only when a
 * side has to park or finds the other side parked. */
#include <stdint.h>
#include <stdlib.h>

#include "../common/spsc_internal.h"
#include "irq_internal.h"
#include "rtipc/error.h"
#include "spin.h"
#include "task_internal.h"
#include "wait.h"

typedef struct {
    rtipc_lock_t lock;
    rtipc_waitlist_t waiters[2]; /* [CONSUMER]: parked in pop, [PRODUCER]: in push */
} spsc_port_t;

_Static_assert(sizeof(spsc_port_t) <= RTIPC__SPSC_PORT_BYTES, "the waiting part fits line 0");
_Static_assert(_Alignof(spsc_port_t) <= 8, "the waiting part's alignment is provided");

/* Polls of the ring before a blocking call parks (then the library's spin
 * budget, if one is set). A few microseconds at most: enough to ride out the
 * other side's next operation when it runs on another core. */
enum { SPIN_POLLS = 64 };

static spsc_port_t *port_of(struct rtipc_spsc *r) { return (spsc_port_t *)(void *)r->port; }

static void clear_sleeping(struct rtipc_spsc *r, unsigned side)
{
    /* Relaxed: set and cleared under the port lock, which orders them. */
    atomic_store_explicit(&r->sleeping[side], 0, memory_order_relaxed);
}

int rtipc_spsc_create(size_t capacity, size_t item_size, rtipc_spsc_t **out)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!out || !rtipc__spsc_shape_ok(capacity, item_size))
        return RTIPC_EINVAL;
    size_t storage = capacity * item_size;
    if (storage > SIZE_MAX - sizeof(struct rtipc_spsc) - RTIPC__CACHE_LINE)
        return RTIPC_ENOMEM; /* a valid shape this address space cannot hold */
    size_t bytes = sizeof(struct rtipc_spsc) + storage;
    bytes = (bytes + RTIPC__CACHE_LINE - 1) / RTIPC__CACHE_LINE * RTIPC__CACHE_LINE;
    struct rtipc_spsc *r = aligned_alloc(RTIPC__CACHE_LINE, bytes);
    if (!r)
        return RTIPC_ENOMEM;
    rtipc__spsc_init(r, capacity, item_size, (unsigned char *)(r + 1), RTIPC__SPSC_DYNAMIC);
    *out = r;
    return RTIPC_OK;
}

int rtipc_spsc_delete(rtipc_spsc_t *r)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!rtipc__spsc_valid(r))
        return RTIPC_EINVAL;
    spsc_port_t *p = port_of(r);
    rtipc_lock(&p->lock);
    if (!rtipc__waitlist_empty(&p->waiters[0]) || !rtipc__waitlist_empty(&p->waiters[1])) {
        rtipc_unlock(&p->lock);
        return RTIPC_EBUSY;
    }
    r->magic = 0;
    rtipc_unlock(&p->lock);
    if (r->flags & RTIPC__SPSC_DYNAMIC)
        free(r);
    return RTIPC_OK;
}

/* ---- waking ----------------------------------------------------------------- */
void rtipc__spsc_wake(struct rtipc_spsc *r, unsigned side, bool *woken)
{
    spsc_port_t *p = port_of(r);
    if (rtipc__in_interrupt) {
        rtipc_lock(&p->lock);
        rtipc_isr_wake_t wake = rtipc__isr_wake_one(&p->waiters[side]);
        /* Whoever sleeps is woken now; a flag left over from a side that no
         * longer waits is dropped, so the next operations stay lock-free. */
        clear_sleeping(r, side);
        rtipc_unlock(&p->lock);
        rtipc__isr_release(wake, woken);
        return;
    }
    rtipc_lock(&p->lock);
    struct rtipc_task *task = rtipc__waitlist_wake_one(&p->waiters[side]);
    clear_sleeping(r, side);
    rtipc_unlock(&p->lock);
    if (task) {
        rtipc__unpark(task);
        /* Waking a task reschedules: release deferred wake-ups (irq.h). */
        rtipc__reschedule_point(rtipc__current_or_null());
    }
}

/* ---- blocking push / pop ------------------------------------------------------ */
typedef struct {
    rtipc_op_t op; /* first: the blocking loop hands us back this pointer */
    struct rtipc_spsc *r;
    const void *in;  /* producer: the item */
    void *out;       /* consumer: where the item goes */
    unsigned side;   /* the caller's side */
    bool abandoned;  /* gave up waiting: the last attempt must not set the flag */
} spsc_op_t;

/* Under the port lock. Announce that this side is about to sleep, then look
 * at the ring once more: either the other side sees the flag, or we see its
 * last operation (the handshake in spsc.c). On EWOULDBLOCK the blocking loop
 * queues us in this same critical section, so a waker that saw the flag and
 * takes the lock finds us queued. */
static int attempt(rtipc_op_t *op)
{
    spsc_op_t *o = (spsc_op_t *)op;
    struct rtipc_spsc *r = o->r;
    unsigned me = o->side, peer = 1 - o->side;
    if (!o->abandoned) {
        atomic_store_explicit(&r->sleeping[me], 1, memory_order_relaxed);
        /* F3 (consumer) / F4 (producer): full fence, pairs with F1 / F2 in
         * spsc.c; orders the flag store before the ring's index load. */
        atomic_thread_fence(memory_order_seq_cst);
    }
    bool peer_sleeping;
    uint32_t moved = me == RTIPC__SPSC_PRODUCER ? rtipc__spsc_put(r, o->in, 1, &peer_sleeping)
                                                : rtipc__spsc_get(r, o->out, 1, &peer_sleeping);
    if (moved == 0)
        return RTIPC_EWOULDBLOCK;
    clear_sleeping(r, me);
    if (peer_sleeping) {
        /* We hold the lock the wake path takes: wake the peer here. */
        op->wake = rtipc__waitlist_wake_one(&port_of(r)->waiters[peer]);
        clear_sleeping(r, peer);
    }
    return RTIPC_OK;
}

/* Under the port lock, after a timeout or deletion unlinked us. */
static void abandon(rtipc_op_t *op)
{
    spsc_op_t *o = (spsc_op_t *)op;
    o->abandoned = true;
    clear_sleeping(o->r, o->side);
}

static int try_once(spsc_op_t *o)
{
    return o->side == RTIPC__SPSC_PRODUCER ? rtipc_spsc_try_push(o->r, o->in) : rtipc_spsc_try_pop(o->r, o->out);
}

/* The first try failed and the caller may wait: poll, then park. */
static int wait_for(spsc_op_t *o, rtipc_timeout_t timeout)
{
    bool forever = rtipc_timeout_is_forever(timeout);
    int64_t budget = atomic_load_explicit(&rtipc__spin_ns, memory_order_relaxed);
    int64_t start = (!forever || budget > 0) ? rtipc_time_ns() : 0;
    int64_t spin_end = start + (budget > 0 ? budget : 0);
    if (!forever && timeout.ns < spin_end - start)
        spin_end = start + timeout.ns;
    for (unsigned i = 0;; ++i) {
        rtipc__cpu_relax();
        if (try_once(o) == RTIPC_OK)
            return RTIPC_OK;
        if (i + 1 >= SPIN_POLLS && (budget <= 0 || rtipc_time_ns() >= spin_end))
            break;
    }
    rtipc_timeout_t left = timeout;
    if (!forever) {
        int64_t elapsed = rtipc_time_ns() - start;
        if (elapsed >= timeout.ns)
            return RTIPC_ETIMEDOUT; /* the poll just before was the last try */
        left = rtipc_ns(timeout.ns - elapsed);
    }
    /* Adopt a foreign thread now, before the flag is raised for it. */
    if (!rtipc__self())
        return RTIPC_ENOMEM;
    spsc_port_t *p = port_of(o->r);
    return rtipc__block(&p->lock, &p->waiters[o->side], &o->op, left);
}

int rtipc_spsc_push(rtipc_spsc_t *r, const void *item, rtipc_timeout_t timeout)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!rtipc__spsc_valid(r) || !item)
        return RTIPC_EINVAL;
    int rc = rtipc_spsc_try_push(r, item);
    if (rc != RTIPC_EWOULDBLOCK || rtipc_timeout_is_no_wait(timeout))
        return rc;
    spsc_op_t o = {.op = {.attempt = attempt, .abandon = abandon}, .r = r, .in = item,
                   .side = RTIPC__SPSC_PRODUCER};
    return wait_for(&o, timeout);
}

int rtipc_spsc_pop(rtipc_spsc_t *r, void *item, rtipc_timeout_t timeout)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!rtipc__spsc_valid(r) || !item)
        return RTIPC_EINVAL;
    int rc = rtipc_spsc_try_pop(r, item);
    if (rc != RTIPC_EWOULDBLOCK || rtipc_timeout_is_no_wait(timeout))
        return rc;
    spsc_op_t o = {.op = {.attempt = attempt, .abandon = abandon}, .r = r, .out = item,
                   .side = RTIPC__SPSC_CONSUMER};
    return wait_for(&o, timeout);
}
