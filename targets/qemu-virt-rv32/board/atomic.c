/* The atomic library calls GCC 12 emits on RV32IMAC where it has no inline
 * sequence, since the bare-metal toolchain ships no libatomic: 8-bit and
 * 16-bit exchange (an LR/SC loop on the containing word, so lock-free and
 * atomic against plain byte and halfword stores), and every 64-bit atomic
 * (no 64-bit AMO or LR/SC on RV32: the mailbox's version sequence,
 * rtipc-bench's counters), described next.
 *
 * 64-bit:
 * Both harts share them, so masking interrupts is not enough: every 64-bit
 * atomic access takes one spinlock (with this hart's interrupts masked, so
 * a handler on the same hart cannot spin on a lock its hart holds). They are
 * therefore atomic with respect to each other only; a 64-bit object must be
 * accessed only through them, which C11 guarantees for an _Atomic. */
#include <stdbool.h>
#include <stdint.h>

#include "board.h"

typedef unsigned long long u64;

static uint32_t lock64;

static uint32_t take(void)
{
    uint32_t saved = board_irq_save();
    while (__atomic_exchange_n(&lock64, 1u, __ATOMIC_ACQUIRE) != 0)
        while (__atomic_load_n(&lock64, __ATOMIC_RELAXED) != 0)
            ;
    return saved;
}

static void give(uint32_t saved)
{
    __atomic_store_n(&lock64, 0u, __ATOMIC_RELEASE);
    board_irq_restore(saved);
}

u64 __atomic_load_8(const volatile void *p, int order);
void __atomic_store_8(volatile void *p, u64 v, int order);
u64 __atomic_exchange_8(volatile void *p, u64 v, int order);
bool __atomic_compare_exchange_8(volatile void *p, void *expected, u64 desired, bool weak, int success,
                                 int failure);

u64 __atomic_load_8(const volatile void *p, int order)
{
    (void)order;
    uint32_t s = take();
    u64 v = *(const volatile u64 *)p;
    give(s);
    return v;
}

void __atomic_store_8(volatile void *p, u64 v, int order)
{
    (void)order;
    uint32_t s = take();
    *(volatile u64 *)p = v;
    give(s);
}

u64 __atomic_exchange_8(volatile void *p, u64 v, int order)
{
    (void)order;
    uint32_t s = take();
    u64 old = *(volatile u64 *)p;
    *(volatile u64 *)p = v;
    give(s);
    return old;
}

bool __atomic_compare_exchange_8(volatile void *p, void *expected, u64 desired, bool weak, int success,
                                 int failure)
{
    (void)weak;
    (void)success;
    (void)failure;
    uint32_t s = take();
    u64 cur = *(volatile u64 *)p;
    bool ok = cur == *(u64 *)expected;
    if (ok)
        *(volatile u64 *)p = desired;
    else
        *(u64 *)expected = cur;
    give(s);
    return ok;
}

/* fetch_OP returns the old value, OP_fetch the new one. */
#define RMW(op_name, op)                                          \
    u64 __atomic_fetch_##op_name##_8(volatile void *p, u64 v, int order); \
    u64 __atomic_##op_name##_fetch_8(volatile void *p, u64 v, int order); \
    u64 __atomic_fetch_##op_name##_8(volatile void *p, u64 v, int order)  \
    {                                                             \
        (void)order;                                              \
        uint32_t s = take();                                      \
        u64 old = *(volatile u64 *)p;                             \
        *(volatile u64 *)p = old op v;                            \
        give(s);                                                  \
        return old;                                               \
    }                                                             \
    u64 __atomic_##op_name##_fetch_8(volatile void *p, u64 v, int order)  \
    {                                                             \
        return __atomic_fetch_##op_name##_8(p, v, order) op v;    \
    }

RMW(add, +)
RMW(sub, -)
RMW(and, &)
RMW(or, |)
RMW(xor, ^)

/* Sub-word exchange through a compare-and-swap of the aligned word holding
 * the byte or halfword (little-endian lanes). */
static uint32_t exchange_lane(volatile void *p, uint32_t v, unsigned bytes)
{
    uintptr_t addr = (uintptr_t)p;
    uint32_t *word = (uint32_t *)(addr & ~(uintptr_t)3u);
    unsigned shift = (unsigned)(addr & 3u) * 8u;
    uint32_t mask = (bytes == 1 ? 0xffu : 0xffffu) << shift;
    uint32_t old = __atomic_load_n(word, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(word, &old, (old & ~mask) | ((v << shift) & mask), true, __ATOMIC_SEQ_CST,
                                        __ATOMIC_RELAXED))
        ;
    return (old & mask) >> shift;
}

uint8_t __atomic_exchange_1(volatile void *p, uint8_t v, int order);
uint16_t __atomic_exchange_2(volatile void *p, uint16_t v, int order);

uint8_t __atomic_exchange_1(volatile void *p, uint8_t v, int order)
{
    (void)order;
    return (uint8_t)exchange_lane(p, v, 1);
}

uint16_t __atomic_exchange_2(volatile void *p, uint16_t v, int order)
{
    (void)order;
    return (uint16_t)exchange_lane(p, v, 2);
}
