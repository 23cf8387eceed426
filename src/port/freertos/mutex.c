/* Mutexes on FreeRTOS: kernel mutexes (xSemaphoreCreateMutexStatic,
 * xSemaphoreCreateRecursiveMutexStatic). The holder and priority inheritance
 * are the kernel's. */
#include <string.h>

#include "port_internal.h"
#include "rtipc/mutex.h"
#include "common/create.h"

struct rtipc__mutex {
    struct rtipc__qhead h;
    bool recursive;
};

_Static_assert(sizeof(struct rtipc__mutex) <= sizeof(rtipc_mutex_static_t),
               "rtipc_mutex_static_t holds the FreeRTOS mutex wrapper (raise RTIPC_MUTEX_STATIC_SIZE)");
_Static_assert(_Alignof(struct rtipc__mutex) <= _Alignof(rtipc_mutex_static_t), "static block alignment");

static struct rtipc__mutex *get(const rtipc_mutex_t *handle) { return rtipc__handle_get(handle, RTIPC__H_MUTEX); }
static SemaphoreHandle_t km(struct rtipc__mutex *m) { return rtipc__qhandle(&m->h); }

static int init(struct rtipc__mutex *m, bool recursive, uint32_t flags, rtipc_mutex_t **out)
{
    memset(m, 0, sizeof *m);
    m->h.flags = flags;
    m->h.spin = RTIPC_SPIN_DEFAULT;
    m->recursive = recursive;
    if (recursive)
        (void)xSemaphoreCreateRecursiveMutexStatic(&m->h.cb);
    else
        (void)xSemaphoreCreateMutexStatic(&m->h.cb);
    uintptr_t h = rtipc__open(m, RTIPC__H_MUTEX, &m->h.handle);
    if (h == 0) {
        vSemaphoreDelete(km(m));
        return RTIPC_ENOMEM;
    }
    *out = (rtipc_mutex_t *)h;
    return RTIPC_OK;
}

int rtipc_mutex_create(bool recursive, rtipc_mutex_t **out)
{
    int rc;
    struct rtipc__mutex *m = RTIPC__CREATE_ALLOC(out != NULL, struct rtipc__mutex, 0, &rc);
    if (!m)
        return rc;
    rc = init(m, recursive, RTIPC__DYNAMIC, out);
    if (rc != RTIPC_OK)
        rtipc__port_free(m, _Alignof(struct rtipc__mutex));
    return rc;
}

int rtipc_mutex_create_static(bool recursive, rtipc_mutex_static_t *cb, rtipc_mutex_t **out)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!out || !cb)
        return RTIPC_EINVAL;
    struct rtipc__mutex *m = (struct rtipc__mutex *)(void *)cb;
    return init(m, recursive, 0, out);
}

int rtipc_mutex_delete(rtipc_mutex_t *handle)
{
    struct rtipc__mutex *m = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!m)
        return RTIPC_EINVAL;
    if (rtipc__waited_on(&m->h.waiters) || xSemaphoreGetMutexHolder(km(m)) != NULL)
        return RTIPC_EBUSY;
    /* From here on the handle is refused, before the memory goes. */
    rtipc__handle_close((uintptr_t)handle);
    vSemaphoreDelete(km(m));
    if (m->h.flags & RTIPC__DYNAMIC)
        rtipc__port_free(m, _Alignof(struct rtipc__mutex));
    return RTIPC_OK;
}

/* Whether the calling task holds @p m, read without the kernel's lock: exact
 * for this question on any number of cores, since only the holder changes
 * a held mutex's holder, and no other task can make it the caller. */
static bool held_by_caller(struct rtipc__mutex *m)
{
    return xSemaphoreGetMutexHolderFromISR(km(m)) == xTaskGetCurrentTaskHandle();
}

static BaseType_t take(struct rtipc__mutex *m, TickType_t ticks)
{
    return m->recursive ? xSemaphoreTakeRecursive(km(m), ticks) : xSemaphoreTake(km(m), ticks);
}

int rtipc_mutex_lock(rtipc_mutex_t *handle, rtipc_timeout_t timeout)
{
    struct rtipc__mutex *m = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!m)
        return RTIPC_EINVAL;
    /* The holder is reported through the caller's descriptor: adopt it now. */
    if (!rtipc__self())
        return RTIPC_ENOMEM;
    /* Free (or a recursive mutex the caller holds): the kernel's take
     * without a wait, nothing to check or count. A mutex the caller holds
     * is never free, so the deadlock is found below, before any wait. */
    if (take(m, 0) == pdPASS)
        return RTIPC_OK;
    if (!m->recursive && held_by_caller(m))
        return RTIPC_EDEADLOCK;
    TickType_t ticks = rtipc__ticks(timeout);
    if (ticks == 0)
        return RTIPC_EWOULDBLOCK;
    struct rtipc__task *waiter = rtipc__wait_in(&m->h.waiters);
    BaseType_t ok = take(m, ticks);
    rtipc__wait_out(waiter, &m->h.waiters);
    return ok == pdPASS ? RTIPC_OK : rtipc__fail(timeout);
}

int rtipc_mutex_unlock(rtipc_mutex_t *handle)
{
    struct rtipc__mutex *m = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!m)
        return RTIPC_EINVAL;
    /* The kernel's recursive give refuses a caller that does not hold the
     * mutex; its plain give would assert instead, so that one is checked. */
    if (m->recursive)
        return xSemaphoreGiveRecursive(km(m)) == pdPASS ? RTIPC_OK : RTIPC_EPERM;
    if (!held_by_caller(m))
        return RTIPC_EPERM;
    return xSemaphoreGive(km(m)) == pdPASS ? RTIPC_OK : RTIPC_EPERM;
}

rtipc_task_t *rtipc_mutex_holder(const rtipc_mutex_t *handle)
{
    struct rtipc__mutex *m = get(handle);
    if (!m)
        return NULL;
    TaskHandle_t h = rtipc__in_isr() ? xSemaphoreGetMutexHolderFromISR(km(m)) : xSemaphoreGetMutexHolder(km(m));
    /* Looked up among live descriptors: the holder may have been deleted. */
    return h ? rtipc__task_id(rtipc__task_find(h)) : NULL;
}

size_t rtipc_mutex_footprint(const rtipc_mutex_t *handle)
{
    return handle == NULL || get(handle) ? sizeof(struct rtipc__mutex) : 0;
}

int rtipc_mutex_set_spin(rtipc_mutex_t *handle, int64_t ns)
{
    struct rtipc__mutex *m = get(handle);
    if (!m || !rtipc__spin_ok(ns))
        return RTIPC_EINVAL;
    m->h.spin = ns;
    return RTIPC_OK;
}
