/* Tasks on Linux: pthreads with SCHED_FIFO priorities (or the SCHED_OTHER
 * fallback), CPU pinning, and type-stable descriptors. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rtipc/error.h"
#include "irq_internal.h"
#include "rtipc/task.h"
#include "task_internal.h"

_Thread_local bool rtipc__in_interrupt;

/* The calling thread's task; NULL until it is created or adopted. */
static _Thread_local struct rtipc_task *current;

/* ---- descriptor pool ---------------------------------------------------
 * Descriptors are recycled, never freed: a late unpark from a waker that
 * raced with the task's exit then only bumps a live futex word (wait.h). */
static pthread_mutex_t pool_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct rtipc_task *pool_free;

static struct rtipc_task *pool_get(void)
{
    pthread_mutex_lock(&pool_mutex);
    struct rtipc_task *t = pool_free;
    if (t)
        pool_free = t->pool_next;
    pthread_mutex_unlock(&pool_mutex);
    if (!t) {
        t = calloc(1, sizeof *t);
        if (!t)
            return NULL;
    }
    /* Reset everything but the head a late unpark may touch (the park word,
     * run state and waker CPU; task_internal.h). */
    memset((char *)t + RTIPC__TASK_RECYCLED_FROM, 0, sizeof *t - RTIPC__TASK_RECYCLED_FROM);
    atomic_store_explicit(&t->magic, RTIPC__TASK_MAGIC, memory_order_relaxed);
    t->core = RTIPC_CORE_ANY;
    return t;
}

static void pool_put(struct rtipc_task *t)
{
    atomic_store_explicit(&t->magic, 0, memory_order_relaxed);
    /* A task that ended holding mutexes stays their holder for good
     * (mutex.h): its descriptor is retired, never handed to a later task,
     * which would otherwise be taken for the holder. */
    if (atomic_load_explicit(&t->mutexes_held, memory_order_relaxed) > 0)
        return;
    pthread_mutex_lock(&pool_mutex);
    t->pool_next = pool_free;
    pool_free = t;
    pthread_mutex_unlock(&pool_mutex);
}

/* ---- scheduling policy ------------------------------------------------ */
static pthread_once_t policy_once = PTHREAD_ONCE_INIT;
static rtipc_sched_policy_t policy = RTIPC_SCHED_OTHER;
static char policy_text[160];

static void *probe_thread(void *arg) { return arg; }

static int fifo_priority(int prio) { return RTIPC_FIFO_BASE + prio; }

static void set_fifo_attr(pthread_attr_t *attr, int prio)
{
    struct sched_param sp = {.sched_priority = fifo_priority(prio)};
    pthread_attr_setinheritsched(attr, PTHREAD_EXPLICIT_SCHED);
    pthread_attr_setschedpolicy(attr, SCHED_FIFO);
    pthread_attr_setschedparam(attr, &sp);
}

static void decide_policy(void)
{
    const char *forced = getenv("RTIPC_SCHED");
    if (forced && strcmp(forced, "other") == 0) {
        snprintf(policy_text, sizeof policy_text, "SCHED_OTHER (fallback: forced by RTIPC_SCHED=other)");
        return;
    }
    /* Try the highest priority rtipc would use on a thread that exits at once. */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    set_fifo_attr(&attr, RTIPC_PRIORITY_LEVELS - 1);
    pthread_t th;
    int rc = pthread_create(&th, &attr, probe_thread, NULL);
    pthread_attr_destroy(&attr);
    if (rc == 0) {
        pthread_join(th, NULL);
        policy = RTIPC_SCHED_FIFO;
        snprintf(policy_text, sizeof policy_text, "SCHED_FIFO");
    } else {
        snprintf(policy_text, sizeof policy_text, "SCHED_OTHER (fallback: SCHED_FIFO refused: %s)",
                 strerror(rc));
    }
}

rtipc_sched_policy_t rtipc_sched_policy(void)
{
    pthread_once(&policy_once, decide_policy);
    return policy;
}

