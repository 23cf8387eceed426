#include "console_sink.h"

#include <stdio.h>

void bench_console_sink_begin(const char *label) { printf("==== %s begin ====\n", label); }

int bench_console_sink_end(const char *label, bool complete)
{
    printf("==== %s %s ====\n", label, complete ? "end" : "aborted");
    return fflush(stdout) == 0 && !ferror(stdout) && complete ? 0 : -1;
}

int bench_console_sink_output(const char *label, const char *text, size_t len)
{
    bench_console_sink_begin(label);
    fwrite(text, 1, len, stdout);
    if (len && text[len - 1] != '\n')
        putchar('\n');
    return bench_console_sink_end(label, true);
}
