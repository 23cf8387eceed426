/* mechanism-compare: the published mechanism table (ISR-safe, send overhead,
 * footprint) measured here for rtipc's queue and ring buffers, two
 * mutex-guarded heap queues (C++ std::queue and a C node list) and the OS
 * peers, plus receive overhead and a cross-core round trip. The mechanisms
 * are the table's (mechanisms/mechanisms.h). */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mechanisms/mechanisms.h"
#include "experiments.h"
#include "needs_tasks.h"

#define LEN 100                 /* the published shape: depth 100, 4-byte items */
#define BATCH 8                 /* calls between two timestamps in the batched rows */
#define BATCH_VARIANT BENCH_VARIANT_ITEM_4_BATCH_8  /* their variant */
#define ISR_ITEMS 10            /* items sent from the interrupt handler */
#define POISON BENCH_MECH_MARKER /* unblocks a receiver after a failure */
#define STALL_NS 2000000000LL   /* no progress for this long fails the run */

/* The mechanisms, in the order of the rows. */
static const char *const measured[] = {
    BENCH_MECH_RTIPC_QUEUE,
    BENCH_MECH_RTIPC_RINGBUF_NOSPLIT,
    BENCH_MECH_RTIPC_RINGBUF_ALLOWSPLIT,
    BENCH_MECH_RTIPC_RINGBUF_BYTEBUF,
    BENCH_MECH_STD_QUEUE_MUTEX,
    BENCH_MECH_MUTEX_CONDVAR_LIST,
    BENCH_MECH_PIPE,
    BENCH_MECH_EVENTFD,
    BENCH_MECH_POSIX_MQ,
};
#define N_MECHS (sizeof measured / sizeof measured[0])

/* What runs, in order: each of measured and, on a FreeRTOS target, the
 * kernel's own object right after the one it stands beside (the kernel
 * queue, ESP-IDF's ring buffers, and a FreeRTOS mutex around heap nodes
 * after the C heap queue). At most two per name. */
static size_t plan(const bench_mech_t **out)
{
    size_t n = 0;
    for (size_t i = 0; i < N_MECHS; i++) {
        out[n++] = bench_mech_find(measured[i]);
        const bench_mech_t *k = bench_mech_kernel_twin(measured[i]);
        if (!k && bench_mech_kernel_built && !strcmp(measured[i], BENCH_MECH_MUTEX_CONDVAR_LIST))
            k = bench_mech_find(BENCH_MECH_KERNEL_MUTEX_LIST);
        if (k)
            out[n++] = k;
    }
    return n;
}

/* The kernel's rows (kernel-*, espidf-*): their ratios are to the kernel's
 * queue, as rtipc's are to rtipc's. */
static bool is_kernel(const char *name)
{
    return !strncmp(name, "kernel-", 7) || !strncmp(name, "espidf-", 7);
}

/* ------------------------------------------------------------ the runs */

typedef struct {
    const bench_mech_t *m;
    void *obj[2];               /* [0] overhead phase / ping; [1] pong */
    int64_t ts_overhead;        /* subtracted from the overhead samples */
    size_t samples, warmup;     /* overhead phase */
    size_t batches;             /* batched overhead phase */
    size_t rt_samples, rt_warmup;
    int64_t rt_cap_ns;          /* round-trip phase time cap (0 = none) */
    bool rt_capped;             /* it stopped at the cap */
    bench_samples_t send_s, recv_s, rt_s, bsend_s, brecv_s;
    bench_rng_t rng;
    /* interrupt-safety check: the handler's outcome, published by isr_ran */
    int isr_rc;
    _Atomic int isr_ran;        /* release by the handler, acquire by the task */
    rtipc_irq_t *irq;
    int isr_ok;
    /* memory step */
    size_t mem_bytes;
    char mem_note[160];
    int mem_ok;
    /* supervision */
    _Atomic size_t progress;    /* bumped by the timed loop (relaxed: a heartbeat) */
    _Atomic int done;           /* tasks finished */
    bench_failure_t failure;
} mc_state_t;

/* A receive that failed or delivered the wrong item: quiet when the run
 * has already failed (the receiver was unblocked on purpose). Returns -1
 * when the caller must stop. */
