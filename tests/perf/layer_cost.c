/* The layer's cost on a FreeRTOS target (layer_cost.h). */
#include "layer_cost.h"

#include <stdbool.h>
#include <stdio.h>

#ifdef ESP_PLATFORM
#include "freertos/FreeRTOS.h"
#include "freertos/queue.h"
#include "freertos/semphr.h"
#include "freertos/task.h"
#else
#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"
#endif

#include "rtipc/irq.h"
#include "rtipc/mutex.h"
#include "rtipc/notify.h"
#include "rtipc/queue.h"
#include "rtipc/sem.h"
#include "rtipc/task.h"

#define N LAYER_COST_CALLS

static const layer_cost_counter_t *clk;

/* Both sides' objects: rtipc's, and the kernel's made as a FreeRTOS user
 * makes them. Every queue and semaphore holds N, so N sends or gives in a
 * row find room. */
static struct {
    rtipc_queue_t *q;
    rtipc_sem_t *s;
    rtipc_mutex_t *m;
    rtipc_task_t *self;
    QueueHandle_t kq;
    SemaphoreHandle_t ks, km;
    TaskHandle_t kself;
} o;

typedef struct {
    uint64_t rtipc, kernel; /* instructions over N calls */
} pair_t;

static uint64_t empty; /* the instructions of an empty interval */

static void print(const char *op, pair_t p)
{
    /* Tenths of an instruction per call, in integers (no float printf on
     * every firmware). */
    uint64_t r = (p.rtipc * 10 + N / 2) / N;
    uint64_t k = (p.kernel * 10 + N / 2) / N;
    uint64_t x = k ? (r * 1000 + k / 2) / k : 0;
    printf("layer-cost %s rtipc %lu.%lu kernel %lu.%lu ratio %lu.%03lu\n", op, (unsigned long)(r / 10),
           (unsigned long)(r % 10), (unsigned long)(k / 10), (unsigned long)(k % 10), (unsigned long)(x / 1000),
           (unsigned long)(x % 1000));
}

/* ---- in one task, nobody waiting, the timeouts users write ---- */

/* N calls of rtipc's expression, then N of the kernel's, counted apart
 * into the pair_t p. The calls are written out, not called through a
 * pointer, so that each side is counted as its users call it. */
#define COUNT_PAIR(p, rtipc_call, kernel_call)                                                                  \
    do {                                                                                                       \
        clk->start();                                                                                          \
        for (unsigned i_ = 0; i_ < N; i_++)                                                                    \
            (void)(rtipc_call);                                                                                \
        (p).rtipc = clk->stop() - empty;                                                                       \
        clk->start();                                                                                          \
        for (unsigned i_ = 0; i_ < N; i_++)                                                                    \
            (void)(kernel_call);                                                                               \
        (p).kernel = clk->stop() - empty;                                                                      \
    } while (0)

static uint32_t item = 1;

static pair_t queue_send(void)
{
    pair_t p;
    COUNT_PAIR(p, rtipc_queue_send(o.q, &item, RTIPC_FOREVER), xQueueSend(o.kq, &item, portMAX_DELAY));
    return p;
}

static pair_t queue_receive(void)
{
    pair_t p;
    COUNT_PAIR(p, rtipc_queue_receive(o.q, &item, RTIPC_FOREVER), xQueueReceive(o.kq, &item, portMAX_DELAY));
    return p;
}

static pair_t sem_give(void)
{
    pair_t p;
    COUNT_PAIR(p, rtipc_sem_give(o.s), xSemaphoreGive(o.ks));
    return p;
}

static pair_t sem_take(void)
{
    pair_t p;
    COUNT_PAIR(p, rtipc_sem_take(o.s, RTIPC_FOREVER), xSemaphoreTake(o.ks, portMAX_DELAY));
    return p;
}

static pair_t notify_give(void)
{
    pair_t p;
    COUNT_PAIR(p, rtipc_notify_give(o.self, 0), xTaskNotifyGive(o.kself));
    return p;
}

