/* Tables on stdout, JSON (schema rtipc-bench/1, docs/json-schema.md) and CSV. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../results/outfile.h"
#include "bench.h"

/* ---------------------------------------------------------------- tables */

static void put_us(FILE *out, double ns, int width)
{
    if (isnan(ns))
        fprintf(out, " %*s", width, "-");
    else
        fprintf(out, " %*.3f", width, ns / 1000.0);
}

static size_t max_len(const bench_run_t *run, const bench_outcome_t *oc, bench_kind_t kind,
                      int field, size_t floor)
{
    size_t w = floor;
    for (size_t i = 0; i < run->n_results; i++) {
        const bench_result_t *r = &run->results[i];
        if (r->kind != kind || strcmp(r->experiment, oc->experiment->id) != 0)
            continue;
        const char *f = field == 0 ? r->mechanism : field == 1 ? r->variant : r->metric;
        size_t l = strlen(f);
        if (l > w)
            w = l;
    }
    return w;
}

void bench_print_experiment(FILE *out, const bench_run_t *run, const bench_outcome_t *oc)
{
    const char *id = oc->experiment->id;
    fprintf(out, "\n== %s: %s ==\n", id, oc->experiment->summary);
    int mw = (int)max_len(run, oc, BENCH_DIST, 0, 9), vw = (int)max_len(run, oc, BENCH_DIST, 1, 7);
    int tw = (int)max_len(run, oc, BENCH_DIST, 2, 6);
    bool header = false;
    for (size_t i = 0; i < run->n_results; i++) {
        const bench_result_t *r = &run->results[i];
        if (r->kind != BENCH_DIST || strcmp(r->experiment, id) != 0)
            continue;
        if (!header) {
            fprintf(out, "%-*s  %-*s  %-*s %8s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s\n", mw,
                    "mechanism", vw, "variant", tw, "metric", "n", "min[us]", "mean[us]", "p50[us]",
                    "p90[us]", "p99[us]", "p99.9[us]", "max[us]", "jitter[us]", "sd[us]", "p50 95%CI");
            header = true;
        }
        const bench_stats_t *s = &r->stats;
        fprintf(out, "%-*s  %-*s  %-*s %8zu", mw, r->mechanism, vw, r->variant, tw, r->metric, s->n);
        put_us(out, s->min, 10);
        put_us(out, s->mean, 10);
        put_us(out, s->p50, 10);
        put_us(out, s->p90, 10);
        put_us(out, s->p99, 10);
        put_us(out, s->p999, 10);
        put_us(out, s->max, 10);
        put_us(out, s->max - s->min, 10);
        put_us(out, s->stddev, 10);
        fprintf(out, "  %.3f-%.3f\n", s->p50_lo / 1000.0, s->p50_hi / 1000.0);
    }
    mw = (int)max_len(run, oc, BENCH_VALUE, 0, 9);
    vw = (int)max_len(run, oc, BENCH_VALUE, 1, 7);
    tw = (int)max_len(run, oc, BENCH_VALUE, 2, 6);
    header = false;
    for (size_t i = 0; i < run->n_results; i++) {
        const bench_result_t *r = &run->results[i];
        if (r->kind != BENCH_VALUE || strcmp(r->experiment, id) != 0)
            continue;
        if (!header) {
            if (mw + vw)
                fprintf(out, "%-*s  %-*s  %-*s %16s  %s\n", mw, "mechanism", vw, "variant", tw,
                        "metric", "value", "unit");
            header = true;
        }
        fprintf(out, "%-*s  %-*s  %-*s %16.6g  %s%s%s\n", mw, r->mechanism, vw, r->variant, tw,
                r->metric, r->value, r->unit, r->note[0] ? "  # " : "", r->note);
    }
    for (size_t i = 0; i < run->n_results; i++) {
        const bench_result_t *r = &run->results[i];
        if (r->kind == BENCH_MISSING && strcmp(r->experiment, id) == 0)
            fprintf(out, "missing: %s (%s)\n", r->mechanism, r->note);
    }
    if (oc->notes[0]) {
        const char *p = oc->notes;
        while (*p) {
            const char *nl = strchr(p, '\n');
            size_t len = nl ? (size_t)(nl - p) : strlen(p);
            fprintf(out, "note: %.*s\n", (int)len, p);
            p += len + (nl ? 1 : 0);
        }
    }
    if (oc->failed)
        fprintf(out, "FAILED: %s\n", oc->failure);
}

