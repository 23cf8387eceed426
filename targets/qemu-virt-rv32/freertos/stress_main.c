/* rtipc-rv32-stress: every rtipc object that carries data, between a task
 * on core 0 and one on core 1 of the FreeRTOS SMP kernel, in both
 * directions at once. For each object a producer on each core sends
 * RV32_STRESS_ITEMS sequence-numbered items to a consumer on the other core,
 * which checks that each is the next number (nothing lost, duplicated or
 * reordered) and untorn:
 *
 *   queue    rtipc_queue_send / rtipc_queue_receive, blocking;
 *   spsc     rtipc_spsc_push / rtipc_spsc_pop, blocking (spin, then park);
 *   sem      a slot ring guarded by two counting semaphores (items, spaces);
 *   notify   the same ring guarded by counting notifications each way;
 *   mailbox  the producer publishes versions 1..N (value = version, repeated),
 *            the consumer follows with rtipc_mailbox_wait_newer: versions
 *            never go back, match their value, and the last one arrives;
 *   isr      the producer triggers an rtipc interrupt source on core 0
 *            whose handler sends the item with rtipc_queue_send_from_isr and
 *            yields if that woke a task; a counting semaphore given back by
 *            the consumer keeps a place in the queue for every trigger. From
 *            core 1 this pends hart 0's vector across harts;
 *   isr1     the same with the source on core 1: its handler runs on hart 1
 *            (rtipc_irq_core() is checked in it), pended across harts by the
 *            producer on core 0 (the consumer on core 1 is woken on the
 *            handler's own core, the switch made by rtipc_irq_yield) or on
 *            its own hart by the producer on core 1 (the consumer on core 0
 *            is woken by the kernel's cross-core yield).
 *
 * Then two checks of core 1's interrupt sources alone:
 *
 *   isr1 yield  a task on core 0 triggers a core-1 source whose handler
 *               gives a semaphore to a task pinned to core 1 that outranks
 *               the busy task it interrupted there; with rtipc_irq_yield the
 *               woken task must run before the busy one takes another step;
 *   isr1 timer  a periodic timer on a core-1 source (the tick is core 0's):
 *               each expiry's handler runs on hart 1, never more often than
 *               the grid allows (isr0 timer: the same on core 0, to compare).
 *
 * QEMU's -append names the objects to run ("isr isr1"; default: all, then
 * the two checks). Exit 0 when every consumer and check found nothing
 * wrong. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "FreeRTOS.h"
#include "task.h"

#include "board.h"
#include "rtipc/rtipc.h"
#include "rv32_freertos.h"

#ifndef RV32_STRESS_ITEMS
#define RV32_STRESS_ITEMS 500000u
#endif
#define N RV32_STRESS_ITEMS
#define DEPTH 16u /* queue length, ring capacity, slots */
#define STACK 8192u
#define WAIT rtipc_ms(10000) /* a wait this long is a failure, not a stall */
#define MB_WORDS 4u

typedef struct {
    uint32_t seq, check;
} item_t;

typedef struct {
    uint32_t word[MB_WORDS];
} mb_value_t;

enum kind { K_QUEUE, K_SPSC, K_SEM, K_NOTIFY, K_MAILBOX, K_ISR, K_ISR1, K_COUNT };
static const char *const kind_name[K_COUNT] = {"queue", "spsc", "sem", "notify", "mailbox", "isr", "isr1"};

/* One direction: producer on core `from`, consumer on the other. */
typedef struct {
    enum kind kind;
    int from;
    rtipc_queue_t *q;
    rtipc_spsc_t *ring;
    rtipc_sem_t *items, *spaces;
    rtipc_mailbox_t *mb;
    rtipc_irq_t *irq;
    volatile uint32_t isr_next;  /* the item the next trigger's handler sends */
    volatile uint32_t isr_failures;
    volatile uint32_t isr_wrong_core; /* handler runs not on the source's core */
    volatile uint32_t isr_runs;       /* handler runs for this lane */
    int irq_core;
    /* Each task stores its own handle before the other can need it (the
     * runner's copy from rtipc_task_create may come later). */
    rtipc_task_t *producer, *consumer;
    item_t slot[DEPTH];
    /* results, written by the consumer (and the producer's own failures) */
    uint32_t received, errors, first_got, first_want, call_failures;
    uint32_t sent;          /* by the producer */
    int failed_side;        /* 1: the producer's call failed, 2: the consumer's */
    int rc[2];              /* the failed call's result: the producer's, the consumer's */
    uint64_t t_fail[2];     /* when it returned (mtime) */
    uint64_t mb_torn, mb_backwards, mb_reads;
    uint64_t t0, t1; /* mtime */
    atomic_bool consumer_ready;
} lane_t;

