/* The target seam: everything rtipc-bench's harness and experiments need
 * from the platform they run on, implemented once per platform:
 *
 *   bench/target/linux.c     a Linux host (rtipc's POSIX port)
 *   bench/target/freertos.c  any FreeRTOS port through rtipc's FreeRTOS port
 *                            (the POSIX simulator today); what differs
 *                            between kernels and ports is chosen by the
 *                            kernel's own macros (configNUMBER_OF_CORES, the
 *                            heap's statistics) and by rtipcCONFIG_CYCLES_*,
 *                            never by board code
 *   bench/target/bare.c      no kernel (rtipc's bare-metal port): a clock,
 *                            stamps, memory figures, the console and one
 *                            software interrupt line that the board hands
 *                            over (bench_target_bare_setup); no tasks
 *
 * A build compiles exactly one of them (bench/sources.cmake), with the
 * parts every target shares (target.c, clock.c, console.c) and host.c when
 * the target runs as a process of a host OS. The harness and the
 * experiments call only these functions (or the harness's thin wrappers in
 * harness/experiment.h) for platform matters; the rtipc API they measure is the library's own and the same on
 * every target that has it. What a target lacks it says in
 * bench_target_features(), and an experiment that needs it is reported as
 * missing with the reason (bench_experiment_unavailable, harness/experiment.h).
 *
 * Unless said otherwise every call may be made from any task (not from an
 * interrupt handler) and does not block. */
#ifndef BENCH_TARGET_H
#define BENCH_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "rtipc/irq.h"
#include "rtipc/task.h"

struct bench_env;  /* harness/env.h */

/* ---- what the target is -------------------------------------------------- */

/* What a target may have; an experiment's `requires` (harness/experiment.h)
 * names the ones it needs. */
enum {
    BENCH_TARGET_TASKS = 1u << 0,           /* tasks with priorities and rtipc's blocking
                                               objects (queues, semaphores, ...) */
    BENCH_TARGET_INTERRUPTS = 1u << 1,      /* software-triggered interrupts (bench_target_irq_*) */
    BENCH_TARGET_TWO_CORES = 1u << 2,       /* bench_target_core_count() >= 2 */
    BENCH_TARGET_THREAD_CPU_TIME = 1u << 3, /* bench_target_thread_cpu_ns() is known */
    BENCH_TARGET_FILES = 1u << 4,           /* outputs are files (else the console) */
};

/* Short name of the target: "linux", "freertos" or "bare-metal". */
const char *bench_target_name(void);

/* The BENCH_TARGET_* bits this target has. FreeRTOS: interrupts only when
 * rtipc's port has an interrupt back end for the kernel port (it tries to
 * create one the first time it is asked). */
unsigned bench_target_features(void);

/* What one BENCH_TARGET_* bit means, for reasons shown to people ("two
 * cores", ...); NULL for anything but a single known bit. */
const char *bench_target_feature_name(unsigned feature);

/* Cores the experiments may place tasks on: the online CPUs on Linux,
 * configNUMBER_OF_CORES on FreeRTOS, 1 on bare metal. */
int bench_target_core_count(void);

/* ---- clock --------------------------------------------------------------- */

/* Now, in nanoseconds (or instructions where the clock counts them, one
 * instruction standing for 1 ns: bench_target_clock's unit) since the first
 * call. Context: any, interrupt handlers included. Linux and FreeRTOS:
 * rtipc_cycles() converted with rtipc_cycles_hz(); bare metal: the board's
 * counter. */
int64_t bench_target_now_ns(void);

/* The clock behind bench_target_now_ns. Linux: rtipc's cycle counter
 * (provenance host-tsc for tsc/cntvct, os-clock for the clock_gettime
 * fallback). FreeRTOS: rtipcCONFIG_CYCLES (its provenance is
 * rtipcCONFIG_CYCLES_PROVENANCE, one of the names of clock.h; without it
 * mcu-cycles) or, without it, the kernel's tick (os-clock). Bare metal: what
 * the board described. */
