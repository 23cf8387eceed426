/* Shared harness of the stress tests (tests/stress/): seeded random numbers,
 * random timeouts with retry accounting, error recording from tasks, bitmaps
 * for exactly-once checks, task groups with a stall watchdog, and summaries.
 *
 * Rule of the stress tests: cmocka assertions run on the main test thread
 * only. Tasks record what goes wrong with stress_error() and the main thread
 * calls stress_assert_no_errors() after the tasks have finished. */
#ifndef RTIPC_STRESS_SUPPORT_H
#define RTIPC_STRESS_SUPPORT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "test_support.h"

/* ---- random numbers ------------------------------------------------------ */

/* The run's base seed: RTIPC_STRESS_SEED if set (decimal or 0x hex), else
 * derived from the clock and the pid. Printed on first use so that a failing
 * run's random choices can be replayed (the interleaving cannot). */
uint64_t stress_seed(void);

typedef struct {
    uint64_t s;
} stress_rng_t;

/* A generator for stream @p stream (e.g. a task index) of the run's seed. */
void stress_rng_init(stress_rng_t *r, uint64_t stream);
uint64_t stress_rand(stress_rng_t *r);
/* Uniform in 0 .. n-1 (n > 0). */
uint32_t stress_below(stress_rng_t *r, uint32_t n);

/* ---- random timeouts and retries ---------------------------------------- */

/* Largest finite timeout handed out, in microseconds. */
#define STRESS_MAX_FINITE_US 200u

/* Per-task accounting of timeouts used and retries needed. Owned by one task;
 * read by the main thread after that task has finished. */
typedef struct {
    uint64_t no_wait, finite, forever; /* timeouts handed out, by kind */
    uint64_t wouldblock, timedout;     /* retries, by cause */
} stress_waits_t;

/* A random timeout: a third each RTIPC_NO_WAIT, a finite 0..200 us (0 is
 * RTIPC_NO_WAIT) and RTIPC_FOREVER. Counted in @p w. */
rtipc_timeout_t stress_timeout(stress_rng_t *r, stress_waits_t *w);

/* Whether rc is a retryable "not now" (RTIPC_EWOULDBLOCK or
 * RTIPC_ETIMEDOUT), counting it in @p w. Under the SCHED_OTHER fallback it
 * yields after RTIPC_EWOULDBLOCK, so that polling does not starve the task
 * being waited for (SCHED_FIFO priorities do that job otherwise). */
bool stress_retry(int rc, stress_waits_t *w);

/* Sum of b into a. */
void stress_waits_add(stress_waits_t *a, const stress_waits_t *b);
static inline uint64_t stress_waits_retries(const stress_waits_t *w) { return w->wouldblock + w->timedout; }

/* ---- errors recorded by tasks -------------------------------------------- */

typedef struct {
    atomic_long count;
    atomic_int claimed;   /* the first reporter owns `first` */
    atomic_int published; /* `first` is complete */
    char first[256];
} stress_errors_t;

void stress_errors_init(stress_errors_t *e);
/* Record an error (any thread). The first message is kept; all are counted,
 * the first few are also printed to stderr. */
void stress_error(stress_errors_t *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline long stress_error_count(stress_errors_t *e) { return atomic_load(&e->count); }
/* Main test thread only: fail the test if any error was recorded. */
void stress_assert_no_errors(stress_errors_t *e);

/* ---- exactly-once bitmaps ------------------------------------------------- */

typedef struct {
    _Atomic uint64_t *words;
    long bits;
} stress_bitmap_t;

/* Main thread: allocate @p bits clear bits (fails the test on ENOMEM). */
void stress_bitmap_init(stress_bitmap_t *b, long bits);
void stress_bitmap_free(stress_bitmap_t *b);
/* Set bit i (any thread, atomically); returns its previous value. */
bool stress_bitmap_set(stress_bitmap_t *b, long i);
/* Number of clear bits; *first receives the first clear one (or -1). */
long stress_bitmap_missing(const stress_bitmap_t *b, long *first);

/* Print to stderr how many bits are clear per producer, and the first clear
 * one, for a bitmap laid out as consecutive per-producer ranges starting at
 * base[0..producers-1]. For stall diagnostics. */
void stress_bitmap_report(const stress_bitmap_t *b, const long *base, int producers);

/* ---- task groups ----------------------------------------------------------- */

#define STRESS_MAX_TASKS 16

typedef struct stress_group stress_group_t;

typedef struct {
    stress_group_t *group;
    rtipc_task_fn fn;
    void *arg;
    atomic_int done;
    char name[16];
    unsigned priority;
    int core;
} stress_slot_t;

struct stress_group {
    const char *label;
    int n;
    atomic_int finished;
    rtipc_task_t *tasks[STRESS_MAX_TASKS];
    stress_slot_t slots[STRESS_MAX_TASKS];
};

void stress_group_init(stress_group_t *g, const char *label);
/* Main thread: start fn(arg) as a task of the group (name "<prefix><i>"). */
void stress_group_start(stress_group_t *g, const char *prefix, unsigned priority, int core, rtipc_task_fn fn,
                        void *arg);
/* Tasks of the group that have returned from their function. */
static inline int stress_group_finished(stress_group_t *g) { return atomic_load(&g->finished); }

/* Main thread: wait until every task of @p g has returned. Fails the test
 * (after printing which tasks are still running and calling @p dump, if not
 * NULL) when *progress stays unchanged for the stall limit: 60 s, or
 * RTIPC_STRESS_STALL_S. A stall is a hang: a lost wake-up, lost item or
 * deadlock. The shared state, the group included, must stay valid after
 * such a failure (tasks are still running and touch their group when they
 * end): allocate it on the heap and leak it on that path. */
void stress_group_wait(stress_group_t *g, const atomic_long *progress, void (*dump)(void *), void *dump_arg);
/* Main thread: join every task of the group (after stress_group_wait). */
void stress_group_join(stress_group_t *g);

/* Main thread: wait until *value >= want, with the same stall watchdog. */
void stress_wait_value(const atomic_long *value, long want, const char *what, void (*dump)(void *),
                       void *dump_arg);

/* ---- time and reporting ----------------------------------------------------- */

/* Seconds on CLOCK_MONOTONIC. */
double stress_now(void);

/* Split @p total messages over @p n producers: producer i's share. */
long stress_share(long total, int n, int i);

/* Print the scheduling policy, cores, seed and scale once per program. */
void stress_banner(const char *program);

/* One summary line: "stress <name>: <messages> messages, <retries> retries
 * (<wouldblock> would-block, <timedout> timed-out), <secs> s, <rate> msg/s". */
void stress_summary(const char *name, long messages, const stress_waits_t *w, double secs);

/* Spin-wait politely: a short sleep that lets lower-priority SCHED_FIFO
 * tasks on the same core run (rtipc_task_delay of @p us microseconds). */
void stress_backoff(unsigned us);

#endif
