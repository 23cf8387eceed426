/* lockfree-cost: what rtipc's lock-free objects cost where nothing waits,
 * on every target, bare metal included (they need no kernel): an SPSC ring
 * push and pop and a mailbox write and read in one context, and an
 * interrupt handler's push into an SPSC ring that the interrupted context
 * polls. Spans are stamp pairs (bench_target_stamp_*: exact to the
 * instruction on the mps2-an385 board, the clock's grain elsewhere) minus
 * the median cost of an empty pair, which is reported raw. Every item
 * carries its sequence number: a lost, repeated or reordered one fails the
 * experiment. */
#include <string.h>

#include "experiments.h"

#define RING_CAPACITY 64u
#define TIGHT_POLLS 1000
#define POLL_SPIN_NS 200000LL  /* spin this long for the handler's message ... */
#define POLL_NAP_NS 100000LL   /* ... then let others run (the simulator's interrupt thread) */
#define POLL_LIMIT_NS 1000000000LL

typedef struct {
    bench_run_t *run;
    size_t samples;
    int64_t overhead;   /* median of an empty stamp pair */
    bench_samples_t s;
} cost_t;

static int64_t span_of(const cost_t *c, bench_stamp_t t0, bench_stamp_t t1)
{
    return bench_target_stamp_span(t0, t1) - c->overhead;
}

/* The samples so far become a row; false after a failure. */
static bool keep(cost_t *c, const char *mechanism, const char *variant, const char *metric)
{
    bench_result_t *row = bench_add_dist(c->run, mechanism, variant, metric, &c->s);
    bench_row_core_clocked(c->run, row);  /* stamp pairs read the core's clock where there is one */
    bool ok = row != NULL;
    c->s.n = 0;
    return ok;
}

static bool measure_overhead(cost_t *c)
{
    for (size_t i = 0; i < c->samples; i++) {
        bench_stamp_t t0 = bench_target_stamp_start();
        bench_stamp_t t1 = bench_target_stamp_end();
        bench_samples_push(&c->s, bench_target_stamp_span(t0, t1));
    }
    bench_result_t *r = bench_add_dist(c->run, BENCH_MECH_STAMP_PAIR, "empty", "overhead", &c->s);
    bench_row_core_clocked(c->run, r);
    c->s.n = 0;
    if (!r)
        return false;
    c->overhead = (int64_t)r->stats.p50;
    return true;
}

/* ---- SPSC ring and mailbox, one context ---- */

static rtipc_spsc_static_t ring_cb;
static uint32_t ring_storage[RING_CAPACITY];

static bool measure_spsc(cost_t *c)
{
    rtipc_spsc_t *r;
    int rc = rtipc_spsc_create_static(RING_CAPACITY, sizeof(uint32_t), ring_storage, &ring_cb, &r);
    if (rc != RTIPC_OK)
        return bench_fail(c->run, "spsc create: %s", rtipc_strerror(rc)), false;
    uint32_t seq = 0, expect = 0;
    for (size_t i = 0; i < c->samples && !bench_failed(c->run); i++) {
        uint32_t in = seq++, out = UINT32_MAX;
        bench_stamp_t t0 = bench_target_stamp_start();
        int rp = rtipc_spsc_try_push(r, &in);
        int rg = rtipc_spsc_try_pop(r, &out);
        bench_stamp_t t1 = bench_target_stamp_end();
        bench_samples_push(&c->s, span_of(c, t0, t1));
        if (rp != RTIPC_OK || rg != RTIPC_OK)
            bench_fail(c->run, "spsc: try_push or try_pop refused on a ring with room");
        else if (out != expect++)
            bench_fail(c->run, "spsc: item %lu came back as %lu", (unsigned long)(expect - 1), (unsigned long)out);
    }
    bool ok = !bench_failed(c->run) && keep(c, BENCH_MECH_RTIPC_SPSC, "1-item", "push+pop");

    static const struct {
        int n;
        const char *variant;
    } batches[] = {{8, "bulk-8"}, {32, "bulk-32"}};
    for (size_t b = 0; ok && b < sizeof batches / sizeof *batches; b++) {
        int n = batches[b].n;
        uint32_t in[32], out[32];
        for (size_t i = 0; i < c->samples && !bench_failed(c->run); i++) {
            for (int k = 0; k < n; k++) {
                in[k] = seq++;
                out[k] = UINT32_MAX;
            }
            bench_stamp_t t0 = bench_target_stamp_start();
            int pushed = rtipc_spsc_push_bulk(r, in, (size_t)n);
            int popped = rtipc_spsc_pop_bulk(r, out, (size_t)n);
            bench_stamp_t t1 = bench_target_stamp_end();
            bench_samples_push(&c->s, span_of(c, t0, t1));
            if (pushed != n || popped != n) {
                bench_fail(c->run, "spsc: push_bulk moved %d and pop_bulk %d of %d items that fit", pushed, popped,
                           n);
                break;
            }
            for (int k = 0; k < n; k++)
                if (out[k] != expect++) {
                    bench_fail(c->run, "spsc: bulk item %lu came back as %lu", (unsigned long)(expect - 1),
                               (unsigned long)out[k]);
                    break;
                }
        }
        ok = !bench_failed(c->run) && keep(c, BENCH_MECH_RTIPC_SPSC, batches[b].variant, "push+pop");
    }
    if (ok && rtipc_spsc_size(r) != 0) {
        bench_fail(c->run, "spsc: %lu items left in the ring", (unsigned long)rtipc_spsc_size(r));
        ok = false;
    }
    rtipc_spsc_delete(r);
    return ok;
}

