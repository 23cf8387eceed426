/* Waiting on rtipc objects: priority-ordered wait lists and the park/unpark
 * handshake that blocks a task without lost wake-ups.
 *
 * The protocol (every object uses it through rtipc__block):
 *
 *   waiter (holds the object's lock)       waker (holds the same lock)
 *   1. attempt the operation: fails        a. change the object's state
 *   2. insert its waiter node, sorted      b. pop the first waiter node, read
 *      by priority, FIFO among equals         its task, then store woken = 1
 *   3. unlock                                 (release); the node may vanish
 *   4. spin on woken for the budget           from here on
 *      (spin.h), then loop {               c. unlock
 *        seen = park (acquire)             d. unpark(task): one CAS on park
 *        if woken: done                       (acq_rel) adds PARK_STEP and
 *        CAS park: seen -> seen|ASLEEP        clears ASLEEP; only if ASLEEP
 *          (failed: an unpark came, loop)     was set, FUTEX_WAKE(park)
 *        futex_wait(park, seen|ASLEEP) }
 *   5. lock; if not woken, unlink itself;
 *      retry the operation (a woken waiter is not handed the item; it
 *      competes again with the time it has left, as in FreeRTOS)
 *
 * No lost wake-up, and no FUTEX_WAKE while the waiter spins. The waiter's
 * "I am about to sleep" and the waker's "did it say so?" are read-modify-
 * writes of the same word, so they are totally ordered (the word's
 * modification order): this single-word handshake is what a pair of seq_cst
 * fences gives two separate flags (a store, then a load of the other flag, on
 * each side). Take the waker's unpark U and the waiter's last read of park
 * (seen) before it sleeps:
 * - U is at or before the value seen: the acquire read of seen reads U's
 *   release (every write of park is a read-modify-write, so later values
 *   carry U's release sequence), hence the woken store made before U: the
 *   waiter sees woken = 1 and does not sleep;
 * - U comes after seen: if U lands before the announcing CAS, the CAS fails
 *   (the word moved) and the waiter looks again; else U reads ASLEEP, calls
 *   FUTEX_WAKE, and the waiter's futex_wait either finds the word changed
 *   (EAGAIN) or is woken by it.
 * While the waiter spins it has not announced, so U sees no ASLEEP bit and
 * makes no system call. The same holds for the other reasons to unpark
 * (deletion requests, deferred interrupt wake-ups): their flags are stored
 * before the unpark.
 *
 * Task descriptors are type-stable (recycled, never freed), so an unpark that
 * arrives after its task has moved on is at worst a spurious wake-up, which
 * the loop in step 4 absorbs. */
#ifndef RTIPC_POSIX_WAIT_H
#define RTIPC_POSIX_WAIT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "lock.h"
#include "rtipc/time.h"

struct rtipc__task;

struct rtipc__op;

typedef struct rtipc__waiter {
    struct rtipc__waiter *next;
    struct rtipc__task *task;
    struct rtipc__op *op;     /* the waiter's operation: wakers may read its
                                parameters and write results into it, under
                                the object lock, before marking it woken */
    int priority;            /* effective priority when it queued */
    _Atomic uint32_t woken;  /* set once, by the waker, under the object lock */
} rtipc__waiter_t;

/* A singly linked list, highest priority first, FIFO among equals. Guarded by
 * the owning object's lock. */
typedef struct {
    rtipc__waiter_t *head;
} rtipc__waitlist_t;

void rtipc__waitlist_insert(rtipc__waitlist_t *list, rtipc__waiter_t *w);
/* Unlinks w if it is on the list; returns whether it was. */
bool rtipc__waitlist_remove(rtipc__waitlist_t *list, rtipc__waiter_t *w);
/* Pops the first waiter and marks it woken; returns its task (to unpark after
 * unlocking) or NULL if the list is empty. */
