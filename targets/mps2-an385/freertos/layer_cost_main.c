/* rtipc-cm3-layer-cost: the layer's cost (tests/perf/layer_cost.h) on the
 * FreeRTOS kernel on a Cortex-M3, counted exactly with the board's
 * instruction stamps under -icount shift=0; tests/perf/layer_cost.sh
 * compares the lines with tests/perf/layer_cost-cm3.baseline. */
#include <stdint.h>
#include <stdio.h>

#include "FreeRTOS.h"
#include "task.h"

#include "board.h"
#include "layer_cost.h"

static board_stamp_t started;

static void start(void) { started = board_stamp_start(); }

static uint64_t stop(void)
{
    board_stamp_t end = board_stamp_end();
    return (uint64_t)board_stamp_instr(started, end);
}

static void runner(void *arg)
{
    (void)arg;
    printf("rtipc layer cost on FreeRTOS %s, Cortex-M3 (QEMU mps2-an385)\n", tskKERNEL_VERSION_NUMBER);
    if (!board_stamp_exact()) {
        printf("layer-cost: the stamps are not exact (run QEMU with -icount shift=0)\n");
        board_exit(1);
    }
    static const layer_cost_counter_t counter = {start, stop, "instructions"};
    int rc = layer_cost_run(&counter);
    if (rc == 0 && board_stamp_anomalies() != 0) {
        printf("layer-cost: %lu stamp anomalies\n", (unsigned long)board_stamp_anomalies());
        rc = 1;
    }
    board_exit(rc);
}

int main(void)
{
    (void)board_calibrate();
    rtipc_cm3_systick_hz = board_systick_hz();
    if (xTaskCreate(runner, "layer-cost", 1024, NULL, 1, NULL) != pdPASS) {
        printf("rtipc-cm3-layer-cost: cannot create the runner task\n");
        return 1;
    }
    vTaskStartScheduler();
    printf("rtipc-cm3-layer-cost: the scheduler returned\n");
    return 1;
}
