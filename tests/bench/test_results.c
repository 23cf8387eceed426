/* The results module of rtipc-bench: the reader every command shares
 * (bench/results/read.h) and output files written whole or not at all
 * (bench/results/outfile.h). Every return path of both. */
#define _XOPEN_SOURCE 700 /* mkdtemp, symlink */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/util.h"
#include "results/outfile.h"
#include "results/read.h"

static char dir[] = "/tmp/rtipc_test_results_XXXXXX";

static const char *in_dir(const char *name)
{
    static char path[8][256];
    static int next;
    char *p = path[next++ % 8];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    return p;
}

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}

/* ------------------------------------------------------------- the reader */

#define HEAD "{\"schema\": \"rtipc-bench/1\", "

static const char good[] =
    HEAD "\"env\": {\"tick_hz\": 500, \"git_commit\": \"abc\"},"
    " \"experiments\": [{\"id\": \"b\"}, {\"id\": \"a\"}],"
    " \"results\": ["
    "{\"experiment\": \"b\", \"mechanism\": \"m\", \"variant\": \"v\", \"metric\": \"lat\", \"unit\": \"ns\","
    " \"n\": 100, \"min\": 1, \"mean\": null, \"p50\": 5, \"p99\": 1e999, \"p50_ci95\": [4, 6]},"
    "{\"experiment\": \"a\", \"mechanism\": \"m\", \"variant\": \"\", \"metric\": \"rate\", \"unit\": \"msg/s\","
    " \"value\": null, \"note\": \"hi\"},"
    "{\"experiment\": \"b\", \"mechanism\": \"x\", \"variant\": \"\", \"missing\": true, \"note\": \"absent here\"},"
    "{\"experiment\": \"b\", \"mechanism\": \"m\", \"variant\": \"v\", \"metric\": \"lat\", \"unit\": \"ns\", \"value\": 3},"
    "{\"experiment\": \"b\", \"mechanism\": \"h\", \"variant\": \"\", \"metric\": \"lat\", \"unit\": \"ns\","
    " \"n\": 30, \"p50\": 40, \"histogram\": {\"sub_bucket_bits\": 4, \"buckets\": [[32, 10], [40, 15], [48, 5]]}},"
    "{\"experiment\": \"b\", \"mechanism\": \"e\", \"variant\": \"\", \"metric\": \"lat\", \"unit\": \"ns\","
    " \"n\": 3, \"p50\": null}]}";

static void test_reads_a_file_into_the_model(void **state)
{
    (void)state;
    bench_results_t r;
    char err[256] = "";
    assert_int_equal(bench_results_parse(&r, good, err, sizeof err), 0);
    assert_int_equal(r.n_rows, 6);
    assert_int_equal(r.tick_hz, 500);
    assert_string_equal(bench_results_string(r.env, "git_commit", "?"), "abc");
    assert_string_equal(bench_results_string(r.env, "nothing", "?"), "?");
    assert_true(isnan(bench_results_number(r.env, "git_commit")));

    const bench_row_t *d = &r.rows[0];
    assert_int_equal(d->kind, BENCH_ROW_DIST);
    assert_int_equal(d->n, 100);
    assert_true(d->p50 == 5 && d->min == 1);
    assert_true(isnan(d->mean));   /* null */
    assert_true(isnan(d->p99));    /* not finite */
    assert_true(isnan(d->p90));    /* absent */
    assert_int_equal(d->ci, BENCH_CI_FILE);
    assert_true(d->ci_lo == 4 && d->ci_hi == 6);
    assert_int_equal(r.rows[1].kind, BENCH_ROW_VALUE);
    assert_true(isnan(r.rows[1].value));
    assert_string_equal(r.rows[1].note, "hi");
    assert_int_equal(r.rows[2].kind, BENCH_ROW_MISSING);
    assert_string_equal(r.rows[2].metric, "");
    assert_string_equal(r.rows[0].note, "");

    /* A repeated key: kept, pointing at the first; lookups find the first. */
    assert_int_equal(r.rows[3].dup_of, 0);
    assert_int_equal(r.rows[0].dup_of, SIZE_MAX);
    assert_int_equal(r.n_duplicates, 1);
    assert_ptr_equal(bench_results_find(&r, "b", "m", "v", "lat"), &r.rows[0]);
    assert_ptr_equal(bench_results_find(&r, "a", "m", "", "rate"), &r.rows[1]);
    assert_null(bench_results_find(&r, "a", "m", "", "lat"));
    assert_null(bench_results_find(&r, "c", "m", "v", "lat"));

    /* The histogram without p50_ci95: bootstrapped; none at all: why. */
    assert_int_equal(r.rows[4].ci, BENCH_CI_BOOTSTRAP);
    assert_int_equal(r.rows[4].n_bins, 3);
    assert_true(r.rows[4].ci_lo >= 32 && r.rows[4].ci_hi <= 56 && r.rows[4].ci_lo < r.rows[4].ci_hi);
    assert_int_equal(r.rows[5].ci, BENCH_CI_NONE);
    assert_string_equal(r.rows[5].ci_why, "neither p50_ci95 nor a histogram");

    /* An experiment's rows in file order. */
    size_t first, n = bench_results_experiment_rows(&r, "b", &first);
    assert_int_equal(n, 5);
    size_t want[] = {0, 2, 3, 4, 5};
    for (size_t i = 0; i < n; i++)
        assert_int_equal(r.by_experiment[first + i], want[i]);
    assert_int_equal(bench_results_experiment_rows(&r, "a", &first), 1);
    assert_int_equal(bench_results_experiment_rows(&r, "zz", &first), 0);

    char *text;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    bench_results_warn(&r, f, "prog", "file");
    fclose(f);
    assert_non_null(strstr(text, "prog: warning: file: results[3] repeats b/m/v/lat; results[0] is used\n"));
    free(text);
    bench_results_free(&r);
    assert_null(r.rows);
    bench_results_free(&r);  /* twice: harmless */
}

