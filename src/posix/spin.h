/* The bounded spin phase of a blocking call, before it parks. */
#ifndef RTIPC_POSIX_SPIN_H
#define RTIPC_POSIX_SPIN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

static inline void rtipc__cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Global spin budget in nanoseconds (default RTIPC_SPIN_NS_DEFAULT). */
extern _Atomic int64_t rtipc__spin_ns;

/* Spins until *flag != 0 (true), or the budget or the deadline runs out
 * (false). The load that sees the flag set is an acquire. */
bool rtipc__spin_until(_Atomic uint32_t *flag, int64_t deadline);

#endif
