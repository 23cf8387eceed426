/* Spin-then-park: budgets, the same-core rules and the spin loop (spin.h). */
#include "spin.h"

#include <sched.h>

#include "rtipc/config.h"
#include "rtipc/time.h"
#include "task_internal.h"

/* ---- budgets -------------------------------------------------------------- */

static _Atomic int64_t default_ns = RTIPC_SPIN_NS_DEFAULT;

_Static_assert(RTIPC_SPIN_NS_DEFAULT >= 0 && RTIPC_SPIN_NS_DEFAULT <= RTIPC_SPIN_MAX_NS,
               "RTIPC_SPIN_NS_DEFAULT is 0 .. RTIPC_SPIN_MAX_NS");

int rtipc_spin_set_default(int64_t ns)
{
    if (ns == RTIPC_SPIN_DEFAULT)
        ns = RTIPC_SPIN_NS_DEFAULT;
    if (ns < 0 || ns > RTIPC_SPIN_MAX_NS)
        return RTIPC_EINVAL;
    /* Relaxed: read once at the start of each wait; publishes nothing else. */
    atomic_store_explicit(&default_ns, ns, memory_order_relaxed);
    return RTIPC_OK;
}

int64_t rtipc_spin_default(void) { return atomic_load_explicit(&default_ns, memory_order_relaxed); }

int rtipc_spin_stats(const rtipc_task_t *task, rtipc_spin_stats_t *out)
{
    struct rtipc__task *t;
    if (!task) {
        if (rtipc__in_interrupt)
            return RTIPC_ECONTEXT;
        t = rtipc__self();
        if (!t)
            return RTIPC_ENOMEM;
    } else {
        t = rtipc__task_get(task); /* readable until joined */
    }
    if (!t || !out)
        return RTIPC_EINVAL;
    out->spins = atomic_load_explicit(&t->stat_spins, memory_order_relaxed);
    out->spin_wakeups = atomic_load_explicit(&t->stat_spin_wakeups, memory_order_relaxed);
    out->same_core_parks = atomic_load_explicit(&t->stat_same_core_parks, memory_order_relaxed);
    out->sleeps = atomic_load_explicit(&t->stat_sleeps, memory_order_relaxed);
    out->futex_wakes = atomic_load_explicit(&t->stat_futex_wakes, memory_order_relaxed);
    return RTIPC_OK;
}

/* ---- run states ------------------------------------------------------------
 * run_state packs the state (bits 0-1) with the task's core + 1 (0: not
 * pinned, or pinned beyond MAX_CORES), so that a waker that readies a task
 * learns its core from the same atomic word: a late waker (the descriptor
 * moved on, wait.h) never reads the plain `core` field while a new task is
 * being set up in it. Every transition moves the core's count once. */
#define MAX_CORES 64
enum { STATE_GONE = 0, STATE_READY = 1, STATE_BLOCKED = 2, STATE_MASK = 3, CORE_SHIFT = 2 };

/* Pinned tasks of each core that are ready to run (not blocked in rtipc).
 * One line per core: a spinner polls its own core's line. */
static struct {
    _Alignas(64) _Atomic int ready;
} cores[MAX_CORES];

static inline int core_of_state(uint32_t s) { return (int)(s >> CORE_SHIFT) - 1; }

static void count_ready(uint32_t state, int delta)
{
    int core = core_of_state(state);
    if (core >= 0)
        atomic_fetch_add_explicit(&cores[core].ready, delta, memory_order_relaxed);
}

void rtipc__task_started(struct rtipc__task *t)
{
    uint32_t core_bits = t->core >= 0 && t->core < MAX_CORES ? (uint32_t)(t->core + 1) << CORE_SHIFT : 0;
    uint32_t s = core_bits | STATE_READY;
    /* Release: a waker whose acquire CAS reads a state of this life may then
     * count it; the counters below are part of this life. */
    atomic_store_explicit(&t->run_state, s, memory_order_release);
    atomic_store_explicit(&t->waker_cpu, 0, memory_order_relaxed);
    count_ready(s, +1);
}

void rtipc__task_ended(struct rtipc__task *t)
{
    uint32_t old = atomic_exchange_explicit(&t->run_state, STATE_GONE, memory_order_relaxed);
    if ((old & STATE_MASK) == STATE_READY)
        count_ready(old, -1);
}

