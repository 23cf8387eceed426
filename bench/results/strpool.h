/* A pool of strings, each kept once however many rows name it: a run's
 * rows point at their names here instead of each carrying fixed arrays
 * (hundreds of rows, most sharing a handful of names, on an MCU's heap). */
#ifndef BENCH_RESULTS_STRPOOL_H
#define BENCH_RESULTS_STRPOOL_H

#include <stddef.h>

typedef struct bench_strpool_chunk bench_strpool_chunk_t;

typedef struct {
    bench_strpool_chunk_t *chunks;  /* the newest first */
    const char **strings;           /* hash table of the strings kept (NULL: empty slot) */
    size_t n, cap;                  /* strings kept; slots (a power of two, at most half full) */
} bench_strpool_t;

/* The pool's copy of @p s (NULL reads as ""), made on first use; the same
 * pointer for equal strings until bench_strpool_free. NULL when memory runs
 * out. */
const char *bench_strpool_get(bench_strpool_t *pool, const char *s);

/* Frees every string of the pool; the pool is then empty. */
void bench_strpool_free(bench_strpool_t *pool);

#endif
