/* The claim audit: each claim of docs/experiments.md gets a verdict computed
 * from this run's rows by the rule printed beside it. A claim whose rows are
 * missing (experiment not run, or failed), or whose figures are not all
 * finite (a null in a results file, a median without its interval, a ratio
 * over a zero median), is "not testable here": no verdict rests on a NAN. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../names.h"
#include "run.h"

/* A distribution a claim can rest on: a finite median and a finite 95%
 * interval of it (above() compares intervals). */
static bool usable_dist(const bench_result_t *r)
{
    return r && r->kind == BENCH_DIST && isfinite(r->stats.p50) && isfinite(r->stats.p50_lo) &&
           isfinite(r->stats.p50_hi);
}

static const bench_result_t *dist(const bench_run_t *run, const char *exp, const char *mech,
                                  const char *var, const char *metric)
{
    const bench_result_t *r = bench_find(run, exp, mech, var, metric);
    return usable_dist(r) ? r : NULL;
}

static const bench_result_t *value(const bench_run_t *run, const char *exp, const char *mech,
                                   const char *var, const char *metric)
{
    const bench_result_t *r = bench_find(run, exp, mech, var, metric);
    return r && r->kind == BENCH_VALUE && isfinite(r->value) ? r : NULL;
}

/* Whether the run measured the FreeRTOS kernel's own objects in experiment
 * @p exp: any row (missing rows included: a kernel object absent on this
 * target still says the kernel was measured) of a kernel twin. A claim is
 * then decided from the kernel's rows alone, never from a mix; on Linux,
 * where rtipc implements the objects, from rtipc's. */
static bool kernel_rows(const bench_run_t *run, const char *exp)
{
    for (size_t i = 0; i < run->n_results; i++) {
        const bench_result_t *r = run->results[i];
        if (strcmp(r->experiment, exp) != 0)
            continue;
        if (bench_rtipc_twin_name(r->mechanism) || !strcmp(r->mechanism, BENCH_MECH_KERNEL_MUTEX_LIST))
            return true;
    }
    return false;
}

/* The mechanism that decides a claim in experiment @p exp: the kernel's
 * twin of rtipc's @p mech where the run has kernel rows, else @p mech. */
static const char *decider(const bench_run_t *run, const char *exp, const char *mech)
{
    const char *k = kernel_rows(run, exp) ? bench_kernel_twin_name(mech) : NULL;
    return k ? k : mech;
}

/* b's median above a's, with the two 95% intervals apart. */
static bool above(const bench_result_t *a, const bench_result_t *b)
{
    return b->stats.p50_lo > a->stats.p50_hi;
}

/* num's median over den's (positive: ratio_ok() checked it). */
static double ratio(const bench_result_t *num, const bench_result_t *den)
{
    return num->stats.p50 / den->stats.p50;
}

static void say(bench_claim_t *c, bench_verdict_t v, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(bench_claim_t *c, bench_verdict_t v, const char *fmt, ...)
{
    c->verdict = v;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->evidence, sizeof c->evidence, fmt, ap);
    va_end(ap);
}

static void untestable(bench_claim_t *c, const char *exp)
{
    say(c, CLAIM_NOT_TESTABLE, "no usable rows from experiment %s in this run", exp);
}

/* Not testable, naming the rows the run lacks: rows[i] NULL means names[i]
 * is missing. */
static void untestable_without(bench_claim_t *c, const char *exp, const char *const *names,
                               const bench_result_t *const *rows, size_t n)
{
    char list[192] = "";
    size_t len = 0;
    for (size_t i = 0; i < n && len < sizeof list; i++)
        if (!rows[i])
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", names[i]);
    if (!len)
        return untestable(c, exp);
    say(c, CLAIM_NOT_TESTABLE, "experiment %s has no row for %s in this run", exp, list);
}
#define UNTESTABLE_WITHOUT(c, exp, names, ...)                                                                  \
    untestable_without((c), (exp), (names), (const bench_result_t *const[]){__VA_ARGS__},                      \
                       sizeof(names) / sizeof(names)[0])

/* A ratio over a median of 0 (or below) is no figure: such a row makes the
 * claim not testable. True when every denominator named is positive. */
