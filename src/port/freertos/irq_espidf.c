/* Interrupt backend for ESP-IDF on the ESP32's Xtensa cores; see irq_port.h.
 *
 * Core c's vector is that CPU's internal software interrupt 0 (CPU
 * interrupt 7, level 1), allocated on core c with esp_intr_alloc
 * (ETS_INTERNAL_SW0_INTR_SOURCE) from core c's IPC task (by the caller on
 * a unicore build, which has no IPC task), so it takes no
 * peripheral, no interrupt-matrix source and no GPIO. A CPU can raise only
 * its own software interrupts (INTSET): core c pends its own vector
 * directly; the other core asks core c to, through ESP-IDF's IPC ISR
 * (esp_ipc_isr_asm_call), whose callback irq_espidf_raise.S sets core c's
 * INTSET bit from core c's high-priority interrupt. That path exists
 * because the interrupt matrix's cross-core sources (FROM_CPU_INTR0-3) are
 * all ESP-IDF's own on the esp32 (its cross-core yield and the IPC ISR).
 *
 * A pend from a task with interrupts enabled waits until a run of core c's
 * vector that began after the request has finished (counts per core, as
 * the RV32 backend keeps them); with interrupts masked (a critical section,
 * another handler) it returns at once and the vector runs when core c
 * takes it.
 *
 * Timers: each source takes a GPTimer of its own at creation while one is
 * free (the esp32 has four; none with menuconfig's
 * RTIPC_IRQ_TIMER_TICK_ONLY). Its alarm interrupt is allocated on the
 * source's core, from that core's IPC task, and raises the source as
 * rtipc_irq_trigger does; it counts at 40 MHz (the 80 MHz APB clock over
 * the smallest divider), so a delay is rounded up and a period to the
 * nearest 25 ns, and the alarms stay on the grid (see "hardware timers"
 * below for why the interrupt re-arms them). The
 * timer is released on the same core, so no alarm of it is still running
 * there. A source without one falls back to the tick: the first source
 * created registers rtipc_freertos_tick_hook on core 0's tick
 * (esp_register_freertos_tick_hook_for_cpu), so an ESP-IDF application
 * does not call it itself.
 *
 * The vector is not in IRAM (no ESP_INTR_FLAG_IRAM): the handlers it calls
 * are the application's, in flash, so ESP-IDF masks it while the flash
 * cache is off and it runs once the cache is back. */
#include <stdatomic.h>
#include <stdint.h>

#include "irq_port.h"
#include "port_internal.h" /* ESP-IDF's kernel, hence configNUMBER_OF_CORES */
#include "rtipc/port_freertos.h"

#include "driver/gptimer.h"
#include "esp_freertos_hooks.h"
#include "esp_intr_alloc.h"
#if configNUMBER_OF_CORES > 1
#include "esp_ipc.h"
#include "esp_ipc_isr.h"
#endif
#include "xtensa/hal.h"

#include "common/port.h"

#define SW0_MASK (1u << 7) /* CPU interrupt 7: internal software interrupt 0 */

/* Runs of each core's vector begun and finished; only that core writes its
 * pair, one run at a time (a level-1 interrupt does not nest in itself). */
static atomic_uint entered[configNUMBER_OF_CORES], finished[configNUMBER_OF_CORES];
/* Each core's allocation; written once by that core's IPC task. */
static intr_handle_t vector_handle[configNUMBER_OF_CORES];
static atomic_bool tick_hooked;

#if configNUMBER_OF_CORES > 1
/* irq_espidf_raise.S: sets the running CPU's INTSET bit 7; an IPC ISR
 * callback (callx0, scratch a2-a4 only). */
void rtipc__espidf_raise_sw0(void *arg);
#endif

static void vector(void *arg)
{
    (void)arg;
    unsigned c = (unsigned)xPortGetCoreID();
    /* Clear first: a request made while the handlers run pends it again. */
    xthal_set_intclear(SW0_MASK);
    atomic_fetch_add_explicit(&entered[c], 1u, memory_order_seq_cst);
    bool yield = rtipc__irq_service();
    atomic_fetch_add_explicit(&finished[c], 1u, memory_order_release);
    portYIELD_FROM_ISR(yield ? pdTRUE : pdFALSE); /* on this core */
}