static lane_t lanes[K_COUNT][2];

static void bad(lane_t *l, uint32_t got, uint32_t want)
{
    if (l->errors++ == 0) {
        l->first_got = got;
        l->first_want = want;
    }
}

static void check(lane_t *l, item_t it, uint32_t *expect)
{
    if (it.seq != *expect || it.check != ~it.seq)
        bad(l, it.seq, *expect);
    *expect = it.seq + 1u;
    l->received++;
}

/* Slot rings (sem, notify): the producer fills slot seq % DEPTH once it
 * holds a space, the consumer empties it once it holds an item. */
#define NOTE_ITEM 0u  /* notification index the consumer counts items on */
#define NOTE_SPACE 1u /* ... the producer counts spaces on */

static bool get_space(lane_t *l)
{
    if (l->kind == K_SEM)
        return rtipc_sem_take(l->spaces, WAIT) == RTIPC_OK;
    uint32_t v;
    return rtipc_notify_take(NOTE_SPACE, false, &v, WAIT) == RTIPC_OK && v > 0;
}

static bool put_item(lane_t *l)
{
    if (l->kind == K_SEM)
        return rtipc_sem_give(l->items) == RTIPC_OK;
    return rtipc_notify_give(l->consumer, NOTE_ITEM) == RTIPC_OK;
}

static bool get_item(lane_t *l)
{
    if (l->kind == K_SEM)
        return rtipc_sem_take(l->items, WAIT) == RTIPC_OK;
    uint32_t v;
    return rtipc_notify_take(NOTE_ITEM, false, &v, WAIT) == RTIPC_OK && v > 0;
}

static bool put_space(lane_t *l)
{
    if (l->kind == K_SEM)
        return rtipc_sem_give(l->spaces) == RTIPC_OK;
    return rtipc_notify_give(l->producer, NOTE_SPACE) == RTIPC_OK;
}

static void isr_send(void *arg)
{
    lane_t *l = arg;
    l->isr_runs++;
    if (rtipc_irq_core() != l->irq_core)
        l->isr_wrong_core++;
    uint32_t i = l->isr_next;
    item_t it = {i, ~i};
    bool woken = false;
    if (rtipc_queue_send_from_isr(l->q, &it, &woken) != RTIPC_OK)
        l->isr_failures++;
    (void)rtipc_irq_yield(woken);
}

static void producer(void *arg)
{
    lane_t *l = arg;
    l->producer = rtipc_task_current();
    if (l->kind == K_NOTIFY) {
        while (!atomic_load(&l->consumer_ready))
            (void)rtipc_task_delay(rtipc_ms(1));
        for (unsigned i = 0; i < DEPTH; i++) /* the slots start free */
            (void)rtipc_notify_give(l->producer, NOTE_SPACE);
    }
    for (uint32_t i = 0; i < N; i++) {
        item_t it = {i, ~i};
        bool ok = false;
        int rc = RTIPC_OK;
        switch (l->kind) {
        case K_QUEUE: ok = (rc = rtipc_queue_send(l->q, &it, WAIT)) == RTIPC_OK; break;
        case K_SPSC: ok = (rc = rtipc_spsc_push(l->ring, &it, WAIT)) == RTIPC_OK; break;
        case K_SEM:
        case K_NOTIFY:
            ok = get_space(l);
            if (ok) {
                l->slot[i % DEPTH] = it;
                ok = put_item(l);
            }
            break;
        case K_ISR:
        case K_ISR1:
            ok = (rc = rtipc_sem_take(l->spaces, WAIT)) == RTIPC_OK;
            if (ok) {
                l->isr_next = i;
                ok = (rc = rtipc_irq_trigger(l->irq)) == RTIPC_OK; /* returns once the handler has run */
            }
            break;
        case K_MAILBOX: {
            mb_value_t v;
            for (unsigned w = 0; w < MB_WORDS; w++)
                v.word[w] = i + 1u;
            ok = (rc = rtipc_mailbox_write(l->mb, &v)) == RTIPC_OK;
            break;
        }
        default: break;
        }
        if (!ok) {
            l->call_failures++;
            l->failed_side |= 1;
            l->rc[0] = rc;
            l->t_fail[0] = board_mtime();
            return;
        }
        l->sent = i + 1u;
    }
}

