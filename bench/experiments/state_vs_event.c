/* state-vs-event: a sensor publishes its state at 1 kHz; a consumer that acts
 * every 5 ms takes one value per action. Through a depth-32 queue it works
 * through old values; through a length-1 overwrite queue or the latest-value
 * mailbox it gets the newest. Staleness = age of the value it acts on. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mechanisms/freertos_calls.h"
#include "../mechanisms/mechanisms.h"
#include "experiments.h"
#include "needs_tasks.h"

#define SV_PRODUCER_PERIOD_NS 1000000LL   /* R = 1 kHz */
#define SV_CONSUMER_PERIOD_NS 5000000LL   /* acts every 5 ms */
#define SV_QUEUE_DEPTH 32
/* Not recorded: fill time (depth / (1 kHz - 200 Hz)) + depth x 5 ms. */
#define SV_WARMUP_NS (SV_QUEUE_DEPTH * 1250000LL + SV_QUEUE_DEPTH * SV_CONSUMER_PERIOD_NS)

/* The published state: when it was sampled, and its number. */
typedef struct {
    int64_t t_ns;
    uint32_t seq;
    uint32_t pad;
} sv_value_t;

typedef enum { SV_QUEUE, SV_OVERWRITE, SV_MAILBOX } sv_kind_t;

typedef struct {
    const char *mechanism, *variant;
    sv_kind_t kind;
    bool kernel;   /* the kernel's own queue (freertos_calls.h), not rtipc's */
} sv_mech_t;

typedef struct {
    const sv_mech_t *m;
    rtipc_queue_t *q;
    bench_kq_t *kq;
    rtipc_mailbox_t *mb;
    int64_t start_ns, warm_end_ns, end_ns;
    size_t cap;                   /* most values the producer may publish */
    bench_rng_t rng;              /* consumer's action phase */
    /* Producer's results (read after producer_done, acquire). */
    uint8_t *dropped;             /* per number: refused by a full queue */
    size_t sent, n_dropped;
    /* Consumer's results (read after consumer_done, acquire). */
    uint8_t *got;                 /* per number: acted on (queue: consumed) */
    bench_samples_t *staleness;
    size_t actions, distinct, repeats, empty;
    int64_t last_seq;             /* -1 before the first value */
    _Atomic int go, producer_done, consumer_done;
    bench_failure_t failure;
} sv_state_t;

/* Sleep most of the way, spin the rest: wake-up noise stays out of the
 * producer's period. */
static void wait_until(int64_t due)
{
    int64_t now = bench_now_ns();
    int64_t margin = 100000 + bench_sleep_overshoot_ns();
    if (due - now > margin + 100000)
        bench_delay_ns(due - now - margin);
    bench_spin_until(due);
}

/* 0 published, 1 refused (counted as dropped), <0 error. */
static int publish(sv_state_t *st, const sv_value_t *v)
{
    int rc;
    if (st->m->kernel)  /* xQueueSend(.., 0) refuses (1) when full; xQueueOverwrite never */
        return st->m->kind == SV_QUEUE ? bench_kq_send(st->kq, v, 0) : bench_kq_overwrite(st->kq, v);
    switch (st->m->kind) {
    case SV_QUEUE:
        rc = rtipc_queue_send(st->q, v, RTIPC_NO_WAIT);
        return rc == RTIPC_EWOULDBLOCK ? 1 : rc;
    case SV_OVERWRITE:
        return rtipc_queue_overwrite(st->q, v);
    case SV_MAILBOX:
        /* One writer: a refused write would be a bug, not a drop. */
        return rtipc_mailbox_write(st->mb, v);
    }
    return RTIPC_EINVAL;
}