const char *rtipc_sched_policy_describe(void)
{
    pthread_once(&policy_once, decide_policy);
    return policy_text;
}

int rtipc_core_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* Apply t's effective priority to the kernel when rtipc manages it. The tid
 * form of the call is used because the thread may already have ended (a task
 * deleted while holding a mutex): then it simply fails with ESRCH. */
static void apply_kernel_priority(struct rtipc_task *t)
{
    if (rtipc_sched_policy() != RTIPC_SCHED_FIFO || t->adopted)
        return;
    /* Pairs with the fence in task_trampoline: either this sees the tid, or
     * the new thread sees the priority stored before this call and applies
     * it itself. Without the check, tid 0 would make sched_setscheduler act
     * on the calling thread. */
    atomic_thread_fence(memory_order_seq_cst);
    uint32_t tid = atomic_load_explicit(&t->tid, memory_order_relaxed);
    if (tid == 0)
        return;
    struct sched_param sp = {
        .sched_priority = fifo_priority(atomic_load_explicit(&t->effective_priority, memory_order_relaxed))};
    sched_setscheduler((pid_t)tid, SCHED_FIFO, &sp);
}

void rtipc__task_inherit(struct rtipc_task *t, int prio)
{
    int cur = atomic_load_explicit(&t->effective_priority, memory_order_relaxed);
    while (cur < prio) {
        if (atomic_compare_exchange_weak_explicit(&t->effective_priority, &cur, prio, memory_order_relaxed,
                                                  memory_order_relaxed)) {
            apply_kernel_priority(t);
            return;
        }
    }
}

void rtipc__task_disinherit_to(struct rtipc_task *t, int prio)
{
    int base = atomic_load_explicit(&t->base_priority, memory_order_relaxed);
    int target = prio > base ? prio : base;
    if (atomic_exchange_explicit(&t->effective_priority, target, memory_order_relaxed) != target)
        apply_kernel_priority(t);
}

/* ---- thread lifecycle ------------------------------------------------- */
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

/* Runs when a thread with a task ends: adopted and self-deleted tasks go
 * back to the pool here; joinable ones are released by their joiner. */
static void on_thread_exit(void *arg)
{
    struct rtipc_task *t = arg;
    current = NULL;
    /* The kernel may give the thread id to another thread: a waiter lending
     * its priority to a mutex this task still holds must not reach it. */
    atomic_store_explicit(&t->tid, 0, memory_order_relaxed);
    rtipc__task_ended(t);
    rtipc__irq_unregister_task(t);
    rtipc__wdt_forget(t);
    if (t->adopted || atomic_load_explicit(&t->release_claim, memory_order_acquire) == RTIPC_RELEASE_SELF)
        pool_put(t);
}

/* Claim the right to release @p t (join or delete it). False when the task
 * has already claimed it for itself (it deleted itself and is detached). */
static bool claim_release(struct rtipc_task *t)
{
    int open = RTIPC_RELEASE_OPEN;
    return atomic_compare_exchange_strong_explicit(&t->release_claim, &open, RTIPC_RELEASE_OTHER,
                                                   memory_order_acq_rel, memory_order_acquire);
}

static void make_exit_key(void) { pthread_key_create(&exit_key, on_thread_exit); }

static void bind_current(struct rtipc_task *t)
{
    pthread_once(&exit_key_once, make_exit_key);
    atomic_store_explicit(&t->tid, rtipc__tid(), memory_order_relaxed);
    current = t;
    pthread_setspecific(exit_key, t);
    rtipc__task_started(t);
    rtipc__irq_register_task(t);
}

struct rtipc_task *rtipc__current_or_null(void) { return current; }