unsigned rtipc__irq_hw_cores(void) { return (1u << configNUMBER_OF_CORES) - 1u; }

/* On the core to serve (its IPC task, or the caller when that is the core
 * and the scheduler has not started): allocate the vector once. */
static void init_here(void *arg)
{
    int *rc = arg;
    unsigned c = (unsigned)xPortGetCoreID();
    *rc = RTIPC_OK;
    if (vector_handle[c] == NULL &&
        esp_intr_alloc(ETS_INTERNAL_SW0_INTR_SOURCE, ESP_INTR_FLAG_LEVEL1, vector, NULL, &vector_handle[c]) != ESP_OK) {
        vector_handle[c] = NULL;
        *rc = RTIPC_ESYSTEM;
    }
}

int rtipc__irq_hw_init(unsigned core)
{
    /* Made ready by an earlier source of this core: no IPC round trip. */
    if (vector_handle[core] != NULL && atomic_load(&tick_hooked))
        return RTIPC_OK;
    int rc = RTIPC_ESYSTEM;
#if configNUMBER_OF_CORES > 1
    if (xTaskGetSchedulerState() == taskSCHEDULER_RUNNING) {
        /* Core c's IPC task runs every allocation for core c: one at a time. */
        if (esp_ipc_call_blocking(core, init_here, &rc) != ESP_OK)
            return RTIPC_ESYSTEM;
    } else if (core == (unsigned)xPortGetCoreID()) {
        init_here(&rc);
    } else {
        return RTIPC_ESYSTEM; /* another core's IPC task needs the scheduler */
    }
#else
    /* One core, the caller's (a unicore build has no IPC task): two
     * creates at once must not both allocate. */
    (void)core;
    vTaskSuspendAll();
    init_here(&rc);
    (void)xTaskResumeAll();
#endif
    if (rc != RTIPC_OK)
        return rc;
    if (!atomic_exchange(&tick_hooked, true) &&
        esp_register_freertos_tick_hook_for_cpu(rtipc_freertos_tick_hook, 0) != ESP_OK) {
        atomic_store(&tick_hooked, false);
        return RTIPC_ESYSTEM;
    }
    return RTIPC_OK;
}

void rtipc__irq_hw_pend(unsigned core)
{
    if (core >= configNUMBER_OF_CORES || vector_handle[core] == NULL)
        return; /* no source of that core was created: nothing to run */
    bool wait = !rtipc__in_isr() && xPortCanYield();
    atomic_thread_fence(memory_order_seq_cst); /* the source's pending flag before the count */
    unsigned before = atomic_load_explicit(&entered[core], memory_order_acquire);
    atomic_thread_fence(memory_order_seq_cst); /* ... and the count before the request */
    /* Masked, so that the caller stays on the core it asked about: an
     * unpinned task moved between the question and the raise would raise
     * the wrong core's vector. An own-core request is taken at the unmask. */
    UBaseType_t mask = portSET_INTERRUPT_MASK_FROM_ISR();
    if (core == (unsigned)xPortGetCoreID())
        xthal_set_intset(SW0_MASK);
#if configNUMBER_OF_CORES > 1
    else
        esp_ipc_isr_asm_call(rtipc__espidf_raise_sw0, NULL); /* returns once the other core runs it */
#endif
    portCLEAR_INTERRUPT_MASK_FROM_ISR(mask);
    if (!wait)
        return; /* taken when interrupts are unmasked again (here or there) */
    /* The (before+1)-th run entered after the request, so it runs this
     * request's handler; wait for it to finish. The task may move to the
     * other core meanwhile: the counts are the target core's. */
    while ((int)(atomic_load_explicit(&finished[core], memory_order_acquire) - (before + 1u)) < 0)
        ;
}

/* ---- hardware timers ------------------------------------------------------------ */

/* menuconfig's RTIPC_IRQ_TIMER_TICK_ONLY leaves every GPTimer to the
 * application (the code below stays compiled, and unused). */
#ifdef CONFIG_RTIPC_IRQ_TIMER_TICK_ONLY
#define TIMERS_IN_HARDWARE 0
#else
#define TIMERS_IN_HARDWARE 1
#endif

#define TIMER_HZ 40000000u /* 25 ns per count */
#define NS_PER_COUNT 25

