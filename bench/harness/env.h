/* The environment a run measured in, recorded with every result set. The
 * platform's part comes from the target seam (target/target.h). */
#ifndef BENCH_ENV_H
#define BENCH_ENV_H

#include <stddef.h>
#include <stdint.h>

#include "../target/clock.h"
#include "../target/target.h"

typedef struct bench_env {
    char target[16];              /* bench_target_name() */
    char cpu_model[128];
    int cores_online;
    char kernel[200];             /* uname -srm; on FreeRTOS the kernel's version first */
    char hostname[72];
    char sched_policy[160];       /* what rtipc says is in force, and why */
    int sched_fifo;               /* 1 when SCHED_FIFO priorities are real */
    char priorities[160];         /* the priorities the experiments use */
    char compiler[96];
    char cflags[192];
    char rtipc_version[32];
    char git_commit[48];
    uint32_t tick_hz;
    bench_clock_t clock;          /* the timestamps' clock (bench_target_clock) */
    bench_clock_t core_clock;     /* a core's own finer clock, for spans within one core
                                     (bench_target_core_clock), where has_core_clock */
    int has_core_clock;
    double timestamp_overhead_ns; /* median back-to-back bench_now_ns() delta */
    double stamp_resolution;      /* grain of a stamp pair (bench_target_stamp_*), in clock.unit */
    bench_memory_t memory;        /* the target's memory figures after the run */
    int cpu[2];                   /* CPUs playing core 0 and core 1 */
    uint64_t seed;
    char started_utc[32];         /* ISO 8601 */
    int quick;
    int memory_locked;            /* memory stays resident (bench_target_lock_memory) */
} bench_env_t;

/* Fill *env (the target's description, rtipc's scheduling and tick, the
 * build); measures the timestamp overhead (takes ~10 ms). */
void bench_env_collect(bench_env_t *env);

/* ESP-IDF's version for env.kernel, into DST (N bytes): REPORTED
 * (esp_get_idf_version()) when it names a release ("v5.1.6",
 * "v5.1.6-dirty"); otherwise, as when ESP-IDF was built from a tree with
 * neither git history nor version.txt ("HEAD-HASH-NOTFOUND", or NULL),
 * "vMAJOR.MINOR.PATCH" from esp_idf_version.h's numbers. Returns DST. */
const char *bench_env_idf_version(char *dst, size_t n, const char *reported, int major, int minor, int patch);

#endif
