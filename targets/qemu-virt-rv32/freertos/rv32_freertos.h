/* Shared by the RV32 SMP firmwares (app_hooks.c). */
#ifndef RTIPC_RV32_FREERTOS_H
#define RTIPC_RV32_FREERTOS_H

/* Route the machine timer to the kernel port's tick entry and trap cause 1
 * (every hart's) to rtipc's vector, and enable that on hart 0; call on
 * hart 0 before vTaskStartScheduler. app_hooks.c's board_hart_main enables
 * it on hart 1. */
void rtipc_rv32_kernel_traps(void);

#endif
