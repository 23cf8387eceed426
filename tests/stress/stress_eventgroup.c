/* Stress: one event group shared by setters, waiters, a rendezvous and noise,
 * on both cores, with a protocol that turns a lost wake-up into a stall and a
 * duplicated or early wake-up into an error.
 *
 * Protocol. Each waiter owns two bits (bits 0..15 for 8 waiters) and belongs
 * to one of two setters; half wait for any of their bits, half for all, every
 * wait with clear-on-exit. A waiter, per round: waits (mostly forever,
 * sometimes with a short timeout and retry), then checks that the value met
 * its condition, that the setter has issued exactly this round to it (a
 * second wake-up for one set would run ahead), and that its bits are clear
 * (its own clear-on-exit; nobody sets them again before its ack), then sends
 * its index to its setter's ack queue. A setter issues a waiter's next round
 * (publishes the round number, then sets the waiter's bits: all-waiters get
 * both bits, any-waiters one or both) only after that waiter's ack. It
 * collects every ack that is waiting and issues all those rounds together:
 * in one set_bits call that wakes several waiters, one call per waiter, or
 * through set_bits_from_isr. A lost wake-up leaves a setter without an ack
 * forever: the stall watchdog fails the test.
 * Meanwhile a noise task sets and clears bits 16..19 and a noise waiter waits
 * on them, so every set walks waiters it must not wake; two tasks rendezvous
 * with sync on bits 20..21.
 *
 * Why 10^5 rounds per waiter (RTIPC_STRESS_SCALE scales it): 8 waiters x
 * 10^5 = 8 x 10^5 wake-ups, the same order as the 10^6 messages of the other
 * stress tests, in seconds of Release time and well inside the sanitizer
 * budget (each round costs two cross-core wake-ups, which dominate). Each
 * round reopens the race between a set and the waiter's queueing, so a
 * wake-up lost once in 10^5 rounds shows with probability
 * 1 - (1 - 10^-5)^(8 x 10^5), above 99.9 %. */
#include "stress_local.h"

#include "rtipc/eventgroup.h"
#include "rtipc/queue.h"

enum { SETTERS = 2, PER_SETTER = 4, WAITERS = SETTERS * PER_SETTER, SYNCERS = 2 };
#define NOISE_BITS 0x0f0000u
#define SYNC_BITS 0x300000u

typedef struct ctx ctx_t;

typedef struct {
    ctx_t *ctx;
    int index;
    rtipc_queue_t *acks;           /* waiter indices, one per completed round */
    int waiters[PER_SETTER];
    atomic_long issued[PER_SETTER]; /* rounds issued to each of its waiters */
    atomic_long acked;
    sl_rng_t rng;
    uint64_t sets_single, sets_each, sets_isr, batched;
} setter_t;

typedef struct {
    ctx_t *ctx;
    int index;
    setter_t *setter;
    int slot; /* its index among its setter's waiters */
    uint32_t mine;
    bool all;
    sl_rng_t rng;
    sl_counts_t counts;
    atomic_long rounds;
} waiter_t;

typedef struct {
    ctx_t *ctx;
    uint32_t bit;
    long rounds;
    atomic_long done;
} syncer_t;

struct ctx {
    rtipc_eventgroup_t *eg;
    long rounds;
    setter_t setter[SETTERS];
    waiter_t waiter[WAITERS];
    syncer_t syncer[SYNCERS];
    sl_errors_t errors;
    atomic_long progress;
    atomic_int finished;
    atomic_int stop;
    uint64_t noise_sets, noise_wakes;
};

/* The bits a waiter's next round sets: both for an all-waiter, one or both
 * for an any-waiter. */
static uint32_t round_bits(const waiter_t *w, sl_rng_t *rng)
{
    uint32_t low = w->mine & (0u - w->mine);
    uint32_t pick = w->all ? 3 : 1 + sl_below(rng, 3);
    return ((pick & 1) ? low : 0) | ((pick & 2) ? w->mine & ~low : 0);
}

