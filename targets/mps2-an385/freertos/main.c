/* rtipc-cm3-freertos-bench: rtipc on the FreeRTOS kernel on a Cortex-M3
 * (QEMU mps2-an385, -icount shift=0), measured in instructions, printed as
 * tables and as rtipc-bench/1 JSON (docs/mcu.md, "FreeRTOS on Cortex-M3").
 *
 * The experiments are the rtipc-bench ones that fit one core, with the same
 * experiment, mechanism, variant and metric names as the host's where the
 * host has them, so that `rtipc-bench audit` applies the same claim rules
 * to these figures. Beside rtipc's objects, the round trips also measure the
 * kernel's own calls (mechanisms "kernel-*") in the same run: their ratio is
 * what rtipc's mapping costs.
 *
 * Every interval is between board_stamp_start() and board_stamp_end()
 * (targets/mps2-an385/board/board.h), exact to the instruction, minus the median
 * cost of an empty pair; the stamps may be taken in different tasks or in a
 * handler. Long spans (staleness, throughput windows) use the timer's counts
 * (40 instructions each). Every message carries a sequence number; a lost,
 * duplicated or reordered one fails the experiment and the firmware. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "FreeRTOS.h"
#include "event_groups.h"
#include "message_buffer.h"
#include "queue.h"
#include "semphr.h"
#include "stream_buffer.h"
#include "task.h"

#include "board.h"
#include "code_size.h"
#include "mcu_report.h"
#include "names.h"
#include "rtipc/rtipc.h"

#ifndef RTIPC_CM3_SAMPLES
#define RTIPC_CM3_SAMPLES 1000
#endif
#ifndef RTIPC_CM3_STARTED
#define RTIPC_CM3_STARTED "unknown"
#endif
#ifndef RTIPC_CM3_GIT
#define RTIPC_CM3_GIT "unknown"
#endif
#ifndef RTIPC_CM3_CFLAGS
#define RTIPC_CM3_CFLAGS "unknown"
#endif
#ifndef RTIPC_CM3_VERSION
#define RTIPC_CM3_VERSION "unknown"
#endif

#define UNIT "instr"
#define N RTIPC_CM3_SAMPLES
#define WARMUP 50
#define RUNNER_PRIO 3  /* above the busy task, below every measured task */
#define BUSY_PRIO 2
#define LOW_PRIO 10    /* sender, producer, driver */
#define HIGH_PRIO 12   /* receiver, consumer */
#define TASK_STACK 2048
#define TICK_INSTR 1000000 /* one 1 kHz tick at one instruction per ns */

/* This firmware's own experiments; the others have rtipc-bench's ids
 * (bench/names.h). */
#define EXP_TIMESTAMP "timestamp"
#define EXP_ROUND_TRIP "round-trip"

void board_spin_turns(uint32_t n); /* board_asm.S: n turns of 2 instructions */

static const char *target;
static double ipc; /* instructions per timer count (board_calibrate) */

/* ---- helpers --------------------------------------------------------------- */

static rtipc_task_t *spawn(const char *name, unsigned prio, size_t stack, rtipc_task_fn fn, void *arg)
{
    rtipc_task_config_t c = {.name = name, .priority = prio, .core = RTIPC_CORE_ANY, .stack_size = stack,
                             .entry = fn, .arg = arg};
    rtipc_task_t *t = NULL;
    if (rtipc_task_create(&c, &t) != RTIPC_OK) {
        mcu_fail("task creation failed");
        return NULL;
    }
    return t;
}

static void join(rtipc_task_t *t)
{
    if (t && rtipc_task_join(t) != RTIPC_OK)
        mcu_fail("task join failed");
}

static int64_t counts_to_instr(uint32_t counts) { return (int64_t)((double)counts * ipc + 0.5); }

/* Spin about @p instr instructions (two per turn). */
static void spin(uint32_t instr)
{
    if (instr >= 2)
        board_spin_turns(instr / 2);
}

/* A deterministic pseudo-random stream (xorshift32): the same gaps every run. */
static uint32_t rng_state = 0x9e3779b9u;
static uint32_t rng_range(uint32_t lo, uint32_t hi)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return hi <= lo ? lo : lo + rng_state % (hi - lo + 1);
}

static void keep_ratio(const char *experiment, const char *mechanism, const char *variant,
                       const bench_stats_t *num, const bench_stats_t *den)
{
    if (num && den && den->p50 > 0)
        mcu_keep_value(experiment, mechanism, variant, BENCH_METRIC_P50_RATIO, "x", num->p50 / den->p50);
}

/* ---- timestamps ----------------------------------------------------------- */

static void measure_timestamps(void)
{
    mcu_experiment_begin();
    mcu_measure_stamp_overhead(EXP_TIMESTAMP, N);
    mcu_experiment_end(EXP_TIMESTAMP, "cost of one timestamp pair (subtracted from every other figure)",
                       "overhead: instructions from board_stamp_start's return to board_stamp_end's call with "
                       "nothing between, in a task with the scheduler running (reported raw)");
}

/* ---- round trips between two equal-priority tasks --------------------------- */

typedef enum { RT_QUEUE, RT_SEM, RT_NOTIFY, RT_KQUEUE, RT_KSEM, RT_KNOTIFY, RT_KINDS } rt_kind_t;
static const char *const rt_name[RT_KINDS] = {BENCH_MECH_RTIPC_QUEUE, BENCH_MECH_RTIPC_SEM, BENCH_MECH_RTIPC_NOTIFY,
                                              "kernel-queue", "kernel-sem", "kernel-notify"};

typedef struct {
    rt_kind_t kind;
    rtipc_queue_t *q[2];
    rtipc_sem_t *s[2];
    QueueHandle_t kq[2];
    SemaphoreHandle_t ks[2];
    rtipc_task_t *volatile ping;     /* set by the pinger itself, before its first send */
    volatile TaskHandle_t kping;
    rtipc_task_t *volatile echo;
    volatile TaskHandle_t kecho;
    volatile uint32_t errors;
    uint32_t total;
} rt_t;

static void rt_echo(void *arg)
{
    rt_t *st = arg;
    st->echo = rtipc_task_current();
    st->kecho = xTaskGetCurrentTaskHandle();
    for (uint32_t i = 0; i < st->total; i++) {
        uint32_t v = 0, got = 0;
        switch (st->kind) {
        case RT_QUEUE:
            if (rtipc_queue_receive(st->q[0], &v, RTIPC_FOREVER) != RTIPC_OK ||
                rtipc_queue_send(st->q[1], &v, RTIPC_FOREVER) != RTIPC_OK)
                st->errors++;
            break;
        case RT_SEM:
            if (rtipc_sem_take(st->s[0], RTIPC_FOREVER) != RTIPC_OK || rtipc_sem_give(st->s[1]) != RTIPC_OK)
                st->errors++;
            break;
        case RT_NOTIFY:
            if (rtipc_notify_take(0, true, &got, RTIPC_FOREVER) != RTIPC_OK || got != 1 ||
                rtipc_notify_give(st->ping, 0) != RTIPC_OK)
                st->errors++;
            break;
        case RT_KQUEUE:
            if (xQueueReceive(st->kq[0], &v, portMAX_DELAY) != pdPASS ||
                xQueueSend(st->kq[1], &v, portMAX_DELAY) != pdPASS)
                st->errors++;
            break;
        case RT_KSEM:
            if (xSemaphoreTake(st->ks[0], portMAX_DELAY) != pdPASS || xSemaphoreGive(st->ks[1]) != pdPASS)
                st->errors++;
            break;
        case RT_KNOTIFY:
            if (ulTaskNotifyTake(pdTRUE, portMAX_DELAY) != 1)
                st->errors++;
            xTaskNotifyGive(st->kping);
            break;
        default:
            break;
        }
    }
}