typedef struct {
    uint32_t seq;
    uint32_t payload;
} mb_value_t;

static rtipc_mailbox_static_t mailbox_cb;
static _Alignas(8) unsigned char mailbox_storage[RTIPC_MAILBOX_STORAGE_SIZE(sizeof(mb_value_t))];

static bool measure_mailbox(cost_t *c)
{
    rtipc_mailbox_t *mb;
    int rc = rtipc_mailbox_create_static(sizeof(mb_value_t), NULL, mailbox_storage, &mailbox_cb, &mb);
    if (rc != RTIPC_OK)
        return bench_fail(c->run, "mailbox create: %s", rtipc_strerror(rc)), false;
    for (size_t i = 0; i < c->samples; i++) {
        mb_value_t in = {(uint32_t)i, (uint32_t)i * 2654435761u}, out = {UINT32_MAX, 0};
        uint64_t version = 0;
        bench_stamp_t t0 = bench_target_stamp_start();
        int rw = rtipc_mailbox_write(mb, &in);
        int rr = rtipc_mailbox_read(mb, &out, &version);
        bench_stamp_t t1 = bench_target_stamp_end();
        bench_samples_push(&c->s, span_of(c, t0, t1));
        if (rw != RTIPC_OK || rr != RTIPC_OK) {
            bench_fail(c->run, "mailbox: write or read refused with a single writer");
            break;
        }
        if (out.seq != in.seq || out.payload != in.payload || version != (uint64_t)i + 1) {
            bench_fail(c->run, "mailbox: read value %lu version %llu after writing value %lu (version %lu)",
                       (unsigned long)out.seq, (unsigned long long)version, (unsigned long)in.seq,
                       (unsigned long)i + 1);
            break;
        }
    }
    bool ok = !bench_failed(c->run) && keep(c, BENCH_MECH_RTIPC_MAILBOX, "8B", "write+read");
    rtipc_mailbox_delete(mb);
    return ok;
}

/* ---- interrupt handler -> polling context ---- */

typedef struct {
    uint32_t seq;
    bench_stamp_t stamp; /* taken first thing in the handler (pend-to-handler) */
} isr_msg_t;

typedef struct {
    rtipc_spsc_t *ring;
    volatile int stamp;       /* the series in progress stamps in the handler */
    volatile uint32_t seq;    /* the handler's next sequence number */
    volatile uint32_t refused;
} isr_state_t;

static rtipc_spsc_static_t isr_cb;
static isr_msg_t isr_storage[16];

static void isr_push(void *arg)
{
    isr_state_t *st = arg;
    isr_msg_t m;
    if (st->stamp)
        m.stamp = bench_target_stamp_end(); /* first: the span ends on entry */
    else
        memset(&m.stamp, 0, sizeof m.stamp);
    m.seq = st->seq++;
    if (rtipc_spsc_push_from_isr(st->ring, &m, NULL) != RTIPC_OK)
        st->refused++;
}

