/* Pairing a capture's start edges with its end edges (rtipc-bench scope):
 * the published method's latency is the time from an edge of the start
 * line (the producer raises it around its send) to the next edge of the end
 * line (the consumer raises it once woken). Every edge that cannot be
 * paired is counted by why, never paired by a guess. */
#ifndef BENCH_HOST_SCOPE_PAIRING_H
#define BENCH_HOST_SCOPE_PAIRING_H

#include <stddef.h>
#include <stdint.h>

#include "lines.h"

typedef enum { SCOPE_EDGE_RISING, SCOPE_EDGE_FALLING, SCOPE_EDGE_BOTH } scope_edge_t;

typedef enum {
    SCOPE_PAIR_NEXT,  /* each start with the first end after it, before the next start */
    SCOPE_PAIR_ORDER, /* the k-th start with the k-th end: an object that delivers in
                         order and loses nothing, ends allowed after later starts */
} scope_pairing_t;

typedef struct {
    int64_t *start_at;         /* each paired start's sample, in order */
    int64_t *latency;          /* samples from it to its end */
    size_t n;                  /* pairs */
    size_t starts, ends;       /* edges of the chosen kinds on each line */
    size_t end_without_start;  /* an end with no start waiting (or only one past --max-latency) */
    size_t start_without_end;  /* a start whose end did not come within the limit, or at all */
    size_t overlapped;         /* a start followed by another start before an end: none of
                                  such a run is paired */
    size_t end_after_overlap;  /* the end that closed such a run, not paired */
} scope_pairs_t;

/* Pairs line @p start's edges of kind @p se with line @p end's of kind
 * @p ee, no pair longer than @p max_samples, edges outside samples
 * [@p from, @p to] left out. 0 and *out filled (free with
 * scope_pairs_free); -1 when memory runs out; -2 with the reason in @p err
 * when the capture does not fit @p mode (order pairing with unequal counts,
 * or an end before its start or past the limit). */
int scope_pair(const scope_lines_t *c, int start, scope_edge_t se, int end, scope_edge_t ee, int64_t max_samples,
               int64_t from, int64_t to, scope_pairing_t mode, scope_pairs_t *out, char *err, size_t errlen);

void scope_pairs_free(scope_pairs_t *p);

/* "rising", "falling", "both": 0 and *out, or -1. */
int scope_edge_parse(const char *s, scope_edge_t *out);
const char *scope_edge_name(scope_edge_t e);

#endif
