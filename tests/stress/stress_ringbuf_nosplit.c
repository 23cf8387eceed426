/* Stress of a no-split ring buffer (harness and checks in ringbuf_stress.h). */
#include "ringbuf_stress.h"

static void nosplit_many_producers_many_consumers(void **state)
{
    (void)state;
    run(RTIPC_RINGBUF_NOSPLIT, 2048, "no-split");
}

int main(void)
{
    stress_banner("stress_ringbuf_nosplit");
    const struct CMUnitTest tests[] = {cmocka_unit_test(nosplit_many_producers_many_consumers)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
