/* batching: 100 bytes through an rtipc queue, core 1 -> core 0, as 100 sends
 * of 1-byte items or as one send of a 100-byte item, and on a FreeRTOS target
 * through the kernel's own queue the same two ways. Time per 100 bytes and
 * context switches per 100 bytes. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../mechanisms/freertos_bytes.h"
#include "../mechanisms/mechanisms.h"
#include "experiments.h"
#include "needs_tasks.h"

#define BYTES 100
#define SEQ_MOD 251                 /* byte value = running byte count mod 251 */
#define END_BYTE 0xff               /* first byte of a batch: no more batches */
#define STALL_NS 2000000000LL

/* Samples recorded before the time cap may stop a row (a slow simulator
 * needs ~7 ms per 100 one-byte items). */
#define MIN_CAPPED_SAMPLES 20

/* A queue, driven with waits forever: rtipc's or the kernel's. */
typedef struct {
    const char *mech;  /* the rows' mechanism */
    int (*create)(size_t len, size_t item, void **q);
    void (*destroy)(void *q);
    int (*send)(void *q, const void *item);
    int (*recv)(void *q, void *item);
    /* Unblocks a consumer waiting in the kernel (an end item, no wait);
     * NULL: a failed run deletes the consumer instead (rtipc's wait). */
    int (*kick)(void *q, const void *item);
} bt_queue_t;

static int rq_create(size_t len, size_t item, void **q) { return rtipc_queue_create(len, item, (rtipc_queue_t **)q); }
static void rq_destroy(void *q) { rtipc_queue_delete(q); }
static int rq_send(void *q, const void *item) { return rtipc_queue_send(q, item, RTIPC_FOREVER); }
static int rq_recv(void *q, void *item) { return rtipc_queue_receive(q, item, RTIPC_FOREVER); }
static const bt_queue_t rtipc_q = {BENCH_MECH_RTIPC_QUEUE, rq_create, rq_destroy, rq_send, rq_recv, NULL};

/* The kernel's queue (freertos_bytes.c): xQueueSend / xQueueReceive with
 * portMAX_DELAY. */
static int kq_create(size_t len, size_t item, void **q) { return bench_kqueue.create(len, item, q); }
static void kq_destroy(void *q) { bench_kqueue.destroy(q); }
static int kq_send(void *q, const void *item) { return bench_kqueue.send(q, item, -1); }
static int kq_recv(void *q, void *item) { return bench_kqueue.recv(q, item, -1); }
static int kq_kick(void *q, const void *item) { return bench_kqueue.send(q, item, 0); }
static const bt_queue_t kernel_q = {BENCH_MECH_KERNEL_QUEUE, kq_create, kq_destroy, kq_send, kq_recv, kq_kick};

typedef struct {
    const bt_queue_t *ops;
    void *q;
    size_t item;                    /* 1 or BYTES */
    size_t samples, warmup;
    int64_t cap_ns;                 /* time cap of the run (0 = none) */
    size_t batches_sent;            /* producer: batches it sent (< total when capped) */
    bench_samples_t *out;
    int64_t *t_send;                /* per batch: producer's timestamp before its first send */
    bench_rng_t rng;
    long csw_prod, csw_cons;        /* context switches over the recorded batches */
    /* Release by the consumer after it checked and recorded a batch; acquire
     * by the producer before it starts the next. */
    _Atomic size_t acked;
    _Atomic int consumer_ready;
    bench_failure_t failure;
} bt_state_t;

