/* 64-bit atomic read-modify-writes for the Cortex-M3, which has no 64-bit
 * exclusive loads and stores: GCC calls these library functions for a
 * 64-bit _Atomic (rtipc-bench's counters), and arm-none-eabi ships no
 * libatomic. Load, store, exchange and compare-exchange are in
 * board_asm.S. The board has one core, so masking interrupts around the
 * plain access makes it indivisible and orders it like a full fence. */
#include <stdint.h>

#include "board.h"

typedef unsigned long long u64;

u64 __atomic_fetch_add_8(volatile void *p, u64 v, int order);
u64 __atomic_fetch_sub_8(volatile void *p, u64 v, int order);
u64 __atomic_fetch_and_8(volatile void *p, u64 v, int order);
u64 __atomic_fetch_or_8(volatile void *p, u64 v, int order);
u64 __atomic_fetch_xor_8(volatile void *p, u64 v, int order);

/* One read-modify-write with interrupts masked; returns the old value. */
#define FETCH_OP(name, op)                                   \
    u64 name(volatile void *p, u64 v, int order)             \
    {                                                        \
        (void)order;                                         \
        uint32_t saved = board_irq_save();                   \
        u64 old = *(volatile u64 *)p;                        \
        *(volatile u64 *)p = old op v;                       \
        board_irq_restore(saved);                            \
        return old;                                          \
    }

FETCH_OP(__atomic_fetch_add_8, +)
FETCH_OP(__atomic_fetch_sub_8, -)
FETCH_OP(__atomic_fetch_and_8, &)
FETCH_OP(__atomic_fetch_or_8, |)
FETCH_OP(__atomic_fetch_xor_8, ^)
