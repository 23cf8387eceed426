/* Queues behind a mutex and condition variables, as mechanisms
 * (mechanisms.h): the way code without an RTOS queue passes items between
 * threads. Built for Linux only (absent.c lists them elsewhere).
 *
 *   mutex-condvar       a C ring of depth items under a pthread mutex, with
 *                       "not empty" and "not full" condition variables
 *                       (signalled after the unlock)
 *   mutex-condvar-pi    the same ring under a priority-inheriting mutex
 *                       (PTHREAD_PRIO_INHERIT: a FUTEX_LOCK_PI lock, the
 *                       kind rtipc's objects take on Linux), the figure
 *                       that says what that lock costs a queue
 *   mutex-condvar-list  a C list under a pthread mutex and one condition
 *                       variable: a node malloc'd per send and freed per
 *                       receive, no bound (the "heap queue")
 *
 * std-queue-mutex, C++ std::queue + std::mutex + two std::condition_variable
 * bounded to depth, is std_queue.c (built on ESP-IDF too). */
#define _GNU_SOURCE  /* malloc_usable_size */
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../names.h"
#include "mechanisms.h"

/* ---- mutex-condvar: the ring ------------------------------------------- */

typedef struct {
    pthread_mutex_t m;
    pthread_cond_t not_empty, not_full;
    size_t head, count;
    size_t depth;  /* items it holds */
    size_t mask;   /* slots - 1: the slots are depth rounded up to a power of two */
    uint32_t buf[];
} ring_t;

static int ring_make(size_t depth, bool inherit, void **obj, char *why, size_t n)
{
    if (depth == 0) {
        snprintf(why, n, "a ring of depth 0");
        return -1;
    }
    size_t slots = 1;
    while (slots < depth)
        slots *= 2;
    ring_t *q = bench_mech_alloc(sizeof *q + slots * sizeof q->buf[0]);
    if (!q)
        return bench_mech_no_memory(why, n);
    q->depth = depth;
    q->mask = slots - 1;
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    int rc = inherit ? pthread_mutexattr_setprotocol(&attr, PTHREAD_PRIO_INHERIT) : 0;
    if (rc == 0)
        rc = pthread_mutex_init(&q->m, &attr);
    pthread_mutexattr_destroy(&attr);
    if (rc != 0) {
        snprintf(why, n, "pthread_mutex_init: %s", strerror(rc));
        free(q);
        return inherit && rc == ENOTSUP ? 1 : -1;
    }
    pthread_cond_init(&q->not_empty, NULL);
    pthread_cond_init(&q->not_full, NULL);
    *obj = q;
    return 0;
}

static int ring_create(size_t depth, void **obj, char *why, size_t n) { return ring_make(depth, false, obj, why, n); }

static int ring_create_pi(size_t depth, void **obj, char *why, size_t n)
{
    return ring_make(depth, true, obj, why, n);
}

static void ring_destroy(void *obj)
{
    ring_t *q = obj;
    pthread_cond_destroy(&q->not_empty);
    pthread_cond_destroy(&q->not_full);
    pthread_mutex_destroy(&q->m);
    free(q);
}

static int ring_send(void *obj, uint32_t v)
{
    ring_t *q = obj;
    pthread_mutex_lock(&q->m);
    while (q->count == q->depth)
        pthread_cond_wait(&q->not_full, &q->m);
    q->buf[(q->head + q->count) & q->mask] = v;
    q->count++;
    pthread_mutex_unlock(&q->m);
    pthread_cond_signal(&q->not_empty);
    return 0;
}

static int ring_recv(void *obj, uint32_t *v)
{
    ring_t *q = obj;
    pthread_mutex_lock(&q->m);
    while (q->count == 0)
        pthread_cond_wait(&q->not_empty, &q->m);
    *v = q->buf[q->head];
    q->head = (q->head + 1) & q->mask;
    q->count--;
    pthread_mutex_unlock(&q->m);
    pthread_cond_signal(&q->not_full);
    return 0;
}

static void ring_kick(void *obj)
{
    ring_t *q = obj;
    pthread_mutex_lock(&q->m);
    if (q->count < q->depth) {
        q->buf[(q->head + q->count) & q->mask] = BENCH_MECH_MARKER;
        q->count++;
    } else {
        q->head = (q->head + 1) & q->mask;
        q->count--;
    }
    pthread_mutex_unlock(&q->m);
    pthread_cond_broadcast(&q->not_empty);
    pthread_cond_broadcast(&q->not_full);
}