void bench_print_env(FILE *out, const bench_env_t *e)
{
    fprintf(out, "rtipc-bench %s (commit %s), %s\n", e->rtipc_version, e->git_commit, e->started_utc);
    fprintf(out, "cpu: %s, %d cores online; core 0 = CPU %d, core 1 = CPU %d\n", e->cpu_model,
            e->cores_online, e->cpu[0], e->cpu[1]);
    fprintf(out, "kernel: %s; compiler: %s %s\n", e->kernel, e->compiler, e->cflags);
    fprintf(out, "scheduling: %s\n", e->sched_policy);
    fprintf(out, "priorities: %s\n", e->priorities);
    fprintf(out, "clock: %s (%s, %s) at %.1f MHz, resolution %.3g %s, timestamp overhead %.0f %s (median); "
                 "tick %u Hz; memory %s; seed %llu%s\n",
            e->clock.name, bench_clock_provenance_name(e->clock.provenance), e->clock.unit, e->clock.rate_hz / 1e6,
            e->clock.resolution, e->clock.unit, e->timestamp_overhead_ns, e->clock.unit, e->tick_hz,
            e->memory_locked ? "locked" : "not locked (mlockall refused)", (unsigned long long)e->seed,
            e->quick ? "; QUICK run (few samples)" : "");
}

/* Bytes as MiB with one decimal, or "unknown". */
static const char *mib(char *buf, size_t len, int64_t bytes)
{
    if (bytes < 0)
        snprintf(buf, len, "unknown");
    else
        snprintf(buf, len, "%.1f MiB", (double)bytes / (1024.0 * 1024.0));
    return buf;
}

void bench_print_memory(FILE *out, const bench_env_t *e)
{
    char a[32], b[32];
    switch (e->memory.kind) {
    case BENCH_MEMORY_RESIDENT:
        fprintf(out, "\nmemory after the run: resident %s, peak %s\n", mib(a, sizeof a, e->memory.now_bytes),
                mib(b, sizeof b, e->memory.extreme_bytes));
        break;
    case BENCH_MEMORY_HEAP_FREE:
        fprintf(out, "\nmemory after the run: heap free %s, least ever free %s\n",
                mib(a, sizeof a, e->memory.now_bytes), mib(b, sizeof b, e->memory.extreme_bytes));
        break;
    default:
        fprintf(out, "\nmemory after the run: no figures on this target\n");
        break;
    }
}

const char *bench_verdict_name(bench_verdict_t v)
{
    switch (v) {
    case CLAIM_HOLDS: return "holds";
    case CLAIM_DOES_NOT_HOLD: return "does-not-hold";
    default: return "not-testable";
    }
}

void bench_print_claims(FILE *out, const bench_run_t *run)
{
    fprintf(out, "\n== claim audit ==\n");
    for (int i = 0; i < BENCH_CLAIMS; i++) {
        const bench_claim_t *c = &run->claims[i];
        fprintf(out, "%d. [%s] %s\n   rule: %s\n   evidence: %s\n", c->id,
                bench_verdict_name(c->verdict), c->claim, c->rule, c->evidence);
    }
}

/* ------------------------------------------------------------------ JSON */

static cJSON *number_or_null(double v)
{
    return isnan(v) || isinf(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v);
}

/* The target's memory figures: {"kind": "resident", "now_bytes", "peak_bytes"}
 * or {"kind": "heap-free", "free_bytes", "min_free_bytes"}, null for an
 * unknown figure; {"kind": "none"} without figures. */
static cJSON *memory_json(const bench_memory_t *m)
{
    cJSON *j = cJSON_CreateObject();
    const char *now = NULL, *extreme = NULL;
    switch (m->kind) {
    case BENCH_MEMORY_RESIDENT:
        cJSON_AddStringToObject(j, "kind", "resident");
        now = "now_bytes";
        extreme = "peak_bytes";
        break;
    case BENCH_MEMORY_HEAP_FREE:
        cJSON_AddStringToObject(j, "kind", "heap-free");
        now = "free_bytes";
        extreme = "min_free_bytes";
        break;
    default:
        cJSON_AddStringToObject(j, "kind", "none");
        return j;
    }
    cJSON_AddItemToObject(j, now, m->now_bytes >= 0 ? cJSON_CreateNumber((double)m->now_bytes) : cJSON_CreateNull());
    cJSON_AddItemToObject(j, extreme,
                          m->extreme_bytes >= 0 ? cJSON_CreateNumber((double)m->extreme_bytes) : cJSON_CreateNull());
    return j;
}

