/* The streaming throughput driver: a producer task pushes sequence numbers
 * through a mechanism as fast as it takes them, a consumer task takes them
 * and checks every one; the rate is counted by the consumer over a window
 * after a warm-up. Used by peers; any experiment that streams 4-byte items
 * can use it.
 *
 * Producer on logical core 1 (priority 10), consumer on logical core 0
 * (priority 12). The window starts at the consumer's first clock read after
 * the warm-up (20% of the duration, at least 10 ms) and ends at its first
 * read a duration later; the consumer reads its clock every 64 items. The
 * producer then pushes the end marker; sent == received is checked exactly.
 * A polled mechanism's side that finds it full (or empty) spins; a side
 * that stays blocked past the end is kicked. */
#ifndef BENCH_HARNESS_THROUGHPUT_H
#define BENCH_HARNESS_THROUGHPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "experiment.h"

/* The end of the stream (never a sequence number). */
#define BENCH_THROUGHPUT_END UINT32_MAX

/* Items moved per push / pop call at most. */
#define BENCH_THROUGHPUT_RUN 64

typedef struct {
    /* Push up to n items / pop up to n: the number moved, 0..n (0: full /
     * empty, the side spins), negative on an error. A blocking mechanism
     * pushes all n and pops one. */
    int (*push)(void *obj, const uint32_t *items, int n);
    int (*pop)(void *obj, uint32_t *items, int n);
    /* Instead of pop, for a mechanism that merges items into a count: wait
     * and take the count; *end at the end marker. */
    long (*pop_count)(void *obj, bool *end);
    /* The end marker: 1 pushed, 0 no room yet, negative error. NULL: a
     * push of BENCH_THROUGHPUT_END. */
    int (*push_marker)(void *obj);
    /* Optional: release a side blocked for good, without blocking. */
    void (*kick)(void *obj);
    void *obj;
} throughput_ops_t;

typedef struct {
    double duration_s;  /* the window */
    double rest_s;      /* both cores rest this long first: back-to-back phases
                           would run into the kernel's real-time throttling */
} throughput_cfg_t;

typedef struct {
    bool measured;       /* the consumer ran through at least half the window */
    double rate;         /* items per second in the window (when measured) */
    uint64_t items;      /* items counted in the window */
    double window_s;     /* the window, between the consumer's two clock reads */
    uint64_t sent, received;
} throughput_result_t;

/* One phase. 0 (every item arrived, in order, and sent == received; *out
 * says whether the window was measured), or -1 after bench_fail(). */
int throughput_run(bench_run_t *run, const throughput_ops_t *ops, const throughput_cfg_t *cfg,
                   throughput_result_t *out);

#endif
