/*
 * rtipc conformance suite: scripted behaviour checks that run unchanged on
 * every rtipc port and print one canonical line per observation, so that
 * two ports can be compared line by line (tests/conformance/README.md).
 *
 * Portable C11 on the public rtipc API only; no allocation of its own and
 * small stack frames, so it can run inside an RTOS task.
 */
#ifndef RTIPC_CONFORMANCE_H
#define RTIPC_CONFORMANCE_H

#ifdef __cplusplus
extern "C" {
#endif

/** Core every task and interrupt of the suite is pinned to. */
#define RTIPC_CONF_CORE 0
/** Priority the suite runs at (it sets the calling task to it on entry and
 *  restores the caller's priority on exit). Helpers use 1, 3 and 4, so the
 *  port needs RTIPC_PRIORITY_LEVELS >= 5. */
#define RTIPC_CONF_PRIO_RUNNER 2u
/** Stack size given to the helper tasks, in bytes. */
#define RTIPC_CONF_STACK 8192u

/** Scenario classes (flags for rtipc_conformance_run_flags). */
#define RTIPC_CONF_SKIP_ORDERED 1u /**< skip scenarios whose outcome needs a preemptive priority scheduler */

/**
 * Run every check. Call it from an rtipc task (any priority; the suite sets
 * its own) pinned to core RTIPC_CONF_CORE, with nothing else running on that
 * core at priorities >= 1. Each outcome is passed to @p emit as one line
 * without a newline: "group.check: observed values". Lines starting with '#'
 * are commentary (the scheduling policy, skipped scenarios, and for each
 * check whose observation differs from the documented semantics, a
 * "# FAIL" line naming the expected value).
 *
 * Scenarios that need preemption by priority are skipped (a "# skip" line
 * each) when rtipc_sched_policy() is not RTIPC_SCHED_FIFO.
 *
 * @return the number of failed checks (0: every line is as expected).
 */
int rtipc_conformance_run(void (*emit)(const char *line, void *ctx), void *ctx);

/** As rtipc_conformance_run, with RTIPC_CONF_* flags. */
int rtipc_conformance_run_flags(void (*emit)(const char *line, void *ctx), void *ctx, unsigned flags);

#ifdef __cplusplus
}
#endif
#endif