/* After notify_give: rtipc's index 0 is the kernel's, so each side takes N
 * of the 2N given. */
static pair_t notify_take(void)
{
    pair_t p;
    COUNT_PAIR(p, rtipc_notify_take(0, false, NULL, RTIPC_FOREVER), ulTaskNotifyTake(pdFALSE, portMAX_DELAY));
    return p;
}

static pair_t mutex_lock_unlock(void)
{
    pair_t p;
    COUNT_PAIR(p, (rtipc_mutex_lock(o.m, RTIPC_FOREVER), rtipc_mutex_unlock(o.m)),
               (xSemaphoreTake(o.km, portMAX_DELAY), xSemaphoreGive(o.km)));
    return p;
}

/* ---- from an interrupt handler: one handler run measures one pair ---- */

enum isr_op { ISR_QUEUE_SEND, ISR_QUEUE_RECEIVE, ISR_SEM_GIVE, ISR_SEM_TAKE, ISR_NOTIFY_GIVE };

static enum isr_op isr_op;
static pair_t isr_result;

/* Every woken flag is passed back to the kernel's yield, as a handler does;
 * the task that would be woken is the one running, so none is set. */
static void isr(void *arg)
{
    (void)arg;
    uint32_t v = 2;
    bool w = false;
    BaseType_t hp = pdFALSE;
    clk->start();
    for (unsigned i = 0; i < N; i++) {
        switch (isr_op) {
        case ISR_QUEUE_SEND: (void)rtipc_queue_send_from_isr(o.q, &v, &w); break;
        case ISR_QUEUE_RECEIVE: (void)rtipc_queue_receive_from_isr(o.q, &v, &w); break;
        case ISR_SEM_GIVE: (void)rtipc_sem_give_from_isr(o.s, &w); break;
        case ISR_SEM_TAKE: (void)rtipc_sem_take_from_isr(o.s, &w); break;
        case ISR_NOTIFY_GIVE: (void)rtipc_notify_give_from_isr(o.self, 0, &w); break;
        }
    }
    isr_result.rtipc = clk->stop() - empty;
    clk->start();
    for (unsigned i = 0; i < N; i++) {
        switch (isr_op) {
        case ISR_QUEUE_SEND: (void)xQueueSendFromISR(o.kq, &v, &hp); break;
        case ISR_QUEUE_RECEIVE: (void)xQueueReceiveFromISR(o.kq, &v, &hp); break;
        case ISR_SEM_GIVE: (void)xSemaphoreGiveFromISR(o.ks, &hp); break;
        case ISR_SEM_TAKE: (void)xSemaphoreTakeFromISR(o.ks, &hp); break;
        case ISR_NOTIFY_GIVE: vTaskNotifyGiveFromISR(o.kself, &hp); break;
        }
    }
    isr_result.kernel = clk->stop() - empty;
    (void)rtipc_irq_yield(w || hp == pdTRUE);
}

static bool in_handler(rtipc_irq_t *irq, enum isr_op op, pair_t *p)
{
    int64_t before = rtipc_irq_count(irq);
    isr_op = op;
    if (rtipc_irq_trigger(irq) != 0)
        return false;
    /* On FreeRTOS the trigger returns after the handler ran (irq.h). */
    if (rtipc_irq_count(irq) == before)
        return false;
    *p = isr_result;
    return true;
}

static int fail(const char *what, int rc)
{
    printf("layer-cost: cannot %s (%d)\n", what, rc);
    return 1;
}

#ifdef __VERSION__
#define COMPILER __VERSION__
#else
#define COMPILER "unknown"
#endif
#if defined(configNUMBER_OF_CORES)
#define CORES configNUMBER_OF_CORES
#elif defined(portNUM_PROCESSORS)
#define CORES portNUM_PROCESSORS /* ESP-IDF's own SMP kernel */
#else
#define CORES 1
#endif

