/* The task descriptor of the FreeRTOS port (task.c): how a handle, a
 * kernel task and the running task find it, the waiter accounting that
 * lets a delete see who blocks in an object, and the hooks through which
 * objects let go of an ending or deleted task. */
#ifndef RTIPC_PORT_FREERTOS_TASK_INTERNAL_H
#define RTIPC_PORT_FREERTOS_TASK_INTERNAL_H

#include "spin.h"

/* ---- memory ------------------------------------------------------------------- */
#define RTIPC__DYNAMIC 0x1u

/* ---- tasks -------------------------------------------------------------------- */
#define RTIPC__TASK_CREATED 0x1u        /* by rtipc_task_create: joinable */
#define RTIPC__TASK_ADOPTED 0x2u        /* a task rtipc did not create */
#define RTIPC__TASK_CLAIMED 0x4u        /* a join is under way (critical section) */

struct rtipc__parked;
struct rtipc__bytebuf;

/* A task's descriptor. The application holds its handle (id: a slot of the
 * handle table, src/common/handle.h), never its address; the kernel task
 * reaches it through its thread-local storage pointer or the lookup table
 * keyed by its handle (task.c). */
struct rtipc__task {
    TaskHandle_t handle;     /* the kernel's; first, for direct mode's in-line calls */
    rtipc_task_t *id;        /* the handle it was given (closed when it is released) */
    uint32_t flags;
    volatile bool ended;     /* its entry returned: its kernel task is gone or going */
    struct rtipc__task *next_live;          /* list of live descriptors (task.c) */
    /* What the task is blocked in, so that a delete can see it (waiting_on:
     * written by the task alone, rtipc__wait_in) and rtipc_task_delete
     * take it out (the parking pair: set and cleared in critical sections): */
    volatile uint32_t *volatile waiting_on; /* the waiter counter of the object it blocks in */
    struct rtipc__parked *parked;       /* its node in a mailbox/SPSC list */
    struct rtipc__parked **parked_list; /* ... and that list */
    struct rtipc__bytebuf *in_bytebuf;  /* a stream/message buffer it may block in */
    bool in_bytebuf_writer;                /* ... on its writing side */
    struct rtipc__task *joining;        /* the task it waits for in rtipc_task_join */
    rtipc_task_fn entry;
    void *arg;
    int core;
#if !RTIPC__HAVE_BASE_PRIORITY
    volatile UBaseType_t base_priority; /* as rtipc last set it (no uxTaskBasePriorityGet) */
#endif
    int64_t notify_spin;
#if RTIPC__SPINS
    /* Spin-then-park (spin.c): core + 1 of the task that last woke it from
     * task context through rtipc (0: none yet), and its wait counters
     * (64 bits: changed and read in critical sections). */
    volatile int waker_core;
    uint64_t stat[RTIPC__STAT_COUNT];
#endif
    char name[16];
    StaticSemaphore_t done_cb; /* given when entry has returned */
    SemaphoreHandle_t done;
#if !RTIPC__PARK_ON_INDEX
    /* Parking in a mailbox or SPSC ring (park.h), where no notification
     * index is rtipc's own. */
    StaticSemaphore_t park_cb;
    SemaphoreHandle_t park;
#endif
    /* Task watchdog (wdt.c): the link and the flag are guarded by its list
     * lock; the stamps are read and written in critical sections (64 bits). */
    struct rtipc__task *wdt_next;
    volatile bool wdt_subscribed;
    volatile uint64_t wdt_last_reset; /* tick of the last rtipc_wdt_reset (or of the subscription) */
    uint64_t wdt_reported;   /* tick of its last trip report (the checker's) */
};

/* The descriptor a task handle names, or NULL for NULL, a closed handle (a
 * joined or deleted task) or a handle of another kind. A task whose entry
 * returned keeps its handle until it is joined. Any context; lock-free. */
static inline struct rtipc__task *rtipc__task_get(const rtipc_task_t *handle)
{
    return rtipc__handle_get(handle, RTIPC__H_TASK);
}

