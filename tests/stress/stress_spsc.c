#define _GNU_SOURCE
/* Stress: the SPSC ring under a random mix of every call.
 *
 * 1. A producer task on core 0 and a consumer task on core 1 exchange
 *    >= 10^6 sequence-numbered items through a 64-slot ring, each side
 *    choosing at random between the single try calls, the bulk calls (1..16
 *    items), the _from_isr calls from task context and the blocking calls
 *    with random timeouts (no wait, 0..200 us, forever); the consumer also
 *    peeks. Every item carries (sequence, check word).
 * 2. A periodic interrupt on core 0 produces (push_from_isr and
 *    push_bulk_from_isr, yielding when told to most of the time) and a
 *    consumer task on the same core takes the items with blocking pops: the
 *    park handshake against interrupt-context producers, including wake-ups
 *    deferred to the next tick.
 *
 * The consumer checks that item i is the i-th item: a lost, duplicated or
 * reordered item (or a torn copy) is an error. Random choices come from a
 * seed printed at the start (RTIPC_STRESS_SEED replays them; the
 * interleaving cannot be replayed). Tasks record errors; the main thread
 * asserts after joining. A stall (no progress for 30 s) fails the test: it
 * is how a lost wake-up shows. */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../src/common/spsc_internal.h" /* stall diagnostics only */
#include "rtipc/spsc.h"
#include "test_support.h"

#define BULK_MAX 16
#define STRESS_PROGRAM "stress_spsc"
#include "stress_common.h"

/* ---- items ------------------------------------------------------------------ */
typedef struct {
    uint64_t seq;
    uint64_t check;
} item_t;

static uint64_t check_of(uint64_t seq)
{
    uint64_t x = seq * 0x9e3779b97f4a7c15ull;
    return x ^ (x >> 29) ^ 0x5a5a5a5a5a5a5a5aull;
}

static item_t mk(uint64_t seq) { return (item_t){seq, check_of(seq)}; }

/* ---- shared state -------------------------------------------------------------- */
typedef struct {
    timeout_tally_t waits;               /* blocking calls, by timeout kind */
    uint64_t wouldblock, timedout;       /* "not now" results */
    uint64_t single, bulk, isr, blocking, peeks; /* calls that moved items */
} counts_t;

typedef struct {
    rtipc_spsc_t *r;
    long total;
    atomic_long produced, consumed; /* progress, read by the main thread */
    atomic_long errors;
    char first_error[200];
    atomic_int claimed;
    counts_t prod, cons;
    uint64_t irq_runs;
    atomic_int irq_done;
    atomic_int consumer_tid, producer_tid;
    atomic_int consumer_in_pop;
    rtipc_task_t *consumer_task;
} ctx_t;

static void error(ctx_t *c, const char *what, uint64_t want, uint64_t got)
{
    if (atomic_fetch_add(&c->errors, 1) == 0 && atomic_exchange(&c->claimed, 1) == 0)
        snprintf(c->first_error, sizeof c->first_error, "%s: expected %" PRIu64 ", got %" PRIu64, what, want, got);
}

/* Sort a call's failure: "not now" (would block, timed out) is counted and
 * the loop goes on; anything else is recorded as an error and ends the task
 * (false). */
static bool not_now(ctx_t *c, counts_t *k, int rc, const char *what)
{
    if (rc == RTIPC_EWOULDBLOCK) {
        k->wouldblock++;
    } else if (rc == RTIPC_ETIMEDOUT) {
        k->timedout++;
    } else {
        error(c, what, 0, (uint64_t)(int64_t)rc);
        return false;
    }
    return true;
}

/* ---- the consumer's check ------------------------------------------------------ */
typedef struct {
    ctx_t *c;
    uint64_t next;  /* sequence number expected next */
    uint64_t total; /* items to consume */
    counts_t *k;    /* the consumer's tallies */
    rng_t g;        /* the consumer's random choices */
} checker_t;

/* The start of either consumer task: publish its thread id (for stall
 * reports) and set up its checker on random stream `stream`. */
static checker_t consumer_begin(ctx_t *c, uint64_t stream)
{
    atomic_store(&c->consumer_tid, (int)syscall(SYS_gettid));
    return (checker_t){c, 0, (uint64_t)c->total, &c->cons, rng_for(stream)};
}

