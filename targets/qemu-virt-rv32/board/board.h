/* Board support for QEMU's `virt` RISC-V machine run as a two-hart RV32IMAC
 * microcontroller (qemu-system-riscv32 -M virt -smp 2 -bios none): start-up,
 * console, clocks, inter-hart interrupts, trap table, exit and fault
 * reports. Written for rtipc; no vendor files. docs/rv32-virt.md.
 *
 * Devices used (QEMU 7.2's device tree): RAM at 0x80000000; the CLINT at
 * 0x02000000 (MSIP per hart at +4*hart, mtimecmp at +0x4000 + 8*hart, mtime
 * at +0xbff8, counting at the tree's timebase-frequency, 10 MHz); the 16550
 * UART at 0x10000000; the SiFive test device at 0x100000 (exit).
 *
 * Start-up (start.S): hart 0 zeroes .bss, sets up each hart's thread-local
 * block (picolibc keeps errno there), releases the other harts, waits until
 * they run, and calls main(); main's return value goes to board_exit(). The
 * other harts call board_hart_main(hart), a weak function: by default it
 * enables the software interrupt and waits for traps (a kernel's port
 * starts its scheduler on them that way). Override it to run bare-metal
 * code on a secondary hart. */
#ifndef RTIPC_BOARD_QEMU_VIRT_RV32_H
#define RTIPC_BOARD_QEMU_VIRT_RV32_H

#include <stdbool.h>
#include <stdint.h>

#include "board_layout.h"

/* CLINT mtime rate: timebase-frequency in QEMU's device tree. One count is
 * 100 ns of the emulator's virtual clock (wall clock without -icount). */
#define BOARD_MTIME_HZ 10000000u

#define BOARD_CLINT_BASE 0x02000000u
#define BOARD_MTIMECMP_BASE (BOARD_CLINT_BASE + 0x4000u)
#define BOARD_MTIME_ADDR (BOARD_CLINT_BASE + 0xbff8u)

/* Printed by board_exit before it leaves: "==== rtipc-rv32 exit <code> ====". */
#define BOARD_EXIT_MARKER "==== rtipc-rv32 exit"

/* The secondary harts' code (weak default: wait for interrupts forever). */
void board_hart_main(unsigned hart);

/* This hart's id (mhartid); 0 .. BOARD_HARTS-1. */
static inline unsigned board_hart_id(void)
{
    unsigned long id;
    __asm__ volatile("csrr %0, mhartid" : "=r"(id));
    return (unsigned)id;
}

/* ---- console: 16550 UART at 0x10000000, polled ---------------------------- */

/* One byte (waits while the transmitter is busy); a string as is. Either hart
 * may print: bytes are never lost, but lines of two harts may interleave.
 * picolibc's stdio (printf, puts) writes here. */
void board_putc(char c);
void board_puts(const char *s);

/* ---- clocks --------------------------------------------------------------- */

/* The CLINT's mtime: one clock shared by every hart, BOARD_MTIME_HZ. */
uint64_t board_mtime(void);
/* This hart's cycle and retired-instruction counters (mcycle, minstret).
 * Under QEMU both count this hart's executed instructions. */
uint64_t board_cycles(void);
uint64_t board_instret(void);
/* Busy-wait for @p us microseconds of mtime. */
void board_delay_us(uint32_t us);

/* ---- inter-hart software interrupts (CLINT MSIP) -------------------------- */

void board_ipi_send(unsigned hart);
void board_ipi_clear(void); /* this hart's */

/* ---- interrupt masking (mstatus.MIE of this hart) ------------------------- */

uint32_t board_irq_save(void);
void board_irq_restore(uint32_t saved);

/* ---- trap table ----------------------------------------------------------- */

/* Route trap entry @p cause (0: every exception; n: machine interrupt n, e.g.
 * 3 software, 7 timer, 11 external) of every hart to @p entry, which is
 * jumped to with the interrupted context untouched: it saves and restores
 * what it uses and returns with mret. */
void board_trap_install(unsigned cause, void (*entry)(void));

/* ---- command line ---------------------------------------------------------- */

/* QEMU's `-append "..."`, which it puts into the device tree as
 * /chosen/bootargs: the text, or NULL when there is none. */
const char *board_command_line(void);

/* A program's arguments from that command line, split at spaces into
 * @p argv (board_args.h: room for @p max_args + 1 pointers, NULL-terminated),
 * argv[0] being @p program; without a command line, @p defaults split the
 * same way. Returns argc. Call once, from one context. */
int board_args(const char *program, const char *defaults, char **argv, int max_args);

/* ---- exit ----------------------------------------------------------------- */

/* Flush stdout, print BOARD_EXIT_MARKER with the code, and end QEMU through
 * the test device: exit status 0 for code 0, otherwise the code (1..0xffff;
 * others become 1). Any hart may call it. Never returns. */
_Noreturn void board_exit(int code);

/* A trap nobody handles: prints hart, mcause (named), mepc, mtval and sp on
 * the UART and exits with 0x80 + the cause's low bits (0xc0 + ... for an
 * interrupt). Called by the trap table; also usable by a kernel's
 * exception hook. */
_Noreturn void board_trap_report(uint32_t mcause, uint32_t mepc, uint32_t mtval, uint32_t sp);

#endif
