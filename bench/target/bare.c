/* The target seam without a kernel (target.h): rtipc's bare-metal port has
 * the lock-free objects (SPSC ring, mailbox) and nothing that blocks, so
 * there are no tasks and no tick here; this target says so in its features
 * and refuses those calls with RTIPC_ENOTSUP. What it has, the clock, finer
 * stamps, memory figures, one software interrupt line and the console, the
 * board hands over at start-up (bench_target_bare_setup): this file holds
 * no board code. */
#include <stdio.h>
#include <string.h>

#include "../harness/env.h"
#include "rtipc/error.h"
#include "target.h"

static bench_bare_board_t board;
static uint64_t counter_origin;
static uint64_t ns_per_count; /* 0 when a count is not a whole number of ns */

void bench_target_bare_setup(const bench_bare_board_t *b)
{
    board = *b;
    snprintf(board.clock.unit, sizeof board.clock.unit, "%s",
             bench_clock_provenance_unit(board.clock.provenance));
    board.clock.rate_hz = board.counter_hz;
    double per = 1e9 / board.counter_hz;
    ns_per_count = per >= 1 && per == (double)(uint64_t)per ? (uint64_t)per : 0;
    counter_origin = board.read_counter();
}

const char *bench_target_name(void) { return "bare-metal"; }

int bench_target_core_count(void) { return 1; }

unsigned bench_target_features(void) { return board.irq_pend ? BENCH_TARGET_INTERRUPTS : 0; }

/* ---- clock ---- */

int64_t bench_target_now_ns(void)
{
    uint64_t counts = board.read_counter() - counter_origin;
    /* A whole number of ns per count (25 MHz: 40) is one multiplication: an
     * MCU without an FPU pays hundreds of instructions for the double. */
    if (ns_per_count)
        return (int64_t)(counts * ns_per_count);
    /* Through double, as rtipc_cycles_to_ns: exact to the count for days. */
    return (int64_t)((double)counts * 1e9 / board.counter_hz);
}

void bench_target_clock(bench_clock_t *out) { *out = board.clock; }

/* One core, one counter: the board's stamps are its finer grain. */
bool bench_target_core_clock(bench_clock_t *out)
{
    (void)out;
    return false;
}

int64_t bench_target_core_now_ns(void) { return bench_target_now_ns(); }

/* ---- sleeping: nothing else could run, so a sleep is a spin ---- */

void bench_target_sleep_ns(int64_t ns)
{
    int64_t until = bench_target_now_ns() + ns;
    while (bench_target_now_ns() < until)
        ;
}

void bench_target_delay_ns(int64_t ns) { bench_target_sleep_ns(ns); }

int64_t bench_target_sleep_overshoot_ns(void) { return 0; }

/* ---- stamps: the board's, else two readings of the counter ---- */

bench_stamp_t bench_target_stamp_start(void)
{
    /* The clock is read outside the board's pair: not inside the span. */
    bench_stamp_t s = {bench_target_now_ns(), {0, 0, 0}};
    if (board.stamp_start)
        board.stamp_start(s.raw);
    return s;
}

bench_stamp_t bench_target_stamp_end(void)
{
    bench_stamp_t s = {0, {0, 0, 0}};
    if (board.stamp_end)
        board.stamp_end(s.raw);
    s.ns = bench_target_now_ns();
    return s;
}

int64_t bench_target_stamp_span(bench_stamp_t start, bench_stamp_t end)
{
    if (board.stamp_span)
        return board.stamp_span(start.raw, end.raw);
    return end.ns - start.ns;
}

double bench_target_stamp_resolution(void)
{
    return board.stamp_span ? board.stamp_resolution : board.clock.resolution;
}

/* ---- the tick: none ---- */

int bench_target_set_tick_rate(uint32_t hz)
{
    (void)hz;
    return RTIPC_ENOTSUP;
}

/* ---- per-task accounting: one context, no kernel to count ---- */

int64_t bench_target_thread_cpu_ns(void) { return -1; }

long bench_target_thread_switches(void) { return 0; }

/* ---- tasks: none ---- */

int bench_target_task_start(const bench_task_spec_t *spec, bench_task_t **out)
{
    (void)spec;
    *out = NULL;
    return RTIPC_ENOTSUP;
}

int bench_target_task_join(bench_task_t *task)
{
    (void)task;
    return RTIPC_ENOTSUP;
}

int bench_target_task_delete(bench_task_t *task)
{
    (void)task;
    return RTIPC_ENOTSUP;
}

rtipc_task_t *bench_target_task_rtipc(const bench_task_t *task)
{
    (void)task;
    return NULL;
}

void *bench_target_task_kernel(const bench_task_t *task)
{
    (void)task;
    return NULL;
}

unsigned bench_target_native_strays(void) { return 0; }

size_t bench_target_task_stack(size_t requested, const char **how)
{
    (void)requested;
    if (how)
        *how = "no tasks on bare metal";
    return 0;
}

/* ---- interrupts: the board's one software line ----
 * rtipc's bare-metal port has no interrupt layer, so rtipc/irq.h's type is
 * never defined by the library here: the seam's one source is this. */
struct rtipc_irq {
    rtipc_isr_fn handler;
    void *arg;
};

static struct rtipc_irq soft_line;
static struct rtipc_irq *volatile line_owner; /* read by the handler */

void bench_target_bare_interrupt(void)
{
    struct rtipc_irq *irq = line_owner;
    if (irq)
        irq->handler(irq->arg);
}

int bench_target_irq_create(int core, rtipc_isr_fn handler, void *arg, rtipc_irq_t **out)
{
    if (!out)
        return RTIPC_EINVAL;
    *out = NULL;
    if (!board.irq_pend)
        return RTIPC_ENOTSUP;
    if (!handler || core != 0)
        return RTIPC_EINVAL;
    if (line_owner)
        return RTIPC_EBUSY;
    soft_line.handler = handler;
    soft_line.arg = arg;
    line_owner = &soft_line;
    *out = &soft_line;
    return RTIPC_OK;
}

int bench_target_irq_trigger(rtipc_irq_t *irq)
{
    if (!board.irq_pend)
        return RTIPC_ENOTSUP;
    if (!irq || irq != line_owner)
        return RTIPC_EINVAL;
    board.irq_pend();
    return RTIPC_OK;
}

/* The handler runs to its end before the main loop resumes (one core, no
 * nesting with the main loop), so clearing the owner is enough. */
int bench_target_irq_delete(rtipc_irq_t *irq)
{
    if (!board.irq_pend)
        return RTIPC_ENOTSUP;
    if (!irq || irq != line_owner)
        return RTIPC_EINVAL;
    line_owner = NULL;
    return RTIPC_OK;
}

bool bench_target_irq_timer_between_ticks(const rtipc_irq_t *irq)
{
    (void)irq;
    return false; /* the board's line has no timer */
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
    snprintf(env->sched_policy, sizeof env->sched_policy, "none: bare metal, one main loop and interrupt handlers");
    env->sched_fifo = 0;
    env->tick_hz = 1; /* no tick; the schema wants a positive rate */
    snprintf(env->priorities, sizeof env->priorities, "no tasks: one main loop in thread mode; %s",
             board.irq_description ? board.irq_description : "no software interrupt line");
    bench_target_clock(&env->clock);
}

/* No signal lines on this target (target.h). */
bool bench_target_has_signals(void) { return false; }
void bench_target_signal(bench_signal_t line, bool high) { (void)line, (void)high; }
