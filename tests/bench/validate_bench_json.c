/* Checks a file written by `rtipc-bench run --json` against the
 * rtipc-bench/1 contract of docs/json-schema.md, and that every experiment
 * named on the command line ran, succeeded and produced rows.
 *
 *   validate_bench_json FILE [ID...]
 *
 * Prints every violation; exits 0 when there is none, 1 otherwise, 2 when the
 * file cannot be read or parsed. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/harness/util.h"
#include "validate_input.h"

static int problems;

static void bad(const char *what, const char *detail)
{
    fprintf(stderr, "invalid: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    problems++;
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const cJSON *num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v : NULL;
}

static void check_env(const cJSON *env)
{
    static const char *strings[] = {"cpu_model", "kernel", "sched_policy", "compiler", "cflags",
                                    "rtipc_version", "git_commit", "clock_source", "started_utc"};
    static const char *numbers[] = {"cores_online", "tick_hz", "clock_hz", "clock_resolution_ns",
                                    "timestamp_overhead_ns", "seed"};
    if (!cJSON_IsObject(env))
        return bad("env is not an object", NULL);
    for (size_t i = 0; i < sizeof strings / sizeof *strings; i++)
        if (!str(env, strings[i]) || !*str(env, strings[i]))
            bad("env lacks string", strings[i]);
    for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++)
        if (!num(env, numbers[i]))
            bad("env lacks number", numbers[i]);
    const char *pol = str(env, "sched_policy");
    if (pol && strcmp(pol, "SCHED_FIFO") && strcmp(pol, "SCHED_OTHER"))
        bad("env.sched_policy", pol);
    const cJSON *tick = num(env, "tick_hz");
    if (tick && tick->valuedouble <= 0)
        bad("env.tick_hz not positive", NULL);
}

/* A distribution row: n and the statistics, ordered, percentiles null only
 * when n is below what they need. */
static void check_dist(const cJSON *r, const char *where)
{
    static const struct { const char *key; double need; } pct[] = {
        {"p50", 20}, {"p90", 100}, {"p99", 1000}, {"p999", 10000}};
    const cJSON *n = num(r, "n");
    if (!n || n->valuedouble < 1)
        return bad("distribution without n >= 1", where);
    for (const char *const *k = (const char *const[]){"min", "mean", "max", "stddev", "jitter", NULL}; *k; k++)
        if (!num(r, *k))
            bad("distribution lacks number", *k);
    double prev = num(r, "min") ? num(r, "min")->valuedouble : -INFINITY;
    for (size_t i = 0; i < sizeof pct / sizeof *pct; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, pct[i].key);
        if (cJSON_IsNull(v)) {
            if (n->valuedouble >= pct[i].need)
                bad("percentile null although n suffices", where);
            continue;
        }
        if (!cJSON_IsNumber(v)) {
            bad("percentile neither number nor null", where);
            continue;
        }
        if (n->valuedouble < pct[i].need)
            bad("percentile reported from too few samples", where);
        if (v->valuedouble < prev)
            bad("percentiles not ordered", where);
        prev = v->valuedouble;
    }
    const cJSON *mx = num(r, "max");
    if (mx && mx->valuedouble < prev)
        bad("max below a percentile", where);
    /* Nanoseconds, or instructions on the bare-metal target (docs/mcu.md). */
    const char *unit = str(r, "unit") ? str(r, "unit") : "";
    if (strcmp(unit, "ns") != 0 && strcmp(unit, "instr") != 0)
        bad("distribution unit is neither ns nor instr", where);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: validate_bench_json FILE [ID...]\n");
        return 2;
    }
    cJSON *root = validate_read_json("validate_bench_json", argv[1], 2);
    const char *schema = str(root, "schema");
    if (!schema || strcmp(schema, "rtipc-bench/1"))
        bad("schema is not rtipc-bench/1", schema);
    check_env(cJSON_GetObjectItemCaseSensitive(root, "env"));

    const cJSON *results = cJSON_GetObjectItemCaseSensitive(root, "results");
    if (!cJSON_IsArray(results))
        bad("results is not an array", NULL);
    const cJSON *r;
    cJSON_ArrayForEach(r, results) {
        char where[200];
        snprintf(where, sizeof where, "%s/%s/%s/%s", str(r, "experiment") ? str(r, "experiment") : "?",
                 str(r, "mechanism") ? str(r, "mechanism") : "?", str(r, "variant") ? str(r, "variant") : "?",
                 str(r, "metric") ? str(r, "metric") : "?");
        if (!str(r, "experiment") || !str(r, "mechanism") || !str(r, "variant"))
            bad("result lacks experiment/mechanism/variant", where);
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "missing"))) {
            if (!str(r, "note") || !*str(r, "note"))
                bad("missing mechanism without a reason", where);
            continue;
        }
        if (!str(r, "metric") || !*str(r, "metric") || !str(r, "unit") || !*str(r, "unit"))
            bad("result lacks metric or unit", where);
        bool has_value = cJSON_GetObjectItemCaseSensitive(r, "value") != NULL;
        bool has_n = cJSON_GetObjectItemCaseSensitive(r, "n") != NULL;
        if (has_value == has_n)
            bad("result must carry either value or a distribution", where);
        else if (has_n)
            check_dist(r, where);
        else if (!num(r, "value"))
            bad("value is not a number", where);
    }

    const cJSON *claims = cJSON_GetObjectItemCaseSensitive(root, "claims");
    if (!cJSON_IsArray(claims) || cJSON_GetArraySize(claims) != 9)
        bad("claims is not an array of 9", NULL);
    int id = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, claims) {
        id++;
        const cJSON *cid = num(c, "id");
        const char *v = str(c, "verdict");
        if (!cid || (int)cid->valuedouble != id)
            bad("claim ids are not 1..9 in order", NULL);
        if (!v || (strcmp(v, "holds") && strcmp(v, "does-not-hold") && strcmp(v, "not-testable")))
            bad("claim verdict", v);
        if (!str(c, "claim") || !str(c, "evidence") || !*str(c, "evidence") || !str(c, "rule"))
            bad("claim lacks text, rule or evidence", NULL);
    }

    const cJSON *exps = cJSON_GetObjectItemCaseSensitive(root, "experiments");
    for (int i = 2; i < argc; i++) {
        const cJSON *e, *found = NULL;
        cJSON_ArrayForEach(e, exps) {
            if (str(e, "id") && !strcmp(str(e, "id"), argv[i]))
                found = e;
        }
        if (!found) {
            bad("experiment did not run", argv[i]);
            continue;
        }
        if (!str(found, "status") || strcmp(str(found, "status"), "ok"))
            bad("experiment failed", str(found, "failure") ? str(found, "failure") : argv[i]);
        int rows = 0;
        cJSON_ArrayForEach(r, results) {
            if (str(r, "experiment") && !strcmp(str(r, "experiment"), argv[i]) &&
                !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "missing")))
                rows++;
        }
        if (!rows)
            bad("experiment produced no measured rows", argv[i]);
    }
    cJSON_Delete(root);
    if (problems)
        fprintf(stderr, "%s: %d problem(s)\n", argv[1], problems);
    else
        printf("%s: valid rtipc-bench/1, %d experiment(s) checked\n", argv[1], argc - 2);
    return problems ? 1 : 0;
}
