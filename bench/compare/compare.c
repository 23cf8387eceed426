/* rtipc-bench compare (compare.h): load two rtipc-bench/1 files, match their
 * rows, judge every pair, print one table per kind and unit. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness/json_read.h"
#include "../harness/util.h"
#include "compare.h"

#define PROG "rtipc-bench compare"
#define DEFAULT_THRESHOLD_PCT 10.0
#define BOOTSTRAP_RESAMPLES 200
#define BOOTSTRAP_SEED 0x72746970635f6273ull  /* fixed: the same files give the same output */

static const char compare_usage[] =
    "usage: rtipc-bench compare BASE.json NEW.json [--threshold PCT]\n"
    "\n"
    "Compares two rtipc-bench/1 files row by row (experiment, mechanism, variant,\n"
    "metric): base and new figure, new/base, and a verdict: regressed, improved,\n"
    "same (within the threshold or within noise) or info (no better direction).\n"
    "Distributions compare the p50 and count a change only when the two 95%\n"
    "intervals of the median are apart (a bootstrap from the histogram stands in\n"
    "for a missing p50_ci95); p99 and p99.9 ratios are shown for information.\n"
    "\n"
    "  --threshold PCT    smallest change that counts, in percent (default 10)\n"
    "  -h, --help         this text\n"
    "\n"
    "Exit status: 0 nothing regressed, 1 a metric regressed past the threshold,\n"
    "2 usage error or an unreadable or invalid file.\n";

/* ------------------------------------------------------------ directions */

/* Which way is better, in one place. Rules naming a metric come first: a
 * name says more than its unit (a `delivered` byte count measures the
 * workload, not a cost). The first matching rule wins; a metric no rule
 * matches (units count, x, bool, anything unknown) is informational. */
static const struct {
    const char *metric;  /* NULL: any metric */
    const char *unit;    /* NULL: any unit */
    bench_better_t better;
} direction_rules[] = {
    /* Losses and starvation: fewer is better, whatever they are counted in. */
    {"dropped", NULL, BENCH_BETTER_LOWER},         /* sends refused by a full buffer */
    {"watchdog-trips", NULL, BENCH_BETTER_LOWER},  /* a task missed its watchdog timeout */
    {"idle-trips", NULL, BENCH_BETTER_LOWER},      /* a core's idle task starved */
    {"missed-updates", NULL, BENCH_BETTER_LOWER},  /* state-vs-event: values never acted on */
    /* Outcomes a notification mode produces by design. */
    {"coalesced", NULL, BENCH_BETTER_NONE},
    {"refused", NULL, BENCH_BETTER_NONE},
    /* The workload, not the mechanism's merit (their units would say otherwise). */
    {"offered", NULL, BENCH_BETTER_NONE},         /* msg/s the producer aimed at: a setting */
    {"delivered", NULL, BENCH_BETTER_NONE},       /* follows the offered load */
    {"sent", NULL, BENCH_BETTER_NONE},
    {"received", NULL, BENCH_BETTER_NONE},
    {"published", NULL, BENCH_BETTER_NONE},
    {"freertos-32bit", NULL, BENCH_BETTER_NONE},  /* footprint: a reference constant */
    /* Costs: less is better. */
    {NULL, "ns", BENCH_BETTER_LOWER},     /* latencies, call overheads */
    {NULL, "B", BENCH_BETTER_LOWER},      /* memory footprints */
    {NULL, "ms", BENCH_BETTER_LOWER},     /* stalls */
    {NULL, "ms/MB", BENCH_BETTER_LOWER},  /* CPU time per megabyte moved */
    {NULL, "instr", BENCH_BETTER_LOWER},  /* instruction counts (MCU targets) */
    /* Rates: more is better. */
    {NULL, "msg/s", BENCH_BETTER_HIGHER},
    {NULL, "B/s", BENCH_BETTER_HIGHER},
    {NULL, "items/s", BENCH_BETTER_HIGHER},
};

bench_better_t bench_compare_direction(const char *metric, const char *unit)
{
    for (size_t i = 0; i < sizeof direction_rules / sizeof *direction_rules; i++) {
        if (direction_rules[i].metric && strcmp(direction_rules[i].metric, metric) != 0)
            continue;
        if (direction_rules[i].unit && strcmp(direction_rules[i].unit, unit) != 0)
            continue;
        return direction_rules[i].better;
    }
    return BENCH_BETTER_NONE;
}

