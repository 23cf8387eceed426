/* rtipc-bench capture: the rtipc-bench/1 JSON a board prints on its console
 * (between "==== rtipc-bench/1 JSON begin ====" and "... end ====", the
 * firmwares' console sink: bench/target/console_sink.h), read from a serial
 * device, a file or standard input (the output of `idf.py monitor` or of
 * QEMU), checked with the reader every file command shares
 * (results/read.h) and written whole or not at all (results/outfile.h), so
 * that compare, audit and report take it like any results file. */
#ifndef BENCH_CAPTURE_H
#define BENCH_CAPTURE_H

/* `rtipc-bench capture [--baud N] [--timeout S] [--echo] [--no-progress]
 * SOURCE OUT.json`. argv[0] is "capture". SOURCE "-" is standard input; a
 * terminal device (a serial port, a pseudo-terminal) is put in raw mode at
 * N baud (default 115200, 8N1, no flow control); anything else is read as
 * it comes. Lines before the begin marker are skipped (--echo copies every
 * line read to stdout); a second begin marker (the board restarted) starts
 * the document again. While waiting, a progress line on stderr when it is a
 * terminal. Returns the exit status: 0 written; 1 no document (the input
 * ended or S seconds passed without an end marker, the board printed the
 * "aborted" marker, the JSON is not valid rtipc-bench/1, the source could not
 * be read or OUT.json written: OUT.json is then left as it was); 2 usage
 * error. */
int bench_capture_main(int argc, char **argv);

#endif
