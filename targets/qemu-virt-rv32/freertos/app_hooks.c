/* What the RV32 SMP firmwares give the kernel and rtipc beyond the hooks of
 * targets/common/freertos_hooks.c: the routes of the machine timer and of
 * rtipc's vector to their entries, and rtipc's vector enabled on each hart.
 * Exceptions stay with the board (a fault report). */
#include "FreeRTOS.h"
#include "task.h"

#include "board.h"
#include "rv32_freertos.h"

#define MIE_SSIE 2u /* supervisor software interrupt: rtipc's vector */
#define MIE_MSIE 8u /* machine software interrupt: the kernel's launch, then its yields */

/* The port installs its software-interrupt (yield) entry itself; the timer
 * entry and rtipc's vector (each hart's supervisor software interrupt,
 * pended through the ACLINT SSWI) are the application's to route. The trap
 * table is every hart's, so cause 1 reaches rtipc's entry on either hart.
 * Called on hart 0 before vTaskStartScheduler; the port keeps the mie bits
 * set here (it only sets its own). */
void rtipc_rv32_kernel_traps(void)
{
    extern void freertos_risc_v_mtimer_interrupt_handler(void);
    extern void rtipc_rv32_irq_entry(void);
    board_trap_install(7, freertos_risc_v_mtimer_interrupt_handler);
    board_trap_install(1, rtipc_rv32_irq_entry);
    __asm__ volatile("csrs mie, %0" ::"r"(MIE_SSIE) : "memory");
}

/* The other harts (the board's start-up calls this before main): wait for
 * the kernel port's launch IPI as the board's default does, with rtipc's
 * vector enabled too, so that core 1's sources are served from the first
 * task on. Nothing pends it before then: the backend leaves a pend for
 * another hart to the first tick until the scheduler runs
 * (src/port/freertos/irq_rv32_virt.c). The launch keeps this mie bit. */
void board_hart_main(unsigned hart)
{
    (void)hart;
    __asm__ volatile("csrs mie, %0\n\tcsrsi mstatus, 8" ::"r"(MIE_MSIE | MIE_SSIE) : "memory");
    for (;;)
        __asm__ volatile("wfi");
}
