/* The helpers of test_support.h on the FreeRTOS port (its POSIX simulator),
 * beside tests/support/test_support_common.c: sleeps are rtipc's delays, so a
 * test waits the way its subject does; there is no CPU to pin (one
 * simulated core) and no address-space limit to read. "Interrupt context" is the port's own handler bracket. */
#include "test_support.h"

#include "rtipc/port_freertos.h"

/* Whole ticks, at least the time asked. */
void sleep_ms(unsigned ms) { (void)rtipc_task_delay(rtipc_ms(ms)); }

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

void enter_interrupt_context(void) { rtipc_freertos_isr_enter(); }
void leave_interrupt_context(void) { rtipc_freertos_isr_exit(); }
