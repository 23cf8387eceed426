/**
 * @file freertos_direct.h
 * @brief FreeRTOS direct mode: the hot calls as the kernel's own, in line.
 *
 * Only in a FreeRTOS build with RTIPC_DIRECT 1 (CMake's
 * RTIPC_FREERTOS_DIRECT, menuconfig's RTIPC_DIRECT); queue.h, sem.h and
 * notify.h include it then, and it is not meant to be included alone.
 * docs/porting.md ("Direct mode") says when to choose it; docs/performance.md
 * what it saves.
 *
 * In direct mode a queue or semaphore handle is the address of its kernel
 * object (its QueueHandle_t) and a task handle points at its TaskHandle_t,
 * so the calls below are the kernel's call, the argument checks and the
 * mapping of the kernel's result to rtipc's codes. Each keeps the contract
 * its header gives, except for what the default mode pays for and direct
 * mode does not check, in every call of the build (in line or not):
 * - a stale handle (of a deleted object, a joined task, a task whose entry
 *   returned) is not refused: using one is the caller's error, as a deleted
 *   kernel handle is in FreeRTOS;
 * - the calls below do not refuse an interrupt handler with RTIPC_ECONTEXT:
 *   a task-only call from a handler is the caller's error, as the kernel's
 *   own task-level call is (its configASSERT where it has one);
 * - a delete does not refuse an object that tasks wait in (RTIPC_EBUSY is
 *   then about queue-set membership only), as vQueueDelete does not;
 * - no wait spins before it blocks (spin.h): every wait blocks in the
 *   kernel at once, and rtipc_spin_stats counts nothing.
 * NULL handles and items, bad indexes and every timeout keep their codes.
 *
 * A call's name in parentheses, as in (rtipc_queue_send)(q, &v, t), calls
 * the library's out-of-line version, which behaves the same.
 */
#ifndef RTIPC_FREERTOS_DIRECT_H
#define RTIPC_FREERTOS_DIRECT_H

#include "rtipc/config.h"

#if RTIPC_DIRECT

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

#include "rtipc/error.h"
#include "rtipc/notify.h"
#include "rtipc/queue.h"
#include "rtipc/sem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* In line at every optimisation level: ESP-IDF builds with -Og by default,
 * which inlines nothing that is only "inline". */
#if defined(__GNUC__)
#define RTIPC__DIRECT_CALL static inline __attribute__((always_inline))
#else
#define RTIPC__DIRECT_CALL static inline
#endif

/* A finite timeout in ticks, rounded up (the port's time.c). */
TickType_t rtipc__ticks_finite(rtipc_timeout_t timeout);

RTIPC__DIRECT_CALL TickType_t rtipc__direct_ticks(rtipc_timeout_t t)
{
    if (rtipc_timeout_is_forever(t))
        return portMAX_DELAY;
    return rtipc_timeout_is_no_wait(t) ? 0 : rtipc__ticks_finite(t);
}

/* The kernel's "could not" for a wait of @p ticks: none asked, or it ran out. */
RTIPC__DIRECT_CALL int rtipc__direct_fail(TickType_t ticks) { return ticks == 0 ? RTIPC_EWOULDBLOCK : RTIPC_ETIMEDOUT; }

RTIPC__DIRECT_CALL void rtipc__direct_woken(BaseType_t hp, bool *woken)
{
    if (hp != pdFALSE && woken)
        *woken = true;
}

/* The kernel object a handle is (the wrapper starts with it). */
#define RTIPC__DIRECT_KQ(h) ((QueueHandle_t)(void *)(h))
/* The kernel task a task handle points at (the descriptor starts with it). */
#define RTIPC__DIRECT_KTASK(t) (*(TaskHandle_t *)(void *)(t))

