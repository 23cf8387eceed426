/* Task notifications on Linux: slots in the task descriptor under the task's
 * lock; the owner waits through the same blocking loop as every object, on a
 * wait list that only it can join. */
#include "rtipc/notify.h"

#include "port/posix/kernel/kernel.h"
#include "rtipc/error.h"
#include "common/checks.h"

/* Applies the action under t->lock; returns whether the owner waits on this
 * slot and must be woken. */
static inline int apply(struct rtipc__task *t, unsigned index, uint32_t arg, rtipc_notify_action_t action,
                 uint32_t *previous, bool *wake_owner)
{
    rtipc__notify_slot_t *slot = &t->notify[index];
    if (previous)
        *previous = slot->value;
    switch (action) {
    case RTIPC_NOTIFY_NO_ACTION:
        break;
    case RTIPC_NOTIFY_SET_BITS:
        slot->value |= arg;
        break;
    case RTIPC_NOTIFY_INCREMENT:
        slot->value += 1;
        break;
    case RTIPC_NOTIFY_OVERWRITE:
        slot->value = arg;
        break;
    case RTIPC_NOTIFY_NO_OVERWRITE:
        if (slot->state == RTIPC__NOTIFY_PENDING)
            return RTIPC_EPENDING;
        slot->value = arg;
        break;
    }
    slot->state = RTIPC__NOTIFY_PENDING;
    *wake_owner = !rtipc__waitlist_empty(&t->notify_waiters) && t->notify_wait_index == index;
    return RTIPC_OK;
}

/* rtipc_notify's body; in line, so that a give is compiled for its one action. */
static inline int notify_task(rtipc_task_t *handle, unsigned index, uint32_t arg, rtipc_notify_action_t action,
                              uint32_t *previous)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__task *task = rtipc__task_live(handle);
    if (!task || !rtipc__notify_index_ok(index) || !rtipc__notify_action_ok(action))
        return RTIPC_EINVAL;
    struct rtipc__task *wake = NULL;
    bool wake_owner = false;
    rtipc__lock(&task->lock);
    int rc = apply(task, index, arg, action, previous, &wake_owner);
    if (wake_owner)
        wake = rtipc__waitlist_wake_one(&task->notify_waiters);
    rtipc__unlock(&task->lock);
    if (wake)
        rtipc__wake_from_task(wake);
    return rc;
}

int rtipc_notify(rtipc_task_t *handle, unsigned index, uint32_t arg, rtipc_notify_action_t action,
                 uint32_t *previous)
{
    return notify_task(handle, index, arg, action, previous);
}

int rtipc_notify_from_isr(rtipc_task_t *handle, unsigned index, uint32_t arg, rtipc_notify_action_t action,
                          uint32_t *previous, bool *woken)
{
    struct rtipc__task *task = rtipc__task_live(handle);
    if (!task || !rtipc__notify_index_ok(index) || !rtipc__notify_action_ok(action))
        return RTIPC_EINVAL;
    rtipc__isr_wake_t wake = {NULL, false};
    bool wake_owner = false;
    rtipc__lock(&task->lock);
    int rc = apply(task, index, arg, action, previous, &wake_owner);
    if (wake_owner)
        wake = rtipc__isr_wake_one(&task->notify_waiters);
    rtipc__unlock(&task->lock);
    rtipc__isr_release(wake, woken);
    return rc;
}

int rtipc_notify_give_from_isr(rtipc_task_t *task, unsigned index, bool *woken)
{
    return rtipc_notify_from_isr(task, index, 0, RTIPC_NOTIFY_INCREMENT, NULL, woken);
}

int rtipc_notify_give(rtipc_task_t *task, unsigned index)
{
    return notify_task(task, index, 0, RTIPC_NOTIFY_INCREMENT, NULL);
}

typedef struct {
    rtipc__op_t op; /* first: the blocking loop hands us back this pointer */
    struct rtipc__task *self;
    unsigned index;
    bool clear;             /* take: clear rather than decrement */
    uint32_t clear_on_exit; /* wait */
    uint32_t value;         /* captured value */
} notify_op_t;

static int attempt_take(rtipc__op_t *op)
{
    notify_op_t *o = (notify_op_t *)op;
    rtipc__notify_slot_t *slot = &o->self->notify[o->index];
    o->value = slot->value;
    if (slot->value == 0) {
        /* A take that finds no value consumes the pending state, as
         * ulTaskGenericNotifyTake leaves the slot "not waiting" on every
         * return: a no-action notification is not seen by a later wait. */
        slot->state = RTIPC__NOTIFY_IDLE;
        o->self->notify_wait_index = o->index;
        return RTIPC_EWOULDBLOCK;
    }
    slot->value = o->clear ? 0 : slot->value - 1;
    slot->state = RTIPC__NOTIFY_IDLE;
    return RTIPC_OK;
}

