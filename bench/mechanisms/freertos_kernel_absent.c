/* The table's entries of the FreeRTOS kernel's own calls (freertos_kernel.c)
 * where rtipc does not run on FreeRTOS: each says why, so that an experiment
 * that asks for one by name records it as missing. The experiments that
 * measure a kernel object beside each of rtipc's (bench_mech_kernel_twin)
 * leave them out here: on Linux rtipc's objects are the implementation. */
#include "../names.h"
#include "mechanisms.h"

const bool bench_mech_kernel_built = false;

#define NO_KERNEL "the FreeRTOS kernel's own calls: rtipc runs on FreeRTOS only on the FreeRTOS targets"

const bench_mech_t bench_mech_kernel_queue = {.name = BENCH_MECH_KERNEL_QUEUE, .absent = NO_KERNEL};
const bench_mech_t bench_mech_kernel_sem = {.name = BENCH_MECH_KERNEL_SEM, .absent = NO_KERNEL};
const bench_mech_t bench_mech_kernel_notify = {.name = BENCH_MECH_KERNEL_NOTIFY, .absent = NO_KERNEL};
const bench_mech_t bench_mech_kernel_queue_overwrite = {.name = BENCH_MECH_KERNEL_QUEUE_OVERWRITE, .absent = NO_KERNEL};
const bench_mech_t bench_mech_kernel_streambuf = {.name = BENCH_MECH_KERNEL_STREAMBUF, .absent = NO_KERNEL};
const bench_mech_t bench_mech_kernel_msgbuf = {.name = BENCH_MECH_KERNEL_MSGBUF, .absent = NO_KERNEL};
const bench_mech_t bench_mech_kernel_eventgroup = {.name = BENCH_MECH_KERNEL_EVENTGROUP, .absent = NO_KERNEL};
const bench_mech_t bench_mech_kernel_mutex_list = {.name = BENCH_MECH_KERNEL_MUTEX_LIST, .absent = NO_KERNEL};
const bench_mech_t bench_mech_espidf_ringbuf_nosplit = {.name = BENCH_MECH_ESPIDF_RINGBUF_NOSPLIT, .absent = NO_KERNEL};
const bench_mech_t bench_mech_espidf_ringbuf_allowsplit = {.name = BENCH_MECH_ESPIDF_RINGBUF_ALLOWSPLIT,
                                                           .absent = NO_KERNEL};
const bench_mech_t bench_mech_espidf_ringbuf_bytebuf = {.name = BENCH_MECH_ESPIDF_RINGBUF_BYTEBUF, .absent = NO_KERNEL};
