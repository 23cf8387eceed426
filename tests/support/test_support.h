/* Helpers shared by rtipc's tests: running a function as a task, pinning,
 * and short sleeps. */
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

/* Poll until *flag == want or ms milliseconds pass; returns whether it did. */
int wait_for_flag(const volatile int *flag, int want, unsigned ms);

/* Per-test scale for stress message counts: RTIPC_STRESS_SCALE (a factor,
 * default 1.0) multiplied in. */
long stress_count(long base);

/* Run the calling thread as if it were inside an interrupt handler (until
 * leave_interrupt_context), so tests can check the wrong-context errors. */
void enter_interrupt_context(void);
void leave_interrupt_context(void);

#endif