struct rtipc__task *rtipc__waitlist_wake_one(rtipc__waitlist_t *list);
/* Unlinks the given waiter (which must be on the list) and marks it woken;
 * returns its task, to unpark after unlocking. For objects that choose whom
 * to wake by each waiter's own condition (event groups, stream buffers). */
struct rtipc__task *rtipc__waitlist_wake(rtipc__waitlist_t *list, rtipc__waiter_t *w);
static inline bool rtipc__waitlist_empty(const rtipc__waitlist_t *list) { return list->head == NULL; }
/* The priority of the first waiter now, or -1 when empty: the head's current
 * wait priority (task_internal.h), which a priority change may have moved
 * since it queued, as FreeRTOS reads the head's event-list item value. */
int rtipc__waitlist_head_priority(const rtipc__waitlist_t *list);

/* Wake a task parked in rtipc__park (or about to park). Any context. */
void rtipc__unpark(struct rtipc__task *task);

/* Bits of a task's park word: bit 0 = the task announced that it is about to
 * sleep; every unpark adds PARK_STEP. */
#define RTIPC__PARK_ASLEEP 1u
#define RTIPC__PARK_STEP 2u

/* The owner only: sleep on its park word, which read `seen` (acquire) before
 * the caller checked its reasons to stop waiting. Announces the sleep first;
 * returns 0 at once if an unpark came in since `seen` (check again), else
 * what futex_wait returns (0, -ETIMEDOUT at the absolute deadline, -EINTR). */
int rtipc__park_sleep(struct rtipc__task *self, uint32_t seen, int64_t deadline);

/* The owner only, when it stops waiting: withdraw an announcement that no
 * unpark consumed (timeout, deletion), so wakers stop paying FUTEX_WAKE. */
void rtipc__park_awake(struct rtipc__task *self);

/* Unpark @p task from task context (a non-blocking give/send/overwrite that
 * readied it), then release this core's deferred wake-ups: waking a task is a
 * rescheduling call, as in the blocking loop. */
void rtipc__wake_from_task(struct rtipc__task *task);

/* One attempt at an operation, run with the object's lock held. Returns 0 or
 * an error to finish, or RTIPC_EWOULDBLOCK to wait and retry. It may name one
 * task in `wake`, unparked once the lock is dropped. */
typedef struct rtipc__op {
    int (*attempt)(struct rtipc__op *op);
    /* Optional, under the lock: the caller gave up waiting (timeout, deletion)
     * after having been queued; undo side effects such as inheritance. */
    void (*abandon)(struct rtipc__op *op);
    struct rtipc__task *wake;
} rtipc__op_t;

/* Run op against the object guarded by lock, queueing on list while it would
 * block, until it completes or timeout runs out (RTIPC_ETIMEDOUT; with
 * RTIPC_NO_WAIT, RTIPC_EWOULDBLOCK). Each time it queues it spins for the
 * budget `spin` (the object's setting: RTIPC_SPIN_DEFAULT, 0 or ns; spin.h)
 * before it parks. Must be called from task context. A task asked to delete
 * itself ends inside this call. */
static inline int rtipc__block(rtipc__lock_t *lock, rtipc__waitlist_t *list, rtipc__op_t *op,
                               rtipc_timeout_t timeout, int64_t spin);
/* The same, entered with the lock already held (a caller whose own quick
 * path found it could not complete at once). */
int rtipc__block_held(rtipc__lock_t *lock, rtipc__waitlist_t *list, rtipc__op_t *op, rtipc_timeout_t timeout,
                      int64_t spin);

static inline int rtipc__block(rtipc__lock_t *lock, rtipc__waitlist_t *list, rtipc__op_t *op,
                               rtipc_timeout_t timeout, int64_t spin)
{
    rtipc__lock(lock);
    return rtipc__block_held(lock, list, op, timeout, spin);
}

/* The calling thread's task, adopting it if needed (NULL only on ENOMEM). */
struct rtipc__task *rtipc__self(void);

/* Absolute deadline for a timeout, -1 for forever. */
int64_t rtipc__deadline(rtipc_timeout_t timeout);

#endif
