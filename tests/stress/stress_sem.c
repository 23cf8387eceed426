/* Stress: counting semaphores as a bounded buffer, several producers and
 * consumers pinned to both cores at different priorities, random timeouts.
 *
 * `spaces` (max M, initially M) and `items` (max M, initially 0) guard a set
 * of per-producer rings. A producer takes a space, publishes (id, seq) in its
 * own ring and gives an item; a consumer takes an item, claims the oldest
 * entry of some ring (compare-and-swap on the ring's read index) and gives a
 * space back. The semaphores are the only flow control, so:
 *   - a token the semaphore invents (duplicated take) leaves a consumer with
 *     no entry to claim, or a producer with a full ring, or a give that
 *     overflows: each is recorded as an error;
 *   - a token it loses (lost give or lost wake-up) hangs the run: the stall
 *     watchdog fails it;
 *   - the main thread checks every (producer, seq) was claimed exactly once,
 *     consumers check per-producer order, and at the end the counts must be
 *     items 0 / spaces M with takes == gives on each semaphore. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stress_workers.h"

enum { PRODUCERS = 4, CONSUMERS = 3, M = 16, RING = 16 };
_Static_assert(RING >= M && (RING & (RING - 1)) == 0, "a ring must hold every space token");

#define SCAN_LIMIT_S 5.0 /* a token holder finding no entry for this long: error */

typedef struct {
    _Atomic uint64_t entry[RING]; /* (id << 32) | seq */
    atomic_long w;                /* entries published (written by the producer only) */
    atomic_long r;                /* entries claimed (CAS by consumers) */
} ring_t;

typedef struct ctx ctx_t;

typedef struct {
    STRESS_WORKER_FIELDS
    long scan_misses; /* full scans that found nothing while holding a token */
    int64_t last_seq[PRODUCERS];
} worker_t;

struct ctx {
    rtipc_sem_t *items, *spaces;
    long total;
    long share[PRODUCERS];
    long base[PRODUCERS];
    ring_t ring[PRODUCERS];
    stress_bitmap_t seen;
    atomic_long claimed;
    atomic_int stop;
    atomic_long items_given, items_taken, spaces_given, spaces_taken, stops_taken;
    atomic_int max_items_seen, max_spaces_seen;
    stress_errors_t errors;
    stress_group_t producers, consumers;
    worker_t prod[PRODUCERS];
    worker_t cons[CONSUMERS];
};

static void note_max(atomic_int *max, int v)
{
    int cur = atomic_load_explicit(max, memory_order_relaxed);
    while (v > cur && !atomic_compare_exchange_weak_explicit(max, &cur, v, memory_order_relaxed,
                                                             memory_order_relaxed)) {
    }
}

/* Take one token of s with random timeouts, retrying. */
/* True when @p rc is RTIPC_OK; otherwise records "ROLE ID: CALL returned
 * RC (name)" and returns false, and the worker ends. */
static bool call_ok(ctx_t *c, const char *role, unsigned id, const char *call, int rc)
{
    if (rc == RTIPC_OK)
        return true;
    stress_error(&c->errors, "%s %u: %s returned %d (%s)", role, id, call, rc, rtipc_strerror(rc));
    return false;
}

static int take(rtipc_sem_t *s, worker_t *w)
{
    for (;;) {
        int rc = rtipc_sem_take(s, stress_timeout(&w->rng, &w->waits));
        if (!stress_retry(rc, &w->waits))
            return rc;
    }
}

static void producer(void *arg)
{
    worker_t *w = arg;
    ctx_t *c = w->ctx;
    ring_t *ring = &c->ring[w->id];
    long n = c->share[w->id];
    for (long s = 0; s < n; ++s) {
        if (!call_ok(c, "producer", w->id, "take(spaces)", take(c->spaces, w)))
            return;
        atomic_fetch_add_explicit(&c->spaces_taken, 1, memory_order_relaxed);
        long wi = atomic_load_explicit(&ring->w, memory_order_relaxed);
        long ri = atomic_load_explicit(&ring->r, memory_order_acquire);
        if (wi - ri >= RING) {
            stress_error(&c->errors, "producer %u: ring full (%ld unclaimed) though a space was taken: the "
                         "spaces semaphore handed out more than %d tokens", w->id, wi - ri, M);
            return;
        }
        atomic_store_explicit(&ring->entry[wi & (RING - 1)], (uint64_t)w->id << 32 | (uint64_t)s,
                              memory_order_relaxed);
        /* Release: a consumer that sees w also sees the entry. */
        atomic_store_explicit(&ring->w, wi + 1, memory_order_release);
        if (!call_ok(c, "producer", w->id, "give(items)", rtipc_sem_give(c->items)))
            return;
        atomic_fetch_add_explicit(&c->items_given, 1, memory_order_relaxed);
        note_max(&c->max_items_seen, rtipc_sem_count(c->items));
        atomic_store_explicit(&w->done, s + 1, memory_order_relaxed);
    }
}