static void consumer(void *arg)
{
    lane_t *l = arg;
    uint32_t expect = 0;
    l->consumer = rtipc_task_current();
    atomic_store(&l->consumer_ready, true);
    if (l->kind == K_MAILBOX) {
        uint64_t last = 0;
        while (last < N) {
            mb_value_t v;
            uint64_t version;
            if (rtipc_mailbox_wait_newer(l->mb, &v, last, &version, WAIT) != RTIPC_OK) {
                l->call_failures++;
                break;
            }
            l->mb_reads++;
            bool torn = false;
            for (unsigned w = 1; w < MB_WORDS; w++)
                torn |= v.word[w] != v.word[0];
            if (torn || v.word[0] != (uint32_t)version) {
                l->mb_torn++;
                bad(l, v.word[0], (uint32_t)version);
            }
            if (version <= last) {
                l->mb_backwards++;
                bad(l, (uint32_t)version, (uint32_t)last + 1u);
            } else {
                last = version;
            }
        }
        l->received = (uint32_t)last;
        l->t1 = board_mtime();
        return;
    }
    while (l->received < N) {
        item_t it = {0, 0};
        bool ok = false;
        int rc = RTIPC_OK;
        switch (l->kind) {
        case K_QUEUE: ok = (rc = rtipc_queue_receive(l->q, &it, WAIT)) == RTIPC_OK; break;
        case K_ISR:
        case K_ISR1:
            ok = (rc = rtipc_queue_receive(l->q, &it, WAIT)) == RTIPC_OK &&
                 (rc = rtipc_sem_give(l->spaces)) == RTIPC_OK;
            break;
        case K_SPSC: ok = (rc = rtipc_spsc_pop(l->ring, &it, WAIT)) == RTIPC_OK; break;
        case K_SEM:
        case K_NOTIFY:
            ok = get_item(l);
            if (ok) {
                it = l->slot[expect % DEPTH];
                /* The producer needs this slot again only for item
                 * expect + DEPTH; after its last item it has ended. */
                if (expect + DEPTH < N)
                    ok = put_space(l);
            }
            break;
        default: break;
        }
        if (!ok) {
            l->call_failures++;
            l->failed_side |= 2;
            l->rc[1] = rc;
            l->t_fail[1] = board_mtime();
            break;
        }
        check(l, it, &expect);
    }
    l->t1 = board_mtime();
}

static int spawn(const char *name, int core, rtipc_task_fn fn, void *arg, rtipc_task_t **out)
{
    rtipc_task_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.name = name;
    cfg.priority = 2;
    cfg.core = core;
    cfg.stack_size = STACK;
    cfg.entry = fn;
    cfg.arg = arg;
    return rtipc_task_create(&cfg, out);
}

static int make_objects(lane_t *l)
{
    mb_value_t zero;
    memset(&zero, 0, sizeof zero);
    switch (l->kind) {
    case K_QUEUE: return rtipc_queue_create(DEPTH, sizeof(item_t), &l->q);
    case K_SPSC: return rtipc_spsc_create(DEPTH, sizeof(item_t), &l->ring);
    case K_SEM: {
        int rc = rtipc_sem_create_counting(DEPTH, 0, &l->items);
        return rc != RTIPC_OK ? rc : rtipc_sem_create_counting(DEPTH, DEPTH, &l->spaces);
    }
    case K_MAILBOX: return rtipc_mailbox_create(sizeof(mb_value_t), &zero, &l->mb);
    case K_ISR:
    case K_ISR1: {
        l->irq_core = l->kind == K_ISR1 ? 1 : 0;
        int rc = rtipc_queue_create(DEPTH, sizeof(item_t), &l->q);
        if (rc == RTIPC_OK)
            rc = rtipc_sem_create_counting(DEPTH, DEPTH, &l->spaces);
        return rc != RTIPC_OK ? rc : rtipc_irq_create(l->irq_core, isr_send, l, &l->irq);
    }
    default: return RTIPC_OK;
    }
}

