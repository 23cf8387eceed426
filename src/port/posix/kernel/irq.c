/* Interrupt emulation on Linux: one interrupt thread per core (SCHED_FIFO,
 * above every task, pinned), software-triggered and timer interrupts, and
 * FreeRTOS's yield-from-interrupt contract (irq.h; the choice of mechanism
 * is argued in docs/design.md). */
#include "rtipc/irq.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/create.h"
#include "common/handle.h"
#include "cpu.h"
#include "futex.h"
#include "irq_internal.h"
#include "rtipc/error.h"
#include "rtipc/task.h"
#include "rtipc/time.h"
#include "task_internal.h"

/* Interrupt threads run above the highest task priority. */
#define IRQ_FIFO_PRIORITY (RTIPC_FIFO_BASE + RTIPC_PRIORITY_LEVELS + 1)

struct rtipc__irq {
    int core;
    rtipc_isr_fn handler;
    void *arg;
    _Atomic bool pending;      /* software trigger, merged like a pending bit */
    int64_t timer_next;        /* next expiry (ns), -1 when stopped; cpu lock */
    int64_t timer_period;      /* 0 = one-shot; cpu lock */
    _Atomic int64_t count;     /* handler runs */
    bool due;                  /* interrupt thread only */
    struct rtipc__irq *next;    /* cpu->irqs; written under cpu lock and run_mutex */
};

/* Per-core interrupt controller. */
struct controller {
    rtipc__lock_t lock;              /* guards the sources' list and timers */
    _Atomic uint32_t doorbell;      /* futex word the interrupt thread sleeps on */
    bool thread_started;
    pthread_t thread;
    pthread_mutex_t run_mutex;      /* held while handlers run (irq_delete waits on it) */
    struct rtipc__irq *irqs;
};

static struct controller cpus[RTIPC__MAX_CORES];
static pthread_mutex_t start_mutex = PTHREAD_MUTEX_INITIALIZER;

/* Per interrupt thread: its core, the yield request and the priority of the
 * interrupted task (computed on first need, INT_MIN until then). */
static _Thread_local int isr_core = -1;
static _Thread_local bool isr_yield_requested;
static _Thread_local int isr_interrupted_priority = INT_MIN;

bool rtipc_in_interrupt(void) { return rtipc__in_interrupt; }

int rtipc_irq_core(void) { return rtipc__in_interrupt ? isr_core : -1; }

static bool core_ok(int core) { return core >= 0 && core < RTIPC__MAX_CORES && core < rtipc_core_count(); }

static void ring(struct controller *cpu)
{
    /* Release: pairs with the acquire load of the doorbell in irq_thread;
     * publishes pending flags and timer settings written before the ring. */
    atomic_fetch_add_explicit(&cpu->doorbell, 1, memory_order_release);
    rtipc__futex_wake(&cpu->doorbell, 1);
}

/* ---- wake-ups from a handler ---------------------------------------------- */
rtipc__isr_wake_t rtipc__isr_wake_one(rtipc__waitlist_t *list)
{
    if (rtipc__waitlist_empty(list))
        return (rtipc__isr_wake_t){NULL, false};
    return rtipc__isr_wake(list, list->head);
}

rtipc__isr_wake_t rtipc__isr_wake(rtipc__waitlist_t *list, rtipc__waiter_t *w)
{
    rtipc__isr_wake_t r = {NULL, false};
    struct rtipc__task *t = w->task;
    r.deferred = isr_core >= 0 && (t->core == isr_core || t->core == RTIPC_CORE_ANY);
    /* Set before the woken store (a release in wake_one), so the waiter that
     * sees itself woken also sees that it must wait to be released. */
    if (r.deferred)
        atomic_store_explicit(&t->deferred, true, memory_order_relaxed);
    r.task = rtipc__waitlist_wake(list, w);
    return r;
}

void rtipc__isr_release(rtipc__isr_wake_t wake, bool *woken)
{
    struct rtipc__task *t = wake.task;
    if (!t)
        return;
    if (!wake.deferred) {
        /* Another core's task (or a call outside a real handler): release now,
         * as the other core's inter-processor interrupt would. */
        rtipc__unpark(t);
        return;
    }
    if (isr_interrupted_priority == INT_MIN)
        isr_interrupted_priority = rtipc__cpu_interrupted_priority(isr_core);
    rtipc__cpu_defer(isr_core, t);
    if (woken && atomic_load_explicit(&t->effective_priority, memory_order_relaxed) > isr_interrupted_priority)
        *woken = true;
}

