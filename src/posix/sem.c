/* Semaphores on Linux: a count under the object lock and a priority-ordered
 * list of takers (wait.h). */
#include "rtipc/sem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "irq_internal.h"
#include "queueset_internal.h"
#include "rtipc/error.h"
#include "spin.h"
#include "task_internal.h"
#include "wait.h"

#define SEM_MAGIC 0x5345u /* "SE" */
#define SEM_DYNAMIC 0x1u

struct rtipc_sem {
    rtipc_lock_t lock;
    uint16_t magic;
    uint16_t flags;
    _Atomic uint32_t count;   /* written under lock, read anywhere */
    uint32_t max;
    rtipc_waitlist_t takers;  /* tasks waiting for a count */
    struct rtipc_queueset *set; /* the queue set it belongs to, or NULL */
    rtipc_spin_setting_t spin;  /* spin budget of its takers (spin.h) */
};

_Static_assert(sizeof(struct rtipc_sem) <= sizeof(rtipc_sem_static_t),
               "rtipc_sem_static_t must hold the semaphore");

static bool valid(const struct rtipc_sem *s) { return s != NULL && s->magic == SEM_MAGIC; }

static bool params_ok(unsigned max, unsigned initial) { return max > 0 && max <= INT32_MAX && initial <= max; }

static void init(struct rtipc_sem *s, unsigned max, unsigned initial, uint16_t flags)
{
    memset(s, 0, sizeof *s);
    s->max = max;
    atomic_store_explicit(&s->count, initial, memory_order_relaxed);
    s->flags = flags;
    s->magic = SEM_MAGIC;
}

static int create(unsigned max, unsigned initial, rtipc_sem_t **out)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!out || !params_ok(max, initial))
        return RTIPC_EINVAL;
    struct rtipc_sem *s = malloc(sizeof *s);
    if (!s)
        return RTIPC_ENOMEM;
    init(s, max, initial, SEM_DYNAMIC);
    *out = s;
    return RTIPC_OK;
}

int rtipc_sem_create_binary(rtipc_sem_t **out) { return create(1, 0, out); }

int rtipc_sem_create_counting(unsigned max, unsigned initial, rtipc_sem_t **out)
{
    return create(max, initial, out);
}

int rtipc_sem_create_static(unsigned max, unsigned initial, rtipc_sem_static_t *cb, rtipc_sem_t **out)
{
    if (!out || !cb || !params_ok(max, initial))
        return RTIPC_EINVAL;
    struct rtipc_sem *s = (struct rtipc_sem *)(void *)cb;
    init(s, max, initial, 0);
    *out = s;
    return RTIPC_OK;
}

int rtipc_sem_delete(rtipc_sem_t *s)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!valid(s))
        return RTIPC_EINVAL;
    rtipc_lock(&s->lock);
    if (!rtipc__waitlist_empty(&s->takers) || s->set) {
        rtipc_unlock(&s->lock);
        return RTIPC_EBUSY;
    }
    s->magic = 0;
    rtipc_unlock(&s->lock);
    if (s->flags & SEM_DYNAMIC)
        free(s);
    return RTIPC_OK;
}

int rtipc_sem_give(rtipc_sem_t *s)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!valid(s))
        return RTIPC_EINVAL;
    rtipc_lock(&s->lock);
    uint32_t count = atomic_load_explicit(&s->count, memory_order_relaxed);
    if (count == s->max) {
        rtipc_unlock(&s->lock);
        return RTIPC_EOVERFLOW;
    }
    atomic_store_explicit(&s->count, count + 1, memory_order_relaxed);
    if (s->set)
        rtipc__queueset_post(s->set, s, NULL);
    struct rtipc__task *wake = rtipc__waitlist_wake_one(&s->takers);
    rtipc_unlock(&s->lock);
    if (wake)
        rtipc__wake_from_task(wake);
    return RTIPC_OK;
}

typedef struct {
    rtipc_op_t op; /* first: the blocking loop hands us back this pointer */
    struct rtipc_sem *s;
} sem_op_t;