static void producer(void *arg)
{
    sv_state_t *st = arg;
    while (!atomic_load_explicit(&st->go, memory_order_acquire))
        bench_delay_ns(100000);
    int64_t next = st->start_ns;
    while (st->sent < st->cap && !bench_failure_is_set(&st->failure)) {
        wait_until(next);
        sv_value_t v = {.seq = (uint32_t)st->sent};
        v.t_ns = bench_now_ns();
        if (v.t_ns >= st->end_ns)
            break;
        int rc = publish(st, &v);
        if (rc < 0) {
            bench_failure_set(&st->failure, "publishing value %ld failed with %ld", (long)v.seq, (long)rc);
            break;
        }
        if (rc == 1) {
            st->dropped[v.seq] = 1;
            st->n_dropped++;
        }
        st->sent++;
        /* A sensor samples on its grid; after a long delay it resumes, no burst. */
        next += SV_PRODUCER_PERIOD_NS;
        int64_t now = bench_now_ns();
        if (next < now)
            next = now;
    }
    atomic_store_explicit(&st->producer_done, 1, memory_order_release);
}

/* One value the consumer acts on (or drains): check its order. */
static bool check_value(sv_state_t *st, const sv_value_t *v, uint64_t version)
{
    if (v->seq >= st->cap) {
        bench_failure_set(&st->failure, "value %ld was never published", (long)v->seq);
        return false;
    }
    if (st->m->kind == SV_MAILBOX && version != (uint64_t)v->seq + 1) {
        bench_failure_set(&st->failure, "mailbox version %ld holds value %ld (versions inconsistent)",
                          (long)version, (long)v->seq);
        return false;
    }
    if ((int64_t)v->seq < st->last_seq ||
        (st->m->kind == SV_QUEUE && (int64_t)v->seq == st->last_seq)) {
        bench_failure_set(&st->failure, "value %ld came after value %ld (older, or consumed twice)",
                          (long)v->seq, (long)st->last_seq);
        return false;
    }
    if ((int64_t)v->seq == st->last_seq) {
        st->repeats++;   /* no newer state yet: the consumer acts on the same one */
    } else {
        st->distinct++;
        st->got[v->seq] = 1;
    }
    st->last_seq = v->seq;
    return true;
}

/* 0 got a value, 1 nothing there yet, <0 error. */
static int read_value(sv_state_t *st, sv_value_t *v, uint64_t *version)
{
    int rc;
    *version = 0;
    if (st->m->kernel)  /* xQueueReceive / xQueuePeek with no wait: 1 when empty */
        return st->m->kind == SV_QUEUE ? bench_kq_receive(st->kq, v, 0) : bench_kq_peek(st->kq, v, 0);
    switch (st->m->kind) {
    case SV_QUEUE:
        rc = rtipc_queue_receive(st->q, v, RTIPC_NO_WAIT);
        return rc == RTIPC_EWOULDBLOCK ? 1 : rc;
    case SV_OVERWRITE:
        rc = rtipc_queue_peek(st->q, v, RTIPC_NO_WAIT);
        return rc == RTIPC_EWOULDBLOCK ? 1 : rc;
    case SV_MAILBOX:
        rc = rtipc_mailbox_read(st->mb, v, version);
        return rc != 0 ? rc : *version == 0 ? 1 : 0;   /* version 0: the initial value */
    }
    return RTIPC_EINVAL;
}

static void consumer(void *arg)
{
    sv_state_t *st = arg;
    while (!atomic_load_explicit(&st->go, memory_order_acquire))
        bench_delay_ns(100000);
    for (int64_t k = 1;; k++) {
        /* A random phase against the producer's grid each period. */
        int64_t due = st->start_ns + k * SV_CONSUMER_PERIOD_NS +
                      bench_rng_range(&st->rng, 0, SV_PRODUCER_PERIOD_NS - 1);
        if (due >= st->end_ns || bench_failure_is_set(&st->failure))
            break;
        wait_until(due);
        sv_value_t v;
        uint64_t version;
        int rc = read_value(st, &v, &version);
        int64_t t_act = bench_now_ns();
        st->actions++;
        if (rc == 1) {
            st->empty++;
            continue;
        }
        if (rc != 0) {
            bench_failure_set(&st->failure, "read failed with %ld", (long)rc);
            break;
        }
        if (!check_value(st, &v, version))
            break;
        if (t_act >= st->warm_end_ns && bench_samples_push(st->staleness, t_act - v.t_ns) != 0) {
            bench_failure_set(&st->failure, "sample buffer too small");
            break;
        }
    }
    atomic_store_explicit(&st->consumer_done, 1, memory_order_release);
}

