/* The FreeRTOS kernel's calls that isr-handoff and notify-modes make
 * themselves, beside rtipc's, rather than through the mechanism table: a
 * handler's xQueueSendFromISR followed (or not) by portYIELD_FROM_ISR, and
 * the direct notification in each of the modes notify-modes measures.
 * Written in freertos_isr_notify.c as a FreeRTOS user writes them; the pointer
 * below is NULL where rtipc does not run on FreeRTOS
 * (freertos_isr_notify_absent.c), and nothing here needs a FreeRTOS header.
 *
 * Results are rtipc's codes, so that an experiment checks them as it checks
 * rtipc's: RTIPC_EWOULDBLOCK (a send from a handler found the queue full,
 * or nothing came without waiting), RTIPC_ETIMEDOUT (a wait ran out),
 * RTIPC_EPENDING (eSetValueWithoutOverwrite refused: one was pending),
 * RTIPC_ENOMEM. A timeout is in ns, 0 never waiting; it is rounded up to
 * whole ticks, plus one (a wait of n ticks can end up to a tick early). */
#ifndef BENCH_FREERTOS_ISR_NOTIFY_H
#define BENCH_FREERTOS_ISR_NOTIFY_H

#include <stdbool.h>
#include <stdint.h>

/* xTaskNotify's actions that notify-modes sends with. */
typedef enum { BENCH_KN_SET_BITS, BENCH_KN_OVERWRITE, BENCH_KN_NO_OVERWRITE } bench_kn_action_t;

typedef struct {
    /* How this port's handler issues portYIELD_FROM_ISR(xHigherPriorityTaskWoken)
     * from inside rtipc's interrupt vector (for the definitions and notes). */
    const char *yield_how;

    /* A queue of uint32_t (xQueueCreate / vQueueDelete). */
    int (*queue_create)(unsigned depth, void **q);
    void (*queue_delete)(void *q);
    /* In a handler: xQueueSendFromISR(q, &seq, &xHigherPriorityTaskWoken),
     * then, if @p yield, portYIELD_FROM_ISR(xHigherPriorityTaskWoken)
     * (yield_how says how on this port). *woken = xHigherPriorityTaskWoken. */
    int (*queue_send_from_isr)(void *q, uint32_t seq, bool yield, bool *woken);
    int (*queue_receive)(void *q, uint32_t *seq, int64_t timeout_ns);  /* xQueueReceive */
    int (*queue_waiting)(void *q);                                       /* uxQueueMessagesWaiting */
    /* taskYIELD(): the interrupted task's kernel call. */
    void (*task_yield)(void);

    /* The calling task's kernel handle (xTaskGetCurrentTaskHandle). */
    void *(*task_self)(void);
    int (*notify_give)(void *task);                                      /* xTaskNotifyGive */
    int (*notify)(void *task, uint32_t value, bench_kn_action_t action); /* xTaskNotify */
    /* In a handler: vTaskNotifyGiveFromISR, then portYIELD_FROM_ISR as above
     * (always: notify-modes' handler yields). */
    int (*notify_give_from_isr)(void *task, bool *woken);
    /* ulTaskNotifyTake(clear ? pdTRUE : pdFALSE): *count is what it returned. */
    int (*notify_take)(bool clear, uint32_t *count, int64_t timeout_ns);
    /* xTaskNotifyWait(0, clear_on_exit, value). */
    int (*notify_wait)(uint32_t clear_on_exit, uint32_t *value, int64_t timeout_ns);
} bench_fr_isr_notify_t;

/* The kernel's calls, or NULL where rtipc does not run on FreeRTOS. */
extern const bench_fr_isr_notify_t *const bench_fr_isr_notify;

#endif
