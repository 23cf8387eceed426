/* Interrupt emulation internals shared by irq.c, tick.c, wait.c, task.c and
 * the objects' _from_isr calls. */
#ifndef RTIPC_POSIX_IRQ_INTERNAL_H
#define RTIPC_POSIX_IRQ_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu.h"
#include "wait.h"

struct rtipc__task;

/* In a _from_isr call, with the object lock held: pop the first waiter of
 * list (NULL if none). When the task must wait for this core's next
 * reschedule, it is marked deferred before it can see its wake-up. Pass the
 * result to rtipc__isr_release after unlocking. */
typedef struct {
    struct rtipc__task *task;
    bool deferred;
} rtipc__isr_wake_t;
rtipc__isr_wake_t rtipc__isr_wake_one(rtipc__waitlist_t *list);
/* The same for a chosen waiter w on list. */
rtipc__isr_wake_t rtipc__isr_wake(rtipc__waitlist_t *list, rtipc__waiter_t *w);

/* After unlocking: queue a deferred task on this core or release it now, and
 * set *woken (if not NULL) when it outranks the interrupted task. */
void rtipc__isr_release(rtipc__isr_wake_t wake, bool *woken);

/* Next tick boundary strictly after now (tick.c). */
int64_t rtipc__tick_next_boundary(int64_t now);

#endif
