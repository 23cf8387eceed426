/* The helpers of test_support.h that are the same on every port: tasks are
 * rtipc's, and the stress scale is an environment variable. */
#include "test_support.h"

#include <stdlib.h>

rtipc_task_t *start_task(const char *name, unsigned priority, int core, rtipc_task_fn fn, void *arg)
{
    rtipc_task_config_t cfg = {.name = name, .priority = priority, .core = core, .entry = fn, .arg = arg};
    rtipc_task_t *t = NULL;
    assert_int_equal(rtipc_task_create(&cfg, &t), RTIPC_OK);
    assert_non_null(t);
    return t;
}

void join_task(rtipc_task_t *t) { assert_int_equal(rtipc_task_join(t), RTIPC_OK); }

int test_core(int which) { return rtipc_core_count() >= 2 ? which : RTIPC_CORE_ANY; }

long stress_count(long base)
{
    const char *s = getenv("RTIPC_STRESS_SCALE");
    double f = s ? atof(s) : 1.0;
    if (f <= 0)
        f = 1.0;
    long n = (long)((double)base * f);
    return n > 0 ? n : 1;
}
