/* isr-handoff: an interrupt handler on core 0 sends to a queue read by a
 * higher-priority task on core 0, with and without yield-from-interrupt.
 * Core 0 also runs a low-priority busy task (the interrupted task). The
 * latency phases fire one interrupt at a time; the throughput phases fire a
 * periodic interrupt timer and count what the consumer gets per second.
 *
 * On one core (FreeRTOS's POSIX simulator, a one-CPU host) the driver shares
 * core 0: it is the task the interrupt preempts, it makes the kernel-call
 * variant's rtipc calls itself, and the throughput phases' interrupts are
 * raised by the busy task with rtipc_irq_trigger every timer period (a
 * port whose interrupt timers run from its tick cannot fire faster than the
 * tick, and the claim is about interrupts that arrive faster). */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments.h"
#include "needs_tasks.h"
#include "../mechanisms/freertos_isr_notify.h"
#include "../trace/trace.h"

#define CONSUMER_PRIO 12
#define TRIGGER_PRIO 10  /* the task on core 1 that raises the interrupt */
#define BUSY_PRIO 2      /* the interrupted task on core 0 */
#define KERNEL_CALL_NS 50000   /* the busy task's rtipc call period (kernel-call) */
/* Throughput: periodic interrupt rate. 10x the default tick, and a rate the
 * interrupt thread sustains here with room to spare: near 50 kHz its own
 * wake-ups saturate core 0 and starve the consumer, which measures the host,
 * not the handoff. */
#define TIMER_HZ 10000.0
#define LAT_DEPTH 100
/* Core 0 is kept busy by real-time threads; the kernel stops every real-time
 * thread of a core for the rest of a second once they used 95% of it
 * (sched_rt_runtime_us), the interrupt thread included. The busy task rests
 * REST_NS after each SPIN_MAX_NS of spinning, only while no message is in
 * flight, so that artefact never lands in a measurement. */
#define SPIN_MAX_NS 500000000
#define REST_NS 50000000

/* The queue a phase measures: rtipc's, or on FreeRTOS the kernel's own
 * (freertos_isr_notify.h), whose rows carry the same variants. */
typedef struct {
    const char *mech;  /* its rows' mechanism */
    int (*create)(unsigned depth, void **q);
    void (*destroy)(void *q);
    /* In the handler: the send, then (yield) the yield request with the
     * send's woken flag. */
    int (*send_from_isr)(void *q, uint32_t seq, bool yield, bool *woken);
    int (*receive)(void *q, uint32_t *seq, int64_t timeout_ns);  /* 0: no wait */
    int (*waiting)(void *q);
    void (*task_call)(void);  /* kernel-call: the interrupted task's call */
} isr_queue_t;

static int rq_create(unsigned depth, void **q)
{
    rtipc_queue_t *h = NULL;
    int rc = rtipc_queue_create(depth, sizeof(uint32_t), &h);
    *q = h;
    return rc;
}

static void rq_destroy(void *q) { rtipc_queue_delete(q); }

static int rq_send_from_isr(void *q, uint32_t seq, bool yield, bool *woken)
{
    int rc = rtipc_queue_send_from_isr(q, &seq, woken);
    if (yield)
        rtipc_irq_yield(*woken);
    return rc;
}

static int rq_receive(void *q, uint32_t *seq, int64_t timeout_ns)
{
    return rtipc_queue_receive(q, seq, rtipc_ns(timeout_ns));
}

static int rq_waiting(void *q) { return (int)rtipc_queue_messages_waiting(q); }

static void rq_task_call(void) { rtipc_task_yield(); }

static const isr_queue_t rtipc_q = {
    .mech = BENCH_MECH_RTIPC_QUEUE, .create = rq_create, .destroy = rq_destroy,
    .send_from_isr = rq_send_from_isr, .receive = rq_receive, .waiting = rq_waiting,
    .task_call = rq_task_call,
};

/* The kernel's queue: xQueueSendFromISR, portYIELD_FROM_ISR, xQueueReceive,
 * taskYIELD. False where rtipc does not run on FreeRTOS. */
static bool kernel_q(isr_queue_t *q)
{
    const bench_fr_isr_notify_t *k = bench_fr_isr_notify;
    if (!k)
        return false;
    *q = (isr_queue_t){.mech = BENCH_MECH_KERNEL_QUEUE, .create = k->queue_create, .destroy = k->queue_delete,
                       .send_from_isr = k->queue_send_from_isr, .receive = k->queue_receive,
                       .waiting = k->queue_waiting, .task_call = k->task_yield};
    return true;
}

/* What a note says a phase of @p q was: rtipc's variant as it always was,
 * the kernel's with its mechanism. */
static const char *label(char *buf, size_t n, const isr_queue_t *q, const char *variant)
{
    if (q == &rtipc_q)
        return variant;
    snprintf(buf, n, "%s/%s", q->mech, variant);
    return buf;
}

/* ---- shared by the phases ----------------------------------------------- */

/* The interrupted task: spins on core 0 at a low priority. It never calls
 * rtipc, so under the yield contract nothing it does releases a deferred
 * wake-up; in the kernel-call variant it calls rtipc_task_yield every
 * KERNEL_CALL_NS, which does. */
typedef struct {
    _Atomic int stop;       /* set by the driver task when its phase ends */
    _Atomic int running;    /* the busy task has started spinning */
    _Atomic int rest_req;   /* driver -> busy: rests requested so far */
    _Atomic int rested;     /* busy -> driver: rests done (spinning again) */
    bool kernel_calls;
    void (*call)(void);     /* the kernel call (rtipc_task_yield, or taskYIELD) */
    rtipc_irq_t *source;    /* one core: raise this interrupt ... */
    int64_t source_period;  /* ... every this many ns (0: none) */
    long calls;             /* rtipc_task_yield calls made; read after the join */
    long stalls;            /* times the busy task lost core 0 for > STALL_NS */
    int64_t stall_max, stall_sum;
} busy_t;

/* Our tasks and handlers hold core 0 for microseconds at a time; a gap this
 * long in the busy task's loop means the core was saturated or taken
 * (another program, the kernel's throttling, the hypervisor). */
#define STALL_NS 2000000

