/* rtipc-rv32-layer-cost: the layer's cost (tests/perf/layer_cost.h) on the
 * FreeRTOS SMP kernel on two RV32 harts, counted with this hart's
 * retired-instruction counter (minstret), exact in the vendored QEMU's
 * deterministic -icount mode. The other hart runs a task that
 * spins without a kernel call, so that no count includes a wait for a lock
 * the other hart holds (its idle task would take the kernel's locks at
 * every turn): what is counted is each call's own work.
 * tests/perf/layer_cost.sh compares the lines with
 * tests/perf/layer_cost-rv32.baseline. */
#include <stdint.h>
#include <stdio.h>

#include "FreeRTOS.h"
#include "task.h"

#include "board.h"
#include "layer_cost.h"
#include "rv32_freertos.h"

static uint64_t started;
static uint32_t per_instruction = 1; /* minstret counts per instruction */
static char unit[64] = "instructions";

/* minstret is the hart's own: the task stays on core 0 (its affinity). */
static void start(void) { started = board_instret(); }
static uint64_t stop(void) { return (board_instret() - started) / per_instruction; }

/* What one count is: under QEMU's -icount shift=N minstret advances 2^N a
 * retired instruction (virtual ns), without it by the host's ticks. A loop
 * of a known number of instructions tells which. */
static void calibrate(void)
{
    uint32_t n = 100000; /* two instructions a turn */
    uint64_t t0 = board_instret();
    __asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
    uint64_t d = board_instret() - t0;
    per_instruction = (uint32_t)((d + 100000) / 200000);
    if (per_instruction == 0)
        per_instruction = 1;
    printf("layer-cost calibration: a loop of 200000 instructions counted %lu\n", (unsigned long)d);
    if (per_instruction != 1)
        snprintf(unit, sizeof unit, "instructions (minstret / %lu)", (unsigned long)per_instruction);
}

static void runner(void *arg)
{
    (void)arg;
    calibrate();
    printf("rtipc layer cost on FreeRTOS %s SMP, RV32 (QEMU virt, two harts), core %u\n", tskKERNEL_VERSION_NUMBER,
           (unsigned)portGET_CORE_ID());
    static layer_cost_counter_t counter = {start, stop, unit};
    board_exit(layer_cost_run(&counter));
}

static void quiet(void *arg)
{
    (void)arg;
    for (;;) {
    }
}

int main(void)
{
    if (xTaskCreateAffinitySet(runner, "layer-cost", 2048, NULL, 2, 1u << 0, NULL) != pdPASS ||
        xTaskCreateAffinitySet(quiet, "quiet", 256, NULL, 1, 1u << 1, NULL) != pdPASS)
        return 1;
    rtipc_rv32_kernel_traps();
    vTaskStartScheduler();
    return 1;
}
