/* Helpers shared by rtipc's tests: running a function as a task, pinning,
 * short sleeps, and the process's address-space size. */
#ifndef RTIPC_TEST_SUPPORT_H
#define RTIPC_TEST_SUPPORT_H

#include <setjmp.h> /* cmocka needs these before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rtipc/rtipc.h"
#include "rtipc/irq.h"
#include "rtipc/tick.h"
#include "rtipc/wdt.h"

/* Start fn(arg) as an rtipc task; fails the test if creation fails. */
rtipc_task_t *start_task(const char *name, unsigned priority, int core, rtipc_task_fn fn, void *arg);

/* Join a task started with start_task; fails the test on error. */
void join_task(rtipc_task_t *t);

/* Sleep the calling thread for ms milliseconds. */
void sleep_ms(unsigned ms);

/* Core for "core 0" / "core 1" of an experiment: 0 and 1 when the machine has
 * two cores, else RTIPC_CORE_ANY so tests still run on one core. */
int test_core(int which);

/* Pin the calling thread to CPU @p cpu (pthread_setaffinity_np). Returns 0,
 * or the error number pthread_setaffinity_np returned. */
int pin_self_to_cpu(int cpu);

/* Pin the calling thread (the test's main thread) to CPU 0 when the machine
 * has two cores or more: the tasks and interrupt handlers it watches run on
 * core 1, and its own rtipc calls never count as "a task on the interrupt's
 * core rescheduling". On one core it does nothing; a refused pinning is
 * ignored (the tests still run, only less strictly placed). */
void pin_main_to_core0(void);

/* The process's virtual memory size (VmSize in /proc/self/status), in bytes;
 * 0 when it cannot be read. Tests cap RLIMIT_AS a little above it to make
 * an allocation fail. */
unsigned long long vm_size_bytes(void);

/* Poll until *flag == want or ms milliseconds pass; returns whether it did. */
int wait_for_flag(const volatile int *flag, int want, unsigned ms);

/* Per-test scale for stress message counts: RTIPC_STRESS_SCALE (a factor,
 * default 1.0) multiplied in. */
long stress_count(long base);

/* Skip the calling test on the FreeRTOS port, where what it exercises is
 * the Linux port's alone (a thread rtipc did not create, an address-space
 * limit that makes allocation fail, overflow counting of a misused queue
 * set); @p why goes to the log. */
#define SKIP_ON_FREERTOS(why)                                                     \
    do {                                                                          \
        if (RTIPC_PORT_FREERTOS) {                                                \
            print_message("not on the FreeRTOS port: %s\n", why);                \
            skip();                                                               \
        }                                                                         \
    } while (0)

/* Run the calling thread as if it were inside an interrupt handler (until
 * leave_interrupt_context), so tests can check the wrong-context errors. */
void enter_interrupt_context(void);
void leave_interrupt_context(void);

#endif
