/* Handoff adapters for binary semaphores and task notifications, and a
 * driver that measures several handoff cases in interleaved rounds.
 * Used by queue-placement, core-placement, notify-vs-sem and interference. */
#ifndef BENCH_HANDOFF_EXTRA_H
#define BENCH_HANDOFF_EXTRA_H

#include <stdatomic.h>
#include <stdint.h>

#include "experiments.h"

/* Binary semaphore: the producer writes the sequence number into @c seq,
 * then gives; the consumer takes, then reads @c seq. The give/take pair is
 * what orders the two (relaxed accesses: a semaphore that failed to order
 * them would show up as a sequence error). A give that fails (semaphore
 * already full: a message would merge with the previous one) fails the run. */
typedef struct {
    rtipc_sem_t *sem;
    _Atomic uint32_t seq;
} hx_sem_t;
int hx_sem_send(void *obj, uint32_t seq);
int hx_sem_recv(void *obj, uint32_t *seq);

/* Task notification to the consumer's slot 0; the handle comes from bind.
 * value form: the sequence number is the notification value, sent with the
 *   set-without-overwrite action (a notification still pending fails the
 *   send); received with rtipc_notify_wait clearing all bits on exit.
 * give form: rtipc_notify_give + take with clear, the sequence number in
 *   @c seq as for the semaphore; a take that returns a count other than 1
 *   (two gives merged) fails the run. */
typedef struct {
    rtipc_task_t *consumer;
    _Atomic uint32_t seq;
} hx_notify_t;
void hx_notify_bind(void *obj, rtipc_task_t *producer, rtipc_task_t *consumer);
int hx_notify_value_send(void *obj, uint32_t seq);
int hx_notify_value_recv(void *obj, uint32_t *seq);
int hx_notify_give_send(void *obj, uint32_t seq);
int hx_notify_give_recv(void *obj, uint32_t *seq);

/* One handoff case of an interleaved measurement. */
typedef struct {
    const char *mechanism, *variant;   /* the row's names */
    handoff_ops_t ops;
    handoff_cfg_t cfg;                 /* samples: total for the row; warmup: per round */
    /* Optional, around each round of this case (e.g. start and stop a load).
     * start returns 0 or -1 after bench_fail(); stop is called whenever
     * start succeeded. */
    int (*start)(bench_run_t *run, void *ctx);
    void (*stop)(bench_run_t *run, void *ctx);
    void *ctx;
    const bench_result_t *row;         /* out: the latency row, or NULL */
} hx_case_t;

/* Measure every case in @p rounds rounds, each round running every case with
 * its share of the samples (alternating the order between rounds, so a slow
 * drift of the shared machine hits all cases alike), then record one
 * "latency" row per case from the pooled samples. Progress goes from p0 to
 * p1. When @p budget_s > 0 and --samples was not given, no further round
 * starts once it would probably end after budget_s seconds (a loaded shared
 * machine): the rows then hold fewer samples, and a note says so.
 * 0, or -1 after bench_fail(). */
int hx_measure_rounds(bench_run_t *run, hx_case_t *cases, size_t n_cases, size_t rounds, double p0,
                      double p1, double budget_s);

#endif