/* After both tasks ended: drain a queue and check the accounting. */
static int finish(bench_run_t *run, sv_state_t *st, size_t *left)
{
    const char *name = st->m->mechanism;
    *left = 0;
    if (st->m->kind == SV_QUEUE) {
        sv_value_t v;
        int rc;
        while ((rc = st->m->kernel ? bench_kq_receive(st->kq, &v, 0) : rtipc_queue_receive(st->q, &v, RTIPC_NO_WAIT)) == 0) {
            if (!check_value(st, &v, 0))
                return bench_fail(run, "%s: %s", name, st->failure.why);
            (*left)++;
        }
        if (st->m->kernel ? rc != 1 : rc != RTIPC_EWOULDBLOCK)
            return bench_fail(run, "%s: drain failed (%ld)", name, (long)rc);
        size_t consumed = st->distinct - *left;
        if (st->sent != consumed + st->n_dropped + *left)
            return bench_fail(run, "%s: sent %lu != consumed %lu + dropped %lu + left %lu", name, (unsigned long)st->sent,
                              (unsigned long)consumed, (unsigned long)st->n_dropped, (unsigned long)(*left));
        for (size_t s = 0; s < st->sent; s++)
            if ((st->got[s] != 0) == (st->dropped[s] != 0))
                return bench_fail(run, "%s: value %lu %s", name, (unsigned long)s,
                                  st->got[s] ? "both consumed and counted dropped" : "lost");
    } else if (st->n_dropped) {
        return bench_fail(run, "%s: %lu values refused", name, (unsigned long)st->n_dropped);
    }
    return 0;
}

