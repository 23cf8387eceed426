/* The clocks of the target seam (target.h) on ESP-IDF.
 *
 * Shared clock (bench_target_now_ns): a span may start on one core and end
 * on the other, so both read one counter. esp_timer_get_time() is one, but
 * in whole microseconds, coarser than the effects the published reports
 * time (0.4 to 4.5 us). A general-purpose timer of a timer group counts at
 * 40 MHz (the 80 MHz APB clock over the divider's least value, 2): 25 ns a
 * count, read by either core through the driver (gptimer_get_raw_count,
 * safe from a handler). The timer is made at the first reading; where none
 * can be had (all four taken), esp_timer's microseconds stand in and the
 * clock's description says so.
 *
 * The emulated ESP32-S3 reads SYSTIMER instead: QEMU 9.2's esp32s3 timer
 * group loses the GPTimer's count in this app (from about 50 ms after the
 * timer starts, each core reads it 140462559 counts lower at every
 * cross-core handoff, while the timer's configuration still says "counting
 * up"; docs/esp32.md, "ESP32-S3"). SYSTIMER's counter 0, esp_timer's own,
 * counts at 16 MHz (62.5 ns) and is read lock-free by either core (a
 * snapshot, then the low word until it reads the same twice, as ESP-IDF's
 * HAL reads it). A board's S3 reads the GPTimer, as the ESP32 does.
 *
 * Core clock (bench_target_core_now_ns): a span within one core reads that
 * core's own cycle counter, CCOUNT, at the configured CPU clock. It is 32
 * bits wide (about 18 s at 240 MHz), so each core extends it to 64 bits
 * with the readings it has seen: a span shorter than one wrap is exact.
 * Each core's count is anchored to the shared clock at its first reading,
 * so that core-clocked stamps sit on the run's time line (the trace). */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "driver/gptimer.h"
#if defined(CONFIG_IDF_TARGET_ESP32S3) && defined(CONFIG_RTIPC_BENCH_QEMU)
#define SHARED_SYSTIMER 1
#include "hal/systimer_ll.h"
#include "soc/systimer_struct.h"
#endif
#include "esp_cpu.h"
#include "esp_rom_sys.h"
#include "esp_timer.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "sdkconfig.h"

#include "target.h"

/* Under QEMU's instruction counting every clock follows the instructions
 * (docs/esp32.md, "Deterministic runs"): the figures are virtual ns,
 * 2^shift of them per instruction. */
#if defined(CONFIG_RTIPC_BENCH_QEMU_ICOUNT_SHIFT) && CONFIG_RTIPC_BENCH_QEMU_ICOUNT_SHIFT >= 0
#define ICOUNT_SHIFT CONFIG_RTIPC_BENCH_QEMU_ICOUNT_SHIFT
#endif

/* ---- the shared clock ---- */

#define SHARED_HZ 40000000u  /* APB 80 MHz / 2 */

enum { CLOCK_UNMADE, CLOCK_MAKING, CLOCK_TIMER, CLOCK_ESP_TIMER };

static struct {
    _Atomic int state;        /* release by the maker, acquire by readers:
                                 publishes timer and ns_per_count */
    gptimer_handle_t timer;
    uint32_t ns_per_count;
} shared;

#ifdef SHARED_SYSTIMER
/* SYSTIMER's counter 0 runs at 16 MHz: 62.5 ns, 125 ns per 2 counts. */
#define SYSTIMER_HZ 16000000u

static uint64_t systimer_count(void)
{
    systimer_ll_counter_snapshot(&SYSTIMER, 0);
    while (!systimer_ll_is_counter_value_valid(&SYSTIMER, 0)) {
    }
    /* Another reader's snapshot may land between the two words: read the
     * low word again until it holds still. */
    uint32_t lo = systimer_ll_get_counter_value_low(&SYSTIMER, 0), hi, again;
    for (;;) {
        hi = systimer_ll_get_counter_value_high(&SYSTIMER, 0);
        again = systimer_ll_get_counter_value_low(&SYSTIMER, 0);
        if (again == lo)
            break;
        lo = again;
    }
    return ((uint64_t)hi << 32) | lo;
}
#endif

/* Made by the first reader (a task: the run's start describes the clock
 * before anything is timed). A reader that finds it being made by another
 * reads esp_timer meanwhile. */
