/* What the firmware gives the kernel, rtipc and newlib beyond the hooks of
 * targets/common/freertos_hooks.c: the measured SysTick rate, rtipc's
 * interrupt vector on the spare NVIC line, and the lock newlib's malloc
 * takes (tasks allocate at the same time). */
#include <reent.h>

#include "FreeRTOS.h"
#include "task.h"

#include "board.h"
#include "rtipc/port_freertos.h"

/* configCPU_CLOCK_HZ (FreeRTOSConfig.h): each firmware's main() measures it
 * (board_systick_hz) before it starts the scheduler. */
uint32_t rtipc_cm3_systick_hz = BOARD_CPU_HZ;

/* rtipcCONFIG_CORTEX_M_IRQ (27) is rtipc's interrupt line. */
void IRQ27_Handler(void) { rtipc_freertos_irq_vector(); }

/* newlib's malloc and free from several tasks: the scheduler is held while
 * one runs (they never block and are never called from a handler here). */
void __malloc_lock(struct _reent *r);
void __malloc_unlock(struct _reent *r);
void __malloc_lock(struct _reent *r)
{
    (void)r;
    if (xTaskGetSchedulerState() != taskSCHEDULER_NOT_STARTED)
        vTaskSuspendAll();
}
void __malloc_unlock(struct _reent *r)
{
    (void)r;
    if (xTaskGetSchedulerState() != taskSCHEDULER_NOT_STARTED)
        (void)xTaskResumeAll();
}
