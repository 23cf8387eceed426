/* The target seam on FreeRTOS (target.h), for any kernel port rtipc's
 * FreeRTOS port runs on. Kernel facts come from the kernel's own macros
 * (configMINIMAL_STACK_SIZE, tskKERNEL_VERSION_NUMBER; the core count is rtipc_core_count())
 * and the heap's statistics calls; the clock from rtipcCONFIG_CYCLES_*
 * (FreeRTOSConfig.h). A port that runs as a process of a host OS (the POSIX
 * simulator, GCC_POSIX) also has the host's files, thread clocks and
 * description (host.h); one on a board has its console and nothing else. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#ifdef ESP_PLATFORM
/* ESP-IDF: its kernel's headers live under freertos/; the clocks are
 * espidf_clock.c's, the scope lines GPIOs. */
#include "driver/gpio.h"
#include "esp_idf_version.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "sdkconfig.h"
#if defined(CONFIG_SPIRAM) && CONFIG_SPIRAM
#include "esp_psram.h"
#endif
#else
#include "FreeRTOS.h"
#include "task.h"
#endif

#include "../harness/env.h"
#include "rtipc/port_freertos.h"
#include "rtipc/rtipc.h"
#include "target.h"

#if defined(__unix__) || defined(__APPLE__)
#define FREERTOS_ON_HOST_OS 1
#include "host.h"
#else
#define FREERTOS_ON_HOST_OS 0
#endif

/* The heap's statistics exist only in some heap implementations (heap_4 and
 * heap_5 have both, heap_1 and heap_2 the free size alone, heap_3 neither):
 * weak references are NULL where the heap linked in lacks them. */
extern size_t xPortGetFreeHeapSize(void) __attribute__((weak));
extern size_t xPortGetMinimumEverFreeHeapSize(void) __attribute__((weak));

const char *bench_target_name(void) { return "freertos"; }

bool bench_target_irq_timer_between_ticks(const rtipc_irq_t *irq) { return rtipc_freertos_irq_timer_hw(irq) == 1; }

int bench_target_core_count(void) { return rtipc_core_count(); }

static void ignore_isr(void *arg) { (void)arg; }

/* Whether rtipc's port has an interrupt back end here: one created and
 * deleted at once tells (RTIPC_ENOTSUP where the port has none). */
static bool have_interrupts(void)
{
    static int known = -1;
    if (known < 0) {
        rtipc_irq_t *irq;
        known = rtipc_irq_create(0, ignore_isr, NULL, &irq) == 0;
        if (known)
            rtipc_irq_delete(irq);
    }
    return known == 1;
}

/* ESP-IDF says its run-time counter's rate in menuconfig: esp_timer's
 * microseconds (the default, one counter for both cores) or the CPU clock. */
#if defined(ESP_PLATFORM) && !defined(benchCONFIG_RUN_TIME_COUNTER_HZ)
#if defined(CONFIG_FREERTOS_RUN_TIME_STATS_USING_ESP_TIMER)
#define benchCONFIG_RUN_TIME_COUNTER_HZ 1000000u
#elif defined(CONFIG_FREERTOS_RUN_TIME_STATS_USING_CPU_CLK)
#define benchCONFIG_RUN_TIME_COUNTER_HZ (bench_espidf_cpu_mhz() * 1000000u)
#endif
#endif

/* A board has per-task CPU time when its configuration keeps the kernel's
 * run-time statistics and says the rate of their counter. */
#if !FREERTOS_ON_HOST_OS && defined(benchCONFIG_RUN_TIME_COUNTER_HZ) && configGENERATE_RUN_TIME_STATS == 1 && \
    configUSE_TRACE_FACILITY == 1
#define BENCH_FREERTOS_RUN_TIME_STATS 1
#else
#define BENCH_FREERTOS_RUN_TIME_STATS 0
#endif

unsigned bench_target_features(void)
{
    unsigned f = BENCH_TARGET_TASKS;
    if (have_interrupts())
        f |= BENCH_TARGET_INTERRUPTS;
    if (bench_target_core_count() >= 2)
        f |= BENCH_TARGET_TWO_CORES;
    if (FREERTOS_ON_HOST_OS)
        f |= BENCH_TARGET_THREAD_CPU_TIME | BENCH_TARGET_FILES;
    if (BENCH_FREERTOS_RUN_TIME_STATS)
        f |= BENCH_TARGET_THREAD_CPU_TIME;
    return f;
}

/* ---- clock ---- */

#ifndef ESP_PLATFORM
/* The figures' unit: the provenance's, unless the configuration says
 * (benchCONFIG_CLOCK_UNIT "ns": instructions counted at 2^shift virtual ns
 * each, kept in virtual ns). ESP-IDF's clocks are espidf_clock.c's. */