static const char *better_name(bench_better_t b)
{
    return b == BENCH_BETTER_LOWER ? "lower" : b == BENCH_BETTER_HIGHER ? "higher" : "-";
}

/* ------------------------------------------------------------- bootstrap */

/* splitmix64: small, well mixed, and any seed (even 0) is fine. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Exclusive upper edge of the bucket starting at low: one value wide below
 * 2^sub_bits, else 1/2^sub_bits of the power of two it lies in. */
static double bucket_upper(int64_t low, unsigned sub_bits)
{
    if (low < ((int64_t)1 << sub_bits))
        return (double)low + 1;
    unsigned top = 0;
    while (((uint64_t)low >> (top + 1)) != 0)
        top++;
    return (double)low + (double)((uint64_t)1 << (top - sub_bits));
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Walker's alias table (Vose's construction): drawing a bucket with
 * probability count/total then costs one random number, whatever the number
 * of buckets. Column i keeps bucket i with probability keep[i], else gives
 * alias[i]. 0, or -1 when memory runs out. */
static int build_alias_table(const bench_hist_bin_t *bins, size_t n_bins, uint64_t total, double *keep,
                             size_t *alias)
{
    size_t *small = malloc(n_bins * sizeof *small), *large = malloc(n_bins * sizeof *large);
    if (!small || !large) {
        free(small);
        free(large);
        return -1;
    }
    size_t n_small = 0, n_large = 0;
    for (size_t i = 0; i < n_bins; i++) {
        keep[i] = (double)bins[i].count * (double)n_bins / (double)total;  /* 1 = an average bucket */
        alias[i] = i;
        if (keep[i] < 1)
            small[n_small++] = i;
        else
            large[n_large++] = i;
    }
    /* Top up each light column with mass from a heavy one. */
    while (n_small && n_large) {
        size_t light = small[--n_small], heavy = large[n_large - 1];
        alias[light] = heavy;
        keep[heavy] -= 1 - keep[light];
        if (keep[heavy] < 1) {
            n_large--;
            small[n_small++] = heavy;
        }
    }
    /* What is left is full up to rounding. */
    while (n_small)
        keep[small[--n_small]] = 1;
    while (n_large)
        keep[large[--n_large]] = 1;
    free(small);
    free(large);
    return 0;
}

int bench_bootstrap_median_ci(const bench_hist_bin_t *bins, size_t n_bins, unsigned sub_bucket_bits,
                              unsigned resamples, uint64_t seed, double *lo, double *hi)
{
    if (!bins || n_bins == 0 || n_bins > UINT32_MAX || sub_bucket_bits > 30 || resamples == 0 || !lo || !hi)
        return -1;
    uint64_t total = 0;
    for (size_t i = 0; i < n_bins; i++) {
        if (bins[i].low < 0 || (i > 0 && bins[i].low <= bins[i - 1].low) ||
            bins[i].count > UINT64_MAX - total)
            return -1;
        total += bins[i].count;
    }
    if (total == 0)
        return -1;
    uint64_t draws = total < BENCH_BOOTSTRAP_MAX_DRAWS ? total : BENCH_BOOTSTRAP_MAX_DRAWS;
    uint64_t rank = (draws + 1) / 2;  /* nearest-rank median: ceil(draws / 2) */

    double *keep = malloc(n_bins * sizeof *keep);
    size_t *alias = malloc(n_bins * sizeof *alias);
    uint64_t *hits = malloc(n_bins * sizeof *hits);
    size_t *median_bin = malloc(resamples * sizeof *median_bin);
    int rc = -1;
    if (!keep || !alias || !hits || !median_bin || build_alias_table(bins, n_bins, total, keep, alias) != 0)
        goto out;

    uint64_t state = seed;
    for (unsigned r = 0; r < resamples; r++) {
        memset(hits, 0, n_bins * sizeof *hits);
        for (uint64_t d = 0; d < draws; d++) {
            /* High half: a column, uniformly; low half: keep it or take its alias. */
            uint64_t x = next_random(&state);
            size_t column = (size_t)(((x >> 32) * (uint64_t)n_bins) >> 32);
            double coin = (double)(uint32_t)x * 0x1p-32;
            hits[coin < keep[column] ? column : alias[column]]++;
        }
        size_t k = 0;
        for (uint64_t seen = hits[0]; seen < rank; seen += hits[++k])
            ;
        median_bin[r] = k;
    }
    qsort(median_bin, resamples, sizeof *median_bin, cmp_size);
    /* Nearest-rank 2.5th and 97.5th percentiles of the resample medians. */
    size_t i_lo = ((size_t)resamples * 25 + 999) / 1000, i_hi = ((size_t)resamples * 975 + 999) / 1000;
    i_lo = i_lo ? i_lo - 1 : 0;
    i_hi = i_hi ? i_hi - 1 : 0;
    *lo = (double)bins[median_bin[i_lo]].low;
    *hi = bucket_upper(bins[median_bin[i_hi]].low, sub_bucket_bits);
    rc = 0;
out:
    free(keep);
    free(alias);
    free(hits);
    free(median_bin);
    return rc;
}