/* Run one object's two lanes at once; 0 when both are clean. */
static int run_kind(enum kind k)
{
    rtipc_task_t *tasks[4];
    int n = 0, rc = RTIPC_OK;
    for (int from = 0; from < 2 && rc == RTIPC_OK; from++) {
        lane_t *l = &lanes[k][from];
        memset(l, 0, sizeof *l);
        l->kind = k;
        l->from = from;
        rc = make_objects(l);
    }
    uint64_t t0 = board_mtime();
    for (int from = 0; from < 2 && rc == RTIPC_OK; from++) {
        lane_t *l = &lanes[k][from];
        l->t0 = t0;
        /* The consumer first: a notifying producer needs its handle. */
        rc = spawn("consumer", 1 - from, consumer, l, &tasks[n]);
        if (rc == RTIPC_OK)
            rc = spawn("producer", from, producer, l, &tasks[++n]);
        if (rc == RTIPC_OK)
            n++;
    }
    for (int i = 0; i < n; i++)
        (void)rtipc_task_join(tasks[i]);
    if (rc != RTIPC_OK) {
        printf("stress %s: setup failed: %s\n", kind_name[k], rtipc_strerror(rc));
        return 1;
    }
    int failures = 0;
    for (int from = 0; from < 2; from++) {
        const lane_t *l = &lanes[k][from];
        bool ok = l->errors == 0 && l->call_failures == 0 && l->isr_failures == 0 && l->isr_wrong_core == 0 &&
                  l->received == N;
        failures += !ok;
        printf("stress %-7s core %d -> core %d: %s: %lu of %lu", kind_name[k], from, 1 - from, ok ? "ok" : "FAILED",
               (unsigned long)l->received, (unsigned long)N);
        if (k == K_MAILBOX)
            printf(" (%llu reads, %llu torn, %llu backwards)", (unsigned long long)l->mb_reads,
                   (unsigned long long)l->mb_torn, (unsigned long long)l->mb_backwards);
        if (l->errors)
            printf(", %lu errors, first: got %lu, wanted %lu", (unsigned long)l->errors,
                   (unsigned long)l->first_got, (unsigned long)l->first_want);
        if (l->isr_failures)
            printf(", %lu sends from the handler failed", (unsigned long)l->isr_failures);
        if (l->isr_wrong_core)
            printf(", %lu handler runs not on core %d", (unsigned long)l->isr_wrong_core, l->irq_core);
        if (l->call_failures) {
            printf(", %lu calls failed, %lu sent", (unsigned long)l->call_failures, (unsigned long)l->sent);
            for (int side = 0; side < 2; side++)
                if (l->failed_side & (1 << side))
                    printf(", %s: %s at %llu ms", side ? "consumer" : "producer", rtipc_strerror(l->rc[side]),
                           (unsigned long long)((l->t_fail[side] - l->t0) / (BOARD_MTIME_HZ / 1000u)));
            if (k == K_ISR || k == K_ISR1)
                printf(", %lu handler runs", (unsigned long)l->isr_runs);
        }
        printf(", %llu ms of mtime\n", (unsigned long long)((l->t1 - l->t0) / (BOARD_MTIME_HZ / 1000u)));
    }
    return failures;
}

/* ---- isr1 yield: the switch a core-1 handler asks for happens on core 1 ---- */

#define YIELD_ROUNDS 2000u

static struct {
    rtipc_irq_t *irq;
    rtipc_sem_t *wake, *done;
    volatile uint32_t spins;    /* the busy task's steps */
    volatile uint32_t at_isr;   /* spins seen by the handler */
    volatile bool stop;
    volatile uint32_t runs, wrong_core, not_woken, failures;
    uint32_t late, woke, call_failures; /* by the woken task */
} y;