int layer_cost_run(const layer_cost_counter_t *counter)
{
    clk = counter;
    /* What the counts belong to (layer_cost.sh keeps baselines apart). */
    printf("layer-cost build: FreeRTOS %s, %u core(s), compiler %s, counting %s\n", tskKERNEL_VERSION_NUMBER,
           (unsigned)CORES, COMPILER, counter->unit);
    int rc;
    if ((rc = rtipc_queue_create(N, sizeof(uint32_t), &o.q)) != 0)
        return fail("create rtipc's queue", rc);
    if ((rc = rtipc_sem_create_counting(N, 0, &o.s)) != 0)
        return fail("create rtipc's semaphore", rc);
    if ((rc = rtipc_mutex_create(false, &o.m)) != 0)
        return fail("create rtipc's mutex", rc);
    if (!(o.self = rtipc_task_current()))
        return fail("adopt the running task", 0);
    o.kq = xQueueCreate(N, sizeof(uint32_t));
    o.ks = xSemaphoreCreateCounting(N, 0);
    o.km = xSemaphoreCreateMutex();
    o.kself = xTaskGetCurrentTaskHandle();
    if (!o.kq || !o.ks || !o.km)
        return fail("create the kernel's objects", 0);
    rtipc_irq_t *irq = NULL;
    if ((rc = rtipc_irq_create(0, isr, NULL, &irq)) != 0)
        return fail("create an interrupt source on core 0", rc);

    /* The empty interval, least of a few (a tick may fall into one). */
    empty = UINT64_MAX;
    for (int k = 0; k < LAYER_COST_REPEATS; k++) {
        clk->start();
        uint64_t e = clk->stop();
        empty = e < empty ? e : empty;
    }
    static const struct {
        const char *name;
        pair_t (*task)(void); /* in the task, or NULL: */
        enum isr_op isr;      /* in the handler */
    } ops[] = {
        {"queue-send", queue_send, 0},
        {"queue-receive", queue_receive, 0},
        {"sem-give", sem_give, 0},
        {"sem-take", sem_take, 0},
        {"notify-give", notify_give, 0},
        {"notify-take", notify_take, 0},
        {"mutex-lock+unlock", mutex_lock_unlock, 0},
        {"queue-send-from-isr", NULL, ISR_QUEUE_SEND},
        {"queue-receive-from-isr", NULL, ISR_QUEUE_RECEIVE},
        {"sem-give-from-isr", NULL, ISR_SEM_GIVE},
        {"sem-take-from-isr", NULL, ISR_SEM_TAKE},
        {"notify-give-from-isr", NULL, ISR_NOTIFY_GIVE},
    };
    /* Operations that fill run before those that empty, so each repeat
     * leaves the objects as it found them: the pairs above are in order. */
    pair_t best[sizeof ops / sizeof ops[0]];
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        best[k] = (pair_t){UINT64_MAX, UINT64_MAX};
    for (int rep = 0; rep < LAYER_COST_REPEATS; rep++) {
        for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
            pair_t p;
            if (ops[k].task)
                p = ops[k].task();
            else if (!in_handler(irq, ops[k].isr, &p))
                return fail("run the interrupt handler", 0);
            best[k].rtipc = p.rtipc < best[k].rtipc ? p.rtipc : best[k].rtipc;
            best[k].kernel = p.kernel < best[k].kernel ? p.kernel : best[k].kernel;
        }
        /* The notifications given from the handler, taken back. */
        (void)ulTaskNotifyTake(pdTRUE, 0);
    }
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        print(ops[k].name, best[k]);
    /* Nothing stays behind for what the firmware runs next. */
    (void)rtipc_irq_delete(irq);
    (void)rtipc_queue_delete(o.q);
    (void)rtipc_sem_delete(o.s);
    (void)rtipc_mutex_delete(o.m);
    vQueueDelete(o.kq);
    vSemaphoreDelete(o.ks);
    vSemaphoreDelete(o.km);
    printf("layer-cost done\n");
    return 0;
}
