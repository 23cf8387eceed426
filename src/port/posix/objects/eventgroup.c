/* Event groups on Linux: 24 bits under the object lock and one wait list of
 * tasks, each waiting for its own condition (wait.h).
 *
 * Setting bits may satisfy many waiters at once. The setter decides for each
 * waiter under the lock, writes the waiter's result into the waiter's own op
 * (which the waiter reads back when it wakes), and marks it woken. Then it
 * clears the union of the woken waiters' clear-on-exit bits, so every waiter
 * satisfied by one set sees the same value (FreeRTOS semantics). */
#include "rtipc/eventgroup.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "common/create.h"
#include "common/handle.h"
#include "port/posix/kernel/kernel.h"
#include "rtipc/error.h"

#define EG_DYNAMIC 0x1u

/* Tasks a setter collects to unpark once it has dropped the lock. */
#define WAKE_BATCH 32

struct rtipc__eventgroup {
    rtipc__lock_t lock;
    uint16_t flags;
    _Atomic uint32_t bits;      /* written under lock, read anywhere */
    rtipc__spin_setting_t spin;  /* spin budget of its waiters (spin.h) */
    rtipc__waitlist_t waiters;   /* wait_bits and sync callers */
};

_Static_assert(sizeof(struct rtipc__eventgroup) <= sizeof(rtipc_eventgroup_static_t),
               "rtipc_eventgroup_static_t must hold the event group");

/* The event group a handle names, or NULL (src/common/handle.h). */
static struct rtipc__eventgroup *get(const rtipc_eventgroup_t *handle)
{
    return rtipc__handle_get(handle, RTIPC__H_EVENTGROUP);
}

static inline uint32_t bits_of(const struct rtipc__eventgroup *eg)
{
    return atomic_load_explicit(&eg->bits, memory_order_relaxed);
}

static inline void set_bits_to(struct rtipc__eventgroup *eg, uint32_t v)
{
    atomic_store_explicit(&eg->bits, v, memory_order_relaxed);
}

/* Initialise eg and open its handle; false when the handle table is full. */
static bool init(struct rtipc__eventgroup *eg, uint16_t flags, rtipc_eventgroup_t **out)
{
    memset(eg, 0, sizeof *eg);
    eg->flags = flags;
    uintptr_t h = rtipc__handle_open(eg, RTIPC__H_EVENTGROUP);
    if (h == 0)
        return false;
    *out = (rtipc_eventgroup_t *)h;
    return true;
}

int rtipc_eventgroup_create(rtipc_eventgroup_t **out)
{
    int rc;
    struct rtipc__eventgroup *eg = RTIPC__CREATE_ALLOC(out != NULL, struct rtipc__eventgroup, 0, &rc);
    if (eg && !init(eg, EG_DYNAMIC, out)) {
        free(eg);
        rc = RTIPC_ENOMEM;
    }
    return rc;
}

int rtipc_eventgroup_create_static(rtipc_eventgroup_static_t *cb, rtipc_eventgroup_t **out)
{
    if (!out || !cb)
        return RTIPC_EINVAL;
    return init((struct rtipc__eventgroup *)(void *)cb, 0, out) ? RTIPC_OK : RTIPC_ENOMEM;
}

int rtipc_eventgroup_delete(rtipc_eventgroup_t *handle)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__eventgroup *eg = get(handle);
    if (!eg)
        return RTIPC_EINVAL;
    rtipc__lock(&eg->lock);
    if (!rtipc__waitlist_empty(&eg->waiters)) {
        rtipc__unlock(&eg->lock);
        return RTIPC_EBUSY;
    }
    /* From here on the handle is refused, before the memory goes. */
    rtipc__handle_close((uintptr_t)handle);
    rtipc__unlock(&eg->lock);
    if (eg->flags & EG_DYNAMIC)
        free(eg);
    return RTIPC_OK;
}

int rtipc_eventgroup_set_spin(rtipc_eventgroup_t *handle, int64_t ns)
{
    struct rtipc__eventgroup *eg = get(handle);
    if (!eg)
        return RTIPC_EINVAL;
    return rtipc__spin_setting_set(&eg->spin, ns);
}

size_t rtipc_eventgroup_footprint(const rtipc_eventgroup_t *handle)
{
    if (handle != NULL && !get(handle))
        return 0;
    return sizeof(struct rtipc__eventgroup);
}

int rtipc_eventgroup_get_bits(const rtipc_eventgroup_t *handle)
{
    struct rtipc__eventgroup *eg = get(handle);
    return eg ? (int)bits_of(eg) : RTIPC_EINVAL;
}