void rtipc__task_mark_blocked(struct rtipc__task *t)
{
    uint32_t old = atomic_load_explicit(&t->run_state, memory_order_relaxed);
    /* Release: pairs with the acquire CAS in rtipc__task_mark_ready (see
     * rtipc__task_started). Only the task itself moves READY -> BLOCKED. */
    if ((old & STATE_MASK) == STATE_READY &&
        atomic_compare_exchange_strong_explicit(&t->run_state, &old, (old & ~(uint32_t)STATE_MASK) | STATE_BLOCKED,
                                                memory_order_release, memory_order_relaxed))
        count_ready(old, -1);
}

void rtipc__task_mark_ready(struct rtipc__task *t)
{
    uint32_t old = atomic_load_explicit(&t->run_state, memory_order_relaxed);
    while ((old & STATE_MASK) == STATE_BLOCKED) {
        /* Acquire: pairs with the release in mark_blocked / task_started. */
        if (atomic_compare_exchange_weak_explicit(&t->run_state, &old, (old & ~(uint32_t)STATE_MASK) | STATE_READY,
                                                  memory_order_acquire, memory_order_relaxed)) {
            count_ready(old, +1);
            return;
        }
    }
}

bool rtipc__task_is_blocked(const struct rtipc__task *t)
{
    return (atomic_load_explicit(&((struct rtipc__task *)t)->run_state, memory_order_relaxed) & STATE_MASK) ==
           STATE_BLOCKED;
}

void rtipc__spin_note_waker(struct rtipc__task *t)
{
    /* An interrupt handler is no reason not to spin: it preempts the spinner
     * anyway. Only a task-context waker can be held off its core by one. */
    if (rtipc__in_interrupt)
        return;
    int cpu = sched_getcpu();
    if (cpu >= 0)
        atomic_store_explicit(&t->waker_cpu, cpu + 1, memory_order_relaxed);
}

/* ---- the spin ---------------------------------------------------------------- */

/* Another rtipc task pinned to the caller's core is ready to run: spinning
 * would keep it (possibly the waker) off the core. */
static bool core_wanted(struct rtipc__task *self, int core)
{
    int ready = atomic_load_explicit(&cores[core].ready, memory_order_relaxed);
    if ((atomic_load_explicit(&self->run_state, memory_order_relaxed) & STATE_MASK) == STATE_READY)
        ready -= 1; /* the caller counts itself while it polls an object before queueing */
    return ready > 0;
}

/* Polls between two looks at the clock and at the core (a clock read costs
 * about 30 ns here, a pause about 20 ns). */
#define POLLS_PER_CHECK 8
/* Back-off: the pause instructions between polls double up to this, so a
 * long spin loads the waker's cache line less while a short one still sees
 * a handoff within ~100 ns. */
#define MAX_PAUSES 4

bool rtipc__spin_wait(struct rtipc__task *self, int64_t setting, int64_t deadline, bool (*done)(void *arg),
                      void *arg)
{
    int64_t budget = setting == RTIPC_SPIN_DEFAULT ? rtipc_spin_default() : setting;
    if (budget <= 0)
        return false;
    int core = self->core;
    if (core < 0 || core >= MAX_CORES)
        return false; /* rule 1: not pinned */
    if (atomic_load_explicit(&self->waker_cpu, memory_order_relaxed) == core + 1 || core_wanted(self, core)) {
        rtipc__stat_bump(&self->stat_same_core_parks); /* rules 3 and 2 */
        return false;
    }
    rtipc__stat_bump(&self->stat_spins);
    int64_t end = rtipc_time_ns() + budget;
    if (deadline >= 0 && deadline < end)
        end = deadline;
    unsigned pauses = 1;
    for (;;) {
        for (int i = 0; i < POLLS_PER_CHECK; ++i) {
            if (done(arg)) {
                rtipc__stat_bump(&self->stat_spin_wakeups);
                return true;
            }
            for (unsigned p = 0; p < pauses; ++p)
                rtipc__cpu_relax();
            if (pauses < MAX_PAUSES)
                pauses *= 2;
        }
        if (rtipc_time_ns() >= end)
            return false;
        if (core_wanted(self, core)) {
            /* Rule 2 mid-spin: a task of this core was readied meanwhile. */
            rtipc__stat_bump(&self->stat_same_core_parks);
            return false;
        }
    }
}
