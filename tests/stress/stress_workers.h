/* What the producer/consumer stress programs built on stress_support.h
 * (stress_queue, stress_sem, stress_notify, stress_mutex) share: the common
 * fields of a worker task, starting a row of workers, splitting the messages
 * among producers, the consumers' order and exactly-once checks, and the
 * final "nothing lost" checks. Header-only, so each program stays a single
 * source file for tests/CMakeLists.txt. */
#ifndef RTIPC_TESTS_STRESS_WORKERS_H
#define RTIPC_TESTS_STRESS_WORKERS_H

#include <stdio.h>
#include <stdlib.h>

#include "stress_main.h"
#include "stress_support.h"

/* The first fields of every worker_t (ctx_t declared by the program). */
#define STRESS_WORKER_FIELDS                                                                                   \
    ctx_t *ctx;                                                                                                \
    uint32_t id;                                                                                               \
    stress_rng_t rng;                                                                                          \
    stress_waits_t waits;                                                                                      \
    atomic_long done; /* messages sent (producer) or received (consumer) */

/* Start workers[0..n-1] of context c in group g: worker i gets id i, random
 * stream stream0 + i, priority prio0 + step * i and core (i + core0) % 2, so
 * the rows alternate cores and interleave priorities. */
#define STRESS_START_WORKERS(g, workers, n, c, stream0, prefix, prio0, step, core0, fn)                        \
    do {                                                                                                       \
        for (int i_ = 0; i_ < (n); ++i_) {                                                                     \
            (workers)[i_].ctx = (c);                                                                           \
            (workers)[i_].id = (uint32_t)i_;                                                                   \
            stress_rng_init(&(workers)[i_].rng, (uint64_t)(stream0) + (uint64_t)i_);                           \
            stress_group_start((g), (prefix), (unsigned)((prio0) + (step) * i_), test_core((i_ + (core0)) % 2), \
                               (fn), &(workers)[i_]);                                                          \
        }                                                                                                      \
    } while (0)

/* The consumers, then the producers of c (in c->cons and c->prod, groups
 * c->consumers and c->producers: in the heap context, since tasks still
 * running after a failed test touch their group when they end). Cores
 * alternate; priorities interleave producers (2, 4, ...) and consumers
 * (3, 5, ...). */
#define STRESS_START_PRODUCERS_CONSUMERS(c, cname, pname, consumer_fn, producer_fn)                          \
    do {                                                                                                       \
        stress_group_init(&(c)->producers, "producers");                                                      \
        stress_group_init(&(c)->consumers, "consumers");                                                      \
        STRESS_START_WORKERS(&(c)->consumers, (c)->cons, CONSUMERS, (c), 100, cname, 3, 2, 0, consumer_fn);    \
        STRESS_START_WORKERS(&(c)->producers, (c)->prod, PRODUCERS, (c), 0, pname, 2, 2, 1, producer_fn);      \
    } while (0)

/* The sum of the waits of workers[0..n-1]. */
#define STRESS_SUM_WAITS(sum, workers, n)                                                                      \
    do {                                                                                                       \
        for (int i_ = 0; i_ < (n); ++i_)                                                                       \
            stress_waits_add((sum), &(workers)[i_].waits);                                                     \
    } while (0)

/* Split total among n producers: share[p] messages each, producer p's
 * first bit in the seen bitmap at base[p]. Every share must stay within
 * limit (the sequence numbers' range). */
static inline void split_shares(long total, int n, long *share, long *base, long limit)
{
    long b = 0;
    for (int p = 0; p < n; ++p) {
        share[p] = stress_share(total, n, p);
        base[p] = b;
        b += share[p];
        assert_true(share[p] <= limit);
    }
}

/* A consumer has seen nothing yet from any of the n producers. */
static inline void order_reset(int64_t *last_seq, int n)
{
    for (int p = 0; p < n; ++p)
        last_seq[p] = -1;
}

/* Consumer `who` got producer id's message seq (id and seq valid): record
 * an error when it comes at or before the last one seen from that producer
 * (repeated or reordered), or when any consumer already had it. */
static inline void check_order_once(stress_errors_t *e, stress_bitmap_t *seen, const long *base, int64_t *last_seq,
                                    uint32_t who, uint32_t id, uint32_t seq, const char *verb)
{
    if ((int64_t)seq <= last_seq[id])
        stress_error(e, "consumer %u: producer %u's seq %u after seq %lld (%s)", who, id, seq,
                     (long long)last_seq[id], (int64_t)seq == last_seq[id] ? "repeated" : "reordered");
    last_seq[id] = seq;
    if (stress_bitmap_set(seen, base[id] + seq))
        stress_error(e, "consumer %u: producer %u's seq %u %s twice", who, id, seq, verb);
}

/* Main thread, after joining: no task recorded an error, every message
 * (what: "item(s)", ...) is in the seen bitmap, and the count agrees. */
static inline void assert_none_lost(stress_errors_t *e, const stress_bitmap_t *seen, const atomic_long *received,
                                    long total, const char *what)
{
    stress_assert_no_errors(e);
    long first = -1;
    long missing = stress_bitmap_missing(seen, &first);
    if (missing)
        fail_msg("%ld %s lost; first missing is global index %ld", missing, what, first);
    assert_int_equal(atomic_load(received), total);
}

#endif
