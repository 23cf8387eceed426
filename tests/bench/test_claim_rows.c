/* The claim audit reads the rows the experiments write: every row a claim
 * rule needs, recorded as its experiment records it (bench_add_* under the
 * experiment's id, names from bench/names.h), makes the claim testable; the
 * same run without that row, or with any name of it changed, leaves the
 * claim "not testable" and names the experiment the rule reads. A rule and
 * an experiment that drift apart by one character fail here, where the
 * audit itself would only say "not testable".
 *
 *   test_claim_rows                  the cmocka tests
 *   test_claim_rows --produced FILE  every row of the table below is in FILE,
 *                                    a run of every experiment
 *                                    (tests/bench/bench_quick.sh): the
 *                                    experiments write the rows the rules
 *                                    read
 *   test_claim_rows --produced-kernel FILE
 *                                    the kernel's rows of the table are in
 *                                    FILE, a FreeRTOS target's run, for each
 *                                    experiment it ran (scripts/check-*.sh) */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "harness/run.h"
#include "names.h"
#include "results/read.h"

/* The experiments whose rows the claims read, with the ids they run under. */
enum { QP, ISR, MC, BP, SVE, CP, BAT, QS, NVS, N_EXPS };
static const bench_experiment_t experiments[N_EXPS] = {
    [QP] = {.id = BENCH_EXP_QUEUE_PLACEMENT},  [ISR] = {.id = BENCH_EXP_ISR_HANDOFF},
    [MC] = {.id = BENCH_EXP_MECHANISM_COMPARE}, [BP] = {.id = BENCH_EXP_BLOCKED_PRODUCER},
    [SVE] = {.id = BENCH_EXP_STATE_VS_EVENT},  [CP] = {.id = BENCH_EXP_CORE_PLACEMENT},
    [BAT] = {.id = BENCH_EXP_BATCHING},         [QS] = {.id = BENCH_EXP_QUEUE_SET},
    [NVS] = {.id = BENCH_EXP_NOTIFY_VS_SEM},
};

/* What a rule does with a row. */
typedef enum {
    NEEDED,      /* without it the claim is not testable */
    OPTIONAL,    /* shown in the evidence when present */
    ANY_VARIANT, /* needed, found whatever its variant */
} use_t;

typedef struct {
    int claim;       /* as the audit numbers them, 1-9 */
    int exp;         /* index in experiments[] */
    bool dist;       /* a distribution (else a value) */
    const char *mechanism, *variant, *metric, *unit;
    double figure;   /* the value, or the distribution's median */
    use_t use;
    const char *one_core_variant;  /* its name on one core, when that differs */
} claim_row_t;

/* One run's worth of the rows each claim reads, as the experiments name
 * them, with figures that give every claim a verdict. */
