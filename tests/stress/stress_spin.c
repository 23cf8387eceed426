/* Stress: spin-then-park waiting under random budgets. Every wait picks a
 * random spin budget (follow the default, 0, a few microseconds, or up to
 * 2 ms) and a random timeout, so waits end in every way: satisfied while
 * spinning, spin cut short by the same-core rule, parked and woken, timed
 * out just as a wake-up arrives. A lost wake-up stalls a pair (the stall
 * watchdog fails the test); a lost, repeated or reordered message fails it
 * on its sequence number.
 *
 * - Two ping-pong pairs across the cores: A sends sequence numbers through a
 *   queue (whose budget B sets at random before each receive), B echoes each
 *   one with a notification give (A sets its own notification budget at
 *   random before each take). Each core hosts an A of one pair and a B of the
 *   other, at different priorities, so the same-core rule comes into play.
 * - An SPSC stream from core 0 to core 1 through a ring of 4, both sides
 *   setting the ring's budget at random before each blocking call.
 *
 * Counts: 2 x 100000 round trips and 300000 ring items, times
 * RTIPC_STRESS_SCALE. */
#include <stdio.h>
#include <stdlib.h>

#include "stress_main.h"
#include "stress_support.h"

enum { PAIRS = 2, ECHO_SLOT = 0, RING_CAPACITY = 4 };
#define ROUND_TRIPS 100000
#define RING_ITEMS 300000

/* A random budget: a quarter each of "follow the default", 0, 1-4 us and
 * 0.2-2 ms. */
static int64_t random_budget(stress_rng_t *r)
{
    switch (stress_below(r, 4)) {
    case 0:
        return RTIPC_SPIN_DEFAULT;
    case 1:
        return 0;
    case 2:
        return 1000 + stress_below(r, 3001);
    default:
        return 200000 + stress_below(r, 1800001);
    }
}

/* Sometimes work a little before answering, so that some spins catch the
 * answer and some run out. */
static void maybe_work(stress_rng_t *r)
{
    if (stress_below(r, 8) != 0)
        return;
    int64_t until = rtipc_time_ns() + stress_below(r, 20000);
    while (rtipc_time_ns() < until)
        ;
}

typedef struct ctx ctx_t;

typedef struct {
    ctx_t *ctx;
    int pair;
    stress_rng_t rng;
    stress_waits_t waits;
    atomic_long done;
} worker_t;

struct ctx {
    long trips, items;
    rtipc_queue_t *q[PAIRS];
    rtipc_task_t *a_task[PAIRS];
    rtipc_spsc_t *ring;
    atomic_long progress;
    stress_errors_t errors;
    stress_group_t tasks;
    worker_t a[PAIRS], b[PAIRS], producer, consumer;
};

/* A: send seq, then wait for exactly one echo, under random budgets. */
static void pinger(void *arg)
{
    worker_t *w = arg;
    ctx_t *c = w->ctx;
    for (long s = 0; s < c->trips; ++s) {
        uint32_t seq = (uint32_t)s;
        int rc;
        while ((rc = rtipc_queue_send(c->q[w->pair], &seq, stress_timeout(&w->rng, &w->waits))) != RTIPC_OK) {
            if (!stress_retry(rc, &w->waits)) {
                stress_error(&c->errors, "pinger %d: send of %ld returned %d", w->pair, s, rc);
                return;
            }
        }
        uint32_t echoes = 0;
        for (;;) {
            rtipc_notify_set_spin(NULL, random_budget(&w->rng));
            rc = rtipc_notify_take(ECHO_SLOT, false, &echoes, stress_timeout(&w->rng, &w->waits));
            if (rc == RTIPC_OK)
                break;
            if (!stress_retry(rc, &w->waits)) {
                stress_error(&c->errors, "pinger %d: take of echo %ld returned %d", w->pair, s, rc);
                return;
            }
        }
        if (echoes != 1)
            stress_error(&c->errors, "pinger %d: round %ld found %u echoes pending, not 1", w->pair, s, echoes);
        atomic_store_explicit(&w->done, s + 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&c->progress, 1, memory_order_relaxed);
    }
}

