/* The task watchdog: idle tasks per core stamp their core; subscribers stamp
 * themselves; a periodic interrupt on core 0 compares every stamp with the
 * timeout. */
#include "rtipc/wdt.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/task_lookup.h"
#include "port/posix/kernel/kernel.h"
#include "rtipc/error.h"
#include "rtipc/irq.h"
#include "rtipc/time.h"

#define MAX_IDLE_CORES 64

static pthread_mutex_t admin = PTHREAD_MUTEX_INITIALIZER; /* start/stop/add/delete */
static rtipc__lock_t list_lock = RTIPC__LOCK_INIT;          /* subscribers; also taken by the checker */
static struct rtipc__task *subscribers;
static _Atomic bool started;
static rtipc_wdt_config_t config;
static rtipc_irq_t *checker;
static int idle_cores;
static rtipc_task_t *idle[MAX_IDLE_CORES];
static _Atomic int64_t idle_last_ns[MAX_IDLE_CORES];
static int64_t idle_reported_at[MAX_IDLE_CORES]; /* checker only */
static _Atomic bool idle_stop;
static _Atomic uint64_t trips;

uint64_t rtipc_wdt_trip_count(void) { return atomic_load(&trips); }

static void default_report(const rtipc_wdt_trip_t *trip, void *arg)
{
    (void)arg;
    if (trip->task)
        fprintf(stderr, "rtipc: task watchdog: task '%s' has not reset it for %.3f s\n", trip->name,
                trip->silent_ns / 1e9);
    else
        fprintf(stderr, "rtipc: task watchdog: core %d idle task starved for %.3f s\n", trip->core,
                trip->silent_ns / 1e9);
}

static void report(const rtipc_wdt_trip_t *t)
{
    atomic_fetch_add(&trips, 1);
    (config.on_trip ? config.on_trip : default_report)(t, config.arg);
    if (config.abort_on_trip)
        abort();
}

/* Silent for a whole timeout since the later of the last stamp and the last
 * report: each silent period is reported once. */
static bool overdue(int64_t now, int64_t last, int64_t *reported_at)
{
    int64_t since = *reported_at > last ? *reported_at : last;
    if (now - since < config.timeout_ns)
        return false;
    *reported_at = now;
    return true;
}

/* The check interrupt handler (core 0). */
static void check(void *arg)
{
    (void)arg;
    int64_t now = rtipc_time_ns();
    for (int c = 0; c < idle_cores; ++c) {
        int64_t last = atomic_load(&idle_last_ns[c]);
        if (overdue(now, last, &idle_reported_at[c])) {
            char name[16];
            snprintf(name, sizeof name, "IDLE%d", c);
            rtipc_wdt_trip_t t = {NULL, name, c, now - last};
            report(&t);
        }
    }
    rtipc__lock(&list_lock);
    for (struct rtipc__task *s = subscribers; s; s = s->wdt_next) {
        int64_t last = atomic_load(&s->wdt_last_reset_ns);
        if (overdue(now, last, &s->wdt_reported_at)) {
            rtipc_wdt_trip_t t = {rtipc__task_handle(s), s->name, s->core, now - last};
            report(&t);
        }
    }
    rtipc__unlock(&list_lock);
}

static void idle_task(void *arg)
{
    int core = (int)(intptr_t)arg;
    int64_t nap = config.timeout_ns / 8;
    while (!atomic_load(&idle_stop)) {
        atomic_store(&idle_last_ns[core], rtipc_time_ns());
        rtipc_task_delay(rtipc_ns(nap));
    }
}

static void unlink_subscriber(struct rtipc__task *t)
{
    for (struct rtipc__task **link = &subscribers; *link; link = &(*link)->wdt_next) {
        if (*link == t) {
            *link = t->wdt_next;
            atomic_store(&t->wdt_subscribed, false);
            return;
        }
    }
}

/* admin held. Undo whatever start did. */
static void shut_down(void)
{
    if (checker)
        rtipc_irq_delete(checker); /* waits for a running check */
    checker = NULL;
    atomic_store(&idle_stop, true);
    for (int c = 0; c < idle_cores; ++c)
        rtipc_task_delete(idle[c]);
    idle_cores = 0;
    rtipc__lock(&list_lock);
    while (subscribers)
        unlink_subscriber(subscribers);
    rtipc__unlock(&list_lock);
    atomic_store(&started, false);
}