static const claim_row_t rows[] = {
    {1, QP, true, BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_WARM, BENCH_METRIC_LATENCY, "ns", 2000, NEEDED, NULL},
    {1, QP, true, BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_FLUSHED, BENCH_METRIC_LATENCY, "ns", 5000, NEEDED, NULL},

    {2, ISR, true, BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_NO_YIELD, BENCH_METRIC_LATENCY, "ns", 400000, NEEDED, NULL},
/* Claim 2's message-rate rows differ only in variant, metric, rate and need. */
#define ISR_RATE(variant, metric, rate, need) {2, ISR, false, BENCH_MECH_RTIPC_QUEUE, variant, metric, "msg/s", rate, need, NULL}
    ISR_RATE(BENCH_VARIANT_NO_YIELD_DEPTH_1, BENCH_METRIC_THROUGHPUT, 1000, NEEDED),
    ISR_RATE(BENCH_VARIANT_NO_YIELD_DEPTH_100, BENCH_METRIC_THROUGHPUT, 1050, NEEDED),
    ISR_RATE(BENCH_VARIANT_YIELD_DEPTH_1, BENCH_METRIC_THROUGHPUT, 18000, OPTIONAL),
    ISR_RATE(BENCH_VARIANT_NO_YIELD_DEPTH_1, BENCH_METRIC_OFFERED, 10000, OPTIONAL),
    ISR_RATE(BENCH_VARIANT_NO_YIELD_DEPTH_100, BENCH_METRIC_OFFERED, 10000, OPTIONAL),
#undef ISR_RATE

    {3, MC, true, BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_ITEM_4_BATCH_8, BENCH_METRIC_SEND_OVERHEAD, "ns", 120,
     NEEDED, NULL},
    {3, MC, true, BENCH_MECH_RTIPC_RINGBUF_NOSPLIT, BENCH_VARIANT_ITEM_4_BATCH_8, BENCH_METRIC_SEND_OVERHEAD, "ns",
     30, NEEDED, NULL},
    {3, MC, true, BENCH_MECH_MUTEX_CONDVAR_LIST, BENCH_VARIANT_ITEM_4_BATCH_8, BENCH_METRIC_SEND_OVERHEAD, "ns",
     300, NEEDED, NULL},
    {3, MC, true, BENCH_MECH_STD_QUEUE_MUTEX, BENCH_VARIANT_ITEM_4_BATCH_8, BENCH_METRIC_SEND_OVERHEAD, "ns", 500,
     OPTIONAL, NULL},

    {4, BP, false, BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_WAIT_FOREVER_SUBSCRIBED, BENCH_METRIC_WATCHDOG_TRIPS,
     "count", 1, NEEDED, NULL},
    {4, BP, false, BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_WAIT_FOREVER_UNSUBSCRIBED, BENCH_METRIC_WATCHDOG_TRIPS,
     "count", 0, NEEDED, NULL},
    {4, BP, false, BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_TIMEOUT_10MS_SUBSCRIBED, BENCH_METRIC_WATCHDOG_TRIPS,
     "count", 0, NEEDED, NULL},

    {5, SVE, true, BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_DEPTH_32, BENCH_METRIC_STALENESS, "ns", 50000,
     ANY_VARIANT, NULL},
    {5, SVE, true, BENCH_MECH_RTIPC_QUEUE_OVERWRITE, BENCH_VARIANT_LENGTH_1, BENCH_METRIC_STALENESS, "ns", 1500,
     ANY_VARIANT, NULL},
    {5, SVE, true, BENCH_MECH_RTIPC_MAILBOX, BENCH_VARIANT_LATEST, BENCH_METRIC_STALENESS, "ns", 1200, OPTIONAL, NULL},

    {6, CP, true, BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_SAME_CORE, BENCH_METRIC_LATENCY, "ns", 1000, NEEDED, NULL},
    {6, CP, true, BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_CROSS_CORE, BENCH_METRIC_LATENCY, "ns", 3000, NEEDED, NULL},
    {6, CP, true, BENCH_MECH_RTIPC_SEM, BENCH_VARIANT_SAME_CORE, BENCH_METRIC_LATENCY, "ns", 2000, NEEDED, NULL},
    {6, CP, true, BENCH_MECH_RTIPC_SEM, BENCH_VARIANT_CROSS_CORE, BENCH_METRIC_LATENCY, "ns", 5000, NEEDED, NULL},
    {6, CP, true, BENCH_MECH_RTIPC_NOTIFY, BENCH_VARIANT_SAME_CORE, BENCH_METRIC_LATENCY, "ns", 500, NEEDED, NULL},
    {6, CP, true, BENCH_MECH_RTIPC_NOTIFY, BENCH_VARIANT_CROSS_CORE, BENCH_METRIC_LATENCY, "ns", 1500, NEEDED, NULL},

    {7, BAT, true, BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_100X1B, BENCH_METRIC_TIME_PER_100B, "ns", 5200, NEEDED, NULL},
    {7, BAT, true, BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_1X100B, BENCH_METRIC_TIME_PER_100B, "ns", 700, NEEDED, NULL},

    /* queue-set names its memory rows by the shape it measured. */
    {8, QS, false, BENCH_MECH_QUEUE_SET, "3x(len=10,item=4),stack=16384", BENCH_METRIC_MEMORY, "B", 16900,
     ANY_VARIANT, NULL},
    {8, QS, false, BENCH_MECH_THREE_TASKS, "3x(len=10,item=4),stack=16384", BENCH_METRIC_MEMORY, "B", 50000,
     ANY_VARIANT, NULL},

    /* bench_core_variant(): same-core on one core, where the rule falls back to them. */
    {9, NVS, true, BENCH_MECH_RTIPC_SEM, BENCH_VARIANT_CROSS_CORE, BENCH_METRIC_LATENCY, "ns", 16000, NEEDED,
     BENCH_VARIANT_SAME_CORE},
    {9, NVS, true, BENCH_MECH_RTIPC_NOTIFY, BENCH_VARIANT_CROSS_CORE, BENCH_METRIC_LATENCY, "ns", 4000, NEEDED,
     BENCH_VARIANT_SAME_CORE},
};
#define N_ROWS (sizeof rows / sizeof rows[0])

