/* Shared by the experiment files: includes, and small adapters that let the
 * handoff driver use rtipc objects. */
#ifndef BENCH_EXPERIMENTS_H
#define BENCH_EXPERIMENTS_H

#include <stdint.h>

#include "../harness/experiment.h"
#include "../harness/failure.h"
#include "../harness/handoff.h"
#include "../names.h"
#include "rtipc/rtipc.h"

/* Handoff adapters for an rtipc queue of uint32_t items (obj = the queue):
 * send blocks forever when full; recv blocks forever; depth is
 * rtipc_queue_messages_waiting (for the trace). */
int exp_queue_send(void *queue, uint32_t seq);
int exp_queue_recv(void *queue, uint32_t *seq);
int exp_queue_depth(void *queue);

#endif
