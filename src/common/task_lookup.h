/* The public calls that only look at a task, written once over three port
 * hooks, so that every port names the same task for the same handle and
 * refuses the same ones: NULL, a stale handle, another kind's, a task whose
 * entry returned (error.h). */
#ifndef RTIPC_COMMON_TASK_LOOKUP_H
#define RTIPC_COMMON_TASK_LOOKUP_H

#include "rtipc/task.h"

/* Provided by the port: the descriptor of a running task, or NULL for the
 * handles above. Any context; lock-free. */
void *rtipc__port_task_live(const rtipc_task_t *handle);
/* Provided by the port: a live descriptor's name and core (task.h). */
const char *rtipc__port_task_name(const void *task);
int rtipc__port_task_core(const void *task);

/* The running task a call names where NULL stands for the caller (the
 * watchdog's add and delete): its descriptor with *rc RTIPC_OK, or NULL
 * with *rc RTIPC_ENOMEM (the caller could not be adopted) or RTIPC_EINVAL.
 * Task context. */
void *rtipc__task_or_caller(rtipc_task_t *task, int *rc);

#endif
