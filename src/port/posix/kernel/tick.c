/* The tick: a grid of boundaries over CLOCK_MONOTONIC. No thread runs it; the
 * interrupt threads wake at a boundary only when a deferred wake-up waits for
 * one (irq.c), and delay-until sleeps to a boundary directly.
 *
 * The grid is the one the last rate change started: tick base_count begins
 * at base_ns and every tick lasts period ns. A change starts a new grid at
 * the current tick, so no count is ever multiplied by a period (a count
 * reached at 100 kHz times a 1 s period overflows int64 after a day), and
 * every time is base_ns + (tick - base_count) x period, checked against
 * INT64_MAX before it is formed (tick.h says what a time beyond it means).
 *
 * Readers take no lock. The grid is kept in two copies published through a
 * sequence word, 2 x version while idle and +1 while a change is being
 * written (the scheme of the mailbox, src/common/mailbox.c): a change writes
 * the copy readers are not using, so a reader is never held up by a change
 * in progress (an interrupt thread may read the grid while the task that
 * changes it is preempted on the same core), and retries only when two
 * changes completed while it read. Changes are serialised by rate_mutex.
 *
 *   R1 change: release store of seq (publish) pairs with A1, the reader's
 *      acquire load of seq; publishes the copy the change wrote.
 *   RF change: release fence after marking seq odd pairs with AF, the
 *      reader's acquire fence before its second load of seq: a reader that
 *      saw a word of a change's copy sees at least the odd mark. */
#include "rtipc/tick.h"

#include <pthread.h>
#include <stdatomic.h>

#include "irq_internal.h"
#include "rtipc/error.h"
#include "rtipc/time.h"
#include "task_internal.h"

typedef struct {
    int64_t base_ns;     /* when tick base_count began (>= 0) */
    uint64_t base_count; /* the tick count at the last rate change */
    int64_t period;      /* ns per tick, 10000 .. 1000000000 */
} grid_t;

/* Atomic words, so that a reader overlapping a change's stores reads
 * (useless, discarded) values without a data race. */
typedef struct {
    _Atomic int64_t base_ns;
    _Atomic uint64_t base_count;
    _Atomic int64_t period;
} grid_copy_t;

static grid_copy_t copies[2];
static _Atomic uint64_t seq; /* 2 x version, +1 while a change writes; version v is in copies[v & 1] */
static pthread_mutex_t rate_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t start_once = PTHREAD_ONCE_INIT;

static int64_t now_ns(void)
{
    int64_t t = rtipc_time_ns();
    return t < 0 ? 0 : t; /* CLOCK_MONOTONIC is never negative; base_ns relies on it */
}

static void store_copy(grid_copy_t *c, grid_t g)
{
    atomic_store_explicit(&c->base_ns, g.base_ns, memory_order_relaxed);
    atomic_store_explicit(&c->base_count, g.base_count, memory_order_relaxed);
    atomic_store_explicit(&c->period, g.period, memory_order_relaxed);
}

/* The tick starts on first use, at the default rate: version 0 (pthread_once
 * publishes it to every caller of grid()). */
static void start(void) { store_copy(&copies[0], (grid_t){now_ns(), 0, 1000000000 / RTIPC_TICK_HZ_DEFAULT}); }

static grid_t grid(void)
{
    pthread_once(&start_once, start);
    for (;;) {
        /* A1: acquire, pairs with R1; the copy of version v is complete. */
        uint64_t s0 = atomic_load_explicit(&seq, memory_order_acquire);
        uint64_t v = s0 >> 1;
        grid_copy_t *c = &copies[v & 1];
        grid_t g = {atomic_load_explicit(&c->base_ns, memory_order_relaxed),
                    atomic_load_explicit(&c->base_count, memory_order_relaxed),
                    atomic_load_explicit(&c->period, memory_order_relaxed)};
        /* AF: acquire fence, pairs with RF. */
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&seq, memory_order_relaxed) <= 2 * v + 2)
            return g;
        /* The change to version v+2 rewrote this copy meanwhile: again. */
    }
}

/* The tick count at time t on grid g: wraps modulo 2^64, as the count does. */
static uint64_t count_at(grid_t g, int64_t t)
{
    return t > g.base_ns ? g.base_count + (uint64_t)((t - g.base_ns) / g.period) : g.base_count;
}

/* When tick `ticks` after g's base tick begins, or -1 when that time does
 * not fit in int64 nanoseconds. */
static int64_t time_after_base(grid_t g, uint64_t ticks)
{
    if (ticks > (uint64_t)((INT64_MAX - g.base_ns) / g.period))
        return -1;
    return g.base_ns + (int64_t)ticks * g.period;
}

int rtipc_tick_set_rate(uint32_t hz)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (hz == 0 || hz > 100000)
        return RTIPC_EINVAL;
    pthread_mutex_lock(&rate_mutex);
    grid_t old = grid();
    int64_t now = now_ns();
    if (now < old.base_ns)
        now = old.base_ns; /* a reading racing the start: the grid never moves back */
    /* Keep the count continuous: the current tick starts now on the new grid. */
    grid_t g = {now, count_at(old, now), 1000000000 / (int64_t)hz};
    uint64_t s = atomic_load_explicit(&seq, memory_order_relaxed);
    atomic_store_explicit(&seq, s + 1, memory_order_relaxed);
    /* RF: release fence, pairs with AF in grid(): a reader that sees a word
     * stored below also sees the odd mark above. */
    atomic_thread_fence(memory_order_release);
    store_copy(&copies[((s >> 1) + 1) & 1], g);
    /* R1: release, pairs with A1 in grid(); publishes the new copy. */
    atomic_store_explicit(&seq, s + 2, memory_order_release);
    pthread_mutex_unlock(&rate_mutex);
    return RTIPC_OK;
}

int64_t rtipc_tick_period_ns(void) { return grid().period; }

uint32_t rtipc_tick_rate(void) { return (uint32_t)(1000000000 / rtipc_tick_period_ns()); }

uint64_t rtipc_tick_count(void)
{
    grid_t g = grid();
    return count_at(g, now_ns());
}

int64_t rtipc__tick_next_boundary(int64_t now)
{
    grid_t g = grid();
    if (now < g.base_ns)
        return g.base_ns;
    /* The boundary after now: one tick past the tick now is in. A boundary
     * beyond int64 nanoseconds is never (INT64_MAX). */
    int64_t at = time_after_base(g, (uint64_t)((now - g.base_ns) / g.period) + 1);
    return at < 0 ? INT64_MAX : at;
}

int rtipc_task_delay_until(uint64_t *previous_wake, uint32_t increment, bool *missed)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!previous_wake || increment == 0)
        return RTIPC_EINVAL;
    uint64_t target = *previous_wake + increment;
    *previous_wake = target;
    grid_t g = grid();
    /* A tick before the last rate change has passed (it began before the
     * change did). A tick whose time int64 nanoseconds cannot hold is never
     * reached: sleep for good (until deleted) rather than overflow. */
    int64_t wake_at = target < g.base_count ? g.base_ns : time_after_base(g, target - g.base_count);
    bool late = wake_at >= 0 && now_ns() >= wake_at;
    if (missed)
        *missed = late;
    if (late)
        return RTIPC_OK;
    return rtipc__sleep_until(wake_at);
}
