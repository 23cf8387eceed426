/* queue-placement: queue-latency with the queue in caller-provided memory,
 * either left warm in the caches or evicted from every cache before each
 * send (the host's stand-in for a queue placed in slow external memory). */
#include "../harness/handoff_rounds.h"
#include "../mechanisms/freertos_calls.h"
#include "../mechanisms/mechanisms.h"
#include "experiments.h"
#include "needs_tasks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { DEPTH = 100, LINE = 64 };

#if defined(__x86_64__) || defined(__i386__)
#define HAVE_CLFLUSH 1
static void flush_range(const void *p, size_t n)
{
    for (const char *c = p, *end = c + n; c < end; c += LINE)
        __builtin_ia32_clflush(c);
}


static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Median time of one load from the control block's line, evicted first or
 * not: shows what the eviction costs a single access on this machine. */
static double load_ns(const void *cb, bool evict)
{
    enum { N = 301 };
    int64_t t[N];
    volatile const unsigned char *p = (volatile const unsigned char *)cb;
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

/* One queue in placed memory: rtipc's, or the kernel's (xQueueCreateStatic
 * over storage the experiment placed), in internal memory or in PSRAM. */
typedef struct {
    const char *mechanism, *variant;   /* its row: warm (internal memory) or psram */
    int where;                    /* BENCH_KPLACE_INTERNAL or BENCH_KPLACE_PSRAM */
    rtipc_queue_t *q;
    bench_kq_t *kq;
    void *mem;                    /* what was allocated for it */
    void *items, *cb;             /* its item storage and control block, in mem */
    size_t items_n, cb_n;
    bool flushes;                 /* odd-numbered messages go out evicted */
    uint32_t next;                /* producer: number of the message about to be sent */
    bench_samples_t warm, flushed;  /* warm: the row of its placement (psram too) */
} placed_t;

static int placed_send(void *obj, uint32_t seq)
{
    placed_t *pl = obj;
    if (pl->kq)  /* xQueueSend(q, &seq, portMAX_DELAY) */
        return bench_kq_send(pl->kq, &seq, BENCH_KWAIT_FOREVER) == 0 ? 0 : BENCH_MECH_EKERNEL;
    return bench_rtipc_queue_send(pl->q, seq);
}

static int placed_recv(void *obj, uint32_t *seq)
{
    placed_t *pl = obj;
    if (pl->kq)  /* xQueueReceive(q, &seq, portMAX_DELAY) */
        return bench_kq_receive(pl->kq, seq, BENCH_KWAIT_FOREVER) == 0 ? 0 : BENCH_MECH_EKERNEL;
    return bench_rtipc_queue_recv(pl->q, seq);
}

/* Odd-numbered messages go out with the queue evicted, even ones warm: the
 * two placements alternate message by message, so a shared machine that
 * changes pace affects both alike. */
static bool is_flushed(const placed_t *pl, size_t message) { return HAVE_CLFLUSH && pl->flushes && (message & 1); }

#if HAVE_CLFLUSH
/* Producer, untimed, before each send: write back and evict every line of
 * the storage and the control block from all caches of the machine; the
 * fence makes the send start only after the evictions completed. */
static void placed_before_send(void *obj)
{
    placed_t *pl = obj;
    if (is_flushed(pl, pl->next++)) {
        flush_range(pl->items, pl->items_n);
        flush_range(pl->cb, pl->cb_n);
        __builtin_ia32_mfence();
    }
}
#endif

/* Memory for a queue placed @p where, as a user of the target places it:
 * on FreeRTOS targets bench_kplace_alloc (ESP-IDF: heap_caps_malloc, the
 * address checked), on Linux the C heap on cache lines. NULL with @p why
 * set when it cannot be had. */
static void *place_alloc(int where, size_t size, char *why, size_t n)
{
    if (bench_mech_kernel_built)
        return bench_kplace_alloc(where, size, why, n);
    if (where != BENCH_KPLACE_INTERNAL) {
        snprintf(why, n, "no external PSRAM on this target");
        return NULL;
    }
    void *p = aligned_alloc(LINE, (size + LINE - 1) / LINE * LINE);
    if (!p)
        snprintf(why, n, "out of memory");
    return p;
}

static void place_free(void *p)
{
    if (!p)
        return;
    if (bench_mech_kernel_built)
        bench_kplace_free(p);
    else
        free(p);
}

/* The queue of @p pl over storage placed where it says: items, then the
 * control block (rtipc's rtipc_queue_static_t, the kernel's StaticQueue_t)
 * on the next line. 0; 1 when the placement does not exist here (@p why
 * says it); -1. */
static int make_queue(placed_t *pl, bool kernel, char *why, size_t n)
{
    size_t items = (DEPTH * sizeof(uint32_t) + LINE - 1) / LINE * LINE;
    size_t cb = kernel ? bench_kq_cb_size() : sizeof(rtipc_queue_static_t);
    pl->mem = place_alloc(pl->where, items + cb, why, n);
    if (!pl->mem)
        return pl->where == BENCH_KPLACE_INTERNAL ? -1 : 1;
    pl->items = pl->mem;
    pl->items_n = DEPTH * sizeof(uint32_t);
    pl->cb = (char *)pl->mem + items;
    pl->cb_n = cb;
    if (kernel) {
        if (bench_kq_create_static(DEPTH, sizeof(uint32_t), pl->items, pl->cb, &pl->kq) != 0) {
            snprintf(why, n, "xQueueCreateStatic failed");
            return -1;
        }
        return 0;
    }
    int rc = rtipc_queue_create_static(DEPTH, sizeof(uint32_t), pl->items, pl->cb, &pl->q);
    if (rc != 0) {
        snprintf(why, n, "rtipc_queue_create_static: %s", rtipc_strerror(rc));
        return -1;
    }
    return 0;
}

/* Rows of one queue: warm (and flushed where it flushes) latency and, with
 * both, the flushed/warm ratios. */
static void add_rows(bench_run_t *run, placed_t *pl, const handoff_cfg_t *cfg, bench_result_t **w_out,
                     bench_result_t **f_out)
{
    bench_result_t *w = bench_add_dist(run, pl->mechanism, pl->variant, BENCH_METRIC_LATENCY, &pl->warm);
    bench_result_t *f = pl->flushes && HAVE_CLFLUSH && w
        ? bench_add_dist(run, pl->mechanism, BENCH_VARIANT_FLUSHED, BENCH_METRIC_LATENCY, &pl->flushed) : NULL;
    if (handoff_core_clocked(run, cfg)) {  /* --cpu N,N puts both tasks on one core */
        bench_row_core_clocked(run, w);
        bench_row_core_clocked(run, f);
    }
    if (w && f) {
        bench_add_value(run, pl->mechanism, "flushed/warm", BENCH_METRIC_P50_RATIO, "x", bench_p50_ratio(f, w));
        bench_add_value(run, pl->mechanism, "flushed/warm", "p99-ratio", "x", f->stats.p99 / w->stats.p99);
    }
    *w_out = w;
    *f_out = f;
}

/* psram/warm ratios of one mechanism, when both rows exist. */
static void add_psram_ratios(bench_run_t *run, const char *mechanism, const bench_result_t *warm,
                             const bench_result_t *psram)
{
    if (!warm || !psram)
        return;
    bench_add_value(run, mechanism, "psram/warm", BENCH_METRIC_P50_RATIO, "x", bench_p50_ratio(psram, warm));
    bench_add_value(run, mechanism, "psram/warm", "p99-ratio", "x", psram->stats.p99 / warm->stats.p99);
}

static int run_queue_placement(bench_run_t *run)
{
    /* rtipc's queue and, on a FreeRTOS target, the kernel's beside it: in
     * internal memory (warm and, with clflush, flushed) and, where ESP-IDF
     * has PSRAM, each again over PSRAM storage. */
    enum { RTIPC, KERNEL, RTIPC_PSRAM, KERNEL_PSRAM, N };
    placed_t pl[N] = {
        {.mechanism = BENCH_MECH_RTIPC_QUEUE, .variant = BENCH_VARIANT_WARM, .where = BENCH_KPLACE_INTERNAL,
         .flushes = true},
        {.mechanism = BENCH_MECH_KERNEL_QUEUE, .variant = BENCH_VARIANT_WARM, .where = BENCH_KPLACE_INTERNAL,
         .flushes = true},
        {.mechanism = BENCH_MECH_RTIPC_QUEUE, .variant = BENCH_VARIANT_PSRAM, .where = BENCH_KPLACE_PSRAM},
        {.mechanism = BENCH_MECH_KERNEL_QUEUE, .variant = BENCH_VARIANT_PSRAM, .where = BENCH_KPLACE_PSRAM},
    };
    /* PSRAM is a FreeRTOS target's question (ESP-IDF's heap_caps); on Linux
     * the flushed rows are the analog. */
    bool used[N] = {true, bench_mech_kernel_built, bench_mech_kernel_built, bench_mech_kernel_built};
    bench_samples_t round = {0};
    char why[160];
    for (int k = 0; k < N; k++) {
        if (!used[k])
            continue;
        int mk = make_queue(&pl[k], k == KERNEL || k == KERNEL_PSRAM, why, sizeof why);
        if (mk < 0) {
            bench_fail(run, "%s/%s: %s", pl[k].mechanism, pl[k].variant, why);
            goto out;
        }
        if (mk > 0) {  /* no PSRAM here: the row is absent, with the reason */
            char name[64];
            snprintf(name, sizeof name, "%s/%s", pl[k].mechanism, pl[k].variant);
            used[k] = false;
            bench_add_missing(run, name, why);
        }
    }
    if (!HAVE_CLFLUSH) {
        bench_add_missing(run, BENCH_MECH_RTIPC_QUEUE "/" BENCH_VARIANT_FLUSHED,
                          "no portable cache-line eviction on this architecture (x86 clflush only)");
        if (used[KERNEL])
            bench_add_missing(run, BENCH_MECH_KERNEL_QUEUE "/" BENCH_VARIANT_FLUSHED,
                              "no portable cache-line eviction on this architecture (x86 clflush only)");
    }
    size_t queues = 0;
    for (int k = 0; k < N; k++)
        queues += used[k];

    /* Samples per placement; each round sends its share of both kinds. */
    handoff_cfg_t cfg = handoff_default(run, 20000, 2000);
    /* With the kernel's queue beside rtipc's, shorter turns (4x the rounds):
     * a burst of load on a shared or emulated machine then falls on all. */
    size_t per_kind = cfg.samples, rounds = (bench_quick(run) ? 2 : 4) * (used[KERNEL] ? 4 : 1);
    size_t share = (per_kind + rounds - 1) / rounds;
    for (int k = 0; k < N; k++) {
        bool flushes = HAVE_CLFLUSH && pl[k].flushes;
        if (used[k] && (bench_samples_init(&pl[k].warm, per_kind + 1) ||
                        bench_samples_init(&pl[k].flushed, flushes ? per_kind + 1 : 0))) {
            bench_fail(run, "out of memory");
            goto out;
        }
    }
    if (bench_samples_init(&round, 2 * share)) {
        bench_fail(run, "out of memory");
        goto out;
    }
    double hit = NAN, miss = NAN;
#if HAVE_CLFLUSH
    hit = load_ns(pl[RTIPC].cb, false);
    miss = load_ns(pl[RTIPC].cb, true);
#endif

    double budget_s = (bench_quick(run) ? 1.2 : 8.5) * (double)queues;
    int64_t t0 = bench_now_ns();
    bench_progress(run, 0.0);
    for (size_t r = 0; r < rounds && pl[RTIPC].warm.n < per_kind; r++) {
        double spent = (double)(bench_now_ns() - t0) / 1e9;
        if (r > 0 && !bench_samples_fixed(run) && spent * (double)(r + 1) / (double)r > budget_s) {
            bench_note(run,
                       "time budget: stopped after %lu of %lu rounds (%.1f s spent), so the rows "
                       "hold about %.0f%% of the samples asked",
                       (unsigned long)r, (unsigned long)rounds, spent, 100.0 * (double)r / (double)rounds);
            break;
        }
        /* Each queue in turn within the round: the same conditions for all. */
        for (int k = 0; k < N; k++) {
            if (!used[k])
                continue;
            placed_t *p = &pl[k];
            const size_t kinds = 1 + (HAVE_CLFLUSH && p->flushes);
            size_t left = per_kind - p->warm.n;
            handoff_ops_t ops = {.send = placed_send, .recv = placed_recv, .obj = p,
                                 .native = p->kq != NULL};  /* the kernel's queue on its own tasks */
#if HAVE_CLFLUSH
            ops.before_send = placed_before_send;
#endif
            cfg.samples = kinds * (left < share ? left : share);
            cfg.warmup = bench_warmup_count(run, cfg.samples);
            p->next = 0;  /* before the producer exists: its creation publishes it */
            cfg.mechanism = p->mechanism;  /* traced as one row: the kinds alternate by message */
            cfg.variant = kinds == 2 ? "warm+flushed" : p->variant;
            if (handoff_run(run, &ops, &cfg, &round) != 0) {
                bench_fail(run, "%s/%s", cfg.mechanism, cfg.variant);
                goto out;
            }
            /* Sample j belongs to message warmup + j. */
            for (size_t j = 0; j < round.n; j++)
                bench_samples_push(is_flushed(p, cfg.warmup + j) ? &p->flushed : &p->warm, round.ns[j]);
        }
        bench_progress(run, (double)(r + 1) / (double)rounds);
    }

    bench_result_t *w = NULL, *f = NULL, *kw = NULL, *kf = NULL, *rp = NULL, *kp = NULL, *unused = NULL;
    add_rows(run, &pl[RTIPC], &cfg, &w, &f);
    if (used[KERNEL]) {
        add_rows(run, &pl[KERNEL], &cfg, &kw, &kf);
        if (w && kw)
            bench_add_value(run, BENCH_MECH_RTIPC_OVER_KERNEL, BENCH_VARIANT_WARM, BENCH_METRIC_P50_RATIO, "x",
                            bench_p50_ratio(w, kw));
        if (w)
            bench_row_note(run, w, "rtipc_queue_create_static over %s", bench_kplace_how());
        if (kw)
            bench_row_note(run, kw, "xQueueCreateStatic over %s", bench_kplace_how());
    }
    if (used[RTIPC_PSRAM]) {
        add_rows(run, &pl[RTIPC_PSRAM], &cfg, &rp, &unused);
        if (rp)
            bench_row_note(run, rp, "rtipc_queue_create_static over %s", bench_kplace_psram_how());
        add_psram_ratios(run, BENCH_MECH_RTIPC_QUEUE, w, rp);
    }
    if (used[KERNEL_PSRAM]) {
        add_rows(run, &pl[KERNEL_PSRAM], &cfg, &kp, &unused);
        if (kp)
            bench_row_note(run, kp, "xQueueCreateStatic over %s", bench_kplace_psram_how());
        add_psram_ratios(run, BENCH_MECH_KERNEL_QUEUE, kw, kp);
        if (rp && kp)
            bench_add_value(run, BENCH_MECH_RTIPC_OVER_KERNEL, BENCH_VARIANT_PSRAM, BENCH_METRIC_P50_RATIO, "x",
                            bench_p50_ratio(rp, kp));
    }
    if (w && f) {
        double p50 = bench_p50_ratio(f, w);
        double p99 = f->stats.p99 / w->stats.p99;
        size_t lines = (pl[RTIPC].items_n + LINE - 1) / LINE + (pl[RTIPC].cb_n + LINE - 1) / LINE;
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
                   (f->stats.p50 - w->stats.p50) / 1000, p50, tail, (unsigned long)lines,
                   (unsigned long)pl[RTIPC].items_n, (unsigned long)pl[RTIPC].cb_n, miss, hit);
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
    for (int k = 0; k < N; k++) {
        bench_samples_free(&pl[k].warm);
        bench_samples_free(&pl[k].flushed);
        if (pl[k].q) {
            int drc = rtipc_queue_delete(pl[k].q);
            if (drc != 0)
                bench_fail(run, "queue delete: %s", rtipc_strerror(drc));
        }
        bench_kq_delete(pl[k].kq);  /* a static queue: its storage is freed after */
        place_free(pl[k].mem);
    }
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
        "kernel-queue (FreeRTOS targets only): the kernel's queue, xQueueCreateStatic(100, 4) over item\n"
        "  storage and a StaticQueue_t the experiment placed (its own lines; ESP-IDF:\n"
        "  heap_caps_malloc(MALLOC_CAP_INTERNAL | MALLOC_CAP_8BIT), elsewhere the C heap), sent with\n"
        "  xQueueSend(q, &n, portMAX_DELAY), received with xQueueReceive(q, &n, portMAX_DELAY); the same\n"
        "  spans, warm and flushed (the same eviction, of its storage and StaticQueue_t), run in turn\n"
        "  with rtipc's within each round (then 16 rounds, quick: 8). rtipc/kernel warm p50-ratio:\n"
        "  rtipc's warm p50 / the kernel's.\n"
        "psram (ESP-IDF with CONFIG_SPIRAM, an ESP32-S3 N8R8): the kernel's queue and rtipc's again,\n"
        "  each over storage from heap_caps_malloc(MALLOC_CAP_SPIRAM), its address checked with\n"
        "  esp_ptr_external_ram (the internal ones with esp_ptr_internal), run in turn with the\n"
        "  others; psram/warm p50-ratio and p99-ratio per mechanism, rtipc/kernel psram p50-ratio.\n"
        "  On a FreeRTOS target without PSRAM both rows are recorded as missing, with the reason.\n"
        "The placements alternate message by message in the same runs (odd-numbered messages\n"
        "flushed), so both see the same machine; 4 runs (quick: 2) of tasks, samples pooled.\n"
        "On a machine so loaded that the next round would overrun the experiment's time budget,\n"
        "  no further round starts and a note says so (not with --samples).\n"
        "The timestamp overhead (env.timestamp_overhead_ns) is included, not subtracted.",
    .run = run_queue_placement,
    .requires = EXP_QUEUE_PLACEMENT_REQUIRES,
};