/* A row's names, one of them changed: the drift a rule must notice. */
typedef enum { KEEP, CHANGE_EXPERIMENT, CHANGE_MECHANISM, CHANGE_VARIANT, CHANGE_METRIC, N_CHANGES } change_t;
static const char *const change_name[N_CHANGES] = {"none", "experiment", "mechanism", "variant", "metric"};

/* The experiment ids a changed row runs under (one per experiment). */
static char changed_ids[N_EXPS][40];
static bench_experiment_t changed_experiments[N_EXPS];

static void changed(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s-renamed", name);
}

/* A distribution of 1000 samples around @p median (+0..9): finite median,
 * 95% interval and p99. */
static void add_dist_row(bench_run_t *run, const char *mech, const char *var, const char *metric, double median)
{
    bench_samples_t s = {0};
    assert_int_equal(bench_samples_init(&s, 1000), 0);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(bench_samples_push(&s, (int64_t)median + i % 10), 0);
    assert_non_null(bench_add_dist(run, mech, var, metric, &s));
    bench_samples_free(&s);
}

/* How the rows are named: as a run on Linux names them (rtipc's objects),
 * or as a FreeRTOS target names them (the kernel's own objects: each rtipc
 * mechanism's twin, the heap queue under a FreeRTOS mutex; on ESP-IDF also
 * ESP-IDF's ring buffer). */
typedef enum { RTIPC_ROWS, KERNEL_ROWS, ESPIDF_ROWS } naming_t;
static naming_t naming = RTIPC_ROWS;

/* @p mech as a run of @p how names it. */
static const char *named(const char *mech, naming_t how)
{
    if (how == RTIPC_ROWS)
        return mech;
    if (!strcmp(mech, BENCH_MECH_MUTEX_CONDVAR_LIST))
        return BENCH_MECH_KERNEL_MUTEX_LIST;
    /* Only ESP-IDF has a ring buffer of its own: elsewhere rtipc's decides. */
    if (how == KERNEL_ROWS && !strcmp(mech, BENCH_MECH_RTIPC_RINGBUF_NOSPLIT))
        return mech;
    const char *kernel = bench_kernel_twin_name(mech);
    return kernel ? kernel : mech;
}

/* Records every row but @p skip (SIZE_MAX: none), row @p target with one
 * name changed, the way the experiments record them. */
static void record(bench_run_t *run, size_t skip, size_t target, change_t change)
{
    memset(run, 0, sizeof *run);
    run->env.tick_hz = 1000;
    for (size_t i = 0; i < N_ROWS; i++) {
        if (i == skip)
            continue;
        const claim_row_t *r = &rows[i];
        char mech[64], var[80], metric[48];
        snprintf(mech, sizeof mech, "%s", named(r->mechanism, naming));
        snprintf(var, sizeof var, "%s", r->variant);
        snprintf(metric, sizeof metric, "%s", r->metric);
        run->current = &experiments[r->exp];
        if (i == target) {
            switch (change) {
            case CHANGE_EXPERIMENT:
                changed(changed_ids[r->exp], sizeof changed_ids[r->exp], experiments[r->exp].id);
                changed_experiments[r->exp].id = changed_ids[r->exp];
                run->current = &changed_experiments[r->exp];
                break;
            case CHANGE_MECHANISM: changed(mech, sizeof mech, named(r->mechanism, naming)); break;
            case CHANGE_VARIANT: changed(var, sizeof var, r->variant); break;
            case CHANGE_METRIC: changed(metric, sizeof metric, r->metric); break;
            default: break;
            }
        }
        if (r->dist)
            add_dist_row(run, mech, var, metric, r->figure);
        else
            assert_non_null(bench_add_value(run, mech, var, metric, r->unit, r->figure));
    }
    run->current = NULL;
    assert_string_equal(run->failure, "");
}

static void free_run(bench_run_t *run)
{
    bench_free_rows(run);
    memset(run, 0, sizeof *run);
}

static bool testable(const bench_claim_t *c)
{
    return c->verdict != CLAIM_NOT_TESTABLE;
}

