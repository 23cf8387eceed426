/* blocked-producer: the consumer of a depth-10 queue stalls (a bus timeout)
 * while a producer keeps sending at a steady rate and resets its task
 * watchdog subscription once per loop. Does blocking in the send trip the
 * watchdog, and what does a send timeout with a drop counter change? */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mechanisms/freertos_calls.h"
#include "../mechanisms/mechanisms.h"
#include "experiments.h"
#include "needs_tasks.h"

#define BP_DEPTH 10
#define BP_PERIOD_NS 1000000LL    /* one item per millisecond */
#define BP_RECV_POLL_MS 20        /* consumer's receive timeout (to notice the end) */

/* Trips seen by the watchdog callback (interrupt context: atomics only). */
typedef struct {
    _Atomic(rtipc_task_t *) producer;   /* trips naming it count as producer trips */
    /* The kernel rows' producer subscribes through the kernel's own
     * watchdog calls (ESP-IDF: esp_task_wdt_add): its trips come by name,
     * with no rtipc handle and core -1. */
    _Atomic bool by_name;
    _Atomic uint64_t producer_trips, idle_trips, other_trips;
    bool idle_check;                    /* the watchdog watches the idle tasks (idle-trips rows) */
    int64_t timeout_ns;                 /* the watchdog's timeout */
} bp_trips_t;

typedef struct {
    const char *name;
    bool forever;      /* send with RTIPC_FOREVER, else with a 10 ms timeout */
    bool subscribe;    /* the producer subscribes to the watchdog */
    bool no_watchdog;  /* the port has no task watchdog: no trip rows */
} bp_variant_t;

typedef struct {
    const bp_variant_t *v;
    bool kernel;                /* the kernel's queue: xQueueSend / xQueueReceive */
    rtipc_queue_t *q;
    bench_kq_t *kq;
    int64_t start_ns, stall_at_ns, stall_ns, end_ns;   /* absolute times except stall_ns */
    size_t cap;                 /* most items the producer may send */
    /* Producer's results (read after producer_done, acquire). */
    uint8_t *dropped;           /* per sequence number: 1 = timed out, dropped */
    size_t sent, n_dropped;
    int64_t max_stall_ns;
    /* Consumer's results (read after consumer_done, acquire). */
    uint32_t *got;              /* delivered sequence numbers, in delivery order */
    size_t n_got;
    _Atomic int go, producer_done, consumer_done;
    bench_failure_t failure;
} bp_state_t;

#define BP_PRODUCER_NAME "bp-producer"

static void on_trip(const rtipc_wdt_trip_t *trip, void *arg)
{
    bp_trips_t *t = arg;
    if (trip->task && trip->task == atomic_load(&t->producer))
        atomic_fetch_add(&t->producer_trips, 1);
    else if (!trip->task && trip->core < 0 && atomic_load(&t->by_name) && !strcmp(trip->name, BP_PRODUCER_NAME))
        atomic_fetch_add(&t->producer_trips, 1);
    else if (!trip->task && trip->core >= 0)
        atomic_fetch_add(&t->idle_trips, 1);
    else
        atomic_fetch_add(&t->other_trips, 1);
}