/* ----------------------------------------------------------------- input */

typedef enum { ROW_DIST, ROW_VALUE, ROW_MISSING } row_kind_t;
typedef enum { CI_NONE, CI_FILE, CI_BOOTSTRAP } ci_source_t;

typedef struct {
    size_t index;  /* position in `results` */
    const char *experiment, *mechanism, *variant, *metric, *unit;  /* into the parsed tree */
    const char *note;
    row_kind_t kind;
    bool has_center;  /* false when the p50 or value is null */
    double center;    /* p50 of a distribution, value of a value row */
    double p99, p999; /* NAN when absent or null */
    ci_source_t ci;
    double ci_lo, ci_hi;
    bench_hist_bin_t *bins;  /* only for distributions without p50_ci95 */
    size_t n_bins;
    unsigned sub_bits;
    bool duplicate;  /* an earlier row has the same key */
} row_t;

typedef struct {
    const char *path;
    const char *role;  /* "base" or "new" */
    cJSON *root;
    const cJSON *env;  /* NULL when absent */
    row_t *rows;
    size_t n_rows;
} run_file_t;

__attribute__((format(printf, 2, 3))) static int invalid(const run_file_t *f, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: %s: ", PROG, f->path);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return -1;
}

static bool is_count(double v, double limit)
{
    return v >= 0 && v <= limit && v == floor(v);
}

/* The histogram of a distribution row, for the bootstrap. */
static int load_histogram(const run_file_t *f, row_t *row, const cJSON *h)
{
    double bits;
    if (!cJSON_IsObject(h) || bench_json_number(h, "sub_bucket_bits", &bits) != 1 || !is_count(bits, 30))
        return invalid(f, "results[%zu]: histogram lacks sub_bucket_bits (0..30)", row->index);
    const cJSON *buckets = cJSON_GetObjectItemCaseSensitive(h, "buckets");
    if (!cJSON_IsArray(buckets))
        return invalid(f, "results[%zu]: histogram.buckets is not an array", row->index);
    size_t n = (size_t)cJSON_GetArraySize(buckets);
    row->bins = calloc(n ? n : 1, sizeof *row->bins);
    if (!row->bins)
        return invalid(f, "out of memory");
    row->sub_bits = (unsigned)bits;
    const cJSON *pair;
    cJSON_ArrayForEach(pair, buckets) {
        const cJSON *low = cJSON_GetArrayItem(pair, 0), *count = cJSON_GetArrayItem(pair, 1);
        if (!cJSON_IsArray(pair) || cJSON_GetArraySize(pair) != 2 || !cJSON_IsNumber(low) ||
            !cJSON_IsNumber(count) || !is_count(low->valuedouble, 0x1p62) ||
            !is_count(count->valuedouble, 0x1p53))
            return invalid(f, "results[%zu]: histogram bucket %zu is not [low_ns, count]", row->index,
                           row->n_bins);
        bench_hist_bin_t bin = {(int64_t)low->valuedouble, (uint64_t)count->valuedouble};
        if (row->n_bins > 0 && bin.low <= row->bins[row->n_bins - 1].low)
            return invalid(f, "results[%zu]: histogram buckets are not in increasing order", row->index);
        row->bins[row->n_bins++] = bin;
    }
    return 0;
}

