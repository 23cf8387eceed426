/* rtipc-bench on a bare-metal Cortex-M3 (QEMU mps2-an385), no kernel: the
 * board is calibrated and its stamps checked against a loop of known
 * length, the board's clock, stamps and software interrupt line are handed
 * to the bare-metal target seam (bench/target/bare.c), and rtipc-bench's own
 * command line (bench/cli.c) runs the shared experiments: those that need
 * no kernel (lockfree-cost) measure, the rest are reported missing with the
 * reason. The command line is the one QEMU passes through semihosting
 * (`-append "run --quick"`), else RTIPC_BARE_BENCH_ARGS. Results go to the
 * console (the JSON between its marker lines); the exit status through
 * semihosting (docs/mcu.md). */
#include <stdio.h>

#include "board.h"
#include "cli.h"
#include "target/target.h"

#ifndef RTIPC_BARE_BENCH_ARGS
#define RTIPC_BARE_BENCH_ARGS "run --quick --no-progress --json -"
#endif

#define MAX_ARGS 32
#define RULER_TURNS 50u
#define RULER_SAMPLES 200

void board_spin_turns(uint32_t n); /* board_asm.S: n turns of 2 instructions */

static char *args[MAX_ARGS + 1];
static char description[96];

/* ---- what the board hands to the seam ---- */

static void stamp_start(uint32_t raw[3])
{
    board_stamp_t s = board_stamp_start();
    raw[0] = s.value, raw[1] = s.spins, raw[2] = s.phase;
}

static void stamp_end(uint32_t raw[3])
{
    board_stamp_t s = board_stamp_end();
    raw[0] = s.value, raw[1] = s.spins, raw[2] = s.phase;
}

static int64_t stamp_span(const uint32_t a[3], const uint32_t b[3])
{
    board_stamp_t s = {a[0], a[1], a[2]}, e = {b[0], b[1], b[2]};
    return board_stamp_instr(s, e);
}

static void pend_spare_irq(void) { board_nvic_pend(BOARD_SPARE_IRQ); }

void IRQ27_Handler(void) { bench_target_bare_interrupt(); }

/* "icount shift=N" read off the calibration: one timer count is
 * BOARD_STAMP_PERIOD >> N instructions. */
static void describe(double instr_per_count)
{
    for (int k = 0; k <= 5; k++) {
        double want = (double)BOARD_STAMP_PERIOD / (double)(1 << k);
        if (instr_per_count > want * 0.999 && instr_per_count < want * 1.001) {
            snprintf(description, sizeof description, "Cortex-M3, QEMU mps2-an385, icount shift=%d", k);
            return;
        }
    }
    snprintf(description, sizeof description, "Cortex-M3, QEMU mps2-an385, %.3f instructions per timer count",
             instr_per_count);
}

/* The stamps against a loop of known length: 50 turns of 2 instructions
 * plus the call (argument, bl, bx) make 103, less the empty pair's cost.
 * Exact stamps must find it to within the register moves the compiler may
 * add around the call, the same every time; otherwise the stamps are as
 * fine as their 4-instruction spin. A board check, before any experiment. */
static int check_stamps(void)
{
    int64_t empty = INT64_MAX, lo = INT64_MAX, hi = INT64_MIN;
    for (int i = 0; i < RULER_SAMPLES; i++) {
        board_stamp_t t0 = board_stamp_start();
        board_stamp_t t1 = board_stamp_end();
        int64_t e = board_stamp_instr(t0, t1);
        empty = e < empty ? e : empty;
    }
    for (int i = 0; i < RULER_SAMPLES; i++) {
        board_stamp_t t0 = board_stamp_start();
        board_spin_turns(RULER_TURNS);
        board_stamp_t t1 = board_stamp_end();
        int64_t v = board_stamp_instr(t0, t1) - empty;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    int64_t want = 2 * RULER_TURNS + 3, slack = board_stamp_exact() ? 2 : 8;
    bool ok = lo >= want - slack && hi <= want + slack && (!board_stamp_exact() || lo == hi);
    printf("stamps: a loop of %ld instructions measures %ld..%ld (%s): %s\n", (long)want, (long)lo, (long)hi,
           board_stamp_exact() ? "exact to the instruction" : "to 4 instructions", ok ? "ok" : "WRONG");
    return ok ? 0 : -1;
}

int main(void)
{
    double ipc = board_calibrate();
    describe(ipc);
    if (check_stamps() != 0)
        board_exit(1);
    board_nvic_set_priority(BOARD_SPARE_IRQ, 0x80);
    board_nvic_enable(BOARD_SPARE_IRQ);
    const bench_bare_board_t board = {
        .read_counter = board_counter,
        .counter_hz = (double)BOARD_CPU_HZ,
        .clock = {.name = "cmsdk-timer0 (25 MHz, 40 instructions a count)",
                  .provenance = BENCH_CLOCK_EMULATED_INSTRUCTIONS,
                  .resolution = ipc},
        .description = description,
        .stamp_start = stamp_start,
        .stamp_end = stamp_end,
        .stamp_span = stamp_span,
        .stamp_resolution = board_stamp_exact() ? 1.0 : 4.0,
        .irq_pend = pend_spare_irq,
        .irq_description = "IRQ 27 (a spare NVIC line, pended by software) at NVIC priority 0x80",
    };
    bench_target_bare_setup(&board);
    int nargs = board_args("rtipc-bench", RTIPC_BARE_BENCH_ARGS, args, MAX_ARGS);
    int status = bench_cli(nargs, args);
    if (board_stamp_anomalies() != 0) {
        printf("rtipc-bench: %lu stamps found the timer off its period\n", (unsigned long)board_stamp_anomalies());
        status = status ? status : 1;
    }
    fflush(stdout);
    board_exit(status);
}
