/* Board support for QEMU's mps2-an385 machine (ARM MPS2 FPGA board with the
 * AN385 Cortex-M3 image): console, clock, interrupt controller and exit.
 * Written for rtipc's bare-metal target; no vendor files. Facts about the
 * emulated board and what an "instruction" means there: docs/mcu.md.
 *
 * Memory map used (targets/mps2-an385/board/mps2-an385.ld): code and read-only data
 * in SSRAM1 at 0x00000000 (4 MB), data, bss, heap and the main stack in
 * SSRAM2/3 at 0x20000000 (4 MB).
 *
 * Exception and interrupt handlers are weak symbols that an application (or
 * a kernel port) overrides by defining a function of the same name:
 *   NMI_Handler, HardFault_Handler, MemManage_Handler, BusFault_Handler,
 *   UsageFault_Handler, SVC_Handler, DebugMon_Handler, PendSV_Handler,
 *   SysTick_Handler, and IRQ0_Handler .. IRQ31_Handler for the external
 *   interrupts. FreeRTOS's ARM_CM3 port is wired in by defining
 *   vPortSVCHandler as SVC_Handler, xPortPendSVHandler as PendSV_Handler and
 *   xPortSysTickHandler as SysTick_Handler in FreeRTOSConfig.h.
 * A handler that is not overridden reports the exception on the UART (with
 * the fault status registers) and ends the program with a failure exit.
 *
 * The reset handler copies .data, zeroes .bss and calls main(); main's return
 * value is passed to board_exit(). */
#ifndef RTIPC_BOARD_MPS2_AN385_H
#define RTIPC_BOARD_MPS2_AN385_H

#include <stdbool.h>
#include <stdint.h>

/* Number of external interrupt lines in the vector table (the AN385 image
 * has 32). */
#define BOARD_NUM_IRQS 32

/* An interrupt line no AN385 peripheral drives: free for software-pended
 * interrupts (board_nvic_pend). */
#define BOARD_SPARE_IRQ 27

/* Nominal clock of the board (the CMSDK timers and SysTick count at it). */
#define BOARD_CPU_HZ 25000000u

/* Line printed on the UART by board_exit before it leaves, so that a run
 * without semihosting can be stopped by watching the console:
 * "==== rtipc-mcu exit <code> ====". */
#define BOARD_EXIT_MARKER "==== rtipc-mcu exit"

/* The overridable handlers (weak defaults in startup.c). */
void NMI_Handler(void);
void HardFault_Handler(void);
void MemManage_Handler(void);
void BusFault_Handler(void);
void UsageFault_Handler(void);
void SVC_Handler(void);
void DebugMon_Handler(void);
void PendSV_Handler(void);
void SysTick_Handler(void);
void IRQ0_Handler(void);
void IRQ1_Handler(void);
void IRQ2_Handler(void);
void IRQ3_Handler(void);
void IRQ4_Handler(void);
void IRQ5_Handler(void);
void IRQ6_Handler(void);
void IRQ7_Handler(void);
void IRQ8_Handler(void);
void IRQ9_Handler(void);
void IRQ10_Handler(void);
void IRQ11_Handler(void);
void IRQ12_Handler(void);
void IRQ13_Handler(void);
void IRQ14_Handler(void);
void IRQ15_Handler(void);
void IRQ16_Handler(void);
void IRQ17_Handler(void);
void IRQ18_Handler(void);
void IRQ19_Handler(void);
void IRQ20_Handler(void);
void IRQ21_Handler(void);
void IRQ22_Handler(void);
void IRQ23_Handler(void);
void IRQ24_Handler(void);
void IRQ25_Handler(void);
void IRQ26_Handler(void);
void IRQ27_Handler(void);
void IRQ28_Handler(void);
void IRQ29_Handler(void);
void IRQ30_Handler(void);
void IRQ31_Handler(void);

/* ---- start-up ---------------------------------------------------------- */

/* Enable the UART transmitter and start TIMER0 free-running. The reset
 * handler calls it before main(); calling it again is harmless. */
void board_init(void);

/* ---- console: CMSDK UART0 at 0x40004000, polled -------------------------- */

/* Send one byte (waits while the transmit buffer is full). */
void board_putc(char c);
/* Send a NUL-terminated string, as is (no newline added). */
void board_puts(const char *s);
/* newlib's stdio (printf, fputs on stdout/stderr) writes through board_putc:
 * the board provides _write, _read, _sbrk and the other system calls that
 * newlib-nano needs. */

/* ---- clock: CMSDK TIMER0 at 0x40000000 ----------------------------------- */

/* The timer's current value. It counts DOWN at BOARD_CPU_HZ from
 * 0xffffffff and wraps; the elapsed counts between two readings a (earlier)
 * and b are a - b in unsigned 32-bit arithmetic. */
uint32_t board_timer_now(void);

