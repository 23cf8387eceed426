/* Tasks on Linux: pthreads with SCHED_FIFO priorities (or the
 * SCHED_OTHER fallback), CPU pinning, generation-checked handles and
 * type-stable descriptors, and FreeRTOS's ready-list order (docs/design.md,
 * "Ready-list order"). */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/handle.h"
#include "common/task_lookup.h"
#include "futex.h"
#include "irq_internal.h"
#include "rtipc/error.h"
#include "rtipc/task.h"
#include "common/port.h"
#include "task_internal.h"

_Thread_local bool rtipc__in_interrupt;

bool rtipc__port_in_interrupt(void) { return rtipc__in_interrupt; }
_Thread_local bool rtipc__preempted;

/* The calling thread's task; NULL until it is created or adopted. */
static _Thread_local struct rtipc__task *current;

/* ---- descriptor pool ---------------------------------------------------
 * Descriptors are recycled, never freed: a late unpark from a waker that
 * raced with the task's exit then only bumps a live futex word (wait.h).
 * Handles carry a generation (src/common/handle.h), so recycling a
 * descriptor never lets an old handle reach the new task. */
static pthread_mutex_t pool_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct rtipc__task *pool_free;

static struct rtipc__task *pool_get(void)
{
    pthread_mutex_lock(&pool_mutex);
    struct rtipc__task *t = pool_free;
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
    t->core = RTIPC_CORE_ANY;
    return t;
}

