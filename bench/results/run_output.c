/* A run's outputs that every target has: its tables as text, and its JSON
 * (schema rtipc-bench/1, docs/json-schema.md) as text or on the console of
 * a target without files. The files are run_files.c's. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness/run.h"
#include "../target/console_sink.h"
#include "../target/target.h"
#include "document.h"
#include "published.h"

/* ---------------------------------------------------------------- tables */

/* Distribution tables are in microseconds where the clock counts time, in
 * whole instructions where it counts those (a row's "ns" is then one
 * instruction: target.h). */
typedef struct {
    double divisor;
    int decimals;
    const char *label;
} table_unit_t;

static table_unit_t table_unit(const bench_run_t *run)
{
    if (strcmp(run->env.clock.unit, "instr") == 0)
        return (table_unit_t){1.0, 0, "instr"};
    return (table_unit_t){1000.0, 3, "us"};
}

static void put_figure(FILE *out, const table_unit_t *u, double ns, int width)
{
    if (isnan(ns))
        fprintf(out, " %*s", width, "-");
    else
        fprintf(out, " %*.*f", width, u->decimals, ns / u->divisor);
}

static size_t max_len(const bench_run_t *run, const bench_outcome_t *oc, bench_kind_t kind,
                      int field, size_t floor)
{
    size_t w = floor;
    for (size_t i = 0; i < run->n_results; i++) {
        const bench_result_t *r = run->results[i];
        if (r->kind != kind || strcmp(r->experiment, oc->experiment->id) != 0)
            continue;
        const char *f = field == 0 ? r->mechanism : field == 1 ? r->variant : r->metric;
        size_t l = strlen(f);
        if (l > w)
            w = l;
    }
    return w;
}

/* Whether experiment @p id of the run measured the FreeRTOS kernel's (or
 * ESP-IDF's) own objects: the published figures then stand beside those. */
static bool kernel_rows(const bench_run_t *run, const char *id)
{
    for (size_t i = 0; i < run->n_results; i++) {
        const bench_result_t *r = run->results[i];
        if (!strcmp(r->experiment, id) && (!strncmp(r->mechanism, "kernel-", 7) || !strncmp(r->mechanism, "espidf-", 7)))
            return true;
    }
    return false;
}

/* The published figures of row @p r, each on a line of its own below it:
 * context for the reader, never part of the results. */
static void print_published(FILE *out, const bench_result_t *r, bool kernel_run)
{
    const bench_published_t *refs[4];
    size_t n = bench_published_for(r->experiment, r->mechanism, r->variant, r->metric, kernel_run, refs, 4);
    char buf[256];
    for (size_t k = 0; k < n && k < 4; k++)
        fprintf(out, "  ^ %s\n", bench_published_text(refs[k], buf, sizeof buf));
}

