#include "failure.h"

#include <stdarg.h>
#include <stdio.h>

bool bench_failure_set(bench_failure_t *f, const char *fmt, ...)
{
    int expected = 0;
    if (!atomic_compare_exchange_strong(&f->set, &expected, 1))
        return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->why, sizeof f->why, fmt, ap);
    va_end(ap);
    return true;
}
