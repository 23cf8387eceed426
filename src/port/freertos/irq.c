/* Interrupt context on FreeRTOS. Handlers are the application's (hardware
 * vectors, the tick hook); rtipc cannot create interrupt sources of its own
 * on an MCU, so rtipc_irq_create reports RTIPC_ENOTSUP.
 *
 * rtipc_in_interrupt() is true inside rtipc_freertos_isr_enter/exit brackets
 * (include/rtipc/port_freertos.h) or when the application's
 * rtipcCONFIG_IN_INTERRUPT() hook (FreeRTOSConfig.h, e.g. xPortIsInsideInterrupt()
 * on Cortex-M) says so. */
#include "port_internal.h"
#include "rtipc/irq.h"
#include "rtipc/port_freertos.h"

static volatile uint32_t nesting[configNUMBER_OF_CORES];

#ifdef RTIPC__FR_IDF_MUX
portMUX_TYPE rtipc__fr_mux = portMUX_INITIALIZER_UNLOCKED;
#endif

static unsigned this_core(void)
{
#if defined(ESP_PLATFORM) && configNUMBER_OF_CORES > 1
    return (unsigned)xPortGetCoreID();
#elif configNUMBER_OF_CORES > 1
    return (unsigned)portGET_CORE_ID();
#else
    return 0;
#endif
}

void rtipc_freertos_isr_enter(void) { nesting[this_core()]++; }

void rtipc_freertos_isr_exit(void)
{
    unsigned c = this_core();
    if (nesting[c] > 0)
        nesting[c]--;
}

bool rtipc__fr_in_isr(void)
{
#ifdef rtipcCONFIG_IN_INTERRUPT
    if (rtipcCONFIG_IN_INTERRUPT())
        return true;
#endif
    return nesting[this_core()] != 0;
}

bool rtipc_in_interrupt(void) { return rtipc__fr_in_isr(); }

int rtipc_irq_core(void) { return rtipc__fr_in_isr() ? (int)this_core() : -1; }

int rtipc_irq_yield(bool woken)
{
    if (!rtipc__fr_in_isr())
        return RTIPC_ECONTEXT;
    BaseType_t hp = woken ? pdTRUE : pdFALSE;
    portYIELD_FROM_ISR(hp);
    return RTIPC_OK;
}

int rtipc_irq_create(int core, rtipc_isr_fn handler, void *arg, rtipc_irq_t **out)
{
    (void)core;
    (void)arg;
    if (rtipc__fr_in_isr())
        return RTIPC_ECONTEXT;
    if (!out || !handler)
        return RTIPC_EINVAL;
    return RTIPC_ENOTSUP; /* interrupt sources are the application's vectors */
}

/* No rtipc interrupt source can exist on this port: every handle is invalid. */
int rtipc_irq_delete(rtipc_irq_t *irq)
{
    (void)irq;
    return rtipc__fr_in_isr() ? RTIPC_ECONTEXT : RTIPC_EINVAL;
}

int rtipc_irq_trigger(rtipc_irq_t *irq)
{
    (void)irq;
    return RTIPC_EINVAL;
}

int rtipc_irq_timer_start(rtipc_irq_t *irq, int64_t delay_ns, int64_t period_ns)
{
    (void)irq;
    (void)delay_ns;
    (void)period_ns;
    return RTIPC_EINVAL;
}

int rtipc_irq_timer_stop(rtipc_irq_t *irq)
{
    (void)irq;
    return RTIPC_EINVAL;
}

int64_t rtipc_irq_count(const rtipc_irq_t *irq)
{
    (void)irq;
    return RTIPC_EINVAL;
}
