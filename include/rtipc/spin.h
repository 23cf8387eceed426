/**
 * @file spin.h
 * @brief Spin-then-park waiting: the spin budget of blocking calls.
 *
 * A blocking call that must wait first spins (polls, with pause instructions)
 * for a bounded budget, then parks the thread in the kernel. A receiver that
 * spins sees a cross-core handoff in a fraction of a microsecond; one that
 * sleeps needs a futex wake-up, which costs several microseconds more
 * (docs/host-limits.md has the figures). The waker pays no system call while the waiter
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
 *
 * Port notes (FreeRTOS): a single-core kernel never spins (every blocking
 * call blocks in the kernel at once; all counters stay 0), nor does ESP-IDF
 * or a kernel without configUSE_CORE_AFFINITY, INCLUDE_eTaskGetState or a
 * sub-tick clock (rtipcCONFIG_CYCLES). A multicore kernel with them spins in
 * the mailbox, the SPSC ring, rtipc_notify_take / rtipc_notify_wait (the
 * latter only without clear_on_entry bits), rtipc_sem_take and
 * rtipc_queue_receive / _peek; other waits (mutexes, event groups, stream,
 * message and ring buffers, queue sets, sends) block at once. The rules, as
 * above, read the kernel: the task's affinity names one core; no other task
 * created by rtipc_task_create that may run on that core is ready but not
 * running (eTaskGetState; adopted tasks are not looked at); the last wake
 * through rtipc's parking or rtipc_notify from task context did not come
 * from that core. The default budget is the same RTIPC_SPIN_NS_DEFAULT,
 * chosen from measurements on the two-hart RV32 target (docs/rv32-virt.md,
 * "Spin-then-park").
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
 * Port notes: FreeRTOS stores the budget; only a multicore kernel spins
 * (see the top of this header), a single-core one parks at once.
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
    uint64_t sleeps;          /**< times the task slept in the kernel (FUTEX_WAIT;
                                   FreeRTOS SMP: blocking kernel calls it entered) */
    uint64_t futex_wakes;     /**< FUTEX_WAKE system calls wakers made for it (FreeRTOS
                                   SMP: the gives of rtipc's parking, mailbox, SPSC ring
                                   and ring buffer; wakes by the kernel's own objects
                                   are not seen and not counted) */
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
 * Port notes: FreeRTOS on one core reports zeros (nothing spins there); a
 * multicore kernel that spins fills every counter, futex_wakes as its
 * comment says.
 */
int rtipc_spin_stats(const rtipc_task_t *task, rtipc_spin_stats_t *out);

/**
 * A pause for a busy-wait loop of the caller's own (a polled _try call, a
 * flag): the processor's spin-wait hint, which frees the pipeline for the
 * other hardware thread and saves power (PAUSE on x86, YIELD on AArch64;
 * nothing on other processors). rtipc's own spins use it too.
 * Context: any. Never blocks. Thread-safe.
 * Port notes: the same on every port; it depends on the processor only.
 */
static inline void rtipc_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

#ifdef __cplusplus
}
#endif
#endif
