/* Task life cycle under load: two churn tasks keep creating short-lived
 * tasks (random priority and core) that
 * - run a few rtipc calls and return; the churn task joins them;
 * - block FOREVER (semaphore take, delay or a held mutex) and are deleted
 *   by the churn task; the code after the blocking call must never run, and
 *   the semaphore or mutex must have no waiter left (it can be deleted);
 * - delete themselves.
 * created = joined + deleted + self-deleted; no task runs past its deletion. */
#include <stdlib.h>

#include "soak_core.h"

typedef struct {
    int mode;
    int how; /* mode 1: 0 semaphore, 1 delay, 2 mutex */
    rtipc_sem_t *sem;
    rtipc_mutex_t *mtx;
    atomic_int started;
    atomic_int returned;
} life_t;

static atomic_llong created, joined, deleted, self_deleted;

static void short_task(void *arg)
{
    life_t *l = arg;
    atomic_store(&l->started, 1);
    switch (l->mode) {
    case 0:
        rtipc_task_delay(rtipc_us(10));
        rtipc_task_yield();
        atomic_store(&l->returned, 1);
        return;
    case 1:
        if (l->how == 0)
            rtipc_sem_take(l->sem, RTIPC_FOREVER);
        else if (l->how == 1)
            rtipc_task_delay(RTIPC_FOREVER);
        else
            rtipc_mutex_lock(l->mtx, RTIPC_FOREVER);
        /* Reached only if the deletion did not end the task. */
        atomic_store(&l->returned, 1);
        soak_violation(O_TASK, "a task blocked FOREVER ran past its deletion (how %d)", l->how);
        return;
    default:
        free(l);
        soak_add(&self_deleted, 1);
        soak_add(&soak_objs[O_TASK].received, 1);
        rtipc_task_delete(NULL);
        soak_violation(O_TASK, "rtipc_task_delete(NULL) returned");
        return;
    }
}

static void churn(soak_worker_t *w)
{
    rtipc_mutex_t *held = NULL;
    if (rtipc_mutex_create(false, &held) != 0 || rtipc_mutex_lock(held, RTIPC_FOREVER) != 0) {
        soak_violation(O_TASK, "mutex setup failed");
        return;
    }
    while (soak_running(w)) {
        life_t *l = calloc(1, sizeof *l);
        if (!l) {
            soak_violation(O_TASK, "out of memory");
            break;
        }
        l->mode = (int)soak_below(w, 3);
        l->how = (int)soak_below(w, 3);
        l->mtx = held;
        if (l->mode == 1 && l->how == 0 && rtipc_sem_create_binary(&l->sem) != 0) {
            soak_violation(O_TASK, "sem create failed");
            free(l);
            break;
        }
        int mode = l->mode, how = l->how;
        rtipc_sem_t *sem = l->sem;
        int core = (int)soak_below(w, 3) - 1; /* any, 0 or 1 */
        if (core >= 0)
            core = soak_core(core);
        rtipc_task_config_t cfg = {.name = "short", .priority = 1 + soak_below(w, 5), .core = core,
                                   .entry = short_task, .arg = l};
        rtipc_task_t *t = NULL;
        soak_at(w, "task_create");
        int rc = rtipc_task_create(&cfg, &t);
        if (rc != 0) {
            soak_violation(O_TASK, "create: %s", rtipc_strerror(rc));
            if (sem)
                rtipc_sem_delete(sem);
            free(l);
            break;
        }
        soak_add(&created, 1);
        soak_add(&soak_objs[O_TASK].sent, 1);
        if (mode == 0) {
            soak_at(w, "task_join");
            rc = rtipc_task_join(t);
            if (rc != 0 || !atomic_load(&l->returned))
                soak_violation(O_TASK, "join: %s, returned %d", rtipc_strerror(rc), atomic_load(&l->returned));
            soak_add(&joined, 1);
            soak_add(&soak_objs[O_TASK].received, 1);
            free(l);
        } else if (mode == 1) {
            /* Delete it before it starts, while it runs, or once it blocks. */
            if (soak_below(w, 2)) {
                soak_at(w, "wait for the short task to start");
                while (!atomic_load(&l->started))
                    rtipc_task_delay(rtipc_us(20));
                rtipc_task_delay(rtipc_us(soak_below(w, 200)));
            }
            soak_at(w, "task_delete");
            rc = rtipc_task_delete(t);
            if (rc != 0)
                soak_violation(O_TASK, "delete: %s", rtipc_strerror(rc));
            if (atomic_load(&l->returned))
                soak_violation(O_TASK, "deleted task (how %d) ran past its blocking call", how);
            if (sem && (rc = rtipc_sem_delete(sem)) != 0)
                soak_violation(O_TASK, "semaphore of a deleted waiter: delete: %s (waiter left behind?)",
                               rtipc_strerror(rc));
            soak_add(&deleted, 1);
            soak_add(&soak_objs[O_TASK].received, 1);
            free(l);
        }
        soak_pace(w);
    }
    /* Deleted waiters must have left the mutex's queue: unlock, delete. */
    if (rtipc_mutex_unlock(held) != 0 || rtipc_mutex_delete(held) != 0)
        soak_violation(O_TASK, "held mutex: unlock/delete failed (waiter left behind?)");
}

static void task_final(void)
{
    /* Self-deleting tasks count themselves just before they end. */
    double end = stress_now() + 10;
    long long c = atomic_load(&created);
    while (atomic_load(&joined) + atomic_load(&deleted) + atomic_load(&self_deleted) < c && stress_now() < end)
        rtipc_task_delay(rtipc_ms(1));
    long long j = atomic_load(&joined), d = atomic_load(&deleted), s = atomic_load(&self_deleted);
    if (c != j + d + s)
        soak_violation(O_TASK, "created %lld != joined %lld + deleted %lld + self-deleted %lld", c, j, d, s);
}

void soak_setup_tasks(void)
{
    soak_spawn(O_TASK, "churn0", churn, NULL, 0, false, 2, soak_core(0));
    soak_spawn(O_TASK, "churn1", churn, NULL, 1, false, 3, soak_core(1));
    soak_hooks(&(soak_hooks_t){NULL, NULL, task_final});
}
