/* rtipc-bench audit (audit.h): rtipc-bench/1 rows back into a bench_run_t,
 * then bench_audit_claims on it.
 *
 * compare.c loads the same files, but keeps of a row only what it compares
 * (the median, p99, p99.9 and an interval, pointing into the parse tree);
 * the audit needs the row as a bench_result_t with every statistic, so the
 * rows are read here. The interval of the median is taken from p50_ci95, or
 * bootstrapped from the histogram as compare does when a writer left it
 * out. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../compare/compare.h"
#include "../harness/bench.h"
#include "../harness/json_read.h"
#include "../harness/util.h"
#include "audit.h"

#define PROG "rtipc-bench audit"
#define BOOTSTRAP_RESAMPLES 200
#define BOOTSTRAP_SEED 0x72746970635f6175ull /* fixed: the same file gives the same audit */

static const char audit_usage[] =
    "usage: rtipc-bench audit FILE.json [--json OUT.json]\n"
    "\n"
    "Audits the nine claims of a results file in the rtipc-bench/1 schema, made on\n"
    "any target (this host, the bare-metal Cortex-M3 suite, the ESP-IDF suite, the\n"
    "FreeRTOS POSIX simulator), with the rules `rtipc-bench run` applies, and prints\n"
    "the audit as `run` does. Figures in the evidence keep the rows' unit: us for\n"
    "rows in ns, instructions for rows in instr.\n"
    "\n"
    "  --json OUT.json    write FILE.json back to OUT.json with its \"claims\"\n"
    "                     replaced by the new verdicts (everything else as read)\n"
    "  -h, --help         this text\n"
    "\n"
    "Exit status: 0 audited, 1 OUT.json could not be written, 2 usage error or an\n"
    "unreadable or invalid file.\n";

__attribute__((format(printf, 2, 3))) static int invalid(const char *path, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: %s: ", PROG, path);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return -1;
}

/* Copies a name into a row's fixed field; false when it does not fit (a
 * shortened name could match a row it is not). */
static bool put_name(char *dst, size_t cap, const char *src)
{
    size_t len = strlen(src);
    if (len >= cap)
        return false;
    memcpy(dst, src, len + 1);
    return true;
}

/* The interval of the median from the histogram, when p50_ci95 is absent.
 * Leaves lo, hi NAN (intervals never apart: no claim holds on them) when
 * there is no usable histogram. */
static int bootstrap_ci(const char *path, size_t index, const cJSON *h, bench_stats_t *st)
{
    double bits;
    if (!h || cJSON_IsNull(h))
        return 0;
    if (!cJSON_IsObject(h) || bench_json_number(h, "sub_bucket_bits", &bits) != 1 || !(bits >= 0 && bits <= 30) ||
        bits != floor(bits))
        return invalid(path, "results[%zu]: histogram lacks sub_bucket_bits (0..30)", index);
    const cJSON *buckets = cJSON_GetObjectItemCaseSensitive(h, "buckets");
    if (!cJSON_IsArray(buckets))
        return invalid(path, "results[%zu]: histogram.buckets is not an array", index);
    size_t n = (size_t)cJSON_GetArraySize(buckets), k = 0;
    if (n == 0)
        return 0;
    bench_hist_bin_t *bins = calloc(n, sizeof *bins);
    if (!bins)
        return invalid(path, "out of memory");
    const cJSON *pair;
    cJSON_ArrayForEach(pair, buckets) {
        const cJSON *low = cJSON_GetArrayItem(pair, 0), *count = cJSON_GetArrayItem(pair, 1);
        if (!cJSON_IsArray(pair) || cJSON_GetArraySize(pair) != 2 || !cJSON_IsNumber(low) ||
            !cJSON_IsNumber(count) || !(low->valuedouble >= 0 && low->valuedouble <= 0x1p62) ||
            !(count->valuedouble >= 0 && count->valuedouble <= 0x1p53)) {
            free(bins);
            return invalid(path, "results[%zu]: histogram bucket %zu is not [low, count]", index, k);
        }
        bins[k].low = (int64_t)low->valuedouble;
        bins[k].count = (uint64_t)count->valuedouble;
        k++;
    }
    double lo, hi;
    int rc = bench_bootstrap_median_ci(bins, k, (unsigned)bits, BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, &lo, &hi);
    free(bins);
    if (rc != 0)
        return invalid(path, "results[%zu]: histogram buckets out of order or empty", index);
    st->p50_lo = lo;
    st->p50_hi = hi;
    return 0;
}