/* ---- waiting ------------------------------------------------------------ */
typedef struct {
    rtipc__op_t op; /* first: the blocking loop and setters reach it through the waiter */
    struct rtipc__eventgroup *eg;
    uint32_t wait_for;
    uint32_t to_set;   /* sync: bits to set on the first attempt */
    bool clear_on_exit;
    bool wait_all;
    bool set_pending;  /* sync: the set has not happened yet */
    bool satisfied;    /* a setter met the condition and did the clearing */
    uint32_t value;    /* result: bits when met, or when the wait gave up */
} eg_op_t;

static bool met(const eg_op_t *o, uint32_t bits)
{
    uint32_t got = bits & o->wait_for;
    return o->wait_all ? got == o->wait_for : got != 0;
}

/* Who a setter wakes and how: task context collects up to WAKE_BATCH tasks
 * to unpark after unlocking, so they do not run straight into the lock the
 * setter still holds. When more waiters are satisfied than the batch holds,
 * the rest are unparked at once, under the lock: still correct (a woken task
 * that wants the lock waits for it, and the lock's priority inheritance
 * keeps that wait short), only slower. Interrupt context does the same with
 * the interrupt-safe wake, whose release also decides the woken flag. With
 * capacity 0 every wake is immediate (used inside the blocking loop, which
 * can hand back only one task). */
typedef struct {
    bool isr;
    int capacity; /* entries in the array below (0: none) */
    int n;
    bool *woken;
    union {
        struct rtipc__task **tasks;   /* task context */
        rtipc__isr_wake_t *isr_wakes; /* interrupt context */
    };
} wake_batch_t;

/* The on-stack storage behind a batch: 256 bytes (task) or 512 bytes
 * (interrupt) on a 64-bit host, half that on a 32-bit MCU. */
typedef union {
    struct rtipc__task *tasks[WAKE_BATCH];
    rtipc__isr_wake_t isr_wakes[WAKE_BATCH];
} wake_store_t;

static void batch_wake(wake_batch_t *b, rtipc__waitlist_t *list, rtipc__waiter_t *w)
{
    if (b->isr) {
        rtipc__isr_wake_t iw = rtipc__isr_wake(list, w);
        if (b->n < b->capacity)
            b->isr_wakes[b->n++] = iw;
        else
            rtipc__isr_release(iw, b->woken);
    } else {
        struct rtipc__task *t = rtipc__waitlist_wake(list, w);
        if (b->n < b->capacity)
            b->tasks[b->n++] = t;
        else
            rtipc__unpark(t);
    }
}

/* After unlocking. */
static void batch_release(wake_batch_t *b)
{
    for (int i = 0; i < b->n; ++i) {
        if (b->isr)
            rtipc__isr_release(b->isr_wakes[i], b->woken);
        else
            rtipc__unpark(b->tasks[i]);
    }
    /* Waking tasks reschedules: release deferred wake-ups of this core, as
     * the blocking loop does after it wakes a task. */
    if (!b->isr && b->n > 0)
        rtipc__reschedule_point(rtipc__current_or_null());
}

/* Under the lock: set bits, wake every waiter now satisfied (each gets the
 * value right after the set), then clear the union of their clear-on-exit
 * bits. Returns the bits after clearing. */
static uint32_t set_and_wake(struct rtipc__eventgroup *eg, uint32_t set, wake_batch_t *b)
{
    uint32_t bits = bits_of(eg) | set;
    set_bits_to(eg, bits);
    uint32_t clear = 0;
    rtipc__waiter_t *next;
    for (rtipc__waiter_t *w = eg->waiters.head; w; w = next) {
        next = w->next; /* read first: waking unlinks w */
        eg_op_t *o = (eg_op_t *)w->op;
        if (!met(o, bits))
            continue;
        o->value = bits;
        o->satisfied = true;
        if (o->clear_on_exit)
            clear |= o->wait_for;
        batch_wake(b, &eg->waiters, w);
    }
    bits &= ~clear;
    set_bits_to(eg, bits);
    return bits;
}

static int attempt_wait(rtipc__op_t *op)
{
    eg_op_t *o = (eg_op_t *)op;
    struct rtipc__eventgroup *eg = o->eg;
    if (o->satisfied)
        return RTIPC_OK; /* a setter already decided, and cleared for us */
    if (o->set_pending) {
        /* Sync: set, then test, in the same lock hold as the queueing that
         * follows a failed test, so no rendezvous partner can slip between. */
        o->set_pending = false;
        uint32_t before = bits_of(eg);
        wake_batch_t b = {.isr = false, .capacity = 0};
        set_and_wake(eg, o->to_set, &b);
        /* Test what the bits were right after our set: a partner woken by it
         * may already have cleared the awaited bits. */
        uint32_t after_set = before | o->to_set;
        if (met(o, after_set)) {
            o->value = after_set;
            set_bits_to(eg, bits_of(eg) & ~o->wait_for);
            return RTIPC_OK;
        }
    }
    uint32_t bits = bits_of(eg);
    o->value = bits;
    if (!met(o, bits))
        return RTIPC_EWOULDBLOCK;
    if (o->clear_on_exit)
        set_bits_to(eg, bits & ~o->wait_for);
    return RTIPC_OK;
}