static void assert_all_testable(const bench_run_t *run, const char *what)
{
    for (int i = 0; i < BENCH_CLAIMS; i++)
        if (!testable(&run->claims[i]))
            fail_msg("%s: claim %d is not testable: %s", what, run->claims[i].id, run->claims[i].evidence);
}

static bench_run_t run;  /* large: off the stack */

/* Every row present: every claim gets a verdict; each claim has rows. */
static void test_every_claim_reads_its_rows(void **state)
{
    (void)state;
    int per_claim[BENCH_CLAIMS + 1] = {0};
    for (size_t i = 0; i < N_ROWS; i++) {
        assert_in_range(rows[i].claim, 1, BENCH_CLAIMS);
        per_claim[rows[i].claim]++;
    }
    for (int c = 1; c <= BENCH_CLAIMS; c++)
        if (per_claim[c] == 0)
            fail_msg("claim %d has no rows in this test", c);

    record(&run, SIZE_MAX, SIZE_MAX, KEEP);
    assert_int_equal(run.n_results, N_ROWS);
    bench_audit_claims(&run);
    assert_all_testable(&run, "all rows");
    free_run(&run);
}

/* The evidence of a claim that lost row @p r: the experiment's "no usable
 * rows", or "has no row for ..." naming the row's mechanism or variant. */
static bool names_the_gap(const char *evidence, const char *no_rows, const char *exp, const claim_row_t *r)
{
    if (strcmp(evidence, no_rows) == 0)
        return true;
    char prefix[128];
    snprintf(prefix, sizeof prefix, "experiment %s has no row for ", exp);
    if (strncmp(evidence, prefix, strlen(prefix)) != 0)
        return false;
    const char *list = evidence + strlen(prefix);
    return strstr(list, named(r->mechanism, naming)) != NULL || (r->variant && strstr(list, r->variant) != NULL);
}

/* Without one row: its claim is not testable, and says so naming the
 * experiment the row comes from, when the rule needs the row; every other
 * claim keeps its verdict. */
static void test_each_row_is_needed_or_optional(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ROWS; i++) {
        const claim_row_t *r = &rows[i];
        record(&run, i, SIZE_MAX, KEEP);
        bench_audit_claims(&run);
        const bench_claim_t *c = &run.claims[r->claim - 1];
        char want[128];
        snprintf(want, sizeof want, "no usable rows from experiment %s in this run", experiments[r->exp].id);
        if (r->use == OPTIONAL) {
            if (!testable(c))
                fail_msg("without optional row %s/%s/%s: claim %d not testable: %s", r->mechanism, r->variant,
                         r->metric, r->claim, c->evidence);
        } else if (testable(c) || !names_the_gap(c->evidence, want, experiments[r->exp].id, r)) {
            fail_msg("without row %s/%s/%s: claim %d has verdict %d: %s", r->mechanism, r->variant, r->metric,
                     r->claim, (int)c->verdict, c->evidence);
        }
        for (int k = 0; k < BENCH_CLAIMS; k++)
            if (k != r->claim - 1 && !testable(&run.claims[k]))
                fail_msg("without row %zu (claim %d): claim %d not testable too", i, r->claim, k + 1);
        free_run(&run);
    }
}

/* A needed row under another experiment id, mechanism, variant or metric
 * (a name that drifted on one side) is not the row the rule reads; a rule
 * that takes any variant ignores a changed variant. */
static void test_a_changed_name_is_not_read(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ROWS; i++) {
        const claim_row_t *r = &rows[i];
        if (r->use == OPTIONAL)
            continue;
        for (change_t ch = CHANGE_EXPERIMENT; ch < N_CHANGES; ch++) {
            record(&run, SIZE_MAX, i, ch);
            bench_audit_claims(&run);
            const bench_claim_t *c = &run.claims[r->claim - 1];
            bool read = !(ch == CHANGE_VARIANT && r->use == ANY_VARIANT);
            if (read == testable(c))
                fail_msg("row %s/%s/%s/%s with its %s changed: claim %d has verdict %d: %s", experiments[r->exp].id,
                         r->mechanism, r->variant, r->metric, change_name[ch], r->claim, (int)c->verdict,
                         c->evidence);
            free_run(&run);
        }
    }
}

/* mechanism-compare's per-call rows stand in for its batched ones when a
 * run has none (claim 3). */