static int load_row(const run_file_t *f, row_t *row, const cJSON *r)
{
    static const char *const keys[] = {"experiment", "mechanism", "variant"};
    const char **fields[] = {&row->experiment, &row->mechanism, &row->variant};
    if (!cJSON_IsObject(r))
        return invalid(f, "results[%zu] is not an object", row->index);
    for (size_t k = 0; k < 3; k++)
        if (!(*fields[k] = bench_json_string(r, keys[k])))
            return invalid(f, "results[%zu] lacks the string \"%s\"", row->index, keys[k]);
    row->note = bench_json_string(r, "note");
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "missing"))) {
        row->kind = ROW_MISSING;
        row->metric = row->unit = "";
        return 0;
    }
    row->metric = bench_json_string(r, "metric");
    row->unit = bench_json_string(r, "unit");
    if (!row->metric || !*row->metric)
        return invalid(f, "results[%zu] lacks the string \"metric\"", row->index);
    if (!row->unit || !*row->unit)
        return invalid(f, "results[%zu] lacks the string \"unit\"", row->index);

    double ignored;
    row->kind = cJSON_GetObjectItemCaseSensitive(r, "n") ? ROW_DIST : ROW_VALUE;
    const char *center = row->kind == ROW_DIST ? "p50" : "value";
    if (row->kind == ROW_DIST && bench_json_number(r, "n", &ignored) != 1)
        return invalid(f, "results[%zu]: \"n\" is not a number", row->index);
    int got = bench_json_number(r, center, &row->center);
    if (got < 0 || !cJSON_GetObjectItemCaseSensitive(r, center))
        return invalid(f, "results[%zu] lacks \"%s\" (a number or null)", row->index, center);
    row->has_center = got == 1;
    if (row->kind == ROW_VALUE)
        return 0;

    if (bench_json_number(r, "p99", &row->p99) < 0 || bench_json_number(r, "p999", &row->p999) < 0)
        return invalid(f, "results[%zu]: p99 or p999 is neither a number nor null", row->index);
    const cJSON *ci = cJSON_GetObjectItemCaseSensitive(r, "p50_ci95");
    if (ci && !cJSON_IsNull(ci)) {
        const cJSON *lo = cJSON_GetArrayItem(ci, 0), *hi = cJSON_GetArrayItem(ci, 1);
        if (!cJSON_IsArray(ci) || cJSON_GetArraySize(ci) != 2 || !cJSON_IsNumber(lo) || !cJSON_IsNumber(hi) ||
            lo->valuedouble > hi->valuedouble)
            return invalid(f, "results[%zu]: p50_ci95 is not [lo, hi]", row->index);
        row->ci = CI_FILE;
        row->ci_lo = lo->valuedouble;
        row->ci_hi = hi->valuedouble;
        return 0;
    }
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(r, "histogram");
    return h && !cJSON_IsNull(h) ? load_histogram(f, row, h) : 0;
}

static bool same_key(const row_t *a, const row_t *b)
{
    return !strcmp(a->experiment, b->experiment) && !strcmp(a->mechanism, b->mechanism) &&
           !strcmp(a->variant, b->variant) && !strcmp(a->metric, b->metric);
}

/* Read, parse and check one file. 0, or -1 after one line on stderr. */
static int load_file(run_file_t *f)
{
    char *text = bench_read_file(f->path);
    if (!text)
        return invalid(f, "cannot read: %s", strerror(errno));
    if (!*text) {
        free(text);
        return invalid(f, "empty file, not JSON");
    }
    const char *end = NULL;
    f->root = cJSON_ParseWithOpts(text, &end, 1);
    if (!f->root) {
        const char *at = cJSON_GetErrorPtr();
        long offset = at && at >= text ? (long)(at - text) : -1;
        free(text);
        return offset >= 0 ? invalid(f, "not JSON (syntax error near byte %ld)", offset)
                           : invalid(f, "not JSON");
    }
    free(text);
    if (!cJSON_IsObject(f->root))
        return invalid(f, "not an rtipc-bench/1 file: the top level is not an object");
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(f->root, "schema");
    if (!cJSON_IsString(schema))
        return invalid(f, "not an rtipc-bench/1 file: no \"schema\" string");
    if (strcmp(schema->valuestring, "rtipc-bench/1") != 0)
        return invalid(f, "schema is \"%s\", expected \"rtipc-bench/1\"", schema->valuestring);
    f->env = cJSON_GetObjectItemCaseSensitive(f->root, "env");
    if (f->env && !cJSON_IsObject(f->env))
        return invalid(f, "\"env\" is not an object");
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(f->root, "results");
    if (!cJSON_IsArray(results))
        return invalid(f, "\"results\" is %s", results ? "not an array" : "missing");
    size_t n = (size_t)cJSON_GetArraySize(results);
    f->rows = calloc(n ? n : 1, sizeof *f->rows);
    if (!f->rows)
        return invalid(f, "out of memory");
    const cJSON *r;
    cJSON_ArrayForEach(r, results) {
        row_t *row = &f->rows[f->n_rows];
        row->index = f->n_rows++;
        row->p99 = row->p999 = NAN;
        if (load_row(f, row, r) != 0)
            return -1;
        for (size_t i = 0; i < row->index; i++) {
            if (!f->rows[i].duplicate && same_key(&f->rows[i], row)) {
                row->duplicate = true;
                fprintf(stderr, "%s: warning: %s: results[%zu] repeats %s/%s/%s/%s; results[%zu] is compared\n",
                        PROG, f->path, row->index, row->experiment, row->mechanism, row->variant,
                        row->metric, i);
                break;
            }
        }
    }
    return 0;
}