/* ---- queues ---------------------------------------------------------------- */
RTIPC__DIRECT_CALL int rtipc__direct_queue_send(rtipc_queue_t *q, const void *item, rtipc_timeout_t timeout,
                                           BaseType_t pos)
{
    if (!q || !item)
        return RTIPC_EINVAL;
    TickType_t ticks = rtipc__direct_ticks(timeout);
    return xQueueGenericSend(RTIPC__DIRECT_KQ(q), item, ticks, pos) == pdPASS ? RTIPC_OK
                                                                                : rtipc__direct_fail(ticks);
}

RTIPC__DIRECT_CALL int rtipc__direct_queue_receive(rtipc_queue_t *q, void *item, rtipc_timeout_t timeout)
{
    if (!q || !item)
        return RTIPC_EINVAL;
    TickType_t ticks = rtipc__direct_ticks(timeout);
    return xQueueReceive(RTIPC__DIRECT_KQ(q), item, ticks) == pdPASS ? RTIPC_OK : rtipc__direct_fail(ticks);
}

RTIPC__DIRECT_CALL int rtipc__direct_queue_peek(rtipc_queue_t *q, void *item, rtipc_timeout_t timeout)
{
    if (!q || !item)
        return RTIPC_EINVAL;
    TickType_t ticks = rtipc__direct_ticks(timeout);
    return xQueuePeek(RTIPC__DIRECT_KQ(q), item, ticks) == pdPASS ? RTIPC_OK : rtipc__direct_fail(ticks);
}

RTIPC__DIRECT_CALL int rtipc__direct_queue_send_from_isr(rtipc_queue_t *q, const void *item, bool *woken,
                                                    BaseType_t pos)
{
    if (!q || !item)
        return RTIPC_EINVAL;
    BaseType_t hp = pdFALSE;
    BaseType_t ok = xQueueGenericSendFromISR(RTIPC__DIRECT_KQ(q), item, &hp, pos);
    rtipc__direct_woken(hp, woken);
    return ok == pdPASS ? RTIPC_OK : RTIPC_EWOULDBLOCK;
}

RTIPC__DIRECT_CALL int rtipc__direct_queue_receive_from_isr(rtipc_queue_t *q, void *item, bool *woken)
{
    if (!q || !item)
        return RTIPC_EINVAL;
    BaseType_t hp = pdFALSE;
    BaseType_t ok = xQueueReceiveFromISR(RTIPC__DIRECT_KQ(q), item, &hp);
    rtipc__direct_woken(hp, woken);
    return ok == pdPASS ? RTIPC_OK : RTIPC_EWOULDBLOCK;
}

/* ---- semaphores ------------------------------------------------------------ */
RTIPC__DIRECT_CALL int rtipc__direct_sem_give(rtipc_sem_t *s)
{
    if (!s)
        return RTIPC_EINVAL;
    return xSemaphoreGive(RTIPC__DIRECT_KQ(s)) == pdPASS ? RTIPC_OK : RTIPC_EOVERFLOW;
}

RTIPC__DIRECT_CALL int rtipc__direct_sem_take(rtipc_sem_t *s, rtipc_timeout_t timeout)
{
    if (!s)
        return RTIPC_EINVAL;
    TickType_t ticks = rtipc__direct_ticks(timeout);
    return xSemaphoreTake(RTIPC__DIRECT_KQ(s), ticks) == pdPASS ? RTIPC_OK : rtipc__direct_fail(ticks);
}

RTIPC__DIRECT_CALL int rtipc__direct_sem_give_from_isr(rtipc_sem_t *s, bool *woken)
{
    if (!s)
        return RTIPC_EINVAL;
    BaseType_t hp = pdFALSE;
    BaseType_t ok = xSemaphoreGiveFromISR(RTIPC__DIRECT_KQ(s), &hp);
    rtipc__direct_woken(hp, woken);
    return ok == pdPASS ? RTIPC_OK : RTIPC_EOVERFLOW;
}

