/* Where rtipc does not run on FreeRTOS (Linux) there are no kernel calls to
 * measure beside rtipc's: isr-handoff and notify-modes record rtipc's rows
 * only, as bench_mech_kernel_built says. */
#include <stddef.h>

#include "freertos_isr_notify.h"

const bench_fr_isr_notify_t *const bench_fr_isr_notify = NULL;
