/* The first failure among threads that work together (a producer, a
 * consumer, an interrupt handler, the runner that waits for them).
 *
 * Any of them may record a failure; only the first reason is kept, because
 * the later ones are usually its consequences (a receiver unblocked on
 * purpose, a sender that gave up). The others poll bench_failure_is_set()
 * to stop early. */
#ifndef BENCH_FAILURE_H
#define BENCH_FAILURE_H

#include <stdatomic.h>
#include <stdbool.h>

typedef struct {
    _Atomic int set;   /* 1 once a failure is recorded */
    char why[256];     /* its reason: written once, by the thread that set it */
} bench_failure_t;

/* Record a failure with a printf-style reason, unless one is already
 * recorded. Safe from any thread, rtipc interrupt handlers included (they run
 * in threads). Returns true when this call recorded it. Zero-initialise @p f
 * before use. */
bool bench_failure_set(bench_failure_t *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Whether a failure has been recorded (by any thread). Its reason, f->why,
 * is complete only in the thread that recorded it, or once that thread is
 * joined. Inline: tasks poll it between timed operations, and it must cost
 * no more than the load it is. */
static inline bool bench_failure_is_set(const bench_failure_t *f)
{
    return atomic_load(&f->set) != 0;
}

#endif