/* As rtipc__task_get, but NULL also once the task's entry has returned
 * (its kernel task is deleted): what the calls that act on a running task
 * (notifications, priorities, the watchdog) accept, as on Linux. */
static inline struct rtipc__task *rtipc__task_live(const rtipc_task_t *handle)
{
    struct rtipc__task *t = rtipc__task_get(handle);
    return t != NULL && !t->ended ? t : NULL;
}

/* The handle of a descriptor (NULL for NULL). */
static inline rtipc_task_t *rtipc__task_id(const struct rtipc__task *t) { return t ? t->id : NULL; }

/* The caller's descriptor, adopting the running FreeRTOS task on first use;
 * NULL if memory is exhausted (or called from a handler). */
struct rtipc__task *rtipc__self(void);

/* Create an rtipc task at a kernel priority, which may lie above
 * RTIPC_PRIORITY_LEVELS - 1 (the watchdog's monitor). As rtipc_task_create
 * otherwise; task context. */
int rtipc__task_create_at(const rtipc_task_config_t *cfg, UBaseType_t priority, rtipc_task_t **out);

/* Hooks through which objects let go of a task, so that task.c calls no
 * object by name. An object adds its hooks before the first task it tracks
 * may need them; adding the same hooks twice keeps one; at most
 * RTIPC__TASK_HOOKS sets. A hook may be NULL.
 * - ended: the task's rtipc life ends (its entry returned, it deletes
 *   itself, or its descriptor is released); task context, scheduler
 *   running, no critical section held: it may take the object's own lock
 *   (the watchdog drops a subscriber).
 * - deleted_blocked: another task deletes it while it may be blocked in
 *   the object; the scheduler is suspended (the stream and message buffers
 *   clear the kernel's record of their waiter). */
typedef struct {
    void (*ended)(struct rtipc__task *t);
    void (*deleted_blocked)(struct rtipc__task *t);
} rtipc__task_hooks_t;
enum { RTIPC__TASK_HOOKS = 4 };
void rtipc__task_hooks_add(const rtipc__task_hooks_t *hooks);

/* The descriptor of a FreeRTOS task, or NULL if it never used rtipc. Reads
 * the task's TLS pointer or the lookup table (task.c): only for a task known
 * to exist (NULL = the caller). */
struct rtipc__task *rtipc__task_of(TaskHandle_t handle);

/* The live descriptor whose task is @p handle, or NULL, found without
 * touching the task (which may have been deleted). Task or interrupt. */
struct rtipc__task *rtipc__task_find(TaskHandle_t handle);

/* Waiter accounting: an object's delete is refused (RTIPC_EBUSY) while a
 * task is inside one of its blocking calls. A task with a descriptor says
 * so in it (`waiting_on`, one word the task alone writes, read by
 * rtipc__waited_on and rtipc_task_delete inside critical sections): no
 * critical section on the caller's path. Only a task without one (its
 * adoption found no memory) counts in the object's @p w instead, inside a
 * critical section. rtipc__wait_in returns what rtipc__wait_out takes. */
static inline struct rtipc__task *rtipc__wait_in(volatile uint32_t *w)
{
#if RTIPC_DIRECT
    /* Direct mode: a delete does not look for waiters (freertos_direct.h). */
    (void)w;
    return NULL;
#else
    struct rtipc__task *self = rtipc__self();
    if (self) {
        self->waiting_on = w;
    } else {
        RTIPC__TASK_CRIT_ENTER();
        *w += 1u;
        RTIPC__TASK_CRIT_EXIT();
    }
    return self;
#endif
}

static inline void rtipc__wait_out(struct rtipc__task *self, volatile uint32_t *w)
{
#if RTIPC_DIRECT
    (void)self;
    (void)w;
#else
    if (self) {
        self->waiting_on = NULL;
    } else {
        RTIPC__TASK_CRIT_ENTER();
        *w -= 1u;
        RTIPC__TASK_CRIT_EXIT();
    }
#endif
}

/* Some task is inside a blocking call of the object whose counter is @p w:
 * the counter, then every live descriptor (task.c). Task context. */
bool rtipc__waited_on(const volatile uint32_t *w);

#endif