static bool ratio_ok(bench_claim_t *c, const char *exp, const bench_result_t *const *dens, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (dens[i] && !(dens[i]->stats.p50 > 0)) {
            say(c, CLAIM_NOT_TESTABLE, "experiment %s: the p50 of %s/%s is %g: no ratio", exp, dens[i]->mechanism,
                dens[i]->variant, dens[i]->stats.p50);
            return false;
        }
    }
    return true;
}
#define RATIO_OK(c, exp, ...) \
    ratio_ok((c), (exp), (const bench_result_t *const[]){__VA_ARGS__}, \
             sizeof((const bench_result_t *const[]){__VA_ARGS__}) / sizeof(const bench_result_t *))

/* Ratios of figures in different units mean nothing: such a pair makes the
 * claim not testable. True when a and b are in the same unit. */
static bool same_unit(bench_claim_t *c, const char *exp, const bench_result_t *a, const bench_result_t *b)
{
    if (!strcmp(a->unit, b->unit))
        return true;
    say(c, CLAIM_NOT_TESTABLE, "rows of experiment %s in different units (%s, %s): no ratio", exp, a->unit,
        b->unit);
    return false;
}

/* A figure of row r in the evidence text, in r's unit: latencies recorded in
 * ns are shown in microseconds with `prec` decimals (as the tables show
 * them); counts of instructions (bare-metal targets, docs/mcu.md) as whole
 * instructions. r NULL or v not finite: "missing". The struct is a
 * temporary that lives until the end of the full expression using .s. */
typedef struct {
    char s[48];
} fig_t;

static bool in_instr(const bench_result_t *r)
{
    return r && !strcmp(r->unit, "instr");
}

static fig_t fig(const bench_result_t *r, double v, int prec)
{
    fig_t f;
    if (!r || !isfinite(v))
        snprintf(f.s, sizeof f.s, "missing");
    else if (in_instr(r))
        snprintf(f.s, sizeof f.s, "%.0f instr", v);
    else
        snprintf(f.s, sizeof f.s, "%.*f us", prec, v / 1000.0);
    return f;
}

/* The median of r, in its unit. */
#define P50(r, prec) (fig((r), (r) ? (r)->stats.p50 : NAN, (prec)).s)

/* A row an emulator's clock measured: QEMU models no caches and no memory
 * timing, so where a queue's memory sits cannot show in it. */
static bool emulated(const bench_result_t *r)
{
    return r && r->clock && !strncmp(r->clock, "emulated-", strlen("emulated-"));
}

static void claim_placement(const bench_run_t *run, bench_claim_t *c)
{
    const char *e = BENCH_EXP_QUEUE_PLACEMENT, *q = decider(run, e, BENCH_MECH_RTIPC_QUEUE);
    const bench_result_t *w = dist(run, e, q, BENCH_VARIANT_WARM, BENCH_METRIC_LATENCY);
    /* The slow placement: the queue in PSRAM (ESP-IDF), else the host's
     * analog, the queue flushed from every cache. */
    const bench_result_t *f = dist(run, e, q, BENCH_VARIANT_PSRAM, BENCH_METRIC_LATENCY);
    const char *slow = f ? BENCH_VARIANT_PSRAM : BENCH_VARIANT_FLUSHED;
    if (!f)
        f = dist(run, e, q, BENCH_VARIANT_FLUSHED, BENCH_METRIC_LATENCY);
    if (emulated(w) || emulated(f)) {
        const bench_result_t *r = emulated(w) ? w : f;
        say(c, CLAIM_NOT_TESTABLE,
            "%s/%s was measured on an emulator's clock (%s), which models neither caches nor PSRAM "
            "timing (a PSRAM access costs what an internal one does): a verdict needs a board",
            r->mechanism, r->variant, r->clock);
        return;
    }
    if (!w || !f || isnan(w->stats.p99) || isnan(f->stats.p99)) {
        static const char *const need[] = {BENCH_VARIANT_WARM, BENCH_VARIANT_PSRAM " or " BENCH_VARIANT_FLUSHED};
        return UNTESTABLE_WITHOUT(c, e, need, w, f);
    }
    if (!same_unit(c, e, w, f) || !RATIO_OK(c, e, w))
        return;
    double lat = ratio(f, w);
    double jw = w->stats.p99 - w->stats.p50, jf = f->stats.p99 - f->stats.p50;
    if (!(jw > 0)) {
        say(c, CLAIM_NOT_TESTABLE, "the warm p99-p50 spread is %s: no ratio of spreads", fig(w, jw, 3).s);
        return;
    }
    double jit = jf / jw;
    bool holds = lat >= 2 && above(w, f) && jit >= 2;
    say(c, holds ? CLAIM_HOLDS : CLAIM_DOES_NOT_HOLD,
        "%s p50 warm %s, %s %s (x%.2f); p99-p50 spread warm %s, %s %s (x%.2f)", q, P50(w, 3), slow,
        P50(f, 3), lat, fig(w, jw, 3).s, slow, fig(f, jf, 3).s, jit);
}