/* Claim the oldest unclaimed entry of some ring; false if none was found. */
static bool claim(ctx_t *c, worker_t *w, uint64_t *out)
{
    uint32_t start = stress_below(&w->rng, PRODUCERS);
    for (uint32_t k = 0; k < PRODUCERS; ++k) {
        ring_t *ring = &c->ring[(start + k) % PRODUCERS];
        long ri = atomic_load_explicit(&ring->r, memory_order_relaxed);
        while (ri < atomic_load_explicit(&ring->w, memory_order_acquire)) {
            uint64_t v = atomic_load_explicit(&ring->entry[ri & (RING - 1)], memory_order_relaxed);
            /* Success: the entry read above was still ours (not reused). */
            if (atomic_compare_exchange_weak_explicit(&ring->r, &ri, ri + 1, memory_order_acq_rel,
                                                      memory_order_relaxed)) {
                *out = v;
                return true;
            }
        }
    }
    return false;
}

static void consumer(void *arg)
{
    worker_t *w = arg;
    ctx_t *c = w->ctx;
    order_reset(w->last_seq, PRODUCERS);
    for (;;) {
        if (!call_ok(c, "consumer", w->id, "take(items)", take(c->items, w)))
            return;
        atomic_fetch_add_explicit(&c->items_taken, 1, memory_order_relaxed);
        /* Set only once every item was claimed: this token is a stop token. */
        if (atomic_load_explicit(&c->stop, memory_order_acquire)) {
            atomic_fetch_add_explicit(&c->stops_taken, 1, memory_order_relaxed);
            return;
        }
        uint64_t v;
        double since = 0;
        while (!claim(c, w, &v)) {
            ++w->scan_misses;
            if (since == 0) {
                since = stress_now();
            } else if (stress_now() - since > SCAN_LIMIT_S) {
                stress_error(&c->errors, "consumer %u: holds an items token but no ring has an entry for %.0f s: "
                             "the items semaphore handed out a token nobody gave", w->id, SCAN_LIMIT_S);
                return;
            }
        }
        uint32_t id = (uint32_t)(v >> 32), seq = (uint32_t)v;
        if (id >= PRODUCERS || seq >= c->share[id]) {
            stress_error(&c->errors, "consumer %u: corrupt entry %llx", w->id, (unsigned long long)v);
        } else {
            check_order_once(&c->errors, &c->seen, c->base, w->last_seq, w->id, id, seq, "claimed");
        }
        if (!call_ok(c, "consumer", w->id, "give(spaces)", rtipc_sem_give(c->spaces)))
            return;
        atomic_fetch_add_explicit(&c->spaces_given, 1, memory_order_relaxed);
        note_max(&c->max_spaces_seen, rtipc_sem_count(c->spaces));
        atomic_fetch_add_explicit(&w->done, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&c->claimed, 1, memory_order_relaxed);
    }
}

static void dump(void *arg)
{
    ctx_t *c = arg;
    fprintf(stderr, "  items count %d, spaces count %d; claimed %ld of %ld; stop %d\n", rtipc_sem_count(c->items),
            rtipc_sem_count(c->spaces), atomic_load(&c->claimed), c->total, atomic_load(&c->stop));
    fprintf(stderr, "  items given %ld taken %ld; spaces given %ld taken %ld; stop tokens taken %ld\n",
            atomic_load(&c->items_given), atomic_load(&c->items_taken), atomic_load(&c->spaces_given),
            atomic_load(&c->spaces_taken), atomic_load(&c->stops_taken));
    for (int p = 0; p < PRODUCERS; ++p)
        fprintf(stderr, "  producer %d: published %ld of %ld, ring w %ld r %ld\n", p,
                atomic_load(&c->prod[p].done), c->share[p], atomic_load(&c->ring[p].w), atomic_load(&c->ring[p].r));
    for (int k = 0; k < CONSUMERS; ++k)
        fprintf(stderr, "  consumer %d: claimed %ld\n", k, atomic_load(&c->cons[k].done));
    stress_bitmap_report(&c->seen, c->base, PRODUCERS);
}