void bench_target_clock(bench_clock_t *out);

/* ---- a clock of one core ------------------------------------------------- */

/* Some targets have, besides the clock every core shares, a finer counter
 * that each core keeps for itself (a hart's mcycle): two of its readings
 * make a span only when both were taken on one core. FreeRTOS: the
 * configuration's benchCONFIG_CORE_CLOCK() (with _NAME, _PROVENANCE, and
 * _HZ or else a rate calibrated against bench_target_now_ns over 20 ms at
 * the first call of bench_target_core_clock); none on Linux (the host's
 * counter already is the run's clock), on ESP-IDF (CCOUNT wraps every 18 s
 * at 240 MHz) or on bare metal.
 *
 * bench_target_core_clock: true and *out described where there is one, else
 * false (*out untouched). The first call calibrates it (spins 20 ms); make it
 * before any task exists (bench_env_collect does). Context: a task.
 *
 * bench_target_core_now_ns: nanoseconds on the calling core's counter, from
 * an origin aligned with bench_target_now_ns on the core that calibrated (on
 * another core its readings carry that core's offset, which a span of one
 * core cancels; under QEMU the harts' counters are one). Without a core
 * clock, or before it is calibrated, bench_target_now_ns. Context: any,
 * interrupt handlers included; never blocks. */
bool bench_target_core_clock(bench_clock_t *out);
int64_t bench_target_core_now_ns(void);

/* ---- short spans in one context -------------------------------------------- */

/* A pair of stamps around code that runs in one context, for spans of tens of
 * instructions, where the clock's own grain would be most of the figure. A
 * board may resolve them finer than bench_target_now_ns (the mps2-an385
 * board's stamps are exact to the instruction where its timer counts 40 per
 * instruction tick: docs/mcu.md, "Clock"); elsewhere they are two readings
 * of bench_target_core_now_ns (the core's own counter where the target has
 * one, else bench_target_now_ns). bench_target_stamp_span is the span in the clock's
 * unit plus a fixed cost of the pair (measure it as an empty span and
 * subtract its median). start and end may be taken in different contexts of
 * one core (a task and an interrupt handler); never on two cores. Context:
 * any; bounded (a board's stamp may wait for one timer count). */
typedef struct {
    int64_t ns;       /* the stamp's time: bench_target_core_now_ns (every target) */
    uint32_t raw[3];  /* what a board's stamp keeps besides (bare metal) */
} bench_stamp_t;
bench_stamp_t bench_target_stamp_start(void);
bench_stamp_t bench_target_stamp_end(void);
int64_t bench_target_stamp_span(bench_stamp_t start, bench_stamp_t end);
/* The resolution of a stamp span in the clock's unit: the clock's own, the
 * core clock's, or the board's finer one. */
double bench_target_stamp_resolution(void);

/* ---- the tick ---------------------------------------------------------------- */

/* Set rtipc's tick rate for the run (`run --tick-hz`): rtipc_tick_set_rate
 * on Linux and FreeRTOS; RTIPC_ENOTSUP on bare metal (no tick). 0 or an
 * rtipc error code. */
int bench_target_set_tick_rate(uint32_t hz);

/* ---- sleeping ------------------------------------------------------------ */

/* Sleep at least @p ns nanoseconds; blocks. Linux: nanosleep, no rtipc call,
 * so a task that sleeps this way releases nothing rtipc defers to its next
 * call. FreeRTOS: bench_target_delay_ns (whole ticks: a host-OS sleep would
 * keep the simulated core), so a native task may sleep. Bare metal: spins on
 * the clock (nothing else could run meanwhile). */
void bench_target_sleep_ns(int64_t ns);

/* Block the calling task in the kernel's own delay for at least @p ns
 * nanoseconds, as the tasks of a published program sleep: Linux
 * rtipc_task_delay (rtipc is the kernel there); FreeRTOS vTaskDelay of the
 * whole ticks rtipc_task_delay would wait (the ticks that cover @p ns, plus
 * one for the tick in progress), which a native task may call; bare metal
 * spins on the clock. Context: a task. */
