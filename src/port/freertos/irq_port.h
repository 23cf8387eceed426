/* The internal interface between the portable interrupt code (irq.c) and the
 * one small file that knows how the target raises an interrupt:
 *
 *   irq_posix_sim.c  the kernel's POSIX simulator (GCC_POSIX): a signal
 *                    handler on the running task's thread, masked by the
 *                    kernel's critical sections exactly as its tick is;
 *                    core 0 only (the simulator has one core);
 *   irq_cortex_m.c   Cortex-M: one otherwise unused NVIC line, enabled at a
 *                    priority the kernel allows FromISR calls from; pend
 *                    sets its pending bit; its vector is
 *                    rtipc_freertos_irq_vector(); core 0 only;
 *   irq_rv32_virt.c  QEMU virt RV32 (community SMP port): each hart's ACLINT
 *                    supervisor software interrupt, pended from any hart
 *                    through that hart's SETSSIP register; every core;
 *                    its vector is rtipc_freertos_irq_vector() on each hart;
 *   irq_espidf.c     ESP-IDF on the ESP32: each CPU's internal software
 *                    interrupt 0 (CPU interrupt 7), raised directly on the
 *                    caller's core and through ESP-IDF's IPC ISR on the
 *                    other; every core; the backend registers the vector
 *                    and rtipc's tick hook itself;
 *   irq_none.c       targets without a backend: no core, so
 *                    rtipc_irq_create reports RTIPC_ENOTSUP.
 *
 * Each core has its own vector. irq.c keeps the sources of each core apart:
 * a core's vector runs only the sources created for that core.
 *
 * Timers follow the kernel's tick (rtipc_freertos_tick_hook) unless the
 * backend gives a source a hardware timer of its own (the rtipc__irq_hw_timer_*
 * calls below; ESP-IDF: a GPTimer, irq_espidf.c). Every other backend has
 * none: the inline versions at the end of this file say so. */
#ifndef RTIPC_PORT_FREERTOS_IRQ_PORT_H
#define RTIPC_PORT_FREERTOS_IRQ_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rtipc/irq.h"

/* The cores whose vector the backend provides, one bit per core (bit c for
 * core c; 0: none). Constant; any context. */
unsigned rtipc__irq_hw_cores(void);

/* Make @p core's vector ready (task context, on any core; called on every
 * rtipc_irq_create for that core, so it must be idempotent). Only called
 * for a core in rtipc__irq_hw_cores(). 0 or RTIPC_ESYSTEM. */
int rtipc__irq_hw_init(unsigned core);

/* Request @p core's vector from any context (task or interrupt, on any
 * core); never blocks. Requests merge, like a pending bit. From a task with
 * interrupts enabled the vector must have run on @p core when this returns
 * (a run that began after the request); with the caller's interrupts masked
 * (a critical section, another handler) it runs on @p core as soon as that
 * core takes it (on the caller's own core: as soon as they are unmasked).
 * Before the scheduler runs a backend may leave the request to the next
 * tick (rtipc_freertos_tick_hook pends the vector of every core that has a
 * source pending). */
void rtipc__irq_hw_pend(unsigned core);

/* Provided by irq.c, called by the backend's vector in interrupt context on
 * the core it was pended for: runs every pending handler of this core's
 * sources and returns true if one of them asked for a context switch
 * (rtipc_irq_yield(true)); the vector then performs it on this core with
 * portYIELD_FROM_ISR. */
bool rtipc__irq_service(void);

/* A source's hardware timer: an alarm that raises the source
 * (rtipc_irq_trigger on @p handle) on @p core between ticks. */
struct rtipc__irq_hw_timer;

#ifdef ESP_PLATFORM
/* A hardware timer for the source @p handle of @p core (task context, from
 * rtipc_irq_create after the handle is open; may block), or NULL when the
 * backend has none free: the source's timer then follows the tick. */
struct rtipc__irq_hw_timer *rtipc__irq_hw_timer_new(unsigned core, rtipc_irq_t *handle);

/* (Re)start @p t: first alarm after @p delay_ns, then every @p period_ns
 * (0: once), both below INT64_MAX. Any context; never blocks; calls on one
 * timer from several contexts at once are serialised. */
void rtipc__irq_hw_timer_start(struct rtipc__irq_hw_timer *t, int64_t delay_ns, int64_t period_ns);

/* Stop @p t (an alarm already taken completes). Any context; never blocks. */
void rtipc__irq_hw_timer_stop(struct rtipc__irq_hw_timer *t);

/* Release @p t of @p core (task context; may block). No alarm of it runs
 * after this returns. */
void rtipc__irq_hw_timer_delete(struct rtipc__irq_hw_timer *t, unsigned core);
#else
static inline struct rtipc__irq_hw_timer *rtipc__irq_hw_timer_new(unsigned core, rtipc_irq_t *handle)
{
    (void)core;
    (void)handle;
    return NULL;
}
static inline void rtipc__irq_hw_timer_start(struct rtipc__irq_hw_timer *t, int64_t delay_ns, int64_t period_ns)
{
    (void)t;
    (void)delay_ns;
    (void)period_ns;
}
static inline void rtipc__irq_hw_timer_stop(struct rtipc__irq_hw_timer *t) { (void)t; }
static inline void rtipc__irq_hw_timer_delete(struct rtipc__irq_hw_timer *t, unsigned core)
{
    (void)t;
    (void)core;
}
#endif

#endif