static cJSON *env_json(const bench_env_t *e)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "cpu_model", e->cpu_model);
    cJSON_AddNumberToObject(j, "cores_online", e->cores_online);
    cJSON *cpus = cJSON_AddArrayToObject(j, "cpus");
    cJSON_AddItemToArray(cpus, cJSON_CreateNumber(e->cpu[0]));
    cJSON_AddItemToArray(cpus, cJSON_CreateNumber(e->cpu[1]));
    cJSON_AddStringToObject(j, "target", e->target);
    cJSON_AddStringToObject(j, "kernel", e->kernel);
    cJSON_AddStringToObject(j, "hostname", e->hostname);
    cJSON_AddStringToObject(j, "sched_policy", e->sched_fifo ? "SCHED_FIFO" : "SCHED_OTHER");
    cJSON_AddStringToObject(j, "sched_detail", e->sched_policy);
    cJSON_AddStringToObject(j, "priorities", e->priorities);
    cJSON_AddStringToObject(j, "compiler", e->compiler);
    cJSON_AddStringToObject(j, "cflags", e->cflags);
    cJSON_AddStringToObject(j, "rtipc_version", e->rtipc_version);
    cJSON_AddStringToObject(j, "git_commit", e->git_commit);
    cJSON_AddNumberToObject(j, "tick_hz", e->tick_hz);
    cJSON_AddStringToObject(j, "clock_source", e->clock.name);
    cJSON_AddStringToObject(j, "clock_provenance", bench_clock_provenance_name(e->clock.provenance));
    cJSON_AddStringToObject(j, "clock_unit", e->clock.unit);
    cJSON_AddNumberToObject(j, "clock_hz", e->clock.rate_hz);
    cJSON_AddNumberToObject(j, "clock_resolution_ns", e->clock.resolution);
    cJSON_AddNumberToObject(j, "timestamp_overhead_ns", e->timestamp_overhead_ns);
    cJSON_AddBoolToObject(j, "memory_locked", e->memory_locked);
    cJSON_AddItemToObject(j, "memory", memory_json(&e->memory));
    cJSON_AddNumberToObject(j, "seed", (double)e->seed);
    cJSON_AddBoolToObject(j, "quick", e->quick);
    cJSON_AddStringToObject(j, "started_utc", e->started_utc);
    return j;
}

static cJSON *result_json(const bench_result_t *r)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "experiment", r->experiment);
    cJSON_AddStringToObject(j, "mechanism", r->mechanism);
    cJSON_AddStringToObject(j, "variant", r->variant);
    if (r->kind == BENCH_MISSING) {
        cJSON_AddBoolToObject(j, "missing", 1);
        cJSON_AddStringToObject(j, "note", r->note);
        return j;
    }
    cJSON_AddStringToObject(j, "metric", r->metric);
    cJSON_AddStringToObject(j, "unit", r->unit);
    if (r->kind == BENCH_VALUE) {
        cJSON_AddItemToObject(j, "value", number_or_null(r->value));
    } else {
        const bench_stats_t *s = &r->stats;
        cJSON_AddNumberToObject(j, "n", (double)s->n);
        cJSON_AddItemToObject(j, "min", number_or_null(s->min));
        cJSON_AddItemToObject(j, "mean", number_or_null(s->mean));
        cJSON_AddItemToObject(j, "p50", number_or_null(s->p50));
        cJSON_AddItemToObject(j, "p90", number_or_null(s->p90));
        cJSON_AddItemToObject(j, "p99", number_or_null(s->p99));
        cJSON_AddItemToObject(j, "p999", number_or_null(s->p999));
        cJSON_AddItemToObject(j, "max", number_or_null(s->max));
        cJSON_AddItemToObject(j, "stddev", number_or_null(s->stddev));
        cJSON_AddItemToObject(j, "jitter", number_or_null(s->max - s->min));
        cJSON *ci = cJSON_AddArrayToObject(j, "p50_ci95");
        cJSON_AddItemToArray(ci, cJSON_CreateNumber(s->p50_lo));
        cJSON_AddItemToArray(ci, cJSON_CreateNumber(s->p50_hi));
        cJSON *h = cJSON_AddObjectToObject(j, "histogram");
        cJSON_AddNumberToObject(h, "sub_bucket_bits", BENCH_HIST_SUB_BITS);
        cJSON *b = cJSON_AddArrayToObject(h, "buckets");
        for (unsigned k = 0; k < BENCH_HIST_BUCKETS; k++) {
            if (!s->hist[k])
                continue;
            cJSON *pair = cJSON_CreateArray();
            cJSON_AddItemToArray(pair, cJSON_CreateNumber((double)bench_hist_bucket_low(k)));
            cJSON_AddItemToArray(pair, cJSON_CreateNumber(s->hist[k]));
            cJSON_AddItemToArray(b, pair);
        }
    }
    if (r->note[0])
        cJSON_AddStringToObject(j, "note", r->note);
    return j;
}

