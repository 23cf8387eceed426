/* What the RV32 SMP firmwares give the kernel and rtipc beyond the hooks of
 * targets/common/freertos_hooks.c: the routes of the machine timer and of
 * rtipc's vector to their entries. Exceptions stay with the board (a fault
 * report). */
#include "FreeRTOS.h"
#include "task.h"

#include "board.h"
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
