/* Semaphores on Linux: a count under the object lock and a priority-ordered
 * list of takers (wait.h). */
#include "rtipc/sem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "common/create.h"
#include "common/handle.h"
#include "port/posix/kernel/kernel.h"
#include "queueset_internal.h"
#include "rtipc/error.h"

#define SEM_DYNAMIC 0x1u

struct rtipc__sem {
    rtipc__lock_t lock;
    unsigned slot : RTIPC__HANDLE_SLOT_BITS; /* its handle's slot (src/common/handle.h) */
    unsigned flags : 8;
    _Atomic uint32_t count;      /* written under lock, read anywhere */
    uint32_t max;
    rtipc__waitlist_t takers;     /* tasks waiting for a count */
    struct rtipc__queueset *set; /* the queue set it belongs to, or NULL */
    rtipc__spin_setting_t spin;   /* spin budget of its takers (spin.h) */
};

_Static_assert(sizeof(struct rtipc__sem) <= sizeof(rtipc_sem_static_t),
               "rtipc_sem_static_t must hold the semaphore");

/* The semaphore a handle names, or NULL (src/common/handle.h). */
static struct rtipc__sem *get(const rtipc_sem_t *handle) { return rtipc__handle_get(handle, RTIPC__H_SEM); }

static bool params_ok(unsigned max, unsigned initial) { return rtipc__sem_counts_ok(max, initial); }

/* Initialise s and open its handle; false when the handle table is full. */
static bool init(struct rtipc__sem *s, unsigned max, unsigned initial, unsigned flags, rtipc_sem_t **out)
{
    memset(s, 0, sizeof *s);
    s->max = max;
    atomic_store_explicit(&s->count, initial, memory_order_relaxed);
    s->flags = flags;
    uintptr_t h = rtipc__handle_open(s, RTIPC__H_SEM);
    if (h == 0)
        return false;
    s->slot = rtipc__handle_index(h); /* for set membership, which needs *out first */
    *out = (rtipc_sem_t *)h;
    return true;
}

static int create(unsigned max, unsigned initial, rtipc_sem_t **out)
{
    int rc;
    struct rtipc__sem *s = RTIPC__CREATE_ALLOC(out && params_ok(max, initial), struct rtipc__sem, 0, &rc);
    if (s && !init(s, max, initial, SEM_DYNAMIC, out)) {
        free(s);
        rc = RTIPC_ENOMEM;
    }
    return rc;
}

/* Tell s's set of one more count: its event is s's handle. Under s's lock. */
static void post(struct rtipc__sem *s, bool *woken) { rtipc__queueset_post(s->set, rtipc__handle_at(s->slot), woken); }

int rtipc_sem_create_binary(rtipc_sem_t **out) { return create(1, 0, out); }

int rtipc_sem_create_counting(unsigned max, unsigned initial, rtipc_sem_t **out)
{
    return create(max, initial, out);
}

int rtipc_sem_create_static(unsigned max, unsigned initial, rtipc_sem_static_t *cb, rtipc_sem_t **out)
{
    if (!out || !cb || !params_ok(max, initial))
        return RTIPC_EINVAL;
    return init((struct rtipc__sem *)(void *)cb, max, initial, 0, out) ? RTIPC_OK : RTIPC_ENOMEM;
}

int rtipc_sem_delete(rtipc_sem_t *handle)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__sem *s = get(handle);
    if (!s)
        return RTIPC_EINVAL;
    rtipc__lock(&s->lock);
    if (!rtipc__waitlist_empty(&s->takers) || s->set) {
        rtipc__unlock(&s->lock);
        return RTIPC_EBUSY;
    }
    /* From here on the handle is refused, before the memory goes. */
    rtipc__handle_close((uintptr_t)handle);
    rtipc__unlock(&s->lock);
    if (s->flags & SEM_DYNAMIC)
        free(s);
    return RTIPC_OK;
}

int rtipc_sem_give(rtipc_sem_t *handle)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__sem *s = get(handle);
    if (!s)
        return RTIPC_EINVAL;
    rtipc__lock(&s->lock);
    uint32_t count = atomic_load_explicit(&s->count, memory_order_relaxed);
    if (count == s->max) {
        rtipc__unlock(&s->lock);
        return RTIPC_EOVERFLOW;
    }
    atomic_store_explicit(&s->count, count + 1, memory_order_relaxed);
    if (s->set)
        post(s, NULL);
    struct rtipc__task *wake = rtipc__waitlist_wake_one(&s->takers);
    rtipc__unlock(&s->lock);
    if (wake)
        rtipc__wake_from_task(wake);
    return RTIPC_OK;
}

