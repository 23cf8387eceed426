/* Interrupt context and rtipc interrupt sources on FreeRTOS: the portable
 * part. How an interrupt is raised on the target is the backend's business
 * (irq_port.h); everything here is the same on the POSIX simulator and on an
 * MCU.
 *
 * - Interrupt context: rtipc_in_interrupt() is true inside
 *   rtipc_freertos_isr_enter/exit brackets (include/rtipc/port_freertos.h),
 *   which rtipc's own vector and tick hook use, or when the application's
 *   rtipcCONFIG_IN_INTERRUPT() hook (FreeRTOSConfig.h, e.g.
 *   xPortIsInsideInterrupt() on Cortex-M) says so.
 * - Sources: a list of rtipc_irq_t, each bound to a core and with a pending
 *   flag. Triggering sets the flag and pends the vector of the source's core
 *   (the backend has one per core it serves, rtipc__irq_hw_cores), whose
 *   handler (one for all of that core's sources, like a shared software
 *   interrupt line) runs every pending handler of that core, in list order,
 *   until none is pending. A core's vector never runs another core's source.
 * - Timers: a source the backend gave a hardware timer (ESP-IDF: a GPTimer)
 *   is raised by that timer's alarm, as rtipc_irq_trigger raises it. Every
 *   other source's timer is checked in the kernel's tick interrupt, by
 *   rtipc_freertos_tick_hook() called from the application's
 *   vApplicationTickHook (on SMP kernels the tick core's, configTICK_CORE);
 *   an expired source of the tick's core runs right there, in the tick's
 *   interrupt context; an expired source of another core pends that core's
 *   vector, so its handler still runs on its own core.
 * - Yield: rtipc_irq_yield(true) in a handler run by a vector is recorded for
 *   that core and performed once, with portYIELD_FROM_ISR on that core, when
 *   the vector has run every pending handler. In a handler run by the tick
 *   hook it needs no action: the FromISR call that set the woken flag also
 *   made the kernel pend a yield, and the tick switches tasks when it
 *   returns. A task readied on another core is the kernel's business (its
 *   cross-core yield, portYIELD_CORE). */
#include "irq_port.h"
#include "common/port.h"
#include "port_internal.h"
#include "common/create.h"
#include "common/handle.h"
#include "rtipc/irq.h"
#include "rtipc/port_freertos.h"
#include "rtipc/tick.h"

struct rtipc__irq {
    struct rtipc__irq *next;
    rtipc_isr_fn handler;
    void *arg;
    volatile bool pending;
    volatile bool running;  /* its handler is being called */
    unsigned core;          /* the core whose vector runs it */
    bool timer_armed;
    int64_t next_ns;        /* next expiry (rtipc_time_ns clock) */
    int64_t period_ns;      /* 0: one-shot */
    volatile int64_t count; /* handler runs */
    struct rtipc__irq_hw_timer *hw_timer; /* NULL: the timer follows the tick */
};

static struct rtipc__irq *sources; /* changed in critical sections only */

volatile uint32_t rtipc__irq_nesting[configNUMBER_OF_CORES];
static volatile uint32_t servicing[configNUMBER_OF_CORES]; /* inside rtipc__irq_service */
static volatile bool yield_requested[configNUMBER_OF_CORES];

#ifdef RTIPC__IDF_MUX
portMUX_TYPE rtipc__mux = portMUX_INITIALIZER_UNLOCKED;
#endif

static unsigned this_core(void)
{
#if defined(ESP_PLATFORM) && configNUMBER_OF_CORES > 1
    return (unsigned)xPortGetCoreID();
#elif configNUMBER_OF_CORES > 1
    return (unsigned)portGET_CORE_ID();
#else
    return 0;
#endif
}

void rtipc_freertos_isr_enter(void) { rtipc__irq_nesting[this_core()]++; }

void rtipc_freertos_isr_exit(void)
{
    unsigned c = this_core();
    if (rtipc__irq_nesting[c] > 0)
        rtipc__irq_nesting[c]--;
}

bool rtipc__port_in_interrupt(void) { return rtipc__in_isr(); }

#if configNUMBER_OF_CORES > 1
bool rtipc__in_bracket(void)
{
    /* A task may move to another core between reading its core id and that
     * core's count, and then see a handler's bracket there: read both with
     * this core's interrupts masked, so that no switch comes between. */
    UBaseType_t saved = portSET_INTERRUPT_MASK_FROM_ISR();
    bool in = rtipc__irq_nesting[this_core()] != 0;
    portCLEAR_INTERRUPT_MASK_FROM_ISR(saved);
    return in;
}
#endif

bool rtipc_in_interrupt(void) { return rtipc__in_isr(); }

