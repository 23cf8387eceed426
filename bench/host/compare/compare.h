/* rtipc-bench compare: two rtipc-bench/1 JSON files side by side.
 *
 * Rows are matched by (experiment, mechanism, variant, metric). A matched row
 * gets a verdict: regressed, improved, same (within the threshold or within
 * noise) or info (no better direction, or no figure to compare). The rule is
 * in docs/methodology.md, "Comparing runs". */
#ifndef BENCH_COMPARE_H
#define BENCH_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "../../results/bootstrap.h"  /* the interval of the median for rows without one */

/* Which way a metric is better. */
typedef enum {
    BENCH_BETTER_LOWER,   /* latencies, bytes, losses */
    BENCH_BETTER_HIGHER,  /* rates */
    BENCH_BETTER_NONE     /* informational: a change is neither good nor bad */
} bench_better_t;

/* The direction of a metric, from its name first and then its unit (the
 * table in compare.c). Unknown names and units are BENCH_BETTER_NONE. Both
 * arguments must be non-NULL strings. */
bench_better_t bench_compare_direction(const char *metric, const char *unit);

/* `rtipc-bench compare BASE.json NEW.json [--threshold PCT]`. argv[0] is
 * "compare". Prints the comparison table and a summary on stdout, warnings
 * (environments that differ) and the regressed rows on stderr. Returns the
 * exit status: 0 nothing regressed, 1 at least one metric regressed past the
 * threshold, 2 usage error or an unreadable or invalid file (one line on
 * stderr names the file and the problem: results/read.h). The caller flushes stdout and turns
 * a failed write into status 1 (main.c does, for every command). */
int bench_compare_main(int argc, char **argv);

#endif
