/* The trace recorder: scope-like waveforms and timelines of the handoffs.
 *
 * When --vcd or --perfetto is given, the harness records timestamped events
 * (bench_now_ns) of the first N messages of every measured row into one
 * preallocated array: a writer claims a slot with a single atomic increment,
 * never allocates, never takes a lock and never waits; an event that finds
 * the array full is counted as dropped. After the run the events are written
 * as a Value Change Dump (trace_vcd.c) and as Chrome/Perfetto trace-event
 * JSON (trace_perfetto.c). docs/methodology.md, "Waveforms and timelines",
 * says what every line means.
 *
 * Hooks are one line each (BENCH_TRACE / BENCH_TRACE_AT). With tracing off
 * they cost one load and one never-taken branch; their arguments (a depth
 * query, a timestamp) are evaluated only when the message is traced.
 *
 * Threading: bench_trace_init, _row_begin/_end, _scratch_begin/_end, the
 * counters and the writers are called from the experiment's thread while no
 * task that records exists (before tasks are created, after they are
 * joined); the hooks may run in any task or interrupt handler. */
#ifndef BENCH_TRACE_H
#define BENCH_TRACE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../harness/env.h"
#include "../harness/experiment.h"

/* What happened. The time of each is given by its hook's definition. */
typedef enum {
    TRACE_RUNNING,     /* task starts a stretch of running (a blocking call returned) */
    TRACE_STOPPED,     /* task ends one (it enters a call that may block) */
    TRACE_SEND_BEGIN,  /* sender is about to call send (value unused) */
    TRACE_SEND_END,    /* the send call returned */
    TRACE_RECEIVED,    /* consumer holds message seq (its latency stamp) */
    TRACE_ISR_ENTER,   /* interrupt handler starts on core */
    TRACE_ISR_EXIT,    /* interrupt handler returns */
    TRACE_DEPTH,       /* value = messages waiting in the queue */
    TRACE_ROW_END,     /* the row's tasks were joined (bench_trace_row_end) */
    TRACE_KIND_COUNT
} bench_trace_kind_t;

/* Who did it. An interrupt handler is not a task: its events carry
 * TRACE_TASK_ISR and the CPU its handler runs on. */
typedef enum {
    TRACE_TASK_PRODUCER,
    TRACE_TASK_CONSUMER,
    TRACE_TASK_ISR,
    TRACE_TASK_COUNT,
    TRACE_TASK_NONE = TRACE_TASK_COUNT  /* TRACE_ROW_END */
} bench_trace_task_t;

/* One recorded event (24 bytes). */
typedef struct {
    int64_t t;        /* bench_now_ns() */
    uint32_t seq;     /* message sequence number */
    int32_t value;    /* TRACE_DEPTH: messages waiting; otherwise 0 */
    uint16_t row;     /* index into the row table */
    uint8_t kind;     /* bench_trace_kind_t */
    uint8_t task;     /* bench_trace_task_t */
    int16_t cpu;      /* CPU id the event happened on */
} bench_trace_event_t;

/* Default and largest --trace-samples. */
#define BENCH_TRACE_DEFAULT_SAMPLES 200
#define BENCH_TRACE_MAX_SAMPLES 100000

/* ---- hot path (read by the hooks; owned by trace.c) ---- */
extern _Atomic bool bench_trace_live;      /* a row is being traced */
extern _Atomic uint32_t bench_trace_first; /* its first traced sequence number */
extern _Atomic uint32_t bench_trace_span;  /* how many from there */

/* True when message @p seq of the current row is traced. */
static inline bool bench_trace_wants(uint32_t seq)
{
    return seq - atomic_load_explicit(&bench_trace_first, memory_order_relaxed) <
           atomic_load_explicit(&bench_trace_span, memory_order_relaxed);
}

/* Record one event at time @p t (the caller checked bench_trace_wants). */
void bench_trace_put(int64_t t, bench_trace_kind_t kind, bench_trace_task_t task, int cpu,
                     uint32_t seq, int32_t value);

/* Record an event at the time the hook runs / at a timestamp the caller
 * already took (so the hook adds nothing to a timed span). */
#define BENCH_TRACE(kind, task, cpu, seq, value) \
    BENCH_TRACE_AT(bench_now_ns(), kind, task, cpu, seq, value)
