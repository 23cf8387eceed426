/* rtipc-bench scope: the published method's figures from a board's own
 * signal lines. A logic analyzer or oscilloscope captures two GPIO lines
 * (the producer raises one around each send, the consumer raises the other
 * once woken: bench_target_signal); scope reads the capture (read.h),
 * pairs each start edge with its end edge (pairing.h), and writes the
 * latencies as an rtipc-bench/1 row with the statistics of every latency
 * row, on the clock provenance "logic-analyzer", so that compare, audit and
 * report take it like any run (docs/esp32.md, "Timing with a logic
 * analyzer"). */
#ifndef BENCH_HOST_SCOPE_H
#define BENCH_HOST_SCOPE_H

/* `rtipc-bench scope [options] CAPTURE OUT.json` (scope --help). argv[0]
 * is "scope". Returns the exit status: 0 written; 1 OUT.json could not be
 * written (left as it was); 2 usage error or a capture that cannot be read
 * or paired (a one-line reason; OUT.json untouched). */
int bench_scope_main(int argc, char **argv);

#endif
