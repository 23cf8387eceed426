/* queue-placement: queue-latency with the queue in caller-provided memory,
 * either left warm in the caches or evicted from every cache before each
 * send (the host's stand-in for a queue placed in slow external memory). */
#include "../harness/handoff_rounds.h"
#include "experiments.h"
#include "needs_tasks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { DEPTH = 100, LINE = 64 };

/* The queue's whole memory: item storage and control block, each starting
 * on its own cache line so the flush covers exactly their lines. */
typedef struct {
    _Alignas(LINE) uint32_t items[DEPTH];
    _Alignas(LINE) rtipc_queue_static_t cb;
} placed_queue_t;

#if defined(__x86_64__) || defined(__i386__)
#define HAVE_CLFLUSH 1
static void flush_range(const void *p, size_t n)
{
    for (const char *c = p, *end = c + n; c < end; c += LINE)
        __builtin_ia32_clflush(c);
}

/* Producer, untimed, before each send: write back and evict every line of
 * the storage and the control block from all caches of the machine; the
 * fence makes the send start only after the evictions completed. */
static void evict_queue(void *arg)
{
    placed_queue_t *pq = arg;
    flush_range(pq->items, sizeof pq->items);
    flush_range(&pq->cb, sizeof pq->cb);
    __builtin_ia32_mfence();
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Median time of one load from the control block's line, evicted first or
 * not: shows what the eviction costs a single access on this machine. */
static double load_ns(placed_queue_t *pq, bool evict)
{
    enum { N = 301 };
    int64_t t[N];
    volatile const unsigned char *p = (volatile const unsigned char *)&pq->cb;
    for (int i = 0; i < N; i++) {
        (void)*p;
        if (evict) {
            __builtin_ia32_clflush((const void *)p);
            __builtin_ia32_mfence();
        }
        int64_t t0 = bench_now_ns();
        (void)*p;
        t[i] = bench_now_ns() - t0;
    }
    qsort(t, N, sizeof t[0], cmp_i64);
    return (double)t[N / 2];
}
#else
#define HAVE_CLFLUSH 0
#endif

typedef struct {
    placed_queue_t *mem;
    rtipc_queue_t *q;
    uint32_t next;                /* producer: number of the message about to be sent */
} placed_t;

static int placed_send(void *obj, uint32_t seq) { return bench_rtipc_queue_send(((placed_t *)obj)->q, seq); }
static int placed_recv(void *obj, uint32_t *seq) { return bench_rtipc_queue_recv(((placed_t *)obj)->q, seq); }

/* Odd-numbered messages go out with the queue evicted, even ones warm: the
 * two placements alternate message by message, so a shared machine that
 * changes pace affects both alike. */
static bool is_flushed(size_t message) { return HAVE_CLFLUSH && (message & 1); }

#if HAVE_CLFLUSH
static void placed_before_send(void *obj)
{
    placed_t *pl = obj;
    if (is_flushed(pl->next++))
        evict_queue(pl->mem);
}
#endif

static int run_queue_placement(bench_run_t *run)
{
    placed_t pl = {0};
    bench_samples_t warm = {0}, flushed = {0}, round = {0};
    pl.mem = aligned_alloc(LINE, sizeof *pl.mem);
    if (!pl.mem)
        return bench_fail(run, "out of memory");
    int rc = rtipc_queue_create_static(DEPTH, sizeof(uint32_t), pl.mem->items, &pl.mem->cb, &pl.q);
    if (rc != 0) {
        free(pl.mem);
        return bench_fail(run, "static queue create: %s", rtipc_strerror(rc));
    }
    if (!HAVE_CLFLUSH)
        bench_add_missing(run, BENCH_MECH_RTIPC_QUEUE "/" BENCH_VARIANT_FLUSHED,
                          "no portable cache-line eviction on this architecture (x86 clflush only)");

    handoff_ops_t ops = {.send = placed_send, .recv = placed_recv, .obj = &pl};
#if HAVE_CLFLUSH
    ops.before_send = placed_before_send;
#endif
    /* Samples per placement; each round sends its share of both kinds. */
    handoff_cfg_t cfg = handoff_default(run, 20000, 2000);
    const size_t kinds = 1 + HAVE_CLFLUSH;
    size_t per_kind = cfg.samples, rounds = bench_quick(run) ? 2 : 4;
    size_t share = (per_kind + rounds - 1) / rounds;
    if (bench_samples_init(&warm, per_kind + 1) || bench_samples_init(&flushed, per_kind + 1) ||
        bench_samples_init(&round, kinds * share)) {
        rc = bench_fail(run, "out of memory");
        goto out;
    }
    double hit = NAN, miss = NAN;
#if HAVE_CLFLUSH
    hit = load_ns(pl.mem, false);
    miss = load_ns(pl.mem, true);
#endif

    double budget_s = bench_quick(run) ? 1.2 : 8.5;
    int64_t t0 = bench_now_ns();
    bench_progress(run, 0.0);
    for (size_t r = 0; r < rounds && warm.n < per_kind; r++) {
        double spent = (double)(bench_now_ns() - t0) / 1e9;
        if (r > 0 && !bench_samples_fixed(run) && spent * (double)(r + 1) / (double)r > budget_s) {
            bench_note(run,
                       "time budget: stopped after %lu of %lu rounds (%.1f s spent), so the rows "
                       "hold about %.0f%% of the samples asked",
                       (unsigned long)r, (unsigned long)rounds, spent, 100.0 * (double)r / (double)rounds);
            break;
        }
        size_t left = per_kind - warm.n;
        cfg.samples = kinds * (left < share ? left : share);
        cfg.warmup = bench_warmup_count(run, cfg.samples);
        pl.next = 0;  /* before the producer exists: its creation publishes it */
        cfg.mechanism = BENCH_MECH_RTIPC_QUEUE;  /* traced as one row: the kinds alternate by message */
        cfg.variant = "warm+flushed";
        if (handoff_run(run, &ops, &cfg, &round) != 0) {
            rc = bench_fail(run, "rtipc-queue/warm+flushed");
            goto out;
        }
        /* Sample j belongs to message warmup + j. */
        for (size_t j = 0; j < round.n; j++)
            bench_samples_push(is_flushed(cfg.warmup + j) ? &flushed : &warm, round.ns[j]);
        bench_progress(run, (double)(r + 1) / (double)rounds);
    }

    bench_result_t *w = bench_add_dist(run, BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_WARM, BENCH_METRIC_LATENCY, &warm);
    bench_result_t *f = HAVE_CLFLUSH && w
        ? bench_add_dist(run, BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_FLUSHED, BENCH_METRIC_LATENCY, &flushed) : NULL;
    if (handoff_core_clocked(run, &cfg)) {  /* --cpu N,N puts both tasks on one core */
        bench_row_core_clocked(run, w);
        bench_row_core_clocked(run, f);
    }
    if (w && f) {
        double p50 = bench_p50_ratio(f, w);
        double p99 = f->stats.p99 / w->stats.p99;
        size_t lines = (sizeof pl.mem->items + LINE - 1) / LINE + (sizeof pl.mem->cb + LINE - 1) / LINE;
        bench_add_value(run, BENCH_MECH_RTIPC_QUEUE, "flushed/warm", BENCH_METRIC_P50_RATIO, "x", p50);
        bench_add_value(run, BENCH_MECH_RTIPC_QUEUE, "flushed/warm", "p99-ratio", "x", p99);
        char tail[64] = "";
        if (!isnan(p99))
            snprintf(tail, sizeof tail, " and %+.3f us at the p99 (x%.3f)",
                     (f->stats.p99 - w->stats.p99) / 1000, p99);
        bench_note(run,
                   "Flushing adds %+.3f us at the p50 (x%.3f)%s. It evicts %lu lines (%lu B of "
                   "items, %lu B control block); the send then misses on the lines it touches "
                   "(control block, the item's slot). One load from an evicted line takes %.0f ns "
                   "here, from a cached one %.0f ns (timestamps included); warm is not free either: "
                   "the consumer on the other core wrote those lines last.",
                   (f->stats.p50 - w->stats.p50) / 1000, p50, tail, (unsigned long)lines, (unsigned long)(sizeof pl.mem->items),
                   (unsigned long)(sizeof pl.mem->cb), miss, hit);
        bench_note(run,
                   "Host analog of PSRAM: every flushed send starts with the queue's lines in no "
                   "cache, so the first touch of each line misses to DRAM, as a miss to PSRAM goes "
                   "over the SPI bus on an ESP32-S3. It is not PSRAM: DRAM is far faster relative to "
                   "the core than PSRAM is, a line is cached again after its first touch, the "
                   "consumer's wait record and task state are not flushed, and the cross-core "
                   "wake-up, the same for both placements, is untouched.");
    }
out:
    bench_samples_free(&round);
    bench_samples_free(&warm);
    bench_samples_free(&flushed);
    int drc = rtipc_queue_delete(pl.q);
    if (drc != 0)
        bench_fail(run, "queue delete: %s", rtipc_strerror(drc));
    free(pl.mem);
    return bench_failed(run) ? -1 : 0;
}

const bench_experiment_t exp_queue_placement = {
    .id = BENCH_EXP_QUEUE_PLACEMENT,
    .summary = EXP_QUEUE_PLACEMENT_SUMMARY,
    .definitions =
        "The queue (depth 100, 4-byte items) is created with rtipc_queue_create_static in\n"
        "caller memory: 400 B of item storage and the control block, each on its own cache lines.\n"
        "latency (closed loop, as queue-latency): from the producer's timestamp taken just before\n"
        "  rtipc_queue_send to the consumer's timestamp taken just after rtipc_queue_receive\n"
        "  returned (the consumer is running). The producer sends only after the previous message\n"
        "  was acknowledged and a random 20-40 us gap, so the consumer is parked in its receive.\n"
        "  Producer on core 1 (priority 10), consumer on core 0 (priority 12).\n"
        "warm: the queue's memory is left alone (cached; the consumer on core 0 wrote it last).\n"
        "flushed: before every send, untimed, the producer evicts every 64-byte line of the item\n"
        "  storage and of the control block from all caches (x86 clflush, then mfence), so the\n"
        "  send misses to DRAM on every line it touches: the host's analog of a queue in\n"
        "  external PSRAM.\n"
        "  Not available (recorded as missing) without clflush.\n"
        "flushed/warm p50-ratio, p99-ratio: flushed p50 / warm p50, flushed p99 / warm p99.\n"
        "The placements alternate message by message in the same runs (odd-numbered messages\n"
        "flushed), so both see the same machine; 4 runs (quick: 2) of tasks, samples pooled.\n"
        "On a machine so loaded that the next round would overrun the experiment's time budget,\n"
        "  no further round starts and a note says so (not with --samples).\n"
        "The timestamp overhead (env.timestamp_overhead_ns) is included, not subtracted.",
    .run = run_queue_placement,
    .requires = EXP_QUEUE_PLACEMENT_REQUIRES,
};
