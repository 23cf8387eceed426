/* The performance targets of docs/performance.md, audited beside the claims
 * (claims.c): each a ratio of two figures of the run (or of a figure and a
 * fixed limit; a figure may be the best of several peers' rows), at most or
 * at least a limit. The driver audits an
 * experiment's targets right after it ran: each becomes one "target-ratio"
 * row of that experiment, its note saying the target and whether it holds,
 * and one line of the targets table printed in its notes. A figure that is
 * missing makes the target "not testable" (a note, no row). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../names.h"
#include "run.h"

/* One figure of a target: a row's median (or value), the largest of
 * several rows', or a number. */
typedef struct {
    const char *mechanism, *variant, *metric;  /* the row (of the target's experiment) */
    bool value;                                /* its value, not its p50 */
    double (*fixed)(void);                     /* instead of a row: this number */
    /* Instead of one mechanism: the largest figure of these rows (NULL-
     * terminated) that the run has; the note names the one it was. A peer
     * missing from the run (not built) is left out; none there: missing. */
    const char *const *best_of;
} figure_t;

typedef struct {
    const char *experiment;
    const char *subject;   /* the row's mechanism */
    const char *variant;   /* the row's variant: names the target */
    const char *what;      /* the table's wording */
    figure_t num, den;
    double limit;
    bool at_least;         /* holds when ratio >= limit; else when ratio <= limit */
    const char *figures;   /* printf format of the two figures, scaled */
    double scale;
    /* Optional: the peer whose row (the numerator's variant and metric) is
     * the floor of what the semantics cost; its ratio to the denominator is
     * said beside the verdict, so a missed target shows what is reachable. */
    const char *floor;
} target_t;

/* The slot lives inside the task descriptor: its size is what notify.h
 * documents (8 B: value + state), not a sizeof this code can take. */
static double notify_slot(void) { return 8; }
static double b64(void) { return 64; }
static double b8(void) { return 8; }
static double ns25(void) { return 25; }

#define P50(mech, var, metric) {mech, var, metric, false, NULL, NULL}
#define VALUE(mech, var, metric) {mech, var, metric, true, NULL, NULL}
#define FIXED(fn) {NULL, NULL, NULL, false, fn, NULL}
#define BEST_VALUE(list, var, metric) {NULL, var, metric, true, NULL, list}

/* The SPSC peers rtipc-spsc's per-item throughput is held against. */
static const char *const spsc_peers[] = {BENCH_MECH_BOOST_SPSC, BENCH_MECH_CK_RING, BENCH_MECH_ATOMIC_QUEUE_SPSC,
                                         BENCH_MECH_MOODYCAMEL_RWQ, NULL};

#define PEERS BENCH_EXP_PEERS
#define SLEEPING(mech)                                                                                       \
    {PEERS, mech, "handoff-sleeping-p50/futex", "handoff-sleeping p50 / futex",                              \
     P50(mech, BENCH_VARIANT_GAP_50_100US, BENCH_METRIC_HANDOFF_SLEEPING),                                   \
     P50(BENCH_MECH_FUTEX, BENCH_VARIANT_GAP_50_100US, BENCH_METRIC_HANDOFF_SLEEPING), 1.10, false,          \
     "%.2f / %.2f us", 1e-3, NULL}
#define ACTIVE(mech)                                                                                         \
    {PEERS, mech, "handoff-active-p50/spin", "handoff-active p50 / spin",                                    \
     P50(mech, BENCH_VARIANT_GAP_1_3US, BENCH_METRIC_HANDOFF_ACTIVE),                                        \
     P50(BENCH_MECH_SPIN, BENCH_VARIANT_GAP_1_3US, BENCH_METRIC_HANDOFF_ACTIVE), 2.0, false,                 \
     "%.3f / %.3f us", 1e-3, NULL}
