/* rtipc-mcu-bench: the portable lock-free objects of rtipc on a bare-metal
 * Cortex-M3 (QEMU mps2-an385), measured in instructions (docs/mcu.md).
 *
 * Every figure is an interval between board_stamp_start() and
 * board_stamp_end() (board.h), converted to instructions with the start-up
 * calibration, minus the median cost of an empty interval (the
 * "timestamp overhead" row, which is reported raw). Every message carries a
 * sequence number; a lost, duplicated or reordered one fails the experiment
 * and the program (exit code 1, after the JSON). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "mcu_report.h"
#include "names.h"
#include "rtipc/error.h"
#include "rtipc/mailbox.h"
#include "rtipc/spsc.h"
#include "stats.h"

#ifndef RTIPC_MCU_SAMPLES
#define RTIPC_MCU_SAMPLES 2000
#endif
#ifndef RTIPC_MCU_STARTED
#define RTIPC_MCU_STARTED "unknown"
#endif
#ifndef RTIPC_MCU_GIT
#define RTIPC_MCU_GIT "unknown"
#endif
#ifndef RTIPC_MCU_CFLAGS
#define RTIPC_MCU_CFLAGS "unknown"
#endif
#ifndef RTIPC_MCU_VERSION
#define RTIPC_MCU_VERSION "unknown"
#endif

/* "Cortex-M3, QEMU mps2-an385, icount shift=0": the shift is read off the
 * calibration (one timer count is 40 >> shift instructions). */
static const char *env_target;
#define ENV_TARGET env_target
#define UNIT "instr"
#define RING_CAPACITY 64u
#define RULER_TURNS 50u

/* ---- timestamps ----------------------------------------------------------- */

void board_spin_turns(uint32_t n); /* board_asm.S: n turns of 2 instructions */

static void measure_timestamps(void)
{
    mcu_experiment_begin();
    mcu_measure_stamp_overhead("mcu-timestamp", RTIPC_MCU_SAMPLES);

    /* The ruler: a loop of a known instruction count, measured like every
     * other figure. It checks the whole method (calibration, sub-count
     * stamps, overhead subtraction) against a known answer. */
    for (int i = 0; i < RTIPC_MCU_SAMPLES; i++) {
        board_stamp_t t0 = board_stamp_start();
        board_spin_turns(RULER_TURNS);
        board_stamp_t t1 = board_stamp_end();
        mcu_sample(board_stamp_instr(t0, t1));
    }
    const bench_stats_t *ruler = mcu_keep("mcu-timestamp", BENCH_MECH_BOARD_STAMP, "ruler-100", "measured", UNIT);
    /* 100 loop instructions plus the call: the argument, bl and bx make 103.
     * Exact stamps must find that (a register move the compiler adds around
     * the call may add one or two); without exact phases the stamps are
     * only as fine as their 4-instruction spin loop. */
    double want = 2.0 * RULER_TURNS + 3, slack = board_stamp_exact() ? 2 : 8;
    if (!ruler || ruler->p50 < want - slack || ruler->p50 > want + slack)
        mcu_fail("the ruler loop does not measure as its known instruction count");
    if (ruler && board_stamp_exact() && ruler->min != ruler->max)
        mcu_fail("the ruler loop measures differently from run to run");
    mcu_experiment_end("mcu-timestamp", "cost of one timestamp pair, and a loop of known length measured with it",
                   "overhead: instructions from board_stamp_start's return to board_stamp_end's call with nothing "
                   "between (reported raw; every other figure has its median subtracted); measured: a loop of "
                   "2 x 50 instructions plus its call");
}

/* ---- SPSC ring, one context ------------------------------------------------ */

static rtipc_spsc_static_t ring_cb;
static uint32_t ring_storage[RING_CAPACITY];

