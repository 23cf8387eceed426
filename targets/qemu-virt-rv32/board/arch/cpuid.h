/* The arch_* layer the FreeRTOS community port GCC/RISC-V_RV32_SMP_QEMU_VIRT
 * expects from the board: the core id. Included from C and from the port's
 * assembly (which uses the `arch_cpuid reg` macro). A core is a hart here:
 * harts 0 .. BOARD_HARTS-1 are cores 0 .. BOARD_HARTS-1. */
#ifndef RTIPC_RV32_ARCH_CPUID_H
#define RTIPC_RV32_ARCH_CPUID_H

#ifdef __ASSEMBLER__
.macro arch_cpuid reg
    csrr \reg, mhartid
.endm
#else
#include <stdint.h>

static inline uint32_t arch_cpuid(void)
{
    uint32_t id;
    __asm__ volatile("csrr %0, mhartid" : "=r"(id));
    return id;
}
#endif

#endif
