#include "console_sink.h"

#include <stdio.h>

void bench_console_sink_begin(const char *label) { printf("==== %s begin ====\n", label); }

int bench_console_sink_end(const char *label, bool complete)
{
    printf("==== %s %s ====\n", label, complete ? "end" : "aborted");
    return fflush(stdout) == 0 && !ferror(stdout) && complete ? 0 : -1;
}
