/* The task descriptor of the POSIX port, shared by task.c, wait.c and the
 * objects that need a task's priority or notification slots. */
#ifndef RTIPC_POSIX_TASK_INTERNAL_H
#define RTIPC_POSIX_TASK_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "lock.h"
#include "rtipc/task.h"
#include "spin.h"
#include "wait.h"

/* One notification slot: the 32-bit value and its state, 8 bytes. */
typedef struct {
    uint32_t value;
    uint8_t state; /* RTIPC__NOTIFY_IDLE / _WAITING / _PENDING */
} rtipc_notify_slot_t;

enum { RTIPC__NOTIFY_IDLE = 0, RTIPC__NOTIFY_WAITING = 1, RTIPC__NOTIFY_PENDING = 2 };

#define RTIPC__TASK_MAGIC 0x7441534bu /* "tASK" */

struct rtipc_task {
    /* ---- Touched by wakers, even late ones after the task has ended (wait.h),
     * so never cleared when the descriptor is recycled (task.c, pool_get). */
    /* Futex word the task parks on: bit 0 announces that the task is about
     * to sleep (RTIPC__PARK_ASLEEP), the rest counts unparks (wait.h). */
    _Atomic uint32_t park;
    _Atomic uint32_t run_state;     /* ready / blocked, with the core (spin.c) */
    _Atomic int32_t waker_cpu;      /* CPU + 1 of the last task-context unpark, 0 = none */
    /* ---- Cleared on recycling from here on (RTIPC__TASK_RECYCLED_FROM). */
    /* RTIPC__TASK_MAGIC while in use, 0 in the pool. Atomic: a caller may
     * check a handle whose task is ending by itself at that moment. */
    _Atomic uint32_t magic;
    _Atomic int base_priority;      /* as set by the user */
    _Atomic int effective_priority; /* base raised by mutex inheritance */
    _Atomic unsigned mutexes_held;  /* mutexes this task holds (recursive: once) */
    _Atomic bool delete_requested;  /* another task asked it to end */
    bool adopted;                   /* a thread rtipc did not create */
    /* Who returns the descriptor to the pool, decided once by CAS from
     * RTIPC_RELEASE_OPEN: the task itself when it deleted itself (detached;
     * the exit hook releases it), or the task that joins or deletes it. */
    _Atomic int release_claim;
    int core;
    pthread_t thread;
    _Atomic uint32_t tid;           /* kernel thread id; 0 until the thread has started */
    int created_priority;           /* the kernel priority the thread starts with */
    rtipc_task_fn entry;
    void *arg;
    char name[16];
    /* Notification slots and the owner's wait, guarded by lock. */
    rtipc_lock_t lock;
    unsigned notify_wait_index;     /* slot the owner is waiting on */
    rtipc_waitlist_t notify_waiters; /* the owner only, while it waits */
    rtipc_notify_slot_t notify[RTIPC_NOTIFY_SLOTS];
    rtipc_spin_setting_t notify_spin; /* spin budget of the owner's notification waits */
    struct rtipc_task *pool_next;   /* free-list link while recycled */
    /* Interrupt bookkeeping (irq.c), guarded by the core's lock. Whether the
     * task is blocked in rtipc is in run_state (rtipc__task_is_blocked). */
    _Atomic bool deferred;          /* woken by a handler that did not yield: not yet released */
    struct rtipc_task *cpu_next;    /* link in its core's task registry */
    struct rtipc_task *deferred_next; /* link in its core's deferred list */
    /* Task watchdog (wdt.c). */
    _Atomic bool wdt_subscribed;
    _Atomic int64_t wdt_last_reset_ns;
    int64_t wdt_reported_at;        /* checker only */
    struct rtipc_task *wdt_next;    /* subscriber list, guarded by wdt's lock */
    /* Wait counters (rtipc_spin_stats_t): written by the task itself, but
     * futex_wakes, which its wakers add to. */
    _Atomic uint64_t stat_spins;
    _Atomic uint64_t stat_spin_wakeups;
    _Atomic uint64_t stat_same_core_parks;
    _Atomic uint64_t stat_sleeps;
    _Atomic uint64_t stat_futex_wakes;
};

/* Where the part of the descriptor that pool_get clears begins. */
#define RTIPC__TASK_RECYCLED_FROM offsetof(struct rtipc_task, magic)

/* Drop a task from the watchdog's subscribers (its thread is ending). */
void rtipc__wdt_forget(struct rtipc_task *t);

static inline bool rtipc__task_valid(const struct rtipc_task *t)
{
    return t != NULL && atomic_load_explicit(&t->magic, memory_order_relaxed) == RTIPC__TASK_MAGIC;
}

/* The calling thread's task, or NULL if it has none yet (never adopts). */
struct rtipc_task *rtipc__current_or_null(void);

/* Raise t's effective priority to at least prio (inheritance). */
void rtipc__task_inherit(struct rtipc_task *t, int prio);
/* Set t's effective priority to max(base, prio) (disinheritance). */
void rtipc__task_disinherit_to(struct rtipc_task *t, int prio);

/* True while the calling thread runs an interrupt handler (irq.c). */
extern _Thread_local bool rtipc__in_interrupt;

/* Sleep the calling task until the absolute CLOCK_MONOTONIC time deadline
 * (-1: forever), as a deletion point. Task context. */
int rtipc__sleep_until(int64_t deadline);

/* Ends the calling task (deletion point reached). Never returns. */
_Noreturn void rtipc__task_exit_self(void);

enum { RTIPC_RELEASE_OPEN = 0, RTIPC_RELEASE_SELF = 1, RTIPC_RELEASE_OTHER = 2 };

#endif
