/* Measures what the spin budget of a blocking call buys and costs, so that
 * the build default (RTIPC_SPIN_NS_DEFAULT) rests on numbers from this
 * machine (docs/performance.md, "Choosing the spin budget").
 *
 * A producer task pinned to CPU 0 sends sequence-numbered, time-stamped items
 * through an rtipc queue to a consumer task pinned to CPU 1 (both rtipc
 * priority 10: SCHED_FIFO when the process may use it). Before each send the
 * producer waits until the consumer has taken the previous item, then lets
 * the gap pass, so the consumer always waits about `gap` in its receive. For
 * each gap and each budget (set on the queue with rtipc_queue_set_spin):
 *
 *   latency   send call entered (producer) -> receive returned (consumer),
 *             from the invariant TSC (rtipc_cycles); p50 and p99
 *   cpu/msg   the consumer thread's CPU time (CLOCK_THREAD_CPUTIME_ID) over
 *             the run, per item: what waiting costs the waiter
 *   spun%     items the consumer received while spinning (no sleep)
 *   send p50  the send call's own duration: a waker pays FUTEX_WAKE (~1 us)
 *             only when the waiter had announced its sleep
 *   wakes/msg FUTEX_WAKE calls made for the consumer, per item
 *
 * Usage: rtipc-probe-spin-budget [samples]   (samples per short-gap row,
 * default 20000; long-gap rows take samples / 20, at least 500). */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rtipc/rtipc.h"

typedef struct {
    uint64_t sent_at; /* rtipc_cycles() when the send call was entered */
    uint32_t seq;
    uint32_t pad;
} item_t;

enum { WARMUP = 100, PRODUCER_CPU = 0, CONSUMER_CPU = 1, PRIORITY = 10 };

static const int64_t budgets_us[] = {0, 1, 2, 5, 10, 20, 50, 100};
static const int64_t gaps_us[] = {5, 15, 50, 1000};

typedef struct {
    rtipc_queue_t *q;
    int n;            /* items measured, after WARMUP */
    int64_t gap_ns;
    atomic_int taken; /* consumer: items taken so far (the producer paces on it) */
    int64_t *latency_ns;
    int64_t *send_ns;
    int64_t cpu_ns;
    rtipc_spin_stats_t before, after;
    int failed;
} run_t;

static int64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void spin_until(int64_t t)
{
    while (rtipc_time_ns() < t)
        ;
}

static void producer(void *arg)
{
    run_t *r = arg;
    int total = WARMUP + r->n;
    for (int i = 0; i < total; ++i) {
        while (atomic_load_explicit(&r->taken, memory_order_acquire) < i)
            ;
        int64_t due = rtipc_time_ns() + r->gap_ns;
        /* Long gaps: sleep through most of it (a real-time task spinning for
         * seconds would run into RT throttling), spin the last 50 us. */
        if (r->gap_ns > 200000)
            rtipc_task_delay(rtipc_ns(r->gap_ns - 50000));
        spin_until(due);
        item_t it = {.seq = (uint32_t)i};
        uint64_t t0 = rtipc_cycles();
        it.sent_at = t0;
        int rc = rtipc_queue_send(r->q, &it, RTIPC_FOREVER);
        uint64_t t1 = rtipc_cycles();
        if (rc != RTIPC_OK) {
            r->failed = 1;
            return;
        }
        if (i >= WARMUP)
            r->send_ns[i - WARMUP] = rtipc_cycles_to_ns(t1 - t0);
    }
}

static void consumer(void *arg)
{
    run_t *r = arg;
    int total = WARMUP + r->n;
    int64_t cpu0 = 0;
    for (int i = 0; i < total; ++i) {
        if (i == WARMUP) {
            cpu0 = thread_cpu_ns();
            rtipc_spin_stats(NULL, &r->before);
        }
        item_t it;
        int rc = rtipc_queue_receive(r->q, &it, RTIPC_FOREVER);
        uint64_t t1 = rtipc_cycles();
        if (rc != RTIPC_OK || it.seq != (uint32_t)i) {
            r->failed = 1;
            atomic_store(&r->taken, total); /* let the producer finish */
            return;
        }
        if (i >= WARMUP)
            r->latency_ns[i - WARMUP] = rtipc_cycles_to_ns(t1 - it.sent_at);
        atomic_store_explicit(&r->taken, i + 1, memory_order_release);
    }
    r->cpu_ns = thread_cpu_ns() - cpu0;
    rtipc_spin_stats(NULL, &r->after);
}

static int cmp(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static double pct(int64_t *v, int n, int p)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[(int64_t)n * p / 100 < n ? (int64_t)n * p / 100 : n - 1] / 1e3;
}