int rtipc_wdt_start(const rtipc_wdt_config_t *cfg)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!cfg || (cfg->timeout_ns != 0 && cfg->timeout_ns < 1000000))
        return RTIPC_EINVAL;
    pthread_mutex_lock(&admin);
    if (atomic_load(&started)) {
        pthread_mutex_unlock(&admin);
        return RTIPC_EBUSY;
    }
    config = *cfg;
    if (config.timeout_ns == 0)
        config.timeout_ns = RTIPC_WDT_TIMEOUT_NS_DEFAULT;
    atomic_store(&idle_stop, false);
    atomic_store(&started, true);
    int rc = RTIPC_OK;
    int64_t now = rtipc_time_ns();
    if (cfg->idle_check) {
        int n = rtipc_core_count();
        n = n > MAX_IDLE_CORES ? MAX_IDLE_CORES : n;
        for (int c = 0; c < n && rc == RTIPC_OK; ++c) {
            atomic_store(&idle_last_ns[c], now);
            idle_reported_at[c] = 0;
            char name[16];
            snprintf(name, sizeof name, "IDLE%d", c);
            rtipc_task_config_t tc = {.name = name, .priority = 0, .core = c, .entry = idle_task,
                                      .arg = (void *)(intptr_t)c};
            rc = rtipc_task_create(&tc, &idle[c]);
            if (rc == RTIPC_OK)
                idle_cores = c + 1;
        }
    }
    if (rc == RTIPC_OK)
        rc = rtipc_irq_create(0, check, NULL, &checker);
    if (rc == RTIPC_OK)
        rc = rtipc_irq_timer_start(checker, config.timeout_ns / 4, config.timeout_ns / 4);
    if (rc != RTIPC_OK)
        shut_down();
    pthread_mutex_unlock(&admin);
    return rc;
}

int rtipc_wdt_stop(void)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    pthread_mutex_lock(&admin);
    int rc = atomic_load(&started) ? RTIPC_OK : RTIPC_EINVAL;
    if (rc == RTIPC_OK)
        shut_down();
    pthread_mutex_unlock(&admin);
    return rc;
}

static void forget(struct rtipc__task *t);

int rtipc_wdt_add(rtipc_task_t *task)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    rtipc__task_end_hook_add(forget);
    int rc;
    struct rtipc__task *t = rtipc__task_or_caller(task, &rc);
    if (!t)
        return rc;
    pthread_mutex_lock(&admin);
    if (!atomic_load(&started) || atomic_load(&t->wdt_subscribed)) {
        rc = RTIPC_EINVAL;
    } else {
        atomic_store(&t->wdt_last_reset_ns, rtipc_time_ns());
        t->wdt_reported_at = 0;
        rtipc__lock(&list_lock);
        t->wdt_next = subscribers;
        subscribers = t;
        atomic_store(&t->wdt_subscribed, true);
        rtipc__unlock(&list_lock);
    }
    pthread_mutex_unlock(&admin);
    return rc;
}

int rtipc_wdt_delete(rtipc_task_t *task)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    int rc;
    struct rtipc__task *t = rtipc__task_or_caller(task, &rc);
    if (!t)
        return rc;
    pthread_mutex_lock(&admin);
    rc = atomic_load(&started) && atomic_load(&t->wdt_subscribed) ? RTIPC_OK : RTIPC_EINVAL;
    if (rc == RTIPC_OK) {
        rtipc__lock(&list_lock);
        unlink_subscriber(t);
        rtipc__unlock(&list_lock);
    }
    pthread_mutex_unlock(&admin);
    return rc;
}

/* The task-end hook (task_internal.h): an ending task leaves the list. */
static void forget(struct rtipc__task *t)
{
    if (!atomic_load(&t->wdt_subscribed))
        return;
    rtipc__lock(&list_lock);
    unlink_subscriber(t);
    rtipc__unlock(&list_lock);
}

int rtipc_wdt_reset(void)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__task *t = rtipc__current_or_null();
    if (!t || !atomic_load_explicit(&t->wdt_subscribed, memory_order_relaxed))
        return RTIPC_EINVAL;
    atomic_store_explicit(&t->wdt_last_reset_ns, rtipc_time_ns(), memory_order_relaxed);
    return RTIPC_OK;
}