static void pool_put(struct rtipc__task *t)
{
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

/* Drop one of the descriptor's two references (its thread, its handle). */
static void unref(struct rtipc__task *t)
{
    /* acq_rel: the last one sees every write of the other reference's
     * holder before it recycles the descriptor. */
    if (atomic_fetch_sub_explicit(&t->refs, 1, memory_order_acq_rel) == 1)
        pool_put(t);
}

/* Close t's handle (it is refused from now on) and drop its reference. */
static void close_handle(struct rtipc__task *t)
{
    rtipc__handle_close((uintptr_t)t->handle);
    unref(t);
}

/* Who reclaims a created task's pthread. Joiners and deleters wait for the
 * task's end on their park word (a deletion point), then pthread_join the
 * thread, which by then has all but finished: a thread left running after
 * rtipc has let go of it would still be inside the C library's (or a
 * sanitizer's) thread teardown while new tasks start. One that gave up
 * waiting leaves the thread to detach itself. One CAS each way decides. */
enum { REAP_OPEN = 0, REAP_ORPHAN = 1, REAP_BY_CLOSER = 2 };

/* The joiner or deleter of t, done with it (t ended, or it gave up). */
static void reap(struct rtipc__task *t)
{
    int s = REAP_OPEN;
    if (atomic_compare_exchange_strong_explicit(&t->reap, &s, REAP_ORPHAN, memory_order_acq_rel,
                                                memory_order_acquire))
        return; /* still running: it detaches itself at its end */
    pthread_join(t->thread, NULL); /* it is at its very end */
}

/* A fresh descriptor with an open handle, or NULL (no memory). */
static struct rtipc__task *new_task(void)
{
    struct rtipc__task *t = pool_get();
    if (!t)
        return NULL;
    uintptr_t h = rtipc__handle_open(t, RTIPC__H_TASK);
    if (h == 0) {
        pool_put(t);
        return NULL;
    }
    t->handle = (rtipc_task_t *)h;
    atomic_store_explicit(&t->refs, 2, memory_order_relaxed);
    return t;
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

/* ---- the kernel's ready lists ---------------------------------------------
 * FreeRTOS puts a task whose priority changed at the end of its new
 * priority's ready list. SCHED_FIFO puts a raised thread at the tail of its
 * new list but a lowered one at the head, and does not move a thread whose
 * priority is set to its current value. So a lowering, and a change that
 * leaves the priority as it was, pass through the priority just below
 * first: from there the final step is a raise, which lands at the tail.
 * The caller's own position cannot be changed that way while it runs; it
 * yields instead (rtipc__task_settle_lowered), which also puts it at the
 * tail. docs/design.md says what the SCHED_OTHER fallback cannot do. */

static bool managed(const struct rtipc__task *t) { return rtipc_sched_policy() == RTIPC_SCHED_FIFO && !t->adopted; }

/* Set the kernel priority of t. Under t->prio_lock, which keeps the thread
 * from starting (then its pthread_t is used) or exiting (then nothing is
 * done) meanwhile. The tid form is used once the thread runs, since only it
 * is safe until the very end of a thread that may have been detached. */
static void kernel_set(struct rtipc__task *t, int prio)
{
    if (t->exited)
        return;
    struct sched_param sp = {.sched_priority = fifo_priority(prio)};
    uint32_t tid = atomic_load_explicit(&t->tid, memory_order_relaxed);
    if (tid != 0)
        sched_setscheduler((pid_t)tid, SCHED_FIFO, &sp);
    else
        pthread_setschedparam(t->thread, SCHED_FIFO, &sp);
}

/* t's priority changed from old to prio (or was set again): put it at the end
 * of prio's list. Under t->prio_lock; t is not the caller. */
static void kernel_requeue(struct rtipc__task *t, int old, int prio)
{
    if (!managed(t))
        return;
    if (prio <= old)
        kernel_set(t, prio - 1); /* RTIPC_FIFO_BASE - 1 is still a SCHED_FIFO priority */
    kernel_set(t, prio);
}

/* The caller's priority changed to prio. Under self->prio_lock. */
static void kernel_self(struct rtipc__task *self, int old, int prio)
{
    if (managed(self) && prio != old)
        kernel_set(self, prio);
}

static void yield_to_peers(void)
{
    if (rtipc_sched_policy() == RTIPC_SCHED_FIFO)
        sched_yield();
}

void rtipc__task_settle_lowered(struct rtipc__task *self)
{
    rtipc__lock(&self->prio_lock);
    if (managed(self))
        kernel_set(self, atomic_load_explicit(&self->effective_priority, memory_order_relaxed));
    rtipc__unlock(&self->prio_lock);
    rtipc__preempted = false; /* the yield below covers it */
    yield_to_peers();
}

bool rtipc__task_inherit(struct rtipc__task *holder, struct rtipc__task *waiter)
{
    int wp = atomic_load_explicit(&waiter->effective_priority, memory_order_relaxed);
    bool occurred = false;
    rtipc__lock(&holder->prio_lock);
    int eff = atomic_load_explicit(&holder->effective_priority, memory_order_relaxed);
    if (eff < wp) {
        atomic_store_explicit(&holder->wait_priority, wp, memory_order_relaxed);
        atomic_store_explicit(&holder->effective_priority, wp, memory_order_relaxed);
        kernel_requeue(holder, eff, wp);
        occurred = true;
    } else if (atomic_load_explicit(&holder->base_priority, memory_order_relaxed) < wp) {
        occurred = true; /* raised already, by this waiter's priority or more */
    }
    rtipc__unlock(&holder->prio_lock);
    return occurred;
}

bool rtipc__task_disinherit(struct rtipc__task *self)
{
    /* Nothing inherited, the common case: no lock. The caller holds no
     * mutex any more, so nobody can be lending it a priority; a concurrent
     * rtipc_task_set_priority that makes the two differ is settled under
     * prio_lock below, and one that makes them equal leaves nothing to do. */
    if (atomic_load_explicit(&self->effective_priority, memory_order_relaxed) ==
        atomic_load_explicit(&self->base_priority, memory_order_relaxed))
        return false;
    bool lowered = false;
    rtipc__lock(&self->prio_lock);
    int eff = atomic_load_explicit(&self->effective_priority, memory_order_relaxed);
    int base = atomic_load_explicit(&self->base_priority, memory_order_relaxed);
    if (eff != base) {
        atomic_store_explicit(&self->effective_priority, base, memory_order_relaxed);
        atomic_store_explicit(&self->wait_priority, base, memory_order_relaxed);
        lowered = true; /* the kernel follows in rtipc__task_settle_lowered */
    }
    rtipc__unlock(&self->prio_lock);
    return lowered;
}

void rtipc__task_disinherit_after_timeout(struct rtipc__task *holder, int highest_waiting)
{
    rtipc__lock(&holder->prio_lock);
    int base = atomic_load_explicit(&holder->base_priority, memory_order_relaxed);
    int eff = atomic_load_explicit(&holder->effective_priority, memory_order_relaxed);
    int target = highest_waiting > base ? highest_waiting : base;
    /* A holder of several mutexes keeps its priority: FreeRTOS does not work
     * out which of them the remaining waiters wait on. */
    if (eff != target && atomic_load_explicit(&holder->mutexes_held, memory_order_relaxed) == 1) {
        atomic_store_explicit(&holder->effective_priority, target, memory_order_relaxed);
        atomic_store_explicit(&holder->wait_priority, target, memory_order_relaxed);
        kernel_requeue(holder, eff, target);
    }
    rtipc__unlock(&holder->prio_lock);
}

/* ---- thread lifecycle ------------------------------------------------- */
static _Atomic(rtipc__task_end_hook_t) end_hooks[RTIPC__TASK_END_HOOKS];

void rtipc__task_end_hook_add(rtipc__task_end_hook_t hook)
{
    for (int i = 0; i < RTIPC__TASK_END_HOOKS; i++) {
        rtipc__task_end_hook_t none = NULL;
        /* Seq_cst: an ending task that loads the slot after this sees the
         * hook, as it sees anything its owner stored before adding it. */
        if (atomic_compare_exchange_strong(&end_hooks[i], &none, hook) || none == hook)
            return;
    }
    abort(); /* more hooks than slots: a build error in spirit, never a user's doing */
}

static void run_end_hooks(struct rtipc__task *t)
{
    for (int i = 0; i < RTIPC__TASK_END_HOOKS; i++) {
        rtipc__task_end_hook_t hook = atomic_load(&end_hooks[i]);
        if (hook)
            hook(t);
    }
}

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

/* Runs when a thread with a task ends. */
static void on_thread_exit(void *arg)
{
    struct rtipc__task *t = arg;
    current = NULL;
    /* From here on nobody sets this thread's priority: the kernel may give
     * its thread id to another thread (a waiter lending its priority to a
     * mutex this task still holds must not reach it). */
    rtipc__lock(&t->prio_lock);
    t->exited = true;
    atomic_store_explicit(&t->tid, 0, memory_order_relaxed);
    rtipc__unlock(&t->prio_lock);
    rtipc__task_ended(t);
    rtipc__cpu_unregister_task(t);
    run_end_hooks(t);
    /* Who reclaims this thread (reap): decided before `ended` is seen, so a
     * joiner or deleter that sees it always finds a thread to join. */
    if (!t->adopted) {
        int s = REAP_OPEN;
        if (atomic_load_explicit(&t->release_claim, memory_order_acquire) == RTIPC__RELEASE_SELF ||
            !atomic_compare_exchange_strong_explicit(&t->reap, &s, REAP_BY_CLOSER, memory_order_acq_rel,
                                                     memory_order_acquire))
            pthread_detach(pthread_self()); /* deleted itself, or its deleter gave up */
    }
    rtipc__lock(&t->lock);
    /* Release: pairs with the acquire loads of ended in join/delete and in
     * rtipc__task_live. */
    atomic_store_explicit(&t->ended, true, memory_order_release);
    struct rtipc__task *waiter = t->end_waiter;
    t->end_waiter = NULL;
    rtipc__unlock(&t->lock);
    if (waiter)
        rtipc__unpark(waiter);
    /* An adopted thread's handle, and that of a task that deleted itself,
     * end with the thread; a created task's stays open for its joiner. */
    if (t->adopted || atomic_load_explicit(&t->release_claim, memory_order_acquire) == RTIPC__RELEASE_SELF)
        close_handle(t);
    unref(t);
}

/* Claim the right to release @p t (join or delete it). False when the task
 * has already claimed it for itself (it deleted itself), or another task is
 * joining or deleting it. */
static bool claim_release(struct rtipc__task *t)
{
    int open = RTIPC__RELEASE_OPEN;
    return atomic_compare_exchange_strong_explicit(&t->release_claim, &open, RTIPC__RELEASE_OTHER,
                                                   memory_order_acq_rel, memory_order_acquire);
}

static void make_exit_key(void) { pthread_key_create(&exit_key, on_thread_exit); }

static void bind_current(struct rtipc__task *t)
{
    pthread_once(&exit_key_once, make_exit_key);
    rtipc__lock(&t->prio_lock);
    atomic_store_explicit(&t->tid, rtipc__tid(), memory_order_relaxed);
    rtipc__unlock(&t->prio_lock);
    current = t;
    pthread_setspecific(exit_key, t);
    rtipc__task_started(t);
    rtipc__cpu_register_task(t);
}

struct rtipc__task *rtipc__current_or_null(void) { return current; }

struct rtipc__task *rtipc__self(void)
{
    if (current)
        return current;
    struct rtipc__task *t = new_task();
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
    atomic_store_explicit(&t->wait_priority, prio, memory_order_relaxed);
    bind_current(t);
    return t;
}

rtipc_task_t *rtipc_task_current(void) { return rtipc__task_handle(rtipc__self()); }

static void deletion_point(void);

static void *task_trampoline(void *arg)
{
    struct rtipc__task *t = arg;
    bind_current(t);
    /* Named from inside: fails harmlessly on names the kernel rejects. */
    pthread_setname_np(pthread_self(), t->name);
    /* Wait until the creator has placed this task in the ready list and
     * handed out its handle. Acquire: pairs with the release in
     * open_gate; publishes the placement and *out. */
    while (atomic_load_explicit(&t->gate, memory_order_acquire) == 0)
        rtipc__futex_wait(&t->gate, 0, -1);
    /* Deleted before it ever ran: it never runs, as in FreeRTOS. */
    deletion_point();
    t->entry(t->arg);
    return NULL;
}

static void open_gate(struct rtipc__task *t)
{
    atomic_store_explicit(&t->gate, 1, memory_order_release);
    rtipc__futex_wake(&t->gate, 1);
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

    struct rtipc__task *t = new_task();
    if (!t)
        return RTIPC_ENOMEM;
    int prio = (int)cfg->priority;
    snprintf(t->name, sizeof t->name, "%s", cfg->name ? cfg->name : "task");
    atomic_store_explicit(&t->base_priority, prio, memory_order_relaxed);
    atomic_store_explicit(&t->effective_priority, prio, memory_order_relaxed);
    atomic_store_explicit(&t->wait_priority, prio, memory_order_relaxed);
    t->core = cfg->core;
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
        set_fifo_attr(&attr, prio);
    int rc = pthread_create(&t->thread, &attr, task_trampoline, t);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        rtipc__handle_close((uintptr_t)t->handle);
        pool_put(t);
        return rc == ENOMEM || rc == EAGAIN ? RTIPC_ENOMEM : rc == EINVAL ? RTIPC_EINVAL : RTIPC_ESYSTEM;
    }
    *out = t->handle;
    /* The thread starts at the creator's priority and is then lowered to
     * its own, which leaves it at the head of that list: move it to the
     * end, behind the tasks created before it, as FreeRTOS adds a new task.
     * One of higher priority than the creator preempts it here. */
    rtipc__lock(&t->prio_lock);
    kernel_requeue(t, prio, prio);
    rtipc__unlock(&t->prio_lock);
    open_gate(t);
    return RTIPC_OK;
}

/* The caller waits for t to end (join or delete), as a deletion point: a
 * deletion request to the caller ends the wait (false) with t's release
 * not done. */
static bool wait_end(struct rtipc__task *t)
{
    struct rtipc__task *self = rtipc__self();
    if (!self) {
        /* No descriptor to park on (a foreign thread, out of memory): poll. */
        while (!atomic_load_explicit(&t->ended, memory_order_acquire)) {
            struct timespec ts = {0, 100000};
            nanosleep(&ts, NULL);
        }
        return true;
    }
    rtipc__lock(&t->lock);
    bool ended = atomic_load_explicit(&t->ended, memory_order_relaxed);
    if (!ended)
        t->end_waiter = self;
    rtipc__unlock(&t->lock);
    if (ended)
        return true;
    rtipc__reschedule_point(self);
    rtipc__task_mark_blocked(self);
    bool done;
    for (;;) {
        /* Acquire: pairs with the release in rtipc__unpark. */
        uint32_t seen = atomic_load_explicit(&self->park, memory_order_acquire);
        if (atomic_load_explicit(&t->ended, memory_order_acquire)) {
            done = true;
            break;
        }
        if (atomic_load_explicit(&self->delete_requested, memory_order_relaxed)) {
            done = false;
            break;
        }
        rtipc__park_sleep(self, seen, -1);
    }
    rtipc__park_awake(self);
    rtipc__task_mark_ready(self);
    if (!done) {
        rtipc__lock(&t->lock);
        if (t->end_waiter == self)
            t->end_waiter = NULL;
        rtipc__unlock(&t->lock);
    }
    return done;
}

int rtipc_task_join(rtipc_task_t *handle)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__task *t = rtipc__task_get(handle);
    if (!t || t->adopted)
        return RTIPC_EINVAL;
    if (t == current)
        return RTIPC_EDEADLOCK;
    if (!claim_release(t))
        return RTIPC_EINVAL; /* it deleted itself, or is being joined or deleted */
    if (!wait_end(t)) {
        /* The joiner is being deleted: the join did not happen, and t can
         * still be joined (or deleted) by another task. */
        atomic_store_explicit(&t->release_claim, RTIPC__RELEASE_OPEN, memory_order_release);
        rtipc__task_exit_self();
    }
    reap(t);
    close_handle(t);
    return RTIPC_OK;
}