static void sem_bounded_buffer(void **state)
{
    (void)state;
    ctx_t *c = calloc(1, sizeof *c); /* leaked if the test fails: tasks may still run */
    assert_non_null(c);
    c->total = stress_count(1000000);
    split_shares(c->total, PRODUCERS, c->share, c->base, (long)UINT32_MAX);
    stress_bitmap_init(&c->seen, c->total);
    stress_errors_init(&c->errors);
    assert_int_equal(rtipc_sem_create_counting(M, 0, &c->items), RTIPC_OK);
    assert_int_equal(rtipc_sem_create_counting(M, M, &c->spaces), RTIPC_OK);

    stress_group_t *producers = &c->producers, *consumers = &c->consumers;
    double t0 = stress_now();
    STRESS_START_PRODUCERS_CONSUMERS(c, "scons", "sprod", consumer, producer);

    stress_group_wait(producers, &c->claimed, dump, c);
    if (stress_error_count(&c->errors) == 0)
        stress_wait_value(&c->claimed, c->total, "every item to be claimed", dump, c);
    /* Every real token is taken: one stop token per consumer. */
    atomic_store_explicit(&c->stop, 1, memory_order_release);
    for (int k = 0; k < CONSUMERS; ++k)
        assert_int_equal(rtipc_sem_give(c->items), RTIPC_OK);
    atomic_fetch_add(&c->items_given, CONSUMERS);
    stress_group_wait(consumers, &c->claimed, dump, c);
    double secs = stress_now() - t0;
    stress_group_join(producers);
    stress_group_join(consumers);

    stress_waits_t pw = {0}, cw = {0}, all = {0};
    long misses = 0;
    STRESS_SUM_WAITS(&pw, c->prod, PRODUCERS);
    STRESS_SUM_WAITS(&cw, c->cons, CONSUMERS);
    for (int k = 0; k < CONSUMERS; ++k)
        misses += c->cons[k].scan_misses;
    stress_waits_add(&all, &pw);
    stress_waits_add(&all, &cw);
    printf("stress sem: producer retries %llu, consumer retries %llu, ring scan misses %ld, max count seen "
           "items %d spaces %d (max %d)\n",
           (unsigned long long)stress_waits_retries(&pw), (unsigned long long)stress_waits_retries(&cw), misses,
           atomic_load(&c->max_items_seen), atomic_load(&c->max_spaces_seen), M);
    stress_summary("sem", c->total, &all, secs);

    assert_none_lost(&c->errors, &c->seen, &c->claimed, c->total, "item(s)");
    /* takes == gives on both semaphores, and the final counts agree. */
    assert_int_equal(atomic_load(&c->items_given), c->total + CONSUMERS);
    assert_int_equal(atomic_load(&c->items_taken), c->total + CONSUMERS);
    assert_int_equal(atomic_load(&c->stops_taken), CONSUMERS);
    assert_int_equal(atomic_load(&c->spaces_taken), c->total);
    assert_int_equal(atomic_load(&c->spaces_given), c->total);
    assert_int_equal(rtipc_sem_count(c->items), 0);
    assert_int_equal(rtipc_sem_count(c->spaces), M);
    assert_true(atomic_load(&c->max_items_seen) <= M);
    assert_true(atomic_load(&c->max_spaces_seen) <= M);
    for (int p = 0; p < PRODUCERS; ++p) {
        assert_int_equal(atomic_load(&c->ring[p].w), c->share[p]);
        assert_int_equal(atomic_load(&c->ring[p].r), c->share[p]);
    }
    assert_int_equal(rtipc_sem_delete(c->items), RTIPC_OK);
    assert_int_equal(rtipc_sem_delete(c->spaces), RTIPC_OK);
    stress_bitmap_free(&c->seen);
    free(c);
}

STRESS_MAIN(stress_banner, "stress_sem",
            cmocka_unit_test(sem_bounded_buffer))
