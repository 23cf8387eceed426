/* The throughput driver (throughput.h). */
#include "throughput.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtipc/error.h"
#include "rtipc/task.h"

#define RUN BENCH_THROUGHPUT_RUN
#define STALL_NS 2000000000LL  /* a side that sees nothing move this long gives up */

typedef struct {
    const throughput_ops_t *ops;
    int64_t warm_ns, dur_ns;
    /* Set by whichever side is ready last, before the release store of go
     * (the others read them after the acquire load that sees it set): the
     * clock starts once both tasks run, however long their creation took. */
    int64_t t_start, t_w0, t_w1, t_stop, deadline;
    _Atomic int ready;
    _Atomic int go;
    _Atomic int failed;
    char why[160];
    _Atomic int done;         /* tasks finished (release; acquire by the runner) */
    uint64_t sent;            /* producer's, read after the join */
    uint64_t received, n0, n1;/* consumer's, read after the join */
    int64_t t0, t1;
    bool have0, have1;
} tp_state_t;

static void tp_fail(tp_state_t *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tp_fail(tp_state_t *st, const char *fmt, ...)
{
    int expected = 0;
    if (atomic_compare_exchange_strong(&st->failed, &expected, 1)) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(st->why, sizeof st->why, fmt, ap);
        va_end(ap);
    }
}

/* Both sides call it; the second one fixes the phase's times. */
static void tp_ready(tp_state_t *st)
{
    if (atomic_fetch_add(&st->ready, 1) == 1) {
        st->t_start = bench_now_ns() + 1000000;
        st->t_w0 = st->t_start + st->warm_ns;
        st->t_w1 = st->t_w0 + st->dur_ns;
        st->t_stop = st->t_w1 + 1000000;
        st->deadline = st->t_stop + STALL_NS;
        atomic_store_explicit(&st->go, 1, memory_order_release);
    }
}

static void wait_start(tp_state_t *st)
{
    tp_ready(st);
    while (!atomic_load_explicit(&st->go, memory_order_acquire))
        bench_sleep_ns(50000);
    int64_t now = bench_now_ns();
    if (st->t_start - now > 300000)
        bench_sleep_ns(st->t_start - now - 200000);
    bench_spin_until(st->t_start);
}

/* Core 1: push sequence numbers as fast as the mechanism takes them until
 * t_stop, then the end marker. */
static void tp_producer(void *arg)
{
    tp_state_t *st = arg;
    const throughput_ops_t *m = st->ops;
    uint32_t items[RUN];
    uint32_t seq = 0;
    int off = 0, since = 0;
    unsigned idle = 0;
    for (int k = 0; k < RUN; k++)
        items[k] = (uint32_t)k;
    wait_start(st);
    for (;;) {
        if (since >= RUN) {
            since = 0;
            if (bench_now_ns() >= st->t_stop || atomic_load_explicit(&st->failed, memory_order_relaxed))
                break;
        }
        int k = m->push(m->obj, items + off, RUN - off);
        if (k < 0) {
            tp_fail(st, "push of item %lu failed with %d", (unsigned long)(seq + (uint32_t)off), k);
            break;
        }
        if (k == 0) {
            if (++idle >= 256) {
                idle = 0;
                since = RUN;  /* full for a while: look at the clock */
            }
            rtipc_cpu_relax();
            continue;
        }
        off += k;
        since += k;
        if (off == RUN) {
            seq += RUN;
            if (seq >= BENCH_THROUGHPUT_END - 2 * RUN)
                break;
            for (int j = 0; j < RUN; j++)
                items[j] = seq + (uint32_t)j;
            off = 0;
        }
    }
    st->sent = (uint64_t)seq + (uint64_t)off;
    uint32_t marker = BENCH_THROUGHPUT_END;
    for (unsigned i = 1;; i++) {
        int k = m->push_marker ? m->push_marker(m->obj) : m->push(m->obj, &marker, 1);
        if (k == 1)
            break;
        if (k < 0) {
            tp_fail(st, "push of the end marker failed with %d", k);
            break;
        }
        rtipc_cpu_relax();
        if ((i & 1023) == 0 && bench_now_ns() > st->deadline) {
            tp_fail(st, "still full %lld s after the end (consumer gone?)", STALL_NS / 1000000000);
            break;
        }
    }
    atomic_fetch_add_explicit(&st->done, 1, memory_order_release);
}

static void tp_window(tp_state_t *st, int64_t now)
{
    if (!st->have0 && now >= st->t_w0) {
        st->n0 = st->received;
        st->t0 = now;
        st->have0 = true;
    } else if (st->have0 && !st->have1 && now >= st->t_w1) {
        st->n1 = st->received;
        st->t1 = now;
        st->have1 = true;
    }
}

/* Core 0: take everything, checking every sequence number, until the end
 * marker; counts items in the window [t_w0, t_w1] from its own clock reads.
 * A wrong number fails the run, but the consumer drains on to the marker so
 * that the producer is never left blocked. */
