/* Stress: tasks pinned to both cores at different priorities enter one mutex
 * with random timeouts, increment a plain (non-atomic) shared counter and
 * append (task, seq) to a shared plain log inside it. The recursive variant
 * re-takes the mutex 0-2 more times inside. At the end the counter and the
 * log length must equal the number of critical sections, and each task's
 * entries must appear in the log in order, each exactly once. An atomic
 * "inside" flag catches two holders at once directly (and TSan catches the
 * plain accesses racing if exclusion ever breaks). After each release the
 * task, holding no mutex, must be back at its base priority. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stress_workers.h"

enum { TASKS = 4, MAX_DEPTH = 3 };

typedef struct {
    uint32_t id;
    uint32_t seq;
} entry_t;

typedef struct ctx ctx_t;

typedef struct {
    STRESS_WORKER_FIELDS
    long nested; /* extra (recursive) takes */
} worker_t;

struct ctx {
    rtipc_mutex_t *m;
    bool recursive;
    long total;
    long share[TASKS];
    /* Guarded by m only: plain on purpose. */
    long counter;
    long log_len;
    entry_t *log;
    atomic_int inside;
    atomic_long progress;
    stress_errors_t errors;
    stress_group_t group;
    worker_t w[TASKS];
};

/* Take m with random timeouts, retrying. */
static int lock(ctx_t *c, worker_t *w)
{
    for (;;) {
        int rc = rtipc_mutex_lock(c->m, stress_timeout(&w->rng, &w->waits));
        if (!stress_retry(rc, &w->waits))
            return rc;
    }
}

static void critical_section(ctx_t *c, worker_t *w, long s)
{
    if (atomic_exchange_explicit(&c->inside, 1, memory_order_relaxed) != 0)
        stress_error(&c->errors, "task %u: entered the mutex while another task was inside", w->id);
    long v = c->counter;
    /* Widen the window between read and write of the counter; now and then
     * sleep in it, so that the other tasks must block (and the holder may
     * inherit a waiter's priority). */
    if (stress_below(&w->rng, 64) == 0) {
        stress_backoff(1 + stress_below(&w->rng, 20));
    } else {
        for (volatile unsigned spin = stress_below(&w->rng, 256); spin > 0; spin = spin - 1) {
        }
    }
    c->counter = v + 1;
    long n = c->log_len;
    if (n < c->total) {
        c->log[n].id = w->id;
        c->log[n].seq = (uint32_t)s;
    } else {
        stress_error(&c->errors, "task %u: log overflow (%ld entries)", w->id, n);
    }
    c->log_len = n + 1;
    atomic_store_explicit(&c->inside, 0, memory_order_relaxed);
}

static void worker(void *arg)
{
    worker_t *w = arg;
    ctx_t *c = w->ctx;
    rtipc_task_t *self = rtipc_task_current();
    long n = c->share[w->id];
    for (long s = 0; s < n; ++s) {
        int rc = lock(c, w);
        if (rc != RTIPC_OK) {
            stress_error(&c->errors, "task %u: lock returned %d (%s)", w->id, rc, rtipc_strerror(rc));
            return;
        }
        unsigned depth = 1;
        if (c->recursive) {
            for (unsigned extra = stress_below(&w->rng, MAX_DEPTH); extra > 0; --extra) {
                /* Held already: must succeed at once, whatever the timeout. */
                rc = rtipc_mutex_lock(c->m, stress_timeout(&w->rng, &w->waits));
                if (rc != RTIPC_OK) {
                    stress_error(&c->errors, "task %u: recursive lock at depth %u returned %d (%s)", w->id, depth,
                                 rc, rtipc_strerror(rc));
                    break;
                }
                ++depth;
                ++w->nested;
            }
        } else if (stress_below(&w->rng, 64) == 0) {
            rc = rtipc_mutex_lock(c->m, RTIPC_NO_WAIT);
            if (rc != RTIPC_EDEADLOCK)
                stress_error(&c->errors, "task %u: re-locking a plain mutex returned %d, not EDEADLOCK", w->id,
                             rc);
        }
        if (rtipc_mutex_holder(c->m) != self)
            stress_error(&c->errors, "task %u: holder is not the task that locked it", w->id);
        critical_section(c, w, s);
        while (depth > 1) {
            rc = rtipc_mutex_unlock(c->m);
            --depth;
            if (rc != RTIPC_OK || rtipc_mutex_holder(c->m) != self)
                stress_error(&c->errors, "task %u: inner unlock returned %d or released the mutex at depth %u",
                             w->id, rc, depth);
        }
        rc = rtipc_mutex_unlock(c->m);
        if (rc != RTIPC_OK) {
            stress_error(&c->errors, "task %u: unlock returned %d (%s)", w->id, rc, rtipc_strerror(rc));
            return;
        }
        /* Holding no mutex now: any inherited priority must be gone. */
        int eff = rtipc_task_effective_priority(self), base = rtipc_task_priority(self);
        if (eff != base)
            stress_error(&c->errors, "task %u: effective priority %d after releasing the mutex, base %d", w->id,
                         eff, base);
        if (stress_below(&w->rng, 256) == 0 && rtipc_mutex_holder(c->m) != self &&
            (rc = rtipc_mutex_unlock(c->m)) != RTIPC_EPERM)
            stress_error(&c->errors, "task %u: unlock without holding returned %d, not EPERM", w->id, rc);
        atomic_store_explicit(&w->done, s + 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&c->progress, 1, memory_order_relaxed);
        /* Work outside the mutex, so that a woken waiter can win it, and
         * now and then a short sleep, so that lower-priority tasks on this
         * core get to hold it and then inherit this task's priority. */
        for (volatile unsigned spin = stress_below(&w->rng, 1024); spin > 0; spin = spin - 1) {
        }
        if (stress_below(&w->rng, 16) == 0)
            stress_backoff(1 + stress_below(&w->rng, 10));
    }
}

