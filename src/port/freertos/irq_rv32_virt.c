/* Interrupt backend for the FreeRTOS RV32 SMP port on QEMU's virt machine
 * (-M virt,aclint=on); see irq_port.h.
 *
 * rtipc's vector is the supervisor software interrupt (cause 1) of hart 0,
 * left undelegated so that it traps to machine mode like the kernel's own
 * interrupts. Any hart pends it by writing 1 to hart 0's SETSSIP register
 * of the ACLINT SSWI device (rtipcCONFIG_RV32_SSWI_BASE, default
 * 0x02F00000): a software interrupt that needs no peripheral and leaves
 * MSIP, the kernel port's yield request, alone. The application routes
 * trap cause 1 to an entry that saves the interrupted context as the port's
 * handlers do and calls rtipc_freertos_irq_vector() (targets/qemu-virt-rv32:
 * irq_entry.S). One vector, on core 0, as irq.c requires on several cores.
 *
 * A pend from a task with interrupts enabled waits until a run of the vector
 * that began after the request has finished: the interrupt is taken
 * asynchronously, on this hart a few instructions later, on the other hart
 * whenever hart 0 next checks. */
#include <stdatomic.h>
#include <stdint.h>

#include "irq_port.h"
#include "port_internal.h"
#include "rtipc/port_freertos.h"

#ifndef rtipcCONFIG_RV32_SSWI_BASE
#define rtipcCONFIG_RV32_SSWI_BASE 0x02F00000u
#endif

#define SETSSIP_HART0 (*(volatile uint32_t *)(uintptr_t)(rtipcCONFIG_RV32_SSWI_BASE))
#define MIP_SSIP 2u
#define MSTATUS_MIE 8u

/* Runs of the vector begun and finished; only hart 0 writes them, one run
 * at a time (machine-mode traps do not nest here). */
static atomic_uint entered, finished;

static inline uint32_t read_mstatus(void)
{
    uint32_t v;
    __asm__ volatile("csrr %0, mstatus" : "=r"(v));
    return v;
}

int rtipc__fr_irq_hw_init(void)
{
    /* Hart 0 takes the vector; from another core rely on the application
     * having enabled it there before the scheduler started. */
    if (portGET_CORE_ID() == 0)
        __asm__ volatile("csrs mie, %0" ::"r"(MIP_SSIP) : "memory");
    return RTIPC_OK;
}

void rtipc__fr_irq_hw_pend(void)
{
    unsigned before = atomic_load_explicit(&entered, memory_order_acquire);
    atomic_thread_fence(memory_order_seq_cst); /* the source's pending flag first */
    SETSSIP_HART0 = 1u;
    if (rtipc__fr_in_isr() || (read_mstatus() & MSTATUS_MIE) == 0)
        return; /* taken when interrupts are unmasked again */
    /* The (before+1)-th run entered after the flag was set, so it runs this
     * request's handler; wait for it to finish. */
    while ((int)(atomic_load_explicit(&finished, memory_order_acquire) - (before + 1u)) < 0)
        ;
}

void rtipc_freertos_irq_vector(void)
{
    /* Clear first: a request made while the handlers run pends it again. */
    __asm__ volatile("csrc mip, %0" ::"r"(MIP_SSIP) : "memory");
    atomic_fetch_add_explicit(&entered, 1u, memory_order_acq_rel);
    bool yield = rtipc__fr_irq_service();
    atomic_fetch_add_explicit(&finished, 1u, memory_order_release);
    portYIELD_FROM_ISR(yield ? pdTRUE : pdFALSE);
}