#define THROUGHPUT(var)                                                                                      \
    {PEERS, BENCH_MECH_RTIPC_SPSC, "throughput-" var "/" BENCH_MECH_BOOST_SPSC,                              \
     "throughput " var " / " BENCH_MECH_BOOST_SPSC,                                                          \
     VALUE(BENCH_MECH_RTIPC_SPSC, var, BENCH_METRIC_THROUGHPUT),                                             \
     VALUE(BENCH_MECH_BOOST_SPSC, var, BENCH_METRIC_THROUGHPUT), 1.2, true, "%.1f / %.1f M/s", 1e-6, NULL}

#define SPSC_PEER(mech, peer, limit)                                                                         \
    {PEERS, mech, "throughput-" BENCH_VARIANT_PER_ITEM "/" peer, "throughput per-item / " peer,               \
     VALUE(mech, BENCH_VARIANT_PER_ITEM, BENCH_METRIC_THROUGHPUT),                                           \
     VALUE(peer, BENCH_VARIANT_PER_ITEM, BENCH_METRIC_THROUGHPUT), limit, true, "%.1f / %.1f M/s", 1e-6, NULL}

#define KERNEL(mech, kernel, var, metric)                                                                    \
    {BENCH_EXP_ROUND_TRIP, mech, var "/" kernel, var " p50 / " kernel, P50(mech, var, metric),                \
     P50(kernel, var, metric), 1.10, false, "%.0f / %.0f", 1, NULL}

