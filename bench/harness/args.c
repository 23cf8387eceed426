/* GNU-style command-line helpers (args.h). */
#define _POSIX_C_SOURCE 200809L
#include "args.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtipc/config.h"

int bench_usage_error(const char *prog, const char *fmt, ...)
{
    fprintf(stderr, "%s: ", prog);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry '%s --help'.\n", prog);
    return 2;
}

int bench_print_version(const char *prog)
{
    printf("%s (rtipc) %s\n", prog, RTIPC_VERSION);
    return 0;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

int bench_parse_uint(const char *s, unsigned long long lo, unsigned long long hi, unsigned long long *out)
{
    if (!s || !is_digit(*s))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int bench_parse_real(const char *s, double lo, double hi, double *out)
{
    if (!s || !(is_digit(*s) || (*s == '.' && is_digit(s[1]))))
        return -1;
    for (const char *p = s; *p; p++)
        if (!is_digit(*p) && *p != '.' && *p != 'e' && *p != 'E' && *p != '-' && *p != '+')
            return -1;  /* no hex digits, no inf/nan */
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || !isfinite(v) || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* getopt_long's answer for an option it did not accept (':' for a missing
 * value, '?' otherwise) as a usage error naming it. */
static int bad_option(const char *prog, const struct option *longopts, int c, const char *arg)
{
    if (c == ':')
        return bench_usage_error(prog, "option '%s' wants a value", arg);
    /* An abbreviation that fits several long options is ambiguous, not
     * unknown: say which ones it fits. */
    if (!strncmp(arg, "--", 2) && arg[2]) {
        size_t len = strcspn(arg + 2, "=");
        char fits[200] = "";
        size_t n = 0, used = 0;
        for (size_t i = 0; longopts[i].name; i++)
            if (!strncmp(longopts[i].name, arg + 2, len) && used < sizeof fits) {
                used += (size_t)snprintf(fits + used, sizeof fits - used, "%s--%s", n ? ", " : "", longopts[i].name);
                n++;
            }
        if (n > 1)
            return bench_usage_error(prog, "option '%.*s' is ambiguous: %s", (int)(len + 2), arg, fits);
    }
    return bench_usage_error(prog, "unknown option '%s'", arg);
}

void bench_optparse_init(bench_optparse_t *p, const char *prog, const char *usage, const struct option *longopts)
{
    memset(p, 0, sizeof *p);
    p->prog = prog;
    p->usage = usage;
    p->longopts = longopts;
    opterr = 0;
    /* 0, not 1: glibc and newlib both reset their whole parsing state on it
     * (with 1, newlib keeps its position from the previous parse and reads
     * argv[0] as an option). */
    optind = 0;
}

int bench_optparse_next(bench_optparse_t *p, int argc, char **argv)
{
    int c = getopt_long(argc, argv, ":h", p->longopts, NULL);
    if (c == -1)
        return -1;
    if (c == ':' || c == '?') {
        p->status = bad_option(p->prog, p->longopts, c, argv[optind - 1]);
        return BENCH_OPT_STOP;
    }
    for (int i = 0; p->longopts[i].name && i < BENCH_OPT_MAX; i++) {
        if (p->longopts[i].val != c)
            continue;
        if (p->seen[i]) {
            p->status = bench_usage_error(p->prog, "--%s given twice", p->longopts[i].name);
            return BENCH_OPT_STOP;
        }
        p->seen[i] = true;
        break;
    }
    if ((c == 'h' && p->usage) || c == BENCH_OPT_VERSION) {
        if (c == 'h')
            fputs(p->usage, stdout);
        else
            bench_print_version("rtipc-bench");
        p->status = 0;
        return BENCH_OPT_STOP;
    }
    return c;
}
