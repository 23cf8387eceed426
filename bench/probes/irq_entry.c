/* Measures the two candidate mechanisms for rtipc's interrupt emulation on
 * Linux, so the choice in docs/design.md rests on numbers from this machine:
 *
 *   signal:  pthread_kill(task, SIGUSR1) -> handler entry on the task's thread
 *   thread:  futex wake of a SCHED_FIFO interrupt thread pinned to the core ->
 *            that thread running
 *
 * Each is measured with the target core's task busy (the interrupt must
 * preempt it) and with the target core idle (the task asleep). Latency spans
 * "trigger call entered" to "first instruction of the handler", from the
 * invariant TSC (rtipc_cycles). Usage: rtipc-probe-irq-entry [samples]. */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "rtipc/time.h"

static _Atomic uint64_t t_entry;
static _Atomic uint32_t irq_word;
static _Atomic int stop_busy, handled;

static void pin(int core)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(core, &s);
    pthread_setaffinity_np(pthread_self(), sizeof s, &s);
}

static int set_fifo(int prio)
{
    struct sched_param sp = {.sched_priority = prio};
    return pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
}

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&t_entry, rtipc_cycles());
    atomic_store(&handled, 1);
}

/* The task on the target core: busy-loops, or sleeps in pause(). */
static int busy_mode;
static void *victim(void *arg)
{
    pin(*(int *)arg);
    set_fifo(20);
    while (!atomic_load(&stop_busy)) {
        if (!busy_mode)
            pause();
    }
    return NULL;
}

static void *irq_thread(void *arg)
{
    pin(*(int *)arg);
    set_fifo(90);
    for (;;) {
        uint32_t w = atomic_load(&irq_word);
        if (w == 2)
            return NULL;
        if (w == 1) {
            atomic_store(&t_entry, rtipc_cycles());
            atomic_store(&irq_word, 0);
            atomic_store(&handled, 1);
            continue;
        }
        syscall(SYS_futex, &irq_word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
    }
}

static int cmp(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void report(const char *name, int64_t *ns, int n)
{
    qsort(ns, (size_t)n, sizeof *ns, cmp);
    printf("%-34s n=%-6d min %7.2f  p50 %7.2f  p99 %8.2f  p99.9 %8.2f  max %9.2f us\n", name, n, ns[0] / 1e3,
           ns[n / 2] / 1e3, ns[n * 99 / 100] / 1e3, ns[n * 999 / 1000] / 1e3, ns[n - 1] / 1e3);
}

static void wait_handled(void)
{
    while (!atomic_load(&handled))
        ;
    atomic_store(&handled, 0);
}

static void run(int mechanism_signal, int busy, int core, int n, const char *name)
{
    int64_t *ns = calloc((size_t)n, sizeof *ns);
    pthread_t v, irq;
    busy_mode = busy;
    atomic_store(&stop_busy, 0);
    atomic_store(&irq_word, 0);
    pthread_create(&v, NULL, victim, &core);
    if (!mechanism_signal)
        pthread_create(&irq, NULL, irq_thread, &core);
    struct timespec gap = {0, 200000};
    nanosleep(&gap, NULL);
    atomic_store(&handled, 0); /* drop a flag left by the previous run's stop signal */
    for (int i = 0; i < n; ++i) {
        nanosleep(&(struct timespec){0, 50000}, NULL);
        uint64_t t0 = rtipc_cycles();
        if (mechanism_signal) {
            pthread_kill(v, SIGUSR1);
        } else {
            atomic_store(&irq_word, 1);
            syscall(SYS_futex, &irq_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        }
        wait_handled();
        ns[i] = rtipc_cycles_to_ns(atomic_load(&t_entry) - t0);
    }
    atomic_store(&stop_busy, 1);
    pthread_kill(v, SIGUSR1);
    pthread_join(v, NULL);
    if (!mechanism_signal) {
        atomic_store(&irq_word, 2);
        syscall(SYS_futex, &irq_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        pthread_join(irq, NULL);
    }
    report(name, ns, n);
    free(ns);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 5000;
    if (n < 1000)
        n = 1000;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGUSR1, &sa, NULL);
    pin(0);
    int fifo = set_fifo(50) == 0;
    printf("policy: %s; trigger on core 0, target core 1; TSC via rtipc_cycles (%s)\n",
           fifo ? "SCHED_FIFO" : "SCHED_OTHER (SCHED_FIFO refused)", rtipc_cycles_source());
    run(1, 1, 1, n, "signal, target task busy");
    run(1, 0, 1, n, "signal, target task asleep");
    run(0, 1, 1, n, "interrupt thread, core task busy");
    run(0, 0, 1, n, "interrupt thread, core task asleep");
    return 0;
}
