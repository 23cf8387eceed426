/**
 * @file task.h
 * @brief Tasks: prioritised, optionally pinned threads with notification slots.
 *
 * An rtipc task is a thread with an rtipc priority (0 = lowest ..
 * RTIPC_PRIORITY_LEVELS-1), an optional core pin and RTIPC_NOTIFY_SLOTS
 * notification slots. When the process may use SCHED_FIFO, priority p runs at
 * SCHED_FIFO priority RTIPC_FIFO_BASE + p, so a higher-priority task preempts
 * a lower one on its core as under FreeRTOS. Otherwise rtipc falls back to
 * SCHED_OTHER: priorities still order waiters and drive mutex inheritance, but
 * the kernel does not preempt by them. rtipc_sched_policy() says which holds.
 *
 * A thread rtipc did not create (main, or a foreign thread) becomes an rtipc
 * task the first time it calls rtipc: it can then block, own a mutex and
 * receive notifications. Its priority is derived from its SCHED_FIFO priority,
 * or 0 under other policies.
 *
 * Ready-list order, as in FreeRTOS (under SCHED_FIFO; docs/design.md,
 * "Ready-list order"): tasks of equal priority run in the order they became
 * ready, so tasks created back to back at one priority start in creation
 * order; a task whose priority changes (rtipc_task_set_priority, mutex
 * inheritance or its end) goes to the end of its new priority's list; a
 * new task of higher priority than its creator runs before
 * rtipc_task_create returns. Port notes: the SCHED_OTHER fallback promises
 * none of this; on FreeRTOS the kernel keeps these lists itself.
 *
 * Handles: a task's handle stays valid until the task is joined or deleted
 * (a task that deleted itself, and an adopted thread that exited, close
 * theirs as they end). A closed handle is refused with RTIPC_EINVAL by every
 * call, also after its descriptor went to a new task, which gets a
 * different handle. Between its end and its join, a task's handle is good
 * for rtipc_task_join and rtipc_task_delete only; every call that acts on a
 * live task (priorities, name, core, notifications, watchdog) refuses it.
 */
#ifndef RTIPC_TASK_H
#define RTIPC_TASK_H

#include <stddef.h>
#include <stdint.h>

#include "rtipc/config.h"
#include "rtipc/time.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque task handle. */
typedef struct rtipc_task rtipc_task_t;

/** Task entry function. The task ends when it returns. */
typedef void (*rtipc_task_fn)(void *arg);

/** Pass as rtipc_task_config_t.core to let the task run on any core. */
#define RTIPC_CORE_ANY (-1)

/** SCHED_FIFO priority used for rtipc priority 0. */
#define RTIPC_FIFO_BASE 10

/** Scheduling policy in force for rtipc tasks. */
typedef enum {
    RTIPC_SCHED_FIFO = 1,  /**< real-time SCHED_FIFO priorities */
    RTIPC_SCHED_OTHER = 2, /**< fallback: SCHED_OTHER, priorities logical only */
} rtipc_sched_policy_t;

/** Creation parameters. Zero-initialise, then set what you need. */
typedef struct {
    const char *name;     /**< copied; at most 15 characters kept; NULL = "task" */
    unsigned priority;    /**< 0 .. RTIPC_PRIORITY_LEVELS-1 */
    int core;             /**< core id (0-based), or RTIPC_CORE_ANY */
    size_t stack_size;    /**< bytes; 0 = system default (FreeRTOS:
                               rtipcCONFIG_DEFAULT_STACK_WORDS, else
                               configMINIMAL_STACK_SIZE; ESP-IDF: its
                               pthread default, 3 KiB unless menuconfig
                               says otherwise); raised to the minimum */
    rtipc_task_fn entry;  /**< required */
    void *arg;            /**< passed to entry */
} rtipc_task_config_t;

/**
 * Create and start a task.
 * Context: task only. Blocking: no (thread creation). Concurrency: any number
 * of callers.
 * @retval 0 created; *out holds the handle (joinable).
 * @retval RTIPC_EINVAL cfg/out/entry NULL, priority >= RTIPC_PRIORITY_LEVELS,
 *         core not RTIPC_CORE_ANY and not an online core.
 * @retval RTIPC_ENOMEM no memory for the task descriptor.
 * @retval RTIPC_ESYSTEM the OS refused the thread.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * Port notes: FreeRTOS: a core other than 0 needs configNUMBER_OF_CORES > 1
 * and configUSE_CORE_AFFINITY, else RTIPC_EINVAL; the stack comes from
 * pvPortMalloc, at least configMINIMAL_STACK_SIZE words; more words than
 * configSTACK_DEPTH_TYPE holds is RTIPC_ENOMEM.
 */
int rtipc_task_create(const rtipc_task_config_t *cfg, rtipc_task_t **out);