int rtipc_irq_core(void) { return rtipc__in_isr() ? (int)this_core() : -1; }

int rtipc_irq_yield(bool woken)
{
    if (!rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!woken)
        return RTIPC_OK;
    unsigned c = this_core();
    if (servicing[c] != 0)
        yield_requested[c] = true; /* done by the vector at its end */
    else
        portYIELD_FROM_ISR(pdTRUE); /* an application handler, bracketed */
    return RTIPC_OK;
}

/* ---- running handlers ----------------------------------------------------------- */

/* Take the first pending source of @p core (clearing its flag, marking it
 * running), or NULL. Interrupt context. */
static struct rtipc__irq *take_pending(unsigned core)
{
    rtipc__crit_t cs = rtipc__enter();
    struct rtipc__irq *irq = sources;
    while (irq && !(irq->pending && irq->core == core))
        irq = irq->next;
    if (irq) {
        irq->pending = false;
        irq->running = true;
    }
    rtipc__exit(cs);
    return irq;
}

/* Run every pending handler of @p core, the caller's (interrupt context,
 * inside the isr bracket). */
static void run_pending(unsigned core)
{
    struct rtipc__irq *irq;
    while ((irq = take_pending(core)) != NULL) {
        irq->handler(irq->arg);
        rtipc__crit_t cs = rtipc__enter();
        irq->count++;
        irq->running = false;
        rtipc__exit(cs);
    }
}

bool rtipc__irq_service(void)
{
    unsigned c = this_core();
    rtipc_freertos_isr_enter();
    servicing[c]++;
    run_pending(c);
    servicing[c]--;
    bool yield = servicing[c] == 0 && yield_requested[c];
    if (servicing[c] == 0)
        yield_requested[c] = false;
    rtipc_freertos_isr_exit();
    return yield;
}

/* a + b, or false if it does not fit in int64 (a, b >= 0). */
static bool add_ns(int64_t a, int64_t b, int64_t *out)
{
    if (a > INT64_MAX - b)
        return false;
    *out = a + b;
    return true;
}

void rtipc_freertos_tick_hook(void)
{
    if (sources == NULL)
        return;
    rtipc_freertos_isr_enter();
    unsigned self = this_core();
    int64_t now = rtipc_time_ns();
    bool any[configNUMBER_OF_CORES] = {false};
    rtipc__crit_t cs = rtipc__enter();
    for (struct rtipc__irq *irq = sources; irq; irq = irq->next) {
        if (!irq->timer_armed || now < irq->next_ns) {
            any[irq->core] = any[irq->core] || irq->pending;
            continue;
        }
        irq->pending = true;
        any[irq->core] = true;
        if (irq->period_ns == 0) {
            irq->timer_armed = false;
            continue;
        }
        /* Missed expiries merge into this one; stay on the grid. */
        int64_t k = (now - irq->next_ns) / irq->period_ns + 1;
        if (k > INT64_MAX / irq->period_ns || !add_ns(irq->next_ns, k * irq->period_ns, &irq->next_ns))
            irq->timer_armed = false; /* the next expiry does not fit: never */
    }
    rtipc__exit(cs);
    rtipc_freertos_isr_exit();
    /* Timer expiries, and any trigger left pending (one made before the
     * scheduler started, or by a handler the vector had already left): this
     * core's run here, another core's in that core's vector. */
    for (unsigned c = 0; c < configNUMBER_OF_CORES; c++)
        if (any[c] && c != self)
            rtipc__irq_hw_pend(c);
    if (any[self])
        (void)rtipc__irq_service(); /* a requested yield is the tick's own */
}

/* ---- the API -------------------------------------------------------------------- */

static struct rtipc__irq *get(const rtipc_irq_t *handle) { return rtipc__handle_get(handle, RTIPC__H_IRQ); }

int rtipc_irq_create(int core, rtipc_isr_fn handler, void *arg, rtipc_irq_t **out)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!out || !handler || core < 0 || core >= configNUMBER_OF_CORES)
        return RTIPC_EINVAL;
    /* A core the backend has no vector for (docs/porting.md): none at all
     * without a backend, only core 0 on Cortex-M and the simulator. */
    if (((rtipc__irq_hw_cores() >> (unsigned)core) & 1u) == 0)
        return RTIPC_ENOTSUP;
    int rc = rtipc__irq_hw_init((unsigned)core);
    if (rc != RTIPC_OK)
        return rc;
    struct rtipc__irq *irq = RTIPC__CREATE_ALLOC(true, struct rtipc__irq, 0, &rc);
    if (!irq)
        return rc;
    *irq = (struct rtipc__irq){.handler = handler, .arg = arg, .core = (unsigned)core};
    uintptr_t h = rtipc__handle_open_or_free(irq, RTIPC__H_IRQ, _Alignof(struct rtipc__irq));
    if (h == 0)
        return RTIPC_ENOMEM;
    /* Before it is listed, so no timer call sees it half made; its alarm
     * raises the source through the handle, which a delete closes first. */
    irq->hw_timer = rtipc__irq_hw_timer_new((unsigned)core, (rtipc_irq_t *)h);
    RTIPC__TASK_CRIT_ENTER();
    irq->next = sources;
    sources = irq;
    RTIPC__TASK_CRIT_EXIT();
    *out = (rtipc_irq_t *)h;
    return RTIPC_OK;
}

