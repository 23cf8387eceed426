/* Spin budgets on FreeRTOS. The setting calls keep their contract (range
 * checks, the global default) on every kernel.
 *
 * Single-core kernels (and ESP-IDF, and kernels without core affinity,
 * eTaskGetState or a sub-tick clock: RTIPC__SPINS in port_internal.h)
 * never spin: a blocking call blocks in the kernel at once, which is what a
 * fixed-priority kernel wants when the waker can only be a task of the same
 * core (a spinning task would only keep lower-priority tasks, maybe its
 * waker, off the core). Every counter stays 0 there.
 *
 * On a multicore kernel a wait first polls its condition for the budget
 * when the waker can only be on another core (rtipc__spin_wait, the
 * rules in port_internal.h and spin.h), and the descriptor counts spins,
 * spin wake-ups, same-core parks, sleeps (blocking kernel calls made) and
 * the park gives wakers made for it (reported as futex_wakes). */
#include <string.h>

#include "port_internal.h"

static volatile int64_t default_ns = RTIPC_SPIN_NS_DEFAULT;

_Static_assert(RTIPC_SPIN_NS_DEFAULT >= 0 && RTIPC_SPIN_NS_DEFAULT <= RTIPC_SPIN_MAX_NS,
               "RTIPC_SPIN_NS_DEFAULT is 0 .. RTIPC_SPIN_MAX_NS");

int rtipc_spin_set_default(int64_t ns)
{
    if (ns == RTIPC_SPIN_DEFAULT)
        ns = RTIPC_SPIN_NS_DEFAULT;
    if (ns < 0 || ns > RTIPC_SPIN_MAX_NS)
        return RTIPC_EINVAL;
    rtipc__crit_t c = rtipc__enter();
    default_ns = ns;
    rtipc__exit(c);
    return RTIPC_OK;
}

int64_t rtipc_spin_default(void)
{
    rtipc__crit_t c = rtipc__enter();
    int64_t ns = default_ns;
    rtipc__exit(c);
    return ns;
}

int rtipc_spin_stats(const rtipc_task_t *handle, rtipc_spin_stats_t *out)
{
    struct rtipc__task *task;
    if (!handle) {
        if (rtipc__in_isr())
            return RTIPC_ECONTEXT;
        task = rtipc__self();
        if (!task)
            return RTIPC_ENOMEM;
    } else {
        task = rtipc__task_get(handle);
    }
    if (!task || !out)
        return RTIPC_EINVAL;
    memset(out, 0, sizeof *out);
#if RTIPC__SPINS
    rtipc__crit_t c = rtipc__enter();
    out->spins = task->stat[RTIPC__STAT_SPINS];
    out->spin_wakeups = task->stat[RTIPC__STAT_SPIN_WAKEUPS];
    out->same_core_parks = task->stat[RTIPC__STAT_SAME_CORE_PARKS];
    out->sleeps = task->stat[RTIPC__STAT_SLEEPS];
    out->futex_wakes = task->stat[RTIPC__STAT_WAKES];
    rtipc__exit(c);
#endif
    return RTIPC_OK;
}

#if RTIPC__SPINS

void rtipc__stat_bump(struct rtipc__task *t, unsigned which)
{
    rtipc__crit_t c = rtipc__enter();
    t->stat[which]++;
    rtipc__exit(c);
}

/* How often a long spin looks again at the tasks of its core: the look walks
 * rtipc's task list in a kernel critical section, which the waker on the
 * other core needs too, so it is rare next to the poll. */
#define RTIPC__SPIN_RECHECK_NS 5000

/* A budget as the objects store it (a plain int64_t that a setter on another
 * core may be rewriting: a torn value counts as the default). */
static int64_t budget_of(int64_t setting)
{
    if (setting == RTIPC_SPIN_DEFAULT || setting < 0 || setting > RTIPC_SPIN_MAX_NS)
        return rtipc_spin_default();
    return setting;
}

