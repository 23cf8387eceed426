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

#include "../../common/create.h"
#include "../../common/handle.h"
#include "futex.h"
#include "irq_internal.h"
#include "rtipc/error.h"
#include "rtipc/task.h"
#include "rtipc/time.h"
#include "task_internal.h"

#define MAX_CORES 64
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
struct rtipc_cpu {
    rtipc_lock_t lock;              /* guards everything below but the atomics */
    _Atomic uint32_t doorbell;      /* futex word the interrupt thread sleeps on */
    _Atomic int deferred_count;     /* tasks readied here and not yet released */
    bool thread_started;
    pthread_t thread;
    pthread_mutex_t run_mutex;      /* held while handlers run (irq_delete waits on it) */
    struct rtipc__irq *irqs;
    struct rtipc__task *tasks;       /* tasks pinned to this core */
    struct rtipc__task *deferred;    /* readied by a handler that did not yield */
    int64_t flush_at;               /* tick boundary that releases them */
};

static struct rtipc_cpu cpus[MAX_CORES];
static pthread_mutex_t start_mutex = PTHREAD_MUTEX_INITIALIZER;

/* Per interrupt thread: its core, the yield request and the priority of the
 * interrupted task (computed on first need, INT_MIN until then). */
static _Thread_local int isr_core = -1;
static _Thread_local bool isr_yield_requested;
static _Thread_local int isr_interrupted_priority = INT_MIN;

bool rtipc_in_interrupt(void) { return rtipc__in_interrupt; }

int rtipc_irq_core(void) { return rtipc__in_interrupt ? isr_core : -1; }

static bool core_ok(int core) { return core >= 0 && core < MAX_CORES && core < rtipc_core_count(); }

static void ring(struct rtipc_cpu *cpu)
{
    /* Release: pairs with the acquire load of the doorbell in irq_thread;
     * publishes pending flags and timer settings written before the ring. */
    atomic_fetch_add_explicit(&cpu->doorbell, 1, memory_order_release);
    rtipc_futex_wake(&cpu->doorbell, 1);
}

/* ---- the interrupted task and deferred wake-ups ------------------------- */
void rtipc__irq_register_task(struct rtipc__task *t)
{
    if (t->core < 0 || t->core >= MAX_CORES)
        return;
    struct rtipc_cpu *cpu = &cpus[t->core];
    rtipc_lock(&cpu->lock);
    t->cpu_next = cpu->tasks;
    cpu->tasks = t;
    rtipc_unlock(&cpu->lock);
}

void rtipc__irq_unregister_task(struct rtipc__task *t)
{
    if (t->core < 0 || t->core >= MAX_CORES)
        return;
    struct rtipc_cpu *cpu = &cpus[t->core];
    rtipc_lock(&cpu->lock);
    for (struct rtipc__task **link = &cpu->tasks; *link; link = &(*link)->cpu_next) {
        if (*link == t) {
            *link = t->cpu_next;
            break;
        }
    }
    rtipc_unlock(&cpu->lock);
}

/* Highest effective priority among the core's tasks not blocked in rtipc, or
 * -1 when the core was idle. */
static int interrupted_priority(struct rtipc_cpu *cpu)
{
    int best = -1;
    rtipc_lock(&cpu->lock);
    for (struct rtipc__task *t = cpu->tasks; t; t = t->cpu_next) {
        int p = atomic_load_explicit(&t->effective_priority, memory_order_relaxed);
        if (!rtipc__task_is_blocked(t) && p > best)
            best = p;
    }
    rtipc_unlock(&cpu->lock);
    return best;
}

static void flush(struct rtipc_cpu *cpu)
{
    rtipc_lock(&cpu->lock);
    struct rtipc__task *list = cpu->deferred;
    cpu->deferred = NULL;
    atomic_store_explicit(&cpu->deferred_count, 0, memory_order_relaxed);
    rtipc_unlock(&cpu->lock);
    while (list) {
        struct rtipc__task *next = list->deferred_next; /* read before release */
        /* Release: pairs with the acquire load of deferred in park(). */
        atomic_store_explicit(&list->deferred, false, memory_order_release);
        rtipc__unpark(list);
        list = next;
    }
}

void rtipc__reschedule_point(struct rtipc__task *self)
{
    int core = self && self->core >= 0 ? self->core : sched_getcpu();
    if (core >= 0 && core < MAX_CORES && atomic_load_explicit(&cpus[core].deferred_count, memory_order_relaxed) > 0)
        flush(&cpus[core]);
    /* A higher-priority task of this core that the caller readied has run
     * meanwhile: like FreeRTOS's ready list, which moves on past a
     * preempted task, let this priority's other ready tasks go first
     * (docs/design.md, "Ready-list order"). */
    if (rtipc__preempted) {
        rtipc__preempted = false;
        if (rtipc_sched_policy() == RTIPC_SCHED_FIFO)
            sched_yield();
    }
}

rtipc_isr_wake_t rtipc__isr_wake_one(rtipc_waitlist_t *list)
{
    if (rtipc__waitlist_empty(list))
        return (rtipc_isr_wake_t){NULL, false};
    return rtipc__isr_wake(list, list->head);
}