/* Issue the next round to the waiters in slots[0..n-1]. */
static int issue(setter_t *s, const int *slots, int n)
{
    ctx_t *c = s->ctx;
    uint32_t bits[PER_SETTER], all_bits = 0;
    for (int k = 0; k < n; ++k) {
        waiter_t *w = &c->waiter[s->waiters[slots[k]]];
        /* Published before the set; the waiter reads it after its wait, and
         * the event group's lock orders the two. */
        atomic_fetch_add_explicit(&s->issued[slots[k]], 1, memory_order_relaxed);
        bits[k] = round_bits(w, &s->rng);
        all_bits |= bits[k];
    }
    int rc = RTIPC_OK;
    switch (sl_below(&s->rng, 4)) {
    case 0:
        ++s->sets_each;
        for (int k = 0; k < n && rc == RTIPC_OK; ++k)
            rc = rtipc_eventgroup_set_bits(c->eg, bits[k], NULL);
        break;
    case 1:
        ++s->sets_isr;
        rc = rtipc_eventgroup_set_bits_from_isr(c->eg, all_bits, NULL, NULL);
        break;
    default:
        ++s->sets_single;
        rc = rtipc_eventgroup_set_bits(c->eg, all_bits, NULL);
        break;
    }
    if (n > 1)
        ++s->batched;
    return rc;
}

static void setter_task(void *arg)
{
    setter_t *s = arg;
    ctx_t *c = s->ctx;
    int slots[PER_SETTER];
    for (int k = 0; k < PER_SETTER; ++k)
        slots[k] = k;
    int rc = issue(s, slots, PER_SETTER);
    long want = c->rounds * PER_SETTER;
    while (rc == RTIPC_OK && atomic_load_explicit(&s->acked, memory_order_relaxed) < want) {
        /* Wait for one ack, then take every other one already there. */
        int n = 0, index;
        rc = rtipc_queue_receive(s->acks, &index, RTIPC_FOREVER);
        while (rc == RTIPC_OK) {
            int slot = c->waiter[index].slot;
            atomic_fetch_add_explicit(&s->acked, 1, memory_order_relaxed);
            if (atomic_load_explicit(&s->issued[slot], memory_order_relaxed) < c->rounds)
                slots[n++] = slot;
            rc = rtipc_queue_receive(s->acks, &index, RTIPC_NO_WAIT);
        }
        if (rc != RTIPC_EWOULDBLOCK) {
            sl_error(&c->errors, "setter %d: ack receive returned %d", s->index, rc);
            break;
        }
        rc = n ? issue(s, slots, n) : RTIPC_OK;
        if (rc != RTIPC_OK)
            sl_error(&c->errors, "setter %d: set returned %d", s->index, rc);
    }
    atomic_fetch_add(&c->finished, 1);
}

static void waiter_task(void *arg)
{
    waiter_t *w = arg;
    ctx_t *c = w->ctx;
    for (long r = 0; r < c->rounds;) {
        uint32_t v = 0;
        ++w->counts.calls;
        rtipc_timeout_t t = sl_below(&w->rng, 8) == 0 ? sl_timeout(&w->rng, 1, 3, 0) : RTIPC_FOREVER;
        int rc = rtipc_eventgroup_wait_bits(c->eg, w->mine, true, w->all, &v, t);
        if (rc != RTIPC_OK) {
            if (sl_retry(rc, &w->counts))
                continue;
            sl_error(&c->errors, "waiter %d: wait returned %d (%s)", w->index, rc, rtipc_strerror(rc));
            break;
        }
        uint32_t got = v & w->mine;
        if (w->all ? got != w->mine : got == 0)
            sl_error(&c->errors, "waiter %d: woken with %#x, condition %s of %#x", w->index, v, w->all ? "all" : "any",
                     w->mine);
        long issued = atomic_load_explicit(&w->setter->issued[w->slot], memory_order_relaxed);
        if (issued != r + 1)
            sl_error(&c->errors, "waiter %d: completed round %ld but %ld were issued to it", w->index, r + 1,
                     issued);
        int now = rtipc_eventgroup_get_bits(c->eg);
        if (now < 0 || ((uint32_t)now & w->mine))
            sl_error(&c->errors, "waiter %d: its bits are %#x after clear-on-exit", w->index, (uint32_t)now & w->mine);
        ++r;
        atomic_store_explicit(&w->rounds, r, memory_order_relaxed);
        rc = rtipc_queue_send(w->setter->acks, &w->index, RTIPC_NO_WAIT); /* room for every waiter */
        if (rc != RTIPC_OK)
            sl_error(&c->errors, "waiter %d: ack give returned %d (%s)", w->index, rc, rtipc_strerror(rc));
        atomic_fetch_add_explicit(&c->progress, 1, memory_order_relaxed);
    }
    atomic_fetch_add(&c->finished, 1);
}

