/* What `rtipc-bench` does with files, apart from the commands every target
 * runs (cli.c: list, help, run). A target with a file system and cJSON
 * (Linux, the FreeRTOS POSIX simulator) builds cli_files.c: the commands
 * that read results files (compare, report, audit) and run's file outputs
 * (--csv, --vcd, --perfetto, --report). A target without files (a
 * firmware: Cortex-M3, ESP-IDF) builds cli_console.c: its JSON goes to the
 * console (the target seam's results sink), and the file commands and
 * outputs say they are not built there and that the host runs them on the
 * printed JSON. Context: the task running bench_cli. */
#ifndef BENCH_CLI_OUTPUTS_H
#define BENCH_CLI_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/run.h"

/* run's outputs, as given on the command line (NULL: not asked for). */
typedef struct {
    const char *json, *csv, *report, *vcd, *perfetto;
    size_t trace_samples; /* --trace-samples, 0 = default */
} bench_cli_outputs_t;

/* compare, report or audit (argv[0] is the command): true and *status set
 * when @p cmd is one of them, false otherwise. */
bool bench_cli_file_command(const char *cmd, int argc, char **argv, int *status);

/* Before the run: every output possible here, writable and no two the same
 * file; the trace recorder allocated when asked for. 0, 1 (a runtime
 * failure, printed) or 2 (a usage error, printed). */
int bench_cli_outputs_prepare(const bench_cli_outputs_t *o);

/* After the run (claims audited): every output asked for. 0, or 1 when one
 * could not be written (the reason printed). */
int bench_cli_outputs_write(bench_run_t *run, const bench_cli_outputs_t *o);

#endif
