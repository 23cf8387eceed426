/* A run's results files on a target with files: the rtipc-bench/1 JSON
 * (docs/json-schema.md) and a CSV of its rows, each written whole or not at
 * all through the atomic writer (outfile.h).
 *
 * Context: the thread that ran the run, after it. */
#ifndef BENCH_RESULTS_RUN_FILES_H
#define BENCH_RESULTS_RUN_FILES_H

#include <stddef.h>

#include "../harness/run.h"

/* The run's document into PATH ("-": standard output). 0, or -1 with the
 * reason in ERR ("cannot write PATH: No space left on device"). */
int bench_write_json(const bench_run_t *run, const char *path, char *err, size_t errlen);

/* One CSV line per row into PATH, as bench_write_json writes. */
int bench_write_csv(const bench_run_t *run, const char *path, char *err, size_t errlen);

#endif