#define BENCH_TRACE_AT(t, kind, task, cpu, seq, value)                                        \
    do {                                                                                      \
        if (__builtin_expect(atomic_load_explicit(&bench_trace_live, memory_order_relaxed), 0) && \
            bench_trace_wants((uint32_t)(seq)))                                               \
            bench_trace_put((t), (kind), (task), (cpu), (uint32_t)(seq), (int32_t)(value));   \
    } while (0)

/* ---- control (experiment thread) ---- */

/* Enable tracing of @p samples_per_row messages per row (1..
 * BENCH_TRACE_MAX_SAMPLES) and allocate the event array. 0, or -1 with errno
 * set (ENOMEM, EINVAL). Without this call every hook stays off. */
int bench_trace_init(size_t samples_per_row);
/* Whether bench_trace_init succeeded. */
bool bench_trace_enabled(void);
/* Free the array and the row table; tracing is off afterwards. */
void bench_trace_shutdown(void);

/* The next tasks run messages numbered 0.. of the row (current experiment,
 * @p mechanism, @p variant); messages before @p first_seq are warm-up and
 * @p count are measured. Traces the measured messages from first_seq until
 * the row has its N (a row measured in several rounds gets its N over them).
 * A no-op when tracing is off, when mechanism is NULL, or when the row table
 * is full. Pair with bench_trace_row_end after the tasks are joined. */
void bench_trace_row_begin(const bench_run_t *run, const char *mechanism, const char *variant,
                           uint32_t first_seq, uint32_t count);
void bench_trace_row_end(void);

/* Overhead measurement: between these, every message of the tasks run is
 * recorded (into a reserve beyond the array's bound, for at most
 * @p messages messages), exactly as a traced row would record it; end
 * discards those events. Runs in between must not begin rows of their own
 * (handoff_cfg_t.mechanism NULL). Returns false when tracing is off. */
bool bench_trace_scratch_begin(size_t messages);
/* Events the scratch recording could not store (it fell short of its
 * reserve: the overhead it measured is then too low). */
size_t bench_trace_scratch_end(void);

/* Events stored, and events lost because the array was full. */
size_t bench_trace_recorded(void);
size_t bench_trace_dropped(void);
/* Messages traced per row (--trace-samples). */
size_t bench_trace_samples_per_row(void);

/* ---- output ---- */

/* Write the recorded events into PATH, whole or not at all
 * (results/outfile.h). 0, or -1 with the reason in ERR ("cannot write PATH:
 * No space left on device"). */
int bench_trace_write_vcd(const char *path, const bench_env_t *env, char *err, size_t errlen);
int bench_trace_write_perfetto(const char *path, const bench_env_t *env, char *err, size_t errlen);

/* ---- the recorder's cost (trace_overhead.c) ---- */

typedef struct {
    size_t rounds;              /* rounds per condition */
    size_t samples;             /* latency samples per condition */
    double off_p50, on_p50;     /* queue-latency cross-core, ns */
    double off_p99, on_p99;
    double off_p50_lo, off_p50_hi, on_p50_lo, on_p50_hi;  /* 95% intervals */
    double noise_p50;           /* |p50 of untraced even rounds - odd rounds|:
                                   how far the machine drifts between rounds */
    double event_ns;            /* one recorded event on the recording thread
                                   (median over batches) */
    size_t short_events;        /* events the traced rounds failed to store */
} bench_trace_overhead_t;

/* Run queue-latency's cross-core handoff in alternating rounds with the
 * recorder off and recording every message, and time one recorded event.
 * 0, or -1 after bench_fail(). */
int bench_trace_measure_overhead(bench_run_t *run, bench_trace_overhead_t *out);
/* Add its rows (experiment queue-latency, mechanism rtipc-queue, variant
 * cross-core, metrics trace-overhead-p50/p99 and trace-event-cost, unit ns)
 * and its note to the current experiment. */
void bench_trace_report_overhead(bench_run_t *run, const bench_trace_overhead_t *o);
/* One line describing @p o, for the note and for the run summary. */
void bench_trace_describe_overhead(const bench_trace_overhead_t *o, char *buf, size_t size);

#endif
