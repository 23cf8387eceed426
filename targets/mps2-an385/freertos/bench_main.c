/* rtipc-bench on FreeRTOS on a Cortex-M3 (QEMU mps2-an385): the board is
 * calibrated, the kernel started, and a task runs rtipc-bench's own command
 * line (bench/cli.c) over the shared experiments (bench/experiments), as
 * bench/main_freertos.c does on the simulator. The command line is the one
 * QEMU passes through semihosting (`-append "run --quick footprint"`), else
 * RTIPC_CM3_BENCH_ARGS. Results go to the console (the JSON between its
 * marker lines); the exit status through semihosting (docs/mcu.md). */
#include <stdio.h>

#include "FreeRTOS.h"
#include "task.h"

#include "board.h"
#include "cli.h"

#ifndef RTIPC_CM3_BENCH_ARGS
#define RTIPC_CM3_BENCH_ARGS "run --quick --no-progress --json -"
#endif

/* Below every measured task: the experiments' tasks (rtipc priorities 2-12)
 * preempt the command, as on the other targets. */
#define RUNNER_PRIORITY (tskIDLE_PRIORITY + 1)
#define RUNNER_STACK_WORDS (16u * 1024u)
#define MAX_ARGS 32

extern uint32_t rtipc_cm3_systick_hz; /* configCPU_CLOCK_HZ (app_hooks.c) */

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
    (void)board_calibrate();
    rtipc_cm3_systick_hz = board_systick_hz();
    (void)board_counter(); /* the clock's origin */
    nargs = board_args("rtipc-bench", RTIPC_CM3_BENCH_ARGS, args, MAX_ARGS);
    if (xTaskCreate(runner, "rtipc-bench", RUNNER_STACK_WORDS, NULL, RUNNER_PRIORITY, NULL) != pdPASS) {
        printf("rtipc-bench: cannot create the runner task\n");
        return 1;
    }
    vTaskStartScheduler();
    printf("rtipc-bench: the scheduler returned\n");
    return 1;
}
