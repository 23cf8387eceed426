/* Stress: several producers and consumers on one short queue, pinned to both
 * cores at different priorities, with random timeouts. Every item carries
 * (producer, sequence, check word); consumers check per-producer order and
 * the main thread checks that every item arrived exactly once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stress_support.h"

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
    ctx_t *ctx;
    uint32_t id;
    stress_rng_t rng;
    stress_waits_t waits;
    atomic_long done; /* items sent (producer) or received (consumer) */
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
    for (int p = 0; p < PRODUCERS; ++p)
        w->last_seq[p] = -1;
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
        if ((int64_t)m.seq <= w->last_seq[m.id])
            stress_error(&c->errors, "consumer %u: producer %u's seq %u after seq %lld (%s)", w->id, m.id, m.seq,
                         (long long)w->last_seq[m.id],
                         (int64_t)m.seq == w->last_seq[m.id] ? "repeated" : "reordered");
        w->last_seq[m.id] = m.seq;
        if (stress_bitmap_set(&c->seen, c->base[m.id] + m.seq))
            stress_error(&c->errors, "consumer %u: producer %u's seq %u received twice", w->id, m.id, m.seq);
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
    long base = 0;
    for (int p = 0; p < PRODUCERS; ++p) {
        c->share[p] = stress_share(c->total, PRODUCERS, p);
        c->base[p] = base;
        base += c->share[p];
        assert_true(c->share[p] < (long)STOP_ID);
    }
    stress_bitmap_init(&c->seen, c->total);
    stress_errors_init(&c->errors);
    assert_int_equal(rtipc_queue_create(QUEUE_LEN, sizeof(msg_t), &c->q), RTIPC_OK);

    /* In the heap context too: tasks still running after a failed test
     * touch their group when they end. */
    stress_group_t *producers = &c->producers, *consumers = &c->consumers;
    stress_group_init(producers, "producers");
    stress_group_init(consumers, "consumers");
    double t0 = stress_now();
    /* Alternate cores; priorities interleave producers and consumers. */
    for (int k = 0; k < CONSUMERS; ++k) {
        worker_t *w = &c->cons[k];
        w->ctx = c;
        w->id = (uint32_t)k;
        stress_rng_init(&w->rng, 100 + (uint64_t)k);
        stress_group_start(consumers, "qcons", (unsigned)(3 + 2 * k), test_core(k % 2), consumer, w);
    }
    for (int p = 0; p < PRODUCERS; ++p) {
        worker_t *w = &c->prod[p];
        w->ctx = c;
        w->id = (uint32_t)p;
        stress_rng_init(&w->rng, (uint64_t)p);
        stress_group_start(producers, "qprod", (unsigned)(2 + 2 * p), test_core((p + 1) % 2), producer, w);
    }

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
    for (int p = 0; p < PRODUCERS; ++p)
        stress_waits_add(&pw, &c->prod[p].waits);
    for (int k = 0; k < CONSUMERS; ++k)
        stress_waits_add(&cw, &c->cons[k].waits);
    stress_waits_add(&all, &pw);
    stress_waits_add(&all, &cw);
    printf("stress queue: producer retries %llu, consumer retries %llu\n",
           (unsigned long long)stress_waits_retries(&pw), (unsigned long long)stress_waits_retries(&cw));
    stress_summary("queue", c->total, &all, secs);

    stress_assert_no_errors(&c->errors);
    long first = -1;
    long missing = stress_bitmap_missing(&c->seen, &first);
    if (missing)
        fail_msg("%ld item(s) lost; first missing is global index %ld", missing, first);
    assert_int_equal(atomic_load(&c->received), c->total);
    assert_int_equal(rtipc_queue_messages_waiting(c->q), 0);
    assert_int_equal(rtipc_queue_delete(c->q), RTIPC_OK);
    stress_bitmap_free(&c->seen);
    free(c);
}

int main(void)
{
    stress_banner("stress_queue");
    const struct CMUnitTest tests[] = {cmocka_unit_test(queue_many_producers_many_consumers)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
