/* notify-vs-sem: the comparison of published field report 2
 * (docs/experiments.md), cross-core, sender on core 0 and receiver on core 1:
 * binary semaphore give -> take against task notification give -> take,
 * measured properly (closed-loop handoff) and by the report's naive method,
 * to show what that method measures. On FreeRTOS the kernel's own pair
 * (xSemaphoreGive/xSemaphoreTake against xTaskNotifyGive/ulTaskNotifyTake)
 * is measured beside rtipc's, by both methods, in the same rounds. */
#include "../harness/handoff_rounds.h"
#include "../mechanisms/freertos_calls.h"
#include "experiments.h"
#include "kernel_rows.h"
#include "needs_tasks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { MECH_SEM, MECH_NOTIFY };
static const char *const mech_name[] = {BENCH_MECH_RTIPC_SEM, BENCH_MECH_RTIPC_NOTIFY};

/* ---- the naive method ---------------------------------------------------
 * The receiver stamps the time, blocks in take, stamps again, and records
 * the difference; the sender gives, then sleeps one tick period, in a loop.
 * The sender also stamps just before each give, so the naive figure can be
 * split into "waiting for the give" and "give -> take". */

typedef struct {
    int mech;
    const bench_mech_t *km;       /* the kernel's object instead of rtipc's (FreeRTOS) */
    void *kobj;
    rtipc_sem_t *sem;             /* MECH_SEM */
    rtipc_task_t *receiver;       /* rtipc's MECH_NOTIFY; set before the sender starts */
    _Atomic uint32_t seq;         /* written before give, read after take */
    int64_t *t_give;              /* per message: sender's stamp before give */
    size_t total, warmup;
    int64_t tick_ns;
    bench_samples_t naive;        /* receiver: after take - before take */
    bench_samples_t handoff;      /* receiver: after take - sender's stamp */
    bench_samples_t waiting;      /* receiver: sender's stamp - before take */
    _Atomic size_t acked;         /* messages received (release by receiver) */
    _Atomic int ready;            /* receiver started */
    bench_failure_t failure;
} naive_t;

static void naive_receiver(void *arg)
{
    naive_t *nv = arg;
    atomic_store_explicit(&nv->ready, 1, memory_order_release);
    for (size_t i = 0; i < nv->total; i++) {
        uint32_t count = 1;
        uint32_t seq = UINT32_MAX;
        int64_t t0 = bench_now_ns();
        /* Bounded: a lost give becomes a failure, not a hang (the kernel's
         * take waits portMAX_DELAY: the sender's 2 s bound fails the run and
         * the task is deleted). */
        int rc = nv->km                ? nv->km->recv(nv->kobj, &seq)
                 : nv->mech == MECH_SEM ? rtipc_sem_take(nv->sem, rtipc_ms(2000))
                                        : rtipc_notify_take(0, true, &count, rtipc_ms(2000));
        int64_t t1 = bench_now_ns();
        if (rc != 0) {
            bench_failure_set(&nv->failure, "naive: take of message %ld failed with %ld", (long)i, (long)rc);
            return;
        }
        if (!nv->km)
            seq = atomic_load_explicit(&nv->seq, memory_order_relaxed);
        if (count != 1 || seq != (uint32_t)i) {
            bench_failure_set(&nv->failure, "naive: message %ld arrived where %ld was due (lost or merged)",
                              (long)seq, (long)i);
            return;
        }
        if (i >= nv->warmup) {
            bench_samples_push(&nv->naive, t1 - t0);
            bench_samples_push(&nv->handoff, t1 - nv->t_give[i]);
            bench_samples_push(&nv->waiting, nv->t_give[i] - t0);
        }
        atomic_store_explicit(&nv->acked, i + 1, memory_order_release);
    }
}

/* Waits until @p want messages were received; 0, or -1 on failure/stall. */
static int naive_wait_acked(naive_t *nv, size_t want)
{
    int64_t deadline = bench_now_ns() + 2000000000;
    while (atomic_load_explicit(&nv->acked, memory_order_acquire) < want) {
        if (bench_failure_is_set(&nv->failure))
            return -1;
        if (bench_now_ns() > deadline) {
            bench_failure_set(&nv->failure, "naive: message %ld not received within 2 s (%ld received)",
                              (long)want - 1, (long)atomic_load(&nv->acked));
            return -1;
        }
        bench_sleep_ns(20000);
    }
    return 0;
}