static void claim_tick_cap(const bench_run_t *run, bench_claim_t *c)
{
    const char *e = BENCH_EXP_ISR_HANDOFF, *q = decider(run, e, BENCH_MECH_RTIPC_QUEUE);
    const bench_result_t *d1 = value(run, e, q, BENCH_VARIANT_NO_YIELD_DEPTH_1, BENCH_METRIC_THROUGHPUT);
    const bench_result_t *d100 = value(run, e, q, BENCH_VARIANT_NO_YIELD_DEPTH_100, BENCH_METRIC_THROUGHPUT);
    const bench_result_t *y1 = value(run, e, q, BENCH_VARIANT_YIELD_DEPTH_1, BENCH_METRIC_THROUGHPUT);
    const bench_result_t *lat = dist(run, e, q, BENCH_VARIANT_NO_YIELD, BENCH_METRIC_LATENCY);
    const bench_result_t *o1 = value(run, e, q, BENCH_VARIANT_NO_YIELD_DEPTH_1, BENCH_METRIC_OFFERED);
    const bench_result_t *o100 = value(run, e, q, BENCH_VARIANT_NO_YIELD_DEPTH_100, BENCH_METRIC_OFFERED);
    double hz = run->env.tick_hz;
    if (!(hz > 0)) {
        say(c, CLAIM_NOT_TESTABLE, "the run records no tick rate");
        return;
    }
    if (!d1 || !d100 || !lat) {
        static const char *const need[] = {BENCH_VARIANT_NO_YIELD_DEPTH_1, BENCH_VARIANT_NO_YIELD_DEPTH_100,
                                           BENCH_VARIANT_NO_YIELD};
        return UNTESTABLE_WITHOUT(c, e, need, d1, d100, lat);
    }
    /* A cap at the tick rate shows only when interrupts arrive faster. */
    if (o1 && o100 && (o1->value <= 2 * hz || o100->value <= 2 * hz)) {
        say(c, CLAIM_NOT_TESTABLE, "interrupts arrived at %.0f and %.0f per second (depth 1, 100), not well "
            "above the %.0f Hz tick: a cap at the tick rate cannot show", o1->value, o100->value, hz);
        return;
    }
    bool capped1 = d1->value <= 1.1 * hz, capped100 = d100->value <= 1.1 * hz;
    char yielded[48] = "missing";
    if (y1)
        snprintf(yielded, sizeof yielded, "%.0f msg/s", y1->value);
    say(c, capped1 && capped100 ? CLAIM_HOLDS : CLAIM_DOES_NOT_HOLD,
        "%s, tick %.0f Hz; no-yield handoff p50 %s; no-yield throughput depth 1: %.0f msg/s (%s), "
        "depth 100: %.0f msg/s (%s); with yield depth 1: %s", q, hz, P50(lat, 1), d1->value,
        capped1 ? "capped" : "not capped", d100->value, capped100 ? "capped" : "not capped", yielded);
}