static const char *clock_unit(bench_clock_provenance_t p)
{
#ifdef benchCONFIG_CLOCK_UNIT
    (void)p;
    return benchCONFIG_CLOCK_UNIT;
#else
    return bench_clock_provenance_unit(p);
#endif
}

int64_t bench_target_now_ns(void) { return bench_rtipc_cycles_ns(); }

void bench_target_clock(bench_clock_t *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", rtipc_cycles_source());
#ifdef rtipcCONFIG_CYCLES
    /* The application's counter: a board's cycle counter unless the
     * configuration says what else it is. */
    out->provenance = BENCH_CLOCK_MCU_CYCLES;
#ifdef rtipcCONFIG_CYCLES_PROVENANCE
    if (bench_clock_provenance_parse(rtipcCONFIG_CYCLES_PROVENANCE, &out->provenance) != 0) {
        size_t used = strlen(out->name);
        snprintf(out->name + used, sizeof out->name - used, " (unknown provenance '%s')",
                 rtipcCONFIG_CYCLES_PROVENANCE);
    }
#endif
    out->rate_hz = rtipc_cycles_hz();
    out->resolution = 1e9 / out->rate_hz;
#else
    /* rtipc_cycles() is the tick count in nanoseconds. */
    out->provenance = BENCH_CLOCK_OS;
    out->rate_hz = (double)rtipc_tick_rate();
    out->resolution = (double)rtipc_tick_period_ns();
#endif
    snprintf(out->unit, sizeof out->unit, "%s", clock_unit(out->provenance));
}
#endif

/* ---- a clock of one core ---- */

#if defined(benchCONFIG_CORE_CLOCK) && !defined(ESP_PLATFORM)
/* A count since calibration becomes ns as hi * m / 2^8 + lo * m / 2^32,
 * with the count split at bit 24 and m = 2^32 ns per count: no division
 * and no soft float on a timed path, within 1 ns for days at any rate above
 * 1 MHz. */
static struct {
    _Atomic int ready;   /* release by the calibration, acquire by readers:
                            publishes the fields below */
    uint64_t origin;     /* the counter at calibration */
    int64_t origin_ns;   /* bench_target_now_ns then */
    uint64_t mult;       /* ns per count, times 2^32 */
    double hz;
} core_clock;

static int64_t core_clock_ns(uint64_t count)
{
    uint64_t d = count - core_clock.origin;
    uint64_t hi = d >> 24, lo = d & 0xffffffu;
    return core_clock.origin_ns + (int64_t)(((hi * core_clock.mult) >> 8) + ((lo * core_clock.mult) >> 32));
}

/* Both counters read just after the shared clock steps: the pair is then
 * as close as two reads can be, whatever the shared clock's grain. */
static void core_clock_pair(int64_t *ns, uint64_t *count)
{
    int64_t t = bench_target_now_ns(), u;
    while ((u = bench_target_now_ns()) == t)
        ;
    *count = (uint64_t)benchCONFIG_CORE_CLOCK();
    *ns = u;
}

