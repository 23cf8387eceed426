#include "row_clock.h"

#include <stddef.h>
#include <string.h>

bool bench_row_clock_known(const char *name)
{
    bench_clock_provenance_t p;
    return bench_clock_provenance_parse(name, &p) == 0;
}

const char *bench_row_clock_of_source(const char *source)
{
    if (!source)
        return "";
    if (strcmp(source, "tsc") == 0 || strcmp(source, "cntvct") == 0)
        return bench_clock_provenance_name(BENCH_CLOCK_HOST_TSC);
    if (strcmp(source, "clock_monotonic_raw") == 0 || strcmp(source, "clock_monotonic") == 0 ||
        strcmp(source, "freertos_tick") == 0)
        return bench_clock_provenance_name(BENCH_CLOCK_OS);
    return "";
}

bool bench_row_clock_free_unit(const char *unit)
{
    static const char *const units[] = {"B", "count", "bool", "words"};
    for (size_t i = 0; unit && i < sizeof units / sizeof units[0]; i++)
        if (strcmp(unit, units[i]) == 0)
            return true;
    return false;
}
