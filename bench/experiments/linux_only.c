/* The registry entries of the Linux-only experiments (linux_only.h) on a
 * target that does not build them: each says why, so that `list` and `run`
 * report it as missing instead of leaving it out. */
#include "experiments.h"
#include "linux_only.h"

#define NOT_HERE(name, ident, upper)                                                   \
    const bench_experiment_t name = {.id = ident,                                      \
                                     .summary = EXP_##upper##_SUMMARY,                 \
                                     .definitions = "Not built for this target: "      \
                                                    EXP_##upper##_ABSENT ".",          \
                                     .requires = EXP_##upper##_REQUIRES,               \
                                     .unavailable = EXP_##upper##_ABSENT}

NOT_HERE(exp_peers, "peers", PEERS);