static void measure_spsc(void)
{
    mcu_experiment_begin();
    rtipc_spsc_t *r;
    if (rtipc_spsc_create_static(RING_CAPACITY, sizeof(uint32_t), ring_storage, &ring_cb, &r) != RTIPC_OK) {
        mcu_fail("rtipc_spsc_create_static failed");
        mcu_experiment_end("mcu-spsc", "SPSC ring push and pop in one context", "");
        return;
    }
    uint32_t seq = 0, expect = 0;
    for (int i = 0; i < RTIPC_MCU_SAMPLES; i++) {
        uint32_t in = seq++, out = ~0u;
        board_stamp_t t0 = board_stamp_start();
        int rp = rtipc_spsc_try_push(r, &in);
        int rg = rtipc_spsc_try_pop(r, &out);
        board_stamp_t t1 = board_stamp_end();
        mcu_sample(board_stamp_instr(t0, t1));
        if (rp != RTIPC_OK || rg != RTIPC_OK)
            mcu_fail("try_push or try_pop refused on a ring with room");
        else if (out != expect++)
            mcu_fail("sequence broken: an item lost, duplicated or reordered");
    }
    mcu_keep("mcu-spsc", BENCH_MECH_RTIPC_SPSC, "1-item", "push+pop", UNIT);

    static const struct {
        uint32_t n;
        const char *variant;
    } batches[] = {{8, "bulk-8"}, {32, "bulk-32"}};
    for (size_t b = 0; b < sizeof batches / sizeof *batches; b++) {
        uint32_t n = batches[b].n, in[32], out[32];
        for (int i = 0; i < RTIPC_MCU_SAMPLES; i++) {
            for (uint32_t k = 0; k < n; k++) {
                in[k] = seq++;
                out[k] = ~0u;
            }
            board_stamp_t t0 = board_stamp_start();
            int pushed = rtipc_spsc_push_bulk(r, in, n);
            int popped = rtipc_spsc_pop_bulk(r, out, n);
            board_stamp_t t1 = board_stamp_end();
            mcu_sample(board_stamp_instr(t0, t1));
            if (pushed != (int)n || popped != (int)n)
                mcu_fail("push_bulk or pop_bulk moved fewer items than fit");
            for (uint32_t k = 0; k < n; k++)
                if (out[k] != expect++)
                    mcu_fail("sequence broken: an item lost, duplicated or reordered");
        }
        mcu_keep("mcu-spsc", BENCH_MECH_RTIPC_SPSC, batches[b].variant, "push+pop", UNIT);
    }
    if (rtipc_spsc_size(r) != 0)
        mcu_fail("items left in the ring");
    mcu_experiment_end("mcu-spsc", "SPSC ring push and pop in one context (4-byte items, capacity 64)",
                   "push+pop: try_push then try_pop of one item (1-item), or push_bulk then pop_bulk of a batch "
                   "(bulk-N: the whole batch of N items)");
}

/* ---- mailbox ---------------------------------------------------------------- */

typedef struct {
    uint32_t seq;
    uint32_t payload;
} mb_value_t;

static rtipc_mailbox_static_t mailbox_cb;
static _Alignas(8) unsigned char mailbox_storage[RTIPC_MAILBOX_STORAGE_SIZE(sizeof(mb_value_t))];

static void measure_mailbox(void)
{
    mcu_experiment_begin();
    rtipc_mailbox_t *mb;
    if (rtipc_mailbox_create_static(sizeof(mb_value_t), NULL, mailbox_storage, &mailbox_cb, &mb) != RTIPC_OK) {
        mcu_fail("rtipc_mailbox_create_static failed");
        mcu_experiment_end("mcu-mailbox", "mailbox write and read in one context", "");
        return;
    }
    for (uint32_t i = 0; i < RTIPC_MCU_SAMPLES; i++) {
        mb_value_t in = {i, i * 2654435761u}, out = {~0u, 0};
        uint64_t version = 0;
        board_stamp_t t0 = board_stamp_start();
        int rw = rtipc_mailbox_write(mb, &in);
        int rr = rtipc_mailbox_read(mb, &out, &version);
        board_stamp_t t1 = board_stamp_end();
        mcu_sample(board_stamp_instr(t0, t1));
        if (rw != RTIPC_OK || rr != RTIPC_OK)
            mcu_fail("write or read refused with a single writer");
        else if (out.seq != i || out.payload != in.payload || version != (uint64_t)i + 1)
            mcu_fail("read a value or version other than the one just written");
    }
    mcu_keep("mcu-mailbox", BENCH_MECH_RTIPC_MAILBOX, "8B", "write+read", UNIT);
    mcu_experiment_end("mcu-mailbox", "mailbox write then read of an 8-byte value in one context",
                   "write+read: rtipc_mailbox_write then rtipc_mailbox_read of the same mailbox (the 64-bit "
                   "version is accessed with interrupts masked on the M3: no 64-bit atomics)");
}

