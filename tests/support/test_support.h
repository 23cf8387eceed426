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

/* rtipc_spsc_create_static called as if from an interrupt handler (the one
 * object every port may create there); returns its result. */
int create_spsc_static_in_interrupt(size_t capacity, size_t item_size, void *storage, rtipc_spsc_static_t *cb,
                                    rtipc_spsc_t **out);

/* A timeout a table row can hold as a constant: -1 is RTIPC_FOREVER, 0
 * RTIPC_NO_WAIT, anything else that many milliseconds. */
static inline rtipc_timeout_t test_timeout_ms(int ms)
{
    return ms < 0 ? RTIPC_FOREVER : ms == 0 ? RTIPC_NO_WAIT : rtipc_ms((uint32_t)ms);
}

/* One cmocka test per row of a table whose rows start with
 * `const char *name`: the test takes the row's name, and the row as its
 * state (cmocka_unit_test_prestate with a name of its own). */
#define TABLE_TEST(fn, row) {(row).name, (fn), NULL, NULL, (void *)&(row)}

/* ---- watching a task block (tests/unit) ----------------------------------
 * A test that needs "the task is parked in its blocking call" checks it
 * instead of assuming it: the task says it is about to call, and then its
 * thread is asleep in /proc. The FreeRTOS simulator is a Linux process too,
 * so both ports read the same files. */

/* The calling thread's kernel id (from /proc/thread-self); 0 if unknown. */
int test_thread_id(void);

/* Whether thread @p tid of this process is asleep ('S' in its /proc stat). */
int test_thread_asleep(int tid);

/* After starting a task that stores its test_thread_id() in *tid, then sets
 * *started (release) before its blocking call and *done (release) after it:
 * wait up to prompt_ms for it to be asleep, let it settle settle_ms, and
 * return whether it is still asleep and not done. Without a thread id it
 * waits blind_ms and only checks that the call has not returned. */
int test_wait_parked(const int *started, const int *done, const int *tid, unsigned prompt_ms, unsigned settle_ms,
                     unsigned blind_ms);

/* Run fn(arg) with the address space (RLIMIT_AS) capped a little above what
 * the process maps now, so that a large allocation fails; asserts that the
 * limit could be read, set and restored, and returns fn's result. fn must
 * not assert (the limit would stay). Linux port only. */
int with_address_space_capped(int (*fn)(void *arg), void *arg);

#endif