static void check_item(checker_t *ck, item_t it)
{
    if (it.check != check_of(it.seq))
        error(ck->c, "torn or corrupt item (check word) at seq", ck->next, it.seq);
    else if (it.seq != ck->next)
        error(ck->c, it.seq > ck->next ? "item lost: next seq" : "item duplicated or reordered: next seq", ck->next,
              it.seq);
    ck->next = it.seq + 1; /* resynchronise, so one fault counts once */
}

/* The end of a consumer's round: sort a failed pop (false: stop the task)
 * and publish progress. */
static bool consumer_round_end(checker_t *ck, int rc)
{
    if (rc != RTIPC_OK && !not_now(ck->c, ck->k, rc, "pop result (0 = OK)"))
        return false;
    atomic_store_explicit(&ck->c->consumed, (long)ck->next, memory_order_relaxed);
    return true;
}

/* ======================================================================== */
/* 1. task producer, task consumer                                           */
/* ======================================================================== */
static void producer_task(void *arg)
{
    ctx_t *c = arg;
    atomic_store(&c->producer_tid, (int)syscall(SYS_gettid));
    rng_t g = rng_for(1);
    counts_t *k = &c->prod;
    uint64_t next = 0, total = (uint64_t)c->total;
    item_t batch[BULK_MAX];
    while (next < total) {
        uint32_t choice = below(&g, 10);
        int rc;
        if (choice < 3) { /* single try */
            item_t it = mk(next);
            rc = rtipc_spsc_try_push(c->r, &it);
            if (rc == RTIPC_OK) {
                next++;
                k->single++;
            }
        } else if (choice < 6) { /* bulk */
            uint32_t n = 1 + below(&g, BULK_MAX);
            if (n > total - next)
                n = (uint32_t)(total - next);
            for (uint32_t i = 0; i < n; ++i)
                batch[i] = mk(next + i);
            rc = rtipc_spsc_push_bulk(c->r, batch, n);
            if (rc < 0 || rc > (int)n) {
                error(c, "push_bulk result in range 0..n, n", n, (uint64_t)(int64_t)rc);
                return;
            }
            next += (uint64_t)rc;
            if (rc > 0)
                k->bulk++;
            rc = rc > 0 ? RTIPC_OK : RTIPC_EWOULDBLOCK;
        } else if (choice < 7) { /* interrupt-safe call from a task */
            item_t it = mk(next);
            bool woken = false;
            rc = rtipc_spsc_push_from_isr(c->r, &it, &woken);
            if (rc == RTIPC_OK) {
                next++;
                k->isr++;
            }
        } else { /* blocking, random timeout */
            item_t it = mk(next);
            rc = rtipc_spsc_push(c->r, &it, random_timeout(&g, &k->waits));
            if (rc == RTIPC_OK) {
                next++;
                k->blocking++;
            }
        }
        if (rc != RTIPC_OK && !not_now(c, k, rc, "push result (0 = OK)"))
            return;
        atomic_store_explicit(&c->produced, (long)next, memory_order_relaxed);
    }
}

