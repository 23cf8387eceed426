#include "stress_support.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- random numbers ------------------------------------------------------ */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static atomic_int seed_state; /* 0 unset, 1 being set, 2 set */
static uint64_t seed_value;

uint64_t stress_seed(void)
{
    int expected = 0;
    if (atomic_compare_exchange_strong(&seed_state, &expected, 1)) {
        const char *s = getenv("RTIPC_STRESS_SEED");
        uint64_t v;
        if (s && *s) {
            v = strtoull(s, NULL, 0);
        } else {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            uint64_t x = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
            x ^= (uint64_t)getpid() << 32;
            v = splitmix64(&x);
        }
        seed_value = v;
        printf("stress: seed %" PRIu64 " (set RTIPC_STRESS_SEED=%" PRIu64 " to replay the random choices)\n", v,
               v);
        fflush(stdout);
        atomic_store(&seed_state, 2);
    }
    while (atomic_load(&seed_state) != 2) {
    }
    return seed_value;
}

void stress_rng_init(stress_rng_t *r, uint64_t stream)
{
    uint64_t x = stress_seed() ^ (stream * 0xd1342543de82ef95ull);
    r->s = splitmix64(&x);
    if (r->s == 0)
        r->s = 1;
}

uint64_t stress_rand(stress_rng_t *r)
{
    /* xorshift64* */
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * 0x2545f4914f6cdd1dull;
}

uint32_t stress_below(stress_rng_t *r, uint32_t n) { return (uint32_t)((stress_rand(r) >> 32) % n); }

/* ---- random timeouts and retries ---------------------------------------- */

static rtipc_timeout_t finite(stress_rng_t *r, stress_waits_t *w)
{
    uint32_t us = stress_below(r, STRESS_MAX_FINITE_US + 1);
    if (us == 0) {
        ++w->no_wait;
        return RTIPC_NO_WAIT;
    }
    ++w->finite;
    return rtipc_us(us);
}

rtipc_timeout_t stress_timeout(stress_rng_t *r, stress_waits_t *w)
{
    switch (stress_below(r, 3)) {
    case 0:
        ++w->no_wait;
        return RTIPC_NO_WAIT;
    case 1:
        return finite(r, w);
    default:
        ++w->forever;
        return RTIPC_FOREVER;
    }
}

bool stress_retry(int rc, stress_waits_t *w)
{
    if (rc == RTIPC_EWOULDBLOCK) {
        ++w->wouldblock;
        /* Under the SCHED_OTHER fallback a task that polls would keep its
         * core from the task it waits for until its time slice ends. */
        if (rtipc_sched_policy() == RTIPC_SCHED_OTHER)
            rtipc_task_yield();
        return true;
    }
    if (rc == RTIPC_ETIMEDOUT) {
        ++w->timedout;
        return true;
    }
    return false;
}

void stress_waits_add(stress_waits_t *a, const stress_waits_t *b)
{
    a->no_wait += b->no_wait;
    a->finite += b->finite;
    a->forever += b->forever;
    a->wouldblock += b->wouldblock;
    a->timedout += b->timedout;
}

/* ---- errors ------------------------------------------------------------------ */

void stress_errors_init(stress_errors_t *e)
{
    atomic_store(&e->count, 0);
    atomic_store(&e->claimed, 0);
    atomic_store(&e->published, 0);
    e->first[0] = '\0';
}

void stress_error(stress_errors_t *e, const char *fmt, ...)
{
    char buf[sizeof e->first];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    long n = atomic_fetch_add(&e->count, 1);
    if (n < 10)
        fprintf(stderr, "stress error: %s\n", buf);
    int expected = 0;
    if (atomic_compare_exchange_strong(&e->claimed, &expected, 1)) {
        memcpy(e->first, buf, sizeof buf);
        atomic_store(&e->published, 1);
    }
}

void stress_assert_no_errors(stress_errors_t *e)
{
    long n = atomic_load(&e->count);
    if (n == 0)
        return;
    const char *first = atomic_load(&e->published) ? e->first : "(message not yet published)";
    fail_msg("%ld error(s) recorded by tasks; first: %s", n, first);
}

/* ---- bitmaps ------------------------------------------------------------------ */

void stress_bitmap_init(stress_bitmap_t *b, long bits)
{
    size_t words = (size_t)(bits + 63) / 64;
    b->words = calloc(words ? words : 1, sizeof *b->words);
    assert_non_null(b->words);
    b->bits = bits;
}

void stress_bitmap_free(stress_bitmap_t *b)
{
    free((void *)b->words);
    b->words = NULL;
}

bool stress_bitmap_set(stress_bitmap_t *b, long i)
{
    uint64_t mask = 1ull << (i & 63);
    return (atomic_fetch_or_explicit(&b->words[i >> 6], mask, memory_order_relaxed) & mask) != 0;
}

long stress_bitmap_missing(const stress_bitmap_t *b, long *first)
{
    long missing = 0;
    *first = -1;
    for (long i = 0; i < b->bits; ++i) {
        uint64_t w = atomic_load_explicit(&b->words[i >> 6], memory_order_relaxed);
        if (!(w & (1ull << (i & 63)))) {
            if (missing++ == 0)
                *first = i;
        }
    }
    return missing;
}

