/* What every program of this example gives the kernel and rtipc: the
 * assertion and heap-exhausted hooks and the fine clock behind rtipc_cycles()
 * (rtipcCONFIG_CYCLES in FreeRTOSConfig.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "FreeRTOS.h"
#include "task.h"

/* The simulator runs on the host, whose monotonic clock stands in for the
 * cycle counter a board would read (a Cortex-M's DWT->CYCCNT, an ESP32's
 * CCOUNT): nanoseconds, so rtipcCONFIG_CYCLES_HZ is 1e9. */
uint64_t rtipc_example_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void rtipc_example_assert_failed(const char *file, unsigned long line)
{
    printf("FreeRTOS assertion failed at %s:%lu\n", file, line);
    fflush(stdout);
    abort();
}

void vApplicationMallocFailedHook(void); /* the kernel declares it only in some versions */
/* A failed allocation is reported and returned: rtipc's creation calls
 * turn it into RTIPC_ENOMEM, which the unit tests check. */
void vApplicationMallocFailedHook(void)
{
    printf("FreeRTOS heap: an allocation failed (pvPortMalloc returned NULL)\n");
}