/* ---- interrupt -> main loop -------------------------------------------------- */

typedef struct {
    uint32_t seq;
    board_stamp_t stamp; /* taken at the handler's start (mode ISR_STAMP) */
} isr_msg_t;

enum { ISR_STAMP = 0, ISR_PLAIN = 1 };

static rtipc_spsc_static_t isr_cb;
static isr_msg_t isr_storage[16];
static rtipc_spsc_t *isr_ring;
static volatile int isr_mode;
static volatile uint32_t isr_seq;
static volatile uint32_t isr_refused;

void IRQ27_Handler(void)
{
    isr_msg_t m = {0, {0, 0, 0}};
    if (isr_mode == ISR_STAMP)
        m.stamp = board_stamp_end();
    m.seq = isr_seq++;
    if (rtipc_spsc_push_from_isr(isr_ring, &m, NULL) != RTIPC_OK)
        isr_refused++;
}

static void measure_isr_handoff(void)
{
    mcu_experiment_begin();
    if (rtipc_spsc_create_static(16, sizeof(isr_msg_t), isr_storage, &isr_cb, &isr_ring) != RTIPC_OK) {
        mcu_fail("rtipc_spsc_create_static failed");
        mcu_experiment_end("mcu-isr-handoff", "interrupt handler to main loop through the SPSC ring", "");
        return;
    }
    board_nvic_set_priority(BOARD_SPARE_IRQ, 0x80);
    board_nvic_enable(BOARD_SPARE_IRQ);
    uint32_t expect = 0;
    static const char *const metric[2] = {"pend-to-handler", "pend-to-main"};
    for (int mode = ISR_STAMP; mode <= ISR_PLAIN; mode++) {
        isr_mode = mode;
        for (int i = 0; i < RTIPC_MCU_SAMPLES; i++) {
            isr_msg_t m = {~0u, {0, 0, 0}};
            board_stamp_t t0 = board_stamp_start();
            board_nvic_pend(BOARD_SPARE_IRQ);
            uint32_t polls = 0;
            int rc;
            while ((rc = rtipc_spsc_try_pop(isr_ring, &m)) == RTIPC_EWOULDBLOCK && ++polls < 100000u)
                ;
            board_stamp_t t1 = board_stamp_end();
            if (rc != RTIPC_OK) {
                mcu_fail("the handler's message never arrived");
                break;
            }
            if (m.seq != expect++)
                mcu_fail("sequence broken: a message lost, duplicated or reordered");
            if (mode == ISR_STAMP)
                mcu_sample(board_stamp_instr(t0, m.stamp));
            else
                mcu_sample(board_stamp_instr(t0, t1));
        }
        mcu_keep("mcu-isr-handoff", "rtipc-spsc-from-isr", "irq27", metric[mode], UNIT);
    }
    board_nvic_disable(BOARD_SPARE_IRQ);
    if (isr_refused)
        mcu_fail("the handler found the ring full");
    if (rtipc_spsc_size(isr_ring) != 0)
        mcu_fail("messages left in the ring");
    mcu_experiment_end("mcu-isr-handoff",
                   "interrupt handler to main loop through the SPSC ring (IRQ 27 pended through NVIC ISPR)",
                   "pend-to-handler: from just before the ISPR store to the timestamp at the handler's start; "
                   "pend-to-main: from just before the ISPR store until the main loop has popped the handler's "
                   "message (the handler takes no timestamp in this series). QEMU charges no instructions for "
                   "exception entry and return");
}

/* ---- footprint ----------------------------------------------------------------- */

