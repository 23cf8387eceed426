/* The kernel's calls of freertos_isr_notify.h, as a FreeRTOS user writes them.
 *
 * portYIELD_FROM_ISR inside rtipc's interrupt vector (the handler isr-handoff
 * and notify-modes raise is run by rtipc's vector on each board:
 * src/port/freertos/irq_*.c, or by the tick hook where a source's timer
 * follows the tick):
 * - Cortex-M: the macro pends PendSV, which runs once every interrupt has
 *   returned; valid anywhere in a handler.
 * - ESP-IDF (Xtensa): it marks the core for a switch that the interrupt's
 *   exit performs; valid anywhere in a handler.
 * - RV32 SMP port: it calls vTaskSwitchContext for this hart, whose context
 *   the trap's exit restores; valid in rtipc's vector. The tick hook runs
 *   inside the tick's critical section, where the SMP kernel forbids the
 *   switch (it asserts): there the macro is left out, and the switch that
 *   the FromISR call pended (xYieldPendings) is the tick's own, as
 *   rtipc_irq_yield does there.
 * - POSIX simulator: the macro is vPortYield, which switches threads at
 *   once, in the middle of the handler: rtipc's vector would stay open (its
 *   interrupt nesting count set, so other tasks would see interrupt
 *   context) while they run. The kernel's flag goes to rtipc_irq_yield
 *   instead, and rtipc's vector calls portYIELD_FROM_ISR(pdTRUE) at its
 *   end, as the simulator's own tick does. */
#include <stdlib.h>

#ifdef ESP_PLATFORM
#include "freertos/FreeRTOS.h"
#include "freertos/queue.h"
#include "freertos/task.h"
#else
#include "FreeRTOS.h"
#include "queue.h"
#include "task.h"
#endif

#include "freertos_isr_notify.h"
#include "rtipc/error.h"
#include "rtipc/irq.h"

#define YIELD_IN_HANDLER 1       /* portYIELD_FROM_ISR in the handler */
#define YIELD_OUTSIDE_TICK 2     /* the same, but not inside the tick's critical section */
#define YIELD_BY_RTIPC_VECTOR 3  /* the flag to rtipc_irq_yield; the vector yields */

#if defined(ESP_PLATFORM) || defined(__arm__)
#define YIELD_MODE YIELD_IN_HANDLER
#elif defined(__riscv) && defined(portGET_CRITICAL_NESTING_COUNT) && defined(configNUMBER_OF_CORES) && \
    configNUMBER_OF_CORES > 1
#define YIELD_MODE YIELD_OUTSIDE_TICK
#else
#define YIELD_MODE YIELD_BY_RTIPC_VECTOR
#endif

#if YIELD_MODE == YIELD_IN_HANDLER
#define YIELD_HOW "portYIELD_FROM_ISR(xHigherPriorityTaskWoken) in the handler, inside rtipc's vector " \
                  "(the port performs the switch once the interrupt returns)"
#elif YIELD_MODE == YIELD_OUTSIDE_TICK
#define YIELD_HOW "portYIELD_FROM_ISR(xHigherPriorityTaskWoken) in the handler, inside rtipc's vector " \
                  "(vTaskSwitchContext for this hart, restored at the trap's exit); in a handler the tick " \
                  "hook runs, inside the tick's critical section, the tick's own switch instead"
#else
#define YIELD_HOW "xHigherPriorityTaskWoken passed to rtipc_irq_yield, and rtipc's vector calls " \
                  "portYIELD_FROM_ISR(pdTRUE) at its end: the simulator's portYIELD_FROM_ISR switches " \
                  "threads at once, which inside rtipc's vector would leave the vector open while " \
                  "other tasks run"
#endif

static void yield_from_isr(BaseType_t xHigherPriorityTaskWoken)
{
#if YIELD_MODE == YIELD_IN_HANDLER
    portYIELD_FROM_ISR(xHigherPriorityTaskWoken);
#elif YIELD_MODE == YIELD_OUTSIDE_TICK
    if (portGET_CRITICAL_NESTING_COUNT(portGET_CORE_ID()) == 0)
        portYIELD_FROM_ISR(xHigherPriorityTaskWoken);
#else
    (void)rtipc_irq_yield(xHigherPriorityTaskWoken != pdFALSE);
#endif
}