_Noreturn void rtipc__task_exit_self(void)
{
    struct rtipc__task *t = current;
    if (t)
        rtipc__park_awake(t); /* it may end inside a wait (a deletion point) */
    /* If no other task has claimed the release (by deleting or joining us),
     * claim it: nobody will join, so the exit hook closes the handle. One
     * CAS decides, so a concurrent delete either releases us or finds us
     * gone, never both. */
    int open = RTIPC__RELEASE_OPEN;
    if (t)
        atomic_compare_exchange_strong_explicit(&t->release_claim, &open, RTIPC__RELEASE_SELF, memory_order_acq_rel,
                                                memory_order_acquire);
    pthread_exit(NULL);
}

int rtipc_task_delete(rtipc_task_t *handle)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (handle == NULL || (current && handle == current->handle))
        rtipc__task_exit_self();
    struct rtipc__task *t = rtipc__task_get(handle);
    if (!t || t->adopted)
        return RTIPC_EINVAL;
    if (!claim_release(t))
        return RTIPC_EINVAL; /* it deleted itself meanwhile, or is being joined or deleted */
    /* Release: the target's deletion points read it (relaxed, after the
     * acquire of its park word that this unpark's release pairs with). */
    atomic_store_explicit(&t->delete_requested, true, memory_order_release);
    rtipc__unpark(t);
    bool done = wait_end(t);
    /* Whether or not it has ended yet, the target is on its way out and its
     * handle is ours to close: a deleter that is itself being deleted (two
     * tasks deleting each other) closes it before it ends too. */
    reap(t);
    close_handle(t);
    if (!done)
        rtipc__task_exit_self();
    return RTIPC_OK;
}