/* Poll for the handler's message: a tight loop first (no clock readings in
 * the span where the message comes at once), then by the clock: spin, then
 * nap (a target whose interrupts are a thread that needs the core runs it
 * then). */
static int poll_message(rtipc_spsc_t *ring, isr_msg_t *m)
{
    for (int i = 0; i < TIGHT_POLLS; i++) {
        int rc = rtipc_spsc_try_pop(ring, m);
        if (rc != RTIPC_EWOULDBLOCK)
            return rc;
    }
    int64_t start = bench_now_ns();
    for (;;) {
        int rc = rtipc_spsc_try_pop(ring, m);
        if (rc != RTIPC_EWOULDBLOCK)
            return rc;
        int64_t waited = bench_now_ns() - start;
        if (waited > POLL_LIMIT_NS)
            return RTIPC_ETIMEDOUT;
        if (waited > POLL_SPIN_NS)
            bench_sleep_ns(POLL_NAP_NS);
    }
}

static bool measure_isr(cost_t *c)
{
    if (!(bench_target_features() & BENCH_TARGET_INTERRUPTS)) {
        bench_add_missing(c->run, BENCH_MECH_RTIPC_SPSC_FROM_ISR,
                          "this target has no software-triggered interrupt");
        return true;
    }
    static isr_state_t st;
    memset(&st, 0, sizeof st);
    int rc = rtipc_spsc_create_static(16, sizeof(isr_msg_t), isr_storage, &isr_cb, &st.ring);
    if (rc != RTIPC_OK)
        return bench_fail(c->run, "spsc create: %s", rtipc_strerror(rc)), false;
    rtipc_irq_t *irq;
    rc = bench_target_irq_create(bench_cpu(c->run, 0), isr_push, &st, &irq);
    if (rc != RTIPC_OK) {
        rtipc_spsc_delete(st.ring);
        return bench_fail(c->run, "interrupt source: %s", rtipc_strerror(rc)), false;
    }
    uint32_t expect = 0;
    static const char *const metric[2] = {"pend-to-handler", "pend-to-main"};
    for (int series = 0; series < 2 && !bench_failed(c->run); series++) {
        st.stamp = series == 0;
        for (size_t i = 0; i < c->samples; i++) {
            isr_msg_t m;
            memset(&m, 0, sizeof m);
            m.seq = UINT32_MAX;
            bench_stamp_t t0 = bench_target_stamp_start();
            rc = bench_target_irq_trigger(irq);
            if (rc == RTIPC_OK)
                rc = poll_message(st.ring, &m);
            bench_stamp_t t1 = bench_target_stamp_end();
            if (rc != RTIPC_OK) {
                bench_fail(c->run, "interrupt %lu: the handler's message never arrived: %s", (unsigned long)i,
                           rtipc_strerror(rc));
                break;
            }
            if (m.seq != expect++) {
                bench_fail(c->run, "interrupt %lu: message %lu arrived", (unsigned long)(expect - 1),
                           (unsigned long)m.seq);
                break;
            }
            bench_samples_push(&c->s, span_of(c, t0, series == 0 ? m.stamp : t1));
        }
        if (!bench_failed(c->run))
            keep(c, BENCH_MECH_RTIPC_SPSC_FROM_ISR, BENCH_VARIANT_CORE_0, metric[series]);
    }
    bench_target_irq_delete(irq);
    if (!bench_failed(c->run) && st.refused)
        bench_fail(c->run, "the handler found the ring full %lu times", (unsigned long)st.refused);
    if (!bench_failed(c->run) && rtipc_spsc_size(st.ring) != 0)
        bench_fail(c->run, "%lu messages left in the ring", (unsigned long)rtipc_spsc_size(st.ring));
    rtipc_spsc_delete(st.ring);
    return !bench_failed(c->run);
}

/* ---- the objects' sizes on this target ---- */

