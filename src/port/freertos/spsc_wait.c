/* The SPSC ring on FreeRTOS: creation, deletion, the blocking push/pop and
 * waking a parked side (the port half of src/common/spsc.c), parking on
 * rtipc's notification index (park.h). */
#include <stdatomic.h>
#include <string.h>

#include "common/spsc_internal.h"
#include "park.h"

typedef struct {
    rtipc__parked_t *waiters[2]; /* [CONSUMER]: parked in pop, [PRODUCER]: in push */
    int64_t spin;
} spsc_port_t;

_Static_assert(sizeof(spsc_port_t) <= RTIPC__SPSC_PORT_BYTES, "the waiting part fits line 0");
_Static_assert(_Alignof(spsc_port_t) <= 8, "the waiting part's alignment is provided");

static spsc_port_t *port_of(struct rtipc__spsc *r) { return (spsc_port_t *)(void *)r->port; }

void rtipc__spsc_port_init(struct rtipc__spsc *r) { port_of(r)->spin = RTIPC_SPIN_DEFAULT; }

int rtipc__spsc_port_retire(struct rtipc__spsc *r, uintptr_t handle)
{
    spsc_port_t *p = port_of(r);
    RTIPC__TASK_CRIT_ENTER();
    bool busy = p->waiters[0] != NULL || p->waiters[1] != NULL;
    RTIPC__TASK_CRIT_EXIT();
    if (busy)
        return RTIPC_EBUSY;
    /* From here on the handle is refused, before the memory goes (closed
     * outside the critical section above: the handle table takes its own). */
    rtipc__handle_close(handle);
    return RTIPC_OK;
}

static void clear_sleeping(struct rtipc__spsc *r, unsigned side)
{
    atomic_store_explicit(&r->sleeping[side], 0, memory_order_relaxed);
}

/* Wake the side parked on r (the caller saw it sleeping). */
void rtipc__spsc_wake(struct rtipc__spsc *r, unsigned side, bool *woken)
{
    spsc_port_t *p = port_of(r);
    BaseType_t hp = pdFALSE;
    rtipc__crit_t c = rtipc__wake_enter();
    while (p->waiters[side])
        rtipc__park_wake(&p->waiters[side], p->waiters[side], c.isr, &hp);
    clear_sleeping(r, side);
    rtipc__wake_exit(c);
    rtipc__woken(hp, woken);
}

int rtipc_spsc_set_spin(rtipc_spsc_t *handle, int64_t ns)
{
    struct rtipc__spsc *r = rtipc__spsc_of(handle);
    if (!r || !rtipc__spin_ok(ns))
        return RTIPC_EINVAL;
    port_of(r)->spin = ns;
    return RTIPC_OK;
}

typedef struct {
    struct rtipc__spsc *r;
    unsigned me;
    const void *in;
    void *out;
} spin_op_t;

/* The spin's poll: the non-blocking call itself (lock-free; it wakes the
 * peer if that one sleeps), before this side raises its sleeping flag, so
 * the peer pays nothing for a spinning side. */
static bool spun_once(void *arg)
{
    const spin_op_t *o = arg;
    int rc = o->me == RTIPC__SPSC_PRODUCER ? rtipc__spsc_try_push(o->r, o->in, NULL)
                                           : rtipc__spsc_try_pop(o->r, o->out, NULL);
    return rc == RTIPC_OK;
}

/* The first try failed and the caller may wait: spin where the rules allow
 * (port_internal.h), then announce the side asleep, look at the ring once
 * more (the handshake in spsc.c), park, repeat. */
static int wait_for(struct rtipc__spsc *r, unsigned me, const void *in, void *out, rtipc_timeout_t timeout)
{
    struct rtipc__task *self = rtipc__self();
    if (!self)
        return RTIPC_ENOMEM;
    spsc_port_t *p = port_of(r);
    unsigned peer = 1 - me;
    rtipc__parked_t node = {.task = xTaskGetCurrentTaskHandle(), .owner = self};
    TickType_t left = rtipc__ticks(timeout);
    TimeOut_t since;
    vTaskSetTimeOutState(&since);
    spin_op_t poll = {r, me, in, out};
    if (rtipc__spin_wait(self, p->spin, left, spun_once, &poll, 0))
        return RTIPC_OK;
    for (;;) {
        bool peer_sleeping = false;
        BaseType_t hp = pdFALSE;
        rtipc__crit_t c = rtipc__wake_enter(); /* it may wake the peer */
        rtipc__park_link(&p->waiters[me], &node);
        atomic_store_explicit(&r->sleeping[me], 1, memory_order_relaxed);
        /* F3 (consumer) / F4 (producer): pairs with F1 / F2 in spsc.c. */
        rtipc__spsc_park_fence(r);
        uint32_t moved = me == RTIPC__SPSC_PRODUCER ? rtipc__spsc_put(r, in, 1, &peer_sleeping)
                                                    : rtipc__spsc_get(r, out, 1, &peer_sleeping);
        if (moved) {
            rtipc__park_unlink(&p->waiters[me], &node);
            clear_sleeping(r, me);
            if (peer_sleeping) {
                while (p->waiters[peer])
                    rtipc__park_wake(&p->waiters[peer], p->waiters[peer], false, &hp);
                clear_sleeping(r, peer);
            }
        }
        rtipc__wake_exit(c);
        if (moved)
            return RTIPC_OK;
        if (!rtipc__park_sleep(&node, &since, &left)) {
            RTIPC__TASK_CRIT_ENTER();
            rtipc__park_unlink(&p->waiters[me], &node);
            clear_sleeping(r, me);
            RTIPC__TASK_CRIT_EXIT();
            /* One last look, as a non-blocking call. */
            int rc = me == RTIPC__SPSC_PRODUCER ? rtipc__spsc_try_push(r, in, NULL) : rtipc__spsc_try_pop(r, out, NULL);
            return rc == RTIPC_OK ? RTIPC_OK : RTIPC_ETIMEDOUT;
        }
    }
}

int rtipc__spsc_wait(struct rtipc__spsc *r, unsigned side, const void *in, void *out, rtipc_timeout_t timeout)
{
    return wait_for(r, side, in, out, timeout);
}
