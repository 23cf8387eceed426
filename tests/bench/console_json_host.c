/* Host driver for a firmware's console document (bench/results/console.c,
 * as the bare-metal Cortex-M3 firmware calls it): prints what the board would print,
 * console noise around the markers included, from synthetic samples, so that
 * console_json.sh can extract it as docs/porting.md says and validate it.
 *
 *   console_json_host [SAMPLES]  */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "console.h"
#include "names.h"

static uint64_t lcg = 0x2545f4914f6cdd1dull;

/* A latency around base ns with a long tail (pseudo-random, deterministic). */
static int64_t sample(int64_t base)
{
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t r = (uint32_t)(lcg >> 33);
    int64_t v = base + (int64_t)(r % 200u);
    if (r % 97u == 0)
        v += (int64_t)(r % 20000u);
    return v;
}

static int series(bench_console_t *w, const char *exp, const char *mech, const char *var, const char *metric, size_t n,
                  int64_t base)
{
    bench_samples_t s;
    if (bench_samples_init(&s, n) != 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        (void)bench_samples_push(&s, sample(base));
    int rc = bench_console_samples(w, exp, mech, var, metric, &s);
    bench_samples_free(&s);
    return rc;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 2000;
    const bench_console_env_t env = {.clock = BENCH_CLOCK_MCU_CYCLES, .chip = "esp32s3 rev 0 (host test)", .cores = 2, .cpu_mhz = 240,
                           .idf_version = "v5.x-host", .freertos_version = "V11.1.0",
                           .rtipc_version = "0.1.0", .compiler = "gcc (host test)", .cflags = "-O2",
                           .started_utc = "1970-01-01T00:00:05Z", .tick_hz = 1000,
                           .timestamp_overhead_ns = 4.2, .samples = (int)n};
    puts("I (312) main_task: Calling app_main()"); /* console noise */
    bench_console_t w;
    bench_console_begin(&w, stdout, &env);
    int rc = 0;
    const char *rt = "esp-queue-roundtrip", *nvs = BENCH_EXP_NOTIFY_VS_SEM, *isr = "esp-isr-handoff";
    const char *isr_notify = BENCH_MECH_RTIPC_NOTIFY_FROM_ISR;
    rc |= series(&w, rt, BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_SAME_CORE, BENCH_METRIC_ROUND_TRIP, n, 9000);
    rc |= series(&w, rt, BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_CROSS_CORE, BENCH_METRIC_ROUND_TRIP, n, 14000);
    rc |= series(&w, nvs, BENCH_MECH_RTIPC_SEM, BENCH_VARIANT_SAME_CORE, BENCH_METRIC_LATENCY, n, 5000);
    rc |= series(&w, nvs, BENCH_MECH_RTIPC_NOTIFY, BENCH_VARIANT_SAME_CORE, BENCH_METRIC_LATENCY, n, 3500);
    rc |= series(&w, isr, isr_notify, BENCH_VARIANT_YIELD, BENCH_METRIC_LATENCY, n, 2500);
    /* A short series: percentiles it cannot support must be null. */
    rc |= series(&w, isr, isr_notify, BENCH_VARIANT_NO_YIELD, BENCH_METRIC_LATENCY, 50, 400000);
    const bench_doc_experiment_t exps[] = {
        {.id = rt, .summary = "queue round trip", .definitions = "send to receive back", .seconds = 1.5},
        {.id = nvs, .summary = "semaphore vs notification", .definitions = "give to take return", .seconds = 0.7},
        {.id = isr, .summary = "timer ISR to task", .definitions = "ISR entry to task wake", .seconds = 2.1},
        /* A failed experiment, as the suite reports one: no rows, a reason. */
        {.id = "esp-failed", .summary = "an experiment that failed", .definitions = "none", .failed = true,
         .failure = "operation timed out", .seconds = 1.0},
    };
    if (bench_console_end(&w, exps, 4) != 0)
        rc = 1;
    puts("I (9312) main_task: Returned from app_main()");
    return rc ? 1 : 0;
}