static int wait(struct rtipc__eventgroup *eg, eg_op_t *o, uint32_t *value, rtipc_timeout_t timeout)
{
    int rc = rtipc__block(&eg->lock, &eg->waiters, &o->op, timeout, rtipc__spin_setting(&eg->spin));
    if (value)
        *value = o->value;
    return rc;
}

int rtipc_eventgroup_wait_bits(rtipc_eventgroup_t *handle, uint32_t bits, bool clear_on_exit, bool wait_all,
                               uint32_t *value, rtipc_timeout_t timeout)
{
    if (value)
        *value = 0;
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__eventgroup *eg = get(handle);
    if (!eg || bits == 0 || !rtipc__eventgroup_bits_ok(bits))
        return RTIPC_EINVAL;
    eg_op_t o = {.op = {.attempt = attempt_wait},
                 .eg = eg,
                 .wait_for = bits,
                 .clear_on_exit = clear_on_exit,
                 .wait_all = wait_all};
    return wait(eg, &o, value, timeout);
}

int rtipc_eventgroup_sync(rtipc_eventgroup_t *handle, uint32_t set, uint32_t wait_for, uint32_t *value,
                          rtipc_timeout_t timeout)
{
    if (value)
        *value = 0;
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__eventgroup *eg = get(handle);
    if (!eg || wait_for == 0 || !rtipc__eventgroup_bits_ok(set | wait_for))
        return RTIPC_EINVAL;
    eg_op_t o = {.op = {.attempt = attempt_wait},
                 .eg = eg,
                 .wait_for = wait_for,
                 .to_set = set,
                 .clear_on_exit = true,
                 .wait_all = true,
                 .set_pending = true};
    return wait(eg, &o, value, timeout);
}

/* ---- setting and clearing --------------------------------------------------- */
static int set_bits(rtipc_eventgroup_t *handle, uint32_t bits, uint32_t *value, bool isr, bool *woken)
{
    struct rtipc__eventgroup *eg = get(handle);
    if (!eg || !rtipc__eventgroup_bits_ok(bits))
        return RTIPC_EINVAL;
    wake_store_t store;
    wake_batch_t b = {.isr = isr, .capacity = WAKE_BATCH, .woken = woken};
    if (isr)
        b.isr_wakes = store.isr_wakes;
    else
        b.tasks = store.tasks;
    rtipc__lock(&eg->lock);
    uint32_t after = set_and_wake(eg, bits, &b);
    rtipc__unlock(&eg->lock);
    batch_release(&b);
    if (value)
        *value = after;
    return RTIPC_OK;
}

int rtipc_eventgroup_set_bits(rtipc_eventgroup_t *eg, uint32_t bits, uint32_t *value)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    return set_bits(eg, bits, value, false, NULL);
}

int rtipc_eventgroup_set_bits_from_isr(rtipc_eventgroup_t *eg, uint32_t bits, uint32_t *value, bool *woken)
{
    return set_bits(eg, bits, value, true, woken);
}

static int clear_bits(rtipc_eventgroup_t *handle, uint32_t bits, uint32_t *previous)
{
    struct rtipc__eventgroup *eg = get(handle);
    if (!eg || !rtipc__eventgroup_bits_ok(bits))
        return RTIPC_EINVAL;
    /* Under the lock: a setter reads, decides and writes the bits in one
     * hold, and a clear must not fall between its read and its write. */
    rtipc__lock(&eg->lock);
    uint32_t before = bits_of(eg);
    set_bits_to(eg, before & ~bits);
    rtipc__unlock(&eg->lock);
    if (previous)
        *previous = before;
    return RTIPC_OK;
}

int rtipc_eventgroup_clear_bits(rtipc_eventgroup_t *eg, uint32_t bits, uint32_t *previous)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    return clear_bits(eg, bits, previous);
}

int rtipc_eventgroup_clear_bits_from_isr(rtipc_eventgroup_t *eg, uint32_t bits, uint32_t *previous)
{
    return clear_bits(eg, bits, previous);
}
