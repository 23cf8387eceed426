/* Conformance: interrupt context, the woken flag and yield-from-interrupt.
 *
 * Ordering is checked with the shared step log, never with wall time: the
 * runner (priority 2) spins, an interrupt on the same core readies a task,
 * and the log shows whether that task ran before the runner saw the handler
 * return, at the runner's next rescheduling call, or at the next tick. */
#include <stdio.h>
#include <string.h>

#include "conf_internal.h"

enum isr_mode { ISR_CONTEXT, ISR_NO_WAITER, ISR_QUEUE, ISR_GIVE };

typedef struct {
    conf_t *c;
    enum isr_mode mode;
    bool yield;
    rtipc_sem_t *sem;
    rtipc_mutex_t *mutex;
    rtipc_queue_t *q;
    rtipc_queue_t *res; /* the handler's observations, int32_t each */
} isr_t;

static void put(isr_t *s, int32_t v) { (void)rtipc_queue_send_from_isr(s->res, &v, NULL); }

static void conf_isr(void *arg)
{
    isr_t *s = arg;
    bool w = false;
    int v;
    switch (s->mode) {
    case ISR_CONTEXT:
        put(s, rtipc_in_interrupt());
        put(s, rtipc_irq_core());
#if RTIPC_DIRECT
        /* FreeRTOS direct mode: the in-line task calls are the kernel's,
         * which do not refuse a handler (rtipc/freertos_direct.h): not
         * called here, and said so. */
        (void)v;
        put(s, CONF_NOT_CALLED);
        put(s, rtipc_mutex_unlock(s->mutex));
        put(s, CONF_NOT_CALLED);
#else
        put(s, rtipc_sem_take(s->sem, RTIPC_NO_WAIT));
        put(s, rtipc_mutex_unlock(s->mutex));
        v = 1;
        put(s, rtipc_queue_send(s->q, &v, RTIPC_NO_WAIT));
#endif
        put(s, rtipc_task_delay(rtipc_ms(1)));
        break;
    case ISR_NO_WAITER:
        put(s, rtipc_sem_give_from_isr(s->sem, &w));
        put(s, w);
        w = true;
        put(s, rtipc_sem_take_from_isr(s->sem, &w));
        put(s, w);
        break;
    case ISR_QUEUE:
        v = 1;
        put(s, rtipc_queue_send_from_isr(s->q, &v, &w));
        v = 2;
        put(s, rtipc_queue_send_to_front_from_isr(s->q, &v, &w));
        v = 3;
        put(s, rtipc_queue_send_from_isr(s->q, &v, &w));
        put(s, w);
        break;
    case ISR_GIVE:
        put(s, rtipc_sem_give_from_isr(s->sem, &w));
        put(s, w);
        conf_step(s->c, ST_ISR);
        if (s->yield)
            (void)rtipc_irq_yield(w);
        break;
    }
}

static int32_t take_res(isr_t *s)
{
    int32_t v = -1000;
    (void)rtipc_queue_receive(s->res, &v, RTIPC_NO_WAIT);
    return v;
}

/* Wait, spinning without any rescheduling call, until the handler has run. */
static bool wait_handled(rtipc_irq_t *irq, int64_t before)
{
    int64_t t0 = rtipc_time_ns();
    while (rtipc_irq_count(irq) == before)
        if (rtipc_time_ns() - t0 > 2000000000LL)
            return false;
    return true;
}

/* Spin until just after a tick boundary, so a whole tick lies ahead. */
static uint64_t align_to_tick(void)
{
    uint64_t t = rtipc_tick_count();
    int64_t t0 = rtipc_time_ns();
    while (rtipc_tick_count() == t && rtipc_time_ns() - t0 < 1000000000LL)
        ;
    return rtipc_tick_count();
}

static void fire(conf_t *c, isr_t *s, rtipc_irq_t *irq, enum isr_mode mode)
{
    s->mode = mode;
    int64_t before = rtipc_irq_count(irq);
    if (!conf_setup(c, "irq_trigger", rtipc_irq_trigger(irq)) || !wait_handled(irq, before))
        conf_note(c, "FAIL handler did not run");
}

typedef struct {
    conf_t *c;
    rtipc_sem_t *sem;
    uint64_t trigger_tick;
    bool tick_mode;
    int rc;
    uint64_t run_tick; /* rtipc_tick_count() just before R.run */
} isr_rx_t;

static void isr_rx(void *arg)
{
    isr_rx_t *r = arg;
    r->rc = rtipc_sem_take(r->sem, rtipc_ms(CONF_LONG_MS));
    r->run_tick = rtipc_tick_count();
    if (!r->tick_mode) {
        conf_step(r->c, ST_R_RUN);
        return;
    }
    uint64_t d = r->run_tick - r->trigger_tick;
    conf_step(r->c, d == 0 ? ST_R_RUN_SAME_TICK : d == 1 ? ST_R_RUN_NEXT_TICK : ST_R_RUN_LATER_TICK);
}

enum handoff { HANDOFF_YIELD, HANDOFF_RESCHEDULE, HANDOFF_TICK, HANDOFF_LOWER, HANDOFF_EQUAL };