static void naive_sender(void *arg)
{
    naive_t *nv = arg;
    int64_t deadline = bench_now_ns() + 2000000000;
    while (!atomic_load_explicit(&nv->ready, memory_order_acquire)) {
        if (bench_now_ns() > deadline) {
            bench_failure_set(&nv->failure, "naive: receiver did not start within 2 s");
            return;
        }
        bench_sleep_ns(100000);
    }
    for (size_t i = 0; i < nv->total; i++) {
        /* Normally long done after a tick; this only keeps a stalled
         * receiver (shared machine) from seeing two gives merged. */
        if (naive_wait_acked(nv, i) != 0)
            return;
        atomic_store_explicit(&nv->seq, (uint32_t)i, memory_order_relaxed);
        nv->t_give[i] = bench_now_ns();
        int rc = nv->km                ? nv->km->send(nv->kobj, (uint32_t)i)
                 : nv->mech == MECH_SEM ? rtipc_sem_give(nv->sem)
                                        : rtipc_notify_give(nv->receiver, 0);
        if (rc != 0) {
            bench_failure_set(&nv->failure, "naive: give of message %ld failed with %ld", (long)i, (long)rc);
            return;
        }
        /* A FreeRTOS user's "one tick" is vTaskDelay(1); rtipc's is a
         * delay of one tick period (at least that long). */
        if (nv->km)
            bench_kdelay_ticks(1);
        else
            bench_delay_ns(nv->tick_ns);
    }
    naive_wait_acked(nv, nv->total);
}

typedef struct {
    const bench_result_t *naive, *handoff;
    double wait_share;            /* mean waiting / mean naive */
} naive_out_t;

/* rtipc's @p mech, or with @p km the kernel's object of that kind (a fresh
 * one: a notification learns its receiver at the first take). */
static int naive_run(bench_run_t *run, int mech, rtipc_sem_t *sem, const bench_mech_t *km, size_t samples,
                     naive_out_t *out)
{
    const char *name = km ? km->name : mech_name[mech];
    void *kobj = NULL;
    if (km && bench_mech_make(run, km, 1, &kobj) != 0)
        return bench_failed(run) ? -1 : 1;
    naive_t *nv = calloc(1, sizeof *nv);
    if (!nv) {
        if (kobj)
            km->destroy(kobj);
        return bench_fail(run, "out of memory");
    }
    nv->mech = mech;
    nv->km = km;
    nv->kobj = kobj;
    nv->sem = sem;
    nv->warmup = 10;
    nv->total = samples + nv->warmup;
    nv->tick_ns = rtipc_tick_period_ns();
    nv->t_give = calloc(nv->total, sizeof *nv->t_give);
    int rc = 0;
    if (!nv->t_give || bench_samples_init(&nv->naive, samples) ||
        bench_samples_init(&nv->handoff, samples) || bench_samples_init(&nv->waiting, samples))
        rc = bench_fail(run, "out of memory");

    bench_task_t *rx = NULL, *tx = NULL;
    if (rc == 0) {
        bench_task_spec_t rc_cfg = {.name = "naive-receiver", .priority = 12, .core = bench_cpu(run, 1),
                                    .entry = naive_receiver, .arg = nv, .native = km != NULL};
        bench_task_spec_t tc_cfg = {.name = "naive-sender", .priority = 10, .core = bench_cpu(run, 0),
                                    .entry = naive_sender, .arg = nv, .native = km != NULL};
        int cr = bench_target_task_start(&rc_cfg, &rx);
        if (cr == 0) {
            nv->receiver = bench_target_task_rtipc(rx); /* before the sender exists: its creation publishes it */
            if (km && km->bind)
                km->bind(kobj, NULL, rx);
            cr = bench_target_task_start(&tc_cfg, &tx);
        }
        if (cr != 0) {
            rc = bench_fail(run, "naive: task creation failed: %s", rtipc_strerror(cr));
            if (rx)
                bench_target_task_delete(rx);
        } else {
            bench_target_task_join(tx);
            if (bench_failure_is_set(&nv->failure))
                bench_target_task_delete(rx);  /* it may be blocked for a lost give */
            else
                bench_target_task_join(rx);
            if (bench_failure_is_set(&nv->failure))
                rc = bench_fail(run, "%s: %s", name, nv->failure.why);
        }
    }
    if (rc == 0) {
        double sum_wait = 0, sum_naive = 0;
        for (size_t i = 0; i < nv->naive.n; i++) {
            sum_wait += (double)nv->waiting.ns[i];
            sum_naive += (double)nv->naive.ns[i];
        }
        out->wait_share = sum_naive > 0 ? sum_wait / sum_naive : NAN;
        out->naive = bench_add_dist(run, name, "naive", BENCH_METRIC_LATENCY, &nv->naive);
        out->handoff = bench_add_dist(run, name, "naive", "give-to-take", &nv->handoff);
        if (!out->naive || !out->handoff)
            rc = -1;
    }
    bench_samples_free(&nv->naive);
    bench_samples_free(&nv->handoff);
    bench_samples_free(&nv->waiting);
    free(nv->t_give);
    free(nv);
    if (kobj)
        km->destroy(kobj);
    return rc;
}