static uint64_t ns_to_cycles(int64_t ns)
{
    /* ns <= 1e9 and the counter's rate <= a few GHz: the product fits. */
    return (uint64_t)ns * (uint64_t)rtipcCONFIG_CYCLES_HZ / 1000000000u + 1u;
}

static inline void relax(unsigned loops)
{
    for (unsigned i = 0; i < loops; ++i)
        __asm__ __volatile__("" ::: "memory");
}

/* The caller's one core, or -1 when its affinity allows more than one. */
static int pinned_core(void)
{
    UBaseType_t mask = vTaskCoreAffinityGet(NULL) & (((UBaseType_t)1 << configNUMBER_OF_CORES) - 1u);
    if (mask == 0 || (mask & (mask - 1u)) != 0)
        return -1;
    int core = 0;
    while (!(mask & 1u)) {
        mask >>= 1;
        ++core;
    }
    return core;
}

bool rtipc__spin_wait(struct rtipc__task *self, int64_t setting, TickType_t ticks, bool (*done)(void *arg),
                         void *arg, unsigned poll_gap)
{
    if (ticks == 0 || !self || rtipc__in_isr() || xTaskGetSchedulerState() != taskSCHEDULER_RUNNING)
        return false;
    int64_t budget = budget_of(setting);
    if (budget <= 0)
        return false;
    int core = pinned_core();
    if (core < 0)
        return false; /* not pinned: no core to reason about */
    bool refused = self->waker_core == core + 1 || rtipc__core_wanted(self, (UBaseType_t)core);
    rtipc__stat_bump(self, refused ? RTIPC__STAT_SAME_CORE_PARKS : RTIPC__STAT_SPINS);
    if (refused)
        return false;
    uint64_t start = rtipc_cycles();
    uint64_t end = start + ns_to_cycles(budget);
    uint64_t recheck = start + ns_to_cycles(RTIPC__SPIN_RECHECK_NS);
    for (;;) {
        if (done(arg)) {
            rtipc__stat_bump(self, RTIPC__STAT_SPIN_WAKEUPS);
            return true;
        }
        relax(poll_gap);
        uint64_t now = rtipc_cycles();
        if (now >= end)
            return false;
        if (now >= recheck) {
            if (rtipc__core_wanted(self, (UBaseType_t)core)) {
                /* A task of this core became ready meanwhile: make way. */
                rtipc__stat_bump(self, RTIPC__STAT_SAME_CORE_PARKS);
                return false;
            }
            recheck = now + ns_to_cycles(RTIPC__SPIN_RECHECK_NS);
        }
    }
}

/* ---- kernel queues and semaphores ------------------------------------------ */

typedef struct {
    QueueHandle_t q;
    void *item; /* NULL: a semaphore */
    bool peek;
} kq_poll_t;

/* The poll: a lock-free look at the kernel's count, and the kernel's own
 * call with no timeout only once there is something to take. */
static bool kq_got(void *arg)
{
    const kq_poll_t *p = arg;
    if (uxQueueMessagesWaitingFromISR(p->q) == 0)
        return false;
    if (!p->item)
        return xQueueSemaphoreTake(p->q, 0) == pdPASS;
    return (p->peek ? xQueuePeek(p->q, p->item, 0) : xQueueReceive(p->q, p->item, 0)) == pdPASS;
}

bool rtipc__kq_spin(struct rtipc__qhead *h, void *item, bool peek, TickType_t ticks)
{
    kq_poll_t p = {rtipc__qhandle(h), item, peek};
    if (ticks == 0 || uxQueueMessagesWaitingFromISR(p.q) != 0)
        return false; /* nothing to wait for (or no waiting): the kernel's call decides */
    struct rtipc__task *self = rtipc__self();
    if (!self)
        return false;
    if (rtipc__spin_wait(self, h->spin, ticks, kq_got, &p, 0))
        return true;
    rtipc__stat_bump(self, RTIPC__STAT_SLEEPS); /* the caller blocks in the kernel now */
    return false;
}

#endif