/* Periodic alarms are re-armed by the alarm interrupt itself, at the first
 * grid point ahead of the counter, not by the hardware's auto-reload:
 * auto-reload needs the interrupt to enable the alarm again before the
 * next period has gone by, and an interrupt later than a period (under QEMU
 * every alarm interrupt takes tens of microseconds) lost every later
 * alarm; now the expiries it missed merge into one, as rtipc_irq_timer_start
 * promises. An alarm is never left at or below the counter, where it may
 * not fire (in QEMU's model it never does): see rearm. */
struct rtipc__irq_hw_timer {
    gptimer_handle_t gpt;
    rtipc_irq_t *handle; /* raised by the alarm; refused once deleted */
    portMUX_TYPE mux;    /* one start, stop or re-arm at a time */
    bool running;        /* started and not stopped (GPTimer refuses a second start) */
    uint64_t next;       /* the count of the alarm armed (or last armed) */
    uint64_t period;     /* counts; 0: one-shot */
    esp_err_t made;      /* ESP_OK once the GPTimer is set up */
};

/* The timer's own lock, from a task or a handler (ESP-IDF's critical
 * sections take a spinlock; interrupts stay masked while it is held). */
static bool timer_lock(struct rtipc__irq_hw_timer *t)
{
    bool isr = xPortInIsrContext();
    if (isr)
        taskENTER_CRITICAL_ISR(&t->mux);
    else
        taskENTER_CRITICAL(&t->mux);
    return isr;
}

static void timer_unlock(struct rtipc__irq_hw_timer *t, bool isr)
{
    if (isr)
        taskEXIT_CRITICAL_ISR(&t->mux);
    else
        taskEXIT_CRITICAL(&t->mux);
}

static void arm(struct rtipc__irq_hw_timer *t)
{
    const gptimer_alarm_config_t alarm = {.alarm_count = t->next};
    (void)gptimer_set_alarm_action(t->gpt, &alarm);
}

static uint64_t count_now(struct rtipc__irq_hw_timer *t)
{
    uint64_t now = 0;
    (void)gptimer_get_raw_count(t->gpt, &now);
    return now;
}

/* Under t's lock, once an alarm interrupt has come: whether the expiry is
 * due (the counter reached t->next), with the alarm armed again wherever
 * one must follow. An interrupt before the point (a stale alarm from before
 * a restart; Espressif's QEMU fires up to a count early, as its counter
 * loses a fraction of a count at every configuration write and a pending
 * deadline is only ever moved earlier) has used the alarm up: the same
 * point is armed again and nothing is raised. A due periodic timer moves to
 * the first grid point ahead of the counter. The counter is read back after
 * arming: one that passed the point meanwhile would never raise the alarm,
 * so the point moves on (periodic) or the expiry is due now (one-shot). */
static bool rearm(struct rtipc__irq_hw_timer *t)
{
    bool due = false;
    for (;;) {
        uint64_t now = count_now(t);
        if (now >= t->next) {
            due = true;
            if (t->period == 0)
                return true;
            t->next += ((now - t->next) / t->period + 1) * t->period;
        }
        arm(t);
        if (count_now(t) < t->next)
            return due;
    }
}

/* The alarm interrupt, on the source's core. */
static bool on_alarm(gptimer_handle_t gpt, const gptimer_alarm_event_data_t *ev, void *arg)
{
    (void)gpt;
    (void)ev;
    struct rtipc__irq_hw_timer *t = arg;
    bool isr = timer_lock(t);
    /* An alarm taken just after a stop raises nothing. */
    bool due = t->running && rearm(t);
    timer_unlock(t, isr);
    if (due)
        (void)rtipc_irq_trigger(t->handle);
    return false; /* the vector, pended by the trigger, switches tasks */
}

/* On the source's core: a GPTimer whose alarm interrupt is on this core
 * (GPTimer allocates it where its callbacks are registered). */
