/* rtipc on ESP-IDF: a small latency suite whose results are printed as
 * rtipc-bench/1 JSON between two marker lines on the console
 * (docs/porting.md, "ESP-IDF (untested)"; docs/json-schema.md).
 *
 *   esp-queue-roundtrip  rtipc queue there and back, echo task on the same
 *                        core / on the other core (round trip, timed on one
 *                        core: the cycle counters of the two cores are not
 *                        synchronised, so nothing is timed across cores)
 *   notify-vs-sem        give to a higher-priority waiter on the same core:
 *                        binary semaphore vs direct notification (one way)
 *   esp-isr-handoff      a GPTimer alarm handler notifies a task on its core,
 *                        asking for the switch at handler exit (yield) or not
 *                        (no-yield: the task runs at the next tick or switch)
 *
 * Timestamps are the CPU cycle counter (esp_cpu_get_cycle_count) converted at
 * CONFIG_ESP_DEFAULT_CPU_FREQ_MHZ; dynamic frequency scaling must be off. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "driver/gpio.h"
#include "driver/gptimer.h"
#include "esp_chip_info.h"
#include "esp_cpu.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"
#include "sdkconfig.h"

#include "console.h"
#include "names.h"
#include "rtipc/rtipc.h"
#include "stats.h"

#define SAMPLES CONFIG_RTIPC_BENCH_SAMPLES
#define CPU_MHZ CONFIG_ESP_DEFAULT_CPU_FREQ_MHZ
#define PIN_SEND CONFIG_RTIPC_BENCH_GPIO_SEND
#define PIN_RECV CONFIG_RTIPC_BENCH_GPIO_RECV

#define PRIO_RECV 10u
#define PRIO_SEND 5u
#define STACK 4096u
#define TIMEOUT rtipc_ms(1000)

static inline uint32_t cycles(void) { return (uint32_t)esp_cpu_get_cycle_count(); }

/* Unsigned difference: right across a counter wrap (every ~17 s at 240 MHz). */
static inline int64_t cycles_to_ns(uint32_t from, uint32_t to)
{
    return (int64_t)(uint32_t)(to - from) * 1000 / CPU_MHZ;
}

static inline void pin(int gpio, int level)
{
    if (gpio >= 0)
        (void)gpio_set_level((gpio_num_t)gpio, (uint32_t)level);
}

static void pin_init(int gpio)
{
    if (gpio < 0)
        return;
    (void)gpio_reset_pin((gpio_num_t)gpio);
    (void)gpio_set_direction((gpio_num_t)gpio, GPIO_MODE_OUTPUT);
    (void)gpio_set_level((gpio_num_t)gpio, 0);
}

/* ---- series kept until the JSON is printed (statistics only) ---------------- */
#define MAX_SERIES 8

typedef struct {
    const char *experiment, *mechanism, *variant, *metric;
    bench_stats_t st;
} series_t;

static series_t series[MAX_SERIES];
static int nseries;

/* Statistics of the samples (then freed); false when there were none. */
static bool keep(const char *experiment, const char *mechanism, const char *variant, const char *metric,
                 bench_samples_t *s)
{
    bool ok = nseries < MAX_SERIES && s->n > 0 && bench_stats_compute(s, &series[nseries].st) == 0;
    if (ok) {
        series[nseries].experiment = experiment;
        series[nseries].mechanism = mechanism;
        series[nseries].variant = variant;
        series[nseries].metric = metric;
        nseries++;
    }
    bench_samples_free(s);
    return ok;
}

static int spawn(const char *name, unsigned prio, int core, rtipc_task_fn fn, void *arg, rtipc_task_t **out)
{
    const rtipc_task_config_t cfg = {
        .name = name, .priority = prio, .core = core, .stack_size = STACK, .entry = fn, .arg = arg};
    return rtipc_task_create(&cfg, out);
}

/* ---- esp-queue-roundtrip ------------------------------------------------------ */
typedef struct {
    rtipc_queue_t *there, *back;
    int n;
    int rc;
} echo_t;