static void tp_consumer(void *arg)
{
    tp_state_t *st = arg;
    const throughput_ops_t *m = st->ops;
    uint32_t items[RUN];
    uint32_t expect = 0;
    int since = 0;
    unsigned idle = 0;
    bool end = false;
    wait_start(st);
    while (!end) {
        long k;
        if (m->pop_count)
            k = m->pop_count(m->obj, &end);
        else
            k = m->pop(m->obj, items, RUN);
        if (k < 0) {
            tp_fail(st, "receive after item %llu failed with %ld", (unsigned long long)st->received, k);
            break;
        }
        if (k == 0 && !end) {
            if (++idle >= 256) {
                idle = 0;
                int64_t now = bench_now_ns();
                tp_window(st, now);
                if (now > st->deadline) {
                    tp_fail(st, "nothing received for %lld s after item %llu", STALL_NS / 1000000000,
                            (unsigned long long)st->received);
                    break;
                }
            }
            rtipc_cpu_relax();
            continue;
        }
        if (m->pop_count) {
            st->received += (uint64_t)k;
        } else {
            for (long j = 0; j < k; j++) {
                uint32_t v = items[j];
                if (v == BENCH_THROUGHPUT_END) {
                    end = true;
                    if (j != k - 1)
                        tp_fail(st, "%ld items after the end marker", k - 1 - j);
                    break;
                }
                if (v != expect)
                    tp_fail(st, "item %lu arrived where %lu was due (lost, duplicated or reordered)", (unsigned long)v,
                            (unsigned long)expect);
                expect++;
                st->received++;
            }
        }
        since += (int)k;
        if (since >= RUN || end) {
            since = 0;
            tp_window(st, bench_now_ns());
        }
    }
    if (st->have0 && !st->have1) {
        /* The stream ended before the window did (a failure or a slow
         * mechanism): the window ends at the marker. */
        st->n1 = st->received;
        st->t1 = bench_now_ns();
        st->have1 = true;
    }
    atomic_fetch_add_explicit(&st->done, 1, memory_order_release);
}


int throughput_run(bench_run_t *run, const throughput_ops_t *ops, const throughput_cfg_t *cfg,
                   throughput_result_t *out)
{
    double dur = cfg->duration_s;
    memset(out, 0, sizeof *out);
    tp_state_t *st = calloc(1, sizeof *st);
    if (!st)
        return bench_fail(run, "out of memory");
    /* Core 0 and core 1 rest between phases: a phase keeps both busy, and
     * back-to-back phases would run into the kernel's real-time throttling
     * (95% of each second). */
    bench_sleep_ns((int64_t)(cfg->rest_s * 1e9));
    int64_t warm = (int64_t)(dur * 0.2e9);
    if (warm < 10000000)
        warm = 10000000;
    st->ops = ops;
    st->warm_ns = warm;
    st->dur_ns = (int64_t)(dur * 1e9);
    rtipc_task_t *tc = NULL, *tpr = NULL;
    rtipc_task_config_t cc = {.name = "tp-consumer", .priority = 12, .core = bench_cpu(run, 0),
                              .entry = tp_consumer, .arg = st};
    rtipc_task_config_t pc = {.name = "tp-producer", .priority = 10, .core = bench_cpu(run, 1),
                              .entry = tp_producer, .arg = st};
    int started = 0;
    int rc = rtipc_task_create(&cc, &tc);
    if (rc == 0) {
        started = 1;
        rc = rtipc_task_create(&pc, &tpr);
        if (rc == 0)
            started = 2;
    }
    if (rc != 0) {
        tp_fail(st, "task creation failed: %s", rtipc_strerror(rc));
        if (started == 1) {
            /* The consumer waits for a partner and then for a marker: this
             * thread stands in for the producer that does not exist. */
            tp_ready(st);
            uint32_t marker = BENCH_THROUGHPUT_END;
            int k = 0;
            while (k == 0 && atomic_load_explicit(&st->done, memory_order_acquire) < 1) {
                k = ops->push_marker ? ops->push_marker(ops->obj) : ops->push(ops->obj, &marker, 1);
                if (k == 0)
                    bench_sleep_ns(1000000);
            }
        }
    }
    /* Watch: a blocked side that the other will never release is kicked
     * (bounded: spinning sides give up by themselves at the deadline). */
    int64_t last_kick = 0;
    while (atomic_load_explicit(&st->done, memory_order_acquire) < started) {
        bench_sleep_ns(5000000);
        int64_t now = bench_now_ns();
        /* Acquire: pairs with tp_ready's release; st->deadline is set. */
        if (!atomic_load_explicit(&st->go, memory_order_acquire))
            continue;
        if (now > st->deadline + 1000000000 && now - last_kick > 100000000) {
            tp_fail(st, "stalled: no end %lld s after the phase", (STALL_NS + 1000000000) / 1000000000);
            if (ops->kick)
                ops->kick(ops->obj);
            last_kick = now;
        }
    }
    if (tc)
        rtipc_task_join(tc);
    if (tpr)
        rtipc_task_join(tpr);
    int result = 0;
    out->sent = st->sent;
    out->received = st->received;
    if (atomic_load(&st->failed)) {
        result = bench_fail(run, "%s", st->why);
    } else if (st->sent != st->received) {
        result = bench_fail(run, "sent %llu items, received %llu", (unsigned long long)st->sent,
                            (unsigned long long)st->received);
    } else if (st->have0) {
        out->items = st->n1 - st->n0;
        out->window_s = (double)(st->t1 - st->t0) / 1e9;
        /* Not a fault of the mechanism when short (every item arrived, in
         * order): the consumer did not run through the window, e.g. under
         * SCHED_OTHER while other programs held its core. */
        out->measured = st->t1 - st->t0 >= (int64_t)(dur * 0.5e9);
        if (out->measured)
            out->rate = (double)out->items * 1e9 / (double)(st->t1 - st->t0);
    }
    free(st);
    return result;
}