/**
 * Wait until a task has ended (returned from entry or been deleted) and
 * release it. The handle is invalid afterwards.
 * Context: task only. Blocking: yes, until the task ends (no timeout). A
 * deletion point: a caller deleted while it waits ends, and the task it
 * waited for can still be joined (or deleted) by another task. A foreign
 * thread is adopted to wait (task.h, top).
 * Concurrency: one join or delete per task; a second one, concurrent or
 * later, is refused.
 * @retval 0 joined.
 * @retval RTIPC_EINVAL task NULL, a closed handle, an adopted thread, or a
 *         task another task is already joining or deleting, or that deleted
 *         itself.
 * @retval RTIPC_EDEADLOCK task is the caller.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_task_join(rtipc_task_t *task);

/**
 * Delete a task.
 * - task NULL or the caller: the calling task ends now (this call does not
 *   return); a task created by rtipc is released automatically, so it must
 *   not be joined afterwards.
 * - another task: asks it to end and waits until it has. The target ends at
 *   its next deletion point: any blocking rtipc call, delay, yield, join or
 *   delete (a blocked target is woken for this); a task that has not started
 *   running yet ends before its entry runs, as in FreeRTOS. A target blocked on an object leaves
 *   its wait list, and a wake-up it was given and had not yet used passes to
 *   the object's next waiter, so the other waiters are still served. The
 *   target is released; do not join.
 * Mutexes held by the deleted task stay held (as in FreeRTOS), as they do
 * when a task returns from its entry: see "A holder that ends" in mutex.h.
 * Context: task only. Blocking: yes when deleting another task, until it
 * has ended; a deletion point like join: a caller deleted while it waits
 * ends too, after closing the target's handle (the target still ends at its
 * next deletion point), so two tasks that delete each other both end.
 * @retval 0 the other task has ended and was released.
 * @retval RTIPC_EINVAL a closed handle, an adopted thread, or a task another
 *         task is already joining or deleting, or that deleted itself.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * Port notes: FreeRTOS ends the task at once wherever it is (vTaskDelete),
 * not at its next rtipc call.
 */
int rtipc_task_delete(rtipc_task_t *task);

/**
 * The calling task (adopting the calling thread if rtipc did not create it).
 * Context: task. Never blocks. Returns NULL only if memory for adopting a
 * foreign thread is exhausted.
 * Port notes: FreeRTOS adopts a kernel task rtipc did not create, with its
 * kernel name and priority; it ends with rtipc_task_delete(NULL), which
 * closes its handle (a bare vTaskDelete leaves the handle open).
 */
rtipc_task_t *rtipc_task_current(void);

/**
 * Block the calling task for @p timeout (RTIPC_FOREVER blocks until the task
 * is deleted). A deletion point.
 * Context: task only. Blocking: yes.
 * @retval 0 the time has elapsed.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted.
 */
int rtipc_task_delay(rtipc_timeout_t timeout);

/**
 * Give the core to another ready task of the same priority. A deletion point.
 * Context: task only. Never blocks.
 * @retval 0 always from task context; RTIPC_ECONTEXT from an interrupt handler.
 */
int rtipc_task_yield(void);

/**
 * A task's base priority (without inheritance), or RTIPC_EINVAL if task is
 * NULL or not a live task.
 * Context: any. Never blocks. Thread-safe.
 */
int rtipc_task_priority(const rtipc_task_t *task);

/**
 * A task's effective priority: its base priority raised by mutex priority
 * inheritance. RTIPC_EINVAL if task is NULL or not a live task.
 * Context: any. Never blocks. Thread-safe.
 */
int rtipc_task_effective_priority(const rtipc_task_t *task);

/**
 * Set a task's base priority (NULL = the caller), as FreeRTOS's
 * vTaskPrioritySet does: the base changes at once; the effective priority
 * becomes the new base too, unless the task runs at an inherited priority
 * (mutex.h) that the new base does not exceed, in which case it keeps the
 * inherited one until it gives its mutexes back. Setting the priority it
 * already has changes nothing. Otherwise a ready task goes to the end of its
 * (new) effective priority's list, also when that priority stayed the
 * same; a task raised above the caller on the caller's core (one not yet
 * started included) runs before this call returns; a caller that lowered
 * its own base yields to the ready tasks of its priority.
 * Context: task only. Never blocks.
 * @retval 0 set; RTIPC_EINVAL priority out of range, or task not a live
 *         task; RTIPC_ECONTEXT from an interrupt handler; RTIPC_ENOMEM if
 *         task is NULL and the calling thread could not be adopted.
 */
int rtipc_task_set_priority(rtipc_task_t *task, unsigned priority);

/**
 * The task's name (at most 15 characters), or NULL if task is NULL or not a
 * live task.
 * Context: any. Never blocks.
 */
const char *rtipc_task_name(const rtipc_task_t *task);

/**
 * The core the task is pinned to, or RTIPC_CORE_ANY; RTIPC_EINVAL if task is
 * NULL or not a live task.
 * Context: any. Never blocks.
 */
int rtipc_task_core(const rtipc_task_t *task);

/**
 * The policy rtipc tasks run under: SCHED_FIFO when the process may use it,
 * else the SCHED_OTHER fallback (also forced by the environment variable
 * RTIPC_SCHED=other). Decided once per process, on first use.
 * Context: any. Never blocks after the first call.
 */
rtipc_sched_policy_t rtipc_sched_policy(void);

/** "SCHED_FIFO" or "SCHED_OTHER (fallback: <reason>)". Context: any.
 *  Port notes: FreeRTOS: "FreeRTOS (fixed-priority preemptive)" or
 *  "FreeRTOS (cooperative)", rtipc_sched_policy() RTIPC_SCHED_FIFO. */
const char *rtipc_sched_policy_describe(void);

/** Number of online cores. Context: any. Never blocks.
 *  Port notes: FreeRTOS: configNUMBER_OF_CORES (1 on the POSIX simulator). */
int rtipc_core_count(void);

#ifdef __cplusplus
}
#endif
#endif