static void rt_ping(void *arg)
{
    rt_t *st = arg;
    st->ping = rtipc_task_current();
    st->kping = xTaskGetCurrentTaskHandle();
    for (uint32_t i = 0; i < st->total; i++) {
        uint32_t back = ~0u, got = 0;
        bool ok = true;
        board_stamp_t t0 = board_stamp_start();
        switch (st->kind) {
        case RT_QUEUE:
            ok = rtipc_queue_send(st->q[0], &i, RTIPC_FOREVER) == RTIPC_OK &&
                 rtipc_queue_receive(st->q[1], &back, RTIPC_FOREVER) == RTIPC_OK && back == i;
            break;
        case RT_SEM:
            ok = rtipc_sem_give(st->s[0]) == RTIPC_OK && rtipc_sem_take(st->s[1], RTIPC_FOREVER) == RTIPC_OK;
            break;
        case RT_NOTIFY:
            ok = rtipc_notify_give(st->echo, 0) == RTIPC_OK &&
                 rtipc_notify_take(0, true, &got, RTIPC_FOREVER) == RTIPC_OK && got == 1;
            break;
        case RT_KQUEUE:
            ok = xQueueSend(st->kq[0], &i, portMAX_DELAY) == pdPASS &&
                 xQueueReceive(st->kq[1], &back, portMAX_DELAY) == pdPASS && back == i;
            break;
        case RT_KSEM:
            ok = xSemaphoreGive(st->ks[0]) == pdPASS && xSemaphoreTake(st->ks[1], portMAX_DELAY) == pdPASS;
            break;
        case RT_KNOTIFY:
            xTaskNotifyGive(st->kecho);
            ok = ulTaskNotifyTake(pdTRUE, portMAX_DELAY) == 1;
            break;
        default:
            break;
        }
        board_stamp_t t1 = board_stamp_end();
        if (!ok)
            st->errors++;
        if (i >= WARMUP)
            mcu_sample(board_stamp_instr(t0, t1));
    }
}

static const bench_stats_t *round_trip(rt_kind_t kind)
{
    static rt_t st;
    memset(&st, 0, sizeof st);
    st.kind = kind;
    st.total = N + WARMUP;
    bool made = true;
    for (int k = 0; k < 2; k++) {
        switch (kind) {
        case RT_QUEUE: made &= rtipc_queue_create(1, sizeof(uint32_t), &st.q[k]) == RTIPC_OK; break;
        case RT_SEM: made &= rtipc_sem_create_binary(&st.s[k]) == RTIPC_OK; break;
        case RT_KQUEUE: made &= (st.kq[k] = xQueueCreate(1, sizeof(uint32_t))) != NULL; break;
        case RT_KSEM: made &= (st.ks[k] = xSemaphoreCreateBinary()) != NULL; break;
        default: break;
        }
    }
    const bench_stats_t *r = NULL;
    if (!made) {
        mcu_fail("object creation failed");
    } else {
        /* The echo first: it blocks at once, so the pinger's first send
         * finds it waiting; both at one priority, as in the reference. */
        rtipc_task_t *e = spawn("echo", LOW_PRIO, TASK_STACK, rt_echo, &st);
        rtipc_task_t *p = e ? spawn("ping", LOW_PRIO, TASK_STACK, rt_ping, &st) : NULL;
        join(p);
        join(e);
        if (st.errors)
            mcu_fail("a round trip failed or brought back the wrong message");
        r = mcu_keep(EXP_ROUND_TRIP, rt_name[kind], "equal-priority", BENCH_METRIC_ROUND_TRIP, UNIT);
    }
    for (int k = 0; k < 2; k++) {
        if (st.q[k])
            rtipc_queue_delete(st.q[k]);
        if (st.s[k])
            rtipc_sem_delete(st.s[k]);
        if (st.kq[k])
            vQueueDelete(st.kq[k]);
        if (st.ks[k])
            vSemaphoreDelete(st.ks[k]);
    }
    return r;
}

/* Send then receive (give then take) in one task: no switch, the calls'
 * own cost. */
static const bench_stats_t *one_task(rt_kind_t kind)
{
    rtipc_queue_t *q = NULL;
    rtipc_sem_t *s = NULL;
    QueueHandle_t kq = NULL;
    SemaphoreHandle_t ks = NULL;
    bool made = kind == RT_QUEUE    ? rtipc_queue_create(1, sizeof(uint32_t), &q) == RTIPC_OK
                : kind == RT_SEM    ? rtipc_sem_create_binary(&s) == RTIPC_OK
                : kind == RT_KQUEUE ? (kq = xQueueCreate(1, sizeof(uint32_t))) != NULL
                                    : (ks = xSemaphoreCreateBinary()) != NULL;
    const bench_stats_t *r = NULL;
    if (!made) {
        mcu_fail("object creation failed");
    } else {
        for (uint32_t i = 0; i < N + WARMUP; i++) {
            uint32_t back = ~0u;
            bool ok;
            board_stamp_t t0 = board_stamp_start();
            if (kind == RT_QUEUE)
                ok = rtipc_queue_send(q, &i, RTIPC_NO_WAIT) == RTIPC_OK &&
                     rtipc_queue_receive(q, &back, RTIPC_NO_WAIT) == RTIPC_OK;
            else if (kind == RT_SEM)
                ok = rtipc_sem_give(s) == RTIPC_OK && rtipc_sem_take(s, RTIPC_NO_WAIT) == RTIPC_OK;
            else if (kind == RT_KQUEUE)
                ok = xQueueSend(kq, &i, 0) == pdPASS && xQueueReceive(kq, &back, 0) == pdPASS;
            else
                ok = xSemaphoreGive(ks) == pdPASS && xSemaphoreTake(ks, 0) == pdPASS;
            board_stamp_t t1 = board_stamp_end();
            if (!ok || ((kind == RT_QUEUE || kind == RT_KQUEUE) && back != i))
                mcu_fail("a call in one task failed or returned the wrong item");
            if (i >= WARMUP)
                mcu_sample(board_stamp_instr(t0, t1));
        }
        bool queue = kind == RT_QUEUE || kind == RT_KQUEUE;
        r = mcu_keep(EXP_ROUND_TRIP, rt_name[kind], "one-task", queue ? "send+receive" : "give+take", UNIT);
    }
    if (q)
        rtipc_queue_delete(q);
    if (s)
        rtipc_sem_delete(s);
    if (kq)
        vQueueDelete(kq);
    if (ks)
        vSemaphoreDelete(ks);
    return r;
}

static void measure_round_trips(void)
{
    mcu_experiment_begin();
    const bench_stats_t *rt[RT_KINDS];
    for (int k = 0; k < RT_KINDS; k++)
        rt[k] = round_trip((rt_kind_t)k);
    keep_ratio(EXP_ROUND_TRIP, "rtipc/kernel", "queue", rt[RT_QUEUE], rt[RT_KQUEUE]);
    keep_ratio(EXP_ROUND_TRIP, "rtipc/kernel", "sem", rt[RT_SEM], rt[RT_KSEM]);
    keep_ratio(EXP_ROUND_TRIP, "rtipc/kernel", "notify", rt[RT_NOTIFY], rt[RT_KNOTIFY]);
    const bench_stats_t *q1 = one_task(RT_QUEUE), *s1 = one_task(RT_SEM);
    const bench_stats_t *kq1 = one_task(RT_KQUEUE), *ks1 = one_task(RT_KSEM);
    keep_ratio(EXP_ROUND_TRIP, "rtipc/kernel", "queue/one-task", q1, kq1);
    keep_ratio(EXP_ROUND_TRIP, "rtipc/kernel", "sem/one-task", s1, ks1);
    mcu_experiment_end(
        EXP_ROUND_TRIP, "queue, semaphore and notification round trips between two equal-priority tasks",
        "round-trip: the pinger's stamp before it sends (gives, notifies) to the echo task, to its stamp after "
        "its receive (take) of the echo's answer returned; both tasks at priority 10, so each round trip is two "
        "context switches. rtipc-queue: depth-1 queues of uint32_t, the answer must carry the sequence number "
        "sent; rtipc-sem: two binary semaphores; rtipc-notify: give/take on slot 0. kernel-*: the same with "
        "xQueueSend/xQueueReceive, xSemaphoreGive/Take, xTaskNotifyGive/ulTaskNotifyTake. one-task: send then "
        "receive (give then take) with no wait in one task. rtipc/kernel p50-ratio: what rtipc's layer costs.");
}

