/* The streaming JSON writer (bench/results/json_writer.c) and the
 * rtipc-bench/1 document on it (document.c): every output is parsed back
 * with cJSON, every misuse and a full sink are reported, nothing is written
 * past a buffer. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "harness/run.h"
#include "results/document.h"
#include "results/json_writer.h"

static char text[1 << 16];

static bench_jw_buffer_t buffer;

static void start(bench_jw_t *w, int wrap)
{
    bench_jw_buffer_init(&buffer, text, sizeof text);
    bench_jw_init(w, bench_jw_buffer_sink, &buffer, wrap);
}

static void strings_are_escaped_and_read_back(void **state)
{
    (void)state;
    bench_jw_t w;
    bench_jw_buffer_t b;
    bench_jw_buffer_init(&b, text, sizeof text);
    bench_jw_init(&w, bench_jw_buffer_sink, &b, 1);
    const char nasty[] = "q\"b\\s/\n\t\r\x01\x1f end \xc3\xa9";
    bench_jw_object_begin(&w);
    bench_jw_kv_string(&w, "s", nasty);
    bench_jw_kv_string(&w, "null", NULL);
    bench_jw_object_end(&w);
    assert_int_equal(bench_jw_finish(&w), BENCH_JW_OK);
    cJSON *j = cJSON_Parse(text);
    assert_non_null(j);
    assert_string_equal(cJSON_GetObjectItem(j, "s")->valuestring, nasty);
    assert_string_equal(cJSON_GetObjectItem(j, "null")->valuestring, "");
    assert_non_null(strstr(text, "\\u0001"));
    cJSON_Delete(j);
}

static void numbers_round_trip_and_non_finite_are_null(void **state)
{
    (void)state;
    const double v[] = {0, -0.0, 1, -1, 42, 9007199254740992.0, -9007199254740992.0, 9007199254740994.0, 0.1,
                        1.0 / 3, 2596104700.1267247, 1e300, -1e-300, 5e-324, 123456.5};
    bench_jw_t w;
    start(&w, 0);
    bench_jw_array_begin(&w);
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        bench_jw_number(&w, v[i]);
    bench_jw_number(&w, NAN);
    bench_jw_number(&w, INFINITY);
    bench_jw_number(&w, -INFINITY);
    bench_jw_int(&w, INT64_MIN);
    bench_jw_int(&w, INT64_MAX);
    bench_jw_uint(&w, UINT64_MAX);
    bench_jw_bool(&w, true);
    bench_jw_bool(&w, false);
    bench_jw_null(&w);
    bench_jw_array_end(&w);
    assert_int_equal(bench_jw_finish(&w), BENCH_JW_OK);
    assert_non_null(strstr(text, "[0, 0, 1, -1, 42, 9007199254740992, -9007199254740992, "));
    assert_non_null(strstr(text, "null, null, null, -9223372036854775808, 9223372036854775807, "
                                 "18446744073709551615, true, false, null]"));
    cJSON *j = cJSON_Parse(text);
    assert_non_null(j);
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        assert_true(cJSON_GetArrayItem(j, (int)i)->valuedouble == v[i]);
    assert_true(cJSON_IsNull(cJSON_GetArrayItem(j, (int)(sizeof v / sizeof v[0]))));
    cJSON_Delete(j);
}

static void layout_wraps_to_its_depth_only(void **state)
{
    (void)state;
    bench_jw_t w;
    start(&w, 1);
    bench_jw_object_begin(&w);
    bench_jw_kv_int(&w, "a", 1);
    bench_jw_key(&w, "b");
    bench_jw_array_begin(&w);
    bench_jw_int(&w, 2);
    bench_jw_object_begin(&w);
    bench_jw_object_end(&w);
    bench_jw_array_begin(&w);
    bench_jw_array_end(&w);
    bench_jw_array_end(&w);
    bench_jw_object_end(&w);
    assert_int_equal(bench_jw_finish(&w), BENCH_JW_OK);
    assert_string_equal(text, "{\n  \"a\": 1,\n  \"b\": [2, {}, []]\n}\n");
}

/* A fresh writer fed one call per letter of ops (a array, o/O object
 * begin/end, k key "k", 1 and 2 those ints), then finished: the misuse
 * cases differ only in their calls. */
static int finish_after(bench_jw_t *w, const char *ops)
{
    start(w, 0);
    for (; *ops; ops++) {
        switch (*ops) {
        case 'a': bench_jw_array_begin(w); break;
        case 'o': bench_jw_object_begin(w); break;
        case 'O': bench_jw_object_end(w); break;
        case 'k': bench_jw_key(w, "k"); break;
        default: bench_jw_int(w, *ops - '0'); break;
        }
    }
    return bench_jw_finish(w);
}

