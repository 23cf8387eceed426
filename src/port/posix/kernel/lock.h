/* The internal lock that guards each rtipc object's state.
 *
 * A priority-inheriting futex lock (FUTEX_LOCK_PI): the word is 0 when free,
 * else the owner's thread id (the kernel adds FUTEX_WAITERS when threads
 * sleep on it). Uncontended lock and unlock are one compare-and-swap each.
 * Contended, the kernel boosts the owner to the highest waiter's priority, so
 * a SCHED_FIFO task preempted while holding an object's lock cannot be kept
 * off its core by middle-priority tasks: the failure a plain spinlock has. */
#ifndef RTIPC_POSIX_LOCK_H
#define RTIPC_POSIX_LOCK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "futex.h"
#include "sanitizer.h"
#include "spin.h"

typedef struct {
    _Atomic uint32_t word;
} rtipc__lock_t;

#define RTIPC__LOCK_INIT {0}

/* The calling thread's kernel thread id, cached per thread: read in line,
 * since every lock and unlock needs it. */
extern _Thread_local uint32_t rtipc__cached_tid;
uint32_t rtipc__tid_slow(void);
static inline uint32_t rtipc__tid(void)
{
    uint32_t tid = rtipc__cached_tid;
    return tid != 0 ? tid : rtipc__tid_slow();
}

/* Whether the lock looks free: a relaxed read that orders nothing (the CAS
 * that takes the lock does the acquire). Reading keeps the line shared with
 * the holder, where a failing CAS would pull it away and delay its unlock. */
static inline bool rtipc__lock_looks_free(rtipc__lock_t *l)
{
    return atomic_load_explicit(&l->word, memory_order_relaxed) == 0;
}

/* Read the lock up to `rounds` times, a relax hint between reads, until it
 * looks free; whether it did. For a caller about to lock that expects the
 * holder to let go within a few instructions. */
static inline bool rtipc__lock_wait_free(rtipc__lock_t *l, int rounds)
{
    for (int i = 0; i < rounds; ++i) {
        if (rtipc__lock_looks_free(l))
            return true;
        rtipc_cpu_relax();
    }
    return rtipc__lock_looks_free(l);
}

void rtipc__lock_slow(rtipc__lock_t *l, uint32_t tid);
void rtipc__unlock_slow(rtipc__lock_t *l);

static inline void rtipc__lock(rtipc__lock_t *l)
{
    uint32_t tid = rtipc__tid();
    uint32_t expected = 0;
    /* Acquire: pairs with the release in rtipc__unlock; publishes everything
     * the previous owner wrote inside its critical section. */
    if (!atomic_compare_exchange_strong_explicit(&l->word, &expected, tid, memory_order_acquire,
                                                 memory_order_relaxed))
        rtipc__lock_slow(l, tid);
    RTIPC__TSAN_ACQUIRE(l);
}

static inline void rtipc__unlock(rtipc__lock_t *l)
{
    RTIPC__TSAN_RELEASE(l);
    uint32_t expected = rtipc__tid();
    /* Release: pairs with the acquire in rtipc__lock (see above). */
    if (!atomic_compare_exchange_strong_explicit(&l->word, &expected, 0, memory_order_release,
                                                 memory_order_relaxed))
        rtipc__unlock_slow(l);
}

#endif
