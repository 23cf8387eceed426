/* Task notifications on FreeRTOS: rtipc slot i is the kernel's notification
 * index i (the Indexed APIs); index configTASK_NOTIFICATION_ARRAY_ENTRIES-1
 * is rtipc's own (RTIPC__PARK_INDEX). */
#include "port_internal.h"
#include "rtipc/notify.h"
#include "common/checks.h"


static eNotifyAction kernel_action(rtipc_notify_action_t a)
{
    switch (a) {
    case RTIPC_NOTIFY_SET_BITS:
        return eSetBits;
    case RTIPC_NOTIFY_INCREMENT:
        return eIncrement;
    case RTIPC_NOTIFY_OVERWRITE:
        return eSetValueWithOverwrite;
    case RTIPC_NOTIFY_NO_OVERWRITE:
        return eSetValueWithoutOverwrite;
    case RTIPC_NOTIFY_NO_ACTION:
    default:
        return eNoAction;
    }
}

int rtipc_notify(rtipc_task_t *handle, unsigned index, uint32_t arg, rtipc_notify_action_t action,
                 uint32_t *previous)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__task *task = rtipc__task_live(handle);
    if (!task || !rtipc__notify_index_ok(index) || !rtipc__notify_action_ok(action))
        return RTIPC_EINVAL;
    uint32_t prev = 0;
    rtipc__note_waker(task); /* the same-core rule of its next spin */
    BaseType_t ok = xTaskNotifyAndQueryIndexed(task->handle, index, arg, kernel_action(action), &prev);
    if (previous)
        *previous = prev;
    return ok == pdPASS ? RTIPC_OK : RTIPC_EPENDING;
}

int rtipc_notify_give(rtipc_task_t *handle, unsigned index)
{
    /* rtipc_notify with RTIPC_NOTIFY_INCREMENT, through the kernel's own
     * give (the same action, nothing to query). */
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__task *task = rtipc__task_live(handle);
    if (!task || !rtipc__notify_index_ok(index))
        return RTIPC_EINVAL;
    rtipc__note_waker(task);
    (void)xTaskNotifyGiveIndexed(task->handle, index); /* an increment always succeeds */
    return RTIPC_OK;
}

int rtipc_notify_from_isr(rtipc_task_t *handle, unsigned index, uint32_t arg, rtipc_notify_action_t action,
                          uint32_t *previous, bool *woken)
{
    struct rtipc__task *task = rtipc__task_live(handle);
    if (!task || !rtipc__notify_index_ok(index) || !rtipc__notify_action_ok(action))
        return RTIPC_EINVAL;
    uint32_t prev = 0;
    BaseType_t hp = pdFALSE;
    BaseType_t ok = xTaskNotifyAndQueryIndexedFromISR(task->handle, index, arg, kernel_action(action), &prev, &hp);
    rtipc__woken(hp, woken);
    if (previous)
        *previous = prev;
    return ok == pdPASS ? RTIPC_OK : RTIPC_EPENDING;
}

int rtipc_notify_give_from_isr(rtipc_task_t *handle, unsigned index, bool *woken)
{
    /* rtipc_notify_from_isr with RTIPC_NOTIFY_INCREMENT, through the
     * kernel's own give from a handler (the same action, nothing to query:
     * the generic notify's value and previous-value work is skipped). */
    struct rtipc__task *task = rtipc__task_live(handle);
    if (!task || !rtipc__notify_index_ok(index))
        return RTIPC_EINVAL;
    BaseType_t hp = pdFALSE;
    vTaskNotifyGiveIndexedFromISR(task->handle, index, &hp); /* an increment always succeeds */
    rtipc__woken(hp, woken);
    return RTIPC_OK;
}

/* The spins' polls: the kernel's own call with no timeout. It takes the
 * kernel's critical section, so the spin leaves NOTIFY_POLL_GAP relax loops
 * between two polls for the waker on the other core to get it. */
#define NOTIFY_POLL_GAP 64

typedef struct {
    unsigned index;
    BaseType_t clear;
    uint32_t clear_on_exit;
    uint32_t value;
} notify_poll_t;

static bool took(void *arg)
{
    notify_poll_t *p = arg;
    p->value = ulTaskNotifyTakeIndexed(p->index, p->clear, 0);
    return p->value != 0;
}

static bool waited(void *arg)
{
    notify_poll_t *p = arg;
    return xTaskNotifyWaitIndexed(p->index, 0, p->clear_on_exit, &p->value, 0) == pdTRUE;
}

int rtipc_notify_take(unsigned index, bool clear, uint32_t *value, rtipc_timeout_t timeout)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!rtipc__notify_index_ok(index))
        return RTIPC_EINVAL;
    BaseType_t clr = clear ? pdTRUE : pdFALSE;
#if RTIPC__SPINS
    /* Where waits spin, a value already there is taken by the kernel's call
     * without a wait before anything else: adopting the caller and reading
     * the tick cost a multicore kernel more than that look. (On one core
     * the blocking call below looks first itself: a separate look would only
     * add a failed call to every wait that blocks.) */
    uint32_t first = ulTaskNotifyTakeIndexed(index, clr, 0);
    if (first != 0) {
        if (value)
            *value = first;
        return RTIPC_OK;
    }
