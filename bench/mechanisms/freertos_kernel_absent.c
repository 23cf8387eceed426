/* Where rtipc does not run on FreeRTOS there is no kernel to measure beside
 * it: the round-trip experiment reports the kernel's channels as missing,
 * with this reason (round_trip.h). */
#include "../names.h"
#include "round_trip.h"

const bench_round_trip_mech_t *const bench_round_trip_kernel[] = {NULL};
const size_t bench_round_trip_kernel_count = 0;
const char *const bench_round_trip_kernel_names[3] = {BENCH_MECH_KERNEL_QUEUE, BENCH_MECH_KERNEL_SEM,
                                                      BENCH_MECH_KERNEL_NOTIFY};
const char bench_round_trip_kernel_absent[] =
    "the FreeRTOS kernel's own calls: rtipc runs on FreeRTOS only on the FreeRTOS targets";