static void echo_entry(void *arg)
{
    echo_t *e = arg;
    for (int i = 0; i < e->n && e->rc == RTIPC_OK; i++) {
        uint32_t v;
        e->rc = rtipc_queue_receive(e->there, &v, TIMEOUT);
        if (e->rc == RTIPC_OK) {
            pin(PIN_RECV, 1);
            e->rc = rtipc_queue_send(e->back, &v, TIMEOUT);
        }
    }
}

/* Runs on core 0 at PRIO_SEND; the echo task on echo_core at PRIO_RECV. */
static const char *queue_roundtrip(int echo_core, const char *variant)
{
    bench_samples_t s;
    echo_t e = {.n = SAMPLES, .rc = RTIPC_OK};
    rtipc_task_t *echo = NULL;
    if (bench_samples_init(&s, SAMPLES) != 0)
        return "no memory for samples";
    if (rtipc_queue_create(1, sizeof(uint32_t), &e.there) != RTIPC_OK ||
        rtipc_queue_create(1, sizeof(uint32_t), &e.back) != RTIPC_OK ||
        spawn("echo", PRIO_RECV, echo_core, echo_entry, &e, &echo) != RTIPC_OK) {
        bench_samples_free(&s);
        return "creating the queues or the echo task failed";
    }
    int rc = RTIPC_OK;
    for (uint32_t i = 0; i < (uint32_t)SAMPLES && rc == RTIPC_OK; i++) {
        uint32_t v = i, got = 0;
        pin(PIN_SEND, 1);
        uint32_t t0 = cycles();
        rc = rtipc_queue_send(e.there, &v, TIMEOUT);
        if (rc == RTIPC_OK)
            rc = rtipc_queue_receive(e.back, &got, TIMEOUT);
        uint32_t t1 = cycles();
        pin(PIN_SEND, 0);
        pin(PIN_RECV, 0);
        if (rc == RTIPC_OK && got != v)
            rc = RTIPC_EINVAL; /* a lost or reordered item */
        if (rc == RTIPC_OK)
            (void)bench_samples_push(&s, cycles_to_ns(t0, t1));
    }
    (void)rtipc_task_join(echo);
    (void)rtipc_queue_delete(e.there);
    (void)rtipc_queue_delete(e.back);
    if (rc != RTIPC_OK || e.rc != RTIPC_OK) {
        bench_samples_free(&s);
        return rc != RTIPC_OK ? rtipc_strerror(rc) : rtipc_strerror(e.rc);
    }
    return keep(BENCH_EXP_ESP_QUEUE_ROUNDTRIP, BENCH_MECH_RTIPC_QUEUE, variant, BENCH_METRIC_ROUND_TRIP, &s)
               ? NULL
               : "no samples";
}

/* ---- notify-vs-sem: semaphore vs notification, same core, one way -------------- */
typedef struct {
    bool use_notify;
    rtipc_sem_t *sem;
    bench_samples_t *s;
    volatile uint32_t t0;
    int n;
    int rc;
} handoff_t;

static void handoff_waiter(void *arg)
{
    handoff_t *h = arg;
    for (int i = 0; i < h->n && h->rc == RTIPC_OK; i++) {
        h->rc = h->use_notify ? rtipc_notify_take(0, true, NULL, TIMEOUT) : rtipc_sem_take(h->sem, TIMEOUT);
        uint32_t t1 = cycles();
        pin(PIN_RECV, 1);
        if (h->rc == RTIPC_OK)
            (void)bench_samples_push(h->s, cycles_to_ns(h->t0, t1));
    }
}

