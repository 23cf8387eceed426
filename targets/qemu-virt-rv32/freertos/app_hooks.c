/* What the RV32 SMP firmwares give the kernel and rtipc: the route of the
 * machine timer to the port's tick handler, the assertion, heap and
 * stack-overflow hooks, and the tick hook that drives rtipc's interrupt
 * timers. Exceptions stay with the board (a fault report). */
#include <stdio.h>

#include "FreeRTOS.h"
#include "task.h"

#include "board.h"
#include "rtipc/port_freertos.h"
#include "rv32_freertos.h"

/* The port installs its software-interrupt (yield) entry itself; the timer
 * entry and rtipc's vector (hart 0's supervisor software interrupt, pended
 * through the ACLINT SSWI) are the application's to route. Called on hart 0
 * before vTaskStartScheduler; the port keeps the mie bits set here. */
void rtipc_rv32_kernel_traps(void)
{
    extern void freertos_risc_v_mtimer_interrupt_handler(void);
    extern void rtipc_rv32_irq_entry(void);
    board_trap_install(7, freertos_risc_v_mtimer_interrupt_handler);
    board_trap_install(1, rtipc_rv32_irq_entry);
    __asm__ volatile("csrs mie, %0" ::"r"(2u) : "memory");
}

void rtipc_rv32_assert_failed(const char *file, unsigned long line)
{
    printf("FreeRTOS assertion failed on core %u at %s:%lu\n", board_hart_id(), file, line);
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