static void yield_isr(void *arg)
{
    (void)arg;
    y.runs++;
    if (rtipc_irq_core() != 1)
        y.wrong_core++;
    y.at_isr = y.spins;
    bool woken = false;
    if (rtipc_sem_give_from_isr(y.wake, &woken) != RTIPC_OK)
        y.failures++;
    if (!woken)
        y.not_woken++;
    (void)rtipc_irq_yield(woken);
}

static void yield_busy(void *arg)
{
    (void)arg;
    while (!y.stop)
        y.spins++;
}

static void yield_woken(void *arg)
{
    (void)arg;
    for (uint32_t i = 0; i < YIELD_ROUNDS; i++) {
        if (rtipc_sem_take(y.wake, WAIT) != RTIPC_OK || portGET_CORE_ID() != 1) {
            y.call_failures++;
            break;
        }
        /* Switched to at the handler's exit: the busy task, the one the
         * handler interrupted on this core, has not stepped since. */
        if (y.spins != y.at_isr)
            y.late++;
        y.woke++;
        if (rtipc_sem_give(y.done) != RTIPC_OK) {
            y.call_failures++;
            break;
        }
    }
}

static int isr1_yield_check(void)
{
    memset(&y, 0, sizeof y);
    rtipc_task_t *busy = NULL, *woken = NULL;
    int rc = rtipc_sem_create_counting(1, 0, &y.wake);
    if (rc == RTIPC_OK)
        rc = rtipc_sem_create_counting(1, 0, &y.done);
    if (rc == RTIPC_OK)
        rc = rtipc_irq_create(1, yield_isr, NULL, &y.irq);
    if (rc == RTIPC_OK) {
        rtipc_task_config_t cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.name = "busy1";
        cfg.priority = 2;
        cfg.core = 1;
        cfg.stack_size = STACK;
        cfg.entry = yield_busy;
        rc = rtipc_task_create(&cfg, &busy);
        if (rc == RTIPC_OK) {
            cfg.name = "woken1";
            cfg.priority = 3;
            cfg.entry = yield_woken;
            rc = rtipc_task_create(&cfg, &woken);
        }
    }
    uint32_t rounds = 0;
    if (rc == RTIPC_OK) {
        /* The woken task blocks first; then each round the busy task holds
         * core 1 when the handler comes. */
        (void)rtipc_task_delay(rtipc_ms(5));
        for (; rounds < YIELD_ROUNDS; rounds++) {
            uint32_t s0 = y.spins;
            while (y.spins == s0) /* core 1 runs the busy task again */
                ;
            if (rtipc_irq_trigger(y.irq) != RTIPC_OK || rtipc_sem_take(y.done, WAIT) != RTIPC_OK)
                break;
        }
    }
    y.stop = true;
    if (busy)
        (void)rtipc_task_join(busy);
    if (woken)
        (void)rtipc_task_join(woken);
    if (y.irq)
        (void)rtipc_irq_delete(y.irq);
    if (rc != RTIPC_OK) {
        printf("stress isr1 yield: setup failed: %s\n", rtipc_strerror(rc));
        return 1;
    }
    bool ok = rounds == YIELD_ROUNDS && y.runs == YIELD_ROUNDS && y.woke == YIELD_ROUNDS && y.late == 0 &&
              y.wrong_core == 0 && y.not_woken == 0 && y.failures == 0 && y.call_failures == 0;
    printf("stress isr1 yield: %s: %lu of %lu handler runs woke the core-1 task at their exit (%lu late, %lu not on core "
           "1, %lu not woken, %lu failed calls)\n",
           ok ? "ok" : "FAILED", (unsigned long)(y.woke - y.late), (unsigned long)YIELD_ROUNDS, (unsigned long)y.late,
           (unsigned long)y.wrong_core, (unsigned long)y.not_woken, (unsigned long)(y.failures + y.call_failures));
    return !ok;
}

/* ---- isr1 timer: expiries of a core-1 source run on hart 1 ---------------- */

#define TIMER_PERIOD_MS 2
#define TIMER_RUN_MS 200

static volatile uint32_t timer_runs, timer_wrong_core;

static void timer_isr(void *arg)
{
    timer_runs++;
    if (rtipc_irq_core() != (int)(intptr_t)arg)
        timer_wrong_core++;
}

