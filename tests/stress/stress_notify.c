/* Stress: task notifications. Producers pinned to both cores at different
 * priorities notify one receiver task.
 *
 * Phase 1 (mailbox): each producer sends (id, seq) packed in the 32-bit value
 * with RTIPC_NOTIFY_NO_OVERWRITE, retrying on RTIPC_EPENDING; the receiver
 * takes them with rtipc_notify_wait under random timeouts, checks per-producer
 * order and marks a bitmap; the main thread checks every value arrived once.
 *
 * Phase 2 (counting): producers rtipc_notify_give N times in all; the receiver
 * counts with rtipc_notify_take (mostly decrement, sometimes clear, adding the
 * value taken) until it has N, then, once the producers are done, a no-wait
 * take must find nothing: exactly N, no loss, no duplication.
 *
 * Counts: 750000 values in phase 1 and N = 250000 gives in phase 2, both times
 * RTIPC_STRESS_SCALE: 10^6 notifications per run at scale 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stress_workers.h"

enum { PRODUCERS = 4 };
#define ID_SHIFT 28u
#define SEQ_MASK ((1u << ID_SHIFT) - 1u)
/* 10^6 notifications in all (times RTIPC_STRESS_SCALE). Phase 1 is bound by
 * the receiver's wake-up (one value in flight: 35-60k messages/s on a 2-core
 * VM), so it gets 750000 of them to keep the program well under 30 s. */
#define MAILBOX_MESSAGES 750000
#define COUNT_MESSAGES 250000
#define MAILBOX_SLOT 0u
/* Producers' retry spin on RTIPC_EPENDING: BACKOFF_MIN iterations, doubling
 * up to BACKOFF_MIN << BACKOFF_STEPS. */
#define BACKOFF_MIN 16u
#define BACKOFF_STEPS 8u
#define COUNT_SLOT (RTIPC_NOTIFY_SLOTS > 1 ? 1u : 0u)

typedef struct ctx ctx_t;

typedef struct {
    STRESS_WORKER_FIELDS
    long pending; /* RTIPC_EPENDING retries */
} worker_t;

struct ctx {
    rtipc_task_t *receiver;
    long total;
    long share[PRODUCERS];
    long base[PRODUCERS];
    stress_bitmap_t seen;
    atomic_long received;
    stress_group_t producers;
    stress_group_t receiver_group; /* in the heap context: tasks touch it when they end */
    stress_errors_t errors;
    worker_t prod[PRODUCERS];
    worker_t recv;
    long takes_cleared; /* phase 2: takes that cleared the value */
    long max_value;     /* phase 2: largest value taken at once */
};

/* ---- phase 1: (id, seq) through RTIPC_NOTIFY_NO_OVERWRITE ------------------- */

static void mailbox_producer(void *arg)
{
    worker_t *w = arg;
    ctx_t *c = w->ctx;
    long n = c->share[w->id];
    for (long s = 0; s < n; ++s) {
        uint32_t value = w->id << ID_SHIFT | (uint32_t)s;
        for (unsigned tries = 0;;) {
            int rc = rtipc_notify(c->receiver, MAILBOX_SLOT, value, RTIPC_NOTIFY_NO_OVERWRITE, NULL);
            if (rc == RTIPC_OK)
                break;
            if (rc != RTIPC_EPENDING) {
                stress_error(&c->errors, "producer %u: notify returned %d (%s)", w->id, rc, rtipc_strerror(rc));
                return;
            }
            ++w->pending;
            /* Mostly spin and retry, backing off exponentially (retries
             * contend for the receiver's lock); now and then yield, or sleep
             * a little (which lets lower-priority tasks on this core run
             * under SCHED_FIFO). Under the SCHED_OTHER fallback always
             * yield: spinning would keep the receiver off this core. */
            uint32_t r = stress_below(&w->rng, 64);
            if (r == 0 || rtipc_sched_policy() == RTIPC_SCHED_OTHER) {
                rtipc_task_yield();
            } else if (r == 1) {
                stress_backoff(1 + stress_below(&w->rng, 20));
            } else {
                unsigned limit = BACKOFF_MIN << (tries < BACKOFF_STEPS ? tries : BACKOFF_STEPS);
                for (volatile unsigned spin = limit / 2 + stress_below(&w->rng, limit / 2); spin > 0;
                     spin = spin - 1) {
                }
            }
            ++tries;
        }
        atomic_store_explicit(&w->done, s + 1, memory_order_relaxed);
    }
}

