/* rtipc on the FreeRTOS POSIX simulator: start the scheduler, then check,
 * from a task, every rtipc object the FreeRTOS port maps onto the kernel.
 * Each CHECK prints a line on failure; the program ends with a summary and
 * exits 0 only if every check passed (and, when linked, the conformance
 * suite's output matched tests/conformance/expected.txt). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "FreeRTOS.h"
#include "task.h"

#include "rtipc/port_freertos.h"
#include "rtipc/rtipc.h"
#include "../../src/common/handle.h"

static unsigned checks, failures;

#define CHECK(cond)                                                              \
    do {                                                                         \
        ++checks;                                                                \
        if (!(cond)) {                                                           \
            ++failures;                                                          \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                        \
    } while (0)

#define CHECK_RC(call, expected)                                                                      \
    do {                                                                                              \
        int rc_ = (call);                                                                             \
        ++checks;                                                                                     \
        if (rc_ != (expected)) {                                                                      \
            ++failures;                                                                               \
            printf("FAIL %s:%d: %s = %d (%s), expected %s\n", __FILE__, __LINE__, #call, rc_,         \
                   rtipc_strerror(rc_), #expected);                                                   \
        }                                                                                             \
    } while (0)

/* ---- an interrupt handler played in a task -----------------------------------
 * On the simulator a task brackets the handler body; on an MCU the handler
 * does the same (or the port's rtipcCONFIG_IN_INTERRUPT hook says so). */
static UBaseType_t isr_begin(void)
{
    UBaseType_t saved = taskENTER_CRITICAL_FROM_ISR();
    rtipc_freertos_isr_enter();
    return saved;
}

static void isr_end(UBaseType_t saved)
{
    rtipc_freertos_isr_exit();
    taskEXIT_CRITICAL_FROM_ISR(saved);
}

/* ---- the tick hook: a real interrupt-context caller --------------------------- */
static rtipc_queue_t *volatile tick_queue;     /* armed by the check task */
static rtipc_eventgroup_t *volatile tick_group;
static volatile uint64_t tick_sent_at;
static volatile int tick_rc = 1;
static volatile bool tick_saw_isr;

void vApplicationTickHook(void);
void vApplicationTickHook(void)
{
    rtipc_freertos_tick_hook(); /* rtipc's interrupt timers */
    rtipc_freertos_isr_enter();
    rtipc_queue_t *q = tick_queue;
    if (q) {
        tick_queue = NULL;
        uint64_t now = rtipc_tick_count();
        bool woken = false;
        tick_saw_isr = rtipc_in_interrupt();
        tick_rc = rtipc_queue_send_from_isr(q, &now, &woken);
        tick_sent_at = now;
        /* No yield requested: the kernel's tick switches to the readied task. */
    }
    rtipc_eventgroup_t *eg = tick_group;
    if (eg) {
        tick_group = NULL;
        bool woken = false;
        (void)rtipc_eventgroup_set_bits_from_isr(eg, 0x10, NULL, &woken);
    }
    rtipc_freertos_isr_exit();
}

/* ---- helpers ------------------------------------------------------------------- */
static rtipc_task_t *spawn(const char *name, unsigned prio, rtipc_task_fn fn, void *arg)
{
    rtipc_task_config_t cfg = {.name = name, .priority = prio, .core = RTIPC_CORE_ANY, .entry = fn, .arg = arg};
    rtipc_task_t *t = NULL;
    int rc = rtipc_task_create(&cfg, &t);
    CHECK_RC(rc, RTIPC_OK);
    return rc == RTIPC_OK ? t : NULL;
}

static void join(rtipc_task_t *t)
{
    if (t)
        CHECK_RC(rtipc_task_join(t), RTIPC_OK);
}

#define CHECK_PRIO 5 /* the check task's priority */

/* ---- time and tick ----------------------------------------------------------- */
static void check_time(void)
{
    CHECK(rtipc_tick_rate() == configTICK_RATE_HZ);
    CHECK(rtipc_tick_period_ns() == 1000000000 / configTICK_RATE_HZ);
    CHECK_RC(rtipc_tick_set_rate(configTICK_RATE_HZ), RTIPC_OK);
    CHECK_RC(rtipc_tick_set_rate(100), RTIPC_ENOTSUP);
    CHECK_RC(rtipc_tick_set_rate(0), RTIPC_EINVAL);

    uint64_t t0 = rtipc_tick_count();
    int64_t n0 = rtipc_time_ns();
    CHECK_RC(rtipc_task_delay(rtipc_ms(20)), RTIPC_OK);
    uint64_t t1 = rtipc_tick_count();
    int64_t n1 = rtipc_time_ns();
    CHECK(t1 - t0 >= 20);
    CHECK(n1 - n0 >= 20000000);
    CHECK(rtipc_cycles_to_ns(rtipc_cycles()) >= 0);
    CHECK(strcmp(rtipc_cycles_source(), "clock_monotonic") == 0); /* FreeRTOSConfig.h */

    uint64_t wake = rtipc_tick_count();
    bool missed = true;
    for (int i = 0; i < 5; ++i) {
        uint64_t before = wake;
        CHECK_RC(rtipc_task_delay_until(&wake, 10, &missed), RTIPC_OK);
        CHECK(wake == before + 10);
        CHECK(!missed);
        CHECK(rtipc_tick_count() >= wake);
    }
    uint64_t late = rtipc_tick_count() - 100;
    CHECK_RC(rtipc_task_delay_until(&late, 10, &missed), RTIPC_OK);
    CHECK(missed);
    CHECK_RC(rtipc_task_delay_until(NULL, 10, NULL), RTIPC_EINVAL);
}

/* ---- tasks -------------------------------------------------------------------- */
static void record_self(void *arg)
{
    rtipc_task_t **slot = arg;
    *slot = rtipc_task_current();
}

static void check_tasks(void)
{
    rtipc_task_t *self = rtipc_task_current();
    CHECK(self != NULL);
    CHECK(rtipc_task_priority(self) == CHECK_PRIO);
    CHECK(strcmp(rtipc_task_name(self), "check") == 0);
    CHECK(rtipc_core_count() == configNUMBER_OF_CORES);
    CHECK(rtipc_sched_policy() == RTIPC_SCHED_FIFO);

    rtipc_task_t *seen = NULL;
    rtipc_task_config_t cfg = {.name = "worker-with-a-long-name", .priority = 7, .core = 0, .entry = record_self,
                               .arg = &seen};
    rtipc_task_t *t = NULL;
    CHECK_RC(rtipc_task_create(&cfg, &t), RTIPC_OK);
    /* Priority 7 > 5: it has run to the end before create returned to us. */
    CHECK(seen == t);
    /* Its entry returned: refused by the calls on a running task, as on
     * Linux, but still joinable. */
    CHECK(rtipc_task_name(t) == NULL);
    CHECK_RC(rtipc_task_core(t), RTIPC_EINVAL);
    join(t);
    /* One of lower priority has not run yet when create returns. */
    cfg.priority = 1;
    CHECK_RC(rtipc_task_create(&cfg, &t), RTIPC_OK);
    CHECK(seen != t);
    CHECK(rtipc_task_name(t) != NULL && strlen(rtipc_task_name(t)) == 15);
    CHECK(rtipc_task_core(t) == 0);
    join(t);
    CHECK(seen == t);

    cfg.core = 1; /* one core: only 0 or any */
    CHECK_RC(rtipc_task_create(&cfg, &t), RTIPC_EINVAL);
    cfg.core = RTIPC_CORE_ANY;
    cfg.priority = RTIPC_PRIORITY_LEVELS;
    CHECK_RC(rtipc_task_create(&cfg, &t), RTIPC_EINVAL);
    CHECK_RC(rtipc_task_join(self), RTIPC_EINVAL); /* not created by rtipc_task_create */

    CHECK_RC(rtipc_task_set_priority(NULL, 6), RTIPC_OK);
    CHECK(rtipc_task_priority(self) == 6);
    CHECK_RC(rtipc_task_set_priority(NULL, CHECK_PRIO), RTIPC_OK);
    CHECK_RC(rtipc_task_set_priority(NULL, RTIPC_PRIORITY_LEVELS), RTIPC_EINVAL);
    CHECK_RC(rtipc_task_yield(), RTIPC_OK);

    UBaseType_t s = isr_begin();
    CHECK(rtipc_in_interrupt());
    int rc_delay = rtipc_task_delay(rtipc_ms(1));
    int rc_create = rtipc_task_create(&cfg, &t);
    int rc_yield = rtipc_irq_yield(false);
    isr_end(s);
    CHECK_RC(rc_delay, RTIPC_ECONTEXT);
    CHECK_RC(rc_create, RTIPC_ECONTEXT);
    CHECK_RC(rc_yield, RTIPC_OK);
    CHECK(!rtipc_in_interrupt());
    CHECK_RC(rtipc_irq_yield(true), RTIPC_ECONTEXT);
}

/* A plain kernel task: no descriptor until its first rtipc call that needs
 * one (rtipc_task_current), which it then keeps until it deletes itself. */
typedef struct {
    int before, kernel_only, after;
    volatile int done;
} known_t;

static void known_probe(void *arg)
{
    known_t *k = arg;
    k->before = rtipc_freertos_task_known();
    vTaskDelay(1);  /* a kernel call: still nothing of rtipc's */
    k->kernel_only = rtipc_freertos_task_known();
    (void)rtipc_task_current();
    k->after = rtipc_freertos_task_known();
    k->done = 1;
    rtipc_task_delete(NULL); /* releases the descriptor it was given */
}

static void record_known(void *arg) { *(int *)arg = rtipc_freertos_task_known(); }

static void check_task_known(void)
{
    CHECK(rtipc_freertos_task_known() == 1); /* adopted when the checks began */
    known_t k = {-9, -9, -9, 0};
    CHECK(xTaskCreate(known_probe, "known", configMINIMAL_STACK_SIZE * 2, &k, CHECK_PRIO + 1, NULL) == pdPASS);
    while (!k.done)
        vTaskDelay(1);
    CHECK(k.before == 0 && k.kernel_only == 0 && k.after == 1);
    int created = -9;
    rtipc_task_t *t = NULL;
    rtipc_task_config_t cfg = {.name = "known-rtipc", .priority = CHECK_PRIO + 1, .core = RTIPC_CORE_ANY,
                               .entry = record_known, .arg = &created};
    CHECK_RC(rtipc_task_create(&cfg, &t), RTIPC_OK);
    join(t);
    CHECK(created == 1); /* rtipc's own task has one from the start */
    UBaseType_t s = isr_begin();
    int in_isr = rtipc_freertos_task_known();
    isr_end(s);
    CHECK_RC(in_isr, RTIPC_ECONTEXT);
}