static void consumer_task(void *arg)
{
    ctx_t *c = arg;
    checker_t ck = consumer_begin(c, 2);
    item_t batch[BULK_MAX];
    while (ck.next < ck.total) {
        uint32_t choice = below(&ck.g, 10);
        int rc;
        item_t it;
        if (choice < 3) {
            rc = rtipc_spsc_try_pop(c->r, &it);
            if (rc == RTIPC_OK) {
                check_item(&ck, it);
                ck.k->single++;
            }
        } else if (choice < 6) {
            uint32_t n = 1 + below(&ck.g, BULK_MAX);
            rc = rtipc_spsc_pop_bulk(c->r, batch, n);
            if (rc < 0 || rc > (int)n) {
                error(c, "pop_bulk result in range 0..n, n", n, (uint64_t)(int64_t)rc);
                return;
            }
            for (int i = 0; i < rc; ++i)
                check_item(&ck, batch[i]);
            if (rc > 0)
                ck.k->bulk++;
            rc = rc > 0 ? RTIPC_OK : RTIPC_EWOULDBLOCK;
        } else if (choice < 7) {
            item_t peeked;
            bool woken = false;
            rc = rtipc_spsc_peek(c->r, &peeked);
            if (rc == RTIPC_OK) {
                ck.k->peeks++;
                /* The peeked item is the one the next pop returns. */
                if (rtipc_spsc_pop_from_isr(c->r, &it, &woken) != RTIPC_OK)
                    error(c, "pop after a successful peek (0 = OK)", 0, 1);
                else if (it.seq != peeked.seq || it.check != peeked.check)
                    error(c, "peeked seq = popped seq", peeked.seq, it.seq);
                check_item(&ck, it);
                ck.k->isr++;
            }
        } else {
            rc = rtipc_spsc_pop(c->r, &it, random_timeout(&ck.g, &ck.k->waits));
            if (rc == RTIPC_OK) {
                check_item(&ck, it);
                ck.k->blocking++;
            }
        }
        if (!consumer_round_end(&ck, rc))
            return;
    }
    /* Nothing more may arrive. */
    item_t extra;
    if (rtipc_spsc_try_pop(c->r, &extra) == RTIPC_OK)
        error(c, "items after the last one: seq", ck.total, extra.seq);
}

/* The scheduler state of thread tid ('R' running or runnable, 'S' asleep). */
static char thread_state(int tid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
    FILE *f = fopen(path, "r");
    if (!f)
        return '?';
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    return p && p[1] == ' ' ? p[2] : '?';
}

/* One line on a ring's state, for stall reports. */
static void dump_ring(const char *name, rtipc_spsc_t *r)
{
    struct rtipc__spsc *in = rtipc__spsc_of(r);
    printf("  %s: size %d, head %u, tail %u, sleeping consumer %u producer %u\n", name, rtipc_spsc_size(r),
           atomic_load(&in->head), atomic_load(&in->tail), atomic_load(&in->sleeping[RTIPC__SPSC_CONSUMER]),
           atomic_load(&in->sleeping[RTIPC__SPSC_PRODUCER]));
}

typedef struct {
    const atomic_long *count;
    long want;
} target_t;

static bool reached(void *arg)
{
    const target_t *t = arg;
    return atomic_load(t->count) >= t->want;
}

/* Main thread: wait until *done reaches want, failing on a stall. Returns
 * whether it finished (false: tasks still run; leak the state). */
static bool wait_progress(atomic_long *done, long want, const char *what)
{
    target_t t = {done, want};
    if (wait_with_stall_check(reached, &t, done))
        return true;
    printf("stress_spsc: STALL in %s at %ld of %ld (a lost wake-up or a lost item)\n", what, atomic_load(done), want);
    return false;
}

static void print_counts(const char *side, const counts_t *k)
{
    printf("  %s: moved by single %" PRIu64 ", bulk %" PRIu64 ", isr/peek %" PRIu64 " (peeks %" PRIu64
           "), blocking %" PRIu64 "; timeouts no-wait %" PRIu64 " finite %" PRIu64 " forever %" PRIu64
           "; not-now would-block %" PRIu64 " timed-out %" PRIu64 "\n",
           side, k->single, k->bulk, k->isr, k->peeks, k->blocking, k->waits.no_wait, k->waits.finite,
           k->waits.forever, k->wouldblock, k->timedout);
}

/* After the exchange: no error recorded, every item consumed, the ring empty. */
static void check_every_item_arrived(ctx_t *c)
{
    print_counts("consumer", &c->cons);
    if (atomic_load(&c->errors))
        fail_msg("%ld errors; first: %s", atomic_load(&c->errors), c->first_error);
    assert_int_equal(atomic_load(&c->consumed), c->total);
    assert_int_equal(rtipc_spsc_size(c->r), 0);
}