static void busy_entry(void *arg)
{
    busy_t *b = arg;
    atomic_store_explicit(&b->running, 1, memory_order_release);
    int64_t next = bench_now_ns() + KERNEL_CALL_NS;
    int rests = 0;
    int64_t prev = bench_now_ns();
    int64_t next_irq = prev + b->source_period;
    while (!atomic_load_explicit(&b->stop, memory_order_relaxed)) {
        int64_t now = bench_now_ns();
        if (b->source_period && now >= next_irq) {
            (void)bench_target_irq_trigger(b->source); /* merges like a pending bit when late */
            next_irq += b->source_period;
            if (next_irq < now)
                next_irq = now + b->source_period;
        }
        if (now - prev > STALL_NS) {
            b->stalls++;
            b->stall_sum += now - prev;
            if (now - prev > b->stall_max)
                b->stall_max = now - prev;
        }
        prev = now;
        int req = atomic_load_explicit(&b->rest_req, memory_order_relaxed);
        if (req != rests) {
            bench_sleep_ns(REST_NS);  /* a system call, not an rtipc call */
            rests = req;
            prev = bench_now_ns();
            next = prev + KERNEL_CALL_NS;
            atomic_store_explicit(&b->rested, rests, memory_order_release);
        }
        if (!b->kernel_calls)
            continue;
        if (now >= next) {
            b->call();
            b->calls++;
            next += KERNEL_CALL_NS;
            if (next < now)
                next = now + KERNEL_CALL_NS;
        }
    }
}

/* A phase's note: the experiment's for rtipc's rows, as always; the row's
 * own (@p row) for the kernel's, so that the experiment's notes, which have
 * a bounded size, keep room for the tick-rate cap at the end. */