RTIPC__DIRECT_CALL int rtipc__direct_sem_take_from_isr(rtipc_sem_t *s, bool *woken)
{
    if (!s)
        return RTIPC_EINVAL;
    BaseType_t hp = pdFALSE;
    BaseType_t ok = xSemaphoreTakeFromISR(RTIPC__DIRECT_KQ(s), &hp);
    rtipc__direct_woken(hp, woken);
    return ok == pdPASS ? RTIPC_OK : RTIPC_EWOULDBLOCK;
}

/* ---- task notifications ------------------------------------------------------ */
RTIPC__DIRECT_CALL int rtipc__direct_notify_give(rtipc_task_t *task, unsigned index)
{
    if (!task || index >= RTIPC_NOTIFY_SLOTS)
        return RTIPC_EINVAL;
    (void)xTaskNotifyGiveIndexed(RTIPC__DIRECT_KTASK(task), index); /* an increment always succeeds */
    return RTIPC_OK;
}

RTIPC__DIRECT_CALL int rtipc__direct_notify_give_from_isr(rtipc_task_t *task, unsigned index, bool *woken)
{
    if (!task || index >= RTIPC_NOTIFY_SLOTS)
        return RTIPC_EINVAL;
    BaseType_t hp = pdFALSE;
    vTaskNotifyGiveIndexedFromISR(RTIPC__DIRECT_KTASK(task), index, &hp);
    rtipc__direct_woken(hp, woken);
    return RTIPC_OK;
}

RTIPC__DIRECT_CALL int rtipc__direct_notify_take(unsigned index, bool clear, uint32_t *value, rtipc_timeout_t timeout)
{
    if (index >= RTIPC_NOTIFY_SLOTS)
        return RTIPC_EINVAL;
    if (!rtipc_timeout_is_forever(timeout))
        return (rtipc_notify_take)(index, clear, value, timeout); /* the time left is counted there */
    /* Woken by a notification that left the value 0: wait on (notify.h). */
    uint32_t v;
    do
        v = ulTaskNotifyTakeIndexed(index, clear ? pdTRUE : pdFALSE, portMAX_DELAY);
    while (v == 0);
    if (value)
        *value = v;
    return RTIPC_OK;
}

/* The public names, but not in the library's own definitions of them. */
#ifndef RTIPC__DEFINING_CALLS
#define rtipc_queue_send(q, item, timeout) rtipc__direct_queue_send((q), (item), (timeout), queueSEND_TO_BACK)
#define rtipc_queue_send_to_front(q, item, timeout) \
    rtipc__direct_queue_send((q), (item), (timeout), queueSEND_TO_FRONT)
#define rtipc_queue_receive(q, item, timeout) rtipc__direct_queue_receive((q), (item), (timeout))
#define rtipc_queue_peek(q, item, timeout) rtipc__direct_queue_peek((q), (item), (timeout))
#define rtipc_queue_send_from_isr(q, item, woken) \
    rtipc__direct_queue_send_from_isr((q), (item), (woken), queueSEND_TO_BACK)
#define rtipc_queue_send_to_front_from_isr(q, item, woken) \
    rtipc__direct_queue_send_from_isr((q), (item), (woken), queueSEND_TO_FRONT)
#define rtipc_queue_receive_from_isr(q, item, woken) rtipc__direct_queue_receive_from_isr((q), (item), (woken))
#define rtipc_sem_give(s) rtipc__direct_sem_give(s)
#define rtipc_sem_take(s, timeout) rtipc__direct_sem_take((s), (timeout))
#define rtipc_sem_give_from_isr(s, woken) rtipc__direct_sem_give_from_isr((s), (woken))
#define rtipc_sem_take_from_isr(s, woken) rtipc__direct_sem_take_from_isr((s), (woken))
#define rtipc_notify_give(task, index) rtipc__direct_notify_give((task), (index))
#define rtipc_notify_give_from_isr(task, index, woken) rtipc__direct_notify_give_from_isr((task), (index), (woken))
#define rtipc_notify_take(index, clear, value, timeout) rtipc__direct_notify_take((index), (clear), (value), (timeout))
#endif

#ifdef __cplusplus
}
#endif

#endif /* RTIPC_DIRECT */

#endif
