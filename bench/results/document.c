#include "document.h"

#include <stdio.h>

#include "../harness/run.h"

const char *bench_verdict_name(bench_verdict_t v)
{
    switch (v) {
    case CLAIM_HOLDS: return "holds";
    case CLAIM_DOES_NOT_HOLD: return "does-not-hold";
    default: return "not-testable";
    }
}

void bench_doc_writer_init(bench_jw_t *w, bench_jw_sink_fn sink, void *ctx)
{
    /* Depth 1: the document's members; 2: env members, experiments and
     * rows, each on its own line; deeper (a row's histogram) inline. */
    bench_jw_init(w, sink, ctx, 2);
}

void bench_doc_begin(bench_jw_t *w)
{
    bench_jw_object_begin(w);
    bench_jw_kv_string(w, "schema", BENCH_SCHEMA);
}

void bench_doc_end(bench_jw_t *w) { bench_jw_object_end(w); }

/* The target's memory figures after the run (docs/json-schema.md, env). */
static void memory(bench_jw_t *w, const bench_memory_t *m)
{
    bench_jw_key(w, "memory");
    bench_jw_object_begin(w);
    const char *now = NULL, *extreme = NULL;
    switch (m->kind) {
    case BENCH_MEMORY_RESIDENT:
        bench_jw_kv_string(w, "kind", "resident");
        now = "now_bytes", extreme = "peak_bytes";
        break;
    case BENCH_MEMORY_HEAP_FREE:
        bench_jw_kv_string(w, "kind", "heap-free");
        now = "free_bytes", extreme = "min_free_bytes";
        break;
    default:
        bench_jw_kv_string(w, "kind", "none");
        break;
    }
    if (now) {
        bench_jw_key(w, now);
        m->now_bytes >= 0 ? bench_jw_int(w, m->now_bytes) : bench_jw_null(w);
        bench_jw_key(w, extreme);
        m->extreme_bytes >= 0 ? bench_jw_int(w, m->extreme_bytes) : bench_jw_null(w);
    }
    bench_jw_object_end(w);
}

void bench_doc_env_begin(bench_jw_t *w, const bench_env_t *e)
{
    const char *provenance = bench_clock_provenance_name(e->clock.provenance);
    bench_jw_key(w, "env");
    bench_jw_object_begin(w);
    bench_jw_kv_string(w, "cpu_model", e->cpu_model);
    bench_jw_kv_int(w, "cores_online", e->cores_online);
    bench_jw_key(w, "cpus");
    bench_jw_array_begin(w);
    bench_jw_int(w, e->cpu[0]);
    bench_jw_int(w, e->cpu[1]);
    bench_jw_array_end(w);
    bench_jw_kv_string(w, "target", e->target);
    bench_jw_kv_string(w, "kernel", e->kernel);
    bench_jw_kv_string(w, "hostname", e->hostname);
    bench_jw_kv_string(w, "sched_policy", e->sched_fifo ? "SCHED_FIFO" : "SCHED_OTHER");
    bench_jw_kv_string(w, "sched_detail", e->sched_policy);
    bench_jw_kv_string(w, "priorities", e->priorities);
    bench_jw_kv_string(w, "compiler", e->compiler);
    bench_jw_kv_string(w, "cflags", e->cflags);
    bench_jw_kv_string(w, "rtipc_version", e->rtipc_version);
    bench_jw_kv_string(w, "git_commit", e->git_commit);
    bench_jw_kv_uint(w, "tick_hz", e->tick_hz);
    bench_jw_kv_string(w, "clock_source", e->clock.name);
    bench_jw_kv_string(w, "clock_provenance", provenance ? provenance : "");
    bench_jw_kv_string(w, "clock_unit", e->clock.unit);
    bench_jw_kv_number(w, "clock_hz", e->clock.rate_hz);
    bench_jw_kv_number(w, "clock_resolution_ns", e->clock.resolution);
    bench_jw_kv_number(w, "timestamp_overhead_ns", e->timestamp_overhead_ns);
    if (e->stamp_resolution > 0)
        bench_jw_kv_number(w, "stamp_resolution", e->stamp_resolution);
    if (e->has_core_clock) {
        const char *core = bench_clock_provenance_name(e->core_clock.provenance);
        bench_jw_kv_string(w, "core_clock_source", e->core_clock.name);
        bench_jw_kv_string(w, "core_clock_provenance", core ? core : "");
        bench_jw_kv_number(w, "core_clock_hz", e->core_clock.rate_hz);
        bench_jw_kv_number(w, "core_clock_resolution_ns", e->core_clock.resolution);
    }
    bench_jw_kv_bool(w, "memory_locked", e->memory_locked);
    memory(w, &e->memory);
    bench_jw_kv_uint(w, "seed", e->seed);
    bench_jw_kv_bool(w, "quick", e->quick);
    bench_jw_kv_string(w, "started_utc", e->started_utc);
}

void bench_doc_env_end(bench_jw_t *w) { bench_jw_object_end(w); }

void bench_doc_results_begin(bench_jw_t *w)
{
    bench_jw_key(w, "results");
    bench_jw_array_begin(w);
}

void bench_doc_experiments_begin(bench_jw_t *w)
{
    bench_jw_key(w, "experiments");
    bench_jw_array_begin(w);
}

void bench_doc_list_end(bench_jw_t *w) { bench_jw_array_end(w); }