static void mailbox_receiver(void *arg)
{
    worker_t *w = arg;
    ctx_t *c = w->ctx;
    int64_t last[PRODUCERS];
    for (int p = 0; p < PRODUCERS; ++p)
        last[p] = -1;
    for (long got = 0; got < c->total;) {
        uint32_t v = 0;
        int rc = rtipc_notify_wait(MAILBOX_SLOT, 0, 0, &v, stress_timeout(&w->rng, &w->waits));
        if (stress_retry(rc, &w->waits))
            continue;
        if (rc != RTIPC_OK) {
            stress_error(&c->errors, "receiver: notify_wait returned %d (%s)", rc, rtipc_strerror(rc));
            return;
        }
        ++got;
        uint32_t id = v >> ID_SHIFT, seq = v & SEQ_MASK;
        if (id >= PRODUCERS || seq >= c->share[id]) {
            stress_error(&c->errors, "receiver: corrupt value %#x", v);
            continue;
        }
        if ((int64_t)seq <= last[id])
            stress_error(&c->errors, "receiver: producer %u's seq %u after seq %lld (reordered or repeated)", id,
                         seq, (long long)last[id]);
        last[id] = seq;
        if (stress_bitmap_set(&c->seen, c->base[id] + seq))
            stress_error(&c->errors, "receiver: producer %u's seq %u received twice", id, seq);
        atomic_fetch_add_explicit(&c->received, 1, memory_order_relaxed);
    }
}

static void dump(void *arg)
{
    ctx_t *c = arg;
    fprintf(stderr, "  received %ld of %ld\n", atomic_load(&c->received), c->total);
    for (int p = 0; p < PRODUCERS; ++p)
        fprintf(stderr, "  producer %d: %ld of %ld done\n", p, atomic_load(&c->prod[p].done), c->share[p]);
    if (c->seen.words)
        stress_bitmap_report(&c->seen, c->base, PRODUCERS);
}

static ctx_t *setup(long total)
{
    ctx_t *c = calloc(1, sizeof *c); /* leaked if the test fails: tasks may still run */
    assert_non_null(c);
    c->total = total;
    split_shares(c->total, PRODUCERS, c->share, c->base, (long)SEQ_MASK + 1);
    stress_errors_init(&c->errors);
    stress_group_init(&c->producers, "producers");
    return c;
}

/* Start the receiver (on core 0, at priority prio) and then the producers
 * (priorities 2, 4, 6, 8, alternating cores 1 and 0). */
static void start(ctx_t *c, stress_group_t *rg, unsigned prio, rtipc_task_fn receiver, rtipc_task_fn producer,
                  uint64_t stream)
{
    stress_group_init(rg, "receiver");
    c->recv.ctx = c;
    stress_rng_init(&c->recv.rng, stream + 100);
    stress_group_start(rg, "nrecv", prio, test_core(0), receiver, &c->recv);
    c->receiver = rg->tasks[0];
    STRESS_START_WORKERS(&c->producers, c->prod, PRODUCERS, c, stream, "nprod", 2, 2, 1, producer);
}

/* start(), then wait until the producers and the receiver are done and join
 * them; the seconds from the start until done. */
static double run(ctx_t *c, unsigned prio, rtipc_task_fn receiver, rtipc_task_fn producer, uint64_t stream)
{
    double t0 = stress_now();
    start(c, &c->receiver_group, prio, receiver, producer, stream);
    stress_group_wait(&c->producers, &c->received, dump, c);
    stress_group_wait(&c->receiver_group, &c->received, dump, c);
    double secs = stress_now() - t0;
    stress_group_join(&c->producers);
    stress_group_join(&c->receiver_group);
    return secs;
}