/* ---- notify-vs-sem: one-way give -> take, same core --------------------------- */

typedef struct {
    bool notify;
    rtipc_sem_t *sem;
    rtipc_task_t *volatile taker;
    volatile board_stamp_t t0;
    volatile uint32_t taken;
    volatile uint32_t errors;
    uint32_t total;
} nv_t;

static void nv_taker(void *arg)
{
    nv_t *st = arg;
    st->taker = rtipc_task_current();
    for (uint32_t i = 0; i < st->total; i++) {
        uint32_t v = 0;
        int rc = st->notify ? rtipc_notify_take(0, true, &v, RTIPC_FOREVER) : rtipc_sem_take(st->sem, RTIPC_FOREVER);
        board_stamp_t t1 = board_stamp_end();
        if (rc != RTIPC_OK || (st->notify && v != 1))
            st->errors++;
        if (i >= WARMUP)
            mcu_sample(board_stamp_instr(st->t0, t1));
        st->taken = i + 1;
    }
}

static void nv_giver(void *arg)
{
    nv_t *st = arg;
    for (uint32_t i = 0; i < st->total; i++) {
        /* The taker outranks the giver: it has taken the last give and is
         * blocked again before the giver runs on. */
        if (st->taken != i)
            st->errors++;
        spin(rng_range(2000, 4000));
        st->t0 = board_stamp_start();
        int rc = st->notify ? rtipc_notify_give(st->taker, 0) : rtipc_sem_give(st->sem);
        if (rc != RTIPC_OK)
            st->errors++;
    }
}

static const bench_stats_t *give_take(bool notify)
{
    static nv_t st;
    memset(&st, 0, sizeof st);
    st.notify = notify;
    st.total = N + WARMUP;
    if (!notify && rtipc_sem_create_binary(&st.sem) != RTIPC_OK) {
        mcu_fail("semaphore create failed");
        return NULL;
    }
    rtipc_task_t *t = spawn("taker", HIGH_PRIO, TASK_STACK, nv_taker, &st);
    rtipc_task_t *g = t ? spawn("giver", LOW_PRIO, TASK_STACK, nv_giver, &st) : NULL;
    join(g);
    join(t);
    if (st.errors || st.taken != st.total)
        mcu_fail("a give was lost or a take failed");
    if (st.sem)
        rtipc_sem_delete(st.sem);
    return mcu_keep(BENCH_EXP_NOTIFY_VS_SEM, notify ? BENCH_MECH_RTIPC_NOTIFY : BENCH_MECH_RTIPC_SEM,
                    BENCH_VARIANT_SAME_CORE, BENCH_METRIC_LATENCY, UNIT);
}

static void measure_notify_vs_sem(void)
{
    mcu_experiment_begin();
    const bench_stats_t *s = give_take(false), *n = give_take(true);
    keep_ratio(BENCH_EXP_NOTIFY_VS_SEM, BENCH_MECH_SEM_OVER_NOTIFY, BENCH_VARIANT_SAME_CORE, s, n);
    mcu_experiment_end(BENCH_EXP_NOTIFY_VS_SEM, "binary semaphore vs task notification give -> take on one core",
                       "latency: from the giver's stamp just before rtipc_sem_give / rtipc_notify_give to the "
                       "taker's stamp after its take returned; the taker (priority 12) is blocked in the take, so "
                       "the give switches to it at once; the giver (priority 10) pauses 2000-4000 instructions "
                       "between gives. Same core: the claim's cross-core case does not exist here.");
}

/* ---- isr-handoff ----------------------------------------------------------------- */

typedef enum { IL_YIELD, IL_NO_YIELD, IL_KERNEL_CALL } il_mode_t;

typedef struct {
    il_mode_t mode;
    rtipc_queue_t *q;
    rtipc_irq_t *irq;
    uint32_t isr_seq;
    volatile board_stamp_t exit_stamp;
    volatile uint32_t received;
    volatile uint32_t errors, not_woken;
    uint32_t total, warmup;
} il_t;

static void il_isr(void *arg)
{
    il_t *st = arg;
    uint32_t seq = st->isr_seq++;
    bool woken = false;
    if (rtipc_queue_send_from_isr(st->q, &seq, &woken) != RTIPC_OK)
        st->errors++;
    if (st->mode == IL_YIELD) {
        if (!woken)
            st->not_woken++;
        rtipc_irq_yield(woken);
    }
    st->exit_stamp = board_stamp_start(); /* the last thing the handler does */
}

static void il_consumer(void *arg)
{
    il_t *st = arg;
    for (uint32_t i = 0; i < st->total; i++) {
        uint32_t seq = ~0u;
        int rc = rtipc_queue_receive(st->q, &seq, RTIPC_FOREVER);
        board_stamp_t t1 = board_stamp_end();
        if (rc != RTIPC_OK || seq != i)
            st->errors++;
        if (i >= st->warmup)
            mcu_sample(board_stamp_instr(st->exit_stamp, t1));
        st->received = i + 1;
    }
}

static void il_driver(void *arg)
{
    il_t *st = arg;
    for (uint32_t i = 0; i < st->total; i++) {
        /* A random gap spanning what decides the wait (a tick without the
         * yield), so the interrupt lands at a random phase of it. */
        spin(st->mode == IL_NO_YIELD ? rng_range(2000, 2000 + TICK_INSTR) : rng_range(2000, 4000));
        if (rtipc_irq_trigger(st->irq) != RTIPC_OK)
            st->errors++;
        /* Wait for the consumer without blocking: what releases it is the
         * handler's yield, the next tick, or (kernel-call) our rtipc call. */
        uint32_t polls = 0;
        while (st->received <= i) {
            if (st->mode == IL_KERNEL_CALL && ++polls % 2000 == 0)
                rtipc_task_yield();
        }
    }
}

static void isr_latency(il_mode_t mode, const char *variant, uint32_t samples)
{
    static il_t st;
    memset(&st, 0, sizeof st);
    st.mode = mode;
    st.warmup = samples / 10;
    st.total = samples + st.warmup;
    if (rtipc_queue_create(100, sizeof(uint32_t), &st.q) != RTIPC_OK ||
        rtipc_irq_create(0, il_isr, &st, &st.irq) != RTIPC_OK) {
        mcu_fail("queue or interrupt source create failed");
    } else {
        rtipc_task_t *c = spawn("consumer", HIGH_PRIO, TASK_STACK, il_consumer, &st);
        rtipc_task_t *d = c ? spawn("driver", LOW_PRIO, TASK_STACK, il_driver, &st) : NULL;
        join(d);
        join(c);
        if (st.errors)
            mcu_fail("a handler send or a receive failed, or a message came out of order");
        if (st.not_woken)
            mcu_fail("a send from the handler readied no task although the consumer waited");
        mcu_keep(BENCH_EXP_ISR_HANDOFF, BENCH_MECH_RTIPC_QUEUE, variant, BENCH_METRIC_LATENCY, UNIT);
    }
    if (st.irq)
        rtipc_irq_delete(st.irq);
    if (st.q)
        rtipc_queue_delete(st.q);
}