static void dist_members(bench_jw_t *w, const bench_stats_t *s)
{
    bench_jw_kv_uint(w, "n", s->n);
    bench_jw_kv_number(w, "min", s->min);
    bench_jw_kv_number(w, "mean", s->mean);
    bench_jw_kv_number(w, "p50", s->p50);
    bench_jw_kv_number(w, "p90", s->p90);
    bench_jw_kv_number(w, "p99", s->p99);
    bench_jw_kv_number(w, "p999", s->p999);
    bench_jw_kv_number(w, "max", s->max);
    bench_jw_kv_number(w, "stddev", s->stddev);
    bench_jw_kv_number(w, "jitter", s->max - s->min);
    bench_jw_key(w, "p50_ci95");
    bench_jw_array_begin(w);
    bench_jw_number(w, s->p50_lo);
    bench_jw_number(w, s->p50_hi);
    bench_jw_array_end(w);
    bench_jw_key(w, "histogram");
    bench_jw_object_begin(w);
    bench_jw_kv_int(w, "sub_bucket_bits", BENCH_HIST_SUB_BITS);
    bench_jw_key(w, "buckets");
    bench_jw_array_begin(w);
    for (size_t k = 0; s->bins && k < s->n_bins; k++) {
        bench_jw_array_begin(w);
        bench_jw_int(w, bench_hist_bucket_low(s->bins[k].bucket));
        bench_jw_uint(w, s->bins[k].count);
        bench_jw_array_end(w);
    }
    bench_jw_array_end(w);
    bench_jw_object_end(w);
}

void bench_doc_result(bench_jw_t *w, const bench_result_t *r)
{
    bench_jw_object_begin(w);
    bench_jw_kv_string(w, "experiment", r->experiment);
    bench_jw_kv_string(w, "mechanism", r->mechanism);
    bench_jw_kv_string(w, "variant", r->variant);
    if (r->kind == BENCH_MISSING) {
        bench_jw_kv_bool(w, "missing", true);
        bench_jw_kv_string(w, "note", bench_result_note_text(r));
        bench_jw_object_end(w);
        return;
    }
    bench_jw_kv_string(w, "metric", r->metric);
    bench_jw_kv_string(w, "unit", r->unit);
    if (r->kind == BENCH_VALUE)
        bench_jw_kv_number(w, "value", r->value);
    else
        dist_members(w, &r->stats);
    if (r->note)
        bench_jw_kv_string(w, "note", bench_result_note_text(r));
    if (r->clock[0])
        bench_jw_kv_string(w, "clock", r->clock);
    bench_jw_object_end(w);
}

void bench_doc_experiment(bench_jw_t *w, const bench_doc_experiment_t *x)
{
    bench_jw_object_begin(w);
    bench_jw_kv_string(w, "id", x->id);
    bench_jw_kv_string(w, "summary", x->summary);
    bench_jw_kv_string(w, "status", x->failed ? "failed" : "ok");
    if (x->failed)
        bench_jw_kv_string(w, "failure", x->failure ? x->failure : "unknown");
    bench_jw_kv_string(w, "definitions", x->definitions);
    bench_jw_kv_string(w, "notes", x->notes ? x->notes : "");
    bench_jw_kv_number(w, "seconds", x->seconds);
    bench_jw_object_end(w);
}

static void claim(bench_jw_t *w, int id, const char *text, const char *verdict, const char *rule,
                  const char *evidence)
{
    bench_jw_object_begin(w);
    bench_jw_kv_int(w, "id", id);
    bench_jw_kv_string(w, "claim", text);
    bench_jw_kv_string(w, "verdict", verdict);
    bench_jw_kv_string(w, "rule", rule);
    bench_jw_kv_string(w, "evidence", evidence);
    bench_jw_object_end(w);
}

void bench_doc_claims(bench_jw_t *w, const bench_claim_t claims[BENCH_CLAIMS])
{
    bench_jw_key(w, "claims");
    bench_jw_array_begin(w);
    for (int i = 0; i < BENCH_CLAIMS; i++)
        claim(w, claims[i].id, claims[i].claim, bench_verdict_name(claims[i].verdict), claims[i].rule,
              claims[i].evidence);
    bench_jw_array_end(w);
}

void bench_doc_claims_unaudited(bench_jw_t *w, const char *platform)
{
    bench_jw_key(w, "claims");
    bench_jw_array_begin(w);
    for (int id = 1; id <= BENCH_CLAIMS; id++) {
        char text[64], rule[160];
        snprintf(text, sizeof text, "claim %d of docs/experiments.md", id);
        snprintf(rule, sizeof rule, "%s does not audit; `rtipc-bench audit FILE` gives the verdict from these rows",
                 platform);
        claim(w, id, text, "not-testable", rule, "not audited on the target");
    }
    bench_jw_array_end(w);
}

void bench_doc_run(bench_jw_t *w, const bench_run_t *run)
{
    bench_doc_begin(w);
    bench_doc_env_begin(w, &run->env);
    bench_doc_env_end(w);
    bench_doc_experiments_begin(w);
    for (size_t i = 0; i < run->n_outcomes; i++) {
        const bench_outcome_t *oc = &run->outcomes[i];
        bench_doc_experiment_t x = {.id = oc->experiment->id,
                                    .summary = oc->experiment->summary,
                                    .definitions = oc->experiment->definitions,
                                    .notes = oc->notes,
                                    .failed = oc->failed != 0,
                                    .failure = oc->failure,
                                    .seconds = oc->seconds};
        bench_doc_experiment(w, &x);
    }
    bench_doc_list_end(w);
    bench_doc_results_begin(w);
    for (size_t i = 0; i < run->n_results; i++)
        bench_doc_result(w, run->results[i]);
    bench_doc_list_end(w);
    bench_doc_claims(w, run->claims);
    bench_doc_end(w);
}