static int check_item(mc_state_t *st, const char *what, int rc, uint32_t got, uint32_t want)
{
    char buf[96];
    if (bench_failure_is_set(&st->failure))
        return -1;
    if (rc != 0) {
        bench_failure_set(&st->failure, "%s: %s of item %lu failed: %s", st->m->name, what, (unsigned long)want,
                          bench_mech_strerror(rc, buf, sizeof buf));
        return -1;
    }
    if (got != want) {
        bench_failure_set(&st->failure,
                          "%s: %s delivered item %lu where %lu was due (lost, duplicated or reordered)",
                          st->m->name, what, (unsigned long)got, (unsigned long)want);
        return -1;
    }
    return 0;
}

static void isr_handler(void *arg)
{
    mc_state_t *st = arg;
    bool woken = false;
    int rc = 0;
    for (uint32_t k = 0; k < ISR_ITEMS && rc == 0; k++)
        rc = st->m->isr_send(st->obj[0], k, &woken);
    st->isr_rc = rc;
    rtipc_irq_yield(woken);
    /* Release: pairs with the acquire in isr_check; publishes isr_rc. */
    atomic_store_explicit(&st->isr_ran, 1, memory_order_release);
}

/* Send ISR_ITEMS items from a real interrupt handler on core 0 and receive
 * them here. Sequence numbers 0 .. ISR_ITEMS-1. */
static int isr_check(mc_state_t *st, uint32_t *seq)
{
    char buf[96];
    int rc = bench_target_irq_trigger(st->irq);
    if (rc != 0) {
        bench_failure_set(&st->failure, "%s: rtipc_irq_trigger: %s", st->m->name, rtipc_strerror(rc));
        return -1;
    }
    int64_t deadline = bench_now_ns() + STALL_NS;
    while (!atomic_load_explicit(&st->isr_ran, memory_order_acquire)) {
        if (bench_now_ns() > deadline) {
            bench_failure_set(&st->failure, "%s: the interrupt handler did not run within 2 s", st->m->name);
            return -1;
        }
        bench_sleep_ns(50000);
    }
    if (st->isr_rc != 0) {
        bench_failure_set(&st->failure, "%s: send from the interrupt handler failed: %s", st->m->name,
                          bench_mech_strerror(st->isr_rc, buf, sizeof buf));
        return -1;
    }
    for (uint32_t k = 0; k < ISR_ITEMS; k++) {
        uint32_t v = POISON;
        int rc2 = st->m->recv(st->obj[0], &v);
        if (check_item(st, "receive (items sent by the handler)", rc2, v, k))
            return -1;
    }
    *seq += ISR_ITEMS;
    st->isr_ok = 1;
    return 0;
}

/* Fill with LEN items without blocking (they must all fit), measure, then
 * drain them in order. */
static int memory_step(mc_state_t *st, uint32_t *seq)
{
    char buf[96];
    for (uint32_t k = 0; k < LEN; k++) {
        int rc = st->m->try_send(st->obj[0], *seq + k);
        if (rc != 0) {
            bench_failure_set(&st->failure, "%s: only %lu of %d 4-byte items fit (%s)", st->m->name, (unsigned long)k, LEN,
                              bench_mech_strerror(rc, buf, sizeof buf));
            return -1;
        }
    }
    int rc = st->m->memory(st->obj[0], LEN, &st->mem_bytes, st->mem_note, sizeof st->mem_note);
    if (rc != 0) {
        bench_failure_set(&st->failure, "%s: memory measurement: %s", st->m->name,
                          bench_mech_strerror(rc, buf, sizeof buf));
        return -1;
    }
    for (uint32_t k = 0; k < LEN; k++) {
        uint32_t v = POISON;
        rc = st->m->recv(st->obj[0], &v);
        if (check_item(st, "receive (memory step)", rc, v, *seq + k))
            return -1;
    }
    *seq += LEN;
    st->mem_ok = 1;
    return 0;
}

/* a / b rounded to the nearest integer, for either sign of a (b > 0). */
static int64_t div_round(int64_t a, int64_t b)
{
    return a >= 0 ? (a + b / 2) / b : -((-a + b / 2) / b);
}

/* Core 1: interrupt check, memory step, then send/receive pairs in one
 * task: the send finds nobody waiting and room; the receive finds the item. */