/* A build whose descriptors are found by task handle with a small table
 * (targets/freertos-posix, RTIPC_EXAMPLE_STOCK_CONFIG): a task beyond the
 * table's live entries is refused as a want of memory, and both a joined
 * task and an adopted task that ends through rtipc give their entry back. */
#if defined(rtipcCONFIG_TASK_LOOKUP_SLOTS) && configNUM_THREAD_LOCAL_STORAGE_POINTERS == 0
static void wait_released(void *arg)
{
    while (!*(volatile int *)arg)
        vTaskDelay(1);
}

static void check_task_lookup_full(void)
{
    enum { MAX = rtipcCONFIG_TASK_LOOKUP_SLOTS };
    static rtipc_task_t *held[MAX];
    volatile int release = 0;
    rtipc_task_config_t cfg = {.name = "lookup", .priority = CHECK_PRIO - 1, .core = RTIPC_CORE_ANY,
                               .entry = wait_released, .arg = (void *)&release};
    int n = 0, rc = RTIPC_OK;
    while (n < MAX && (rc = rtipc_task_create(&cfg, &held[n])) == RTIPC_OK)
        n++;
    CHECK_RC(rc, RTIPC_ENOMEM); /* the table, before the heap */
    CHECK(n > 0 && n < MAX);    /* this task and the others alive hold the rest */
    printf("task lookup: %d tasks created beside the live ones, then RTIPC_ENOMEM (%d slots)\n", n, MAX);
    /* An adopted task cannot join either while the table is full. */
    known_t k = {-9, -9, -9, 0};
    CHECK(xTaskCreate(known_probe, "known", configMINIMAL_STACK_SIZE * 2, &k, CHECK_PRIO + 1, NULL) == pdPASS);
    while (!k.done)
        vTaskDelay(1);
    CHECK(k.after == 0); /* rtipc_task_current found no slot for it */
    release = 1;
    for (int i = 0; i < n; i++)
        join(held[i]);
    /* The idle task frees the ended tasks' stacks: let it run, so that the
     * heap is not what refuses the tasks below. */
    vTaskDelay(pdMS_TO_TICKS(50));
    /* Every entry is back: as many again. */
    release = 0;
    int again = 0;
    while (again < n && rtipc_task_create(&cfg, &held[again]) == RTIPC_OK)
        again++;
    CHECK(again == n);
    release = 1;
    for (int i = 0; i < again; i++)
        join(held[i]);
}
#endif

/* ---- the tasks' context ----------------------------------------------------- */
/* One context for every check's helper task: the object it uses and what it
 * saw, rc staying 1 until its call returns. One type rather than one per
 * object keeps the helpers below down to the call each makes. */
typedef struct {
    union {
        rtipc_queue_t *q;
        rtipc_sem_t *s;
        rtipc_eventgroup_t *eg;
        rtipc_streambuf_t *sb;
        rtipc_mailbox_t *mb;
        rtipc_spsc_t *r;
        rtipc_ringbuf_t *rb;
    };
    uint32_t value;          /* queue item, notification value, event bits */
    size_t got;              /* stream buffer bytes */
    uint64_t value64, version; /* mailbox */
    uint32_t received, errors;
    int rc;
} task_ctx_t;

/* Runs a consumer and a lower-priority producer on c to the end. */
static void run_pair(task_ctx_t *c, const char *cons_name, rtipc_task_fn cons, const char *prod_name,
                     rtipc_task_fn prod)
{
    rtipc_task_t *tc = spawn(cons_name, CHECK_PRIO - 1, cons, c);
    rtipc_task_t *tp = spawn(prod_name, CHECK_PRIO - 2, prod, c);
    join(tp);
    join(tc);
}

/* ---- queues ------------------------------------------------------------------- */
static void queue_receiver(void *arg)
{
    task_ctx_t *w = arg;
    w->rc = rtipc_queue_receive(w->q, &w->value, rtipc_ms(1000));
}