#endif
    /* The descriptor serves the spin and its counters only: a kernel that
     * never spins takes without it (and without adopting the caller). */
    struct rtipc__task *self = NULL;
    if (RTIPC__SPINS && !(self = rtipc__self()))
        return RTIPC_ENOMEM;
    /* ulTaskNotifyTake returns 0 when woken by a notification that left the
     * value 0; rtipc keeps waiting until its timeout (notify.h). */
    TickType_t ticks = rtipc__ticks(timeout);
    bool timed = ticks != 0 && ticks != portMAX_DELAY; /* only then is the time spent counted */
    TickType_t start = timed || RTIPC__SPINS ? xTaskGetTickCount() : 0;
    if (RTIPC__SPINS && ticks != 0) {
        /* Spin where the rules allow (port_internal.h), on the task's own
         * budget; the first look above found nothing. */
        notify_poll_t poll = {index, clr, 0, 0};
        if (rtipc__spin_wait(self, self->notify_spin, ticks, took, &poll, NOTIFY_POLL_GAP)) {
            if (value)
                *value = poll.value;
            return RTIPC_OK;
        }
    }
    for (;;) {
        TickType_t left = ticks;
        if (timed) {
            TickType_t spent = xTaskGetTickCount() - start;
            left = spent >= ticks ? 0 : ticks - spent;
        }
        if (left != 0)
            rtipc__stat_bump(self, RTIPC__STAT_SLEEPS);
        uint32_t v = ulTaskNotifyTakeIndexed(index, clr, left);
        if (v != 0) {
            if (value)
                *value = v;
            return RTIPC_OK;
        }
        if (left == 0) {
            if (value)
                *value = 0; /* the value it found, as the Linux port reports */
            return rtipc__fail(timeout);
        }
    }
}

int rtipc_notify_wait(unsigned index, uint32_t clear_on_entry, uint32_t clear_on_exit, uint32_t *value,
                      rtipc_timeout_t timeout)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!rtipc__notify_index_ok(index))
        return RTIPC_EINVAL;
    struct rtipc__task *self = rtipc__self();
    if (!self)
        return RTIPC_ENOMEM;
    uint32_t v = 0;
    BaseType_t ok;
    if (rtipc_timeout_is_no_wait(timeout)) {
        /* V11 clears the entry bits only when the call may block; kernels
         * before it clear them with timeout 0 too. Passing none gives every
         * kernel V11's behaviour (notify.h). */
        ok = xTaskNotifyWaitIndexed(index, 0, clear_on_exit, &v, 0);
    } else {
        TickType_t ticks = rtipc__ticks(timeout), start = rtipc__spin_start();
        /* Spin where the rules allow, but only without entry bits: the
         * kernel clears those when the call must wait, which a spin of
         * no-wait looks would move to its end. */
        notify_poll_t poll = {index, pdFALSE, clear_on_exit, 0};
        if (RTIPC__SPINS && clear_on_entry == 0 &&
            (waited(&poll) || rtipc__spin_wait(self, self->notify_spin, ticks, waited, &poll, NOTIFY_POLL_GAP))) {
            v = poll.value;
            ok = pdTRUE;
        } else {
            ticks = rtipc__ticks_left(ticks, start);
            rtipc__stat_bump(self, RTIPC__STAT_SLEEPS);
            ok = xTaskNotifyWaitIndexed(index, clear_on_entry, clear_on_exit, &v, ticks);
        }
    }
    if (value)
        *value = v;
    return ok == pdTRUE ? RTIPC_OK : rtipc__fail(timeout);
}

/* NULL names the caller (adopted now if need be); any other value must be a
 * running task's handle. */
static int resolve(rtipc_task_t *handle, struct rtipc__task **task)
{
    if (!handle) {
        *task = rtipc__self();
        return *task ? RTIPC_OK : RTIPC_ENOMEM;
    }
    *task = rtipc__task_live(handle);
    return *task ? RTIPC_OK : RTIPC_EINVAL;
}

int rtipc_notify_state_clear(rtipc_task_t *handle, unsigned index)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__task *task;
    int rc = resolve(handle, &task);
    if (rc != RTIPC_OK)
        return rc;
    if (!rtipc__notify_index_ok(index))
        return RTIPC_EINVAL;
    return xTaskNotifyStateClearIndexed(task->handle, index) == pdTRUE ? 1 : 0;
}

int rtipc_notify_value_clear(rtipc_task_t *handle, unsigned index, uint32_t bits, uint32_t *previous)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__task *task;
    int rc = resolve(handle, &task);
    if (rc != RTIPC_OK)
        return rc;
    if (!rtipc__notify_index_ok(index))
        return RTIPC_EINVAL;
    uint32_t prev = ulTaskNotifyValueClearIndexed(task->handle, index, bits);
    if (previous)
        *previous = prev;
    return RTIPC_OK;
}

int rtipc_notify_set_spin(rtipc_task_t *handle, int64_t ns)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__task *task;
    int rc = resolve(handle, &task);
    if (rc != RTIPC_OK)
        return rc;
    if (!rtipc__spin_ok(ns))
        return RTIPC_EINVAL;
    task->notify_spin = ns;
    return RTIPC_OK;
}
