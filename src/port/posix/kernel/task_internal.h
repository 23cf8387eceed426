/* The task descriptor of the POSIX port, shared by task.c, wait.c and the
 * objects that need a task's priority or notification slots. */
#ifndef RTIPC_POSIX_TASK_INTERNAL_H
#define RTIPC_POSIX_TASK_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/handle.h"
#include "lock.h"
#include "rtipc/task.h"
#include "spin.h"
#include "wait.h"

/* One notification slot: the 32-bit value and its state, 8 bytes. */
typedef struct {
    uint32_t value;
    uint8_t state; /* RTIPC__NOTIFY_IDLE / _WAITING / _PENDING */
} rtipc__notify_slot_t;

enum { RTIPC__NOTIFY_IDLE = 0, RTIPC__NOTIFY_WAITING = 1, RTIPC__NOTIFY_PENDING = 2 };

struct rtipc__task {
    /* ---- Touched by wakers, even late ones after the task has ended (wait.h),
     * so never cleared when the descriptor is recycled (task.c, pool_get). */
    /* Futex word the task parks on: bit 0 announces that the task is about
     * to sleep (RTIPC__PARK_ASLEEP), the rest counts unparks (wait.h). */
    _Atomic uint32_t park;
    _Atomic uint32_t run_state;     /* ready / blocked, with the core (spin.c) */
    _Atomic int32_t waker_cpu;      /* CPU + 1 of the last task-context unpark, 0 = none */
    /* ---- Cleared on recycling from here on (RTIPC__TASK_RECYCLED_FROM). */
    rtipc_task_t *handle;           /* the handle it was given (src/common/handle.h) */
    /* Priorities, as FreeRTOS keeps them (tasks.c's uxBasePriority,
     * uxPriority and the event-list item value). Written under prio_lock,
     * read anywhere. */
    _Atomic int base_priority;      /* as set by the user */
    _Atomic int effective_priority; /* base raised by mutex inheritance */
    /* The priority it queues with on an object's wait list: its effective
     * priority, except that a base change while it inherits sets it to the
     * new base (vTaskPrioritySet); a queued waiter's entry is not re-sorted,
     * but a holder's disinheritance after a timeout reads the head's current
     * value (mutex.c). */
    _Atomic int wait_priority;
    _Atomic unsigned mutexes_held;  /* mutexes this task holds (recursive: once) */
    _Atomic bool delete_requested;  /* another task asked it to end */
    _Atomic bool ended;             /* its thread has ended (or, adopted, exited); under lock */
    bool adopted;                   /* a thread rtipc did not create */
    /* Who closes the handle, decided once by CAS from RTIPC__RELEASE_OPEN: the
     * task itself when it deleted itself (detached), or the task that joins
     * or deletes it. */
    _Atomic int release_claim;
    /* References to the descriptor: its thread (until it ends) and its
     * handle (until closed); the last one returns it to the pool. */
    _Atomic int refs;
    _Atomic int reap;               /* who reclaims the pthread (task.c, reap) */
    int core;
    pthread_t thread;
    /* Start gate: the creator opens it (1) once the task is placed in the
     * kernel's ready list; the new thread waits for it before its entry. */
    _Atomic uint32_t gate;
    /* Guards the kernel-side priority and the priority fields above, and
     * tid / exited: while held, a non-zero tid names this live thread, and a
     * zero tid with !exited means it has not started, so its pthread_t is
     * still valid. */
    rtipc__lock_t prio_lock;
    _Atomic uint32_t tid;           /* kernel thread id; 0 until started and again once exited */
    bool exited;                    /* under prio_lock */
    rtipc_task_fn entry;
    void *arg;
    char name[16];
    /* Notification slots and the owner's wait, guarded by lock. */
    rtipc__lock_t lock;
    unsigned notify_wait_index;     /* slot the owner is waiting on */
    rtipc__waitlist_t notify_waiters; /* the owner only, while it waits */
    rtipc__notify_slot_t notify[RTIPC_NOTIFY_SLOTS];
    rtipc__spin_setting_t notify_spin; /* spin budget of the owner's notification waits */
    /* The task waiting for this one to end (join or delete), under lock. */
    struct rtipc__task *end_waiter;
    struct rtipc__task *pool_next;  /* free-list link while recycled */
    /* Interrupt bookkeeping (irq.c), guarded by the core's lock. Whether the
     * task is blocked in rtipc is in run_state (rtipc__task_is_blocked). */
    _Atomic bool deferred;          /* woken by a handler that did not yield: not yet released */
    struct rtipc__task *cpu_next;    /* link in its core's task registry */
    struct rtipc__task *deferred_next; /* link in its core's deferred list */
    /* Task watchdog (wdt.c). */
    _Atomic bool wdt_subscribed;
    _Atomic int64_t wdt_last_reset_ns;
    int64_t wdt_reported_at;        /* checker only */
    struct rtipc__task *wdt_next;    /* subscriber list, guarded by wdt's lock */
    /* Wait counters (rtipc_spin_stats_t): written by the task itself, but
     * futex_wakes, which its wakers add to. */
    _Atomic uint64_t stat_spins;
    _Atomic uint64_t stat_spin_wakeups;
    _Atomic uint64_t stat_same_core_parks;
    _Atomic uint64_t stat_sleeps;
    _Atomic uint64_t stat_futex_wakes;
};