static void record_sizes(cost_t *c)
{
    bench_add_value(c->run, BENCH_MECH_RTIPC_SPSC, BENCH_VARIANT_CONTROL_BLOCK, BENCH_METRIC_BYTES, "B",
                    (double)rtipc_spsc_footprint_for(0, 0));
    bench_add_value(c->run, BENCH_MECH_RTIPC_SPSC, "rtipc_spsc_static_t", BENCH_METRIC_BYTES, "B",
                    (double)sizeof(rtipc_spsc_static_t));
    bench_add_value(c->run, BENCH_MECH_RTIPC_SPSC, BENCH_VARIANT_CAP_64_ITEM_4, BENCH_METRIC_BYTES, "B",
                    (double)rtipc_spsc_footprint_for(RING_CAPACITY, sizeof(uint32_t)));
    bench_add_value(c->run, BENCH_MECH_RTIPC_MAILBOX, BENCH_VARIANT_CONTROL_BLOCK, BENCH_METRIC_BYTES, "B",
                    (double)rtipc_mailbox_footprint_for(0));
    bench_add_value(c->run, BENCH_MECH_RTIPC_MAILBOX, "rtipc_mailbox_static_t", BENCH_METRIC_BYTES, "B",
                    (double)sizeof(rtipc_mailbox_static_t));
    bench_add_value(c->run, BENCH_MECH_RTIPC_MAILBOX, "value=8", BENCH_METRIC_BYTES, "B",
                    (double)rtipc_mailbox_footprint_for(sizeof(mb_value_t)));
    if (rtipc_spsc_footprint_for(0, 0) > sizeof(rtipc_spsc_static_t) ||
        rtipc_mailbox_footprint_for(0) > sizeof(rtipc_mailbox_static_t))
        bench_fail(c->run, "a control block is larger than its static type");
}

static int run_lockfree_cost(bench_run_t *run)
{
    cost_t c = {.run = run,
                .samples = bench_samples_fit_heap(run, bench_sample_count(run, 20000, 2000), sizeof(int64_t), 4,
                                                  "rows")};
    if (bench_samples_init(&c.s, c.samples) != 0)
        return bench_fail(run, "no memory for %lu samples", (unsigned long)c.samples);
    bench_progress(run, 0.0);
    if (measure_overhead(&c) && (bench_progress(run, 0.1), measure_spsc(&c)) &&
        (bench_progress(run, 0.5), measure_mailbox(&c)) && (bench_progress(run, 0.6), measure_isr(&c)))
        record_sizes(&c);
    bench_progress(run, 1.0);
    bench_samples_free(&c.s);
    return bench_failed(run) ? -1 : 0;
}

const bench_experiment_t exp_lockfree_cost = {
    .id = BENCH_EXP_LOCKFREE_COST,
    .summary = "SPSC ring and mailbox calls in one context, and an interrupt handler's push polled by the "
               "interrupted context: the lock-free objects, kernel or none",
    .definitions =
        "Spans are pairs of stamps (bench_target_stamp_*; the env's clock names them, the board's stamps\n"
        "  are exact to the instruction on the mps2-an385 board) minus the median of an empty pair:\n"
        "overhead (stamp-pair, empty): an empty stamp pair, reported raw.\n"
        "push+pop (rtipc-spsc): rtipc_spsc_try_push then rtipc_spsc_try_pop of one 4-byte item (1-item),\n"
        "  or rtipc_spsc_push_bulk then rtipc_spsc_pop_bulk of N items (bulk-N: the whole batch), on a\n"
        "  ring of 64 items in one context.\n"
        "write+read (rtipc-mailbox): rtipc_mailbox_write then rtipc_mailbox_read of an 8-byte value.\n"
        "pend-to-handler (rtipc-spsc-from-isr): from just before the interrupt is raised\n"
        "  (bench_target_irq_trigger) to the stamp first thing in its handler, on core 0.\n"
        "pend-to-main: from just before the interrupt is raised until the raising context has popped the\n"
        "  handler's message (rtipc_spsc_push_from_isr; the handler takes no stamp in this series). The\n"
        "  raising context polls: 1000 pops, then by the clock 200 us more, then naps of 100 us (a target\n"
        "  whose interrupts are a thread gets its core back so). Both include the target's dispatch to\n"
        "  the handler rtipc-bench registered. On Linux the handler is core 0's interrupt thread.\n"
        "bytes: rtipc_*_footprint_for of an empty shape (control-block), the static type, and the shapes\n"
        "  measured (control block plus storage).",
    .run = run_lockfree_cost,
    .requires = 0, /* the interrupt rows need BENCH_TARGET_INTERRUPTS and are missing without */
};
