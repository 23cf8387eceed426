/* Wait lists, park/unpark and the generic blocking loop (protocol in wait.h). */
#include "wait.h"

#include <limits.h>

#include "futex.h"
#include "irq_internal.h"
#include "rtipc/error.h"
#include "spin.h"
#include "task_internal.h"

void rtipc__waitlist_insert(rtipc__waitlist_t *list, rtipc__waiter_t *w)
{
    rtipc__waiter_t **link = &list->head;
    /* Walk past every waiter of equal or higher priority: FIFO among equals. */
    while (*link && (*link)->priority >= w->priority)
        link = &(*link)->next;
    w->next = *link;
    *link = w;
}

bool rtipc__waitlist_remove(rtipc__waitlist_t *list, rtipc__waiter_t *w)
{
    for (rtipc__waiter_t **link = &list->head; *link; link = &(*link)->next) {
        if (*link == w) {
            *link = w->next;
            return true;
        }
    }
    return false;
}

int rtipc__waitlist_head_priority(const rtipc__waitlist_t *list)
{
    return list->head ? atomic_load_explicit(&list->head->task->wait_priority, memory_order_relaxed) : -1;
}

struct rtipc__task *rtipc__waitlist_wake_one(rtipc__waitlist_t *list)
{
    return list->head ? rtipc__waitlist_wake(list, list->head) : NULL;
}

struct rtipc__task *rtipc__waitlist_wake(rtipc__waitlist_t *list, rtipc__waiter_t *w)
{
    rtipc__waitlist_remove(list, w);
    struct rtipc__task *task = w->task; /* read before woken: w may vanish after */
    /* Release: pairs with the acquire loads of woken in park(); publishes the
     * unlinking above, so a woken waiter never touches its stale node. */
    atomic_store_explicit(&w->woken, 1, memory_order_release);
    return task;
}

void rtipc__unpark(struct rtipc__task *task)
{
    if (!rtipc__in_interrupt) {
        struct rtipc__task *self = rtipc__current_or_null();
        if (self && self->core >= 0 && task->core == self->core &&
            atomic_load_explicit(&task->effective_priority, memory_order_relaxed) >
                atomic_load_explicit(&self->effective_priority, memory_order_relaxed))
            rtipc__preempted = true;
    }
    rtipc__spin_note_waker(task);
    rtipc__task_mark_ready(task);
    uint32_t old = atomic_load_explicit(&task->park, memory_order_relaxed);
    uint32_t next;
    do {
        next = (old + RTIPC__PARK_STEP) & ~RTIPC__PARK_ASLEEP;
        /* Release: pairs with the owner's acquire load of park (seen); orders
         * this bump after what the owner checks next (woken, a deletion
         * request, deferred = false), all stored before this call.
         * Acquire: pairs with the owner's announcing CAS (release), so that
         * the counter below belongs to the life that announced (wait.h). */
    } while (!atomic_compare_exchange_weak_explicit(&task->park, &old, next, memory_order_acq_rel,
                                                    memory_order_relaxed));
    if (old & RTIPC__PARK_ASLEEP) {
        /* Only a task that announced its sleep costs a system call. */
        atomic_fetch_add_explicit(&task->stat_futex_wakes, 1, memory_order_relaxed);
        rtipc__futex_wake(&task->park, 1);
    }
}

int rtipc__park_sleep(struct rtipc__task *self, uint32_t seen, int64_t deadline)
{
    if (!(seen & RTIPC__PARK_ASLEEP)) {
        /* The announcement. It succeeds only if no unpark changed the word
         * since `seen`, so every later unpark reads the bit (wait.h).
         * Release: pairs with the acquire half of the unpark's CAS. */
        if (!atomic_compare_exchange_strong_explicit(&self->park, &seen, seen | RTIPC__PARK_ASLEEP,
                                                     memory_order_release, memory_order_relaxed))
            return 0;
        seen |= RTIPC__PARK_ASLEEP;
    }
    rtipc__stat_bump(&self->stat_sleeps);
    return rtipc__futex_wait(&self->park, seen, deadline);
}

void rtipc__park_awake(struct rtipc__task *self)
{
    /* Relaxed: only the owner sets the bit, so it reads its own store or an
     * unpark's clearing; the clearing RMW keeps the word's release sequence. */
    if (atomic_load_explicit(&self->park, memory_order_relaxed) & RTIPC__PARK_ASLEEP)
        atomic_fetch_and_explicit(&self->park, ~RTIPC__PARK_ASLEEP, memory_order_relaxed);
}

int64_t rtipc__deadline(rtipc_timeout_t timeout)
{
    if (rtipc_timeout_is_forever(timeout))
        return -1;
    int64_t now = rtipc_time_ns();
    if (timeout.ns > INT64_MAX - now)
        return -1; /* so far away that it is forever */
    return now + timeout.ns;
}

enum { PARK_WOKEN = 0, PARK_TIMEDOUT = 1, PARK_DELETED = 2 };

static inline bool is_woken(rtipc__waiter_t *w)
{
    /* Acquire: pairs with the release store in rtipc__waitlist_wake_one. */
    return atomic_load_explicit(&w->woken, memory_order_acquire) != 0;
}

static bool waiter_woken(void *w) { return is_woken(w); }

/* A handler readied this task without yielding: it stays parked until its
 * core reschedules (irq.h). */
static void wait_until_released(struct rtipc__task *self)
{
    for (;;) {
        /* Acquire: pairs with the release in rtipc__unpark. */
        uint32_t seen = atomic_load_explicit(&self->park, memory_order_acquire);
        /* Acquire: pairs with the release store of deferred in irq.c flush(). */
        if (!atomic_load_explicit(&self->deferred, memory_order_acquire))
            break;
        rtipc__park_sleep(self, seen, -1);
    }
    rtipc__park_awake(self);
}