static void producer(void *arg)
{
    bp_state_t *st = arg;
    while (!atomic_load_explicit(&st->go, memory_order_acquire))
        bench_delay_ns(100000);
    if (st->v->subscribe) {
        /* The kernel's rows subscribe as a FreeRTOS user does (ESP-IDF's
         * esp_task_wdt_add; rtipc's watchdog where the kernel has none). */
        int rc = st->kernel ? bench_kwdt_add() : rtipc_wdt_add(NULL);
        if (rc != 0) {
            bench_failure_set(&st->failure, "producer cannot subscribe to the watchdog (%ld)", (long)rc);
            atomic_store_explicit(&st->producer_done, 1, memory_order_release);
            return;
        }
    }
    rtipc_timeout_t timeout = st->v->forever ? RTIPC_FOREVER : rtipc_ms(10);
    int64_t next = st->start_ns;
    for (;;) {
        int64_t now = bench_now_ns();
        if (now >= st->end_ns || st->sent == st->cap || bench_failure_is_set(&st->failure))
            break;
        if (next > now)
            bench_delay_ns(next - now);
        if (st->v->subscribe)
            (void)(st->kernel ? bench_kwdt_reset() : rtipc_wdt_reset());
        uint32_t seq = (uint32_t)st->sent;
        int64_t t0 = bench_now_ns();
        int rc;
        if (st->kernel) {
            /* xQueueSend(q, &seq, portMAX_DELAY or pdMS_TO_TICKS(10)): errQUEUE_FULL only after the timeout. */
            rc = bench_kq_send(st->kq, &seq, st->v->forever ? BENCH_KWAIT_FOREVER : 10000000);
            rc = rc == 1 ? RTIPC_ETIMEDOUT : rc;
        } else {
            rc = rtipc_queue_send(st->q, &seq, timeout);
        }
        int64_t t1 = bench_now_ns();
        if (t1 - t0 > st->max_stall_ns)
            st->max_stall_ns = t1 - t0;
        st->sent++;
        if (rc == RTIPC_ETIMEDOUT && !st->v->forever) {
            st->dropped[seq] = 1;
            st->n_dropped++;
        } else if (rc != 0) {
            bench_failure_set(&st->failure, "send of item %ld failed with %ld", (long)seq, (long)rc);
            break;
        }
        /* Steady rate, no catch-up burst after a long block. */
        next += BP_PERIOD_NS;
        if (next < t1)
            next = t1;
    }
    if (st->v->subscribe)
        (void)(st->kernel ? bench_kwdt_delete() : rtipc_wdt_delete(NULL));
    atomic_store_explicit(&st->producer_done, 1, memory_order_release);
}

/* Deliver one received item: numbers must increase (gaps are checked
 * against the producer's drops at the end). */
static bool take(bp_state_t *st, uint32_t seq)
{
    if (st->n_got == st->cap || (st->n_got && seq <= st->got[st->n_got - 1])) {
        bench_failure_set(&st->failure, "item %ld delivered after item %ld (duplicated or reordered)",
                          (long)seq, st->n_got ? (long)st->got[st->n_got - 1] : -1L);
        return false;
    }
    st->got[st->n_got++] = seq;
    return true;
}

/* One receive with the poll timeout (or @p none: no wait), rtipc's or
 * xQueueReceive (its pdFALSE: RTIPC_ETIMEDOUT, or RTIPC_EWOULDBLOCK without
 * a wait, as rtipc's). */
static int recv(bp_state_t *st, uint32_t *seq, bool none)
{
    if (!st->kernel)
        return rtipc_queue_receive(st->q, seq, none ? RTIPC_NO_WAIT : rtipc_ms(BP_RECV_POLL_MS));
    int rc = bench_kq_receive(st->kq, seq, none ? 0 : (int64_t)BP_RECV_POLL_MS * 1000000);
    return rc == 1 ? (none ? RTIPC_EWOULDBLOCK : RTIPC_ETIMEDOUT) : rc;
}

static void consumer(void *arg)
{
    bp_state_t *st = arg;
    while (!atomic_load_explicit(&st->go, memory_order_acquire))
        bench_delay_ns(100000);
    bool stalled = false;
    while (!bench_failure_is_set(&st->failure)) {
        if (!stalled && bench_now_ns() >= st->stall_at_ns) {
            bench_delay_ns(st->stall_ns);  /* the bus timeout: nothing is read */
            stalled = true;
        }
        uint32_t seq;
        int rc = recv(st, &seq, false);
        if (rc == 0) {
            if (!take(st, seq))
                break;
        } else if (rc == RTIPC_ETIMEDOUT) {
            if (!atomic_load_explicit(&st->producer_done, memory_order_acquire))
                continue;
            /* The producer has finished its last send: drain what is left. */
            while ((rc = recv(st, &seq, true)) == 0)
                if (!take(st, seq))
                    break;
            if (rc != RTIPC_EWOULDBLOCK && !bench_failure_is_set(&st->failure))
                bench_failure_set(&st->failure, "final receive failed with %ld", (long)rc);
            break;
        } else {
            bench_failure_set(&st->failure, "receive failed with %ld", (long)rc);
            break;
        }
    }
    atomic_store_explicit(&st->consumer_done, 1, memory_order_release);
}