/* ---- the experiment ------------------------------------------------------ */

/* The closed-loop and naive p50 (mean) ratios of a semaphore over a
 * notification, under @p mech ("sem/notify", "kernel-sem/kernel-notify"). */
static void ratios(bench_run_t *run, const char *mech, const bench_result_t *s, const bench_result_t *n)
{
    bench_add_value(run, mech, bench_core_variant(run), BENCH_METRIC_P50_RATIO, "x", bench_p50_ratio(s, n));
    bench_add_value(run, mech, bench_core_variant(run), "mean-ratio", "x",
                    n->stats.mean > 0 ? s->stats.mean / n->stats.mean : NAN);
}

static void naive_note(bench_run_t *run, const char *who, const naive_out_t *ns, const naive_out_t *nn)
{
    bool waits = ns->wait_share >= 0.5 && nn->wait_share >= 0.5;
    bench_note(run,
               "%s (before take -> after take, the sender sleeping one %.0f us tick between "
               "gives): semaphore p50 %.1f us, notification %.1f us, x%.2f. Waiting for the sender's next "
               "give is %.1f%% (sem) and %.1f%% (notify) of the naive mean; the give -> take part "
               "inside it is %.2f / %.2f us p50. %s",
               who, (double)rtipc_tick_period_ns() / 1000, ns->naive->stats.p50 / 1000,
               nn->naive->stats.p50 / 1000, bench_p50_ratio(ns->naive, nn->naive),
               ns->wait_share * 100, nn->wait_share * 100, ns->handoff->stats.p50 / 1000,
               nn->handoff->stats.p50 / 1000,
               waits ? "So the naive method mostly measures the wait for the sender's next "
                       "give, one tick period after the last, not the handoff; its ratio says "
                       "little about the two mechanisms."
                     : "Here the naive figure is mostly the handoff itself.");
}

