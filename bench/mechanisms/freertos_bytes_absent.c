/* freertos_bytes.h where rtipc does not run on FreeRTOS: every entry says
 * why, and footprint measures no kernel object (the experiments ask only
 * where bench_mech_kernel_built). */
#include <stdio.h>

#include "../names.h"
#include "freertos_bytes.h"

#define NO_KERNEL "the FreeRTOS kernel's own calls: rtipc runs on FreeRTOS only on the FreeRTOS targets"

const bench_kqueue_t bench_kqueue = {.absent = NO_KERNEL};
const bench_kbytes_t bench_kbytes_streambuf = {.name = BENCH_MECH_KERNEL_STREAMBUF, .absent = NO_KERNEL};
const bench_kbytes_t bench_kbytes_ringbuf = {.name = BENCH_MECH_ESPIDF_RINGBUF_BYTEBUF, .absent = NO_KERNEL};

int bench_kfp_measure(bench_kfp_kind_t kind, size_t a, size_t b, size_t *bytes, char *note, size_t n)
{
    (void)kind, (void)a, (void)b;
    *bytes = 0;
    snprintf(note, n, "%s", NO_KERNEL);
    return 1;
}