static void free_file(run_file_t *f)
{
    for (size_t i = 0; i < f->n_rows; i++)
        free(f->rows[i].bins);
    free(f->rows);
    cJSON_Delete(f->root);
}

/* Differences in these make ratios mean less (another machine, another
 * policy, another tick, a --quick run's few samples); not an error. */
static void warn_env_differences(const run_file_t *base, const run_file_t *fresh)
{
    static const char *const fields[] = {"cpu_model", "kernel", "sched_policy", "tick_hz", "quick"};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        const cJSON *a = base->env ? cJSON_GetObjectItemCaseSensitive(base->env, fields[i]) : NULL;
        const cJSON *b = fresh->env ? cJSON_GetObjectItemCaseSensitive(fresh->env, fields[i]) : NULL;
        if (!a && !b)
            continue;
        char *ta = a ? cJSON_PrintUnformatted(a) : NULL, *tb = b ? cJSON_PrintUnformatted(b) : NULL;
        if (!ta || !tb || strcmp(ta, tb) != 0)
            fprintf(stderr, "%s: warning: env.%s differs (base %s, new %s): ratios across machines or "
                    "settings mean less\n", PROG, fields[i], ta ? ta : "absent", tb ? tb : "absent");
        free(ta);
        free(tb);
    }
}

/* -------------------------------------------------------------- judging */

typedef enum { V_REGRESSED, V_IMPROVED, V_SAME, V_INFO, V_ONLY_BASE, V_ONLY_NEW, V_COUNT } verdict_t;
static const char *const verdict_names[V_COUNT] = {"regressed", "improved", "same", "info",
                                                    "only in base", "only in new"};

typedef struct {
    row_t *base, *fresh;  /* one is NULL for a row only one file has */
    bench_better_t better;
    verdict_t verdict;
    char note[128];
} entry_t;

static bool beyond_threshold(double base, double fresh, double threshold_pct)
{
    if (base == fresh)
        return false;
    if (base == 0)
        return true;
    return fabs(fresh - base) / fabs(base) > threshold_pct / 100.0;
}

static uint64_t key_hash(const row_t *r, uint64_t h)
{
    const char *parts[] = {r->experiment, r->mechanism, r->variant, r->metric};
    for (size_t i = 0; i < 4; i++)
        for (const char *p = parts[i]; ; p++) {
            h = (h ^ (unsigned char)*p) * 0x100000001b3ull;  /* FNV-1a, NUL included */
            if (!*p)
                break;
        }
    return h;
}

/* A distribution without p50_ci95 gets an interval from its histogram. */
static void bootstrap_if_needed(row_t *r, uint64_t stream)
{
    if (r->kind != ROW_DIST || r->ci != CI_NONE || r->n_bins == 0)
        return;
    if (bench_bootstrap_median_ci(r->bins, r->n_bins, r->sub_bits, BOOTSTRAP_RESAMPLES,
                                  key_hash(r, BOOTSTRAP_SEED ^ stream), &r->ci_lo, &r->ci_hi) == 0)
        r->ci = CI_BOOTSTRAP;
}

