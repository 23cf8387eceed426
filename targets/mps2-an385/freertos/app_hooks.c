/* What the firmware gives the kernel, rtipc and newlib: the assertion, heap
 * and stack-overflow hooks, the tick hook that drives rtipc's interrupt
 * timers, rtipc's interrupt vector on the spare NVIC line, and the lock
 * newlib's malloc takes (tasks allocate at the same time). */
#include <reent.h>
#include <stdio.h>

#include "FreeRTOS.h"
#include "task.h"

#include "board.h"
#include "rtipc/port_freertos.h"

/* configCPU_CLOCK_HZ (FreeRTOSConfig.h): each firmware's main() measures it
 * (board_systick_hz) before it starts the scheduler. */
uint32_t rtipc_cm3_systick_hz = BOARD_CPU_HZ;

void rtipc_cm3_assert_failed(const char *file, unsigned long line)
{
    printf("FreeRTOS assertion failed at %s:%lu\n", file, line);
    board_exit(3);
}

void vApplicationMallocFailedHook(void);
void vApplicationMallocFailedHook(void)
{
    printf("FreeRTOS heap exhausted\n");
    board_exit(4);
}

void vApplicationStackOverflowHook(TaskHandle_t task, char *name);
void vApplicationStackOverflowHook(TaskHandle_t task, char *name)
{
    (void)task;
    printf("stack overflow in task %s\n", name);
    board_exit(5);
}

void vApplicationTickHook(void);
void vApplicationTickHook(void) { rtipc_freertos_tick_hook(); }

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
