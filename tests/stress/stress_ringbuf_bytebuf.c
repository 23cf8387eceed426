/* Stress of a byte buffer ring buffer (harness and checks in ringbuf_stress.h). */
#include "ringbuf_stress.h"

static void bytebuf_many_producers_many_consumers(void **state)
{
    (void)state;
    run(RTIPC_RINGBUF_BYTEBUF, 1021, "byte buffer");
}

int main(void)
{
    stress_banner("stress_ringbuf_bytebuf");
    const struct CMUnitTest tests[] = {cmocka_unit_test(bytebuf_many_producers_many_consumers)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
