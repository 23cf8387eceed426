/* The task watchdog on FreeRTOS (include/rtipc/wdt.h).
 *
 * ESP-IDF with its Task Watchdog Timer enabled (CONFIG_ESP_TASK_WDT_EN): the
 * calls map onto the TWDT (esp_task_wdt_*). Its interrupt fires once per
 * timeout while an entry has not reset it; rtipc's part of that interrupt,
 * the TWDT's user hook, asks the TWDT which entries did not reset and
 * reports those that are rtipc's subscribers or the idle tasks it watches.
 *
 * Every other kernel (and ESP-IDF without the TWDT): as on Linux. Subscribers
 * stamp themselves when they reset; one task of rtipc's per core at the idle
 * priority (0), pinned, stamps its core whenever it gets to run; a monitor
 * task at the highest kernel priority (configMAX_PRIORITIES - 1) on core 0
 * compares every stamp with the timeout every timeout/4 and reports. An
 * idle-priority task rather than the kernel's idle hook, because the hook
 * (vApplicationIdleHook) is the application's, and a ready task of priority
 * 0 runs exactly when the kernel's idle task could (with
 * configIDLE_SHOULD_YIELD or time slicing), which is what the contract
 * watches. Times are kernel ticks, widened to 64 bits. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/task_lookup.h"
#include "port_internal.h"
#include "rtipc/wdt.h"

#ifdef ESP_PLATFORM
#include "sdkconfig.h"
#endif
#if defined(ESP_PLATFORM) && defined(CONFIG_ESP_TASK_WDT_EN) && CONFIG_ESP_TASK_WDT_EN
#define USE_TWDT 1
#include "esp_task_wdt.h"
#else
#define USE_TWDT 0
#endif

#define NS_PER_TICK ((int64_t)1000000000 / (int64_t)configTICK_RATE_HZ)

/* ---- state shared by both implementations -------------------------------------- */
static rtipc_wdt_config_t config;        /* written by start only, while stopped */
static volatile bool started;
static struct rtipc__task *subscribers;   /* the list lock guards it and each wdt_next */
static volatile uint64_t trips;          /* read and written in critical sections */

/* admin serialises start, stop, add and delete (a mutex: they may block in
 * the kernel). Made at first use: a critical section elects the maker. */
static StaticSemaphore_t admin_cb;
static SemaphoreHandle_t admin;
#if !USE_TWDT
static StaticSemaphore_t list_cb, wake_cb;
static SemaphoreHandle_t list_mx; /* the list lock: the monitor holds it while it reports */
static SemaphoreHandle_t wake;    /* given by stop: the monitor ends */
#endif
static volatile int locks_state; /* 0 none, 1 being made, 2 made */

static void make_locks(void)
{
    for (;;) {
        rtipc__crit_t c = rtipc__enter();
        int s = locks_state;
        if (s == 0)
            locks_state = 1;
        rtipc__exit(c);
        if (s == 2)
            return;
        if (s == 0) {
            admin = xSemaphoreCreateMutexStatic(&admin_cb);
#if !USE_TWDT
            list_mx = xSemaphoreCreateMutexStatic(&list_cb);
            wake = xSemaphoreCreateBinaryStatic(&wake_cb);
#endif
            c = rtipc__enter();
            locks_state = 2;
            rtipc__exit(c);
            return;
        }
        vTaskDelay(1); /* another task is making them */
    }
}

/* Before the scheduler runs there is one caller and no mutex holder to be. */
static bool scheduler_running(void) { return xTaskGetSchedulerState() != taskSCHEDULER_NOT_STARTED; }

static void lock_take(SemaphoreHandle_t m)
{
    if (scheduler_running())
        (void)xSemaphoreTake(m, portMAX_DELAY);
}

static void lock_give(SemaphoreHandle_t m)
{
    if (scheduler_running())
        (void)xSemaphoreGive(m);
}

