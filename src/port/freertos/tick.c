/* The tick on FreeRTOS is the kernel's own: configTICK_RATE_HZ, fixed when
 * the kernel is built. */
#include "port_internal.h"
#include "rtipc/tick.h"

int rtipc_tick_set_rate(uint32_t hz)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (hz == 0 || hz > 100000)
        return RTIPC_EINVAL;
    /* The kernel's rate is a compile-time constant. */
    return hz == (uint32_t)configTICK_RATE_HZ ? RTIPC_OK : RTIPC_ENOTSUP;
}

uint32_t rtipc_tick_rate(void) { return (uint32_t)configTICK_RATE_HZ; }

int64_t rtipc_tick_period_ns(void) { return (int64_t)1000000000 / (int64_t)configTICK_RATE_HZ; }

uint64_t rtipc_tick_count(void) { return rtipc__tick_count64(); }

int rtipc_task_delay_until(uint64_t *previous_wake, uint32_t increment, bool *missed)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!previous_wake || increment == 0)
        return RTIPC_EINVAL;
    if (!rtipc__self())
        return RTIPC_ENOMEM;
    uint64_t wake = *previous_wake + increment;
    uint64_t now = rtipc__tick_count64();
    bool late = (int64_t)(wake - now) <= 0;
    /* Sleep in steps the kernel's delay can express. */
    while (!late && (int64_t)(wake - now) > 0) {
        uint64_t left = wake - now;
        vTaskDelay(left >= (uint64_t)portMAX_DELAY ? portMAX_DELAY - 1 : (TickType_t)left);
        now = rtipc__tick_count64();
    }
    *previous_wake = wake;
    if (missed)
        *missed = late;
    return RTIPC_OK;
}
