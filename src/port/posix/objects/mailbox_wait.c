/* The mailbox on Linux: creation and deletion, waiting for a newer version,
 * and waking the waiters (the port half of src/common/mailbox.c).
 *
 * The waiting part is the usual object lock and one wait list, touched only
 * while some task waits. Each waiter's operation carries the version it last
 * saw, so a writer wakes exactly the waiters its version is news to. */
#include <stdint.h>
#include <stdlib.h>

#include "common/mailbox_internal.h"
#include "port/posix/kernel/kernel.h"
#include "rtipc/error.h"

typedef struct {
    rtipc__lock_t lock;
    rtipc__spin_setting_t spin; /* spin budget of its waiters (spin.h); zeroed = default */
    rtipc__waitlist_t waiters;  /* tasks in rtipc_mailbox_wait_newer */
} mailbox_port_t;

_Static_assert(sizeof(mailbox_port_t) <= RTIPC__MAILBOX_PORT_BYTES, "the waiting part fits");
_Static_assert(_Alignof(mailbox_port_t) <= 8, "the waiting part's alignment is provided");

/* Waiters woken per critical section: the tasks to unpark are kept on the
 * stack until the lock is dropped. More waiters take more rounds. */
enum { WAKE_BATCH = 8 };

static mailbox_port_t *port_of(struct rtipc__mailbox *mb) { return (mailbox_port_t *)(void *)mb->port; }

/* Under the port lock: the flag says whether anybody still waits. Relaxed:
 * written only under the lock, which orders it against the waiters' stores. */
static void update_sleepers(struct rtipc__mailbox *mb)
{
    atomic_store_explicit(&mb->sleepers, rtipc__waitlist_empty(&port_of(mb)->waiters) ? 0u : 1u,
                          memory_order_relaxed);
}

/* A zeroed waiting part is ready: an open lock, no waiters, the default
 * spin budget. */
void rtipc__mailbox_port_init(struct rtipc__mailbox *mb) { (void)mb; }

int rtipc__mailbox_port_retire(struct rtipc__mailbox *mb, uintptr_t handle)
{
    mailbox_port_t *p = port_of(mb);
    rtipc__lock(&p->lock);
    if (!rtipc__waitlist_empty(&p->waiters)) {
        rtipc__unlock(&p->lock);
        return RTIPC_EBUSY;
    }
    /* From here on the handle is refused, before the memory goes. */
    rtipc__handle_close(handle);
    rtipc__unlock(&p->lock);
    return RTIPC_OK;
}

/* ---- waiting ---------------------------------------------------------------- */
typedef struct {
    rtipc__op_t op; /* first: the blocking loop hands us back this pointer */
    struct rtipc__mailbox *mb;
    uint64_t last_seen;
    bool abandoned; /* gave up waiting: the last attempt must not set the flag */
} mailbox_op_t;

/* Under the port lock. Announce a sleeper, then look at the version once
 * more; on EWOULDBLOCK the blocking loop queues us in this same critical
 * section, so a writer that sees the flag and takes the lock finds us. */
static int attempt(rtipc__op_t *op)
{
    mailbox_op_t *o = (mailbox_op_t *)op;
    struct rtipc__mailbox *mb = o->mb;
    if (rtipc__mailbox_version(mb) > o->last_seen)
        return RTIPC_OK;
    if (o->abandoned)
        return RTIPC_EWOULDBLOCK;
    atomic_store_explicit(&mb->sleepers, 1, memory_order_relaxed);
    /* F2: full fence, pairs with F1 in the write (mailbox.c); orders the flag
     * store before the version load. */
    atomic_thread_fence(memory_order_seq_cst);
    if (rtipc__mailbox_version(mb) > o->last_seen) {
        update_sleepers(mb); /* not waiting after all */
        return RTIPC_OK;
    }
    return RTIPC_EWOULDBLOCK;
}

/* Under the port lock, after a timeout or deletion unlinked us. */
static void abandon(rtipc__op_t *op)
{
    mailbox_op_t *o = (mailbox_op_t *)op;
    o->abandoned = true;
    update_sleepers(o->mb);
}

