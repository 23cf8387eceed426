/* The ring buffer stress harness, instantiated per type by
 * stress_ringbuf_nosplit.c, stress_ringbuf_allowsplit.c and
 * stress_ringbuf_bytebuf.c (each one program and one CTest test).
 *
 * Several producers and consumers on one small ring buffer of one
 * type, pinned to both cores at different priorities, with random timeouts.
 * Every item carries (producer, sequence, length) and a payload of varying
 * length whose bytes derive from (producer, sequence), so a torn, shifted or
 * mixed-up item is caught. Consumers check per-producer order; the main
 * thread checks that every item arrived exactly once.
 *
 * - no-split: producers alternate copying sends and acquire/fill/complete,
 *   sometimes holding two acquisitions and completing them out of order;
 *   consumers sometimes hold two items and return them out of order.
 * - allow-split: consumers reassemble split items from their two parts and
 *   return the parts in either order.
 * - byte buffer: consumers take random-sized chunks; since one read is out
 *   at a time, the chunk holder feeds a shared parser that must see every
 *   producer's items exactly in sequence. */
#ifndef RTIPC_TESTS_RINGBUF_STRESS_H
#define RTIPC_TESTS_RINGBUF_STRESS_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtipc/ringbuf.h"
#include "stress_local.h"
#include "stress_main.h"
#include "test_support.h"

enum { PRODUCERS = 4, CONSUMERS = 3, HDR = 12, MAX_PAYLOAD = 40, MAX_MSG = HDR + MAX_PAYLOAD };
#define STOP_ID 0xffffffffu

/* ---- item contents ------------------------------------------------------- */
static uint32_t mix(uint32_t id, uint32_t seq)
{
    uint64_t x = ((uint64_t)id << 32 | seq) * 0x9e3779b97f4a7c15ull;
    x ^= x >> 29;
    return (uint32_t)x ^ (uint32_t)(x >> 32);
}

static uint32_t msg_len(uint32_t id, uint32_t seq) { return HDR + mix(id, seq) % (MAX_PAYLOAD + 1); }

static void make_msg(unsigned char *m, uint32_t id, uint32_t seq)
{
    uint32_t len = msg_len(id, seq), h = mix(id, seq);
    memcpy(m, &id, 4);
    memcpy(m + 4, &seq, 4);
    memcpy(m + 8, &len, 4);
    for (uint32_t i = HDR; i < len; ++i)
        m[i] = (unsigned char)((h >> ((i & 3) * 8)) + i);
}

/* ---- small harness: random numbers, errors, exactly-once bitmap ------------ */
typedef struct {
    uint64_t s;
} rng_t;

static uint64_t seed_base;

static void rng_init(rng_t *r, uint64_t stream)
{
    r->s = (seed_base ^ (stream * 0xd1342543de82ef95ull)) | 1;
}

static uint32_t below(rng_t *r, uint32_t n)
{
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return (uint32_t)((x * 0x2545f4914f6cdd1dull) >> 32) % n;
}

/* One sixth no wait, one sixth a finite 1..200 us, the rest forever: every
 * timeout path is taken hundreds of thousands of times per run, while waits
 * that end on a timer (costly context switches on a loaded machine) stay a
 * minority. */
static rtipc_timeout_t any_timeout(rng_t *r)
{
    uint32_t x = below(r, 6);
    if (x == 0)
        return RTIPC_NO_WAIT;
    if (x == 1)
        return rtipc_us(1 + below(r, 200));
    return RTIPC_FOREVER;
}

static bool retry(int rc, atomic_long *retries)
{
    if (rc == RTIPC_EWOULDBLOCK || rc == RTIPC_ETIMEDOUT) {
        atomic_fetch_add_explicit(retries, 1, memory_order_relaxed);
        return true;
    }
    return false;
}

/* Errors: sl_error() from tasks, checked by the main thread (stress_local.h). */

enum { IDLE, SENDING, ACQUIRING, COMPLETING, RECEIVING, RETURNING, FINISHED };

