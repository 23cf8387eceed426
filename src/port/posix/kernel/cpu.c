/* The per-core state of the POSIX port's kernel (cpu.h). */
#include "cpu.h"

#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>

#include "irq_internal.h"
#include "lock.h"
#include "rtipc/task.h"
#include "rtipc/time.h"
#include "task_internal.h"
#include "wait.h"

static bool core_ok(int core) { return core >= 0 && core < RTIPC__MAX_CORES; }

/* ---- run states ------------------------------------------------------------
 * run_state packs the state (bits 0-1) with the task's core + 1 (0: not
 * pinned, or pinned beyond RTIPC__MAX_CORES), so that a waker that readies a task
 * learns its core from the same atomic word: a late waker (the descriptor
 * moved on, wait.h) never reads the plain `core` field while a new task is
 * being set up in it. Every transition moves the core's count once. */
enum { STATE_GONE = 0, STATE_READY = 1, STATE_BLOCKED = 2, STATE_MASK = 3, CORE_SHIFT = 2 };

/* Pinned tasks of each core that are ready to run (not blocked in rtipc).
 * One line per core: a spinner polls its own core's line. */
static struct {
    _Alignas(64) _Atomic int ready;
} cores[RTIPC__MAX_CORES];

static inline int core_of_state(uint32_t s) { return (int)(s >> CORE_SHIFT) - 1; }

static void count_ready(uint32_t state, int delta)
{
    int core = core_of_state(state);
    if (core >= 0)
        atomic_fetch_add_explicit(&cores[core].ready, delta, memory_order_relaxed);
}

void rtipc__task_started(struct rtipc__task *t)
{
    uint32_t core_bits = t->core >= 0 && t->core < RTIPC__MAX_CORES ? (uint32_t)(t->core + 1) << CORE_SHIFT : 0;
    uint32_t s = core_bits | STATE_READY;
    /* Release: a waker whose acquire CAS reads a state of this life may then
     * count it; the counters below are part of this life. */
    atomic_store_explicit(&t->run_state, s, memory_order_release);
    atomic_store_explicit(&t->waker_cpu, 0, memory_order_relaxed);
    count_ready(s, +1);
}

void rtipc__task_ended(struct rtipc__task *t)
{
    uint32_t old = atomic_exchange_explicit(&t->run_state, STATE_GONE, memory_order_relaxed);
    if ((old & STATE_MASK) == STATE_READY)
        count_ready(old, -1);
}

void rtipc__task_mark_blocked(struct rtipc__task *t)
{
    uint32_t old = atomic_load_explicit(&t->run_state, memory_order_relaxed);
    /* Release: pairs with the acquire CAS in rtipc__task_mark_ready (see
     * rtipc__task_started). Only the task itself moves READY -> BLOCKED. */
    if ((old & STATE_MASK) == STATE_READY &&
        atomic_compare_exchange_strong_explicit(&t->run_state, &old, (old & ~(uint32_t)STATE_MASK) | STATE_BLOCKED,
                                                memory_order_release, memory_order_relaxed))
        count_ready(old, -1);
}

void rtipc__task_mark_ready(struct rtipc__task *t)
{
    uint32_t old = atomic_load_explicit(&t->run_state, memory_order_relaxed);
    while ((old & STATE_MASK) == STATE_BLOCKED) {
        /* Acquire: pairs with the release in mark_blocked / task_started. */
        if (atomic_compare_exchange_weak_explicit(&t->run_state, &old, (old & ~(uint32_t)STATE_MASK) | STATE_READY,
                                                  memory_order_acquire, memory_order_relaxed)) {
            count_ready(old, +1);
            return;
        }
    }
}

bool rtipc__task_is_blocked(const struct rtipc__task *t)
{
    return (atomic_load_explicit(&((struct rtipc__task *)t)->run_state, memory_order_relaxed) & STATE_MASK) ==
           STATE_BLOCKED;
}

int rtipc__cpu_others_ready(int core, struct rtipc__task *self)
{
    int ready = atomic_load_explicit(&cores[core].ready, memory_order_relaxed);
    if ((atomic_load_explicit(&self->run_state, memory_order_relaxed) & STATE_MASK) == STATE_READY)
        ready -= 1; /* the caller counts itself while it polls an object before queueing */
    return ready;
}