static void claim_send_cost(const bench_run_t *run, bench_claim_t *c)
{
    const char *e = BENCH_EXP_MECHANISM_COMPARE, *m = BENCH_METRIC_SEND_OVERHEAD;
    /* On FreeRTOS: the kernel's queue, ESP-IDF's ring buffer where the
     * target has one (rtipc's elsewhere: the only ring buffer there), and
     * the heap queue under a FreeRTOS mutex. */
    bool kernel = kernel_rows(run, e);
    const char *qn = kernel ? BENCH_MECH_KERNEL_QUEUE : BENCH_MECH_RTIPC_QUEUE;
    const char *rbn = BENCH_MECH_RTIPC_RINGBUF_NOSPLIT;
    if (kernel && bench_find(run, e, BENCH_MECH_ESPIDF_RINGBUF_NOSPLIT, NULL, m))
        rbn = BENCH_MECH_ESPIDF_RINGBUF_NOSPLIT;
    const char *hn = kernel ? BENCH_MECH_KERNEL_MUTEX_LIST : BENCH_MECH_MUTEX_CONDVAR_LIST;
    /* Sends take tens of ns here, while one timestamp pair resolves 10 ns:
     * per-call medians land on 20 or 30 ns and their ratio is mostly
     * rounding. The batched rows (8 sends between two timestamps) resolve
     * 1.25 ns; the per-call rows are used only when they are missing. */
    const char *v = dist(run, e, qn, BENCH_VARIANT_ITEM_4_BATCH_8, m) ? BENCH_VARIANT_ITEM_4_BATCH_8 : BENCH_VARIANT_ITEM_4;
    const bench_result_t *q = dist(run, e, qn, v, m);
    const bench_result_t *rb = dist(run, e, rbn, v, m);
    const bench_result_t *h = dist(run, e, hn, v, m);
    const bench_result_t *sq = dist(run, e, BENCH_MECH_STD_QUEUE_MUTEX, v, m);
    if (!q || !rb || !h) {
        const char *const need[] = {qn, rbn, hn};
        return UNTESTABLE_WITHOUT(c, e, need, q, rb, h);
    }
    if (!same_unit(c, e, q, rb) || !same_unit(c, e, q, h) || (sq && !same_unit(c, e, q, sq)) ||
        !RATIO_OK(c, e, rb, q))
        return;
    /* Call costs are shown in ns (one decimal), or in whole instructions. */
    const char *u = in_instr(q) ? "instr" : "ns";
    int prec = in_instr(q) ? 0 : 1;
    double r_rb = ratio(q, rb), r_h = ratio(h, q);
    bool rb_ok = r_rb >= 3.2 && r_rb <= 6.25 && above(rb, q);
    bool h_ok = r_h >= 1.8 && r_h <= 3.0 && above(q, h);
    char sqs[64] = "missing";
    if (sq)
        snprintf(sqs, sizeof sqs, "%.*f %s -> x%.2f of the queue", prec, sq->stats.p50, u, ratio(sq, q));
    say(c, rb_ok && h_ok ? CLAIM_HOLDS : CLAIM_DOES_NOT_HOLD,
        "send p50 (%s): %s %.*f %s, %s %.*f %s -> queue/ringbuf x%.2f; %s (heap queue) %.*f %s -> x%.2f of the "
        "queue; std-queue-mutex %s", v, qn, prec, q->stats.p50, u, rbn, prec, rb->stats.p50, u, r_rb, hn, prec,
        h->stats.p50, u, r_h, sqs);
}

