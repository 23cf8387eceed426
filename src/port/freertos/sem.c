/* Semaphores on FreeRTOS: binary (xSemaphoreCreateBinaryStatic) and counting
 * (xSemaphoreCreateCountingStatic) kernel semaphores inside rtipc's wrapper. */
#include <string.h>

#include "port_internal.h"
#include "rtipc/sem.h"
#include "common/checks.h"
#include "common/create.h"

struct rtipc__sem {
    struct rtipc__qhead h; /* first: kernel handle <-> wrapper */
    uint32_t max;
};

_Static_assert(sizeof(struct rtipc__sem) <= sizeof(rtipc_sem_static_t),
               "rtipc_sem_static_t holds the FreeRTOS semaphore wrapper (raise RTIPC_SEM_STATIC_SIZE)");
_Static_assert(_Alignof(struct rtipc__sem) <= _Alignof(rtipc_sem_static_t), "static block alignment");

static struct rtipc__sem *get(const rtipc_sem_t *handle) { return rtipc__handle_get(handle, RTIPC__H_SEM); }
static SemaphoreHandle_t ks(struct rtipc__sem *s) { return rtipc__qhandle(&s->h); }

static bool shape_ok(unsigned max, unsigned initial) { return rtipc__sem_counts_ok(max, initial); }

static int init(struct rtipc__sem *s, unsigned max, unsigned initial, uint32_t flags, rtipc_sem_t **out)
{
    memset(s, 0, sizeof *s);
    s->h.flags = flags;
    s->h.spin = RTIPC_SPIN_DEFAULT;
    s->max = max;
    if (max == 1 && initial == 0)
        (void)xSemaphoreCreateBinaryStatic(&s->h.cb);
    else
        (void)xSemaphoreCreateCountingStatic(max, initial, &s->h.cb);
    uintptr_t h = rtipc__open(s, RTIPC__H_SEM, &s->h.handle);
    if (h == 0) {
        vSemaphoreDelete(ks(s));
        return RTIPC_ENOMEM;
    }
    *out = (rtipc_sem_t *)h;
    return RTIPC_OK;
}

static int create(unsigned max, unsigned initial, rtipc_sem_t **out)
{
    int rc;
    struct rtipc__sem *s = RTIPC__CREATE_ALLOC(out && shape_ok(max, initial), struct rtipc__sem, 0, &rc);
    if (!s)
        return rc;
    rc = init(s, max, initial, RTIPC__DYNAMIC, out);
    if (rc != RTIPC_OK)
        rtipc__port_free(s, _Alignof(struct rtipc__sem));
    return rc;
}

int rtipc_sem_create_binary(rtipc_sem_t **out) { return create(1, 0, out); }

int rtipc_sem_create_counting(unsigned max, unsigned initial, rtipc_sem_t **out) { return create(max, initial, out); }

int rtipc_sem_create_static(unsigned max, unsigned initial, rtipc_sem_static_t *cb, rtipc_sem_t **out)
{
    /* The kernel's creation enters a task-level critical section: not from
     * a handler on FreeRTOS (docs/porting.md). */
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!out || !cb || !shape_ok(max, initial))
        return RTIPC_EINVAL;
    struct rtipc__sem *s = (struct rtipc__sem *)(void *)cb;
    return init(s, max, initial, 0, out);
}

int rtipc_sem_delete(rtipc_sem_t *handle)
{
    struct rtipc__sem *s = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!s)
        return RTIPC_EINVAL;
    if (rtipc__waited_on(&s->h.waiters) || s->h.set != NULL)
        return RTIPC_EBUSY;
    /* From here on the handle is refused, before the memory goes. */
    rtipc__handle_close((uintptr_t)handle);
    vSemaphoreDelete(ks(s));
    if (s->h.flags & RTIPC__DYNAMIC)
        rtipc__port_free(s, _Alignof(struct rtipc__sem));
    return RTIPC_OK;
}

int rtipc_sem_give(rtipc_sem_t *handle)
{
    struct rtipc__sem *s = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!s)
        return RTIPC_EINVAL;
    return xSemaphoreGive(ks(s)) == pdPASS ? RTIPC_OK : RTIPC_EOVERFLOW;
}

int rtipc_sem_take(rtipc_sem_t *handle, rtipc_timeout_t timeout)
{
    struct rtipc__sem *s = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!s)
        return RTIPC_EINVAL;
    /* A count there (by a lock-free read, a hint only): the kernel's take
     * without a wait, which is what the blocking take does first, with no
     * waiter to count. None: on to the blocking take, which looks again
     * under the kernel's lock. */
    if (uxQueueMessagesWaitingFromISR((QueueHandle_t)ks(s)) != 0 && xSemaphoreTake(ks(s), 0) == pdPASS)
        return RTIPC_OK;
    TickType_t ticks = rtipc__ticks(timeout);
    if (ticks == 0)
        return RTIPC_EWOULDBLOCK;
    struct rtipc__task *waiter = rtipc__wait_in(&s->h.waiters);
    /* Spin first where the rules allow (port_internal.h); counted among the
     * waiters, so the semaphore is not deleted under the spin. */
    TickType_t start = rtipc__spin_start();
    BaseType_t ok = rtipc__kq_spin(&s->h, NULL, false, ticks)
                        ? pdPASS
                        : xSemaphoreTake(ks(s), rtipc__ticks_left(ticks, start));
    rtipc__wait_out(waiter, &s->h.waiters);
    return ok == pdPASS ? RTIPC_OK : RTIPC_ETIMEDOUT;
}

int rtipc_sem_give_from_isr(rtipc_sem_t *handle, bool *woken)
{
    struct rtipc__sem *s = get(handle);
    if (!s)
        return RTIPC_EINVAL;
    BaseType_t hp = pdFALSE;
    BaseType_t ok = xSemaphoreGiveFromISR(ks(s), &hp);
    rtipc__woken(hp, woken);
    return ok == pdPASS ? RTIPC_OK : RTIPC_EOVERFLOW;
}

int rtipc_sem_take_from_isr(rtipc_sem_t *handle, bool *woken)
{
    struct rtipc__sem *s = get(handle);
    if (!s)
        return RTIPC_EINVAL;
    BaseType_t hp = pdFALSE;
    BaseType_t ok = xSemaphoreTakeFromISR(ks(s), &hp);
    rtipc__woken(hp, woken);
    return ok == pdPASS ? RTIPC_OK : RTIPC_EWOULDBLOCK;
}

int rtipc_sem_count(const rtipc_sem_t *handle)
{
    struct rtipc__sem *s = get(handle);
    if (!s)
        return RTIPC_EINVAL;
    return (int)uxSemaphoreGetCountFromISR(ks(s));
}

int rtipc_sem_max(const rtipc_sem_t *handle)
{
    struct rtipc__sem *s = get(handle);
    return s ? (int)s->max : RTIPC_EINVAL;
}

size_t rtipc_sem_footprint(const rtipc_sem_t *handle)
{
    return handle == NULL || get(handle) ? sizeof(struct rtipc__sem) : 0;
}

int rtipc_sem_set_spin(rtipc_sem_t *handle, int64_t ns)
{
    struct rtipc__sem *s = get(handle);
    if (!s || !rtipc__spin_ok(ns))
        return RTIPC_EINVAL;
    s->h.spin = ns;
    return RTIPC_OK;
}

struct rtipc__qhead *rtipc__sem_member(const void *handle, uint32_t *capacity)
{
    struct rtipc__sem *s = get(handle);
    if (!s)
        return NULL;
    *capacity = s->max;
    return &s->h;
}