/* Where the part of the descriptor that pool_get clears begins. */
#define RTIPC__TASK_RECYCLED_FROM offsetof(struct rtipc__task, handle)

/* A hook the kernel calls on each ending task's own thread, once it no
 * longer runs rtipc calls and before its end is published (join and delete
 * wait for that): an object that keeps per-task state lets go of the task
 * there (the watchdog drops it from its subscribers). The kernel calls no
 * object by name. At most RTIPC__TASK_END_HOOKS hooks; adding one twice
 * keeps one. Add it before the first task the object tracks can end (the
 * watchdog adds its hook in rtipc_wdt_add, before subscribing a task). */
typedef void (*rtipc__task_end_hook_t)(struct rtipc__task *t);
enum { RTIPC__TASK_END_HOOKS = 4 };
void rtipc__task_end_hook_add(rtipc__task_end_hook_t hook);

/* The descriptor a task handle names, or NULL for NULL, a closed handle (its
 * task was joined or deleted, or was adopted and has exited) or a handle of
 * another kind (src/common/handle.h). A task that returned from its entry
 * keeps an open handle until it is joined. */
static inline struct rtipc__task *rtipc__task_get(const rtipc_task_t *handle)
{
    return rtipc__handle_get(handle, RTIPC__H_TASK);
}
/* As rtipc__task_get, but NULL also once the task has ended: what every call
 * that acts on a running task (notify, priorities, watchdog) accepts. */
static inline struct rtipc__task *rtipc__task_live(const rtipc_task_t *handle)
{
    struct rtipc__task *t = rtipc__task_get(handle);
    /* Acquire: pairs with the release store of ended in the exit hook. */
    return t && !atomic_load_explicit(&t->ended, memory_order_acquire) ? t : NULL;
}
/* The handle of a descriptor (the value rtipc_task_create gave out). */
static inline rtipc_task_t *rtipc__task_handle(const struct rtipc__task *t) { return t ? t->handle : NULL; }

/* A task whose priority changed is requeued at the end of its new
 * priority's list, as FreeRTOS does. When the caller gave back an inherited
 * priority (rtipc__task_disinherit returned true), the kernel still runs it
 * at the old one: once no object lock is held and the waiter it woke is
 * unparked, it applies the lower priority and yields, so that the woken
 * task and the ready tasks of its base priority run first, as after
 * FreeRTOS's yield in the give. */
void rtipc__task_settle_lowered(struct rtipc__task *self);

/* Whether the caller readied a task of higher priority on its own core
 * (rtipc__unpark from task context): that task preempted it, and FreeRTOS's
 * ready list then passes the turn to the next task of the caller's
 * priority. rtipc__reschedule_point consumes it with a yield. */
extern _Thread_local bool rtipc__preempted;

/* The calling thread's task, or NULL if it has none yet (never adopts). */
struct rtipc__task *rtipc__current_or_null(void);

/* Priority inheritance, as tasks.c's xTaskPriorityInherit: if holder's
 * effective priority is below the caller's (the waiter's), raise it to the
 * waiter's. Returns whether inheritance occurred in FreeRTOS's sense: the
 * holder was raised, or already ran above its base for at least this
 * waiter's priority (holder base < waiter). */
bool rtipc__task_inherit(struct rtipc__task *holder, struct rtipc__task *waiter);
/* The holder (the caller) released a mutex and holds none any more: drop
 * back to its base priority (xTaskPriorityDisinherit). True when its
 * priority fell; the kernel side follows in rtipc__task_settle_lowered. */
bool rtipc__task_disinherit(struct rtipc__task *self);
/* A waiter gave up after inheritance occurred (vTaskPriorityDisinheritAfterTimeout):
 * if holder holds exactly one mutex, its priority becomes max(base,
 * highest_waiting) (-1: nobody waits). holder is never the caller. */
void rtipc__task_disinherit_after_timeout(struct rtipc__task *holder, int highest_waiting);

/* True while the calling thread runs an interrupt handler (irq.c). */
extern _Thread_local bool rtipc__in_interrupt;

/* Sleep the calling task until the absolute CLOCK_MONOTONIC time deadline
 * (-1: forever), as a deletion point. Task context. */
int rtipc__sleep_until(int64_t deadline);

/* Ends the calling task (deletion point reached). Never returns. */
_Noreturn void rtipc__task_exit_self(void);

enum { RTIPC__RELEASE_OPEN = 0, RTIPC__RELEASE_SELF = 1, RTIPC__RELEASE_OTHER = 2 };

#endif
