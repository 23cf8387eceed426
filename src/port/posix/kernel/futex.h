/* Thin wrappers over the futex system call (Linux only). */
#ifndef RTIPC_POSIX_FUTEX_H
#define RTIPC_POSIX_FUTEX_H

#include <errno.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Sleep while *word == expected, until woken or until the absolute
 * CLOCK_MONOTONIC time deadline_ns (negative = no deadline). Returns 0 when
 * woken or when the word had already changed, else -errno (ETIMEDOUT, EINTR). */
static inline int rtipc__futex_wait(_Atomic uint32_t *word, uint32_t expected, int64_t deadline_ns)
{
    struct timespec ts, *tsp = NULL;
    if (deadline_ns >= 0) {
        ts.tv_sec = deadline_ns / 1000000000;
        ts.tv_nsec = deadline_ns % 1000000000;
        tsp = &ts;
    }
    /* FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC deadline, so a
     * retry after EINTR needs no recomputation of the remaining time. */
    long r = syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_BITSET_PRIVATE, expected, tsp, NULL,
                     FUTEX_BITSET_MATCH_ANY);
    if (r == 0 || errno == EAGAIN)
        return 0;
    return -errno;
}

/* Wake up to n threads sleeping on word. */
static inline void rtipc__futex_wake(_Atomic uint32_t *word, int n)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

#endif
