/**
 * @file irq.h
 * @brief Interrupt sources per core, interrupt context and the yield contract.
 *
 * An rtipc interrupt (rtipc_irq_t) is a handler bound to a core. It runs when
 * it is triggered in software (rtipc_irq_trigger, from any thread) or when its
 * timer expires (one-shot or periodic). On Linux each core that has an
 * interrupt source gets one interrupt thread, pinned to the core and run at a
 * SCHED_FIFO priority above every task, so a handler preempts the tasks of its
 * core as a hardware interrupt would (under the SCHED_OTHER fallback it does
 * not preempt reliably; rtipc_sched_policy() tells). Handlers of one core run
 * one at a time. A trigger that arrives while the same interrupt is already
 * pending is merged with it, like a pending bit in an interrupt controller.
 *
 * Inside a handler, only calls documented for interrupt context may be used
 * (the _from_isr variants, rtipc_irq_yield, rtipc_in_interrupt); blocking and
 * task-only calls fail with RTIPC_ECONTEXT.
 *
 * The yield contract (FreeRTOS portYIELD_FROM_ISR): a _from_isr call that
 * readies a task of higher priority than the interrupted task of this core
 * sets the caller's woken flag (set only, never cleared). If the handler then
 * calls rtipc_irq_yield(woken) with woken true, the readied task runs right
 * after the handler. If it does not, a task readied on this core (pinned to it,
 * or not pinned) runs at the next tick, or as soon as a task on this core makes
 * an rtipc call that reschedules (blocks, yields, delays, or wakes a task),
 * whichever comes first. A task pinned to another core is released at once,
 * as the inter-processor interrupt of a dual-core part would do.
 * The tick that releases them is run by the core's interrupt thread, after
 * its handlers: while a handler of the core runs on (or the thread is
 * starved), the tick is late, and the first tick that runs releases every
 * deferred wake-up; none is dropped.
 *
 * "The interrupted task" is the highest-priority rtipc task pinned to the core
 * that is not blocked in rtipc; with none, the core was idle and any readied
 * task counts as higher.
 *
 * FreeRTOS port (docs/porting.md, "Interrupt sources: what runs where"): a
 * core's sources are run by that core's rtipc vector, a real interrupt of
 * the target's interrupt backend, not by a thread; the interrupted task is
 * the one that was running on that core. Which cores have a vector depends
 * on the backend: both harts of the QEMU virt RV32 target (rv32_virt; a
 * handler of a core-1 source runs on hart 1, and its rtipc_irq_yield(true)
 * switches tasks on core 1), both cores of an ESP32 on ESP-IDF (each
 * CPU's internal software interrupt 0; a handler of a core-1 source runs
 * on CPU 1), core 0 only on Cortex-M and the POSIX simulator, none on a
 * target without a backend; other cores get RTIPC_ENOTSUP from
 * rtipc_irq_create. A task readied on another
 * core than the handler's is switched to by the kernel's cross-core yield.
 * Timers are checked in the kernel's tick (rtipc_freertos_tick_hook, one
 * tick of resolution; on SMP the tick core's tick): a source of the tick's
 * core runs in the tick interrupt, a source of another core in that core's
 * vector, pended by the tick. On ESP-IDF a source instead takes a GPTimer of
 * its own at rtipc_irq_create while one is free (four on an ESP32; none
 * with menuconfig's RTIPC_IRQ_TIMER_TICK_ONLY): its alarm interrupt, on the
 * source's core, raises the source as rtipc_irq_trigger does, between
 * ticks, at 25 ns resolution; rtipc_freertos_irq_timer_hw (port_freertos.h)
 * tells which a source has. The SMP kernel's deviation when a handler does
 * not ask for the yield is in docs/rv32-virt.md.
 */
#ifndef RTIPC_IRQ_H
#define RTIPC_IRQ_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque interrupt source. */
typedef struct rtipc_irq rtipc_irq_t;

/** An interrupt handler. Runs in interrupt context on the source's core. */
typedef void (*rtipc_isr_fn)(void *arg);

