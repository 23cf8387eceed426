/* Clocks on Linux: CLOCK_MONOTONIC for timeouts, a hardware counter for
 * cheap timestamps, calibrated once against CLOCK_MONOTONIC_RAW. */
#include "rtipc/time.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

int64_t rtipc_time_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t raw_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The TSC is used only when the CPU says it is invariant; otherwise its rate
 * changes with frequency scaling and a calibration would be meaningless. */
static bool tsc_usable;
static double counter_hz = 1e9;
/* Two stages: choosing the counter never sleeps (rtipc_cycles and
 * rtipc_cycles_source need only that: "never blocks"); measuring its rate
 * sleeps about 20 ms and is left to the calls documented to calibrate. */
static pthread_once_t source_once = PTHREAD_ONCE_INIT;
static pthread_once_t calibrate_once = PTHREAD_ONCE_INIT;

#if defined(__x86_64__) || defined(__i386__)
static bool cpu_has_invariant_tsc(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return false;
    char line[4096];
    bool constant = false, nonstop = false;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) != 0)
            continue;
        constant = strstr(line, " constant_tsc") != NULL;
        nonstop = strstr(line, " nonstop_tsc") != NULL;
        break;
    }
    fclose(f);
    return constant && nonstop;
}
#endif

static uint64_t read_counter(void)
{
#if defined(__x86_64__) || defined(__i386__)
    if (tsc_usable) {
        /* lfence keeps rdtsc from executing before earlier instructions. */
        _mm_lfence();
        uint64_t c = __rdtsc();
        _mm_lfence();
        return c;
    }
#elif defined(__aarch64__)
    uint64_t c;
    __asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(c) : : "memory");
    return c;
#endif
    return (uint64_t)raw_ns();
}

#if defined(__x86_64__) || defined(__i386__)
static int64_t bracketed_read(uint64_t *counter_mid)
{
    uint64_t best_width = UINT64_MAX;
    int64_t best_t = 0;
    for (int i = 0; i < 16; ++i) {
        uint64_t a = read_counter();
        int64_t t = raw_ns();
        uint64_t b = read_counter();
        if (b - a < best_width) {
            best_width = b - a;
            best_t = t;
            *counter_mid = a + (b - a) / 2;
        }
    }
    return best_t;
}
#endif

static void choose_source(void)
{
#if defined(__x86_64__) || defined(__i386__)
    tsc_usable = cpu_has_invariant_tsc();
#endif
}

static void ensure_source(void) { pthread_once(&source_once, choose_source); }

static void calibrate(void)
{
    ensure_source();
#if defined(__x86_64__) || defined(__i386__)
    if (!tsc_usable)
        return; /* counter_hz stays 1e9: the fallback counts nanoseconds */
#elif defined(__aarch64__)
    uint64_t freq;
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(freq));
    counter_hz = (double)freq;
    return;
#else
    return;
#endif
    /* Each end point pairs a clock read with the midpoint of the two counter
     * reads around it, keeping the tightest of several tries so a preempted
     * read does not skew the rate. */
    uint64_t c_start, c_end;
    int64_t t_start = bracketed_read(&c_start);
    struct timespec nap = {0, 20000000};
    nanosleep(&nap, NULL);
    int64_t t_end = bracketed_read(&c_end);
    counter_hz = (double)(c_end - c_start) * 1e9 / (double)(t_end - t_start);
}

static void ensure_calibrated(void) { pthread_once(&calibrate_once, calibrate); }

uint64_t rtipc_cycles(void)
{
    ensure_source();
    return read_counter();
}

int64_t rtipc_cycles_to_ns(uint64_t cycles)
{
    ensure_calibrated();
    double ns = (double)cycles * 1e9 / counter_hz;
    /* Saturate: converting a double beyond INT64_MAX is undefined (x86-64
     * gives INT64_MIN), which a huge difference (or one taken the wrong way
     * round) would otherwise turn into a negative duration. 2^63 exactly is
     * representable, so the comparison is exact. */
    if (ns >= 9223372036854775808.0)
        return INT64_MAX;
    return (int64_t)ns;
}

double rtipc_cycles_hz(void)
{
    ensure_calibrated();
    return counter_hz;
}

const char *rtipc_cycles_source(void)
{
    ensure_source();
#if defined(__x86_64__) || defined(__i386__)
    return tsc_usable ? "tsc" : "clock_monotonic_raw";
#elif defined(__aarch64__)
    return "cntvct";
#else
    return "clock_monotonic_raw";
#endif
}
