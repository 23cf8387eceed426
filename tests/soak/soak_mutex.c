/* Mutexes: mutual exclusion of a plain and a recursive mutex, checked with a
 * plain counter in the critical section, and a three-priority inheritance
 * scenario (low holds, high waits, medium competes for the low one's core). */
#include "soak_core.h"

typedef struct {
    int obj;
    rtipc_mutex_t *m;
    atomic_int inside;
    long long counter; /* plain: only touched under the mutex */
    atomic_llong locks;
} mtx_t;

static mtx_t plain = {.obj = O_MUTEX};
static mtx_t rec = {.obj = O_RMUTEX};

static void enter(mtx_t *x, soak_worker_t *w)
{
    if (atomic_fetch_add(&x->inside, 1) != 0)
        soak_violation(x->obj, "%s entered while another task was inside", w->name);
    if (rtipc_mutex_holder(x->m) != rtipc_task_current())
        soak_violation(x->obj, "%s holds the mutex but is not its holder", w->name);
    long long c = x->counter;
    if (soak_below(w, 8) == 0)
        rtipc_task_yield();
    x->counter = c + 1;
    soak_add(&x->locks, 1);
    soak_add(&soak_objs[x->obj].received, 1);
}

static void leave(mtx_t *x, soak_worker_t *w)
{
    if (atomic_fetch_sub(&x->inside, 1) != 1)
        soak_violation(x->obj, "%s left with another task inside", w->name);
}

/* A round's first lock (random timeout); a refusal is accounted as not now. */
static bool lock_round(soak_worker_t *w, rtipc_mutex_t *m)
{
    rtipc_timeout_t t = soak_timeout(w);
    soak_at(w, "mutex_lock");
    int rc = rtipc_mutex_lock(m, t);
    if (rc != 0)
        soak_not_now(w, rc, "lock");
    return rc == 0;
}

static void plain_worker(soak_worker_t *w)
{
    while (soak_running(w)) {
        int rc;
        if (!lock_round(w, plain.m)) {
            if (soak_below(w, 4) == 0) {
                soak_at(w, "mutex_unlock");
                rc = rtipc_mutex_unlock(plain.m); /* not the holder */
                if (rc != RTIPC_EPERM)
                    soak_violation(O_MUTEX, "%s: unlock without holding returned %d", w->name, rc);
            }
        } else {
            enter(&plain, w);
            if (soak_below(w, 8) == 0) {
                soak_at(w, "mutex_lock (again)");
                rc = rtipc_mutex_lock(plain.m, RTIPC_NO_WAIT);
                if (rc != RTIPC_EDEADLOCK)
                    soak_violation(O_MUTEX, "%s: relocking a held plain mutex returned %d", w->name, rc);
            }
            if (soak_below(w, 16) == 0)
                rtipc_task_delay(rtipc_us(20 + soak_below(w, 200)));
            leave(&plain, w);
            soak_at(w, "mutex_unlock");
            rc = rtipc_mutex_unlock(plain.m);
            if (rc != 0)
                soak_violation(O_MUTEX, "%s: unlock: %s", w->name, rtipc_strerror(rc));
        }
        soak_pace(w);
    }
}

static void recursive_worker(soak_worker_t *w)
{
    while (soak_running(w)) {
        int rc;
        if (lock_round(w, rec.m)) {
            enter(&rec, w);
            int depth = 1 + (int)soak_below(w, 4);
            for (int d = 1; d < depth; ++d) {
                soak_at(w, "mutex_lock (nested)");
                rc = rtipc_mutex_lock(rec.m, soak_below(w, 2) ? RTIPC_NO_WAIT : RTIPC_FOREVER);
                if (rc != 0)
                    soak_violation(O_RMUTEX, "%s: nested lock %d: %s", w->name, d, rtipc_strerror(rc));
            }
            if (soak_below(w, 16) == 0)
                rtipc_task_delay(rtipc_us(20 + soak_below(w, 200)));
            leave(&rec, w);
            for (int d = 0; d < depth; ++d) {
                soak_at(w, "mutex_unlock");
                rc = rtipc_mutex_unlock(rec.m);
                if (rc != 0)
                    soak_violation(O_RMUTEX, "%s: unlock %d of %d: %s", w->name, d + 1, depth,
                                   rtipc_strerror(rc));
            }
            soak_at(w, "mutex_unlock (extra)");
            rc = rtipc_mutex_unlock(rec.m);
            if (rc != RTIPC_EPERM)
                soak_violation(O_RMUTEX, "%s: unlock beyond the depth returned %d", w->name, rc);
        }
        soak_pace(w);
    }
}

