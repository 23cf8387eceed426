/* peers: rtipc's objects side by side with the physical floor (a spinning
 * cache line), the kernel's own primitives, mutex + condition variable
 * queues and the lock-free queue libraries (SPSC rings, moodycamel's
 * blocking queues, userspace RCU's list queue), measured in one run with one
 * harness: one-way handoff latency with the receiver parked and with it
 * waiting actively, streaming throughput (harness/throughput.h), and the
 * cost of one uncontended send + receive. The mechanisms are the table's
 * (mechanisms/mechanisms.h); the project's targets are audited from these
 * rows once the experiment ran (harness/perf_targets.c). */
#define _GNU_SOURCE /* syscall(SYS_membarrier): the asymmetric fence's floor */
#include <linux/membarrier.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../harness/throughput.h"
#include "../harness/watchdog.h"
#include "../mechanisms/mechanisms.h"
#include "experiments.h"
#include "linux_only.h"
#include "rtipc/config.h"
#include "rtipc/spsc.h"

#define DEPTH 1024                 /* items every bounded queue/ring holds */
#define PAIRS 1000                 /* call-cost: send+receive pairs per timed batch */
#define KICK_AFTER_NS 3000000000LL /* the watchdog releases a receiver idle this long */
#define ACTIVE_TRYPOP_VARIANT BENCH_VARIANT_GAP_1_3US ",spin-on-try-pop"
#define COUNTER_VARIANT "counter"

/* The mechanisms, in the order of the rows: handoff-sleeping for those
 * whose receiver can park, handoff-active for those whose receiver can wait
 * actively, call-cost for all. */
static const char *const measured[] = {
    BENCH_MECH_SPIN,
    BENCH_MECH_FUTEX,
    BENCH_MECH_EVENTFD,
    BENCH_MECH_PIPE,
    BENCH_MECH_POSIX_MQ,
    BENCH_MECH_POSIX_SEM,
    BENCH_MECH_MUTEX_CONDVAR,
    BENCH_MECH_MUTEX_CONDVAR_PI,
    BENCH_MECH_STD_QUEUE_MUTEX,
    BENCH_MECH_CK_RING,
    BENCH_MECH_BOOST_SPSC,
    BENCH_MECH_ATOMIC_QUEUE_SPSC,
    BENCH_MECH_MOODYCAMEL_RWQ,
    BENCH_MECH_MOODYCAMEL_BLOCKING_RWQ,
    BENCH_MECH_MOODYCAMEL_BLOCKING_CQ,
    BENCH_MECH_URCU_WFCQ,
    BENCH_MECH_RTIPC_QUEUE,
    BENCH_MECH_RTIPC_SEM,
    BENCH_MECH_RTIPC_NOTIFY,
    BENCH_MECH_RTIPC_SPSC,
    BENCH_MECH_RTIPC_SPSC_SYM,
    BENCH_MECH_RTIPC_MAILBOX,
};
#define N_MEASURED (sizeof measured / sizeof measured[0])

/* The throughput rows, in order: bulk uses the mechanism's many-item calls,
 * else one call per item (a count for the mechanism that merges). */
static const struct {
    const char *mechanism;
    bool bulk;
} streams[] = {
    {BENCH_MECH_RTIPC_SPSC, true},
    {BENCH_MECH_RTIPC_SPSC, false},
    {BENCH_MECH_RTIPC_SPSC_SYM, true},
    {BENCH_MECH_RTIPC_SPSC_SYM, false},
    {BENCH_MECH_SPSC_FENCE_FLOOR, true},
    {BENCH_MECH_SPSC_FENCE_FLOOR, false},
    {BENCH_MECH_BOOST_SPSC, true},
    {BENCH_MECH_BOOST_SPSC, false},
    {BENCH_MECH_CK_RING, false},
    {BENCH_MECH_ATOMIC_QUEUE_SPSC, false},
    {BENCH_MECH_MOODYCAMEL_RWQ, false},
    {BENCH_MECH_MOODYCAMEL_BLOCKING_RWQ, false},
    {BENCH_MECH_URCU_WFCQ, false},
    {BENCH_MECH_RTIPC_QUEUE, false},
    {BENCH_MECH_MOODYCAMEL_BLOCKING_CQ, true},
    {BENCH_MECH_MOODYCAMEL_BLOCKING_CQ, false},
    {BENCH_MECH_MUTEX_CONDVAR, false},
    {BENCH_MECH_STD_QUEUE_MUTEX, false},
    {BENCH_MECH_PIPE, false},
    {BENCH_MECH_POSIX_MQ, false},
    {BENCH_MECH_EVENTFD, false},
};
#define N_STREAMS (sizeof streams / sizeof streams[0])

/* The depth a mechanism gave when it held fewer than DEPTH (posix-mq, when
 * the kernel refuses 1024), and which (0, NULL: every one as asked;
 * experiment thread only). */