void bench_print_experiment(FILE *out, const bench_run_t *run, const bench_outcome_t *oc)
{
    const char *id = oc->experiment->id;
    const table_unit_t u = table_unit(run);
    const bool kernel_run = kernel_rows(run, id);
    fprintf(out, "\n== %s: %s ==\n", id, oc->experiment->summary);
    int mw = (int)max_len(run, oc, BENCH_DIST, 0, 9), vw = (int)max_len(run, oc, BENCH_DIST, 1, 7);
    int tw = (int)max_len(run, oc, BENCH_DIST, 2, 6);
    bool header = false;
    for (size_t i = 0; i < run->n_results; i++) {
        const bench_result_t *r = run->results[i];
        if (r->kind != BENCH_DIST || strcmp(r->experiment, id) != 0)
            continue;
        if (!header) {
            char h[9][16];
            static const char *const names[9] = {"min", "mean", "p50", "p90", "p99", "p99.9", "max", "jitter", "sd"};
            for (int k = 0; k < 9; k++)
                snprintf(h[k], sizeof h[k], "%s[%s]", names[k], u.label);
            fprintf(out, "%-*s  %-*s  %-*s %8s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s\n", mw,
                    "mechanism", vw, "variant", tw, "metric", "n", h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7],
                    h[8], "p50 95%CI");
            header = true;
        }
        const bench_stats_t *s = &r->stats;
        fprintf(out, "%-*s  %-*s  %-*s %8lu", mw, r->mechanism, vw, r->variant, tw, r->metric, (unsigned long)s->n);
        const double figures[9] = {s->min, s->mean, s->p50, s->p90, s->p99, s->p999, s->max, s->max - s->min,
                                   s->stddev};
        for (int k = 0; k < 9; k++)
            put_figure(out, &u, figures[k], 10);
        fprintf(out, "  %.*f-%.*f\n", u.decimals, s->p50_lo / u.divisor, u.decimals, s->p50_hi / u.divisor);
        print_published(out, r, kernel_run);
    }
    mw = (int)max_len(run, oc, BENCH_VALUE, 0, 9);
    vw = (int)max_len(run, oc, BENCH_VALUE, 1, 7);
    tw = (int)max_len(run, oc, BENCH_VALUE, 2, 6);
    header = false;
    for (size_t i = 0; i < run->n_results; i++) {
        const bench_result_t *r = run->results[i];
        if (r->kind != BENCH_VALUE || strcmp(r->experiment, id) != 0)
            continue;
        if (!header) {
            if (mw + vw)
                fprintf(out, "%-*s  %-*s  %-*s %16s  %s\n", mw, "mechanism", vw, "variant", tw,
                        "metric", "value", "unit");
            header = true;
        }
        fprintf(out, "%-*s  %-*s  %-*s %16.6g  %s%s%s\n", mw, r->mechanism, vw, r->variant, tw,
                r->metric, r->value, r->unit, r->note ? "  # " : "", bench_result_note_text(r));
        print_published(out, r, kernel_run);
    }
    for (size_t i = 0; i < run->n_results; i++) {
        const bench_result_t *r = run->results[i];
        if (r->kind == BENCH_MISSING && strcmp(r->experiment, id) == 0)
            fprintf(out, "missing: %s (%s)\n", r->mechanism, bench_result_note_text(r));
    }
    if (oc->notes && oc->notes[0]) {
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
            e->clock.resolution, e->clock.unit, e->timestamp_overhead_ns, e->clock.unit, (unsigned)e->tick_hz,
            /* A target without files has no paging to lock out either. */
            !(bench_target_features() & BENCH_TARGET_FILES) ? "not paged"
            : e->memory_locked                              ? "locked"
                                                            : "not locked (mlockall refused)",
            (unsigned long long)e->seed,
            e->quick ? "; QUICK run (few samples)" : "");
    if (e->has_core_clock)
        fprintf(out, "core clock (spans within one core): %s (%s) at %.1f MHz, resolution %.3g ns\n",
                e->core_clock.name, bench_clock_provenance_name(e->core_clock.provenance),
                e->core_clock.rate_hz / 1e6, e->core_clock.resolution);
}

/* Bytes with one decimal, in MiB from 1 MiB up and in KiB below (an MCU's
 * 44 KiB is not "0.0 MiB"), or "unknown". */
static const char *mib(char *buf, size_t len, int64_t bytes)
{
    if (bytes < 0)
        snprintf(buf, len, "unknown");
    else if (bytes < 1024 * 1024)
        snprintf(buf, len, "%.1f KiB", (double)bytes / 1024.0);
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

/* A sink into a growing malloc'd string. */
typedef struct {
    char *text;
    size_t len, cap;
} growing_t;

static int growing_sink(void *ctx, const char *bytes, size_t n)
{
    growing_t *g = ctx;
    if (n + 1 > g->cap - g->len) {
        size_t cap = g->cap ? g->cap : 1 << 16;
        while (n + 1 > cap - g->len)
            cap *= 2;
        char *t = realloc(g->text, cap);
        if (!t)
            return -1;
        g->text = t;
        g->cap = cap;
    }
    memcpy(g->text + g->len, bytes, n);
    g->len += n;
    g->text[g->len] = '\0';
    return 0;
}

char *bench_json_text(const bench_run_t *run)
{
    growing_t g = {0};
    bench_jw_t w;
    bench_doc_writer_init(&w, growing_sink, &g);
    bench_doc_run(&w, run);
    if (bench_jw_finish(&w) != BENCH_JW_OK) {
        free(g.text);
        errno = ENOMEM;
        return NULL;
    }
    g.text[--g.len] = '\0'; /* without the final newline, as documented */
    return g.text;
}

static int stdout_sink(void *ctx, const char *bytes, size_t n)
{
    (void)ctx;
    return fwrite(bytes, 1, n, stdout) == n ? 0 : -1;
}

int bench_print_json_console(const bench_run_t *run, char *err, size_t errlen)
{
    /* Streamed as it is written, never held whole: a full run's document is
     * larger than an ESP32's free heap. */
    static const char label[] = "rtipc-bench/1 JSON";
    bench_console_sink_begin(label);
    bench_jw_t w;
    bench_doc_writer_init(&w, stdout_sink, NULL);
    bench_doc_run(&w, run);
    bool complete = bench_jw_finish(&w) == BENCH_JW_OK;
    if (bench_console_sink_end(label, complete) == 0)
        return 0;
    snprintf(err, errlen, "cannot print %s on the console", label);
    return -1;
}
