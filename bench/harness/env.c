#include "env.h"

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

/* Median cost of one timestamp: back-to-back reads, many times. */
static double timestamp_overhead(void)
{
    enum { N = 20001 };
    static int64_t d[N];
    for (int i = 0; i < N; i++) {
        int64_t a = bench_now_ns();
        int64_t b = bench_now_ns();
        d[i] = b - a;
    }
    qsort(d, N, sizeof d[0], cmp_i64);
    return (double)d[N / 2];
}

void bench_env_collect(bench_env_t *env)
{
    bench_target_describe(env);
    snprintf(env->compiler, sizeof env->compiler, "%s", BENCH_COMPILER);
    snprintf(env->cflags, sizeof env->cflags, "%s", BENCH_CFLAGS);
    snprintf(env->rtipc_version, sizeof env->rtipc_version, "%s", BENCH_RTIPC_VERSION);
    snprintf(env->git_commit, sizeof env->git_commit, "%s", BENCH_GIT_COMMIT);
    env->timestamp_overhead_ns = timestamp_overhead();
    env->memory.kind = BENCH_MEMORY_NONE;
    env->memory.now_bytes = env->memory.extreme_bytes = -1;
}
