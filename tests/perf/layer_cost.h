/* The layer's cost on a FreeRTOS target: instructions per hot call of
 * rtipc's objects beside the kernel's own call for the same work, each
 * written as its users write it, in one task with nobody waiting (the
 * one-task shape of round-trip) and from an interrupt handler.
 *
 * A firmware calls layer_cost_run from a FreeRTOS task once the scheduler
 * runs. Each operation is called LAYER_COST_CALLS times between the
 * target's start and stop of an instruction count; the figure is the count
 * less that of an empty interval, over the calls (the loop's own two or
 * three instructions included, on both sides alike), the least of
 * LAYER_COST_REPEATS tries (so that a tick interrupt that fell into one try
 * is not counted). It prints one line per operation,
 *
 *   layer-cost OP rtipc R kernel K ratio X
 *
 * then "layer-cost done", which tests/perf/layer_cost.sh compares with a
 * checked-in baseline per target. The objects are deleted at the end. Instruction counts under an emulator
 * that executes one instruction per count (-icount shift=0, minstret) do
 * not depend on the host's load, so unlike timings they can be asserted. */
#ifndef RTIPC_TESTS_LAYER_COST_H
#define RTIPC_TESTS_LAYER_COST_H

#include <stdint.h>

#define LAYER_COST_CALLS 256u
#define LAYER_COST_REPEATS 4

/* The target's count: start() begins an interval, stop() returns the
 * count since, exactly: executed instructions, or a clock that follows them
 * (an emulator's cycle counter under instruction counting), named by unit.
 * Any context. */
typedef struct {
    void (*start)(void);
    uint64_t (*stop)(void);
    const char *unit; /* "instructions", or what else is counted */
} layer_cost_counter_t;

/* Measures and prints every operation. 0, or 1 after printing why an
 * object could not be made. Task context, in a FreeRTOS task, with rtipc's
 * interrupt backend present (rtipc_irq_create). */
int layer_cost_run(const layer_cost_counter_t *counter);

#endif