static int run_one(rtipc_queue_t *q, int64_t gap_us, int64_t budget_us, int n)
{
    run_t r = {.q = q, .n = n, .gap_ns = gap_us * 1000};
    r.latency_ns = calloc((size_t)n, sizeof *r.latency_ns);
    r.send_ns = calloc((size_t)n, sizeof *r.send_ns);
    if (!r.latency_ns || !r.send_ns) {
        fprintf(stderr, "rtipc-probe-spin-budget: out of memory\n");
        return 1;
    }
    if (rtipc_queue_set_spin(q, budget_us * 1000) != RTIPC_OK) {
        fprintf(stderr, "rtipc-probe-spin-budget: rtipc_queue_set_spin(%lld us) refused\n", (long long)budget_us);
        return 1;
    }
    rtipc_task_config_t pc = {.name = "spin-prod", .priority = PRIORITY, .core = PRODUCER_CPU, .entry = producer,
                              .arg = &r};
    rtipc_task_config_t cc = {.name = "spin-cons", .priority = PRIORITY, .core = CONSUMER_CPU, .entry = consumer,
                              .arg = &r};
    rtipc_task_t *pt, *ct;
    int rc = rtipc_task_create(&cc, &ct);
    if (rc == RTIPC_OK) {
        rc = rtipc_task_create(&pc, &pt);
        if (rc == RTIPC_OK) {
            rtipc_task_join(pt);
        } else {
            item_t stop = {.seq = UINT32_MAX}; /* out of sequence: the consumer gives up */
            rtipc_queue_send(q, &stop, RTIPC_FOREVER);
        }
        rtipc_task_join(ct);
    }
    if (rc != RTIPC_OK || r.failed) {
        fprintf(stderr, "rtipc-probe-spin-budget: %s\n",
                rc != RTIPC_OK ? rtipc_strerror(rc) : "an item was lost, reordered or refused");
        free(r.latency_ns);
        free(r.send_ns);
        return 1;
    }
    uint64_t spun = r.after.spin_wakeups - r.before.spin_wakeups;
    uint64_t wakes = r.after.futex_wakes - r.before.futex_wakes;
    printf("| %6lld | %6lld | %8.2f | %8.2f | %8.2f | %5.1f | %8.2f | %9.2f |\n", (long long)gap_us,
           (long long)budget_us, pct(r.latency_ns, n, 50), pct(r.latency_ns, n, 99), r.cpu_ns / 1e3 / n,
           100.0 * (double)spun / n, pct(r.send_ns, n, 50), (double)wakes / n);
    fflush(stdout);
    free(r.latency_ns);
    free(r.send_ns);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        printf("usage: rtipc-probe-spin-budget [samples]\n"
               "  cross-core handoff latency and waiter CPU per item for spin budgets\n"
               "  0..100 us at gaps of 5, 15 and 50 us and 1 ms (samples per short-gap row,\n"
               "  default 20000; 1 ms rows take samples / 20, at least 500)\n");
        return 0;
    }
    int n = 20000;
    if (argc > 1) {
        char *end;
        long v = strtol(argv[1], &end, 10);
        if (*end != '\0' || v < 1000 || v > 10000000) {
            fprintf(stderr, "rtipc-probe-spin-budget: samples must be 1000 .. 10000000\n");
            return 2;
        }
        n = (int)v;
    }
    if (rtipc_core_count() < 2) {
        fprintf(stderr, "rtipc-probe-spin-budget: needs two CPUs\n");
        return 1;
    }
    rtipc_queue_t *q;
    if (rtipc_queue_create(8, sizeof(item_t), &q) != RTIPC_OK) {
        fprintf(stderr, "rtipc-probe-spin-budget: queue create failed\n");
        return 1;
    }
    printf("policy: %s; producer CPU %d, consumer CPU %d; clock %s; build default budget %lld ns\n\n",
           rtipc_sched_policy_describe(), PRODUCER_CPU, CONSUMER_CPU, rtipc_cycles_source(),
           (long long)RTIPC_SPIN_NS_DEFAULT);
    printf("| gap us | spin us | p50 us | p99 us | cpu us/msg | spun %% | send p50 us | wakes/msg |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    for (size_t g = 0; g < sizeof gaps_us / sizeof *gaps_us; ++g) {
        int rows = gaps_us[g] >= 1000 ? (n / 20 < 500 ? 500 : n / 20) : n;
        for (size_t b = 0; b < sizeof budgets_us / sizeof *budgets_us; ++b)
            if (run_one(q, gaps_us[g], budgets_us[b], rows) != 0)
                return 1;
    }
    rtipc_queue_delete(q);
    return 0;
}