/* A periodic timer on a source of @p core: the tick (core 0's) runs a
 * core-0 source's handler itself and pends core 1's vector for a core-1
 * source. Core 0 is the comparison. */
static int timer_check(int core)
{
    rtipc_irq_t *irq = NULL;
    timer_runs = timer_wrong_core = 0;
    int rc = rtipc_irq_create(core, timer_isr, (void *)(intptr_t)core, &irq);
    uint64_t t0 = board_mtime(), t1 = t0;
    if (rc == RTIPC_OK)
        rc = rtipc_irq_timer_start(irq, TIMER_PERIOD_MS * 1000000LL, TIMER_PERIOD_MS * 1000000LL);
    if (rc == RTIPC_OK) {
        (void)rtipc_task_delay(rtipc_ms(TIMER_RUN_MS));
        rc = rtipc_irq_timer_stop(irq);
        t1 = board_mtime();
        /* An expiry pended before the stop still runs (irq.h). */
        (void)rtipc_task_delay(rtipc_ms(20));
    }
    int64_t count = irq ? rtipc_irq_count(irq) : 0;
    uint32_t runs = timer_runs;
    if (irq)
        (void)rtipc_irq_delete(irq);
    if (rc != RTIPC_OK) {
        printf("stress isr%s timer: setup failed: %s\n", core ? "1" : "0", rtipc_strerror(rc));
        return 1;
    }
    /* At most one run per period of the time it was armed; missed expiries
     * merge, so a loaded host may see fewer, but some must come. */
    uint64_t ms = (t1 - t0) / (BOARD_MTIME_HZ / 1000u);
    uint64_t most = ms / TIMER_PERIOD_MS + 1u;
    bool ok = runs > 0 && timer_wrong_core == 0 && (uint64_t)runs <= most && count == (int64_t)runs;
    printf("stress isr%d timer: %s: %lu runs (counted %lld) of a %d ms periodic timer in %llu ms of mtime "
           "(at most %llu), %lu not on core %d\n",
           core, ok ? "ok" : "FAILED", (unsigned long)runs, (long long)count, TIMER_PERIOD_MS, (unsigned long long)ms,
           (unsigned long long)most, (unsigned long)timer_wrong_core, core);
    return !ok;
}

#define MAX_ARGS 8
static char *args[MAX_ARGS + 1];
static int nargs;

/* Whether -append named @p name (nothing named: everything runs). */
static bool chosen(const char *name)
{
    if (nargs <= 1)
        return true;
    for (int i = 1; i < nargs; i++)
        if (strcmp(args[i], name) == 0)
            return true;
    return false;
}

static void runner(void *arg)
{
    (void)arg;
    printf("rtipc-rv32-stress: FreeRTOS %s, %d cores; %lu items each way per object\n", tskKERNEL_VERSION_NUMBER,
           configNUMBER_OF_CORES, (unsigned long)N);
    int failures = 0;
    for (int k = 0; k < K_COUNT; k++)
        if (chosen(kind_name[k]))
            failures += run_kind((enum kind)k);
    if (nargs <= 1) {
        failures += isr1_yield_check();
        failures += timer_check(0);
        failures += timer_check(1);
    }
    printf("rtipc-rv32-stress: %s\n", failures ? "FAILED" : "passed");
    board_exit(failures ? 1 : 0);
}

int main(void)
{
    nargs = board_args("rtipc-rv32-stress", "", args, MAX_ARGS);
    for (int i = 1; i < nargs; i++) {
        bool known = false;
        for (int k = 0; k < K_COUNT; k++)
            known |= strcmp(args[i], kind_name[k]) == 0;
        if (!known) {
            printf("rtipc-rv32-stress: unknown object '%s'\n", args[i]);
            return 2;
        }
    }
    if (xTaskCreateAffinitySet(runner, "stress", 2048, NULL, 1, (UBaseType_t)1 << 0, NULL) != pdPASS) {
        printf("rtipc-rv32-stress: cannot create the runner task\n");
        return 1;
    }
    rtipc_rv32_kernel_traps();
    vTaskStartScheduler();
    printf("rtipc-rv32-stress: the scheduler returned\n");
    return 1;
}