static size_t granted;
static const char *granted_by;

static const bench_mech_t *mech(size_t i) { return bench_mech_find(measured[i]); }

/* A fresh object of @p m: 0, 1 when it is missing here (recorded once), -1
 * after bench_fail(). */
static int make(bench_run_t *run, const bench_mech_t *m, void **obj)
{
    int rc = bench_mech_make(run, m, DEPTH, obj);
    if (rc == 0 && m->capacity && m->capacity(*obj) < DEPTH) {
        granted = m->capacity(*obj);
        granted_by = m->name;
    }
    return rc;
}

/* ------------------------------------------------------------ handoff */

/* What the watchdog watches for a mechanism that blocks outside rtipc: the
 * sender counts its sends here (only it writes the count, on its own cache
 * line), and a receiver left waiting KICK_AFTER_NS after the last one (the
 * handoff driver has given up on the message) is kicked out of its wait. */
typedef struct {
    const bench_mech_t *m;
    void *obj;
    _Alignas(64) _Atomic uint64_t sends;
} counted_t;

static int counted_send(void *o, uint32_t seq)
{
    counted_t *c = o;
    int rc = c->m->send(c->obj, seq);
    atomic_store_explicit(&c->sends, atomic_load_explicit(&c->sends, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    return rc;
}

static int counted_recv(void *o, uint32_t *seq)
{
    counted_t *c = o;
    return c->m->recv(c->obj, seq);
}

static void counted_bind(void *o, bench_task_t *producer, bench_task_t *consumer)
{
    counted_t *c = o;
    c->m->bind(c->obj, producer, consumer);
}

static int counted_depth(void *o)
{
    counted_t *c = o;
    return c->m->depth(c->obj);
}

typedef struct {
    const bench_mech_t *m;
    const char *variant;
    int (*recv)(void *obj, uint32_t *seq);  /* instead of m->recv, or NULL */
    bench_samples_t pool;
    bool skip;                               /* missing here */
} hcase_t;

/* Every case in @p rounds rounds (order reversed every other round, so a
 * drift of the shared machine hits all alike), pooled into one row each:
 * (mechanism, variant, @p metric). A fresh object per round. */
static int handoff_phase(bench_run_t *run, bench_watchdog_t *wd, hcase_t *cases, size_t n, const char *metric,
                         int64_t gap_min, int64_t gap_max, size_t full, size_t quick, size_t rounds, double p0,
                         double p1)
{
    size_t total = bench_sample_count(run, full, quick);
    size_t share = (total + rounds - 1) / rounds;
    bench_samples_t round = {0};
    int rc = bench_samples_init(&round, share);
    for (size_t c = 0; c < n && rc == 0; c++)
        rc = bench_samples_init(&cases[c].pool, share * rounds);
    if (rc != 0) {
        rc = bench_fail(run, "out of memory");
        goto out;
    }
    for (size_t r = 0; r < rounds && rc == 0; r++) {
        for (size_t k = 0; k < n && rc == 0; k++) {
            hcase_t *hc = &cases[r % 2 ? n - 1 - k : k];
            if (hc->skip)
                continue;
            const bench_mech_t *m = hc->m;
            void *obj;
            int made = make(run, m, &obj);
            if (made == 1) {
                hc->skip = true;
                continue;
            }
            if (made != 0) {
                rc = -1;
                break;
            }
            handoff_ops_t ops = {.send = m->send, .recv = hc->recv ? hc->recv : m->recv, .bind = m->bind,
                                 .depth = m->depth, .obj = obj};
            counted_t counted = {.m = m, .obj = obj};
            bool watched = (m->traits & BENCH_MECH_FOREIGN_WAIT) && m->kick && !hc->recv;
            if (watched) {
                ops = (handoff_ops_t){.send = counted_send, .recv = counted_recv,
                                      .bind = m->bind ? counted_bind : NULL, .depth = m->depth ? counted_depth : NULL,
                                      .obj = &counted};
                bench_watchdog_watch(wd, &counted.sends, m->kick, obj);
            }
            handoff_cfg_t cfg = handoff_default(run, share, share);
            cfg.samples = share;
            cfg.warmup = bench_warmup_count(run, share);
            cfg.gap_min_ns = gap_min;
            cfg.gap_max_ns = gap_max;
            cfg.mechanism = m->name;
            cfg.variant = hc->variant;
            rc = handoff_run(run, &ops, &cfg, &round);
            if (watched)
                bench_watchdog_watch(wd, NULL, NULL, NULL);
            m->destroy(obj);
            if (rc != 0) {
                bench_fail_prefix(run, "%s %s: ", m->name, metric);
                break;
            }
            for (size_t i = 0; i < round.n; i++)
                bench_samples_push(&hc->pool, round.ns[i]);
            bench_progress(run, p0 + (p1 - p0) * (double)(r * n + k + 1) / (double)(rounds * n));
        }
    }
    for (size_t c = 0; c < n && rc == 0; c++)
        if (!cases[c].skip && !bench_add_dist(run, cases[c].m->name, cases[c].variant, metric, &cases[c].pool))
            rc = -1;
out:
    bench_samples_free(&round);
    for (size_t c = 0; c < n; c++)
        bench_samples_free(&cases[c].pool);
    return rc;
}

/* --------------------------------------------------------- throughput */

/* Stream i's mechanism: one of the table, or the floor, which is not. */
static const bench_mech_t *stream_mech(size_t i)
{
    const char *name = streams[i].mechanism;
    return strcmp(name, BENCH_MECH_SPSC_FENCE_FLOOR) == 0 ? &bench_spsc_fence_floor : bench_mech_find(name);
}

/* Each stream's window of each round (a mechanism not built here leaves
 * its windows zero: nothing sent, no window). */
#define TP_ROUNDS_MAX 7
static throughput_result_t tp[N_STREAMS][TP_ROUNDS_MAX];

/* One window of stream i in round r, into tp[i][r]. */
static int stream(bench_run_t *run, size_t i, size_t r, double dur, double rest)
{
    const bench_mech_t *m = stream_mech(i);
    bool bulk = streams[i].bulk;
    void *obj;
    int rc = make(run, m, &obj);
    if (rc == 1)
        return 0;
    if (rc != 0)
        return -1;
    throughput_ops_t ops = {.push = bulk ? m->push_bulk : m->push_each,
                            .pop = bulk ? m->pop_bulk : m->pop_each,
                            .pop_count = bulk ? NULL : m->pop_count,
                            .push_marker = m->push_marker,
                            .kick = m->kick,
                            .obj = obj};
    throughput_cfg_t cfg = {.duration_s = dur, .rest_s = rest};
    rc = throughput_run(run, &ops, &cfg, &tp[i][r]);
    m->destroy(obj);
    if (rc != 0)
        bench_fail_prefix(run, "%s %s: ", m->name, BENCH_METRIC_THROUGHPUT);
    return rc;
}

static int by_rate(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Stream i's row: the median of its measured rounds (the middle one, or
 * the lower middle of an even count), its note every round's rate. */
static int stream_row(bench_run_t *run, size_t i, size_t rounds, double dur)
{
    const bench_mech_t *m = stream_mech(i);
    const char *variant = streams[i].bulk ? BENCH_VARIANT_BULK_64 : m->pop_count ? COUNTER_VARIANT : BENCH_VARIANT_PER_ITEM;
    double rates[TP_ROUNDS_MAX];
    size_t n = 0;
    uint64_t items = 0, sent = 0;
    for (size_t r = 0; r < rounds; r++)
        if (tp[i][r].measured) {
            rates[n++] = tp[i][r].rate;
            items += tp[i][r].items;
            sent += tp[i][r].sent;
        }
    if (n == 0) {
        if (tp[i][0].sent || tp[i][0].window_s > 0)
            bench_note(run, "%s %s: no throughput row: the consumer ran through none of its %zu windows of %.0f ms "
                       "(another program held its core)", m->name, variant, rounds, dur * 1e3);
        return 0;
    }
    char each[96] = "";
    for (size_t r = 0, used = 0; r < rounds && used < sizeof each; r++) {
        char one[24] = "-";  /* a window the consumer did not run through */
        if (tp[i][r].measured)
            snprintf(one, sizeof one, "%.1f", tp[i][r].rate * 1e-6);
        used += (size_t)snprintf(each + used, sizeof each - used, "%s%s", r ? ", " : "", one);
    }
    qsort(rates, n, sizeof rates[0], by_rate);
    bench_result_t *row = bench_add_value(run, m->name, variant, BENCH_METRIC_THROUGHPUT, "items/s", rates[(n - 1) / 2]);
    if (row)
        bench_row_note(run, row, "%s%zu window%s of %.0f ms (M items/s: %s); %llu items counted, %llu sent = received",
                       n > 1 ? "median of " : "", n, n > 1 ? "s" : "", dur * 1e3, each, (unsigned long long)items,
                       (unsigned long long)sent);
    return row ? 0 : -1;
}

/* ---------------------------------------------------------- call-cost */

typedef struct {
    const bench_mech_t *m;
    void *obj;
    size_t batches, warm;
    bench_samples_t *out;
    int rc;
} cc_state_t;

static void cc_task(void *arg)
{
    cc_state_t *st = arg;
    uint32_t seq = 0;
    for (size_t b = 0; b < st->warm + st->batches; b++) {
        int64_t t0 = bench_now_ns();
        int rc = st->m->pairs(st->obj, seq, PAIRS);
        int64_t t1 = bench_now_ns();
        if (rc != 0) {
            st->rc = -1;
            return;
        }
        seq += PAIRS;
        if (b >= st->warm)
            bench_samples_push(st->out, llround((double)(t1 - t0) / PAIRS));
    }
}

/* Time m's pairs on obj in a task on core 1: s gets one figure per batch.
 * 0, or -1 after bench_fail(). */
static int time_pairs(bench_run_t *run, const bench_mech_t *m, void *obj, size_t batches, bench_samples_t *s)
{
    s->n = 0;
    cc_state_t st = {.m = m, .obj = obj, .batches = batches, .warm = batches / 10 + 2, .out = s};
    rtipc_task_t *t;
    rtipc_task_config_t cfg = {.name = "peers-calls", .priority = 10, .core = bench_cpu(run, 1),
                               .entry = cc_task, .arg = &st};
    int r = rtipc_task_create(&cfg, &t);
    if (r == 0)
        rtipc_task_join(t);
    if (r != 0)
        return bench_fail(run, "%s call-cost: task creation: %s", m->name, rtipc_strerror(r));
    if (st.rc != 0)
        return bench_fail(run, "%s call-cost: a send or receive failed, or returned a wrong item", m->name);
    return 0;
}

/* The floor of an object that takes a lock on every call: two uncontended
 * lock + unlock pairs per send + receive are four compare-and-swaps (what
 * FUTEX_LOCK_PI's fast path is, in and out), here on a word of the task's
 * own, nothing else. */
static int cas_pairs(void *obj, uint32_t seq, int n)
{
    _Atomic uint32_t *word = obj;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 4; k++) {
            uint32_t expected = (k & 1) ? seq : 0;
            if (!atomic_compare_exchange_strong(word, &expected, (k & 1) ? 0 : seq))
                return -1;
        }
    }
    return 0;
}