static int run_mech(bench_run_t *run, const sv_mech_t *m, double seconds, uint64_t stream)
{
    sv_state_t *st = calloc(1, sizeof *st);
    bench_samples_t s = {0};
    if (!st)
        return bench_fail(run, "out of memory");
    st->m = m;
    st->last_seq = -1;
    st->cap = (size_t)(seconds * 1e9 / SV_PRODUCER_PERIOD_NS) + 64;
    st->dropped = calloc(st->cap, 1);
    st->got = calloc(st->cap, 1);
    size_t max_actions = (size_t)(seconds * 1e9 / SV_CONSUMER_PERIOD_NS) + 16;
    int rc = bench_samples_init(&s, max_actions);
    st->staleness = &s;
    bench_rng_init(&st->rng, run, stream);
    if (!st->dropped || !st->got || rc != 0) {
        rc = bench_fail(run, "out of memory");
        goto out;
    }
    if (m->kernel) {
        if (bench_kq_create(m->kind == SV_QUEUE ? SV_QUEUE_DEPTH : 1, sizeof(sv_value_t), &st->kq) != 0) {
            rc = bench_fail(run, "%s: xQueueCreate failed (kernel heap)", m->mechanism);
            goto out;
        }
    } else if (m->kind == SV_MAILBOX)
        rc = rtipc_mailbox_create(sizeof(sv_value_t), NULL, &st->mb);
    else
        rc = rtipc_queue_create(m->kind == SV_QUEUE ? SV_QUEUE_DEPTH : 1, sizeof(sv_value_t), &st->q);
    if (rc != 0) {
        rc = bench_fail(run, "%s create: %s", m->mechanism, rtipc_strerror(rc));
        goto out;
    }

    bench_task_t *prod = NULL, *cons = NULL;
    bench_task_spec_t cc = {.name = "sv-consumer", .priority = 12, .core = bench_cpu(run, 0),
                            .entry = consumer, .arg = st, .native = m->kernel};
    bench_task_spec_t pc = {.name = "sv-producer", .priority = 10, .core = bench_cpu(run, 1),
                            .entry = producer, .arg = st, .native = m->kernel};
    rc = bench_target_task_start(&cc, &cons);
    if (rc == 0)
        rc = bench_target_task_start(&pc, &prod);
    if (rc != 0) {
        bench_failure_set(&st->failure, "task creation failed (%ld)", (long)rc);
        if (cons) {
            atomic_store_explicit(&st->go, 1, memory_order_release);
            bench_target_task_delete(cons);
        }
    } else {
        st->start_ns = bench_now_ns() + 2000000;
        st->end_ns = st->start_ns + (int64_t)(seconds * 1e9);
        /* Skip the start-up: a depth-32 queue fills in 40 ms, then its
         * contents age for 32 actions before the staleness is steady. */
        int64_t warm = (int64_t)(seconds * 1e9) / 2;
        st->warm_end_ns = st->start_ns + (warm < SV_WARMUP_NS ? warm : SV_WARMUP_NS);
        atomic_store_explicit(&st->go, 1, memory_order_release);
        bool pdone, cdone;
        handoff_wait_done(&st->producer_done, &st->consumer_done, st->end_ns + 2000000000LL, &pdone,
                           &cdone);
        if (!pdone || !cdone)
            bench_failure_set(&st->failure, "a task did not finish within 2 s of the end");
        handoff_join_or_delete(prod, pdone);
        handoff_join_or_delete(cons, cdone);
    }
    if (bench_failure_is_set(&st->failure)) {
        rc = bench_fail(run, "%s: %s", m->mechanism, st->failure.why);
        goto out;
    }
    size_t left;
    if ((rc = finish(run, st, &left)) != 0)
        goto out;
    if (s.n == 0) {
        rc = bench_fail(run, "%s: no value acted on after the warm-up", m->mechanism);
        goto out;
    }
    if (!bench_add_dist(run, m->mechanism, m->variant, BENCH_METRIC_STALENESS, &s)) {
        rc = -1;
        goto out;
    }
    /* Published values the consumer never acted on: dropped, overwritten
     * before it looked, or still queued at the end. */
    size_t acted = st->distinct - left;
    bench_add_value(run, m->mechanism, m->variant, BENCH_METRIC_MISSED_UPDATES, "count", (double)(st->sent - acted));
    bench_add_value(run, m->mechanism, m->variant, BENCH_METRIC_DROPPED, "count", (double)st->n_dropped);
    bench_result_t *r =
        bench_add_value(run, m->mechanism, m->variant, BENCH_METRIC_PUBLISHED, "count", (double)st->sent);
    if (r && (st->repeats || st->empty))
        bench_row_note(run, r, "consumer: %lu actions, %lu on a value it already had, %lu with "
                 "nothing there yet", (unsigned long)st->actions, (unsigned long)st->repeats, (unsigned long)st->empty);
    double expected = seconds * 1e9 / SV_PRODUCER_PERIOD_NS;
    if (st->sent < 0.9 * expected)
        bench_note(run, "%s: the producer published only %lu of about %.0f values: it was held off its "
                        "core (other load), so these figures are disturbed",
                   m->mechanism, (unsigned long)st->sent, expected);
    rc = 0;
out:
    if (st->q)
        rtipc_queue_delete(st->q);
    bench_kq_delete(st->kq);
    if (st->mb)
        rtipc_mailbox_delete(st->mb);
    bench_samples_free(&s);
    free(st->dropped);
    free(st->got);
    free(st);
    return rc;
}

