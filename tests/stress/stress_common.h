/* Pieces shared by the stress programs that keep their own state and stall
 * checks (stress_mailbox, stress_spsc): the seeded random numbers, the
 * random timeout with its tally, the busy pause, and the loop that waits for
 * progress. Header-only (static functions), so each program stays a single
 * source file for tests/CMakeLists.txt.
 *
 * Define STRESS_PROGRAM (the program's name, a string) before including it:
 * the seed line names it. */
#ifndef RTIPC_TESTS_STRESS_COMMON_H
#define RTIPC_TESTS_STRESS_COMMON_H

#include <inttypes.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "test_support.h"

#ifndef STRESS_PROGRAM
#error "define STRESS_PROGRAM before including stress_common.h"
#endif

#define STALL_NS (30 * 1000000000ll)
#define MAX_FINITE_US 200u

/* ---- seeded random numbers ---------------------------------------------- */
/* The run's seed, printed once: RTIPC_STRESS_SEED replays the random choices
 * (not the interleaving). */
static inline uint64_t run_seed(void)
{
    static uint64_t seed;
    static int have;
    if (!have) {
        const char *s = getenv("RTIPC_STRESS_SEED");
        seed = s ? strtoull(s, NULL, 0) : ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid();
        have = 1;
        printf(STRESS_PROGRAM ": seed %" PRIu64 " (RTIPC_STRESS_SEED=%" PRIu64 " replays the random choices)\n",
               seed, seed);
        fflush(stdout);
    }
    return seed;
}

typedef struct {
    uint64_t s;
} rng_t;

static inline uint64_t rnd(rng_t *r)
{
    /* splitmix64 */
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline uint32_t below(rng_t *r, uint32_t n) { return (uint32_t)(rnd(r) % n); }

/* An independent stream per task: the same seed gives each its own choices. */
static inline rng_t rng_for(uint64_t stream)
{
    rng_t r = {run_seed() ^ (stream * 0xd1342543de82ef95ull)};
    rnd(&r);
    return r;
}

/* ---- timeouts ---------------------------------------------------------------- */
/* How often each kind of timeout was drawn. */
typedef struct {
    uint64_t no_wait, finite, forever;
} timeout_tally_t;

/* No wait, 0..MAX_FINITE_US us, or forever, equally likely. */
static inline rtipc_timeout_t random_timeout(rng_t *g, timeout_tally_t *k)
{
    switch (below(g, 3)) {
    case 0:
        k->no_wait++;
        return RTIPC_NO_WAIT;
    case 1:
        k->finite++;
        return rtipc_us(below(g, MAX_FINITE_US + 1));
    default:
        k->forever++;
        return RTIPC_FOREVER;
    }
}

/* ---- pacing and progress ---------------------------------------------------- */
/* Spin for ns without leaving the core, to vary where a partner's wait is hit. */
static inline void pause_ns(uint32_t ns)
{
    int64_t until = rtipc_time_ns() + ns;
    while (rtipc_time_ns() < until) {
    }
}

/* Main thread: poll every 20 ms until done() is true. Returns false when
 * *progress stays unchanged for STALL_NS (a lost wake-up or lost data);
 * tasks may still run then, so the caller leaks their state. */
static inline bool wait_with_stall_check(bool (*done)(void *), void *arg, const atomic_long *progress)
{
    long last = -1;
    int64_t last_change = rtipc_time_ns();
    for (;;) {
        if (done(arg))
            return true;
        long now = atomic_load(progress);
        if (now != last) {
            last = now;
            last_change = rtipc_time_ns();
        } else if (rtipc_time_ns() - last_change > STALL_NS) {
            return false;
        }
        sleep_ms(20);
    }
}

/* ---- ping-pong with waits that never time out ------------------------------- */
/* Two tasks pass a value back and forth through two objects, each waiting
 * forever for the other: every round parks and wakes both sides, so one lost
 * wake-up leaves both asleep for good, which the stall check turns into a
 * failure. Random short pauses vary where in the other side's wait the
 * write lands. A program embeds pingpong_t in its own state and supplies the
 * per-round calls; each returns false on any wrong result. */
typedef struct {
    long rounds;
    atomic_long done;   /* rounds the pinging side has finished */
    atomic_long errors; /* a side that saw a wrong result stops */
} pingpong_t;

/* A program's ping-pong state of `size` bytes, pingpong_t first, zeroed,
 * with the number of rounds set. On the heap: a stall leaks it. */
static inline void *pingpong_new(size_t size)
{
    pingpong_t *pp = calloc(1, size);
    assert_non_null(pp);
    pp->rounds = stress_count(50000);
    return pp;
}

/* The pinging side: round(arg, i) sends round i and waits for its answer. */
static inline void pingpong_ping(pingpong_t *pp, uint64_t stream, bool (*round)(void *, long), void *arg)
{
    rng_t g = rng_for(stream);
    for (long i = 0; i < pp->rounds; ++i) {
        if (!round(arg, i)) {
            atomic_fetch_add(&pp->errors, 1);
            return;
        }
        atomic_store_explicit(&pp->done, i + 1, memory_order_relaxed);
        pause_ns(below(&g, 3000));
    }
}

/* The answering side: take(arg, i) waits for round i, answer(arg, i) sends
 * it back after a random pause. */
static inline void pingpong_pong(pingpong_t *pp, uint64_t stream, bool (*take)(void *, long),
                                 bool (*answer)(void *, long), void *arg)
{
    rng_t g = rng_for(stream);
    for (long i = 0; i < pp->rounds; ++i) {
        bool ok = take(arg, i);
        if (ok) {
            pause_ns(below(&g, 3000));
            ok = answer(arg, i);
        }
        if (!ok) {
            atomic_fetch_add(&pp->errors, 1);
            return;
        }
    }
}

/* All rounds done, or a side gave up on an error. */
static inline bool pingpong_over(void *arg)
{
    pingpong_t *pp = arg;
    return atomic_load(&pp->done) >= pp->rounds || atomic_load(&pp->errors) != 0;
}

/* Main thread, once the rounds are over: join both sides, report the round
 * trip time and check that neither side saw a wrong result. */
static inline void pingpong_finish(pingpong_t *pp, rtipc_task_t *a, rtipc_task_t *b, double t0)
{
    join_task(a);
    join_task(b);
    double secs = ((double)rtipc_time_ns() - t0) / 1e9;
    printf(STRESS_PROGRAM " ping-pong: %ld rounds in %.2f s (%.1f us per round trip)\n", pp->rounds, secs,
           secs * 1e6 / (double)pp->rounds);
    assert_int_equal(atomic_load(&pp->errors), 0);
}

#endif