static const bench_mech_t cas_floor = {.name = BENCH_MECH_CAS_FLOOR, .pairs = cas_pairs};

/* m's call-cost row, its pairs timed on an object of its own: 0 (also when
 * m is not built here: make() records it missing), or -1 after bench_fail(). */
static int cost_of(bench_run_t *run, const bench_mech_t *m, size_t batches, bench_samples_t *s)
{
    void *obj;
    int made = make(run, m, &obj);
    if (made != 0)
        return made == 1 ? 0 : -1;
    int rc = time_pairs(run, m, obj, batches, s);
    m->destroy(obj);
    if (rc == 0 && !bench_add_dist(run, m->name, BENCH_VARIANT_SAME_THREAD, BENCH_METRIC_CALL_COST, s))
        rc = -1;
    return rc;
}

static int call_cost(bench_run_t *run, double p0, double p1)
{
    size_t batches = bench_sample_count(run, 200, 40);
    bench_samples_t s;
    if (bench_samples_init(&s, batches) != 0)
        return bench_fail(run, "out of memory");
    int rc = 0;
    for (size_t i = 0; i < N_MEASURED && rc == 0; i++) {
        rc = cost_of(run, mech(i), batches, &s);
        bench_progress(run, p0 + (p1 - p0) * (double)(i + 1) / N_MEASURED);
    }
    _Atomic uint32_t word = 0;
    if (rc == 0)
        rc = time_pairs(run, &cas_floor, (void *)&word, batches, &s);
    if (rc == 0 && !bench_add_dist(run, cas_floor.name, BENCH_VARIANT_SAME_THREAD, BENCH_METRIC_CALL_COST, &s))
        rc = -1;
    if (rc == 0)
        rc = cost_of(run, &bench_spsc_fence_floor, batches, &s);
    bench_samples_free(&s);
    return rc;
}

