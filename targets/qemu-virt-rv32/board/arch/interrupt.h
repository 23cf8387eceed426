/* arch_* layer for the FreeRTOS RV32 SMP port: this hart's interrupt mask
 * (mstatus.MIE). The saved state is the MIE bit alone. Trap handlers run
 * with MIE clear (no nesting), so the from-ISR pair is the same as the task
 * pair. */
#ifndef RTIPC_RV32_ARCH_INTERRUPT_H
#define RTIPC_RV32_ARCH_INTERRUPT_H

#include <stdint.h>

static inline void arch_disable_interrupts(void) { __asm__ volatile("csrci mstatus, 8" ::: "memory"); }

static inline void arch_enable_interrupts(void) { __asm__ volatile("csrsi mstatus, 8" ::: "memory"); }

static inline uint32_t arch_save_and_disable_interrupts(void)
{
    uint32_t old;
    __asm__ volatile("csrrci %0, mstatus, 8" : "=r"(old)::"memory");
    return old & 8u;
}

static inline void arch_restore_interrupts(uint32_t saved)
{
    __asm__ volatile("csrs mstatus, %0" ::"r"(saved & 8u) : "memory");
}

static inline uint32_t arch_set_interrupt_mask_from_isr(void) { return arch_save_and_disable_interrupts(); }

static inline void arch_clear_interrupt_mask_from_isr(uint32_t saved) { arch_restore_interrupts(saved); }

#endif
