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

#include "../../harness/args.h"
#include "../../names.h"
#include "../../results/read.h"
#include "compare.h"

#define PROG "rtipc-bench compare"
#define DEFAULT_THRESHOLD_PCT 10.0

static const char compare_usage[] =
    "usage: rtipc-bench compare BASE.json NEW.json [--threshold PCT] [--allow-mixed-clocks]\n"
    "\n"
    "Compares two rtipc-bench/1 files row by row (experiment, mechanism, variant,\n"
    "metric): base and new figure, new/base, and a verdict: regressed, improved,\n"
    "same (within the threshold or within noise) or info (no better direction).\n"
    "Distributions compare the p50 and count a change only when the two 95%\n"
    "intervals of the median are apart (a bootstrap from the histogram stands in\n"
    "for a missing p50_ci95); p99 and p99.9 ratios are shown for information.\n"
    "\n"
    "BASE or NEW may be '-', standard input (one of them).\n"
    "\n"
    "Rows are matched by their names in n log n time. A file is refused (exit 2)\n"
    "when it is not rtipc-bench/1 JSON or breaks the schema (docs/json-schema.md),\n"
    "is larger than " BENCH_RESULTS_MAX_BYTES_TEXT " or holds more than 100000 rows; the bootstrap of\n"
    "one file does at most " BENCH_RESULTS_BOOTSTRAP_BUDGET_TEXT ", and rows past that have no interval\n"
    "(a warning and the note column say so).\n"
    "\n"
    "Every timed row names the clock that measured it (host-tsc, os-clock,\n"
    "mcu-cycles, emulated-instructions, emulated-wall-clock, emulated-core-cycles,\n"
    "logic-analyzer).\n"
    "Rows of different clocks are not comparable (an emulated instruction is not a\n"
    "nanosecond), so compare refuses them (exit 2) unless --allow-mixed-clocks is\n"
    "given.\n"
    "\n"
    "  --threshold PCT    smallest change that counts, in percent, 0 to 1000\n"
    "                     (default 10; '25' and '25%' are the same)\n"
    "      --allow-mixed-clocks  compare rows measured by different clocks\n"
    "                     (a warning names how many)\n"
    "  --timeout S        wait at most S seconds for a FIFO, socket or device\n"
    "                     named as a file to have something to read, 0 to 86400,\n"
    "                     0 = for ever (default 30)\n"
    "  -h, --help         this text\n"
    "      --version      the version of rtipc\n"
    "Options may come before or after the files; '--' ends the options.\n"
    "\n"
    "Exit status: 0 nothing regressed, 1 a metric regressed past the threshold\n"
    "or the output could not be written, 2 usage error, an unreadable or\n"
    "invalid file, or rows of different clocks without --allow-mixed-clocks.\n";

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
    {BENCH_METRIC_DROPPED, NULL, BENCH_BETTER_LOWER},          /* sends refused by a full buffer */
    {BENCH_METRIC_WATCHDOG_TRIPS, NULL, BENCH_BETTER_LOWER},   /* a task missed its watchdog timeout */
    {BENCH_METRIC_IDLE_TRIPS, NULL, BENCH_BETTER_LOWER},       /* a core's idle task starved */
    {BENCH_METRIC_MISSED_UPDATES, NULL, BENCH_BETTER_LOWER},   /* state-vs-event: values never acted on */
    /* Outcomes a notification mode produces by design. */
    {BENCH_METRIC_COALESCED, NULL, BENCH_BETTER_NONE},
    {BENCH_METRIC_REFUSED, NULL, BENCH_BETTER_NONE},
    /* The workload, not the mechanism's merit (their units would say otherwise). */
    {BENCH_METRIC_OFFERED, NULL, BENCH_BETTER_NONE},           /* msg/s the producer aimed at: a setting */
    {BENCH_METRIC_DELIVERED, NULL, BENCH_BETTER_NONE},         /* follows the offered load */
    {BENCH_METRIC_SENT, NULL, BENCH_BETTER_NONE},
    {BENCH_METRIC_RECEIVED, NULL, BENCH_BETTER_NONE},
    {BENCH_METRIC_PUBLISHED, NULL, BENCH_BETTER_NONE},
    {BENCH_METRIC_FREERTOS_32BIT, NULL, BENCH_BETTER_NONE},    /* footprint: a reference constant */
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

/* ----------------------------------------------------------------- input */

typedef struct {
    const char *path;
    const char *role;  /* "base" or "new" */
    bench_results_t res;
} run_file_t;

/* Read and check one file (results/read.h). 0, or -1 after one line on
 * stderr. */