#define TP_RATE_HZ 10000u                    /* interrupts per emulated second */
#define TP_PERIOD_COUNTS (BOARD_CPU_HZ / TP_RATE_HZ)
#define TP_MAX_SENDS 4096u

typedef struct {
    bool yield;
    rtipc_queue_t *q;
    rtipc_irq_t *irq;
    volatile int stopping, stopped, busy_stop;
    uint32_t seq, dropped;                   /* handler only */
    uint8_t drop_bits[TP_MAX_SENDS / 8];
    volatile uint32_t delivered, errors;
    volatile int finish;
} tp_t;

static void tp_isr(void *arg)
{
    tp_t *st = arg;
    if (st->stopping) {
        st->stopped = 1;
        return;
    }
    if (st->seq >= TP_MAX_SENDS) {
        st->errors++;
        return;
    }
    uint32_t seq = st->seq++;
    bool woken = false;
    int rc = rtipc_queue_send_from_isr(st->q, &seq, &woken);
    if (rc == RTIPC_EWOULDBLOCK) {
        st->dropped++;
        st->drop_bits[seq / 8] |= (uint8_t)(1u << (seq % 8));
    } else if (rc != RTIPC_OK) {
        st->errors++;
    }
    if (st->yield)
        rtipc_irq_yield(woken);
}

/* The interrupted task: raises the interrupt every TP_PERIOD_COUNTS, as a
 * peripheral would, and otherwise spins. */
static void tp_busy(void *arg)
{
    tp_t *st = arg;
    uint32_t last = board_timer_now();
    while (!st->busy_stop) {
        uint32_t now = board_timer_now();
        if (last - now >= TP_PERIOD_COUNTS) {
            last -= TP_PERIOD_COUNTS;
            if (last - now >= TP_PERIOD_COUNTS) /* late: no catch-up burst */
                last = now;
            rtipc_irq_trigger(st->irq);
        }
    }
}

static bool tp_dropped(const tp_t *st, uint32_t s) { return (st->drop_bits[s / 8] >> (s % 8)) & 1u; }

static void tp_consumer(void *arg)
{
    tp_t *st = arg;
    uint32_t expect = 0;
    for (;;) {
        uint32_t seq;
        int rc = rtipc_queue_receive(st->q, &seq, rtipc_ms(20));
        if (rc == RTIPC_ETIMEDOUT) {
            if (st->finish)
                return;
            continue;
        }
        do {
            if (rc != RTIPC_OK || seq < expect || seq >= TP_MAX_SENDS || tp_dropped(st, seq)) {
                st->errors++;
                return;
            }
            for (uint32_t s = expect; s < seq; s++)
                if (!tp_dropped(st, s)) {
                    st->errors++; /* sent, accepted, never received */
                    return;
                }
            expect = seq + 1;
            st->delivered++;
        } while ((rc = rtipc_queue_receive(st->q, &seq, RTIPC_NO_WAIT)) == RTIPC_OK);
    }
}

static void isr_throughput(bool yield, unsigned depth)
{
    static tp_t st;
    memset(&st, 0, sizeof st);
    st.yield = yield;
    const char *variant = yield ? (depth == 1 ? BENCH_VARIANT_YIELD_DEPTH_1 : BENCH_VARIANT_YIELD_DEPTH_100)
                          : (depth == 1 ? BENCH_VARIANT_NO_YIELD_DEPTH_1 : BENCH_VARIANT_NO_YIELD_DEPTH_100);
    if (rtipc_queue_create(depth, sizeof(uint32_t), &st.q) != RTIPC_OK ||
        rtipc_irq_create(0, tp_isr, &st, &st.irq) != RTIPC_OK) {
        mcu_fail("queue or interrupt source create failed");
        goto out;
    }
    rtipc_task_t *c = spawn("consumer", HIGH_PRIO, TASK_STACK, tp_consumer, &st);
    rtipc_task_t *b = c ? spawn("busy", BUSY_PRIO, TASK_STACK, tp_busy, &st) : NULL;
    /* The runner outranks the busy task: it wakes to read the window's
     * edges. Warm-up 10 ms, window 100 ms of emulated time. */
    rtipc_task_delay(rtipc_ms(10));
    uint32_t t0 = board_timer_now(), d0 = st.delivered, s0 = st.seq;
    rtipc_task_delay(rtipc_ms(100));
    uint32_t t1 = board_timer_now(), d1 = st.delivered, s1 = st.seq;
    st.stopping = 1;
    st.busy_stop = 1;
    join(b);
    rtipc_irq_trigger(st.irq); /* a run that sees stopping: every send counted */
    uint32_t polls = 0;
    while (!st.stopped && ++polls < 100)
        rtipc_task_delay(rtipc_ms(1));
    uint32_t want = st.seq - st.dropped;
    for (polls = 0; st.delivered < want && polls < 100; polls++)
        rtipc_task_delay(rtipc_ms(1));
    st.finish = 1;
    join(c);
    if (st.errors)
        mcu_fail("a message was lost, duplicated or reordered, or a handler send failed");
    if (!st.stopped || st.seq != st.delivered + st.dropped)
        mcu_fail("sent != delivered + dropped");
    double window_s = (double)(t0 - t1) / (double)BOARD_CPU_HZ;
    const char *e = BENCH_EXP_ISR_HANDOFF, *q = BENCH_MECH_RTIPC_QUEUE;
    mcu_keep_value(e, q, variant, BENCH_METRIC_THROUGHPUT, "msg/s", (double)(d1 - d0) / window_s);
    mcu_keep_value(e, q, variant, BENCH_METRIC_OFFERED, "msg/s", (double)(s1 - s0) / window_s);
    mcu_keep_value(e, q, variant, BENCH_METRIC_SENT, "count", (double)st.seq);
    mcu_keep_value(e, q, variant, BENCH_METRIC_DELIVERED, "count", (double)st.delivered);
    mcu_keep_value(e, q, variant, BENCH_METRIC_DROPPED, "count", (double)st.dropped);
out:
    if (st.irq)
        rtipc_irq_delete(st.irq);
    if (st.q)
        rtipc_queue_delete(st.q);
}

static void measure_isr_handoff(void)
{
    mcu_experiment_begin();
    isr_latency(IL_YIELD, BENCH_VARIANT_YIELD, N);
    isr_latency(IL_NO_YIELD, BENCH_VARIANT_NO_YIELD, N / 5);
    isr_latency(IL_KERNEL_CALL, BENCH_VARIANT_NO_YIELD_KERNEL_CALL, N / 2);
    for (unsigned depth = 1; depth <= 100; depth += 99) {
        isr_throughput(true, depth);
        isr_throughput(false, depth);
    }
    mcu_experiment_end(
        BENCH_EXP_ISR_HANDOFF, "interrupt handler -> higher-priority task through a queue, with and without yield",
        "Interrupts are rtipc interrupt sources on NVIC line 27 (priority 0xA0, pended through ISPR: "
        "rtipc_irq_trigger); handlers send with rtipc_queue_send_from_isr to a consumer at priority 12. "
        "latency: from the handler's last stamp (after rtipc_irq_yield in yield mode) to the consumer's stamp "
        "after its receive returned; a driver task at priority 10 raises one interrupt at a time and spins "
        "until the consumer has it (it is the interrupted task), after a random gap (2000-4000 instructions; "
        "no-yield: up to a tick more, so the interrupt lands at a random phase of the tick). no-yield: the "
        "consumer runs at the next tick; kernel-call: the driver calls rtipc_task_yield every 2000 polls. "
        "throughput (msg/s of emulated time): a busy task at priority 2 raises the interrupt every 100 us "
        "(10 kHz, ten times the tick) for a 100 ms window after 10 ms of warm-up; offered: handler runs per "
        "second in the window; sent = delivered + dropped checked exactly, every gap in the received "
        "sequence numbers must be a send the handler saw refused.");
}