static const target_t targets[] = {
    SLEEPING(BENCH_MECH_RTIPC_QUEUE),
    SLEEPING(BENCH_MECH_RTIPC_SEM),
    SLEEPING(BENCH_MECH_RTIPC_NOTIFY),
    SLEEPING(BENCH_MECH_RTIPC_SPSC),
    ACTIVE(BENCH_MECH_RTIPC_NOTIFY),
    ACTIVE(BENCH_MECH_RTIPC_SPSC),
    ACTIVE(BENCH_MECH_RTIPC_MAILBOX),
    ACTIVE(BENCH_MECH_RTIPC_QUEUE),
    ACTIVE(BENCH_MECH_RTIPC_SEM),
    {PEERS, BENCH_MECH_RTIPC_SPSC, "handoff-active-p50/" BENCH_MECH_MOODYCAMEL_BLOCKING_RWQ,
     "handoff-active p50 / " BENCH_MECH_MOODYCAMEL_BLOCKING_RWQ,
     P50(BENCH_MECH_RTIPC_SPSC, BENCH_VARIANT_GAP_1_3US, BENCH_METRIC_HANDOFF_ACTIVE),
     P50(BENCH_MECH_MOODYCAMEL_BLOCKING_RWQ, BENCH_VARIANT_GAP_1_3US, BENCH_METRIC_HANDOFF_ACTIVE), 1.0, false,
     "%.3f / %.3f us", 1e-3, NULL},
    /* The ring with the library's default fence (asymmetric where the port
     * has the barrier). A ring that pays the full fence per call cannot
     * exceed spsc-fence-floor; rtipc-spsc-sym is that ring, untargeted. */
    THROUGHPUT(BENCH_VARIANT_BULK_64),
    THROUGHPUT(BENCH_VARIANT_PER_ITEM),
    {PEERS, BENCH_MECH_RTIPC_SPSC, "throughput-" BENCH_VARIANT_PER_ITEM "/best-spsc-peer",
     "throughput per-item / best SPSC peer",
     VALUE(BENCH_MECH_RTIPC_SPSC, BENCH_VARIANT_PER_ITEM, BENCH_METRIC_THROUGHPUT),
     BEST_VALUE(spsc_peers, BENCH_VARIANT_PER_ITEM, BENCH_METRIC_THROUGHPUT), 1.2, true, "%.1f / %.1f M/s", 1e-6,
     NULL},
    {PEERS, BENCH_MECH_RTIPC_QUEUE, "throughput-" BENCH_VARIANT_PER_ITEM "/" BENCH_MECH_MOODYCAMEL_BLOCKING_CQ,
     "throughput per-item / " BENCH_MECH_MOODYCAMEL_BLOCKING_CQ,
     VALUE(BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_PER_ITEM, BENCH_METRIC_THROUGHPUT),
     VALUE(BENCH_MECH_MOODYCAMEL_BLOCKING_CQ, BENCH_VARIANT_PER_ITEM, BENCH_METRIC_THROUGHPUT), 1.0, true,
     "%.1f / %.1f M/s", 1e-6, NULL},
    /* The blocking ring against the blocking SPSC peer, and its polling
     * path (a consumer that finds items never parks) against the same
     * algorithm without a parked side to look for. */
    SPSC_PEER(BENCH_MECH_RTIPC_SPSC, BENCH_MECH_MOODYCAMEL_BLOCKING_RWQ, 1.2),
    SPSC_PEER(BENCH_MECH_RTIPC_SPSC, BENCH_MECH_CK_RING, 0.9),
    /* A queue any task may send to cannot cost less than the atomic
     * read-modify-writes of its lock: the cas-floor. */
    {PEERS, BENCH_MECH_RTIPC_QUEUE, "call-cost-p50/" BENCH_MECH_CAS_FLOOR, "call-cost p50 / " BENCH_MECH_CAS_FLOOR,
     P50(BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_SAME_THREAD, BENCH_METRIC_CALL_COST),
     P50(BENCH_MECH_CAS_FLOOR, BENCH_VARIANT_SAME_THREAD, BENCH_METRIC_CALL_COST), 1.15, false, "%.0f / %.0f ns", 1,
     NULL},
    {PEERS, BENCH_MECH_RTIPC_NOTIFY, "call-cost-p50/25ns", "call-cost p50 / 25 ns",
     P50(BENCH_MECH_RTIPC_NOTIFY, BENCH_VARIANT_SAME_THREAD, BENCH_METRIC_CALL_COST), FIXED(ns25), 1.0, false,
     "%.0f / %.0f ns", 1, BENCH_MECH_CAS_FLOOR},
    {PEERS, BENCH_MECH_RTIPC_QUEUE, "control-block/64B", "footprint_for(0,0) / 64 B", VALUE(BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_CONTROL_BLOCK, BENCH_METRIC_BYTES),
     FIXED(b64), 1.0, false, "%.0f / %.0f B", 1, NULL},
    {PEERS, BENCH_MECH_RTIPC_NOTIFY, "slot/8B", "slot (notify.h says 8 B) / 8 B", FIXED(notify_slot), FIXED(b8),
     1.0, false, "%.0f / %.0f B", 1, NULL},
    /* On FreeRTOS: rtipc's call over the kernel's own, in instructions on
     * the Cortex-M3 under -icount (round-trip's kernel-* rows). */
    KERNEL(BENCH_MECH_RTIPC_QUEUE, BENCH_MECH_KERNEL_QUEUE, BENCH_VARIANT_EQUAL_PRIORITY, BENCH_METRIC_ROUND_TRIP),
    KERNEL(BENCH_MECH_RTIPC_SEM, BENCH_MECH_KERNEL_SEM, BENCH_VARIANT_EQUAL_PRIORITY, BENCH_METRIC_ROUND_TRIP),
    KERNEL(BENCH_MECH_RTIPC_NOTIFY, BENCH_MECH_KERNEL_NOTIFY, BENCH_VARIANT_EQUAL_PRIORITY, BENCH_METRIC_ROUND_TRIP),
    KERNEL(BENCH_MECH_RTIPC_QUEUE, BENCH_MECH_KERNEL_QUEUE, BENCH_VARIANT_ONE_TASK, BENCH_METRIC_SEND_RECEIVE),
    KERNEL(BENCH_MECH_RTIPC_SEM, BENCH_MECH_KERNEL_SEM, BENCH_VARIANT_ONE_TASK, BENCH_METRIC_GIVE_TAKE),
    KERNEL(BENCH_MECH_RTIPC_NOTIFY, BENCH_MECH_KERNEL_NOTIFY, BENCH_VARIANT_ONE_TASK, BENCH_METRIC_GIVE_TAKE),
    KERNEL(BENCH_MECH_RTIPC_QUEUE, BENCH_MECH_KERNEL_QUEUE, BENCH_VARIANT_FROM_ISR, BENCH_METRIC_SEND_FROM_ISR),
    KERNEL(BENCH_MECH_RTIPC_SEM, BENCH_MECH_KERNEL_SEM, BENCH_VARIANT_FROM_ISR, BENCH_METRIC_GIVE_FROM_ISR),
    KERNEL(BENCH_MECH_RTIPC_NOTIFY, BENCH_MECH_KERNEL_NOTIFY, BENCH_VARIANT_FROM_ISR, BENCH_METRIC_GIVE_FROM_ISR),
};

