/* Shared by the RV32 SMP firmwares (app_hooks.c). */
#ifndef RTIPC_RV32_FREERTOS_H
#define RTIPC_RV32_FREERTOS_H

/* Route the machine timer to the kernel port's tick entry. */
void rtipc_rv32_kernel_traps(void);

#endif
