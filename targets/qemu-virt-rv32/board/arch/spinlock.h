/* arch_* layer for the FreeRTOS RV32 SMP port: the kernel's task and ISR
 * locks. The SMP kernel takes a lock again on the core that holds it
 * (vTaskSuspendAll nests, vTaskSwitchContext runs with the scheduler
 * suspended), so each lock is recursive per core: an owner (core + 1, 0 when
 * free) taken with an atomic compare-and-swap, and a depth only the owner
 * touches. */
#ifndef RTIPC_RV32_ARCH_SPINLOCK_H
#define RTIPC_RV32_ARCH_SPINLOCK_H

#include <stdint.h>

typedef struct {
    uint32_t owner;
    uint32_t depth;
} arch_spinlock_t;

extern arch_spinlock_t arch_task_lock;
extern arch_spinlock_t arch_isr_lock;

static inline void arch_spinlock_lock(int32_t core, arch_spinlock_t *lock)
{
    uint32_t me = (uint32_t)core + 1u;
    /* Only this core ever stores `me`, so reading it back is conclusive. */
    if (__atomic_load_n(&lock->owner, __ATOMIC_RELAXED) == me) {
        lock->depth++;
        return;
    }
    for (;;) {
        uint32_t expected = 0;
        if (__atomic_compare_exchange_n(&lock->owner, &expected, me, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            break;
        while (__atomic_load_n(&lock->owner, __ATOMIC_RELAXED) != 0)
            ;
    }
    lock->depth = 1;
}

static inline void arch_spinlock_unlock(int32_t core, arch_spinlock_t *lock)
{
    (void)core;
    if (--lock->depth == 0)
        __atomic_store_n(&lock->owner, 0u, __ATOMIC_RELEASE);
}

#endif
