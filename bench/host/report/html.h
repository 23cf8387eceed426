/* The HTML report of an rtipc-bench run: one self-contained index.html
 * (inline CSS, inline SVG charts, no script, nothing fetched) built from a
 * results document in the rtipc-bench/1 schema (docs/json-schema.md).
 *
 * `rtipc-bench run --report DIR` and `rtipc-bench report FILE DIR` both go
 * through the reader (results/read.h) and bench_html_report(), so a report
 * built later from the saved file is the same page. docs/methodology.md ("The HTML
 * report") says what each chart shows. */
#ifndef BENCH_REPORT_HTML_H
#define BENCH_REPORT_HTML_H

#include <stddef.h>

#include "../../results/read.h"

typedef struct {
    int charts_drawn;     /* charts inlined in the page */
    int charts_missing;   /* charts the page has a place for but could not draw */
    char warning[320];    /* why charts are missing; empty when none is */
} bench_html_outcome_t;

/* Writes DIR/index.html from RES, a results file loaded and checked by
 * results/read.h. DIR (and its parents) is created when missing; the page is
 * written whole or not at all (results/outfile.h: a failed write leaves a
 * previous index.html as it was). Every string taken from the file is
 * HTML-escaped. Charts are drawn by gnuplot (plot.h); when it is missing or
 * fails, the page is still written, says so where the charts would be, and
 * OUTCOME->warning holds the reason. OUTCOME may be NULL.
 * Returns 0 when index.html was written; -1 with the reason in ERR when the
 * directory cannot be created or the page cannot be written ("cannot write
 * DIR/index.html: No space left on device"). */
int bench_html_report(const bench_results_t *res, const char *dir, bench_html_outcome_t *outcome, char *err,
                      size_t errlen);

#endif