static void test_refuses_what_breaks_the_schema(void **state)
{
    (void)state;
    static const struct {
        const char *text, *reason;
    } bad[] = {
        {"", "empty file, not JSON"},
        {"{\"schema\": ", "not JSON (syntax error near byte"},
        {"[1]", "the top level is not an object"},
        {"{}", "no \"schema\" string"},
        {"{\"schema\": \"rtipc-bench/2\"}", "schema is \"rtipc-bench/2\""},
        {HEAD "\"results\": []}", NULL},
        {"{\"schema\": \"rtipc-bench/1\"}", "\"results\" is missing"},
        {HEAD "\"results\": {}}", "\"results\" is not an array"},
        {HEAD "\"env\": 1, \"results\": []}", "\"env\" is not an object"},
        {HEAD "\"env\": {\"tick_hz\": -1}, \"results\": []}", "env.tick_hz is not a rate"},
        {HEAD "\"env\": {\"tick_hz\": \"x\"}, \"results\": []}", "env.tick_hz is not a rate"},
        {HEAD "\"experiments\": {}, \"results\": []}", "\"experiments\" is not an array"},
        {HEAD "\"experiments\": [{\"id\": 1}], \"results\": []}", "experiments[0] is not an object"},
        {HEAD "\"claims\": 3, \"results\": []}", "\"claims\" is not an array"},
        {HEAD "\"claims\": [1], \"results\": []}", "claims[0] is not an object"},
        {HEAD "\"results\": [1]}", "results[0] is not an object"},
        {HEAD "\"results\": [{\"experiment\": \"e\", \"mechanism\": \"m\"}]}", "results[0] lacks the string \"variant\""},
        {HEAD "\"results\": [{\"experiment\": \"e\", \"mechanism\": \"m\", \"variant\": \"\", \"note\": 1}]}",
         "results[0]: \"note\" is not a string"},
        {HEAD "\"results\": [{\"experiment\": \"e\", \"mechanism\": \"m\", \"variant\": \"\", \"unit\": \"B\"}]}",
         "results[0] lacks the string \"metric\""},
        {HEAD "\"results\": [{\"experiment\": \"e\", \"mechanism\": \"m\", \"variant\": \"\", \"metric\": \"x\"}]}",
         "results[0] lacks the string \"unit\""},
        {HEAD "\"results\": [{\"experiment\": \"e\", \"mechanism\": \"m\", \"variant\": \"\", \"metric\": \"x\", "
              "\"unit\": \"B\"}]}",
         "results[0] has neither \"n\" nor a \"value\""},
        {HEAD "\"results\": [{\"experiment\": \"e\", \"mechanism\": \"m\", \"variant\": \"\", \"metric\": \"x\", "
              "\"unit\": \"B\", \"value\": \"1\"}]}",
         "results[0] has neither \"n\" nor a \"value\""},
        {HEAD "\"results\": [{\"experiment\": \"e\", \"mechanism\": \"m\", \"variant\": \"\", \"metric\": \"x\", "
              "\"unit\": \"ns\", \"n\": 0, \"p50\": 1}]}",
         "results[0]: \"n\" is not a count >= 1"},
        {HEAD "\"results\": [{\"experiment\": \"e\", \"mechanism\": \"m\", \"variant\": \"\", \"metric\": \"x\", "
              "\"unit\": \"ns\", \"n\": 1, \"p50\": 1, \"max\": true}]}",
         "results[0]: \"max\" is neither a number nor null"},
        {HEAD "\"results\": [{\"experiment\": \"e\", \"mechanism\": \"m\", \"variant\": \"\", \"metric\": \"x\", "
              "\"unit\": \"ns\", \"n\": 1}]}",
         "results[0] lacks \"p50\""},
        {HEAD "\"results\": [{\"experiment\": \"e\", \"mechanism\": \"m\", \"variant\": \"\", \"metric\": \"x\", "
              "\"unit\": \"ns\", \"n\": 1, \"p50\": 1, \"p50_ci95\": [1]}]}",
         "results[0]: p50_ci95 is not [lo, hi]"},
        {HEAD "\"results\": [{\"experiment\": \"e\", \"mechanism\": \"m\", \"variant\": \"\", \"metric\": \"x\", "
              "\"unit\": \"ns\", \"n\": 1, \"p50\": 1, \"histogram\": {\"buckets\": []}}]}",
         "results[0]: histogram lacks sub_bucket_bits"},
        {HEAD "\"results\": [{\"experiment\": \"e\", \"mechanism\": \"m\", \"variant\": \"\", \"metric\": \"x\", "
              "\"unit\": \"ns\", \"n\": 1, \"p50\": 1, \"histogram\": {\"sub_bucket_bits\": 4, \"buckets\": 1}}]}",
         "results[0]: histogram.buckets is not an array"},
        {HEAD "\"results\": [{\"experiment\": \"e\", \"mechanism\": \"m\", \"variant\": \"\", \"metric\": \"x\", "
              "\"unit\": \"ns\", \"n\": 1, \"p50\": 1, \"histogram\": {\"sub_bucket_bits\": 4, \"buckets\": [[1]]}}]}",
         "results[0]: histogram bucket 0 is not [low_ns, count]"},
        {HEAD "\"results\": [{\"experiment\": \"e\", \"mechanism\": \"m\", \"variant\": \"\", \"metric\": \"x\", "
              "\"unit\": \"ns\", \"n\": 1, \"p50\": 1, \"histogram\": {\"sub_bucket_bits\": 4, "
              "\"buckets\": [[2, 1], [2, 1]]}}]}",
         "results[0]: histogram buckets are not in increasing order"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        bench_results_t r;
        char err[256] = "";
        int rc = bench_results_parse(&r, bad[i].text, err, sizeof err);
        if (!bad[i].reason) {
            assert_int_equal(rc, 0);
        } else if (rc != -1 || !strstr(err, bad[i].reason)) {
            fail_msg("case %zu: rc %d, '%s' (expected '%s')", i, rc, err, bad[i].reason);
        } else {
            assert_null(r.rows);  /* empty after a failure */
        }
        bench_results_free(&r);
    }
}

static void test_bounds_the_input(void **state)
{
    (void)state;
    bench_results_t r;
    char err[256] = "";
    assert_int_equal(bench_results_load(&r, "/dev/zero", err, sizeof err), -1);
    assert_non_null(strstr(err, "larger than 16 MiB"));
    assert_int_equal(bench_results_load(&r, in_dir("absent.json"), err, sizeof err), -1);
    assert_string_equal(err, "cannot read: No such file or directory");
    assert_int_equal(bench_results_load(&r, dir, err, sizeof err), -1);
    assert_non_null(strstr(err, "cannot read: Is a directory"));
    FILE *f = fopen(in_dir("nul.json"), "wb");
    fwrite("{}\0x", 1, 4, f);
    fclose(f);
    assert_int_equal(bench_results_load(&r, in_dir("nul.json"), err, sizeof err), -1);
    assert_string_equal(err, "holds a NUL byte at offset 2: not JSON text");
    put_file(in_dir("ok.json"), good);
    assert_int_equal(bench_results_load(&r, in_dir("ok.json"), err, sizeof err), 0);
    assert_int_equal(r.n_rows, 6);
    bench_results_free(&r);

    /* More rows than a file may hold. */
    f = fopen(in_dir("many.json"), "wb");
    fputs(HEAD "\"results\": [", f);
    for (unsigned i = 0; i <= BENCH_RESULTS_MAX_ROWS; i++)
        fputs(i ? ",1" : "1", f);
    fputs("]}", f);
    fclose(f);
    assert_int_equal(bench_results_load(&r, in_dir("many.json"), err, sizeof err), -1);
    assert_string_equal(err, "more than 100000 rows in \"results\", the most a file may hold");

    /* Huge counts: the bootstrap budget runs out after the first rows. */
    char *text;
    size_t len;
    f = open_memstream(&text, &len);
    fputs(HEAD "\"results\": [", f);
    for (int i = 0; i < 10; i++)
        fprintf(f, "%s{\"experiment\": \"e\", \"mechanism\": \"m%d\", \"variant\": \"\", \"metric\": \"x\", "
                   "\"unit\": \"ns\", \"n\": 1, \"p50\": 1, \"histogram\": {\"sub_bucket_bits\": 4, "
                   "\"buckets\": [[1, 4000000000000000], [2, 5000000000000000]]}}",
                i ? "," : "", i);
    fputs("]}", f);
    fclose(f);
    assert_int_equal(bench_results_parse(&r, text, err, sizeof err), 0);
    free(text);
    assert_int_equal(r.rows[0].ci, BENCH_CI_BOOTSTRAP);
    assert_int_equal(r.rows[9].ci, BENCH_CI_NONE);
    assert_string_equal(r.rows[9].ci_why, "the bootstrap budget of 5e7 draws per file was spent");
    assert_true(r.n_budget_skipped >= 7);
    f = open_memstream(&text, &len);
    bench_results_warn(&r, f, "prog", "file");
    fclose(f);
    assert_non_null(strstr(text, "have no interval of the median: the bootstrap budget of 5e7 draws per file"));
    free(text);
    bench_results_free(&r);
}

/* ----------------------------------------------------------- output files */

static char *read_all(const char *path)
{
    return bench_read_file(path);
}

/* True when the test directory holds no temporary (".NAME.PID-N.tmp"). */
static bool no_temporaries(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A %s | grep '^\\.')\"", dir);
    return system(cmd) == 0;
}