static void producer(void *arg)
{
    bt_state_t *st = arg;
    size_t total = st->warmup + st->samples;
    uint8_t batch[BYTES];
    unsigned v = 0;
    long csw0 = 0;
    while (!atomic_load_explicit(&st->consumer_ready, memory_order_acquire))
        bench_sleep_ns(100000);
    bench_sleep_ns(1000000);  /* let the consumer park in its receive */
    int64_t stop_at = INT64_MAX;  /* the time cap counts from the end of the warm-up */
    size_t i = 0;
    for (; i < total; i++) {
        /* Closed loop: the previous batch is fully received and checked. */
        int64_t deadline = bench_now_ns() + STALL_NS;
        while (atomic_load_explicit(&st->acked, memory_order_acquire) < i) {
            if (bench_failure_is_set(&st->failure))
                return;
            if (bench_now_ns() > deadline) {
                bench_failure_set(&st->failure, "batch %lu not received within 2 s (lost?)", (unsigned long)(i - 1));
                return;
            }
        }
        if (i == st->warmup && st->cap_ns)
            stop_at = bench_now_ns() + st->cap_ns;
        if (i >= st->warmup + MIN_CAPPED_SAMPLES && bench_now_ns() > stop_at) {
            /* Keep the experiment inside its time budget on a loaded
             * machine: an end marker tells the consumer to stop. */
            memset(batch, END_BYTE, sizeof batch);
            int rc = st->ops->send(st->q, batch);
            if (rc != 0) {
                bench_failure_set(&st->failure, "send of the end marker failed: %s", rtipc_strerror(rc));
                return;
            }
            break;
        }
        if (i == st->warmup)
            csw0 = bench_thread_switches();
        for (size_t k = 0; k < BYTES; k++) {
            batch[k] = (uint8_t)v;
            v = v + 1 == SEQ_MOD ? 0 : v + 1;
        }
        /* A random pause so that the consumer is parked in its receive. */
        bench_spin_until(bench_now_ns() + bench_rng_range(&st->rng, 20000, 40000));
        st->t_send[i] = bench_now_ns();
        int rc = 0;
        if (st->item == 1) {
            for (size_t k = 0; k < BYTES && rc == 0; k++)
                rc = st->ops->send(st->q, &batch[k]);
        } else {
            rc = st->ops->send(st->q, batch);
        }
        if (rc != 0) {
            bench_failure_set(&st->failure, "send of batch %lu failed: %s", (unsigned long)i, rtipc_strerror(rc));
            return;
        }
    }
    st->batches_sent = i;
    int64_t deadline = bench_now_ns() + STALL_NS;
    while (atomic_load_explicit(&st->acked, memory_order_acquire) < i) {
        if (bench_failure_is_set(&st->failure))
            return;
        if (bench_now_ns() > deadline) {
            bench_failure_set(&st->failure, "last batch not received within 2 s (lost?)");
            return;
        }
    }
    st->csw_prod = bench_thread_switches() - csw0;
}

static void consumer(void *arg)
{
    bt_state_t *st = arg;
    size_t total = st->warmup + st->samples;
    uint8_t batch[BYTES];
    unsigned v = 0;
    long csw0 = bench_thread_switches(), csw1 = csw0;
    atomic_store_explicit(&st->consumer_ready, 1, memory_order_release);
    for (size_t i = 0; i < total; i++) {
        /* The first item, then the rest of the batch unless it is the end. */
        int rc = st->ops->recv(st->q, batch);
        if (rc == 0 && batch[0] == END_BYTE)
            break;
        for (size_t k = 1; st->item == 1 && k < BYTES && rc == 0; k++)
            rc = st->ops->recv(st->q, &batch[k]);
        int64_t t = bench_now_ns();
        if (rc != 0) {
            bench_failure_set(&st->failure, "receive of batch %lu failed: %s", (unsigned long)i, rtipc_strerror(rc));
            return;
        }
        for (size_t k = 0; k < BYTES; k++) {
            if (batch[k] != v) {
                bench_failure_set(&st->failure,
                                  "batch %lu byte %lu is %u where %u was due (lost, duplicated or reordered)",
                                  (unsigned long)i, (unsigned long)k, batch[k], v);
                return;
            }
            v = v + 1 == SEQ_MOD ? 0 : v + 1;
        }
        if (i >= st->warmup)
            bench_samples_push(st->out, t - st->t_send[i]);
        if (i + 1 == st->warmup)
            csw0 = bench_thread_switches();  /* before the producer starts the first recorded batch */
        atomic_store_explicit(&st->acked, i + 1, memory_order_release);
        /* After each batch (the producer is in its pause): an end marker's
         * wake-up must not count. */
        csw1 = bench_thread_switches();
    }
    st->csw_cons = csw1 - csw0;
}