/* ------------------------------------------- the asymmetric fence's floor */

/* What a park of rtipc-spsc pays on this machine where its fence is the
 * asymmetric one: one
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), timed alone on core 1 while
 * the other threads of the process sleep ("peer-idle") and while a task
 * spins on core 0 ("peer-running": the kernel must interrupt that core). */
typedef struct {
    atomic_bool stop;
    atomic_bool spinning;
} barrier_peer_t;

static void barrier_spinner(void *arg)
{
    barrier_peer_t *p = arg;
    atomic_store_explicit(&p->spinning, true, memory_order_relaxed);
    while (!atomic_load_explicit(&p->stop, memory_order_relaxed))
        ;
}

typedef struct {
    bench_samples_t *out;
    size_t n;
    int rc;
} barrier_timer_t;

static void barrier_times(void *arg)
{
    barrier_timer_t *t = arg;
    for (size_t i = 0; i < t->n + 8 && t->rc == 0; i++) {
        int64_t t0 = bench_now_ns();
        long r = syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
        int64_t t1 = bench_now_ns();
        if (r != 0)
            t->rc = -1;
        else if (i >= 8) /* the first few warm the path */
            bench_samples_push(t->out, t1 - t0);
    }
}

static int barrier_floor(bench_run_t *run)
{
    if (rtipc_spsc_fence() != RTIPC_SPSC_FENCE_ASYMMETRIC) {
        bench_note(run, "spsc fence: no process-wide barrier here (membarrier PRIVATE_EXPEDITED refused, or a "
                   "ThreadSanitizer build): rtipc-spsc has the symmetric fence, as rtipc-spsc-sym, a full fence "
                   "per push and pop; no barrier to measure");
        return 0;
    }
    bench_note(run, "spsc fence: rtipc-spsc has the library's default here, the asymmetric fence (membarrier "
               "PRIVATE_EXPEDITED registered: a compiler barrier per push and pop, the barrier per park); "
               "rtipc-spsc-sym the symmetric one (a full fence per push and pop)");
    size_t n = bench_sample_count(run, 400, 50);
    bench_samples_t s;
    if (bench_samples_init(&s, n) != 0)
        return bench_fail(run, "out of memory");
    int rc = 0;
    for (int running = 0; running < 2 && rc == 0; running++) {
        barrier_peer_t peer = {false, false};
        rtipc_task_t *spinner = NULL;
        if (running) {
            rtipc_task_config_t pc = {.name = "peers-spinner", .priority = 8, .core = bench_cpu(run, 0),
                                      .entry = barrier_spinner, .arg = &peer};
            int r = rtipc_task_create(&pc, &spinner);
            if (r != 0) {
                rc = bench_fail(run, "membarrier floor: task creation: %s", rtipc_strerror(r));
                break;
            }
            while (!atomic_load_explicit(&peer.spinning, memory_order_relaxed))
                rtipc_task_yield();
        }
        s.n = 0;
        barrier_timer_t bt = {.out = &s, .n = n, .rc = 0};
        rtipc_task_t *t;
        rtipc_task_config_t cfg = {.name = "peers-barrier", .priority = 10, .core = bench_cpu(run, 1),
                                   .entry = barrier_times, .arg = &bt};
        int r = rtipc_task_create(&cfg, &t);
        if (r == 0)
            rtipc_task_join(t);
        atomic_store_explicit(&peer.stop, true, memory_order_relaxed);
        if (spinner)
            rtipc_task_join(spinner);
        if (r != 0)
            rc = bench_fail(run, "membarrier floor: task creation: %s", rtipc_strerror(r));
        else if (bt.rc != 0)
            rc = bench_fail(run, "membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed after registration");
        else if (!bench_add_dist(run, BENCH_MECH_RTIPC_SPSC, running ? "park-barrier,peer-running"
                                                                          : "park-barrier,peer-idle",
                                 BENCH_METRIC_CALL_COST, &s))
            rc = -1;
    }
    bench_samples_free(&s);
    return rc;
}

