/* The handoff driver: one producer task and one consumer task, pinned and
 * prioritised, passing sequence-numbered messages through a mechanism.
 *
 * Latency of a message = consumer's timestamp right after its receive call
 * returned (the consumer is running) - the producer's timestamp right before
 * its send call (closed loop), or the message's intended send time (open
 * loop, so a late producer cannot hide delay: no coordinated omission).
 * Timestamps are the run's clock, or the core's own where both tasks share
 * a core and the target has one (handoff_core_clocked).
 *
 * Closed loop: the producer sends one message, waits until the consumer has
 * acknowledged it, pauses for a random gap (so the consumer is parked again
 * in its receive call), and sends the next. Open loop: the producer sends at
 * a fixed rate whatever the consumer does.
 *
 * Every message carries its sequence number; the consumer checks it, and a
 * lost, duplicated or reordered message fails the run. */
#ifndef BENCH_HANDOFF_H
#define BENCH_HANDOFF_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "experiment.h"
#include "failure.h"
#include "rtipc/task.h"

typedef struct handoff_ops {
    /* Producer: deliver the message numbered @p seq. 0 or a negative rtipc
     * error code (which fails the run). */
    int (*send)(void *obj, uint32_t seq);
    /* Consumer: block until the next message; store its number in *seq. */
    int (*recv)(void *obj, uint32_t *seq);
    /* Optional: told both tasks before any message is sent (a
     * notification needs the consumer's handle). */
    void (*bind)(void *obj, bench_task_t *producer, bench_task_t *consumer);
    /* Optional, untimed, in the producer before each send (e.g. evicting the
     * mechanism's storage from the cache). */
    void (*before_send)(void *obj);
    /* Optional: messages waiting in the mechanism now (>= 0), or negative
     * when unknown. Called only for traced messages, after the send returned
     * and after the consumer's latency stamp (the trace's queue depth). */
    int (*depth)(void *obj);
    void *obj;
    /* The producer and the consumer are the kernel's own tasks (a kernel
     * mechanism's rows: bench_task_spec_t.native). */
    bool native;
} handoff_ops_t;

typedef enum { HANDOFF_CLOSED_LOOP, HANDOFF_OPEN_LOOP } handoff_mode_t;

typedef struct {
    int producer_cpu, consumer_cpu;      /* CPU ids (bench_cpu()) */
    unsigned producer_prio, consumer_prio;
    size_t samples;                      /* recorded messages */
    size_t warmup;                       /* messages sent first, not recorded */
    handoff_mode_t mode;
    int64_t gap_min_ns, gap_max_ns;      /* closed loop: pause after each ack */
    double rate_hz;                      /* open loop: messages per second; at
                                            most ~5 kHz keeps the producer's
                                            spinning under the kernel's
                                            real-time throttling limit */
    int64_t stall_ns;                    /* fail when a message is not received
                                            within this time (0 = 2 s) */
    const char *mechanism, *variant;     /* the row, for the trace (--vcd,
                                            --perfetto); NULL: not traced */
} handoff_cfg_t;

/* A closed-loop configuration with the harness defaults: producer on logical
 * core 1 at priority 10, consumer on logical core 0 at priority 12, gap
 * 20-40 us, sample counts from the options. */
handoff_cfg_t handoff_default(const bench_run_t *run, size_t full_samples, size_t quick_samples);

/* True when the latencies of @p cfg are timed by the core's own clock: a
 * closed loop with both tasks on one core, in a run that has such a clock
 * (bench_has_core_clock). An open loop keeps the run's clock: its intended
 * send times are laid out on it. A caller of handoff_run that records the
 * samples itself labels its row with bench_row_core_clocked then. */
bool handoff_core_clocked(const bench_run_t *run, const handoff_cfg_t *cfg);

/* Run it. @p out must be initialised with capacity >= cfg->samples; it gets
 * one latency per recorded message. 0, or -1 after bench_fail(). */
int handoff_run(bench_run_t *run, const handoff_ops_t *ops, const handoff_cfg_t *cfg,
                bench_samples_t *out);

/* handoff_run and bench_add_dist in one: records the row
 * (mechanism, variant, metric "latency"), and traces it under those names.
 * Returns the row or NULL. */
const bench_result_t *handoff_measure(bench_run_t *run, const char *mechanism, const char *variant,
                                      const handoff_ops_t *ops, const handoff_cfg_t *cfg);

/* ---- for experiments that run their own producer and consumer tasks ---- */

/* Outside the tasks: poll every 2 ms until *first and *second are both
 * non-zero (each set by a task as its last act, with release) or until
 * bench_now_ns() reaches @p deadline_ns. *first_set and *second_set get what
 * was seen at the end, with acquire: what a task wrote before its flag is
 * then visible. */
void handoff_wait_done(_Atomic int *first, _Atomic int *second, int64_t deadline_ns, bool *first_set,
                       bool *second_set);

/* Join @p task when it has finished; else delete it (after its deadline it is
 * blocked for good, and a join would hang). */
void handoff_join_or_delete(bench_task_t *task, bool finished);

/* Run fn(arg, self) in a task of its own on @p core at @p priority (the
 * kernel's own when @p native: the experiment's one-task and interrupt
 * rows of a kernel mechanism) and wait until it returns; self is the task,
 * for a bind. The task may record rows and fail the run: the caller is
 * blocked in the join meanwhile. 0, or -1 after bench_fail() when it could
 * not start. */
int handoff_in_task(bench_run_t *run, bool native, int core, unsigned priority,
                    void (*fn)(void *arg, bench_task_t *self), void *arg);

/* In a task: wait (kernel delays of 200 us) until *flag is non-zero (acquire).
 * False when @p failure is set first or @p timeout_ns passes. */
bool handoff_task_wait_flag(_Atomic int *flag, const bench_failure_t *failure, int64_t timeout_ns);

#endif
