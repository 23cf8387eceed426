/* The part of the target seam (target.h) that is the same on every target:
 * what the feature bits are called in the reasons people read. */
#include "target.h"

#include <stddef.h>

const char *bench_target_feature_name(unsigned feature)
{
    switch (feature) {
    case BENCH_TARGET_TASKS: return "tasks and blocking objects";
    case BENCH_TARGET_INTERRUPTS: return "software-triggered interrupts";
    case BENCH_TARGET_TWO_CORES: return "two cores";
    case BENCH_TARGET_THREAD_CPU_TIME: return "per-task CPU time";
    case BENCH_TARGET_FILES: return "files";
    default: return NULL;
    }
}