/* ---- shared state --------------------------------------------------------------- */
typedef struct ctx ctx_t;

typedef struct {
    ctx_t *c;
    uint32_t id;
    rng_t rng;
    atomic_long done;             /* items sent / received */
    atomic_int phase;             /* what it is doing now, for stall dumps */
    int64_t last_seq[PRODUCERS];  /* consumer: per-producer order */
} worker_t;

struct ctx {
    rtipc_ringbuf_type_t type;
    rtipc_ringbuf_t *rb;
    long total;
    long share[PRODUCERS], base[PRODUCERS];
    _Atomic uint64_t *seen; /* one bit per item */
    atomic_long received, retries;
    atomic_int producers_left, consumers_left;
    sl_errors_t errors;
    /* Byte buffer: the stream parser, touched only by the holder of the one
     * read that can be out (the ring buffer's lock orders the holders). */
    unsigned char part[MAX_MSG];
    uint32_t part_len;
    uint32_t next_seq[PRODUCERS];
    atomic_int parsed_all; /* every item parsed (or the stream is broken) */
    worker_t prod[PRODUCERS], cons[CONSUMERS];
};

/* Check one whole item; false for a stop item. */
static bool check_item(ctx_t *c, worker_t *w, const unsigned char *m, size_t n)
{
    uint32_t id, seq, len;
    if (n < HDR) {
        sl_error(&c->errors, "consumer %u: item of %zu bytes", w->id, n);
        return true;
    }
    memcpy(&id, m, 4);
    memcpy(&seq, m + 4, 4);
    memcpy(&len, m + 8, 4);
    if (id == STOP_ID)
        return false;
    unsigned char want[MAX_MSG];
    if (id >= PRODUCERS || seq >= c->share[id] || len != n || len != msg_len(id, seq)) {
        sl_error(&c->errors, "consumer %u: bad item (id %u, seq %u, len %u, size %zu)", w->id, id, seq, len, n);
        return true;
    }
    make_msg(want, id, seq);
    if (memcmp(want, m, n) != 0)
        sl_error(&c->errors, "consumer %u: corrupt payload in producer %u's seq %u", w->id, id, seq);
    if ((int64_t)seq <= w->last_seq[id])
        sl_error(&c->errors, "consumer %u: producer %u's seq %u after seq %lld", w->id, id, seq,
                 (long long)w->last_seq[id]);
    w->last_seq[id] = seq;
    long bit = c->base[id] + seq;
    uint64_t mask = 1ull << (bit & 63);
    if (atomic_fetch_or_explicit(&c->seen[bit >> 6], mask, memory_order_relaxed) & mask)
        sl_error(&c->errors, "consumer %u: producer %u's seq %u received twice", w->id, id, seq);
    atomic_fetch_add_explicit(&w->done, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&c->received, 1, memory_order_relaxed);
    return true;
}

/* ---- producers ---------------------------------------------------------------------- */
static void send_one(ctx_t *c, worker_t *w, const unsigned char *m, uint32_t len)
{
    int rc;
    atomic_store(&w->phase, SENDING);
    while ((rc = rtipc_ringbuf_send(c->rb, m, len, any_timeout(&w->rng))) != RTIPC_OK)
        if (!retry(rc, &c->retries)) {
            sl_error(&c->errors, "producer %u: send returned %d (%s)", w->id, rc, rtipc_strerror(rc));
            return;
        }
}

static void *acquire_one(ctx_t *c, worker_t *w, uint32_t len, rtipc_timeout_t first_try)
{
    void *p;
    int rc;
    rtipc_timeout_t t = first_try;
    atomic_store(&w->phase, ACQUIRING);
    while ((rc = rtipc_ringbuf_acquire(c->rb, &p, len, t)) != RTIPC_OK) {
        if (!retry(rc, &c->retries)) {
            sl_error(&c->errors, "producer %u: acquire returned %d (%s)", w->id, rc, rtipc_strerror(rc));
            return NULL;
        }
        t = any_timeout(&w->rng);
    }
    return p;
}

