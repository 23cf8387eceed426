/* Clocks on FreeRTOS: rtipc_time_ns() is the kernel tick count in
 * nanoseconds (tick resolution); rtipc_cycles() is a cycle counter the
 * application supplies through FreeRTOSConfig.h, or the same tick clock. */
#include "port_internal.h"

/* Optional hooks (FreeRTOSConfig.h): rtipcCONFIG_CYCLES() reads a free-running
 * counter (for example DWT->CYCCNT on a Cortex-M), rtipcCONFIG_CYCLES_HZ is
 * its frequency and rtipcCONFIG_CYCLES_NAME its name. */
#if defined(rtipcCONFIG_CYCLES) && !defined(rtipcCONFIG_CYCLES_HZ)
#error "rtipcCONFIG_CYCLES needs rtipcCONFIG_CYCLES_HZ"
#endif

#define NS_PER_TICK ((int64_t)1000000000 / (int64_t)configTICK_RATE_HZ)

/* The kernel's count starts at configINITIAL_TICK_COUNT; rtipc counts from
 * the start of the tick, as tick.h says. */
#ifdef configINITIAL_TICK_COUNT
#define TICK0 ((TickType_t)configINITIAL_TICK_COUNT)
#else
#define TICK0 ((TickType_t)0)
#endif

static TickType_t kernel_ticks(bool isr)
{
    return (TickType_t)((isr ? xTaskGetTickCountFromISR() : xTaskGetTickCount()) - TICK0);
}

uint64_t rtipc__tick_count64(void)
{
    /* TickType_t is the port's (unsigned long on the POSIX simulator,
     * whatever configTICK_TYPE_WIDTH_IN_BITS says): decide on its size. */
    if (sizeof(TickType_t) >= sizeof(uint64_t))
        return (uint64_t)kernel_ticks(rtipc__in_isr());
    /* Widen the wrapping count: remember the last reading and the wraps seen.
     * Correct as long as some rtipc call reads the clock once per wrap. */
    static TickType_t last;
    static uint64_t high;
    rtipc__crit_t c = rtipc__enter();
    TickType_t now = kernel_ticks(c.isr);
    if (now < last)
        high += (uint64_t)(TickType_t)-1 + 1u;
    last = now;
    uint64_t v = high + now;
    rtipc__exit(c);
    return v;
}

int64_t rtipc_time_ns(void) { return (int64_t)rtipc__tick_count64() * NS_PER_TICK; }

TickType_t rtipc__ticks_finite(rtipc_timeout_t timeout)
{
    /* Below about 4 s the division is in 32 bits by a constant, which the
     * compiler turns into a multiplication; a 64-bit one would be a library
     * call on a 32-bit MCU. */
    uint64_t ticks;
    if ((uint64_t)timeout.ns <= (uint64_t)UINT32_MAX - (uint64_t)NS_PER_TICK)
        ticks = ((uint32_t)timeout.ns + (uint32_t)NS_PER_TICK - 1u) / (uint32_t)NS_PER_TICK + 1u;
    else
        ticks = ((uint64_t)timeout.ns + (uint64_t)NS_PER_TICK - 1u) / (uint64_t)NS_PER_TICK + 1u;
    if (ticks >= (uint64_t)portMAX_DELAY)
        return portMAX_DELAY;
    return (TickType_t)ticks;
}

uint64_t rtipc_cycles(void)
{
#ifdef rtipcCONFIG_CYCLES
    return (uint64_t)rtipcCONFIG_CYCLES();
#else
    return (uint64_t)rtipc_time_ns();
#endif
}

int64_t rtipc_cycles_to_ns(uint64_t cycles)
{
#ifdef rtipcCONFIG_CYCLES
    /* A counter with a whole number of nanoseconds per count (25 MHz: 40)
     * converts in integers: an MCU without an FPU would spend hundreds of
     * instructions per timestamp in soft-float. */
    const uint64_t hz = (uint64_t)rtipcCONFIG_CYCLES_HZ;
    if (hz > 0 && hz <= 1000000000u && 1000000000u % hz == 0) {
        uint64_t per = 1000000000u / hz;
        return cycles > (uint64_t)INT64_MAX / per ? INT64_MAX : (int64_t)(cycles * per);
    }
#endif
    double ns = (double)cycles * 1e9 / rtipc_cycles_hz();
    return ns >= 9.2e18 ? INT64_MAX : (int64_t)ns;
}

double rtipc_cycles_hz(void)
{
#ifdef rtipcCONFIG_CYCLES
    return (double)rtipcCONFIG_CYCLES_HZ;
#else
    return 1e9;
#endif
}

const char *rtipc_cycles_source(void)
{
#if defined(rtipcCONFIG_CYCLES_NAME)
    return rtipcCONFIG_CYCLES_NAME;
#elif defined(rtipcCONFIG_CYCLES)
    return "application";
#else
    return "freertos_tick";
#endif
}
