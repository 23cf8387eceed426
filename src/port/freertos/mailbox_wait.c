/* The mailbox on FreeRTOS: creation, deletion and waiting for a newer
 * version (the port half of src/common/mailbox.c), parking on rtipc's
 * notification index (park.h). */
#include <stdatomic.h>
#include <string.h>

#include "common/mailbox_internal.h"
#include "park.h"

typedef struct {
    rtipc__parked_t *waiters;
    int64_t spin;
} mailbox_port_t;

_Static_assert(sizeof(mailbox_port_t) <= RTIPC__MAILBOX_PORT_BYTES, "the waiting part fits the mailbox");
_Static_assert(_Alignof(mailbox_port_t) <= 8, "the waiting part's alignment is provided");

static mailbox_port_t *port_of(struct rtipc__mailbox *mb) { return (mailbox_port_t *)(void *)mb->port; }

void rtipc__mailbox_port_init(struct rtipc__mailbox *mb) { port_of(mb)->spin = RTIPC_SPIN_DEFAULT; }

int rtipc__mailbox_port_retire(struct rtipc__mailbox *mb, uintptr_t handle)
{
    RTIPC__TASK_CRIT_ENTER();
    bool busy = port_of(mb)->waiters != NULL;
    RTIPC__TASK_CRIT_EXIT();
    if (busy)
        return RTIPC_EBUSY;
    /* From here on the handle is refused, before the memory goes (closed
     * outside the critical section above: the handle table takes its own). */
    rtipc__handle_close(handle);
    return RTIPC_OK;
}

static bool newer(const struct rtipc__mailbox *mb, uint64_t last_seen) { return rtipc__mailbox_version(mb) > last_seen; }

typedef struct {
    const struct rtipc__mailbox *mb;
    uint64_t last_seen;
} newer_arg_t;

/* The spin's poll: a lock-free look at the version. */
static bool spun_newer(void *arg)
{
    const newer_arg_t *a = arg;
    return newer(a->mb, a->last_seen);
}

/* In a critical section: the flag says whether anyone is left waiting. */
static void update_sleepers(struct rtipc__mailbox *mb)
{
    atomic_store_explicit(&mb->sleepers, port_of(mb)->waiters != NULL, memory_order_relaxed);
}

int rtipc_mailbox_wait_newer(rtipc_mailbox_t *handle, void *buf, uint64_t last_seen, uint64_t *version,
                             rtipc_timeout_t timeout)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__mailbox *mb = rtipc__mailbox_of(handle);
    if (!mb || !buf)
        return RTIPC_EINVAL;
    if (!newer(mb, last_seen)) {
        if (rtipc_timeout_is_no_wait(timeout))
            return RTIPC_EWOULDBLOCK;
        struct rtipc__task *self = rtipc__self();
        if (!self)
            return RTIPC_ENOMEM;
        mailbox_port_t *p = port_of(mb);
        rtipc__parked_t me = {.task = xTaskGetCurrentTaskHandle(), .owner = self, .key = last_seen};
        TickType_t left = rtipc__ticks(timeout);
        TimeOut_t since;
        vTaskSetTimeOutState(&since);
        /* Spin first where the rules allow (port_internal.h): a version
         * caught here costs the writer no wake-up. The time spun counts
         * against the timeout (since). */
        newer_arg_t poll = {mb, last_seen};
        bool spun = rtipc__spin_wait(self, p->spin, left, spun_newer, &poll, 0);
        for (; !spun;) {
            RTIPC__TASK_CRIT_ENTER();
            rtipc__park_link(&p->waiters, &me);
            atomic_store_explicit(&mb->sleepers, 1, memory_order_relaxed);
            /* Pairs with F1 in the write (mailbox.c): the flag store is ordered
             * before the version load, so a writer either sees the flag or
             * we see its version. */
            atomic_thread_fence(memory_order_seq_cst);
            bool done = newer(mb, last_seen);
            if (done) {
                rtipc__park_unlink(&p->waiters, &me);
                update_sleepers(mb);
            }
            RTIPC__TASK_CRIT_EXIT();
            if (done)
                break;
            if (!rtipc__park_sleep(&me, &since, &left)) {
                RTIPC__TASK_CRIT_ENTER();
                rtipc__park_unlink(&p->waiters, &me);
                update_sleepers(mb);
                RTIPC__TASK_CRIT_EXIT();
                if (!newer(mb, last_seen))
                    return RTIPC_ETIMEDOUT;
                break;
            }
        }
    }
    /* Versions only grow: this copy is at least the one that satisfied us. */
    return rtipc__mailbox_read(mb, buf, version);
}

int rtipc_mailbox_set_spin(rtipc_mailbox_t *handle, int64_t ns)
{
    struct rtipc__mailbox *mb = rtipc__mailbox_of(handle);
    if (!mb || !rtipc__spin_ok(ns))
        return RTIPC_EINVAL;
    port_of(mb)->spin = ns;
    return RTIPC_OK;
}

void rtipc__mailbox_wake(struct rtipc__mailbox *mb, bool *woken)
{
    mailbox_port_t *p = port_of(mb);
    BaseType_t hp = pdFALSE;
    rtipc__crit_t c = rtipc__wake_enter();
    uint64_t now = rtipc__mailbox_version(mb);
    for (rtipc__parked_t *w = p->waiters, *next; w; w = next) {
        next = w->next;
        if (w->key < now)
            rtipc__park_wake(&p->waiters, w, c.isr, &hp);
    }
    update_sleepers(mb);
    rtipc__wake_exit(c);
    rtipc__woken(hp, woken);
}
