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

/* GNU option parsing shared by every command: getopt_long with operands
 * permuted to the end, `--`, each option at most once, -h/--help (val 'h')
 * and --version (val BENCH_OPT_VERSION) answered here.
 *
 *   bench_optparse_t p;
 *   bench_optparse_init(&p, "rtipc-bench compare", usage, longopts);
 *   while ((c = bench_optparse_next(&p, argc, argv)) >= 0) { ...optarg... }
 *   if (c == BENCH_OPT_STOP) return p.status;
 *   ... operands are argv[optind..argc) ...
 *
 * bench_optparse_next returns the next option's val, -1 after the last, or
 * BENCH_OPT_STOP with p.status set: 0 after --help (USAGE printed on stdout;
 * with USAGE NULL, 'h' is returned like any option) or --version, 2 after a
 * usage error (an unknown option, a missing value, an option given twice).
 * LONGOPTS holds at most BENCH_OPT_MAX entries. */
#define BENCH_OPT_VERSION 0x7e00
#define BENCH_OPT_STOP (-2)
#define BENCH_OPT_MAX 32

struct option;
typedef struct {
    const char *prog;
    const char *usage;
    const struct option *longopts;
    bool seen[BENCH_OPT_MAX];
    int status;
} bench_optparse_t;

void bench_optparse_init(bench_optparse_t *p, const char *prog, const char *usage, const struct option *longopts);
int bench_optparse_next(bench_optparse_t *p, int argc, char **argv);

#endif