static const char *handoff(bool use_notify)
{
    bench_samples_t s;
    handoff_t h = {.use_notify = use_notify, .n = SAMPLES, .rc = RTIPC_OK};
    rtipc_task_t *waiter = NULL;
    if (bench_samples_init(&s, SAMPLES) != 0)
        return "no memory for samples";
    h.s = &s;
    if (rtipc_sem_create_binary(&h.sem) != RTIPC_OK) {
        bench_samples_free(&s);
        return "creating the semaphore failed";
    }
    /* The waiter (higher priority, same core) blocks first. */
    if (spawn("waiter", PRIO_RECV, 0, handoff_waiter, &h, &waiter) != RTIPC_OK) {
        (void)rtipc_sem_delete(h.sem);
        bench_samples_free(&s);
        return "creating the waiter failed";
    }
    int rc = RTIPC_OK;
    for (int i = 0; i < SAMPLES && rc == RTIPC_OK && h.rc == RTIPC_OK; i++) {
        (void)rtipc_task_delay(rtipc_ms(1)); /* the waiter is blocked again */
        pin(PIN_SEND, 1);
        h.t0 = cycles();
        rc = use_notify ? rtipc_notify_give(waiter, 0) : rtipc_sem_give(h.sem);
        /* The waiter preempted us, took its sample and blocked again. */
        pin(PIN_SEND, 0);
        pin(PIN_RECV, 0);
    }
    if (rc != RTIPC_OK || h.rc != RTIPC_OK) {
        /* Let the waiter run out (its take times out) before freeing. */
        (void)rtipc_task_join(waiter);
        (void)rtipc_sem_delete(h.sem);
        bench_samples_free(&s);
        return rc != RTIPC_OK ? rtipc_strerror(rc) : rtipc_strerror(h.rc);
    }
    (void)rtipc_task_join(waiter);
    (void)rtipc_sem_delete(h.sem);
    return keep(BENCH_EXP_NOTIFY_VS_SEM, use_notify ? BENCH_MECH_RTIPC_NOTIFY : BENCH_MECH_RTIPC_SEM,
                BENCH_VARIANT_SAME_CORE, BENCH_METRIC_LATENCY, &s)
               ? NULL
               : "no samples";
}

/* ---- esp-isr-handoff: GPTimer alarm handler -> task on the same core ---------- */
typedef struct {
    rtipc_task_t *volatile waiter;
    volatile bool pending;   /* a sample in flight: the handler skips */
    volatile bool yield;
    volatile uint32_t t0;
    volatile int isr_rc;
    bench_samples_t *s;
    int n;
    int rc;
} isr_t;

static isr_t isr_ctx;

static bool on_alarm(gptimer_handle_t timer, const gptimer_alarm_event_data_t *ev, void *arg)
{
    (void)timer;
    (void)ev;
    isr_t *c = arg;
    if (c->pending || !c->waiter)
        return false;
    c->pending = true;
    pin(PIN_SEND, 1);
    c->t0 = cycles();
    bool woken = false;
    int rc = rtipc_notify_give_from_isr(c->waiter, 0, &woken);
    if (rc != RTIPC_OK)
        c->isr_rc = rc;
    /* true: ESP-IDF switches to the woken task at handler exit. */
    return c->yield && woken;
}

static void isr_waiter(void *arg)
{
    isr_t *c = arg;
    for (int i = 0; i < c->n && c->rc == RTIPC_OK && c->isr_rc == RTIPC_OK; i++) {
        c->rc = rtipc_notify_take(0, true, NULL, TIMEOUT);
        uint32_t t1 = cycles();
        pin(PIN_RECV, 1);
        if (c->rc == RTIPC_OK)
            (void)bench_samples_push(c->s, cycles_to_ns(c->t0, t1));
        pin(PIN_SEND, 0);
        pin(PIN_RECV, 0);
        c->pending = false;
    }
    /* The handler skips from now on: it must not notify this task once it
     * has ended (the handler runs on this core, so it cannot be midway). */
    c->pending = true;
}

/* Runs on core 0: the alarm interrupt is allocated on the core that
 * registers the callbacks, and the waiter is pinned there too. */