static int run_notify_vs_sem(bench_run_t *run)
{
    bench_rtipc_sem_handoff_t sem = {0};
    bench_rtipc_notify_handoff_t note = {0};
    int rc = rtipc_sem_create_binary(&sem.sem);
    if (rc != 0)
        return bench_fail(run, "semaphore create: %s", rtipc_strerror(rc));
    if (!bench_two_cores(run))
        bench_note(run, "one core here: sender and receiver share it, so the rows are same-core, not the "
                        "report's cross-core");

    /* The kernel's pair where rtipc runs on FreeRTOS (NULL on Linux). */
    const bench_mech_t *kern[2] = {bench_mech_kernel_twin(mech_name[MECH_SEM]),
                                   bench_mech_kernel_twin(mech_name[MECH_NOTIFY])};
    kernel_round_t kr[2] = {{0}};
    int at_k[2] = {-1, -1}; /* the kernel's cases, -1 when not measured */

    /* Proper measurement: closed-loop handoff, sender (producer) on core 0,
     * receiver (consumer) on core 1, as the report pinned them. */
    size_t rounds = bench_quick(run) ? 2 : 4;
    handoff_case_t cases[4] = {
        {.mechanism = mech_name[MECH_SEM], .variant = bench_core_variant(run),
         .ops = {.send = bench_rtipc_sem_send, .recv = bench_rtipc_sem_recv, .obj = &sem}},
        {.mechanism = mech_name[MECH_NOTIFY], .variant = bench_core_variant(run),
         .ops = {.send = bench_rtipc_notify_give_send, .recv = bench_rtipc_notify_give_recv, .bind = bench_rtipc_notify_bind,
                 .obj = &note}},
    };
    size_t n = 2;
    for (int m = 0; m < 2 && !bench_failed(run); m++) {
        if (!kern[m] || kernel_round_init(run, &kr[m], kern[m], 1, &cases[n].ops) != 0)
            continue;  /* Linux, missing (recorded) or failed */
        cases[n].mechanism = kern[m]->name;
        cases[n].variant = bench_core_variant(run);
        cases[n].start = kernel_round_start;
        cases[n].stop = kernel_round_stop;
        cases[n].ctx = &kr[m];
        at_k[m] = (int)n++;
    }
    for (size_t c = 0; c < n; c++) {
        handoff_cfg_t *cfg = &cases[c].cfg;
        *cfg = handoff_default(run, 20000, 2000);
        cfg->producer_cpu = bench_cpu(run, 0);
        cfg->consumer_cpu = bench_cpu(run, 1);
        cfg->warmup = bench_warmup_count(run, cfg->samples / rounds);
    }
    kernel_rows_fit_heap(run, cases, n);
    bench_progress(run, 0.0);
    /* The budget grows with the kernel's cases: each case has its share. */
    double budget_s = (bench_quick(run) ? 0.8 : 6.0) * (double)n / 2;
    if (bench_failed(run) || handoff_measure_rounds(run, cases, n, rounds, 0.0, 0.4, budget_s) != 0)
        goto out;
    const bench_result_t *s = cases[0].row, *nt = cases[1].row;
    ratios(run, BENCH_MECH_SEM_OVER_NOTIFY, s, nt);
    const bool kpair = at_k[0] >= 0 && at_k[1] >= 0;
    if (kpair)
        ratios(run, BENCH_MECH_KERNEL_SEM_OVER_NOTIFY, cases[at_k[0]].row, cases[at_k[1]].row);

    /* Naive method: the report's 1000 iterations (quick 200), fewer when
     * --samples asks for fewer, and at most ~1 s (quick 0.2 s) of ticks. */
    size_t iters = bench_sample_count(run, 1000, 200);
    size_t cap = bench_quick(run) ? 200 : 1000;
    double per_s = 1e9 / (double)rtipc_tick_period_ns();
    if (cap > (bench_quick(run) ? 0.2 : 1.0) * per_s)
        cap = (size_t)((bench_quick(run) ? 0.2 : 1.0) * per_s);
    if (iters > cap)
        iters = cap < 20 ? 20 : cap;
    naive_out_t nsem = {0}, nnote = {0}, ksem = {0}, knote = {0};
    if (naive_run(run, MECH_SEM, sem.sem, NULL, iters, &nsem) != 0)
        goto out;
    bench_progress(run, kpair ? 0.55 : 0.7);
    if (naive_run(run, MECH_NOTIFY, NULL, NULL, iters, &nnote) != 0)
        goto out;
    bench_progress(run, kpair ? 0.7 : 1.0);
    bench_add_value(run, BENCH_MECH_SEM_OVER_NOTIFY, "naive", BENCH_METRIC_P50_RATIO, "x",
                    bench_p50_ratio(nsem.naive, nnote.naive));
    /* The kernel's pair by the report's method too, as the report ran it. */
    bool knaive = false;
    if (kpair) {
        if (naive_run(run, MECH_SEM, NULL, kern[MECH_SEM], iters, &ksem) < 0)
            goto out;
        bench_progress(run, 0.85);
        if (ksem.naive && naive_run(run, MECH_NOTIFY, NULL, kern[MECH_NOTIFY], iters, &knote) < 0)
            goto out;
        bench_progress(run, 1.0);
        knaive = ksem.naive && knote.naive;
        if (knaive)
            bench_add_value(run, BENCH_MECH_KERNEL_SEM_OVER_NOTIFY, "naive", BENCH_METRIC_P50_RATIO, "x",
                            bench_p50_ratio(ksem.naive, knote.naive));
    }

    bench_note(run,
               "Closed loop (give -> take): semaphore p50 %.2f us, notification %.2f us, "
               "sem/notify x%.2f (mean x%.2f).",
               s->stats.p50 / 1000, nt->stats.p50 / 1000, bench_p50_ratio(s, nt),
               s->stats.mean / nt->stats.mean);
    if (kpair) {
        const bench_result_t *ks = cases[at_k[0]].row, *kn = cases[at_k[1]].row;
        bench_note(run,
                   "The kernel's own calls, closed loop: xSemaphoreGive -> xSemaphoreTake p50 %.2f us, "
                   "xTaskNotifyGive -> ulTaskNotifyTake %.2f us, kernel-sem/kernel-notify x%.2f (mean x%.2f).",
                   ks->stats.p50 / 1000, kn->stats.p50 / 1000, bench_p50_ratio(ks, kn),
                   ks->stats.mean / kn->stats.mean);
    }
    naive_note(run, knaive ? "rtipc's naive" : "Naive", &nsem, &nnote);
    if (knaive)
        naive_note(run, "The kernel's naive", &ksem, &knote);
out:
    for (int m = 0; m < 2; m++)
        kernel_round_done(&kr[m]);
    rc = rtipc_sem_delete(sem.sem);
    if (rc != 0)
        bench_fail(run, "semaphore delete: %s", rtipc_strerror(rc));
    return bench_failed(run) ? -1 : 0;
}