struct rtipc_task *rtipc__self(void)
{
    if (current)
        return current;
    struct rtipc_task *t = pool_get();
    if (!t)
        return NULL;
    t->adopted = true;
    t->thread = pthread_self();
    snprintf(t->name, sizeof t->name, "thread-%u", (unsigned)rtipc__tid());
    int pol;
    struct sched_param sp;
    int prio = 0;
    if (pthread_getschedparam(pthread_self(), &pol, &sp) == 0 && pol == SCHED_FIFO) {
        prio = sp.sched_priority - RTIPC_FIFO_BASE;
        prio = prio < 0 ? 0 : prio >= RTIPC_PRIORITY_LEVELS ? RTIPC_PRIORITY_LEVELS - 1 : prio;
    }
    atomic_store_explicit(&t->base_priority, prio, memory_order_relaxed);
    atomic_store_explicit(&t->effective_priority, prio, memory_order_relaxed);
    bind_current(t);
    return t;
}

rtipc_task_t *rtipc_task_current(void) { return rtipc__self(); }

static void *task_trampoline(void *arg)
{
    struct rtipc_task *t = arg;
    bind_current(t);
    /* Named from inside: the creator's handle may already be stale if the
     * task ends (deletes itself) at once. Fails harmlessly on names the
     * kernel rejects. */
    pthread_setname_np(pthread_self(), t->name);
    /* A priority set before the tid was visible was not applied (see
     * apply_kernel_priority): apply the current one now. */
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&t->effective_priority, memory_order_relaxed) != t->created_priority)
        apply_kernel_priority(t);
    t->entry(t->arg);
    return NULL;
}

/* The smallest stack rtipc gives a task: enough for sanitizer builds. */
#define MIN_STACK_BYTES (64 * 1024)

/* Cores are checked against the online count; a core the process's cpuset
 * excludes is refused by pthread_create (EINVAL) below. */
static bool core_allowed(int core) { return core >= 0 && core < CPU_SETSIZE && core < rtipc_core_count(); }

int rtipc_task_create(const rtipc_task_config_t *cfg, rtipc_task_t **out)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!cfg || !out || !cfg->entry || cfg->priority >= RTIPC_PRIORITY_LEVELS)
        return RTIPC_EINVAL;
    if (cfg->core != RTIPC_CORE_ANY && !core_allowed(cfg->core))
        return RTIPC_EINVAL;

    struct rtipc_task *t = pool_get();
    if (!t)
        return RTIPC_ENOMEM;
    snprintf(t->name, sizeof t->name, "%s", cfg->name ? cfg->name : "task");
    atomic_store_explicit(&t->base_priority, (int)cfg->priority, memory_order_relaxed);
    atomic_store_explicit(&t->effective_priority, (int)cfg->priority, memory_order_relaxed);
    t->core = cfg->core;
    t->created_priority = (int)cfg->priority;
    t->entry = cfg->entry;
    t->arg = cfg->arg;

    pthread_attr_t attr;
    pthread_attr_init(&attr);
    size_t stack = cfg->stack_size < MIN_STACK_BYTES ? MIN_STACK_BYTES : cfg->stack_size;
    if (cfg->stack_size != 0)
        pthread_attr_setstacksize(&attr, stack);
    if (cfg->core != RTIPC_CORE_ANY) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cfg->core, &set);
        pthread_attr_setaffinity_np(&attr, sizeof set, &set);
    }
    if (rtipc_sched_policy() == RTIPC_SCHED_FIFO)
        set_fifo_attr(&attr, (int)cfg->priority);
    int rc = pthread_create(&t->thread, &attr, task_trampoline, t);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        pool_put(t);
        return rc == ENOMEM ? RTIPC_ENOMEM : rc == EINVAL ? RTIPC_EINVAL : RTIPC_ESYSTEM;
    }
    *out = t;
    return RTIPC_OK;
}

int rtipc_task_join(rtipc_task_t *t)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!rtipc__task_valid(t) || t->adopted)
        return RTIPC_EINVAL;
    if (t == current)
        return RTIPC_EDEADLOCK;
    if (!claim_release(t))
        return RTIPC_EINVAL; /* it deleted itself: detached, nothing to join */
    pthread_join(t->thread, NULL);
    pool_put(t);
    return RTIPC_OK;
}