/* 64-bit stamps are two stores on a 32-bit core: read and write them whole. */
static uint64_t stamp_get(const volatile uint64_t *p)
{
    rtipc__crit_t c = rtipc__enter();
    uint64_t v = *p;
    rtipc__exit(c);
    return v;
}

static void stamp_set(volatile uint64_t *p, uint64_t v)
{
    rtipc__crit_t c = rtipc__enter();
    *p = v;
    rtipc__exit(c);
}

uint64_t rtipc_wdt_trip_count(void) { return stamp_get(&trips); }

/* prefix + "IDLE<core>", without stdio (the TWDT reports from its interrupt). */
static const char *idle_name(char buf[16], const char *prefix, int core)
{
    char digits[3]; /* with an 8-character prefix: 16 bytes in all */
    int n = 0, i = 0;
    unsigned v = core < 0 ? 0u : (unsigned)core;
    do {
        digits[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v && n < (int)sizeof digits);
    for (const char *p = prefix; *p && i < 8; ++p)
        buf[i++] = *p;
    for (const char *p = "IDLE"; *p; ++p)
        buf[i++] = *p;
    while (n > 0)
        buf[i++] = digits[--n];
    buf[i] = '\0';
    return buf;
}

#if !USE_TWDT
static void default_report(const rtipc_wdt_trip_t *trip, void *arg)
{
    (void)arg;
    /* Whole milliseconds: no floating point in the library on an MCU. */
    long long ms = trip->silent_ns / 1000000;
    if (trip->task)
        fprintf(stderr, "rtipc: task watchdog: task '%s' has not reset it for %lld.%03lld s\n", trip->name,
                ms / 1000, ms % 1000);
    else
        fprintf(stderr, "rtipc: task watchdog: core %d idle task starved for %lld.%03lld s\n", trip->core, ms / 1000,
                ms % 1000);
}
#else
/* The TWDT logs the entries that did not reset it itself. */
static void default_report(const rtipc_wdt_trip_t *trip, void *arg)
{
    (void)trip;
    (void)arg;
}
#endif

/* One trip: @p t the silent subscriber, or NULL for core @p core's idle task. */
static void report(struct rtipc__task *t, int core, int64_t silent_ns)
{
    char name[16];
    rtipc_wdt_trip_t trip = {rtipc__task_id(t), t ? t->name : idle_name(name, "", core), core, silent_ns};
    rtipc__crit_t c = rtipc__enter();
    trips++;
    rtipc__exit(c);
    (config.on_trip ? config.on_trip : default_report)(&trip, config.arg);
#if !USE_TWDT
    if (config.abort_on_trip)
        abort();
#endif
}

#if USE_TWDT
/* A trip of a task rtipc does not know (ESP-IDF: subscribed through
 * esp_task_wdt_add), reported by name; silent for at least the timeout. */
static void report_foreign(const char *name)
{
    rtipc_wdt_trip_t trip = {NULL, name, -1, config.timeout_ns};
    rtipc__crit_t c = rtipc__enter();
    trips++;
    rtipc__exit(c);
    (config.on_trip ? config.on_trip : default_report)(&trip, config.arg);
}
#endif

/* ---- the list lock and the subscriber list -------------------------------------- */
#if USE_TWDT
/* A critical section: the TWDT's interrupt walks the list too. One holder at
 * a time, so one saved state. */
static rtipc__crit_t list_held;
static void list_lock(void)
{
    rtipc__crit_t c = rtipc__enter();
    list_held = c;
}
static void list_unlock(void) { rtipc__exit(list_held); }
#else
static void list_lock(void) { lock_take(list_mx); }
static void list_unlock(void) { lock_give(list_mx); }
#endif

/* List lock held. */
static bool unlink_subscriber(struct rtipc__task *t)
{
    for (struct rtipc__task **link = &subscribers; *link; link = &(*link)->wdt_next) {
        if (*link == t) {
            *link = t->wdt_next;
            t->wdt_next = NULL;
            t->wdt_subscribed = false;
            return true;
        }
    }
    return false;
}

static void backend_unsubscribe(TaskHandle_t handle);

/* Drop every subscription (stop). */
static void drop_all(void)
{
    for (;;) {
        list_lock();
        struct rtipc__task *t = subscribers;
        TaskHandle_t h = t ? t->handle : NULL;
        if (t)
            (void)unlink_subscriber(t);
        list_unlock();
        if (!t)
            return;
        backend_unsubscribe(h);
    }
}

#if USE_TWDT
/* ---- ESP-IDF: the Task Watchdog Timer -------------------------------------------- */
static bool took_over;         /* the TWDT ran before start (ESP-IDF starts it at boot) */
static volatile int changing;  /* rtipc is adding or deleting a TWDT entry (list lock) */
static uint64_t isr_now;       /* tick of the interrupt being served */

static uint32_t core_mask(bool all) { return all ? (uint32_t)((1u << configNUMBER_OF_CORES) - 1u) : 0u; }

static int backend_start(void)
{
    uint64_t ms = ((uint64_t)config.timeout_ns + 999999u) / 1000000u;
    esp_task_wdt_config_t c = {
        .timeout_ms = ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms,
        .idle_core_mask = core_mask(config.idle_check),
        .trigger_panic = config.abort_on_trip,
    };
    /* The call that fails with ESP_ERR_INVALID_STATE logs an error: try
     * first the one menuconfig makes likely. */
#ifdef CONFIG_ESP_TASK_WDT_INIT
    esp_err_t e = esp_task_wdt_reconfigure(&c); /* ESP-IDF started it at boot */
    took_over = e != ESP_ERR_INVALID_STATE;
    if (!took_over)
        e = esp_task_wdt_init(&c); /* deinitialised since */
#else
    esp_err_t e = esp_task_wdt_init(&c);
    took_over = e == ESP_ERR_INVALID_STATE; /* the application started it */
    if (took_over)
        e = esp_task_wdt_reconfigure(&c);
#endif
    return e == ESP_OK ? RTIPC_OK : e == ESP_ERR_NO_MEM ? RTIPC_ENOMEM : RTIPC_ESYSTEM;
}

static void backend_stop(void)
{
    drop_all();
    if (!took_over) {
        /* Refused (and the TWDT left running) while tasks that subscribed
         * through esp_task_wdt_add directly remain. */
        (void)esp_task_wdt_deinit();
        return;
    }
#ifdef CONFIG_ESP_TASK_WDT_INIT
    /* ESP-IDF's own TWDT: back to its menuconfig settings. */
    uint32_t idle = 0;
#ifdef CONFIG_ESP_TASK_WDT_CHECK_IDLE_TASK_CPU0
    idle |= 1u;
#endif
#ifdef CONFIG_ESP_TASK_WDT_CHECK_IDLE_TASK_CPU1
    idle |= 2u;
#endif
    esp_task_wdt_config_t c = {
        .timeout_ms = (uint32_t)CONFIG_ESP_TASK_WDT_TIMEOUT_S * 1000u,
        .idle_core_mask = idle & core_mask(true),
#ifdef CONFIG_ESP_TASK_WDT_PANIC
        .trigger_panic = true,
#else
        .trigger_panic = false,
#endif
    };
    (void)esp_task_wdt_reconfigure(&c);
#endif
}

static void set_changing(int d)
{
    list_lock();
    changing += d;
    list_unlock();
}

static int backend_subscribe(struct rtipc__task *t)
{
    set_changing(1);
    esp_err_t e = esp_task_wdt_add(t->handle);
    set_changing(-1);
    if (e == ESP_OK)
        return RTIPC_OK;
    /* ESP_ERR_INVALID_ARG: already subscribed, through esp_task_wdt_add. */
    return e == ESP_ERR_NO_MEM ? RTIPC_ENOMEM : e == ESP_ERR_INVALID_ARG ? RTIPC_EINVAL : RTIPC_ESYSTEM;
}

static void backend_unsubscribe(TaskHandle_t handle)
{
    set_changing(1);
    (void)esp_task_wdt_delete(handle); /* never reads the task: it may have ended */
    set_changing(-1);
}

static void backend_reset(void) { (void)esp_task_wdt_reset(); }

/* esp_task_wdt_print_triggered_tasks's handler: the TWDT passes its
 * caption, then per silent entry "\n - ", the entry's name and its cores,
 * each as a message of its own; a task's name is the pointer
 * pcTaskGetName returns, so a pointer compare finds rtipc's subscribers and
 * the idle tasks. Any other name is a task that subscribed through
 * esp_task_wdt_add itself. @p opaque: whether the next message is a name. */
static void triggered(void *opaque, const char *msg)
{
    bool *name_next = opaque;
    if (!*name_next) {
        *name_next = strcmp(msg, "\n - ") == 0;
        return;
    }
    *name_next = false;
    for (struct rtipc__task *s = subscribers; s; s = s->wdt_next) {
        if (msg == pcTaskGetName(s->handle)) {
            report(s, s->core, (int64_t)(isr_now - stamp_get(&s->wdt_last_reset)) * NS_PER_TICK);
            return;
        }
    }
    for (int c = 0; c < configNUMBER_OF_CORES; ++c) {
        if (msg == pcTaskGetName(xTaskGetIdleTaskHandleForCPU((UBaseType_t)c))) {
            /* The TWDT keeps no time of the idle task's last run: at least the timeout. */
            if (config.idle_check)
                report(NULL, c, config.timeout_ns);
            return;
        }
    }
    /* A task that subscribed through esp_task_wdt_add itself: it has no
     * descriptor of rtipc's, only its name. */
    report_foreign(msg);
}

/* The TWDT's user hook (weak in ESP-IDF): its interrupt, once per timeout
 * while an entry has not reset it. The TWDT walks its list unlocked here,
 * so a period in which rtipc changes an entry is not reported (the TWDT
 * fires again a timeout later if the silence goes on). */
void esp_task_wdt_isr_user_handler(void)
{
    if (!started)
        return;
    list_lock();
    if (changing == 0) {
        isr_now = rtipc__tick_count64();
        bool name_next = false;
        (void)esp_task_wdt_print_triggered_tasks(triggered, &name_next, NULL);
    }
    list_unlock();
}

#else
/* ---- every other kernel: the monitor task and the idle-priority tasks ------------ */

/* The cores whose idle task can be watched: every core where tasks can be
 * pinned; none on an SMP kernel without core affinity (a floating task says
 * nothing of one core), nor where a second task of priority 0 would never
 * get the core from the kernel's idle task. */
#if configNUMBER_OF_CORES > 1 && (defined(ESP_PLATFORM) || configUSE_CORE_AFFINITY == 1)
#define IDLE_CORES configNUMBER_OF_CORES
#elif configNUMBER_OF_CORES > 1
#define IDLE_CORES 0
#elif configIDLE_SHOULD_YIELD == 0 && configUSE_TIME_SLICING == 0
#define IDLE_CORES 0
#else
#define IDLE_CORES 1
#endif

/* The monitor calls the trip callback (the default one prints). */
#ifndef rtipcCONFIG_WDT_STACK_BYTES
#define rtipcCONFIG_WDT_STACK_BYTES 4096u
#endif

static rtipc_task_t *monitor;
#if IDLE_CORES > 0
static rtipc_task_t *idle_tasks[IDLE_CORES];
static volatile uint64_t idle_last[IDLE_CORES];
static uint64_t idle_reported[IDLE_CORES]; /* the monitor's */
#endif
static int idle_count;
/* A trip needs a silence of need_ticks since the last stamp: the timeout in
 * whole ticks, rounded up, plus one, because a stamp's tick was already
 * partly over (as rtipc's blocking timeouts count). Reports of one silence
 * come a timeout apart. */
static uint64_t timeout_ticks, need_ticks;
static TickType_t period_ticks, nap_ticks;

static TickType_t tick_span(uint64_t ticks)
{
    uint64_t most = (uint64_t)(portMAX_DELAY / 4u);
    return (TickType_t)(ticks < 1u ? 1u : ticks > most ? most : ticks);
}

/* Silent for need_ticks since @p last and a timeout since the last report. */
static bool overdue(uint64_t now, uint64_t last, uint64_t *reported)
{
    /* A stamp newer than now: written on another core after now was read. */
    if (last > now || now - last < need_ticks || now - *reported < timeout_ticks)
        return false;
    *reported = now;
    return true;
}

static void check(void)
{
    uint64_t now = rtipc__tick_count64();
#if IDLE_CORES > 0
    for (int c = 0; c < idle_count; ++c) {
        uint64_t last = stamp_get(&idle_last[c]);
        if (overdue(now, last, &idle_reported[c]))
            report(NULL, c, (int64_t)(now - last) * NS_PER_TICK);
    }
#endif
    list_lock();
    for (struct rtipc__task *s = subscribers; s; s = s->wdt_next) {
        uint64_t last = stamp_get(&s->wdt_last_reset);
        if (overdue(now, last, &s->wdt_reported))
            report(s, s->core, (int64_t)(now - last) * NS_PER_TICK);
    }
    list_unlock();
}

static void monitor_entry(void *arg)
{
    (void)arg;
    TickType_t next = xTaskGetTickCount();
    for (;;) {
        next += period_ticks;
        TickType_t now = xTaskGetTickCount();
        /* Behind (a long callback): the missed checks merge into one, on the grid. */
        while ((TickType_t)(next - now) > period_ticks)
            next += period_ticks;
        if (xSemaphoreTake(wake, (TickType_t)(next - now)) == pdTRUE)
            return; /* rtipc_wdt_stop */
        check();
    }
}

#if IDLE_CORES > 0
static void idle_entry(void *arg)
{
    int core = (int)(intptr_t)arg;
    for (;;) {
        stamp_set(&idle_last[core], rtipc__tick_count64());
        vTaskDelay(nap_ticks);
    }
}
#endif

static void backend_stop(void)
{
    if (monitor) {
        if (scheduler_running()) {
            (void)xSemaphoreGive(wake);
            (void)rtipc_task_join(monitor); /* it may be reporting: let it finish */
        } else {
            (void)rtipc_task_delete(monitor);
        }
        monitor = NULL;
    }
#if IDLE_CORES > 0
    for (int c = 0; c < idle_count; ++c)
        (void)rtipc_task_delete(idle_tasks[c]);
#endif
    idle_count = 0;
    drop_all();
}

static int backend_start(void)
{
    timeout_ticks = ((uint64_t)config.timeout_ns + (uint64_t)NS_PER_TICK - 1u) / (uint64_t)NS_PER_TICK;
    need_ticks = timeout_ticks + 1u;
    period_ticks = tick_span((timeout_ticks + 3u) / 4u);
    nap_ticks = tick_span(timeout_ticks / 8u);
    (void)xSemaphoreTake(wake, 0); /* nothing left over */
    int rc = RTIPC_OK;
    if (config.idle_check) {
#if IDLE_CORES > 0
        uint64_t now = rtipc__tick_count64();
        for (int c = 0; c < IDLE_CORES && rc == RTIPC_OK; ++c) {
            char name[16];
            (void)idle_name(name, "rtipc-", c); /* the kernel's own is "IDLE" */
            stamp_set(&idle_last[c], now);
            idle_reported[c] = 0;
            rtipc_task_config_t tc = {.name = name, .priority = 0, .core = c, .entry = idle_entry,
                                      .arg = (void *)(intptr_t)c};
            rc = rtipc_task_create(&tc, &idle_tasks[c]);
            if (rc == RTIPC_OK)
                idle_count = c + 1;
        }
#else
        rc = RTIPC_ENOTSUP;
#endif
    }
    if (rc == RTIPC_OK) {
        rtipc_task_config_t mc = {.name = "rtipc-wdt", .core = 0, .stack_size = rtipcCONFIG_WDT_STACK_BYTES,
                                  .entry = monitor_entry};
        rc = rtipc__task_create_at(&mc, (UBaseType_t)(configMAX_PRIORITIES - 1), &monitor);
    }
    if (rc != RTIPC_OK)
        backend_stop();
    return rc;
}

static int backend_subscribe(struct rtipc__task *t)
{
    (void)t;
    return RTIPC_OK;
}

static void backend_unsubscribe(TaskHandle_t handle) { (void)handle; }

static void backend_reset(void) {}
#endif

/* ---- the calls ----------------------------------------------------------------- */
int rtipc_wdt_start(const rtipc_wdt_config_t *cfg)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!cfg || (cfg->timeout_ns != 0 && cfg->timeout_ns < 1000000))
        return RTIPC_EINVAL;
    make_locks();
    lock_take(admin);
    int rc = RTIPC_EBUSY;
    if (!started) {
        config = *cfg;
        if (config.timeout_ns == 0)
            config.timeout_ns = RTIPC_WDT_TIMEOUT_NS_DEFAULT;
        rc = backend_start();
        started = rc == RTIPC_OK;
    }
    lock_give(admin);
    return rc;
}

