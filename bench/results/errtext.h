/* The error text of the results module's calls: each fills the caller's
 * buffer (if any) and returns -1, so a failing path is one line. */
#ifndef BENCH_RESULTS_ERRTEXT_H
#define BENCH_RESULTS_ERRTEXT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

__attribute__((format(printf, 3, 4))) static inline int bench_errtext(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

#endif