static int shared_state(void)
{
    int s = atomic_load_explicit(&shared.state, memory_order_acquire);
    if (s != CLOCK_UNMADE)
        return s;
    int expected = CLOCK_UNMADE;
    if (!atomic_compare_exchange_strong_explicit(&shared.state, &expected, CLOCK_MAKING, memory_order_acq_rel,
                                                 memory_order_acquire))
        return expected;
#ifdef SHARED_SYSTIMER
    /* esp_timer reads the same counter in microseconds: the rate is the
     * assumed one only if the two agree. */
    uint64_t c = systimer_count();
    int64_t us = esp_timer_get_time();
    int64_t off = (int64_t)(c / (SYSTIMER_HZ / 1000000u)) - us;
    int next = off > -2 && off < 2 ? CLOCK_TIMER : CLOCK_ESP_TIMER;
#else
    const gptimer_config_t cfg = {
        .clk_src = GPTIMER_CLK_SRC_DEFAULT,
        .direction = GPTIMER_COUNT_UP,
        .resolution_hz = SHARED_HZ,
    };
    uint32_t hz = 0;
    int next = CLOCK_ESP_TIMER;
    if (gptimer_new_timer(&cfg, &shared.timer) == ESP_OK) {
        /* A whole number of ns per count, or the timer is not used. */
        if (gptimer_get_resolution(shared.timer, &hz) == ESP_OK && hz && 1000000000u % hz == 0 &&
            gptimer_enable(shared.timer) == ESP_OK && gptimer_start(shared.timer) == ESP_OK) {
            shared.ns_per_count = 1000000000u / hz;
            next = CLOCK_TIMER;
        } else {
            (void)gptimer_disable(shared.timer);
            (void)gptimer_del_timer(shared.timer);
            shared.timer = NULL;
        }
    }
#endif
    atomic_store_explicit(&shared.state, next, memory_order_release);
    return next;
}

/* The unit of the figures: virtual ns under instruction counting (an
 * instruction is 2^shift of them, not one), else the provenance's. */
static const char *clock_unit(bench_clock_provenance_t p)
{
#if defined(ICOUNT_SHIFT)
    (void)p;
    return "ns";
#else
    return bench_clock_provenance_unit(p);
#endif
}

int64_t bench_target_now_ns(void)
{
#ifdef SHARED_SYSTIMER
    if (shared_state() == CLOCK_TIMER)
        return (int64_t)(systimer_count() * 125u / 2u);
#else
    uint64_t count;
    if (shared_state() == CLOCK_TIMER && gptimer_get_raw_count(shared.timer, &count) == ESP_OK)
        return (int64_t)(count * shared.ns_per_count);
#endif
    return esp_timer_get_time() * 1000;
}

void bench_target_clock(bench_clock_t *out)
{
    memset(out, 0, sizeof *out);
    bool timer = shared_state() == CLOCK_TIMER;
#if defined(ICOUNT_SHIFT)
    out->provenance = BENCH_CLOCK_EMULATED_INSTRUCTIONS;
    char where[40];
    snprintf(where, sizeof where, "; QEMU icount %d ns/instr, turns %d", 1 << ICOUNT_SHIFT,
             CONFIG_RTIPC_BENCH_QEMU_ICOUNT_QUANTUM);
#elif defined(CONFIG_RTIPC_BENCH_QEMU)
    /* Espressif's QEMU drives its timers from the host's clock. */
    out->provenance = BENCH_CLOCK_EMULATED_WALL;
    const char *where = "; QEMU: the host's time";
#else
    out->provenance = BENCH_CLOCK_MCU_CYCLES;
    const char *where = "";
#endif
#ifdef SHARED_SYSTIMER
    if (timer) {
        snprintf(out->name, sizeof out->name, "SYSTIMER at %u Hz, one counter for both cores%s",
                 (unsigned)SYSTIMER_HZ, where);
        out->rate_hz = SYSTIMER_HZ;
        out->resolution = 1e9 / SYSTIMER_HZ;
    } else
#endif
    if (timer) {
        snprintf(out->name, sizeof out->name, "GPTimer at %u Hz, one counter for both cores%s",
                 (unsigned)(1000000000u / shared.ns_per_count), where);
        out->rate_hz = 1e9 / shared.ns_per_count;
        out->resolution = shared.ns_per_count;
    } else {
        snprintf(out->name, sizeof out->name, "esp_timer, both cores (no GPTimer free)%s", where);
        out->rate_hz = 1e6;
        out->resolution = 1000;
    }
    snprintf(out->unit, sizeof out->unit, "%s", clock_unit(out->provenance));
}