static int measure(bench_run_t *run, const bt_queue_t *ops, const char *variant, size_t item, size_t depth,
                   size_t samples)
{
    bt_state_t *st = calloc(1, sizeof *st);
    bench_samples_t s = {0};
    int result = 0;
    if (!st || bench_samples_init(&s, samples) != 0) {
        free(st);
        return bench_fail(run, "out of memory");
    }
    st->ops = ops;
    st->item = item;
    st->samples = samples;
    st->warmup = bench_warmup_count(run, samples);
    /* An explicit --samples is obeyed whatever it costs. */
    st->cap_ns = bench_samples_fixed(run) ? 0 : bench_quick(run) ? 500000000 : 3500000000;
    st->out = &s;
    st->t_send = calloc(st->warmup + samples, sizeof *st->t_send);
    bench_rng_init(&st->rng, run, item);
    int rc = st->t_send ? ops->create(depth, item, &st->q) : RTIPC_ENOMEM;
    if (rc != 0) {
        result = bench_fail(run, "%s %s: queue create: %s", ops->mech, variant, rtipc_strerror(rc));
        goto out;
    }
    bench_task_t *cons = NULL, *prod = NULL;
    bool native = ops == &kernel_q;  /* the kernel's queue on the kernel's own tasks */
    bench_task_spec_t cc = {.name = "bt-consumer", .priority = 12, .core = bench_cpu(run, 0),
                            .entry = consumer, .arg = st, .native = native};
    bench_task_spec_t pc = {.name = "bt-producer", .priority = 10, .core = bench_cpu(run, 1),
                            .entry = producer, .arg = st, .native = native};
    rc = bench_target_task_start(&cc, &cons);
    if (rc == 0)
        rc = bench_target_task_start(&pc, &prod);
    if (rc != 0) {
        bench_failure_set(&st->failure, "task creation: %s", rtipc_strerror(rc));
        if (cons)
            bench_target_task_delete(cons);
    } else {
        /* The producer bounds every wait; the consumer may be blocked for a
         * lost item, so a failed run deletes it (a deletion point). */
        bench_target_task_join(prod);
        if (bench_failure_is_set(&st->failure) && ops->kick) {
            /* An end item, which the consumer takes for the end or a
             * mismatch: either way it returns. */
            uint8_t end[BYTES];
            memset(end, END_BYTE, sizeof end);
            (void)ops->kick(st->q, end);
            bench_target_task_join(cons);
        } else if (bench_failure_is_set(&st->failure)) {
            bench_target_task_delete(cons);
        } else {
            bench_target_task_join(cons);
        }
    }
    size_t recorded = s.n;
    if (bench_failure_is_set(&st->failure)) {
        result = bench_fail(run, "%s %s: %s", ops->mech, variant, st->failure.why);
    } else if (recorded != st->batches_sent - st->warmup) {
        result = bench_fail(run, "%s %s: %lu batches sent after the warm-up, %lu recorded", ops->mech, variant,
                            (unsigned long)(st->batches_sent - st->warmup), (unsigned long)recorded);
    } else if (bench_add_dist(run, ops->mech, variant, BENCH_METRIC_TIME_PER_100B, &s)) {
        bench_add_value(run, ops->mech, variant, BENCH_METRIC_CONTEXT_SWITCHES_PER_100B, "count",
                        (double)(st->csw_prod + st->csw_cons) / (double)recorded);
        if (recorded < samples)
            bench_note(run, "%s %s stopped %.1f s after its warm-up with %lu of %lu samples (its time cap: "
                       "a loaded machine or a slow simulator)",
                       ops->mech, variant, (double)st->cap_ns / 1e9, (unsigned long)recorded, (unsigned long)samples);
    } else {
        result = -1;
    }
    ops->destroy(st->q);
out:
    bench_samples_free(&s);
    free(st->t_send);
    free(st);
    return result;
}

/* The time-ratio row of mechanism @p q: its two medians divided. */
static void ratio_row(bench_run_t *run, const char *q)
{
    const char *e = BENCH_EXP_BATCHING, *m = BENCH_METRIC_TIME_PER_100B;
    const bench_result_t *a = bench_find(run, e, q, BENCH_VARIANT_100X1B, m);
    const bench_result_t *b = bench_find(run, e, q, BENCH_VARIANT_1X100B, m);
    if (a && b && b->stats.p50 > 0) {
        double r = a->stats.p50 / b->stats.p50;  /* before adding a row moves the rows */
        bench_add_value(run, q, BENCH_VARIANT_100X1B_OVER_1X100B, BENCH_METRIC_TIME_RATIO, "x", r);
    }
}