static int ring_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t s = BENCH_MECH_MARKER;
        if (ring_send(obj, seq + (uint32_t)i) != 0 || ring_recv(obj, &s) != 0 || s != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}

static int ring_push_each(void *o, const uint32_t *it, int n) { return bench_mech_push_each_blocking(ring_send, o, it, n); }

static int ring_pop_each(void *obj, uint32_t *items, int n)
{
    (void)n;
    int rc = ring_recv(obj, items);
    return rc ? rc : 1;
}

/* The two rings differ only in how their mutex is made. */
#define RING_MECH(mech_name, create_fn)                                                                      \
    {                                                                                                        \
        .name = mech_name, .traits = BENCH_MECH_PARKS | BENCH_MECH_FOREIGN_WAIT, .create = create_fn,        \
        .destroy = ring_destroy, .send = ring_send, .recv = ring_recv, .kick = ring_kick, .pairs = ring_pairs, \
        .push_each = ring_push_each, .pop_each = ring_pop_each,                                              \
    }

const bench_mech_t bench_mech_mutex_condvar = RING_MECH(BENCH_MECH_MUTEX_CONDVAR, ring_create);
const bench_mech_t bench_mech_mutex_condvar_pi = RING_MECH(BENCH_MECH_MUTEX_CONDVAR_PI, ring_create_pi);

/* ---- mutex-condvar-list: a heap node per item --------------------------- */

typedef struct list_node {
    struct list_node *next;
    uint32_t v;
} list_node_t;

typedef struct {
    pthread_mutex_t m;
    pthread_cond_t c;
    list_node_t *head, *tail;
} list_t;

static int list_create(size_t depth, void **obj, char *why, size_t n)
{
    (void)depth;  /* a list has no bound */
    list_t *q = calloc(1, sizeof *q);
    if (!q)
        return bench_mech_no_memory(why, n);
    pthread_mutex_init(&q->m, NULL);
    pthread_cond_init(&q->c, NULL);
    *obj = q;
    return 0;
}

static void list_destroy(void *obj)
{
    list_t *q = obj;
    while (q->head) {
        list_node_t *nd = q->head;
        q->head = nd->next;
        free(nd);
    }
    pthread_cond_destroy(&q->c);
    pthread_mutex_destroy(&q->m);
    free(q);
}

static int list_send(void *obj, uint32_t v)
{
    list_t *q = obj;
    list_node_t *nd = malloc(sizeof *nd);
    if (!nd)
        return BENCH_MECH_EOS(ENOMEM);
    nd->v = v;
    nd->next = NULL;
    pthread_mutex_lock(&q->m);
    if (q->tail)
        q->tail->next = nd;
    else
        q->head = nd;
    q->tail = nd;
    pthread_mutex_unlock(&q->m);
    pthread_cond_signal(&q->c);
    return 0;
}

static int list_recv(void *obj, uint32_t *v)
{
    list_t *q = obj;
    pthread_mutex_lock(&q->m);
    while (!q->head)
        pthread_cond_wait(&q->c, &q->m);
    list_node_t *nd = q->head;
    q->head = nd->next;
    if (!q->head)
        q->tail = NULL;
    pthread_mutex_unlock(&q->m);
    *v = nd->v;
    free(nd);
    return 0;
}

static int list_memory(void *obj, size_t items, size_t *bytes, char *note, size_t n)
{
    (void)items;  /* counted in the list itself */
    list_t *q = obj;
    size_t heap = 0, nodes = 0, one = 0;
    pthread_mutex_lock(&q->m);
    for (list_node_t *nd = q->head; nd; nd = nd->next, nodes++)
        heap += one = malloc_usable_size(nd);
    pthread_mutex_unlock(&q->m);
    *bytes = sizeof *q + heap;
    snprintf(note, n, "control %zu B + %zu nodes x %zu B (malloc_usable_size of a %zu B node)", sizeof *q, nodes,
             one, sizeof(list_node_t));
    return 0;
}

const bench_mech_t bench_mech_mutex_condvar_list = {
    .name = BENCH_MECH_MUTEX_CONDVAR_LIST,
    .traits = BENCH_MECH_PARKS | BENCH_MECH_FOREIGN_WAIT,
    .create = list_create,
    .destroy = list_destroy,
    .send = list_send,
    .try_send = list_send,  /* no bound: a send never waits */
    .recv = list_recv,
    .memory = list_memory,
};
