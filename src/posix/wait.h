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
 *   4. park: spin on woken for the budget,    from here on
 *      then loop { seq = task->park;       c. unlock
 *      if woken: done; futex_wait(park,    d. unpark(task): park += 1
 *      seq, deadline) }                       (release), futex_wake(park)
 *   5. lock; if not woken, unlink itself;
 *      retry the operation (a woken waiter is not handed the item; it
 *      competes again with the time it has left, as in FreeRTOS)
 *
 * No lost wake-up: woken is stored before park is bumped, and the waiter reads
 * park before it checks woken. If the waiter's read of park precedes the bump,
 * the bump changes the word and futex_wait returns at once; if it follows the
 * bump, the waiter sees woken = 1 and never sleeps.
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

struct rtipc_task;

struct rtipc_op;

typedef struct rtipc_waiter {
    struct rtipc_waiter *next;
    struct rtipc_task *task;
    struct rtipc_op *op;     /* the waiter's operation: wakers may read its
                                parameters and write results into it, under
                                the object lock, before marking it woken */
    int priority;            /* effective priority when it queued */
    _Atomic uint32_t woken;  /* set once, by the waker, under the object lock */
} rtipc_waiter_t;

/* A singly linked list, highest priority first, FIFO among equals. Guarded by
 * the owning object's lock. */
typedef struct {
    rtipc_waiter_t *head;
} rtipc_waitlist_t;

void rtipc__waitlist_insert(rtipc_waitlist_t *list, rtipc_waiter_t *w);
/* Unlinks w if it is on the list; returns whether it was. */
bool rtipc__waitlist_remove(rtipc_waitlist_t *list, rtipc_waiter_t *w);
/* Pops the first waiter and marks it woken; returns its task (to unpark after
 * unlocking) or NULL if the list is empty. */
struct rtipc_task *rtipc__waitlist_wake_one(rtipc_waitlist_t *list);
/* Unlinks the given waiter (which must be on the list) and marks it woken;
 * returns its task, to unpark after unlocking. For objects that choose whom
 * to wake by each waiter's own condition (event groups, stream buffers). */
struct rtipc_task *rtipc__waitlist_wake(rtipc_waitlist_t *list, rtipc_waiter_t *w);
static inline bool rtipc__waitlist_empty(const rtipc_waitlist_t *list) { return list->head == NULL; }
/* Highest priority queued, or -1 when empty. */
static inline int rtipc__waitlist_top_priority(const rtipc_waitlist_t *list)
{
    return list->head ? list->head->priority : -1;
}

/* Wake a task parked in rtipc__park (or about to park). Any context. */
void rtipc__unpark(struct rtipc_task *task);

/* Unpark @p task from task context (a non-blocking give/send/overwrite that
 * readied it), then release this core's deferred wake-ups: waking a task is a
 * rescheduling call, as in the blocking loop. */
void rtipc__wake_from_task(struct rtipc_task *task);

/* One attempt at an operation, run with the object's lock held. Returns 0 or
 * an error to finish, or RTIPC_EWOULDBLOCK to wait and retry. It may name one
 * task in `wake`, unparked once the lock is dropped. */
typedef struct rtipc_op {
    int (*attempt)(struct rtipc_op *op);
    /* Optional, under the lock: the caller gave up waiting (timeout, deletion)
     * after having been queued; undo side effects such as inheritance. */
    void (*abandon)(struct rtipc_op *op);
    struct rtipc_task *wake;
} rtipc_op_t;

/* Run op against the object guarded by lock, queueing on list while it would
 * block, until it completes or timeout runs out (RTIPC_ETIMEDOUT; with
 * RTIPC_NO_WAIT, RTIPC_EWOULDBLOCK). Must be called from task context. A task
 * asked to delete itself ends inside this call. */
int rtipc__block(rtipc_lock_t *lock, rtipc_waitlist_t *list, rtipc_op_t *op, rtipc_timeout_t timeout);

/* The calling thread's task, adopting it if needed (NULL only on ENOMEM). */
struct rtipc_task *rtipc__self(void);

/* Absolute deadline for a timeout, -1 for forever. */
int64_t rtipc__deadline(rtipc_timeout_t timeout);

#endif