/* B: receive each seq in order, under random budgets, and echo it. */
static void ponger(void *arg)
{
    worker_t *w = arg;
    ctx_t *c = w->ctx;
    for (long s = 0; s < c->trips; ++s) {
        uint32_t seq;
        int rc;
        for (;;) {
            rtipc_queue_set_spin(c->q[w->pair], random_budget(&w->rng));
            rc = rtipc_queue_receive(c->q[w->pair], &seq, stress_timeout(&w->rng, &w->waits));
            if (rc == RTIPC_OK || !stress_retry(rc, &w->waits))
                break;
        }
        if (rc != RTIPC_OK) {
            stress_error(&c->errors, "ponger %d: receive %ld returned %d", w->pair, s, rc);
            return;
        }
        if (seq != (uint32_t)s)
            stress_error(&c->errors, "ponger %d: got seq %u, expected %ld (%s)", w->pair, seq, s,
                         seq < (uint32_t)s ? "repeated" : "lost or reordered");
        maybe_work(&w->rng);
        rc = rtipc_notify_give(c->a_task[w->pair], ECHO_SLOT);
        if (rc != RTIPC_OK) {
            stress_error(&c->errors, "ponger %d: echo %ld returned %d", w->pair, s, rc);
            return;
        }
        atomic_store_explicit(&w->done, s + 1, memory_order_relaxed);
    }
}

/* One push (or pop) of *seq with a random spin budget and timeout, tried
 * again while stress_retry() allows; the last result. */
static int ring_op(ctx_t *c, worker_t *w, uint32_t *seq, bool push)
{
    for (;;) {
        rtipc_spsc_set_spin(c->ring, random_budget(&w->rng));
        rtipc_timeout_t t = stress_timeout(&w->rng, &w->waits);
        int rc = push ? rtipc_spsc_push(c->ring, seq, t) : rtipc_spsc_pop(c->ring, seq, t);
        if (rc == RTIPC_OK || !stress_retry(rc, &w->waits))
            return rc;
    }
}

static void ring_producer(void *arg)
{
    worker_t *w = arg;
    ctx_t *c = w->ctx;
    for (long s = 0; s < c->items; ++s) {
        uint32_t seq = (uint32_t)s;
        int rc = ring_op(c, w, &seq, true);
        if (rc != RTIPC_OK) {
            stress_error(&c->errors, "ring producer: push %ld returned %d", s, rc);
            return;
        }
        maybe_work(&w->rng);
        atomic_store_explicit(&w->done, s + 1, memory_order_relaxed);
    }
}

static void ring_consumer(void *arg)
{
    worker_t *w = arg;
    ctx_t *c = w->ctx;
    for (long s = 0; s < c->items; ++s) {
        uint32_t seq;
        int rc = ring_op(c, w, &seq, false);
        if (rc != RTIPC_OK) {
            stress_error(&c->errors, "ring consumer: pop %ld returned %d", s, rc);
            return;
        }
        if (seq != (uint32_t)s)
            stress_error(&c->errors, "ring consumer: got seq %u, expected %ld", seq, s);
        maybe_work(&w->rng);
        atomic_store_explicit(&w->done, s + 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&c->progress, 1, memory_order_relaxed);
    }
}

static void dump(void *arg)
{
    ctx_t *c = arg;
    for (int p = 0; p < PAIRS; ++p)
        fprintf(stderr, "  pair %d: pinger %ld, ponger %ld of %ld round trips; queue holds %d\n", p,
                atomic_load(&c->a[p].done), atomic_load(&c->b[p].done), c->trips,
                rtipc_queue_messages_waiting(c->q[p]));
    fprintf(stderr, "  ring: pushed %ld, popped %ld of %ld; size %d\n", atomic_load(&c->producer.done),
            atomic_load(&c->consumer.done), c->items, rtipc_spsc_size(c->ring));
}

static void worker_init(worker_t *w, ctx_t *c, int pair, uint64_t stream)
{
    w->ctx = c;
    w->pair = pair;
    stress_rng_init(&w->rng, stream);
}