/* One attempt of a hand-off: an interrupt readies a task waiting on a
 * semaphore. Writes the observation to @p out and returns true when the
 * attempt was disturbed, i.e. the kernel tick did not keep to the premise of
 * the expected outcome: no tick from the aligned tick up to the earlier of
 * R.run and the runner's last step (a tick after that cannot reorder the
 * two), and for the tick hand-off no tick up to the runner's last step and
 * no more than one tick between the handler and the woken task. */
static bool handoff_once(conf_t *c, isr_t *s, rtipc_irq_t *irq, enum handoff kind, char *out, size_t size)
{
    rtipc_task_t *t;
    char steps[160];
    isr_rx_t r = {c, s->sem, 0, kind == HANDOFF_TICK, -100, 0};
    unsigned prio = kind == HANDOFF_LOWER ? CONF_PRIO_LOW : kind == HANDOFF_EQUAL ? RTIPC_CONF_PRIO_RUNNER : CONF_PRIO_HIGH;
    out[0] = '\0';
    if (!conf_spawn(c, "isr_rx", prio, isr_rx, &r, &t)) {
        snprintf(out, size, "no helper task");
        return false;
    }
    if (kind == HANDOFF_LOWER || kind == HANDOFF_EQUAL)
        (void)rtipc_task_delay(rtipc_ms(20)); /* let the task reach its wait */
    s->yield = kind == HANDOFF_YIELD;
    s->mode = ISR_GIVE;
    r.trigger_tick = align_to_tick();
    conf_step(c, ST_T_TRIGGER);
    int64_t before = rtipc_irq_count(irq);
    int rc = rtipc_irq_trigger(irq);
    bool ran = rc == RTIPC_OK && wait_handled(irq, before);
    conf_step(c, ST_T_RETURNED);
    if (kind == HANDOFF_RESCHEDULE || kind == HANDOFF_EQUAL) {
        conf_step(c, ST_T_YIELD);
        (void)rtipc_task_yield();
        conf_step(c, ST_T_AFTER_YIELD);
    }
    /* The runner's part of the sequence ends here. */
    bool disturbed = rtipc_tick_count() != r.trigger_tick;
    if (kind == HANDOFF_TICK) {
        int n = conf_steps_count(c);
        int64_t t0 = rtipc_time_ns();
        while (conf_steps_count(c) == n && rtipc_time_ns() - t0 < 2000000000LL)
            ;
        conf_step(c, conf_steps_count(c) > n ? ST_T_SAW_RUN : ST_T_GAVE_UP);
    }
    if (!ran)
        (void)rtipc_sem_give(s->sem); /* release the helper */
    conf_join(c, t);
    int32_t give = take_res(s), woken = take_res(s);
    conf_steps(c, steps, sizeof steps);
    snprintf(out, size, "trigger=%s give=%s woken=%d steps=%s rx=%s", conf_err(rc), conf_err(give), (int)woken, steps,
             conf_err(r.rc));
    /* More than one tick before the woken task ran: the host held the
     * simulated core back, the first tick after the handler cannot be told
     * from a later one. */
    if (kind == HANDOFF_TICK && strstr(steps, "@later_tick") != NULL)
        disturbed = true;
    /* The woken task logged before the runner's last step: only the ticks
     * up to R.run count. */
    const char *run = strstr(steps, "R.run");
    const char *last = strstr(steps, kind == HANDOFF_RESCHEDULE || kind == HANDOFF_EQUAL ? "T.after_yield" : "T.returned");
    if (kind != HANDOFF_TICK && run && last && run < last)
        disturbed = r.run_tick != r.trigger_tick;
    /* A handler that never ran, or a failed trigger, is a result, not a
     * disturbance. */
    return disturbed && ran;
}

/* Up to this many attempts of a hand-off before it is reported disturbed. */
#define HANDOFF_ATTEMPTS 10

/* Runs a hand-off until one attempt is undisturbed and checks that attempt;
 * a '#' line tells how many attempts were retried. When every attempt was
 * disturbed the outcome is "disturbed ...", which never matches. */
static void handoff(conf_t *c, isr_t *s, rtipc_irq_t *irq, enum handoff kind, const char *key, const char *expected)
{
    char observed[256];
    int attempt = 0;
    bool disturbed = true;
    while (disturbed && attempt < HANDOFF_ATTEMPTS) {
        ++attempt;
        disturbed = handoff_once(c, s, irq, kind, observed, sizeof observed);
    }
    conf_note(c, "%s: retries=%d (attempts run again after a tick disturbed them)", key, attempt - 1);
    if (disturbed)
        conf_check(c, key, expected, "disturbed in all %d attempts, last: %s", attempt, observed);
    else
        conf_check(c, key, expected, "%s", observed);
}

