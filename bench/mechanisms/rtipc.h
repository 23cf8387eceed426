/* rtipc's objects as mechanisms (their entries are in the table,
 * mechanisms.h), and the handoff adapters of those objects that experiments
 * pass straight to the handoff driver (harness/handoff.h) on objects they
 * make themselves: a queue of their own depth or placement, a semaphore, a
 * notification. Built on every target. */
#ifndef BENCH_MECHANISMS_RTIPC_H
#define BENCH_MECHANISMS_RTIPC_H

#include <stdatomic.h>
#include <stdint.h>

#include "../target/target.h"
#include "rtipc/rtipc.h"

/* An rtipc queue of uint32_t items (obj = the rtipc_queue_t *): send blocks
 * while full, recv until an item arrives (RTIPC_FOREVER); depth is
 * rtipc_queue_messages_waiting (for the trace). */
int bench_rtipc_queue_send(void *queue, uint32_t seq);
int bench_rtipc_queue_recv(void *queue, uint32_t *seq);
int bench_rtipc_queue_depth(void *queue);

/* A binary semaphore carrying a message's number: the producer writes it
 * into @c seq, then gives; the consumer takes, then reads @c seq. The
 * give/take pair is what orders the two (relaxed accesses: a semaphore that
 * failed to order them would show up as a sequence error). A give that
 * fails (semaphore already full: a message would merge with the previous
 * one) fails the run. */
typedef struct {
    rtipc_sem_t *sem;
    _Atomic uint32_t seq;
} bench_rtipc_sem_handoff_t;
int bench_rtipc_sem_send(void *obj, uint32_t seq);
int bench_rtipc_sem_recv(void *obj, uint32_t *seq);

/* A task notification to the consumer's slot 0 (obj =
 * bench_rtipc_notify_handoff_t, the consumer's handle from bind).
 * value form: the sequence number is the notification value, sent with the
 *   set-without-overwrite action (a notification still pending fails the
 *   send); received with rtipc_notify_wait clearing all bits on exit.
 * give form: rtipc_notify_give + take with clear, the sequence number in
 *   @c seq as for the semaphore; a take that returns a count other than 1
 *   (two gives merged) fails the run. */
typedef struct {
    rtipc_task_t *consumer;
    _Atomic uint32_t seq;
} bench_rtipc_notify_handoff_t;
void bench_rtipc_notify_bind(void *obj, bench_task_t *producer, bench_task_t *consumer);
int bench_rtipc_notify_value_send(void *obj, uint32_t seq);
int bench_rtipc_notify_value_recv(void *obj, uint32_t *seq);
int bench_rtipc_notify_give_send(void *obj, uint32_t seq);
int bench_rtipc_notify_give_recv(void *obj, uint32_t *seq);

#endif
