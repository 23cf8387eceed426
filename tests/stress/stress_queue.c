/* Stress: several producers and consumers on one short queue, pinned to both
 * cores at different priorities, with random timeouts. Every item carries
 * (producer, sequence, check word); consumers check per-producer order and
 * the main thread checks that every item arrived exactly once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stress_workers.h"

enum { PRODUCERS = 4, CONSUMERS = 3, QUEUE_LEN = 8 };
#define STOP_ID 0xffffffffu

typedef struct {
    uint32_t id;
    uint32_t seq;
    uint64_t check; /* catches torn or mixed-up copies */
} msg_t;

static uint64_t check_of(uint32_t id, uint32_t seq)
{
    uint64_t x = ((uint64_t)id << 32 | seq) * 0x9e3779b97f4a7c15ull;
    return x ^ (x >> 29) ^ 0x5a5a5a5a5a5a5a5aull;
}

typedef struct ctx ctx_t;

typedef struct {
    STRESS_WORKER_FIELDS
    int64_t last_seq[PRODUCERS];
} worker_t;

struct ctx {
    rtipc_queue_t *q;
    long total;
    long share[PRODUCERS];
    long base[PRODUCERS]; /* producer's first bit in seen */
    stress_bitmap_t seen;
    atomic_long received;
    stress_errors_t errors;
    stress_group_t producers, consumers;
    worker_t prod[PRODUCERS];
    worker_t cons[CONSUMERS];
};

static void producer(void *arg)
{
    worker_t *w = arg;
    ctx_t *c = w->ctx;
    long n = c->share[w->id];
    for (long s = 0; s < n; ++s) {
        msg_t m = {.id = w->id, .seq = (uint32_t)s, .check = check_of(w->id, (uint32_t)s)};
        for (;;) {
            int rc = rtipc_queue_send(c->q, &m, stress_timeout(&w->rng, &w->waits));
            if (rc == RTIPC_OK)
                break;
            if (!stress_retry(rc, &w->waits)) {
                stress_error(&c->errors, "producer %u: send of seq %ld returned %d (%s)", w->id, s, rc,
                             rtipc_strerror(rc));
                return;
            }
        }
        atomic_store_explicit(&w->done, s + 1, memory_order_relaxed);
    }
}

static void consumer(void *arg)
{
    worker_t *w = arg;
    ctx_t *c = w->ctx;
    order_reset(w->last_seq, PRODUCERS);
    for (;;) {
        msg_t m;
        int rc = rtipc_queue_receive(c->q, &m, stress_timeout(&w->rng, &w->waits));
        if (stress_retry(rc, &w->waits))
            continue;
        if (rc != RTIPC_OK) {
            stress_error(&c->errors, "consumer %u: receive returned %d (%s)", w->id, rc, rtipc_strerror(rc));
            return;
        }
        if (m.id == STOP_ID)
            return;
        if (m.id >= PRODUCERS || m.seq >= c->share[m.id] || m.check != check_of(m.id, m.seq)) {
            stress_error(&c->errors, "consumer %u: corrupt item (id %u, seq %u, check %llx)", w->id, m.id, m.seq,
                         (unsigned long long)m.check);
            continue;
        }
        check_order_once(&c->errors, &c->seen, c->base, w->last_seq, w->id, m.id, m.seq, "received");
        atomic_fetch_add_explicit(&w->done, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&c->received, 1, memory_order_relaxed);
    }
}

static void dump(void *arg)
{
    ctx_t *c = arg;
    fprintf(stderr, "  queue: %d waiting, %d spaces; received %ld of %ld\n", rtipc_queue_messages_waiting(c->q),
            rtipc_queue_spaces_available(c->q), atomic_load(&c->received), c->total);
    for (int p = 0; p < PRODUCERS; ++p)
        fprintf(stderr, "  producer %d: sent %ld of %ld\n", p, atomic_load(&c->prod[p].done), c->share[p]);
    for (int k = 0; k < CONSUMERS; ++k)
        fprintf(stderr, "  consumer %d: received %ld\n", k, atomic_load(&c->cons[k].done));
    stress_bitmap_report(&c->seen, c->base, PRODUCERS);
}

static void queue_many_producers_many_consumers(void **state)
{
    (void)state;
    /* Heap, and leaked if the test fails: tasks may still be running then. */
    ctx_t *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->total = stress_count(1000000);
    split_shares(c->total, PRODUCERS, c->share, c->base, (long)STOP_ID - 1); /* below the stop id */
    stress_bitmap_init(&c->seen, c->total);
    stress_errors_init(&c->errors);
    assert_int_equal(rtipc_queue_create(QUEUE_LEN, sizeof(msg_t), &c->q), RTIPC_OK);

    stress_group_t *producers = &c->producers, *consumers = &c->consumers;
    double t0 = stress_now();
    STRESS_START_PRODUCERS_CONSUMERS(c, "qcons", "qprod", consumer, producer);

    stress_group_wait(producers, &c->received, dump, c);
    /* One stop item per consumer, behind every real item (FIFO). */
    for (int k = 0; k < CONSUMERS; ++k) {
        msg_t stop = {.id = STOP_ID};
        int rc;
        while ((rc = rtipc_queue_send(c->q, &stop, rtipc_ms(10))) == RTIPC_ETIMEDOUT &&
               stress_group_finished(consumers) < CONSUMERS) {
        }
        if (stress_group_finished(consumers) < CONSUMERS)
            assert_int_equal(rc, RTIPC_OK);
    }
    stress_group_wait(consumers, &c->received, dump, c);
    double secs = stress_now() - t0;
    stress_group_join(producers);
    stress_group_join(consumers);

    stress_waits_t pw = {0}, cw = {0}, all = {0};
    STRESS_SUM_WAITS(&pw, c->prod, PRODUCERS);
    STRESS_SUM_WAITS(&cw, c->cons, CONSUMERS);
    stress_waits_add(&all, &pw);
    stress_waits_add(&all, &cw);
    printf("stress queue: producer retries %llu, consumer retries %llu\n",
           (unsigned long long)stress_waits_retries(&pw), (unsigned long long)stress_waits_retries(&cw));
    stress_summary("queue", c->total, &all, secs);

    assert_none_lost(&c->errors, &c->seen, &c->received, c->total, "item(s)");
    assert_int_equal(rtipc_queue_messages_waiting(c->q), 0);
    assert_int_equal(rtipc_queue_delete(c->q), RTIPC_OK);
    stress_bitmap_free(&c->seen);
    free(c);
}

STRESS_MAIN(stress_banner, "stress_queue",
            cmocka_unit_test(queue_many_producers_many_consumers))
