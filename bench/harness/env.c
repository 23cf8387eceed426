#define _POSIX_C_SOURCE 200809L
#include "env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "bench_version.h"
#include "rtipc/rtipc.h"

#if RTIPC_PORT_FREERTOS
#include "FreeRTOS.h"
#include "task.h"
#endif

static void cpu_model(char *out, size_t len)
{
    snprintf(out, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *v = strchr(line, ':');
            if (v) {
                v++;
                while (*v == ' ' || *v == '\t')
                    v++;
                v[strcspn(v, "\n")] = 0;
                snprintf(out, len, "%s", v);
            }
            break;
        }
    }
    fclose(f);
}

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
    cpu_model(env->cpu_model, sizeof env->cpu_model);
    env->cores_online = (int)sysconf(_SC_NPROCESSORS_ONLN);
    struct utsname u;
    if (uname(&u) == 0) {
#if RTIPC_PORT_FREERTOS
        /* The FreeRTOS POSIX simulator: the kernel's version first, the
         * host it simulates on after. */
        env->cores_online = rtipc_core_count();
        snprintf(env->kernel, sizeof env->kernel, "FreeRTOS %s, POSIX simulator (GCC_POSIX) on %.32s %.64s %.32s",
                 tskKERNEL_VERSION_NUMBER, u.sysname, u.release, u.machine);
#else
        snprintf(env->kernel, sizeof env->kernel, "%s %s %s", u.sysname, u.release, u.machine);
#endif
        snprintf(env->hostname, sizeof env->hostname, "%s", u.nodename);
    }
    snprintf(env->sched_policy, sizeof env->sched_policy, "%s", rtipc_sched_policy_describe());
    env->sched_fifo = rtipc_sched_policy() == RTIPC_SCHED_FIFO;
    snprintf(env->compiler, sizeof env->compiler, "%s", BENCH_COMPILER);
    snprintf(env->cflags, sizeof env->cflags, "%s", BENCH_CFLAGS);
    snprintf(env->rtipc_version, sizeof env->rtipc_version, "%s", BENCH_RTIPC_VERSION);
    snprintf(env->git_commit, sizeof env->git_commit, "%s", BENCH_GIT_COMMIT);
    env->tick_hz = rtipc_tick_rate();
    snprintf(env->clock_source, sizeof env->clock_source, "%s", rtipc_cycles_source());
    env->clock_hz = rtipc_cycles_hz();
    struct timespec res;
    env->clock_resolution_ns = clock_getres(CLOCK_MONOTONIC, &res) == 0
                                   ? (double)res.tv_sec * 1e9 + (double)res.tv_nsec
                                   : -1;
    env->timestamp_overhead_ns = timestamp_overhead();
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(env->started_utc, sizeof env->started_utc, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
