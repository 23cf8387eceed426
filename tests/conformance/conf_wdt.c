/* Conformance: the task watchdog (wdt.h).
 *
 * The trip callback runs in interrupt context on Linux and in the monitor
 * task on FreeRTOS; either way it only passes each trip on through a queue,
 * and the runner judges them afterwards. Lines hold counts and names, never
 * times: a count is printed as the range the contract allows for the
 * scenario ("4..5", "2+") when it lies in it, else as the number. */
#include <stdio.h>
#include <string.h>

#include "conf_internal.h"

#define WDT_MS 50
#define WDT_NS ((int64_t)WDT_MS * 1000000)
#define WDT_MAX_TRIPS 24

typedef struct {
    int32_t idle; /* an idle-task trip */
    int32_t core;
    int64_t silent_ns;
    int64_t at_ns;
    char name[16];
} wdt_trip_t;

static void on_trip(const rtipc_wdt_trip_t *trip, void *arg)
{
    rtipc_queue_t *q = arg;
    wdt_trip_t t;
    memset(&t, 0, sizeof t);
    t.idle = trip->task == NULL;
    t.core = trip->core;
    t.silent_ns = trip->silent_ns;
    t.at_ns = rtipc_time_ns();
    for (size_t i = 0; trip->name && trip->name[i] && i + 1 < sizeof t.name; ++i)
        t.name[i] = trip->name[i];
    if (rtipc_in_interrupt())
        (void)rtipc_queue_send_from_isr(q, &t, NULL);
    else
        (void)rtipc_queue_send(q, &t, RTIPC_NO_WAIT);
}

enum wdt_mode { W_SILENT, W_RESETTING, W_UNSUBSCRIBED, W_BLOCKED, W_ENDS, W_SPIN };

typedef struct {
    enum wdt_mode mode;
    int rc_add, rc_delete;
} wdt_worker_t;

static void wdt_worker(void *arg)
{
    wdt_worker_t *w = arg;
    if (w->mode != W_BLOCKED && w->mode != W_SPIN)
        w->rc_add = rtipc_wdt_add(NULL);
    switch (w->mode) {
    case W_SILENT:
        (void)rtipc_task_delay(rtipc_ms(11 * WDT_MS / 2)); /* blocked: it cannot reset */
        w->rc_delete = rtipc_wdt_delete(NULL);
        break;
    case W_RESETTING:
        for (int i = 0; i < 16; ++i) {
            (void)rtipc_wdt_reset();
            (void)rtipc_task_delay(rtipc_ms(WDT_MS / 4));
        }
        w->rc_delete = rtipc_wdt_delete(NULL);
        break;
    case W_UNSUBSCRIBED:
        w->rc_delete = rtipc_wdt_delete(NULL);
        (void)rtipc_task_delay(rtipc_ms(3 * WDT_MS));
        break;
    case W_BLOCKED:
        (void)rtipc_task_delay(rtipc_ms(3 * WDT_MS));
        break;
    case W_ENDS:
        break; /* returns subscribed */
    case W_SPIN: {
        int64_t end = rtipc_time_ns() + 4 * WDT_NS;
        while (rtipc_time_ns() < end)
            ;
        break;
    }
    }
}

static bool run_worker(conf_t *c, const char *name, unsigned prio, wdt_worker_t *w)
{
    rtipc_task_t *t;
    if (!conf_spawn(c, name, prio, wdt_worker, w, &t))
        return false;
    conf_join(c, t);
    return true;
}

static int drain(rtipc_queue_t *q, wdt_trip_t *out)
{
    int n = 0;
    while (n < WDT_MAX_TRIPS && rtipc_queue_receive(q, &out[n], RTIPC_NO_WAIT) == RTIPC_OK)
        n++;
    return n;
}

/* "lo..hi" when lo <= n <= hi, else the number itself. */
static const char *in_range(char *buf, size_t size, int n, int lo, int hi)
{
    if (n >= lo && n <= hi)
        snprintf(buf, size, "%d..%d", lo, hi);
    else
        snprintf(buf, size, "%d", n);
    return buf;
}

static int start(rtipc_queue_t *q, bool idle_check)
{
    rtipc_wdt_config_t cfg = {.timeout_ns = WDT_NS, .idle_check = idle_check, .on_trip = on_trip, .arg = q};
    return rtipc_wdt_start(&cfg);
}

typedef struct {
    rtipc_queue_t *res;
} wdt_isr_t;

static void wdt_isr(void *arg)
{
    wdt_isr_t *s = arg;
    rtipc_wdt_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    int32_t rcs[5] = {rtipc_wdt_start(&cfg), rtipc_wdt_stop(), rtipc_wdt_add(NULL), rtipc_wdt_delete(NULL),
                      rtipc_wdt_reset()};
    for (int i = 0; i < 5; ++i)
        (void)rtipc_queue_send_from_isr(s->res, &rcs[i], NULL);
}