static double row_figure(const bench_run_t *run, const char *experiment, const figure_t *f, const char *mechanism)
{
    const bench_result_t *r = bench_find(run, experiment, mechanism, f->variant, f->metric);
    if (f->value)
        return r && r->kind == BENCH_VALUE ? r->value : NAN;
    return r && r->kind == BENCH_DIST ? r->stats.p50 : NAN;
}

/* The figure; *best names the row a best_of figure took (else NULL). */
static double figure(const bench_run_t *run, const char *experiment, const figure_t *f, const char **best)
{
    *best = NULL;
    if (f->fixed)
        return f->fixed();
    if (!f->best_of)
        return row_figure(run, experiment, f, f->mechanism);
    double top = NAN;
    for (const char *const *m = f->best_of; *m; m++) {
        double v = row_figure(run, experiment, f, *m);
        if (!isnan(v) && (isnan(top) || v > top)) {
            top = v;
            *best = *m;
        }
    }
    return top;
}

/* After an snprintf into buf that wanted n characters: a cut text ends in
 * "..." (the notes' table line keeps what a row's note cannot). */
static void cut_mark(char *buf, size_t size, int n)
{
    if (n >= (int)size && size > 4)
        memcpy(buf + size - 4, "...", 4);
}

static void audit(bench_run_t *run, const target_t *t)
{
    const char *num_best, *den_best;
    double num = figure(run, t->experiment, &t->num, &num_best), den = figure(run, t->experiment, &t->den, &den_best);
    const char *best = den_best ? den_best : num_best;
    double ratio = num / den;
    if (isnan(ratio)) {
        bench_note(run, "  %-12s %-34s not testable (a figure is missing)", t->subject, t->what);
        return;
    }
    bool holds = t->at_least ? ratio >= t->limit : ratio <= t->limit;
    const char *op = t->at_least ? ">=" : "<=";
    char figs[96];
    snprintf(figs, sizeof figs, t->figures, num * t->scale, den * t->scale);
    bench_result_t *r = bench_add_value(run, t->subject, t->variant, BENCH_METRIC_TARGET_RATIO, "x", ratio);
    char who[112] = "";
    if (best)
        snprintf(who, sizeof who, " (best peer: %s)", best);
    double floor = t->floor ? row_figure(run, t->experiment, &t->num, t->floor) : NAN;
    if (!isnan(floor)) {
        char ffig[48];
        snprintf(ffig, sizeof ffig, t->figures, floor * t->scale, den * t->scale);
        size_t used = strlen(who);
        cut_mark(who, sizeof who,
                 (int)used + snprintf(who + used, sizeof who - used, " (floor %s: %s = %.3f)", t->floor, ffig,
                                      floor / den));
    }
    if (r)
        bench_row_note(run, r, "target %s %s %.2f: %s = %.3f: %s%s", t->what, op, t->limit, figs, ratio,
                       holds ? "holds" : "MISSED", who);
    bench_note(run, "  %-12s %-34s %s %.2f | %-22s = %6.3f | %s%s", t->subject, t->what, op, t->limit, figs, ratio,
               holds ? "holds" : "MISSED", who);
}

void bench_audit_perf_targets(bench_run_t *run)
{
    const char *id = bench_experiment_id(run);
    bool header = false;
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        if (strcmp(targets[i].experiment, id) != 0)
            continue;
        if (!header)
            bench_note(run, "targets (ratio of this run's figures; subject, target, figures, ratio, verdict):");
        header = true;
        audit(run, &targets[i]);
    }
}
