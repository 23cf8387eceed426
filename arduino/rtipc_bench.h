/* rtipc-bench from an Arduino sketch (arduino-esp32 core 3.0.x, ESP32).
 *
 * rtipc_bench_run() takes the command line the host tool takes, for
 * example "run --quick --no-progress --json -", and runs it with the
 * experiments built into this library, as the ESP-IDF app does
 * (targets/esp32/main/bench_main.c). Everything it prints goes to stdout,
 * which arduino-esp32 sends to UART0, the port Serial uses: tables, the
 * claim audit, and with "--json -" the rtipc-bench/1 document between the
 * marker lines that `rtipc-bench capture` cuts out on the host
 * (docs/arduino.md). */
#ifndef RTIPC_ARDUINO_BENCH_H
#define RTIPC_ARDUINO_BENCH_H

#ifdef __cplusplus
extern "C" {
#endif

/** Longest command line rtipc_bench_run accepts, in characters. */
#define RTIPC_BENCH_LINE_MAX 255
/** Most words (options, values, experiment ids) in one command line. */
#define RTIPC_BENCH_WORDS_MAX 31

/**
 * Run one rtipc-bench command line, split at blanks (no quoting); the
 * program name is supplied. stdout is flushed before it returns.
 *
 * Context: a FreeRTOS task, never an interrupt handler, and not Arduino's
 * loop task: the suite pins its own tasks to cores 0 and 1 at priorities 2
 * to 12, so the caller should run at priority 1 with a stack of 32 KiB or
 * more (examples/RtipcBench creates such a task on core 0).
 * Blocking: until the command has finished (the whole quick suite, with
 * "run --quick").
 * Concurrency: one run at a time; a call made while another runs is
 * refused.
 * @return rtipc-bench's exit status: 0 every experiment ran and every
 *         output was written; 1 an experiment failed or an output could
 *         not be written; 2 a usage error, also when @p command_line is
 *         NULL, longer than RTIPC_BENCH_LINE_MAX, has more than
 *         RTIPC_BENCH_WORDS_MAX words, or another run is in progress (a
 *         line on stdout says which).
 */
int rtipc_bench_run(const char *command_line);

#ifdef __cplusplus
}
#endif

#endif