int rtipc_irq_delete(rtipc_irq_t *handle)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__irq *irq = get(handle);
    if (!irq)
        return RTIPC_EINVAL;
    /* No trigger or timer call reaches it from now on: they look it up
     * inside a critical section, which the close waits for. */
    rtipc__handle_close((uintptr_t)handle);
    RTIPC__TASK_CRIT_ENTER();
    bool found = false;
    for (struct rtipc__irq **p = &sources; *p; p = &(*p)->next)
        if (*p == irq) {
            *p = irq->next;
            found = true;
            break;
        }
    RTIPC__TASK_CRIT_EXIT();
    if (!found)
        return RTIPC_EINVAL; /* another delete took it out first */
    if (irq->hw_timer)
        rtipc__irq_hw_timer_delete(irq->hw_timer, irq->core);
    /* On one core a task never runs while a handler is being called; on
     * several, wait for another core's vector to leave it. */
    while (irq->running)
        taskYIELD();
    rtipc__port_free(irq, _Alignof(struct rtipc__irq));
    return RTIPC_OK;
}

int rtipc_irq_trigger(rtipc_irq_t *handle)
{
    rtipc__crit_t c = rtipc__enter();
    struct rtipc__irq *irq = get(handle);
    bool ok = irq != NULL;
    unsigned core = 0;
    if (ok) {
        irq->pending = true;
        core = irq->core;
    }
    rtipc__exit(c);
    if (!ok)
        return RTIPC_EINVAL;
    rtipc__irq_hw_pend(core);
    return RTIPC_OK;
}

int rtipc_irq_timer_start(rtipc_irq_t *handle, int64_t delay_ns, int64_t period_ns)
{
    if (delay_ns < 0 || period_ns < 0)
        return RTIPC_EINVAL;
    if (period_ns == INT64_MAX)
        period_ns = 0; /* the second expiry would not fit */
    /* rtipc_time_ns() is the tick count: the call is somewhere inside the
     * current tick, so the time origin is taken at its end, and no expiry
     * comes early. */
    int64_t origin = rtipc_time_ns() + rtipc_tick_period_ns();
    int64_t first = 0;
    bool fits = delay_ns != INT64_MAX && add_ns(origin, delay_ns, &first);
    rtipc__crit_t c = rtipc__enter();
    struct rtipc__irq *irq = get(handle);
    bool ok = irq != NULL;
    if (ok && irq->hw_timer) {
        /* Inside the critical section: a delete cannot free it meanwhile.
         * Its delay counts from now: the hardware needs no tick origin. */
        if (delay_ns == INT64_MAX)
            rtipc__irq_hw_timer_stop(irq->hw_timer); /* never */
        else
            rtipc__irq_hw_timer_start(irq->hw_timer, delay_ns, period_ns);
    } else if (ok) {
        irq->timer_armed = fits;
        irq->next_ns = first;
        irq->period_ns = period_ns;
    }
    rtipc__exit(c);
    return ok ? RTIPC_OK : RTIPC_EINVAL;
}

int rtipc_irq_timer_stop(rtipc_irq_t *handle)
{
    rtipc__crit_t c = rtipc__enter();
    struct rtipc__irq *irq = get(handle);
    bool ok = irq != NULL;
    if (ok && irq->hw_timer)
        rtipc__irq_hw_timer_stop(irq->hw_timer);
    else if (ok)
        irq->timer_armed = false;
    rtipc__exit(c);
    return ok ? RTIPC_OK : RTIPC_EINVAL;
}

int rtipc_freertos_irq_timer_hw(const rtipc_irq_t *handle)
{
    rtipc__crit_t c = rtipc__enter();
    struct rtipc__irq *irq = get(handle);
    int r = !irq ? RTIPC_EINVAL : irq->hw_timer ? 1 : 0;
    rtipc__exit(c);
    return r;
}

int64_t rtipc_irq_count(const rtipc_irq_t *handle)
{
    rtipc__crit_t c = rtipc__enter();
    struct rtipc__irq *irq = get(handle);
    int64_t n = irq ? irq->count : RTIPC_EINVAL;
    rtipc__exit(c);
    return n;
}
