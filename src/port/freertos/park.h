/* Parking for rtipc's own objects (mailbox, SPSC ring) on FreeRTOS: a task
 * that must wait links a node from its stack into the object's list inside a
 * critical section and blocks on its notification index
 * RTIPC__PARK_INDEX, or on its descriptor's binary semaphore where the
 * notification array has no index beyond the application's slots
 * (kernel_compat.h); a waker unlinks the node and gives that index or
 * semaphore, in the same kind of critical section (task or interrupt). A
 * give that arrives after the waiter gave up only makes its next park return
 * early: every parking loop checks its condition again. Both hold at most
 * one pending give that the next park takes. */
#ifndef RTIPC_PORT_FREERTOS_PARK_H
#define RTIPC_PORT_FREERTOS_PARK_H

#include "port_internal.h"

typedef struct rtipc__parked {
    TaskHandle_t task;
    struct rtipc__task *owner; /* the parked task's descriptor */
    struct rtipc__parked *next;
    uint64_t key; /* the object's own data (the mailbox: last version seen) */
    bool linked;
} rtipc__parked_t;

/* Inside a critical section. */
static inline void rtipc__park_link(rtipc__parked_t **head, rtipc__parked_t *n)
{
    if (n->linked)
        return;
    n->next = *head;
    *head = n;
    n->linked = true;
    n->owner->parked = n;
    n->owner->parked_list = head;
}

/* Inside a critical section. */
static inline void rtipc__park_unlink(rtipc__parked_t **head, rtipc__parked_t *n)
{
    for (rtipc__parked_t **p = head; *p; p = &(*p)->next) {
        if (*p == n) {
            *p = n->next;
            break;
        }
    }
    n->linked = false;
    n->owner->parked = NULL;
    n->owner->parked_list = NULL;
}

/* Between rtipc__wake_enter and _exit: unlink @p n and wake its task. */
static inline void rtipc__park_wake(rtipc__parked_t **head, rtipc__parked_t *n, bool isr, BaseType_t *hp)
{
    /* The waker's core and the give, in the woken task's counters: the
     * unlink below clears what tells rtipc_task_delete about the node, so
     * the descriptor is read first (it is live while the node is linked). */
    rtipc__note_waker(n->owner);
    rtipc__stat_bump_locked(n->owner, RTIPC__STAT_WAKES);
    rtipc__park_unlink(head, n);
    /* Braces: ESP-IDF's macro for the FromISR give ends in a semicolon. */
#if RTIPC__PARK_ON_INDEX
    if (isr) {
        vTaskNotifyGiveIndexedFromISR(n->task, RTIPC__PARK_INDEX, hp);
    } else {
        (void)xTaskNotifyGiveIndexed(n->task, RTIPC__PARK_INDEX);
    }
#else
    /* Read before the give: once given, the woken task may free its
     * descriptor. The give of a binary semaphore never blocks. */
    SemaphoreHandle_t park = n->owner->park;
    if (isr) {
        (void)xSemaphoreGiveFromISR(park, hp);
    } else {
        (void)xSemaphoreGive(park);
    }
#endif
}

/* The section a waker holds while it unlinks and gives. From a task the
 * scheduler is suspended as well: a readied task of higher priority must not
 * run (and park again on the same list) while the waker walks the list; it
 * runs when the waker resumes the scheduler. From a handler the FromISR
 * give never switches. */
static inline rtipc__crit_t rtipc__wake_enter(void)
{
    if (!rtipc__in_isr())
        vTaskSuspendAll();
    return rtipc__enter();
}

static inline void rtipc__wake_exit(rtipc__crit_t c)
{
    rtipc__exit(c);
    if (!c.isr)
        (void)xTaskResumeAll();
}

/* Block the caller (whose node is @p n) until woken or until *left ticks
 * have passed since @p since (updated by the kernel's own timeout helper).
 * Returns false once the time is up. */
static inline bool rtipc__park_sleep(rtipc__parked_t *n, TimeOut_t *since, TickType_t *left)
{
    if (xTaskCheckForTimeOut(since, left) != pdFALSE)
        return false;
    rtipc__stat_bump(n->owner, RTIPC__STAT_SLEEPS);
#if RTIPC__PARK_ON_INDEX
    (void)ulTaskNotifyTakeIndexed(RTIPC__PARK_INDEX, pdTRUE, *left);
#else
    (void)xSemaphoreTake(n->owner->park, *left);
#endif
    return true;
}

#endif
