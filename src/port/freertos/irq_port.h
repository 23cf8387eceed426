/* The internal interface between the portable interrupt code (irq.c) and the
 * one small file that knows how the target raises an interrupt:
 *
 *   irq_posix_sim.c  the kernel's POSIX simulator (GCC_POSIX): a signal
 *                    handler on the running task's thread, masked by the
 *                    kernel's critical sections exactly as its tick is;
 *   irq_cortex_m.c   Cortex-M: one otherwise unused NVIC line, enabled at a
 *                    priority the kernel allows FromISR calls from; pend
 *                    sets its pending bit; its vector is
 *                    rtipc_freertos_irq_vector();
 *   irq_rv32_virt.c  QEMU virt RV32 (community SMP port): hart 0's ACLINT
 *                    supervisor software interrupt, pended from any hart;
 *                    its vector is rtipc_freertos_irq_vector();
 *   irq_none.c       targets without a backend: rtipc_irq_create reports
 *                    RTIPC_ENOTSUP.
 */
#ifndef RTIPC_PORT_FREERTOS_IRQ_PORT_H
#define RTIPC_PORT_FREERTOS_IRQ_PORT_H

#include <stdbool.h>

/* Make the vector ready (task context; called on every rtipc_irq_create,
 * so it must be idempotent). 0, RTIPC_ENOTSUP (no backend) or
 * RTIPC_ESYSTEM. */
int rtipc__fr_irq_hw_init(void);

/* Request the vector from any context (task or interrupt); never blocks.
 * Requests merge, like a pending bit. From a task with interrupts enabled
 * the vector must have run when this returns; with interrupts masked (a
 * critical section, another handler) it runs as soon as they are unmasked. */
void rtipc__fr_irq_hw_pend(void);

/* Provided by irq.c, called by the backend's vector in interrupt context:
 * runs every pending handler and returns true if one of them asked for a
 * context switch (rtipc_irq_yield(true)); the vector then performs it with
 * portYIELD_FROM_ISR. */
bool rtipc__fr_irq_service(void);

#endif
