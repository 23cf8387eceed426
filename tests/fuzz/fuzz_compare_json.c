/* libFuzzer harness for `rtipc-bench compare` reading its JSON files
 * (bench/host/compare/compare.c through the reader every command shares,
 * bench/results/read.c; tests/fuzz/README.md).
 *
 * The input is split at its first NUL byte: the bytes before it are the BASE
 * file, the bytes after it the NEW file; an input without a NUL is compared
 * with itself. Both are written to files in a private temporary directory
 * and bench_compare_main runs on them exactly as `rtipc-bench compare BASE
 * NEW` would (compare.c is used unchanged: it reads files, and a temporary
 * file is all it takes to feed it).
 *
 * Checked, beyond "no crash, leak or undefined behaviour" (the sanitizers):
 * - the exit status is 0, 1 or 2 (compare.h);
 * - a file that is not JSON, whose top level is not an object, whose
 *   "schema" is not the string "rtipc-bench/1", whose "env" is present and
 *   not an object, or whose "results" is not an array must give status 2
 *   (an invalid file), never 0 or 1;
 * - a file compared with itself cannot regress: the status is 0 or 2.
 *
 * Cost: the reader (bench/results/read.c) bootstraps the median of every
 * distribution row that has a histogram and no p50_ci95, 200 resamples of
 * up to BENCH_BOOTSTRAP_MAX_DRAWS (10^5) draws each, and stops at
 * BENCH_RESULTS_BOOTSTRAP_BUDGET (5 x 10^7 draws) per file: bounded, but
 * still a second or more per input under the sanitizers. Inputs whose
 * histograms would cost more than DRAW_BUDGET draws in all are skipped (and
 * kept out of the corpus) so that the fuzzer stays fast; bench_input.sh
 * covers the budget itself. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/compare/compare.h"
#include "results/read.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The harness's own messages: a copy of stderr taken at start-up, so they
 * survive -close_fd_mask=2 (which run.sh passes to silence compare.c's one
 * line per invalid file; libFuzzer and the sanitizers keep their own copy). */
static FILE *msg;

static char dir[] = "/tmp/rtipc_fuzz_compare_XXXXXX";
static char base_path[sizeof dir + 16], new_path[sizeof dir + 16];

static void cleanup(void)
{
    unlink(base_path);
    unlink(new_path);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    int fd = dup(2);
    msg = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!msg)
        msg = stderr;
    setvbuf(msg, NULL, _IONBF, 0);
    if (!mkdtemp(dir)) {
        perror("fuzz_compare_json: mkdtemp");
        abort();
    }
    snprintf(base_path, sizeof base_path, "%s/base.json", dir);
    snprintf(new_path, sizeof new_path, "%s/new.json", dir);
    atexit(cleanup);
    /* The comparison tables are not the point; the status is. */
    if (!freopen("/dev/null", "w", stdout)) {
        perror("fuzz_compare_json: /dev/null");
        abort();
    }
    return 0;
}

static void write_file(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f) != 0) {
        perror("fuzz_compare_json: writing the input");
        abort();
    }
}

/* The input bytes as cJSON (NULL when not JSON); the text ends at the first
 * NUL, as compare.c reads it. */
static cJSON *parse_bytes(const uint8_t *p, size_t n)
{
    char *text = malloc(n + 1);
    if (!text)
        abort();
    memcpy(text, p, n);
    text[n] = 0;
    cJSON *root = cJSON_ParseWithOpts(text, NULL, 1);
    free(text);
    return root;
}

/* The top-level checks of docs/json-schema.md that any loader must make,
 * done independently of compare.c with cJSON: false means the file must be
 * refused. The text is read as compare.c reads it, up to its first NUL. */
static bool top_level_ok(const uint8_t *p, size_t n)
{
    cJSON *root = parse_bytes(p, n);
    if (!root)
        return false;
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
    const cJSON *env = cJSON_GetObjectItemCaseSensitive(root, "env");
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(root, "results");
    bool ok = cJSON_IsObject(root) && cJSON_IsString(schema) && !strcmp(schema->valuestring, "rtipc-bench/1") &&
              (!env || cJSON_IsObject(env)) && cJSON_IsArray(results);
    cJSON_Delete(root);
    return ok;
}

#define DRAW_BUDGET 4e7

/* Draws the bootstraps of one file could take (an upper bound: every
 * histogram of a results entry counts, whether or not the reader uses it),
 * at most the reader's budget per file. */
static double bootstrap_draws(const cJSON *root)
{
    double draws = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(root, "results")) {
        const cJSON *pair, *h = cJSON_GetObjectItemCaseSensitive(row, "histogram");
        double samples = 0;
        cJSON_ArrayForEach(pair, cJSON_GetObjectItemCaseSensitive(h, "buckets")) {
            const cJSON *count = cJSON_GetArrayItem(pair, 1);
            if (cJSON_IsNumber(count) && count->valuedouble > 0)
                samples += count->valuedouble;
        }
        draws += (double)BENCH_RESULTS_BOOTSTRAP_RESAMPLES *
                 (samples < BENCH_BOOTSTRAP_MAX_DRAWS ? samples : BENCH_BOOTSTRAP_MAX_DRAWS);
    }
    return draws < (double)BENCH_RESULTS_BOOTSTRAP_BUDGET ? draws : (double)BENCH_RESULTS_BOOTSTRAP_BUDGET;
}

static double parse_draws(const uint8_t *p, size_t n)
{
    cJSON *root = parse_bytes(p, n);
    double draws = root && cJSON_IsObject(root) ? bootstrap_draws(root) : 0;
    cJSON_Delete(root);
    return draws;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size);
    size_t base_n = nul ? (size_t)(nul - data) : size;
    const uint8_t *fresh = nul ? nul + 1 : data;
    size_t fresh_n = nul ? size - base_n - 1 : size;
    if (parse_draws(data, base_n) + parse_draws(fresh, fresh_n) > DRAW_BUDGET)
        return -1; /* too slow to be worth it; see the file comment */
    write_file(base_path, data, base_n);
    write_file(new_path, fresh, fresh_n);

    char arg0[] = "compare";
    char *argv[] = {arg0, base_path, new_path, NULL};
    int status = bench_compare_main(3, argv);
    fflush(stdout);

    if (status < 0 || status > 2) {
        fprintf(msg, "fuzz_compare_json: status %d is not 0, 1 or 2\n", status);
        abort();
    }
    bool base_ok = top_level_ok(data, base_n), fresh_ok = top_level_ok(fresh, fresh_n);
    if ((!base_ok || !fresh_ok) && status != 2) {
        fprintf(msg, "fuzz_compare_json: status %d for an invalid %s file (expected 2)\n", status,
                base_ok ? "NEW" : "BASE");
        abort();
    }
    if (!nul && status == 1) {
        fprintf(msg, "fuzz_compare_json: a file compared with itself regressed (status 1)\n");
        abort();
    }
    return 0;
}
