/* The HTML report of an rtipc-bench run: one self-contained index.html
 * (inline CSS, inline SVG charts, no script, nothing fetched) built from a
 * results document in the rtipc-bench/1 schema (docs/json-schema.md).
 *
 * `rtipc-bench run --report DIR` and `rtipc-bench report FILE DIR` both go
 * through bench_html_report() with the JSON text, so a report built later
 * from the saved file is the same page. docs/methodology.md ("The HTML
 * report") says what each chart shows. */
#ifndef BENCH_REPORT_HTML_H
#define BENCH_REPORT_HTML_H

#include <stddef.h>

typedef struct {
    int charts_drawn;     /* charts inlined in the page */
    int charts_missing;   /* charts the page has a place for but could not draw */
    char warning[320];    /* why charts are missing; empty when none is */
} bench_html_outcome_t;

/* Writes DIR/index.html from JSON_TEXT. DIR (and its parents) is created
 * when missing; the page is written under a temporary name in DIR and
 * renamed into place once complete, so a failed write never leaves a partial
 * index.html. Every string taken from the JSON is HTML-escaped. Charts are
 * drawn by gnuplot (plot.h); when it is missing or fails, the page is still
 * written, says so where the charts would be, and OUTCOME->warning holds the
 * reason. OUTCOME may be NULL.
 * Returns 0 when index.html was written; -1 with the reason in ERR when the
 * text is not JSON, not the rtipc-bench/1 schema, or the page cannot be
 * written. */
int bench_html_report(const char *json_text, const char *dir, bench_html_outcome_t *outcome,
                      char *err, size_t errlen);

/* bench_html_report() on the contents of the file JSON_PATH; a file that
 * cannot be read is an error ("cannot read PATH: reason" in ERR). */
int bench_html_report_from_file(const char *json_path, const char *dir, bench_html_outcome_t *outcome,
                                char *err, size_t errlen);

#endif
