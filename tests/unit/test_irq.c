/* Interrupt sources, interrupt context and the yield-from-interrupt contract. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "rtipc/irq.h"
#include "rtipc/tick.h"
#include "test_support.h"

static int irq_core(void) { return rtipc_core_count() >= 2 ? 1 : 0; }

/* Run a timing case at hz. FreeRTOS keeps configTICK_RATE_HZ (tick.h, Port
 * notes): the case then runs at that rate, and any other is refused. */
static void use_tick_rate(uint32_t hz)
{
    if (RTIPC_PORT_FREERTOS)
        assert_int_equal(rtipc_tick_set_rate(hz), hz == rtipc_tick_rate() ? RTIPC_OK : RTIPC_ENOTSUP);
    else
        assert_int_equal(rtipc_tick_set_rate(hz), RTIPC_OK);
}

/* ---- context ------------------------------------------------------------ */
typedef struct {
    _Atomic int ran;
    int cpu, in_interrupt, core, outside_in_interrupt;
} context_probe_t;

static void probe_handler(void *arg)
{
    context_probe_t *p = arg;
    p->cpu = sched_getcpu();
    p->in_interrupt = rtipc_in_interrupt();
    p->core = rtipc_irq_core();
    atomic_store(&p->ran, 1);
}

static void handler_runs_on_its_core_in_interrupt_context(void **state)
{
    (void)state;
    context_probe_t p = {0};
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(irq_core(), probe_handler, &p, &irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
    assert_true(wait_for_flag((volatile int *)&p.ran, 1, 2000));
    if (!RTIPC_PORT_FREERTOS) /* the simulator's host CPU is not a simulated core */
        assert_int_equal(p.cpu, irq_core());
    assert_true(p.in_interrupt);
    assert_int_equal(p.core, irq_core());
    assert_false(rtipc_in_interrupt());
    assert_int_equal(rtipc_irq_core(), -1);
    assert_int_equal(rtipc_irq_count(irq), 1);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
}

typedef struct {
    rtipc_queue_t *q;
    rtipc_sem_t *s;
    rtipc_mutex_t *m;
    int rc[12];
    _Atomic int ran;
} blocking_probe_t;

static void dummy_entry(void *arg) { (void)arg; }
static void dummy_isr(void *arg) { (void)arg; }

static void blocking_handler(void *arg)
{
    blocking_probe_t *p = arg;
    int v = 1;
    rtipc_task_t *t;
    rtipc_task_config_t cfg = {.entry = dummy_entry, .core = RTIPC_CORE_ANY};
    rtipc_irq_t *irq;
    p->rc[0] = rtipc_queue_send(p->q, &v, rtipc_ms(10));
    p->rc[1] = rtipc_queue_receive(p->q, &v, rtipc_ms(10));
    p->rc[2] = rtipc_queue_send(p->q, &v, RTIPC_NO_WAIT);
    p->rc[3] = rtipc_sem_take(p->s, RTIPC_FOREVER);
    p->rc[4] = rtipc_mutex_lock(p->m, RTIPC_NO_WAIT);
    p->rc[5] = rtipc_notify_take(0, true, NULL, rtipc_ms(10));
    p->rc[6] = rtipc_task_delay(rtipc_ms(1));
    p->rc[7] = rtipc_task_create(&cfg, &t);
    p->rc[8] = rtipc_irq_create(0, dummy_isr, NULL, &irq);
    p->rc[9] = rtipc_tick_set_rate(100);
    p->rc[10] = rtipc_irq_yield(false);
    p->rc[11] = rtipc_queue_peek(p->q, &v, RTIPC_NO_WAIT);
    atomic_store(&p->ran, 1);
}

static void blocking_calls_from_a_handler_fail_with_wrong_context(void **state)
{
    (void)state;
    blocking_probe_t p = {0};
    assert_int_equal(rtipc_queue_create(1, sizeof(int), &p.q), RTIPC_OK);
    assert_int_equal(rtipc_sem_create_binary(&p.s), RTIPC_OK);
    assert_int_equal(rtipc_mutex_create(false, &p.m), RTIPC_OK);
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(irq_core(), blocking_handler, &p, &irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
    assert_true(wait_for_flag((volatile int *)&p.ran, 1, 2000));
    for (int i = 0; i < 12; ++i) {
        if (i == 10)
            assert_int_equal(p.rc[i], RTIPC_OK); /* yield is interrupt-only and fine here */
        else
            assert_int_equal(p.rc[i], RTIPC_ECONTEXT);
    }
    assert_int_equal(rtipc_queue_messages_waiting(p.q), 0);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
    assert_int_equal(rtipc_queue_delete(p.q), RTIPC_OK);
    assert_int_equal(rtipc_sem_delete(p.s), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(p.m), RTIPC_OK);
}

static void yield_outside_a_handler_is_wrong_context(void **state)
{
    (void)state;
    assert_int_equal(rtipc_irq_yield(true), RTIPC_ECONTEXT);
}

static void irq_calls_reject_bad_arguments(void **state)
{
    (void)state;
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(-1, dummy_isr, NULL, &irq), RTIPC_EINVAL);
    assert_int_equal(rtipc_irq_create(rtipc_core_count(), dummy_isr, NULL, &irq), RTIPC_EINVAL);
    assert_int_equal(rtipc_irq_create(0, NULL, NULL, &irq), RTIPC_EINVAL);
    assert_int_equal(rtipc_irq_create(0, dummy_isr, NULL, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_irq_trigger(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_irq_delete(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_irq_timer_start(NULL, 0, 0), RTIPC_EINVAL);
    assert_int_equal(rtipc_irq_timer_stop(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_irq_count(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_irq_create(0, dummy_isr, NULL, &irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_timer_start(irq, -1, 0), RTIPC_EINVAL);
    assert_int_equal(rtipc_irq_timer_start(irq, 0, -5), RTIPC_EINVAL);
    enter_interrupt_context();
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_ECONTEXT);
    leave_interrupt_context();
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
}

/* ---- timers --------------------------------------------------------------- */
static void count_handler(void *arg) { atomic_fetch_add((_Atomic int *)arg, 1); }

static void periodic_timer_fires_at_its_rate_and_stops(void **state)
{
    (void)state;
    _Atomic int n = 0;
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(irq_core(), count_handler, &n, &irq), RTIPC_OK);
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_irq_timer_start(irq, 5000000, 5000000), RTIPC_OK); /* every 5 ms */
    sleep_ms(300);
    assert_int_equal(rtipc_irq_timer_stop(irq), RTIPC_OK);
    int64_t elapsed = rtipc_time_ns() - t0; /* the sleep may overrun on a loaded machine */
    int fired = atomic_load(&n);
    /* Never more than the period allows; late expiries merge, so allow a
     * wide band below. */
    int expected = (int)(elapsed / 5000000);
    assert_in_range(fired, expected / 4, expected + 1);
    sleep_ms(50);
    assert_int_equal(atomic_load(&n), fired);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
}

static void one_shot_timer_fires_once(void **state)
{
    (void)state;
    _Atomic int n = 0;
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(irq_core(), count_handler, &n, &irq), RTIPC_OK);
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_irq_timer_start(irq, 20000000, 0), RTIPC_OK);
    assert_true(wait_for_flag((volatile int *)&n, 1, 2000));
    assert_true(rtipc_time_ns() - t0 >= 20000000);
    sleep_ms(60);
    assert_int_equal(atomic_load(&n), 1);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
}

static void triggers_while_pending_merge_like_a_pending_bit(void **state)
{
    (void)state;
    _Atomic int n = 0;
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(irq_core(), count_handler, &n, &irq), RTIPC_OK);
    for (int i = 0; i < 1000; ++i)
        assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
    sleep_ms(50);
    int ran = atomic_load(&n);
    assert_in_range(ran, 1, 1000);
    assert_int_equal(rtipc_irq_count(irq), ran);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
}

/* ---- interrupt-safe calls -------------------------------------------------- */
/* The notification slots used: 1 and 2, or slot 0 for both in a build with
 * one slot (a kernel's stock configuration), where the give adds to the bits. */
#define SLOT_A (RTIPC_NOTIFY_SLOTS > 1 ? 1u : 0u)
#define SLOT_B (RTIPC_NOTIFY_SLOTS > 2 ? 2u : 0u)

typedef struct {
    rtipc_queue_t *q, *q1;
    rtipc_sem_t *s;
    rtipc_task_t *target;
    int rc[16];
    int got;
    bool woken_kept;
    _Atomic int ran;
} isr_calls_t;

static void isr_calls_handler(void *arg)
{
    isr_calls_t *p = arg;
    int v = 7, w = 0;
    bool woken = true; /* set-only: nothing readied below may clear it */
    p->rc[0] = rtipc_queue_send_from_isr(p->q, &v, &woken);
    p->rc[1] = rtipc_queue_send_from_isr(p->q, &v, &woken); /* full (length 1) */
    p->rc[2] = rtipc_queue_peek_from_isr(p->q, &w);
    p->rc[3] = rtipc_queue_receive_from_isr(p->q, &p->got, &woken);
    p->rc[4] = rtipc_queue_receive_from_isr(p->q, &w, &woken); /* empty */
    p->rc[5] = rtipc_queue_peek_from_isr(p->q, &w);            /* empty */
    p->rc[6] = rtipc_queue_overwrite_from_isr(p->q, &v, NULL);
    p->rc[7] = rtipc_queue_overwrite_from_isr(p->q1, &v, NULL); /* length 2 */
    p->rc[8] = rtipc_queue_send_to_front_from_isr(p->q1, &v, NULL);
    p->rc[9] = rtipc_sem_give_from_isr(p->s, &woken);
    p->rc[10] = rtipc_sem_give_from_isr(p->s, &woken); /* full */
    p->rc[11] = rtipc_sem_take_from_isr(p->s, &woken);
    p->rc[12] = rtipc_sem_take_from_isr(p->s, &woken); /* empty */
    p->rc[13] = rtipc_notify_from_isr(p->target, SLOT_A, 0x5, RTIPC_NOTIFY_SET_BITS, NULL, &woken);
    p->rc[14] = rtipc_notify_give_from_isr(p->target, SLOT_B, &woken);
    p->rc[15] = rtipc_notify_from_isr(p->target, RTIPC_NOTIFY_SLOTS, 0, RTIPC_NOTIFY_SET_BITS, NULL, &woken);
    p->woken_kept = woken;
    atomic_store(&p->ran, 1);
}

static void interrupt_safe_calls_never_block_and_report_each_outcome(void **state)
{
    (void)state;
    isr_calls_t p = {0};
    assert_int_equal(rtipc_queue_create(1, sizeof(int), &p.q), RTIPC_OK);
    assert_int_equal(rtipc_queue_create(2, sizeof(int), &p.q1), RTIPC_OK);
    assert_int_equal(rtipc_sem_create_binary(&p.s), RTIPC_OK);
    p.target = rtipc_task_current();
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(irq_core(), isr_calls_handler, &p, &irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
    assert_true(wait_for_flag((volatile int *)&p.ran, 1, 2000));
    const int want[16] = {RTIPC_OK, RTIPC_EWOULDBLOCK, RTIPC_OK, RTIPC_OK, RTIPC_EWOULDBLOCK, RTIPC_EWOULDBLOCK,
                          RTIPC_OK, RTIPC_ENOTSUP, RTIPC_OK, RTIPC_OK, RTIPC_EOVERFLOW, RTIPC_OK,
                          RTIPC_EWOULDBLOCK, RTIPC_OK, RTIPC_OK, RTIPC_EINVAL};
    for (int i = 0; i < 16; ++i)
        assert_int_equal(p.rc[i], want[i]);
    assert_int_equal(p.got, 7);
    assert_true(p.woken_kept);
    assert_int_equal(rtipc_queue_messages_waiting(p.q), 1);
    uint32_t v = 0;
    assert_int_equal(rtipc_notify_wait(SLOT_A, 0, ~0u, &v, RTIPC_NO_WAIT), RTIPC_OK);
    if (SLOT_A == SLOT_B) {
        assert_int_equal(v, 0x6);
    } else {
        assert_int_equal(v, 0x5);
        assert_int_equal(rtipc_notify_take(SLOT_B, true, &v, RTIPC_NO_WAIT), RTIPC_OK);
        assert_int_equal(v, 1);
    }
    int w;
    assert_int_equal(rtipc_queue_send_from_isr(NULL, &w, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_receive_from_isr(p.q, NULL, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_peek_from_isr(p.q, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_give_from_isr(NULL, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_take_from_isr(NULL, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_notify_give_from_isr(NULL, 0, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
    assert_int_equal(rtipc_queue_delete(p.q), RTIPC_OK);
    assert_int_equal(rtipc_queue_delete(p.q1), RTIPC_OK);
    assert_int_equal(rtipc_sem_delete(p.s), RTIPC_OK);
}

/* ---- the yield contract ------------------------------------------------------ */
typedef struct {
    rtipc_queue_t *q;
    bool yield;
    bool woken;
    uint64_t sent_tick;
    _Atomic int handled;
} handoff_isr_t;

static void handoff_handler(void *arg)
{
    handoff_isr_t *h = arg;
    int64_t now = rtipc_time_ns();
    h->woken = false;
    h->sent_tick = rtipc_tick_count();
    rtipc_queue_send_from_isr(h->q, &now, &h->woken);
    if (h->yield)
        rtipc_irq_yield(h->woken);
    atomic_store(&h->handled, 1);
}

typedef struct {
    rtipc_queue_t *q;
    int n;
    int64_t latency[64];
    int64_t woke_at[64];
    uint64_t woke_tick[64];
    uint64_t sent_tick[64]; /* filled by the main thread from the handler's record */
    _Atomic int ready; /* receiver waiting for item i */
    int errors;
} receiver_t;

static void receiver_task(void *arg)
{
    receiver_t *r = arg;
    for (int i = 0; i < r->n; ++i) {
        int64_t sent;
        atomic_store(&r->ready, i + 1);
        if (rtipc_queue_receive(r->q, &sent, rtipc_ms(5000)) != RTIPC_OK) {
            r->errors++;
            return;
        }
        r->woke_at[i] = rtipc_time_ns();
        r->woke_tick[i] = rtipc_tick_count();
        r->latency[i] = r->woke_at[i] - sent;
    }
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Runs n handoffs interrupt -> receiver task on the interrupt's core. */
static void run_handoffs(receiver_t *r, handoff_isr_t *h, int n)
{
    r->n = n;
    assert_int_equal(rtipc_queue_create(1, sizeof(int64_t), &r->q), RTIPC_OK);
    h->q = r->q;
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(irq_core(), handoff_handler, h, &irq), RTIPC_OK);
    rtipc_task_t *t = start_task("rx", 10, irq_core(), receiver_task, r);
    for (int i = 0; i < n; ++i) {
        assert_true(wait_for_flag((volatile int *)&r->ready, i + 1, 5000));
        sleep_ms(2); /* let it block */
        atomic_store(&h->handled, 0);
        assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
        assert_true(wait_for_flag((volatile int *)&h->handled, 1, 5000));
        assert_true(h->woken); /* the receiver outranks an idle core */
        r->sent_tick[i] = h->sent_tick;
        if (RTIPC_PORT_FREERTOS) {
            /* One core: the task that triggered is the interrupted one. It
             * makes no rescheduling call until the receiver ran, so only the
             * handler's yield or the tick can have released it. */
            int64_t until = rtipc_time_ns() + 5000000000LL;
            while (__atomic_load_n(&r->woke_at[i], __ATOMIC_ACQUIRE) == 0 && rtipc_time_ns() < until)
                ;
        }
    }
    join_task(t);
    assert_int_equal(r->errors, 0);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
    assert_int_equal(rtipc_queue_delete(r->q), RTIPC_OK);
}

static void with_yield_the_task_runs_right_after_the_handler(void **state)
{
    (void)state;
    use_tick_rate(1000);
    static receiver_t r;
    static handoff_isr_t h;
    memset(&r, 0, sizeof r);
    memset(&h, 0, sizeof h);
    h.yield = true;
    run_handoffs(&r, &h, 40);
    qsort(r.latency, 40, sizeof r.latency[0], cmp64);
    print_message("yield: handoff p50 %.1f us, max %.1f us (tick %lld us)\n", r.latency[20] / 1e3,
                  r.latency[39] / 1e3, (long long)(rtipc_tick_period_ns() / 1000));
    /* Far below one tick: the median handoff under a quarter of the period. */
    assert_true(r.latency[20] < rtipc_tick_period_ns() / 4);
}

static void without_yield_the_task_waits_for_the_next_tick(void **state)
{
    (void)state;
    /* A slow tick makes "at the tick" unmistakable from "at once". */
    use_tick_rate(50);
    int64_t period = rtipc_tick_period_ns();
    static receiver_t r;
    static handoff_isr_t h;
    memset(&r, 0, sizeof r);
    memset(&h, 0, sizeof h);
    h.yield = false;
    run_handoffs(&r, &h, 8);
    for (int i = 0; i < 8; ++i) {
        /* Released at a tick boundary after the send, within a tick (+margin). */
        assert_true(r.woke_tick[i] > r.sent_tick[i]);
        assert_true(r.latency[i] <= period + 20000000);
    }
    qsort(r.latency, 8, sizeof r.latency[0], cmp64);
    print_message("no-yield: handoff p50 %.2f ms (tick %.1f ms)\n", r.latency[4] / 1e6, period / 1e6);
    assert_true(r.latency[4] > period / 20); /* the median is nowhere near immediate */
    use_tick_rate(1000);
}

/* The interrupted task: spins on core 1 (below the receiver's priority), and
 * on a signal from the main thread makes one rtipc call that reschedules. */
typedef struct {
    _Atomic int go;      /* 1: make the call now */
    _Atomic int stop;
    int64_t called_at;
    rtipc_sem_t *give;   /* NULL: the call is rtipc_task_yield; else a give
                            that readies a task waiting on this semaphore */
} busy_t;

static void busy_task(void *arg)
{
    busy_t *b = arg;
    while (!atomic_load(&b->go))
        ;
    b->called_at = rtipc_time_ns();
    if (b->give)
        rtipc_sem_give(b->give);
    else
        rtipc_task_yield();
    /* No other rtipc call for 10 ms: a wake-up released later than that
     * was not released by the call above. */
    while (rtipc_time_ns() - b->called_at < 10000000)
        ;
    atomic_store(&b->go, 2);
    while (!atomic_load(&b->stop))
        rtipc_task_delay(rtipc_ms(1));
}

typedef struct {
    rtipc_queue_t *q;
    _Atomic int waiting;
    int64_t woke_at;
    int rc;
} one_receiver_t;

static void one_receiver(void *arg)
{
    one_receiver_t *r = arg;
    int64_t v;
    atomic_store(&r->waiting, 1);
    r->rc = rtipc_queue_receive(r->q, &v, rtipc_ms(5000));
    r->woke_at = rtipc_time_ns();
}

static void sem_waiter(void *arg)
{
    rtipc_sem_take(arg, rtipc_ms(5000));
}

/* give: NULL -> the interrupted task yields; else it gives a semaphore that
 * a task on core 0 waits on (a non-blocking call that readies a task). */
static void run_reschedule_case(rtipc_sem_t *give)
{
    assert_int_equal(rtipc_tick_set_rate(5), RTIPC_OK); /* 200 ms: the tick stays out of the way */
    one_receiver_t r = {0};
    busy_t b = {.give = give};
    handoff_isr_t h = {0};
    rtipc_task_t *waiter = give ? start_task("waiter", 5, 0, sem_waiter, give) : NULL;
    assert_int_equal(rtipc_queue_create(1, sizeof(int64_t), &r.q), RTIPC_OK);
    h.q = r.q;
    rtipc_task_t *rx = start_task("rx", 10, irq_core(), one_receiver, &r);
    assert_true(wait_for_flag((volatile int *)&r.waiting, 1, 2000));
    sleep_ms(5);
    rtipc_task_t *busy = start_task("busy", 2, irq_core(), busy_task, &b);
    sleep_ms(5);
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(irq_core(), handoff_handler, &h, &irq), RTIPC_OK);
    /* Fire just after a tick boundary, so the next tick is ~200 ms away. */
    uint64_t t0 = rtipc_tick_count();
    while (rtipc_tick_count() == t0)
        sleep_ms(1);
    assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
    assert_true(wait_for_flag((volatile int *)&h.handled, 1, 2000));
    sleep_ms(20);
    int woke_before_call = r.woke_at != 0;
    atomic_store(&b.go, 1);
    assert_true(wait_for_flag((volatile int *)&b.go, 2, 2000));
    join_task(rx);
    atomic_store(&b.stop, 1);
    join_task(busy);
    if (waiter)
        join_task(waiter);
    assert_int_equal(r.rc, RTIPC_OK);
    assert_false(woke_before_call);
    int64_t after_call = r.woke_at - b.called_at;
    print_message("no-yield, interrupted task calls rtipc: receiver ran %.1f us after that call\n",
                  after_call / 1e3);
    assert_true(after_call >= 0);
    assert_true(after_call < rtipc_tick_period_ns() / 4); /* at the call, not at the tick */
    assert_true(after_call < 5000000);                     /* and not at a later call */
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
    assert_int_equal(rtipc_queue_delete(r.q), RTIPC_OK);
    use_tick_rate(1000);
}

/* These need a second core: the main thread triggers the interrupt while the
 * interrupted task spins on the interrupt's core, and a slow tick (FreeRTOS
 * keeps configTICK_RATE_HZ) to stay out of the way. */
#define SKIP_UNLESS_INTERRUPTED_TASK_ELSEWHERE()                                                    \
    do {                                                                                          \
        if (RTIPC_PORT_FREERTOS && rtipc_core_count() < 2) {                                      \
            print_message("needs two cores and a slow tick: the simulator has one and 1 kHz\n");  \
            skip();                                                                               \
        }                                                                                         \
    } while (0)

static void without_yield_the_task_runs_when_the_interrupted_task_reschedules(void **state)
{
    (void)state;
    SKIP_UNLESS_INTERRUPTED_TASK_ELSEWHERE();
    run_reschedule_case(NULL);
}

static void without_yield_the_task_runs_when_the_interrupted_task_readies_a_task(void **state)
{
    (void)state;
    SKIP_UNLESS_INTERRUPTED_TASK_ELSEWHERE();
    rtipc_sem_t *s;
    assert_int_equal(rtipc_sem_create_binary(&s), RTIPC_OK);
    run_reschedule_case(s);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

/* Delays and periods whose expiry time overflows int64 nanoseconds: the
 * expiry never comes (no overflow; UBSan checks in ASan builds). */
static atomic_int huge_hits;
static void count_huge(void *arg)
{
    (void)arg;
    atomic_fetch_add(&huge_hits, 1);
}

static void timer_expiries_beyond_int64_time_never_come(void **state)
{
    (void)state;
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(0, count_huge, NULL, &irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_timer_start(irq, INT64_MAX, 0), RTIPC_OK);
    sleep_ms(30);
    assert_int_equal(atomic_load(&huge_hits), 0);
    assert_int_equal(rtipc_irq_timer_start(irq, 0, INT64_MAX), RTIPC_OK); /* once, then never */
    assert_true(wait_for_flag((const volatile int *)&huge_hits, 1, 5000));
    sleep_ms(30);
    assert_int_equal(atomic_load(&huge_hits), 1);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
}

int main(void)
{
    pin_main_to_core0();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(handler_runs_on_its_core_in_interrupt_context),
        cmocka_unit_test(blocking_calls_from_a_handler_fail_with_wrong_context),
        cmocka_unit_test(yield_outside_a_handler_is_wrong_context),
        cmocka_unit_test(irq_calls_reject_bad_arguments),
        cmocka_unit_test(periodic_timer_fires_at_its_rate_and_stops),
        cmocka_unit_test(one_shot_timer_fires_once),
        cmocka_unit_test(timer_expiries_beyond_int64_time_never_come),
        cmocka_unit_test(triggers_while_pending_merge_like_a_pending_bit),
        cmocka_unit_test(interrupt_safe_calls_never_block_and_report_each_outcome),
        cmocka_unit_test(with_yield_the_task_runs_right_after_the_handler),
        cmocka_unit_test(without_yield_the_task_waits_for_the_next_tick),
        cmocka_unit_test(without_yield_the_task_runs_when_the_interrupted_task_reschedules),
        cmocka_unit_test(without_yield_the_task_runs_when_the_interrupted_task_readies_a_task),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