void bench_target_delay_ns(int64_t ns);

/* How much longer than asked bench_target_sleep_ns (and bench_target_delay_ns)
 * may last by design: 0 on Linux (high-resolution timers) and bare metal
 * (a spin), two tick periods on FreeRTOS (delays are whole ticks, rounded
 * up). Code that sleeps, then spins to a deadline, sleeps this much less. */
int64_t bench_target_sleep_overshoot_ns(void);

/* ---- per-task accounting --------------------------------------------------- */

/* CPU time the calling task has used, in nanoseconds, or -1 where the target
 * cannot tell (BENCH_TARGET_THREAD_CPU_TIME unset). Linux and the FreeRTOS
 * simulator: the thread's CPU clock (each simulated task is a host thread). */
int64_t bench_target_thread_cpu_ns(void);

/* Context switches of the calling task so far, voluntary + involuntary, or 0
 * where the kernel does not say (FreeRTOS on a board, bare metal). */
long bench_target_thread_switches(void);

/* ---- tasks ----------------------------------------------------------------- */

/* A task the harness started: rtipc's task, or the kernel's own (native). */
typedef struct bench_task bench_task_t;

/* A task to start: rtipc_task_config_t's fields, named for the bench. */
typedef struct {
    const char *name;         /* at most 15 characters kept */
    int core;                 /* the CPU it runs on (bench_cpu() maps logical cores) */
    unsigned priority;        /* rtipc priority; a native task gets the same kernel
                                 priority (rtipc's FreeRTOS port maps them 1:1) */
    size_t stack_bytes;       /* 0 = the target's default */
    rtipc_task_fn entry;
    void *arg;
    /* The kernel's own task, for the rows of a kernel mechanism: on FreeRTOS
     * xTaskCreatePinnedToCore (ESP-IDF), xTaskCreateAffinitySet (an SMP
     * kernel with core affinity) or xTaskCreate (one core), which nothing
     * of rtipc's port serves: no descriptor, no thread-local-storage slot,
     * no notification index of rtipc's. Its code blocks in the kernel's
     * calls only (bench_target_sleep_ns is vTaskDelay). Ignored on Linux,
     * where rtipc is the kernel the tasks run on. */
    bool native;
} bench_task_spec_t;

/* Start a task; it runs at once if it outranks the caller. 0 and *out set
 * (join it with bench_target_task_join or end it with
 * bench_target_task_delete), or an rtipc error code: RTIPC_ENOMEM (no memory
 * for it), RTIPC_EINVAL (a core it cannot be pinned to), RTIPC_ENOTSUP on a
 * target without tasks (bare metal). Linux: rtipc_task_create (a SCHED_FIFO
 * thread pinned to the CPU). FreeRTOS: rtipc_task_create, or for a native
 * task the kernel's own creation call (see bench_task_spec_t.native). */
int bench_target_task_start(const bench_task_spec_t *spec, bench_task_t **out);

/* Wait until @p task has returned from its entry, and free it. Blocks.
 * 0 or an rtipc error code (RTIPC_ENOTSUP on bare metal). */
int bench_target_task_join(bench_task_t *task);

/* End @p task wherever it is (blocked for a message that was lost, after a
 * failure) and free it: rtipc_task_delete, or vTaskDelete for a native
 * task. 0 or an rtipc error code (RTIPC_ENOTSUP on bare metal). */
int bench_target_task_delete(bench_task_t *task);

/* rtipc's handle of @p task (for a notification's target), or NULL for a
 * native task. Context: any task; never blocks. */
rtipc_task_t *bench_target_task_rtipc(const bench_task_t *task);

/* The kernel's handle of a native @p task (a FreeRTOS TaskHandle_t), or
 * NULL for an rtipc task and on Linux. Context: any task; never blocks. */