/* ---- priority inheritance ----------------------------------------------------- */

/* Above the rest of the load (priorities 1..4), so that the scenario is
 * decided by these three tasks and not by starvation under SCHED_FIFO. */
enum { PI_LOW = 6, PI_MED = 7, PI_HIGH = 8 };
static rtipc_mutex_t *pi_m;
static rtipc_sem_t *pi_go;
static atomic_int pi_high_waiting;
static atomic_llong pi_rounds;      /* rounds in which the holder inherited */
static atomic_llong pi_high_rounds; /* rounds the high task completed */

static bool wait_flag_or_stop(atomic_int *flag, soak_worker_t *w, double limit_s)
{
    double end = stress_now() + limit_s;
    while (!atomic_load(flag)) {
        if (!soak_running(w) || stress_now() > end)
            return false;
        rtipc_task_delay(rtipc_us(200));
    }
    return true;
}

static void pi_low(soak_worker_t *w)
{
    rtipc_task_t *self = rtipc_task_current();
    long long given = 0;
    while (soak_running(w)) {
        /* Start a round only once the high task has finished the last one
         * (else it may still be queued on the mutex, not waiting for go). */
        double until = stress_now() + 30;
        while (atomic_load(&pi_high_rounds) < given && soak_running(w)) {
            if (stress_now() > until) {
                soak_violation(O_MUTEX, "pi: high task did not get the released mutex within 30 s");
                break;
            }
            soak_at(w, "pi: waiting for the high task's round");
            rtipc_task_delay(rtipc_us(200));
        }
        if (!soak_running(w))
            break;
        soak_at(w, "mutex_lock (pi)");
        int rc = rtipc_mutex_lock(pi_m, RTIPC_FOREVER);
        if (rc != 0) {
            soak_violation(O_MUTEX, "pi low: lock: %s", rtipc_strerror(rc));
            break;
        }
        atomic_store(&pi_high_waiting, 0);
        given = atomic_load(&pi_high_rounds) + 1;
        rtipc_sem_give(pi_go);
        if (!wait_flag_or_stop(&pi_high_waiting, w, 30)) {
            if (soak_running(w))
                soak_violation(O_MUTEX, "pi: high task did not take the go semaphore within 30 s");
        } else {
            /* The high task is about to block on the mutex: the holder must
             * inherit its priority, and keep it until it unlocks. */
            double end = stress_now() + 30;
            while (rtipc_task_effective_priority(self) < PI_HIGH && stress_now() < end && soak_running(w)) {
                soak_at(w, "pi: waiting for inheritance");
                rtipc_task_delay(rtipc_us(200));
            }
            int eff = rtipc_task_effective_priority(self);
            if (eff < PI_HIGH && soak_running(w))
                soak_violation(O_MUTEX, "pi: holder's effective priority %d while priority %d waits", eff, PI_HIGH);
            else if (eff >= PI_HIGH)
                soak_add(&pi_rounds, 1);
        }
        soak_at(w, "mutex_unlock (pi)");
        rc = rtipc_mutex_unlock(pi_m);
        if (rc != 0)
            soak_violation(O_MUTEX, "pi low: unlock: %s", rtipc_strerror(rc));
        int eff = rtipc_task_effective_priority(self);
        if (eff != PI_LOW)
            soak_violation(O_MUTEX, "pi: effective priority %d after unlocking (base %d)", eff, PI_LOW);
        soak_at(w, "pause");
        rtipc_task_delay(rtipc_us(1000 + soak_below(w, 2000)));
    }
}