static void task_producer_and_consumer_on_two_cores_exchange_every_item_once_in_order(void **state)
{
    (void)state;
    ctx_t *c = calloc(1, sizeof *c); /* leaked if a stall leaves tasks running */
    assert_non_null(c);
    c->total = stress_count(1000000);
    assert_int_equal(rtipc_spsc_create(64, sizeof(item_t), &c->r), RTIPC_OK);
    double t0 = (double)rtipc_time_ns();
    rtipc_task_t *cons = start_task("cons", 5, test_core(1), consumer_task, c);
    rtipc_task_t *prod = start_task("prod", 5, test_core(0), producer_task, c);
    if (!wait_progress(&c->consumed, c->total, "consumer")) {
        dump_ring("ring", c->r);
        fail_msg("stalled: produced %ld, consumed %ld of %ld, producer state %c, consumer state %c; %ld errors "
                 "(first: %s)",
                 atomic_load(&c->produced), atomic_load(&c->consumed), c->total,
                 thread_state(atomic_load(&c->producer_tid)), thread_state(atomic_load(&c->consumer_tid)),
                 atomic_load(&c->errors), c->first_error);
    }
    join_task(prod);
    join_task(cons);
    double secs = ((double)rtipc_time_ns() - t0) / 1e9;
    printf("stress_spsc tasks: %ld items in %.2f s (%.0f items/s), %s\n", c->total, secs, c->total / secs,
           rtipc_sched_policy_describe());
    print_counts("producer", &c->prod);
    check_every_item_arrived(c);
    /* Both sides really parked and were woken (the path under test). */
    assert_true(c->prod.blocking > 0 && c->cons.blocking > 0);
    assert_int_equal(rtipc_spsc_delete(c->r), RTIPC_OK);
    free(c);
}

/* ======================================================================== */
/* 2. interrupt producer, task consumer on the interrupt's core              */
/* ======================================================================== */
typedef struct {
    ctx_t *c;
    rng_t g;
    uint64_t next;
    uint64_t yields, no_yields, woken;
} isr_state_t;

static void producer_isr(void *arg)
{
    isr_state_t *s = arg;
    ctx_t *c = s->c;
    uint64_t total = (uint64_t)c->total;
    c->irq_runs++;
    if (s->next >= total) {
        atomic_store(&c->irq_done, 1);
        return;
    }
    bool woken = false;
    uint32_t burst = 1 + below(&s->g, 64);
    while (burst > 0 && s->next < total) {
        if (below(&s->g, 2) == 0) {
            item_t it = mk(s->next);
            if (rtipc_spsc_push_from_isr(c->r, &it, &woken) != RTIPC_OK)
                break; /* full */
            s->next++;
            burst--;
        } else {
            item_t batch[BULK_MAX];
            uint32_t n = 1 + below(&s->g, BULK_MAX);
            if (n > burst)
                n = burst;
            if (n > total - s->next)
                n = (uint32_t)(total - s->next);
            for (uint32_t i = 0; i < n; ++i)
                batch[i] = mk(s->next + i);
            int rc = rtipc_spsc_push_bulk_from_isr(c->r, batch, n, &woken);
            if (rc < 0 || rc > (int)n) {
                error(c, "push_bulk_from_isr in range 0..n, n", n, (uint64_t)(int64_t)rc);
                return;
            }
            s->next += (uint64_t)rc;
            burst -= (uint32_t)rc;
            if ((uint32_t)rc < n)
                break; /* full */
        }
    }
    atomic_store_explicit(&c->produced, (long)s->next, memory_order_relaxed);
    if (woken)
        s->woken++;
    /* Mostly yield as told; sometimes not, so the consumer is released at the
     * next tick or when the core reschedules. */
    if (below(&s->g, 8) != 0) {
        rtipc_irq_yield(woken);
        s->yields++;
    } else {
        s->no_yields++;
    }
}

