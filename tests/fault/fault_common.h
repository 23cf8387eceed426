/* What every fault program uses: flags shared between the main thread, tasks
 * and signal handlers, read and written with acquire/release builtins (so
 * they also work from a handler), and the exit status of a program that
 * cannot run here. Static functions: include in one source per program. */
#ifndef RTIPC_FAULT_COMMON_H
#define RTIPC_FAULT_COMMON_H

/* Exit status of a program whose fault cannot be injected on this machine. */
#define NOT_RUN 1

static inline int load(const int *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static inline void store(int *p, int v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }

#endif
