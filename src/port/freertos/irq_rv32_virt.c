/* Interrupt backend for the FreeRTOS RV32 SMP port on QEMU's virt machine
 * (-M virt,aclint=on); see irq_port.h.
 *
 * Core c's vector is hart c's supervisor software interrupt (cause 1), left
 * undelegated so that it traps to machine mode like the kernel's own
 * interrupts. Any hart pends core c's vector by writing 1 to hart c's
 * SETSSIP register of the ACLINT SSWI device (rtipcCONFIG_RV32_SSWI_BASE,
 * default 0x02F00000, one word per hart): a software interrupt that needs
 * no peripheral and leaves MSIP, the kernel port's yield request, alone.
 * The application routes trap cause 1 (of every hart: the trap table is
 * shared) to an entry that saves the interrupted context as the port's
 * handlers do and calls rtipc_freertos_irq_vector() (targets/qemu-virt-rv32:
 * irq_entry.S), and enables mie.SSIE on every hart (app_hooks.c: hart 0
 * before the scheduler starts, the others while they wait for the kernel's
 * launch). Every core of the kernel (configNUMBER_OF_CORES) is served.
 *
 * A pend from a task with interrupts enabled waits until a run of core c's
 * vector that began after the request has finished: the interrupt is taken
 * asynchronously, on this hart a few instructions later, on another hart
 * whenever that hart next checks. Before the scheduler runs, a pend for
 * another hart is left to the first tick (rtipc_freertos_tick_hook pends
 * every core that has a source pending): until the kernel launches them the
 * other harts wait with interrupts enabled and no task to save a context
 * into, so their vector must not be taken yet. */
#include <stdatomic.h>
#include <stdint.h>

#include "irq_port.h"
#include "port_internal.h"
#include "rtipc/port_freertos.h"

#ifndef rtipcCONFIG_RV32_SSWI_BASE
#define rtipcCONFIG_RV32_SSWI_BASE 0x02F00000u
#endif

#define SETSSIP(hart) (*(volatile uint32_t *)(uintptr_t)(rtipcCONFIG_RV32_SSWI_BASE + 4u * (uint32_t)(hart)))
#define MIP_SSIP 2u
#define MSTATUS_MIE 8u

/* Runs of each core's vector begun and finished; only that core's hart
 * writes its pair, one run at a time (machine-mode traps do not nest
 * here). */
static atomic_uint entered[configNUMBER_OF_CORES], finished[configNUMBER_OF_CORES];

static inline uint32_t read_mstatus(void)
{
    uint32_t v;
    __asm__ volatile("csrr %0, mstatus" : "=r"(v));
    return v;
}

unsigned rtipc__irq_hw_cores(void) { return (1u << configNUMBER_OF_CORES) - 1u; }

int rtipc__irq_hw_init(unsigned core)
{
    /* A hart can only enable its own interrupts: on the caller's hart do it
     * here; another's was enabled by the application before the scheduler
     * started there. */
    if (core == (unsigned)portGET_CORE_ID())
        __asm__ volatile("csrs mie, %0" ::"r"(MIP_SSIP) : "memory");
    return RTIPC_OK;
}

/* Whether the kernel runs, hence every hart has been launched: latched, so
 * that a pend asks the kernel (a critical section on SMP) only until then.
 * Interrupt context means it runs (no hart takes one before). */
static atomic_bool launched;

static bool harts_launched(void)
{
    if (atomic_load_explicit(&launched, memory_order_relaxed) || rtipc__in_isr())
        return true;
    if (xTaskGetSchedulerState() == taskSCHEDULER_NOT_STARTED)
        return false;
    atomic_store_explicit(&launched, true, memory_order_relaxed);
    return true;
}

void rtipc__irq_hw_pend(unsigned core)
{
    if (core != (unsigned)portGET_CORE_ID() && !harts_launched())
        return; /* the first tick pends it (above) */
    atomic_thread_fence(memory_order_seq_cst); /* the source's pending flag before the count */
    unsigned before = atomic_load_explicit(&entered[core], memory_order_acquire);
    atomic_thread_fence(memory_order_seq_cst); /* ... and the count before the request */
    SETSSIP(core) = 1u;
    if (rtipc__in_isr() || (read_mstatus() & MSTATUS_MIE) == 0)
        return; /* taken when interrupts are unmasked again (here or there) */
    /* The (before+1)-th run entered after the flag was set, so it runs this
     * request's handler; wait for it to finish. With this hart's interrupts
     * enabled, the task may move to another hart meanwhile: the counts are
     * the target core's, not the caller's. */
    while ((int)(atomic_load_explicit(&finished[core], memory_order_acquire) - (before + 1u)) < 0)
        ;
}

void rtipc_freertos_irq_vector(void)
{
    unsigned c = (unsigned)portGET_CORE_ID();
    /* Clear first: a request made while the handlers run pends it again. */
    __asm__ volatile("csrc mip, %0" ::"r"(MIP_SSIP) : "memory");
    atomic_fetch_add_explicit(&entered[c], 1u, memory_order_seq_cst);
    bool yield = rtipc__irq_service();
    atomic_fetch_add_explicit(&finished[c], 1u, memory_order_release);
    portYIELD_FROM_ISR(yield ? pdTRUE : pdFALSE); /* on this core */
}