static void core_clock_calibrate(void)
{
    int64_t t0, t1;
    uint64_t c0, c1;
    core_clock_pair(&t0, &c0);
#ifdef benchCONFIG_CORE_CLOCK_HZ
    (void)t1;
    (void)c1;
    core_clock.hz = (double)benchCONFIG_CORE_CLOCK_HZ;
#else
    do
        core_clock_pair(&t1, &c1);
    while (t1 - t0 < 20000000);
    core_clock.hz = (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
#endif
    core_clock.origin = c0;
    core_clock.origin_ns = t0;
    core_clock.mult = (uint64_t)(1e9 / core_clock.hz * 4294967296.0 + 0.5);
    atomic_store_explicit(&core_clock.ready, 1, memory_order_release);
}

bool bench_target_core_clock(bench_clock_t *out)
{
    if (!atomic_load_explicit(&core_clock.ready, memory_order_acquire))
        core_clock_calibrate();
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", benchCONFIG_CORE_CLOCK_NAME);
    out->provenance = BENCH_CLOCK_MCU_CYCLES;
#ifdef benchCONFIG_CORE_CLOCK_PROVENANCE
    if (bench_clock_provenance_parse(benchCONFIG_CORE_CLOCK_PROVENANCE, &out->provenance) != 0) {
        size_t used = strlen(out->name);
        snprintf(out->name + used, sizeof out->name - used, " (unknown provenance '%s')",
                 benchCONFIG_CORE_CLOCK_PROVENANCE);
    }
#endif
    out->rate_hz = core_clock.hz;
    out->resolution = 1e9 / core_clock.hz;
    snprintf(out->unit, sizeof out->unit, "%s", clock_unit(out->provenance));
    return true;
}

int64_t bench_target_core_now_ns(void)
{
    if (!atomic_load_explicit(&core_clock.ready, memory_order_acquire))
        return bench_target_now_ns();
    return core_clock_ns((uint64_t)benchCONFIG_CORE_CLOCK());
}
#elif !defined(ESP_PLATFORM)
/* No core clock configured. */
bool bench_target_core_clock(bench_clock_t *out)
{
    (void)out;
    return false;
}

int64_t bench_target_core_now_ns(void) { return bench_target_now_ns(); }
#endif

/* ---- sleeping ---- */

/* The kernel's own delay, in the ticks rtipc_task_delay would wait: those
 * that cover ns, plus one for the tick in progress. Any task may call it,
 * rtipc's or native. */
void bench_target_delay_ns(int64_t ns)
{
    if (ns <= 0)
        return;
    const int64_t tick_ns = 1000000000 / (int64_t)configTICK_RATE_HZ;
    int64_t ticks = (ns + tick_ns - 1) / tick_ns + 1;
    /* Unsigned: TickType_t may be 64 bits wide, portMAX_DELAY all ones. */
    vTaskDelay((uint64_t)ticks >= (uint64_t)portMAX_DELAY ? portMAX_DELAY - 1 : (TickType_t)ticks);
}

/* A host-OS sleep would keep the simulated core: block in the kernel. */
void bench_target_sleep_ns(int64_t ns) { bench_target_delay_ns(ns); }

int64_t bench_target_sleep_overshoot_ns(void) { return 2 * (1000000000 / (int64_t)configTICK_RATE_HZ); }

/* ---- per-task accounting ---- */

int64_t bench_target_thread_cpu_ns(void)
{
#if FREERTOS_ON_HOST_OS
    return bench_host_thread_cpu_ns();  /* each task is a host thread */
#elif BENCH_FREERTOS_RUN_TIME_STATS
    /* The kernel adds a task's slice to its counter when it switches out:
     * the slice running now is not in the figure yet. */
    TaskStatus_t st;
    vTaskGetInfo(NULL, &st, pdFALSE, eRunning);
    return (int64_t)((double)st.ulRunTimeCounter * 1e9 / (double)benchCONFIG_RUN_TIME_COUNTER_HZ);
#else
    return -1;
#endif
}

long bench_target_thread_switches(void)
{
#if FREERTOS_ON_HOST_OS
    return bench_host_thread_switches();
#elif defined(benchCONFIG_TASK_NUMBER_COUNTS_SWITCHES) && configUSE_TRACE_FACILITY
    /* The configuration's traceTASK_SWITCHED_IN counts each task's
     * switches in its task number. */
    return (long)uxTaskGetTaskNumber(xTaskGetCurrentTaskHandle());
#else
    return 0;
#endif
}

/* ---- tasks ---- */

size_t bench_target_task_stack(size_t requested, const char **how)
{
    /* The request in whole words, raised to configMINIMAL_STACK_SIZE, as
     * rtipc's port asks the kernel for it. */
    size_t words = requested / sizeof(StackType_t);
    if (words < (size_t)configMINIMAL_STACK_SIZE)
        words = configMINIMAL_STACK_SIZE;
    if (how)
        *how = "the kernel's stack, configMINIMAL_STACK_SIZE words at least";
    return words * sizeof(StackType_t);
}

/* Tasks: freertos_tasks.c; interrupt sources are rtipc's own: rtipc_targets.c. */

/* ---- memory ---- */

void bench_target_memory(bench_memory_t *out)
{
    out->kind = BENCH_MEMORY_NONE;
    out->now_bytes = out->extreme_bytes = -1;
    if (xPortGetFreeHeapSize) {
        out->kind = BENCH_MEMORY_HEAP_FREE;
        out->now_bytes = (int64_t)xPortGetFreeHeapSize();
        if (xPortGetMinimumEverFreeHeapSize)
            out->extreme_bytes = (int64_t)xPortGetMinimumEverFreeHeapSize();
        return;
    }
#if FREERTOS_ON_HOST_OS
    bench_host_memory(out);  /* heap_3: the host's malloc, in the process's resident set */
#endif
}

int bench_target_lock_memory(void)
{
#if FREERTOS_ON_HOST_OS
    return bench_host_lock_memory();
#else
    return 1;  /* a microcontroller does not page */
#endif
}

/* ---- environment ---- */

void bench_target_describe(bench_env_t *env)
{
    bench_rtipc_describe(env);
    snprintf(env->target, sizeof env->target, "%s", bench_target_name());
    env->cores_online = bench_target_core_count();
#if FREERTOS_ON_HOST_OS
    char host_os[168];
    bench_host_cpu_model(env->cpu_model, sizeof env->cpu_model);
    bench_host_uname(host_os, sizeof host_os, env->hostname, sizeof env->hostname);
    bench_host_utc_now(env->started_utc, sizeof env->started_utc);
    /* The kernel's version first, the host it simulates on after. */
    snprintf(env->kernel, sizeof env->kernel, "FreeRTOS %s, POSIX simulator (GCC_POSIX) on %.140s",
             tskKERNEL_VERSION_NUMBER, host_os);
#else
    /* A board names itself in its FreeRTOSConfig.h (benchCONFIG_BOARD); the
     * start time stays unknown: a board has no calendar clock, and a run
     * that prints none is the same text every time. */
#if defined(ESP_PLATFORM)
    /* The chip, its clock and its PSRAM (a module's R in N8R8). */
    char psram[40] = "";
#if defined(CONFIG_SPIRAM) && CONFIG_SPIRAM
    snprintf(psram, sizeof psram, ", %u MB PSRAM", (unsigned)(esp_psram_get_size() >> 20));
#endif
#ifdef CONFIG_RTIPC_BENCH_QEMU
    snprintf(env->cpu_model, sizeof env->cpu_model, "emulated ESP32 (QEMU): %s, %d MHz configured%s",
             CONFIG_IDF_TARGET, CONFIG_ESP_DEFAULT_CPU_FREQ_MHZ, psram);
#else
    snprintf(env->cpu_model, sizeof env->cpu_model, "%s, %u MHz%s", CONFIG_IDF_TARGET,
             (unsigned)bench_espidf_cpu_mhz(), psram);
#endif
#elif defined(benchCONFIG_BOARD)
    snprintf(env->cpu_model, sizeof env->cpu_model, "%s", benchCONFIG_BOARD);
#else
    snprintf(env->cpu_model, sizeof env->cpu_model, "unknown");
#endif
    snprintf(env->hostname, sizeof env->hostname, "unknown");
    snprintf(env->started_utc, sizeof env->started_utc, "unknown");
#if defined(ESP_PLATFORM)
    char idf[32];
    bench_env_idf_version(idf, sizeof idf, esp_get_idf_version(), ESP_IDF_VERSION_MAJOR, ESP_IDF_VERSION_MINOR,
                          ESP_IDF_VERSION_PATCH);
    snprintf(env->kernel, sizeof env->kernel, "FreeRTOS %s (ESP-IDF %s), %d core(s)", tskKERNEL_VERSION_NUMBER, idf,
             bench_target_core_count());
#elif defined(benchCONFIG_KERNEL_PORT)
    snprintf(env->kernel, sizeof env->kernel, "FreeRTOS %s (%s), %d core(s)", tskKERNEL_VERSION_NUMBER,
             benchCONFIG_KERNEL_PORT, bench_target_core_count());
#else
    snprintf(env->kernel, sizeof env->kernel, "FreeRTOS %s, %d core(s)", tskKERNEL_VERSION_NUMBER,
             bench_target_core_count());
#endif
#endif
    snprintf(env->priorities, sizeof env->priorities,
             "rtipc priorities: producer 10, consumer 12, load 2-4, interrupts above all; %s",
             "FreeRTOS priority = rtipc priority");
    bench_target_clock(&env->clock);
}

/* ---- signal lines ---- */

#if defined(ESP_PLATFORM) && defined(CONFIG_RTIPC_BENCH_GPIO_SEND) && defined(CONFIG_RTIPC_BENCH_GPIO_RECV)
/* The ESP32 app's Kconfig names the two GPIOs (-1: none); the app sets them
 * up as outputs before the run (targets/esp32/main/bench_main.c). */
bool bench_target_has_signals(void) { return CONFIG_RTIPC_BENCH_GPIO_SEND >= 0 || CONFIG_RTIPC_BENCH_GPIO_RECV >= 0; }

void bench_target_signal(bench_signal_t line, bool high)
{
    int gpio = line == BENCH_SIGNAL_SEND ? CONFIG_RTIPC_BENCH_GPIO_SEND : CONFIG_RTIPC_BENCH_GPIO_RECV;
    if (gpio >= 0)
        (void)gpio_set_level((gpio_num_t)gpio, high ? 1u : 0u);
}
#else
bool bench_target_has_signals(void) { return false; }
void bench_target_signal(bench_signal_t line, bool high) { (void)line, (void)high; }
#endif