static void overhead_task(void *arg)
{
    mc_state_t *st = arg;
    const bench_mech_t *m = st->m;
    void *o = st->obj[0];
    uint32_t seq = 0;
    char buf[96];
    if (st->irq && isr_check(st, &seq) != 0)
        goto out;
    if (m->memory && memory_step(st, &seq) != 0)
        goto out;
    size_t total = st->warmup + st->samples;
    for (size_t i = 0; i < total; i++, seq++) {
        if (bench_failure_is_set(&st->failure))
            break;
        int64_t t0 = bench_now_ns();
        int rc = m->send(o, seq);
        int64_t t1 = bench_now_ns();
        if (rc != 0) {
            bench_failure_set(&st->failure, "%s: send of item %lu failed: %s", m->name, (unsigned long)seq,
                              bench_mech_strerror(rc, buf, sizeof buf));
            break;
        }
        uint32_t v = POISON;
        rc = m->recv(o, &v);
        int64_t t2 = bench_now_ns();
        if (check_item(st, "receive", rc, v, seq))
            break;
        if (i >= st->warmup) {
            bench_samples_push(&st->send_s, t1 - t0 - st->ts_overhead);
            bench_samples_push(&st->recv_s, t2 - t1 - st->ts_overhead);
        }
        atomic_store_explicit(&st->progress, i + 1, memory_order_relaxed);
    }
    if (m->traits & BENCH_MECH_MERGES)
        goto out;
    /* BATCH sends between two timestamps, then BATCH receives: the
     * timestamp's 10 ns steps shrink to a BATCH-th per call. */
    size_t btotal = st->warmup / BATCH + st->batches;
    for (size_t i = 0; i < btotal; i++) {
        if (bench_failure_is_set(&st->failure))
            break;
        int rc = 0;
        int64_t t0 = bench_now_ns();
        for (uint32_t k = 0; k < BATCH && rc == 0; k++)
            rc = m->send(o, seq + k);
        int64_t t1 = bench_now_ns();
        if (rc != 0) {
            bench_failure_set(&st->failure, "%s: batched send failed: %s", m->name,
                              bench_mech_strerror(rc, buf, sizeof buf));
            break;
        }
        uint32_t v[BATCH], got = 0;
        while (got < BATCH && rc == 0)
            rc = m->recv(o, &v[got++]);
        int64_t t2 = bench_now_ns();
        for (uint32_t k = 0; k < got; k++)
            if (check_item(st, "batched receive", k + 1 == got ? rc : 0, v[k], seq + k))
                goto out;
        seq += BATCH;
        if (i >= btotal - st->batches) {
            bench_samples_push(&st->bsend_s, div_round(t1 - t0 - st->ts_overhead, BATCH));
            bench_samples_push(&st->brecv_s, div_round(t2 - t1 - st->ts_overhead, BATCH));
        }
        atomic_store_explicit(&st->progress, total + i + 1, memory_order_relaxed);
    }
out:
    atomic_fetch_add(&st->done, 1);
}

/* Core 1: ping through obj[0], wait for the echo through obj[1]. */
static void rt_initiator(void *arg)
{
    mc_state_t *st = arg;
    const bench_mech_t *m = st->m;
    char buf[96];
    size_t total = st->rt_warmup + st->rt_samples;
    int64_t stop_at = st->rt_cap_ns ? bench_now_ns() + st->rt_cap_ns : INT64_MAX;
    for (size_t i = 0; i < total; i++) {
        if (bench_failure_is_set(&st->failure))
            break;
        if (i > st->rt_warmup && bench_now_ns() > stop_at) {
            /* Keep the experiment inside its time budget on a loaded machine;
             * the responder is told to stop with the poison item. */
            st->rt_capped = true;
            int rc = m->send(st->obj[0], POISON);
            if (rc != 0)
                bench_failure_set(&st->failure, "%s: stop item: send failed: %s", m->name,
                                  bench_mech_strerror(rc, buf, sizeof buf));
            break;
        }
        /* A pause so that the responder is parked in its receive again. */
        bench_spin_until(bench_now_ns() + bench_rng_range(&st->rng, 5000, 15000));
        int64_t t0 = bench_now_ns();
        int rc = m->send(st->obj[0], (uint32_t)i);
        if (rc != 0) {
            bench_failure_set(&st->failure, "%s: ping %zu: send failed: %s", m->name, i,
                              bench_mech_strerror(rc, buf, sizeof buf));
            break;
        }
        uint32_t v = POISON;
        rc = m->recv(st->obj[1], &v);
        int64_t t1 = bench_now_ns();
        if (check_item(st, "receive of the echo", rc, v, (uint32_t)i))
            break;
        if (i >= st->rt_warmup)
            bench_samples_push(&st->rt_s, t1 - t0);
        atomic_store_explicit(&st->progress, i + 1, memory_order_relaxed);
    }
    atomic_fetch_add(&st->done, 1);
}

