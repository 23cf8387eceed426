/* The parts of the mps2-an385 board support that C cannot express: the weak
 * handler names, timer loops of an exact instruction length, the interrupt
 * mask, special registers, the semihosting call, and the 64-bit atomic
 * helpers the compiler calls on a Cortex-M3 (it has no 64-bit exclusive
 * access). */
    .syntax unified
    .cpu cortex-m3
    .thumb

    .equ TIMER0_VALUE, 0x40000004

    .text

/* Each exception and interrupt handler of the vector table (startup.c) is a
 * weak alias of board_unhandled, which goes on to board_default_handler
 * (startup.c), until a strong definition of the same name is linked in
 * (board.h lists them). */
    .global board_unhandled
    .type board_unhandled, %function
    .thumb_func
board_unhandled:
    b board_default_handler
    .size board_unhandled, . - board_unhandled

    .macro board_weak_handler name
    .weak \name
    .thumb_set \name, board_unhandled
    .endm
    board_weak_handler NMI_Handler
    board_weak_handler HardFault_Handler
    board_weak_handler MemManage_Handler
    board_weak_handler BusFault_Handler
    board_weak_handler UsageFault_Handler
    board_weak_handler SVC_Handler
    board_weak_handler DebugMon_Handler
    board_weak_handler PendSV_Handler
    board_weak_handler SysTick_Handler
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    board_weak_handler IRQ\n\()_Handler
    .endr

/* The two timestamps (board.h). TIMER0 changes every BOARD_STAMP_PERIOD
 * (40) instructions at -icount shift=0; a polling loop sees a change up to
 * a turn late. To know where in its turn the change fell, each stamp waits
 * for the NEXT change after a delay of exactly known length and reads the
 * timer with back-to-back loads (one instruction apart) around it: how many
 * of them still read the old value is the phase (board_stamp_t.phase). The
 * delays below are counted for a 40-instruction period; with another period
 * the phase means nothing and board_stamp_instr ignores it.
 *
 * board_stamp_t board_stamp_start(void): the 12-byte result is returned in
 * memory (AAPCS), r0 points to it. Polls with a 3-instruction loop (ldr,
 * cmp, beq): the load that sees the new value V1 runs at L = E1 + d,
 * d in 0..2, E1 being the first instruction that can read V1. Then a
 * delay so that three loads run at E1 + d + 38 .. E1 + d + 40: with the
 * next change at E1 + 40, exactly 2 - d of them still read V1. */
    .global board_stamp_start
    .type board_stamp_start, %function
    .thumb_func
board_stamp_start:
    push {r4, r5}
    ldr r1, =TIMER0_VALUE
    ldr r3, [r1]
1:  ldr r2, [r1]            @ L (on the turn that exits)
    cmp r2, r3              @ L+1
    beq 1b                  @ L+2
    movs r3, #17            @ L+3
