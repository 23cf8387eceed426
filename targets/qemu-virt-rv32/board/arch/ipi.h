/* arch_* layer for the FreeRTOS RV32 SMP port: inter-processor interrupts
 * through the CLINT's MSIP registers (machine software interrupt, cause 3).
 * The port owns MSIP once its scheduler runs: it is its yield request, to
 * another core and to its own (portYIELD). */
#ifndef RTIPC_RV32_ARCH_IPI_H
#define RTIPC_RV32_ARCH_IPI_H

#include <stdint.h>

#include "arch/cpuid.h"
#include "board_layout.h"

#define ARCH_CLINT_MSIP(hart) (*(volatile uint32_t *)(uintptr_t)(0x02000000u + 4u * (uint32_t)(hart)))

static inline void arch_ipi_send(uint32_t hart)
{
    /* Order the caller's stores (the ready lists) before the other hart
     * can take the interrupt. */
    __asm__ volatile("fence rw, rw" ::: "memory");
    ARCH_CLINT_MSIP(hart) = 1u;
    /* A yield to this core must have happened when the call returns: the
     * kernel goes on as if it had (ulTaskNotifyTake re-reads the value it
     * blocked for right after its yield). The interrupt is taken some
     * instructions after the store (QEMU: at the end of the translated
     * block), so with interrupts enabled wait until the handler has
     * cleared the bit. Masked, it stays pending, as the kernel expects. */
    if (hart == arch_cpuid()) {
        uint32_t mstatus;
        __asm__ volatile("csrr %0, mstatus" : "=r"(mstatus));
        if (mstatus & 8u)
            while (ARCH_CLINT_MSIP(hart) != 0u)
                ;
    }
}

static inline void arch_ipi_clear(void) { ARCH_CLINT_MSIP(arch_cpuid()) = 0u; }

#endif