const bench_experiment_t exp_notify_vs_sem = {
    .id = BENCH_EXP_NOTIFY_VS_SEM,
    .summary = EXP_NOTIFY_VS_SEM_SUMMARY,
    .definitions =
        "Sender on core 0 (priority 10), receiver on core 1 (priority 12), as in the report.\n"
        "rtipc-sem: the sender stores the sequence number in a shared variable, then\n"
        "  rtipc_sem_give on a binary semaphore; the receiver rtipc_sem_take, then reads it.\n"
        "rtipc-notify: the same with rtipc_notify_give (slot 0) and rtipc_notify_take with clear\n"
        "  (the count taken must be exactly 1). A failed give or a wrong number fails the run.\n"
        "kernel-sem, kernel-notify (FreeRTOS targets only): the same with the kernel's own calls,\n"
        "  a fresh object per round and per naive run: the number stored, then xSemaphoreGive on a\n"
        "  binary semaphore -> xSemaphoreTake(portMAX_DELAY), then read; the number stored, then\n"
        "  xTaskNotifyGive -> ulTaskNotifyTake(pdTRUE, portMAX_DELAY), then read (a count other\n"
        "  than 1 fails). They run in the same rounds as rtipc's, on the kernel's own tasks.\n"
        "latency, variant cross-core (closed loop, as queue-latency): from the sender's timestamp\n"
        "  just before the give to the receiver's timestamp just after the take returned. The\n"
        "  sender gives only after the previous message was acknowledged and a random 20-40 us\n"
        "  gap, so the receiver is parked in its take. Both cases run interleaved in rounds (4,\n"
        "  quick: 2), samples pooled.\n"
        "sem/notify cross-core p50-ratio, mean-ratio: semaphore p50 (mean) / notification p50\n"
        "  (mean); kernel-sem/kernel-notify: the same for the kernel's pair.\n"
        "With one core every row is same-core (variant same-core; a note says so).\n"
        "latency, variant naive (the report's method): the receiver takes a timestamp, blocks in\n"
        "  take (2 s bound), takes a timestamp when it returns and records the difference; the\n"
        "  sender gives once, then sleeps one tick (rtipc's rows: rtipc_task_delay of one tick\n"
        "  period; the kernel's: vTaskDelay(1), as a FreeRTOS user writes it), in a loop: 1000\n"
        "  iterations (quick: 200; fewer with --samples, at most ~1 s of ticks), the first 10 not\n"
        "  recorded. The sender gives only after the previous give was taken (normally long\n"
        "  done; this keeps a stalled receiver from seeing two gives merge).\n"
        "give-to-take, variant naive: in the same loop, the sender's timestamp just before the give\n"
        "  to the receiver's timestamp after the take (the handoff hidden inside the naive figure).\n"
        "  The kernel's pair runs it too (take with portMAX_DELAY: a give lost for 2 s fails the\n"
        "  run and the receiver is deleted).\n"
        "sem/notify naive p50-ratio: naive semaphore p50 / naive notification p50;\n"
        "  kernel-sem/kernel-notify naive: the same for the kernel's pair.\n"
        "On a machine so loaded that the next round would overrun the experiment's time budget,\n"
        "  no further round starts and a note says so (not with --samples).\n"
        "The timestamp overhead (env.timestamp_overhead_ns) is included, not subtracted.",
    .run = run_notify_vs_sem,
    .requires = EXP_NOTIFY_VS_SEM_REQUIRES,
};