void *bench_target_task_kernel(const bench_task_t *task);

/* Native tasks that called into rtipc's port (rtipc made a descriptor for
 * one: it blocked in an rtipc call, or asked rtipc who it is) since the last
 * call, counted as each ends: the rows they served are not the kernel's
 * alone. The harness fails the experiment that started them. 0 on Linux
 * and bare metal (no native tasks). Context: a task. */
unsigned bench_target_native_strays(void);

/* Called by a task started with stack_bytes = @p requested: the bytes of
 * stack it has, and in *how (when how is not NULL) where that figure comes
 * from. Linux: pthread_getattr_np of the calling thread; FreeRTOS: the
 * request in whole StackType_t words raised to configMINIMAL_STACK_SIZE, as
 * rtipc's port asks the kernel for it (the simulator's host thread has a
 * stack of its own besides); bare metal: 0 (no tasks). */
size_t bench_target_task_stack(size_t requested, const char **how);

/* ---- interrupts ------------------------------------------------------------ */

/* A software-triggered interrupt whose handler runs on @p core, as rtipc's
 * interrupt layer gives it (rtipc_irq_create: on Linux the core's interrupt
 * thread above every task; on FreeRTOS the kernel port's back end, such as
 * the simulator's interrupt thread or a spare NVIC line on Cortex-M; on bare
 * metal the board's one software line, so one source at a time, core 0).
 * 0 and *out set, or an rtipc error code (RTIPC_ENOTSUP where the target
 * has none; on bare metal RTIPC_EBUSY while the line has a source and
 * RTIPC_EINVAL for a core other than 0). Task context (the main loop on
 * bare metal); blocks only while starting the core's interrupt thread. */
int bench_target_irq_create(int core, rtipc_isr_fn handler, void *arg, rtipc_irq_t **out);

/* Raise @p irq once (rtipc_irq_trigger); a raise while one is pending
 * merges with it, as a pending bit does. Context: any. 0 or an rtipc error
 * code. */
int bench_target_irq_trigger(rtipc_irq_t *irq);

/* Delete @p irq; waits for a running handler to return. */
int bench_target_irq_delete(rtipc_irq_t *irq);

/* Whether @p irq's timer (rtipc_irq_timer_start) can expire between ticks:
 * on Linux always; on FreeRTOS only a source with a hardware timer of its
 * own (rtipc_freertos_irq_timer_hw: ESP-IDF's GPTimers), the others follow
 * the tick; never on bare metal (no timer). Context: any. */
bool bench_target_irq_timer_between_ticks(const rtipc_irq_t *irq);

/* rtipc_cycles() in ns since its first reading (rtipc_targets.c): the clock
 * of the targets whose timestamps are rtipc's cycle counter. */
int64_t bench_rtipc_cycles_ns(void);
/* The scheduler's policy and the tick rate as rtipc reports them, into
 * @p env (rtipc_targets.c): the first part of bench_target_describe on the
 * targets with rtipc's kernel layer. */
void bench_rtipc_describe(struct bench_env *env);

/* ---- signal lines -------------------------------------------------------------- */

/* The published method times a handoff with two GPIO lines on an
 * oscilloscope: one high from just before the send, one high from the
 * receiver's wake-up. A target with such lines configured (the ESP32 app:
 * CONFIG_RTIPC_BENCH_GPIO_SEND / _RECV) drives them from the handoff
 * driver, so a scope can check the printed latencies; elsewhere there are
 * none. bench_target_has_signals() is fixed for a run: the driver asks once
 * and calls bench_target_signal only when it is true (nothing is added to
 * the timed span otherwise). Context: any task; never blocks. */
typedef enum { BENCH_SIGNAL_SEND, BENCH_SIGNAL_RECEIVE } bench_signal_t;
bool bench_target_has_signals(void);
void bench_target_signal(bench_signal_t line, bool high);

/* ---- memory ---------------------------------------------------------------- */

