/* rtipc-bench on the FreeRTOS POSIX simulator: the same command line
 * (cli.c), run from a FreeRTOS task once the scheduler is up, so that every
 * experiment's tasks, objects and interrupts are the kernel's. The process's
 * exit status is the command's. */
#include <stdio.h>

#include "FreeRTOS.h"
#include "task.h"
#include "cli.h"

/* The command runs at the lowest application priority: the experiments'
 * tasks (rtipc priorities 2-12) preempt it, as they preempt Linux's main
 * thread in the host build. */
#define BENCH_RUNNER_PRIORITY (tskIDLE_PRIORITY + 1)
/* Words of stack; printing, statistics and the JSON writer need room. */
#define BENCH_RUNNER_STACK_WORDS (256u * 1024u / sizeof(StackType_t))

static int bench_argc;
static char **bench_argv;
static int bench_status = 1;

static void bench_runner(void *arg)
{
    (void)arg;
    bench_status = bench_cli(bench_argc, bench_argv);
    fflush(stdout);
    fflush(stderr);
    vTaskEndScheduler(); /* vTaskStartScheduler returns in main */
    for (;;)
        vTaskDelay(portMAX_DELAY);
}

int main(int argc, char **argv)
{
    bench_argc = argc;
    bench_argv = argv;
    if (xTaskCreate(bench_runner, "rtipc-bench", (configSTACK_DEPTH_TYPE)BENCH_RUNNER_STACK_WORDS, NULL,
                    BENCH_RUNNER_PRIORITY, NULL) != pdPASS) {
        fprintf(stderr, "rtipc-bench: cannot create the runner task (FreeRTOS heap too small?)\n");
        return 1;
    }
    vTaskStartScheduler();
    return bench_status;
}
