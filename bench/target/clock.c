/* Stable names of the clock provenances (clock.h). */
#include "clock.h"

#include <stddef.h>
#include <string.h>

static const char *const provenance_names[BENCH_CLOCK_PROVENANCES] = {
    [BENCH_CLOCK_HOST_TSC] = "host-tsc",
    [BENCH_CLOCK_OS] = "os-clock",
    [BENCH_CLOCK_MCU_CYCLES] = "mcu-cycles",
    [BENCH_CLOCK_EMULATED_INSTRUCTIONS] = "emulated-instructions",
    [BENCH_CLOCK_EMULATED_WALL] = "emulated-wall-clock",
    [BENCH_CLOCK_EMULATED_CORE_CYCLES] = "emulated-core-cycles",
    [BENCH_CLOCK_LOGIC_ANALYZER] = "logic-analyzer",
};

const char *bench_clock_provenance_name(bench_clock_provenance_t p)
{
    return (unsigned)p < BENCH_CLOCK_PROVENANCES ? provenance_names[p] : NULL;
}

int bench_clock_provenance_parse(const char *name, bench_clock_provenance_t *out)
{
    if (!name)
        return -1;
    for (unsigned i = 0; i < BENCH_CLOCK_PROVENANCES; i++) {
        if (strcmp(name, provenance_names[i]) == 0) {
            *out = (bench_clock_provenance_t)i;
            return 0;
        }
    }
    return -1;
}

const char *bench_clock_provenance_unit(bench_clock_provenance_t p)
{
    return p == BENCH_CLOCK_EMULATED_INSTRUCTIONS ? "instr" : "ns";
}