2:  subs r3, #1             @ L+4 .. L+37: 17 turns of 2
    bne 2b
    ldr r3, [r1]            @ L+38
    ldr r4, [r1]            @ L+39
    ldr r5, [r1]            @ L+40
    movs r1, #0
    cmp r3, r2
    it eq
    addeq r1, #1
    cmp r4, r2
    it eq
    addeq r1, #1
    cmp r5, r2
    it eq
    addeq r1, #1
    movs r3, #0
    str r2, [r0]            @ value
    str r3, [r0, #4]        @ spins: none
    str r1, [r0, #8]        @ phase: 2 - d
    pop {r4, r5}
    bx lr
    .size board_stamp_start, . - board_stamp_start

/* board_stamp_t board_stamp_end(void): r0 points to the result. Counts
 * turns of a 4-instruction loop (ldr, adds, cmp, beq) until TIMER0 changes
 * to V2; the load that sees it runs at L = E2 + e, e in 0..3. Then four
 * loads at E2 + e + 37 .. E2 + e + 40: exactly 3 - e still read V2.
 * Stores {V2, turns, 3 - e}. */
    .global board_stamp_end
    .type board_stamp_end, %function
    .thumb_func
board_stamp_end:
    push {r4, r5, r6, r7}
    ldr r1, =TIMER0_VALUE
    ldr r2, [r1]
    movs r3, #0
1:  ldr r12, [r1]           @ L (on the turn that exits)
    adds r3, #1             @ L+1
    cmp r12, r2             @ L+2
    beq 1b                  @ L+3
    movs r4, #16            @ L+4
2:  subs r4, #1             @ L+5 .. L+36: 16 turns of 2
    bne 2b
    ldr r4, [r1]            @ L+37
    ldr r5, [r1]            @ L+38
    ldr r6, [r1]            @ L+39
    ldr r7, [r1]            @ L+40
    movs r1, #0
    cmp r4, r12
    it eq
    addeq r1, #1
    cmp r5, r12
    it eq
    addeq r1, #1
    cmp r6, r12
    it eq
    addeq r1, #1
    cmp r7, r12
    it eq
    addeq r1, #1
    str r12, [r0]           @ value
    str r3, [r0, #4]        @ spins
    str r1, [r0, #8]        @ phase: 3 - e
    pop {r4, r5, r6, r7}
    bx lr
    .size board_stamp_end, . - board_stamp_end

/* void board_spin_turns(uint32_t n): n turns of a 2-instruction loop (subs,
 * bne); n >= 1. The calibration's ruler. */
    .global board_spin_turns
    .type board_spin_turns, %function
    .thumb_func
board_spin_turns:
1:  subs r0, #1
    bne 1b
    bx lr
    .size board_spin_turns, . - board_spin_turns

/* uint32_t board_irq_save(void) / void board_irq_restore(uint32_t) */
    .global board_irq_save
    .type board_irq_save, %function
    .thumb_func
board_irq_save:
    mrs r0, primask
    cpsid i
    bx lr
    .size board_irq_save, . - board_irq_save

    .global board_irq_restore
    .type board_irq_restore, %function
    .thumb_func
board_irq_restore:
    msr primask, r0
    bx lr
    .size board_irq_restore, . - board_irq_restore

/* uint32_t board_ipsr(void): the active exception number (0 in thread mode). */
    .global board_ipsr
    .type board_ipsr, %function
    .thumb_func
board_ipsr:
    mrs r0, ipsr
    bx lr
    .size board_ipsr, . - board_ipsr

/* uint32_t board_semihost(uint32_t op, uint32_t arg): one semihosting call. */
    .global board_semihost
    .type board_semihost, %function
    .thumb_func
board_semihost:
    bkpt 0xab
    bx lr
    .size board_semihost, . - board_semihost

/* 64-bit atomics for a single-core Cortex-M3: each access runs with
 * interrupts masked, which makes it indivisible for every other context on
 * the core (a handler cannot run in the middle). Bounded: a few
 * instructions with the mask set. The memory-order arguments are ignored:
 * with one core and no reordering of these accesses, each call is
 * sequentially consistent. Signatures are GCC's libatomic ones. */

/* uint64_t __atomic_load_8(const volatile void *p, int order) */
    .global __atomic_load_8
    .type __atomic_load_8, %function
    .thumb_func
__atomic_load_8:
    mov r3, r0
    mrs r2, primask
    cpsid i
    ldrd r0, r1, [r3]
    msr primask, r2
    bx lr
    .size __atomic_load_8, . - __atomic_load_8

/* void __atomic_store_8(volatile void *p, uint64_t v, int order):
 * p in r0, v in r2:r3. */
    .global __atomic_store_8
    .type __atomic_store_8, %function
    .thumb_func
__atomic_store_8:
    mrs r1, primask
    cpsid i
    strd r2, r3, [r0]
    msr primask, r1
    bx lr
    .size __atomic_store_8, . - __atomic_store_8

/* uint64_t __atomic_exchange_8(volatile void *p, uint64_t v, int order) */
    .global __atomic_exchange_8
    .type __atomic_exchange_8, %function
    .thumb_func
__atomic_exchange_8:
    push {r4, r5}
    mov r12, r0
    mrs r1, primask
    cpsid i
    ldrd r4, r5, [r12]
    strd r2, r3, [r12]
    msr primask, r1
    mov r0, r4
    mov r1, r5
    pop {r4, r5}
    bx lr
    .size __atomic_exchange_8, . - __atomic_exchange_8

/* bool __atomic_compare_exchange_8(volatile void *p, void *expected,
 *     uint64_t desired, bool weak, int success, int failure):
 * p in r0, expected in r1, desired in r2:r3, the rest on the stack. On a
 * mismatch the current value is written to *expected. */
    .global __atomic_compare_exchange_8
    .type __atomic_compare_exchange_8, %function
    .thumb_func
__atomic_compare_exchange_8:
    push {r4, r5, r6, r7}
    mrs r12, primask
    cpsid i
    ldrd r4, r5, [r0]
    ldrd r6, r7, [r1]
    cmp r4, r6
    it eq
    cmpeq r5, r7
    bne 1f
    strd r2, r3, [r0]
    msr primask, r12
    movs r0, #1
    pop {r4, r5, r6, r7}
    bx lr
1:  strd r4, r5, [r1]
    msr primask, r12
    movs r0, #0
    pop {r4, r5, r6, r7}
    bx lr
    .size __atomic_compare_exchange_8, . - __atomic_compare_exchange_8