static bool is_newer(void *o)
{
    mailbox_op_t *op = o;
    return rtipc__mailbox_version(op->mb) > op->last_seen;
}

/* Spin on the version (writers pay nothing: they look only at the sleepers
 * flag, not raised yet), then park. */
static int wait_for(mailbox_op_t *o, rtipc_timeout_t timeout)
{
    /* Adopt a foreign thread now, before the flag is raised for it. */
    struct rtipc__task *self = rtipc__self();
    if (!self)
        return RTIPC_ENOMEM;
    mailbox_port_t *p = port_of(o->mb);
    int64_t deadline = rtipc__deadline(timeout);
    if (rtipc__spin_wait(self, rtipc__spin_setting(&p->spin), deadline, is_newer, o))
        return RTIPC_OK;
    rtipc_timeout_t left = timeout;
    if (deadline >= 0) {
        int64_t now = rtipc_time_ns();
        if (now >= deadline)
            return is_newer(o) ? RTIPC_OK : RTIPC_ETIMEDOUT;
        left = rtipc_ns(deadline - now);
    }
    return rtipc__block(&p->lock, &p->waiters, &o->op, left, RTIPC__SPIN_NONE);
}

int rtipc_mailbox_wait_newer(rtipc_mailbox_t *handle, void *buf, uint64_t last_seen, uint64_t *version,
                             rtipc_timeout_t timeout)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__mailbox *mb = rtipc__mailbox_of(handle);
    if (!mb || !buf)
        return RTIPC_EINVAL;
    if (rtipc__mailbox_version(mb) <= last_seen) {
        if (rtipc_timeout_is_no_wait(timeout))
            return RTIPC_EWOULDBLOCK;
        mailbox_op_t o = {.op = {.attempt = attempt, .abandon = abandon}, .mb = mb, .last_seen = last_seen};
        int rc = wait_for(&o, timeout);
        if (rc != RTIPC_OK)
            return rc;
    }
    /* Versions only grow: this copy is at least the one that satisfied us. */
    return rtipc__mailbox_read(mb, buf, version);
}

int rtipc_mailbox_set_spin(rtipc_mailbox_t *handle, int64_t ns)
{
    struct rtipc__mailbox *mb = rtipc__mailbox_of(handle);
    if (!mb)
        return RTIPC_EINVAL;
    return rtipc__spin_setting_set(&port_of(mb)->spin, ns);
}

/* ---- waking ----------------------------------------------------------------- */
void rtipc__mailbox_wake(struct rtipc__mailbox *mb, bool *woken)
{
    mailbox_port_t *p = port_of(mb);
    bool in_isr = rtipc__in_interrupt, any = false, more;
    do {
        rtipc__isr_wake_t isr_wake[WAKE_BATCH];
        struct rtipc__task *task_wake[WAKE_BATCH];
        int n = 0;
        more = false;
        rtipc__lock(&p->lock);
        uint64_t now = rtipc__mailbox_version(mb);
        for (rtipc__waiter_t *w = p->waiters.head, *next; w; w = next) {
            next = w->next;
            if (((mailbox_op_t *)w->op)->last_seen >= now)
                continue; /* waits for a version beyond this one */
            if (n == WAKE_BATCH) {
                more = true;
                break;
            }
            if (in_isr)
                isr_wake[n++] = rtipc__isr_wake(&p->waiters, w);
            else
                task_wake[n++] = rtipc__waitlist_wake(&p->waiters, w);
        }
        update_sleepers(mb);
        rtipc__unlock(&p->lock);
        for (int i = 0; i < n; ++i) {
            if (in_isr)
                rtipc__isr_release(isr_wake[i], woken);
            else
                rtipc__unpark(task_wake[i]);
        }
        any = any || n > 0;
    } while (more);
    /* Waking tasks reschedules: release deferred wake-ups (irq.h). */
    if (any && !in_isr)
        rtipc__reschedule_point(rtipc__current_or_null());
}