/* ns -> ticks, rounded up, plus one; 0 stays 0 (never wait). */
static TickType_t ticks_of(int64_t ns)
{
    if (ns <= 0)
        return 0;
    uint64_t t = ((uint64_t)ns * (uint64_t)configTICK_RATE_HZ + 999999999u) / 1000000000u + 1u;
    return t >= (uint64_t)portMAX_DELAY ? portMAX_DELAY - 1 : (TickType_t)t;
}

static int nothing_came(int64_t timeout_ns) { return timeout_ns <= 0 ? RTIPC_EWOULDBLOCK : RTIPC_ETIMEDOUT; }

/* ---- the queue ---------------------------------------------------------- */

static int queue_create(unsigned depth, void **q)
{
    QueueHandle_t h = xQueueCreate((UBaseType_t)depth, sizeof(uint32_t));
    *q = h;
    return h ? RTIPC_OK : RTIPC_ENOMEM;
}

static void queue_delete(void *q) { vQueueDelete((QueueHandle_t)q); }

static int queue_send_from_isr(void *q, uint32_t seq, bool yield, bool *woken)
{
    BaseType_t xHigherPriorityTaskWoken = pdFALSE;
    BaseType_t ok = xQueueSendFromISR((QueueHandle_t)q, &seq, &xHigherPriorityTaskWoken);
    if (yield)
        yield_from_isr(xHigherPriorityTaskWoken);
    *woken = xHigherPriorityTaskWoken != pdFALSE;
    return ok == pdPASS ? RTIPC_OK : RTIPC_EWOULDBLOCK; /* errQUEUE_FULL */
}

static int queue_receive(void *q, uint32_t *seq, int64_t timeout_ns)
{
    return xQueueReceive((QueueHandle_t)q, seq, ticks_of(timeout_ns)) == pdPASS ? RTIPC_OK
                                                                                 : nothing_came(timeout_ns);
}

static int queue_waiting(void *q) { return (int)uxQueueMessagesWaiting((QueueHandle_t)q); }

static void task_yield(void) { taskYIELD(); }

/* ---- the direct notification (index 0, the default) ---------------------- */

static void *task_self(void) { return xTaskGetCurrentTaskHandle(); }

static int notify_give(void *task) { return xTaskNotifyGive((TaskHandle_t)task) == pdPASS ? RTIPC_OK : RTIPC_ESYSTEM; }

static int notify(void *task, uint32_t value, bench_kn_action_t action)
{
    eNotifyAction a = action == BENCH_KN_SET_BITS ? eSetBits
                      : action == BENCH_KN_OVERWRITE ? eSetValueWithOverwrite
                                                     : eSetValueWithoutOverwrite;
    if (xTaskNotify((TaskHandle_t)task, value, a) == pdPASS)
        return RTIPC_OK;
    /* Only eSetValueWithoutOverwrite fails: a value was pending. */
    return action == BENCH_KN_NO_OVERWRITE ? RTIPC_EPENDING : RTIPC_ESYSTEM;
}

static int notify_give_from_isr(void *task, bool *woken)
{
    BaseType_t xHigherPriorityTaskWoken = pdFALSE;
    vTaskNotifyGiveFromISR((TaskHandle_t)task, &xHigherPriorityTaskWoken);
    yield_from_isr(xHigherPriorityTaskWoken);
    *woken = xHigherPriorityTaskWoken != pdFALSE;
    return RTIPC_OK;
}

static int notify_take(bool clear, uint32_t *count, int64_t timeout_ns)
{
    *count = (uint32_t)ulTaskNotifyTake(clear ? pdTRUE : pdFALSE, ticks_of(timeout_ns));
    return *count != 0 ? RTIPC_OK : nothing_came(timeout_ns);
}

static int notify_wait(uint32_t clear_on_exit, uint32_t *value, int64_t timeout_ns)
{
    return xTaskNotifyWait(0, clear_on_exit, value, ticks_of(timeout_ns)) == pdPASS ? RTIPC_OK
                                                                                   : nothing_came(timeout_ns);
}

static const bench_fr_isr_notify_t calls = {
    .yield_how = YIELD_HOW,
    .queue_create = queue_create,
    .queue_delete = queue_delete,
    .queue_send_from_isr = queue_send_from_isr,
    .queue_receive = queue_receive,
    .queue_waiting = queue_waiting,
    .task_yield = task_yield,
    .task_self = task_self,
    .notify_give = notify_give,
    .notify = notify,
    .notify_give_from_isr = notify_give_from_isr,
    .notify_take = notify_take,
    .notify_wait = notify_wait,
};

const bench_fr_isr_notify_t *const bench_fr_isr_notify = &calls;
