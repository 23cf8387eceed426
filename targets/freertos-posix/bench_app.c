/* rtipc-bench's application hooks on the simulator: the tick hook drives
 * rtipc's interrupt timers (rtipc_irq_timer_*), as a board's tick or timer
 * interrupt would. The benchmark itself is bench/main_freertos.c. */
#include "FreeRTOS.h"
#include "task.h"

#include "rtipc/port_freertos.h"

void vApplicationTickHook(void);
void vApplicationTickHook(void) { rtipc_freertos_tick_hook(); }
