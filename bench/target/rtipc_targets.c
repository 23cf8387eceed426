/* The target seam's tasks and interrupt sources where rtipc has them (Linux
 * and every FreeRTOS port): rtipc's own calls, the same on each (target.h);
 * and rtipc's cycle counter as a clock. The bare-metal target has neither
 * tasks nor interrupts and refuses them itself (bare.c). */
#include "rtipc/time.h"
#include "target.h"

/* The counter's origin is the first reading: the conversion (through double
 * where the rate is not a whole number of ns per count) stays exact to the
 * nanosecond for days from there. */
int64_t bench_rtipc_cycles_ns(void)
{
    static uint64_t origin;
    if (!origin)
        origin = rtipc_cycles();
    return rtipc_cycles_to_ns(rtipc_cycles() - origin);
}

int bench_target_task_start(const bench_task_spec_t *spec, rtipc_task_t **out)
{
    rtipc_task_config_t cfg = {.name = spec->name, .priority = spec->priority, .core = spec->core,
                               .stack_size = spec->stack_bytes, .entry = spec->entry, .arg = spec->arg};
    return rtipc_task_create(&cfg, out);
}

int bench_target_task_join(rtipc_task_t *task) { return rtipc_task_join(task); }

int bench_target_task_delete(rtipc_task_t *task) { return rtipc_task_delete(task); }

int bench_target_irq_create(int core, rtipc_isr_fn handler, void *arg, rtipc_irq_t **out)
{
    return rtipc_irq_create(core, handler, arg, out);
}

int bench_target_irq_trigger(rtipc_irq_t *irq) { return rtipc_irq_trigger(irq); }

int bench_target_irq_delete(rtipc_irq_t *irq) { return rtipc_irq_delete(irq); }