static const char *isr_handoff(bool yield)
{
    bench_samples_t s;
    if (bench_samples_init(&s, SAMPLES) != 0)
        return "no memory for samples";
    isr_t *c = &isr_ctx;
    memset(c, 0, sizeof *c);
    c->yield = yield;
    c->s = &s;
    c->n = SAMPLES;
    c->pending = true; /* until the waiter exists */

    gptimer_handle_t timer = NULL;
    const gptimer_config_t tcfg = {
        .clk_src = GPTIMER_CLK_SRC_DEFAULT, .direction = GPTIMER_COUNT_UP, .resolution_hz = 1000000};
    /* Every 2 ms: longer than a no-yield handoff (at most one 1 ms tick). */
    const gptimer_alarm_config_t acfg = {.alarm_count = 2000, .reload_count = 0, .flags.auto_reload_on_alarm = 1};
    const gptimer_event_callbacks_t cbs = {.on_alarm = on_alarm};
    rtipc_task_t *waiter = NULL;
    const char *why = NULL;
    if (gptimer_new_timer(&tcfg, &timer) != ESP_OK || gptimer_set_alarm_action(timer, &acfg) != ESP_OK ||
        gptimer_register_event_callbacks(timer, &cbs, c) != ESP_OK || gptimer_enable(timer) != ESP_OK)
        why = "setting up the GPTimer failed";
    else if (spawn("isrwait", PRIO_RECV, 0, isr_waiter, c, &waiter) != RTIPC_OK)
        why = "creating the waiter failed";
    if (!why) {
        c->waiter = waiter;
        c->pending = false;
        if (gptimer_start(timer) != ESP_OK)
            why = "starting the GPTimer failed";
        (void)rtipc_task_join(waiter); /* returns after n samples or a failure */
        (void)gptimer_stop(timer);
        c->waiter = NULL;
    }
    if (timer) {
        (void)gptimer_disable(timer);
        (void)gptimer_del_timer(timer);
    }
    if (!why && c->isr_rc != RTIPC_OK)
        why = rtipc_strerror(c->isr_rc);
    if (!why && c->rc != RTIPC_OK)
        why = rtipc_strerror(c->rc);
    if (why) {
        bench_samples_free(&s);
        return why;
    }
    return keep(BENCH_EXP_ESP_ISR_HANDOFF, BENCH_MECH_RTIPC_NOTIFY_FROM_ISR,
                yield ? BENCH_VARIANT_YIELD : BENCH_VARIANT_NO_YIELD, BENCH_METRIC_LATENCY, &s)
               ? NULL
               : "no samples";
}

/* ---- the suite ------------------------------------------------------------------ */
typedef struct {
    bench_doc_experiment_t x[3];
    double overhead_ns;
} suite_t;

/* Experiments last longer than the cycle counter's wrap: timed in ticks. */
static double seconds_since(TickType_t k0)
{
    return (double)(TickType_t)(xTaskGetTickCount() - k0) / (double)configTICK_RATE_HZ;
}

static const char *first(const char *a, const char *b) { return a ? a : b; }

