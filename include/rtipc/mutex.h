/**
 * @file mutex.h
 * @brief Mutexes with priority inheritance, plain and recursive.
 *
 * A mutex is created available and records its holder. Waiters are served by
 * priority, FIFO among equals. Priority inheritance follows the FreeRTOS V11
 * kernel's rules exactly (the differential suite, tests/differential, runs
 * the same scenarios on the kernel), including where they surprise:
 * - A task that must wait raises a holder of lower effective priority to its
 *   own (applied to the SCHED_FIFO priority when that policy is in force).
 *   It is one level deep: a holder that itself waits on another mutex does
 *   not pass the boost on. A waiter whose priority changes while it waits
 *   does not change the holder's priority.
 * - The holder drops back to its base priority only when it gives back its
 *   last mutex, and then goes to the end of its base priority's ready list
 *   (behind the ready tasks of that priority).
 * - A waiter that is deleted while it waits gives nothing back: the holder
 *   keeps the priority it was lent until it unlocks.
 * - A waiter that times out after lending its priority lowers the holder to
 *   the higher of its base and the priority of the first task still waiting
 *   (as that waiter's priority is now, though the list is not re-sorted),
 *   but only if the holder holds exactly this one mutex; a holder of several
 *   keeps its priority until it gives them back.
 * - rtipc_task_set_priority on a holder that inherits changes its base at
 *   once but its effective priority only if the new base is higher (task.h).
 *
 * A recursive mutex counts the holder's takes and is released by as many
 * unlocks. Mutexes are task-only: no call here may run in an interrupt.
 *
 * A holder that ends (returns from its entry, deletes itself or is deleted)
 * without unlocking leaves the mutex held by it for good, as in FreeRTOS; it
 * is never released on its behalf. From then on: lock fails with
 * RTIPC_EWOULDBLOCK (RTIPC_NO_WAIT) or RTIPC_ETIMEDOUT after the full
 * timeout, and an RTIPC_FOREVER lock waits until its caller is deleted;
 * unlock by any task is RTIPC_EPERM; delete is RTIPC_EBUSY;
 * rtipc_mutex_holder keeps returning the ended task's handle, which the
 * rtipc_task_* calls reject as not live. The ended task's descriptor
 * (task.h) is retired rather than reused, so no later task is ever taken
 * for the holder; it costs its size in memory for the rest of the process.
 *
 * Memory: rtipc_mutex_footprint() bytes, one allocation when dynamic.
 */
#ifndef RTIPC_MUTEX_H
#define RTIPC_MUTEX_H

#include <stdbool.h>
#include <stddef.h>

#include "rtipc/task.h"
#include "rtipc/config.h"
#include "rtipc/spin.h"
#include "rtipc/time.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque mutex handle. */
typedef struct rtipc_mutex rtipc_mutex_t;

/** Caller-provided memory for a statically created mutex. */
typedef struct {
    RTIPC_ALIGNAS(8) unsigned char opaque[RTIPC_MUTEX_STATIC_SIZE];
} rtipc_mutex_static_t;

/**
 * Create a mutex (@p recursive: a recursive one).
 * Context: task only. Blocking: no.
 * @retval 0 created. @retval RTIPC_EINVAL out NULL.
 * @retval RTIPC_ENOMEM allocation failed, or every handle is in use (error.h).
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_mutex_create(bool recursive, rtipc_mutex_t **out);

/**
 * Create a mutex in caller memory @p cb. Context: task only. Blocking: no.
 * @retval 0 created; *out holds its handle, which names @p cb (a handle
 *         is not the address of cb, error.h).
 * @retval RTIPC_ENOMEM every handle is in use (error.h).
 * @retval RTIPC_EINVAL out or cb NULL.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_mutex_create_static(bool recursive, rtipc_mutex_static_t *cb, rtipc_mutex_t **out);

/**
 * Delete a mutex. Context: task only. Blocking: no. Concurrency: no other call
 * on it may be in progress; a call that follows gets RTIPC_EINVAL (error.h).
 * @retval 0 deleted. @retval RTIPC_EINVAL not a live mutex.
 * @retval RTIPC_EBUSY it is held or tasks wait on it; not deleted.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_mutex_delete(rtipc_mutex_t *m);

/**
 * Take the mutex, waiting up to @p timeout. While waiting, the holder
 * inherits the caller's priority if it is lower.
 * Context: task only. Blocking: up to timeout. Concurrency: any.
 * @retval 0 taken (recursive: taken again, count raised).
 * @retval RTIPC_EINVAL not a live mutex.
 * @retval RTIPC_EDEADLOCK a plain mutex the caller already holds.
 * @retval RTIPC_EWOULDBLOCK held by another task and timeout RTIPC_NO_WAIT.
 * @retval RTIPC_ETIMEDOUT still held when the timeout expired.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 * @retval RTIPC_ENOMEM a foreign calling thread could not be adopted.
 */
int rtipc_mutex_lock(rtipc_mutex_t *m, rtipc_timeout_t timeout);

/**
 * Release the mutex (recursive: once per take). On the last release the
 * highest-priority waiter is woken and, if the caller holds no other mutex,
 * its inherited priority is dropped.
 * Context: task only. Never blocks.
 * @retval 0 released. @retval RTIPC_EINVAL not a live mutex.
 * @retval RTIPC_EPERM the caller does not hold it.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_mutex_unlock(rtipc_mutex_t *m);

/**
 * The holding task, or NULL when free or m is not a live mutex (a snapshot).
 * Context: any. Never blocks.
 * Port notes: FreeRTOS returns NULL once the holder has ended (the kernel
 * keeps the deleted task as holder; rtipc no longer has its descriptor).
 */
rtipc_task_t *rtipc_mutex_holder(const rtipc_mutex_t *m);

/** Bytes a mutex occupies (0 if m is not live; NULL gives the size of any
 *  mutex). Context: any. Never blocks. */
size_t rtipc_mutex_footprint(const rtipc_mutex_t *m);

/**
 * Set the spin budget of this mutex's waiters: how long a blocking lock
 * spins before it parks (spin.h says when a task may spin at all; a waiter
 * whose holder is ready on the waiter's own core parks at once).
 * Context: task or interrupt. Never blocks. Concurrency: any; a wait already
 * spinning keeps the budget it started with.
 * @param ns RTIPC_SPIN_DEFAULT (follow rtipc_spin_default(); the setting of a
 *        new object), or 0 (park at once) .. RTIPC_SPIN_MAX_NS.
 * @retval 0 set. @retval RTIPC_EINVAL m not a live mutex, or ns out of range.
 */
int rtipc_mutex_set_spin(rtipc_mutex_t *m, int64_t ns);

#ifdef __cplusplus
}
#endif
#endif