static int attempt_take(rtipc_op_t *op)
{
    struct rtipc_sem *s = ((sem_op_t *)op)->s;
    uint32_t count = atomic_load_explicit(&s->count, memory_order_relaxed);
    if (count == 0)
        return RTIPC_EWOULDBLOCK;
    atomic_store_explicit(&s->count, count - 1, memory_order_relaxed);
    return RTIPC_OK;
}

int rtipc_sem_take(rtipc_sem_t *s, rtipc_timeout_t timeout)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!valid(s))
        return RTIPC_EINVAL;
    sem_op_t o = {.op = {.attempt = attempt_take}, .s = s};
    return rtipc__block(&s->lock, &s->takers, &o.op, timeout, rtipc__spin_setting(&s->spin));
}

int rtipc_sem_set_spin(rtipc_sem_t *s, int64_t ns)
{
    if (!valid(s))
        return RTIPC_EINVAL;
    return rtipc__spin_setting_set(&s->spin, ns);
}

int rtipc_sem_give_from_isr(rtipc_sem_t *s, bool *woken)
{
    if (!valid(s))
        return RTIPC_EINVAL;
    rtipc_isr_wake_t wake = {NULL, false};
    int rc = RTIPC_OK;
    rtipc_lock(&s->lock);
    uint32_t count = atomic_load_explicit(&s->count, memory_order_relaxed);
    if (count == s->max) {
        rc = RTIPC_EOVERFLOW;
    } else {
        atomic_store_explicit(&s->count, count + 1, memory_order_relaxed);
        if (s->set)
            rtipc__queueset_post(s->set, s, woken);
        wake = rtipc__isr_wake_one(&s->takers);
    }
    rtipc_unlock(&s->lock);
    rtipc__isr_release(wake, woken);
    return rc;
}

int rtipc_sem_take_from_isr(rtipc_sem_t *s, bool *woken)
{
    (void)woken; /* a take frees nothing a task could wait for */
    if (!valid(s))
        return RTIPC_EINVAL;
    sem_op_t o = {.op = {.attempt = attempt_take}, .s = s};
    rtipc_lock(&s->lock);
    int rc = attempt_take(&o.op);
    rtipc_unlock(&s->lock);
    return rc;
}

/* ---- queue-set membership (queueset.c) -------------------------------- */
int rtipc__sem_attach_set(void *member, struct rtipc_queueset *set, uint32_t *capacity)
{
    struct rtipc_sem *s = member;
    if (!valid(s))
        return RTIPC_EINVAL;
    rtipc_lock(&s->lock);
    int rc = s->set || atomic_load_explicit(&s->count, memory_order_relaxed) != 0 ? RTIPC_EBUSY : RTIPC_OK;
    if (rc == RTIPC_OK) {
        s->set = set;
        *capacity = s->max;
    }
    rtipc_unlock(&s->lock);
    return rc;
}

int rtipc__sem_detach_set(void *member, struct rtipc_queueset *set, uint32_t *capacity)
{
    struct rtipc_sem *s = member;
    if (!valid(s))
        return RTIPC_EINVAL;
    rtipc_lock(&s->lock);
    int rc = s->set != set                                               ? RTIPC_EINVAL
             : atomic_load_explicit(&s->count, memory_order_relaxed) != 0 ? RTIPC_EBUSY
                                                                           : RTIPC_OK;
    if (rc == RTIPC_OK) {
        s->set = NULL;
        *capacity = s->max;
    }
    rtipc_unlock(&s->lock);
    return rc;
}

int rtipc_sem_count(const rtipc_sem_t *s)
{
    return valid(s) ? (int)atomic_load_explicit(&s->count, memory_order_relaxed) : RTIPC_EINVAL;
}

int rtipc_sem_max(const rtipc_sem_t *s) { return valid(s) ? (int)s->max : RTIPC_EINVAL; }

size_t rtipc_sem_footprint(const rtipc_sem_t *s)
{
    if (s != NULL && !valid(s))
        return 0;
    return sizeof(struct rtipc_sem);
}
