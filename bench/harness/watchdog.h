/* A plain thread that releases a receiver blocked where no rtipc call can
 * end the wait (a kernel call, a condition variable) once the sender has
 * made no progress for a while: after a lost message the run then fails, as
 * the handoff driver reports it, instead of hanging in a join. Linux only
 * (POSIX threads; it is not an rtipc task, so no rtipc priority keeps it
 * from running). */
#ifndef BENCH_HARNESS_WATCHDOG_H
#define BENCH_HARNESS_WATCHDOG_H

#include <stdatomic.h>
#include <stdint.h>

#include "experiment.h"

typedef struct bench_watchdog bench_watchdog_t;

/* Start the thread: it will kick after @p kick_after_ns without progress.
 * NULL after bench_fail() when it cannot start. */
bench_watchdog_t *bench_watchdog_start(bench_run_t *run, int64_t kick_after_ns);

/* Watch @p progress, a count the sender raises with every send (relaxed):
 * once it has not changed for kick_after_ns, the thread calls kick(obj)
 * (which must never block), then again every 0.5 s while it stays
 * unchanged. NULL progress: watch nothing. Returns when the thread has taken
 * the new watch (kick is never called on the previous object after that). */
void bench_watchdog_watch(bench_watchdog_t *w, const _Atomic uint64_t *progress, void (*kick)(void *obj), void *obj);

/* Stop and join the thread, free @p w (NULL: nothing). */
void bench_watchdog_stop(bench_watchdog_t *w);

#endif