void stress_bitmap_report(const stress_bitmap_t *b, const long *base, int producers)
{
    for (int p = 0; p < producers; ++p) {
        long end = p + 1 < producers ? base[p + 1] : b->bits;
        long missing = 0, first = -1;
        for (long i = base[p]; i < end; ++i) {
            if (!(atomic_load_explicit(&b->words[i >> 6], memory_order_relaxed) & (1ull << (i & 63)))) {
                if (missing++ == 0)
                    first = i - base[p];
            }
        }
        fprintf(stderr, "  producer %d: %ld seq(s) not received yet, first %ld\n", p, missing, first);
    }
}

/* ---- task groups ---------------------------------------------------------------- */

void stress_group_init(stress_group_t *g, const char *label)
{
    memset(g, 0, sizeof *g);
    g->label = label;
    atomic_store(&g->finished, 0);
}

static void slot_entry(void *arg)
{
    stress_slot_t *s = arg;
    s->fn(s->arg);
    atomic_store(&s->done, 1);
    atomic_fetch_add(&s->group->finished, 1);
}

void stress_group_start(stress_group_t *g, const char *prefix, unsigned priority, int core, rtipc_task_fn fn,
                        void *arg)
{
    assert_true(g->n < STRESS_MAX_TASKS);
    stress_slot_t *s = &g->slots[g->n];
    s->group = g;
    s->fn = fn;
    s->arg = arg;
    s->priority = priority;
    s->core = core;
    atomic_store(&s->done, 0);
    snprintf(s->name, sizeof s->name, "%s%d", prefix, g->n);
    g->tasks[g->n] = start_task(s->name, priority, core, slot_entry, s);
    ++g->n;
}

static double stall_limit(void)
{
    const char *s = getenv("RTIPC_STRESS_STALL_S");
    double v = s ? atof(s) : 0;
    return v > 0 ? v : 60.0;
}

static void print_unfinished(stress_group_t *g)
{
    for (int i = 0; i < g->n; ++i)
        if (!atomic_load(&g->slots[i].done))
            fprintf(stderr, "  still running: %s/%s (priority %u, core %d)\n", g->label, g->slots[i].name,
                    g->slots[i].priority, g->slots[i].core);
}

/* Poll until done() holds; fail when *progress is unchanged for the limit. */
static void watch(bool (*done)(const void *), const void *ctx, const atomic_long *progress, const char *what,
                  stress_group_t *g, void (*dump)(void *), void *dump_arg)
{
    double limit = stall_limit();
    long last = atomic_load(progress);
    double since = stress_now();
    while (!done(ctx)) {
        sleep_ms(5);
        long now = atomic_load(progress);
        if (now != last) {
            last = now;
            since = stress_now();
        } else if (stress_now() - since > limit) {
            fprintf(stderr, "STALL: no progress for %.0f s while waiting for %s (progress counter %ld)\n", limit,
                    what, now);
            fprintf(stderr, "  (real-time threads of other processes on these cores can also starve the tasks:\n"
                            "   run stress tests alone)\n");
            if (g)
                print_unfinished(g);
            if (dump)
                dump(dump_arg);
            fflush(stderr);
            fail_msg("stall: no progress for %.0f s waiting for %s (lost wake-up, lost item or deadlock)",
                     limit, what);
        }
    }
}

static bool group_done(const void *ctx)
{
    stress_group_t *g = (stress_group_t *)ctx;
    return atomic_load(&g->finished) == g->n;
}

void stress_group_wait(stress_group_t *g, const atomic_long *progress, void (*dump)(void *), void *dump_arg)
{
    watch(group_done, g, progress, g->label, g, dump, dump_arg);
}

void stress_group_join(stress_group_t *g)
{
    for (int i = 0; i < g->n; ++i)
        join_task(g->tasks[i]);
    g->n = 0;
}

typedef struct {
    const atomic_long *value;
    long want;
} value_wait_t;

static bool value_done(const void *ctx)
{
    const value_wait_t *v = ctx;
    return atomic_load(v->value) >= v->want;
}

void stress_wait_value(const atomic_long *value, long want, const char *what, void (*dump)(void *),
                       void *dump_arg)
{
    value_wait_t v = {value, want};
    watch(value_done, &v, value, what, NULL, dump, dump_arg);
}

/* ---- time and reporting ------------------------------------------------------------ */

double stress_now(void) { return (double)rtipc_time_ns() / 1e9; }

long stress_share(long total, int n, int i) { return total / n + (i < total % n ? 1 : 0); }

void stress_banner(const char *program)
{
    const char *scale = getenv("RTIPC_STRESS_SCALE");
    printf("%s: %s, %d core(s), RTIPC_STRESS_SCALE=%s\n", program, rtipc_sched_policy_describe(),
           rtipc_core_count(), scale ? scale : "1 (default)");
    (void)stress_seed();
    fflush(stdout);
}

void stress_summary(const char *name, long messages, const stress_waits_t *w, double secs)
{
    printf("stress %s: %ld messages, %" PRIu64 " retries (%" PRIu64 " would-block, %" PRIu64
           " timed-out), timeouts used: %" PRIu64 " no-wait / %" PRIu64 " finite / %" PRIu64
           " forever, %.2f s, %.0f msg/s\n",
           name, messages, stress_waits_retries(w), w->wouldblock, w->timedout, w->no_wait, w->finite,
           w->forever, secs, secs > 0 ? (double)messages / secs : 0.0);
    fflush(stdout);
}

void stress_backoff(unsigned us) { rtipc_task_delay(rtipc_us(us ? us : 1)); }
