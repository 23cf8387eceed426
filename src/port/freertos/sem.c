/* Semaphores on FreeRTOS: binary (xSemaphoreCreateBinaryStatic) and counting
 * (xSemaphoreCreateCountingStatic) kernel semaphores inside rtipc's wrapper. */
#include <string.h>

#include "port_internal.h"
#include "rtipc/sem.h"
#include "../../common/checks.h"

struct rtipc_sem {
    struct rtipc__fr_qhead h; /* first: kernel handle <-> wrapper */
    uint32_t max;
};

_Static_assert(sizeof(struct rtipc_sem) <= sizeof(rtipc_sem_static_t),
               "rtipc_sem_static_t holds the FreeRTOS semaphore wrapper (raise RTIPC_SEM_STATIC_SIZE)");
_Static_assert(_Alignof(struct rtipc_sem) <= _Alignof(rtipc_sem_static_t), "static block alignment");

static bool live(const rtipc_sem_t *s) { return s != NULL && s->h.magic == RTIPC__FR_SEM_MAGIC; }
static SemaphoreHandle_t ks(rtipc_sem_t *s) { return rtipc__fr_qhandle(&s->h); }

static bool shape_ok(unsigned max, unsigned initial) { return rtipc__sem_counts_ok(max, initial); }

static void init(struct rtipc_sem *s, unsigned max, unsigned initial, uint32_t flags)
{
    memset(s, 0, sizeof *s);
    s->h.flags = flags;
    s->h.spin = RTIPC_SPIN_DEFAULT;
    s->max = max;
    if (max == 1 && initial == 0)
        (void)xSemaphoreCreateBinaryStatic(&s->h.cb);
    else
        (void)xSemaphoreCreateCountingStatic(max, initial, &s->h.cb);
    s->h.magic = RTIPC__FR_SEM_MAGIC;
}

static int create(unsigned max, unsigned initial, rtipc_sem_t **out)
{
    if (rtipc__fr_in_isr())
        return RTIPC_ECONTEXT;
    if (!out || !shape_ok(max, initial))
        return RTIPC_EINVAL;
    struct rtipc_sem *s = pvPortMalloc(sizeof *s);
    if (!s)
        return RTIPC_ENOMEM;
    init(s, max, initial, RTIPC__FR_DYNAMIC);
    *out = s;
    return RTIPC_OK;
}

int rtipc_sem_create_binary(rtipc_sem_t **out) { return create(1, 0, out); }

int rtipc_sem_create_counting(unsigned max, unsigned initial, rtipc_sem_t **out) { return create(max, initial, out); }

int rtipc_sem_create_static(unsigned max, unsigned initial, rtipc_sem_static_t *cb, rtipc_sem_t **out)
{
    /* The kernel's creation enters a task-level critical section: not from
     * a handler on FreeRTOS (docs/porting.md). */
    if (rtipc__fr_in_isr())
        return RTIPC_ECONTEXT;
    if (!out || !cb || !shape_ok(max, initial))
        return RTIPC_EINVAL;
    struct rtipc_sem *s = (struct rtipc_sem *)(void *)cb;
    init(s, max, initial, 0);
    *out = s;
    return RTIPC_OK;
}

int rtipc_sem_delete(rtipc_sem_t *s)
{
    if (rtipc__fr_in_isr())
        return RTIPC_ECONTEXT;
    if (!live(s))
        return RTIPC_EINVAL;
    if (s->h.waiters != 0 || s->h.set != NULL)
        return RTIPC_EBUSY;
    s->h.magic = 0;
    vSemaphoreDelete(ks(s));
    if (s->h.flags & RTIPC__FR_DYNAMIC)
        vPortFree(s);
    return RTIPC_OK;
}

int rtipc_sem_give(rtipc_sem_t *s)
{
    if (rtipc__fr_in_isr())
        return RTIPC_ECONTEXT;
    if (!live(s))
        return RTIPC_EINVAL;
    return xSemaphoreGive(ks(s)) == pdPASS ? RTIPC_OK : RTIPC_EOVERFLOW;
}

int rtipc_sem_take(rtipc_sem_t *s, rtipc_timeout_t timeout)
{
    if (rtipc__fr_in_isr())
        return RTIPC_ECONTEXT;
    if (!live(s))
        return RTIPC_EINVAL;
    TickType_t ticks = rtipc__fr_ticks(timeout);
    if (ticks != 0)
        rtipc__fr_waiter_add(&s->h.waiters, 1);
    BaseType_t ok = xSemaphoreTake(ks(s), ticks);
    if (ticks != 0)
        rtipc__fr_waiter_add(&s->h.waiters, -1);
    return ok == pdPASS ? RTIPC_OK : rtipc__fr_fail(timeout);
}

int rtipc_sem_give_from_isr(rtipc_sem_t *s, bool *woken)
{
    if (!live(s))
        return RTIPC_EINVAL;
    BaseType_t hp = pdFALSE;
    BaseType_t ok = xSemaphoreGiveFromISR(ks(s), &hp);
    rtipc__fr_woken(hp, woken);
    return ok == pdPASS ? RTIPC_OK : RTIPC_EOVERFLOW;
}

int rtipc_sem_take_from_isr(rtipc_sem_t *s, bool *woken)
{
    if (!live(s))
        return RTIPC_EINVAL;
    BaseType_t hp = pdFALSE;
    BaseType_t ok = xSemaphoreTakeFromISR(ks(s), &hp);
    rtipc__fr_woken(hp, woken);
    return ok == pdPASS ? RTIPC_OK : RTIPC_EWOULDBLOCK;
}

int rtipc_sem_count(const rtipc_sem_t *s)
{
    if (!live(s))
        return RTIPC_EINVAL;
    return (int)uxSemaphoreGetCountFromISR(rtipc__fr_qhandle((struct rtipc__fr_qhead *)&s->h));
}

int rtipc_sem_max(const rtipc_sem_t *s) { return live(s) ? (int)s->max : RTIPC_EINVAL; }

size_t rtipc_sem_footprint(const rtipc_sem_t *s) { return s == NULL || live(s) ? sizeof(struct rtipc_sem) : 0; }

int rtipc_sem_set_spin(rtipc_sem_t *s, int64_t ns)
{
    if (!live(s) || !rtipc__fr_spin_ok(ns))
        return RTIPC_EINVAL;
    s->h.spin = ns;
    return RTIPC_OK;
}

/* For the queue set (queueset.c). */
uint32_t rtipc__fr_sem_max(const rtipc_sem_t *s);
uint32_t rtipc__fr_sem_max(const rtipc_sem_t *s) { return s->max; }