_Noreturn void rtipc__task_exit_self(void)
{
    struct rtipc_task *t = current;
    if (t)
        rtipc__park_awake(t); /* it may end inside a wait (a deletion point) */
    /* If no other task has claimed the release (by deleting or joining us),
     * claim it: nobody will join, so detach and let the exit hook release
     * the descriptor. One CAS decides, so a concurrent delete either joins
     * us or finds us gone, never both. */
    int open = RTIPC_RELEASE_OPEN;
    if (t && atomic_compare_exchange_strong_explicit(&t->release_claim, &open, RTIPC_RELEASE_SELF,
                                                     memory_order_acq_rel, memory_order_acquire) &&
        !t->adopted)
        pthread_detach(pthread_self());
    pthread_exit(NULL);
}

int rtipc_task_delete(rtipc_task_t *t)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (t == NULL || t == current)
        rtipc__task_exit_self();
    if (!rtipc__task_valid(t) || t->adopted)
        return RTIPC_EINVAL;
    if (!claim_release(t))
        return RTIPC_EINVAL; /* it deleted itself meanwhile: it is gone */
    /* Release: the target's exit path reads it with acquire. */
    atomic_store_explicit(&t->delete_requested, true, memory_order_release);
    rtipc__unpark(t);
    pthread_join(t->thread, NULL);
    pool_put(t);
    return RTIPC_OK;
}

static void deletion_point(void)
{
    struct rtipc_task *t = current;
    if (t && atomic_load_explicit(&t->delete_requested, memory_order_relaxed))
        rtipc__task_exit_self();
}

int rtipc__sleep_until(int64_t deadline)
{
    struct rtipc_task *self = rtipc__self();
    if (!self)
        return RTIPC_ENOMEM;
    /* Sleeping reschedules: release deferred wake-ups of this core first. */
    rtipc__reschedule_point(self);
    rtipc__task_mark_blocked(self);
    for (;;) {
        deletion_point();
        if (deadline >= 0 && rtipc_time_ns() >= deadline)
            break;
        /* Sleep on the park word so that a deletion request wakes us (a
         * delay never spins). Acquire: pairs with the release in unpark. */
        uint32_t seen = atomic_load_explicit(&self->park, memory_order_acquire);
        deletion_point();
        rtipc__park_sleep(self, seen, deadline);
    }
    rtipc__park_awake(self);
    rtipc__task_mark_ready(self);
    return RTIPC_OK;
}

int rtipc_task_delay(rtipc_timeout_t timeout)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    return rtipc__sleep_until(rtipc__deadline(timeout));
}

int rtipc_task_yield(void)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    deletion_point();
    rtipc__reschedule_point(current);
    sched_yield();
    return RTIPC_OK;
}

int rtipc_task_priority(const rtipc_task_t *t)
{
    if (!rtipc__task_valid(t))
        return RTIPC_EINVAL;
    return atomic_load_explicit(&t->base_priority, memory_order_relaxed);
}

int rtipc_task_effective_priority(const rtipc_task_t *t)
{
    if (!rtipc__task_valid(t))
        return RTIPC_EINVAL;
    return atomic_load_explicit(&t->effective_priority, memory_order_relaxed);
}

int rtipc_task_set_priority(rtipc_task_t *t, unsigned priority)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (priority >= RTIPC_PRIORITY_LEVELS)
        return RTIPC_EINVAL;
    if (!t) {
        t = rtipc__self();
        if (!t)
            return RTIPC_ENOMEM;
    }
    if (!rtipc__task_valid(t))
        return RTIPC_EINVAL;
    atomic_store_explicit(&t->base_priority, (int)priority, memory_order_relaxed);
    /* An inherited priority above the new base stays until the mutexes go. */
    if (atomic_load_explicit(&t->mutexes_held, memory_order_relaxed) == 0)
        rtipc__task_disinherit_to(t, (int)priority);
    else
        rtipc__task_inherit(t, (int)priority);
    return RTIPC_OK;
}

const char *rtipc_task_name(const rtipc_task_t *t) { return rtipc__task_valid(t) ? t->name : NULL; }

int rtipc_task_core(const rtipc_task_t *t) { return rtipc__task_valid(t) ? t->core : RTIPC_EINVAL; }
