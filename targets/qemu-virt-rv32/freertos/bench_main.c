/* rtipc-bench on the FreeRTOS SMP kernel on two RV32 harts (QEMU virt): a
 * task runs rtipc-bench's own command line (bench/cli.c) over the shared
 * experiments (bench/experiments), as on the Cortex-M3 and the simulator;
 * the experiments pin their tasks to cores 0 and 1 through rtipc. The
 * command line is QEMU's `-append "run --quick notify-vs-sem"` (the device
 * tree's bootargs), else RTIPC_RV32_BENCH_ARGS. Results go to the console
 * (the JSON between its marker lines), the exit status through the test
 * device (docs/rv32-virt.md). */
#include <stdio.h>

#include "FreeRTOS.h"
#include "task.h"

#include "board.h"
#include "cli.h"
#include "rv32_freertos.h"

#ifndef RTIPC_RV32_BENCH_ARGS
#define RTIPC_RV32_BENCH_ARGS "run --quick --no-progress --json -"
#endif

/* Below every measured task: the experiments' tasks (rtipc priorities 2-12)
 * preempt the command, as on the other targets. Not pinned: the kernel
 * runs it on whichever core is free. */
#define RUNNER_PRIORITY (tskIDLE_PRIORITY + 1)
#define RUNNER_STACK_WORDS (16u * 1024u)
#define MAX_ARGS 32

static char *args[MAX_ARGS + 1];
static int nargs;

static void runner(void *arg)
{
    (void)arg;
    int status = bench_cli(nargs, args);
    fflush(stdout);
    board_exit(status);
}

int main(void)
{
    nargs = board_args("rtipc-bench", RTIPC_RV32_BENCH_ARGS, args, MAX_ARGS);
    if (xTaskCreate(runner, "rtipc-bench", RUNNER_STACK_WORDS, NULL, RUNNER_PRIORITY, NULL) != pdPASS) {
        printf("rtipc-bench: cannot create the runner task\n");
        return 1;
    }
    rtipc_rv32_kernel_traps();
    vTaskStartScheduler();
    printf("rtipc-bench: the scheduler returned\n");
    return 1;
}
