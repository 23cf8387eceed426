/* The in-run record every experiment writes into: result rows and their
 * notes, failures, finding a row again, progress, and whether an
 * experiment can run on this target. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../names.h"
#include "../results/row_clock.h"
#include "../target/target.h"
#include "run.h"

static bench_result_t *new_row(bench_run_t *run, bench_kind_t kind, const char *mechanism,
                               const char *variant, const char *metric, const char *unit)
{
    if (run->n_results == run->cap_results) {
        size_t cap = run->cap_results ? run->cap_results * 2 : 64;
        bench_result_t **r = realloc(run->results, cap * sizeof *r);
        if (!r)
            return NULL;
        for (size_t i = run->cap_results; i < cap; i++)
            r[i] = NULL;
        run->results = r;
        run->cap_results = cap;
    }
    const char *names[5] = {bench_strpool_get(&run->names, bench_experiment_id(run)),
                            bench_strpool_get(&run->names, mechanism), bench_strpool_get(&run->names, variant),
                            bench_strpool_get(&run->names, metric), bench_strpool_get(&run->names, unit)};
    for (int k = 0; k < 5; k++)
        if (!names[k])
            return NULL;
    bench_result_t *row = run->results[run->n_results];
    if (!row) {
        row = malloc(sizeof *row);
        if (!row)
            return NULL;
        run->results[run->n_results] = row;
    }
    run->n_results++;
    memset(row, 0, sizeof *row); /* a reused row never kept a note (only a failed add returns one) */
    row->kind = kind;
    row->experiment = names[0];
    row->mechanism = names[1];
    row->variant = names[2];
    row->metric = names[3];
    row->unit = names[4];
    /* A timed figure names the clock that measured it (results/row_clock.h). */
    row->clock = kind != BENCH_MISSING && !bench_row_clock_free_unit(row->unit) && run->clock ? run->clock : "";
    return row;
}

bench_result_t *bench_add_dist(bench_run_t *run, const char *mechanism, const char *variant,
                               const char *metric, bench_samples_t *s)
{
    if (s->n == 0) {
        bench_fail(run, "%s/%s: no samples recorded", mechanism, variant);
        return NULL;
    }
    /* In the clock's unit: "ns", or "instr" where the clock counts
     * instructions (the samples are then instructions, target.h). */
    const char *unit = run->env.clock.unit[0] ? run->env.clock.unit : "ns";
    bench_result_t *row = new_row(run, BENCH_DIST, mechanism, variant, metric, unit);
    if (!row || bench_stats_compute(s, &row->stats) != 0) {
        if (row)
            run->n_results--;
        bench_fail(run, "out of memory recording %s/%s", mechanism, variant);
        return NULL;
    }
    return row;
}

bench_result_t *bench_add_value(bench_run_t *run, const char *mechanism, const char *variant,
                                const char *metric, const char *unit, double value)
{
    bench_result_t *row = new_row(run, BENCH_VALUE, mechanism, variant, metric, unit);
    if (!row) {
        bench_fail(run, "out of memory recording %s/%s", mechanism, variant);
        return NULL;
    }
    row->value = value;
    return row;
}

void bench_add_missing(bench_run_t *run, const char *mechanism, const char *why)
{
    const char *id = bench_experiment_id(run);
    for (size_t i = 0; i < run->n_results; i++) {
        const bench_result_t *r = run->results[i];
        if (r->kind == BENCH_MISSING && !strcmp(r->experiment, id) && !strcmp(r->mechanism, mechanism ? mechanism : ""))
            return;
    }
    bench_result_t *row = new_row(run, BENCH_MISSING, mechanism, "", "", "");
    if (row)
        bench_row_note(run, row, "%s", why);
}

int bench_result_note(bench_result_t *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = bench_result_vnote(r, fmt, ap);
    va_end(ap);
    return rc;
}

int bench_result_vnote(bench_result_t *r, const char *fmt, va_list ap)
{
    char text[BENCH_NOTE_MAX + 1];
    int n = vsnprintf(text, sizeof text, fmt, ap);
    if (n >= (int)sizeof text)
        memcpy(text + sizeof text - 4, "...", 4); /* cut: say so */
    bench_result_note_free(r);
    if (n <= 0)
        return n < 0 ? -1 : 0;
    size_t len = strlen(text) + 1;
    if (!(r->note = malloc(len)))
        return -1;
    memcpy(r->note, text, len);
    return 0;
}

void bench_result_note_free(bench_result_t *r)
{
    free(r->note);
    r->note = NULL;
}

void bench_row_note(bench_run_t *run, bench_result_t *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = bench_result_vnote(r, fmt, ap);
    va_end(ap);
    if (rc != 0)
        bench_fail(run, "out of memory for the note of %s/%s/%s", r->mechanism, r->variant, r->metric);
}