static void syncer_task(void *arg)
{
    syncer_t *s = arg;
    ctx_t *c = s->ctx;
    for (long r = 0; r < s->rounds; ++r) {
        uint32_t v = 0;
        int rc = rtipc_eventgroup_sync(c->eg, s->bit, SYNC_BITS, &v, RTIPC_FOREVER);
        if (rc != RTIPC_OK || (v & SYNC_BITS) != SYNC_BITS) {
            sl_error(&c->errors, "syncer %#x: round %ld returned %d with %#x", s->bit, r, rc, v);
            break;
        }
        atomic_store_explicit(&s->done, r + 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&c->progress, 1, memory_order_relaxed);
    }
    atomic_fetch_add(&c->finished, 1);
}

/* Sets and clears bits no waiter of the protocol uses. */
static void noise_task(void *arg)
{
    ctx_t *c = arg;
    sl_rng_t rng;
    sl_rng_init(&rng, 1000);
    while (!atomic_load(&c->stop)) {
        uint32_t b = (1u << (16 + sl_below(&rng, 4)));
        int rc = sl_below(&rng, 2) ? rtipc_eventgroup_set_bits(c->eg, b, NULL) : rtipc_eventgroup_clear_bits(c->eg, b, NULL);
        if (rc != RTIPC_OK)
            sl_error(&c->errors, "noise: set/clear returned %d", rc);
        ++c->noise_sets;
        rtipc_task_delay(rtipc_us(50));
    }
}

static void noise_waiter_task(void *arg)
{
    ctx_t *c = arg;
    while (!atomic_load(&c->stop)) {
        uint32_t v;
        int rc = rtipc_eventgroup_wait_bits(c->eg, NOISE_BITS, true, false, &v, rtipc_ms(5));
        if (rc == RTIPC_OK) {
            ++c->noise_wakes;
            if ((v & NOISE_BITS) == 0)
                sl_error(&c->errors, "noise waiter: woken with %#x", v);
        } else if (rc != RTIPC_ETIMEDOUT) {
            sl_error(&c->errors, "noise waiter: wait returned %d", rc);
        }
    }
}

static void dump(void *arg)
{
    ctx_t *c = arg;
    fprintf(stderr, "  bits %#x\n", (unsigned)rtipc_eventgroup_get_bits(c->eg));
    for (int i = 0; i < SETTERS; ++i)
        fprintf(stderr, "  setter %d: %ld of %ld acks, %d queued\n", i, atomic_load(&c->setter[i].acked),
                c->rounds * PER_SETTER, rtipc_queue_messages_waiting(c->setter[i].acks));
    for (int i = 0; i < WAITERS; ++i)
        fprintf(stderr, "  waiter %d (%s of %#x): %ld rounds\n", i, c->waiter[i].all ? "all" : "any",
                c->waiter[i].mine, atomic_load(&c->waiter[i].rounds));
    for (int i = 0; i < SYNCERS; ++i)
        fprintf(stderr, "  syncer %d: %ld of %ld\n", i, atomic_load(&c->syncer[i].done), c->syncer[i].rounds);
}

