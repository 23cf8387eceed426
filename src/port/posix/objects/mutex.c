/* Mutexes on Linux: holder and depth under the object lock, priority-ordered
 * waiters (wait.h) and one-level priority inheritance through the task's
 * effective priority (task.c applies it to SCHED_FIFO). */
#include "rtipc/mutex.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/create.h"
#include "common/handle.h"
#include "port/posix/kernel/kernel.h"
#include "rtipc/error.h"

#define MUTEX_DYNAMIC 0x1u
#define MUTEX_RECURSIVE 0x2u

struct rtipc__mutex {
    rtipc__lock_t lock;
    uint16_t flags;
    _Atomic(struct rtipc__task *) holder; /* written under lock, read anywhere */
    uint32_t depth;                      /* takes by the holder (recursive) */
    rtipc__spin_setting_t spin;           /* spin budget of its waiters (spin.h) */
    rtipc__waitlist_t waiters;
};

_Static_assert(sizeof(struct rtipc__mutex) <= sizeof(rtipc_mutex_static_t),
               "rtipc_mutex_static_t must hold the mutex");

/* The mutex a handle names, or NULL (src/common/handle.h). */
static struct rtipc__mutex *get(const rtipc_mutex_t *handle) { return rtipc__handle_get(handle, RTIPC__H_MUTEX); }

static struct rtipc__task *holder_of(const struct rtipc__mutex *m)
{
    return atomic_load_explicit(&((struct rtipc__mutex *)m)->holder, memory_order_relaxed);
}

/* Initialise m and open its handle; false when the handle table is full. */
static bool init(struct rtipc__mutex *m, bool recursive, uint16_t flags, rtipc_mutex_t **out)
{
    memset(m, 0, sizeof *m);
    m->flags = flags | (recursive ? MUTEX_RECURSIVE : 0);
    uintptr_t h = rtipc__handle_open(m, RTIPC__H_MUTEX);
    if (h == 0)
        return false;
    *out = (rtipc_mutex_t *)h;
    return true;
}

int rtipc_mutex_create(bool recursive, rtipc_mutex_t **out)
{
    int rc;
    struct rtipc__mutex *m = RTIPC__CREATE_ALLOC(out != NULL, struct rtipc__mutex, 0, &rc);
    if (m && !init(m, recursive, MUTEX_DYNAMIC, out)) {
        free(m);
        rc = RTIPC_ENOMEM;
    }
    return rc;
}

int rtipc_mutex_create_static(bool recursive, rtipc_mutex_static_t *cb, rtipc_mutex_t **out)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!out || !cb)
        return RTIPC_EINVAL;
    return init((struct rtipc__mutex *)(void *)cb, recursive, 0, out) ? RTIPC_OK : RTIPC_ENOMEM;
}

int rtipc_mutex_delete(rtipc_mutex_t *handle)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__mutex *m = get(handle);
    if (!m)
        return RTIPC_EINVAL;
    rtipc__lock(&m->lock);
    if (holder_of(m) || !rtipc__waitlist_empty(&m->waiters)) {
        rtipc__unlock(&m->lock);
        return RTIPC_EBUSY;
    }
    /* From here on the handle is refused, before the memory goes. */
    rtipc__handle_close((uintptr_t)handle);
    rtipc__unlock(&m->lock);
    if (m->flags & MUTEX_DYNAMIC)
        free(m);
    return RTIPC_OK;
}

typedef struct {
    rtipc__op_t op; /* first: the blocking loop hands us back this pointer */
    struct rtipc__mutex *m;
    struct rtipc__task *self;
    /* Whether a failed attempt will be followed by a wait, so the holder may
     * inherit our priority: false for RTIPC_NO_WAIT, and from the moment the
     * wait was abandoned (the blocking loop makes one last attempt after a
     * timeout, which must not boost the holder again). */
    bool will_wait;
    /* Whether the last attempt's inheritance occurred in FreeRTOS's sense
     * (rtipc__task_inherit): only then does giving up lower the holder. */
    bool inherited;
} mutex_op_t;

