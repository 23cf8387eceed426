/* The host-process helpers of host.h (Linux and the FreeRTOS POSIX
 * simulator). */
#define _GNU_SOURCE  /* RUSAGE_THREAD, pthread_getattr_np */
#include "host.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

void bench_host_cpu_model(char *out, size_t len)
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

void bench_host_uname(char *os, size_t os_len, char *host, size_t host_len)
{
    struct utsname u;
    if (uname(&u) != 0) {
        snprintf(os, os_len, "unknown");
        snprintf(host, host_len, "unknown");
        return;
    }
    snprintf(os, os_len, "%.64s %.64s %.32s", u.sysname, u.release, u.machine);
    snprintf(host, host_len, "%s", u.nodename);
}

void bench_host_utc_now(char *out, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm) == NULL || strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(out, len, "unknown");
}

int bench_host_cpus_online(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int64_t bench_host_thread_cpu_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return -1;
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

long bench_host_thread_switches(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) != 0)
        return 0;
    return ru.ru_nvcsw + ru.ru_nivcsw;
}

void bench_host_memory(bench_memory_t *out)
{
    out->kind = BENCH_MEMORY_RESIDENT;
    out->now_bytes = -1;
    out->extreme_bytes = -1;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        long size, resident;
        if (fscanf(f, "%ld %ld", &size, &resident) == 2 && resident >= 0)
            out->now_bytes = (int64_t)resident * sysconf(_SC_PAGESIZE);
        fclose(f);
    }
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        out->extreme_bytes = (int64_t)ru.ru_maxrss * 1024;  /* Linux reports KiB */
    /* The kernel updates the peak lazily: it is never below the current set. */
    if (out->now_bytes > out->extreme_bytes)
        out->extreme_bytes = out->now_bytes;
}

int bench_host_lock_memory(void) { return mlockall(MCL_CURRENT | MCL_FUTURE) == 0; }

size_t bench_host_thread_stack(void)
{
    pthread_attr_t a;
    void *addr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &a) == 0) {
        if (pthread_attr_getstack(&a, &addr, &size) != 0)
            size = 0;
        pthread_attr_destroy(&a);
    }
    return size;
}

double bench_host_clock_resolution_ns(const char *name)
{
    clockid_t id = name && strcmp(name, "clock_monotonic_raw") == 0 ? CLOCK_MONOTONIC_RAW : CLOCK_MONOTONIC;
    struct timespec res;
    if (clock_getres(id, &res) != 0)
        return -1;
    return (double)res.tv_sec * 1e9 + (double)res.tv_nsec;
}