static void handler_context(conf_t *c)
{
    wdt_isr_t s = {NULL};
    rtipc_irq_t *irq = NULL;
    if (!conf_setup(c, "wdt_res", rtipc_queue_create(5, sizeof(int32_t), &s.res)))
        return;
    if (conf_setup(c, "wdt_irq", rtipc_irq_create(RTIPC_CONF_CORE, wdt_isr, &s, &irq))) {
        int64_t before = rtipc_irq_count(irq);
        int64_t t0 = rtipc_time_ns();
        if (conf_setup(c, "wdt_irq_trigger", rtipc_irq_trigger(irq)))
            while (rtipc_irq_count(irq) == before && rtipc_time_ns() - t0 < 2000000000LL)
                ;
        int32_t v[5] = {1, 1, 1, 1, 1};
        for (int i = 0; i < 5; ++i)
            (void)rtipc_queue_receive(s.res, &v[i], RTIPC_NO_WAIT);
        conf_check(c, "wdt.handler_context",
                   "start=RTIPC_ECONTEXT stop=RTIPC_ECONTEXT add=RTIPC_ECONTEXT delete=RTIPC_ECONTEXT "
                   "reset=RTIPC_ECONTEXT",
                   "start=%s stop=%s add=%s delete=%s reset=%s", conf_err(v[0]), conf_err(v[1]), conf_err(v[2]),
                   conf_err(v[3]), conf_err(v[4]));
        (void)rtipc_irq_delete(irq);
    }
    (void)rtipc_queue_delete(s.res);
}

/* Trips of one scenario: how many named @p name (task trips), how many others. */
static void count_named(const wdt_trip_t *t, int n, const char *name, int *named, int *other)
{
    *named = *other = 0;
    for (int i = 0; i < n; ++i) {
        if (!t[i].idle && strcmp(t[i].name, name) == 0)
            ++*named;
        else
            ++*other;
    }
}