static void pi_high(soak_worker_t *w)
{
    for (;;) {
        soak_at(w, "sem_take (pi go)");
        int rc = rtipc_sem_take(pi_go, rtipc_ms(20));
        if (rc != 0) {
            if (!soak_running(w))
                break;
            continue;
        }
        atomic_store(&pi_high_waiting, 1);
        soak_at(w, "mutex_lock (pi)");
        rc = rtipc_mutex_lock(pi_m, RTIPC_FOREVER);
        if (rc != 0) {
            soak_violation(O_MUTEX, "pi high: lock: %s", rtipc_strerror(rc));
            break;
        }
        soak_at(w, "mutex_unlock (pi)");
        rc = rtipc_mutex_unlock(pi_m);
        if (rc != 0)
            soak_violation(O_MUTEX, "pi high: unlock: %s", rtipc_strerror(rc));
        atomic_fetch_add(&pi_high_rounds, 1);
    }
}

/* The medium task competes with the low one on its core in short bursts. */
static void pi_medium(soak_worker_t *w)
{
    while (soak_running(w)) {
        soak_at(w, "pi: medium busy");
        double end = stress_now() + 0.0001;
        while (stress_now() < end) {
        }
        rtipc_task_delay(rtipc_us(1000 + soak_below(w, 2000)));
    }
}

static void mutex_final(void)
{
    if (plain.counter != atomic_load(&plain.locks))
        soak_violation(O_MUTEX, "counter %lld != locks %lld (lost update: no mutual exclusion)", plain.counter,
                       (long long)atomic_load(&plain.locks));
    if (rec.counter != atomic_load(&rec.locks))
        soak_violation(O_RMUTEX, "counter %lld != locks %lld (lost update: no mutual exclusion)", rec.counter,
                       (long long)atomic_load(&rec.locks));
    if (atomic_load(&pi_rounds) == 0)
        soak_violation(O_MUTEX, "no priority-inheritance round completed");
    soak_add(&soak_objs[O_MUTEX].sent, atomic_load(&pi_rounds));
    if (rtipc_mutex_delete(plain.m) || rtipc_mutex_delete(rec.m) || rtipc_mutex_delete(pi_m))
        soak_violation(O_MUTEX, "delete failed (still held?)");
    rtipc_sem_delete(pi_go);
}

void soak_setup_mutexes(void)
{
    static rtipc_mutex_static_t plain_cb;
    if (rtipc_mutex_create_static(false, &plain_cb, &plain.m) || rtipc_mutex_create(true, &rec.m) ||
        rtipc_mutex_create(false, &pi_m) || rtipc_sem_create_binary(&pi_go)) {
        soak_violation(O_MUTEX, "create failed");
        return;
    }
    soak_spin_set(O_MUTEX, rtipc_mutex_set_spin(plain.m, soak_spin(O_MUTEX)));
    soak_spin_set(O_RMUTEX, rtipc_mutex_set_spin(rec.m, soak_spin(O_RMUTEX)));
    soak_spawn(O_MUTEX, "mx-0", plain_worker, NULL, 0, false, 1, soak_core(0));
    soak_spawn(O_MUTEX, "mx-1", plain_worker, NULL, 1, false, 2, soak_core(1));
    soak_spawn(O_MUTEX, "mx-2", plain_worker, NULL, 2, false, 3, soak_core(0));
    soak_spawn(O_MUTEX, "mx-3", plain_worker, NULL, 3, false, 3, RTIPC_CORE_ANY);
    soak_spawn(O_RMUTEX, "rmx-0", recursive_worker, NULL, 0, false, 1, soak_core(1));
    soak_spawn(O_RMUTEX, "rmx-1", recursive_worker, NULL, 1, false, 2, soak_core(0));
    soak_spawn(O_RMUTEX, "rmx-2", recursive_worker, NULL, 2, false, 3, soak_core(1));
    soak_spawn(O_MUTEX, "pi-low", pi_low, NULL, 0, false, PI_LOW, soak_core(1));
    soak_spawn(O_MUTEX, "pi-med", pi_medium, NULL, 1, false, PI_MED, soak_core(1));
    soak_spawn(O_MUTEX, "pi-high", pi_high, NULL, 2, false, PI_HIGH, soak_core(0));
    soak_hooks(&(soak_hooks_t){NULL, NULL, mutex_final});
}