static int attempt_wait(rtipc__op_t *op)
{
    notify_op_t *o = (notify_op_t *)op;
    rtipc__notify_slot_t *slot = &o->self->notify[o->index];
    o->value = slot->value;
    if (slot->state != RTIPC__NOTIFY_PENDING) {
        o->self->notify_wait_index = o->index;
        return RTIPC_EWOULDBLOCK;
    }
    slot->value &= ~o->clear_on_exit;
    slot->state = RTIPC__NOTIFY_IDLE;
    return RTIPC_OK;
}

int rtipc_notify_take(unsigned index, bool clear, uint32_t *value, rtipc_timeout_t timeout)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!rtipc__notify_index_ok(index))
        return RTIPC_EINVAL;
    struct rtipc__task *self = rtipc__self();
    if (!self)
        return RTIPC_ENOMEM;
    rtipc__lock(&self->lock);
    /* The common case in line: a value there (attempt_take's success). */
    rtipc__notify_slot_t *slot = &self->notify[index];
    if (slot->value != 0) {
        uint32_t was = slot->value;
        slot->value = clear ? 0 : was - 1;
        slot->state = RTIPC__NOTIFY_IDLE;
        rtipc__unlock(&self->lock);
        if (value)
            *value = was;
        return RTIPC_OK;
    }
    notify_op_t o = {.op = {.attempt = attempt_take}, .self = self, .index = index, .clear = clear};
    int rc = rtipc__block_held(&self->lock, &self->notify_waiters, &o.op, timeout,
                               rtipc__spin_setting(&self->notify_spin));
    if (value)
        *value = o.value;
    return rc;
}

int rtipc_notify_wait(unsigned index, uint32_t clear_on_entry, uint32_t clear_on_exit, uint32_t *value,
                      rtipc_timeout_t timeout)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!rtipc__notify_index_ok(index))
        return RTIPC_EINVAL;
    struct rtipc__task *self = rtipc__self();
    if (!self)
        return RTIPC_ENOMEM;
    /* Entry bits are cleared once, at entry, and only if nothing is pending
     * and the call may wait (FreeRTOS V11 clears them only when it is about
     * to block). */
    rtipc__lock(&self->lock);
    if (self->notify[index].state != RTIPC__NOTIFY_PENDING && !rtipc_timeout_is_no_wait(timeout))
        self->notify[index].value &= ~clear_on_entry;
    rtipc__unlock(&self->lock);
    notify_op_t o = {.op = {.attempt = attempt_wait}, .self = self, .index = index, .clear_on_exit = clear_on_exit};
    int rc = rtipc__block(&self->lock, &self->notify_waiters, &o.op, timeout,
                          rtipc__spin_setting(&self->notify_spin));
    if (value)
        *value = o.value;
    return rc;
}

static struct rtipc__task *resolve(rtipc_task_t *handle, int *rc)
{
    if (handle == NULL) {
        struct rtipc__task *self = rtipc__self();
        *rc = self ? RTIPC_OK : RTIPC_ENOMEM;
        return self;
    }
    struct rtipc__task *t = rtipc__task_live(handle);
    *rc = t ? RTIPC_OK : RTIPC_EINVAL;
    return t;
}

int rtipc_notify_state_clear(rtipc_task_t *task, unsigned index)
{
    /* Task-only (irq.h): a handler has no slots of its own, and resolving
     * NULL there would adopt the interrupt thread as a task. */
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    int rc;
    struct rtipc__task *t = resolve(task, &rc);
    if (!t)
        return rc;
    if (!rtipc__notify_index_ok(index))
        return RTIPC_EINVAL;
    rtipc__lock(&t->lock);
    int was = t->notify[index].state == RTIPC__NOTIFY_PENDING;
    if (was)
        t->notify[index].state = RTIPC__NOTIFY_IDLE;
    rtipc__unlock(&t->lock);
    return was;
}

int rtipc_notify_value_clear(rtipc_task_t *task, unsigned index, uint32_t bits, uint32_t *previous)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    int rc;
    struct rtipc__task *t = resolve(task, &rc);
    if (!t)
        return rc;
    if (!rtipc__notify_index_ok(index))
        return RTIPC_EINVAL;
    rtipc__lock(&t->lock);
    if (previous)
        *previous = t->notify[index].value;
    t->notify[index].value &= ~bits;
    rtipc__unlock(&t->lock);
    return RTIPC_OK;
}

int rtipc_notify_set_spin(rtipc_task_t *task, int64_t ns)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    int rc;
    struct rtipc__task *t = resolve(task, &rc);
    if (!t)
        return rc;
    return rtipc__spin_setting_set(&t->notify_spin, ns);
}
