/* The target seam on a Linux host (target.h): rtipc's POSIX port for
 * tasks, interrupts and the cycle counter, the host's clocks, /proc and
 * files for the rest. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../harness/env.h"
#include "host.h"
#include "rtipc/rtipc.h"
#include "target.h"

const char *bench_target_name(void) { return "linux"; }

/* The core's interrupt thread sleeps until each expiry (rtipc/irq.h). */
bool bench_target_irq_timer_between_ticks(const rtipc_irq_t *irq)
{
    (void)irq;
    return true;
}

int bench_target_core_count(void) { return rtipc_core_count(); }

unsigned bench_target_features(void)
{
    unsigned f = BENCH_TARGET_TASKS | BENCH_TARGET_INTERRUPTS | BENCH_TARGET_THREAD_CPU_TIME | BENCH_TARGET_FILES;
    if (bench_target_core_count() >= 2)
        f |= BENCH_TARGET_TWO_CORES;
    return f;
}

/* ---- clock ---- */

int64_t bench_target_now_ns(void) { return bench_rtipc_cycles_ns(); }

void bench_target_clock(bench_clock_t *out)
{
    const char *source = rtipc_cycles_source();
    bool counter = strcmp(source, "tsc") == 0 || strcmp(source, "cntvct") == 0;
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", source);
    out->provenance = counter ? BENCH_CLOCK_HOST_TSC : BENCH_CLOCK_OS;
    snprintf(out->unit, sizeof out->unit, "%s", bench_clock_provenance_unit(out->provenance));
    out->rate_hz = rtipc_cycles_hz();
    /* A counter steps by one count; the OS clock by what clock_getres says. */
    out->resolution = counter ? 1e9 / out->rate_hz : bench_host_clock_resolution_ns(source);
}

/* The host's counter is the run's clock already, and one for every CPU. */
bool bench_target_core_clock(bench_clock_t *out)
{
    (void)out;
    return false;
}

int64_t bench_target_core_now_ns(void) { return bench_target_now_ns(); }

/* ---- sleeping ---- */

void bench_target_sleep_ns(int64_t ns)
{
    if (ns <= 0)
        return;
    struct timespec ts = {.tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000};
    nanosleep(&ts, NULL);
}

void bench_target_delay_ns(int64_t ns)
{
    if (ns > 0)
        rtipc_task_delay(rtipc_ns(ns));
}

int64_t bench_target_sleep_overshoot_ns(void) { return 0; }

/* ---- per-task accounting ---- */

int64_t bench_target_thread_cpu_ns(void) { return bench_host_thread_cpu_ns(); }

long bench_target_thread_switches(void) { return bench_host_thread_switches(); }

/* ---- tasks ---- */

size_t bench_target_task_stack(size_t requested, const char **how)
{
    (void)requested;  /* the thread's own figure is what it got */
    if (how)
        *how = "pthread_getattr_np";
    return bench_host_thread_stack();
}

/* rtipc is the kernel here: every task is rtipc's, native or not. */
struct bench_task {
    rtipc_task_t *rtipc;
};

int bench_target_task_start(const bench_task_spec_t *spec, bench_task_t **out)
{
    bench_task_t *t = malloc(sizeof *t);
    if (!t)
        return RTIPC_ENOMEM;
    rtipc_task_config_t cfg = {.name = spec->name, .priority = spec->priority, .core = spec->core,
                               .stack_size = spec->stack_bytes, .entry = spec->entry, .arg = spec->arg};
    int rc = rtipc_task_create(&cfg, &t->rtipc);
    if (rc != 0) {
        free(t);
        return rc;
    }
    *out = t;
    return 0;
}

int bench_target_task_join(bench_task_t *task)
{
    int rc = rtipc_task_join(task->rtipc);
    if (rc == 0)
        free(task);
    return rc;
}

int bench_target_task_delete(bench_task_t *task)
{
    int rc = rtipc_task_delete(task->rtipc);
    if (rc == 0)
        free(task);
    return rc;
}

rtipc_task_t *bench_target_task_rtipc(const bench_task_t *task) { return task->rtipc; }

void *bench_target_task_kernel(const bench_task_t *task)
{
    (void)task;
    return NULL;
}

unsigned bench_target_native_strays(void) { return 0; }

/* Interrupt sources are rtipc's own: rtipc_targets.c. */

/* ---- memory ---- */

void bench_target_memory(bench_memory_t *out) { bench_host_memory(out); }

int bench_target_lock_memory(void) { return bench_host_lock_memory(); }

/* ---- environment ---- */

void bench_target_describe(bench_env_t *env)
{
    bench_rtipc_describe(env);
    snprintf(env->target, sizeof env->target, "%s", bench_target_name());
    bench_host_cpu_model(env->cpu_model, sizeof env->cpu_model);
    env->cores_online = bench_host_cpus_online();
    bench_host_uname(env->kernel, sizeof env->kernel, env->hostname, sizeof env->hostname);
    bench_host_utc_now(env->started_utc, sizeof env->started_utc);
    snprintf(env->priorities, sizeof env->priorities,
             "rtipc priorities: producer 10, consumer 12, load 2-4, interrupts above all; %s",
             env->sched_fifo ? "SCHED_FIFO 10+p" : "logical only (SCHED_OTHER)");
    bench_target_clock(&env->clock);
}

/* No signal lines on this target (target.h). */
bool bench_target_has_signals(void) { return false; }
void bench_target_signal(bench_signal_t line, bool high) { (void)line, (void)high; }
