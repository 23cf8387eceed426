/* Semaphore and notification handoff adapters; interleaved measurement. */
#include "handoff_extra.h"

#include <math.h>
#include <stdlib.h>

int hx_sem_send(void *obj, uint32_t seq)
{
    hx_sem_t *s = obj;
    atomic_store_explicit(&s->seq, seq, memory_order_relaxed);
    return rtipc_sem_give(s->sem);
}

int hx_sem_recv(void *obj, uint32_t *seq)
{
    hx_sem_t *s = obj;
    int rc = rtipc_sem_take(s->sem, RTIPC_FOREVER);
    if (rc == 0)
        *seq = atomic_load_explicit(&s->seq, memory_order_relaxed);
    return rc;
}

void hx_notify_bind(void *obj, rtipc_task_t *producer, rtipc_task_t *consumer)
{
    (void)producer;
    ((hx_notify_t *)obj)->consumer = consumer;
}

int hx_notify_value_send(void *obj, uint32_t seq)
{
    hx_notify_t *n = obj;
    return rtipc_notify(n->consumer, 0, seq, RTIPC_NOTIFY_NO_OVERWRITE, NULL);
}

int hx_notify_value_recv(void *obj, uint32_t *seq)
{
    (void)obj;
    /* Waits for the pending flag, not a non-zero value: message 0 counts. */
    return rtipc_notify_wait(0, 0, UINT32_MAX, seq, RTIPC_FOREVER);
}

int hx_notify_give_send(void *obj, uint32_t seq)
{
    hx_notify_t *n = obj;
    atomic_store_explicit(&n->seq, seq, memory_order_relaxed);
    return rtipc_notify_give(n->consumer, 0);
}

int hx_notify_give_recv(void *obj, uint32_t *seq)
{
    hx_notify_t *n = obj;
    uint32_t count = 0;
    int rc = rtipc_notify_take(0, true, &count, RTIPC_FOREVER);
    if (rc != 0)
        return rc;
    if (count != 1)
        return RTIPC_EOVERFLOW; /* gives merged: a message was lost */
    *seq = atomic_load_explicit(&n->seq, memory_order_relaxed);
    return 0;
}

int hx_measure_rounds(bench_run_t *run, hx_case_t *cases, size_t n_cases, size_t rounds, double p0,
                      double p1, double budget_s)
{
    int64_t t0 = bench_now_ns();
    if (rounds == 0)
        rounds = 1;
    bench_samples_t *pool = calloc(n_cases, sizeof *pool);
    bench_samples_t round = {0};
    size_t biggest = 1;
    int rc = pool ? 0 : -1;
    for (size_t c = 0; c < n_cases && rc == 0; c++) {
        cases[c].row = NULL;
        size_t share = (cases[c].cfg.samples + rounds - 1) / rounds;
        biggest = share > biggest ? share : biggest;
        rc = bench_samples_init(&pool[c], cases[c].cfg.samples ? cases[c].cfg.samples : 1);
    }
    if (rc == 0)
        rc = bench_samples_init(&round, biggest);
    if (rc != 0) {
        rc = bench_fail(run, "out of memory");
        goto out;
    }

    for (size_t r = 0; r < rounds; r++) {
        double spent = (double)(bench_now_ns() - t0) / 1e9;
        if (r > 0 && budget_s > 0 && run->opts.samples == 0 &&
            spent * (double)(r + 1) / (double)r > budget_s) {
            bench_note(run,
                       "time budget: stopped after %lu of %lu rounds (%.1f s spent), so the rows "
                       "hold about %.0f%% of the samples asked",
                       (unsigned long)r, (unsigned long)rounds, spent, 100.0 * (double)r / (double)rounds);
            break;
        }
        for (size_t k = 0; k < n_cases; k++) {
            hx_case_t *hc = &cases[r % 2 ? n_cases - 1 - k : k];
            size_t total = hc->cfg.samples;
            handoff_cfg_t cfg = hc->cfg;
            cfg.samples = total / rounds + (r < total % rounds);
            cfg.mechanism = hc->mechanism;  /* traced under the row's names */
            cfg.variant = hc->variant;
            if (cfg.samples == 0)
                continue;
            if (hc->start && hc->start(run, hc->ctx) != 0) {
                rc = bench_fail(run, "%s/%s: load start failed", hc->mechanism, hc->variant);
                goto out;
            }
            int hr = handoff_run(run, &hc->ops, &cfg, &round);
            if (hc->stop)
                hc->stop(run, hc->ctx);
            if (hr != 0 || run->failure[0]) {
                rc = bench_fail(run, "%s/%s", hc->mechanism, hc->variant);
                goto out;
            }
            size_t ci = (size_t)(hc - cases);
            for (size_t i = 0; i < round.n; i++)
                bench_samples_push(&pool[ci], round.ns[i]);
            bench_progress(run, p0 + (p1 - p0) * (double)(r * n_cases + k + 1) /
                                          (double)(rounds * n_cases));
        }
    }
    for (size_t c = 0; c < n_cases; c++) {
        cases[c].row = bench_add_dist(run, cases[c].mechanism, cases[c].variant, BENCH_METRIC_LATENCY, &pool[c]);
        if (!cases[c].row) {
            rc = -1;
            goto out;
        }
    }
out:
    bench_samples_free(&round);
    if (pool) {
        for (size_t c = 0; c < n_cases; c++)
            bench_samples_free(&pool[c]);
        free(pool);
    }
    return rc;
}

double hx_p50_ratio(const bench_result_t *num, const bench_result_t *den)
{
    if (!num || !den || !(den->stats.p50 > 0))
        return NAN;
    return num->stats.p50 / den->stats.p50;
}
