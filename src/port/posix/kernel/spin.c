/* Spin-then-park: budgets, the same-core rules and the spin loop (spin.h). */
#include "spin.h"

#include <sched.h>

#include "cpu.h"
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
static bool core_wanted(struct rtipc__task *self, int core) { return rtipc__cpu_others_ready(core, self) > 0; }

/* Polls between two looks at the clock and at the core (a clock read costs
 * about 30 ns here, a pause about 20 ns). */
#define POLLS_PER_CHECK 8
/* One pause between polls, no back-off: a poll reads a line the waker
 * owns only once it writes it, so polling more often costs the waker
 * nothing, while each pause a back-off adds delays the sight of a handoff
 * (up to four pauses made rtipc-spsc's active handoff in peers 0.1 us
 * slower: 2.1-2.2x the spin floor against 1.7-2.0x). */

bool rtipc__spin_wait(struct rtipc__task *self, int64_t setting, int64_t deadline, bool (*done)(void *arg),
                      void *arg)
{
    int64_t budget = setting == RTIPC_SPIN_DEFAULT ? rtipc_spin_default() : setting;
    if (budget <= 0)
        return false;
    int core = self->core;
    if (core < 0 || core >= RTIPC__MAX_CORES)
        return false; /* rule 1: not pinned */
    if (atomic_load_explicit(&self->waker_cpu, memory_order_relaxed) == core + 1 || core_wanted(self, core)) {
        rtipc__stat_bump(&self->stat_same_core_parks); /* rules 3 and 2 */
        return false;
    }
    rtipc__stat_bump(&self->stat_spins);
    int64_t end = rtipc_time_ns() + budget;
    if (deadline >= 0 && deadline < end)
        end = deadline;
    for (;;) {
        for (int i = 0; i < POLLS_PER_CHECK; ++i) {
            if (done(arg)) {
                rtipc__stat_bump(&self->stat_spin_wakeups);
                return true;
            }
            rtipc_cpu_relax();
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
