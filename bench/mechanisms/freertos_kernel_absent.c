/* The table's entries of the FreeRTOS kernel's own calls (freertos_kernel.c)
 * where rtipc does not run on FreeRTOS: each says why, so that round-trip
 * records them as missing. */
#include "../names.h"
#include "mechanisms.h"

#define NO_KERNEL "the FreeRTOS kernel's own calls: rtipc runs on FreeRTOS only on the FreeRTOS targets"

const bench_mech_t bench_mech_kernel_queue = {.name = BENCH_MECH_KERNEL_QUEUE, .absent = NO_KERNEL};
const bench_mech_t bench_mech_kernel_sem = {.name = BENCH_MECH_KERNEL_SEM, .absent = NO_KERNEL};
const bench_mech_t bench_mech_kernel_notify = {.name = BENCH_MECH_KERNEL_NOTIFY, .absent = NO_KERNEL};