static int run_state_vs_event(bench_run_t *run)
{
    /* The kernel's queue right after rtipc's of the same shape (FreeRTOS
     * targets only: on Linux rtipc's queue is the implementation). */
    static const sv_mech_t mechs[] = {
        {BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_DEPTH_32, SV_QUEUE, false},
        {BENCH_MECH_KERNEL_QUEUE, BENCH_VARIANT_DEPTH_32, SV_QUEUE, true},
        {BENCH_MECH_RTIPC_QUEUE_OVERWRITE, BENCH_VARIANT_LENGTH_1, SV_OVERWRITE, false},
        {BENCH_MECH_KERNEL_QUEUE_OVERWRITE, BENCH_VARIANT_LENGTH_1, SV_OVERWRITE, true},
        {BENCH_MECH_RTIPC_MAILBOX, BENCH_VARIANT_LATEST, SV_MAILBOX, false},
    };
    double seconds = bench_duration(run, 2.0, 0.4);
    size_t n = sizeof mechs / sizeof mechs[0];
    for (size_t i = 0; i < n; i++) {
        bench_progress(run, (double)i / (double)n);
        if (mechs[i].kernel && !bench_mech_kernel_built)
            continue;
        if (run_mech(run, &mechs[i], seconds, i) != 0)
            return -1;
    }
    bench_progress(run, 1.0);
    bench_note(run, "a full depth-%d queue hands the consumer values about %d x %.0f ms old (it drains "
                    "one per action and new values are dropped); overwrite and the mailbox hand it the "
                    "newest value, at most one producer period plus wake-up delay old",
               SV_QUEUE_DEPTH, SV_QUEUE_DEPTH, SV_CONSUMER_PERIOD_NS / 1e6);
    return 0;
}

const bench_experiment_t exp_state_vs_event = {
    .id = BENCH_EXP_STATE_VS_EVENT,
    .summary = EXP_STATE_VS_EVENT_SUMMARY,
    .definitions =
        "Setup: producer task on core 1 (priority 10) publishes a 16-byte state {timestamp, number}\n"
        "  every 1 ms (timestamp taken just before the publish call); consumer task on core 0\n"
        "  (priority 12) acts every 5 ms at a random phase within the producer's period and reads\n"
        "  once per action. Each mechanism runs 2 s (quick 0.4 s, or --duration).\n"
        "rtipc-queue depth=32: send with RTIPC_NO_WAIT (a full queue refuses the new value: dropped);\n"
        "  the consumer receives one item per action (the oldest).\n"
        "rtipc-queue-overwrite length=1: rtipc_queue_overwrite; the consumer peeks the value.\n"
        "rtipc-mailbox latest: rtipc_mailbox_write; the consumer reads the newest value and version.\n"
        "FreeRTOS targets only, the kernel's own queue with the same shapes, each right after rtipc's:\n"
        "kernel-queue depth=32: xQueueCreate(32, 16); the producer calls xQueueSend(q, &v, 0) (errQUEUE_FULL:\n"
        "  dropped), the consumer xQueueReceive(q, &v, 0) once per action (the oldest).\n"
        "kernel-queue-overwrite length=1: xQueueCreate(1, 16); the producer calls xQueueOverwrite, the\n"
        "  consumer xQueuePeek(q, &v, 0) (the value stays, as with a FreeRTOS \"mailbox\" queue).\n"
        "staleness: consumer's timestamp right after its read returned (when it acts) - the producer's\n"
        "  timestamp inside the value it got. Actions in the first 200 ms (or half the run if\n"
        "  shorter) are not recorded (the queue fills and its contents age), the same for every\n"
        "  mechanism; every action is sequence-checked.\n"
        "missed-updates: published values the consumer never acted on (dropped, overwritten before\n"
        "  it looked, or still queued at the end). dropped: values the mechanism refused.\n"
        "published: values the producer published.\n"
        "Checks (a failure fails the run): queue values strictly increase in consumption order and\n"
        "  every number is consumed or dropped, exactly once; overwrite and mailbox values never go\n"
        "  back (a value may repeat if no newer one exists); mailbox version = number + 1.",
    .run = run_state_vs_event,
    .requires = EXP_STATE_VS_EVENT_REQUIRES,
};
