/* Queue sets: an rtipc queue of member handles plus the bookkeeping that
 * enforces FreeRTOS's sizing and membership rules. */
#include "rtipc/queueset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "common/create.h"
#include "common/handle.h"
#include "port/posix/kernel/kernel.h"
#include "queueset_internal.h"
#include "rtipc/error.h"

struct rtipc__queueset {
    rtipc__lock_t admin;          /* guards capacity_left and members */
    uint32_t length;
    uint32_t capacity_left;      /* length minus the members' capacities */
    uint32_t members;
    _Atomic uint32_t overflows;  /* events dropped: members read without select */
    rtipc_queue_t *events;       /* queue of member handles (void *) */
};

/* The set a handle names, or NULL (src/common/handle.h). */
static struct rtipc__queueset *get(const rtipc_queueset_t *handle)
{
    return rtipc__handle_get(handle, RTIPC__H_QUEUESET);
}

int rtipc_queueset_create(size_t length, rtipc_queueset_t **out)
{
    int rc;
    struct rtipc__queueset *set =
        RTIPC__CREATE_ALLOC(out && rtipc__queueset_length_ok(length), struct rtipc__queueset, 0, &rc);
    if (!set)
        return rc;
    memset(set, 0, sizeof *set);
    rc = rtipc_queue_create(length, sizeof(void *), &set->events);
    if (rc != RTIPC_OK) {
        free(set);
        return rc;
    }
    set->length = set->capacity_left = (uint32_t)length;
    uintptr_t h = rtipc__handle_open(set, RTIPC__H_QUEUESET);
    if (h == 0) {
        rtipc_queue_delete(set->events);
        free(set);
        return RTIPC_ENOMEM;
    }
    *out = (rtipc_queueset_t *)h;
    return RTIPC_OK;
}

int rtipc_queueset_delete(rtipc_queueset_t *handle)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__queueset *set = get(handle);
    if (!set)
        return RTIPC_EINVAL;
    rtipc__lock(&set->admin);
    bool busy = set->members > 0;
    rtipc__unlock(&set->admin);
    if (busy)
        return RTIPC_EBUSY;
    int rc = rtipc_queue_delete(set->events); /* RTIPC_EBUSY while tasks select */
    if (rc != RTIPC_OK)
        return rc;
    rtipc__handle_close((uintptr_t)handle);
    free(set);
    return RTIPC_OK;
}

typedef int (*link_fn)(void *member, struct rtipc__queueset *set, uint32_t *capacity);

/* How one member type joins and leaves a set. */
typedef struct {
    link_fn attach, detach;
} member_ops_t;

static const member_ops_t queue_ops = {rtipc__queue_attach_set, rtipc__queue_detach_set};
static const member_ops_t sem_ops = {rtipc__sem_attach_set, rtipc__sem_detach_set};
static const member_ops_t ringbuf_ops = {rtipc__ringbuf_attach_set, rtipc__ringbuf_detach_set};

static int add(rtipc_queueset_t *handle, void *member, const member_ops_t *ops)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__queueset *set = get(handle);
    if (!set || !member)
        return RTIPC_EINVAL;
    rtipc__lock(&set->admin);
    uint32_t capacity = 0;
    /* Attach first (the member checks itself under its own lock), then undo
     * if the set cannot cover the member's capacity. */
    int rc = ops->attach(member, set, &capacity);
    if (rc == RTIPC_OK && capacity > set->capacity_left) {
        ops->detach(member, set, &capacity); /* still empty: cannot fail */
        rc = RTIPC_EOVERFLOW;
    } else if (rc == RTIPC_OK) {
        set->capacity_left -= capacity;
        set->members++;
    }
    rtipc__unlock(&set->admin);
    return rc;
}

static int remove_member(rtipc_queueset_t *handle, void *member, const member_ops_t *ops)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__queueset *set = get(handle);
    if (!set || !member)
        return RTIPC_EINVAL;
    rtipc__lock(&set->admin);
    uint32_t capacity = 0;
    int rc = ops->detach(member, set, &capacity);
    if (rc == RTIPC_OK) {
        /* Events it left by reads without a select go with it: no select
         * names a member that left (it may be deleted next). Detached, it
         * posts no more, so its own lock is not needed. */
        rtipc__queueset_forget(set, member);
        set->capacity_left += capacity;
        set->members--;
    }
    rtipc__unlock(&set->admin);
    return rc;
}

int rtipc_queueset_add_queue(rtipc_queueset_t *set, rtipc_queue_t *q) { return add(set, q, &queue_ops); }

int rtipc_queueset_add_sem(rtipc_queueset_t *set, rtipc_sem_t *s) { return add(set, s, &sem_ops); }

int rtipc_queueset_remove_queue(rtipc_queueset_t *set, rtipc_queue_t *q)
{
    return remove_member(set, q, &queue_ops);
}

int rtipc_queueset_remove_sem(rtipc_queueset_t *set, rtipc_sem_t *s) { return remove_member(set, s, &sem_ops); }

int rtipc_queueset_add_ringbuf(rtipc_queueset_t *set, rtipc_ringbuf_t *rb) { return add(set, rb, &ringbuf_ops); }

int rtipc_queueset_remove_ringbuf(rtipc_queueset_t *set, rtipc_ringbuf_t *rb)
{
    return remove_member(set, rb, &ringbuf_ops);
}

void rtipc__queueset_post(struct rtipc__queueset *set, void *member, bool *woken)
{
    /* The interrupt-safe send never blocks and, outside a handler, releases
     * a selecting task at once. The sizing rule guarantees room unless
     * members were read without select; then the event is dropped (the item
     * itself stays in its member) and counted, never silently. */
    if (rtipc_queue_send_from_isr(set->events, &member, woken) != RTIPC_OK)
        atomic_fetch_add_explicit(&set->overflows, 1, memory_order_relaxed);
}

void rtipc__queueset_forget(struct rtipc__queueset *set, void *member)
{
    rtipc__queue_drop_items(set->events, &member);
}

int64_t rtipc_queueset_overflows(const rtipc_queueset_t *handle)
{
    struct rtipc__queueset *set = get(handle);
    return set ? (int64_t)atomic_load_explicit(&set->overflows, memory_order_relaxed) : RTIPC_EINVAL;
}

int rtipc_queueset_select(rtipc_queueset_t *handle, void **member, rtipc_timeout_t timeout)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__queueset *set = get(handle);
    if (!set || !member)
        return RTIPC_EINVAL;
    return rtipc_queue_receive(set->events, member, timeout);
}

int rtipc_queueset_set_spin(rtipc_queueset_t *handle, int64_t ns)
{
    struct rtipc__queueset *set = get(handle);
    if (!set)
        return RTIPC_EINVAL;
    /* Select waits on the set's queue of handles: its budget is the set's. */
    return rtipc_queue_set_spin(set->events, ns);
}

int rtipc_queueset_select_from_isr(rtipc_queueset_t *handle, void **member)
{
    struct rtipc__queueset *set = get(handle);
    if (!set || !member)
        return RTIPC_EINVAL;
    return rtipc_queue_receive_from_isr(set->events, member, NULL);
}

size_t rtipc_queueset_footprint(const rtipc_queueset_t *handle)
{
    struct rtipc__queueset *set = get(handle);
    if (!set)
        return 0;
    return sizeof *set + rtipc_queue_footprint(set->events);
}
