/* Time for experiments: the target's clocks, sleeps and spins, and the
 * per-thread figures (target/target.h), with the run's core clock. */
#include "../target/target.h"
#include "rtipc/spin.h"
#include "run.h"

int64_t bench_now_ns(void) { return bench_target_now_ns(); }

int64_t bench_core_now_ns(void) { return bench_target_core_now_ns(); }

bool bench_has_core_clock(const bench_run_t *run) { return run->core_clock != NULL; }

void bench_row_core_clocked(const bench_run_t *run, bench_result_t *row)
{
    if (row && run->core_clock && row->clock[0])
        row->clock = run->core_clock;
}

void bench_spin_until(int64_t t)
{
    while (bench_now_ns() < t)
        rtipc_cpu_relax();
}

void bench_sleep_ns(int64_t ns) { bench_target_sleep_ns(ns); }

void bench_delay_ns(int64_t ns) { bench_target_delay_ns(ns); }

int64_t bench_sleep_overshoot_ns(void) { return bench_target_sleep_overshoot_ns(); }

void bench_sleep_until(int64_t t)
{
    for (int64_t left = t - bench_now_ns(); left > 0; left = t - bench_now_ns())
        bench_sleep_ns(left);
}

void bench_sleep_then_spin_until(int64_t t)
{
    int64_t margin = 100000 + bench_sleep_overshoot_ns();
    int64_t now = bench_now_ns();
    if (t - now > margin + 50000)
        bench_sleep_ns(t - now - margin);
    bench_spin_until(t);
}

int64_t bench_thread_cpu_ns(void) { return bench_target_thread_cpu_ns(); }

long bench_thread_switches(void) { return bench_target_thread_switches(); }