int rtipc_irq_yield(bool woken)
{
    if (!rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (woken)
        isr_yield_requested = true;
    return RTIPC_OK;
}

/* ---- the interrupt thread ---------------------------------------------- */
static int64_t min_deadline(int64_t a, int64_t b) { return a < 0 ? b : b < 0 ? a : a < b ? a : b; }

static void run_handler(struct rtipc__irq *irq)
{
    isr_yield_requested = false;
    isr_interrupted_priority = INT_MIN;
    irq->handler(irq->arg);
    atomic_fetch_add_explicit(&irq->count, 1, memory_order_relaxed);
    if (isr_yield_requested)
        rtipc__cpu_release(isr_core, false, 0); /* the readied tasks run right after the handler */
}

static void *irq_thread(void *arg)
{
    struct controller *cpu = arg;
    isr_core = (int)(cpu - cpus);
    rtipc__in_interrupt = true;
    for (;;) {
        /* Acquire: pairs with the release in ring(). */
        uint32_t seq = atomic_load_explicit(&cpu->doorbell, memory_order_acquire);
        int64_t now = rtipc_time_ns();
        int64_t deadline = -1;

        pthread_mutex_lock(&cpu->run_mutex);
        rtipc__lock(&cpu->lock);
        for (struct rtipc__irq *irq = cpu->irqs; irq; irq = irq->next) {
            irq->due = atomic_exchange_explicit(&irq->pending, false, memory_order_acquire);
            if (irq->timer_next >= 0 && now >= irq->timer_next) {
                irq->due = true;
                if (irq->timer_period > 0) {
                    /* Expiries missed while late merge into this one. An
                     * expiry beyond int64 nanoseconds is never (INT64_MAX). */
                    int64_t steps = (now - irq->timer_next) / irq->timer_period + 1;
                    if (irq->timer_period > (INT64_MAX - irq->timer_next) / steps)
                        irq->timer_next = INT64_MAX;
                    else
                        irq->timer_next += steps * irq->timer_period;
                } else {
                    irq->timer_next = -1;
                }
            }
        }
        rtipc__unlock(&cpu->lock);
        for (struct rtipc__irq *irq = cpu->irqs; irq; irq = irq->next)
            if (irq->due)
                run_handler(irq);
        pthread_mutex_unlock(&cpu->run_mutex);

        /* The tick: release what handlers readied without yielding. */
        now = rtipc_time_ns();
        rtipc__cpu_release(isr_core, true, now);

        rtipc__lock(&cpu->lock);
        for (struct rtipc__irq *irq = cpu->irqs; irq; irq = irq->next)
            deadline = min_deadline(deadline, irq->timer_next);
        rtipc__unlock(&cpu->lock);
        deadline = min_deadline(deadline, rtipc__cpu_release_at(isr_core));
        if (deadline < 0 || deadline > now)
            rtipc__futex_wait(&cpu->doorbell, seq, deadline);
    }
    return NULL;
}

static int start_cpu(int core)
{
    struct controller *cpu = &cpus[core];
    int rc = RTIPC_OK;
    pthread_mutex_lock(&start_mutex);
    if (!cpu->thread_started) {
        pthread_mutexattr_t ma;
        pthread_mutexattr_init(&ma);
        pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
        pthread_mutex_init(&cpu->run_mutex, &ma);
        pthread_mutexattr_destroy(&ma);
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(core, &set);
        pthread_attr_setaffinity_np(&attr, sizeof set, &set);
        if (rtipc_sched_policy() == RTIPC_SCHED_FIFO) {
            struct sched_param sp = {.sched_priority = IRQ_FIFO_PRIORITY};
            pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
            pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
            pthread_attr_setschedparam(&attr, &sp);
        }
        if (pthread_create(&cpu->thread, &attr, irq_thread, cpu) == 0) {
            char name[16];
            snprintf(name, sizeof name, "rtipc-irq%d", core);
            pthread_setname_np(cpu->thread, name);
            pthread_detach(cpu->thread);
            cpu->thread_started = true;
        } else {
            pthread_mutex_destroy(&cpu->run_mutex);
            rc = RTIPC_ESYSTEM;
        }
        pthread_attr_destroy(&attr);
    }
    pthread_mutex_unlock(&start_mutex);
    return rc;
}

/* ---- interrupt sources -------------------------------------------------- */
/* The source a handle names, or NULL: NULL, a deleted source's handle,
 * another kind's or never a handle (src/common/handle.h). */
static struct rtipc__irq *get(const rtipc_irq_t *handle) { return rtipc__handle_get(handle, RTIPC__H_IRQ); }

int rtipc_irq_create(int core, rtipc_isr_fn handler, void *arg, rtipc_irq_t **out)
{
    int rc;
    struct rtipc__irq *irq = RTIPC__CREATE_ALLOC(out && handler && core_ok(core), struct rtipc__irq, 0, &rc);
    if (!irq)
        return rc;
    rc = start_cpu(core);
    if (rc != RTIPC_OK) {
        free(irq);
        return rc;
    }
    *irq = (struct rtipc__irq){.core = core, .handler = handler, .arg = arg, .timer_next = -1};
    uintptr_t h = rtipc__handle_open_or_free(irq, RTIPC__H_IRQ, _Alignof(struct rtipc__irq));
    if (h == 0)
        return RTIPC_ENOMEM;
    struct controller *cpu = &cpus[core];
    /* Both locks, as in delete: the interrupt thread walks the list under
     * cpu->lock to collect pending sources and under run_mutex alone to run
     * their handlers. */
    pthread_mutex_lock(&cpu->run_mutex);
    rtipc__lock(&cpu->lock);
    irq->next = cpu->irqs;
    cpu->irqs = irq;
    rtipc__unlock(&cpu->lock);
    pthread_mutex_unlock(&cpu->run_mutex);
    *out = (rtipc_irq_t *)h;
    return RTIPC_OK;
}

int rtipc_irq_delete(rtipc_irq_t *handle)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__irq *irq = get(handle);
    if (!irq)
        return RTIPC_EINVAL;
    struct controller *cpu = &cpus[irq->core];
    /* Holding run_mutex: the handler is not running and cannot start. */
    pthread_mutex_lock(&cpu->run_mutex);
    rtipc__lock(&cpu->lock);
    for (struct rtipc__irq **link = &cpu->irqs; *link; link = &(*link)->next) {
        if (*link == irq) {
            *link = irq->next;
            break;
        }
    }
    /* From here on the handle is refused, before the memory goes. */
    rtipc__handle_close((uintptr_t)handle);
    rtipc__unlock(&cpu->lock);
    pthread_mutex_unlock(&cpu->run_mutex);
    free(irq);
    return RTIPC_OK;
}

