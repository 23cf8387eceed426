/* What ESP-IDF's own kernel does differently from the FreeRTOS-Kernel
 * checkout under it, for the port's sources (syntax_check.sh): its
 * critical sections take a spinlock, and it tells interrupt context and the
 * core apart. The kernel's task.h comes first; these replace its macros. */
#include_next <task.h>

#include <stdbool.h>

#ifndef RTIPC_STANDIN_KERNEL_TASK_H
#define RTIPC_STANDIN_KERNEL_TASK_H

#include "esp_port_extras.h" /* portMUX_TYPE, xPortGetCoreID */

void rtipc_standin_critical_enter(portMUX_TYPE *mux);
void rtipc_standin_critical_exit(portMUX_TYPE *mux);

#undef taskENTER_CRITICAL
#undef taskEXIT_CRITICAL
#undef taskENTER_CRITICAL_ISR
#undef taskEXIT_CRITICAL_ISR
#define taskENTER_CRITICAL(mux) rtipc_standin_critical_enter(mux)
#define taskEXIT_CRITICAL(mux) rtipc_standin_critical_exit(mux)
#define taskENTER_CRITICAL_ISR(mux) rtipc_standin_critical_enter(mux)
#define taskEXIT_CRITICAL_ISR(mux) rtipc_standin_critical_exit(mux)

/* Nonzero in an interrupt handler. */
BaseType_t xPortInIsrContext(void);
/* Whether the calling core's interrupts are unmasked (PS.INTLEVEL 0). */
bool xPortCanYield(void);

#endif