static void misuse_is_reported_and_stops_output(void **state)
{
    (void)state;
    bench_jw_t w;
    /* A value where a key is due. */
    start(&w, 0);
    bench_jw_object_begin(&w);
    bench_jw_int(&w, 1);
    size_t len = strlen(text);
    bench_jw_kv_int(&w, "x", 2);
    assert_int_equal(strlen(text), len);
    assert_int_equal(bench_jw_finish(&w), BENCH_JW_EUSAGE);
    /* A key in an array, a wrong close, a second top value, an open end. */
    assert_int_equal(finish_after(&w, "ak"), BENCH_JW_EUSAGE);
    assert_int_equal(finish_after(&w, "aO"), BENCH_JW_EUSAGE);
    assert_int_equal(finish_after(&w, "12"), BENCH_JW_EUSAGE);
    assert_int_equal(finish_after(&w, "ok"), BENCH_JW_EUSAGE);
    assert_int_equal(finish_after(&w, ""), BENCH_JW_EUSAGE); /* nothing written */
    /* Too deep. */
    start(&w, 0);
    for (int i = 0; i <= BENCH_JW_MAX_DEPTH; i++)
        bench_jw_array_begin(&w);
    assert_int_equal(bench_jw_finish(&w), BENCH_JW_EDEPTH);
    assert_string_equal(bench_jw_error_text(BENCH_JW_EDEPTH), "JSON nested too deeply (a bug)");
}

static void a_full_buffer_is_an_error_and_never_overrun(void **state)
{
    (void)state;
    char small[16 + 8];
    memset(small, 'X', sizeof small);
    bench_jw_buffer_t b;
    bench_jw_buffer_init(&b, small, 16);
    bench_jw_t w;
    bench_jw_init(&w, bench_jw_buffer_sink, &b, 0);
    bench_jw_array_begin(&w);
    for (int i = 0; i < 20; i++)
        bench_jw_int(&w, 1000 + i);
    bench_jw_array_end(&w);
    assert_int_equal(bench_jw_finish(&w), BENCH_JW_ESINK);
    assert_true(b.len < 16);
    assert_int_equal(small[b.len], '\0');
    for (size_t i = 16; i < sizeof small; i++)
        assert_int_equal(small[i], 'X');
}

/* The document of a small run parses and carries each row's clock. */
static void a_run_document_parses_with_its_clocks(void **state)
{
    (void)state;
    static bench_result_t rows[3];
    static bench_stats_bin_t bins[1];
    memset(rows, 0, sizeof rows);
    bins[0] = (bench_stats_bin_t){.bucket = bench_hist_bucket(100), .count = 7};
    rows[0] = (bench_result_t){.kind = BENCH_DIST, .experiment = "e", .mechanism = "m", .variant = "v",
                               .metric = "latency", .unit = "ns", .clock = "host-tsc",
                               .stats = {.n = 7, .min = 100, .mean = 100, .p50 = NAN, .p90 = NAN, .p99 = NAN,
                                         .p999 = NAN, .max = 100, .stddev = 0, .p50_lo = 100, .p50_hi = 100,
                                         .bins = bins, .n_bins = 1}};
    rows[1] = (bench_result_t){.kind = BENCH_VALUE, .experiment = "e", .mechanism = "m", .variant = "v",
                               .metric = "bytes", .unit = "B", .clock = "", .value = 64};
    rows[2] = (bench_result_t){.kind = BENCH_MISSING, .experiment = "e", .mechanism = "peer", .variant = "",
                               .metric = "", .unit = "", .clock = "", .note = "not built"};
    static const bench_experiment_t exp = {.id = "e", .summary = "s", .definitions = "d"};
    static bench_run_t run;
    memset(&run, 0, sizeof run);
    static bench_result_t *slots[3] = {&rows[0], &rows[1], &rows[2]};
    run.results = slots;
    run.n_results = 3;
    run.outcomes[0] = (bench_outcome_t){.experiment = &exp, .seconds = 1.5};
    run.n_outcomes = 1;
    for (int i = 0; i < BENCH_CLAIMS; i++)
        run.claims[i] = (bench_claim_t){.id = i + 1, .claim = "c", .rule = "r", .verdict = CLAIM_NOT_TESTABLE};
    bench_jw_t w;
    bench_jw_buffer_t b;
    bench_jw_buffer_init(&b, text, sizeof text);
    bench_doc_writer_init(&w, bench_jw_buffer_sink, &b);
    bench_doc_run(&w, &run);
    assert_int_equal(bench_jw_finish(&w), BENCH_JW_OK);
    cJSON *j = cJSON_Parse(text);
    assert_non_null(j);
    assert_string_equal(cJSON_GetObjectItem(j, "schema")->valuestring, BENCH_SCHEMA);
    cJSON *res = cJSON_GetObjectItem(j, "results");
    assert_int_equal(cJSON_GetArraySize(res), 3);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(res, 0), "clock")->valuestring, "host-tsc");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(res, 0), "p50")));
    assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(res, 1), "clock"));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(res, 2), "missing")));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "claims")), BENCH_CLAIMS);
    /* One line per row: the distribution row is whole on its line. */
    assert_non_null(strstr(text, "\n    {\"experiment\": \"e\", \"mechanism\": \"m\", \"variant\": \"v\", \"metric\": "
                                 "\"latency\", \"unit\": \"ns\", \"n\": 7,"));
    cJSON_Delete(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(strings_are_escaped_and_read_back),
        cmocka_unit_test(numbers_round_trip_and_non_finite_are_null),
        cmocka_unit_test(layout_wraps_to_its_depth_only),
        cmocka_unit_test(misuse_is_reported_and_stops_output),
        cmocka_unit_test(a_full_buffer_is_an_error_and_never_overrun),
        cmocka_unit_test(a_run_document_parses_with_its_clocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