/* A distribution row's statistics (no histogram kept: the audit reads none). */
static int load_stats(const char *path, size_t index, const cJSON *r, bench_stats_t *st)
{
    static const char *const keys[] = {"min", "mean", "p50", "p90", "p99", "p999", "max", "stddev"};
    double *fields[] = {&st->min, &st->mean, &st->p50, &st->p90, &st->p99, &st->p999, &st->max, &st->stddev};
    double n;
    if (bench_json_number(r, "n", &n) != 1 || !(n >= 1 && n <= 0x1p53) || n != floor(n))
        return invalid(path, "results[%zu]: \"n\" is not a count >= 1", index);
    st->n = (size_t)n;
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
        if (bench_json_number(r, keys[k], fields[k]) < 0)
            return invalid(path, "results[%zu]: \"%s\" is neither a number nor null", index, keys[k]);
    if (!cJSON_GetObjectItemCaseSensitive(r, "p50"))
        return invalid(path, "results[%zu] lacks \"p50\" (a number or null)", index);
    st->p50_lo = st->p50_hi = NAN;
    const cJSON *ci = cJSON_GetObjectItemCaseSensitive(r, "p50_ci95");
    if (ci && !cJSON_IsNull(ci)) {
        const cJSON *lo = cJSON_GetArrayItem(ci, 0), *hi = cJSON_GetArrayItem(ci, 1);
        if (!cJSON_IsArray(ci) || cJSON_GetArraySize(ci) != 2 || !cJSON_IsNumber(lo) || !cJSON_IsNumber(hi) ||
            lo->valuedouble > hi->valuedouble)
            return invalid(path, "results[%zu]: p50_ci95 is not [lo, hi]", index);
        st->p50_lo = lo->valuedouble;
        st->p50_hi = hi->valuedouble;
        return 0;
    }
    return bootstrap_ci(path, index, cJSON_GetObjectItemCaseSensitive(r, "histogram"), st);
}

/* One row into run->results (appended), or skipped with a warning when a
 * name is longer than the harness's rows hold. 0, or -1 after one line. */
static int load_row(const char *path, size_t index, const cJSON *r, bench_run_t *run)
{
    static const char *const keys[] = {"experiment", "mechanism", "variant"};
    bench_result_t *row = &run->results[run->n_results];
    memset(row, 0, sizeof *row);
    char *fields[] = {row->experiment, row->mechanism, row->variant};
    size_t caps[] = {sizeof row->experiment, sizeof row->mechanism, sizeof row->variant};
    if (!cJSON_IsObject(r))
        return invalid(path, "results[%zu] is not an object", index);
    for (size_t k = 0; k < 3; k++) {
        const char *s = bench_json_string(r, keys[k]);
        if (!s)
            return invalid(path, "results[%zu] lacks the string \"%s\"", index, keys[k]);
        if (!put_name(fields[k], caps[k], s)) {
            fprintf(stderr, "%s: warning: %s: results[%zu]: %s \"%s\" is longer than %zu bytes; row not "
                    "audited\n", PROG, path, index, keys[k], s, caps[k] - 1);
            return 0;
        }
    }
    const char *note = bench_json_string(r, "note");
    snprintf(row->note, sizeof row->note, "%s", note ? note : "");
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "missing"))) {
        row->kind = BENCH_MISSING;
        run->n_results++;
        return 0;
    }
    const char *metric = bench_json_string(r, "metric"), *unit = bench_json_string(r, "unit");
    if (!metric || !*metric)
        return invalid(path, "results[%zu] lacks the string \"metric\"", index);
    if (!unit || !*unit)
        return invalid(path, "results[%zu] lacks the string \"unit\"", index);
    if (!put_name(row->metric, sizeof row->metric, metric) || !put_name(row->unit, sizeof row->unit, unit)) {
        fprintf(stderr, "%s: warning: %s: results[%zu]: metric or unit too long; row not audited\n", PROG,
                path, index);
        return 0;
    }
    if (cJSON_GetObjectItemCaseSensitive(r, "n")) {
        row->kind = BENCH_DIST;
        if (load_stats(path, index, r, &row->stats) != 0)
            return -1;
    } else {
        row->kind = BENCH_VALUE;
        if (!cJSON_GetObjectItemCaseSensitive(r, "value") || bench_json_number(r, "value", &row->value) < 0)
            return invalid(path, "results[%zu] has neither \"n\" nor a \"value\" (a number or null)", index);
    }
    run->n_results++;
    return 0;
}