static void complete_one(ctx_t *c, worker_t *w, void *p)
{
    atomic_store(&w->phase, COMPLETING);
    int rc = rtipc_ringbuf_complete(c->rb, p);
    if (rc != RTIPC_OK)
        sl_error(&c->errors, "producer %u: complete returned %d", w->id, rc);
}

static void producer(void *arg)
{
    worker_t *w = arg;
    ctx_t *c = w->c;
    uint32_t n = (uint32_t)c->share[w->id];
    unsigned char m[MAX_MSG];
    for (uint32_t s = 0; s < n;) {
        bool zero_copy = c->type == RTIPC_RINGBUF_NOSPLIT && below(&w->rng, 2);
        if (!zero_copy) {
            make_msg(m, w->id, s);
            send_one(c, w, m, msg_len(w->id, s));
            atomic_store_explicit(&w->done, ++s, memory_order_relaxed);
            continue;
        }
        /* Acquire, and sometimes a second one without waiting (a task that
         * holds an incomplete item must not wait for space: the readers may
         * be stuck behind it). Complete them in random order. */
        void *a = acquire_one(c, w, msg_len(w->id, s), any_timeout(&w->rng));
        if (!a)
            return;
        void *b = NULL;
        if (s + 1 < n && below(&w->rng, 4) == 0 &&
            rtipc_ringbuf_acquire(c->rb, &b, msg_len(w->id, s + 1), RTIPC_NO_WAIT) != RTIPC_OK)
            b = NULL;
        make_msg(a, w->id, s);
        if (b)
            make_msg(b, w->id, s + 1);
        if (b && below(&w->rng, 2)) {
            complete_one(c, w, b);
            complete_one(c, w, a);
        } else {
            complete_one(c, w, a);
            if (b)
                complete_one(c, w, b);
        }
        s += b ? 2 : 1;
        atomic_store_explicit(&w->done, s, memory_order_relaxed);
    }
    atomic_store(&w->phase, FINISHED);
    atomic_fetch_sub(&c->producers_left, 1);
}

/* ---- item consumers (no-split, allow-split) ------------------------------------------------ */
typedef struct {
    void *part[2];
    size_t n[2];
} got_t;

static int receive_item(ctx_t *c, got_t *g, rtipc_timeout_t t)
{
    g->part[1] = NULL;
    g->n[1] = 0;
    if (c->type == RTIPC_RINGBUF_NOSPLIT)
        return rtipc_ringbuf_receive(c->rb, &g->part[0], &g->n[0], t);
    return rtipc_ringbuf_receive_split(c->rb, &g->part[0], &g->n[0], &g->part[1], &g->n[1], t);
}

/* Check a received item (reassembling two parts); false for a stop item. */
static bool check_got(ctx_t *c, worker_t *w, const got_t *g)
{
    unsigned char m[MAX_MSG];
    size_t n = g->n[0] + g->n[1];
    if (n > MAX_MSG) {
        sl_error(&c->errors, "consumer %u: item of %zu bytes", w->id, n);
        return true;
    }
    if (c->type == RTIPC_RINGBUF_NOSPLIT && g->part[1])
        sl_error(&c->errors, "consumer %u: a no-split item came in two parts", w->id);
    memcpy(m, g->part[0], g->n[0]);
    if (g->n[1])
        memcpy(m + g->n[0], g->part[1], g->n[1]);
    return check_item(c, w, m, n);
}

static void give_back(ctx_t *c, worker_t *w, got_t *g)
{
    int first = g->part[1] && below(&w->rng, 2) ? 1 : 0; /* split parts in either order */
    for (int k = 0; k < 2; ++k) {
        void *p = g->part[first ^ k];
        if (p && rtipc_ringbuf_return(c->rb, p) != RTIPC_OK)
            sl_error(&c->errors, "consumer %u: return refused", w->id);
    }
}

