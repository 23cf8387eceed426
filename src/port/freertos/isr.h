/* Interrupt context in the FreeRTOS port: whether a handler runs, the
 * critical sections usable from tasks and handlers alike, and the kernel's
 * "higher-priority task woken" turned into rtipc's woken flag. */
#ifndef RTIPC_PORT_FREERTOS_ISR_H
#define RTIPC_PORT_FREERTOS_ISR_H

#include "kernel_compat.h"

/* ---- interrupt context --------------------------------------------------------- */
/* A handler runs: the port's own test (rtipcCONFIG_IN_INTERRUPT), or the
 * bracket rtipc_freertos_isr_enter/exit counts per core (irq.c). On one
 * core a plain read, in line, since every call asks. */
#if configNUMBER_OF_CORES > 1
bool rtipc__in_isr(void);
#else
extern volatile uint32_t rtipc__irq_nesting[1];
static inline bool rtipc__in_isr(void)
{
#ifdef rtipcCONFIG_IN_INTERRUPT
    if (rtipcCONFIG_IN_INTERRUPT())
        return true;
#endif
    return rtipc__irq_nesting[0] != 0;
}
#endif

/* Task-level critical section. ESP-IDF's own SMP kernel takes a spinlock
 * argument (one lock for all of rtipc, defined in irq.c); other kernels none. */
#if defined(ESP_PLATFORM) && !defined(CONFIG_FREERTOS_SMP)
#define RTIPC__IDF_MUX 1
extern portMUX_TYPE rtipc__mux;
#define RTIPC__TASK_CRIT_ENTER() taskENTER_CRITICAL(&rtipc__mux)
#define RTIPC__TASK_CRIT_EXIT() taskEXIT_CRITICAL(&rtipc__mux)
#else
#define RTIPC__TASK_CRIT_ENTER() taskENTER_CRITICAL()
#define RTIPC__TASK_CRIT_EXIT() taskEXIT_CRITICAL()
#endif

/* A critical section usable from tasks and handlers alike. */
typedef struct {
    UBaseType_t saved;
    bool isr;
} rtipc__crit_t;

static inline rtipc__crit_t rtipc__enter(void)
{
    rtipc__crit_t c = {0, rtipc__in_isr()};
#ifdef RTIPC__IDF_MUX
    if (c.isr)
        taskENTER_CRITICAL_ISR(&rtipc__mux);
    else
        taskENTER_CRITICAL(&rtipc__mux);
#else
    if (c.isr)
        c.saved = taskENTER_CRITICAL_FROM_ISR();
    else
        taskENTER_CRITICAL();
#endif
    return c;
}

static inline void rtipc__exit(rtipc__crit_t c)
{
#ifdef RTIPC__IDF_MUX
    if (c.isr)
        taskEXIT_CRITICAL_ISR(&rtipc__mux);
    else
        taskEXIT_CRITICAL(&rtipc__mux);
#else
    if (c.isr)
        taskEXIT_CRITICAL_FROM_ISR(c.saved);
    else
        taskEXIT_CRITICAL();
#endif
}

/* pxHigherPriorityTaskWoken -> rtipc's woken flag (set only, never cleared). */
static inline void rtipc__woken(BaseType_t hp, bool *woken)
{
    if (hp != pdFALSE && woken)
        *woken = true;
}

#endif