/* ---------------------------------------------------------- the run */

static int run_peers(bench_run_t *run)
{
    granted = 0;
    granted_by = NULL;
    for (size_t i = 0; i < N_MEASURED; i++)
        if (!mech(i))
            return bench_fail(run, "%s: no such mechanism in the table", measured[i]);
    bench_watchdog_t *wd = bench_watchdog_start(run, KICK_AFTER_NS);
    if (!wd)
        return -1;
    int rc = 0;
    bench_progress(run, 0.0);

    /* Sleeping: rtipc receivers park at once (global budget 0); restored
     * to the library's default for the active rows. */
    int64_t default_spin = rtipc_spin_default();
    rtipc_spin_set_default(0);
    hcase_t sleep_cases[N_MEASURED];
    size_t ns = 0;
    for (size_t i = 0; i < N_MEASURED; i++)
        if (mech(i)->traits & BENCH_MECH_PARKS)
            sleep_cases[ns++] = (hcase_t){.m = mech(i), .variant = BENCH_VARIANT_GAP_50_100US};
    rc = handoff_phase(run, wd, sleep_cases, ns, BENCH_METRIC_HANDOFF_SLEEPING, 50000, 100000, 4000, 300,
                       bench_quick(run) ? 1 : 4, 0.0, 0.45);

    rtipc_spin_set_default(default_spin);
    hcase_t active_cases[N_MEASURED + 1];
    size_t na = 0;
    for (size_t i = 0; i < N_MEASURED && rc == 0; i++)
        if (mech(i)->traits & BENCH_MECH_SPINS)
            active_cases[na++] = (hcase_t){.m = mech(i), .variant = BENCH_VARIANT_GAP_1_3US};
    if (rc == 0) {
        const bench_mech_t *spsc = bench_mech_find(BENCH_MECH_RTIPC_SPSC);
        active_cases[na++] = (hcase_t){.m = spsc, .variant = ACTIVE_TRYPOP_VARIANT, .recv = spsc->recv_spin};
        rc = handoff_phase(run, wd, active_cases, na, BENCH_METRIC_HANDOFF_ACTIVE, 1000, 3000, 6000, 1000,
                           bench_quick(run) ? 1 : 2, 0.45, 0.55);
    }

    /* Throughput in rounds, each stream once per round (the order reversed
     * every other round), a window of dur each: one window of a pair of
     * tasks settles into a regime (the ring mostly full, or mostly empty)
     * that moves its rate several-fold from one run to the next, so the row
     * is the median of the rounds: seven, so that one or two windows in an
     * odd regime do not move it. Rest as long as a window (at most 0.15 s):
     * both cores busy about half the time stay far from the kernel's
     * real-time budget. */
    size_t rounds = bench_quick(run) ? 1 : TP_ROUNDS_MAX;
    double dur = bench_duration(run, 0.4, 0.04) / (double)rounds;
    double rest = bench_quick(run) ? 0.01 : dur < 0.15 ? dur : 0.15;
    if (dur > 0.7)
        bench_note(run, "throughput phases of %.2f s keep both cores busy past the kernel's real-time budget "
                   "(95%% of a second): they may include throttling stalls", dur);
    memset(tp, 0, sizeof tp);
    for (size_t r = 0; r < rounds && rc == 0; r++)
        for (size_t k = 0; k < N_STREAMS && rc == 0; k++) {
            rc = stream(run, r % 2 ? N_STREAMS - 1 - k : k, r, dur, rest);
            bench_progress(run, 0.55 + 0.3 * (double)(r * N_STREAMS + k + 1) / (double)(rounds * N_STREAMS));
        }
    for (size_t i = 0; i < N_STREAMS && rc == 0; i++)
        rc = stream_row(run, i, rounds, dur);

    if (rc == 0)
        rc = call_cost(run, 0.85, 0.97);
    if (rc == 0)
        rc = barrier_floor(run);
    bench_watchdog_stop(wd);
    if (rc != 0 || bench_failed(run))
        return -1;

    bench_note(run, "no row: handoff-sleeping for spin, ck-ring, boost-spsc, atomic-queue-spsc, moodycamel-rwq, "
               "urcu-wfcq (they only spin); handoff-active for the kernel-only peers (they only park); bulk=64 for "
               "the libraries without an array call");
    bench_note(run, "rtipc spin budget: build default RTIPC_SPIN_NS_DEFAULT = %lld ns (no run-time setter in "
               "this tree)", (long long)RTIPC_SPIN_NS_DEFAULT);
    if (granted)
        bench_note(run, "%s: the kernel refused depth %d; depth %zu used", granted_by, DEPTH, granted);
    /* The figure of the control-block target (harness/perf_targets.c). */
    bench_add_value(run, BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_CONTROL_BLOCK, BENCH_METRIC_BYTES, "B",
                    (double)rtipc_queue_footprint_for(0, 0));
    bench_progress(run, 1.0);
    return 0;
}

