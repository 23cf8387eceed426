/* The watchdog thread (watchdog.h). */
#define _POSIX_C_SOURCE 200809L
#include "watchdog.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#define POLL_NS 100000000LL        /* it looks every 0.1 s */
#define KICK_AGAIN_NS 500000000LL  /* and kicks again every 0.5 s */

struct bench_watchdog {
    pthread_t th;
    pthread_mutex_t m;
    pthread_cond_t c;
    bool stop;
    int64_t kick_after_ns;
    /* The watch, under m. */
    const _Atomic uint64_t *progress;
    void (*kick)(void *obj);
    void *obj;
};

static void *watchdog_main(void *arg)
{
    bench_watchdog_t *w = arg;
    uint64_t last = 0;
    int64_t since = 0, kicked = 0;
    const void *watched = NULL;
    pthread_mutex_lock(&w->m);
    while (!w->stop) {
        int64_t now = bench_now_ns();
        if (w->progress != watched) {
            watched = w->progress;
            last = 0;
            since = now;
        }
        if (w->progress) {
            uint64_t p = atomic_load_explicit(w->progress, memory_order_relaxed);
            if (p != last) {
                last = p;
                since = now;
            } else if (now - since > w->kick_after_ns && now - kicked > KICK_AGAIN_NS) {
                w->kick(w->obj);
                kicked = now;
            }
        }
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += POLL_NS;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&w->c, &w->m, &ts);
    }
    pthread_mutex_unlock(&w->m);
    return NULL;
}

bench_watchdog_t *bench_watchdog_start(bench_run_t *run, int64_t kick_after_ns)
{
    bench_watchdog_t *w = calloc(1, sizeof *w);
    if (!w) {
        bench_fail(run, "watchdog thread: out of memory");
        return NULL;
    }
    w->kick_after_ns = kick_after_ns;
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&w->c, &a);
    pthread_condattr_destroy(&a);
    pthread_mutex_init(&w->m, NULL);
    if (pthread_create(&w->th, NULL, watchdog_main, w) != 0) {
        pthread_cond_destroy(&w->c);
        pthread_mutex_destroy(&w->m);
        free(w);
        bench_fail(run, "watchdog thread: cannot start");
        return NULL;
    }
    return w;
}

void bench_watchdog_watch(bench_watchdog_t *w, const _Atomic uint64_t *progress, void (*kick)(void *obj), void *obj)
{
    pthread_mutex_lock(&w->m);
    w->progress = kick ? progress : NULL;
    w->kick = kick;
    w->obj = obj;
    pthread_mutex_unlock(&w->m);
}

void bench_watchdog_stop(bench_watchdog_t *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->m);
    w->stop = true;
    pthread_cond_signal(&w->c);
    pthread_mutex_unlock(&w->m);
    pthread_join(w->th, NULL);
    pthread_cond_destroy(&w->c);
    pthread_mutex_destroy(&w->m);
    free(w);
}
