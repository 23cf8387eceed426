#include "test_support.h"

/* The consumer records what went wrong; the test thread asserts (cmocka's
 * assertions may only fail on the thread that runs the test). */
typedef struct {
    rtipc_queue_t *q;
    int n;
    int received;  /* items received in order */
    int rc;        /* last receive's result */
    int bad_value; /* first out-of-order value, or -1 */
} pc_t;

static void consumer(void *arg)
{
    pc_t *pc = arg;
    pc->bad_value = -1;
    for (int i = 0; i < pc->n; ++i) {
        int v = -1;
        pc->rc = rtipc_queue_receive(pc->q, &v, rtipc_ms(10000));
        if (pc->rc != RTIPC_OK)
            return;
        if (v != i) {
            pc->bad_value = v;
            return;
        }
        pc->received++;
    }
}

static void cross_core_fifo_order(void **state)
{
    (void)state;
    pc_t pc = {.n = 100000};
    assert_int_equal(rtipc_queue_create(4, sizeof(int), &pc.q), RTIPC_OK);
    rtipc_task_t *c = start_task("cons", 5, test_core(0), consumer, &pc);
    for (int i = 0; i < pc.n; ++i)
        if (rtipc_queue_send(pc.q, &i, rtipc_ms(10000)) != RTIPC_OK)
            break; /* the consumer stopped: its record says why */
    join_task(c);
    assert_int_equal(pc.rc, RTIPC_OK);
    assert_int_equal(pc.bad_value, -1);
    assert_int_equal(pc.received, pc.n);
    assert_int_equal(rtipc_queue_delete(pc.q), RTIPC_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(cross_core_fifo_order)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
