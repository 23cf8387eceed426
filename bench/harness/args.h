/* The command-line conventions every rtipc-bench command shares (GNU
 * style): usage errors with a pointer to --help, --version, and numbers
 * that are checked against a range named in the message. */
#ifndef BENCH_ARGS_H
#define BENCH_ARGS_H

#include <stdbool.h>

/* Prints "PROG: message" and "Try 'PROG --help'." on stderr; returns 2, the
 * exit status of a usage error. */
int bench_usage_error(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints "PROG (rtipc) VERSION" (the project version of rtipc/config.h) on
 * stdout; returns 0. */
int bench_print_version(const char *prog);

/* S as a whole decimal number in [LO, HI]: digits only (no sign, space or
 * base prefix). 0 with *OUT set, or -1. */
int bench_parse_uint(const char *s, unsigned long long lo, unsigned long long hi, unsigned long long *out);

/* S as a decimal real number in [LO, HI] (digits, an optional fraction and
 * exponent; no sign, space, hex, inf or nan). 0 with *OUT set, or -1. */
int bench_parse_real(const char *s, double lo, double hi, double *out);

/* getopt_long's answer for an option it did not accept (':' with optstring
 * starting with ':' for a missing argument, '?' otherwise), as a usage
 * error naming the option; returns 2. */
int bench_bad_option(const char *prog, int c, const char *arg);

/* For options that may be given once: true (after a usage error message)
 * when *SEEN was already set; sets it. */
bool bench_option_repeated(const char *prog, bool *seen, const char *name);

#endif