rtipc_isr_wake_t rtipc__isr_wake(rtipc_waitlist_t *list, rtipc_waiter_t *w)
{
    rtipc_isr_wake_t r = {NULL, false};
    struct rtipc__task *t = w->task;
    r.deferred = isr_core >= 0 && (t->core == isr_core || t->core == RTIPC_CORE_ANY);
    /* Set before the woken store (a release in wake_one), so the waiter that
     * sees itself woken also sees that it must wait to be released. */
    if (r.deferred)
        atomic_store_explicit(&t->deferred, true, memory_order_relaxed);
    r.task = rtipc__waitlist_wake(list, w);
    return r;
}

void rtipc__isr_release(rtipc_isr_wake_t wake, bool *woken)
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
    struct rtipc_cpu *cpu = &cpus[isr_core];
    if (isr_interrupted_priority == INT_MIN)
        isr_interrupted_priority = interrupted_priority(cpu);
    rtipc_lock(&cpu->lock);
    if (cpu->deferred == NULL)
        cpu->flush_at = rtipc__tick_next_boundary(rtipc_time_ns());
    t->deferred_next = cpu->deferred;
    cpu->deferred = t;
    atomic_fetch_add_explicit(&cpu->deferred_count, 1, memory_order_relaxed);
    rtipc_unlock(&cpu->lock);
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

static void run_handler(struct rtipc_cpu *cpu, struct rtipc__irq *irq)
{
    isr_yield_requested = false;
    isr_interrupted_priority = INT_MIN;
    irq->handler(irq->arg);
    atomic_fetch_add_explicit(&irq->count, 1, memory_order_relaxed);
    if (isr_yield_requested)
        flush(cpu); /* the readied tasks run right after the handler */
}

static void *irq_thread(void *arg)
{
    struct rtipc_cpu *cpu = arg;
    isr_core = (int)(cpu - cpus);
    rtipc__in_interrupt = true;
    for (;;) {
        /* Acquire: pairs with the release in ring(). */
        uint32_t seq = atomic_load_explicit(&cpu->doorbell, memory_order_acquire);
        int64_t now = rtipc_time_ns();
        int64_t deadline = -1;

        pthread_mutex_lock(&cpu->run_mutex);
        rtipc_lock(&cpu->lock);
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
        rtipc_unlock(&cpu->lock);
        for (struct rtipc__irq *irq = cpu->irqs; irq; irq = irq->next)
            if (irq->due)
                run_handler(cpu, irq);
        pthread_mutex_unlock(&cpu->run_mutex);

        /* The tick: release what handlers readied without yielding. */
        now = rtipc_time_ns();
        if (atomic_load_explicit(&cpu->deferred_count, memory_order_relaxed) > 0 && now >= cpu->flush_at)
            flush(cpu);

        rtipc_lock(&cpu->lock);
        for (struct rtipc__irq *irq = cpu->irqs; irq; irq = irq->next)
            deadline = min_deadline(deadline, irq->timer_next);
        if (cpu->deferred)
            deadline = min_deadline(deadline, cpu->flush_at);
        rtipc_unlock(&cpu->lock);
        if (deadline < 0 || deadline > now)
            rtipc_futex_wait(&cpu->doorbell, seq, deadline);
    }
    return NULL;
}

static int start_cpu(int core)
{
    struct rtipc_cpu *cpu = &cpus[core];
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
    struct rtipc_cpu *cpu = &cpus[core];
    /* Both locks, as in delete: the interrupt thread walks the list under
     * cpu->lock to collect pending sources and under run_mutex alone to run
     * their handlers. */
    pthread_mutex_lock(&cpu->run_mutex);
    rtipc_lock(&cpu->lock);
    irq->next = cpu->irqs;
    cpu->irqs = irq;
    rtipc_unlock(&cpu->lock);
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
    struct rtipc_cpu *cpu = &cpus[irq->core];
    /* Holding run_mutex: the handler is not running and cannot start. */
    pthread_mutex_lock(&cpu->run_mutex);
    rtipc_lock(&cpu->lock);
    for (struct rtipc__irq **link = &cpu->irqs; *link; link = &(*link)->next) {
        if (*link == irq) {
            *link = irq->next;
            break;
        }
    }
    /* From here on the handle is refused, before the memory goes. */
    rtipc__handle_close((uintptr_t)handle);
    rtipc_unlock(&cpu->lock);
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
    struct rtipc_cpu *cpu = &cpus[irq->core];
    int64_t now = rtipc_time_ns();
    rtipc_lock(&cpu->lock);
    /* A first expiry beyond int64 nanoseconds is never (INT64_MAX). */
    irq->timer_next = delay_ns > INT64_MAX - now ? INT64_MAX : now + delay_ns;
    irq->timer_period = period_ns;
    rtipc_unlock(&cpu->lock);
    ring(cpu);
    return RTIPC_OK;
}

int rtipc_irq_timer_stop(rtipc_irq_t *handle)
{
    struct rtipc__irq *irq = get(handle);
    if (!irq)
        return RTIPC_EINVAL;
    struct rtipc_cpu *cpu = &cpus[irq->core];
    rtipc_lock(&cpu->lock);
    irq->timer_next = -1;
    rtipc_unlock(&cpu->lock);
    return RTIPC_OK;
}

int64_t rtipc_irq_count(const rtipc_irq_t *handle)
{
    struct rtipc__irq *irq = get(handle);
    if (!irq)
        return RTIPC_EINVAL;
    return atomic_load_explicit(&irq->count, memory_order_relaxed);
}