/* The parsed file in *root and its rows in *run. 0, or -1 after one line. */
static int load(const char *path, cJSON **root, bench_run_t *run)
{
    char *text = bench_read_file(path);
    if (!text)
        return invalid(path, "cannot read: %s", strerror(errno));
    if (!*text) {
        free(text);
        return invalid(path, "empty file, not JSON");
    }
    const char *end = NULL;
    *root = cJSON_ParseWithOpts(text, &end, 1);
    if (!*root) {
        const char *at = cJSON_GetErrorPtr();
        long offset = at && at >= text ? (long)(at - text) : -1;
        free(text);
        return offset >= 0 ? invalid(path, "not JSON (syntax error near byte %ld)", offset)
                           : invalid(path, "not JSON");
    }
    free(text);
    if (!cJSON_IsObject(*root))
        return invalid(path, "not an rtipc-bench/1 file: the top level is not an object");
    const char *schema = bench_json_string(*root, "schema");
    if (!schema)
        return invalid(path, "not an rtipc-bench/1 file: no \"schema\" string");
    if (strcmp(schema, "rtipc-bench/1") != 0)
        return invalid(path, "schema is \"%s\", expected \"rtipc-bench/1\"", schema);
    const cJSON *env = cJSON_GetObjectItemCaseSensitive(*root, "env");
    if (env && !cJSON_IsObject(env))
        return invalid(path, "\"env\" is not an object");
    /* The only env field a claim reads: claim 2 compares with the tick. */
    double tick = 0;
    if (env && (bench_json_number(env, "tick_hz", &tick) < 0 || (!isnan(tick) && !(tick >= 0 && tick <= UINT32_MAX))))
        return invalid(path, "env.tick_hz is not a rate in Hz");
    run->env.tick_hz = isnan(tick) ? 0 : (uint32_t)tick;
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(*root, "results");
    if (!cJSON_IsArray(results))
        return invalid(path, "\"results\" is %s", results ? "not an array" : "missing");
    const cJSON *claims = cJSON_GetObjectItemCaseSensitive(*root, "claims");
    if (claims && !cJSON_IsArray(claims))
        return invalid(path, "\"claims\" is not an array");
    size_t n = (size_t)cJSON_GetArraySize(results), index = 0;
    run->results = calloc(n ? n : 1, sizeof *run->results);
    if (!run->results)
        return invalid(path, "out of memory");
    run->cap_results = n;
    const cJSON *r;
    cJSON_ArrayForEach(r, results) {
        if (load_row(path, index++, r, run) != 0)
            return -1;
    }
    return 0;
}

/* root with its claims replaced by run's, written to path. 0, or -1 after a
 * line on stderr. */
static int write_audited(cJSON *root, const bench_run_t *run, const char *path)
{
    cJSON *claims = bench_claims_json(run);
    bool ok = claims && (cJSON_GetObjectItemCaseSensitive(root, "claims")
                             ? cJSON_ReplaceItemInObjectCaseSensitive(root, "claims", claims)
                             : cJSON_AddItemToObject(root, "claims", claims));
    if (!ok) {
        cJSON_Delete(claims);
        fprintf(stderr, "%s: cannot write %s: out of memory\n", PROG, path);
        return -1;
    }
    char *text = cJSON_Print(root);
    FILE *f = text ? fopen(path, "w") : NULL;
    int saved = text ? errno : ENOMEM;
    bool written = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    if (f) {
        saved = errno;
        written = fclose(f) == 0 && written;
    }
    free(text);
    if (!written) {
        fprintf(stderr, "%s: cannot write %s: %s\n", PROG, path, strerror(saved ? saved : EIO));
        return -1;
    }
    return 0;
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", PROG);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'rtipc-bench audit --help'.\n");
    return 2;
}

int bench_audit_main(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(audit_usage, stdout);
            return 0;
        }
        if (!strcmp(a, "--json") || !strncmp(a, "--json=", 7)) {
            const char *v = a[6] == '=' ? a + 7 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v || !*v)
                return usage_error("%s", "--json wants an output file");
            if (out)
                return usage_error("%s", "--json given twice");
            out = v;
        } else if (a[0] == '-' && a[1]) {
            return usage_error("unknown option '%s'", a);
        } else if (in) {
            return usage_error("%s", "audit wants one results file");
        } else {
            in = a;
        }
    }
    if (!in)
        return usage_error("%s", "audit wants a results file: audit FILE.json [--json OUT.json]");

    static bench_run_t run;
    memset(&run, 0, sizeof run);
    cJSON *root = NULL;
    int status = 2;
    if (load(in, &root, &run) == 0) {
        bench_audit_claims(&run);
        printf("claim audit of %s: %zu result rows, tick %u Hz\n", in, run.n_results, run.env.tick_hz);
        bench_print_claims(stdout, &run);
        status = out && write_audited(root, &run, out) != 0 ? 1 : 0;
    }
    cJSON_Delete(root);
    free(run.results);
    return status;
}
