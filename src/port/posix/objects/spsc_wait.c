/* The SPSC ring on Linux: creation and deletion, the blocking push/pop, and
 * waking a parked side (the port half of src/common/spsc.c).
 *
 * The waiting part is the usual object lock, two wait lists (one per side)
 * and the spin budget, kept in line 0 of the control block. The lock and
 * lists are touched only when a side has to park or finds the other side
 * parked. A blocking call spins on the ring itself before it raises its
 * sleeping flag, so the other side pays nothing for a spinning peer. */
#include <stdint.h>
#include <stdlib.h>

#include "common/spsc_internal.h"
#include "port/posix/kernel/kernel.h"
#include "rtipc/error.h"

typedef struct {
    rtipc__lock_t lock;
    rtipc__spin_setting_t spin;   /* spin budget of both sides (spin.h); zeroed = default */
    rtipc__waitlist_t waiters[2]; /* [CONSUMER]: parked in pop, [PRODUCER]: in push */
} spsc_port_t;

_Static_assert(sizeof(spsc_port_t) <= RTIPC__SPSC_PORT_BYTES, "the waiting part fits line 0");
_Static_assert(_Alignof(spsc_port_t) <= 8, "the waiting part's alignment is provided");

static spsc_port_t *port_of(struct rtipc__spsc *r) { return (spsc_port_t *)(void *)r->port; }

static void clear_sleeping(struct rtipc__spsc *r, unsigned side)
{
    /* Relaxed: set and cleared under the port lock, which orders them. */
    atomic_store_explicit(&r->sleeping[side], 0, memory_order_relaxed);
}

/* A zeroed waiting part is ready: an open lock, empty wait lists, the
 * default spin budget. */
void rtipc__spsc_port_init(struct rtipc__spsc *r) { (void)r; }

int rtipc__spsc_port_retire(struct rtipc__spsc *r, uintptr_t handle)
{
    spsc_port_t *p = port_of(r);
    rtipc__lock(&p->lock);
    if (!rtipc__waitlist_empty(&p->waiters[0]) || !rtipc__waitlist_empty(&p->waiters[1])) {
        rtipc__unlock(&p->lock);
        return RTIPC_EBUSY;
    }
    /* From here on the handle is refused, before the memory goes. */
    rtipc__handle_close(handle);
    rtipc__unlock(&p->lock);
    return RTIPC_OK;
}

/* ---- waking ----------------------------------------------------------------- */
void rtipc__spsc_wake(struct rtipc__spsc *r, unsigned side, bool *woken)
{
    spsc_port_t *p = port_of(r);
    if (rtipc__in_interrupt) {
        rtipc__lock(&p->lock);
        rtipc__isr_wake_t wake = rtipc__isr_wake_one(&p->waiters[side]);
        /* Whoever sleeps is woken now; a flag left over from a side that no
         * longer waits is dropped, so the next operations stay lock-free. */
        clear_sleeping(r, side);
        rtipc__unlock(&p->lock);
        rtipc__isr_release(wake, woken);
        return;
    }
    rtipc__lock(&p->lock);
    struct rtipc__task *task = rtipc__waitlist_wake_one(&p->waiters[side]);
    clear_sleeping(r, side);
    rtipc__unlock(&p->lock);
    if (task) {
        rtipc__unpark(task);
        /* Waking a task reschedules: release deferred wake-ups (irq.h). */
        rtipc__reschedule_point(rtipc__current_or_null());
    }
}

/* ---- blocking push / pop ------------------------------------------------------ */
typedef struct {
    rtipc__op_t op; /* first: the blocking loop hands us back this pointer */
    struct rtipc__spsc *r;
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
static int attempt(rtipc__op_t *op)
{
    spsc_op_t *o = (spsc_op_t *)op;
    struct rtipc__spsc *r = o->r;
    unsigned me = o->side, peer = 1 - o->side;
    /* A side woken by its peer finds the ring ready without announcing
     * itself: the flag and the fence are only owed before a park. On an
     * asymmetric ring that fence is the process-wide barrier, which would
     * otherwise delay every woken receive by a barrier taken while its
     * peer runs (11 us on the development machine). */
    bool peer_sleeping;
    uint32_t moved = me == RTIPC__SPSC_PRODUCER ? rtipc__spsc_put(r, o->in, 1, &peer_sleeping)
                                                : rtipc__spsc_get(r, o->out, 1, &peer_sleeping);
    if (moved == 0 && !o->abandoned) {
        atomic_store_explicit(&r->sleeping[me], 1, memory_order_relaxed);
        /* F3 (consumer) / F4 (producer): pairs with F1 / F2 in spsc.c;
         * orders the flag store before the ring's index load: a full fence,
         * or the process-wide barrier of an asymmetric ring. */
        rtipc__spsc_park_fence(r);
        moved = me == RTIPC__SPSC_PRODUCER ? rtipc__spsc_put(r, o->in, 1, &peer_sleeping)
                                           : rtipc__spsc_get(r, o->out, 1, &peer_sleeping);
    }
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
static void abandon(rtipc__op_t *op)
{
    spsc_op_t *o = (spsc_op_t *)op;
    o->abandoned = true;
    clear_sleeping(o->r, o->side);
}

static int try_once(spsc_op_t *o)
{
    return o->side == RTIPC__SPSC_PRODUCER ? rtipc__spsc_try_push(o->r, o->in, NULL)
                                           : rtipc__spsc_try_pop(o->r, o->out, NULL);
}

static bool moved_one(void *o) { return try_once(o) == RTIPC_OK; }

/* The first try failed and the caller may wait: spin on the ring, then park. */
static int wait_for(spsc_op_t *o, rtipc_timeout_t timeout)
{
    /* Adopt a foreign thread now, before the flag is raised for it. */
    struct rtipc__task *self = rtipc__self();
    if (!self)
        return RTIPC_ENOMEM;
    spsc_port_t *p = port_of(o->r);
    int64_t deadline = rtipc__deadline(timeout);
    if (rtipc__spin_wait(self, rtipc__spin_setting(&p->spin), deadline, moved_one, o))
        return RTIPC_OK;
    rtipc_timeout_t left = timeout;
    if (deadline >= 0) {
        int64_t now = rtipc_time_ns();
        if (now >= deadline)
            return try_once(o) == RTIPC_OK ? RTIPC_OK : RTIPC_ETIMEDOUT;
        left = rtipc_ns(deadline - now);
    }
    /* It has spun already: park at once. */
    return rtipc__block(&p->lock, &p->waiters[o->side], &o->op, left, RTIPC__SPIN_NONE);
}

int rtipc_spsc_set_spin(rtipc_spsc_t *handle, int64_t ns)
{
    struct rtipc__spsc *r = rtipc__spsc_of(handle);
    if (!r)
        return RTIPC_EINVAL;
    return rtipc__spin_setting_set(&port_of(r)->spin, ns);
}

int rtipc__spsc_wait(struct rtipc__spsc *r, unsigned side, const void *in, void *out, rtipc_timeout_t timeout)
{
    spsc_op_t o = {.op = {.attempt = attempt, .abandon = abandon}, .r = r, .in = in, .out = out, .side = side};
    return wait_for(&o, timeout);
}
