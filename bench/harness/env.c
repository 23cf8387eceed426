#include "env.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment.h"
#include "bench_version.h"
#include "rtipc/rtipc.h"

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Median cost of one timestamp: back-to-back reads, many times. The samples
 * are on the heap for the moment they are needed (an MCU firmware should not
 * keep 160 KiB of static memory for this); with less memory, fewer. */
static double timestamp_overhead(void)
{
    size_t n = 20001;
    int64_t *d = malloc(n * sizeof *d);
    if (!d) {
        n = 1001;
        d = malloc(n * sizeof *d);
        if (!d)
            return 0;
    }
    for (size_t i = 0; i < n; i++) {
        int64_t a = bench_now_ns();
        int64_t b = bench_now_ns();
        d[i] = b - a;
    }
    qsort(d, n, sizeof d[0], cmp_i64);
    double median = (double)d[n / 2];
    free(d);
    return median;
}

const char *bench_env_idf_version(char *dst, size_t n, const char *reported, int major, int minor, int patch)
{
    bool release = reported && reported[0] == 'v' && reported[1] >= '0' && reported[1] <= '9';
    if (release)
        snprintf(dst, n, "%s", reported);
    else
        snprintf(dst, n, "v%d.%d.%d", major, minor, patch);
    return dst;
}

void bench_env_collect(bench_env_t *env)
{
    bench_target_describe(env);
    snprintf(env->compiler, sizeof env->compiler, "%s", BENCH_COMPILER);
    snprintf(env->cflags, sizeof env->cflags, "%s", BENCH_CFLAGS);
    snprintf(env->rtipc_version, sizeof env->rtipc_version, "%s", BENCH_RTIPC_VERSION);
    snprintf(env->git_commit, sizeof env->git_commit, "%s", BENCH_GIT_COMMIT);
    env->has_core_clock = bench_target_core_clock(&env->core_clock);
    env->timestamp_overhead_ns = timestamp_overhead();
    env->stamp_resolution = bench_target_stamp_resolution();
    env->memory.kind = BENCH_MEMORY_NONE;
    env->memory.now_bytes = env->memory.extreme_bytes = -1;
}
