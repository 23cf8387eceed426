#include "console.h"

#include <stdio.h>

int bench_console_output(const char *label, const char *text, size_t len)
{
    printf("==== %s begin ====\n", label);
    fwrite(text, 1, len, stdout);
    if (len && text[len - 1] != '\n')
        putchar('\n');
    printf("==== %s end ====\n", label);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : -1;
}

void bench_console_begin(const char *label) { printf("==== %s begin ====\n", label); }

int bench_console_end(const char *label, bool complete)
{
    printf("==== %s %s ====\n", label, complete ? "end" : "aborted");
    return fflush(stdout) == 0 && !ferror(stdout) && complete ? 0 : -1;
}
