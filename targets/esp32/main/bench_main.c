/* rtipc-bench on ESP-IDF: app_main sets up the scope lines, then a task on
 * core 0 runs rtipc-bench's own command line (bench/cli.c) over the shared
 * experiments (bench/experiments), as the other FreeRTOS targets do. Tasks
 * are pinned to cores 0 and 1 by the experiments; timestamps come from
 * esp_timer, one counter for both cores (bench/target/freertos.c). The
 * command line is CONFIG_RTIPC_BENCH_ARGS (menuconfig); the results go to
 * the console, the rtipc-bench/1 JSON between its marker lines
 * (docs/porting.md, "targets/esp32"). */
#include <stdio.h>
#include <string.h>

#include "driver/gpio.h"
#include "esp_heap_caps.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "sdkconfig.h"

#include "cli.h"

#if CONFIG_RTIPC_BENCH_LAYER_COST
#include "esp_cpu.h"
#include "layer_cost.h"

/* CCOUNT, 32 bits: an interval is far shorter than a wrap. Under QEMU's
 * instruction counting it follows the instructions at the emulated CPU
 * clock, not one count apiece (0.96 a instruction on the ESP32, 0.16 on the
 * S3): a loop of known length calibrates it, and intervals are turned into
 * instructions with that ratio. */
#define LC_CALIBRATION_INSTRUCTIONS 200000u
static uint32_t lc_started, lc_calibration = LC_CALIBRATION_INSTRUCTIONS;
static char lc_unit[64] = "instructions";
static void lc_start(void) { lc_started = esp_cpu_get_cycle_count(); }
static uint64_t lc_stop(void)
{
    uint32_t d = esp_cpu_get_cycle_count() - lc_started;
    return ((uint64_t)d * LC_CALIBRATION_INSTRUCTIONS + lc_calibration / 2) / lc_calibration;
}

static void lc_calibrate(void)
{
    uint32_t n = LC_CALIBRATION_INSTRUCTIONS / 2; /* two instructions a turn */
    uint32_t t0 = esp_cpu_get_cycle_count();
    __asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
    uint32_t d = esp_cpu_get_cycle_count() - t0;
    printf("layer-cost calibration: a loop of %u instructions counted %lu\n", LC_CALIBRATION_INSTRUCTIONS,
           (unsigned long)d);
    if (d > 0)
        lc_calibration = d;
    snprintf(lc_unit, sizeof lc_unit, "instructions (CCOUNT x %u/%lu)", LC_CALIBRATION_INSTRUCTIONS,
             (unsigned long)lc_calibration);
}
#endif

/* Below every measured task (rtipc priorities 2-12), as on the other
 * targets; the stack holds the command line's tables and statistics. */
#define RUNNER_PRIORITY 1
#define RUNNER_STACK_BYTES (32 * 1024)
#define MAX_ARGS 32

static char line[256];
static char *args[MAX_ARGS + 1];
static int nargs;

static void split(char *s)
{
    args[nargs++] = "rtipc-bench";
    for (char *tok = strtok(s, " "); tok && nargs < MAX_ARGS; tok = strtok(NULL, " "))
        args[nargs++] = tok;
    args[nargs] = NULL;
}

static void output_line(int gpio)
{
    if (gpio < 0)
        return;
    (void)gpio_reset_pin((gpio_num_t)gpio);
    (void)gpio_set_direction((gpio_num_t)gpio, GPIO_MODE_OUTPUT);
    (void)gpio_set_level((gpio_num_t)gpio, 0);
}

static void runner(void *arg)
{
    (void)arg;
#if CONFIG_RTIPC_BENCH_LAYER_COST
    lc_calibrate();
    static layer_cost_counter_t counter = {lc_start, lc_stop, lc_unit};
    if (layer_cost_run(&counter) != 0)
        printf("rtipc-bench: the layer's cost could not be counted\n");
#endif
    int status = bench_cli(nargs, args);
    fflush(stdout);
    printf("rtipc-bench: exit status %d\n", status);
    vTaskDelete(NULL);
}

#if CONFIG_RTIPC_BENCH_ARDUINO_LIKE
/* What a sketch leaves the run: the Arduino core's loop task (8 KiB, core
 * 1, priority 1; asleep, as loop() with delay() is) and the heap the core
 * and its drivers hold, taken here in blocks until about
 * CONFIG_RTIPC_BENCH_ARDUINO_FREE_KIB is free once the runner has its
 * stack. The blocks are never given back. */
#define ARDUINO_LOOP_STACK_BYTES (8 * 1024)
#define BALLAST_BLOCK_BYTES (4 * 1024)

static void arduino_loop(void *arg)
{
    (void)arg;
    for (;;)
        vTaskDelay(pdMS_TO_TICKS(1000));
}

static void arduino_like(void)
{
    if (xTaskCreatePinnedToCore(arduino_loop, "loopTask", ARDUINO_LOOP_STACK_BYTES, NULL, 1, NULL, 1) != pdPASS)
        printf("rtipc-bench: cannot create the Arduino-like loop task\n");
    const size_t keep = (size_t)CONFIG_RTIPC_BENCH_ARDUINO_FREE_KIB * 1024 + RUNNER_STACK_BYTES;
    size_t held = 0;
    while (heap_caps_get_free_size(MALLOC_CAP_DEFAULT) >= keep + BALLAST_BLOCK_BYTES &&
           heap_caps_malloc(BALLAST_BLOCK_BYTES, MALLOC_CAP_DEFAULT) != NULL)
        held += BALLAST_BLOCK_BYTES;
    printf("rtipc-bench: Arduino-like: loop task (8 KiB, priority 1, core 1), %u KiB of heap held back, "
           "%u KiB free before the runner's stack\n",
           (unsigned)(held >> 10), (unsigned)(heap_caps_get_free_size(MALLOC_CAP_DEFAULT) >> 10));
}
#endif

/* ESP-IDF's entry point (called by its main task; declared by no header). */
void app_main(void);

void app_main(void)
{
    output_line(CONFIG_RTIPC_BENCH_GPIO_SEND);
    output_line(CONFIG_RTIPC_BENCH_GPIO_RECV);
    snprintf(line, sizeof line, "%s", CONFIG_RTIPC_BENCH_ARGS);
    split(line);
#if CONFIG_RTIPC_BENCH_ARDUINO_LIKE
    arduino_like();
#endif
    if (xTaskCreatePinnedToCore(runner, "rtipc-bench", RUNNER_STACK_BYTES, NULL, RUNNER_PRIORITY, NULL, 0) != pdPASS)
        printf("rtipc-bench: cannot create the runner task\n");
}
