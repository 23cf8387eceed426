/* The helpers of test_support.h on the FreeRTOS port (its POSIX simulator):
 * tasks and sleeps are rtipc's, so a test waits the way its subject does;
 * there is no CPU to pin (one simulated core) and no address-space limit to
 * read. "Interrupt context" is the port's own handler bracket. */
#include "test_support.h"

#include <stdlib.h>

#include "rtipc/port_freertos.h"

rtipc_task_t *start_task(const char *name, unsigned priority, int core, rtipc_task_fn fn, void *arg)
{
    rtipc_task_config_t cfg = {.name = name, .priority = priority, .core = core, .entry = fn, .arg = arg};
    rtipc_task_t *t = NULL;
    assert_int_equal(rtipc_task_create(&cfg, &t), RTIPC_OK);
    assert_non_null(t);
    return t;
}

void join_task(rtipc_task_t *t) { assert_int_equal(rtipc_task_join(t), RTIPC_OK); }

/* Whole ticks, at least the time asked. */
void sleep_ms(unsigned ms) { (void)rtipc_task_delay(rtipc_ms(ms)); }

int test_core(int which) { return rtipc_core_count() >= 2 ? which : RTIPC_CORE_ANY; }

int pin_self_to_cpu(int cpu)
{
    (void)cpu;
    return 0;
}

void pin_main_to_core0(void) {}

unsigned long long vm_size_bytes(void) { return 0; }

int wait_for_flag(const volatile int *flag, int want, unsigned ms)
{
    int64_t deadline = rtipc_time_ns() + (int64_t)ms * 1000000;
    while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != want) {
        if (rtipc_time_ns() >= deadline)
            return 0;
        (void)rtipc_task_delay(rtipc_ms(1)); /* the flag's writer needs the core */
    }
    return 1;
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

void enter_interrupt_context(void) { rtipc_freertos_isr_enter(); }
void leave_interrupt_context(void) { rtipc_freertos_isr_exit(); }