static void judge(entry_t *e, double threshold_pct)
{
    const row_t *b = e->base, *n = e->fresh;
    if (!b || !n) {
        e->verdict = b ? V_ONLY_BASE : V_ONLY_NEW;
        const row_t *one = b ? b : n;
        if (one->kind == ROW_MISSING)
            snprintf(e->note, sizeof e->note, "missing: %s", one->note ? one->note : "");
        return;
    }
    e->better = bench_compare_direction(b->metric, b->unit);
    e->verdict = V_INFO;
    if (b->kind != n->kind) {
        snprintf(e->note, sizeof e->note, "a %s in base, a %s in new", b->kind == ROW_DIST ? "distribution" : "value",
                 n->kind == ROW_DIST ? "distribution" : "value");
        return;
    }
    if (strcmp(b->unit, n->unit) != 0) {
        snprintf(e->note, sizeof e->note, "units differ (%s, %s)", b->unit, n->unit);
        return;
    }
    if (!b->has_center || !n->has_center) {
        snprintf(e->note, sizeof e->note, "no %s in %s", b->kind == ROW_DIST ? "p50" : "value",
                 !b->has_center && !n->has_center ? "either file" : !b->has_center ? "base" : "new");
        return;
    }
    if (e->better == BENCH_BETTER_NONE)
        return;
    e->verdict = V_SAME;
    if (!beyond_threshold(b->center, n->center, threshold_pct))
        return;
    if (b->kind == ROW_DIST) {
        if (b->ci == CI_NONE || n->ci == CI_NONE) {
            snprintf(e->note, sizeof e->note, "past the threshold, but %s has no interval",
                     b->ci == CI_NONE && n->ci == CI_NONE ? "neither file" : b->ci == CI_NONE ? "base" : "new");
            return;
        }
        if (b->ci_lo <= n->ci_hi && n->ci_lo <= b->ci_hi) {
            snprintf(e->note, sizeof e->note, "past the threshold, but the intervals overlap");
            return;
        }
    }
    bool worse = e->better == BENCH_BETTER_LOWER ? n->center > b->center : n->center < b->center;
    e->verdict = worse ? V_REGRESSED : V_IMPROVED;
}

/* ---------------------------------------------------------------- output */

#define MAX_COLS 14
#define CELL 200

static void fmt_number(char *buf, double v)
{
    if (!isfinite(v))
        snprintf(buf, CELL, "-");
    else if (fabs(v) >= 1e15)
        snprintf(buf, CELL, "%.4g", v);
    else if (v == floor(v) || fabs(v) >= 1000)
        snprintf(buf, CELL, "%.0f", v);
    else if (fabs(v) >= 1)
        snprintf(buf, CELL, "%.4g", v);
    else
        snprintf(buf, CELL, "%.3g", v);
}

static void fmt_ratio(char *buf, double base, double fresh)
{
    double r = fresh / base;
    if (!isfinite(r) || !isfinite(base) || !isfinite(fresh))
        snprintf(buf, CELL, "-");
    else
        snprintf(buf, CELL, "%.3f", r);
}

static void fmt_ci(char *buf, const row_t *r)
{
    if (!r || r->kind != ROW_DIST || r->ci == CI_NONE) {
        snprintf(buf, CELL, "-");
        return;
    }
    char lo[CELL], hi[CELL];
    fmt_number(lo, r->ci_lo);
    fmt_number(hi, r->ci_hi);
    snprintf(buf, CELL, "%.90s..%.90s%s", lo, hi, r->ci == CI_BOOTSTRAP ? "*" : "");
}

/* The row that decides an entry's table: base, else new. */
static const row_t *shown(const entry_t *e)
{
    return e->base ? e->base : e->fresh;
}

static bool same_table(const entry_t *a, const entry_t *b)
{
    const row_t *x = shown(a), *y = shown(b);
    return x->kind == y->kind && !strcmp(x->unit, y->unit);
}

/* Headers of the table of rows like r, and which columns align right. */
static size_t table_headers(const row_t *r, char head[MAX_COLS][CELL], bool right[MAX_COLS])
{
    size_t n = 0;
    memset(right, 0, MAX_COLS * sizeof *right);
#define COL(align_right, ...) (right[n] = (align_right), snprintf(head[n++], CELL, __VA_ARGS__))
    COL(false, "experiment");
    COL(false, "mechanism");
    COL(false, "variant");
    if (r->kind == ROW_MISSING) {
        COL(false, "verdict");
        COL(false, "note");
        return n;
    }
    COL(false, "metric");
    COL(false, "better");
    if (r->kind == ROW_DIST) {
        COL(true, "base p50[%.40s]", r->unit);
        COL(true, "new p50[%.40s]", r->unit);
        COL(true, "new/base");
        COL(true, "base 95%%CI[%.40s]", r->unit);
        COL(true, "new 95%%CI[%.40s]", r->unit);
        COL(true, "p99 new/base");
        COL(true, "p99.9 new/base");
    } else {
        COL(true, "base[%.40s]", r->unit);
        COL(true, "new[%.40s]", r->unit);
        COL(true, "new/base");
    }
    COL(false, "verdict");
    COL(false, "note");
#undef COL
    return n;
}