static void test_writes_whole_files(void **state)
{
    (void)state;
    char err[512] = "";
    const char *path = in_dir("out.txt");
    assert_int_equal(bench_outfile_write_text(path, "first\n", 6, err, sizeof err), 0);
    char *got = read_all(path);
    assert_string_equal(got, "first\n");
    free(got);
    struct stat st;
    mode_t mask = umask(022);
    umask(mask);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0666 & ~mask);

    /* A stream written in pieces, drained between them, replaces the file. */
    bench_outfile_t o;
    assert_int_equal(bench_outfile_open(&o, path, err, sizeof err), 0);
    FILE *f = bench_outfile_stream(&o);
    assert_non_null(f);
    for (int i = 0; i < 1000; i++) {
        fprintf(f, "line %d\n", i);
        if (i % 100 == 0)
            bench_outfile_drain(&o);
    }
    bench_outfile_write(&o, "end\n", 4);
    got = read_all(path);
    assert_string_equal(got, "first\n");  /* not yet */
    free(got);
    assert_int_equal(bench_outfile_commit(&o, err, sizeof err), 0);
    got = read_all(path);
    assert_non_null(got);
    assert_int_equal(strncmp(got, "line 0\nline 1\n", 14), 0);
    assert_non_null(strstr(got, "line 999\nend\n"));
    assert_int_equal(strlen(got), 10 * 7 + 90 * 8 + 900 * 9 + 4);
    free(got);

    /* Discarded: the target untouched, no temporary left. */
    assert_int_equal(bench_outfile_open(&o, path, err, sizeof err), 0);
    fputs("never", bench_outfile_stream(&o));
    bench_outfile_discard(&o);
    bench_outfile_discard(&o);  /* twice: harmless */
    got = read_all(path);
    assert_int_equal(strncmp(got, "line 0\n", 7), 0);
    free(got);
    assert_true(no_temporaries());

    /* No directory: nothing created, the reason given. */
    assert_int_equal(bench_outfile_open(&o, in_dir("none/out.txt"), err, sizeof err), -1);
    assert_non_null(strstr(err, "none/out.txt: No such file or directory"));
    bench_outfile_discard(&o);
}

