/* The per-core state of the POSIX port's kernel: which pinned tasks each
 * core has and which of them are ready to run, the tasks interrupt handlers
 * of a core readied without yielding, and the reschedule point that
 * releases them. Read by the spin rules (spin.c), the interrupt controller
 * (irq.c) and the task lifecycle (task.c). */
#ifndef RTIPC_POSIX_CPU_H
#define RTIPC_POSIX_CPU_H

#include <stdbool.h>
#include <stdint.h>

struct rtipc__task;

/* Cores the kernel keeps state for; a task pinned beyond is treated as not
 * pinned (it never spins, no handler defers it). */
#define RTIPC__MAX_CORES 64

/* ---- run states: which pinned tasks are ready, per core ------------------ */

/* The task's thread starts (or a foreign thread is adopted), and ends. */
void rtipc__task_started(struct rtipc__task *t);
void rtipc__task_ended(struct rtipc__task *t);
/* The task itself: it is about to wait (queued, or sleeping in a delay). */
void rtipc__task_mark_blocked(struct rtipc__task *t);
/* The task itself when its wait ends, or anyone readying it (unpark). Cheap
 * when it is already ready. */
void rtipc__task_mark_ready(struct rtipc__task *t);
/* Whether t is blocked in rtipc ("the interrupted task" skips it). */
bool rtipc__task_is_blocked(const struct rtipc__task *t);
/* How many of CORE's pinned tasks are ready to run, SELF excluded when it
 * counts itself (spin rule 2). CORE is 0 .. RTIPC__MAX_CORES - 1. */
int rtipc__cpu_others_ready(int core, struct rtipc__task *self);

/* ---- the tasks of a core, and the ones its handlers readied -------------- */

/* Register / unregister a task pinned to a core (for "the interrupted task"). */
void rtipc__cpu_register_task(struct rtipc__task *t);
void rtipc__cpu_unregister_task(struct rtipc__task *t);
/* Highest effective priority among CORE's tasks not blocked in rtipc, or -1
 * when the core was idle: the task a handler of CORE interrupted. */
int rtipc__cpu_interrupted_priority(int core);
/* A handler of CORE readied T without yielding: T waits on CORE's deferred
 * list until the next reschedule point of CORE or the next tick boundary. */
void rtipc__cpu_defer(int core, struct rtipc__task *t);
/* Release CORE's deferred tasks: all of them, or only once the tick
 * boundary after the first was deferred has passed (ONLY_IF_DUE at NOW). */
void rtipc__cpu_release(int core, bool only_if_due, int64_t now);
/* When CORE's deferred tasks are due (absolute ns), -1 when it has none. */
int64_t rtipc__cpu_release_at(int core);

/* A task on its core makes an rtipc call that reschedules: release the tasks
 * that handlers of this core readied without yielding. Cheap when none. */
void rtipc__reschedule_point(struct rtipc__task *self);

#endif