static void claim_watchdog(const bench_run_t *run, bench_claim_t *c)
{
    const char *e = BENCH_EXP_BLOCKED_PRODUCER, *m = BENCH_METRIC_WATCHDOG_TRIPS;
    const char *q = decider(run, e, BENCH_MECH_RTIPC_QUEUE);
    const bench_result_t *fs = value(run, e, q, BENCH_VARIANT_WAIT_FOREVER_SUBSCRIBED, m);
    const bench_result_t *fu = value(run, e, q, BENCH_VARIANT_WAIT_FOREVER_UNSUBSCRIBED, m);
    const bench_result_t *ts = value(run, e, q, BENCH_VARIANT_TIMEOUT_10MS_SUBSCRIBED, m);
    if (!fs || !fu || !ts) {
        static const char *const need[] = {BENCH_VARIANT_WAIT_FOREVER_SUBSCRIBED, BENCH_VARIANT_WAIT_FOREVER_UNSUBSCRIBED,
                                           BENCH_VARIANT_TIMEOUT_10MS_SUBSCRIBED};
        return UNTESTABLE_WITHOUT(c, e, need, fs, fu, ts);
    }
    /* The control: a subscribed producer blocked for longer than the
     * timeout cannot reset the watchdog, so a working one trips. Without
     * that trip the run's watchdog did not work (an emulator's timer
     * group without it), and its zeros say nothing about blocking. */
    if (fs->value < 1) {
        say(c, CLAIM_NOT_TESTABLE,
            "%s, wait-forever subscribed: 0 watchdog trips, although that producer could not reset the "
            "watchdog for longer than its timeout: the watchdog did not fire in this run, so its trip counts "
            "say nothing about blocking", q);
        return;
    }
    /* The claim as stated (blocking forever trips it) holds only if blocking
     * alone trips it, i.e. also without a subscription. */
    bool holds = fs->value >= 1 && fu->value >= 1;
    say(c, holds ? CLAIM_HOLDS : CLAIM_DOES_NOT_HOLD,
        "%s, watchdog trips during the consumer's stall: wait-forever subscribed %.0f, wait-forever "
        "unsubscribed %.0f, 10 ms timeout subscribed %.0f; %s", q, fs->value, fu->value, ts->value,
        fs->value >= 1 && fu->value == 0
            ? "the trip comes from the subscription going unreset, not from blocking"
            : "see table");
}

static void claim_staleness(const bench_run_t *run, bench_claim_t *c)
{
    const char *e = BENCH_EXP_STATE_VS_EVENT, *metric = BENCH_METRIC_STALENESS;
    const char *qn = decider(run, e, BENCH_MECH_RTIPC_QUEUE);
    const char *on = decider(run, e, BENCH_MECH_RTIPC_QUEUE_OVERWRITE);
    /* The queue's row, whatever its depth (the variant). */
    const bench_result_t *q = NULL;
    for (size_t i = 0; i < run->n_results && !q; i++) {
        const bench_result_t *r = run->results[i];
        if (usable_dist(r) && !strcmp(r->experiment, e) && !strcmp(r->mechanism, qn) && !strcmp(r->metric, metric))
            q = r;
    }
    const bench_result_t *o = dist(run, e, on, NULL, metric);
    const bench_result_t *m = dist(run, e, BENCH_MECH_RTIPC_MAILBOX, NULL, metric);
    if (!q || !o) {
        const char *const need[] = {qn, on};
        return UNTESTABLE_WITHOUT(c, e, need, q, o);
    }
    if (!same_unit(c, e, q, o) || !RATIO_OK(c, e, o))
        return;
    double r = ratio(q, o);
    bool holds = r >= 2 && above(o, q);
    say(c, holds ? CLAIM_HOLDS : CLAIM_DOES_NOT_HOLD,
        "staleness p50: %s (%s) %s, %s (length 1) %s (queue x%.1f), rtipc mailbox %s", qn, q->variant,
        P50(q, 1), on, P50(o, 1), r, P50(m, 1));
}

