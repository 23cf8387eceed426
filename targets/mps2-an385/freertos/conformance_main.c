/* rtipc-cm3-conformance: rtipc's conformance suite (tests/conformance) on the
 * FreeRTOS kernel on a Cortex-M3, with its interrupt scenarios on rtipc's
 * NVIC backend, compared line by line with tests/conformance/expected.txt
 * (built in as conformance_expected.h; targets/common/conformance_check.c);
 * the firmware exits 0 only if the suite passed and every line matched. */
#include <stdint.h>
#include <stdio.h>

#include "FreeRTOS.h"
#include "task.h"

#include "board.h"
#include "conformance.h"
#include "conformance_check.h"
#include "conformance_expected.h" /* generated: static const char conformance_expected[] */

static void runner(void *arg)
{
    (void)arg;
    printf("rtipc conformance suite on FreeRTOS %s, Cortex-M3 (QEMU mps2-an385), SysTick %lu Hz\n",
           tskKERNEL_VERSION_NUMBER, (unsigned long)rtipc_cm3_systick_hz);
    board_exit(rtipc_conformance_check(conformance_expected, NULL));
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