static void test_special_files_in_place(void **state)
{
    (void)state;
    char err[512] = "";
    assert_int_equal(bench_outfile_write_text("/dev/null", "x", 1, err, sizeof err), 0);
    struct stat st;
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    if (access("/dev/full", W_OK) == 0) {
        assert_int_equal(bench_outfile_write_text("/dev/full", "x", 1, err, sizeof err), -1);
        assert_string_equal(err, "cannot write /dev/full: No space left on device");
        assert_int_equal(stat("/dev/full", &st), 0);
        assert_true(S_ISCHR(st.st_mode));
        bench_outfile_t o;
        assert_int_equal(bench_outfile_open(&o, "/dev/full", err, sizeof err), 0);
        fputs("y", bench_outfile_stream(&o));
        assert_int_equal(bench_outfile_commit(&o, err, sizeof err), -1);
        assert_string_equal(err, "cannot write /dev/full: No space left on device");
    }
}

static void test_checks_outputs_before_writing(void **state)
{
    (void)state;
    char err[512] = "";
    put_file(in_dir("file"), "x");
    assert_int_equal(bench_output_check(in_dir("new.json"), err, sizeof err), 0);
    assert_int_equal(bench_output_check(in_dir("file"), err, sizeof err), 0);
    assert_int_equal(bench_output_check("/dev/null", err, sizeof err), 0);
    assert_int_equal(bench_output_check("", err, sizeof err), -1);
    assert_int_equal(bench_output_check(dir, err, sizeof err), -1);
    assert_non_null(strstr(err, "Is a directory"));
    assert_int_equal(bench_output_check(in_dir("sub/"), err, sizeof err), -1);
    assert_int_equal(bench_output_check(in_dir("none/x.json"), err, sizeof err), -1);
    assert_non_null(strstr(err, "none: No such file or directory"));
    assert_int_equal(bench_output_check(in_dir("file/x.json"), err, sizeof err), -1);
    assert_non_null(strstr(err, "file: Not a directory"));

    assert_int_equal(bench_output_dir_check(dir, err, sizeof err), 0);
    assert_int_equal(bench_output_dir_check(in_dir("a/b/c"), err, sizeof err), 0);
    assert_int_equal(bench_output_dir_check(in_dir("file"), err, sizeof err), -1);
    assert_non_null(strstr(err, "Not a directory"));
    assert_int_equal(bench_output_dir_check(in_dir("file/sub"), err, sizeof err), -1);
    assert_int_equal(bench_output_dir_check("", err, sizeof err), -1);
    assert_int_equal(access(in_dir("a"), F_OK), -1);  /* checked, not created */
    assert_true(no_temporaries());

    /* The same file, however it is spelled. */
    char rel[300], dotted[300];
    snprintf(rel, sizeof rel, "%s/./file", dir);
    snprintf(dotted, sizeof dotted, "%s/../%s/file", dir, strrchr(dir, '/') + 1);
    assert_true(bench_same_file(in_dir("file"), rel));
    assert_true(bench_same_file(in_dir("file"), dotted));
    assert_int_equal(symlink("file", in_dir("link")), 0);
    assert_true(bench_same_file(in_dir("file"), in_dir("link")));
    assert_true(bench_same_file(in_dir("new/x"), in_dir("new/./x")));  /* a directory still to create */
    assert_false(bench_same_file(in_dir("file"), in_dir("other")));
    assert_false(bench_same_file(in_dir("new/x"), in_dir("new/y")));
    unlink(in_dir("link"));
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_a_file_into_the_model),
        cmocka_unit_test(test_refuses_what_breaks_the_schema),
        cmocka_unit_test(test_bounds_the_input),
        cmocka_unit_test(test_writes_whole_files),
        cmocka_unit_test(test_special_files_in_place),
        cmocka_unit_test(test_checks_outputs_before_writing),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