static void claim_cross_core(const bench_run_t *run, bench_claim_t *c)
{
    const char *e = BENCH_EXP_CORE_PLACEMENT;
    const char *mech[] = {decider(run, e, BENCH_MECH_RTIPC_QUEUE), decider(run, e, BENCH_MECH_RTIPC_SEM),
                          decider(run, e, BENCH_MECH_RTIPC_NOTIFY)};
    /* A cross-core claim needs two cores: a run on one has no cross-core
     * row at all (queue-latency, core-placement and notify-vs-sem rename
     * or leave out theirs there). */
    if (!bench_find(run, NULL, NULL, BENCH_VARIANT_CROSS_CORE, BENCH_METRIC_LATENCY) &&
        bench_find(run, NULL, NULL, BENCH_VARIANT_SAME_CORE, BENCH_METRIC_LATENCY)) {
        say(c, CLAIM_NOT_TESTABLE, "one core in this run: no cross-core row to set beside the same-core ones");
        return;
    }
    char buf[400] = "";
    int dearer = 0, tested = 0;
    const bench_result_t *pair[3] = {NULL, NULL, NULL};  /* the cross-core row of each pair tested */
    for (int i = 0; i < 3; i++) {
        const bench_result_t *s = dist(run, e, mech[i], BENCH_VARIANT_SAME_CORE, BENCH_METRIC_LATENCY);
        const bench_result_t *x = dist(run, e, mech[i], BENCH_VARIANT_CROSS_CORE, BENCH_METRIC_LATENCY);
        if (!s || !x || strcmp(s->unit, x->unit) != 0 || !(s->stats.p50 > 0))
            continue;
        tested++;
        pair[i] = x;
        bool d = above(s, x);
        dearer += d;
        size_t l = strlen(buf);
        snprintf(buf + l, sizeof buf - l, "%s%s same %s, cross %s (x%.2f%s)", l ? "; " : "", mech[i],
                 P50(s, 2), P50(x, 2), ratio(x, s), d ? "" : ", not apart");
    }
    if (tested < 3)
        return untestable_without(c, e, mech, pair, 3);
    say(c, dearer == 3 ? CLAIM_HOLDS : CLAIM_DOES_NOT_HOLD, "%s", buf);
}

static void claim_batching(const bench_run_t *run, bench_claim_t *c)
{
    const char *e = BENCH_EXP_BATCHING, *m = BENCH_METRIC_TIME_PER_100B;
    const char *q = decider(run, e, BENCH_MECH_RTIPC_QUEUE);
    const bench_result_t *small = dist(run, e, q, BENCH_VARIANT_100X1B, m);
    const bench_result_t *big = dist(run, e, q, BENCH_VARIANT_1X100B, m);
    if (!small || !big) {
        static const char *const need[] = {BENCH_VARIANT_100X1B, BENCH_VARIANT_1X100B};
        return UNTESTABLE_WITHOUT(c, e, need, small, big);
    }
    if (!same_unit(c, e, small, big) || !RATIO_OK(c, e, big))
        return;
    double r = ratio(small, big);
    say(c, r >= 2 && above(big, small) ? CLAIM_HOLDS : CLAIM_DOES_NOT_HOLD,
        "%s, per 100 bytes p50: 100 x 1-byte items %s, 1 x 100-byte item %s (x%.1f)", q, P50(small, 2),
        P50(big, 2), r);
}

static void claim_queue_set(const bench_run_t *run, bench_claim_t *c)
{
    const char *e = BENCH_EXP_QUEUE_SET;
    const char *sn = decider(run, e, BENCH_MECH_QUEUE_SET), *tn = decider(run, e, BENCH_MECH_THREE_TASKS);
    const bench_result_t *set = value(run, e, sn, NULL, BENCH_METRIC_MEMORY);
    const bench_result_t *tasks = value(run, e, tn, NULL, BENCH_METRIC_MEMORY);
    if (!set || !tasks) {
        const char *const need[] = {sn, tn};
        return UNTESTABLE_WITHOUT(c, e, need, set, tasks);
    }
    say(c, set->value < tasks->value ? CLAIM_HOLDS : CLAIM_DOES_NOT_HOLD,
        "memory (objects + consumer task stacks; task descriptors not exposed, not counted): "
        "%s %.0f B, %s %.0f B (%+.0f B)", sn, set->value, tn, tasks->value,
        tasks->value - set->value);
}

