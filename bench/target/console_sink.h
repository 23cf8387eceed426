/* The results sink of a target without files: an output printed on the
 * console (stdout) as it is written, between marker lines that a host-side
 * script cuts out (scripts/mcu-run.sh). */
#ifndef BENCH_TARGET_CONSOLE_SINK_H
#define BENCH_TARGET_CONSOLE_SINK_H

#include <stdbool.h>
#include <stddef.h>

/* "==== LABEL begin ====", then the caller's writes to stdout, then
 * bench_console_sink_end. A text that could not be completed (@p complete
 * false) ends with "==== LABEL aborted ====", so that the host refuses the
 * capture instead of reading a truncated one. 0, or -1 when stdout reports
 * an error or the text is incomplete. */
void bench_console_sink_begin(const char *label);
int bench_console_sink_end(const char *label, bool complete);

#endif