/* What watches the kernel rows' producer, per target. */
#ifdef ESP_PLATFORM
#define KERNEL_WDT_NOTE                                                                                 \
    "ESP-IDF's Task Watchdog Timer, called directly: the producer subscribes with "                   \
    "esp_task_wdt_add(NULL), resets with esp_task_wdt_reset(), ends with esp_task_wdt_delete(NULL); "   \
    "the timeout is the run's, set by esp_task_wdt_reconfigure; a trip is one TWDT interrupt naming "  \
    "the producer (counted by name in esp_task_wdt_isr_user_handler). With trigger_panic false (this " \
    "app's setting, CONFIG_ESP_TASK_WDT_PANIC off) ESP-IDF only logs \"Task watchdog got triggered\" " \
    "with the tasks that did not reset and the cores' backtraces, and fires again every timeout"
#else
#define KERNEL_WDT_NOTE                                                                                 \
    "this FreeRTOS kernel has no task watchdog of its own: the producer is watched by rtipc's "        \
    "(rtipc/wdt.h: a monitor task comparing reset stamps with the timeout), the same as rtipc's rows; " \
    "so that producer is an rtipc task (rtipc's watchdog watches rtipc's tasks), the consumer the "     \
    "kernel's own"
#endif

static const char *mech_of(const bp_state_t *st)
{
    return st->kernel ? BENCH_MECH_KERNEL_QUEUE : BENCH_MECH_RTIPC_QUEUE;
}

/* Exactly one of "delivered" and "dropped" for every number sent. */
static int check_accounting(bench_run_t *run, const bp_state_t *st)
{
    if (st->sent != st->n_got + st->n_dropped)
        return bench_fail(run, "%s %s: sent %lu != delivered %lu + dropped %lu", mech_of(st), st->v->name, (unsigned long)st->sent,
                          (unsigned long)st->n_got, (unsigned long)st->n_dropped);
    size_t j = 0;
    for (size_t seq = 0; seq < st->sent; seq++) {
        bool delivered = j < st->n_got && st->got[j] == seq;
        j += delivered;
        if (delivered == (st->dropped[seq] != 0))
            return bench_fail(run, "%s %s: item %lu was %s", mech_of(st), st->v->name, (unsigned long)seq,
                              delivered ? "both delivered and counted dropped"
                                        : "lost (neither delivered nor dropped)");
    }
    if (j != st->n_got)
        return bench_fail(run, "%s %s: item %u delivered but never sent", mech_of(st), st->v->name, (unsigned)st->got[j]);
    return 0;
}