static void dump(void *arg)
{
    ctx_t *c = arg;
    rtipc_task_t *h = rtipc_mutex_holder(c->m);
    fprintf(stderr, "  mutex holder %s; %ld critical sections of %ld\n", h ? rtipc_task_name(h) : "(none)",
            atomic_load(&c->progress), c->total);
    for (int i = 0; i < TASKS; ++i)
        fprintf(stderr, "  task %d: %ld of %ld\n", i, atomic_load(&c->w[i].done), c->share[i]);
}

static void run(bool recursive)
{
    ctx_t *c = calloc(1, sizeof *c); /* leaked if the test fails: tasks may still run */
    assert_non_null(c);
    c->recursive = recursive;
    c->total = stress_count(1000000);
    for (int i = 0; i < TASKS; ++i)
        c->share[i] = stress_share(c->total, TASKS, i);
    c->log = calloc((size_t)c->total, sizeof *c->log);
    assert_non_null(c->log);
    stress_errors_init(&c->errors);
    assert_int_equal(rtipc_mutex_create(recursive, &c->m), RTIPC_OK);

    stress_group_t *g = &c->group; /* heap: tasks touch it when they end */
    stress_group_init(g, "tasks");
    double t0 = stress_now();
    STRESS_START_WORKERS(g, c->w, TASKS, c, recursive ? 200 : 300, recursive ? "rmtx" : "mtx", 2, 3, 0, worker);
    stress_group_wait(g, &c->progress, dump, c);
    double secs = stress_now() - t0;
    stress_group_join(g);

    stress_waits_t all = {0};
    long nested = 0;
    for (int i = 0; i < TASKS; ++i) {
        stress_waits_add(&all, &c->w[i].waits);
        nested += c->w[i].nested;
    }
    const char *name = recursive ? "mutex (recursive)" : "mutex (plain)";
    if (recursive)
        printf("stress %s: %ld nested re-takes\n", name, nested);
    stress_summary(name, c->total, &all, secs);

    stress_assert_no_errors(&c->errors);
    assert_int_equal(c->counter, c->total);
    assert_int_equal(c->log_len, c->total);
    long next[TASKS] = {0};
    long handovers = 0;
    for (long k = 0; k < c->total; ++k) {
        entry_t e = c->log[k];
        handovers += k > 0 && e.id != c->log[k - 1].id;
        if (e.id >= TASKS)
            fail_msg("log[%ld]: bad task id %u", k, e.id);
        if (e.seq != next[e.id])
            fail_msg("log[%ld]: task %u's seq %u where %ld was due (lost, duplicated or reordered)", k, e.id,
                     e.seq, next[e.id]);
        ++next[e.id];
    }
    for (int i = 0; i < TASKS; ++i)
        assert_int_equal(next[i], c->share[i]);
    printf("stress %s: the mutex changed hands %ld times\n", name, handovers);
    assert_null(rtipc_mutex_holder(c->m));
    assert_int_equal(rtipc_mutex_delete(c->m), RTIPC_OK);
    free(c->log);
    free(c);
}

static void mutex_recursive(void **state)
{
    (void)state;
    run(true);
}

static void mutex_plain(void **state)
{
    (void)state;
    run(false);
}

STRESS_MAIN(stress_banner, "stress_mutex",
            cmocka_unit_test(mutex_recursive),
            cmocka_unit_test(mutex_plain))