static void notify_no_overwrite_mailbox(void **state)
{
    (void)state;
    ctx_t *c = setup(stress_count(MAILBOX_MESSAGES));
    stress_bitmap_init(&c->seen, c->total);
    double secs = run(c, 12, mailbox_receiver, mailbox_producer, 400);

    long pending = 0;
    stress_waits_t all = c->recv.waits;
    for (int p = 0; p < PRODUCERS; ++p)
        pending += c->prod[p].pending;
    printf("stress notify (no-overwrite): %ld EPENDING retries by producers, %llu receiver retries\n", pending,
           (unsigned long long)stress_waits_retries(&all));
    stress_summary("notify (no-overwrite)", c->total, &all, secs);

    assert_none_lost(&c->errors, &c->seen, &c->received, c->total, "value(s)");
    stress_bitmap_free(&c->seen);
    free(c);
}

/* ---- phase 2: rtipc_notify_give x N, rtipc_notify_take counting N ----------- */

static void give_producer(void *arg)
{
    worker_t *w = arg;
    ctx_t *c = w->ctx;
    long n = c->share[w->id];
    for (long s = 0; s < n; ++s) {
        int rc = rtipc_notify_give(c->receiver, COUNT_SLOT);
        if (rc != RTIPC_OK) {
            stress_error(&c->errors, "producer %u: notify_give returned %d (%s)", w->id, rc, rtipc_strerror(rc));
            return;
        }
        atomic_store_explicit(&w->done, s + 1, memory_order_relaxed);
        /* Pause now and then so that the receiver also finds 0 and waits. */
        if (stress_below(&w->rng, 64) == 0)
            stress_backoff(1 + stress_below(&w->rng, 50));
    }
}

static void take_receiver(void *arg)
{
    worker_t *w = arg;
    ctx_t *c = w->ctx;
    long counted = 0;
    while (counted < c->total) {
        bool clear = stress_below(&w->rng, 8) == 0;
        uint32_t v = 0;
        int rc = rtipc_notify_take(COUNT_SLOT, clear, &v, stress_timeout(&w->rng, &w->waits));
        if (stress_retry(rc, &w->waits))
            continue;
        if (rc != RTIPC_OK) {
            stress_error(&c->errors, "receiver: notify_take returned %d (%s)", rc, rtipc_strerror(rc));
            return;
        }
        if (v == 0) {
            stress_error(&c->errors, "receiver: notify_take succeeded with value 0");
            continue;
        }
        if ((long)v > c->max_value)
            c->max_value = v;
        long add = clear ? (long)v : 1;
        c->takes_cleared += clear;
        counted += add;
        atomic_fetch_add_explicit(&c->received, add, memory_order_relaxed);
    }
    if (counted != c->total)
        stress_error(&c->errors, "receiver: counted %ld gives, %ld were made", counted, c->total);
    /* Once every give has returned, nothing may be left. */
    while (stress_group_finished(&c->producers) < PRODUCERS)
        stress_backoff(100);
    uint32_t v = 0;
    int rc = rtipc_notify_take(COUNT_SLOT, false, &v, RTIPC_NO_WAIT);
    if (rc != RTIPC_EWOULDBLOCK || v != 0)
        stress_error(&c->errors, "receiver: after counting all gives, a no-wait take returned %d with value %u "
                     "(duplicated gives)", rc, v);
}

static void notify_give_take_counts_exactly(void **state)
{
    (void)state;
    ctx_t *c = setup(stress_count(COUNT_MESSAGES));
    /* Receiver between the producers' priorities: on its core the priority-8
     * producer runs over it, so the value piles up and is taken in runs,
     * while the priority-4 one is preempted by every wake-up. */
    double secs = run(c, 7, take_receiver, give_producer, 500);

    printf("stress notify (give/take): %ld takes cleared the value, largest value taken %ld\n", c->takes_cleared,
           c->max_value);
    stress_summary("notify (give/take)", c->total, &c->recv.waits, secs);
    stress_assert_no_errors(&c->errors);
    assert_int_equal(atomic_load(&c->received), c->total);
    free(c);
}

STRESS_MAIN(stress_banner, "stress_notify",
            cmocka_unit_test(notify_no_overwrite_mailbox),
            cmocka_unit_test(notify_give_take_counts_exactly))
