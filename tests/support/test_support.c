/* The helpers of test_support.h on the Linux port, beside
 * test_support_common.c (tests/freertos/test_support_freertos.c is the
 * FreeRTOS port's). */
#define _GNU_SOURCE /* CPU_* macros, pthread_setaffinity_np */
#include "test_support.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

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

/* The port's per-thread interrupt flag (src/port/posix/kernel/task_internal.h). */
extern _Thread_local _Bool rtipc__in_interrupt;

void enter_interrupt_context(void) { rtipc__in_interrupt = 1; }
void leave_interrupt_context(void) { rtipc__in_interrupt = 0; }