typedef enum {
    BENCH_MEMORY_NONE,      /* the target has no figures */
    BENCH_MEMORY_RESIDENT,  /* now: resident set; extreme: its peak (Linux, the simulator's
                               host process) */
    BENCH_MEMORY_HEAP_FREE, /* now: free heap; extreme: the least ever free (a FreeRTOS
                               heap with statistics, a board's heap) */
} bench_memory_kind_t;

typedef struct {
    bench_memory_kind_t kind;
    int64_t now_bytes;      /* -1 when unknown */
    int64_t extreme_bytes;  /* peak resident, or minimum ever free; -1 when unknown */
} bench_memory_t;

/* The target's memory figures now. Linux: /proc/self/statm and
 * getrusage's ru_maxrss. FreeRTOS: xPortGetFreeHeapSize and
 * xPortGetMinimumEverFreeHeapSize when the heap in the build defines them
 * (heap_4, heap_5; heap_1 and heap_2 only the first), else, on the
 * simulator, the host process's resident set. Bare metal: what the board
 * reports. */
void bench_target_memory(bench_memory_t *out);

/* Keep the program's memory resident for the run (no page faults in
 * measurements): 1 when it is (mlockall succeeded, or the target does not
 * page at all), 0 when the OS refused. */
int bench_target_lock_memory(void);

/* ---- the run's environment ------------------------------------------------- */

/* Fill the platform's part of @p env: target, cpu_model, cores_online,
 * kernel, hostname, started_utc, the scheduler (sched_policy, sched_fifo),
 * tick_hz (1 standing for none on bare metal), the priority mapping
 * (priorities) and the clock. Called once, before the experiments, by bench_env_collect. Linux:
 * /proc/cpuinfo, uname, the UTC time. FreeRTOS: the kernel's version, and on
 * the simulator the host's description; on a board without a calendar,
 * started_utc is "unknown". */
void bench_target_describe(struct bench_env *env);

#ifdef ESP_PLATFORM
/* ESP-IDF: the CPU clock in MHz that CCOUNT counts (espidf_clock.c): the
 * running frequency on a board, the configured one under QEMU. */
uint32_t bench_espidf_cpu_mhz(void);
#endif

/* ---- bare metal: what the board hands over ----------------------------------- */

/* A board's clock and memory, for bench/target/bare.c, which has no platform
 * code of its own. */
typedef struct {
    uint64_t (*read_counter)(void);  /* a free-running counter (required) */
    double counter_hz;               /* its counts per (virtual) second */
    bench_clock_t clock;             /* its description (name, provenance, resolution;
                                        unit and rate are filled from provenance and
                                        counter_hz) */
    void (*memory)(bench_memory_t *out);  /* the board's figures, or NULL for none */
    const char *description;         /* "Cortex-M3, QEMU mps2-an385" (kernel field) */
    /* Stamps finer than the counter (bench_target_stamp_*), or NULL for
     * readings of the counter; stamp_span gives the span in the clock's
     * unit, stamp_resolution its grain. */
    void (*stamp_start)(uint32_t raw[3]);
    void (*stamp_end)(uint32_t raw[3]);
    int64_t (*stamp_span)(const uint32_t start[3], const uint32_t end[3]);
    double stamp_resolution;
    /* One software interrupt line: pend it (its handler, at a priority the
     * board chose, then calls bench_target_bare_interrupt), or NULL when the
     * board has none. Context: any. */
    void (*irq_pend)(void);
    const char *irq_description;     /* "IRQ 27 at NVIC priority 0x80" */
} bench_bare_board_t;

/* Hand the board's clock and memory to the bare-metal target; call once at
 * start-up, before any other bench_target_* call. Only bare.c defines it. */
void bench_target_bare_setup(const bench_bare_board_t *board);

/* The board's interrupt handler for its software interrupt line calls this:
 * it runs the handler bench_target_irq_create registered (nothing when
 * none is). Context: that interrupt handler. Only bare.c defines it. */
void bench_target_bare_interrupt(void);

#endif
