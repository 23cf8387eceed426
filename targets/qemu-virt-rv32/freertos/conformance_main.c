/* rtipc-rv32-conformance: rtipc's conformance suite (tests/conformance) on the
 * FreeRTOS SMP kernel on two RV32 harts. The suite runs in a task pinned to
 * core 0 (its helpers pin themselves there too, RTIPC_CONF_CORE) while core 1
 * runs the kernel's other tasks. Each line that is not commentary is
 * compared with tests/conformance/expected.txt; exit 0 only if the suite
 * passed and every line matched. */
#include <stdio.h>

#include "FreeRTOS.h"
#include "task.h"

#include "board.h"
#include "conformance.h"
#include "conformance_check.h"
#include "conformance_expected.h" /* generated: static const char conformance_expected[] */
#include "rtipc/config.h"
#include "rv32_freertos.h"

/* The upstream SMP kernel performs, at the end of a task's next critical
 * section on that core (vTaskExitCritical), the yield a FromISR call pended
 * for the interrupted core. A handler that wakes a higher-priority task of
 * its own core without asking for the yield (rtipc_irq_yield) therefore
 * hands over at the interrupted task's next kernel call, not at its next
 * yield or tick as on the single-core kernel and ESP-IDF (docs/rv32-virt.md). */
static const char *const smp_kernel_deviations[] = {
    "irq.handoff.no_yield.reschedule: trigger=0 give=0 woken=1 steps=T.trigger isr R.run T.returned T.yield "
    "T.after_yield rx=0",
    "irq.handoff.no_yield.tick: trigger=0 give=0 woken=1 steps=T.trigger isr R.run@same_tick T.returned T.gave_up "
    "rx=0",
#if RTIPC_DIRECT
    /* Built in direct mode (docs/porting.md): the two checks of refusals
     * that mode gives up, the calls not made (tests/conformance). */
    "ringbuf.delete: 0 then=not-called",
    "irq.handler_context: in_interrupt=1 core=0 sem_take=not-called mutex_unlock=RTIPC_ECONTEXT "
    "queue_send=not-called delay=RTIPC_ECONTEXT holder=runner sem=1 queue=0",
#endif
    NULL,
};

static void runner(void *arg)
{
    (void)arg;
    printf("rtipc conformance suite on FreeRTOS %s, %d cores (QEMU virt RV32), runner on core %u\n",
           tskKERNEL_VERSION_NUMBER, configNUMBER_OF_CORES, (unsigned)portGET_CORE_ID());
    board_exit(rtipc_conformance_check(conformance_expected, smp_kernel_deviations));
}

int main(void)
{
    /* A plain FreeRTOS task, pinned to core 0: rtipc adopts it on its first call. */
    if (xTaskCreateAffinitySet(runner, "conformance", 4096, NULL, 1, (UBaseType_t)1 << RTIPC_CONF_CORE, NULL) !=
        pdPASS) {
        printf("rtipc-rv32-conformance: cannot create the runner task\n");
        return 1;
    }
    rtipc_rv32_kernel_traps();
    vTaskStartScheduler();
    printf("rtipc-rv32-conformance: the scheduler returned\n");
    return 1;
}
