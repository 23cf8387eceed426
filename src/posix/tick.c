/* The tick: a grid of boundaries over CLOCK_MONOTONIC. No thread runs it; the
 * interrupt threads wake at a boundary only when a deferred wake-up waits for
 * one (irq.c), and delay-until sleeps to a boundary directly. */
#include "rtipc/tick.h"

#include <pthread.h>
#include <stdatomic.h>

#include "irq_internal.h"
#include "rtipc/error.h"
#include "rtipc/time.h"
#include "task_internal.h"

/* Epoch and period change together under rate_mutex. Readers do not take it:
 * the rate changes rarely, and a reader racing a change is off by at most
 * one tick for that one call. */
static _Atomic int64_t epoch_ns = -1;
static _Atomic int64_t period_ns = 1000000000 / RTIPC_TICK_HZ_DEFAULT;
static pthread_mutex_t rate_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t start_once = PTHREAD_ONCE_INIT;

static void start(void) { atomic_store(&epoch_ns, rtipc_time_ns()); }

static int64_t epoch(void)
{
    pthread_once(&start_once, start);
    return atomic_load_explicit(&epoch_ns, memory_order_relaxed);
}

int rtipc_tick_set_rate(uint32_t hz)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (hz == 0 || hz > 100000)
        return RTIPC_EINVAL;
    pthread_mutex_lock(&rate_mutex);
    int64_t now = rtipc_time_ns();
    uint64_t count = rtipc_tick_count();
    int64_t period = 1000000000 / (int64_t)hz;
    /* Keep the count continuous: tick `count` starts now on the new grid. */
    atomic_store(&epoch_ns, now - (int64_t)count * period);
    atomic_store(&period_ns, period);
    pthread_mutex_unlock(&rate_mutex);
    return RTIPC_OK;
}

int64_t rtipc_tick_period_ns(void) { return atomic_load_explicit(&period_ns, memory_order_relaxed); }

uint32_t rtipc_tick_rate(void) { return (uint32_t)(1000000000 / rtipc_tick_period_ns()); }

uint64_t rtipc_tick_count(void)
{
    int64_t e = epoch();
    int64_t now = rtipc_time_ns();
    return now > e ? (uint64_t)((now - e) / rtipc_tick_period_ns()) : 0;
}

int64_t rtipc__tick_next_boundary(int64_t now)
{
    int64_t e = epoch(), p = rtipc_tick_period_ns();
    int64_t n = now > e ? (now - e) / p + 1 : 1;
    return e + n * p;
}

int rtipc_task_delay_until(uint64_t *previous_wake, uint32_t increment, bool *missed)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!previous_wake || increment == 0)
        return RTIPC_EINVAL;
    uint64_t target = *previous_wake + increment;
    *previous_wake = target;
    int64_t e = epoch(), period = rtipc_tick_period_ns();
    /* A tick whose time int64 nanoseconds cannot hold is never reached:
     * sleep for good (until deleted) rather than overflow. */
    int64_t wake_at = target > (uint64_t)((INT64_MAX - e) / period) ? -1 : e + (int64_t)target * period;
    bool late = wake_at >= 0 && rtipc_time_ns() >= wake_at;
    if (missed)
        *missed = late;
    if (late)
        return RTIPC_OK;
    return rtipc__sleep_until(wake_at);
}
