/* The helpers of test_support.h that are the same on every port: tasks are
 * rtipc's, and the stress scale is an environment variable. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

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

int create_spsc_static_in_interrupt(size_t capacity, size_t item_size, void *storage, rtipc_spsc_static_t *cb,
                                    rtipc_spsc_t **out)
{
    enter_interrupt_context();
    int rc = rtipc_spsc_create_static(capacity, item_size, storage, cb, out);
    leave_interrupt_context();
    return rc;
}

long stress_count(long base)
{
    const char *s = getenv("RTIPC_STRESS_SCALE");
    double f = s ? atof(s) : 1.0;
    if (f <= 0)
        f = 1.0;
    long n = (long)((double)base * f);
    return n > 0 ? n : 1;
}

int test_thread_id(void)
{
    char link[64];
    ssize_t n = readlink("/proc/thread-self", link, sizeof link - 1); /* "PID/task/TID" */
    if (n <= 0)
        return 0;
    link[n] = '\0';
    const char *slash = strrchr(link, '/');
    return slash ? atoi(slash + 1) : 0;
}

int test_thread_asleep(int tid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char buf[512];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* the name may hold spaces */
    return p && p[1] == ' ' && p[2] == 'S';
}

int test_wait_parked(const int *started, const int *done, const int *tid, unsigned prompt_ms, unsigned settle_ms,
                     unsigned blind_ms)
{
    if (!wait_for_flag(started, 1, prompt_ms))
        return 0;
    int id = __atomic_load_n(tid, __ATOMIC_ACQUIRE);
    if (id == 0) {
        sleep_ms(blind_ms);
        return !__atomic_load_n(done, __ATOMIC_ACQUIRE);
    }
    /* Bounded by the clock: the only place the task can sleep is the park of
     * its blocking call (uncontended locks do not sleep). */
    int64_t deadline = rtipc_time_ns() + (int64_t)prompt_ms * 1000000;
    while (rtipc_time_ns() < deadline && !__atomic_load_n(done, __ATOMIC_ACQUIRE)) {
        if (test_thread_asleep(id)) {
            sleep_ms(settle_ms);
            return test_thread_asleep(id) && !__atomic_load_n(done, __ATOMIC_ACQUIRE);
        }
        sleep_ms(1);
    }
    return 0;
}

int with_address_space_capped(int (*fn)(void *arg), void *arg)
{
    unsigned long long vm = vm_size_bytes();
    assert_true(vm > 0);
    struct rlimit old;
    assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
    struct rlimit lim = old;
    rlim_t cap = (rlim_t)(vm + 256ull * 1024 * 1024);
    if (lim.rlim_cur == RLIM_INFINITY || lim.rlim_cur > cap)
        lim.rlim_cur = cap;
    assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
    int rc = fn(arg);
    assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
    return rc;
}