/* Core 0: echo every ping. */
static void rt_responder(void *arg)
{
    mc_state_t *st = arg;
    const bench_mech_t *m = st->m;
    char buf[96];
    size_t total = st->rt_warmup + st->rt_samples;
    for (size_t i = 0; i < total; i++) {
        uint32_t v = POISON;
        int rc = m->recv(st->obj[0], &v);
        if (rc == 0 && v == POISON && i > st->rt_warmup)
            break;  /* the initiator stopped at the time cap */
        if (check_item(st, "receive of the ping", rc, v, (uint32_t)i))
            break;
        rc = m->send(st->obj[1], v);
        if (rc != 0) {
            bench_failure_set(&st->failure, "%s: echo %zu: send failed: %s", m->name, i,
                              bench_mech_strerror(rc, buf, sizeof buf));
            break;
        }
    }
    atomic_fetch_add(&st->done, 1);
}

/* Start the tasks, watch them, and when one fails or nothing moves for
 * STALL_NS, unblock every receiver with a poison item; then join. */
static int supervise(bench_run_t *run, mc_state_t *st, const bench_task_spec_t *cfg, int n)
{
    bench_task_t *t[2] = {NULL, NULL};
    int started = 0;
    atomic_store(&st->done, 0);
    atomic_store(&st->progress, 0);
    for (; started < n; started++) {
        int rc = bench_target_task_start(&cfg[started], &t[started]);
        if (rc != 0) {
            bench_failure_set(&st->failure, "%s: task creation: %s", st->m->name, rtipc_strerror(rc));
            break;
        }
    }
    size_t last = 0;
    int64_t last_t = bench_now_ns();
    bool poked = false;
    while (atomic_load(&st->done) < started) {
        bench_sleep_ns(2000000);
        size_t p = atomic_load_explicit(&st->progress, memory_order_relaxed);
        int64_t now = bench_now_ns();
        if (p != last) {
            last = p;
            last_t = now;
        } else if (now - last_t > STALL_NS) {
            bench_failure_set(&st->failure, "%s: no progress for 2 s after step %zu (item lost?)",
                              st->m->name, p);
        }
        if (bench_failure_is_set(&st->failure) && !poked) {
            for (int k = 0; k < 2; k++)
                if (st->obj[k])
                    (void)st->m->try_send(st->obj[k], POISON);
            poked = true;
        }
    }
    for (int k = 0; k < started; k++)
        bench_target_task_join(t[k]);
    if (bench_failure_is_set(&st->failure))
        return bench_fail(run, "%s", st->failure.why);
    return 0;
}

/* Depth posix-mq (or any mechanism) gave when it held fewer than LEN (0: as
 * asked), and which (experiment thread only). */
static size_t granted;
static const char *granted_by;

/* The mechanism is built for this target (not an absent entry). */
static bool here(const char *name)
{
    const bench_mech_t *m = bench_mech_find(name);
    return m && !m->absent;
}