int rtipc_irq_trigger(rtipc_irq_t *handle)
{
    struct rtipc__irq *irq = get(handle);
    if (!irq)
        return RTIPC_EINVAL;
    /* Release: pairs with the acquire exchange in irq_thread; what the
     * trigger's caller wrote before is visible to the handler. */
    if (!atomic_exchange_explicit(&irq->pending, true, memory_order_release))
        ring(&cpus[irq->core]);
    return RTIPC_OK;
}

int rtipc_irq_timer_start(rtipc_irq_t *handle, int64_t delay_ns, int64_t period_ns)
{
    struct rtipc__irq *irq = get(handle);
    if (!irq || delay_ns < 0 || period_ns < 0)
        return RTIPC_EINVAL;
    struct controller *cpu = &cpus[irq->core];
    int64_t now = rtipc_time_ns();
    rtipc__lock(&cpu->lock);
    /* A first expiry beyond int64 nanoseconds is never (INT64_MAX). */
    irq->timer_next = delay_ns > INT64_MAX - now ? INT64_MAX : now + delay_ns;
    irq->timer_period = period_ns;
    rtipc__unlock(&cpu->lock);
    ring(cpu);
    return RTIPC_OK;
}

int rtipc_irq_timer_stop(rtipc_irq_t *handle)
{
    struct rtipc__irq *irq = get(handle);
    if (!irq)
        return RTIPC_EINVAL;
    struct controller *cpu = &cpus[irq->core];
    rtipc__lock(&cpu->lock);
    irq->timer_next = -1;
    rtipc__unlock(&cpu->lock);
    return RTIPC_OK;
}

int64_t rtipc_irq_count(const rtipc_irq_t *handle)
{
    struct rtipc__irq *irq = get(handle);
    if (!irq)
        return RTIPC_EINVAL;
    return atomic_load_explicit(&irq->count, memory_order_relaxed);
}