static void claim_notify(const bench_run_t *run, bench_claim_t *c)
{
    const char *e = BENCH_EXP_NOTIFY_VS_SEM, *m = BENCH_METRIC_LATENCY;
    const char *sem = decider(run, e, BENCH_MECH_RTIPC_SEM), *notify = decider(run, e, BENCH_MECH_RTIPC_NOTIFY);
    const bench_result_t *s = dist(run, e, sem, BENCH_VARIANT_CROSS_CORE, m);
    const bench_result_t *n = dist(run, e, notify, BENCH_VARIANT_CROSS_CORE, m);
    /* One-core targets (the FreeRTOS POSIX simulator, a one-core MCU, a
     * run pinned to one CPU) name these rows same-core: the claim is about
     * two cores, so such a run cannot test it. */
    if (!bench_find(run, e, sem, BENCH_VARIANT_CROSS_CORE, m) && !bench_find(run, e, notify, BENCH_VARIANT_CROSS_CORE, m) &&
        bench_find(run, e, NULL, BENCH_VARIANT_SAME_CORE, m)) {
        say(c, CLAIM_NOT_TESTABLE, "one core in this run: the claim is about cross-core give->take, and "
            "experiment %s has only same-core rows", e);
        return;
    }
    if (!s || !n) {
        const char *const need[] = {sem, notify};
        return UNTESTABLE_WITHOUT(c, e, need, s, n);
    }
    if (!same_unit(c, e, s, n) || !RATIO_OK(c, e, n, s))
        return;
    double r = ratio(s, n);
    bool holds = r >= 3 && r <= 5 && above(n, s);
    char faster[64];
    if (r >= 1)
        snprintf(faster, sizeof faster, "notification %.0f%% faster", (1 - 1 / r) * 100);
    else
        snprintf(faster, sizeof faster, "notification %.2fx slower", 1 / r);
    say(c, holds ? CLAIM_HOLDS : CLAIM_DOES_NOT_HOLD,
        "cross-core give->take p50: %s %s, %s %s: semaphore/notification x%.2f (%s)", sem, P50(s, 2), notify,
        P50(n, 2), r, faster);
}

static const struct {
    const char *claim, *rule;
    void (*eval)(const bench_run_t *, bench_claim_t *);
} claims[BENCH_CLAIMS] = {
    {"Queue memory placed in slow external memory more than doubles latency and jitter.",
     "holds when slow/warm >= 2 for the p50 (95% intervals apart) and for the p99-p50 spread; slow is the "
     "queue in PSRAM where the run has one, else the queue flushed from the caches (not testable on an "
     "emulator's clock)",
     claim_placement},
    {"Without yield-from-ISR, the woken task waits for the next tick, capping throughput at the "
     "tick rate.",
     "holds when no-yield throughput stays <= 1.1 x tick rate at depth 1 and at depth 100 "
     "(testable only when the interrupts arrive at more than 2 x the tick rate)",
     claim_tick_cap},
    {"A ring buffer sends about 4-5x cheaper than a queue; a mutex-guarded heap queue about 2.4x "
     "dearer.",
     "holds when queue/ring-buffer send p50 is in [3.2, 6.25] and heap-queue/queue in [1.8, 3.0], "
     "each with 95% intervals apart",
     claim_send_cost},
    {"A producer blocked forever on a full queue trips the task watchdog.",
     "holds when a producer blocked forever trips the watchdog whether or not it subscribed (not testable "
     "when not even the subscribed one trips: no working watchdog)",
     claim_watchdog},
    {"A queue for state values makes the consumer act on stale data; overwrite fixes it.",
     "holds when queue staleness p50 >= 2 x overwrite staleness p50, 95% intervals apart",
     claim_staleness},
    {"Cross-core sends cost more than same-core sends.",
     "holds when cross-core p50 > same-core p50 with 95% intervals apart for queue, semaphore and "
     "notification",
     claim_cross_core},
    {"Batching many small items into one item cuts overhead.",
     "holds when 100 x 1-byte items take >= 2 x the time of 1 x 100-byte item (p50, intervals apart)",
     claim_batching},
    {"A queue set saves memory compared with one task per source.",
     "holds when the queue set's objects + task need fewer bytes than 3 tasks with their queues",
     claim_queue_set},
    {"Task notifications are about 4x faster than binary semaphores cross-core.",
     "holds when semaphore/notification p50 is in [3, 5] with 95% intervals apart",
     claim_notify},
};

void bench_audit_claims(bench_run_t *run)
{
    for (int i = 0; i < BENCH_CLAIMS; i++) {
        bench_claim_t *c = &run->claims[i];
        memset(c, 0, sizeof *c);
        c->id = i + 1;
        c->claim = claims[i].claim;
        c->rule = claims[i].rule;
        claims[i].eval(run, c);
    }
}