/* ---- batching -------------------------------------------------------------------- */

#define BT_BYTES 100

typedef struct {
    bool one_byte;
    rtipc_queue_t *q;
    volatile board_stamp_t t0;
    volatile uint32_t acked, errors;
    uint32_t total;
    uint32_t switches0;       /* at the first recorded batch */
} bt_t;

static void bt_consumer(void *arg)
{
    bt_t *st = arg;
    uint8_t v = 0;
    for (uint32_t b = 0; b < st->total; b++) {
        uint8_t batch[BT_BYTES];
        bool ok = true;
        if (st->one_byte) {
            for (int k = 0; k < BT_BYTES && ok; k++)
                ok = rtipc_queue_receive(st->q, &batch[k], RTIPC_FOREVER) == RTIPC_OK;
        } else {
            ok = rtipc_queue_receive(st->q, batch, RTIPC_FOREVER) == RTIPC_OK;
        }
        board_stamp_t t1 = board_stamp_end();
        for (int k = 0; k < BT_BYTES; k++)
            if (batch[k] != v++)
                ok = false;
        if (!ok)
            st->errors++;
        if (b >= WARMUP)
            mcu_sample(board_stamp_instr(st->t0, t1));
        st->acked = b + 1;
    }
}

static void bt_producer(void *arg)
{
    bt_t *st = arg;
    uint8_t v = 0;
    for (uint32_t b = 0; b < st->total; b++) {
        uint8_t batch[BT_BYTES];
        for (int k = 0; k < BT_BYTES; k++)
            batch[k] = v++;
        if (st->acked != b) /* the consumer outranks us: it is done with the last batch */
            st->errors++;
        if (b == WARMUP)
            st->switches0 = rtipc_cm3_switches;
        spin(rng_range(2000, 4000));
        st->t0 = board_stamp_start();
        bool ok = true;
        if (st->one_byte) {
            for (int k = 0; k < BT_BYTES && ok; k++)
                ok = rtipc_queue_send(st->q, &batch[k], RTIPC_FOREVER) == RTIPC_OK;
        } else {
            ok = rtipc_queue_send(st->q, batch, RTIPC_FOREVER) == RTIPC_OK;
        }
        if (!ok)
            st->errors++;
    }
}

static const bench_stats_t *batching(bool one_byte)
{
    static bt_t st;
    memset(&st, 0, sizeof st);
    st.one_byte = one_byte;
    st.total = N + WARMUP;
    const char *variant = one_byte ? BENCH_VARIANT_100X1B : BENCH_VARIANT_1X100B;
    const bench_stats_t *r = NULL;
    if (rtipc_queue_create(one_byte ? BT_BYTES : 1, one_byte ? 1 : BT_BYTES, &st.q) != RTIPC_OK) {
        mcu_fail("queue create failed");
        return NULL;
    }
    rtipc_task_t *c = spawn("consumer", HIGH_PRIO, TASK_STACK, bt_consumer, &st);
    rtipc_task_t *p = c ? spawn("producer", LOW_PRIO, TASK_STACK, bt_producer, &st) : NULL;
    join(p);
    uint32_t switches = rtipc_cm3_switches - st.switches0;
    join(c);
    if (st.errors || st.acked != st.total)
        mcu_fail("a byte was lost, duplicated or reordered");
    r = mcu_keep(BENCH_EXP_BATCHING, BENCH_MECH_RTIPC_QUEUE, variant, BENCH_METRIC_TIME_PER_100B, UNIT);
    /* The switches of the recorded batches (the producer's last step is in
     * them; the join's are not). */
    mcu_keep_value(BENCH_EXP_BATCHING, BENCH_MECH_RTIPC_QUEUE, variant, BENCH_METRIC_CONTEXT_SWITCHES_PER_100B, "count",
                   (double)switches / (double)N);
    rtipc_queue_delete(st.q);
    return r;
}

static void measure_batching(void)
{
    mcu_experiment_begin();
    const bench_stats_t *small = batching(true), *big = batching(false);
    if (small && big && big->p50 > 0)
        mcu_keep_value(BENCH_EXP_BATCHING, BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_100X1B_OVER_1X100B,
                       BENCH_METRIC_TIME_RATIO, "x", small->p50 / big->p50);
    mcu_experiment_end(
        BENCH_EXP_BATCHING, "100 bytes through a queue: 100 x 1-byte items vs 1 x 100-byte item",
        "time-per-100B: from the producer's stamp before its first send of the batch to the consumer's stamp "
        "after the receive of the batch's last byte; producer at priority 10, consumer at 12 (each 1-byte send "
        "switches to the consumer); every byte carries the running count mod 256. context-switches-per-100B: "
        "the kernel's task switches (traceTASK_SWITCHED_IN) over the recorded batches, per batch.");
}

/* ---- state-vs-event ------------------------------------------------------------- */

typedef struct {
    uint32_t seq;
    uint32_t t_counts;        /* the timer when it was published */
} sv_value_t;

typedef enum { SV_QUEUE, SV_OVERWRITE, SV_MAILBOX } sv_mech_t;

typedef struct {
    sv_mech_t mech;
    rtipc_queue_t *q;
    rtipc_mailbox_t *mb;
    volatile int stop;
    volatile uint32_t published, dropped, errors;
    uint32_t actions, warmup;
} sv_t;

static void sv_producer(void *arg)
{
    sv_t *st = arg;
    uint64_t wake = rtipc_tick_count();
    for (uint32_t seq = 1; !st->stop; seq++) {
        if (rtipc_task_delay_until(&wake, 1, NULL) != RTIPC_OK)
            st->errors++;
        sv_value_t v = {seq, board_timer_now()};
        int rc = st->mech == SV_QUEUE      ? rtipc_queue_send(st->q, &v, RTIPC_NO_WAIT)
                 : st->mech == SV_OVERWRITE ? rtipc_queue_overwrite(st->q, &v)
                                            : rtipc_mailbox_write(st->mb, &v);
        if (rc == RTIPC_EWOULDBLOCK && st->mech == SV_QUEUE)
            st->dropped++;
        else if (rc != RTIPC_OK)
            st->errors++;
        st->published++;
    }
}

static void sv_consumer(void *arg)
{
    sv_t *st = arg;
    uint64_t wake = rtipc_tick_count();
    uint32_t last = 0;
    for (uint32_t a = 0; a < st->actions + st->warmup; a++) {
        if (rtipc_task_delay_until(&wake, 5, NULL) != RTIPC_OK)
            st->errors++;
        sv_value_t v = {0, 0};
        uint64_t version = 0;
        int rc = st->mech == SV_MAILBOX ? rtipc_mailbox_read(st->mb, &v, &version)
                                        : rtipc_queue_receive(st->q, &v, RTIPC_NO_WAIT);
        uint32_t now = board_timer_now();
        if (rc != RTIPC_OK || v.seq == 0) {
            st->errors++; /* the producer publishes every tick: there is always a value */
            continue;
        }
        /* A queue hands each value once, in order; the latest-value designs
         * may hand the same one twice, never an older one. */
        if (st->mech == SV_QUEUE ? v.seq <= last : v.seq < last)
            st->errors++;
        last = v.seq;
        if (a >= st->warmup)
            mcu_sample_raw(counts_to_instr(v.t_counts - now));
    }
    st->stop = 1;
}

