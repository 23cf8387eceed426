#define _GNU_SOURCE /* CPU_* macros, pthread_setaffinity_np */
#include "test_support.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

rtipc_task_t *start_task(const char *name, unsigned priority, int core, rtipc_task_fn fn, void *arg)
{
    rtipc_task_config_t cfg = {.name = name, .priority = priority, .core = core, .entry = fn, .arg = arg};
    rtipc_task_t *t = NULL;
    assert_int_equal(rtipc_task_create(&cfg, &t), RTIPC_OK);
    assert_non_null(t);
    return t;
}

void join_task(rtipc_task_t *t) { assert_int_equal(rtipc_task_join(t), RTIPC_OK); }

void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

int test_core(int which) { return rtipc_core_count() >= 2 ? which : RTIPC_CORE_ANY; }

int pin_self_to_cpu(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

void pin_main_to_core0(void)
{
    if (rtipc_core_count() < 2)
        return;
    (void)pin_self_to_cpu(0);
}

unsigned long long vm_size_bytes(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[256];
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmSize: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return kb * 1024ull;
}

int wait_for_flag(const volatile int *flag, int want, unsigned ms)
{
    /* Bounded by the clock, not by a count of sleeps (which overrun). */
    int64_t deadline = rtipc_time_ns() + (int64_t)ms * 1000000;
    while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != want) {
        if (rtipc_time_ns() >= deadline)
            return 0;
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    return 1;
}

long stress_count(long base)
{
    const char *s = getenv("RTIPC_STRESS_SCALE");
    double f = s ? atof(s) : 1.0;
    if (f <= 0)
        f = 1.0;
    long n = (long)((double)base * f);
    return n > 0 ? n : 1;
}

/* The port's per-thread interrupt flag (src/port/posix/task_internal.h). */
extern _Thread_local _Bool rtipc__in_interrupt;

void enter_interrupt_context(void) { rtipc__in_interrupt = 1; }
void leave_interrupt_context(void) { rtipc__in_interrupt = 0; }
