/* Spin-then-park: the bounded spin phase of a blocking call, the rules that
 * decide whether a task may spin at all, and the per-core bookkeeping those
 * rules read (which tasks are ready to run). Parking itself is in wait.c.
 *
 * The rules (docs/performance.md, "Spin-then-park waiting"). A task spins
 * only if it is pinned to a core, no other rtipc task pinned to that core is
 * ready to run, and the last task-context unpark of this task did not come
 * from that core. A spinning task under SCHED_FIFO keeps every lower-priority
 * task of its core off the CPU; if one of them is ready (possibly the very
 * task that would wake it), spinning only delays the wake-up, so it parks at
 * once, and stops spinning when one becomes ready mid-spin. */
#ifndef RTIPC_POSIX_SPIN_H
#define RTIPC_POSIX_SPIN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "rtipc/error.h"
#include "rtipc/spin.h"

struct rtipc__task;


/* ---- budgets -------------------------------------------------------------- */

/* A per-object (or per-task) budget as stored: 0 = RTIPC_SPIN_DEFAULT, else
 * ns + 1. Zero-initialised control blocks thus follow the global default with
 * no initialisation code. 4 bytes: budgets are at most RTIPC_SPIN_MAX_NS. */
typedef _Atomic uint32_t rtipc__spin_setting_t;

/* Store a budget given to a rtipc_*_set_spin call: RTIPC_EINVAL unless it is
 * RTIPC_SPIN_DEFAULT or 0 .. RTIPC_SPIN_MAX_NS. */
static inline int rtipc__spin_setting_set(rtipc__spin_setting_t *s, int64_t ns)
{
    if (ns != RTIPC_SPIN_DEFAULT && (ns < 0 || ns > RTIPC_SPIN_MAX_NS))
        return RTIPC_EINVAL;
    /* Relaxed: a hint read at the start of a wait; nothing is published. */
    atomic_store_explicit(s, ns == RTIPC_SPIN_DEFAULT ? 0u : (uint32_t)ns + 1u, memory_order_relaxed);
    return RTIPC_OK;
}

/* The stored budget: RTIPC_SPIN_DEFAULT or 0 .. RTIPC_SPIN_MAX_NS. */
static inline int64_t rtipc__spin_setting(rtipc__spin_setting_t *s)
{
    uint32_t v = atomic_load_explicit(s, memory_order_relaxed);
    return v == 0 ? RTIPC_SPIN_DEFAULT : (int64_t)v - 1;
}

/* The budget a caller passes to rtipc__block when it must park at once
 * (it has spun already, on the object itself). */
#define RTIPC__SPIN_NONE 0

/* Spin until done(arg) returns true (then true), or until the budget, the
 * deadline (absolute ns, -1 = none) or the rules end the spin (false; the
 * caller parks). `setting` is the object's budget (RTIPC_SPIN_DEFAULT, 0 or
 * ns). Returns false at once when the budget is 0 or the rules forbid
 * spinning. Counts in self's statistics. Task context. */
bool rtipc__spin_wait(struct rtipc__task *self, int64_t setting, int64_t deadline, bool (*done)(void *arg),
                      void *arg);

/* Run states, which spin rule 2 reads, are in cpu.h. */

/* An unpark of t from task context: remember the waker's CPU (rule 3). */
void rtipc__spin_note_waker(struct rtipc__task *t);

/* Add one to a counter that only its task writes (rtipc_spin_stats_t). */
static inline void rtipc__stat_bump(_Atomic uint64_t *counter)
{
    atomic_store_explicit(counter, atomic_load_explicit(counter, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

#endif
