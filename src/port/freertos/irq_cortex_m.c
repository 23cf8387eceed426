/* Interrupt backend for Cortex-M kernels (FreeRTOS ports ARM_CM0 .. ARM_CM7,
 * ARMv6-M and ARMv7-M NVIC); see irq_port.h.
 *
 * rtipc's vector is one external interrupt line that no peripheral drives,
 * named by rtipcCONFIG_CORTEX_M_IRQ in FreeRTOSConfig.h. The application
 * routes that line's vector-table entry to rtipc_freertos_irq_vector()
 * (rtipc/port_freertos.h). Pending is a write to the NVIC's set-pending
 * register, exactly what a peripheral raising the line does; its priority
 * is rtipcCONFIG_CORTEX_M_IRQ_PRIORITY (default configMAX_SYSCALL_INTERRUPT_PRIORITY,
 * the most urgent level from which FromISR calls are allowed), so the
 * kernel's critical sections (BASEPRI) hold it off like any other
 * interrupt that calls the kernel. One core: sources on core 0 only. */
#include <stdint.h>

#include "irq_port.h"
#include "port_internal.h"
#include "rtipc/port_freertos.h"

#ifndef rtipcCONFIG_CORTEX_M_IRQ
#error "rtipc's Cortex-M interrupt backend needs rtipcCONFIG_CORTEX_M_IRQ in FreeRTOSConfig.h: an external interrupt line no peripheral drives, whose vector calls rtipc_freertos_irq_vector() (docs/mcu.md)"
#endif
#ifndef rtipcCONFIG_CORTEX_M_IRQ_PRIORITY
#define rtipcCONFIG_CORTEX_M_IRQ_PRIORITY configMAX_SYSCALL_INTERRUPT_PRIORITY
#endif
#if (rtipcCONFIG_CORTEX_M_IRQ) < 0 || (rtipcCONFIG_CORTEX_M_IRQ) > 495
#error "rtipcCONFIG_CORTEX_M_IRQ must be an external interrupt number, 0 .. 495"
#endif

/* NVIC registers (ARMv6-M / ARMv7-M system control space). */
#define NVIC_ISER ((volatile uint32_t *)0xE000E100u) /* set-enable */
#define NVIC_ISPR ((volatile uint32_t *)0xE000E200u) /* set-pending */
#define NVIC_IPR ((volatile uint32_t *)0xE000E400u)  /* priorities, 4 lines per word */

#define LINE ((uint32_t)(rtipcCONFIG_CORTEX_M_IRQ))
#define LINE_BIT (1u << (LINE % 32u))

/* Complete the register write and let a now-pending interrupt be taken
 * before the next instruction (ARM's rule for software-pended interrupts). */
static inline void barrier(void) { __asm__ volatile("dsb 0xF\n\tisb 0xF" ::: "memory"); }

unsigned rtipc__irq_hw_cores(void) { return 1u; }

int rtipc__irq_hw_init(unsigned core)
{
    (void)core; /* 0 */
    /* Word access: ARMv6-M has no byte access to the priority registers. */
    uint32_t shift = (LINE % 4u) * 8u;
    taskENTER_CRITICAL();
    uint32_t ipr = NVIC_IPR[LINE / 4u];
    ipr = (ipr & ~(0xFFu << shift)) | ((uint32_t)(uint8_t)(rtipcCONFIG_CORTEX_M_IRQ_PRIORITY) << shift);
    NVIC_IPR[LINE / 4u] = ipr;
    taskEXIT_CRITICAL();
    NVIC_ISER[LINE / 32u] = LINE_BIT; /* idempotent */
    barrier();
    return RTIPC_OK;
}

void rtipc__irq_hw_pend(unsigned core)
{
    (void)core; /* 0 */
    NVIC_ISPR[LINE / 32u] = LINE_BIT;
    barrier();
}

void rtipc_freertos_irq_vector(void) { portYIELD_FROM_ISR(rtipc__irq_service() ? pdTRUE : pdFALSE); }
