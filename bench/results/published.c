/* The published references (published.h). The figures are the reports',
 * as docs/experiments.md quotes them; the rows are where rtipc-bench
 * measures the same span. */
#include "published.h"

#include <stdio.h>
#include <string.h>

#include "../names.h"

#define REPORT1 "report 1: GPIO edges on an oscilloscope, mean +- sd"
#define REPORT1_TABLE "report 1's mechanism table: time inside the send call"
#define REPORT2 "report 2: ESP-IDF 5.0, FreeRTOS 10.4.3, sender on core 0, receiver on core 1, mean of 1000"

static const bench_published_t published[] = {
    {BENCH_EXP_QUEUE_LATENCY, BENCH_MECH_KERNEL_QUEUE, BENCH_VARIANT_CROSS_CORE, BENCH_METRIC_LATENCY,
     "ESP32-WROOM-32E", "2.8 us +-0.6", REPORT1 " (queue send until the receiver runs, depth 100, 4 B)"},
    {BENCH_EXP_QUEUE_LATENCY, BENCH_MECH_KERNEL_QUEUE, BENCH_VARIANT_CROSS_CORE, BENCH_METRIC_LATENCY,
     "ESP32-S3, queue in internal SRAM", "1.9 us +-0.3", REPORT1},
    {BENCH_EXP_QUEUE_PLACEMENT, BENCH_MECH_KERNEL_QUEUE, BENCH_VARIANT_WARM, BENCH_METRIC_LATENCY,
     "ESP32-S3, queue in internal SRAM", "1.9 us +-0.3", REPORT1},
    {BENCH_EXP_QUEUE_PLACEMENT, BENCH_MECH_KERNEL_QUEUE, BENCH_VARIANT_PSRAM, BENCH_METRIC_LATENCY,
     "ESP32-S3, queue in PSRAM", "4.1 us +-1.8", REPORT1 " (queue storage from heap_caps, MALLOC_CAP_SPIRAM)"},
    {BENCH_EXP_QUEUE_PLACEMENT, BENCH_MECH_KERNEL_QUEUE, BENCH_VARIANT_FLUSHED, BENCH_METRIC_LATENCY,
     "ESP32-S3, queue in PSRAM", "4.1 us +-1.8", REPORT1 " (this row is the cache-eviction analog)"},
    {BENCH_EXP_ISR_HANDOFF, BENCH_MECH_KERNEL_QUEUE, BENCH_VARIANT_YIELD, BENCH_METRIC_LATENCY,
     "ESP32-WROOM-32E", "2.1 us", REPORT1 " (interrupt handler to task, yield-from-ISR)"},
    {BENCH_EXP_ISR_HANDOFF, BENCH_MECH_KERNEL_QUEUE, BENCH_VARIANT_YIELD, BENCH_METRIC_LATENCY, "ESP32-S3",
     "1.4 us", REPORT1},
    {BENCH_EXP_MECHANISM_COMPARE, BENCH_MECH_KERNEL_QUEUE, BENCH_VARIANT_ITEM_4, BENCH_METRIC_SEND_OVERHEAD,
     "ESP32", "about 1.9 us", REPORT1_TABLE},
    {BENCH_EXP_MECHANISM_COMPARE, BENCH_MECH_ESPIDF_RINGBUF_NOSPLIT, BENCH_VARIANT_ITEM_4,
     BENCH_METRIC_SEND_OVERHEAD, "ESP32", "about 0.4 us", REPORT1_TABLE},
    {BENCH_EXP_MECHANISM_COMPARE, BENCH_MECH_STD_QUEUE_MUTEX, BENCH_VARIANT_ITEM_4, BENCH_METRIC_SEND_OVERHEAD,
     "ESP32", "about 4.5 us", REPORT1_TABLE},
    {BENCH_EXP_NOTIFY_VS_SEM, BENCH_MECH_KERNEL_SEM, BENCH_VARIANT_CROSS_CORE, BENCH_METRIC_LATENCY,
     "ESP32-WROOM-32", "15.2 us", REPORT2 " (binary semaphore give -> take)"},
    {BENCH_EXP_NOTIFY_VS_SEM, BENCH_MECH_KERNEL_NOTIFY, BENCH_VARIANT_CROSS_CORE, BENCH_METRIC_LATENCY,
     "ESP32-WROOM-32", "3.8 us", REPORT2 " (task notification give -> take)"},
    {BENCH_EXP_FOOTPRINT, BENCH_MECH_KERNEL_QUEUE, BENCH_VARIANT_LEN_50_ITEM_8, BENCH_METRIC_BYTES, "FreeRTOS",
     "about 520 B", "the reports' rule of thumb: length x item size + 80-120 B of control block"},
};

size_t bench_published_for(const char *experiment, const char *mechanism, const char *variant, const char *metric,
                           bool kernel_run, const bench_published_t **out, size_t cap)
{
    size_t found = 0;
    for (size_t i = 0; i < sizeof published / sizeof published[0]; i++) {
        const bench_published_t *p = &published[i];
        const char *twin = bench_rtipc_twin_name(p->mechanism);
        /* Without kernel rows (Linux), rtipc's object of the same kind. */
        const char *mech = kernel_run || !twin ? p->mechanism : twin;
        if (strcmp(p->experiment, experiment) || strcmp(mech, mechanism) || strcmp(p->variant, variant) ||
            strcmp(p->metric, metric))
            continue;
        if (found < cap)
            out[found] = p;
        found++;
    }
    return found;
}

const char *bench_published_text(const bench_published_t *p, char *buf, size_t n)
{
    snprintf(buf, n, "published (%s): %s, %s", p->board, p->figure, p->source);
    return buf;
}
