/* A unit test of tests/unit on FreeRTOS's POSIX simulator: the test's own
 * main (compiled as rtipc_unit_main) runs in a FreeRTOS task once the
 * scheduler is up, so every object, task and wait it makes is the FreeRTOS
 * port's. The process exits with the test's status (cmocka: the number of
 * failed tests). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "FreeRTOS.h"
#include "task.h"

#include "rtipc/port_freertos.h"

int rtipc_unit_main(void);

/* Below every task a test starts: on Linux a test's main thread is an
 * ordinary thread under the SCHED_FIFO tasks it starts, which preempt it. */
#define UNIT_RUNNER_PRIORITY (tskIDLE_PRIORITY + 1)
/* Within a 16-bit configSTACK_DEPTH_TYPE (V10.x kernels): 32768 words. */
#define UNIT_RUNNER_STACK_WORDS (256u * 1024u / sizeof(StackType_t))

static int status = 1;

/* rtipc's interrupt timers run from the tick (the tests of rtipc_irq_timer_*). */
void vApplicationTickHook(void);
void vApplicationTickHook(void) { rtipc_freertos_tick_hook(); }

static void runner(void *arg)
{
    (void)arg;
    status = rtipc_unit_main();
    fflush(stdout);
    fflush(stderr);
    /* Not vTaskEndScheduler: on the V10.5.1 simulator its resume signal
     * sometimes reaches a thread that does not wait for it, which kills the
     * process after every test passed (about one run in eight). */
    _exit(status);
}

int main(void)
{
    if (xTaskCreate(runner, "unit", (configSTACK_DEPTH_TYPE)UNIT_RUNNER_STACK_WORDS, NULL, UNIT_RUNNER_PRIORITY,
                    NULL) != pdPASS) {
        fprintf(stderr, "unit test: cannot create the runner task\n");
        return 1;
    }
    vTaskStartScheduler();
    return status;
}
