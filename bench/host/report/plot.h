/* Charts for the HTML report, drawn by gnuplot's svg terminal.
 *
 * A plot session owns a private scratch directory. The caller writes data
 * files into it, then hands a gnuplot script to bench_plot_render(), which
 * runs gnuplot on it and returns the SVG ready to be inlined in an HTML page.
 * gnuplot is an optional run-time tool: when it is missing, the session says
 * so (bench_plot_available() is false) and every render fails cleanly. */
#ifndef BENCH_REPORT_PLOT_H
#define BENCH_REPORT_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct bench_plot bench_plot_t;

/* Creates the scratch directory (under $TMPDIR, else /tmp) and checks that
 * `gnuplot --version` runs. Returns NULL, with the reason in err, only when
 * the directory cannot be made or memory runs out; a missing gnuplot is not
 * an error here. */
bench_plot_t *bench_plot_open(char *err, size_t errlen);

/* Removes the scratch directory and everything in it, and frees the session.
 * Accepts NULL. */
void bench_plot_close(bench_plot_t *plot);

/* True when gnuplot was found and answered `--version`. */
bool bench_plot_available(const bench_plot_t *plot);

/* gnuplot's version line ("gnuplot 5.4 patchlevel 4") when available, else
 * why it is not (e.g. "gnuplot was not found in PATH"). Valid until close. */
const char *bench_plot_status(const bench_plot_t *plot);

/* Opens NAME (a plain file name, no '/') in the scratch directory for
 * writing; scripts refer to it by that name. The caller fcloses it before
 * rendering. NULL with errno set on failure. */
FILE *bench_plot_data_file(bench_plot_t *plot, const char *name);

/* Writes S to SCRIPT as a gnuplot single-quoted string literal: quotes
 * doubled, control characters replaced by spaces, so any text (titles taken
 * from a results file) is safe in a script. */
void bench_plot_put_string(FILE *script, const char *s);

/* Runs gnuplot on SCRIPT with the svg terminal set to WIDTH x HEIGHT pixels
 * (plain text, no enhanced-text markup, UTF-8) and the output going to a
 * scratch file; the script only sets up and plots. On success stores in *svg
 * a malloc'd <svg> element for inlining in HTML (no XML prolog, no namespace
 * declarations, every id and reference prefixed with ID_PREFIX so several
 * charts can share a page) and returns 0. Returns -1 with the reason in err
 * (gnuplot missing, its exit status and first error line, no output). */
int bench_plot_render(bench_plot_t *plot, const char *script, int width, int height,
                      const char *id_prefix, char **svg, char *err, size_t errlen);

#endif