static void suite_entry(void *arg)
{
    suite_t *r = arg;
    bench_samples_t s;
    if (bench_samples_init(&s, 200) == 0) {
        for (int i = 0; i < 200; i++) {
            uint32_t a = cycles();
            uint32_t b = cycles();
            (void)bench_samples_push(&s, cycles_to_ns(a, b));
        }
        bench_stats_t st;
        if (bench_stats_compute(&s, &st) == 0) {
            r->overhead_ns = st.p50;
            bench_stats_free(&st);
        }
        bench_samples_free(&s);
    }

    TickType_t k = xTaskGetTickCount();
    const char *why = queue_roundtrip(0, BENCH_VARIANT_SAME_CORE);
    if (rtipc_core_count() > 1)
        why = first(why, queue_roundtrip(1, BENCH_VARIANT_CROSS_CORE));
    r->x[0] = (bench_doc_experiment_t){.id = BENCH_EXP_ESP_QUEUE_ROUNDTRIP,
                                       .summary = "rtipc queue round trip, echo task on the same/other core",
                                       .definitions = "round-trip: send start to the echoed item received back, timed on core 0",
                                       .failed = why != NULL,
                                       .failure = why,
                                       .seconds = seconds_since(k)};
    k = xTaskGetTickCount();
    why = handoff(false);
    why = first(why, handoff(true));
    r->x[1] = (bench_doc_experiment_t){.id = BENCH_EXP_NOTIFY_VS_SEM,
                                       .summary = "binary semaphore vs direct notification to a waiter on the same core",
                                       .definitions = "latency: just before the give to the higher-priority waiter's return from take",
                                       .failed = why != NULL,
                                       .failure = why,
                                       .seconds = seconds_since(k)};
    k = xTaskGetTickCount();
    why = isr_handoff(true);
    why = first(why, isr_handoff(false));
    r->x[2] = (bench_doc_experiment_t){.id = BENCH_EXP_ESP_ISR_HANDOFF,
                                       .summary = "GPTimer alarm handler notifies a task on its core",
                                       .definitions = "latency: the handler's notify to the task's return from take (with and without "
                                 "the switch requested at handler exit)",
                                       .failed = why != NULL,
                                       .failure = why,
                                       .seconds = seconds_since(k)};
}

static const char *cflags(void)
{
#if defined(CONFIG_COMPILER_OPTIMIZATION_PERF)
    return "-O2 (CONFIG_COMPILER_OPTIMIZATION_PERF)";
#elif defined(CONFIG_COMPILER_OPTIMIZATION_SIZE)
    return "-Os (CONFIG_COMPILER_OPTIMIZATION_SIZE)";
#elif defined(CONFIG_COMPILER_OPTIMIZATION_NONE)
    return "-O0 (CONFIG_COMPILER_OPTIMIZATION_NONE)";
#else
    return "-Og (ESP-IDF default optimisation)";
#endif
}

/* ESP-IDF's entry point (called by its main task; declared by no header). */
void app_main(void);

void app_main(void)
{
    pin_init(PIN_SEND);
    pin_init(PIN_RECV);

    static suite_t r;
    rtipc_task_t *suite = NULL;
    /* The measuring side runs on core 0 below the receivers' priority. */
    if (spawn("suite", PRIO_SEND, 0, suite_entry, &r, &suite) != RTIPC_OK) {
        printf("esp32-bench: cannot create the suite task\n");
        return;
    }
    (void)rtipc_task_join(suite);

    esp_chip_info_t ci;
    esp_chip_info(&ci);
    char chip[48], started[32] = "1970-01-01T00:00:00Z";
    snprintf(chip, sizeof chip, "%s rev v%d.%d", CONFIG_IDF_TARGET, ci.revision / 100, ci.revision % 100);
    time_t now = time(NULL); /* the device's clock: boot time unless set (SNTP) */
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", &tm);
    const bench_console_env_t env = {.chip = chip,
                                     .clock = BENCH_CLOCK_MCU_CYCLES, /* CCOUNT */
                           .cores = ci.cores,
                           .cpu_mhz = CPU_MHZ,
                           .idf_version = IDF_VER,
                           .freertos_version = tskKERNEL_VERSION_NUMBER,
                           .rtipc_version = RTIPC_VERSION,
                           .compiler = "gcc " __VERSION__,
                           .cflags = cflags(),
                           .started_utc = started,
                           .tick_hz = configTICK_RATE_HZ,
                           .timestamp_overhead_ns = r.overhead_ns,
                           .samples = SAMPLES};
    bench_console_t c;
    bench_console_begin(&c, stdout, &env);
    for (int i = 0; i < nseries; i++) {
        bench_console_dist(&c, series[i].experiment, series[i].mechanism, series[i].variant, series[i].metric, "ns",
                           &series[i].st);
        bench_stats_free(&series[i].st);
    }
    if (bench_console_end(&c, r.x, 3) != 0)
        printf("esp32-bench: the console refused part of the JSON\n");
}
