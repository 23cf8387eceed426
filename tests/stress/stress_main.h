/* main() of a stress program: print the banner (seed, scheduling, cores),
 * then run the listed cmocka tests. Shared so that the programs differ only
 * in what they test. */
#ifndef RTIPC_TESTS_STRESS_MAIN_H
#define RTIPC_TESTS_STRESS_MAIN_H

#include "test_support.h"

/* banner: the program's banner function; the rest: cmocka_unit_test(...)s. */
#define STRESS_MAIN(banner, program, ...)                                                                      \
    int main(void)                                                                                             \
    {                                                                                                          \
        banner(program);                                                                                       \
        const struct CMUnitTest tests[] = {__VA_ARGS__};                                                       \
        return cmocka_run_group_tests(tests, NULL, NULL);                                                      \
    }

#endif