static void blocking_consumer_task(void *arg)
{
    ctx_t *c = arg;
    checker_t ck = consumer_begin(c, 3);
    item_t batch[BULK_MAX];
    while (ck.next < ck.total) {
        item_t it;
        int rc;
        /* Drain what is there in bulk; when empty, wait in a blocking pop. */
        int n = rtipc_spsc_pop_bulk(c->r, batch, 1 + below(&ck.g, BULK_MAX));
        for (int i = 0; i < n; ++i)
            check_item(&ck, batch[i]);
        if (n > 0) {
            ck.k->bulk++;
            rc = RTIPC_OK;
        } else {
            /* Finite or forever: the interrupt keeps producing. */
            rtipc_timeout_t t = below(&ck.g, 2) ? RTIPC_FOREVER : rtipc_us(below(&ck.g, MAX_FINITE_US + 1));
            if (rtipc_timeout_is_forever(t))
                ck.k->waits.forever++;
            else
                ck.k->waits.finite++;
            atomic_store_explicit(&c->consumer_in_pop, rtipc_timeout_is_forever(t) ? 2 : 1, memory_order_relaxed);
            rc = rtipc_spsc_pop(c->r, &it, t);
            atomic_store_explicit(&c->consumer_in_pop, 0, memory_order_relaxed);
            if (rc == RTIPC_OK) {
                check_item(&ck, it);
                ck.k->blocking++;
            }
        }
        if (!consumer_round_end(&ck, rc))
            return;
    }
}


