/* Start-up of the mps2-an385 board: the vector table, the reset handler and
 * the default exception handler.
 *
 * The vector table is the constant board_vectors; the build compiles with
 * -fdata-sections, so it lands in the section .rodata.board_vectors, which
 * the linker script places first in the code memory at 0x00000000 (where the
 * Cortex-M3 fetches the initial stack pointer and the reset vector). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "board_print.h"

int main(void);

/* Linker script symbols (mps2-an385.ld). */
extern uint32_t __data_start[], __data_end[], __data_load[], __bss_start[], __bss_end[];
extern uint32_t __stack_top[];

uint32_t board_ipsr(void);
_Noreturn void board_exit_unflushed(int code);

void Reset_Handler(void);
void board_default_handler(void);

/* Every handler is a weak alias that leads to board_default_handler
 * (board_asm.S): a definition of the same name elsewhere replaces it
 * (board.h declares them). */

typedef void (*board_vector_t)(void);

/* Entry 0 is the initial main stack pointer, 1 the reset handler, 2..15 the
 * system exceptions (0 where the M3 reserves the slot), 16.. the external
 * interrupts. */
const board_vector_t board_vectors[16 + BOARD_NUM_IRQS] = {
    (board_vector_t)(uintptr_t)__stack_top,
    Reset_Handler,
    NMI_Handler,
    HardFault_Handler,
    MemManage_Handler,
    BusFault_Handler,
    UsageFault_Handler,
    0, 0, 0, 0,
    SVC_Handler,
    DebugMon_Handler,
    0,
    PendSV_Handler,
    SysTick_Handler,
    IRQ0_Handler, IRQ1_Handler, IRQ2_Handler, IRQ3_Handler, IRQ4_Handler, IRQ5_Handler, IRQ6_Handler,
    IRQ7_Handler, IRQ8_Handler, IRQ9_Handler, IRQ10_Handler, IRQ11_Handler, IRQ12_Handler, IRQ13_Handler,
    IRQ14_Handler, IRQ15_Handler, IRQ16_Handler, IRQ17_Handler, IRQ18_Handler, IRQ19_Handler,
    IRQ20_Handler, IRQ21_Handler, IRQ22_Handler, IRQ23_Handler, IRQ24_Handler, IRQ25_Handler,
    IRQ26_Handler, IRQ27_Handler, IRQ28_Handler, IRQ29_Handler, IRQ30_Handler, IRQ31_Handler,
};

#define SCB_VTOR (*(volatile uint32_t *)0xE000ED08u)
#define SCB_SHCSR (*(volatile uint32_t *)0xE000ED24u)
#define SCB_CFSR (*(volatile uint32_t *)0xE000ED28u)
#define SCB_HFSR (*(volatile uint32_t *)0xE000ED2Cu)
#define SCB_MMFAR (*(volatile uint32_t *)0xE000ED34u)
#define SCB_BFAR (*(volatile uint32_t *)0xE000ED38u)

void Reset_Handler(void)
{
    /* Copy initialised data from its load address, zero the rest. */
    size_t data_bytes = (size_t)((uintptr_t)__data_end - (uintptr_t)__data_start);
    if (&__data_load[0] != &__data_start[0])
        memmove(__data_start, __data_load, data_bytes);
    memset(__bss_start, 0, (size_t)((uintptr_t)__bss_end - (uintptr_t)__bss_start));
    SCB_VTOR = (uint32_t)(uintptr_t)board_vectors;
    /* MemManage, BusFault and UsageFault get their own vectors (otherwise
     * they escalate to HardFault). */
    SCB_SHCSR |= (1u << 16) | (1u << 17) | (1u << 18);
    board_init();
    board_exit(main());
}

static const char *exception_name(uint32_t n)
{
    static const char *const names[16] = {"thread", "reset", "NMI", "HardFault", "MemManage", "BusFault",
                                          "UsageFault", "reserved", "reserved", "reserved", "reserved",
                                          "SVC", "DebugMon", "reserved", "PendSV", "SysTick"};
    return n < 16 ? names[n] : "external interrupt";
}

/* An exception nobody handles: report it on the UART directly (stdio may be
 * what broke) and fail. */
void board_default_handler(void)
{
    uint32_t n = board_ipsr() & 0x1ffu;
    board_puts("\nFAULT: unhandled exception ");
    board_put_dec(n);
    board_puts(" (");
    board_puts(exception_name(n));
    if (n >= 16) {
        board_puts(" IRQ");
        board_put_dec(n - 16);
    }
    board_puts(") CFSR=");
    board_put_hex(SCB_CFSR);
    board_puts(" HFSR=");
    board_put_hex(SCB_HFSR);
    board_puts(" MMFAR=");
    board_put_hex(SCB_MMFAR);
    board_puts(" BFAR=");
    board_put_hex(SCB_BFAR);
    board_puts("\n");
    board_exit_unflushed(128 + (int)n);
}
