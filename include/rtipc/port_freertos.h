/**
 * @file port_freertos.h
 * @brief FreeRTOS port only: marking interrupt context for rtipc, its tick hook and vector.
 *
 * FreeRTOS has no portable "am I in an interrupt?" call. rtipc treats the
 * caller as a handler when the application's rtipcCONFIG_IN_INTERRUPT() hook
 * (FreeRTOSConfig.h) says so, or between these two calls. A handler that
 * calls rtipc brackets its body with them when the port has no such hook.
 * Not available in the Linux build. See docs/porting.md.
 */
#ifndef RTIPC_PORT_FREERTOS_H
#define RTIPC_PORT_FREERTOS_H

#include "rtipc/irq.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Enter interrupt context (nests). Context: interrupt. Never blocks. */
void rtipc_freertos_isr_enter(void);

/** Leave interrupt context. Context: interrupt. Never blocks. */
void rtipc_freertos_isr_exit(void);

/**
 * rtipc's part of the tick interrupt: call it from vApplicationTickHook
 * (configUSE_TICK_HOOK 1). Runs, in the tick's interrupt context, the
 * handlers of the tick core's interrupt sources whose timer
 * (rtipc_irq_timer_start) has expired; for an expired source of another
 * core (SMP kernels: configTICK_CORE's tick, a source on another core) it
 * pends that core's vector, which runs the handler there. Without it those
 * timers never expire. Context: the tick hook.
 */
void rtipc_freertos_tick_hook(void);

/**
 * rtipc's interrupt vector on Cortex-M (the port's cortex_m interrupt
 * backend, chosen for the kernel's ARM_CM* ports): route the vector-table
 * entry of the line named by rtipcCONFIG_CORTEX_M_IRQ to it (or call it as
 * that line's whole handler). With the rv32_virt backend it is each hart's
 * supervisor software interrupt (cause 1), the same entry on every hart,
 * called from an entry that saves the context as the kernel port's
 * interrupt entries do. It runs the handlers of every rtipc interrupt
 * source of the core it runs on triggered since it last ran there, then
 * performs the context switch one of them asked for (rtipc_irq_yield) on
 * that core. Context: that interrupt only.
 * Not defined with the other backends.
 */
void rtipc_freertos_irq_vector(void);

/**
 * Whether @p irq's timer (rtipc_irq_timer_start) runs on a hardware timer of
 * its own, so that it expires between ticks: on ESP-IDF each source takes a
 * GPTimer at rtipc_irq_create while one is free (unless menuconfig's
 * RTIPC_IRQ_TIMER_TICK_ONLY is set); every other source, on every other
 * target, follows the tick (one tick of resolution).
 * Context: any. Never blocks.
 * @retval 1 a hardware timer. @retval 0 the tick.
 * @retval RTIPC_EINVAL not a live interrupt source.
 */
int rtipc_freertos_irq_timer_hw(const rtipc_irq_t *irq);

/**
 * Whether rtipc keeps a descriptor for the calling task: one rtipc_task_create
 * made, or one rtipc made when a task it did not create first made a call
 * that needs one (a blocking call, rtipc_task_current, a watchdog
 * subscription, ...). A task that has only ever called the kernel has none:
 * nothing of rtipc's (its thread-local-storage slot, its notification index)
 * was used for it. Context: a task.
 * Never blocks; never makes a descriptor.
 * @retval 1 it has one. @retval 0 it has none.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_freertos_task_known(void);

#ifdef __cplusplus
}
#endif
#endif
