/* Stress of a allow-split ring buffer (harness and checks in ringbuf_stress.h). */
#include "ringbuf_stress.h"

static void allowsplit_many_producers_many_consumers(void **state)
{
    (void)state;
    run(RTIPC_RINGBUF_ALLOWSPLIT, 2000, "allow-split");
}

int main(void)
{
    stress_banner("stress_ringbuf_allowsplit");
    const struct CMUnitTest tests[] = {cmocka_unit_test(allowsplit_many_producers_many_consumers)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