static int run_variant(bench_run_t *run, const bp_variant_t *v, bool kernel, bp_trips_t *trips, int64_t stall_ns,
                       int64_t pre_ns, int64_t post_ns)
{
    bp_state_t *st = calloc(1, sizeof *st);
    if (!st)
        return bench_fail(run, "out of memory");
    st->v = v;
    st->kernel = kernel;
    st->stall_ns = stall_ns;
    st->cap = (size_t)((pre_ns + stall_ns + post_ns) / BP_PERIOD_NS) + 64;
    st->dropped = calloc(st->cap, 1);
    st->got = calloc(st->cap, sizeof *st->got);
    int rc = kernel ? (bench_kq_create(BP_DEPTH, sizeof(uint32_t), &st->kq) == 0 ? 0 : RTIPC_ENOMEM)
                    : rtipc_queue_create(BP_DEPTH, sizeof(uint32_t), &st->q);
    if (!st->dropped || !st->got || rc != 0) {
        if (rc == 0 && !kernel)
            rtipc_queue_delete(st->q);
        bench_kq_delete(st->kq);
        free(st->dropped);
        free(st->got);
        free(st);
        return bench_fail(run, "%s %s: setup failed (%s)", kernel ? BENCH_MECH_KERNEL_QUEUE : BENCH_MECH_RTIPC_QUEUE, v->name, rc ? rtipc_strerror(rc) : "out of memory");
    }

    /* The kernel's rows run on the kernel's own tasks; a producer that
     * subscribes is rtipc's where the kernel has no watchdog of its own
     * (rtipc's watches rtipc's tasks). */
    bench_task_t *prod = NULL, *cons = NULL;
    bench_task_spec_t cc = {.name = "bp-consumer", .priority = 12, .core = bench_cpu(run, 0),
                            .entry = consumer, .arg = st, .native = kernel};
    bench_task_spec_t pc = {.name = BP_PRODUCER_NAME, .priority = 10, .core = bench_cpu(run, 1),
                            .entry = producer, .arg = st, .native = kernel && (bench_kwdt_espidf || !v->subscribe)};
    rc = bench_target_task_start(&cc, &cons);
    if (rc == 0)
        rc = bench_target_task_start(&pc, &prod);
    if (rc != 0) {
        bench_failure_set(&st->failure, "task creation failed: %s", rtipc_strerror(rc));
        if (cons) {
            atomic_store_explicit(&st->go, 1, memory_order_release);
            bench_target_task_delete(cons);
        }
    } else {
        atomic_store(&trips->producer, bench_target_task_rtipc(prod));
        atomic_store(&trips->by_name, kernel && bench_kwdt_espidf);
        atomic_store(&trips->producer_trips, 0);
        atomic_store(&trips->idle_trips, 0);
        atomic_store(&trips->other_trips, 0);
        st->start_ns = bench_now_ns() + 2000000;
        st->stall_at_ns = st->start_ns + pre_ns;
        st->end_ns = st->start_ns + pre_ns + stall_ns + post_ns;
        atomic_store_explicit(&st->go, 1, memory_order_release);
        /* Bounded wait: a producer blocked for good or a consumer that lost
         * the end is deleted, and the variant fails. */
        bool pdone, cdone;
        handoff_wait_done(&st->producer_done, &st->consumer_done, st->end_ns + 3000000000LL, &pdone,
                           &cdone);
        if (!pdone || !cdone)
            bench_failure_set(&st->failure, "%s",
                              !pdone ? "producer still blocked 3 s after the end (items lost?)"
                                     : "consumer did not finish within 3 s of the end");
        handoff_join_or_delete(cons, cdone);
        handoff_join_or_delete(prod, pdone);
        atomic_store(&trips->producer, NULL);
        atomic_store(&trips->by_name, false);
    }

    int result = 0;
    if (bench_failure_is_set(&st->failure)) {
        result = bench_fail(run, "%s %s: %s", mech_of(st), v->name, st->failure.why);
    } else if (check_accounting(run, st) == 0) {
        const char *m = mech_of(st);
        if (!v->no_watchdog) {
            uint64_t n = atomic_load(&trips->producer_trips);
            bench_result_t *w = bench_add_value(run, m, v->name, BENCH_METRIC_WATCHDOG_TRIPS, "count", (double)n);
            /* A subscribed producer that could not reset the watchdog for
             * longer than its timeout must trip a working one: none means
             * the watchdog itself did not fire here. */
            char dead[200] = "";
            if (v->forever && v->subscribe && n == 0 && st->max_stall_ns > trips->timeout_ns)
                snprintf(dead, sizeof dead,
                         "%sno trip although the subscribed producer could not reset the watchdog for "
                         "%.0f ms, longer than its %.0f ms timeout: the watchdog did not fire here",
                         kernel ? "; " : "", st->max_stall_ns / 1e6, trips->timeout_ns / 1e6);
            if (w && (kernel || dead[0]))
                bench_row_note(run, w, "%s%s", kernel ? KERNEL_WDT_NOTE : "", dead);
            if (dead[0])
                bench_note(run, "%s%s: the task watchdog did not fire (%.0f ms unreset, timeout %.0f ms): "
                                "this target's watchdog timer does not work here, and no trip count of this "
                                "run says anything about blocking",
                           kernel ? "kernel-queue " : "", v->name, st->max_stall_ns / 1e6, trips->timeout_ns / 1e6);
            bench_result_t *r = trips->idle_check ? bench_add_value(run, m, v->name, BENCH_METRIC_IDLE_TRIPS,
                                                                    "count", (double)atomic_load(&trips->idle_trips))
                                                  : NULL;
            if (r && atomic_load(&trips->idle_trips))
                bench_row_note(run, r, "a core's idle task was starved (by anything on the machine)");
        }
        bench_add_value(run, m, v->name, BENCH_METRIC_MAX_STALL, "ms", st->max_stall_ns / 1e6);
        bench_add_value(run, m, v->name, BENCH_METRIC_SENT, "count", (double)st->sent);
        bench_add_value(run, m, v->name, BENCH_METRIC_DELIVERED, "count", (double)st->n_got);
        bench_add_value(run, m, v->name, BENCH_METRIC_DROPPED, "count", (double)st->n_dropped);
        if (atomic_load(&trips->idle_trips))
            bench_note(run, "%s: an idle task starved for a whole timeout: something (other real-time "
                            "load on the machine) held a core, so trips here may come from starvation",
                       v->name);
        if (atomic_load(&trips->other_trips))
            bench_note(run, "%s: %llu trip(s) named another subscriber of this process", v->name,
                       (unsigned long long)atomic_load(&trips->other_trips));
    } else {
        result = -1;
    }
    if (st->q)
        rtipc_queue_delete(st->q);
    bench_kq_delete(st->kq);
    free(st->dropped);
    free(st->got);
    free(st);
    return result;
}

