/* The results sink of a target without files: an output printed whole on
 * the console (stdout) between marker lines that a host-side script cuts
 * out (scripts/mcu-run.sh). */
#ifndef BENCH_TARGET_CONSOLE_H
#define BENCH_TARGET_CONSOLE_H

#include <stddef.h>

/* Print "==== LABEL begin ====", the @p len bytes of @p text (a newline
 * added when it lacks one), "==== LABEL end ====", and flush. 0, or -1 when
 * stdout reports an error. */
int bench_console_output(const char *label, const char *text, size_t len);

#endif