cJSON *bench_claims_json(const bench_run_t *run)
{
    cJSON *claims = cJSON_CreateArray();
    for (int i = 0; i < BENCH_CLAIMS; i++) {
        const bench_claim_t *c = &run->claims[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "id", c->id);
        cJSON_AddStringToObject(o, "claim", c->claim);
        cJSON_AddStringToObject(o, "verdict", bench_verdict_name(c->verdict));
        cJSON_AddStringToObject(o, "rule", c->rule);
        cJSON_AddStringToObject(o, "evidence", c->evidence);
        cJSON_AddItemToArray(claims, o);
    }
    return claims;
}

char *bench_json_text(const bench_run_t *run)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "schema", "rtipc-bench/1");
    cJSON_AddItemToObject(root, "env", env_json(&run->env));
    cJSON *exps = cJSON_AddArrayToObject(root, "experiments");
    for (size_t i = 0; i < run->n_outcomes; i++) {
        const bench_outcome_t *oc = &run->outcomes[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "id", oc->experiment->id);
        cJSON_AddStringToObject(e, "summary", oc->experiment->summary);
        cJSON_AddStringToObject(e, "status", oc->failed ? "failed" : "ok");
        if (oc->failed)
            cJSON_AddStringToObject(e, "failure", oc->failure);
        cJSON_AddStringToObject(e, "definitions", oc->experiment->definitions);
        cJSON_AddStringToObject(e, "notes", oc->notes);
        cJSON_AddNumberToObject(e, "seconds", oc->seconds);
        cJSON_AddItemToArray(exps, e);
    }
    cJSON *res = cJSON_AddArrayToObject(root, "results");
    for (size_t i = 0; i < run->n_results; i++)
        cJSON_AddItemToArray(res, result_json(&run->results[i]));
    cJSON_AddItemToObject(root, "claims", bench_claims_json(run));
    /* cJSON allocates with malloc (no hooks are installed), so free() it. */
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        errno = ENOMEM;
    return text;
}

int bench_write_json(const bench_run_t *run, const char *path, char *err, size_t errlen)
{
    char *text = bench_json_text(run);
    if (!text) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(ENOMEM));
        return -1;
    }
    size_t len = strlen(text);
    text[len] = '\n';  /* over the terminator: the text is written by length */
    int rc = bench_target_output("rtipc-bench/1 JSON", path, text, len + 1, err, errlen);
    free(text);
    return rc;
}

/* ------------------------------------------------------------------- CSV */

/* Fields are our own identifiers (no commas or quotes), written as is. */
int bench_write_csv(const bench_run_t *run, const char *path, char *err, size_t errlen)
{
    bench_outfile_t o;
    if (bench_outfile_open(&o, path, err, errlen) != 0)
        return -1;
    FILE *f = bench_outfile_stream(&o);
    fprintf(f, "experiment,mechanism,variant,metric,unit,n,min,mean,p50,p90,p99,p999,max,stddev,value\n");
    for (size_t i = 0; i < run->n_results; i++) {
        const bench_result_t *r = &run->results[i];
        if (r->kind == BENCH_MISSING)
            continue;
        fprintf(f, "%s,%s,%s,%s,%s,", r->experiment, r->mechanism, r->variant, r->metric, r->unit);
        if (r->kind == BENCH_DIST) {
            const bench_stats_t *s = &r->stats;
            double v[] = {s->min, s->mean, s->p50, s->p90, s->p99, s->p999, s->max, s->stddev};
            fprintf(f, "%zu", s->n);
            for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
                isnan(v[k]) ? fprintf(f, ",") : fprintf(f, ",%.1f", v[k]);
            fprintf(f, ",\n");
        } else {
            fprintf(f, ",,,,,,,,,%.9g\n", r->value);
        }
    }
    return bench_outfile_commit(&o, err, errlen);
}
