/* The task watchdog is ESP-IDF's, not the FreeRTOS kernel's: not supported
 * on this port (use the MCU's hardware watchdog). */
#include "port_internal.h"
#include "rtipc/wdt.h"

int rtipc_wdt_start(const rtipc_wdt_config_t *cfg)
{
    if (rtipc__fr_in_isr())
        return RTIPC_ECONTEXT;
    return cfg ? RTIPC_ENOTSUP : RTIPC_EINVAL;
}

int rtipc_wdt_stop(void) { return rtipc__fr_in_isr() ? RTIPC_ECONTEXT : RTIPC_ENOTSUP; }

int rtipc_wdt_add(rtipc_task_t *task)
{
    (void)task;
    return rtipc__fr_in_isr() ? RTIPC_ECONTEXT : RTIPC_ENOTSUP;
}

int rtipc_wdt_delete(rtipc_task_t *task)
{
    (void)task;
    return rtipc__fr_in_isr() ? RTIPC_ECONTEXT : RTIPC_ENOTSUP;
}

int rtipc_wdt_reset(void) { return rtipc__fr_in_isr() ? RTIPC_ECONTEXT : RTIPC_ENOTSUP; }

uint64_t rtipc_wdt_trip_count(void) { return 0; }