static void timer_new_here(void *arg)
{
    struct rtipc__irq_hw_timer *t = arg;
    const gptimer_config_t cfg = {
        .clk_src = GPTIMER_CLK_SRC_DEFAULT, .direction = GPTIMER_COUNT_UP, .resolution_hz = TIMER_HZ};
    const gptimer_event_callbacks_t cbs = {.on_alarm = on_alarm};
    t->made = gptimer_new_timer(&cfg, &t->gpt);
    if (t->made != ESP_OK) {
        t->gpt = NULL;
        return;
    }
    t->made = gptimer_register_event_callbacks(t->gpt, &cbs, t);
    if (t->made == ESP_OK)
        t->made = gptimer_enable(t->gpt);
    if (t->made != ESP_OK) {
        (void)gptimer_del_timer(t->gpt);
        t->gpt = NULL;
    }
}

static void timer_delete_here(void *arg)
{
    struct rtipc__irq_hw_timer *t = arg;
    rtipc__irq_hw_timer_stop(t);
    (void)gptimer_disable(t->gpt); /* its interrupt is masked: no alarm runs after this */
    (void)gptimer_del_timer(t->gpt);
}

/* Run @p fn on @p core: there from its IPC task, here when this is the
 * core and the scheduler is not running, or on a unicore build (no IPC
 * task) with the scheduler suspended. false if it could not run. */
static bool run_on(unsigned core, void (*fn)(void *), void *arg)
{
#if configNUMBER_OF_CORES > 1
    if (xTaskGetSchedulerState() == taskSCHEDULER_RUNNING)
        return esp_ipc_call_blocking(core, fn, arg) == ESP_OK;
    if (core != (unsigned)xPortGetCoreID())
        return false;
    fn(arg);
#else
    (void)core;
    vTaskSuspendAll();
    fn(arg);
    (void)xTaskResumeAll();
#endif
    return true;
}

struct rtipc__irq_hw_timer *rtipc__irq_hw_timer_new(unsigned core, rtipc_irq_t *handle)
{
    if (!TIMERS_IN_HARDWARE)
        return NULL;
    struct rtipc__irq_hw_timer *t = rtipc__port_alloc(sizeof *t, _Alignof(struct rtipc__irq_hw_timer));
    if (!t)
        return NULL;
    *t = (struct rtipc__irq_hw_timer){.handle = handle, .mux = portMUX_INITIALIZER_UNLOCKED, .made = ESP_FAIL};
    if (!run_on(core, timer_new_here, t) || t->made != ESP_OK) {
        rtipc__port_free(t, _Alignof(struct rtipc__irq_hw_timer));
        return NULL; /* none free (or no memory): the tick serves it */
    }
    return t;
}

void rtipc__irq_hw_timer_delete(struct rtipc__irq_hw_timer *t, unsigned core)
{
    /* Its own core runs the release, so an alarm interrupt of it is either
     * over or never taken; with the scheduler stopped on another core it
     * cannot, and the timer stays allocated (stopped) rather than freed
     * under a running alarm. */
    if (run_on(core, timer_delete_here, t))
        rtipc__port_free(t, _Alignof(struct rtipc__irq_hw_timer));
    else
        rtipc__irq_hw_timer_stop(t);
}

/* @p ns in counts, rounded up; @p ns < INT64_MAX. */
static uint64_t counts_up(int64_t ns) { return ((uint64_t)ns + NS_PER_COUNT - 1) / NS_PER_COUNT; }

void rtipc__irq_hw_timer_start(struct rtipc__irq_hw_timer *t, int64_t delay_ns, int64_t period_ns)
{
    /* The counter starts at 0: the first alarm at the delay, then on the
     * grid delay + k x period. */
    uint64_t d = counts_up(delay_ns);
    uint64_t p = period_ns == 0 ? 0 : ((uint64_t)period_ns + NS_PER_COUNT / 2) / NS_PER_COUNT;
    if (period_ns != 0 && p == 0)
        p = 1;
    bool isr = timer_lock(t);
    if (t->running)
        (void)gptimer_stop(t->gpt);
    (void)gptimer_set_raw_count(t->gpt, 0);
    t->next = d > 0 ? d : 1; /* at once: the next count */
    t->period = p;
    arm(t);
    t->running = gptimer_start(t->gpt) == ESP_OK;
    timer_unlock(t, isr);
}

void rtipc__irq_hw_timer_stop(struct rtipc__irq_hw_timer *t)
{
    bool isr = timer_lock(t);
    if (t->running)
        (void)gptimer_stop(t->gpt);
    t->running = false;
    timer_unlock(t, isr);
}