static void test_send_cost_falls_back_to_per_call_rows(void **state)
{
    (void)state;
    record(&run, SIZE_MAX, SIZE_MAX, KEEP);
    for (size_t i = 0; i < run.n_results; i++)
        if (!strcmp(run.results[i]->variant, BENCH_VARIANT_ITEM_4_BATCH_8))
            run.results[i]->variant = BENCH_VARIANT_ITEM_4;
    bench_audit_claims(&run);
    assert_true(testable(&run.claims[2]));
    assert_non_null(strstr(run.claims[2].evidence, "send p50 (" BENCH_VARIANT_ITEM_4 ")"));
    free_run(&run);
}

/* Rows named otherwise on one core (notify-vs-sem's same-core): a
 * cross-core claim is not testable on such a run, and says why (claim 9). */
static void test_one_core_leaves_cross_core_claims_untested(void **state)
{
    (void)state;
    record(&run, SIZE_MAX, SIZE_MAX, KEEP);
    for (size_t i = 0; i < N_ROWS; i++) {
        bench_result_t *row = run.results[i];  /* recorded in table order */
        assert_string_equal(row->variant, rows[i].variant);
        if (rows[i].one_core_variant)
            row->variant = rows[i].one_core_variant;
    }
    bench_audit_claims(&run);
    assert_false(testable(&run.claims[8]));
    assert_non_null(strstr(run.claims[8].evidence, "one core in this run"));
    free_run(&run);
}

/* The whole table again, named as each FreeRTOS target names its rows: every
 * claim is decided, from the kernel's rows, and its evidence names them. */
static void kernel_table(naming_t how)
{
    naming = how;
    record(&run, SIZE_MAX, SIZE_MAX, KEEP);
    bench_audit_claims(&run);
    assert_all_testable(&run, how == ESPIDF_ROWS ? "ESP-IDF rows" : "kernel rows");
    for (size_t i = 0; i < N_ROWS; i++) {
        const char *k = named(rows[i].mechanism, how);
        if (rows[i].use != OPTIONAL && strcmp(k, rows[i].mechanism) != 0 &&
            !strstr(run.claims[rows[i].claim - 1].evidence, k))
            fail_msg("claim %d's evidence does not name %s: %s", rows[i].claim, k,
                     run.claims[rows[i].claim - 1].evidence);
    }
    free_run(&run);
    naming = RTIPC_ROWS;
}

static void test_kernel_rows_decide(void **state)
{
    (void)state;
    kernel_table(KERNEL_ROWS);
    kernel_table(ESPIDF_ROWS);
}

/* A FreeRTOS run decides from the kernel's rows alone: without one of them
 * the claim is not testable, never decided from rtipc's row beside it. */
static void test_kernel_rows_are_never_mixed(void **state)
{
    (void)state;
    naming = KERNEL_ROWS;
    for (size_t i = 0; i < N_ROWS; i++) {
        const claim_row_t *r = &rows[i];
        if (r->use == OPTIONAL || !strcmp(named(r->mechanism, KERNEL_ROWS), r->mechanism))
            continue;
        /* The kernel's row left under rtipc's name: rtipc's row alone. */
        record(&run, SIZE_MAX, SIZE_MAX, KEEP);
        bench_result_t *row = run.results[i];
        row->mechanism = r->mechanism;
        bench_audit_claims(&run);
        if (testable(&run.claims[r->claim - 1]))
            fail_msg("kernel rows with %s under rtipc's name: claim %d decided: %s", r->mechanism, r->claim,
                     run.claims[r->claim - 1].evidence);
        free_run(&run);
    }
    naming = RTIPC_ROWS;
}

/* ---- the rows of a real run ---------------------------------------------- */

/* A row of the file with these names (any variant when VARIANT is NULL). */
static bool in_file(const bench_results_t *res, const char *exp, const char *mech, const char *variant,
                    const char *metric)
{
    size_t first, n = bench_results_experiment_rows(res, exp, &first);
    for (size_t k = 0; k < n; k++) {
        const bench_row_t *row = &res->rows[res->by_experiment[first + k]];
        if (row->kind != BENCH_ROW_MISSING && !strcmp(row->mechanism, mech) && !strcmp(row->metric, metric) &&
            (!variant || !strcmp(row->variant, variant)))
            return true;
    }
    return false;
}

