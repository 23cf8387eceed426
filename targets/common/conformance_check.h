/* The conformance suite run on a target that cannot diff files: every line
 * the suite emits is printed, and each one that is not commentary ('#') is
 * compared on the fly with the same line of tests/conformance/expected.txt,
 * given as one string (the firmwares embed it at build time). Shared by
 * rtipc's FreeRTOS firmwares (Cortex-M3, RV32 SMP). */
#ifndef RTIPC_TARGETS_CONFORMANCE_CHECK_H
#define RTIPC_TARGETS_CONFORMANCE_CHECK_H

/* Run the suite from the calling task, compare, print a "conformance:"
 * summary line. 0 when the suite passed and every line matched, else 1.
 * @p deviations (NULL, or a NULL-terminated list) names whole lines this
 * target's kernel is known to print instead of the expected line with the
 * same key (documented with the target): such a line is reported and
 * accepted, and so is the suite's failure count for it. Call once. */
int rtipc_conformance_check(const char *expected, const char *const *deviations);

#endif
