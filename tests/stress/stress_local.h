/* Small harness shared by the stream buffer, message buffer and event group
 * stress programs (header-only, static functions): seeded random numbers,
 * random timeouts, error recording from tasks, a stall watchdog for the main
 * thread, and the report line.
 *
 * Rule: cmocka assertions run on the main test thread only. Tasks record what
 * goes wrong with sl_error(); the main thread checks after joining. */
#ifndef RTIPC_TESTS_STRESS_LOCAL_H
#define RTIPC_TESTS_STRESS_LOCAL_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stress_main.h"
#include "test_support.h"

/* ---- random numbers ------------------------------------------------------ */
static inline uint64_t sl_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The run's seed: RTIPC_STRESS_SEED, else clock and pid. Main thread, once. */
static uint64_t sl_seed_value;

static inline void sl_banner(const char *program)
{
    const char *s = getenv("RTIPC_STRESS_SEED");
    if (s && *s) {
        sl_seed_value = strtoull(s, NULL, 0);
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        sl_seed_value = sl_mix((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec) ^ (uint64_t)getpid();
    }
    const char *scale = getenv("RTIPC_STRESS_SCALE");
    printf("%s: %s, %d core(s), RTIPC_STRESS_SCALE=%s, seed %llu (RTIPC_STRESS_SEED replays the random "
           "choices, not the interleaving)\n",
           program, rtipc_sched_policy_describe(), rtipc_core_count(), scale ? scale : "1 (default)",
           (unsigned long long)sl_seed_value);
    fflush(stdout);
}

typedef struct {
    uint64_t s;
} sl_rng_t;

static inline void sl_rng_init(sl_rng_t *r, uint64_t stream)
{
    r->s = sl_mix(sl_seed_value ^ (stream * 0xd1342543de82ef95ull)) | 1;
}

static inline uint64_t sl_rand(sl_rng_t *r)
{
    uint64_t x = r->s; /* xorshift64* */
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * 0x2545f4914f6cdd1dull;
}

/* Uniform in 0 .. n-1 (n > 0). */
static inline uint32_t sl_below(sl_rng_t *r, uint32_t n) { return (uint32_t)((sl_rand(r) >> 32) % n); }

/* ---- timeouts and retries ------------------------------------------------- */
typedef struct {
    uint64_t calls, wouldblock, timedout, partial;
} sl_counts_t;

/* Weights no_wait : finite (1..200 us) : forever. */
static inline rtipc_timeout_t sl_timeout(sl_rng_t *r, unsigned no_wait, unsigned finite, unsigned forever)
{
    uint32_t x = sl_below(r, no_wait + finite + forever);
    if (x < no_wait)
        return RTIPC_NO_WAIT;
    if (x < no_wait + finite)
        return rtipc_us(1 + sl_below(r, 200));
    return RTIPC_FOREVER;
}

/* A failed attempt that is allowed to happen: count it, and after a
 * would-block pause for a few microseconds, so that a SCHED_FIFO task that
 * retries does not keep its partner's core-mate off the core. */
static inline bool sl_retry(int rc, sl_counts_t *c)
{
    if (rc == RTIPC_EWOULDBLOCK) {
        ++c->wouldblock;
        rtipc_task_delay(rtipc_us(5));
        return true;
    }
    if (rc == RTIPC_ETIMEDOUT) {
        ++c->timedout;
        return true;
    }
    return false;
}

/* Add a's counts to sum. */
static inline void sl_counts_add(sl_counts_t *sum, const sl_counts_t *a)
{
    sum->calls += a->calls;
    sum->wouldblock += a->wouldblock;
    sum->timedout += a->timedout;
    sum->partial += a->partial;
}

/* ---- writer/reader pairs --------------------------------------------------------- */
/* Pair i of n: its share of total messages, and its writer's and reader's
 * random streams (2 i and 2 i + 1). */
static inline long sl_pair_share(long total, int n, int i) { return total / n + (i < total % n ? 1 : 0); }

static inline void sl_pair_rngs(sl_rng_t *writer, sl_rng_t *reader, int i)
{
    sl_rng_init(writer, 2 * (uint64_t)i);
    sl_rng_init(reader, 2 * (uint64_t)i + 1);
}

/* Start the writer and the reader of pairs[0..n-1] (elements `size` bytes
 * apart) into tasks[2 i] and tasks[2 i + 1]. Pair i writes on core i and
 * reads on the other; priorities differ so each core holds one writer and
 * one reader of different rank. */
static inline void sl_start_pairs(rtipc_task_t **tasks, void *pairs, size_t size, int n, const char *wname,
                                  const char *rname, rtipc_task_fn writer, rtipc_task_fn reader)
{
    for (int i = 0; i < n; ++i) {
        void *p = (char *)pairs + (size_t)i * size;
        tasks[2 * i] = start_task(wname, (unsigned)(5 + i), test_core(i), writer, p);
        tasks[2 * i + 1] = start_task(rname, (unsigned)(6 - i), test_core(1 - i), reader, p);
    }
}

/* ---- errors recorded by tasks ---------------------------------------------- */
typedef struct {
    atomic_long count;
    atomic_int claimed;
    atomic_int published;
    char first[256];
} sl_errors_t;

static inline void sl_error(sl_errors_t *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void sl_error(sl_errors_t *e, const char *fmt, ...)
{
    char buf[sizeof e->first];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (atomic_fetch_add(&e->count, 1) < 10)
        fprintf(stderr, "stress error: %s\n", buf);
    int expected = 0;
    if (atomic_compare_exchange_strong(&e->claimed, &expected, 1)) {
        memcpy(e->first, buf, sizeof buf);
        atomic_store(&e->published, 1);
    }
}

/* Main thread only. */
static inline void sl_assert_no_errors(sl_errors_t *e)
{
    long n = atomic_load(&e->count);
    if (n)
        fail_msg("%ld error(s) recorded by tasks; first: %s", n,
                 atomic_load(&e->published) ? e->first : "(not yet published)");
}

/* ---- the stall watchdog ------------------------------------------------------- */
static inline double sl_now(void) { return (double)rtipc_time_ns() / 1e9; }

static inline double sl_stall_limit(void)
{
    const char *s = getenv("RTIPC_STRESS_STALL_S");
    double v = s ? atof(s) : 0;
    return v > 0 ? v : 30.0;
}

/* Main thread: poll until *finished reaches want. Fails the test, after
 * calling dump, when *progress stays unchanged for the stall limit (30 s or
 * RTIPC_STRESS_STALL_S): a hang is a lost wake-up, lost data or a deadlock.
 * Tasks are still running then, so the shared state must be on the heap and
 * be leaked on that path. */
static inline void sl_watch(const atomic_int *finished, int want, const atomic_long *progress, const char *what,
                     void (*dump)(void *), void *arg)
{
    double limit = sl_stall_limit();
    long last = atomic_load(progress);
    double since = sl_now();
    while (atomic_load(finished) < want) {
        sleep_ms(5);
        long now = atomic_load(progress);
        if (now != last) {
            last = now;
            since = sl_now();
        } else if (sl_now() - since > limit) {
            fprintf(stderr, "STALL: no progress for %.0f s in %s (progress %ld)\n", limit, what, now);
            if (dump)
                dump(arg);
            fflush(stderr);
            fail_msg("stall: no progress for %.0f s in %s (lost wake-up, lost data or deadlock)", limit, what);
        }
    }
}

#endif
