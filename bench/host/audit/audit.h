/* rtipc-bench audit: the claim audit (bench/harness/claims.c) applied to the
 * rows of an rtipc-bench/1 file, wherever the run was made.
 *
 * Targets that cannot audit themselves (the bare-metal Cortex-M3 suite, the
 * ESP-IDF suite's small JSON writer, the FreeRTOS POSIX simulator) print
 * rtipc-bench/1 JSON whose claims are all "not-testable"; this command
 * rebuilds their result rows into a run, audits it with the same rules as
 * `rtipc-bench run`, prints the audit as `run` prints it and can write the
 * file back with the new verdicts. */
#ifndef BENCH_AUDIT_H
#define BENCH_AUDIT_H

/* `rtipc-bench audit FILE.json [--json OUT.json]`. argv[0] is "audit".
 * Prints the claim audit on stdout; problems with the input as one line on
 * stderr naming the file. With --json, writes the input object with its
 * "claims" array replaced by the new verdicts (every other member kept as
 * read), whole or not at all (results/outfile.h); OUT.json naming FILE.json
 * is a usage error. Returns the exit status: 0 audited, 1 OUT.json could not
 * be written, 2 usage error or an unreadable or invalid input file
 * (results/read.h). */
int bench_audit_main(int argc, char **argv);

#endif
