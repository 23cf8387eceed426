/* Interrupt backend for ESP-IDF on the ESP32's Xtensa cores; see irq_port.h.
 *
 * Core c's vector is that CPU's internal software interrupt 0 (CPU
 * interrupt 7, level 1), allocated on core c with esp_intr_alloc
 * (ETS_INTERNAL_SW0_INTR_SOURCE) from core c's IPC task (by the caller on
 * a unicore build, which has no IPC task), so it takes no
 * peripheral, no interrupt-matrix source and no GPIO. A CPU can raise only
 * its own software interrupts (INTSET): core c pends its own vector
 * directly; the other core asks core c to, through ESP-IDF's IPC ISR
 * (esp_ipc_isr_asm_call), whose callback irq_espidf_raise.S sets core c's
 * INTSET bit from core c's high-priority interrupt. That path exists
 * because the interrupt matrix's cross-core sources (FROM_CPU_INTR0-3) are
 * all ESP-IDF's own on the esp32 (its cross-core yield and the IPC ISR).
 *
 * A pend from a task with interrupts enabled waits until a run of core c's
 * vector that began after the request has finished (counts per core, as
 * the RV32 backend keeps them); with interrupts masked (a critical section,
 * another handler) it returns at once and the vector runs when core c
 * takes it. rtipc's interrupt timers need the tick: the first source
 * created registers rtipc_freertos_tick_hook on core 0's tick
 * (esp_register_freertos_tick_hook_for_cpu), so an ESP-IDF application
 * does not call it itself.
 *
 * The vector is not in IRAM (no ESP_INTR_FLAG_IRAM): the handlers it calls
 * are the application's, in flash, so ESP-IDF masks it while the flash
 * cache is off and it runs once the cache is back. */
#include <stdatomic.h>
#include <stdint.h>

#include "irq_port.h"
#include "port_internal.h" /* ESP-IDF's kernel, hence configNUMBER_OF_CORES */
#include "rtipc/port_freertos.h"

#include "esp_freertos_hooks.h"
#include "esp_intr_alloc.h"
#if configNUMBER_OF_CORES > 1
#include "esp_ipc.h"
#include "esp_ipc_isr.h"
#endif
#include "xtensa/hal.h"

#define SW0_MASK (1u << 7) /* CPU interrupt 7: internal software interrupt 0 */

/* Runs of each core's vector begun and finished; only that core writes its
 * pair, one run at a time (a level-1 interrupt does not nest in itself). */
static atomic_uint entered[configNUMBER_OF_CORES], finished[configNUMBER_OF_CORES];
/* Each core's allocation; written once by that core's IPC task. */
static intr_handle_t vector_handle[configNUMBER_OF_CORES];
static atomic_bool tick_hooked;

#if configNUMBER_OF_CORES > 1
/* irq_espidf_raise.S: sets the running CPU's INTSET bit 7; an IPC ISR
 * callback (callx0, scratch a2-a4 only). */
void rtipc__espidf_raise_sw0(void *arg);
#endif

static void vector(void *arg)
{
    (void)arg;
    unsigned c = (unsigned)xPortGetCoreID();
    /* Clear first: a request made while the handlers run pends it again. */
    xthal_set_intclear(SW0_MASK);
    atomic_fetch_add_explicit(&entered[c], 1u, memory_order_seq_cst);
    bool yield = rtipc__fr_irq_service();
    atomic_fetch_add_explicit(&finished[c], 1u, memory_order_release);
    portYIELD_FROM_ISR(yield ? pdTRUE : pdFALSE); /* on this core */
}

unsigned rtipc__fr_irq_hw_cores(void) { return (1u << configNUMBER_OF_CORES) - 1u; }

/* On the core to serve (its IPC task, or the caller when that is the core
 * and the scheduler has not started): allocate the vector once. */
static void init_here(void *arg)
{
    int *rc = arg;
    unsigned c = (unsigned)xPortGetCoreID();
    *rc = RTIPC_OK;
    if (vector_handle[c] == NULL &&
        esp_intr_alloc(ETS_INTERNAL_SW0_INTR_SOURCE, ESP_INTR_FLAG_LEVEL1, vector, NULL, &vector_handle[c]) != ESP_OK) {
        vector_handle[c] = NULL;
        *rc = RTIPC_ESYSTEM;
    }
}

int rtipc__fr_irq_hw_init(unsigned core)
{
    /* Made ready by an earlier source of this core: no IPC round trip. */
    if (vector_handle[core] != NULL && atomic_load(&tick_hooked))
        return RTIPC_OK;
    int rc = RTIPC_ESYSTEM;
#if configNUMBER_OF_CORES > 1
    if (xTaskGetSchedulerState() == taskSCHEDULER_RUNNING) {
        /* Core c's IPC task runs every allocation for core c: one at a time. */
        if (esp_ipc_call_blocking(core, init_here, &rc) != ESP_OK)
            return RTIPC_ESYSTEM;
    } else if (core == (unsigned)xPortGetCoreID()) {
        init_here(&rc);
    } else {
        return RTIPC_ESYSTEM; /* another core's IPC task needs the scheduler */
    }
#else
    /* One core, the caller's (a unicore build has no IPC task): two
     * creates at once must not both allocate. */
    (void)core;
    vTaskSuspendAll();
    init_here(&rc);
    (void)xTaskResumeAll();
#endif
    if (rc != RTIPC_OK)
        return rc;
    if (!atomic_exchange(&tick_hooked, true) &&
        esp_register_freertos_tick_hook_for_cpu(rtipc_freertos_tick_hook, 0) != ESP_OK) {
        atomic_store(&tick_hooked, false);
        return RTIPC_ESYSTEM;
    }
    return RTIPC_OK;
}

void rtipc__fr_irq_hw_pend(unsigned core)
{
    if (core >= configNUMBER_OF_CORES || vector_handle[core] == NULL)
        return; /* no source of that core was created: nothing to run */
    bool wait = !rtipc__fr_in_isr() && xPortCanYield();
    atomic_thread_fence(memory_order_seq_cst); /* the source's pending flag before the count */
    unsigned before = atomic_load_explicit(&entered[core], memory_order_acquire);
    atomic_thread_fence(memory_order_seq_cst); /* ... and the count before the request */
    /* Masked, so that the caller stays on the core it asked about: an
     * unpinned task moved between the question and the raise would raise
     * the wrong core's vector. An own-core request is taken at the unmask. */
    UBaseType_t mask = portSET_INTERRUPT_MASK_FROM_ISR();
    if (core == (unsigned)xPortGetCoreID())
        xthal_set_intset(SW0_MASK);
#if configNUMBER_OF_CORES > 1
    else
        esp_ipc_isr_asm_call(rtipc__espidf_raise_sw0, NULL); /* returns once the other core runs it */
#endif
    portCLEAR_INTERRUPT_MASK_FROM_ISR(mask);
    if (!wait)
        return; /* taken when interrupts are unmasked again (here or there) */
    /* The (before+1)-th run entered after the request, so it runs this
     * request's handler; wait for it to finish. The task may move to the
     * other core meanwhile: the counts are the target core's. */
    while ((int)(atomic_load_explicit(&finished[core], memory_order_acquire) - (before + 1u)) < 0)
        ;
}