void conf_irq(conf_t *c)
{
    isr_t s;
    rtipc_irq_t *irq;
    memset(&s, 0, sizeof s);
    s.c = c;
    conf_check(c, "irq.task_context", "in_interrupt=0 core=-1 yield=RTIPC_ECONTEXT", "in_interrupt=%d core=%d yield=%s",
               (int)rtipc_in_interrupt(), rtipc_irq_core(), conf_err(rtipc_irq_yield(true)));
    if (!conf_setup(c, "sem_create", rtipc_sem_create_binary(&s.sem)) ||
        !conf_setup(c, "mutex_create", rtipc_mutex_create(false, &s.mutex)) ||
        !conf_setup(c, "queue_create", rtipc_queue_create(2, sizeof(int), &s.q)) ||
        !conf_setup(c, "queue_create", rtipc_queue_create(8, sizeof(int32_t), &s.res)) ||
        !conf_setup(c, "irq_create", rtipc_irq_create(RTIPC_CONF_CORE, conf_isr, &s, &irq)))
        return;

    /* Task-only calls fail in a handler; mutexes cannot be released there. */
    (void)rtipc_mutex_lock(s.mutex, RTIPC_NO_WAIT);
    (void)rtipc_sem_give(s.sem);
    fire(c, &s, irq, ISR_CONTEXT);
    int32_t r[6];
    for (int i = 0; i < 6; ++i)
        r[i] = take_res(&s);
    conf_check(c, "irq.handler_context",
               "in_interrupt=1 core=0 sem_take=RTIPC_ECONTEXT mutex_unlock=RTIPC_ECONTEXT queue_send=RTIPC_ECONTEXT "
               "delay=RTIPC_ECONTEXT holder=runner sem=1 queue=0",
               "in_interrupt=%d core=%d sem_take=%s mutex_unlock=%s queue_send=%s delay=%s holder=%s sem=%d queue=%d",
               (int)r[0], (int)r[1], conf_err(r[2]), conf_err(r[3]), conf_err(r[4]), conf_err(r[5]),
               rtipc_mutex_holder(s.mutex) == c->self ? "runner" : "other", rtipc_sem_count(s.sem),
               rtipc_queue_messages_waiting(s.q));
    (void)rtipc_mutex_unlock(s.mutex);
    (void)rtipc_sem_take(s.sem, RTIPC_NO_WAIT);

    /* The woken flag is only ever set: no waiter leaves false false and
     * true true. */
    fire(c, &s, irq, ISR_NO_WAITER);
    for (int i = 0; i < 4; ++i)
        r[i] = take_res(&s);
    conf_check(c, "irq.woken.no_waiter", "give=0 woken=0 take=0 woken_preset_true=1", "give=%s woken=%d take=%s woken_preset_true=%d",
               conf_err(r[0]), (int)r[1], conf_err(r[2]), (int)r[3]);

    fire(c, &s, irq, ISR_QUEUE);
    for (int i = 0; i < 4; ++i)
        r[i] = take_res(&s);
    int a = 0, b = 0;
    (void)rtipc_queue_receive(s.q, &a, RTIPC_NO_WAIT);
    (void)rtipc_queue_receive(s.q, &b, RTIPC_NO_WAIT);
    conf_check(c, "irq.queue_from_isr", "0 0 RTIPC_EWOULDBLOCK woken=0 order=2 1", "%s %s %s woken=%d order=%d %d",
               conf_err(r[0]), conf_err(r[1]), conf_err(r[2]), (int)r[3], a, b);

    if (conf_need_order(c, "irq.handoff.*")) {
        /* A slow tick keeps the next tick out of the way of the short
         * sequences below (a port with a fixed tick rate ignores this). */
        uint32_t old_rate = rtipc_tick_rate();
        (void)rtipc_tick_set_rate(100);
        handoff(c, &s, irq, HANDOFF_YIELD, "irq.handoff.yield",
                "trigger=0 give=0 woken=1 steps=T.trigger isr R.run T.returned rx=0");
        handoff(c, &s, irq, HANDOFF_RESCHEDULE, "irq.handoff.no_yield.reschedule",
                "trigger=0 give=0 woken=1 steps=T.trigger isr T.returned T.yield R.run T.after_yield rx=0");
        handoff(c, &s, irq, HANDOFF_TICK, "irq.handoff.no_yield.tick",
                "trigger=0 give=0 woken=1 steps=T.trigger isr T.returned R.run@next_tick T.saw_run rx=0");
        handoff(c, &s, irq, HANDOFF_LOWER, "irq.handoff.lower_priority",
                "trigger=0 give=0 woken=0 steps=T.trigger isr T.returned R.run rx=0");
        /* Equal priority: not "higher than the interrupted task", so woken
         * stays false; a yield hands the core to it. */
        handoff(c, &s, irq, HANDOFF_EQUAL, "irq.handoff.equal_priority",
                "trigger=0 give=0 woken=0 steps=T.trigger isr T.returned T.yield R.run T.after_yield rx=0");
        (void)rtipc_tick_set_rate(old_rate);
    }

    (void)rtipc_irq_delete(irq);
    (void)rtipc_queue_delete(s.res);
    (void)rtipc_queue_delete(s.q);
    (void)rtipc_mutex_delete(s.mutex);
    (void)rtipc_sem_delete(s.sem);
}