static void random_budgets_lose_no_wake_up(void **state)
{
    (void)state;
    /* Heap, and leaked if the test fails: tasks may still be running then. */
    ctx_t *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->trips = stress_count(ROUND_TRIPS);
    c->items = stress_count(RING_ITEMS);
    stress_errors_init(&c->errors);
    for (int p = 0; p < PAIRS; ++p)
        assert_int_equal(rtipc_queue_create(1, sizeof(uint32_t), &c->q[p]), RTIPC_OK);
    assert_int_equal(rtipc_spsc_create(RING_CAPACITY, sizeof(uint32_t), &c->ring), RTIPC_OK);
    /* "Follow the default" then means a short spin. */
    assert_int_equal(rtipc_spin_set_default(5000), RTIPC_OK);

    stress_group_t *g = &c->tasks;
    stress_group_init(g, "spin");
    double t0 = stress_now();
    /* Pair p: A on core p, B on the other core; core 0 hosts A0 (4) and B1
     * (3), core 1 hosts B0 (6) and A1 (5); the ring runs below them all. */
    static const unsigned a_prio[PAIRS] = {4, 5}, b_prio[PAIRS] = {6, 3};
    for (int p = 0; p < PAIRS; ++p) {
        worker_init(&c->a[p], c, p, 10 + (uint64_t)p);
        stress_group_start(g, "ping", a_prio[p], test_core(p), pinger, &c->a[p]);
        c->a_task[p] = g->tasks[g->n - 1];
    }
    for (int p = 0; p < PAIRS; ++p) {
        worker_init(&c->b[p], c, p, 20 + (uint64_t)p);
        stress_group_start(g, "pong", b_prio[p], test_core(1 - p), ponger, &c->b[p]);
    }
    worker_init(&c->producer, c, 0, 30);
    worker_init(&c->consumer, c, 0, 31);
    stress_group_start(g, "rprod", 2, test_core(0), ring_producer, &c->producer);
    stress_group_start(g, "rcons", 2, test_core(1), ring_consumer, &c->consumer);

    stress_group_wait(g, &c->progress, dump, c);
    double secs = stress_now() - t0;
    /* Spin counters of the pingers, read while their tasks still exist. */
    rtipc_spin_stats_t st[PAIRS];
    for (int p = 0; p < PAIRS; ++p)
        assert_int_equal(rtipc_spin_stats(c->a_task[p], &st[p]), RTIPC_OK);
    stress_group_join(g);
    assert_int_equal(rtipc_spin_set_default(RTIPC_SPIN_DEFAULT), RTIPC_OK);

    stress_waits_t all = {0};
    for (int p = 0; p < PAIRS; ++p) {
        stress_waits_add(&all, &c->a[p].waits);
        stress_waits_add(&all, &c->b[p].waits);
        printf("stress spin: pinger %d: %llu spins (%llu satisfied), %llu same-core parks, %llu sleeps\n", p,
               (unsigned long long)st[p].spins, (unsigned long long)st[p].spin_wakeups,
               (unsigned long long)st[p].same_core_parks, (unsigned long long)st[p].sleeps);
    }
    stress_waits_add(&all, &c->producer.waits);
    stress_waits_add(&all, &c->consumer.waits);
    stress_summary("spin", PAIRS * c->trips + c->items, &all, secs);

    stress_assert_no_errors(&c->errors);
    for (int p = 0; p < PAIRS; ++p) {
        assert_int_equal(atomic_load(&c->a[p].done), c->trips);
        assert_int_equal(atomic_load(&c->b[p].done), c->trips);
        assert_int_equal(rtipc_queue_messages_waiting(c->q[p]), 0);
        assert_int_equal(rtipc_queue_delete(c->q[p]), RTIPC_OK);
    }
    assert_int_equal(atomic_load(&c->consumer.done), c->items);
    assert_int_equal(rtipc_spsc_size(c->ring), 0);
    assert_int_equal(rtipc_spsc_delete(c->ring), RTIPC_OK);
    free(c);
}

STRESS_MAIN(stress_banner, "stress_spin",
            cmocka_unit_test(random_budgets_lose_no_wake_up))