/* TIMER0's counts since the first call, counting up, in 64 bits (a clock for
 * timestamps read in one call: 1 count is 40 instructions under -icount
 * shift=0). Call it at least once per wrap of the 32-bit timer (171 s at
 * BOARD_CPU_HZ); any context: it masks interrupts for the few
 * instructions that extend the count. */
uint64_t board_counter(void);

/* The command line QEMU passes through semihosting (`-append` or the
 * semihosting-config arg= options) into buf (NUL-terminated): its length,
 * or -1 when there is none or it does not fit. */
int board_command_line(char *buf, unsigned len);

/* A program's arguments from that command line, split at spaces into
 * @p argv (room for @p max_args + 1 pointers, NULL-terminated; the words
 * live in a static buffer), argv[0] being @p program; when the command line
 * has no words after the program's name, @p defaults split the same way.
 * Returns argc. Call once, from one context. */
int board_args(const char *program, const char *defaults, char **argv, int max_args);

/* Timestamps exact to the instruction, taken as a pair of calls around
 * the code to measure: board_stamp_start() waits for the timer's next
 * change; board_stamp_end() counts turns of a 4-instruction spin loop until
 * the timer changes again. Each then finds where in its polling turn the
 * change fell (its phase) by reading the timer one instruction apart around
 * the change after (docs/mcu.md, "Clock"). Both take ~50 instructions
 * outside the measured interval; board_stamp_instr returns the interval
 * between the two calls plus a small constant (the "timestamp overhead",
 * measured as an empty interval). The phase is exact only when one timer
 * count is BOARD_STAMP_PERIOD instructions (-icount shift=0); otherwise
 * the intervals have the resolution of the 4-instruction spin loop. */
#define BOARD_STAMP_PERIOD 40
typedef struct {
    uint32_t value; /* timer value just after the change waited for */
    uint32_t spins; /* turns of the end stamp's spin loop (0 for a start) */
    uint32_t phase; /* loads that still read `value` one period later */
} board_stamp_t;
board_stamp_t board_stamp_start(void);
board_stamp_t board_stamp_end(void);

/* Instructions between a board_stamp_start() and a board_stamp_end() that
 * returned @p start and @p end, plus the fixed cost of the two calls.
 * Needs board_calibrate(). */
int64_t board_stamp_instr(board_stamp_t start, board_stamp_t end);

/* Whether board_calibrate() found BOARD_STAMP_PERIOD instructions per count,
 * so that the stamps' phases apply (exact intervals). */
bool board_stamp_exact(void);
/* Stamps whose phase was out of its range in exact mode (the timer did not
 * change one period after the change the stamp waited for): 0 unless the
 * emulation's clock is not what board_calibrate measured. */
uint32_t board_stamp_anomalies(void);

/* Measure how many instructions one timer count spans, by timing a loop of a
 * known number of instructions (BOARD_CALIB_INSTR), and keep the result for
 * board_stamp_instr. Returns the instructions per count (40 at QEMU's
 * -icount shift=0, where one instruction is 1 ns of emulated time and the
 * timer counts at 25 MHz). */
#define BOARD_CALIB_INSTR 4000000u
double board_calibrate(void);
/* The value board_calibrate() found (0 before it ran). */
double board_instr_per_count(void);

/* The rate SysTick counts at on the processor clock, in Hz, measured
 * against TIMER0 over 10 ms of emulated time (interrupts masked meanwhile;
 * SysTick is left stopped). A kernel programs its tick from it: under QEMU
 * it need not be BOARD_CPU_HZ (docs/mcu.md). */
uint32_t board_systick_hz(void);

/* ---- interrupts ----------------------------------------------------------- */

/* NVIC: enable / disable an external interrupt line, set it pending (as if
 * the peripheral had raised it; this is how software simulates an interrupt
 * on a spare line), clear a pending one, and set its priority (0 = most
 * urgent .. 255; QEMU implements all 8 bits, a real M3 only the top ones). */
void board_nvic_enable(unsigned irq);
void board_nvic_disable(unsigned irq);
void board_nvic_pend(unsigned irq);
void board_nvic_unpend(unsigned irq);
void board_nvic_set_priority(unsigned irq, uint8_t priority);

/* Mask all configurable interrupts (PRIMASK) and return the previous mask,
 * to be given back to board_irq_restore. Nests. */
uint32_t board_irq_save(void);
void board_irq_restore(uint32_t saved);

/* ---- exit ----------------------------------------------------------------- */

/* Flush stdout, print BOARD_EXIT_MARKER with the code on the UART, then leave
 * QEMU through the semihosting SYS_EXIT call: reason 0x20026
 * (ADP_Stopped_ApplicationExit, QEMU exits with 0) for code 0, 0x20024
 * (ADP_Stopped_InternalError, QEMU exits with 1) otherwise. QEMU must run
 * with -semihosting-config enable=on,target=native; without it the call
 * faults and the lock-up ends QEMU abnormally, after the marker. Never
 * returns. */
_Noreturn void board_exit(int code);

#endif