static void state_vs_event(sv_mech_t mech)
{
    static sv_t st;
    memset(&st, 0, sizeof st);
    st.mech = mech;
    st.actions = N / 5;
    st.warmup = 40; /* the depth-32 queue fills in the first 40 actions */
    int rc = mech == SV_QUEUE      ? rtipc_queue_create(32, sizeof(sv_value_t), &st.q)
             : mech == SV_OVERWRITE ? rtipc_queue_create(1, sizeof(sv_value_t), &st.q)
                                    : rtipc_mailbox_create(sizeof(sv_value_t), NULL, &st.mb);
    if (rc != RTIPC_OK) {
        mcu_fail("object create failed");
        return;
    }
    rtipc_task_t *c = spawn("consumer", HIGH_PRIO, TASK_STACK, sv_consumer, &st);
    rtipc_task_t *p = c ? spawn("producer", LOW_PRIO, TASK_STACK, sv_producer, &st) : NULL;
    join(c);
    join(p);
    if (st.errors)
        mcu_fail("a value was missing, reordered or not published");
    static const char *const mech_name[] = {BENCH_MECH_RTIPC_QUEUE, BENCH_MECH_RTIPC_QUEUE_OVERWRITE,
                                            BENCH_MECH_RTIPC_MAILBOX};
    static const char *const variant[] = {BENCH_VARIANT_DEPTH_32, BENCH_VARIANT_LENGTH_1, BENCH_VARIANT_LATEST};
    mcu_keep(BENCH_EXP_STATE_VS_EVENT, mech_name[mech], variant[mech], BENCH_METRIC_STALENESS, UNIT);
    mcu_keep_value(BENCH_EXP_STATE_VS_EVENT, mech_name[mech], variant[mech], BENCH_METRIC_PUBLISHED, "count",
                   (double)st.published);
    mcu_keep_value(BENCH_EXP_STATE_VS_EVENT, mech_name[mech], variant[mech], BENCH_METRIC_DROPPED, "count",
                   (double)st.dropped);
    if (st.q)
        rtipc_queue_delete(st.q);
    if (st.mb)
        rtipc_mailbox_delete(st.mb);
}

static void measure_state_vs_event(void)
{
    mcu_experiment_begin();
    state_vs_event(SV_QUEUE);
    state_vs_event(SV_OVERWRITE);
    state_vs_event(SV_MAILBOX);
    mcu_experiment_end(
        BENCH_EXP_STATE_VS_EVENT, "1 kHz state producer, consumer acting every 5 ms: queue vs overwrite vs mailbox",
        "staleness: the age of the value the consumer acts on, from the timer reading the producer stored in "
        "it when publishing to the consumer's reading after its receive/read (timer counts of 40 "
        "instructions; 1 ms is 1,000,000 instructions). Producer (priority 10) publishes once per tick "
        "(rtipc_task_delay_until); consumer (priority 12) acts every 5 ticks, after 40 warm-up actions. "
        "depth=32: queue, send without waiting (a full queue drops the new value); length=1: "
        "rtipc_queue_overwrite; latest: rtipc mailbox.");
}

/* ---- queue-set ----------------------------------------------------------------------- */

#define QS_SOURCES 3
#define QS_LEN 10
#define QS_STACK 1024

typedef struct {
    bool set_design;
    rtipc_queue_t *q[QS_SOURCES];
    rtipc_queueset_t *set;
    volatile board_stamp_t t0;
    volatile uint32_t received, errors;
    uint32_t next[QS_SOURCES];
    uint32_t total;
} qs_t;

typedef struct {
    qs_t *st;
    int index; /* its queue, or -1: the set consumer */
} qs_arg_t;

static void qs_take(qs_t *st, int k, uint32_t v, board_stamp_t t1)
{
    if (v != st->next[k]++)
        st->errors++;
    if (st->received >= st->total - N) /* the last N; the first are warm-up */
        mcu_sample(board_stamp_instr(st->t0, t1));
    st->received++;
}

static void qs_consumer(void *arg)
{
    qs_arg_t *a = arg;
    qs_t *st = a->st;
    uint32_t mine = a->index < 0 ? st->total : st->total / QS_SOURCES;
    for (uint32_t i = 0; i < mine; i++) {
        uint32_t v = ~0u;
        int k = a->index;
        if (k < 0) {
            void *member = NULL;
            if (rtipc_queueset_select(st->set, &member, RTIPC_FOREVER) != RTIPC_OK) {
                st->errors++;
                return;
            }
            for (k = 0; k < QS_SOURCES && (void *)st->q[k] != member; k++)
                ;
            if (k == QS_SOURCES) {
                st->errors++;
                return;
            }
        }
        /* After a select the item is there; a consumer of its own queue
         * blocks in the receive. */
        int rc = rtipc_queue_receive(st->q[k], &v, a->index < 0 ? RTIPC_NO_WAIT : RTIPC_FOREVER);
        board_stamp_t t1 = board_stamp_end();
        if (rc != RTIPC_OK)
            st->errors++;
        qs_take(st, k, v, t1);
    }
}

static void qs_producer(void *arg)
{
    qs_t *st = arg;
    uint32_t seq[QS_SOURCES] = {0};
    for (uint32_t i = 0; i < st->total; i++) {
        int k = (int)(i % QS_SOURCES);
        if (st->received != i)
            st->errors++;
        spin(rng_range(2000, 4000));
        st->t0 = board_stamp_start();
        if (rtipc_queue_send(st->q[k], &seq[k], RTIPC_FOREVER) != RTIPC_OK)
            st->errors++;
        seq[k]++;
    }
}

static void queue_set(bool set_design)
{
    static qs_t st;
    static qs_arg_t args[QS_SOURCES];
    memset(&st, 0, sizeof st);
    st.set_design = set_design;
    st.total = (N + WARMUP + QS_SOURCES - 1) / QS_SOURCES * QS_SOURCES; /* as many from each */
    const char *mech = set_design ? BENCH_MECH_QUEUE_SET : BENCH_MECH_THREE_TASKS;
    const char *variant = "3x(len=10,item=4),stack=1024";

    /* Memory as the heap sees it: what creating the objects and the
     * consumer tasks took from heap 4 (its block headers included). */
    size_t h0 = xPortGetFreeHeapSize();
    bool ok = true;
    for (int k = 0; k < QS_SOURCES; k++)
        ok &= rtipc_queue_create(QS_LEN, sizeof(uint32_t), &st.q[k]) == RTIPC_OK;
    if (set_design) {
        ok &= rtipc_queueset_create(QS_SOURCES * QS_LEN, &st.set) == RTIPC_OK;
        for (int k = 0; k < QS_SOURCES && ok; k++)
            ok &= rtipc_queueset_add_queue(st.set, st.q[k]) == RTIPC_OK;
    }
    size_t h1 = xPortGetFreeHeapSize();
    rtipc_task_t *c[QS_SOURCES] = {NULL};
    int consumers = set_design ? 1 : QS_SOURCES;
    for (int i = 0; i < consumers && ok; i++) {
        args[i] = (qs_arg_t){&st, set_design ? -1 : i};
        c[i] = spawn("consumer", HIGH_PRIO, QS_STACK, qs_consumer, &args[i]);
        ok &= c[i] != NULL;
    }
    size_t h2 = xPortGetFreeHeapSize();
    if (!ok) {
        mcu_fail("object or task create failed");
    } else {
        rtipc_task_t *p = spawn("producer", LOW_PRIO, TASK_STACK, qs_producer, &st);
        join(p);
        for (int i = 0; i < consumers; i++)
            join(c[i]);
        if (st.errors || st.received != st.total)
            mcu_fail("a message was lost, duplicated or reordered");
        mcu_keep(BENCH_EXP_QUEUE_SET, mech, BENCH_VARIANT_ANY_OF_3, BENCH_METRIC_LATENCY, UNIT);
        mcu_keep_value(BENCH_EXP_QUEUE_SET, mech, variant, BENCH_METRIC_MEMORY, "B", (double)(h0 - h2));
        mcu_keep_value(BENCH_EXP_QUEUE_SET, mech, variant, BENCH_METRIC_OBJECTS, "B", (double)(h0 - h1));
        mcu_keep_value(BENCH_EXP_QUEUE_SET, mech, variant, "tasks", "B", (double)(h1 - h2));
        mcu_keep_value(BENCH_EXP_QUEUE_SET, mech, variant, BENCH_METRIC_CONSUMER_TASKS, "count", consumers);
    }
    if (st.set)
        rtipc_queueset_delete(st.set);
    for (int k = 0; k < QS_SOURCES; k++)
        if (st.q[k])
            rtipc_queue_delete(st.q[k]);
}

