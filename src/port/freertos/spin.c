/* Spin budgets on FreeRTOS. The setting calls keep their contract (range
 * checks, the global default), but a blocking rtipc call on FreeRTOS never
 * spins: it blocks in the kernel at once, which is what a fixed-priority
 * kernel wants (a spinning task would only keep lower-priority tasks, maybe
 * its waker, off the core). So every wait counts as a sleep of zero spins. */
#include <string.h>

#include "port_internal.h"

static volatile int64_t default_ns = RTIPC_SPIN_NS_DEFAULT;

int rtipc_spin_set_default(int64_t ns)
{
    if (ns == RTIPC_SPIN_DEFAULT)
        ns = RTIPC_SPIN_NS_DEFAULT;
    if (ns < 0 || ns > RTIPC_SPIN_MAX_NS)
        return RTIPC_EINVAL;
    rtipc__fr_crit_t c = rtipc__fr_enter();
    default_ns = ns;
    rtipc__fr_exit(c);
    return RTIPC_OK;
}

int64_t rtipc_spin_default(void)
{
    rtipc__fr_crit_t c = rtipc__fr_enter();
    int64_t ns = default_ns;
    rtipc__fr_exit(c);
    return ns;
}

/* No wait spins on this port and the kernel keeps no per-task sleep counts:
 * every counter is 0. */
int rtipc_spin_stats(const rtipc_task_t *handle, rtipc_spin_stats_t *out)
{
    const struct rtipc__fr_task *task;
    if (!handle) {
        if (rtipc__fr_in_isr())
            return RTIPC_ECONTEXT;
        task = rtipc__fr_self();
        if (!task)
            return RTIPC_ENOMEM;
    } else {
        task = rtipc__fr_task_get(handle);
    }
    if (!task || !out)
        return RTIPC_EINVAL;
    memset(out, 0, sizeof *out);
    return RTIPC_OK;
}