int rtipc_wdt_stop(void)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    make_locks();
    lock_take(admin);
    int rc = started ? RTIPC_OK : RTIPC_EINVAL;
    if (rc == RTIPC_OK) {
        started = false;
        backend_stop();
    }
    lock_give(admin);
    return rc;
}

static void forget(struct rtipc__task *t);
static const rtipc__task_hooks_t wdt_hooks = {.ended = forget};

int rtipc_wdt_add(rtipc_task_t *task)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    rtipc__task_hooks_add(&wdt_hooks);
    int rc;
    struct rtipc__task *t = rtipc__task_or_caller(task, &rc);
    if (!t)
        return rc;
    make_locks();
    lock_take(admin);
    rc = started && !t->wdt_subscribed ? backend_subscribe(t) : RTIPC_EINVAL;
    if (rc == RTIPC_OK) {
        stamp_set(&t->wdt_last_reset, rtipc__tick_count64());
        list_lock();
        t->wdt_reported = 0;
        t->wdt_next = subscribers;
        subscribers = t;
        t->wdt_subscribed = true;
        list_unlock();
    }
    lock_give(admin);
    return rc;
}

int rtipc_wdt_delete(rtipc_task_t *task)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    int rc;
    struct rtipc__task *t = rtipc__task_or_caller(task, &rc);
    if (!t)
        return rc;
    make_locks();
    lock_take(admin);
    rc = RTIPC_EINVAL;
    if (started && t->wdt_subscribed) {
        list_lock();
        bool was = unlink_subscriber(t);
        list_unlock();
        if (was) {
            backend_unsubscribe(t->handle);
            rc = RTIPC_OK;
        }
    }
    lock_give(admin);
    return rc;
}

/* The task hook (task_internal.h): a subscription ends with its task. */
static void forget(struct rtipc__task *t)
{
    if (!t->wdt_subscribed)
        return; /* also never subscribed: the locks may not exist */
    list_lock();
    bool was = unlink_subscriber(t);
    list_unlock();
    if (was)
        backend_unsubscribe(t->handle);
}

int rtipc_wdt_reset(void)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!scheduler_running())
        return RTIPC_EINVAL;
    struct rtipc__task *t = rtipc__task_of(NULL);
    if (!t || !t->wdt_subscribed)
        return RTIPC_EINVAL;
    stamp_set(&t->wdt_last_reset, rtipc__tick_count64());
    backend_reset();
    return RTIPC_OK;
}