/* The experiment recorded that it cannot measure this row here: its
 * mechanism, or "mechanism/variant", is missing (rtipc-queue/flushed
 * without clflush, an object the port does not support). */
static bool recorded_missing(const bench_results_t *res, const char *exp, const claim_row_t *r)
{
    char both[160];
    snprintf(both, sizeof both, "%s/%s", r->mechanism, r->variant);
    size_t first, n = bench_results_experiment_rows(res, exp, &first);
    for (size_t k = 0; k < n; k++) {
        const bench_row_t *row = &res->rows[res->by_experiment[first + k]];
        if (row->kind == BENCH_ROW_MISSING && (!strcmp(row->mechanism, r->mechanism) || !strcmp(row->mechanism, both)))
            return true;
    }
    return false;
}

/* Whether the file has a measured row (not a missing one) of @p exp: an
 * experiment the target does not run (two cores on one) has none. */
static bool measured(const bench_results_t *res, const char *exp)
{
    size_t first, n = bench_results_experiment_rows(res, exp, &first);
    for (size_t k = 0; k < n; k++)
        if (res->rows[res->by_experiment[first + k]].kind != BENCH_ROW_MISSING)
            return true;
    return false;
}

/* Every row of the table is in the file at PATH, under its one-core name
 * where it has one and the two-core name is absent, or recorded missing.
 * With @p kernel (a FreeRTOS target's run): the kernel's rows the claims
 * read there, of each experiment the run has rows of (ESP-IDF's ring
 * buffer is recorded missing off ESP-IDF). 0, or 1 after naming each row
 * that is not. */
static int check_produced(const char *path, bool kernel)
{
    bench_results_t res;
    char err[256];
    if (bench_results_load(&res, path, err, sizeof err) != 0) {
        fprintf(stderr, "test_claim_rows: %s: %s\n", path, err);
        return 1;
    }
    int absent = 0;
    size_t checked = 0;
    for (size_t i = 0; i < N_ROWS; i++) {
        claim_row_t named_row = rows[i];
        const claim_row_t *r = &named_row;
        const char *exp = experiments[r->exp].id;
        if (kernel) {
            named_row.mechanism = named(rows[i].mechanism, ESPIDF_ROWS);
            if (!strcmp(named_row.mechanism, rows[i].mechanism) || !measured(&res, exp))
                continue;
        }
        checked++;
        const char *variant = r->use == ANY_VARIANT ? NULL : r->variant;
        if (in_file(&res, exp, r->mechanism, variant, r->metric) ||
            (r->one_core_variant && in_file(&res, exp, r->mechanism, r->one_core_variant, r->metric)) ||
            recorded_missing(&res, exp, r))
            continue;
        fprintf(stderr, "test_claim_rows: %s: claim %d reads %s / %s / %s / %s, which the run did not write\n", path,
                r->claim, exp, r->mechanism, variant ? variant : "(any variant)", r->metric);
        absent++;
    }
    bench_results_free(&res);
    if (absent)
        return 1;
    printf("test_claim_rows: %s: the %zu %srows the claims read are there\n", path, checked, kernel ? "kernel " : "");
    return 0;
}

static int kernel_naming(void **state)
{
    (void)state;
    naming = KERNEL_ROWS;
    return 0;
}

static int rtipc_naming(void **state)
{
    (void)state;
    naming = RTIPC_ROWS;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--produced"))
        return check_produced(argv[2], false);
    if (argc == 3 && !strcmp(argv[1], "--produced-kernel"))
        return check_produced(argv[2], true);
    if (argc != 1) {
        fprintf(stderr, "usage: test_claim_rows [--produced | --produced-kernel RESULTS.json]\n");
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_claim_reads_its_rows),
        cmocka_unit_test(test_each_row_is_needed_or_optional),
        cmocka_unit_test(test_a_changed_name_is_not_read),
        cmocka_unit_test(test_send_cost_falls_back_to_per_call_rows),
        cmocka_unit_test(test_one_core_leaves_cross_core_claims_untested),
        cmocka_unit_test(test_kernel_rows_decide),
        cmocka_unit_test(test_kernel_rows_are_never_mixed),
        cmocka_unit_test_setup_teardown(test_each_row_is_needed_or_optional, kernel_naming, rtipc_naming),
        cmocka_unit_test_setup_teardown(test_a_changed_name_is_not_read, kernel_naming, rtipc_naming),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
