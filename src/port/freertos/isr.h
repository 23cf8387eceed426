/* Interrupt context in the FreeRTOS port: whether a handler runs, the
 * critical sections usable from tasks and handlers alike, and the kernel's
 * "higher-priority task woken" turned into rtipc's woken flag. */
#ifndef RTIPC_PORT_FREERTOS_ISR_H
#define RTIPC_PORT_FREERTOS_ISR_H

#include "kernel_compat.h"

/* ---- interrupt context --------------------------------------------------------- */
/* A handler runs: the port's own test (rtipcCONFIG_IN_INTERRUPT), or the
 * bracket rtipc_freertos_isr_enter/exit counts per core (irq.c), in line
 * since every call asks. Each core writes only its own count. */
extern volatile uint32_t rtipc__irq_nesting[configNUMBER_OF_CORES];
#if configNUMBER_OF_CORES > 1
/* The caller's own core's count, read with that core's interrupts masked
 * (irq.c). */
bool rtipc__in_bracket(void);
#endif
static inline bool rtipc__in_isr(void)
{
#ifdef rtipcCONFIG_IN_INTERRUPT
    if (rtipcCONFIG_IN_INTERRUPT())
        return true;
#endif
#if configNUMBER_OF_CORES > 1
    /* No bracket open on any core (the usual case): not in one, whatever
     * core the caller runs on, with no masking. A task sees its own core's
     * count at 0 whenever it runs, and a handler sees its own increment;
     * only when some core has a bracket open does the caller's own core
     * have to be read, masked, so that no move to another core comes
     * between reading the core's id and its count. */
    uint32_t open = 0;
    for (unsigned c = 0; c < configNUMBER_OF_CORES; c++)
        open |= rtipc__irq_nesting[c];
    return open != 0 && rtipc__in_bracket();
#else
    return rtipc__irq_nesting[0] != 0;
#endif
}

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