static int load_file(run_file_t *f, double wait_s)
{
    char err[512];
    if (bench_results_load_waiting(&f->res, f->path, wait_s, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s: %s\n", PROG, f->path, err);
        return -1;
    }
    bench_results_warn(&f->res, stderr, PROG, f->path);
    return 0;
}

/* The figure a row is compared by: the median of a distribution, the value
 * of the others; NAN when the file has none. */
static double center(const bench_row_t *r)
{
    return r->kind == BENCH_ROW_DIST ? r->p50 : r->kind == BENCH_ROW_VALUE ? r->value : NAN;
}

/* Differences in these make ratios mean less (another machine, another
 * policy, another tick, a --quick run's few samples); not an error. */
static void warn_env_differences(const run_file_t *base, const run_file_t *fresh)
{
    static const char *const fields[] = {"cpu_model", "kernel", "sched_policy", "tick_hz", "quick"};
    const cJSON *envs[] = {base->res.env, fresh->res.env};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        const cJSON *a = envs[0] ? cJSON_GetObjectItemCaseSensitive(envs[0], fields[i]) : NULL;
        const cJSON *b = envs[1] ? cJSON_GetObjectItemCaseSensitive(envs[1], fields[i]) : NULL;
        if (!a && !b)
            continue;
        char *ta = a ? cJSON_PrintUnformatted(a) : NULL, *tb = b ? cJSON_PrintUnformatted(b) : NULL;
        if (!ta || !tb || strcmp(ta, tb) != 0)
            fprintf(stderr, "%s: warning: env.%s differs (base %.200s, new %.200s): ratios across machines or "
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
    const bench_row_t *base, *fresh;  /* one is NULL for a row only one file has */
    bench_better_t better;
    verdict_t verdict;
    char note[160];
    size_t table;  /* the position of the first entry of this entry's table */
} entry_t;

static bool beyond_threshold(double base, double fresh, double threshold_pct)
{
    if (base == fresh)
        return false;
    if (base == 0)
        return true;
    return fabs(fresh - base) / fabs(base) > threshold_pct / 100.0;
}

static void judge(entry_t *e, double threshold_pct)
{
    const bench_row_t *b = e->base, *n = e->fresh;
    if (!b || !n) {
        e->verdict = b ? V_ONLY_BASE : V_ONLY_NEW;
        const bench_row_t *one = b ? b : n;
        if (one->kind == BENCH_ROW_MISSING)
            snprintf(e->note, sizeof e->note, "missing: %.140s", one->note);
        return;
    }
    e->better = bench_compare_direction(b->metric, b->unit);
    e->verdict = V_INFO;
    if (b->kind != n->kind) {
        snprintf(e->note, sizeof e->note, "a %s in base, a %s in new",
                 b->kind == BENCH_ROW_DIST ? "distribution" : "value", n->kind == BENCH_ROW_DIST ? "distribution" : "value");
        return;
    }
    if (strcmp(b->unit, n->unit) != 0) {
        snprintf(e->note, sizeof e->note, "units differ (%.60s, %.60s)", b->unit, n->unit);
        return;
    }
    double bc = center(b), nc = center(n);
    if (isnan(bc) || isnan(nc)) {
        snprintf(e->note, sizeof e->note, "no %s in %s", b->kind == BENCH_ROW_DIST ? "p50" : "value",
                 isnan(bc) && isnan(nc) ? "either file" : isnan(bc) ? "base" : "new");
        return;
    }
    if (e->better == BENCH_BETTER_NONE)
        return;
    e->verdict = V_SAME;
    if (!beyond_threshold(bc, nc, threshold_pct))
        return;
    if (b->kind == BENCH_ROW_DIST) {
        if (b->ci == BENCH_CI_NONE || n->ci == BENCH_CI_NONE) {
            const bench_row_t *none = b->ci == BENCH_CI_NONE ? b : n;
            snprintf(e->note, sizeof e->note, "past the threshold, but %s has no interval (%s)",
                     b->ci == BENCH_CI_NONE && n->ci == BENCH_CI_NONE ? "neither file" : none == b ? "base" : "new",
                     none->ci_why ? none->ci_why : "none");
            return;
        }
        if (b->ci_lo <= n->ci_hi && n->ci_lo <= b->ci_hi) {
            snprintf(e->note, sizeof e->note, "past the threshold, but the intervals overlap");
            return;
        }
    }
    bool worse = e->better == BENCH_BETTER_LOWER ? nc > bc : nc < bc;
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

static void fmt_ci(char *buf, const bench_row_t *r)
{
    if (!r || r->kind != BENCH_ROW_DIST || r->ci == BENCH_CI_NONE) {
        snprintf(buf, CELL, "-");
        return;
    }
    char lo[CELL], hi[CELL];
    fmt_number(lo, r->ci_lo);
    fmt_number(hi, r->ci_hi);
    snprintf(buf, CELL, "%.90s..%.90s%s", lo, hi, r->ci == BENCH_CI_BOOTSTRAP ? "*" : "");
}

/* The row that decides an entry's table: base, else new. */
static const bench_row_t *shown(const entry_t *e)
{
    return e->base ? e->base : e->fresh;
}

/* Entries go in one table per kind and unit, the tables in the order their
 * first entries come. */
static int cmp_table_key(const entry_t *a, const entry_t *b)
{
    const bench_row_t *x = shown(a), *y = shown(b);
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return strcmp(x->unit, y->unit);
}

static int cmp_by_table_key(const void *p, const void *q)
{
    const entry_t *a = *(const entry_t *const *)p, *b = *(const entry_t *const *)q;
    int c = cmp_table_key(a, b);
    return c ? c : (a > b) - (a < b);
}

static int cmp_by_table(const void *p, const void *q)
{
    const entry_t *a = *(const entry_t *const *)p, *b = *(const entry_t *const *)q;
    if (a->table != b->table)
        return a->table < b->table ? -1 : 1;
    return (a > b) - (a < b);
}

/* Headers of the table of rows like r, and which columns align right. */
static size_t table_headers(const bench_row_t *r, char head[MAX_COLS][CELL], bool right[MAX_COLS])
{
    size_t n = 0;
    memset(right, 0, MAX_COLS * sizeof *right);
#define COL(align_right, ...) (right[n] = (align_right), snprintf(head[n++], CELL, __VA_ARGS__))
    COL(false, "experiment");
    COL(false, "mechanism");
    COL(false, "variant");
    if (r->kind == BENCH_ROW_MISSING) {
        COL(false, "verdict");
        COL(false, "note");
        return n;
    }
    COL(false, "metric");
    COL(false, "better");
    if (r->kind == BENCH_ROW_DIST) {
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
    const bench_row_t *r = shown(e), *b = e->base, *n = e->fresh;
    size_t c = 0;
    /* The names come from the files: escaped for the terminal. */
    bench_text_printable(cell[c++], CELL, r->experiment);
    bench_text_printable(cell[c++], CELL, r->mechanism);
    bench_text_printable(cell[c++], CELL, *r->variant ? r->variant : "-");
    if (r->kind != BENCH_ROW_MISSING) {
        bench_text_printable(cell[c++], CELL, r->metric);
        snprintf(cell[c++], CELL, "%s", better_name(bench_compare_direction(r->metric, r->unit)));
        double bc = b ? center(b) : NAN, nc = n ? center(n) : NAN;
        fmt_number(cell[c++], bc);
        fmt_number(cell[c++], nc);
        fmt_ratio(cell[c++], bc, nc);
        if (r->kind == BENCH_ROW_DIST) {
            bool both = b && n && b->kind == BENCH_ROW_DIST && n->kind == BENCH_ROW_DIST;
            fmt_ci(cell[c++], b);
            fmt_ci(cell[c++], n);
            fmt_ratio(cell[c++], both ? b->p99 : NAN, both ? n->p99 : NAN);
            fmt_ratio(cell[c++], both ? b->p999 : NAN, both ? n->p999 : NAN);
        }
    }
    snprintf(cell[c++], CELL, "%s", verdict_names[e->verdict]);
    bench_text_printable(cell[c++], CELL, e->note);
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

/* One table: LIST holds its N entries. */
static void print_table(const entry_t *const *list, size_t n)
{
    static char head[MAX_COLS][CELL], cell[MAX_COLS][CELL];
    bool right[MAX_COLS];
    size_t width[MAX_COLS];
    const bench_row_t *r = shown(list[0]);
    size_t n_cols = table_headers(r, head, right);
    for (size_t c = 0; c < n_cols; c++)
        width[c] = strlen(head[c]);
    bool bootstrapped = false;
    for (size_t i = 0; i < n; i++) {
        table_cells(list[i], cell);
        for (size_t c = 0; c < n_cols; c++)
            if (strlen(cell[c]) > width[c])
                width[c] = strlen(cell[c]);
        bootstrapped |= (list[i]->base && list[i]->base->ci == BENCH_CI_BOOTSTRAP) ||
                        (list[i]->fresh && list[i]->fresh->ci == BENCH_CI_BOOTSTRAP);
    }
    if (r->kind == BENCH_ROW_DIST)
        printf("\n== distributions [%s]: p50 compared, a change counts when the 95%% intervals are apart ==\n",
               r->unit);
    else if (r->kind == BENCH_ROW_VALUE)
        printf("\n== values [%s] ==\n", r->unit);
    else
        printf("\n== mechanisms missing on one side ==\n");
    print_line(head, n_cols, width, right);
    for (size_t i = 0; i < n; i++) {
        table_cells(list[i], cell);
        print_line(cell, n_cols, width, right);
    }
    if (bootstrapped)
        printf("* bootstrap interval from the histogram (%u resamples; the file has no p50_ci95)\n",
               BENCH_RESULTS_BOOTSTRAP_RESAMPLES);
}

/* Every table, in n log n: entries sorted by table key find their table's
 * first entry, then sorted by that. */
static int print_tables(entry_t *entries, size_t n)
{
    const entry_t **list = malloc((n ? n : 1) * sizeof *list);
    if (!list)
        return -1;
    for (size_t i = 0; i < n; i++)
        list[i] = &entries[i];
    qsort(list, n, sizeof *list, cmp_by_table_key);
    for (size_t i = 0, start = 0; i < n; i++) {
        if (i > 0 && cmp_table_key(list[i - 1], list[i]) != 0)
            start = i;
        entries[list[i] - entries].table = (size_t)(list[start] - entries);  /* the earliest: sorted by position */
    }
    qsort(list, n, sizeof *list, cmp_by_table);
    for (size_t i = 0; i < n;) {
        size_t end = i + 1;
        while (end < n && list[end]->table == list[i]->table)
            end++;
        print_table(list + i, end - i);
        i = end;
    }
    free(list);
    return 0;
}

static void print_source(const run_file_t *f)
{
    const char *commit = bench_results_string(f->res.env, "git_commit", NULL);
    const char *started = bench_results_string(f->res.env, "started_utc", NULL);
    printf("%-4s %s", f->role, f->path);
    if (commit || started)
        printf(" (%s%s%s)", commit ? commit : "", commit && started ? ", " : "", started ? started : "");
    putchar('\n');
}

/* ------------------------------------------------------------------ CLI */

/* A percentage: digits with an optional fraction and '%', 0..1000. */
static int parse_threshold(const char *s, double *pct)
{
    size_t len = strlen(s);
    char text[64];
    if (len == 0 || len >= sizeof text)
        return -1;
    memcpy(text, s, len + 1);
    if (text[len - 1] == '%')
        text[len - 1] = 0;
    return bench_parse_real(text, 0, 1000, pct);
}

/* Matched rows whose clocks differ (both named). Refused unless allowed:
 * returns 2 after saying why, else 0 (with a warning when allowed). */
static int check_clocks(const run_file_t *base, const run_file_t *fresh, const entry_t *entries, size_t n,
                        bool allow)
{
    size_t mixed = 0;
    const entry_t *first = NULL;
    for (size_t i = 0; i < n; i++) {
        const entry_t *e = &entries[i];
        if (!e->base || !e->fresh || !*e->base->clock || !*e->fresh->clock ||
            strcmp(e->base->clock, e->fresh->clock) == 0)
            continue;
        if (!first)
            first = e;
        mixed++;
    }
    if (!mixed)
        return 0;
    const bench_row_t *b = first->base;
    fprintf(stderr,
            "%s: %s%zu row%s measured by different clocks, e.g. %s/%s/%s/%s: %s in %s, %s in %s; "
            "figures of different clocks are not comparable%s\n",
            PROG, allow ? "warning: " : "", mixed, mixed == 1 ? "" : "s", b->experiment, b->mechanism,
            b->variant, b->metric, b->clock, base->path, first->fresh->clock, fresh->path,
            allow ? " (compared anyway: --allow-mixed-clocks)" : "; --allow-mixed-clocks compares them anyway");
    return allow ? 0 : 2;
}

static int compare_files(run_file_t *base, run_file_t *fresh, double threshold_pct, bool allow_mixed_clocks)
{
    size_t nb = base->res.n_rows, nf = fresh->res.n_rows;
    entry_t *entries = calloc(nb + nf + 1, sizeof *entries);
    bool *matched = calloc(nf + 1, sizeof *matched);
    if (!entries || !matched) {
        free(entries);
        free(matched);
        fprintf(stderr, "%s: out of memory\n", PROG);
        return 1;
    }
    /* Rows are matched by key through the new file's index: n log n. A
     * repeated key is compared once, by its first row (the reader warned). */
    size_t n = 0;
    for (size_t i = 0; i < nb; i++) {
        const bench_row_t *b = &base->res.rows[i];
        if (b->dup_of != SIZE_MAX)
            continue;
        const bench_row_t *partner = bench_results_find(&fresh->res, b->experiment, b->mechanism, b->variant, b->metric);
        if (partner)
            matched[partner->index] = true;
        if (partner && b->kind == BENCH_ROW_MISSING && partner->kind == BENCH_ROW_MISSING)
            continue;  /* missing in both: nothing to compare */
        entries[n++] = (entry_t){.base = b, .fresh = partner};
    }
    for (size_t j = 0; j < nf; j++)
        if (!matched[j] && fresh->res.rows[j].dup_of == SIZE_MAX)
            entries[n++] = (entry_t){.fresh = &fresh->res.rows[j]};
    free(matched);
    if (check_clocks(base, fresh, entries, n, allow_mixed_clocks) != 0) {
        free(entries);
        return 2;
    }

    size_t count[V_COUNT] = {0};
    for (size_t i = 0; i < n; i++) {
        judge(&entries[i], threshold_pct);
        count[entries[i].verdict]++;
    }

    print_source(base);
    print_source(fresh);
    printf("threshold %g%%: p50 of distributions (95%% intervals apart), value of the others\n", threshold_pct);
    if (print_tables(entries, n) != 0) {
        free(entries);
        fprintf(stderr, "%s: out of memory\n", PROG);
        return 1;
    }
    printf("\nsummary: %zu regressed, %zu improved, %zu same, %zu info, %zu only in base, %zu only in new\n",
           count[V_REGRESSED], count[V_IMPROVED], count[V_SAME], count[V_INFO], count[V_ONLY_BASE],
           count[V_ONLY_NEW]);

    for (size_t i = 0; i < n; i++) {
        const entry_t *e = &entries[i];
        if (e->verdict != V_REGRESSED)
            continue;
        char was[CELL], now[CELL], ratio[CELL];
        fmt_number(was, center(e->base));
        fmt_number(now, center(e->fresh));
        fmt_ratio(ratio, center(e->base), center(e->fresh));
        fprintf(stderr, "%s: regressed: %s/%s/%s/%s %s %s -> %s %s (new/base %s)\n", PROG,
                e->base->experiment, e->base->mechanism, e->base->variant, e->base->metric,
                e->base->kind == BENCH_ROW_DIST ? "p50" : "value", was, now, e->base->unit, ratio);
    }
    free(entries);
    return count[V_REGRESSED] ? 1 : 0;
}

int bench_compare_main(int argc, char **argv)
{
    double threshold_pct = DEFAULT_THRESHOLD_PCT;
    bool allow_mixed_clocks = false;
    double wait_s = BENCH_RESULTS_WAIT_S;
    static const struct option longopts[] = {{"threshold", required_argument, 0, 't'},
                                             {"timeout", required_argument, 0, 'w'},
                                             {"allow-mixed-clocks", no_argument, 0, 'm'},
                                             {"help", no_argument, 0, 'h'},
                                             {"version", no_argument, 0, BENCH_OPT_VERSION},
                                             {0, 0, 0, 0}};
    bench_optparse_t p;
    bench_optparse_init(&p, PROG, compare_usage, longopts);
    int c;
    while ((c = bench_optparse_next(&p, argc, argv)) >= 0) {
        if (c == 't' && parse_threshold(optarg, &threshold_pct) != 0)
            return bench_usage_error(PROG, "--threshold wants a percentage from 0 to 1000, not '%s'", optarg);
        if (c == 'm')
            allow_mixed_clocks = true;
        if (c == 'w' && bench_parse_real(optarg, 0, 86400, &wait_s) != 0)
            return bench_usage_error(PROG, "--timeout '%s' is not a number of seconds from 0 to 86400", optarg);
    }
    if (c == BENCH_OPT_STOP)
        return p.status;
    if (argc - optind != 2)
        return bench_usage_error(PROG, "%s", "compare wants two files: BASE.json NEW.json");

    run_file_t base = {.path = argv[optind], .role = "base"};
    run_file_t fresh = {.path = argv[optind + 1], .role = "new"};
    /* '-' is standard input: one of the two files at most. */
    if (!strcmp(base.path, "-") && !strcmp(fresh.path, "-"))
        return bench_usage_error(PROG, "%s", "BASE and NEW are both standard input ('-'): one of them at most");
    int status;
    if (load_file(&base, wait_s) != 0 || load_file(&fresh, wait_s) != 0) {
        status = 2;
    } else {
        warn_env_differences(&base, &fresh);
        status = compare_files(&base, &fresh, threshold_pct, allow_mixed_clocks);
    }
    bench_results_free(&base.res);
    bench_results_free(&fresh.res);
    return status;
}