static void phase_note(bench_run_t *run, bench_result_t *row, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void phase_note(bench_run_t *run, bench_result_t *row, const char *fmt, ...)
{
    char buf[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (row)
        bench_row_note(run, row, "%s", buf);
    else
        bench_note(run, "%s", buf);
}

static void note_stalls(bench_run_t *run, bench_result_t *row, const char *variant, const busy_t *b)
{
    if (b->stalls)
        phase_note(run, row, "%s: the busy task was kept off core 0 %ld time%s for more than 2 ms (longest "
                   "%.1f ms, %.1f ms in all): the core was saturated or taken; the figures include it", variant,
                   b->stalls, b->stalls == 1 ? "" : "s", (double)b->stall_max / 1e6, (double)b->stall_sum / 1e6);
}

/* Driver, between messages: let the busy task rest if it spun long enough.
 * False if it did not come back within a second. */
static bool busy_rest_if_due(busy_t *b, int64_t *spin_start)
{
    if (bench_now_ns() - *spin_start < SPIN_MAX_NS)
        return true;
    int req = atomic_load_explicit(&b->rest_req, memory_order_relaxed) + 1;
    atomic_store_explicit(&b->rest_req, req, memory_order_relaxed);
    int64_t end = bench_now_ns() + REST_NS + 1000000000;
    /* Acquire: pairs with the busy task's release of rested. */
    while (atomic_load_explicit(&b->rested, memory_order_acquire) != req) {
        if (bench_now_ns() > end)
            return false;
        bench_delay_ns(1000000);
    }
    *spin_start = bench_now_ns();
    return true;
}

/* Create the consumer (core 0), the driver (core 1) and the busy task (core
 * 0), then join them. The driver stops the busy task when it ends; the
 * consumer ends on its own or on failure, so joins never hang. The
 * consumer, the interrupted task and the handler run on logical core
 * @p home (0, or 1 for the core-1 variants); the driver on the other. The
 * kernel's rows run on the kernel's own tasks (@p native). */
static int run_tasks(bench_run_t *run, int home, bench_failure_t *f, busy_t *busy, rtipc_task_fn consumer,
                     rtipc_task_fn driver, void *arg, bool native)
{
    bench_task_spec_t cfg[3] = {
        {.name = "isr-consumer", .priority = CONSUMER_PRIO, .core = bench_cpu(run, home),
         .entry = consumer, .arg = arg, .native = native},
        {.name = "isr-driver", .priority = TRIGGER_PRIO, .core = bench_cpu(run, 1 - home),
         .entry = driver, .arg = arg, .native = native},
        {.name = "isr-busy", .priority = BUSY_PRIO, .core = bench_cpu(run, home),
         .entry = busy_entry, .arg = busy, .native = native},
    };
    bench_task_t *t[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++) {
        int rc = bench_target_task_start(&cfg[i], &t[i]);
        if (rc != 0) {
            bench_failure_set(f, "task creation failed (%d, task %d)", rc, i);
            atomic_store(&busy->stop, 1);
            break;
        }
    }
    for (int i = 0; i < 3; i++)
        if (t[i])
            bench_target_task_join(t[i]);
    return bench_failure_is_set(f) ? bench_fail(run, "%s", f->why) : 0;
}

/* ---- latency: one interrupt at a time ---------------------------------- */

typedef struct {
    bench_failure_t f;
    busy_t busy;
    const isr_queue_t *ops;
    void *q;
    rtipc_irq_t *irq;
    bool yield;                 /* the handler requests the yield with its woken flag */
    size_t total, warmup;
    int64_t gap_min, gap_max;   /* driver: pause after each receipt */
    int64_t stall_ns;           /* a message not received within this fails */
    bench_rng_t rng;
    bench_samples_t *out;
    _Atomic int64_t *t_exit;    /* per message: the handler's exit timestamp */
    uint32_t isr_seq;           /* handler only: next sequence number */
    _Atomic long not_woken;     /* yield mode: sends that readied no task */
    _Atomic long early;         /* consumer ran before the handler's stamp */
    _Atomic size_t received;    /* consumer -> driver (release/acquire) */
    _Atomic int consumer_ready;
    int core0;                  /* CPU of core 0 (the trace's consumer events) */
    bool driver_calls;          /* one core, kernel-call: the driver calls rtipc */
} lat_t;

static void lat_isr(void *arg)
{
    lat_t *st = arg;
    uint32_t seq = st->isr_seq++;
    BENCH_TRACE(TRACE_ISR_ENTER, TRACE_TASK_ISR, rtipc_irq_core(), seq, 0);
    if (seq >= st->total) {
        bench_failure_set(&st->f, "interrupt %ld raised beyond the %ld planned", (long)seq, (long)st->total);
        return;
    }
    bool woken = false;
    BENCH_TRACE(TRACE_SEND_BEGIN, TRACE_TASK_ISR, rtipc_irq_core(), seq, 0);
    int rc = st->ops->send_from_isr(st->q, seq, st->yield, &woken);
    BENCH_TRACE(TRACE_SEND_END, TRACE_TASK_ISR, rtipc_irq_core(), seq, 0);
    BENCH_TRACE(TRACE_DEPTH, TRACE_TASK_ISR, rtipc_irq_core(), seq, st->ops->waiting(st->q));
    if (rc != 0)
        bench_failure_set(&st->f, "send from the handler failed with %d (message %ld)", rc, (long)seq);
    if (st->yield && !woken)
        atomic_fetch_add_explicit(&st->not_woken, 1, memory_order_relaxed);
    /* Before the latency's start stamp: recording after it would delay the
     * consumer, which runs on this core once the handler returns. */
    BENCH_TRACE(TRACE_ISR_EXIT, TRACE_TASK_ISR, rtipc_irq_core(), seq, 0);
    /* Release: the consumer's acquire load sees the stamp of its message. */
    atomic_store_explicit(&st->t_exit[seq], bench_now_ns(), memory_order_release);
}

static void lat_consumer(void *arg)
{
    lat_t *st = arg;
    atomic_store_explicit(&st->consumer_ready, 1, memory_order_release);
    int64_t last = bench_now_ns();
    for (size_t i = 0; i < st->total;) {
        uint32_t seq = UINT32_MAX;
        BENCH_TRACE(TRACE_STOPPED, TRACE_TASK_CONSUMER, st->core0, i, 0);
        int rc = st->ops->receive(st->q, &seq, 20000000);
        int64_t t = bench_now_ns();
        BENCH_TRACE_AT(t, TRACE_RUNNING, TRACE_TASK_CONSUMER, st->core0, i, 0);
        if (rc == RTIPC_ETIMEDOUT) {
            if (bench_failure_is_set(&st->f))
                return;
            if (t - last > st->stall_ns) {
                bench_failure_set(&st->f, "message %ld not received within %ld ms (lost?)", (long)i,
                                  (long)(st->stall_ns / 1000000));
                return;
            }
            continue;
        }
        if (rc != 0) {
            bench_failure_set(&st->f, "receive of message %ld failed with %d", (long)i, rc);
            return;
        }
        if (seq != (uint32_t)i) {
            bench_failure_set(&st->f, "message %ld arrived where %ld was due (lost, duplicated or reordered)",
                              (long)seq, (long)i);
            return;
        }
        /* Under SCHED_FIFO the handler has stamped before the consumer is
         * released; without it the consumer may get here first. */
        int64_t te = atomic_load_explicit(&st->t_exit[seq], memory_order_acquire);
        while (te == 0 && bench_now_ns() - t < 10000000)
            te = atomic_load_explicit(&st->t_exit[seq], memory_order_acquire);
        int64_t lat = t - te;
        if (te == 0 || lat < 0) {
            atomic_fetch_add_explicit(&st->early, 1, memory_order_relaxed);
            lat = 0;
        }
        if (i >= st->warmup)
            bench_samples_push(st->out, lat);
        BENCH_TRACE_AT(t, TRACE_RECEIVED, TRACE_TASK_CONSUMER, st->core0, seq, 0);
        BENCH_TRACE(TRACE_DEPTH, TRACE_TASK_CONSUMER, st->core0, seq, st->ops->waiting(st->q));
        last = t;
        i++;
        /* Release: the driver raises the next interrupt only after this. */
        atomic_store_explicit(&st->received, i, memory_order_release);
    }
}

static void lat_driver(void *arg)
{
    lat_t *st = arg;
    if (!handoff_task_wait_flag(&st->consumer_ready, &st->f, 2000000000) ||
        !handoff_task_wait_flag(&st->busy.running, &st->f, 2000000000)) {
        bench_failure_set(&st->f, "tasks did not start within 2 s");
        goto out;
    }
    bench_delay_ns(2000000);  /* the consumer reaches its receive */
    int64_t spin_start = bench_now_ns();
    int64_t next_call = spin_start + KERNEL_CALL_NS;
    for (size_t i = 0; i <= st->total; i++) {
        int64_t end = bench_now_ns() + st->stall_ns;
        while (atomic_load_explicit(&st->received, memory_order_acquire) < i) {
            if (bench_failure_is_set(&st->f))
                goto out;
            /* One core: the driver is the interrupted task, so it makes
             * the kernel-call variant's calls. */
            if (st->driver_calls && bench_now_ns() >= next_call) {
                st->ops->task_call();
                st->busy.calls++;
                next_call = bench_now_ns() + KERNEL_CALL_NS;
            }
            if (bench_now_ns() > end) {
                bench_failure_set(&st->f, "message %ld not received within %ld ms (lost?)", (long)i - 1,
                                  (long)(st->stall_ns / 1000000));
                goto out;
            }
        }
        if (i == st->total)
            break;
        if (!busy_rest_if_due(&st->busy, &spin_start)) {
            bench_failure_set(&st->f, "the busy task did not come back from a rest within 1 s");
            goto out;
        }
        bench_spin_until(bench_now_ns() + bench_rng_range(&st->rng, st->gap_min, st->gap_max));
        int rc = bench_target_irq_trigger(st->irq);
        if (rc != 0) {
            bench_failure_set(&st->f, "trigger of interrupt %ld failed with %d", (long)i, rc);
            goto out;
        }
    }
out:
    atomic_store(&st->busy.stop, 1);
}

typedef enum { LAT_YIELD, LAT_NO_YIELD, LAT_KERNEL_CALL } lat_mode_t;

/* One latency phase; records its row. 0, or -1 after bench_fail(). */
static int lat_phase(bench_run_t *run, const isr_queue_t *ops, int home, lat_mode_t mode, const char *variant,
                     size_t samples, size_t warmup)
{
    char lb[96];
    const char *what = label(lb, sizeof lb, ops, variant);
    bench_sleep_ns(bench_quick(run) ? REST_NS / 2 : REST_NS);  /* core 0 rests after the previous phase */
    int64_t tick = rtipc_tick_period_ns();
    lat_t *st = calloc(1, sizeof *st);
    if (!st)
        return bench_fail(run, "out of memory");
    bench_samples_t s = {0};
    int rc = -1;
    st->ops = ops;
    st->busy.call = ops->task_call;
    st->yield = mode == LAT_YIELD;
    st->busy.kernel_calls = mode == LAT_KERNEL_CALL && bench_two_cores(run);
    st->driver_calls = mode == LAT_KERNEL_CALL && !bench_two_cores(run);
    st->total = samples + warmup;
    st->warmup = warmup;
    /* The gap spans the period that decides the wait (tick, or the busy
     * task's call period), so the send lands at a uniformly random phase. */
    st->gap_min = 20000;
    st->gap_max = mode == LAT_NO_YIELD ? 20000 + tick : mode == LAT_KERNEL_CALL ? 20000 + KERNEL_CALL_NS : 40000;
    st->stall_ns = 1000000000 + 3 * tick;
    st->out = &s;
    bench_rng_init(&st->rng, run, 100 + (uint64_t)mode);
    st->t_exit = calloc(st->total, sizeof *st->t_exit);
    if (!st->t_exit || bench_samples_init(&s, samples) != 0) {
        bench_fail(run, "out of memory");
        goto out;
    }
    int r = ops->create(LAT_DEPTH, &st->q);
    if (r != 0) {
        bench_fail(run, "%s: queue create: %s", ops->mech, rtipc_strerror(r));
        goto out;
    }
    r = bench_target_irq_create(bench_cpu(run, home), lat_isr, st, &st->irq);
    if (r != 0) {
        bench_fail(run, "interrupt create: %s", rtipc_strerror(r));
        goto out;
    }
    st->core0 = bench_cpu(run, home);
    bench_trace_row_begin(run, ops->mech, variant, (uint32_t)warmup, (uint32_t)samples);
    r = run_tasks(run, home, &st->f, &st->busy, lat_consumer, lat_driver, st, ops != &rtipc_q);
    bench_trace_row_end();
    if (r != 0) {
        bench_fail(run, "%s/%s", ops->mech, variant);
        goto out;
    }
    bench_result_t *row = bench_add_dist(run, ops->mech, variant, BENCH_METRIC_LATENCY, &s);
    if (!row)
        goto out;
    if (ops == &rtipc_q)
        row = NULL;  /* rtipc's notes stay the experiment's */
    if (bench_two_cores(run))  /* on one core the waiting driver keeps it off, by design */
        note_stalls(run, row, what, &st->busy);
    long nw = atomic_load(&st->not_woken), early = atomic_load(&st->early);
    if (nw)
        phase_note(run, row, "%s: %ld of %lu sends from the handler readied no higher-priority task "
                   "(woken stayed false)", what, nw, (unsigned long)st->total);
    if (early)
        phase_note(run, row, "%s: %ld messages reached the consumer before the handler's exit stamp "
                   "(recorded as 0; not expected under SCHED_FIFO)", what, early);
    if (mode == LAT_KERNEL_CALL && st->busy.calls == 0) {
        bench_fail(run, "%s: the interrupted task made no kernel call", what);
        goto out;
    }
    rc = 0;
out:
    if (st->irq)
        bench_target_irq_delete(st->irq);
    if (st->q)
        ops->destroy(st->q);
    bench_samples_free(&s);
    free(st->t_exit);
    free(st);
    return rc;
}

/* ---- throughput: a periodic interrupt timer ---------------------------- */

typedef struct {
    bench_failure_t f;
    busy_t busy;
    const isr_queue_t *ops;
    void *q;
    rtipc_irq_t *irq;
    bool yield;
    int64_t period_ns;          /* timer period */
    int64_t warm_ns, window_ns; /* warm-up, then the measured window */
    int64_t stall_ns;
    /* Handler only, published to the driver by the release store of stopped. */
    uint32_t seq;               /* next sequence number (attempts so far) */
    uint64_t dropped;           /* sends refused because the queue was full */
    uint64_t woken;             /* sends that readied the consumer */
    size_t cap;                 /* sequence numbers the drop bitmap covers */
    _Atomic uint64_t *drop_bits;/* bit s set: the send of s failed (the queue
                                   lock orders it before later messages) */
    _Atomic int stopping;       /* driver -> handler: send no more */
    _Atomic int stopped;        /* handler -> driver: it saw stopping */
    /* Consumer. */
    _Atomic uint64_t delivered; /* messages received and checked */
    _Atomic int consumer_ready;
    _Atomic int finish;         /* driver -> consumer: all accounted for */
    int core0;                  /* CPU of core 0 (the trace's consumer events) */
    bool driver_raises;         /* the driver raises the interrupt every period */
    int64_t next_raise;         /* driver only: when it raises next */
    /* Driver's measurements, read after the join. */
    uint64_t d0, d1, c0, c1;    /* delivered and handler runs at window edges */
    int64_t t0, t1;
    uint64_t sent_total, dropped_total;
} tp_t;

static void tp_isr(void *arg)
{
    tp_t *st = arg;
    /* Acquire: pairs with the driver's release store of stopping. */
    if (atomic_load_explicit(&st->stopping, memory_order_acquire)) {
        /* Release: publishes seq/dropped/woken of every earlier run (runs of
         * one core are sequential) to the driver. */
        atomic_store_explicit(&st->stopped, 1, memory_order_release);
        return;
    }
    if (st->seq >= st->cap) {
        bench_failure_set(&st->f, "more than %ld interrupts in a %ld ms phase", (long)st->cap,
                          (long)((st->warm_ns + st->window_ns) / 1000000));
        return;
    }
    uint32_t seq = st->seq++;
    BENCH_TRACE(TRACE_ISR_ENTER, TRACE_TASK_ISR, rtipc_irq_core(), seq, 0);
    bool woken = false;
    BENCH_TRACE(TRACE_SEND_BEGIN, TRACE_TASK_ISR, rtipc_irq_core(), seq, 0);
    int rc = st->ops->send_from_isr(st->q, seq, st->yield, &woken);
    BENCH_TRACE(TRACE_SEND_END, TRACE_TASK_ISR, rtipc_irq_core(), seq, 0);
    BENCH_TRACE(TRACE_DEPTH, TRACE_TASK_ISR, rtipc_irq_core(), seq, st->ops->waiting(st->q));
    if (rc == RTIPC_EWOULDBLOCK) {
        st->dropped++;
        atomic_fetch_or_explicit(&st->drop_bits[seq / 64], (uint64_t)1 << (seq % 64), memory_order_relaxed);
    } else if (rc != 0) {
        bench_failure_set(&st->f, "send from the handler failed with %d (message %ld)", rc, (long)seq);
    }
    st->woken += woken;
    BENCH_TRACE(TRACE_ISR_EXIT, TRACE_TASK_ISR, rtipc_irq_core(), seq, 0);
}

static bool dropped_bit(tp_t *st, uint32_t s)
{
    return (atomic_load_explicit(&st->drop_bits[s / 64], memory_order_relaxed) >> (s % 64)) & 1;
}

/* Check one received sequence number: every number skipped since the last
 * must be a failed send, and this one must not be. */
static bool tp_check(tp_t *st, uint32_t seq, uint32_t *expect)
{
    if (seq < *expect || seq >= st->cap) {
        bench_failure_set(&st->f, "message %ld arrived after %ld (duplicated or reordered)", (long)seq,
                          (long)*expect - 1);
        return false;
    }
    for (uint32_t s = *expect; s < seq; s++) {
        if (!dropped_bit(st, s)) {
            bench_failure_set(&st->f, "message %ld was sent but never received (next came %ld)", (long)s,
                              (long)seq);
            return false;
        }
    }
    if (dropped_bit(st, seq)) {
        bench_failure_set(&st->f, "message %ld was received although its send failed", (long)seq);
        return false;
    }
    *expect = seq + 1;
    BENCH_TRACE(TRACE_RECEIVED, TRACE_TASK_CONSUMER, st->core0, seq, 0);
    BENCH_TRACE(TRACE_DEPTH, TRACE_TASK_CONSUMER, st->core0, seq, st->ops->waiting(st->q));
    atomic_store_explicit(&st->delivered, atomic_load_explicit(&st->delivered, memory_order_relaxed) + 1,
                          memory_order_release);
    return true;
}

static void tp_consumer(void *arg)
{
    tp_t *st = arg;
    atomic_store_explicit(&st->consumer_ready, 1, memory_order_release);
    uint32_t expect = 0;
    int64_t last = bench_now_ns();
    for (;;) {
        uint32_t seq;
        BENCH_TRACE(TRACE_STOPPED, TRACE_TASK_CONSUMER, st->core0, expect, 0);
        int rc = st->ops->receive(st->q, &seq, 20000000);
        BENCH_TRACE(TRACE_RUNNING, TRACE_TASK_CONSUMER, st->core0, expect, 0);
        if (rc == RTIPC_ETIMEDOUT) {
            if (atomic_load_explicit(&st->finish, memory_order_acquire) || bench_failure_is_set(&st->f))
                return;
            if (bench_now_ns() - last > st->stall_ns) {
                bench_failure_set(&st->f, "consumer got nothing for %ld ms", (long)(st->stall_ns / 1000000));
                return;
            }
            continue;
        }
        if (rc != 0) {
            bench_failure_set(&st->f, "receive failed with %d", rc);
            return;
        }
        last = bench_now_ns();
        if (!tp_check(st, seq, &expect))
            return;
        /* Drain everything available on this wake. */
        while (st->ops->receive(st->q, &seq, 0) == 0)
            if (!tp_check(st, seq, &expect))
                return;
    }
}

static void sleep_until(int64_t t)
{
    int64_t now = bench_now_ns();
    int64_t margin = 200000 + bench_sleep_overshoot_ns();
    if (t - now > margin + 100000)
        bench_delay_ns(t - now - margin);
    bench_spin_until(t);
}

/* The driver's wait until @p t: a sleep, or, when it raises the interrupts
 * itself, a spin that raises one every period (a late raise merges with a
 * pending one, as a timer's late expiry does). */
static void tp_wait_until(tp_t *st, int64_t t)
{
    if (!st->driver_raises) {
        sleep_until(t);
        return;
    }
    for (int64_t now = bench_now_ns(); now < t; now = bench_now_ns()) {
        if (now < st->next_raise)
            continue;
        (void)bench_target_irq_trigger(st->irq);
        st->next_raise += st->period_ns;
        if (st->next_raise < now)
            st->next_raise = now + st->period_ns;
    }
}

static void tp_driver(void *arg)
{
    tp_t *st = arg;
    if (!handoff_task_wait_flag(&st->consumer_ready, &st->f, 2000000000) ||
        !handoff_task_wait_flag(&st->busy.running, &st->f, 2000000000)) {
        bench_failure_set(&st->f, "tasks did not start within 2 s");
        goto out;
    }
    bench_delay_ns(2000000);
    int64_t start = bench_now_ns();
    bool timer = !st->busy.source && !st->driver_raises;
    int rc = timer ? rtipc_irq_timer_start(st->irq, st->period_ns, st->period_ns) : 0;
    if (rc != 0) {
        bench_failure_set(&st->f, "timer start failed with %d", rc);
        goto out;
    }
    st->next_raise = start + st->period_ns;
    tp_wait_until(st, start + st->warm_ns);
    st->t0 = bench_now_ns();
    st->d0 = atomic_load_explicit(&st->delivered, memory_order_relaxed);
    st->c0 = (uint64_t)rtipc_irq_count(st->irq);
    tp_wait_until(st, st->t0 + st->window_ns);
    st->t1 = bench_now_ns();
    st->d1 = atomic_load_explicit(&st->delivered, memory_order_relaxed);
    st->c1 = (uint64_t)rtipc_irq_count(st->irq);

    /* Stop: the handler run that sees stopping sends nothing; runs are
     * sequential, so once it has answered every send is counted. A software
     * trigger makes sure such a run happens after the timer stops. */
    atomic_store_explicit(&st->stopping, 1, memory_order_release);
    if (timer)
        rtipc_irq_timer_stop(st->irq);
    bench_target_irq_trigger(st->irq);
    if (!handoff_task_wait_flag(&st->stopped, &st->f, 1000000000)) {
        bench_failure_set(&st->f, "the handler did not stop within 1 s");
        goto out;
    }
    st->sent_total = st->seq;
    st->dropped_total = st->dropped;
    uint64_t want = st->sent_total - st->dropped_total;
    int64_t end = bench_now_ns() + st->stall_ns;
    while (atomic_load_explicit(&st->delivered, memory_order_acquire) < want) {
        if (bench_failure_is_set(&st->f))
            goto out;
        if (bench_now_ns() > end) {
            bench_failure_set(&st->f, "only %ld of %ld accepted messages delivered (lost?)",
                              (long)atomic_load(&st->delivered), (long)want);
            goto out;
        }
        bench_delay_ns(200000);
    }
out:
    atomic_store_explicit(&st->finish, 1, memory_order_release);
    atomic_store(&st->busy.stop, 1);
}

typedef struct {
    double throughput, offered;
    uint64_t sent, delivered, dropped;
} tp_result_t;

static void probe_isr(void *arg) { (void)arg; }

/* Where rtipc's interrupt timer of @p irq follows the tick (FreeRTOS
 * without a hardware timer for it: src/port/freertos/irq.c), it fires at
 * most at the tick rate, and the claim is about interrupts that arrive
 * faster. There the driver on core 1 raises the interrupt every timer
 * period itself (the interrupted task would release the woken consumer by
 * its own rtipc_irq_trigger call). */
static bool timers_follow_tick(const rtipc_irq_t *irq) { return !bench_target_irq_timer_between_ticks(irq); }

/* One throughput phase, its rows named @p variant. */
static int tp_phase(bench_run_t *run, const isr_queue_t *ops, bool yield, unsigned depth, const char *variant,
                    double duration_s, tp_result_t *res)
{
    char lb[96];
    const char *mech = ops->mech, *what = label(lb, sizeof lb, ops, variant);
    /* Core 0 rests after the previous phase; a phase spins at most the
     * window plus its warm-up (keep --duration below ~0.8 s to stay clear of
     * the kernel's real-time throttling). */
    bench_sleep_ns(duration_s > 0.3 ? 2 * REST_NS : REST_NS / 2);
    int64_t tick = rtipc_tick_period_ns();
    tp_t *st = calloc(1, sizeof *st);
    if (!st)
        return bench_fail(run, "out of memory");
    int rc = -1;
    st->ops = ops;
    st->busy.call = ops->task_call;
    st->yield = yield;
    st->period_ns = (int64_t)(1e9 / TIMER_HZ);
    st->window_ns = (int64_t)(duration_s * 1e9);
    st->warm_ns = st->window_ns / 10 > 20000000 ? st->window_ns / 10 : 20000000;
    st->stall_ns = 1000000000 + 3 * tick;
    /* Expiries missed while the interrupt thread is late merge, so runs stay
     * below elapsed / period; the bitmap has room for twice the planned
     * phase plus slack for a late driver. */
    st->cap = (size_t)(2.0 * (double)(st->warm_ns + st->window_ns) / (double)st->period_ns) + 200000;
    st->drop_bits = calloc(st->cap / 64 + 1, sizeof *st->drop_bits);
    if (!st->drop_bits) {
        bench_fail(run, "out of memory");
        goto out;
    }
    int r = ops->create(depth, &st->q);
    if (r != 0) {
        bench_fail(run, "%s: queue create: %s", mech, rtipc_strerror(r));
        goto out;
    }
    r = bench_target_irq_create(bench_cpu(run, 0), tp_isr, st, &st->irq);
    if (r != 0) {
        bench_fail(run, "interrupt create: %s", rtipc_strerror(r));
        goto out;
    }
    st->core0 = bench_cpu(run, 0);
    if (!bench_two_cores(run)) {
        st->busy.source = st->irq;
        st->busy.source_period = st->period_ns;
    } else {
        st->driver_raises = timers_follow_tick(st->irq);
    }
    bench_trace_row_begin(run, mech, variant, 0, UINT32_MAX);  /* the first N interrupts */
    r = run_tasks(run, 0, &st->f, &st->busy, tp_consumer, tp_driver, st, ops != &rtipc_q);
    bench_trace_row_end();
    if (r != 0) {
        bench_fail(run, "%s/%s", mech, variant);
        goto out;
    }
    uint64_t delivered = atomic_load(&st->delivered);
    if (st->sent_total != delivered + st->dropped_total) {
        bench_fail(run, "%s: sent %llu != delivered %llu + dropped %llu", what,
                   (unsigned long long)st->sent_total, (unsigned long long)delivered,
                   (unsigned long long)st->dropped_total);
        goto out;
    }
    double win = (double)(st->t1 - st->t0) / 1e9;
    res->throughput = (double)(st->d1 - st->d0) / win;
    res->offered = (double)(st->c1 - st->c0) / win;
    res->sent = st->sent_total;
    res->delivered = delivered;
    res->dropped = st->dropped_total;
    bench_result_t *row = bench_add_value(run, mech, variant, BENCH_METRIC_THROUGHPUT, "msg/s", res->throughput);
    bench_add_value(run, mech, variant, BENCH_METRIC_OFFERED, "msg/s", res->offered);
    bench_add_value(run, mech, variant, BENCH_METRIC_SENT, "count", (double)res->sent);
    bench_add_value(run, mech, variant, BENCH_METRIC_DELIVERED, "count", (double)res->delivered);
    bench_add_value(run, mech, variant, BENCH_METRIC_DROPPED, "count", (double)res->dropped);
    note_stalls(run, ops == &rtipc_q ? NULL : row, what, &st->busy);
    rc = 0;
out:
    if (st->irq) {
        rtipc_irq_timer_stop(st->irq);
        bench_target_irq_delete(st->irq);
    }
    if (st->q)
        ops->destroy(st->q);
    free(st->drop_bits);
    free(st);
    return rc;
}

/* ---- the experiment ----------------------------------------------------- */

/* The tick-rate cap of @p q's no-yield rows (no-yield throughput at or below
 * 1.1 x the tick rate while the interrupts arrived well above it) and its
 * yield throughput, as notes. */
static void note_cap(bench_run_t *run, const isr_queue_t *q, const tp_result_t r[2][2], const unsigned depths[2])
{
    double hz = bench_tick_hz(run);
    const char *who = q == &rtipc_q ? "" : q->mech;
    const char *sep = q == &rtipc_q ? "" : ": ";
    char buf[600];
    size_t used = (size_t)snprintf(buf, sizeof buf, "%s%stick-rate cap (no-yield throughput <= 1.1 x %.0f Hz):",
                                   who, sep, hz);
    for (int d = 0; d < 2 && used < sizeof buf; d++) {
        const tp_result_t *n = &r[0][d];
        const char *verdict;
        if (n->offered <= 1.1 * hz)
            verdict = "not observable (interrupts arrived no faster than the tick)";
        else if (n->throughput <= 1.1 * hz)
            verdict = "appears";
        else if (n->dropped > 0 && n->throughput / hz >= 0.9 * depths[d])
            verdict = "does not appear, but the queue fills between ticks: depth x tick rate caps it";
        else
            verdict = "does not appear";
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s depth %u: %s (%.0f msg/s delivered of "
                                 "%.0f interrupts/s, %.2f per tick)", d ? ";" : "", depths[d], verdict,
                                 n->throughput, n->offered, n->throughput / hz);
    }
    bench_note(run, "%s", buf);
    bench_note(run, "%s%swith yield: depth 1 %.0f msg/s, depth 100 %.0f msg/s (interrupts %.0f/s, %.0f/s)", who, sep,
               r[1][0].throughput, r[1][1].throughput, r[1][0].offered, r[1][1].offered);
}

static int run_isr_handoff(bench_run_t *run)
{
    int64_t tick = rtipc_tick_period_ns();
    size_t ny_yield = bench_sample_count(run, 10000, 1000);
    size_t ny_kc = bench_sample_count(run, 5000, 500);
    /* No-yield waits up to a tick per message (1.5 ticks with the gap): at
     * tick rates below 1 kHz the default count shrinks with the rate, so the
     * phase stays within ~3 s (full) / ~0.5 s (quick). */
    size_t n_no = bench_sample_count(run, 2000, 300);
    if (!bench_samples_fixed(run) && tick > 1000000) {
        n_no = (size_t)((double)n_no * 1e6 / (double)tick);
        if (n_no < 20)
            n_no = 20;
    }
    size_t w_no = bench_warmup_count_min(run, n_no, 10);

    /* rtipc's queue, and on FreeRTOS the kernel's right after it in every
     * phase, so that both see the same conditions. */
    isr_queue_t kq;
    const isr_queue_t *qs[2] = {&rtipc_q, NULL};
    int nq = kernel_q(&kq) ? 2 : 1;
    if (nq == 2) {
        qs[1] = &kq;
        bench_note(run, "kernel-queue's handler: %s", bench_fr_isr_notify->yield_how);
    }

    bench_progress(run, 0.0);
    if (!bench_two_cores(run))
        bench_note(run, "one core: the driver task shares core 0 and is the task each latency interrupt "
                   "preempts (it makes the kernel-call variant's rtipc_task_yield calls); the throughput "
                   "phases' interrupts are raised by the busy task with rtipc_irq_trigger every %.0f us, "
                   "not by an interrupt timer", 1e6 / TIMER_HZ);
    for (int k = 0; k < nq; k++)
        if (lat_phase(run, qs[k], 0, LAT_YIELD, BENCH_VARIANT_YIELD, ny_yield, bench_warmup_count(run, ny_yield)) != 0)
            return -1;
    bench_progress(run, 0.1);
    for (int k = 0; k < nq; k++)
        if (lat_phase(run, qs[k], 0, LAT_NO_YIELD, BENCH_VARIANT_NO_YIELD, n_no, w_no) != 0)
            return -1;
    bench_progress(run, 0.45);
    for (int k = 0; k < nq; k++)
        if (lat_phase(run, qs[k], 0, LAT_KERNEL_CALL, BENCH_VARIANT_NO_YIELD_KERNEL_CALL, ny_kc,
                      bench_warmup_count(run, ny_kc)) != 0)
            return -1;
    bench_progress(run, 0.5);
    /* The same handoff with the handler, the consumer and the interrupted
     * task on core 1 (the driver on core 0): where a target's interrupt
     * sources serve core 0 only, the rows are missing with the reason. */
    if (bench_two_cores(run)) {
        rtipc_irq_t *probe = NULL;
        int pr = bench_target_irq_create(bench_cpu(run, 1), probe_isr, NULL, &probe);
        if (pr == 0) {
            bench_target_irq_delete(probe);
            size_t n1 = bench_sample_count(run, 2000, 500);
            for (int k = 0; k < nq; k++)
                if (lat_phase(run, qs[k], 1, LAT_YIELD, BENCH_VARIANT_CORE1_YIELD, n1, bench_warmup_count(run, n1)) != 0)
                    return -1;
            for (int k = 0; k < nq; k++)
                if (lat_phase(run, qs[k], 1, LAT_NO_YIELD, BENCH_VARIANT_CORE1_NO_YIELD, n_no / 2 > 20 ? n_no / 2 : 20,
                              w_no) != 0)
                    return -1;
        } else {
            const char *why = pr == RTIPC_ENOTSUP ? "no interrupt source on core 1 on this target" : rtipc_strerror(pr);
            for (int k = 0; k < nq; k++) {
                char row[96];
                snprintf(row, sizeof row, "%s/%s", qs[k]->mech, BENCH_VARIANT_CORE1_YIELD);
                bench_add_missing(run, row, why);
                snprintf(row, sizeof row, "%s/%s", qs[k]->mech, BENCH_VARIANT_CORE1_NO_YIELD);
                bench_add_missing(run, row, why);
            }
        }
    }
    bench_progress(run, 0.55);

    double dur = bench_duration(run, 0.6, 0.08);
    if (dur > 0.8)
        bench_note(run, "throughput windows of %.2f s keep core 0 busy for longer than the kernel's "
                   "real-time budget (95%% of a second): they may include throttling stalls", dur);
    tp_result_t r[2][2][2];  /* [queue][yield][depth 1, 100] */
    static const unsigned depths[2] = {1, 100};
    static const char *const variants[2][2] = {
        {BENCH_VARIANT_NO_YIELD_DEPTH_1, BENCH_VARIANT_NO_YIELD_DEPTH_100},
        {BENCH_VARIANT_YIELD_DEPTH_1, BENCH_VARIANT_YIELD_DEPTH_100},
    };
    int done = 0;
    for (int d = 0; d < 2; d++) {
        for (int y = 1; y >= 0; y--) {
            for (int k = 0; k < nq; k++)
                if (tp_phase(run, qs[k], y, depths[d], variants[y][d], dur, &r[k][y][d]) != 0)
                    return -1;
            bench_progress(run, 0.55 + 0.45 * ++done / 4.0);
        }
    }
    for (int k = 0; k < nq; k++)
        note_cap(run, qs[k], r[k], depths);
    bench_progress(run, 1.0);
    return 0;
}

const bench_experiment_t exp_isr_handoff = {
    .id = BENCH_EXP_ISR_HANDOFF,
    .summary = EXP_ISR_HANDOFF_SUMMARY,
    .definitions =
        "Setup: an rtipc interrupt source on core 0 (its handler runs in core 0's interrupt thread,\n"
        "  above every task); the consumer task on core 0 (priority 12) receives from an rtipc queue of\n"
        "  uint32_t sequence numbers; the interrupted task on core 0 (priority 2) busy-loops without\n"
        "  calling rtipc, in every phase. Handlers send with rtipc_queue_send_from_isr. To stay under\n"
        "  the kernel's real-time throttling (95% of each second), which would freeze core 0's\n"
        "  interrupt thread too, core 0 rests before each phase (50 ms; 100 ms before a throughput\n"
        "  phase longer than 0.3 s; 25 ms in --quick) and the busy task sleeps 50 ms after each 0.5 s\n"
        "  of spinning, only between two latency messages (no interrupt is raised during a rest).\n"
        "  A note reports every time the busy task was kept off core 0 for more than 2 ms.\n"
        "  yield: the handler calls rtipc_irq_yield(woken) after the send. no-yield: it does not, so\n"
        "  the consumer is released at the next tick (env tick rate) or at an rtipc call on core 0.\n"
        "latency: from the handler's timestamp taken just before it returns (after rtipc_irq_yield in\n"
        "  yield mode) to the consumer's timestamp taken right after rtipc_queue_receive returned.\n"
        "  One interrupt at a time: a driver task on core 1 (priority 10) raises it with\n"
        "  rtipc_irq_trigger, waits until the consumer has checked that message's sequence number, then\n"
        "  pauses a random gap: 20-40 us (yield), 20 us + one tick (no-yield), 20-70 us (kernel-call),\n"
        "  so the send lands at a random phase of the period that decides the wait. Queue depth 100.\n"
        "  Samples: yield 10000 full / 1000 quick; kernel-call 5000 / 500; no-yield 2000 / 300\n"
        "  (fewer at tick rates below 1 kHz, to stay within ~3 s), so p99.9 is omitted there.\n"
        "  no-yield/kernel-call: no yield, but the interrupted task calls rtipc_task_yield every 50 us;\n"
        "  FreeRTOS semantics release the woken task at that call, not at the tick.\n"
        "throughput (msg/s): a periodic interrupt timer at 10 kHz on core 0 (10x the default tick; near\n"
        "  50 kHz the interrupt thread's own wake-ups saturate core 0 on the development host) whose handler\n"
        "  sends the next sequence number from ISR (never blocks; a full queue counts a drop and leaves\n"
        "  a gap); the consumer, on each wake, receives until the queue is empty. Messages it received\n"
        "  per second over the measured window (bench duration, 0.6 s full / 0.08 s quick, after a\n"
        "  warm-up of a tenth of it, at least 20 ms). offered: handler runs per second in the same\n"
        "  window: the rate the interrupts really arrived at (expiries missed while the interrupt\n"
        "  thread is late merge into one run, so it may be below 10 kHz on a slow host).\n"
        "  sent/delivered/dropped (count): over the whole phase, warm-up and drain included;\n"
        "  sent = delivered + dropped is checked exactly, and every gap in the received sequence\n"
        "  numbers must be a send the handler saw fail.\n"
        "core-1/yield, core-1/no-yield (two cores): the yield and no-yield latency phases again with\n"
        "  the interrupt source, the consumer and the interrupted task on core 1 and the driver on\n"
        "  core 0 (2000 / 500 samples; no-yield half of core 0's); missing where the target's\n"
        "  interrupt sources serve core 0 only.\n"
        "One core (FreeRTOS POSIX simulator): the driver runs on core 0 too and is the task each\n"
        "  latency interrupt preempts; in kernel-call it calls rtipc_task_yield every 50 us while it\n"
        "  waits. The throughput interrupts are raised by the busy task (rtipc_irq_trigger every\n"
        "  100 us through the port's interrupt vector), since interrupt timers that run from the tick\n"
        "  cannot arrive faster than it. On FreeRTOS with two cores the driver on core 1 raises them\n"
        "  every 100 us instead of the timer: rtipc's interrupt timers there are checked in the tick\n"
        "  hook.\n"
        "kernel-queue (FreeRTOS targets): every phase above again, right after rtipc's, on the kernel's\n"
        "  own queue (xQueueCreate of uint32_t) with the same variants, metrics, interrupt source, tasks\n"
        "  and sequence checks. The handler sends with xQueueSendFromISR(q, &seq,\n"
        "  &xHigherPriorityTaskWoken); yield variants then portYIELD_FROM_ISR(xHigherPriorityTaskWoken),\n"
        "  issued inside rtipc's interrupt vector: in the handler on Cortex-M (PendSV), the ESP32\n"
        "  (Xtensa, switch at the interrupt's exit) and the RV32 SMP port (vTaskSwitchContext, restored\n"
        "  at the trap's exit; a handler the tick hook runs is inside the tick's critical section, where\n"
        "  the tick's own switch does it). On the POSIX simulator portYIELD_FROM_ISR switches threads at\n"
        "  once, which would leave rtipc's vector open while other tasks run: there the kernel's flag goes\n"
        "  to rtipc_irq_yield and rtipc's vector calls portYIELD_FROM_ISR(pdTRUE) at its end (a note says\n"
        "  which). The consumer receives with xQueueReceive (20 ms timeouts, then 0 to drain); the\n"
        "  latency ends right after it returned. no-yield/kernel-call: the interrupted task calls\n"
        "  taskYIELD() every 50 us instead of rtipc_task_yield. Without portYIELD_FROM_ISR the kernel\n"
        "  releases the woken consumer at the next tick or a switch on core 0.\n"
        "The note says whether the tick-rate cap (no-yield throughput <= 1.1 x tick rate) appears, per\n"
        "depth, for each queue. The timestamp overhead (env.timestamp_overhead_ns) is included, not subtracted.",
    .run = run_isr_handoff,
    .requires = EXP_ISR_HANDOFF_REQUIRES,
};
