/* The helpers the bench code shares: the first-failure record
 * (bench/harness/failure.h) and whole-file reading (bench/harness/util.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/failure.h"
#include "harness/util.h"

static void test_first_failure_is_kept(void **state)
{
    (void)state;
    bench_failure_t f = {0};
    assert_false(bench_failure_is_set(&f));
    assert_true(bench_failure_set(&f, "send of message %ld failed with %d", 7L, -3));
    assert_true(bench_failure_is_set(&f));
    assert_false(bench_failure_set(&f, "a consequence: %s", "receiver unblocked"));
    assert_string_equal(f.why, "send of message 7 failed with -3");
}

static void test_long_reason_is_truncated(void **state)
{
    (void)state;
    bench_failure_t f = {0};
    char long_text[600];
    memset(long_text, 'x', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = 0;
    assert_true(bench_failure_set(&f, "%s", long_text));
    assert_int_equal(strlen(f.why), sizeof f.why - 1);
}

typedef struct {
    bench_failure_t *f;
    pthread_barrier_t *start;
    int number;
    bool won;
} racer_t;

enum { RACERS = 8 };

static void *race(void *arg)
{
    racer_t *r = arg;
    pthread_barrier_wait(r->start);
    r->won = bench_failure_set(r->f, "racer %d", r->number);
    return NULL;
}

/* Threads that fail together: exactly one records its reason, intact. */
static void test_one_of_many_threads_wins(void **state)
{
    (void)state;
    for (int trial = 0; trial < 50; trial++) {
        bench_failure_t f = {0};
        pthread_barrier_t start;
        assert_int_equal(pthread_barrier_init(&start, NULL, RACERS), 0);
        pthread_t t[RACERS];
        racer_t r[RACERS];
        for (int i = 0; i < RACERS; i++) {
            r[i] = (racer_t){.f = &f, .start = &start, .number = i, .won = false};
            assert_int_equal(pthread_create(&t[i], NULL, race, &r[i]), 0);
        }
        int winners = 0, winner = -1;
        for (int i = 0; i < RACERS; i++) {
            pthread_join(t[i], NULL);
            if (r[i].won) {
                winners++;
                winner = i;
            }
        }
        pthread_barrier_destroy(&start);
        assert_int_equal(winners, 1);
        char expected[32];
        snprintf(expected, sizeof expected, "racer %d", winner);
        assert_string_equal(f.why, expected);
    }
}

/* Writes size bytes of data to a fresh temporary file, reads it back with
 * bench_read_file and removes it: the set-up of the file tests. */
static char *read_back(const char *data, size_t size)
{
    char path[] = "/tmp/bench-helpers-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, size), (ssize_t)size);
    close(fd);
    char *text = bench_read_file(path);
    unlink(path);
    return text;
}

/* A file of FILL bytes (a multiple of the 64 KiB first buffer and more, so
 * that it has to grow), read back whole and NUL-terminated. */
static void test_reads_whole_file(void **state)
{
    (void)state;
    size_t size = 3 * 65536 + 17;
    char *data = malloc(size);
    assert_non_null(data);
    for (size_t i = 0; i < size; i++)
        data[i] = (char)('a' + i % 26);
    char *text = read_back(data, size);
    assert_non_null(text);
    assert_int_equal(strlen(text), size);
    assert_memory_equal(text, data, size);
    free(text);
    free(data);
}

static void test_empty_file_is_empty_string(void **state)
{
    (void)state;
    char *text = read_back("", 0);
    assert_non_null(text);
    assert_string_equal(text, "");
    assert_int_equal(strlen(text), 0);
    free(text);
}

static void test_unreadable_paths_set_errno(void **state)
{
    (void)state;
    errno = 0;
    assert_null(bench_read_file("/nonexistent-dir/no-such-file"));
    assert_int_equal(errno, ENOENT);
    errno = 0;
    assert_null(bench_read_file("/"));  /* opens, but reading fails */
    assert_int_equal(errno, EISDIR);
}

static void test_set_error_formats_into_buffer(void **state)
{
    (void)state;
    char err[16];
    bench_set_error(err, sizeof err, "cannot read %s: %s", "x.json", "No such file");
    assert_string_equal(err, "cannot read x.j");  /* cut to the buffer */
    bench_set_error(NULL, 0, "ignored %d", 1);      /* no buffer: nothing happens */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_failure_is_kept),
        cmocka_unit_test(test_long_reason_is_truncated),
        cmocka_unit_test(test_one_of_many_threads_wins),
        cmocka_unit_test(test_reads_whole_file),
        cmocka_unit_test(test_empty_file_is_empty_string),
        cmocka_unit_test(test_unreadable_paths_set_errno),
        cmocka_unit_test(test_set_error_formats_into_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