static int measure_mech(bench_run_t *run, const bench_mech_t *m, mc_state_t *st)
{
    char why[160] = "";
    int rc = bench_mech_make(run, m, LEN, &st->obj[0]);
    if (rc == 1)
        return 0;
    if (rc != 0)
        return -1;
    if (m->capacity && m->capacity(st->obj[0]) < LEN) {
        granted = m->capacity(st->obj[0]);
        granted_by = m->name;
    }

    int result = 0;
    if (m->isr_send) {
        rc = bench_target_irq_create(bench_cpu(run, 0), isr_handler, st, &st->irq);
        if (rc != 0) {
            result = bench_fail(run, "%s: rtipc_irq_create: %s", m->name, rtipc_strerror(rc));
            goto out;
        }
    }
    /* A kernel object runs on the kernel's own tasks. */
    bool native = (m->traits & BENCH_MECH_NATIVE) != 0;
    bench_task_spec_t ov = {.name = "mc-overhead", .priority = 10, .core = bench_cpu(run, 1),
                            .entry = overhead_task, .arg = st, .native = native};
    result = supervise(run, st, &ov, 1);
    if (st->irq) {
        bench_target_irq_delete(st->irq);
        st->irq = NULL;
    }
    if (result != 0)
        goto out;

    if (m->create(LEN, &st->obj[1], why, sizeof why) != 0) {
        st->obj[1] = NULL;
        result = bench_fail(run, "%s (second instance): %s", m->name, why);
        goto out;
    }
    bench_task_spec_t rt[2] = {
        {.name = "mc-responder", .priority = 12, .core = bench_cpu(run, 0), .entry = rt_responder, .arg = st,
         .native = native},
        {.name = "mc-initiator", .priority = 10, .core = bench_cpu(run, 1), .entry = rt_initiator, .arg = st,
         .native = native},
    };
    result = supervise(run, st, rt, 2);
    if (result != 0)
        goto out;
    if (st->rt_capped)
        bench_note(run, "%s: round trip stopped at its %.1f s time cap after %zu of %zu samples (loaded "
                   "machine)", m->name, (double)st->rt_cap_ns / 1e9, st->rt_s.n, st->rt_samples);

    if (!bench_add_dist(run, m->name, BENCH_VARIANT_ITEM_4, BENCH_METRIC_SEND_OVERHEAD, &st->send_s) ||
        !bench_add_dist(run, m->name, BENCH_VARIANT_ITEM_4, "receive-overhead", &st->recv_s) ||
        !bench_add_dist(run, m->name, BENCH_VARIANT_ITEM_4, BENCH_METRIC_ROUND_TRIP, &st->rt_s)) {
        result = -1;
        goto out;
    }
    if (!(m->traits & BENCH_MECH_MERGES) &&
        (!bench_add_dist(run, m->name, BATCH_VARIANT, BENCH_METRIC_SEND_OVERHEAD, &st->bsend_s) ||
         !bench_add_dist(run, m->name, BATCH_VARIANT, "receive-overhead", &st->brecv_s))) {
        result = -1;
        goto out;
    }
    bench_result_t *r = bench_add_value(run, m->name, BENCH_VARIANT_ITEM_4, BENCH_METRIC_ISR_SAFE, "bool",
                                        st->isr_ok);
    if (r && !st->isr_ok)
        bench_row_note(run, r, "no interrupt-safe send offered");
    else if (r)
        bench_row_note(run, r, "%d items sent from an rtipc interrupt handler, received in order",
                 ISR_ITEMS);
    if (st->mem_ok) {
        r = bench_add_value(run, m->name, BENCH_VARIANT_LEN_100_ITEM_4, BENCH_METRIC_MEMORY, "B",
                            (double)st->mem_bytes);
        if (r)
            bench_row_note(run, r, "%s", st->mem_note);
    }
out:
    for (int k = 0; k < 2; k++)
        if (st->obj[k])
            m->destroy(st->obj[k]);
    return result;
}