static int attempt_lock(rtipc__op_t *op)
{
    mutex_op_t *o = (mutex_op_t *)op;
    struct rtipc__mutex *m = o->m;
    struct rtipc__task *holder = holder_of(m);
    if (holder == NULL) {
        atomic_store_explicit(&m->holder, o->self, memory_order_relaxed);
        m->depth = 1;
        atomic_fetch_add_explicit(&o->self->mutexes_held, 1, memory_order_relaxed);
        return RTIPC_OK;
    }
    if (holder == o->self) {
        if (!(m->flags & MUTEX_RECURSIVE))
            return RTIPC_EDEADLOCK;
        ++m->depth;
        return RTIPC_OK;
    }
    /* About to wait: lend the holder our priority if it is lower. */
    if (o->will_wait)
        o->inherited = rtipc__task_inherit(holder, o->self);
    return RTIPC_EWOULDBLOCK;
}

/* A waiter gave up (vTaskPriorityDisinheritAfterTimeout): if it had lent
 * its priority and the holder holds only this mutex, the holder keeps no
 * more than the highest priority still waiting. */
static void abandon_lock(rtipc__op_t *op)
{
    mutex_op_t *o = (mutex_op_t *)op;
    o->will_wait = false;
    struct rtipc__task *holder = holder_of(o->m);
    /* A waiter that is deleted leaves the holder's priority as it is: only
     * a timeout gives the lent priority back (vTaskDelete does not). */
    if (holder && o->inherited && !atomic_load_explicit(&o->self->delete_requested, memory_order_relaxed))
        rtipc__task_disinherit_after_timeout(holder, rtipc__waitlist_head_priority(&o->m->waiters));
    o->inherited = false;
}

int rtipc_mutex_lock(rtipc_mutex_t *handle, rtipc_timeout_t timeout)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__mutex *m = get(handle);
    if (!m)
        return RTIPC_EINVAL;
    struct rtipc__task *self = rtipc__self();
    if (!self)
        return RTIPC_ENOMEM;
    mutex_op_t o = {.op = {.attempt = attempt_lock, .abandon = abandon_lock},
                    .m = m,
                    .self = self,
                    .will_wait = !rtipc_timeout_is_no_wait(timeout)};
    return rtipc__block(&m->lock, &m->waiters, &o.op, timeout, rtipc__spin_setting(&m->spin));
}

int rtipc_mutex_set_spin(rtipc_mutex_t *handle, int64_t ns)
{
    struct rtipc__mutex *m = get(handle);
    if (!m)
        return RTIPC_EINVAL;
    return rtipc__spin_setting_set(&m->spin, ns);
}

int rtipc_mutex_unlock(rtipc_mutex_t *handle)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__mutex *m = get(handle);
    if (!m)
        return RTIPC_EINVAL;
    struct rtipc__task *self = rtipc__self();
    rtipc__lock(&m->lock);
    if (self == NULL || holder_of(m) != self) {
        rtipc__unlock(&m->lock);
        return RTIPC_EPERM;
    }
    if (--m->depth > 0) {
        rtipc__unlock(&m->lock);
        return RTIPC_OK;
    }
    atomic_store_explicit(&m->holder, NULL, memory_order_relaxed);
    /* The last mutex given back ends any inherited priority
     * (xTaskPriorityDisinherit); the task then goes to the end of its base
     * priority's list, behind the tasks of that priority that are ready. */
    bool lowered = atomic_fetch_sub_explicit(&self->mutexes_held, 1, memory_order_relaxed) == 1 &&
                   rtipc__task_disinherit(self);
    struct rtipc__task *wake = rtipc__waitlist_wake_one(&m->waiters);
    rtipc__unlock(&m->lock);
    if (wake)
        rtipc__unpark(wake);
    if (lowered)
        rtipc__task_settle_lowered(self);
    else if (wake)
        rtipc__reschedule_point(self); /* waking a task reschedules */
    return RTIPC_OK;
}

rtipc_task_t *rtipc_mutex_holder(const rtipc_mutex_t *handle)
{
    struct rtipc__mutex *m = get(handle);
    return m ? rtipc__task_handle(holder_of(m)) : NULL;
}

size_t rtipc_mutex_footprint(const rtipc_mutex_t *handle)
{
    if (handle != NULL && !get(handle))
        return 0;
    return sizeof(struct rtipc__mutex);
}