/* The last line of notes that no longer fit: what was cut is never dropped
 * without a word (every row keeps its own note, the JSON every row). */
#define NOTES_FULL "(more notes than this run keeps; each row's own note has them)\n"

void bench_note(bench_run_t *run, const char *fmt, ...)
{
    const size_t reserve = sizeof NOTES_FULL;
    size_t used = strlen(run->notes);
    if (used + reserve >= sizeof run->notes ||
        (used >= reserve - 1 && strcmp(run->notes + used - (reserve - 1), NOTES_FULL) == 0))
        return; /* full: the marker is there already */
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(run->notes + used, sizeof run->notes - used, fmt, ap);
    va_end(ap);
    if (len < 0 || used + (size_t)len + 1 + reserve >= sizeof run->notes) {
        /* This one does not fit beside the marker: cut it, say so. */
        run->notes[used] = 0;
        memcpy(run->notes + used, NOTES_FULL, sizeof NOTES_FULL);
        return;
    }
    used += (size_t)len;
    run->notes[used] = '\n';
    run->notes[used + 1] = 0;
}

int bench_fail(bench_run_t *run, const char *fmt, ...)
{
    if (run->failure[0])  /* keep the first reason: later ones are consequences */
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(run->failure, sizeof run->failure, fmt, ap);
    va_end(ap);
    return -1;
}

void bench_fail_prefix(bench_run_t *run, const char *fmt, ...)
{
    if (!run->failure[0])
        return;
    char prefix[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof prefix ? (size_t)n : sizeof prefix - 1;
    if (len >= sizeof run->failure)
        len = sizeof run->failure - 1;
    size_t keep = strlen(run->failure);
    if (len + keep >= sizeof run->failure)
        keep = sizeof run->failure - 1 - len;
    memmove(run->failure + len, run->failure, keep);
    memcpy(run->failure, prefix, len);
    run->failure[len + keep] = 0;
}

bool bench_failed(const bench_run_t *run) { return run->failure[0] != 0; }

const char *bench_experiment_id(const bench_run_t *run) { return run->current ? run->current->id : ""; }

const bench_result_t *bench_find(const bench_run_t *run, const char *experiment,
                                 const char *mechanism, const char *variant, const char *metric)
{
    for (size_t i = 0; i < run->n_results; i++) {
        const bench_result_t *r = run->results[i];
        if (r->kind == BENCH_MISSING)
            continue;
        if ((!experiment || strcmp(r->experiment, experiment) == 0) &&
            (!mechanism || strcmp(r->mechanism, mechanism) == 0) &&
            (!variant || strcmp(r->variant, variant) == 0) &&
            (!metric || strcmp(r->metric, metric) == 0))
            return r;
    }
    return NULL;
}

double bench_p50_ratio(const bench_result_t *num, const bench_result_t *den)
{
    if (!num || !den || !(den->stats.p50 > 0))
        return NAN;
    return num->stats.p50 / den->stats.p50;
}

/* An experiment's requirements against the target's features. */
const char *bench_experiment_unavailable(const bench_experiment_t *e, char *buf, size_t len)
{
    if (e->unavailable || !e->run) {
        snprintf(buf, len, "%s", e->unavailable ? e->unavailable : "not built for this target");
        return buf;
    }
    unsigned lacking = e->requires & ~bench_target_features();
    if (!lacking)
        return NULL;
    size_t used = (size_t)snprintf(buf, len, "needs ");
    for (unsigned bit = 1; lacking && used < len; bit <<= 1) {
        if (!(lacking & bit))
            continue;
        lacking &= ~bit;
        const char *name = bench_target_feature_name(bit);
        used += (size_t)snprintf(buf + used, len - used, "%s%s", name ? name : "an unnamed feature",
                                 !lacking ? "" : (lacking & (lacking - 1)) ? ", " : " and ");
    }
    if (used < len)
        snprintf(buf + used, len - used, ", which this target (%s) lacks", bench_target_name());
    return buf;
}

void bench_progress(bench_run_t *run, double fraction)
{
    if (!run->opts.progress || !run->current)
        return;
    if (fraction < 0)
        fraction = 0;
    if (fraction > 1)
        fraction = 1;
    fprintf(stderr, "\r  %-20s %3d%%", run->current->id, (int)(fraction * 100 + 0.5));
    fflush(stderr);
}

void bench_free_rows(bench_run_t *run)
{
    for (size_t i = 0; i < run->cap_results; i++) {
        if (!run->results[i])
            continue;
        if (i < run->n_results && run->results[i]->kind == BENCH_DIST)
            bench_stats_free(&run->results[i]->stats);
        if (i < run->n_results)
            bench_result_note_free(run->results[i]);
        free(run->results[i]);
    }
    free(run->results);
    run->results = NULL;
    run->n_results = run->cap_results = 0;
    bench_strpool_free(&run->names);
}