static void measure_queue_set(void)
{
    mcu_experiment_begin();
    queue_set(true);
    queue_set(false);
    mcu_experiment_end(
        BENCH_EXP_QUEUE_SET, "3 sources: one consumer on a queue set vs 3 consumer tasks (latency, memory)",
        "latency: from the producer's stamp before it sends to queue i mod 3 to the consumer's stamp after its "
        "receive returned (queue-set: after rtipc_queueset_select, then the receive); producer at priority 10, "
        "consumers at 12. memory: bytes the heap (heap 4, block headers included) gave to the three queues "
        "(length 10, 4-byte items), the set (length 30) and the consumer tasks (1024-byte stacks, with rtipc's "
        "task descriptor and the kernel's TCB): objects + tasks.");
}

/* ---- footprint -------------------------------------------------------------------------- */

/* The heap bytes one creation took (heap 4 rounds each block up to 8 bytes
 * and adds an 8-byte header). */
static size_t heap_used_since(size_t before) { return before - xPortGetFreeHeapSize(); }

static void footprint_row(const char *mech, const char *variant, size_t heap, size_t footprint, size_t type)
{
    mcu_keep_value(BENCH_EXP_FOOTPRINT, mech, variant, "heap-bytes", "B", (double)heap);
    mcu_keep_value(BENCH_EXP_FOOTPRINT, mech, variant, "footprint", "B", (double)footprint);
    if (type)
        mcu_keep_value(BENCH_EXP_FOOTPRINT, mech, variant, "static-type", "B", (double)type);
}

static void idle_entry(void *arg) { (void)arg; }

static void measure_footprint(void)
{
    mcu_experiment_begin();
    size_t h;
    {
        rtipc_queue_t *q = NULL;
        h = xPortGetFreeHeapSize();
        if (rtipc_queue_create(10, 4, &q) == RTIPC_OK) {
            footprint_row(BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_LEN_10_ITEM_4, heap_used_since(h),
                          rtipc_queue_footprint(q),
                          sizeof(rtipc_queue_static_t));
            rtipc_queue_delete(q);
        } else {
            mcu_fail("queue create failed");
        }
        h = xPortGetFreeHeapSize();
        if (rtipc_queue_create(50, 8, &q) == RTIPC_OK) {
            footprint_row(BENCH_MECH_RTIPC_QUEUE, BENCH_VARIANT_LEN_50_ITEM_8, heap_used_since(h),
                          rtipc_queue_footprint(q), 0);
            rtipc_queue_delete(q);
        } else {
            mcu_fail("queue create failed");
        }
    }
    {
        rtipc_sem_t *s = NULL;
        h = xPortGetFreeHeapSize();
        if (rtipc_sem_create_binary(&s) == RTIPC_OK) {
            footprint_row(BENCH_MECH_RTIPC_SEM_BINARY, BENCH_VARIANT_MAX_1, heap_used_since(h), rtipc_sem_footprint(s),
                          sizeof(rtipc_sem_static_t));
            rtipc_sem_delete(s);
        } else {
            mcu_fail("semaphore create failed");
        }
    }
    {
        rtipc_mutex_t *m = NULL;
        h = xPortGetFreeHeapSize();
        if (rtipc_mutex_create(false, &m) == RTIPC_OK) {
            footprint_row(BENCH_MECH_RTIPC_MUTEX, BENCH_VARIANT_PLAIN, heap_used_since(h), rtipc_mutex_footprint(m),
                          sizeof(rtipc_mutex_static_t));
            rtipc_mutex_delete(m);
        } else {
            mcu_fail("mutex create failed");
        }
    }
    {
        rtipc_eventgroup_t *eg = NULL;
        h = xPortGetFreeHeapSize();
        if (rtipc_eventgroup_create(&eg) == RTIPC_OK) {
            footprint_row(BENCH_MECH_RTIPC_EVENTGROUP, BENCH_VARIANT_24_BIT, heap_used_since(h),
                          rtipc_eventgroup_footprint(eg),
                          sizeof(rtipc_eventgroup_static_t));
            rtipc_eventgroup_delete(eg);
        } else {
            mcu_fail("event group create failed");
        }
    }
    {
        rtipc_streambuf_t *sb = NULL;
        h = xPortGetFreeHeapSize();
        if (rtipc_streambuf_create(1024, 1, &sb) == RTIPC_OK) {
            footprint_row(BENCH_MECH_RTIPC_STREAMBUF, BENCH_VARIANT_SIZE_1024, heap_used_since(h),
                          rtipc_streambuf_footprint(sb), 0);
            rtipc_streambuf_delete(sb);
        } else {
            mcu_fail("stream buffer create failed");
        }
        rtipc_msgbuf_t *mb = NULL;
        h = xPortGetFreeHeapSize();
        if (rtipc_msgbuf_create(1024, &mb) == RTIPC_OK) {
            footprint_row(BENCH_MECH_RTIPC_MSGBUF, BENCH_VARIANT_SIZE_1024, heap_used_since(h),
                          rtipc_msgbuf_footprint(mb), 0);
            rtipc_msgbuf_delete(mb);
        } else {
            mcu_fail("message buffer create failed");
        }
    }
    {
        rtipc_mailbox_t *mb = NULL;
        h = xPortGetFreeHeapSize();
        if (rtipc_mailbox_create(16, NULL, &mb) == RTIPC_OK) {
            footprint_row(BENCH_MECH_RTIPC_MAILBOX, BENCH_VARIANT_VALUE_16, heap_used_since(h),
                          rtipc_mailbox_footprint(mb),
                          sizeof(rtipc_mailbox_static_t));
            rtipc_mailbox_delete(mb);
        } else {
            mcu_fail("mailbox create failed");
        }
        rtipc_spsc_t *r = NULL;
        h = xPortGetFreeHeapSize();
        if (rtipc_spsc_create(64, 4, &r) == RTIPC_OK) {
            footprint_row(BENCH_MECH_RTIPC_SPSC, BENCH_VARIANT_CAP_64_ITEM_4, heap_used_since(h),
                          rtipc_spsc_footprint(r),
                          sizeof(rtipc_spsc_static_t));
            rtipc_spsc_delete(r);
        } else {
            mcu_fail("SPSC ring create failed");
        }
    }
    {
        rtipc_queueset_t *set = NULL;
        h = xPortGetFreeHeapSize();
        if (rtipc_queueset_create(30, &set) == RTIPC_OK) {
            footprint_row(BENCH_MECH_RTIPC_QUEUESET, BENCH_VARIANT_LEN_30, heap_used_since(h),
                          rtipc_queueset_footprint(set), 0);
            rtipc_queueset_delete(set);
        } else {
            mcu_fail("queue set create failed");
        }
    }
    {
        /* A task: descriptor, kernel TCB and a 1024-byte stack; it ends at
         * once and the join returns its memory. */
        h = xPortGetFreeHeapSize();
        rtipc_task_t *t = spawn("footprint", LOW_PRIO, 1024, idle_entry, NULL);
        size_t used = heap_used_since(h);
        join(t);
        mcu_keep_value(BENCH_EXP_FOOTPRINT, "rtipc-task", "stack=1024", "heap-bytes", "B", (double)used);
    }
    /* The kernel's own types on this target (what each rtipc object holds). */
    mcu_keep_value(BENCH_EXP_FOOTPRINT, "kernel", "StaticQueue_t", "sizeof", "B", sizeof(StaticQueue_t));
    mcu_keep_value(BENCH_EXP_FOOTPRINT, "kernel", "StaticSemaphore_t", "sizeof", "B", sizeof(StaticSemaphore_t));
    mcu_keep_value(BENCH_EXP_FOOTPRINT, "kernel", "StaticEventGroup_t", "sizeof", "B", sizeof(StaticEventGroup_t));
    mcu_keep_value(BENCH_EXP_FOOTPRINT, "kernel", "StaticStreamBuffer_t", "sizeof", "B", sizeof(StaticStreamBuffer_t));
    mcu_keep_value(BENCH_EXP_FOOTPRINT, "kernel", "StaticTask_t", "sizeof", "B", sizeof(StaticTask_t));
    /* Code: arm-none-eabi-size of every librtipc object (code_size.h). */
    unsigned total_os = 0, total_o2 = 0;
    for (size_t i = 0; i < sizeof code_size / sizeof code_size[0]; i++) {
        mcu_keep_value(BENCH_EXP_FOOTPRINT, code_size[i].object, "-Os", "code-text", "B", code_size[i].os[0]);
        mcu_keep_value(BENCH_EXP_FOOTPRINT, code_size[i].object, "-O2", "code-text", "B", code_size[i].o2[0]);
        total_os += code_size[i].os[0] + code_size[i].os[1];
        total_o2 += code_size[i].o2[0] + code_size[i].o2[1];
        if (code_size[i].os[1] || code_size[i].os[2])
            mcu_keep_value(BENCH_EXP_FOOTPRINT, code_size[i].object, "-Os", "data+bss", "B",
                           code_size[i].os[1] + code_size[i].os[2]);
    }
    mcu_keep_value(BENCH_EXP_FOOTPRINT, "librtipc", "-Os", "code-text+data", "B", total_os);
    mcu_keep_value(BENCH_EXP_FOOTPRINT, "librtipc", "-O2", "code-text+data", "B", total_o2);
    mcu_experiment_end(
        BENCH_EXP_FOOTPRINT, "bytes per object on the 32-bit target, and librtipc's code size",
        "heap-bytes: what one dynamic creation took from heap 4 (xPortGetFreeHeapSize before and after: "
        "rtipc's block and the kernel object in it, storage, heap 4's 8-byte header and rounding); footprint: "
        "rtipc_*_footprint of the live object; static-type: sizeof of the caller-provided rtipc_*_static_t; "
        "kernel sizeof: the kernel's Static*_t on this target; code-text (data+bss): arm-none-eabi-size of "
        "each librtipc object for Cortex-M3 at -Os and -O2 (the sources of this build, compiled again).");
}

