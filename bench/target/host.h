/* What the targets that run as a process of a host OS share: Linux itself,
 * and FreeRTOS's POSIX simulator, whose tasks are host threads. Only target
 * implementations (linux.c, freertos.c) call these. */
#ifndef BENCH_TARGET_HOST_H
#define BENCH_TARGET_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "target.h"

/* `model name` of /proc/cpuinfo, or "unknown". */
void bench_host_cpu_model(char *out, size_t len);

/* The host's "sysname release machine" (uname -srm) into @p os and its node
 * name into @p host; "unknown" where uname fails. */
void bench_host_uname(char *os, size_t os_len, char *host, size_t host_len);

/* Now in UTC, ISO 8601 ("2025-01-31T12:00:00Z"). */
void bench_host_utc_now(char *out, size_t len);

/* Online CPUs (sysconf). */
int bench_host_cpus_online(void);

/* The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID), in ns. */
int64_t bench_host_thread_cpu_ns(void);

/* The calling thread's context switches (getrusage RUSAGE_THREAD), 0 when
 * the kernel does not say. */
long bench_host_thread_switches(void);

/* The process's resident set now and at its peak (BENCH_MEMORY_RESIDENT). */
void bench_host_memory(bench_memory_t *out);

/* mlockall(MCL_CURRENT | MCL_FUTURE): 1 when it succeeded. */
int bench_host_lock_memory(void);

/* The stack of the calling thread, in bytes (pthread_getattr_np), 0 when
 * unknown. */
size_t bench_host_thread_stack(void);

/* Resolution of a host clock (clock_getres), in ns; -1 when unknown. The
 * clock is named as rtipc_cycles_source() names its fallbacks:
 * "clock_monotonic_raw" or anything else for CLOCK_MONOTONIC. */
double bench_host_clock_resolution_ns(const char *name);

#endif