static void record_footprint(void)
{
    mcu_experiment_begin();
    mcu_keep_value("mcu-footprint", BENCH_MECH_RTIPC_SPSC, "control-block", BENCH_METRIC_BYTES, "B",
                   (double)rtipc_spsc_footprint_for(0, 0));
    mcu_keep_value("mcu-footprint", BENCH_MECH_RTIPC_SPSC, "rtipc_spsc_static_t", BENCH_METRIC_BYTES, "B",
                   (double)sizeof(rtipc_spsc_static_t));
    mcu_keep_value("mcu-footprint", BENCH_MECH_RTIPC_SPSC, BENCH_VARIANT_CAP_64_ITEM_4, BENCH_METRIC_BYTES, "B",
               (double)rtipc_spsc_footprint_for(RING_CAPACITY, sizeof(uint32_t)));
    mcu_keep_value("mcu-footprint", BENCH_MECH_RTIPC_MAILBOX, "control-block", BENCH_METRIC_BYTES, "B",
                   (double)rtipc_mailbox_footprint_for(0));
    mcu_keep_value("mcu-footprint", BENCH_MECH_RTIPC_MAILBOX, "rtipc_mailbox_static_t", BENCH_METRIC_BYTES, "B",
               (double)sizeof(rtipc_mailbox_static_t));
    mcu_keep_value("mcu-footprint", BENCH_MECH_RTIPC_MAILBOX, "value=8", BENCH_METRIC_BYTES, "B",
               (double)rtipc_mailbox_footprint_for(sizeof(mb_value_t)));
    if (rtipc_spsc_footprint_for(0, 0) > sizeof(rtipc_spsc_static_t) ||
        rtipc_mailbox_footprint_for(0) > sizeof(rtipc_mailbox_static_t))
        mcu_fail("a control block is larger than its static type");
    mcu_experiment_end("mcu-footprint", "sizes of the SPSC ring and mailbox on the 32-bit target",
                   "control-block: footprint_for of an empty shape (the control block alone); *_static_t: the "
                   "caller-provided type; other variants: control block plus storage");
}

/* ---- output ---------------------------------------------------------------------- */

static void print_json(void)
{
    const bench_console_env_t env = {
        .chip = ENV_TARGET,
        .cores = 1,
        .cpu_mhz = (int)(BOARD_CPU_HZ / 1000000u),
        .rtipc_version = RTIPC_MCU_VERSION,
        .compiler = "arm-none-eabi-gcc " __VERSION__,
        .cflags = RTIPC_MCU_CFLAGS,
        .started_utc = RTIPC_MCU_STARTED,
        /* No tick on bare metal; the schema wants a positive number. */
        .tick_hz = 1,
        .timestamp_overhead_ns = (double)mcu_overhead(),
        .samples = RTIPC_MCU_SAMPLES,
        .platform = "the bare-metal Cortex-M3 suite",
        .target = "bare",
        .clock = BENCH_CLOCK_EMULATED_INSTRUCTIONS,
        .kernel = ENV_TARGET,
        .hostname = "qemu-mps2-an385",
        .sched_detail = "bare metal, no kernel and no tick (tick_hz 1 stands for none): one main loop and one "
                        "interrupt handler on one core",
        .priorities = "IRQ 27 at NVIC priority 0x80; the main loop runs in thread mode",
        .clock_source = "cmsdk-timer0, phase-resolved to the instruction; figures in instr (1 instr = 1 ns emulated)",
        .clock_hz = (double)BOARD_CPU_HZ,
        .clock_resolution_ns = board_stamp_exact() ? 1.0 : 4.0, /* of the stamps, in instructions */
        .git_commit = RTIPC_MCU_GIT,
    };
    mcu_print_json(&env);
}

int main(void)
{
    double ipc = board_calibrate();
    env_target = mcu_env_target(ipc);
    if (mcu_report_init(RTIPC_MCU_SAMPLES) != 0) {
        printf("rtipc-mcu-bench: no memory for the samples\n");
        return 1;
    }
    measure_timestamps();
    measure_spsc();
    measure_mailbox();
    measure_isr_handoff();
    record_footprint();
    int failures = mcu_failures();
    if (board_stamp_anomalies() != 0) {
        printf("rtipc-mcu-bench: %lu timestamps found the timer off its period\n",
               (unsigned long)board_stamp_anomalies());
        failures++;
    }
    printf("rtipc-mcu-bench: %s, rtipc %s, %d samples a series\n", ENV_TARGET, RTIPC_MCU_VERSION,
           RTIPC_MCU_SAMPLES);
    printf("calibration: %.4f instructions per TIMER0 count (%s); timestamp overhead %ld instructions "
           "(subtracted below except from its own row)\n\n",
           ipc, board_stamp_exact() ? "stamps exact to the instruction" : "stamps to 4 instructions",
           (long)mcu_overhead());
    mcu_print_tables();
    print_json();
    mcu_report_free();
    return failures ? 1 : 0;
}