const bench_experiment_t exp_peers = {
    .id = BENCH_EXP_PEERS,
    .summary = EXP_PEERS_SUMMARY,
    .requires = EXP_PEERS_REQUIRES,
    .definitions =
        "Mechanisms (4-byte items carrying a sequence number, checked on every receipt; bounded\n"
        "  queues hold 1024 items):\n"
        "  spin: a 32-bit word on its own cache line; the sender stores seq+1, the receiver polls it\n"
        "    (pause between polls): the physical floor of a cross-core handoff.\n"
        "  futex: the same word; the sender stores then calls FUTEX_WAKE every time, the receiver\n"
        "    calls FUTEX_WAIT while the word is unchanged.\n"
        "  eventfd: write(1)/read; the sequence number goes through a shared word stored before the\n"
        "    write and loaded after the read (a read count other than 1 fails).\n"
        "  pipe: 4-byte write/read. posix-mq: mq_send/mq_receive of 4 bytes, depth 1024 (10 if the\n"
        "    kernel refuses). posix-sem: sem_post/sem_wait, the number in a shared word.\n"
        "  mutex-condvar: C ring of 1024 items under a pthread mutex, condvars for not-empty and\n"
        "    not-full, signalled after unlock. mutex-condvar-pi: the same ring, its mutex\n"
        "    PTHREAD_PRIO_INHERIT (FUTEX_LOCK_PI: the kind of lock rtipc's objects take on Linux).\n"
        "  std-queue-mutex: std::queue<uint32_t> + std::mutex + two std::condition_variable,\n"
        "    bounded to 1024, notify_one after unlock.\n"
        "  ck-ring: Concurrency Kit ck_ring_enqueue_spsc/dequeue_spsc, 1024 pointer slots (1023\n"
        "    usable) carrying the number as the pointer value. boost-spsc:\n"
        "    boost::lockfree::spsc_queue<uint32_t>(1024), push/pop.\n"
        "  atomic-queue-spsc: max0x7ba's atomic_queue::AtomicQueueB2<uint32_t, std::allocator,\n"
        "    MAXIMIZE_THROUGHPUT=true, TOTAL_ORDER=false, SPSC=true>, try_push/try_pop (4096 slots,\n"
        "    its least size). moodycamel-rwq: moodycamel::ReaderWriterQueue<uint32_t>(1024),\n"
        "    try_enqueue/try_dequeue (never allocating). moodycamel-blocking-rwq: its\n"
        "    BlockingReaderWriterQueue, try_enqueue / wait_dequeue_timed (the library's semaphore:\n"
        "    1024 spins, then sem_timedwait; 100 ms slices so that the watchdog can release it).\n"
        "  moodycamel-blocking-cq: moodycamel::BlockingConcurrentQueue<uint32_t> (MPMC) made for\n"
        "    1024 items + a block, one ProducerToken and one ConsumerToken: try_enqueue /\n"
        "    wait_dequeue (semaphore: up to 10000 spins, then sem_wait); not built under TSan.\n"
        "  urcu-wfcq: userspace RCU's wait-free concurrent queue, cds_wfcq_enqueue /\n"
        "    __cds_wfcq_dequeue_nonblocking polled (one dequeuer: no dequeue lock), calls into\n"
        "    liburcu-common; its nodes come in order from a pool of 1024, reused once the consumer's\n"
        "    count says they were dequeued (which bounds it at 1024); not built under TSan.\n"
        "  rtipc-spsc-sym: the same ring as rtipc-spsc created with RTIPC_SPSC_FENCE_SYMMETRIC\n"
        "    (spsc.h): a full fence per push and pop. rtipc-spsc has the library's default: the\n"
        "    asymmetric fence where membarrier(PRIVATE_EXPEDITED) registers (a compiler barrier per\n"
        "    push and pop, the barrier per park; a note says which). Its call-cost rows\n"
        "    park-barrier,peer-idle and park-barrier,peer-running time that one barrier (the run's\n"
        "    clock before and after the system call, on core 1) with the other threads asleep and\n"
        "    with a task spinning on core 0: what each park of the ring adds.\n"
        "  rtipc-queue: rtipc_queue_send/receive (RTIPC_FOREVER), depth 1024. rtipc-sem: binary\n"
        "    semaphore give/take, the number in a shared word. rtipc-notify: rtipc_notify_give to\n"
        "    the receiver's slot 0 / rtipc_notify_take(clear) (a count other than 1 fails).\n"
        "    rtipc-spsc: rtipc_spsc_try_push / rtipc_spsc_pop (RTIPC_FOREVER: 64 polls plus the\n"
        "    spin budget, then park). rtipc-mailbox: rtipc_mailbox_write / rtipc_mailbox_wait_newer\n"
        "    (the version must advance by exactly 1).\n"
        "handoff-sleeping (gap=50-100us): one-way latency, the handoff driver in closed loop: sender\n"
        "  task on core 1 (priority 10), receiver task on core 0 (priority 12). From the sender's\n"
        "  timestamp just before its send call to the receiver's timestamp just after its receive\n"
        "  returned. After each acknowledged message the sender waits a random 50-100 us, so the\n"
        "  receiver is parked in the kernel when the send starts. rtipc objects run with a spin\n"
        "  budget of 0 (rtipc_spin_set_default(0): they park at once). 4000 samples per\n"
        "  mechanism in 4 interleaved rounds (quick: 300, 1 round), a fresh object per round.\n"
        "  moodycamel-blocking-rwq and -cq wait in their blocking dequeue. Not for spin, ck-ring,\n"
        "  boost-spsc, atomic-queue-spsc, moodycamel-rwq, urcu-wfcq (they cannot sleep).\n"
        "handoff-active (gap=1-3us): the same with a 1-3 us gap, the receiver still waiting actively:\n"
        "  spin, ck-ring, boost-spsc, atomic-queue-spsc, moodycamel-rwq and urcu-wfcq poll their\n"
        "  try-pop; rtipc objects use their blocking receive with the library's default spin budget\n"
        "  (with a budget of 0 they park at once, and this row shows it); moodycamel-blocking-rwq\n"
        "  and -cq their blocking dequeue, which spins as its semaphore does, then parks. rtipc-spsc\n"
        "  also as gap=1-3us,spin-on-try-pop (polling rtipc_spsc_try_pop).\n"
        "  6000 samples in 2 rounds (quick 1000). Not for the kernel-only peers.\n"
        "throughput (items/s): producer task on core 1 (priority 10) pushes sequence numbers as fast\n"
        "  as the mechanism takes them, consumer task on core 0 (priority 12) takes them and checks\n"
        "  each. In 7 rounds (quick: 1), every stream once per round, the order reversed every other\n"
        "  round; a round's window is the duration (0.4 s; quick 0.04 s; --duration) over the\n"
        "  rounds, counted from the consumer's first clock read after a warm-up (20% of the window,\n"
        "  at least 10 ms) to its first read a window later, divided by the time between those two\n"
        "  reads (the consumer reads its clock every 64 items). The row is the median of the\n"
        "  rounds (the lower middle of an even count), its note every round's rate: one window\n"
        "  settles into a regime (ring mostly full or mostly empty) that moves it several-fold.\n"
        "  per-item: one push / pop call per item (blocking calls for the blocking C peers; the SPSC\n"
        "  rings and urcu-wfcq spin on try-push / try-pop; the moodycamel blocking queues' producer\n"
        "  spins on try_enqueue, their consumer waits in its blocking dequeue for one item, then\n"
        "  takes what is there with try_dequeue; the C++ loops run in C++, one C call per batch;\n"
        "  rtipc-queue in the same shape: send with RTIPC_NO_WAIT, receive RTIPC_FOREVER for one\n"
        "  item, then RTIPC_NO_WAIT). spsc-fence-floor: a ring of 1024 slots inlined in the\n"
        "  benchmark, no library call, whose push and pop each add what a symmetric parking\n"
        "  handshake needs (a full fence and a load of the peer's sleeping flag, never set): the\n"
        "  most any ring that parks its peer without a process-wide barrier moves here (in bulk:\n"
        "  one index store, fence and flag load per call of up to 64 items, copied with memcpy).\n"
        "  bulk=64: rtipc_spsc_push_bulk/pop_bulk, boost's push(array, n)/pop(array, n) and\n"
        "  moodycamel-blocking-cq's try_enqueue_bulk (all or none) / try_dequeue_bulk, up to 64\n"
        "  items per call (the other libraries have no array call). eventfd (counter): write(1)\n"
        "  per item, the reader takes the accumulated count. The pipe holds 64 KiB (kernel default).\n"
        "  sent == received is checked exactly after an end marker; phases rest a window apart (at\n"
        "  most 0.15 s). When the consumer's window spans less than half the duration (it did not\n"
        "  run: another program held its core), the phase gives no row and a note says so.\n"
        "call-cost: ns per uncontended send + receive pair on one task (core 1): 1000 pairs timed as\n"
        "  a whole, divided by 1000 and rounded to whole ns; 200 such batches (quick 40) after a few\n"
        "  warm-up batches. notify: give to the calling task itself + take; sem: give + take; spsc:\n"
        "  try_push + try_pop; mailbox: write + read; the lock-free libraries: try-push + try-pop\n"
        "  (moodycamel's blocking queues: try_enqueue + try_dequeue); others: their send + receive\n"
        "  (never waiting). cas-floor: four compare-and-swaps on a word of the task's own per pair,\n"
        "  nothing else: the two uncontended lock + unlock pairs of an object that locks per call.\n"
        "  spsc-fence-floor: its push + pop (two fences).\n"
        "target-ratio (x): the targets, each a ratio of two figures of this run (or of a figure and a\n"
        "  fixed limit); the note says the target and whether it holds: rtipc-queue, -sem, -notify,\n"
        "  -spsc handoff-sleeping p50 <= 1.10 x futex; rtipc-notify, -spsc, -mailbox, -queue, -sem\n"
        "  handoff-active p50 <= 2 x spin; rtipc-spsc handoff-active p50 <= moodycamel-blocking-rwq's;\n"
        "  rtipc-spsc throughput >= 1.2 x boost-spsc (bulk vs bulk and per-item vs per-item) and\n"
        "  per-item >= 1.2 x the best SPSC peer of the run (the largest per-item figure of\n"
        "  boost-spsc, ck-ring, atomic-queue-spsc, moodycamel-rwq present; the note names it);\n"
        "  rtipc-spsc per-item throughput >= 1.2 x moodycamel-blocking-rwq's and >= 0.9 x ck-ring's\n"
        "  (rtipc-spsc-sym is not targeted: spsc-fence-floor bounds any ring with its fence);\n"
        "  rtipc-queue per-item throughput >= moodycamel-blocking-cq's;\n"
        "  rtipc-queue call-cost p50 <= 1.15 x cas-floor (the floor of a call that takes a lock);\n"
        "  rtipc-notify call-cost p50 <= 25 ns (its note gives cas-floor's over 25 ns);\n"
        "  queue control block rtipc_queue_footprint_for(0,0) <= 64 B; notification slot <= 8 B\n"
        "  (documented size). The targets table is printed as notes.\n"
        "A receiver blocked in the kernel past a lost message is released by a watchdog thread\n"
        "(the run then fails); spinning waits give up after 2 s. Timestamp overhead included.\n"
        "With --vcd/--perfetto the two handoff metrics are traced (each row over its rounds);\n"
        "throughput and call-cost are not.",
    .run = run_peers,
};