/* ---- the tasks of a core, and the ones its handlers readied -------------- */

static struct {
    rtipc__lock_t lock;              /* guards the lists and release_at */
    _Atomic int deferred_count;     /* tasks on `deferred`: a lock-free look first */
    struct rtipc__task *tasks;      /* tasks pinned to this core */
    struct rtipc__task *deferred;   /* readied by a handler that did not yield */
    int64_t release_at;             /* the tick boundary that releases them */
} lists[RTIPC__MAX_CORES];

void rtipc__cpu_register_task(struct rtipc__task *t)
{
    if (!core_ok(t->core))
        return;
    rtipc__lock(&lists[t->core].lock);
    t->cpu_next = lists[t->core].tasks;
    lists[t->core].tasks = t;
    rtipc__unlock(&lists[t->core].lock);
}

void rtipc__cpu_unregister_task(struct rtipc__task *t)
{
    if (!core_ok(t->core))
        return;
    rtipc__lock(&lists[t->core].lock);
    for (struct rtipc__task **link = &lists[t->core].tasks; *link; link = &(*link)->cpu_next) {
        if (*link == t) {
            *link = t->cpu_next;
            break;
        }
    }
    rtipc__unlock(&lists[t->core].lock);
}

int rtipc__cpu_interrupted_priority(int core)
{
    int best = -1;
    if (!core_ok(core))
        return best;
    rtipc__lock(&lists[core].lock);
    for (struct rtipc__task *t = lists[core].tasks; t; t = t->cpu_next) {
        int p = atomic_load_explicit(&t->effective_priority, memory_order_relaxed);
        if (!rtipc__task_is_blocked(t) && p > best)
            best = p;
    }
    rtipc__unlock(&lists[core].lock);
    return best;
}

void rtipc__cpu_defer(int core, struct rtipc__task *t)
{
    rtipc__lock(&lists[core].lock);
    if (lists[core].deferred == NULL)
        lists[core].release_at = rtipc__tick_next_boundary(rtipc_time_ns());
    t->deferred_next = lists[core].deferred;
    lists[core].deferred = t;
    atomic_fetch_add_explicit(&lists[core].deferred_count, 1, memory_order_relaxed);
    rtipc__unlock(&lists[core].lock);
}

void rtipc__cpu_release(int core, bool only_if_due, int64_t now)
{
    if (!core_ok(core) || atomic_load_explicit(&lists[core].deferred_count, memory_order_relaxed) == 0)
        return;
    rtipc__lock(&lists[core].lock);
    struct rtipc__task *list = NULL;
    if (!only_if_due || now >= lists[core].release_at) {
        list = lists[core].deferred;
        lists[core].deferred = NULL;
        atomic_store_explicit(&lists[core].deferred_count, 0, memory_order_relaxed);
    }
    rtipc__unlock(&lists[core].lock);
    while (list) {
        struct rtipc__task *next = list->deferred_next; /* read before release */
        /* Release: pairs with the acquire load of deferred in park(). */
        atomic_store_explicit(&list->deferred, false, memory_order_release);
        rtipc__unpark(list);
        list = next;
    }
}

int64_t rtipc__cpu_release_at(int core)
{
    rtipc__lock(&lists[core].lock);
    int64_t at = lists[core].deferred ? lists[core].release_at : -1;
    rtipc__unlock(&lists[core].lock);
    return at;
}

void rtipc__reschedule_point(struct rtipc__task *self)
{
    int core = self && self->core >= 0 ? self->core : sched_getcpu();
    rtipc__cpu_release(core, false, 0);
    /* A higher-priority task of this core that the caller readied has run
     * meanwhile: like FreeRTOS's ready list, which moves on past a
     * preempted task, let this priority's other ready tasks go first
     * (docs/design.md, "Ready-list order"). */
    if (rtipc__preempted) {
        rtipc__preempted = false;
        if (rtipc_sched_policy() == RTIPC_SCHED_FIFO)
            sched_yield();
    }
}

