/* rtipc-cm3-conformance: rtipc's conformance suite (tests/conformance) on the
 * FreeRTOS kernel on a Cortex-M3, with its interrupt scenarios on rtipc's
 * NVIC backend, compared line by line with tests/conformance/expected.txt
 * (built in as conformance_expected.h; targets/common/conformance_check.c);
 * the firmware exits 0 only if the suite passed and every line matched
 * (built in direct mode, but for the deviations listed below). */
#include <stdint.h>
#include <stdio.h>

#include "FreeRTOS.h"
#include "task.h"

#include "board.h"
#include "conformance.h"
#include "conformance_check.h"
#include "conformance_expected.h" /* generated: static const char conformance_expected[] */
#include "rtipc/config.h"

/* Built in direct mode (docs/porting.md): the two checks of refusals that
 * mode gives up, the calls not made (tests/conformance). */
static const char *const direct_mode[] = {
    "ringbuf.delete: 0 then=not-called",
    "irq.handler_context: in_interrupt=1 core=0 sem_take=not-called mutex_unlock=RTIPC_ECONTEXT "
    "queue_send=not-called delay=RTIPC_ECONTEXT holder=runner sem=1 queue=0",
    NULL,
};

static void runner(void *arg)
{
    (void)arg;
    printf("rtipc conformance suite on FreeRTOS %s, Cortex-M3 (QEMU mps2-an385), SysTick %lu Hz\n",
           tskKERNEL_VERSION_NUMBER, (unsigned long)rtipc_cm3_systick_hz);
    board_exit(rtipc_conformance_check(conformance_expected, RTIPC_DIRECT ? direct_mode : NULL));
}

int main(void)
{
    (void)board_calibrate();
    rtipc_cm3_systick_hz = board_systick_hz();
    /* A plain FreeRTOS task: rtipc adopts it on its first call. */
    if (xTaskCreate(runner, "conformance", 2048, NULL, 1, NULL) != pdPASS) {
        printf("rtipc-cm3-conformance: cannot create the runner task\n");
        return 1;
    }
    vTaskStartScheduler();
    printf("rtipc-cm3-conformance: the scheduler returned\n");
    return 1;
}
