/* The kernel hooks every rtipc FreeRTOS firmware on a board gives alike: a
 * failed assertion (configASSERT calls rtipc_target_assert_failed), an
 * exhausted heap and a stack overflow each stop the firmware with a message
 * and their exit code (3, 4, 5); the tick hook runs rtipc's interrupt
 * timers. Needs the board's board_exit (board.h). */
#include <stdio.h>

#include "FreeRTOS.h"
#include "task.h"

#include "board.h"
#include "rtipc/port_freertos.h"

void rtipc_target_assert_failed(const char *file, unsigned long line);
void vApplicationMallocFailedHook(void);
void vApplicationStackOverflowHook(TaskHandle_t task, char *name);
void vApplicationTickHook(void);

void rtipc_target_assert_failed(const char *file, unsigned long line)
{
#if configNUMBER_OF_CORES > 1
    printf("FreeRTOS assertion failed on core %u at %s:%lu\n", (unsigned)portGET_CORE_ID(), file, line);
#else
    printf("FreeRTOS assertion failed at %s:%lu\n", file, line);
#endif
    board_exit(3);
}

void vApplicationMallocFailedHook(void)
{
    printf("FreeRTOS heap exhausted\n");
    board_exit(4);
}

void vApplicationStackOverflowHook(TaskHandle_t task, char *name)
{
    (void)task;
    printf("stack overflow in task %s\n", name);
    board_exit(5);
}

void vApplicationTickHook(void) { rtipc_freertos_tick_hook(); }