static void item_consumer(void *arg)
{
    worker_t *w = arg;
    ctx_t *c = w->c;
    for (int p = 0; p < PRODUCERS; ++p)
        w->last_seq[p] = -1;
    for (;;) {
        got_t g[2];
        atomic_store(&w->phase, RECEIVING);
        int rc = receive_item(c, &g[0], any_timeout(&w->rng));
        if (retry(rc, &c->retries))
            continue;
        if (rc != RTIPC_OK) {
            sl_error(&c->errors, "consumer %u: receive returned %d (%s)", w->id, rc, rtipc_strerror(rc));
            break;
        }
        bool more = check_got(c, w, &g[0]);
        /* Sometimes hold a second item (never waiting while holding one) and
         * give both back in random order. */
        int held = 1;
        if (more && below(&w->rng, 3) == 0 && receive_item(c, &g[1], RTIPC_NO_WAIT) == RTIPC_OK) {
            held = 2;
            more = check_got(c, w, &g[1]);
        }
        atomic_store(&w->phase, RETURNING);
        int first = held == 2 && below(&w->rng, 2) ? 1 : 0;
        give_back(c, w, &g[first]);
        if (held == 2)
            give_back(c, w, &g[1 - first]);
        if (!more)
            break; /* a stop item */
    }
    atomic_store(&w->phase, FINISHED);
    atomic_fetch_sub(&c->consumers_left, 1);
}

/* ---- byte-stream consumers ------------------------------------------------------------------ */
/* Feed a chunk to the parser. Runs only while the caller holds the read. */
static void parse(ctx_t *c, worker_t *w, const unsigned char *p, size_t n)
{
    while (!atomic_load_explicit(&c->parsed_all, memory_order_relaxed)) {
        uint32_t need = HDR; /* until the header is in, then its length */
        if (c->part_len >= HDR) {
            memcpy(&need, c->part + 8, 4);
            if (need < HDR || need > MAX_MSG) {
                sl_error(&c->errors, "stream: bad length %u (stream broken)", need);
                atomic_store(&c->parsed_all, 1);
                return;
            }
            if (c->part_len == need) {
                uint32_t id, seq;
                memcpy(&id, c->part, 4);
                memcpy(&seq, c->part + 4, 4);
                if (id < PRODUCERS && seq != c->next_seq[id])
                    sl_error(&c->errors,
                             "stream: producer %u's seq %u where %u was due (lost, doubled or reordered)", id, seq,
                             c->next_seq[id]);
                check_item(c, w, c->part, c->part_len);
                if (id < PRODUCERS)
                    c->next_seq[id] = seq + 1;
                c->part_len = 0;
                if (atomic_load_explicit(&c->received, memory_order_relaxed) == c->total)
                    atomic_store(&c->parsed_all, 1);
                continue;
            }
        }
        if (n == 0)
            return;
        uint32_t take = need - c->part_len;
        if (take > n)
            take = (uint32_t)n;
        memcpy(c->part + c->part_len, p, take);
        c->part_len += take;
        p += take;
        n -= take;
    }
}

static void byte_consumer(void *arg)
{
    worker_t *w = arg;
    ctx_t *c = w->c;
    for (int p = 0; p < PRODUCERS; ++p)
        w->last_seq[p] = -1;
    while (!atomic_load(&c->parsed_all)) {
        void *p;
        size_t n;
        atomic_store(&w->phase, RECEIVING);
        int rc = rtipc_ringbuf_receive_up_to(c->rb, &p, &n, 1 + below(&w->rng, 2 * MAX_MSG),
                                             any_timeout(&w->rng));
        if (retry(rc, &c->retries))
            continue;
        if (rc != RTIPC_OK) {
            sl_error(&c->errors, "consumer %u: receive returned %d (%s)", w->id, rc, rtipc_strerror(rc));
            break;
        }
        parse(c, w, p, n);
        atomic_store(&w->phase, RETURNING);
        if (rtipc_ringbuf_return(c->rb, p) != RTIPC_OK)
            sl_error(&c->errors, "consumer %u: return refused", w->id);
    }
    atomic_store(&w->phase, FINISHED);
    atomic_fetch_sub(&c->consumers_left, 1);
}

