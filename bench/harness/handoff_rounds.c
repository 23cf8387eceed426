/* Interleaved handoff rounds (handoff_rounds.h). */
#include "handoff_rounds.h"

#include <stdlib.h>

#include "../names.h"

int handoff_measure_rounds(bench_run_t *run, handoff_case_t *cases, size_t n_cases, size_t rounds, double p0,
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
        if (r > 0 && budget_s > 0 && !bench_samples_fixed(run) &&
            spent * (double)(r + 1) / (double)r > budget_s) {
            bench_note(run,
                       "time budget: stopped after %lu of %lu rounds (%.1f s spent), so the rows "
                       "hold about %.0f%% of the samples asked",
                       (unsigned long)r, (unsigned long)rounds, spent, 100.0 * (double)r / (double)rounds);
            break;
        }
        for (size_t k = 0; k < n_cases; k++) {
            handoff_case_t *hc = &cases[r % 2 ? n_cases - 1 - k : k];
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
            if (hr != 0 || bench_failed(run)) {
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
        bench_result_t *row = bench_add_dist(run, cases[c].mechanism, cases[c].variant, BENCH_METRIC_LATENCY, &pool[c]);
        if (handoff_core_clocked(run, &cases[c].cfg))
            bench_row_core_clocked(run, row);
        cases[c].row = row;
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
