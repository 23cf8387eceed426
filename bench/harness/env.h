/* The environment a run measured in, recorded with every result set. */
#ifndef BENCH_ENV_H
#define BENCH_ENV_H

#include <stdint.h>

typedef struct {
    char cpu_model[128];
    int cores_online;
    char kernel[200];             /* uname -srm */
    char hostname[72];
    char sched_policy[160];       /* what rtipc says is in force, and why */
    int sched_fifo;               /* 1 when SCHED_FIFO priorities are real */
    char priorities[160];         /* the priorities the experiments use */
    char compiler[96];
    char cflags[192];
    char rtipc_version[32];
    char git_commit[48];
    uint32_t tick_hz;
    char clock_source[32];        /* rtipc_cycles_source() */
    double clock_hz;              /* calibrated cycle-counter rate */
    double clock_resolution_ns;   /* clock_getres(CLOCK_MONOTONIC) */
    double timestamp_overhead_ns; /* median back-to-back bench_now_ns() delta */
    int cpu[2];                   /* CPUs playing core 0 and core 1 */
    uint64_t seed;
    char started_utc[32];         /* ISO 8601 */
    int quick;
    int memory_locked;            /* mlockall succeeded */
} bench_env_t;

/* Fill *env; measures the timestamp overhead (takes ~10 ms). */
void bench_env_collect(bench_env_t *env);

#endif