static int run_mechanism_compare(bench_run_t *run)
{
    granted = 0;
    granted_by = NULL;
    mc_state_t *st = calloc(1, sizeof *st);
    if (!st)
        return bench_fail(run, "out of memory");
    size_t samples = bench_sample_count(run, 50000, 3000);
    size_t rt_samples = bench_sample_count(run, 10000, 1000);
    size_t batches = samples / BATCH;  /* as many calls as the unbatched rows */
    int result = 0;
    if (bench_samples_init(&st->send_s, samples) || bench_samples_init(&st->recv_s, samples) ||
        bench_samples_init(&st->rt_s, rt_samples) || bench_samples_init(&st->bsend_s, batches) ||
        bench_samples_init(&st->brecv_s, batches)) {
        result = bench_fail(run, "out of memory");
        goto out;
    }
    const bench_mech_t *mechs[2 * N_MECHS];
    size_t n_mechs = plan(mechs);
    for (size_t i = 0; i < n_mechs && result == 0; i++) {
        bench_progress(run, (double)i / n_mechs);
        mc_state_t *s = st;
        /* Fresh state per mechanism; the sample buffers are kept. */
        bench_samples_t keep[5] = {s->send_s, s->recv_s, s->rt_s, s->bsend_s, s->brecv_s};
        memset(s, 0, sizeof *s);
        s->send_s = keep[0];
        s->recv_s = keep[1];
        s->rt_s = keep[2];
        s->bsend_s = keep[3];
        s->brecv_s = keep[4];
        s->send_s.n = s->recv_s.n = s->rt_s.n = s->bsend_s.n = s->brecv_s.n = 0;
        s->m = mechs[i];
        if (!s->m) {
            result = bench_fail(run, "a mechanism this experiment names is not in the table");
            break;
        }
        s->ts_overhead = llround(bench_timestamp_overhead_ns(run));
        s->samples = samples;
        s->warmup = bench_warmup_count(run, samples);
        s->batches = batches;
        s->rt_samples = rt_samples;
        s->rt_warmup = bench_warmup_count(run, rt_samples);
        /* Nine mechanisms must fit the experiment's budget; an explicit
         * --samples is obeyed whatever it costs. */
        s->rt_cap_ns = bench_samples_fixed(run) ? 0 : bench_quick(run) ? 100000000 : 700000000;
        bench_rng_init(&s->rng, run, i);
        result = measure_mech(run, s->m, s);
    }
    bench_progress(run, 1.0);
    if (result != 0)
        goto out;

    /* Ratios from the batched rows: the unbatched p50s sit on the
     * timestamp's 10 ns steps. */
    /* (Rows move when rows are added: keep values, not pointers.) */
    const char *e = BENCH_EXP_MECHANISM_COMPARE, *send = BENCH_METRIC_SEND_OVERHEAD;
    const bench_result_t *q = bench_find(run, e, BENCH_MECH_RTIPC_QUEUE, BATCH_VARIANT, send);
    const bench_result_t *kq = bench_find(run, e, BENCH_MECH_KERNEL_QUEUE, BATCH_VARIANT, send);
    double q50 = q ? q->stats.p50 : 0, kq50 = kq ? kq->stats.p50 : 0;
    for (size_t i = 0; i < n_mechs; i++) {
        bool k = is_kernel(mechs[i]->name);
        double base = k ? kq50 : q50;
        const bench_result_t *r = bench_find(run, e, mechs[i]->name, BATCH_VARIANT, send);
        if (r && base > 0) {
            double ratio = r->stats.p50 / base;
            bench_add_value(run, mechs[i]->name, BATCH_VARIANT, k ? "send-vs-kernel-queue" : "send-vs-rtipc-queue",
                            "x", ratio);
        }
    }
    bench_note(run, "send/receive overhead: %lld ns of timestamp overhead subtracted from every sample "
               "(so a sample can fall slightly below 0); round-trip includes it",
               (long long)llround(bench_timestamp_overhead_ns(run)));
    /* Remarks about the peers, where this target has them. */
    if (here(BENCH_MECH_EVENTFD))
        bench_note(run, "eventfd carries no payload: the sequence number goes through a shared variable "
                   "(stored before the write, loaded after the read; the read must return a count of 1)");
    if (here(BENCH_MECH_PIPE))
        bench_note(run, "pipe, eventfd, posix-mq: their memory is in the kernel, so no memory row");
    if (here(BENCH_MECH_MUTEX_CONDVAR_LIST))
        bench_note(run, "heap queues' memory: the control structure plus the heap blocks live with 100 "
                   "items, as malloc_usable_size reports them");
    if (granted)
        bench_note(run, "%s: the kernel refused depth %d; measured with depth %zu (at most one "
                   "message is in flight)", granted_by, LEN, granted);
out:
    bench_samples_free(&st->send_s);
    bench_samples_free(&st->recv_s);
    bench_samples_free(&st->rt_s);
    bench_samples_free(&st->bsend_s);
    bench_samples_free(&st->brecv_s);
    free(st);
    return result || bench_failed(run) ? -1 : 0;
}

