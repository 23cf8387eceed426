/* The target seam without a kernel (target.h): rtipc's bare-metal port has
 * the lock-free objects (SPSC ring, mailbox) and nothing that blocks, so
 * there are no tasks and no interrupt layer here; this target says so in
 * its features and refuses those calls with RTIPC_ENOTSUP. What it has, the
 * clock, memory figures and the console, the board hands over at start-up
 * (bench_target_bare_setup): this file holds no board code. */
#include <stdio.h>
#include <string.h>

#include "../harness/env.h"
#include "console.h"
#include "rtipc/error.h"
#include "target.h"

static bench_bare_board_t board;
static uint64_t counter_origin;

void bench_target_bare_setup(const bench_bare_board_t *b)
{
    board = *b;
    snprintf(board.clock.unit, sizeof board.clock.unit, "%s",
             bench_clock_provenance_unit(board.clock.provenance));
    board.clock.rate_hz = board.counter_hz;
    counter_origin = board.read_counter();
}

const char *bench_target_name(void) { return "bare-metal"; }

int bench_target_core_count(void) { return 1; }

unsigned bench_target_features(void) { return 0; }

/* ---- clock ---- */

int64_t bench_target_now_ns(void)
{
    /* Through double, as rtipc_cycles_to_ns: exact to the count for days. */
    double ns = (double)(board.read_counter() - counter_origin) * 1e9 / board.counter_hz;
    return (int64_t)ns;
}

void bench_target_clock(bench_clock_t *out) { *out = board.clock; }

/* ---- sleeping: nothing else could run, so a sleep is a spin ---- */

void bench_target_sleep_ns(int64_t ns)
{
    int64_t until = bench_target_now_ns() + ns;
    while (bench_target_now_ns() < until)
        ;
}

int64_t bench_target_sleep_overshoot_ns(void) { return 0; }

/* ---- per-task accounting: one context, no kernel to count ---- */

int64_t bench_target_thread_cpu_ns(void) { return -1; }

long bench_target_thread_switches(void) { return 0; }

/* ---- tasks and interrupts: none ---- */

int bench_target_task_start(const bench_task_spec_t *spec, rtipc_task_t **out)
{
    (void)spec;
    *out = NULL;
    return RTIPC_ENOTSUP;
}

int bench_target_task_join(rtipc_task_t *task)
{
    (void)task;
    return RTIPC_ENOTSUP;
}

int bench_target_task_delete(rtipc_task_t *task)
{
    (void)task;
    return RTIPC_ENOTSUP;
}

size_t bench_target_task_stack(size_t requested, const char **how)
{
    (void)requested;
    if (how)
        *how = "no tasks on bare metal";
    return 0;
}

int bench_target_irq_create(int core, rtipc_isr_fn handler, void *arg, rtipc_irq_t **out)
{
    (void)core;
    (void)handler;
    (void)arg;
    *out = NULL;
    return RTIPC_ENOTSUP;
}

int bench_target_irq_trigger(rtipc_irq_t *irq)
{
    (void)irq;
    return RTIPC_ENOTSUP;
}

int bench_target_irq_delete(rtipc_irq_t *irq)
{
    (void)irq;
    return RTIPC_ENOTSUP;
}

/* ---- memory ---- */

void bench_target_memory(bench_memory_t *out)
{
    out->kind = BENCH_MEMORY_NONE;
    out->now_bytes = out->extreme_bytes = -1;
    if (board.memory)
        board.memory(out);
}

int bench_target_lock_memory(void) { return 1; }  /* no paging */

/* ---- environment ---- */

void bench_target_describe(bench_env_t *env)
{
    const char *what = board.description ? board.description : "unknown board";
    snprintf(env->target, sizeof env->target, "%s", bench_target_name());
    snprintf(env->cpu_model, sizeof env->cpu_model, "%s", what);
    env->cores_online = 1;
    snprintf(env->kernel, sizeof env->kernel, "none (bare metal) on %s", what);
    snprintf(env->hostname, sizeof env->hostname, "unknown");
    snprintf(env->started_utc, sizeof env->started_utc, "unknown");
    snprintf(env->priorities, sizeof env->priorities, "no tasks: one main loop (and the board's interrupts)");
    bench_target_clock(&env->clock);
}

/* ---- results sink: the console ---- */

int bench_target_output(const char *label, const char *path, const char *text, size_t len, char *err,
                        size_t errlen)
{
    (void)path;
    if (bench_console_output(label, text, len) == 0)
        return 0;
    snprintf(err, errlen, "cannot print %s on the console", label);
    return -1;
}

/* No signal lines on this target (target.h). */
bool bench_target_has_signals(void) { return false; }
void bench_target_signal(bench_signal_t line, bool high) { (void)line, (void)high; }
