#include "clock.h"

#include <string.h>

bool bench_clock_known(const char *name)
{
    static const char *const names[] = {BENCH_CLOCK_HOST_TSC, BENCH_CLOCK_OS, BENCH_CLOCK_MCU_CYCLES,
                                        BENCH_CLOCK_EMULATED_INSTRUCTIONS, BENCH_CLOCK_EMULATED_WALL};
    for (size_t i = 0; name && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

const char *bench_clock_of_source(const char *source)
{
    if (!source)
        return "";
    if (strcmp(source, "tsc") == 0 || strcmp(source, "cntvct") == 0)
        return BENCH_CLOCK_HOST_TSC;
    if (strcmp(source, "clock_monotonic_raw") == 0 || strcmp(source, "clock_monotonic") == 0 ||
        strcmp(source, "freertos_tick") == 0)
        return BENCH_CLOCK_OS;
    /* "ccount", "application", a board's counter: real or emulated cannot
     * be told from the name alone. */
    return "";
}

bool bench_clock_free_unit(const char *unit)
{
    static const char *const units[] = {"B", "count", "bool", "words"};
    for (size_t i = 0; unit && i < sizeof units / sizeof units[0]; i++)
        if (strcmp(unit, units[i]) == 0)
            return true;
    return false;
}