/* ---- driver ------------------------------------------------------------------------------------ */
static const char *const phase_name[] = {"idle", "sending", "acquiring", "completing", "receiving", "returning",
                                         "finished"};

static void dump(ctx_t *c)
{
    fprintf(stderr, "  ring buffer: free %d, waiting %d, used %d; received %ld of %ld\n",
            rtipc_ringbuf_free_size(c->rb), rtipc_ringbuf_items_waiting(c->rb), rtipc_ringbuf_bytes_used(c->rb),
            atomic_load(&c->received), c->total);
    for (int p = 0; p < PRODUCERS; ++p)
        fprintf(stderr, "  producer %d: sent %ld of %ld, %s\n", p, atomic_load(&c->prod[p].done), c->share[p],
                phase_name[atomic_load(&c->prod[p].phase)]);
    for (int k = 0; k < CONSUMERS; ++k)
        fprintf(stderr, "  consumer %d: received %ld, %s\n", k, atomic_load(&c->cons[k].done),
                phase_name[atomic_load(&c->cons[k].phase)]);
    fprintf(stderr, "  (a task neither waiting nor progressing may be starved by other processes'\n"
                    "   real-time threads on its core)\n");
}

static double now_s(void) { return (double)rtipc_time_ns() / 1e9; }

static double stall_limit(void)
{
    const char *s = getenv("RTIPC_STRESS_STALL_S");
    double v = s ? atof(s) : 0;
    return v > 0 ? v : 30.0;
}

/* Wait until *left is 0; fail if `received` stops moving for the stall
 * limit (a lost wake-up, lost item or deadlock). */
static void wait_for(ctx_t *c, atomic_int *left, const char *what, void (*poke)(ctx_t *))
{
    long last = -1;
    double since = now_s();
    while (atomic_load(left) > 0) {
        if (poke)
            poke(c);
        sleep_ms(2);
        long now = atomic_load(&c->received);
        if (now != last) {
            last = now;
            since = now_s();
        } else if (now_s() - since > stall_limit()) {
            dump(c);
            fail_msg("stall waiting for %s: no progress for %.0f s", what, stall_limit());
        }
    }
}

/* Stop items for item consumers: one each, behind every real item. */
static void send_stops(ctx_t *c)
{
    unsigned char m[HDR] = {0};
    uint32_t id = STOP_ID, len = HDR;
    memcpy(m, &id, 4);
    memcpy(m + 8, &len, 4);
    for (int k = 0; k < CONSUMERS; ++k)
        while (rtipc_ringbuf_send(c->rb, m, HDR, rtipc_ms(10)) != RTIPC_OK && atomic_load(&c->consumers_left) > 0) {
        }
}

/* Byte consumers blocked with RTIPC_FOREVER once everything is parsed: a
 * byte each wakes them to see that the run is over. */
static void poke_bytes(ctx_t *c)
{
    if (atomic_load(&c->parsed_all))
        (void)rtipc_ringbuf_send(c->rb, "!", 1, RTIPC_NO_WAIT);
}

