/* The target seam's interrupt sources, tick and scheduler facts where
 * rtipc has them (Linux and every FreeRTOS port): rtipc's own calls, the
 * same on each (target.h); and rtipc's cycle counter as a clock, read twice
 * for a stamp span. Tasks differ (FreeRTOS has native ones besides):
 * linux.c and freertos_tasks.c. The bare-metal target has no tasks and no tick
 * and says so itself (bare.c). */
#include <stdio.h>

#include "../harness/env.h"
#include "rtipc/rtipc.h"
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

int bench_target_irq_create(int core, rtipc_isr_fn handler, void *arg, rtipc_irq_t **out)
{
    return rtipc_irq_create(core, handler, arg, out);
}

int bench_target_irq_trigger(rtipc_irq_t *irq) { return rtipc_irq_trigger(irq); }

int bench_target_irq_delete(rtipc_irq_t *irq) { return rtipc_irq_delete(irq); }

int bench_target_set_tick_rate(uint32_t hz) { return rtipc_tick_set_rate(hz); }

void bench_rtipc_describe(struct bench_env *env)
{
    snprintf(env->sched_policy, sizeof env->sched_policy, "%s", rtipc_sched_policy_describe());
    env->sched_fifo = rtipc_sched_policy() == RTIPC_SCHED_FIFO;
    env->tick_hz = rtipc_tick_rate();
}

/* Stamps are readings of the core's own clock where there is one (a span of
 * stamps stays on one core), else of the run's clock: its grain is theirs. */
bench_stamp_t bench_target_stamp_start(void) { return (bench_stamp_t){.ns = bench_target_core_now_ns()}; }

bench_stamp_t bench_target_stamp_end(void) { return (bench_stamp_t){.ns = bench_target_core_now_ns()}; }

int64_t bench_target_stamp_span(bench_stamp_t start, bench_stamp_t end) { return end.ns - start.ns; }

double bench_target_stamp_resolution(void)
{
    bench_clock_t c;
    if (!bench_target_core_clock(&c))
        bench_target_clock(&c);
    return c.resolution;
}