static void interrupt_producer_and_parked_consumer_exchange_every_item_once_in_order(void **state)
{
    (void)state;
    ctx_t *c = calloc(1, sizeof *c);
    isr_state_t *s = calloc(1, sizeof *s);
    assert_non_null(c);
    assert_non_null(s);
    c->total = stress_count(1000000);
    s->c = c;
    s->g = rng_for(4);
    assert_int_equal(rtipc_spsc_create(64, sizeof(item_t), &c->r), RTIPC_OK);
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(0, producer_isr, s, &irq), RTIPC_OK);
    double t0 = (double)rtipc_time_ns();
    rtipc_task_t *cons = start_task("cons", 5, test_core(0), blocking_consumer_task, c);
    /* Every 100 us: fast enough to keep the consumer parking and waking, slow
     * enough that the interrupt thread leaves the core to the consumer. */
    assert_int_equal(rtipc_irq_timer_start(irq, 100000, 100000), RTIPC_OK);
    if (!wait_progress(&c->consumed, c->total, "interrupt consumer")) {
        dump_ring("ring", c->r);
        fail_msg("stalled: produced %ld, consumed %ld of %ld, ring holds %d, handler ran %lld times, consumer "
                 "state %c, in pop %d; %ld errors (first: %s)",
                 atomic_load(&c->produced), atomic_load(&c->consumed), c->total, rtipc_spsc_size(c->r),
                 (long long)rtipc_irq_count(irq), thread_state(atomic_load(&c->consumer_tid)),
                 atomic_load(&c->consumer_in_pop), atomic_load(&c->errors), c->first_error);
    }
    join_task(cons);
    assert_int_equal(rtipc_irq_timer_stop(irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
    double secs = ((double)rtipc_time_ns() - t0) / 1e9;
    printf("stress_spsc interrupt: %ld items in %.2f s (%.0f items/s), %" PRIu64 " handler runs, %" PRIu64
           " woke the consumer, %" PRIu64 " yields, %" PRIu64 " without yield\n",
           c->total, secs, c->total / secs, c->irq_runs, s->woken, s->yields, s->no_yields);
    check_every_item_arrived(c);
    assert_true(s->woken > 0); /* the consumer was parked and readied by the handler */
    assert_int_equal(rtipc_spsc_delete(c->r), RTIPC_OK);
    free(s);
    free(c);
}

/* ======================================================================== */
/* 3. ping-pong with waits that never time out                               */
/* ======================================================================== */
/* Two one-slot rings; each side waits forever for the other's item, so every
 * round parks and wakes both sides, with the push racing the other side's
 * "announce, fence, look again" (the Dekker handshake). One lost wake-up
 * leaves both sides asleep for good: the stall check turns it into a
 * failure. Random short pauses vary where in the other side's wait the push
 * lands. */
typedef struct {
    pingpong_t pp;
    rtipc_spsc_t *ping, *pong;
    atomic_int ping_tid, pong_tid;
    item_t got; /* the pong side's item of the round */
} pp_t;

static bool ping_round(void *arg, long i)
{
    pp_t *p = arg;
    item_t it = mk((uint64_t)i), back;
    return rtipc_spsc_push(p->ping, &it, RTIPC_FOREVER) == RTIPC_OK &&
           rtipc_spsc_pop(p->pong, &back, RTIPC_FOREVER) == RTIPC_OK && back.seq == (uint64_t)i &&
           back.check == check_of((uint64_t)i);
}

static bool pong_take(void *arg, long i)
{
    pp_t *p = arg;
    (void)i;
    return rtipc_spsc_pop(p->ping, &p->got, RTIPC_FOREVER) == RTIPC_OK;
}

static bool pong_answer(void *arg, long i)
{
    pp_t *p = arg;
    (void)i;
    return rtipc_spsc_push(p->pong, &p->got, RTIPC_FOREVER) == RTIPC_OK;
}

static void pinger_task(void *arg)
{
    pp_t *p = arg;
    atomic_store(&p->ping_tid, (int)syscall(SYS_gettid));
    pingpong_ping(&p->pp, 5, ping_round, p);
}

static void ponger_task(void *arg)
{
    pp_t *p = arg;
    atomic_store(&p->pong_tid, (int)syscall(SYS_gettid));
    pingpong_pong(&p->pp, 6, pong_take, pong_answer, p);
}

static void ping_pong_with_waits_forever_never_loses_a_wake_up(void **state)
{
    (void)state;
    pp_t *p = pingpong_new(sizeof *p);
    assert_int_equal(rtipc_spsc_create(1, sizeof(item_t), &p->ping), RTIPC_OK);
    assert_int_equal(rtipc_spsc_create(1, sizeof(item_t), &p->pong), RTIPC_OK);
    double t0 = (double)rtipc_time_ns();
    rtipc_task_t *b = start_task("pong", 5, test_core(1), ponger_task, p);
    rtipc_task_t *a = start_task("ping", 5, test_core(0), pinger_task, p);
    if (!wait_progress(&p->pp.done, p->pp.rounds, "ping-pong")) {
        dump_ring("ping", p->ping);
        dump_ring("pong", p->pong);
        fail_msg("stalled after %ld of %ld rounds (pinger state %c, ponger state %c): a lost wake-up",
                 atomic_load(&p->pp.done), p->pp.rounds, thread_state(atomic_load(&p->ping_tid)),
                 thread_state(atomic_load(&p->pong_tid)));
    }
    pingpong_finish(&p->pp, a, b, t0);
    assert_int_equal(rtipc_spsc_delete(p->ping), RTIPC_OK);
    assert_int_equal(rtipc_spsc_delete(p->pong), RTIPC_OK);
    free(p);
}

/* The same tests on rings with the asymmetric fence (spsc.h), where the
 * port has one: the park handshake then rests on the process-wide barrier. */
static int asymmetric_setup(void **state)
{
    (void)state;
    return rtipc_spsc_set_fence(RTIPC_SPSC_FENCE_ASYMMETRIC) == RTIPC_OK ? 0 : -1;
}

static int asymmetric_teardown(void **state)
{
    (void)state;
    return rtipc_spsc_set_fence(RTIPC_SPSC_FENCE_SYMMETRIC) == RTIPC_OK ? 0 : -1;
}

int main(void)
{
    run_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(task_producer_and_consumer_on_two_cores_exchange_every_item_once_in_order),
        cmocka_unit_test(interrupt_producer_and_parked_consumer_exchange_every_item_once_in_order),
        cmocka_unit_test(ping_pong_with_waits_forever_never_loses_a_wake_up),
    };
    /* The default is the asymmetric fence where the port has it: choose the
     * symmetric one for the first group. */
    if (rtipc_spsc_set_fence(RTIPC_SPSC_FENCE_SYMMETRIC) != RTIPC_OK)
        return 1;
    int failed = cmocka_run_group_tests_name("symmetric fence", tests, NULL, NULL);
    if (rtipc_spsc_set_fence(RTIPC_SPSC_FENCE_ASYMMETRIC) != RTIPC_OK) {
        print_message("asymmetric fence: not available in this build or on this kernel; not run\n");
        return failed;
    }
    (void)rtipc_spsc_set_fence(RTIPC_SPSC_FENCE_SYMMETRIC);
    return failed + cmocka_run_group_tests_name("asymmetric fence", tests, asymmetric_setup, asymmetric_teardown);
}