static void run(rtipc_ringbuf_type_t type, size_t size, const char *name)
{
    /* Heap, and leaked if the test fails: tasks may still be running then. */
    ctx_t *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->type = type;
    c->total = stress_count(1000000);
    long base = 0;
    for (int p = 0; p < PRODUCERS; ++p) {
        c->share[p] = c->total / PRODUCERS + (p < c->total % PRODUCERS ? 1 : 0);
        c->base[p] = base;
        base += c->share[p];
    }
    c->seen = calloc((size_t)(c->total + 63) / 64, sizeof *c->seen);
    assert_non_null(c->seen);
    atomic_store(&c->producers_left, PRODUCERS);
    atomic_store(&c->consumers_left, CONSUMERS);
    assert_int_equal(rtipc_ringbuf_create(size, type, &c->rb), RTIPC_OK);

    rtipc_task_t *tasks[PRODUCERS + CONSUMERS];
    double t0 = now_s();
    for (int k = 0; k < CONSUMERS; ++k) {
        worker_t *w = &c->cons[k];
        w->c = c;
        w->id = (uint32_t)k;
        rng_init(&w->rng, 100 + (uint64_t)k);
        tasks[PRODUCERS + k] = start_task("rbcons", (unsigned)(3 + 2 * k), test_core(k % 2),
                                          type == RTIPC_RINGBUF_BYTEBUF ? byte_consumer : item_consumer, w);
    }
    for (int p = 0; p < PRODUCERS; ++p) {
        worker_t *w = &c->prod[p];
        w->c = c;
        w->id = (uint32_t)p;
        rng_init(&w->rng, (uint64_t)p);
        tasks[p] = start_task("rbprod", (unsigned)(2 + 2 * p), test_core((p + 1) % 2), producer, w);
    }
    wait_for(c, &c->producers_left, "producers", NULL);
    if (type == RTIPC_RINGBUF_BYTEBUF)
        wait_for(c, &c->consumers_left, "consumers", poke_bytes);
    else {
        send_stops(c);
        wait_for(c, &c->consumers_left, "consumers", NULL);
    }
    double secs = now_s() - t0;
    for (int i = 0; i < PRODUCERS + CONSUMERS; ++i)
        join_task(tasks[i]);

    printf("stress ringbuf %s: %ld items in %.2f s (%.0f items/s), %ld retries, size %zu\n", name, c->total, secs,
           (double)c->total / secs, atomic_load(&c->retries), size);
    fflush(stdout);
    sl_assert_no_errors(&c->errors);
    long missing = 0, first = -1;
    for (long i = 0; i < c->total; ++i)
        if (!(atomic_load_explicit(&c->seen[i >> 6], memory_order_relaxed) & (1ull << (i & 63))))
            if (missing++ == 0)
                first = i;
    if (missing)
        fail_msg("%ld item(s) lost; first missing is global index %ld", missing, first);
    assert_int_equal(atomic_load(&c->received), c->total);
    long sum = 0;
    for (int k = 0; k < CONSUMERS; ++k)
        sum += atomic_load(&c->cons[k].done);
    assert_int_equal(sum, c->total);
    if (type != RTIPC_RINGBUF_BYTEBUF) {
        assert_int_equal(rtipc_ringbuf_items_waiting(c->rb), 0);
        assert_int_equal(rtipc_ringbuf_bytes_used(c->rb), 0);
    }
    assert_int_equal(rtipc_ringbuf_delete(c->rb), RTIPC_OK);
    free((void *)c->seen);
    free(c);
}

/* Seed the random choices (RTIPC_STRESS_SEED replays them) and say how the
 * run is set up. Call first in main. */
static void stress_banner(const char *program)
{
    const char *s = getenv("RTIPC_STRESS_SEED");
    seed_base = s && *s ? strtoull(s, NULL, 0) : (uint64_t)rtipc_time_ns();
    printf("%s: %s, %d core(s), seed %" PRIu64 " (RTIPC_STRESS_SEED replays the random choices)\n", program,
           rtipc_sched_policy_describe(), rtipc_core_count(), seed_base);
    fflush(stdout);
}

/* One program per ring buffer type: one cmocka test, `test`, that runs the
 * harness on a buffer of `size` bytes. */
#define RINGBUF_STRESS_PROGRAM(program, test, type, size, label)                                             \
    static void test(void **state)                                                                           \
    {                                                                                                        \
        (void)state;                                                                                         \
        run(type, size, label);                                                                              \
    }                                                                                                        \
    STRESS_MAIN(stress_banner, program, cmocka_unit_test(test))

#endif