static int run_blocked_producer(bench_run_t *run)
{
    static const bp_variant_t variants[] = {
        {BENCH_VARIANT_WAIT_FOREVER_SUBSCRIBED, true, true, false},
        {BENCH_VARIANT_WAIT_FOREVER_UNSUBSCRIBED, true, false, false},
        {BENCH_VARIANT_TIMEOUT_10MS_SUBSCRIBED, false, true, false},
    };
    int64_t stall_ns = (int64_t)(bench_duration(run, 1.0, 0.3) * 1e9);
    int64_t pre_ns = bench_quick(run) ? 30000000 : 300000000;
    int64_t post_ns = bench_quick(run) ? 40000000 : 300000000;
    /* Shorter than the stall, so a producer blocked through it can trip it. */
    int64_t wdt_ns = bench_quick(run) ? stall_ns / 3 : stall_ns / 2;
    if (wdt_ns < 1000000)
        wdt_ns = 1000000;

    bp_trips_t *trips = calloc(1, sizeof *trips);
    if (!trips)
        return bench_fail(run, "out of memory");
    rtipc_wdt_config_t wc = {.timeout_ns = wdt_ns, .idle_check = true, .on_trip = on_trip, .arg = trips};
    int rc = rtipc_wdt_start(&wc);
    if (rc == RTIPC_ENOTSUP) {
        /* A kernel where the port cannot watch each core's idle task (a
         * FreeRTOS SMP kernel without core affinity): subscriptions only. */
        wc.idle_check = false;
        rc = rtipc_wdt_start(&wc);
    }
    trips->idle_check = wc.idle_check;
    trips->timeout_ns = wdt_ns;
    if (rc == RTIPC_ENOTSUP) {
        /* A port without rtipc's task watchdog: the stall, the producer's
         * blocking and the accounting are still measured. */
        free(trips);
        bench_add_missing(run, "task-watchdog", "rtipc_wdt_* are not supported by this port (RTIPC_ENOTSUP): "
                                                "no watchdog-trips rows");
        static const bp_variant_t unwatched[] = {
            {"wait-forever", true, false, true},
            {"timeout-10ms", false, false, true},
        };
        static bp_trips_t none;  /* zero: nothing trips without a watchdog */
        for (size_t i = 0; i < 2; i++) {
            bench_progress(run, (double)i / 2.0);
            if (run_variant(run, &unwatched[i], false, &none, stall_ns, pre_ns, post_ns) != 0)
                return -1;
            if (bench_mech_kernel_built && run_variant(run, &unwatched[i], true, &none, stall_ns, pre_ns, post_ns) != 0)
                return -1;
        }
        bench_progress(run, 1.0);
        bench_note(run, "consumer stall %.0f ms, producer 1 item/ms into a depth-%d queue; no task watchdog "
                        "on this port", stall_ns / 1e6, BP_DEPTH);
        return 0;
    }
    if (rc != 0) {
        free(trips);
        if (rc == RTIPC_EBUSY)
            return bench_fail(run, "the task watchdog is already running: its settings cannot be read "
                                   "back to restore them, so this experiment does not replace it");
        return bench_fail(run, "watchdog start: %s", rtipc_strerror(rc));
    }
    int result = 0;
    size_t nv = sizeof variants / sizeof variants[0];
    for (size_t i = 0; i < nv && result == 0; i++) {
        bench_progress(run, (double)i / (double)nv);
        /* rtipc's queue, then the kernel's under the same watchdog. */
        result = run_variant(run, &variants[i], false, trips, stall_ns, pre_ns, post_ns);
        if (result == 0 && bench_mech_kernel_built)
            result = run_variant(run, &variants[i], true, trips, stall_ns, pre_ns, post_ns);
    }
    rtipc_wdt_stop();  /* back to "not running", as found */
    free(trips);
    bench_progress(run, 1.0);
    if (result != 0)
        return -1;

    bench_note(run, "consumer stall %.0f ms, watchdog timeout %.0f ms (checked every %.0f ms, idle check "
                    "%s), producer 1 item/ms into a depth-%d queue",
               stall_ns / 1e6, wdt_ns / 1e6, wdt_ns / 4e6,
               wc.idle_check ? "on" : "off: the port cannot watch the idle tasks here, no idle-trips rows", BP_DEPTH);
    bench_note(run, "FreeRTOS/ESP-IDF: a task blocked in a send does not trip the task watchdog by "
                    "itself. It trips when a SUBSCRIBED task stops resetting it for a whole timeout (a "
                    "producer blocked in its send cannot reset), or when a core's idle task is starved; "
                    "a blocked task frees its core, so it cannot starve the idle task.");
    return 0;
}

