/* The calls that only look at a task (task_lookup.h). */
#include "task_lookup.h"

#include "rtipc/error.h"

const char *rtipc_task_name(const rtipc_task_t *handle)
{
    const void *t = rtipc__port_task_live(handle);
    return t ? rtipc__port_task_name(t) : NULL;
}

int rtipc_task_core(const rtipc_task_t *handle)
{
    const void *t = rtipc__port_task_live(handle);
    return t ? rtipc__port_task_core(t) : RTIPC_EINVAL;
}

void *rtipc__task_or_caller(rtipc_task_t *task, int *rc)
{
    if (!task) {
        /* Adopts a thread or kernel task rtipc did not create. */
        task = rtipc_task_current();
        if (!task) {
            *rc = RTIPC_ENOMEM;
            return NULL;
        }
    }
    void *t = rtipc__port_task_live(task);
    *rc = t ? RTIPC_OK : RTIPC_EINVAL;
    return t;
}