const bench_experiment_t exp_mechanism_compare = {
    .id = BENCH_EXP_MECHANISM_COMPARE,
    .summary = EXP_MECHANISM_COMPARE_SUMMARY,
    .requires = EXP_MECHANISM_COMPARE_REQUIRES,
    .definitions =
        "Mechanisms: rtipc-queue (depth 100, 4-byte items), rtipc-ringbuf-nosplit/-allowsplit\n"
        "  (800 B storage = 100 items of 4 B header + 4 B data), rtipc-ringbuf-bytebuf (400 B; copying\n"
        "  send, receive_up_to + return), std-queue-mutex (C++ std::queue<uint32_t> + std::mutex + two\n"
        "  std::condition_variable, bounded to 100: lock, push or pop, unlock, notify_one the other\n"
        "  side; on Linux and in the ESP32 app, where ESP-IDF's pthreads carry the mutex and the\n"
        "  condition variables), mutex-condvar-list (C pthread mutex + condvar + a list node\n"
        "  malloc'd per send and freed per receive), pipe (4-byte write/read), eventfd (no payload:\n"
        "  the sequence number goes through a shared variable, the count must read 1), posix-mq\n"
        "  (mq_send/mq_receive of 4 bytes, depth 100). All items are 4 bytes and carry a sequence number checked on receipt;\n"
        "  blocking calls are used throughout.\n"
        "On a FreeRTOS target the kernel's own objects run beside them, each right after the row\n"
        "  it stands beside, under the same variants and metrics:\n"
        "  kernel-queue: xQueueCreate(100, 4); xQueueSend / xQueueReceive with portMAX_DELAY.\n"
        "  espidf-ringbuf-nosplit/-allowsplit/-bytebuf (ESP-IDF only; missing, with the reason,\n"
        "    elsewhere): xRingbufferCreate of 100 x (8 B header + 4 B), bytebuf 400 B;\n"
        "    xRingbufferSend, then xRingbufferReceive (bytebuf: xRingbufferReceiveUpTo) + copy\n"
        "    out + vRingbufferReturnItem.\n"
        "  kernel-mutex-list: a FreeRTOS mutex around a list of heap nodes, pvPortMalloc'd per\n"
        "    send and freed per receive, plus a counting semaphore the receiver takes: the\n"
        "    FreeRTOS form of std-queue-mutex / mutex-condvar-list. Its send-overhead spans\n"
        "    pvPortMalloc + mutex take + link + give + semaphore give.\n"
        "  isr-safe: xQueueSendFromISR / xRingbufferSendFromISR from the same rtipc interrupt\n"
        "    handler, pxHigherPriorityTaskWoken passed on to its yield; a FreeRTOS mutex cannot\n"
        "    be taken in a handler (0). memory: the kernel heap's free bytes before and after the\n"
        "    object's creation (xPortGetFreeHeapSize; block headers included), plus the live\n"
        "    nodes for kernel-mutex-list.\n"
        "send-overhead: one task on core 1 (priority 10) alternates send and receive. Timestamp just\n"
        "  before the send call and just after it returns, minus the timestamp overhead; nobody is\n"
        "  waiting and the mechanism is never full (it holds nothing). The receive is outside it.\n"
        "receive-overhead: same loop; timestamp after the send returned to timestamp after the\n"
        "  receive returned, minus the timestamp overhead: an item is present, nobody waits.\n"
        "  Ring buffers: receive + copy out + return of the space.\n"
        "round-trip: a task on core 1 (priority 10) sends item i through one instance and blocks on a\n"
        "  second instance; a task on core 0 (priority 12), blocked in its receive, echoes i back.\n"
        "  From the core-1 timestamp before the send to the core-1 timestamp after the echo's\n"
        "  receive returned (two cross-core wake-ups of a sleeping receiver). A random 5-15 us pause\n"
        "  before each ping lets the echoing task park again. On a loaded machine the phase stops\n"
        "  after 0.7 s (quick 0.1 s) with fewer samples, and a note says so.\n"
        "isr-safe: 1 when the library offers a send callable from an interrupt handler: for rtipc\n"
        "  objects checked by sending 10 items from a real rtipc interrupt handler on core 0 and\n"
        "  receiving them in order; 0 for the others (no interrupt-context send exists).\n"
        "memory (len=100,item=4): bytes with 100 items stored. rtipc: the object's footprint function\n"
        "  (control block + storage), after checking that 100 items fit without blocking. Heap\n"
        "  queues: control structure + the heap blocks live with 100 items (malloc_usable_size;\n"
        "  std::deque allocates 512-byte blocks, measured with a counting allocator). OS peers: the\n"
        "  memory is in the kernel: no row.\n"
        "item=4,batch=8 (send-overhead, receive-overhead): the same loop with 8 sends between two\n"
        "  timestamps, then 8 receives between two: (t_after - t_before - timestamp overhead) / 8 per\n"
        "  sample, so the timestamp's 10 ns steps shrink to 1.25 ns. The mechanism holds 0..7 items\n"
        "  during the sends (never full, nobody waiting). Not for eventfd (its count merges signals).\n"
        "send-vs-rtipc-queue (item=4,batch=8): a mechanism's batched send-overhead p50 divided by\n"
        "  rtipc-queue's. send-vs-kernel-queue: the same for a kernel row, divided by kernel-queue's.",
    .run = run_mechanism_compare,
};