static void every_set_wakes_each_satisfied_waiter_exactly_once(void **state)
{
    (void)state;
    ctx_t *c = calloc(1, sizeof *c); /* leaked if a stall fails the test: tasks still use it */
    assert_non_null(c);
    c->rounds = stress_count(100000);
    assert_int_equal(rtipc_eventgroup_create(&c->eg), RTIPC_OK);
    for (int s = 0; s < SETTERS; ++s) {
        setter_t *st = &c->setter[s];
        st->ctx = c;
        st->index = s;
        sl_rng_init(&st->rng, (uint64_t)s);
        assert_int_equal(rtipc_queue_create(PER_SETTER, sizeof(int), &st->acks), RTIPC_OK);
    }
    for (int i = 0; i < WAITERS; ++i) {
        waiter_t *w = &c->waiter[i];
        w->ctx = c;
        w->index = i;
        w->setter = &c->setter[i % SETTERS];
        w->slot = i / SETTERS;
        w->setter->waiters[w->slot] = i;
        w->mine = 3u << (2 * i);
        w->all = (i / SETTERS) % 2 == 1;
        sl_rng_init(&w->rng, 100 + (uint64_t)i);
    }
    for (int k = 0; k < SYNCERS; ++k)
        c->syncer[k] = (syncer_t){.ctx = c, .bit = 0x100000u << k, .rounds = c->rounds / 5};

    rtipc_task_t *tasks[SETTERS + WAITERS + SYNCERS + 2];
    int n = 0;
    double t0 = sl_now();
    /* Setter s runs on core s. Waiter i belongs to setter i % 2 and runs on
     * its setter's core when (i / 2) is even, on the other core when it is
     * odd: each setter has two local and two remote waiters. Local waiters
     * straddle the setters' priority; remote ones outrank everything on
     * their core, so their rounds cost two cross-core wake-ups and no
     * queueing behind core-mates (those wake-ups dominate the run time). */
    for (int i = 0; i < WAITERS; ++i) {
        bool remote = (i / 2) % 2 == 1;
        unsigned prio = remote ? 8 + (unsigned)(i % 2) : 5 + (unsigned)(i / 4);
        tasks[n++] = start_task("egw", prio, test_core((i % 2) ^ remote), waiter_task, &c->waiter[i]);
    }
    for (int k = 0; k < SYNCERS; ++k)
        tasks[n++] = start_task("egsync", 5, test_core(k), syncer_task, &c->syncer[k]);
    tasks[n++] = start_task("egnoise", 2, test_core(0), noise_task, c);
    tasks[n++] = start_task("egnoisew", 4, test_core(1), noise_waiter_task, c);
    for (int s = 0; s < SETTERS; ++s)
        tasks[n++] = start_task("egset", 6, test_core(s), setter_task, &c->setter[s]);
    sl_watch(&c->finished, SETTERS + WAITERS + SYNCERS, &c->progress, "event group protocol", dump, c);
    double secs = sl_now() - t0;
    atomic_store(&c->stop, 1);
    for (int i = 0; i < n; ++i)
        join_task(tasks[i]);

    sl_counts_t w = {0};
    for (int i = 0; i < WAITERS; ++i) {
        w.calls += c->waiter[i].counts.calls;
        w.wouldblock += c->waiter[i].counts.wouldblock;
        w.timedout += c->waiter[i].counts.timedout;
    }
    uint64_t single = 0, each = 0, isr = 0, batched = 0;
    for (int s = 0; s < SETTERS; ++s) {
        single += c->setter[s].sets_single, each += c->setter[s].sets_each, isr += c->setter[s].sets_isr;
        batched += c->setter[s].batched;
    }
    printf("stress eventgroup: %d waiters x %ld rounds = %ld wake-ups in %.2f s (%.0f/s); issues: %llu one call, "
           "%llu one call per waiter, %llu from_isr (%llu for several waiters at once); waits %llu (%llu "
           "would-block, %llu timed-out); %ld sync rendezvous; noise %llu sets/clears, %llu noise wake-ups\n",
           WAITERS, c->rounds, WAITERS * c->rounds, secs, WAITERS * c->rounds / secs, (unsigned long long)single,
           (unsigned long long)each, (unsigned long long)isr, (unsigned long long)batched, (unsigned long long)w.calls,
           (unsigned long long)w.wouldblock, (unsigned long long)w.timedout, c->syncer[0].rounds,
           (unsigned long long)c->noise_sets, (unsigned long long)c->noise_wakes);
    fflush(stdout);

    sl_assert_no_errors(&c->errors);
    for (int i = 0; i < WAITERS; ++i)
        assert_int_equal(atomic_load(&c->waiter[i].rounds), c->rounds);
    for (int k = 0; k < SYNCERS; ++k)
        assert_int_equal(atomic_load(&c->syncer[k].done), c->syncer[k].rounds);
    for (int s = 0; s < SETTERS; ++s) {
        assert_int_equal(atomic_load(&c->setter[s].acked), c->rounds * PER_SETTER);
        for (int k = 0; k < PER_SETTER; ++k)
            assert_int_equal(atomic_load(&c->setter[s].issued[k]), c->rounds);
        assert_int_equal(rtipc_queue_messages_waiting(c->setter[s].acks), 0);
        assert_int_equal(rtipc_queue_delete(c->setter[s].acks), RTIPC_OK);
    }
    /* Every protocol and sync bit was consumed by a clear-on-exit. */
    assert_int_equal((uint32_t)rtipc_eventgroup_get_bits(c->eg) & ~NOISE_BITS, 0);
    assert_int_equal(rtipc_eventgroup_delete(c->eg), RTIPC_OK);
    free(c);
}

STRESS_MAIN(sl_banner, "stress_eventgroup",
            cmocka_unit_test(every_set_wakes_each_satisfied_waiter_exactly_once))