static void table_cells(const entry_t *e, char cell[MAX_COLS][CELL])
{
    const row_t *r = shown(e), *b = e->base, *n = e->fresh;
    size_t c = 0;
    snprintf(cell[c++], CELL, "%s", r->experiment);
    snprintf(cell[c++], CELL, "%s", r->mechanism);
    snprintf(cell[c++], CELL, "%s", *r->variant ? r->variant : "-");
    if (r->kind != ROW_MISSING) {
        snprintf(cell[c++], CELL, "%s", r->metric);
        snprintf(cell[c++], CELL, "%s", better_name(bench_compare_direction(r->metric, r->unit)));
        double bc = b && b->has_center ? b->center : NAN, nc = n && n->has_center ? n->center : NAN;
        fmt_number(cell[c++], bc);
        fmt_number(cell[c++], nc);
        fmt_ratio(cell[c++], bc, nc);
        if (r->kind == ROW_DIST) {
            bool both = b && n && b->kind == ROW_DIST && n->kind == ROW_DIST;
            fmt_ci(cell[c++], b);
            fmt_ci(cell[c++], n);
            fmt_ratio(cell[c++], both ? b->p99 : NAN, both ? n->p99 : NAN);
            fmt_ratio(cell[c++], both ? b->p999 : NAN, both ? n->p999 : NAN);
        }
    }
    snprintf(cell[c++], CELL, "%s", verdict_names[e->verdict]);
    snprintf(cell[c++], CELL, "%s", e->note);
}

static void print_line(char cell[MAX_COLS][CELL], size_t n_cols, const size_t width[MAX_COLS],
                       const bool right[MAX_COLS])
{
    char line[MAX_COLS * (CELL + 2) + 1];
    size_t len = 0;
    for (size_t c = 0; c < n_cols; c++)
        len += (size_t)snprintf(line + len, sizeof line - len, right[c] ? "%s%*s" : "%s%-*s", c ? "  " : "",
                                (int)width[c], cell[c]);
    while (len > 0 && line[len - 1] == ' ')
        line[--len] = 0;
    puts(line);
}

static void print_table(const entry_t *entries, size_t n_entries, size_t first)
{
    static char head[MAX_COLS][CELL], cell[MAX_COLS][CELL];
    bool right[MAX_COLS];
    size_t width[MAX_COLS];
    const row_t *r = shown(&entries[first]);
    size_t n_cols = table_headers(r, head, right);
    for (size_t c = 0; c < n_cols; c++)
        width[c] = strlen(head[c]);
    bool bootstrapped = false;
    for (size_t i = first; i < n_entries; i++) {
        if (!same_table(&entries[first], &entries[i]))
            continue;
        table_cells(&entries[i], cell);
        for (size_t c = 0; c < n_cols; c++)
            if (strlen(cell[c]) > width[c])
                width[c] = strlen(cell[c]);
        bootstrapped |= (entries[i].base && entries[i].base->ci == CI_BOOTSTRAP) ||
                        (entries[i].fresh && entries[i].fresh->ci == CI_BOOTSTRAP);
    }
    if (r->kind == ROW_DIST)
        printf("\n== distributions [%s]: p50 compared, a change counts when the 95%% intervals are apart ==\n",
               r->unit);
    else if (r->kind == ROW_VALUE)
        printf("\n== values [%s] ==\n", r->unit);
    else
        printf("\n== mechanisms missing on one side ==\n");
    print_line(head, n_cols, width, right);
    for (size_t i = first; i < n_entries; i++) {
        if (!same_table(&entries[first], &entries[i]))
            continue;
        table_cells(&entries[i], cell);
        print_line(cell, n_cols, width, right);
    }
    if (bootstrapped)
        printf("* bootstrap interval from the histogram (%d resamples; the file has no p50_ci95)\n",
               BOOTSTRAP_RESAMPLES);
}

static void print_source(const run_file_t *f)
{
    const char *commit = f->env ? bench_json_string(f->env, "git_commit") : NULL;
    const char *started = f->env ? bench_json_string(f->env, "started_utc") : NULL;
    printf("%-4s %s", f->role, f->path);
    if (commit || started)
        printf(" (%s%s%s)", commit ? commit : "", commit && started ? ", " : "", started ? started : "");
    putchar('\n');
}

/* ------------------------------------------------------------------ CLI */

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", PROG);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'rtipc-bench compare --help'.\n");
    return 2;
}

/* A percentage: digits with an optional fraction and '%', 0..1000. */
static int parse_threshold(const char *s, double *pct)
{
    if (!s || !((*s >= '0' && *s <= '9') || *s == '.'))
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s)
        return -1;
    if (*end == '%')
        end++;
    if (*end || errno || !isfinite(v) || v < 0 || v > 1000)
        return -1;
    *pct = v;
    return 0;
}

