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
 * a core's vector runs only the sources created for that core. */
#ifndef RTIPC_PORT_FREERTOS_IRQ_PORT_H
#define RTIPC_PORT_FREERTOS_IRQ_PORT_H

#include <stdbool.h>

/* The cores whose vector the backend provides, one bit per core (bit c for
 * core c; 0: none). Constant; any context. */
unsigned rtipc__fr_irq_hw_cores(void);

/* Make @p core's vector ready (task context, on any core; called on every
 * rtipc_irq_create for that core, so it must be idempotent). Only called
 * for a core in rtipc__fr_irq_hw_cores(). 0 or RTIPC_ESYSTEM. */
int rtipc__fr_irq_hw_init(unsigned core);

/* Request @p core's vector from any context (task or interrupt, on any
 * core); never blocks. Requests merge, like a pending bit. From a task with
 * interrupts enabled the vector must have run on @p core when this returns
 * (a run that began after the request); with the caller's interrupts masked
 * (a critical section, another handler) it runs on @p core as soon as that
 * core takes it (on the caller's own core: as soon as they are unmasked).
 * Before the scheduler runs a backend may leave the request to the next
 * tick (rtipc_freertos_tick_hook pends the vector of every core that has a
 * source pending). */
void rtipc__fr_irq_hw_pend(unsigned core);

/* Provided by irq.c, called by the backend's vector in interrupt context on
 * the core it was pended for: runs every pending handler of this core's
 * sources and returns true if one of them asked for a context switch
 * (rtipc_irq_yield(true)); the vector then performs it on this core with
 * portYIELD_FROM_ISR. */
bool rtipc__fr_irq_service(void);

#endif
