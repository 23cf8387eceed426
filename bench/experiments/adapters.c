/* Handoff adapters shared by several experiments. */
#include "experiments.h"

int exp_queue_send(void *queue, uint32_t seq)
{
    return rtipc_queue_send(queue, &seq, RTIPC_FOREVER);
}

int exp_queue_recv(void *queue, uint32_t *seq)
{
    return rtipc_queue_receive(queue, seq, RTIPC_FOREVER);
}

int exp_queue_depth(void *queue)
{
    return rtipc_queue_messages_waiting(queue);
}