void conf_wdt(conf_t *c)
{
    static wdt_trip_t trips[WDT_MAX_TRIPS];
    char r1[24];
    rtipc_wdt_config_t cfg;
    memset(&cfg, 0, sizeof cfg);

    /* Before start. */
    cfg.timeout_ns = 999999;
    int below = rtipc_wdt_start(&cfg);
    conf_check(c, "wdt.not_started",
               "start_null=RTIPC_EINVAL below_1ms=RTIPC_EINVAL stop=RTIPC_EINVAL add=RTIPC_EINVAL "
               "reset=RTIPC_EINVAL delete=RTIPC_EINVAL",
               "start_null=%s below_1ms=%s stop=%s add=%s reset=%s delete=%s", conf_err(rtipc_wdt_start(NULL)),
               conf_err(below), conf_err(rtipc_wdt_stop()), conf_err(rtipc_wdt_add(NULL)),
               conf_err(rtipc_wdt_reset()), conf_err(rtipc_wdt_delete(NULL)));

    rtipc_queue_t *q = NULL;
    if (!conf_setup(c, "wdt_queue", rtipc_queue_create(WDT_MAX_TRIPS, sizeof(wdt_trip_t), &q)))
        return;
    int rc = start(q, false);
    conf_check(c, "wdt.start", "0 again=RTIPC_EBUSY", "%s again=%s", conf_err(rc), conf_err(start(q, false)));
    if (rc != RTIPC_OK) {
        (void)rtipc_queue_delete(q);
        return;
    }
    int reset_unsub = rtipc_wdt_reset();
    int add = rtipc_wdt_add(NULL);
    int add_again = rtipc_wdt_add(NULL);
    int reset = rtipc_wdt_reset();
    int del = rtipc_wdt_delete(NULL);
    conf_check(c, "wdt.subscribe",
               "reset_unsubscribed=RTIPC_EINVAL add=0 add_again=RTIPC_EINVAL reset=0 delete=0 "
               "delete_again=RTIPC_EINVAL",
               "reset_unsubscribed=%s add=%s add_again=%s reset=%s delete=%s delete_again=%s", conf_err(reset_unsub),
               conf_err(add), conf_err(add_again), conf_err(reset), conf_err(del), conf_err(rtipc_wdt_delete(NULL)));
    handler_context(c);
    (void)drain(q, trips);

    /* Silent for 5.5 timeouts: 4 or 5 trips (the first comes up to a
     * check period after the timeout), each naming it, each after at
     * least a timeout of silence, no two within one timeout. */
    uint64_t count0 = rtipc_wdt_trip_count();
    wdt_worker_t w = {W_SILENT, 1, 1};
    if (run_worker(c, "W.silent", CONF_PRIO_HIGH, &w)) {
        int n = drain(q, trips), named, other;
        count_named(trips, n, "W.silent", &named, &other);
        bool silent_ok = true, spaced = true;
        for (int i = 0; i < n; ++i) {
            silent_ok = silent_ok && trips[i].silent_ns >= WDT_NS;
            spaced = spaced && (i == 0 || trips[i].at_ns - trips[i - 1].at_ns >= 3 * WDT_NS / 4);
        }
        bool counted = rtipc_wdt_trip_count() - count0 == (uint64_t)n;
        conf_check(c, "wdt.silent_subscriber",
                   "add=0 trips=4..5 others=0 silent_at_least_timeout=1 once_per_timeout=1 counted=1 delete=0",
                   "add=%s trips=%s others=%d silent_at_least_timeout=%d once_per_timeout=%d counted=%d delete=%s",
                   conf_err(w.rc_add), in_range(r1, sizeof r1, named, 4, 5), other, silent_ok, spaced, counted,
                   conf_err(w.rc_delete));
    }

    /* Resetting every timeout/4 for 4 timeouts; unsubscribed at once; never
     * subscribed and blocked; ended while subscribed: no trips. */
    w = (wdt_worker_t){W_RESETTING, 1, 1};
    if (run_worker(c, "W.resetting", CONF_PRIO_HIGH, &w))
        conf_check(c, "wdt.resetting_subscriber", "add=0 trips=0 delete=0", "add=%s trips=%d delete=%s",
                   conf_err(w.rc_add), drain(q, trips), conf_err(w.rc_delete));
    w = (wdt_worker_t){W_UNSUBSCRIBED, 1, 1};
    if (run_worker(c, "W.unsubscribed", CONF_PRIO_HIGH, &w))
        conf_check(c, "wdt.unsubscribed", "add=0 delete=0 trips=0", "add=%s delete=%s trips=%d",
                   conf_err(w.rc_add), conf_err(w.rc_delete), drain(q, trips));
    w = (wdt_worker_t){W_BLOCKED, 1, 1};
    if (run_worker(c, "W.blocked", CONF_PRIO_HIGH, &w))
        conf_check(c, "wdt.blocked_not_subscribed", "trips=0", "trips=%d", drain(q, trips));
    w = (wdt_worker_t){W_ENDS, 1, 1};
    if (run_worker(c, "W.ends", CONF_PRIO_HIGH, &w)) {
        (void)rtipc_task_delay(rtipc_ms(3 * WDT_MS));
        conf_check(c, "wdt.ended_subscriber", "add=0 trips=0", "add=%s trips=%d", conf_err(w.rc_add),
                   drain(q, trips));
    }

    /* Stop drops every subscription; a new start begins without any. */
    add = rtipc_wdt_add(NULL);
    int stop = rtipc_wdt_stop();
    int reset_stopped = rtipc_wdt_reset();
    int restart = start(q, false);
    int reset_restarted = rtipc_wdt_reset();
    conf_check(c, "wdt.restart", "add=0 stop=0 reset=RTIPC_EINVAL start=0 reset=RTIPC_EINVAL stop=0",
               "add=%s stop=%s reset=%s start=%s reset=%s stop=%s", conf_err(add), conf_err(stop),
               conf_err(reset_stopped), conf_err(restart), conf_err(reset_restarted), conf_err(rtipc_wdt_stop()));
    (void)drain(q, trips);

    /* The idle check: a task spinning for 4 timeouts above the idle
     * priority starves core RTIPC_CONF_CORE: at least 2 trips naming its
     * idle task, no two within one timeout (more than 4 only if something
     * else held the core longer; other cores are not judged: other load
     * may hold them). */
    if (conf_need_order(c, "wdt.idle.starved") && conf_setup(c, "wdt_idle_start", start(q, true))) {
        w = (wdt_worker_t){W_SPIN, 1, 1};
        if (run_worker(c, "W.spin", CONF_PRIO_HIGHER, &w)) {
            int n = drain(q, trips), core_trips = 0, task_trips = 0;
            bool named = true, spaced = true;
            int64_t last_at = 0;
            char want[16];
            snprintf(want, sizeof want, "IDLE%d", RTIPC_CONF_CORE);
            for (int i = 0; i < n; ++i) {
                if (!trips[i].idle) {
                    task_trips++;
                } else if (trips[i].core == RTIPC_CONF_CORE) {
                    named = named && strcmp(trips[i].name, want) == 0;
                    spaced = spaced && (core_trips == 0 || trips[i].at_ns - last_at >= 3 * WDT_NS / 4);
                    last_at = trips[i].at_ns;
                    core_trips++;
                }
            }
            if (core_trips >= 2)
                snprintf(r1, sizeof r1, "2+");
            else
                snprintf(r1, sizeof r1, "%d", core_trips);
            conf_check(c, "wdt.idle.starved", "trips=2+ named=1 once_per_timeout=1 task_trips=0",
                       "trips=%s named=%d once_per_timeout=%d task_trips=%d", r1, named, spaced, task_trips);
        }
        (void)rtipc_wdt_stop();
    }
    (void)rtipc_queue_delete(q);
}