/* rtipc's time-per-100B median over the kernel's, per variant. */
static void over_kernel_row(bench_run_t *run, const char *variant)
{
    const char *e = BENCH_EXP_BATCHING, *m = BENCH_METRIC_TIME_PER_100B;
    const bench_result_t *r = bench_find(run, e, BENCH_MECH_RTIPC_QUEUE, variant, m);
    const bench_result_t *k = bench_find(run, e, BENCH_MECH_KERNEL_QUEUE, variant, m);
    if (r && k && k->stats.p50 > 0) {
        double x = r->stats.p50 / k->stats.p50;
        bench_add_value(run, BENCH_MECH_RTIPC_OVER_KERNEL, variant, BENCH_METRIC_P50_RATIO, "x", x);
    }
}

static int run_batching(bench_run_t *run)
{
    size_t samples = bench_sample_count(run, 10000, 1000);
    /* On a FreeRTOS target the kernel's queue right after rtipc's in each
     * variant, so that both see the same conditions. */
    bool kernel = bench_mech_kernel_built;
    const bt_queue_t *qs[2] = {&rtipc_q, &kernel_q};
    size_t nq = kernel ? 2 : 1;
    bench_progress(run, 0.0);
    for (size_t i = 0; i < nq; i++)
        if (measure(run, qs[i], BENCH_VARIANT_100X1B, 1, BYTES, samples) != 0)
            return -1;
    bench_progress(run, 0.6);
    for (size_t i = 0; i < nq; i++)
        if (measure(run, qs[i], BENCH_VARIANT_1X100B, BYTES, 1, samples) != 0)
            return -1;
    bench_progress(run, 1.0);
    for (size_t i = 0; i < nq; i++)
        ratio_row(run, qs[i]->mech);
    if (kernel) {
        over_kernel_row(run, BENCH_VARIANT_100X1B);
        over_kernel_row(run, BENCH_VARIANT_1X100B);
    }
    return 0;
}

const bench_experiment_t exp_batching = {
    .id = BENCH_EXP_BATCHING,
    .summary = EXP_BATCHING_SUMMARY,
    .definitions =
        "A producer task on core 1 (priority 10) moves 100 bytes to a consumer task on core 0\n"
        "(priority 12) through an rtipc queue holding 100 bytes:\n"
        "  100x1B: a queue of 100 1-byte items; 100 sends, 100 receives.\n"
        "  1x100B: a queue of 1 100-byte item; 1 send, 1 receive.\n"
        "Every byte's value is the running byte count mod 251, checked by the consumer (a lost,\n"
        "duplicated or reordered byte fails the run). Sends and receives wait forever (the queue\n"
        "never fills: at most one batch is in flight).\n"
        "time-per-100B: from the producer's timestamp just before its first send of the batch to\n"
        "  the consumer's timestamp after its receive of the batch's last byte returned. Closed\n"
        "  loop: the producer waits until the previous batch was received and checked, then pauses\n"
        "  a random 20-40 us, so the consumer is parked in its receive when the batch starts.\n"
        "  The timestamp overhead is included. On a loaded machine (or a slow simulator) a variant\n"
        "  stops 3.5 s (quick 0.5 s) after its warm-up, once it has at least 20 samples, with fewer\n"
        "  samples than planned, and a note says so.\n"
        "context-switches-per-100B: voluntary + involuntary context switches of both tasks\n"
        "  (getrusage(RUSAGE_THREAD)) over the recorded batches, divided by their number.\n"
        "time-ratio (100x1B/1x100B): the two time-per-100B medians divided.\n"
        "On a FreeRTOS target kernel-queue runs right after rtipc-queue in each variant, the\n"
        "  same way: xQueueCreate(100, 1) or xQueueCreate(1, 100), xQueueSend / xQueueReceive\n"
        "  with portMAX_DELAY; same rows and checks. rtipc/kernel p50-ratio (100x1B, 1x100B):\n"
        "  rtipc-queue's time-per-100B median over kernel-queue's.",
    .run = run_batching,
    .requires = EXP_BATCHING_REQUIRES,
};
