/* rtipc-bench's command line, apart from the program's entry point, so that
 * the same commands run from Linux's main() (main.c) and from a task on the
 * FreeRTOS POSIX simulator (main_freertos.c). */
#ifndef BENCH_CLI_H
#define BENCH_CLI_H

/* Run one command line (argv[0] is the program name). Returns the exit
 * status: 0 success, 1 an experiment failed or an output could not be
 * written, 2 usage error (compare: 1 a metric regressed; compare, audit and
 * report: 2 invalid input too).
 * Context: a task (on FreeRTOS, after the scheduler started); not
 * reentrant (one run at a time). */
int bench_cli(int argc, char **argv);

#endif
