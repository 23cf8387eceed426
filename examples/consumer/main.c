/* A producer task on core 1 hands counters to the main task through a queue. */
#include <stdio.h>
#include <rtipc/rtipc.h>

static rtipc_queue_t *q;

static void producer(void *arg)
{
    (void)arg;
    for (int i = 0; i < 5; ++i)
        rtipc_queue_send(q, &i, RTIPC_FOREVER);
}

int main(void)
{
    rtipc_queue_create(100, sizeof(int), &q);
    rtipc_task_t *t;
    rtipc_task_config_t cfg = {.name = "producer", .priority = 5, .core = RTIPC_CORE_ANY, .entry = producer};
    if (rtipc_task_create(&cfg, &t) != RTIPC_OK)
        return 1;
    int sum = 0;
    for (int i = 0; i < 5; ++i) {
        int v;
        if (rtipc_queue_receive(q, &v, rtipc_ms(1000)) != RTIPC_OK)
            return 1;
        sum += v;
    }
    rtipc_task_join(t);
    rtipc_queue_delete(q);
    printf("sum %d (%s)\n", sum, rtipc_sched_policy_describe());
    return sum == 10 ? 0 : 1;
}