const bench_experiment_t exp_blocked_producer = {
    .id = BENCH_EXP_BLOCKED_PRODUCER,
    .summary = EXP_BLOCKED_PRODUCER_SUMMARY,
    .definitions =
        "Setup: producer task on core 1 (priority 10) sends sequence numbers (4 B) every 1 ms into a\n"
        "  depth-10 queue, resetting its task-watchdog subscription once per loop; consumer task on\n"
        "  core 0 (priority 12) receives, and once (after 300 ms; quick 30 ms) stalls for 1 s (quick\n"
        "  0.3 s, or --duration) in a delay, as if a bus transaction timed out. The task watchdog runs\n"
        "  with a timeout of half the stall (quick: a third) and its idle-task check on; it is stopped\n"
        "  again afterwards. The producer never catches up in a burst after a long send.\n"
        "Variants: wait-forever/subscribed (send with RTIPC_FOREVER), wait-forever/unsubscribed (same,\n"
        "  no subscription), timeout-10ms/subscribed (send times out after 10 ms: the item is dropped,\n"
        "  counted, and the producer goes on).\n"
        "watchdog-trips: trips reported for the producer's subscription during the variant.\n"
        "idle-trips: trips for a starved idle task during the variant (not caused by the producer).\n"
        "max-stall (ms): the longest time the producer spent inside one rtipc_queue_send call.\n"
        "kernel-queue (FreeRTOS targets only; each variant right after rtipc's, same watchdog): the\n"
        "  queue is xQueueCreate(10, 4); the producer calls xQueueSend(q, &n, portMAX_DELAY) (wait-forever)\n"
        "  or xQueueSend(q, &n, pdMS_TO_TICKS(10)) (timeout-10ms: errQUEUE_FULL drops the item), the\n"
        "  consumer xQueueReceive(q, &n, pdMS_TO_TICKS(20)). max-stall spans the xQueueSend call. Its\n"
        "  watchdog: on ESP-IDF the Task Watchdog Timer called directly (esp_task_wdt_add(NULL),\n"
        "  esp_task_wdt_reset(), esp_task_wdt_delete(NULL); a trip reaches rtipc's callback by the\n"
        "  task's name); on other FreeRTOS kernels, which have none, rtipc's (row note).\n"
        "sent / delivered / dropped: items the producer sent, the consumer received, the producer\n"
        "  dropped after a timeout. sent = delivered + dropped must hold exactly, delivered numbers\n"
        "  must increase, and every gap must be an item the producer dropped; otherwise it fails.",
    .run = run_blocked_producer,
    .requires = EXP_BLOCKED_PRODUCER_REQUIRES,
};
