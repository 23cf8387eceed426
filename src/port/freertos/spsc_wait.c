/* The SPSC ring on FreeRTOS: creation, deletion, the blocking push/pop and
 * waking a parked side (the port half of src/common/spsc.c), parking on
 * rtipc's notification index (park.h). */
#include <stdatomic.h>
#include <string.h>

#include "../../common/spsc_internal.h"
#include "park.h"

typedef struct {
    rtipc__fr_parked_t *waiters[2]; /* [CONSUMER]: parked in pop, [PRODUCER]: in push */
    int64_t spin;
} spsc_port_t;

_Static_assert(sizeof(spsc_port_t) <= RTIPC__SPSC_PORT_BYTES, "the waiting part fits line 0");
_Static_assert(_Alignof(spsc_port_t) <= 8, "the waiting part's alignment is provided");

static spsc_port_t *port_of(struct rtipc__spsc *r) { return (spsc_port_t *)(void *)r->port; }

int rtipc_spsc_create(size_t capacity, size_t item_size, rtipc_spsc_t **out)
{
    if (rtipc__fr_in_isr())
        return RTIPC_ECONTEXT;
    if (!out || !rtipc__spsc_shape_ok(capacity, item_size))
        return RTIPC_EINVAL;
    size_t storage = capacity * item_size;
    if (storage > SIZE_MAX - sizeof(struct rtipc__spsc) - RTIPC__CACHE_LINE)
        return RTIPC_ENOMEM;
    /* pvPortMalloc aligns to portBYTE_ALIGNMENT only: over-allocate and align
     * by hand, keeping the block's start just before the control block. */
    size_t bytes = sizeof(struct rtipc__spsc) + storage + RTIPC__CACHE_LINE + sizeof(void *);
    unsigned char *raw = pvPortMalloc(bytes);
    if (!raw)
        return RTIPC_ENOMEM;
    uintptr_t at = ((uintptr_t)(raw + sizeof(void *)) + RTIPC__CACHE_LINE - 1) & ~(uintptr_t)(RTIPC__CACHE_LINE - 1);
    struct rtipc__spsc *r = (struct rtipc__spsc *)at;
    memcpy((unsigned char *)r - sizeof(void *), &raw, sizeof raw);
    rtipc__spsc_init(r, capacity, item_size, (unsigned char *)(r + 1), RTIPC__SPSC_DYNAMIC);
    port_of(r)->spin = RTIPC_SPIN_DEFAULT;
    int rc = rtipc__spsc_open(r, out);
    if (rc != RTIPC_OK)
        vPortFree(raw);
    return rc;
}

int rtipc_spsc_delete(rtipc_spsc_t *handle)
{
    if (rtipc__fr_in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__spsc *r = rtipc__spsc_of(handle);
    if (!r)
        return RTIPC_EINVAL;
    spsc_port_t *p = port_of(r);
    RTIPC__FR_TASK_CRIT_ENTER();
    bool busy = p->waiters[0] != NULL || p->waiters[1] != NULL;
    RTIPC__FR_TASK_CRIT_EXIT();
    if (busy)
        return RTIPC_EBUSY;
    /* From here on the handle is refused, before the memory goes (closed
     * outside the critical section above: the handle table takes its own). */
    rtipc__handle_close((uintptr_t)handle);
    if (r->flags & RTIPC__SPSC_DYNAMIC) {
        unsigned char *raw;
        memcpy(&raw, (unsigned char *)r - sizeof(void *), sizeof raw);
        vPortFree(raw);
    }
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
    rtipc__fr_crit_t c = rtipc__fr_wake_enter();
    while (p->waiters[side])
        rtipc__fr_park_wake(&p->waiters[side], p->waiters[side], c.isr, &hp);
    clear_sleeping(r, side);
    rtipc__fr_wake_exit(c);
    rtipc__fr_woken(hp, woken);
}

int rtipc_spsc_set_spin(rtipc_spsc_t *handle, int64_t ns)
{
    struct rtipc__spsc *r = rtipc__spsc_of(handle);
    if (!r || !rtipc__fr_spin_ok(ns))
        return RTIPC_EINVAL;
    port_of(r)->spin = ns;
    return RTIPC_OK;
}

/* The first try failed and the caller may wait: announce the side asleep,
 * look at the ring once more (the handshake in spsc.c), park, repeat. */
static int wait_for(struct rtipc__spsc *r, unsigned me, const void *in, void *out, rtipc_timeout_t timeout)
{
    struct rtipc__fr_task *self = rtipc__fr_self();
    if (!self)
        return RTIPC_ENOMEM;
    spsc_port_t *p = port_of(r);
    unsigned peer = 1 - me;
    rtipc__fr_parked_t node = {.task = xTaskGetCurrentTaskHandle(), .owner = self};
    TickType_t left = rtipc__fr_ticks(timeout);
    TimeOut_t since;
    vTaskSetTimeOutState(&since);
    for (;;) {
        bool peer_sleeping = false;
        BaseType_t hp = pdFALSE;
        rtipc__fr_crit_t c = rtipc__fr_wake_enter(); /* it may wake the peer */
        rtipc__fr_park_link(&p->waiters[me], &node);
        atomic_store_explicit(&r->sleeping[me], 1, memory_order_relaxed);
        /* F3 (consumer) / F4 (producer): pairs with F1 / F2 in spsc.c. */
        atomic_thread_fence(memory_order_seq_cst);
        uint32_t moved = me == RTIPC__SPSC_PRODUCER ? rtipc__spsc_put(r, in, 1, &peer_sleeping)
                                                    : rtipc__spsc_get(r, out, 1, &peer_sleeping);
        if (moved) {
            rtipc__fr_park_unlink(&p->waiters[me], &node);
            clear_sleeping(r, me);
            if (peer_sleeping) {
                while (p->waiters[peer])
                    rtipc__fr_park_wake(&p->waiters[peer], p->waiters[peer], false, &hp);
                clear_sleeping(r, peer);
            }
        }
        rtipc__fr_wake_exit(c);
        if (moved)
            return RTIPC_OK;
        if (!rtipc__fr_park_sleep(&since, &left)) {
            RTIPC__FR_TASK_CRIT_ENTER();
            rtipc__fr_park_unlink(&p->waiters[me], &node);
            clear_sleeping(r, me);
            RTIPC__FR_TASK_CRIT_EXIT();
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