/**
 * Create an interrupt source on @p core with @p handler. Starts the core's
 * interrupt thread on first use (Linux; on FreeRTOS it makes the core's
 * rtipc vector ready).
 * Context: task only. Blocking: no.
 * @retval 0 created. @retval RTIPC_EINVAL out or handler NULL, or core not an
 *         online core (FreeRTOS: not below configNUMBER_OF_CORES).
 * @retval RTIPC_ENOMEM allocation failed, or every handle is in use
 *         (error.h).
 * @retval RTIPC_ENOTSUP FreeRTOS only: the target's interrupt backend has no
 *         vector for @p core (see the port notes above: every core but 0 on
 *         Cortex-M and the simulator, every core without a backend).
 * @retval RTIPC_ESYSTEM the interrupt thread could not be started (Linux),
 *         or the backend could not install its vector (FreeRTOS simulator;
 *         ESP-IDF: esp_intr_alloc or the IPC call to @p core failed, or
 *         @p core is another core before the scheduler runs).
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_irq_create(int core, rtipc_isr_fn handler, void *arg, rtipc_irq_t **out);

/**
 * Stop and delete an interrupt source. Returns after its handler (if running)
 * has finished; the handler is never called again.
 * Context: task only. Blocking: briefly, while its handler runs.
 * Concurrency: no other call on the source may be in progress; a call that
 * follows gets RTIPC_EINVAL (error.h), and nothing reads the freed source.
 * @retval 0 deleted. @retval RTIPC_EINVAL not a live interrupt source.
 * @retval RTIPC_ECONTEXT called from an interrupt handler.
 */
int rtipc_irq_delete(rtipc_irq_t *irq);

/**
 * Raise the interrupt in software (like setting its pending bit). Its handler
 * runs on its core as soon as that core's interrupt thread gets the CPU
 * (FreeRTOS: as soon as that core takes its vector; called from a task with
 * interrupts enabled, the handler has run, on whichever core, when the call
 * returns).
 * Context: any (task or interrupt). Never blocks (on FreeRTOS a call from a
 * task with interrupts enabled spins until that handler run has finished;
 * for a source of another core that includes the other core's response).
 * Concurrency: any.
 * @retval 0 raised (or merged with a pending one).
 * @retval RTIPC_EINVAL not a live interrupt source.
 */
int rtipc_irq_trigger(rtipc_irq_t *irq);

/**
 * Start the source's timer: first expiry after @p delay_ns, then every
 * @p period_ns (0 = one-shot). Restarting replaces the previous setting.
 * Expiries stay on the grid start + k x period. When the handler cannot run
 * at an expiry (another handler of its core runs long, or the core is
 * starved), it runs once as soon as it can for all the expiries it missed,
 * which are not counted separately. An expiry whose time does not fit in
 * int64 nanoseconds (INT64_MAX as delay or period) never comes.
 * Context: any. Never blocks.
 * @retval 0 started. @retval RTIPC_EINVAL not live, or delay_ns/period_ns < 0.
 */
int rtipc_irq_timer_start(rtipc_irq_t *irq, int64_t delay_ns, int64_t period_ns);

/**
 * Stop the source's timer (a pending expiry already being handled completes).
 * Context: any. Never blocks.
 * @retval 0 stopped. @retval RTIPC_EINVAL not a live interrupt source.
 */
int rtipc_irq_timer_stop(rtipc_irq_t *irq);

/**
 * Times the handler has run, or RTIPC_EINVAL. Context: any. Never blocks.
 */
int64_t rtipc_irq_count(const rtipc_irq_t *irq);

/**
 * Request a context switch at handler exit when @p woken is true (FreeRTOS
 * portYIELD_FROM_ISR). With false it does nothing.
 * Context: interrupt only.
 * @retval 0 done. @retval RTIPC_ECONTEXT not in an interrupt handler.
 */
int rtipc_irq_yield(bool woken);

/**
 * True while the caller runs an interrupt handler. Context: any.
 */
bool rtipc_in_interrupt(void);

/**
 * The core whose interrupt the caller is handling, or -1 outside handlers.
 * Context: any.
 */
int rtipc_irq_core(void);

#ifdef __cplusplus
}
#endif
#endif