/* ---- each core's own cycle counter ---- */

/* The CPU clock CCOUNT counts. On a board, the one it runs at, which may
 * differ from the configured one: an Arduino sketch's core sets its board
 * menu's frequency (240 MHz) at start-up over its libraries' configured
 * 160. Under QEMU, the configured one, which its CCOUNT follows. */
uint32_t bench_espidf_cpu_mhz(void)
{
#ifdef CONFIG_RTIPC_BENCH_QEMU
    return CONFIG_ESP_DEFAULT_CPU_FREQ_MHZ;
#else
    uint32_t mhz = esp_rom_get_cpu_ticks_per_us();
    return mhz ? mhz : CONFIG_ESP_DEFAULT_CPU_FREQ_MHZ;
#endif
}
#define CORE_HZ ((uint64_t)bench_espidf_cpu_mhz() * 1000000u)

/* ESP-IDF 5.1's kernel names its core count configNUM_CORES, later ones
 * configNUMBER_OF_CORES; portNUM_PROCESSORS is in both. */
#define CORES portNUM_PROCESSORS

/* Per core, touched only by that core with its interrupts masked. */
static struct {
    bool anchored;
    uint32_t last;       /* the last CCOUNT read */
    uint32_t wraps;      /* the extension's upper half */
    uint64_t origin;     /* the extended count at the anchor */
    int64_t origin_ns;   /* the shared clock then */
} cores[CORES];

/* ns per count, times 2^32: no division on a timed path. Set with the
 * first anchor (every core writes the same value). */
static uint64_t core_mult;

static int64_t core_ns(uint64_t d)
{
    /* d split at bit 24 keeps both products within 64 bits for days. */
    uint64_t hi = d >> 24, lo = d & 0xffffffu;
    return (int64_t)(((hi * core_mult) >> 8) + ((lo * core_mult) >> 32));
}

int64_t bench_target_core_now_ns(void)
{
    /* Masked, the task stays on its core and a handler on the core cannot
     * update the extension between the read and the store. */
    UBaseType_t mask = portSET_INTERRUPT_MASK_FROM_ISR();
    int core = (int)xPortGetCoreID();
    uint32_t c = (uint32_t)esp_cpu_get_cycle_count();
    if (c < cores[core].last)
        cores[core].wraps++;
    cores[core].last = c;
    uint64_t ext = ((uint64_t)cores[core].wraps << 32) | c;
    if (!cores[core].anchored) {
        core_mult = (uint64_t)((1e9 / (double)CORE_HZ) * 4294967296.0 + 0.5);
        cores[core].anchored = true;
        cores[core].origin = ext;
        cores[core].origin_ns = bench_target_now_ns();
    }
    int64_t ns = cores[core].origin_ns + core_ns(ext - cores[core].origin);
    portCLEAR_INTERRUPT_MASK_FROM_ISR(mask);
    return ns;
}

bool bench_target_core_clock(bench_clock_t *out)
{
    memset(out, 0, sizeof *out);
#if defined(ICOUNT_SHIFT)
    /* CCOUNT = virtual ns x the configured MHz: counted instructions too. */
    snprintf(out->name, sizeof out->name, "CCOUNT, each core's own, %u MHz of QEMU icount time (%d ns/instr)",
             (unsigned)CONFIG_ESP_DEFAULT_CPU_FREQ_MHZ, 1 << ICOUNT_SHIFT);
    out->provenance = BENCH_CLOCK_EMULATED_INSTRUCTIONS;
#elif defined(CONFIG_RTIPC_BENCH_QEMU)
    /* Espressif's QEMU derives CCOUNT from its virtual time, which follows
     * the host's clock unless it counts instructions. */
    snprintf(out->name, sizeof out->name, "CCOUNT, each core's own, at %u MHz configured (QEMU)",
             (unsigned)CONFIG_ESP_DEFAULT_CPU_FREQ_MHZ);
    out->provenance = BENCH_CLOCK_EMULATED_CORE_CYCLES;
#else
    snprintf(out->name, sizeof out->name, "CCOUNT, each core's own, at %u MHz", (unsigned)bench_espidf_cpu_mhz());
    out->provenance = BENCH_CLOCK_MCU_CYCLES;
#endif
    out->rate_hz = (double)CORE_HZ;
    out->resolution = 1e9 / (double)CORE_HZ;
    snprintf(out->unit, sizeof out->unit, "%s", clock_unit(out->provenance));
    return true;
}