static void deletion_point(void)
{
    struct rtipc__task *t = current;
    if (t && atomic_load_explicit(&t->delete_requested, memory_order_relaxed))
        rtipc__task_exit_self();
}

int rtipc__sleep_until(int64_t deadline)
{
    struct rtipc__task *self = rtipc__self();
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

int rtipc_task_priority(const rtipc_task_t *handle)
{
    struct rtipc__task *t = rtipc__task_live(handle);
    return t ? atomic_load_explicit(&t->base_priority, memory_order_relaxed) : RTIPC_EINVAL;
}

int rtipc_task_effective_priority(const rtipc_task_t *handle)
{
    struct rtipc__task *t = rtipc__task_live(handle);
    return t ? atomic_load_explicit(&t->effective_priority, memory_order_relaxed) : RTIPC_EINVAL;
}

/* vTaskPrioritySet, as tasks.c computes it: the base always changes; the
 * effective priority follows unless the task inherits a higher one and the
 * new base is not above it; a ready task moves to the end of its list even
 * when its effective priority stays; lowering the running task's base
 * yields. */
int rtipc_task_set_priority(rtipc_task_t *handle, unsigned priority)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (priority >= RTIPC_PRIORITY_LEVELS)
        return RTIPC_EINVAL;
    struct rtipc__task *t;
    if (!handle) {
        t = rtipc__self();
        if (!t)
            return RTIPC_ENOMEM;
    } else {
        t = rtipc__task_live(handle);
        if (!t)
            return RTIPC_EINVAL;
    }
    int prio = (int)priority;
    bool yield = false;
    rtipc__lock(&t->prio_lock);
    int base = atomic_load_explicit(&t->base_priority, memory_order_relaxed);
    if (base != prio) {
        int eff = atomic_load_explicit(&t->effective_priority, memory_order_relaxed);
        int next = base == eff || prio > eff ? prio : eff;
        atomic_store_explicit(&t->effective_priority, next, memory_order_relaxed);
        atomic_store_explicit(&t->base_priority, prio, memory_order_relaxed);
        atomic_store_explicit(&t->wait_priority, prio, memory_order_relaxed);
        if (t == current) {
            kernel_self(t, eff, next);
            yield = prio < base;
        } else {
            kernel_requeue(t, eff, next);
        }
    }
    rtipc__unlock(&t->prio_lock);
    if (yield)
        yield_to_peers();
    return RTIPC_OK;
}

void *rtipc__port_task_live(const rtipc_task_t *handle) { return rtipc__task_live(handle); }
const char *rtipc__port_task_name(const void *t) { return ((const struct rtipc__task *)t)->name; }
int rtipc__port_task_core(const void *t) { return ((const struct rtipc__task *)t)->core; }