/* ---- the run ------------------------------------------------------------------------------ */

static void print_json(void)
{
    char kernel[96];
    snprintf(kernel, sizeof kernel, "FreeRTOS %s (GCC ARM_CM3, heap 4) on %s", tskKERNEL_VERSION_NUMBER, target);
    const bench_console_env_t env = {
        .chip = target,
        .cores = 1,
        .cpu_mhz = (int)(BOARD_CPU_HZ / 1000000u),
        .freertos_version = tskKERNEL_VERSION_NUMBER,
        .rtipc_version = RTIPC_CM3_VERSION,
        .compiler = "arm-none-eabi-gcc " __VERSION__,
        .cflags = RTIPC_CM3_CFLAGS,
        .started_utc = RTIPC_CM3_STARTED,
        .tick_hz = configTICK_RATE_HZ,
        .timestamp_overhead_ns = (double)mcu_overhead(),
        .samples = N,
        .platform = "the FreeRTOS Cortex-M3 suite",
        .target = "freertos",
        .clock = BENCH_CLOCK_EMULATED_INSTRUCTIONS,
        .kernel = kernel,
        .hostname = "qemu-mps2-an385",
        .sched_detail = "FreeRTOS fixed-priority preemptive, one core, 1 kHz SysTick; figures in instructions",
        .priorities = "FreeRTOS priority = rtipc priority: senders 10, receivers 12, busy task 2, runner 3; "
                      "rtipc's interrupt line 27 at NVIC priority 0xA0 (configMAX_SYSCALL_INTERRUPT_PRIORITY)",
        .clock_source = "cmsdk-timer0, phase-resolved to the instruction; figures in instr (1 instr = 1 ns emulated)",
        .clock_hz = (double)BOARD_CPU_HZ,
        .clock_resolution_ns = board_stamp_exact() ? 1.0 : 4.0,
        .git_commit = RTIPC_CM3_GIT,
    };
    mcu_print_json(&env);
}

static void runner(void *arg)
{
    (void)arg;
    static const struct {
        const char *id;
        void (*run)(void);
    } suite[] = {
        {EXP_TIMESTAMP, measure_timestamps},
        {EXP_ROUND_TRIP, measure_round_trips},
        {BENCH_EXP_NOTIFY_VS_SEM, measure_notify_vs_sem},
        {BENCH_EXP_ISR_HANDOFF, measure_isr_handoff},
        {BENCH_EXP_BATCHING, measure_batching},
        {BENCH_EXP_STATE_VS_EVENT, measure_state_vs_event},
        {BENCH_EXP_QUEUE_SET, measure_queue_set},
        {BENCH_EXP_FOOTPRINT, measure_footprint},
    };
    for (size_t i = 0; i < sizeof suite / sizeof suite[0]; i++) {
        printf("running %s\n", suite[i].id); /* deterministic too: a hang shows where */
        suite[i].run();
    }
    int failures = mcu_failures();
    if (board_stamp_anomalies() != 0) {
        printf("rtipc-cm3-freertos-bench: %lu timestamps found the timer off its period\n",
               (unsigned long)board_stamp_anomalies());
        failures++;
    }
    printf("rtipc-cm3-freertos-bench: FreeRTOS %s on %s, rtipc %s, %d samples a series\n",
           tskKERNEL_VERSION_NUMBER, target, RTIPC_CM3_VERSION, N);
    printf("calibration: %.4f instructions per TIMER0 count (%s); SysTick at %lu Hz, tick %u Hz; timestamp "
           "overhead %ld instructions (subtracted below except from its own row); heap left %u of %u bytes\n\n",
           ipc, board_stamp_exact() ? "stamps exact to the instruction" : "stamps to 4 instructions",
           (unsigned long)rtipc_cm3_systick_hz, (unsigned)configTICK_RATE_HZ, (long)mcu_overhead(),
           (unsigned)xPortGetFreeHeapSize(), (unsigned)configTOTAL_HEAP_SIZE);
    mcu_print_tables();
    print_json();
    mcu_report_free();
    board_exit(failures ? 1 : 0);
}

int main(void)
{
    ipc = board_calibrate();
    rtipc_cm3_systick_hz = board_systick_hz();
    target = mcu_env_target(ipc);
    if (mcu_report_init(N) != 0) {
        printf("rtipc-cm3-freertos-bench: no memory for the samples\n");
        return 1;
    }
    if (xTaskCreate(runner, "runner", 2048, NULL, RUNNER_PRIO, NULL) != pdPASS) {
        printf("rtipc-cm3-freertos-bench: cannot create the runner task\n");
        return 1;
    }
    vTaskStartScheduler();
    printf("rtipc-cm3-freertos-bench: the scheduler returned\n");
    return 1;
}
