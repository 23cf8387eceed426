/**
 * @file spin.h
 * @brief Spin-then-park waiting: the spin budget of blocking calls.
 *
 * A blocking call that must wait first spins (polls, with pause instructions)
 * for a bounded budget, then parks the thread in the kernel. A receiver that
 * spins sees a cross-core handoff in a fraction of a microsecond; one that
 * sleeps needs a futex wake-up, about ten microseconds on the development
 * host (docs/host-limits.md). The waker pays no system call while the waiter
 * still spins.
 *
 * The budget is the global default (this header) unless the object, or for
 * notifications the waiting task, has its own (the rtipc_*_set_spin calls in
 * each object's header; RTIPC_SPIN_DEFAULT follows the global default, 0
 * parks at once).
 *
 * A task spins only when spinning cannot starve another task or delay its own
 * waker (docs/performance.md, "Spin-then-park waiting"):
 * - it is pinned to a core (an unpinned task has no core to reason about);
 * - no other rtipc task pinned to that core is ready to run (not blocked in
 *   rtipc); the spin also stops as soon as one becomes ready;
 * - the task that last woke it (from task context) did not run on that core.
 * Otherwise it parks at once. Delays (rtipc_task_delay) never spin.
 */
#ifndef RTIPC_SPIN_H
#define RTIPC_SPIN_H

#include <stdint.h>

#include "rtipc/task.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Budget value meaning "follow the global default" (per object or task), or
 *  "back to the build default RTIPC_SPIN_NS_DEFAULT" (global). */
#define RTIPC_SPIN_DEFAULT (-1)

/** Largest budget accepted anywhere: one second. */
#define RTIPC_SPIN_MAX_NS 1000000000LL

/**
 * Set the global spin budget used by every object and task whose own budget
 * is RTIPC_SPIN_DEFAULT.
 * Context: task or interrupt. Never blocks. Concurrency: any; a wait already
 * spinning keeps the budget it started with.
 * @param ns 0 (park at once) .. RTIPC_SPIN_MAX_NS, or RTIPC_SPIN_DEFAULT to
 *        restore the build default (RTIPC_SPIN_NS_DEFAULT in config.h).
 * @retval 0 set. @retval RTIPC_EINVAL ns out of range.
 * Port notes: FreeRTOS stores the budget and never spins: a blocking call
 * parks in the kernel at once.
 */
int rtipc_spin_set_default(int64_t ns);

/** The global spin budget in nanoseconds. Context: any. Never blocks. */
int64_t rtipc_spin_default(void);

/** Counters of one task's waits (monotonic over the task's life). */
typedef struct {
    uint64_t spins;           /**< waits that spun (budget > 0 and the rules allowed it) */
    uint64_t spin_wakeups;    /**< spins that ended with the wait satisfied: no sleep */
    uint64_t same_core_parks; /**< waits that parked at once, or stopped spinning early,
                                   because of the same-core rules above */
    uint64_t sleeps;          /**< times the task slept in the kernel (FUTEX_WAIT) */
    uint64_t futex_wakes;     /**< FUTEX_WAKE system calls wakers made for it */
} rtipc_spin_stats_t;

/**
 * Read a task's wait counters (for tuning budgets, and for tests).
 * Context: task or interrupt (task NULL: task only; a foreign calling thread
 * is adopted). Never blocks. Concurrency: any; the counters are a snapshot,
 * each read on its own.
 * @param task the task, or NULL for the calling task.
 * @retval 0 filled (also for a task that has ended but was not joined yet:
 *         its counters stay readable until then).
 * @retval RTIPC_EINVAL task not an open task handle (joined or deleted),
 *         or out NULL.
 * @retval RTIPC_ECONTEXT task NULL in an interrupt handler.
 * @retval RTIPC_ENOMEM task NULL and the calling thread could not be adopted.
 * Port notes: FreeRTOS reports zeros (nothing spins there).
 */
int rtipc_spin_stats(const rtipc_task_t *task, rtipc_spin_stats_t *out);

#ifdef __cplusplus
}
#endif
#endif