typedef struct {
    rtipc__op_t op; /* first: the blocking loop hands us back this pointer */
    struct rtipc__sem *s;
} sem_op_t;

static int attempt_take(rtipc__op_t *op)
{
    struct rtipc__sem *s = ((sem_op_t *)op)->s;
    uint32_t count = atomic_load_explicit(&s->count, memory_order_relaxed);
    if (count == 0)
        return RTIPC_EWOULDBLOCK;
    atomic_store_explicit(&s->count, count - 1, memory_order_relaxed);
    return RTIPC_OK;
}

int rtipc_sem_take(rtipc_sem_t *handle, rtipc_timeout_t timeout)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__sem *s = get(handle);
    if (!s)
        return RTIPC_EINVAL;
    rtipc__lock(&s->lock);
    /* The common case in line: a count there (attempt_take's success). */
    uint32_t count = atomic_load_explicit(&s->count, memory_order_relaxed);
    if (count != 0) {
        atomic_store_explicit(&s->count, count - 1, memory_order_relaxed);
        rtipc__unlock(&s->lock);
        return RTIPC_OK;
    }
    sem_op_t o = {.op = {.attempt = attempt_take}, .s = s};
    return rtipc__block_held(&s->lock, &s->takers, &o.op, timeout, rtipc__spin_setting(&s->spin));
}

int rtipc_sem_set_spin(rtipc_sem_t *handle, int64_t ns)
{
    struct rtipc__sem *s = get(handle);
    if (!s)
        return RTIPC_EINVAL;
    return rtipc__spin_setting_set(&s->spin, ns);
}

int rtipc_sem_give_from_isr(rtipc_sem_t *handle, bool *woken)
{
    struct rtipc__sem *s = get(handle);
    if (!s)
        return RTIPC_EINVAL;
    rtipc__isr_wake_t wake = {NULL, false};
    int rc = RTIPC_OK;
    rtipc__lock(&s->lock);
    uint32_t count = atomic_load_explicit(&s->count, memory_order_relaxed);
    if (count == s->max) {
        rc = RTIPC_EOVERFLOW;
    } else {
        atomic_store_explicit(&s->count, count + 1, memory_order_relaxed);
        if (s->set)
            post(s, woken);
        wake = rtipc__isr_wake_one(&s->takers);
    }
    rtipc__unlock(&s->lock);
    rtipc__isr_release(wake, woken);
    return rc;
}

int rtipc_sem_take_from_isr(rtipc_sem_t *handle, bool *woken)
{
    (void)woken; /* a take frees nothing a task could wait for */
    struct rtipc__sem *s = get(handle);
    if (!s)
        return RTIPC_EINVAL;
    sem_op_t o = {.op = {.attempt = attempt_take}, .s = s};
    rtipc__lock(&s->lock);
    int rc = attempt_take(&o.op);
    rtipc__unlock(&s->lock);
    return rc;
}

/* ---- queue-set membership (queueset.c) -------------------------------- */
int rtipc__sem_attach_set(void *member, struct rtipc__queueset *set, uint32_t *capacity)
{
    struct rtipc__sem *s = get(member);
    if (!s)
        return RTIPC_EINVAL;
    rtipc__lock(&s->lock);
    int rc = s->set || atomic_load_explicit(&s->count, memory_order_relaxed) != 0 ? RTIPC_EBUSY : RTIPC_OK;
    if (rc == RTIPC_OK) {
        s->set = set;
        *capacity = s->max;
    }
    rtipc__unlock(&s->lock);
    return rc;
}

int rtipc__sem_detach_set(void *member, struct rtipc__queueset *set, uint32_t *capacity)
{
    struct rtipc__sem *s = get(member);
    if (!s)
        return RTIPC_EINVAL;
    rtipc__lock(&s->lock);
    int rc = s->set != set                                               ? RTIPC_EINVAL
             : atomic_load_explicit(&s->count, memory_order_relaxed) != 0 ? RTIPC_EBUSY
                                                                           : RTIPC_OK;
    if (rc == RTIPC_OK) {
        s->set = NULL;
        *capacity = s->max;
    }
    rtipc__unlock(&s->lock);
    return rc;
}

int rtipc_sem_count(const rtipc_sem_t *handle)
{
    struct rtipc__sem *s = get(handle);
    return s ? (int)atomic_load_explicit(&s->count, memory_order_relaxed) : RTIPC_EINVAL;
}

int rtipc_sem_max(const rtipc_sem_t *handle)
{
    struct rtipc__sem *s = get(handle);
    return s ? (int)s->max : RTIPC_EINVAL;
}

size_t rtipc_sem_footprint(const rtipc_sem_t *handle)
{
    if (handle != NULL && !get(handle))
        return 0;
    return sizeof(struct rtipc__sem);
}