static void check_queues(void)
{
    rtipc_queue_t *q = NULL;
    CHECK_RC(rtipc_queue_create(4, sizeof(uint32_t), &q), RTIPC_OK);
    CHECK_RC(rtipc_queue_create(0, 4, &q), RTIPC_EINVAL);
    uint32_t v, a = 1, b = 2, c = 0;
    CHECK_RC(rtipc_queue_send(q, &a, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK_RC(rtipc_queue_send(q, &b, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK_RC(rtipc_queue_send_to_front(q, &c, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(rtipc_queue_messages_waiting(q) == 3);
    CHECK(rtipc_queue_spaces_available(q) == 1);
    CHECK_RC(rtipc_queue_peek(q, &v, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(v == 0);
    for (uint32_t want = 0; want < 3; ++want) {
        CHECK_RC(rtipc_queue_receive(q, &v, RTIPC_NO_WAIT), RTIPC_OK);
        CHECK(v == want);
    }
    CHECK_RC(rtipc_queue_receive(q, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    int64_t t0 = rtipc_time_ns();
    CHECK_RC(rtipc_queue_receive(q, &v, rtipc_ms(30)), RTIPC_ETIMEDOUT);
    CHECK(rtipc_time_ns() - t0 >= 30000000);
    for (uint32_t i = 0; i < 4; ++i)
        CHECK_RC(rtipc_queue_send(q, &i, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK_RC(rtipc_queue_send(q, &a, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    CHECK_RC(rtipc_queue_send(q, &a, rtipc_ms(15)), RTIPC_ETIMEDOUT);
    CHECK_RC(rtipc_queue_overwrite(q, &a), RTIPC_ENOTSUP);
    CHECK_RC(rtipc_queue_reset(q), RTIPC_OK);
    CHECK(rtipc_queue_messages_waiting(q) == 0);
    CHECK(rtipc_queue_footprint(q) == rtipc_queue_footprint_for(4, sizeof(uint32_t)));

    /* A higher-priority receiver blocks; a send readies it and it preempts. */
    task_ctx_t w = {.q = q, .rc = 1};
    rtipc_task_t *t = spawn("qrecv", CHECK_PRIO + 1, queue_receiver, &w);
    CHECK_RC(rtipc_queue_delete(q), RTIPC_EBUSY); /* it waits on q */
    uint32_t x = 0xabcd;
    CHECK_RC(rtipc_queue_send(q, &x, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(w.rc == RTIPC_OK && w.value == 0xabcd); /* already ran */
    join(t);

    /* Interrupt-context variants. */
    w.rc = 1;
    t = spawn("qrecv", CHECK_PRIO + 1, queue_receiver, &w);
    bool woken = false;
    UBaseType_t s = isr_begin();
    int rc_task_call = rtipc_queue_send(q, &x, RTIPC_NO_WAIT);
    uint32_t y = 77;
    int rc_isr = rtipc_queue_send_from_isr(q, &y, &woken);
    isr_end(s);
    CHECK_RC(rc_task_call, RTIPC_ECONTEXT);
    CHECK_RC(rc_isr, RTIPC_OK);
    CHECK(woken); /* a priority-6 task was readied from priority 5 */
    taskYIELD();  /* what portYIELD_FROM_ISR would have done at handler exit */
    CHECK(w.rc == RTIPC_OK && w.value == 77);
    join(t);
    s = isr_begin();
    woken = false;
    int r1 = rtipc_queue_send_from_isr(q, &a, &woken);
    int r2 = rtipc_queue_send_to_front_from_isr(q, &b, &woken);
    int r3 = rtipc_queue_peek_from_isr(q, &v);
    uint32_t first = v;
    int r4 = rtipc_queue_receive_from_isr(q, &v, &woken);
    int r5 = rtipc_queue_overwrite_from_isr(q, &a, &woken);
    isr_end(s);
    CHECK_RC(r1, RTIPC_OK);
    CHECK_RC(r2, RTIPC_OK);
    CHECK_RC(r3, RTIPC_OK);
    CHECK(first == b);
    CHECK_RC(r4, RTIPC_OK);
    CHECK(!woken); /* nobody waited */
    CHECK_RC(r5, RTIPC_ENOTSUP);
    CHECK_RC(rtipc_queue_reset(q), RTIPC_OK);

    /* The tick hook sends from a real interrupt context. */
    uint64_t got = 0;
    rtipc_queue_t *q64 = NULL;
    CHECK_RC(rtipc_queue_create(2, sizeof(uint64_t), &q64), RTIPC_OK);
    tick_queue = q64;
    CHECK_RC(rtipc_queue_receive(q64, &got, rtipc_ms(500)), RTIPC_OK);
    CHECK(tick_rc == RTIPC_OK);
    CHECK(tick_saw_isr);
    CHECK(got == tick_sent_at && got > 0);
    CHECK_RC(rtipc_queue_delete(q64), RTIPC_OK);
    CHECK_RC(rtipc_queue_delete(q), RTIPC_OK);
    CHECK_RC(rtipc_queue_delete(q), RTIPC_EINVAL);

    /* Length-1 "mailbox" queue and static creation. */
    static rtipc_queue_static_t cb;
    static uint32_t storage[1];
    rtipc_queue_t *one = NULL;
    CHECK_RC(rtipc_queue_create_static(1, sizeof(uint32_t), storage, &cb, &one), RTIPC_OK);
    CHECK((void *)one != (void *)&cb); /* a handle names cb but is not its address (error.h) */
    for (uint32_t i = 10; i < 13; ++i)
        CHECK_RC(rtipc_queue_overwrite(one, &i), RTIPC_OK);
    CHECK(rtipc_queue_messages_waiting(one) == 1);
    CHECK_RC(rtipc_queue_receive(one, &v, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(v == 12);
    CHECK_RC(rtipc_queue_delete(one), RTIPC_OK);
    /* A new queue in the same control block does not revive the old handle. */
    rtipc_queue_t *again = NULL;
    CHECK_RC(rtipc_queue_create_static(1, sizeof(uint32_t), storage, &cb, &again), RTIPC_OK);
    CHECK(again != one);
    CHECK_RC(rtipc_queue_overwrite(one, &v), RTIPC_EINVAL);
    CHECK_RC(rtipc_queue_overwrite(again, &v), RTIPC_OK);
    CHECK_RC(rtipc_queue_delete(one), RTIPC_EINVAL);
    CHECK_RC(rtipc_queue_delete(again), RTIPC_OK);
}

/* ---- semaphores --------------------------------------------------------------- */
static void sem_taker(void *arg)
{
    task_ctx_t *w = arg;
    w->rc = rtipc_sem_take(w->s, rtipc_ms(1000));
}

static void check_sems(void)
{
    rtipc_sem_t *bin = NULL, *cnt = NULL;
    CHECK_RC(rtipc_sem_create_binary(&bin), RTIPC_OK);
    CHECK(rtipc_sem_count(bin) == 0 && rtipc_sem_max(bin) == 1);
    CHECK_RC(rtipc_sem_take(bin, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    CHECK_RC(rtipc_sem_take(bin, rtipc_ms(10)), RTIPC_ETIMEDOUT);
    CHECK_RC(rtipc_sem_give(bin), RTIPC_OK);
    CHECK_RC(rtipc_sem_give(bin), RTIPC_EOVERFLOW);
    CHECK_RC(rtipc_sem_take(bin, RTIPC_NO_WAIT), RTIPC_OK);

    CHECK_RC(rtipc_sem_create_counting(3, 4, &cnt), RTIPC_EINVAL);
    CHECK_RC(rtipc_sem_create_counting(3, 1, &cnt), RTIPC_OK);
    CHECK(rtipc_sem_count(cnt) == 1 && rtipc_sem_max(cnt) == 3);
    CHECK_RC(rtipc_sem_give(cnt), RTIPC_OK);
    CHECK_RC(rtipc_sem_give(cnt), RTIPC_OK);
    CHECK_RC(rtipc_sem_give(cnt), RTIPC_EOVERFLOW);
    CHECK(rtipc_sem_count(cnt) == 3);

    task_ctx_t w = {.s = bin, .rc = 1};
    rtipc_task_t *t = spawn("stake", CHECK_PRIO + 1, sem_taker, &w);
    CHECK_RC(rtipc_sem_delete(bin), RTIPC_EBUSY);
    bool woken = false;
    UBaseType_t s = isr_begin();
    int rc_give = rtipc_sem_give_from_isr(bin, &woken);
    int rc_take = rtipc_sem_take_from_isr(cnt, &woken);
    isr_end(s);
    CHECK_RC(rc_give, RTIPC_OK);
    CHECK_RC(rc_take, RTIPC_OK);
    CHECK(woken);
    taskYIELD();
    CHECK_RC(w.rc, RTIPC_OK);
    join(t);
    CHECK(rtipc_sem_count(cnt) == 2);

    static rtipc_sem_static_t scb;
    rtipc_sem_t *st = NULL;
    UBaseType_t saved = isr_begin();
    int rc_static_isr = rtipc_sem_create_static(2, 2, &scb, &st);
    isr_end(saved);
    CHECK_RC(rc_static_isr, RTIPC_ECONTEXT);
    CHECK_RC(rtipc_sem_create_static(2, 2, &scb, &st), RTIPC_OK);
    CHECK_RC(rtipc_sem_take(st, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(rtipc_sem_count(st) == 1);
    CHECK_RC(rtipc_sem_delete(st), RTIPC_OK);
    CHECK_RC(rtipc_sem_delete(bin), RTIPC_OK);
    CHECK_RC(rtipc_sem_delete(cnt), RTIPC_OK);
}

/* ---- mutexes ------------------------------------------------------------------ */
typedef struct {
    rtipc_mutex_t *m;
    rtipc_sem_t *ready, *go;
    int rc_lock, rc_unlock, prio_after;
} mutex_ctx_t;

static void mutex_low(void *arg)
{
    mutex_ctx_t *c = arg;
    c->rc_lock = rtipc_mutex_lock(c->m, RTIPC_FOREVER);
    (void)rtipc_sem_give(c->ready);
    (void)rtipc_sem_take(c->go, RTIPC_FOREVER);
    c->rc_unlock = rtipc_mutex_unlock(c->m);
    c->prio_after = rtipc_task_effective_priority(rtipc_task_current());
}

static void mutex_high(void *arg)
{
    mutex_ctx_t *c = arg;
    if (rtipc_mutex_lock(c->m, rtipc_ms(2000)) == RTIPC_OK)
        (void)rtipc_mutex_unlock(c->m);
}

static void mutex_other_unlock(void *arg)
{
    mutex_ctx_t *c = arg;
    c->rc_unlock = rtipc_mutex_unlock(c->m);
}

static void mutex_lock_and_end(void *arg)
{
    mutex_ctx_t *c = arg;
    c->rc_lock = rtipc_mutex_lock(c->m, RTIPC_NO_WAIT);
}

static void check_mutexes(void)
{
    rtipc_mutex_t *m = NULL, *r = NULL;
    CHECK_RC(rtipc_mutex_create(false, &m), RTIPC_OK);
    CHECK(rtipc_mutex_holder(m) == NULL);
    CHECK_RC(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(rtipc_mutex_holder(m) == rtipc_task_current());
    CHECK_RC(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_EDEADLOCK);
    CHECK_RC(rtipc_mutex_delete(m), RTIPC_EBUSY);
    mutex_ctx_t c = {.m = m, .rc_unlock = 1};
    rtipc_task_t *t = spawn("unlocker", CHECK_PRIO + 1, mutex_other_unlock, &c);
    join(t);
    CHECK_RC(c.rc_unlock, RTIPC_EPERM);
    CHECK_RC(rtipc_mutex_unlock(m), RTIPC_OK);
    CHECK_RC(rtipc_mutex_unlock(m), RTIPC_EPERM);

    CHECK_RC(rtipc_mutex_create(true, &r), RTIPC_OK);
    for (int i = 0; i < 3; ++i)
        CHECK_RC(rtipc_mutex_lock(r, RTIPC_NO_WAIT), RTIPC_OK);
    for (int i = 0; i < 3; ++i)
        CHECK_RC(rtipc_mutex_unlock(r), RTIPC_OK);
    CHECK_RC(rtipc_mutex_unlock(r), RTIPC_EPERM);
    CHECK(rtipc_mutex_holder(r) == NULL);

    /* Priority inheritance: a priority-1 holder runs at 8 while a priority-8
     * task waits for the mutex, and drops back to 1 when it unlocks. */
    c = (mutex_ctx_t){.m = m, .rc_lock = 1, .rc_unlock = 1, .prio_after = -1};
    CHECK_RC(rtipc_sem_create_binary(&c.ready), RTIPC_OK);
    CHECK_RC(rtipc_sem_create_binary(&c.go), RTIPC_OK);
    rtipc_task_t *low = spawn("low", 1, mutex_low, &c);
    CHECK_RC(rtipc_sem_take(c.ready, rtipc_ms(1000)), RTIPC_OK);
    CHECK(rtipc_mutex_holder(m) == low);
    rtipc_task_t *high = spawn("high", 8, mutex_high, &c);
    CHECK(rtipc_task_priority(low) == 1);
    CHECK(rtipc_task_effective_priority(low) == 8);
    CHECK_RC(rtipc_sem_give(c.go), RTIPC_OK);
    join(high);
    join(low);
    CHECK_RC(c.rc_lock, RTIPC_OK);
    CHECK_RC(c.rc_unlock, RTIPC_OK);
    CHECK(c.prio_after == 1);
    CHECK(rtipc_mutex_holder(m) == NULL);

    UBaseType_t s = isr_begin();
    int rc_isr = rtipc_mutex_lock(m, RTIPC_NO_WAIT);
    isr_end(s);
    CHECK_RC(rc_isr, RTIPC_ECONTEXT);
    CHECK_RC(rtipc_mutex_delete(m), RTIPC_OK);
    CHECK_RC(rtipc_mutex_delete(r), RTIPC_OK);
    CHECK_RC(rtipc_sem_delete(c.ready), RTIPC_OK);
    CHECK_RC(rtipc_sem_delete(c.go), RTIPC_OK);

    static rtipc_mutex_static_t mcb;
    CHECK_RC(rtipc_mutex_create_static(false, &mcb, &m), RTIPC_OK);
    CHECK_RC(rtipc_mutex_lock(m, RTIPC_FOREVER), RTIPC_OK);
    CHECK_RC(rtipc_mutex_unlock(m), RTIPC_OK);

    /* A holder that ends without unlocking leaves the mutex held for good. */
    c = (mutex_ctx_t){.m = m, .rc_lock = 1};
    t = spawn("ender", CHECK_PRIO + 1, mutex_lock_and_end, &c);
    CHECK_RC(c.rc_lock, RTIPC_OK);
    CHECK(rtipc_mutex_holder(m) == t);
    CHECK_RC(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    CHECK_RC(rtipc_mutex_lock(m, rtipc_ms(5)), RTIPC_ETIMEDOUT);
    CHECK_RC(rtipc_mutex_unlock(m), RTIPC_EPERM);
    CHECK_RC(rtipc_mutex_delete(m), RTIPC_EBUSY);
    join(t);
    CHECK(rtipc_mutex_holder(m) == NULL); /* its descriptor is released (docs/porting.md) */
    CHECK_RC(rtipc_mutex_delete(m), RTIPC_EBUSY);
}

/* ---- task notifications -------------------------------------------------------- */
/* The slots the checks below use: 1 and 2 where the build has three, all
 * slot 0 where it has one (the kernel's stock configuration). */
#define SLOT_A (RTIPC_NOTIFY_SLOTS > 1 ? 1u : 0u)
#define SLOT_B (RTIPC_NOTIFY_SLOTS > 2 ? 2u : 0u)

static void notify_waiter(void *arg)
{
    task_ctx_t *c = arg;
    c->rc = rtipc_notify_wait(SLOT_A, 0, 0xffffffffu, &c->value, rtipc_ms(1000));
}

static void check_notify(void)
{
    rtipc_task_t *self = rtipc_task_current();
    uint32_t v = 0, prev = 0;
    task_ctx_t c = {.rc = 1};
    rtipc_task_t *t = spawn("nwait", CHECK_PRIO + 1, notify_waiter, &c);
    CHECK_RC(rtipc_notify(t, SLOT_A, 0x5, RTIPC_NOTIFY_SET_BITS, &prev), RTIPC_OK);
    CHECK(c.rc == RTIPC_OK && c.value == 0x5); /* it ran at once */
    join(t);

    CHECK_RC(rtipc_notify(self, RTIPC_NOTIFY_SLOTS, 1, RTIPC_NOTIFY_OVERWRITE, NULL), RTIPC_EINVAL);
    CHECK_RC(rtipc_notify(self, 0, 1, (rtipc_notify_action_t)9, NULL), RTIPC_EINVAL);
    CHECK_RC(rtipc_notify(self, 0, 42, RTIPC_NOTIFY_OVERWRITE, NULL), RTIPC_OK);
    CHECK_RC(rtipc_notify(self, 0, 43, RTIPC_NOTIFY_NO_OVERWRITE, &prev), RTIPC_EPENDING);
    CHECK(prev == 42);
    CHECK_RC(rtipc_notify_wait(0, 0, 0, &v, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(v == 42);
    CHECK_RC(rtipc_notify_wait(0, 0, 0, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    CHECK_RC(rtipc_notify_wait(0, 0, 0, &v, rtipc_ms(10)), RTIPC_ETIMEDOUT);
    /* Nothing pending and no wait: the entry bits stay (as in V11), on
     * every kernel. */
    CHECK_RC(rtipc_notify_wait(0, 0x2, 0, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    CHECK(v == 42);
    CHECK_RC(rtipc_notify_value_clear(NULL, 0, 0, &prev), RTIPC_OK);
    CHECK(prev == 42);

    CHECK_RC(rtipc_notify_value_clear(NULL, SLOT_B, 0xffffffffu, NULL), RTIPC_OK); /* slot 0 holds 42 */
    for (int i = 0; i < 3; ++i)
        CHECK_RC(rtipc_notify_give(self, SLOT_B), RTIPC_OK);
    CHECK_RC(rtipc_notify_take(SLOT_B, false, &v, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(v == 3);
    CHECK_RC(rtipc_notify_take(SLOT_B, true, &v, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(v == 2);
    CHECK_RC(rtipc_notify_take(SLOT_B, true, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    /* A no-action notification leaves the value 0: take keeps waiting. */
    CHECK_RC(rtipc_notify(self, SLOT_B, 0, RTIPC_NOTIFY_NO_ACTION, NULL), RTIPC_OK);
    CHECK_RC(rtipc_notify_take(SLOT_B, true, &v, rtipc_ms(10)), RTIPC_ETIMEDOUT);

    CHECK_RC(rtipc_notify(self, SLOT_A, 0xff, RTIPC_NOTIFY_OVERWRITE, NULL), RTIPC_OK);
    CHECK(rtipc_notify_state_clear(NULL, SLOT_A) == 1);
    CHECK(rtipc_notify_state_clear(NULL, SLOT_A) == 0);
    CHECK_RC(rtipc_notify_value_clear(NULL, SLOT_A, 0x0f, &prev), RTIPC_OK);
    CHECK(prev == 0xff);
    CHECK_RC(rtipc_notify_value_clear(NULL, SLOT_A, 0, &prev), RTIPC_OK);
    CHECK(prev == 0xf0);

    bool woken = false;
    UBaseType_t s = isr_begin();
    int r1 = rtipc_notify_from_isr(self, 0, 7, RTIPC_NOTIFY_OVERWRITE, NULL, &woken);
    /* (One slot: the give lands on slot 0, after the overwrite.) */
    int r2 = rtipc_notify_give_from_isr(self, SLOT_B, &woken);
    int r3 = rtipc_notify_take(0, true, &v, RTIPC_NO_WAIT);
    isr_end(s);
    CHECK_RC(r1, RTIPC_OK);
    CHECK_RC(r2, RTIPC_OK);
    CHECK_RC(r3, RTIPC_ECONTEXT);
    CHECK(!woken); /* the notified task (us) was not waiting */
    CHECK_RC(rtipc_notify_wait(0, 0, 0xffffffffu, &v, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(v == (SLOT_B == 0 ? 8u : 7u));
    if (SLOT_B != 0) {
        CHECK_RC(rtipc_notify_take(SLOT_B, true, &v, RTIPC_NO_WAIT), RTIPC_OK);
        CHECK(v == 1);
    }
}

/* ---- event groups ------------------------------------------------------------- */
static void eg_all_waiter(void *arg)
{
    task_ctx_t *c = arg;
    c->rc = rtipc_eventgroup_wait_bits(c->eg, 0x3, true, true, &c->value, rtipc_ms(1000));
}

static void eg_sync_peer(void *arg)
{
    task_ctx_t *c = arg;
    c->rc = rtipc_eventgroup_sync(c->eg, 0x100, 0x300, &c->value, rtipc_ms(1000));
}

static void check_eventgroups(void)
{
    rtipc_eventgroup_t *eg = NULL;
    uint32_t v = 0;
    CHECK_RC(rtipc_eventgroup_create(&eg), RTIPC_OK);
    CHECK_RC(rtipc_eventgroup_set_bits(eg, 0x01000000u, NULL), RTIPC_EINVAL);
    CHECK_RC(rtipc_eventgroup_wait_bits(eg, 0x1, false, false, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    CHECK_RC(rtipc_eventgroup_wait_bits(eg, 0x1, false, false, &v, rtipc_ms(10)), RTIPC_ETIMEDOUT);

    task_ctx_t c = {.eg = eg, .rc = 1};
    rtipc_task_t *t = spawn("egwait", CHECK_PRIO + 1, eg_all_waiter, &c);
    CHECK_RC(rtipc_eventgroup_delete(eg), RTIPC_EBUSY);
    CHECK_RC(rtipc_eventgroup_set_bits(eg, 0x1, &v), RTIPC_OK);
    CHECK(c.rc == 1); /* one of two bits: still waiting */
    CHECK_RC(rtipc_eventgroup_set_bits(eg, 0x6, &v), RTIPC_OK);
    CHECK(c.rc == RTIPC_OK && c.value == 0x7);
    CHECK(v == 0x4); /* the waiter cleared 0x3 on exit */
    join(t);
    CHECK(rtipc_eventgroup_get_bits(eg) == 0x4);
    CHECK_RC(rtipc_eventgroup_clear_bits(eg, 0x4, &v), RTIPC_OK);
    CHECK(v == 0x4 && rtipc_eventgroup_get_bits(eg) == 0);

    /* Rendezvous of two tasks. */
    c = (task_ctx_t){.eg = eg, .rc = 1};
    t = spawn("egsync", CHECK_PRIO - 1, eg_sync_peer, &c);
    CHECK_RC(rtipc_eventgroup_sync(eg, 0x200, 0x300, &v, rtipc_ms(1000)), RTIPC_OK);
    CHECK((v & 0x300) == 0x300);
    join(t);
    CHECK_RC(c.rc, RTIPC_OK);
    CHECK(rtipc_eventgroup_get_bits(eg) == 0);

    /* From the tick hook: the kernel defers it to its timer task. */
    tick_group = eg;
    CHECK_RC(rtipc_eventgroup_wait_bits(eg, 0x10, true, false, &v, rtipc_ms(500)), RTIPC_OK);
    CHECK(v == 0x10);
    /* From a task, the _from_isr form acts at once. */
    CHECK_RC(rtipc_eventgroup_set_bits_from_isr(eg, 0x20, &v, NULL), RTIPC_OK);
    CHECK(v == 0x20);
    CHECK_RC(rtipc_eventgroup_clear_bits_from_isr(eg, 0x20, &v), RTIPC_OK);
    CHECK(v == 0x20 && rtipc_eventgroup_get_bits(eg) == 0);
    CHECK_RC(rtipc_eventgroup_delete(eg), RTIPC_OK);

    static rtipc_eventgroup_static_t ecb;
    CHECK_RC(rtipc_eventgroup_create_static(&ecb, &eg), RTIPC_OK);
    CHECK_RC(rtipc_eventgroup_set_bits(eg, 0xffffff, &v), RTIPC_OK);
    CHECK(v == 0xffffff);
    CHECK_RC(rtipc_eventgroup_delete(eg), RTIPC_OK);
}

/* ---- stream and message buffers ---------------------------------------------- */
static void sb_reader(void *arg)
{
    task_ctx_t *c = arg;
    char buf[32];
    c->rc = rtipc_streambuf_receive(c->sb, buf, sizeof buf, &c->got, rtipc_ms(1000));
}

static void check_buffers(void)
{
    rtipc_streambuf_t *sb = NULL;
    char buf[64];
    size_t n = 0;
    CHECK_RC(rtipc_streambuf_create(16, 17, &sb), RTIPC_EINVAL);
    CHECK_RC(rtipc_streambuf_create(16, 4, &sb), RTIPC_OK);
    CHECK(rtipc_streambuf_spaces_available(sb) == 16);
    CHECK_RC(rtipc_streambuf_send(sb, "0123456789", 10, &n, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(n == 10 && rtipc_streambuf_bytes_available(sb) == 10);
    CHECK_RC(rtipc_streambuf_send(sb, "abcdefghij", 10, &n, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(n == 6 && rtipc_streambuf_is_full(sb) == 1); /* what fits */
    CHECK_RC(rtipc_streambuf_send(sb, "x", 1, &n, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    CHECK_RC(rtipc_streambuf_receive(sb, buf, sizeof buf, &n, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(n == 16 && memcmp(buf, "0123456789abcdef", 16) == 0);
    CHECK_RC(rtipc_streambuf_receive(sb, buf, sizeof buf, &n, rtipc_ms(10)), RTIPC_ETIMEDOUT);

    /* A blocked reader wakes at the trigger level (4), not before. */
    task_ctx_t c = {.sb = sb, .rc = 1};
    rtipc_task_t *t = spawn("sbread", CHECK_PRIO + 1, sb_reader, &c);
    CHECK_RC(rtipc_streambuf_send(sb, "ab", 2, &n, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(c.rc == 1);
    CHECK_RC(rtipc_streambuf_send(sb, "cd", 2, &n, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(c.rc == RTIPC_OK && c.got == 4);
    join(t);
    CHECK_RC(rtipc_streambuf_set_trigger_level(sb, 17), RTIPC_EINVAL);

    bool woken = false;
    UBaseType_t s = isr_begin();
    int r1 = rtipc_streambuf_send_from_isr(sb, "isr", 3, &n, &woken);
    size_t sent_isr = n;
    int r2 = rtipc_streambuf_receive_from_isr(sb, buf, sizeof buf, &n, &woken);
    isr_end(s);
    CHECK_RC(r1, RTIPC_OK);
    CHECK(sent_isr == 3);
    CHECK_RC(r2, RTIPC_OK);
    CHECK(n == 3 && memcmp(buf, "isr", 3) == 0);
    CHECK_RC(rtipc_streambuf_reset(sb), RTIPC_OK);
    CHECK(rtipc_streambuf_is_empty(sb) == 1);
    CHECK_RC(rtipc_streambuf_delete(sb), RTIPC_OK);

    static rtipc_streambuf_static_t scb;
    static unsigned char sstore[RTIPC_STREAMBUF_STORAGE_SIZE(16)];
    CHECK_RC(rtipc_streambuf_create_static(16, 1, sstore, &scb, &sb), RTIPC_OK);
    CHECK(rtipc_streambuf_spaces_available(sb) == 16);
    CHECK_RC(rtipc_streambuf_send(sb, "0123456789abcdef", 16, &n, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(n == 16 && rtipc_streambuf_is_full(sb) == 1);
    CHECK_RC(rtipc_streambuf_delete(sb), RTIPC_OK);

    rtipc_msgbuf_t *mb = NULL;
    CHECK_RC(rtipc_msgbuf_create(4, &mb), RTIPC_EINVAL);
    CHECK_RC(rtipc_msgbuf_create(32, &mb), RTIPC_OK);
    CHECK_RC(rtipc_msgbuf_send(mb, "hello", 5, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK_RC(rtipc_msgbuf_send(mb, "rtos", 4, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(rtipc_msgbuf_bytes_available(mb) == 5 + 4 + 2 * RTIPC_MSGBUF_LENGTH_BYTES);
    CHECK_RC(rtipc_msgbuf_send(mb, "0123456789abcdef", 16, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    CHECK_RC(rtipc_msgbuf_send(mb, buf, 29, RTIPC_NO_WAIT), RTIPC_EINVAL); /* could never fit */
    CHECK(rtipc_msgbuf_next_length(mb) == 5);
    CHECK_RC(rtipc_msgbuf_receive(mb, buf, 3, &n, RTIPC_NO_WAIT), RTIPC_EINVAL);
    CHECK(n == 5); /* the length it needs; the message stays */
    CHECK_RC(rtipc_msgbuf_receive(mb, buf, sizeof buf, &n, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(n == 5 && memcmp(buf, "hello", 5) == 0);
    s = isr_begin();
    r1 = rtipc_msgbuf_receive_from_isr(mb, buf, sizeof buf, &n, &woken);
    r2 = rtipc_msgbuf_send_from_isr(mb, "irq", 3, &woken);
    isr_end(s);
    CHECK_RC(r1, RTIPC_OK);
    CHECK(n == 4 && memcmp(buf, "rtos", 4) == 0);
    CHECK_RC(r2, RTIPC_OK);
    CHECK_RC(rtipc_msgbuf_receive(mb, buf, sizeof buf, &n, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(n == 3);
    CHECK_RC(rtipc_msgbuf_receive(mb, buf, sizeof buf, &n, rtipc_ms(10)), RTIPC_ETIMEDOUT);
    CHECK(rtipc_msgbuf_is_empty(mb) == 1 && rtipc_msgbuf_next_length(mb) == 0);
    CHECK_RC(rtipc_msgbuf_delete(mb), RTIPC_OK);
}

/* ---- queue sets ---------------------------------------------------------------- */
static void check_queuesets(void)
{
    rtipc_queueset_t *set = NULL;
    rtipc_queue_t *q = NULL, *big = NULL;
    rtipc_sem_t *s = NULL;
    void *member = NULL;
    uint32_t v = 5;
    CHECK_RC(rtipc_queueset_create(3, &set), RTIPC_OK);
    CHECK_RC(rtipc_queue_create(2, sizeof v, &q), RTIPC_OK);
    CHECK_RC(rtipc_queue_create(5, sizeof v, &big), RTIPC_OK);
    CHECK_RC(rtipc_sem_create_binary(&s), RTIPC_OK);
    CHECK_RC(rtipc_queueset_add_queue(set, q), RTIPC_OK);
    CHECK_RC(rtipc_queueset_add_queue(set, q), RTIPC_EBUSY);
    CHECK_RC(rtipc_queueset_add_queue(set, big), RTIPC_EOVERFLOW);
    CHECK_RC(rtipc_queueset_add_sem(set, s), RTIPC_OK);
    CHECK_RC(rtipc_queueset_select(set, &member, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    CHECK_RC(rtipc_queueset_select(set, &member, rtipc_ms(10)), RTIPC_ETIMEDOUT);
    CHECK_RC(rtipc_queue_send(q, &v, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK_RC(rtipc_sem_give(s), RTIPC_OK);
    CHECK_RC(rtipc_queueset_select(set, &member, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(member == (void *)q);
    CHECK_RC(rtipc_queue_receive(q, &v, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK_RC(rtipc_queueset_select(set, &member, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK(member == (void *)s);
    CHECK_RC(rtipc_sem_take(s, RTIPC_NO_WAIT), RTIPC_OK);
    CHECK_RC(rtipc_queue_delete(q), RTIPC_EBUSY); /* still a member */
    CHECK_RC(rtipc_queueset_delete(set), RTIPC_EBUSY);
    CHECK_RC(rtipc_queueset_remove_queue(set, q), RTIPC_OK);
    CHECK_RC(rtipc_queueset_remove_sem(set, s), RTIPC_OK);
    CHECK(rtipc_queueset_overflows(set) == 0);
    CHECK_RC(rtipc_queueset_add_ringbuf(set, NULL), RTIPC_EINVAL);
    CHECK_RC(rtipc_queueset_delete(set), RTIPC_OK);
    CHECK_RC(rtipc_queue_delete(q), RTIPC_OK);
    CHECK_RC(rtipc_queue_delete(big), RTIPC_OK);
    CHECK_RC(rtipc_sem_delete(s), RTIPC_OK);
}

/* ---- rtipc's own objects: mailbox and SPSC ring ------------------------------ */
static void mbox_reader(void *arg)
{
    task_ctx_t *c = arg;
    c->rc = rtipc_mailbox_wait_newer(c->mb, &c->value64, 0, &c->version, rtipc_ms(1000));
}

#define SPSC_ITEMS 2000u

static void spsc_consumer(void *arg)
{
    task_ctx_t *c = arg;
    for (uint32_t i = 0; i < SPSC_ITEMS; ++i) {
        uint32_t v;
        int rc = rtipc_spsc_pop(c->r, &v, rtipc_ms(2000));
        if (rc != RTIPC_OK) {
            c->rc = rc;
            return;
        }
        if (v != i)
            ++c->errors;
        ++c->received;
    }
    c->rc = RTIPC_OK;
}

static void spsc_producer(void *arg)
{
    task_ctx_t *c = arg;
    for (uint32_t i = 0; i < SPSC_ITEMS; ++i) {
        if (rtipc_spsc_push(c->r, &i, rtipc_ms(2000)) != RTIPC_OK) {
            ++c->errors;
            return;
        }
        if (i % 64 == 0)
            (void)rtipc_task_delay(rtipc_ms(1)); /* let the consumer park sometimes */
    }
}

static void check_own_objects(void)
{
    rtipc_mailbox_t *mb = NULL;
    uint64_t value = 0, version = 0, init = 100;
    CHECK_RC(rtipc_mailbox_create(sizeof value, &init, &mb), RTIPC_OK);
    CHECK_RC(rtipc_mailbox_read(mb, &value, &version), RTIPC_OK);
    CHECK(value == 100 && version == 0); /* the initial value is version 0 */
    CHECK_RC(rtipc_mailbox_wait_newer(mb, &value, 0, &version, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    CHECK_RC(rtipc_mailbox_wait_newer(mb, &value, 0, &version, rtipc_ms(10)), RTIPC_ETIMEDOUT);
    task_ctx_t c = {.mb = mb, .rc = 1};
    rtipc_task_t *t = spawn("mbread", CHECK_PRIO + 1, mbox_reader, &c);
    CHECK_RC(rtipc_mailbox_delete(mb), RTIPC_EBUSY);
    uint64_t w = 555;
    CHECK_RC(rtipc_mailbox_write(mb, &w), RTIPC_OK);
    join(t);
    CHECK_RC(c.rc, RTIPC_OK);
    CHECK(c.value64 == 555 && c.version == 1);
    CHECK_RC(rtipc_mailbox_delete(mb), RTIPC_OK);

    task_ctx_t sc = {.rc = 1};
    CHECK_RC(rtipc_spsc_create(8, sizeof(uint32_t), &sc.r), RTIPC_OK);
    /* The ring itself (not its handle) is cache-line aligned. */
    CHECK(((uintptr_t)rtipc__handle_get(sc.r, RTIPC__H_SPSC) & 63u) == 0);
    run_pair(&sc, "consumer", spsc_consumer, "producer", spsc_producer);
    CHECK_RC(sc.rc, RTIPC_OK);
    CHECK(sc.received == SPSC_ITEMS && sc.errors == 0);
    uint32_t v = 0;
    CHECK_RC(rtipc_spsc_pop(sc.r, &v, rtipc_ms(10)), RTIPC_ETIMEDOUT);
    for (uint32_t i = 0; i < 8; ++i)
        CHECK_RC(rtipc_spsc_try_push(sc.r, &i), RTIPC_OK);
    CHECK_RC(rtipc_spsc_push(sc.r, &v, rtipc_ms(10)), RTIPC_ETIMEDOUT);
    CHECK(rtipc_spsc_size(sc.r) == 8);
    CHECK_RC(rtipc_spsc_delete(sc.r), RTIPC_OK);
}

/* ---- deleting a task blocked in rtipc ---------------------------------------- */
static void blocked_in_queue(void *arg)
{
    uint32_t v;
    (void)rtipc_queue_receive(arg, &v, RTIPC_FOREVER);
}

static void blocked_in_spsc(void *arg)
{
    uint32_t v;
    (void)rtipc_spsc_pop(arg, &v, RTIPC_FOREVER);
}

static void check_delete_blocked(void)
{
    rtipc_queue_t *q = NULL;
    rtipc_spsc_t *r = NULL;
    CHECK_RC(rtipc_queue_create(1, sizeof(uint32_t), &q), RTIPC_OK);
    CHECK_RC(rtipc_spsc_create(4, sizeof(uint32_t), &r), RTIPC_OK);
    rtipc_task_t *tq = spawn("blockq", CHECK_PRIO + 1, blocked_in_queue, q);
    rtipc_task_t *tr = spawn("blockr", CHECK_PRIO + 1, blocked_in_spsc, r);
    CHECK_RC(rtipc_queue_delete(q), RTIPC_EBUSY);
    CHECK_RC(rtipc_spsc_delete(r), RTIPC_EBUSY);
    CHECK_RC(rtipc_task_delete(tq), RTIPC_OK);
    CHECK_RC(rtipc_task_delete(tr), RTIPC_OK);
    /* The deleted waiters left the objects: they can go now. */
    uint32_t v = 9;
    CHECK_RC(rtipc_spsc_push(r, &v, RTIPC_NO_WAIT), RTIPC_OK); /* wakes nobody stale */
    CHECK_RC(rtipc_queue_delete(q), RTIPC_OK);
    CHECK_RC(rtipc_spsc_delete(r), RTIPC_OK);
}

/* ---- rtipc interrupt sources (the simulator's signal vector, the tick) ----------- */
typedef struct {
    volatile int runs, in_isr, core;
    volatile uint64_t last_tick;
} irq_probe_t;

static void irq_probe(void *arg)
{
    irq_probe_t *p = arg;
    p->runs++;
    p->in_isr += rtipc_in_interrupt() ? 1 : 0;
    p->core = rtipc_irq_core();
    p->last_tick = rtipc_tick_count();
}

static void isr_stub(void *arg) { (void)arg; }

/* A handler that raises another source: it runs in the same vector pass,
 * after this one returns (the second is still pending while this runs). */
/* The context of a handler below (this one and rb_isr_send): what it
 * touches and what it saw, volatile as a handler writes it. */
typedef struct {
    union {
        rtipc_irq_t *other;
        rtipc_ringbuf_t *rb;
    };
    volatile int64_t other_count_inside;
    volatile int rc;
    volatile bool woken;
} isr_ctx_t;

static void irq_chain(void *arg)
{
    isr_ctx_t *ch = arg;
    ch->rc = rtipc_irq_trigger(ch->other);
    ch->other_count_inside = rtipc_irq_count(ch->other);
}

static void check_irq(void)
{
    irq_probe_t p = {0, 0, -2, 0};
    rtipc_irq_t *irq = NULL;
    CHECK_RC(rtipc_irq_create(1, isr_stub, NULL, &irq), RTIPC_EINVAL);
    CHECK_RC(rtipc_irq_create(0, NULL, NULL, &irq), RTIPC_EINVAL);
    CHECK_RC(rtipc_irq_create(0, irq_probe, &p, &irq), RTIPC_OK);
    if (!irq)
        return;
    /* A trigger from a task runs the handler before it returns. */
    CHECK_RC(rtipc_irq_trigger(irq), RTIPC_OK);
    CHECK(p.runs == 1 && rtipc_irq_count(irq) == 1);
    CHECK(p.in_isr == 1 && p.core == 0);
    CHECK(!rtipc_in_interrupt() && rtipc_irq_core() == -1);
    /* Only ESP-IDF's backend gives a source a hardware timer. */
    CHECK_RC(rtipc_freertos_irq_timer_hw(irq), 0);
    CHECK_RC(rtipc_freertos_irq_timer_hw(NULL), RTIPC_EINVAL);
    /* Masked by a critical section: pending until it ends. */
    taskENTER_CRITICAL();
    int rc = rtipc_irq_trigger(irq);
    int runs_inside = p.runs;
    taskEXIT_CRITICAL();
    CHECK_RC(rc, RTIPC_OK);
    CHECK(runs_inside == 1 && p.runs == 2 && rtipc_irq_count(irq) == 2);
    /* Triggers while masked merge, like a pending bit. */
    taskENTER_CRITICAL();
    (void)rtipc_irq_trigger(irq);
    (void)rtipc_irq_trigger(irq);
    taskEXIT_CRITICAL();
    CHECK(p.runs == 3);
    /* A one-shot timer runs once, from the tick, no earlier than asked. */
    uint64_t t0 = rtipc_tick_count();
    CHECK_RC(rtipc_irq_timer_start(irq, rtipc_ms(5).ns, 0), RTIPC_OK);
    vTaskDelay(pdMS_TO_TICKS(30));
    CHECK(p.runs == 4 && p.in_isr == 4);
    CHECK(p.last_tick >= t0 + 5);
    /* A periodic timer, then stopped. */
    uint64_t t_start = rtipc_tick_count();
    CHECK_RC(rtipc_irq_timer_start(irq, 0, rtipc_ms(2).ns), RTIPC_OK);
    vTaskDelay(pdMS_TO_TICKS(41));
    CHECK_RC(rtipc_irq_timer_stop(irq), RTIPC_OK);
    uint64_t span = rtipc_tick_count() - t_start;
    int periodic = p.runs - 4;
    /* Every other tick, counted in ticks (not wall time). */
    CHECK(span >= 41 && periodic >= (int)(span / 2) - 1 && periodic <= (int)(span / 2) + 1);
    int after_stop = p.runs;
    vTaskDelay(pdMS_TO_TICKS(10));
    CHECK(p.runs == after_stop);
    printf("irq: periodic 2 ms timer ran %d times in %llu ticks\n", periodic, (unsigned long long)span);
    /* A trigger from a handler: the second handler has run when the first
     * trigger returns to the task, not inside the first handler. */
    isr_ctx_t ch = {.other = irq, .other_count_inside = -1, .rc = 1};
    rtipc_irq_t *first = NULL;
    CHECK_RC(rtipc_irq_create(0, irq_chain, &ch, &first), RTIPC_OK);
    if (first) {
        int before = p.runs;
        CHECK_RC(rtipc_irq_trigger(first), RTIPC_OK);
        CHECK(ch.rc == RTIPC_OK && ch.other_count_inside == before);
        CHECK(p.runs == before + 1 && rtipc_irq_count(first) == 1);
        CHECK_RC(rtipc_irq_delete(first), RTIPC_OK);
    }
    /* (Hand-offs to readied tasks, with and without a yield, are the
     * conformance suite's irq.handoff.* lines.) */
    CHECK_RC(rtipc_irq_timer_start(irq, -1, 0), RTIPC_EINVAL);
    CHECK_RC(rtipc_irq_delete(irq), RTIPC_OK);
    CHECK_RC(rtipc_irq_trigger(irq), RTIPC_EINVAL);
    CHECK(rtipc_irq_count(irq) == RTIPC_EINVAL);
    CHECK_RC(rtipc_irq_timer_stop(irq), RTIPC_EINVAL);
    CHECK_RC(rtipc_freertos_irq_timer_hw(irq), RTIPC_EINVAL);
}

/* ---- ring buffers (the port's own; the contract is the conformance suite's) ---- */
#define RB_ITEMS 2000u

/* Items of 1..13 bytes, each starting with its 4-byte sequence number. */
static size_t rb_item_len(uint32_t seq) { return 4u + seq % 10u; }

static void rb_producer(void *arg)
{
    task_ctx_t *c = arg;
    uint8_t buf[16];
    for (uint32_t seq = 0; seq < RB_ITEMS; ++seq) {
        memcpy(buf, &seq, sizeof seq);
        memset(buf + 4, (int)(seq & 0xffu), sizeof buf - 4);
        if (rtipc_ringbuf_send(c->rb, buf, rb_item_len(seq), rtipc_ms(1000)) != RTIPC_OK) {
            c->errors++;
            return;
        }
    }
}

static void rb_consumer(void *arg)
{
    task_ctx_t *c = arg;
    for (uint32_t want = 0; want < RB_ITEMS; ++want) {
        void *item = NULL;
        size_t n = 0;
        c->rc = rtipc_ringbuf_receive(c->rb, &item, &n, rtipc_ms(1000));
        if (c->rc != RTIPC_OK)
            return;
        uint32_t seq;
        memcpy(&seq, item, sizeof seq);
        if (seq != want || n != rb_item_len(want) || (n > 4 && ((uint8_t *)item)[n - 1] != (uint8_t)(want & 0xffu)))
            c->errors++;
        (void)rtipc_ringbuf_return(c->rb, item);
        c->received++;
    }
}

static void rb_isr_send(void *arg)
{
    isr_ctx_t *x = arg;
    static const uint8_t msg[3] = {7, 8, 9};
    bool w = false;
    x->rc = rtipc_ringbuf_send_from_isr(x->rb, msg, sizeof msg, &w);
    x->woken = w;
}

/* Receive one item (the handler's 7 8 9), check and return it. */
static void rb_take_one(void *arg)
{
    task_ctx_t *c = arg;
    void *item = NULL;
    size_t n = 0;
    c->rc = rtipc_ringbuf_receive(c->rb, &item, &n, rtipc_ms(1000));
    if (c->rc != RTIPC_OK)
        return;
    c->received = (uint32_t)n;
    if (n != 3 || memcmp(item, "\x07\x08\x09", 3) != 0)
        c->errors++;
    c->rc = rtipc_ringbuf_return(c->rb, item);
}

static void blocked_in_ringbuf(void *arg)
{
    void *item;
    size_t n;
    (void)rtipc_ringbuf_receive(arg, &item, &n, RTIPC_FOREVER);
}

static void check_ringbufs(void)
{
    /* Static creation in caller memory, and its shape rules. */
    static rtipc_ringbuf_static_t cb;
    static _Alignas(4) uint8_t storage[64];
    rtipc_ringbuf_t *rb = NULL;
    CHECK_RC(rtipc_ringbuf_create_static(62, RTIPC_RINGBUF_NOSPLIT, storage, &cb, &rb), RTIPC_EINVAL);
    CHECK_RC(rtipc_ringbuf_create_static(64, RTIPC_RINGBUF_NOSPLIT, storage + 1, &cb, &rb), RTIPC_EINVAL);
    CHECK_RC(rtipc_ringbuf_create_static(64, RTIPC_RINGBUF_NOSPLIT, storage, &cb, &rb), RTIPC_OK);
    CHECK(rtipc_ringbuf_footprint(rb) == rtipc_ringbuf_footprint_for(64, RTIPC_RINGBUF_NOSPLIT));
    CHECK(rtipc_ringbuf_item_footprint(RTIPC_RINGBUF_NOSPLIT, 5) == RTIPC_RINGBUF_ITEM_BYTES(5));

    /* From an interrupt handler: a receiver of higher priority is readied
     * and the handler is told to yield. */
    isr_ctx_t x = {.rb = rb, .rc = 1, .woken = false};
    rtipc_irq_t *irq = NULL;
    CHECK_RC(rtipc_irq_create(0, rb_isr_send, &x, &irq), RTIPC_OK);
    if (irq) {
        task_ctx_t waiter = {.rb = rb, .rc = 1};
        rtipc_task_t *t = spawn("rbwait", CHECK_PRIO + 1, rb_take_one, &waiter);
        CHECK_RC(rtipc_irq_trigger(irq), RTIPC_OK);
        CHECK_RC(x.rc, RTIPC_OK);
        CHECK(x.woken);
        join(t);
        CHECK_RC(waiter.rc, RTIPC_OK);
        CHECK(waiter.received == 3 && waiter.errors == 0);
        CHECK(rtipc_ringbuf_items_waiting(rb) == 0 && rtipc_ringbuf_bytes_used(rb) == 0);
        CHECK_RC(rtipc_irq_delete(irq), RTIPC_OK);
    }
    CHECK_RC(rtipc_ringbuf_delete(rb), RTIPC_OK);

    /* A task deleted while parked leaves the buffer deletable. */
    rtipc_ringbuf_t *other = NULL;
    CHECK_RC(rtipc_ringbuf_create(32, RTIPC_RINGBUF_BYTEBUF, &other), RTIPC_OK);
    rtipc_task_t *parked = spawn("rbpark", CHECK_PRIO + 1, blocked_in_ringbuf, other);
    CHECK_RC(rtipc_ringbuf_delete(other), RTIPC_EBUSY);
    CHECK_RC(rtipc_task_delete(parked), RTIPC_OK);
    CHECK_RC(rtipc_ringbuf_delete(other), RTIPC_OK);
    CHECK_RC(rtipc_ringbuf_send(other, "x", 1, RTIPC_NO_WAIT), RTIPC_EINVAL);

    /* Producer and consumer of different priorities through a small buffer:
     * every item arrives once, in order, intact. */
    task_ctx_t c = {.rc = 1};
    CHECK_RC(rtipc_ringbuf_create(48, RTIPC_RINGBUF_NOSPLIT, &c.rb), RTIPC_OK);
    run_pair(&c, "rbcons", rb_consumer, "rbprod", rb_producer);
    CHECK_RC(c.rc, RTIPC_OK);
    CHECK(c.received == RB_ITEMS && c.errors == 0);
    CHECK_RC(rtipc_ringbuf_delete(c.rb), RTIPC_OK);
}

/* ---- the task watchdog ------------------------------------------------------------
 * The monitor task checks every timeout/4; a trip needs the timeout in whole
 * ticks plus one tick of silence, and one silence is reported once per
 * timeout. */
#define WDT_MS 40

static struct {
    volatile int task_trips, idle_trips;
    rtipc_task_t *volatile task;
    volatile int idle_core;
    volatile int64_t min_silent_ns;
    volatile uint64_t at[16]; /* tick of each task trip */
    volatile bool in_isr;
    volatile UBaseType_t prio; /* of the task the callback ran in */
    char task_name[16], idle_name[16];
} wseen;

static void wdt_record(const rtipc_wdt_trip_t *trip, void *arg)
{
    CHECK(arg == &wseen);
    wseen.in_isr = wseen.in_isr || rtipc_in_interrupt();
    wseen.prio = uxTaskPriorityGet(NULL);
    if (trip->task) {
        int n = wseen.task_trips;
        if (n < 16)
            wseen.at[n] = rtipc_tick_count();
        if (n == 0 || trip->silent_ns < wseen.min_silent_ns)
            wseen.min_silent_ns = trip->silent_ns;
        wseen.task = trip->task;
        snprintf(wseen.task_name, sizeof wseen.task_name, "%s", trip->name);
        wseen.task_trips = n + 1;
    } else {
        wseen.idle_core = trip->core;
        snprintf(wseen.idle_name, sizeof wseen.idle_name, "%s", trip->name);
        wseen.idle_trips++;
    }
}

static int wdt_record_start(bool idle_check)
{
    memset((void *)&wseen, 0, sizeof wseen);
    rtipc_wdt_config_t cfg = {.timeout_ns = WDT_MS * 1000000LL, .idle_check = idle_check, .on_trip = wdt_record,
                              .arg = &wseen};
    return rtipc_wdt_start(&cfg);
}

typedef struct {
    bool subscribe, feed, unsubscribe_first, keep;
    int ms;
    int rc_add, rc_delete;
} wdt_worker_t;

static void wdt_worker(void *arg)
{
    wdt_worker_t *w = arg;
    if (w->subscribe)
        w->rc_add = rtipc_wdt_add(NULL);
    if (w->unsubscribe_first)
        w->rc_delete = rtipc_wdt_delete(NULL);
    if (w->feed) {
        for (int t = 0; t < w->ms; t += WDT_MS / 4) {
            (void)rtipc_wdt_reset();
            vTaskDelay(pdMS_TO_TICKS(WDT_MS / 4));
        }
    } else {
        vTaskDelay(pdMS_TO_TICKS(w->ms)); /* blocked: it cannot reset */
    }
    if (w->subscribe && !w->unsubscribe_first && !w->keep)
        w->rc_delete = rtipc_wdt_delete(NULL);
}

static void wdt_run(const char *name, wdt_worker_t *w)
{
    join(spawn(name, CHECK_PRIO + 1, wdt_worker, w));
}

static void check_wdt(void)
{
    /* Not started. */
    rtipc_wdt_config_t cfg = {.timeout_ns = WDT_MS * 1000000LL};
    CHECK_RC(rtipc_wdt_start(NULL), RTIPC_EINVAL);
    rtipc_wdt_config_t tiny = {.timeout_ns = 999999};
    CHECK_RC(rtipc_wdt_start(&tiny), RTIPC_EINVAL);
    rtipc_wdt_config_t negative = {.timeout_ns = -5};
    CHECK_RC(rtipc_wdt_start(&negative), RTIPC_EINVAL);
    CHECK_RC(rtipc_wdt_stop(), RTIPC_EINVAL);
    CHECK_RC(rtipc_wdt_add(NULL), RTIPC_EINVAL);
    CHECK_RC(rtipc_wdt_reset(), RTIPC_EINVAL);
    CHECK_RC(rtipc_wdt_delete(NULL), RTIPC_EINVAL);

    /* Started: subscription errors. */
    uint64_t count0 = rtipc_wdt_trip_count();
    CHECK_RC(rtipc_wdt_start(&cfg), RTIPC_OK);
    CHECK_RC(rtipc_wdt_start(&cfg), RTIPC_EBUSY);
    CHECK(rtipc_wdt_trip_count() == count0); /* nobody subscribed: nothing to trip */
    CHECK_RC(rtipc_wdt_reset(), RTIPC_EINVAL); /* not subscribed */
    CHECK_RC(rtipc_wdt_delete(NULL), RTIPC_EINVAL);
    CHECK_RC(rtipc_wdt_add(NULL), RTIPC_OK);
    CHECK_RC(rtipc_wdt_add(NULL), RTIPC_EINVAL); /* twice */
    CHECK_RC(rtipc_wdt_add(rtipc_task_current()), RTIPC_EINVAL);
    CHECK_RC(rtipc_wdt_reset(), RTIPC_OK);
    CHECK_RC(rtipc_wdt_delete(rtipc_task_current()), RTIPC_OK);
    CHECK_RC(rtipc_wdt_reset(), RTIPC_EINVAL);
    static char junk[512];
    CHECK_RC(rtipc_wdt_add((rtipc_task_t *)(void *)junk), RTIPC_EINVAL);
    CHECK_RC(rtipc_wdt_delete((rtipc_task_t *)(void *)junk), RTIPC_EINVAL);
    UBaseType_t s = isr_begin();
    int rcs[5] = {rtipc_wdt_start(&cfg), rtipc_wdt_stop(), rtipc_wdt_add(NULL), rtipc_wdt_delete(NULL),
                  rtipc_wdt_reset()};
    uint64_t count_isr = rtipc_wdt_trip_count();
    isr_end(s);
    for (int i = 0; i < 5; ++i)
        CHECK_RC(rcs[i], RTIPC_ECONTEXT);
    CHECK(count_isr == count0);
    /* A stop does not wait for the monitor's next check (here a second away). */
    CHECK_RC(rtipc_wdt_stop(), RTIPC_OK);
    rtipc_wdt_config_t slow = {.timeout_ns = 4000000000LL, .idle_check = true};
    CHECK_RC(rtipc_wdt_start(&slow), RTIPC_OK);
    CHECK_RC(rtipc_task_delay(rtipc_ms(5)), RTIPC_OK);
    TickType_t t0 = xTaskGetTickCount();
    CHECK_RC(rtipc_wdt_stop(), RTIPC_OK);
    CHECK(xTaskGetTickCount() - t0 < 5);
    CHECK_RC(rtipc_wdt_stop(), RTIPC_EINVAL);

    /* A subscriber blocked for 5.5 timeouts trips it once per timeout. */
    CHECK_RC(wdt_record_start(false), RTIPC_OK);
    count0 = rtipc_wdt_trip_count();
    wdt_worker_t silent = {.subscribe = true, .ms = 11 * WDT_MS / 2};
    wdt_run("wdt-silent", &silent);
    CHECK_RC(silent.rc_add, RTIPC_OK);
    CHECK_RC(silent.rc_delete, RTIPC_OK);
    int n = wseen.task_trips;
    printf("wdt: a subscriber silent for %d ms (timeout %d ms) tripped it %d times\n", silent.ms, WDT_MS, n);
    CHECK(n >= 4 && n <= 5);
    CHECK(rtipc_wdt_trip_count() - count0 == (uint64_t)n);
    CHECK(wseen.task != NULL && strcmp(wseen.task_name, "wdt-silent") == 0);
    CHECK(wseen.min_silent_ns >= WDT_MS * 1000000LL);
    for (int i = 1; i < n && i < 16; ++i)
        CHECK(wseen.at[i] - wseen.at[i - 1] >= WDT_MS * configTICK_RATE_HZ / 1000);
    CHECK(!wseen.in_isr);
    CHECK(wseen.prio == configMAX_PRIORITIES - 1); /* the monitor task */
    CHECK(wseen.idle_trips == 0);

    /* One that resets every timeout/4 does not; nor one that unsubscribed. */
    wseen.task_trips = 0;
    wdt_worker_t feeder = {.subscribe = true, .feed = true, .ms = 5 * WDT_MS};
    wdt_run("wdt-feeder", &feeder);
    CHECK_RC(feeder.rc_add, RTIPC_OK);
    CHECK_RC(feeder.rc_delete, RTIPC_OK);
    wdt_worker_t gone = {.subscribe = true, .unsubscribe_first = true, .ms = 4 * WDT_MS};
    wdt_run("wdt-gone", &gone);
    CHECK_RC(gone.rc_delete, RTIPC_OK);
    CHECK(wseen.task_trips == 0);

    /* A subscription ends with its task: joined or deleted. */
    wdt_worker_t ends = {.subscribe = true, .keep = true, .ms = 5};
    wdt_run("wdt-ends", &ends);
    CHECK_RC(ends.rc_add, RTIPC_OK);
    wdt_worker_t deleted = {.subscribe = true, .ms = 100 * WDT_MS};
    rtipc_task_t *victim = spawn("wdt-deleted", CHECK_PRIO + 1, wdt_worker, &deleted);
    CHECK_RC(deleted.rc_add, RTIPC_OK);
    if (victim)
        CHECK_RC(rtipc_task_delete(victim), RTIPC_OK);
    CHECK_RC(rtipc_task_delay(rtipc_ms(3 * WDT_MS)), RTIPC_OK);
    CHECK(wseen.task_trips == 0);
    CHECK_RC(rtipc_wdt_stop(), RTIPC_OK);

    /* The idle check: a task that spins for 4 timeouts above the idle
     * priority starves the core; one that is blocked does not. */
    CHECK_RC(wdt_record_start(true), RTIPC_OK);
    wdt_worker_t blocked = {.ms = 3 * WDT_MS};
    wdt_run("wdt-blocked", &blocked);
    CHECK(wseen.idle_trips == 0 && wseen.task_trips == 0);
    int64_t end = rtipc_time_ns() + 4 * WDT_MS * 1000000LL;
    while (rtipc_time_ns() < end) {
    }
    int idle = wseen.idle_trips;
    printf("wdt: a task spinning for %d ms starved the idle task: %d trips (core %d, '%s')\n", 4 * WDT_MS, idle,
           wseen.idle_core, wseen.idle_name);
    CHECK(idle >= 2 && idle <= 4);
    CHECK(wseen.idle_core == 0 && strcmp(wseen.idle_name, "IDLE0") == 0);
    CHECK(wseen.task_trips == 0);
    CHECK_RC(rtipc_task_delay(rtipc_ms(3 * WDT_MS)), RTIPC_OK);
    CHECK(wseen.idle_trips == idle); /* the core is idle again */
    CHECK_RC(rtipc_wdt_stop(), RTIPC_OK);

    /* The default report (stderr) and a stop then start. */
    rtipc_wdt_config_t plain = {.timeout_ns = 5000000};
    count0 = rtipc_wdt_trip_count();
    CHECK_RC(rtipc_wdt_start(&plain), RTIPC_OK);
    CHECK_RC(rtipc_wdt_add(NULL), RTIPC_OK);
    CHECK_RC(rtipc_task_delay(rtipc_ms(12)), RTIPC_OK);
    CHECK_RC(rtipc_wdt_stop(), RTIPC_OK);
    CHECK(rtipc_wdt_trip_count() - count0 >= 1);
    CHECK_RC(rtipc_wdt_reset(), RTIPC_EINVAL); /* stop dropped the subscription */
    CHECK_RC(rtipc_wdt_start(&plain), RTIPC_OK);
    CHECK_RC(rtipc_wdt_reset(), RTIPC_EINVAL);
    CHECK_RC(rtipc_wdt_stop(), RTIPC_OK);
}

/* ---- what the port does not support ----------------------------------------- */
static void check_unsupported(void)
{
    CHECK(strcmp(rtipc_strerror(RTIPC_ENOTSUP), "unknown rtipc error") != 0);
}

/* ---- the conformance suite, when linked ----------------------------------------- */
#ifdef RTIPC_EXAMPLE_CONFORMANCE
int rtipc_conformance_run(void (*emit)(const char *line, void *ctx), void *ctx);

typedef struct {
    char *text;
    size_t len, cap;
} out_t;

static void collect(const char *line, void *ctx)
{
    out_t *o = ctx;
    size_t n = strlen(line);
    if (o->len + n + 2 > o->cap) {
        size_t cap = (o->cap + n + 2) * 2;
        char *p = realloc(o->text, cap);
        if (!p)
            return;
        o->text = p;
        o->cap = cap;
    }
    memcpy(o->text + o->len, line, n);
    o->len += n;
    if (n == 0 || line[n - 1] != '\n')
        o->text[o->len++] = '\n';
    o->text[o->len] = '\0';
}

/* Remove, in place, every line that starts with '#'. */
/* A scenario the suite leaves out in this build (it says so in a comment
 * line): with one notification slot, the slots' separation. */
static bool left_out(const char *line)
{
#if RTIPC_NOTIFY_SLOTS < 2
    return strncmp(line, "notify.index.separate:", 22) == 0;
#else
    (void)line;
    return false;
#endif
}

static char *drop_comments(char *text)
{
    char *w = text;
    for (char *r = text; *r;) {
        char *eol = strchr(r, '\n');
        size_t n = eol ? (size_t)(eol - r) + 1 : strlen(r);
        if (*r != '#' && !left_out(r)) {
            memmove(w, r, n);
            w += n;
        }
        r += n;
    }
    *w = '\0';
    return text;
}

static void run_conformance(void)
{
    out_t o = {0};
    int rc = rtipc_conformance_run(collect, &o);
    printf("conformance suite returned %d, %zu bytes of output\n", rc, o.len);
    /* The suite's commentary (its summary, skips and hand-off retries). */
    for (const char *l = o.text; l && *l;) {
        const char *eol = strchr(l, '\n');
        int n = eol ? (int)(eol - l) : (int)strlen(l);
        if (*l == '#')
            printf("conformance %.*s\n", n, l);
        l += eol ? n + 1 : n;
    }
    FILE *f = fopen(RTIPC_EXAMPLE_CONFORMANCE_EXPECTED, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    static char expected[1 << 20];
    size_t n = fread(expected, 1, sizeof expected - 1, f);
    fclose(f);
    expected[n] = '\0';
    /* '#' lines are commentary and are not compared (tests/conformance/README.md). */
    bool same = o.text && strcmp(drop_comments(o.text), drop_comments(expected)) == 0;
    CHECK(same);
    if (!same)
        printf("---- conformance output (without comments) ----\n%s---- expected (%s) ----\n%s",
               o.text ? o.text : "", RTIPC_EXAMPLE_CONFORMANCE_EXPECTED, expected);
    free(o.text);
}
#endif

/* ---- the check task -------------------------------------------------------------- */
static void run_section(const char *name, void (*fn)(void))
{
    unsigned c0 = checks, f0 = failures;
    TickType_t t0 = xTaskGetTickCount();
    fn();
    printf("%-14s %3u checks, %u failed (%lu ticks)\n", name, checks - c0, failures - f0,
           (unsigned long)(xTaskGetTickCount() - t0));
    fflush(stdout);
}

static void check_task(void *arg)
{
    (void)arg;
    printf("rtipc %s, port %s, FreeRTOS %s, tick %u Hz, %s\n", RTIPC_VERSION, RTIPC_PORT_NAME, tskKERNEL_VERSION_NUMBER,
           (unsigned)configTICK_RATE_HZ, rtipc_sched_policy_describe());
    run_section("time/tick", check_time);
    run_section("tasks", check_tasks);
    run_section("task known", check_task_known);
#if defined(rtipcCONFIG_TASK_LOOKUP_SLOTS) && configNUM_THREAD_LOCAL_STORAGE_POINTERS == 0
    run_section("task lookup full", check_task_lookup_full);
#endif
    run_section("queues", check_queues);
    run_section("semaphores", check_sems);
    run_section("mutexes", check_mutexes);
    run_section("notify", check_notify);
    run_section("eventgroups", check_eventgroups);
    run_section("stream/msg", check_buffers);
    run_section("queuesets", check_queuesets);
    run_section("mailbox/spsc", check_own_objects);
    run_section("task delete", check_delete_blocked);
    run_section("interrupts", check_irq);
    run_section("ring buffers", check_ringbufs);
    run_section("watchdog", check_wdt);
    run_section("unsupported", check_unsupported);
#ifdef RTIPC_EXAMPLE_CONFORMANCE
    run_section("conformance", run_conformance);
#endif
    printf("kernel ticks %u-bit, now %llu (rtipc_tick_count %llu)\n", (unsigned)(sizeof(TickType_t) * 8),
           (unsigned long long)xTaskGetTickCount(), (unsigned long long)rtipc_tick_count());
    printf("%s: %u checks, %u failed\n", failures ? "FAILED" : "PASSED", checks, failures);
    fflush(stdout);
    vTaskEndScheduler(); /* vTaskStartScheduler returns in main */
    for (;;)
        vTaskDelay(portMAX_DELAY);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* A plain FreeRTOS task: rtipc adopts it on its first call. */
    if (xTaskCreate(check_task, "check", configMINIMAL_STACK_SIZE * 4, NULL, CHECK_PRIO, NULL) != pdPASS) {
        printf("cannot create the check task\n");
        return 1;
    }
    vTaskStartScheduler();
    return checks > 0 && failures == 0 ? 0 : 1;
}
