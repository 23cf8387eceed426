/* Loading and checking rtipc-bench/1 files (read.h). */
#define _POSIX_C_SOURCE 200809L
#include "read.h"

#include "row_clock.h"
#include "errtext.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define SCHEMA "rtipc-bench/1"
#define BOOTSTRAP_SEED 0x72746970635f6273ull /* fixed: the same file gives the same intervals */

#define fail bench_errtext

/* ------------------------------------------------------------- members */

static const cJSON *member(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

double bench_results_number(const cJSON *o, const char *key)
{
    const cJSON *v = member(o, key);
    return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}

const char *bench_results_string(const cJSON *o, const char *key, const char *fallback)
{
    const cJSON *v = member(o, key);
    return cJSON_IsString(v) && v->valuestring ? v->valuestring : fallback;
}

/* A number member that may be null: 0 with *out set (NAN when null, absent
 * or not finite), -1 when it has another type. */
static int optional_number(const cJSON *o, const char *key, double *out)
{
    const cJSON *v = member(o, key);
    *out = NAN;
    if (!v || cJSON_IsNull(v))
        return 0;
    if (!cJSON_IsNumber(v))
        return -1;
    if (isfinite(v->valuedouble))
        *out = v->valuedouble;
    return 0;
}

/* A whole number in [0, limit]. */
static bool is_count(const cJSON *v, double limit)
{
    return cJSON_IsNumber(v) && v->valuedouble >= 0 && v->valuedouble <= limit &&
           v->valuedouble == floor(v->valuedouble);
}

/* ----------------------------------------------------------------- rows */

static int load_histogram(bench_row_t *row, const cJSON *h, char *err, size_t errlen)
{
    const cJSON *bits = member(h, "sub_bucket_bits");
    if (!cJSON_IsObject(h) || !is_count(bits, 30))
        return fail(err, errlen, "results[%zu]: histogram lacks sub_bucket_bits (0..30)", row->index);
    const cJSON *buckets = member(h, "buckets");
    if (!cJSON_IsArray(buckets))
        return fail(err, errlen, "results[%zu]: histogram.buckets is not an array", row->index);
    row->sub_bucket_bits = (unsigned)bits->valuedouble;
    size_t n = (size_t)cJSON_GetArraySize(buckets);
    if (n == 0)
        return 0;
    row->bins = calloc(n, sizeof *row->bins);
    if (!row->bins)
        return fail(err, errlen, "out of memory");
    const cJSON *pair;
    cJSON_ArrayForEach(pair, buckets) {
        const cJSON *low = cJSON_GetArrayItem(pair, 0), *count = cJSON_GetArrayItem(pair, 1);
        if (!cJSON_IsArray(pair) || cJSON_GetArraySize(pair) != 2 || !is_count(low, 0x1p62) ||
            !is_count(count, 0x1p53))
            return fail(err, errlen, "results[%zu]: histogram bucket %zu is not [low_ns, count]", row->index,
                        row->n_bins);
        bench_hist_bin_t bin = {(int64_t)low->valuedouble, (uint64_t)count->valuedouble};
        if (row->n_bins > 0 && bin.low <= row->bins[row->n_bins - 1].low)
            return fail(err, errlen, "results[%zu]: histogram buckets are not in increasing order", row->index);
        row->bins[row->n_bins++] = bin;
    }
    return 0;
}

static int load_distribution(bench_row_t *row, const cJSON *r, char *err, size_t errlen)
{
    if (!is_count(member(r, "n"), 0x1p53) || member(r, "n")->valuedouble < 1)
        return fail(err, errlen, "results[%zu]: \"n\" is not a count >= 1", row->index);
    row->n = (uint64_t)member(r, "n")->valuedouble;
    static const char *const keys[] = {"min", "mean", "p50", "p90", "p99", "p999", "max", "stddev", "jitter"};
    double *fields[] = {&row->min, &row->mean, &row->p50, &row->p90, &row->p99,
                        &row->p999, &row->max, &row->stddev, &row->jitter};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
        if (optional_number(r, keys[k], fields[k]) != 0)
            return fail(err, errlen, "results[%zu]: \"%s\" is neither a number nor null", row->index, keys[k]);
    if (!member(r, "p50"))
        return fail(err, errlen, "results[%zu] lacks \"p50\" (a number or null)", row->index);
    row->ci_lo = row->ci_hi = NAN;
    const cJSON *ci = member(r, "p50_ci95");
    if (ci && !cJSON_IsNull(ci)) {
        const cJSON *lo = cJSON_GetArrayItem(ci, 0), *hi = cJSON_GetArrayItem(ci, 1);
        if (!cJSON_IsArray(ci) || cJSON_GetArraySize(ci) != 2 || !cJSON_IsNumber(lo) || !cJSON_IsNumber(hi) ||
            lo->valuedouble > hi->valuedouble)
            return fail(err, errlen, "results[%zu]: p50_ci95 is not [lo, hi]", row->index);
        if (isfinite(lo->valuedouble) && isfinite(hi->valuedouble)) {
            row->ci = BENCH_CI_FILE;
            row->ci_lo = lo->valuedouble;
            row->ci_hi = hi->valuedouble;
        }
    }
    const cJSON *h = member(r, "histogram");
    if (h && !cJSON_IsNull(h) && load_histogram(row, h, err, errlen) != 0)
        return -1;
    if (row->ci == BENCH_CI_NONE)
        row->ci_why = row->n_bins ? "no p50_ci95 yet" : "neither p50_ci95 nor a histogram";
    return 0;
}

static int load_row(bench_row_t *row, const cJSON *r, const char *env_clock, char *err, size_t errlen)
{
    row->clock = "";
    row->dup_of = SIZE_MAX;
    row->value = NAN;
    row->min = row->mean = row->p50 = row->p90 = row->p99 = row->p999 = row->max = row->stddev = row->jitter = NAN;
    row->ci_lo = row->ci_hi = NAN;
    if (!cJSON_IsObject(r))
        return fail(err, errlen, "results[%zu] is not an object", row->index);
    static const char *const keys[] = {"experiment", "mechanism", "variant"};
    const char **names[] = {&row->experiment, &row->mechanism, &row->variant};
    for (size_t k = 0; k < 3; k++)
        if (!(*names[k] = bench_results_string(r, keys[k], NULL)))
            return fail(err, errlen, "results[%zu] lacks the string \"%s\"", row->index, keys[k]);
    const cJSON *note = member(r, "note");
    if (note && !cJSON_IsString(note) && !cJSON_IsNull(note))
        return fail(err, errlen, "results[%zu]: \"note\" is not a string", row->index);
    row->note = bench_results_string(r, "note", "");
    if (cJSON_IsTrue(member(r, "missing"))) {
        row->kind = BENCH_ROW_MISSING;
        row->metric = row->unit = "";
        return 0;
    }
    row->metric = bench_results_string(r, "metric", NULL);
    row->unit = bench_results_string(r, "unit", NULL);
    if (!row->metric || !*row->metric)
        return fail(err, errlen, "results[%zu] lacks the string \"metric\"", row->index);
    if (!row->unit || !*row->unit)
        return fail(err, errlen, "results[%zu] lacks the string \"unit\"", row->index);
    /* The clock: the row's own, else (a file from before rows named it)
     * what env.clock_source implies for a timed unit. */
    const cJSON *clock = member(r, "clock");
    if (clock) {
        if (!cJSON_IsString(clock) || (*clock->valuestring && !bench_row_clock_known(clock->valuestring)))
            return fail(err, errlen, "results[%zu]: \"clock\" is not one of the clock names of docs/json-schema.md",
                        row->index);
        row->clock = clock->valuestring;
    } else if (!bench_row_clock_free_unit(row->unit)) {
        row->clock = env_clock;
    }
    if (member(r, "n")) {
        row->kind = BENCH_ROW_DIST;
        return load_distribution(row, r, err, errlen);
    }
    row->kind = BENCH_ROW_VALUE;
    if (!member(r, "value") || optional_number(r, "value", &row->value) != 0)
        return fail(err, errlen, "results[%zu] has neither \"n\" nor a \"value\" (a number or null)", row->index);
    return 0;
}

/* ---------------------------------------------------------------- index */

static int cmp_key(const bench_row_t *a, const bench_row_t *b)
{
    int c = strcmp(a->experiment, b->experiment);
    if (!c)
        c = strcmp(a->mechanism, b->mechanism);
    if (!c)
        c = strcmp(a->variant, b->variant);
    if (!c)
        c = strcmp(a->metric, b->metric);
    return c;
}

static int cmp_by_key(const void *x, const void *y)
{
    const bench_row_t *a = *(const bench_row_t *const *)x, *b = *(const bench_row_t *const *)y;
    int c = cmp_key(a, b);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

static int cmp_by_experiment(const void *x, const void *y)
{
    const bench_row_t *a = *(const bench_row_t *const *)x, *b = *(const bench_row_t *const *)y;
    int c = strcmp(a->experiment, b->experiment);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* Both orders, n log n whatever the names (no hash an input can defeat). */
static int build_index(bench_results_t *res, char *err, size_t errlen)
{
    size_t n = res->n_rows;
    const bench_row_t **order = malloc((n ? n : 1) * sizeof *order);
    res->by_key = malloc((n ? n : 1) * sizeof *res->by_key);
    res->by_experiment = malloc((n ? n : 1) * sizeof *res->by_experiment);
    if (!order || !res->by_key || !res->by_experiment) {
        free(order);
        return fail(err, errlen, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        order[i] = &res->rows[i];
    qsort(order, n, sizeof *order, cmp_by_key);
    for (size_t i = 0; i < n; i++) {
        res->by_key[i] = order[i]->index;
        if (i > 0 && cmp_key(order[i - 1], order[i]) == 0) {
            bench_row_t *first = &res->rows[res->by_key[i - 1]];
            res->rows[order[i]->index].dup_of = first->dup_of == SIZE_MAX ? first->index : first->dup_of;
            res->n_duplicates++;
        }
    }
    for (size_t i = 0; i < n; i++)
        order[i] = &res->rows[i];
    qsort(order, n, sizeof *order, cmp_by_experiment);
    for (size_t i = 0; i < n; i++)
        res->by_experiment[i] = order[i]->index;
    free(order);
    return 0;
}

const bench_row_t *bench_results_find(const bench_results_t *res, const char *experiment, const char *mechanism,
                                      const char *variant, const char *metric)
{
    bench_row_t key = {.experiment = experiment, .mechanism = mechanism, .variant = variant, .metric = metric};
    size_t lo = 0, hi = res->n_rows;  /* the first row whose key is >= key */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_key(&res->rows[res->by_key[mid]], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < res->n_rows && cmp_key(&res->rows[res->by_key[lo]], &key) == 0)
        return &res->rows[res->by_key[lo]];
    return NULL;
}

size_t bench_results_experiment_rows(const bench_results_t *res, const char *experiment, size_t *first)
{
    size_t lo = 0, hi = res->n_rows;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(res->rows[res->by_experiment[mid]].experiment, experiment) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *first = lo;
    size_t end = lo;
    while (end < res->n_rows && !strcmp(res->rows[res->by_experiment[end]].experiment, experiment))
        end++;
    return end - lo;
}

/* ------------------------------------------------------------ bootstrap */

static uint64_t key_hash(const bench_row_t *r, uint64_t h)
{
    const char *parts[] = {r->experiment, r->mechanism, r->variant, r->metric};
    for (size_t i = 0; i < 4; i++)
        for (const char *p = parts[i];; p++) {
            h = (h ^ (unsigned char)*p) * 0x100000001b3ull; /* FNV-1a, NUL included */
            if (!*p)
                break;
        }
    return h;
}

/* Intervals for the distributions that have a histogram and no p50_ci95,
 * in file order, while the budget lasts. */
static void bootstrap_rows(bench_results_t *res)
{
    uint64_t spent = 0;
    for (size_t i = 0; i < res->n_rows; i++) {
        bench_row_t *r = &res->rows[i];
        if (r->kind != BENCH_ROW_DIST || r->ci != BENCH_CI_NONE || !r->n_bins)
            continue;
        uint64_t cost = bench_bootstrap_cost(r->bins, r->n_bins, BENCH_RESULTS_BOOTSTRAP_RESAMPLES);
        if (cost > BENCH_RESULTS_BOOTSTRAP_BUDGET - spent) {
            r->ci_why = "the bootstrap budget of " BENCH_RESULTS_BOOTSTRAP_BUDGET_TEXT " per file was spent";
            res->n_budget_skipped++;
            continue;
        }
        spent += cost;
        if (bench_bootstrap_median_ci(r->bins, r->n_bins, r->sub_bucket_bits, BENCH_RESULTS_BOOTSTRAP_RESAMPLES,
                                      key_hash(r, BOOTSTRAP_SEED), &r->ci_lo, &r->ci_hi) == 0) {
            r->ci = BENCH_CI_BOOTSTRAP;
            r->ci_why = NULL;
        } else {
            r->ci_why = "its histogram holds no samples";
        }
    }
}

/* ------------------------------------------------------------- the file */

static int check_top(bench_results_t *res, char *err, size_t errlen)
{
    const cJSON *root = res->root;
    if (!cJSON_IsObject(root))
        return fail(err, errlen, "not an " SCHEMA " file: the top level is not an object");
    const cJSON *schema = member(root, "schema");
    if (!cJSON_IsString(schema))
        return fail(err, errlen, "not an " SCHEMA " file: no \"schema\" string");
    if (strcmp(schema->valuestring, SCHEMA) != 0)
        return fail(err, errlen, "schema is \"%.100s\", expected \"" SCHEMA "\"", schema->valuestring);
    res->env = member(root, "env");
    if (res->env && !cJSON_IsObject(res->env))
        return fail(err, errlen, "\"env\" is not an object");
    /* A tick rate is a whole number of Hz: 0, -0, 0.5 or 1e999 would read
     * as "no tick" and hide rows that are there (claim 2). Absent or null:
     * unknown. */
    double tick = NAN;
    const cJSON *t = res->env ? member(res->env, "tick_hz") : NULL;
    if (t && !cJSON_IsNull(t) &&
        !(cJSON_IsNumber(t) && (tick = t->valuedouble) >= 1 && tick <= 1e6 && tick == floor(tick)))
        return fail(err, errlen, "env.tick_hz is not a rate in Hz (a whole number from 1 to 1000000)");
    res->tick_hz = isnan(tick) ? 0 : (uint32_t)tick;
    res->experiments = member(root, "experiments");
    if (res->experiments) {
        if (!cJSON_IsArray(res->experiments))
            return fail(err, errlen, "\"experiments\" is not an array");
        size_t i = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, res->experiments) {
            if (!cJSON_IsObject(e) || !cJSON_IsString(member(e, "id")))
                return fail(err, errlen, "experiments[%zu] is not an object with a string \"id\"", i);
            i++;
        }
    }
    res->claims = member(root, "claims");
    if (res->claims) {
        if (!cJSON_IsArray(res->claims))
            return fail(err, errlen, "\"claims\" is not an array");
        size_t i = 0;
        const cJSON *c;
        cJSON_ArrayForEach(c, res->claims) {
            if (!cJSON_IsObject(c))
                return fail(err, errlen, "claims[%zu] is not an object", i);
            i++;
        }
    }
    return 0;
}

static int check_rows(bench_results_t *res, char *err, size_t errlen)
{
    const cJSON *results = member(res->root, "results");
    if (!cJSON_IsArray(results))
        return fail(err, errlen, "\"results\" is %s", results ? "not an array" : "missing");
    const char *env_clock = bench_row_clock_of_source(res->env ? bench_results_string(res->env, "clock_source", "") : "");
    size_t n = 0;
    for (const cJSON *r = results->child; r; r = r->next)
        if (++n > BENCH_RESULTS_MAX_ROWS)
            return fail(err, errlen, "more than %u rows in \"results\", the most a file may hold",
                        BENCH_RESULTS_MAX_ROWS);
    res->rows = calloc(n ? n : 1, sizeof *res->rows);
    if (!res->rows)
        return fail(err, errlen, "out of memory");
    const cJSON *r;
    cJSON_ArrayForEach(r, results) {
        bench_row_t *row = &res->rows[res->n_rows];
        row->index = res->n_rows++;
        if (load_row(row, r, env_clock, err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* What JSON (RFC 8259) refuses and cJSON lets through, found in the text
 * itself: bytes that are not UTF-8, a \u0000 escape (cJSON would cut the
 * string there), a number with a leading zero ("01"), and nesting deeper
 * than cJSON parses (said as such, not as a syntax error). 0, or -1. */
enum { MAX_DEPTH = 512 };

static size_t utf8_length(const unsigned char *p)
{
    unsigned c = p[0];
    size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (!n || (n == 2 && c < 0xc2) || (n == 4 && c > 0xf4))
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if (n == 3) {
        unsigned v = (c & 0x0f) << 12 | (p[1] & 0x3fu) << 6 | (p[2] & 0x3fu);
        if (v < 0x800 || (v >= 0xd800 && v <= 0xdfff))  /* overlong, or a surrogate */
            return 0;
    }
    if (n == 4) {
        unsigned v = (c & 0x07) << 18 | (p[1] & 0x3fu) << 12 | (p[2] & 0x3fu) << 6 | (p[3] & 0x3fu);
        if (v < 0x10000 || v > 0x10ffff)
            return 0;
    }
    return n;
}

static int check_text(const char *text, char *err, size_t errlen)
{
    const unsigned char *t = (const unsigned char *)text;
    bool in_string = false;
    size_t depth = 0;
    for (size_t i = 0; t[i];) {
        size_t n = utf8_length(t + i);
        if (!n)
            return fail(err, errlen, "not UTF-8 at byte %zu: not JSON text", i);
        if (in_string) {
            if (t[i] == '\\') {
                if (t[i + 1] == 'u' && !strncmp((const char *)t + i + 2, "0000", 4))
                    return fail(err, errlen, "a \\u0000 (NUL) inside a string at byte %zu", i);
                i += t[i + 1] ? 2 : 1;
                continue;
            }
            if (t[i] == '"')
                in_string = false;
        } else if (t[i] == '"') {
            in_string = true;
        } else if (t[i] == '[' || t[i] == '{') {
            if (++depth > MAX_DEPTH)
                return fail(err, errlen, "nested deeper than %d levels at byte %zu", MAX_DEPTH, i);
        } else if (t[i] == ']' || t[i] == '}') {
            depth -= depth > 0;
        } else if (t[i] == '-' || (t[i] >= '0' && t[i] <= '9')) {
            /* A number: its integer part may not start with 0 and go on. */
            size_t d = i + (t[i] == '-');
            if (t[d] == '0' && t[d + 1] >= '0' && t[d + 1] <= '9')
                return fail(err, errlen, "a number with a leading zero at byte %zu: not JSON", i);
            while (t[i] && strchr("0123456789+-.eE", t[i]))
                i++;
            continue;
        }
        i += n;
    }
    return 0;
}

/* Each object's member names once: a repeated name (the reader would take
 * the first, another reader the last) is refused. */
static int cmp_name(const void *a, const void *b)
{
    return strcmp((*(const cJSON *const *)a)->string, (*(const cJSON *const *)b)->string);
}

static int check_unique_names(const cJSON *node, char *err, size_t errlen)
{
    if (!cJSON_IsObject(node) && !cJSON_IsArray(node))
        return 0;
    size_t n = 0;
    for (const cJSON *c = node->child; c; c = c->next) {
        n++;
        if (check_unique_names(c, err, errlen) != 0)
            return -1;
    }
    if (!cJSON_IsObject(node) || n < 2)
        return 0;
    const cJSON **names = malloc(n * sizeof *names);
    if (!names)
        return fail(err, errlen, "out of memory");
    size_t k = 0;
    for (const cJSON *c = node->child; c; c = c->next)
        names[k++] = c;
    qsort(names, n, sizeof *names, cmp_name);
    int rc = 0;
    for (size_t i = 1; i < n && !rc; i++)
        if (!strcmp(names[i - 1]->string, names[i]->string))
            rc = fail(err, errlen, "an object names \"%.60s\" twice", names[i]->string);
    free(names);
    return rc;
}

int bench_results_parse(bench_results_t *res, const char *text, char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    if (!*text)
        return fail(err, errlen, "empty file, not JSON");
    if (check_text(text, err, errlen) != 0)
        return -1;
    const char *end = NULL;
    res->root = cJSON_ParseWithOpts(text, &end, 1);
    if (!res->root)
        return end && end >= text ? fail(err, errlen, "not JSON (syntax error near byte %ld)", (long)(end - text))
                                  : fail(err, errlen, "not JSON");
    if (check_unique_names(res->root, err, errlen) != 0 || check_top(res, err, errlen) != 0 ||
        check_rows(res, err, errlen) != 0 || build_index(res, err, errlen) != 0) {
        bench_results_free(res);
        return -1;
    }
    bootstrap_rows(res);
    return 0;
}

/* Waits until a FIFO, socket or device named as a results file has
 * something to read (or its writer closed it), for at most WAIT_S seconds
 * (0: for ever). The path is opened without blocking, because open() on a
 * FIFO nobody writes to would block outside any bound. */
static int wait_for_writer(int fd, double wait_s, char *err, size_t errlen)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        double left = wait_s - ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) * 1e-9);
        if (wait_s > 0 && left <= 0)
            return fail(err, errlen, "nothing to read within %g s (a FIFO nobody writes to?); --timeout sets the wait",
                        wait_s);
        int ms = wait_s > 0 ? (int)(left * 1000) + 1 : 1000;
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int r = poll(&pfd, 1, ms > 1000 ? 1000 : ms);
        if (r < 0 && errno != EINTR)
            return fail(err, errlen, "cannot wait for input: %s", strerror(errno));
        if (r > 0)
            break;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
        return fail(err, errlen, "cannot read: %s", strerror(errno));
    return 0;
}

/* The file ("-": standard input), NUL-terminated, in *text; at most
 * BENCH_RESULTS_MAX_BYTES. A named FIFO, socket or device is waited for
 * as wait_for_writer says; standard input is read as it comes. */
static int read_bounded(const char *path, double wait_s, char **text, size_t *len, char *err, size_t errlen)
{
    *text = NULL;
    bool from_stdin = !strcmp(path, "-");
    int fd = from_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return fail(err, errlen, "cannot read: %s", strerror(errno));
    struct stat st;
    if (!from_stdin) {
        int rc = fstat(fd, &st) != 0 ? fail(err, errlen, "cannot read: %s", strerror(errno))
                 : S_ISDIR(st.st_mode) ? fail(err, errlen, "cannot read: %s", strerror(EISDIR))
                 : S_ISREG(st.st_mode) ? 0
                                       : wait_for_writer(fd, wait_s, err, errlen);
        if (rc != 0) {
            close(fd);
            return -1;
        }
    }
    FILE *f = from_stdin ? stdin : fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        close(fd);
        return fail(err, errlen, "cannot read: %s", strerror(e));
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    int rc = 0;
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (n > BENCH_RESULTS_MAX_BYTES) {
            rc = fail(err, errlen, "larger than " BENCH_RESULTS_MAX_BYTES_TEXT
                      ", the most a results file may hold (stopped reading there)");
            break;
        }
        if (got == 0) {
            if (ferror(f))
                rc = fail(err, errlen, "cannot read: %s", strerror(errno ? errno : EIO));
            break;
        }
        if (n + 1 == cap) {
            size_t bigger_cap = cap * 2 > BENCH_RESULTS_MAX_BYTES + 2 ? BENCH_RESULTS_MAX_BYTES + 2 : cap * 2;
            char *bigger = realloc(buf, bigger_cap);
            if (!bigger)
                free(buf);
            buf = bigger;
            cap = bigger_cap;
        }
    }
    if (!from_stdin)
        fclose(f);
    if (!buf)
        return fail(err, errlen, "out of memory");
    if (rc != 0) {
        free(buf);
        return -1;
    }
    buf[n] = 0;
    *text = buf;
    *len = n;
    return 0;
}

int bench_results_load(bench_results_t *res, const char *path, char *err, size_t errlen)
{
    return bench_results_load_waiting(res, path, BENCH_RESULTS_WAIT_S, err, errlen);
}

int bench_results_load_waiting(bench_results_t *res, const char *path, double wait_s, char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    char *text;
    size_t len = 0;
    errno = 0;
    if (read_bounded(path, wait_s, &text, &len, err, errlen) != 0)
        return -1;
    const char *nul = memchr(text, 0, len);
    int rc = nul ? fail(err, errlen, "holds a NUL byte at offset %ld: not JSON text", (long)(nul - text))
                 : bench_results_parse(res, text, err, errlen);
    free(text);
    return rc;
}

void bench_results_free(bench_results_t *res)
{
    for (size_t i = 0; res->rows && i < res->n_rows; i++)
        free(res->rows[i].bins);
    free(res->rows);
    free(res->by_key);
    free(res->by_experiment);
    cJSON_Delete(res->root);
    memset(res, 0, sizeof *res);
}

const char *bench_text_printable(char *dst, size_t n, const char *src)
{
    size_t len = 0;
    for (const unsigned char *p = (const unsigned char *)src; *p && len + 1 < n; p++) {
        if (*p < 0x20 || *p == 0x7f) {
            if (len + 5 > n)
                break;
            len += (size_t)snprintf(dst + len, n - len, "\\x%02x", *p);
        } else {
            dst[len++] = (char)*p;
        }
    }
    if (n)
        dst[len < n ? len : n - 1] = 0;
    return dst;
}

void bench_results_warn(const bench_results_t *res, FILE *out, const char *prog, const char *path)
{
    enum { SHOWN = 20 };  /* a file of repeats must not flood the terminal */
    size_t told = 0;
    for (size_t i = 0; i < res->n_rows && told < SHOWN; i++) {
        const bench_row_t *r = &res->rows[i];
        if (r->dup_of != SIZE_MAX && told++ < SHOWN) {
            char name[4][96];
            fprintf(out, "%s: warning: %s: results[%zu] repeats %s/%s/%s/%s; results[%zu] is used\n", prog, path,
                    r->index, bench_text_printable(name[0], sizeof name[0], r->experiment),
                    bench_text_printable(name[1], sizeof name[1], r->mechanism),
                    bench_text_printable(name[2], sizeof name[2], r->variant),
                    bench_text_printable(name[3], sizeof name[3], r->metric), r->dup_of);
        }
    }
    if (res->n_duplicates > told)
        fprintf(out, "%s: warning: %s: %zu more repeated rows\n", prog, path, res->n_duplicates - told);
    if (res->n_budget_skipped)
        fprintf(out, "%s: warning: %s: %zu distribution(s) without p50_ci95 have no interval of the median: "
                "the bootstrap budget of " BENCH_RESULTS_BOOTSTRAP_BUDGET_TEXT " per file was spent\n",
                prog, path, res->n_budget_skipped);
}