/* Block until w is woken, the deadline passes or deletion is requested:
 * spin first (spin.h), then sleep on the park word (wait.h). A deletion
 * request is seen once the spin ends, within the budget. */
static int park_until(struct rtipc__task *self, rtipc__waiter_t *w, int64_t deadline, int64_t spin)
{
    if (rtipc__spin_wait(self, spin, deadline, waiter_woken, w))
        return PARK_WOKEN;
    int r;
    for (;;) {
        /* Acquire: pairs with the release in rtipc__unpark. */
        uint32_t seen = atomic_load_explicit(&self->park, memory_order_acquire);
        if (is_woken(w)) {
            r = PARK_WOKEN;
            break;
        }
        if (atomic_load_explicit(&self->delete_requested, memory_order_relaxed)) {
            r = PARK_DELETED;
            break;
        }
        int rc = rtipc__park_sleep(self, seen, deadline);
        if (rc == -ETIMEDOUT || (deadline >= 0 && rtipc_time_ns() >= deadline)) {
            r = is_woken(w) ? PARK_WOKEN : PARK_TIMEDOUT;
            break;
        }
    }
    rtipc__park_awake(self);
    return r;
}

/* The caller marked itself blocked before it queued w. */
static int park(struct rtipc__task *self, rtipc__waiter_t *w, int64_t deadline, int64_t spin)
{
    int r = park_until(self, w, deadline, spin);
    if (r == PARK_WOKEN)
        wait_until_released(self);
    rtipc__task_mark_ready(self);
    return r;
}

int rtipc__block_held(rtipc__lock_t *lock, rtipc__waitlist_t *list, rtipc__op_t *op, rtipc_timeout_t timeout,
                      int64_t spin)
{
    struct rtipc__task *self = NULL;
    int64_t deadline = 0;
    bool timed_out = false;
    rtipc__waiter_t w;

    for (;;) {
        op->wake = NULL;
        int rc = op->attempt(op);
        if (rc != RTIPC_EWOULDBLOCK || rtipc_timeout_is_no_wait(timeout) || rtipc__in_interrupt ||
            timed_out) {
            if (rc == RTIPC_EWOULDBLOCK && timed_out)
                rc = RTIPC_ETIMEDOUT;
            rtipc__unlock(lock);
            if (op->wake) {
                rtipc__unpark(op->wake);
                /* Waking a task reschedules: release deferred wake-ups. */
                if (!rtipc__in_interrupt)
                    rtipc__reschedule_point(self ? self : rtipc__current_or_null());
            }
            return rc;
        }
        if (!self) {
            /* First time it must wait: now the clock and the task matter. */
            self = rtipc__self();
            if (!self) {
                rtipc__unlock(lock);
                return RTIPC_ENOMEM;
            }
            deadline = rtipc__deadline(timeout);
        }
        w.task = self;
        w.op = op;
        /* Queued by the priority FreeRTOS files a waiter under (its event
         * list item value: task_internal.h, wait_priority). */
        w.priority = atomic_load_explicit(&self->wait_priority, memory_order_relaxed);
        atomic_store_explicit(&w.woken, 0, memory_order_relaxed);
        /* Blocked from the moment it is queued: a handler that wakes it next
         * must not count it among the tasks it interrupted (it would then
         * see no higher-priority task readied and report woken = false).
         * The object lock orders this store before the handler's look. */
        rtipc__task_mark_blocked(self);
        rtipc__waitlist_insert(list, &w);
        rtipc__unlock(lock);
        /* Blocking reschedules: first release deferred wake-ups of this core. */
        rtipc__reschedule_point(self);

        int parked = park(self, &w, deadline, spin);

        /* The waker sets woken inside its critical section: read the lock
         * until it lets go rather than take the line from it with a CAS
         * that fails and delays its unlock. */
        if (parked == PARK_WOKEN)
            (void)rtipc__lock_wait_free(lock, 64);
        rtipc__lock(lock);
        if (!is_woken(&w)) {
            rtipc__waitlist_remove(list, &w);
        } else if (parked != PARK_WOKEN && atomic_load_explicit(&self->deferred, memory_order_acquire)) {
            /* A handler woke us after the timeout or the deletion request
             * ended the park, and deferred the wake-up: we are (or are about
             * to be) on the core's deferred list. Wait for the release as a
             * woken waiter does; leaving while still listed would let a later
             * deferral link this task to itself. The acquire pairs with the
             * release in flush() (the relaxed store of true happened before
             * the woken store we saw). */
            rtipc__unlock(lock);
            wait_until_released(self);
            rtipc__lock(lock);
        }
        if (parked == PARK_DELETED) {
            struct rtipc__task *pass_on = NULL;
            /* A wake-up meant for this waiter goes to the next one, so the
             * item it announced is not left without a taker. */
            if (is_woken(&w))
                pass_on = rtipc__waitlist_wake_one(list);
            if (op->abandon)
                op->abandon(op);
            rtipc__unlock(lock);
            if (pass_on)
                rtipc__unpark(pass_on);
            rtipc__task_exit_self();
        }
        if (parked == PARK_TIMEDOUT) {
            /* One last attempt under the lock decides: it may have become
             * possible between the timeout and re-locking. */
            timed_out = true;
            if (op->abandon)
                op->abandon(op);
        }
    }
}

void rtipc__wake_from_task(struct rtipc__task *task)
{
    rtipc__unpark(task);
    rtipc__reschedule_point(rtipc__current_or_null());
}
