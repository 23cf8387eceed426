/* Start-up and trap table of the qemu-virt-rv32 board (board.h).
 *
 * QEMU starts every hart at _start, in machine mode, a0 = mhartid, a1 = the
 * device tree (kept for board_primary_start: the loop below spares a0-a1). Each hart
 * takes its own stack below __stacks_top and points mtvec at the trap table.
 * Hart 0 zeroes .bss and goes on in C (board_primary_start); the others wait,
 * with only the software interrupt enabled, until hart 0 raises their MSIP,
 * then go on in C too (board_secondary_start). Harts beyond BOARD_HARTS park. */
#include "board_layout.h"

    .section .text.board_start, "ax"
    .global _start
_start:
    csrw    mie, zero
    csrw    mip, zero
    /* gp must be set before the linker may relax accesses against it. */
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    csrr    t0, mhartid
    li      t1, BOARD_HARTS
    bgeu    t0, t1, park
    la      sp, __stacks_top
    li      t1, BOARD_HART_STACK_BYTES
    mul     t1, t1, t0
    sub     sp, sp, t1
    la      t1, board_vectors
    ori     t1, t1, 1           /* vectored: interrupt n enters at base + 4n */
    csrw    mtvec, t1
    bnez    t0, secondary

    la      t0, __bss_start
    la      t1, __bss_end
1:  bgeu    t0, t1, 2f
    sw      zero, 0(t0)
    addi    t0, t0, 4
    j       1b
2:  call    board_primary_start
    j       park

secondary:
    li      t1, 8               /* MSIE: hart 0's release wakes wfi */
    csrw    mie, t1
3:  wfi
    csrr    t1, mip
    andi    t1, t1, 8
    beqz    t1, 3b
    csrr    a0, mhartid
    call    board_secondary_start
park:
    wfi
    j       park

/* The trap table: mtvec points here in vectored mode, so exceptions enter
 * at entry 0 and interrupt n at entry n. Each entry is one 4-byte jump;
 * arch_trap_handler_install rewrites an entry to jump straight to a
 * handler, which must then save and restore every register itself (the
 * FreeRTOS port's handlers do). Untouched entries report the trap. */
    .section .text.board_vectors, "ax"
    .balign 256
    .global board_vectors
board_vectors:
    .option push
    .option norvc
    .rept BOARD_TRAP_ENTRIES
    j       board_trap_unexpected
    .endr
    .option pop

/* Any trap nobody installed a handler for: a fault or a stray interrupt.
 * The registers are not kept (the board reports and exits); a stack of its
 * own per hart so that a broken sp can still be reported. */
    .text
    .global board_trap_unexpected
board_trap_unexpected:
    csrci   mstatus, 8
    csrr    t0, mhartid
    li      t1, BOARD_FAULT_STACK_BYTES
    mul     t1, t1, t0
    la      t0, __fault_stacks_top
    sub     t0, t0, t1
    mv      a3, sp
    mv      sp, t0
    csrr    a0, mcause
    csrr    a1, mepc
    csrr    a2, mtval
    call    board_trap_report
    j       park
