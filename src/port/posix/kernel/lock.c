#include "lock.h"

#include <sched.h>
#include <stdlib.h>

_Thread_local uint32_t rtipc__cached_tid;

uint32_t rtipc__tid_slow(void)
{
    rtipc__cached_tid = (uint32_t)syscall(SYS_gettid);
    return rtipc__cached_tid;
}

/* Spin this many rounds before asking the kernel: an rtipc critical section
 * is a few dozen instructions, so a holder running on the other core usually
 * releases within that. */
#define LOCK_SPIN_ROUNDS 100

void rtipc__lock_slow(rtipc__lock_t *l, uint32_t tid)
{
    for (int i = 0; i < LOCK_SPIN_ROUNDS; ++i) {
        rtipc_cpu_relax();
        uint32_t expected = 0;
        if (rtipc__lock_looks_free(l) &&
            atomic_compare_exchange_weak_explicit(&l->word, &expected, tid, memory_order_acquire,
                                                  memory_order_relaxed))
            return;
    }
    for (;;) {
        /* The kernel takes the lock for us (setting the word to our tid) or
         * queues us by priority and boosts the owner. */
        long r = syscall(SYS_futex, (uint32_t *)&l->word, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0);
        if (r == 0)
            return;
        if (errno != EINTR && errno != EAGAIN)
            abort(); /* only a corrupted lock word gets here */
    }
}

void rtipc__unlock_slow(rtipc__lock_t *l)
{
    /* FUTEX_WAITERS is set: the kernel hands the lock to the top waiter. */
    if (syscall(SYS_futex, (uint32_t *)&l->word, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0) != 0)
        abort(); /* unlock by a non-owner: an internal bug, never user input */
}