static int compare_files(run_file_t *base, run_file_t *fresh, double threshold_pct)
{
    entry_t *entries = calloc(base->n_rows + fresh->n_rows + 1, sizeof *entries);
    if (!entries) {
        fprintf(stderr, "%s: out of memory\n", PROG);
        return 1;
    }
    size_t n = 0;
    bool *matched = calloc(fresh->n_rows + 1, sizeof *matched);
    if (!matched) {
        free(entries);
        fprintf(stderr, "%s: out of memory\n", PROG);
        return 1;
    }
    for (size_t i = 0; i < base->n_rows; i++) {
        row_t *b = &base->rows[i], *partner = NULL;
        if (b->duplicate)
            continue;
        for (size_t j = 0; j < fresh->n_rows && !partner; j++)
            if (!fresh->rows[j].duplicate && same_key(b, &fresh->rows[j])) {
                partner = &fresh->rows[j];
                matched[j] = true;
            }
        if (partner && b->kind == ROW_MISSING && partner->kind == ROW_MISSING)
            continue;  /* missing in both: nothing to compare */
        entries[n++] = (entry_t){.base = b, .fresh = partner};
    }
    for (size_t j = 0; j < fresh->n_rows; j++)
        if (!matched[j] && !fresh->rows[j].duplicate)
            entries[n++] = (entry_t){.fresh = &fresh->rows[j]};
    free(matched);

    size_t count[V_COUNT] = {0};
    for (size_t i = 0; i < n; i++) {
        if (entries[i].base && entries[i].fresh) {
            bootstrap_if_needed(entries[i].base, 1);
            bootstrap_if_needed(entries[i].fresh, 2);
        }
        judge(&entries[i], threshold_pct);
        count[entries[i].verdict]++;
    }

    print_source(base);
    print_source(fresh);
    printf("threshold %g%%: p50 of distributions (95%% intervals apart), value of the others\n", threshold_pct);
    for (size_t i = 0; i < n; i++) {
        bool first_of_table = true;
        for (size_t k = 0; k < i && first_of_table; k++)
            first_of_table = !same_table(&entries[k], &entries[i]);
        if (first_of_table)
            print_table(entries, n, i);
    }
    printf("\nsummary: %zu regressed, %zu improved, %zu same, %zu info, %zu only in base, %zu only in new\n",
           count[V_REGRESSED], count[V_IMPROVED], count[V_SAME], count[V_INFO], count[V_ONLY_BASE],
           count[V_ONLY_NEW]);

    for (size_t i = 0; i < n; i++) {
        const entry_t *e = &entries[i];
        if (e->verdict != V_REGRESSED)
            continue;
        char was[CELL], now[CELL], ratio[CELL];
        fmt_number(was, e->base->center);
        fmt_number(now, e->fresh->center);
        fmt_ratio(ratio, e->base->center, e->fresh->center);
        fprintf(stderr, "%s: regressed: %s/%s/%s/%s %s %s -> %s %s (new/base %s)\n", PROG,
                e->base->experiment, e->base->mechanism, e->base->variant, e->base->metric,
                e->base->kind == ROW_DIST ? "p50" : "value", was, now, e->base->unit, ratio);
    }
    free(entries);
    return count[V_REGRESSED] ? 1 : 0;
}

int bench_compare_main(int argc, char **argv)
{
    double threshold_pct = DEFAULT_THRESHOLD_PCT;
    static const struct option longopts[] = {
        {"threshold", required_argument, 0, 't'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case 't':
            if (parse_threshold(optarg, &threshold_pct) != 0)
                return usage_error("--threshold wants a percentage from 0 to 1000, not '%s'", optarg);
            break;
        case 'h':
            fputs(compare_usage, stdout);
            return 0;
        default:
            return usage_error("unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 2)
        return usage_error("%s", "compare wants two files: BASE.json NEW.json");

    run_file_t base = {.path = argv[optind], .role = "base"};
    run_file_t fresh = {.path = argv[optind + 1], .role = "new"};
    int status;
    if (load_file(&base) != 0 || load_file(&fresh) != 0) {
        status = 2;
    } else {
        warn_env_differences(&base, &fresh);
        status = compare_files(&base, &fresh, threshold_pct);
    }
    free_file(&base);
    free_file(&fresh);
    return status;
}
