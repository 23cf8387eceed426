/* Spin-then-park in the FreeRTOS port (spin.c): when a blocking call may
 * spin before the kernel blocks it, the budgets, the per-task counters and
 * the spin calls themselves. */
#ifndef RTIPC_PORT_FREERTOS_SPIN_H
#define RTIPC_PORT_FREERTOS_SPIN_H

#include "isr.h"

struct rtipc__task;
struct rtipc__qhead;

/* ---- spin-then-park (spin.c) ------------------------------------------------
 * A blocking call spins before it blocks only on a multicore kernel that can
 * tell a task's core (configUSE_CORE_AFFINITY), whether another task is
 * ready (INCLUDE_eTaskGetState), and time a budget shorter than a tick
 * (rtipcCONFIG_CYCLES). Single-core kernels, ESP-IDF (its own SMP kernel and
 * affinity API) and kernels without those never spin: every wait blocks in
 * the kernel at once and every counter of rtipc_spin_stats stays 0; so does
 * direct mode (rtipc/freertos_direct.h). */
#if !RTIPC_DIRECT && !defined(ESP_PLATFORM) && configNUMBER_OF_CORES > 1 && defined(configUSE_CORE_AFFINITY) && \
    configUSE_CORE_AFFINITY == 1 && defined(INCLUDE_eTaskGetState) && INCLUDE_eTaskGetState == 1 && \
    defined(rtipcCONFIG_CYCLES)
#define RTIPC__SPINS 1
#else
#define RTIPC__SPINS 0
#endif

/* Spin budgets as the setters take them: RTIPC_SPIN_DEFAULT or
 * 0 .. RTIPC_SPIN_MAX_NS. */
static inline bool rtipc__spin_ok(int64_t ns)
{
    return ns == RTIPC_SPIN_DEFAULT || (ns >= 0 && ns <= RTIPC_SPIN_MAX_NS);
}

/* The counters of rtipc_spin_stats_t a task's descriptor keeps (SMP). */
enum {
    RTIPC__STAT_SPINS,
    RTIPC__STAT_SPIN_WAKEUPS,
    RTIPC__STAT_SAME_CORE_PARKS,
    RTIPC__STAT_SLEEPS,
    RTIPC__STAT_WAKES, /* reported as futex_wakes: park gives wakers made */
    RTIPC__STAT_COUNT
};

/* ---- spin-then-park: the calls (spin.c) -------------------------------------- */
#if RTIPC__SPINS
/* Spin until done(arg) returns true (then true), or until the budget runs
 * out or the rules below end the spin (false: the caller blocks). `setting`
 * is the object's (or the task's) budget, RTIPC_SPIN_DEFAULT for the global
 * one; `ticks` the caller's timeout in kernel ticks (0: no spin at all). The
 * rules (spin.h): the caller is pinned to one core (its kernel affinity),
 * the last task that woke it through rtipc ran on the other core, and no
 * other rtipc task that may run on the caller's core is ready to run
 * (checked at the start and every RTIPC__SPIN_RECHECK_NS). Task context,
 * scheduler running. `poll_gap` is the number of relax loops between two
 * calls of done (0 for a lock-free poll; more for one that takes a kernel
 * critical section, so that the waker is not kept off the kernel's lock). */
bool rtipc__spin_wait(struct rtipc__task *self, int64_t setting, TickType_t ticks, bool (*done)(void *arg),
                         void *arg, unsigned poll_gap);

/* Another rtipc-created task (not @p self) that may run on core @p core is
 * ready but not running: a spin there would keep it off the core (task.c). */
bool rtipc__core_wanted(const struct rtipc__task *self, UBaseType_t core);

/* A blocking receive (item), peek (item, peek) or take (item NULL) on the
 * kernel queue or semaphore of @p h with a timeout of @p ticks, before the
 * kernel's blocking call: spin on it where the rules allow; true when it got
 * what the call wanted while spinning. When the object is empty it counts
 * the sleep the caller then makes. Task context. */
bool rtipc__kq_spin(struct rtipc__qhead *h, void *item, bool peek, TickType_t ticks);

/* Add one to a counter of @p t (any context). */
void rtipc__stat_bump(struct rtipc__task *t, unsigned which);

/* The same inside a critical section the caller holds (a macro: the
 * descriptor is defined in task_internal.h, which includes this header). */
#define rtipc__stat_bump_locked(t, which) ((void)((t)->stat[(which)]++))

/* A wake of @p t through rtipc (a park give, a notification): from task
 * context, remember the waker's core (the same-core rule). */
#define rtipc__note_waker(t) ((void)(rtipc__in_isr() ? 0 : ((t)->waker_core = (int)portGET_CORE_ID() + 1)))
#else
static inline bool rtipc__spin_wait(struct rtipc__task *self, int64_t setting, TickType_t ticks,
                                       bool (*done)(void *arg), void *arg, unsigned poll_gap)
{
    (void)self, (void)setting, (void)ticks, (void)done, (void)arg, (void)poll_gap;
    return false;
}
static inline bool rtipc__kq_spin(struct rtipc__qhead *h, void *item, bool peek, TickType_t ticks)
{
    (void)h, (void)item, (void)peek, (void)ticks;
    return false;
}
static inline void rtipc__stat_bump(struct rtipc__task *t, unsigned which) { (void)t, (void)which; }
#define rtipc__stat_bump_locked(t, which) ((void)(t), (void)(which))
#define rtipc__note_waker(t) ((void)(t))
#endif

/* The tick count where a spin may follow (rtipc__ticks_left's start). */
static inline TickType_t rtipc__spin_start(void) { return RTIPC__SPINS ? xTaskGetTickCount() : 0; }

/* What remains of a timeout of @p ticks kernel ticks once the ticks since
 * @p start (rtipc__spin_start) have passed in a spin (portMAX_DELAY
 * stays forever; without spinning, all of it). */
static inline TickType_t rtipc__ticks_left(TickType_t ticks, TickType_t start)
{
    if (!RTIPC__SPINS || ticks == portMAX_DELAY || ticks == 0)
        return ticks;
    TickType_t spent = xTaskGetTickCount() - start;
    return spent >= ticks ? 0 : ticks - spent;
}

#endif
