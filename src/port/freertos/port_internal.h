/* Shared helpers of the FreeRTOS port: interrupt context, critical sections,
 * timeout conversion, allocation and the task descriptor.
 *
 * Every rtipc object of this port is a small wrapper around the FreeRTOS
 * object that implements it, created with the kernel's *Static API inside
 * rtipc's own memory (one pvPortMalloc block when created dynamically, the
 * caller's rtipc_*_static_t otherwise). */
#ifndef RTIPC_PORT_FREERTOS_INTERNAL_H
#define RTIPC_PORT_FREERTOS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ESP-IDF has the kernel's headers under freertos/ only; other builds put
 * the kernel's include directory itself on the path. */
#ifdef ESP_PLATFORM
#include "freertos/FreeRTOS.h"
#include "freertos/semphr.h"
#include "freertos/task.h"
#else
#include "FreeRTOS.h"
#include "semphr.h"
#include "task.h"
#endif

#include "common/handle.h"
#include "rtipc/config.h"
#include "rtipc/error.h"
#include "rtipc/ringbuf.h"
#include "rtipc/spin.h"
#include "rtipc/task.h"
#include "rtipc/time.h"

/* ---- kernel version ------------------------------------------------------------
 * Verified on V11.1.0+ (all of the calls below exist) and on V10.5.1, where
 * the port falls back as docs/porting.md ("Older kernels") describes. Before
 * V10.4 there are no indexed task notifications, which rtipc needs. */
#define RTIPC__KERNEL_AT_LEAST(maj, min) \
    (tskKERNEL_VERSION_MAJOR > (maj) || (tskKERNEL_VERSION_MAJOR == (maj) && tskKERNEL_VERSION_MINOR >= (min)))
#if !RTIPC__KERNEL_AT_LEAST(10, 4)
#error "rtipc's FreeRTOS port needs FreeRTOS V10.4 or later (indexed task notifications); V11.1 or later is the verified kernel"
#endif
/* uxTaskBasePriorityGet (V11.0): otherwise the base priority is the one rtipc
 * last set, kept in the task descriptor. */
#define RTIPC__HAVE_BASE_PRIORITY RTIPC__KERNEL_AT_LEAST(11, 0)
/* xQueueCreateSetStatic (released in V11.2; the development tree after V11.1.0
 * announces it with its trace hook): otherwise xQueueCreateSet allocates the
 * set from the kernel heap. */
#if RTIPC__KERNEL_AT_LEAST(11, 2) || defined(traceENTER_xQueueCreateSetStatic)
#define RTIPC__HAVE_QUEUE_SET_STATIC 1
#else
#define RTIPC__HAVE_QUEUE_SET_STATIC 0
#endif
/* xStreamBufferResetFromISR / xMessageBufferResetFromISR (V11.1): otherwise
 * a reset from an interrupt is refused with RTIPC_ENOTSUP. */
#define RTIPC__HAVE_BUFFER_RESET_FROM_ISR RTIPC__KERNEL_AT_LEAST(11, 1)
/* uxSemaphoreGetCountFromISR (V10.5): otherwise the interrupt-safe message
 * count of the semaphore's queue, which is what that macro expands to. */
#if !RTIPC__KERNEL_AT_LEAST(10, 5) && !defined(uxSemaphoreGetCountFromISR)
#define uxSemaphoreGetCountFromISR(xSemaphore) uxQueueMessagesWaitingFromISR((QueueHandle_t)(xSemaphore))
#endif
/* Single-core kernels before V11 do not know configNUMBER_OF_CORES. */
#if !defined(ESP_PLATFORM) && !defined(configNUMBER_OF_CORES)
#define configNUMBER_OF_CORES 1
#endif

/* ---- ESP-IDF (docs/porting.md, "ESP-IDF"; docs/esp32.md) ------------------ */
#ifdef ESP_PLATFORM
/* ESP-IDF's kernel is its own SMP variant: FreeRTOSConfig.h is generated from
 * menuconfig, so rtipc's hooks get their ESP-IDF defaults here. */
#ifndef configNUMBER_OF_CORES
#define configNUMBER_OF_CORES portNUM_PROCESSORS
#endif
#ifndef rtipcCONFIG_IN_INTERRUPT
#define rtipcCONFIG_IN_INTERRUPT() (xPortInIsrContext() != pdFALSE)
#endif
#if !defined(rtipcCONFIG_DEFAULT_STACK_WORDS) && defined(CONFIG_PTHREAD_TASK_STACK_SIZE_DEFAULT)
/* A task created with stack_size 0 gets ESP-IDF's own default for a thread
 * (menuconfig, 3 KiB unless changed), not configMINIMAL_STACK_SIZE: that is
 * the idle task's 1.5 KiB, which one newlib snprintf plus an interrupt's
 * frame on the task's stack overflows. */
#define rtipcCONFIG_DEFAULT_STACK_WORDS (CONFIG_PTHREAD_TASK_STACK_SIZE_DEFAULT / sizeof(StackType_t))
#endif
#ifndef rtipcCONFIG_TLS_INDEX
/* Index 0 is ESP-IDF's pthread layer's. */
#define rtipcCONFIG_TLS_INDEX 1
#endif
/* With TLS deletion callbacks ESP-IDF doubles configNUM_THREAD_LOCAL_STORAGE_POINTERS
 * (the upper half holds the callbacks): check the menuconfig count itself. */
#if defined(CONFIG_FREERTOS_THREAD_LOCAL_STORAGE_POINTERS) && \
    CONFIG_FREERTOS_THREAD_LOCAL_STORAGE_POINTERS <= rtipcCONFIG_TLS_INDEX
#error "rtipc on ESP-IDF needs CONFIG_FREERTOS_THREAD_LOCAL_STORAGE_POINTERS > rtipcCONFIG_TLS_INDEX (default 1): set it to 2 or more in menuconfig"
#endif
#endif

/* ---- Cortex-M (the cortex_m interrupt backend) ------------------------------ */
/* The kernel's ARM_CM* ports tell interrupt context from IPSR
 * (xPortIsInsideInterrupt, V10.2 and later). */
#if defined(RTIPC__CORTEX_M) && !defined(rtipcCONFIG_IN_INTERRUPT)
/* IPSR read in line: the kernel's function does the same behind a call, and
 * every rtipc call asks. */
static inline bool rtipc__cm_ipsr(void)
{
    uint32_t ipsr;
    __asm volatile("mrs %0, ipsr" : "=r"(ipsr)::"memory");
    return ipsr != 0;
}
#define rtipcCONFIG_IN_INTERRUPT() rtipc__cm_ipsr()
#endif

/* ---- what the application's FreeRTOSConfig.h must provide ------------------ */
#if configSUPPORT_STATIC_ALLOCATION != 1
#error "rtipc on FreeRTOS needs configSUPPORT_STATIC_ALLOCATION 1 (objects live in rtipc's memory)"
#endif
#if !defined(configUSE_MUTEXES) || configUSE_MUTEXES != 1 || !defined(configUSE_RECURSIVE_MUTEXES) || \
    configUSE_RECURSIVE_MUTEXES != 1 || !defined(configUSE_COUNTING_SEMAPHORES) || configUSE_COUNTING_SEMAPHORES != 1
#error "rtipc on FreeRTOS needs configUSE_MUTEXES, configUSE_RECURSIVE_MUTEXES and configUSE_COUNTING_SEMAPHORES set to 1"
#endif
#if !defined(INCLUDE_vTaskSuspend) || INCLUDE_vTaskSuspend != 1
#error "rtipc on FreeRTOS needs INCLUDE_vTaskSuspend 1 (RTIPC_FOREVER maps to portMAX_DELAY)"
#endif
#if !defined(INCLUDE_vTaskDelete) || INCLUDE_vTaskDelete != 1 || !defined(INCLUDE_uxTaskPriorityGet) || \
    INCLUDE_uxTaskPriorityGet != 1 || !defined(INCLUDE_vTaskPrioritySet) || INCLUDE_vTaskPrioritySet != 1 || \
    !defined(INCLUDE_vTaskDelay) || INCLUDE_vTaskDelay != 1 || \
    !defined(INCLUDE_xTaskGetSchedulerState) || INCLUDE_xTaskGetSchedulerState != 1 || \
    !defined(INCLUDE_xTaskGetCurrentTaskHandle) || INCLUDE_xTaskGetCurrentTaskHandle != 1 || \
    !defined(INCLUDE_xSemaphoreGetMutexHolder) || INCLUDE_xSemaphoreGetMutexHolder != 1
#error "rtipc on FreeRTOS needs INCLUDE_vTaskDelete, INCLUDE_uxTaskPriorityGet, INCLUDE_vTaskPrioritySet, INCLUDE_vTaskDelay, INCLUDE_xTaskGetSchedulerState, INCLUDE_xTaskGetCurrentTaskHandle and INCLUDE_xSemaphoreGetMutexHolder set to 1"
#endif

/* Thread-local storage pointer of each task that holds its rtipc descriptor. */
#ifndef rtipcCONFIG_TLS_INDEX
#define rtipcCONFIG_TLS_INDEX 0
#endif
/* (ESP-IDF's menuconfig count is checked above, by its own name: one
 * message, not two.) */
#if !defined(CONFIG_FREERTOS_THREAD_LOCAL_STORAGE_POINTERS) && \
    (!defined(configNUM_THREAD_LOCAL_STORAGE_POINTERS) || configNUM_THREAD_LOCAL_STORAGE_POINTERS <= rtipcCONFIG_TLS_INDEX)
#error "rtipc on FreeRTOS needs configNUM_THREAD_LOCAL_STORAGE_POINTERS > rtipcCONFIG_TLS_INDEX (default 0; 1 on ESP-IDF)"
#endif

/* The notification index rtipc keeps for itself (parking in the mailbox and
 * SPSC ring): the last one. The application's slots 0 .. RTIPC_NOTIFY_SLOTS-1
 * are FreeRTOS indexes 0 .. RTIPC_NOTIFY_SLOTS-1. */
#if !defined(configUSE_TASK_NOTIFICATIONS) || configUSE_TASK_NOTIFICATIONS != 1
#error "rtipc on FreeRTOS needs configUSE_TASK_NOTIFICATIONS 1"
#endif
#if configTASK_NOTIFICATION_ARRAY_ENTRIES < RTIPC_NOTIFY_SLOTS + 1
#if defined(CONFIG_FREERTOS_TASK_NOTIFICATION_ARRAY_ENTRIES)
#error "rtipc on ESP-IDF needs CONFIG_FREERTOS_TASK_NOTIFICATION_ARRAY_ENTRIES >= RTIPC_NOTIFY_SLOTS + 1 (4 with the default 3 slots; one index is rtipc's own): set it in menuconfig, Component config > FreeRTOS > Kernel"
#else
#error "rtipc on FreeRTOS needs configTASK_NOTIFICATION_ARRAY_ENTRIES >= RTIPC_NOTIFY_SLOTS + 1 (one index is rtipc's own)"
#endif
#endif
#define RTIPC__PARK_INDEX (configTASK_NOTIFICATION_ARRAY_ENTRIES - 1)

#if RTIPC_PRIORITY_LEVELS > configMAX_PRIORITIES
#error "RTIPC_PRIORITY_LEVELS must not exceed configMAX_PRIORITIES (rtipc priority p is FreeRTOS priority p)"
#endif

/* ---- interrupt context --------------------------------------------------------- */
/* A handler runs: the port's own test (rtipcCONFIG_IN_INTERRUPT), or the
 * bracket rtipc_freertos_isr_enter/exit counts per core (irq.c). On one
 * core a plain read, in line, since every call asks. */
#if configNUMBER_OF_CORES > 1
bool rtipc__in_isr(void);
#else
extern volatile uint32_t rtipc__irq_nesting[1];
static inline bool rtipc__in_isr(void)
{
#ifdef rtipcCONFIG_IN_INTERRUPT
    if (rtipcCONFIG_IN_INTERRUPT())
        return true;
#endif
    return rtipc__irq_nesting[0] != 0;
}
#endif

/* Task-level critical section. ESP-IDF's own SMP kernel takes a spinlock
 * argument (one lock for all of rtipc, defined in irq.c); other kernels none. */
#if defined(ESP_PLATFORM) && !defined(CONFIG_FREERTOS_SMP)
#define RTIPC__IDF_MUX 1
extern portMUX_TYPE rtipc__mux;
#define RTIPC__TASK_CRIT_ENTER() taskENTER_CRITICAL(&rtipc__mux)
#define RTIPC__TASK_CRIT_EXIT() taskEXIT_CRITICAL(&rtipc__mux)
#else
#define RTIPC__TASK_CRIT_ENTER() taskENTER_CRITICAL()
#define RTIPC__TASK_CRIT_EXIT() taskEXIT_CRITICAL()
#endif

/* A critical section usable from tasks and handlers alike. */
typedef struct {
    UBaseType_t saved;
    bool isr;
} rtipc__crit_t;

static inline rtipc__crit_t rtipc__enter(void)
{
    rtipc__crit_t c = {0, rtipc__in_isr()};
#ifdef RTIPC__IDF_MUX
    if (c.isr)
        taskENTER_CRITICAL_ISR(&rtipc__mux);
    else
        taskENTER_CRITICAL(&rtipc__mux);
#else
    if (c.isr)
        c.saved = taskENTER_CRITICAL_FROM_ISR();
    else
        taskENTER_CRITICAL();
#endif
    return c;
}

static inline void rtipc__exit(rtipc__crit_t c)
{
#ifdef RTIPC__IDF_MUX
    if (c.isr)
        taskEXIT_CRITICAL_ISR(&rtipc__mux);
    else
        taskEXIT_CRITICAL(&rtipc__mux);
#else
    if (c.isr)
        taskEXIT_CRITICAL_FROM_ISR(c.saved);
    else
        taskEXIT_CRITICAL();
#endif
}

/* pxHigherPriorityTaskWoken -> rtipc's woken flag (set only, never cleared). */
static inline void rtipc__woken(BaseType_t hp, bool *woken)
{
    if (hp != pdFALSE && woken)
        *woken = true;
}

/* ---- time --------------------------------------------------------------------- */
/* Ticks for a blocking kernel call: RTIPC_FOREVER -> portMAX_DELAY; a finite
 * timeout is rounded up to whole ticks plus one, since the current tick is
 * already partly over and the whole timeout must elapse; a duration beyond
 * the tick type waits forever, as time.h says of durations that overflow. */
TickType_t rtipc__ticks(rtipc_timeout_t timeout);

/* Tick count widened to 64 bits (it wraps in the kernel's TickType_t). */
uint64_t rtipc__tick_count64(void);

/* Map a kernel "could not complete" to the rtipc code for the timeout given. */
static inline int rtipc__fail(rtipc_timeout_t timeout)
{
    return rtipc_timeout_is_no_wait(timeout) ? RTIPC_EWOULDBLOCK : RTIPC_ETIMEDOUT;
}

/* ---- spin-then-park (spin.c) ------------------------------------------------
 * A blocking call spins before it blocks only on a multicore kernel that can
 * tell a task's core (configUSE_CORE_AFFINITY), whether another task is
 * ready (INCLUDE_eTaskGetState), and time a budget shorter than a tick
 * (rtipcCONFIG_CYCLES). Single-core kernels, ESP-IDF (its own SMP kernel and
 * affinity API) and kernels without those never spin: every wait blocks in
 * the kernel at once and every counter of rtipc_spin_stats stays 0. */
#if !defined(ESP_PLATFORM) && configNUMBER_OF_CORES > 1 && defined(configUSE_CORE_AFFINITY) && \
    configUSE_CORE_AFFINITY == 1 && defined(INCLUDE_eTaskGetState) && INCLUDE_eTaskGetState == 1 && \
    defined(rtipcCONFIG_CYCLES)
#define RTIPC__SPINS 1
#else
#define RTIPC__SPINS 0
#endif

/* Spin budgets as the setters take them: RTIPC_SPIN_DEFAULT or
 * 0 .. RTIPC_SPIN_MAX_NS. */
static inline bool rtipc__spin_ok(int64_t ns)
{
    return ns == RTIPC_SPIN_DEFAULT || (ns >= 0 && ns <= RTIPC_SPIN_MAX_NS);
}

/* The counters of rtipc_spin_stats_t a task's descriptor keeps (SMP). */
enum {
    RTIPC__STAT_SPINS,
    RTIPC__STAT_SPIN_WAKEUPS,
    RTIPC__STAT_SAME_CORE_PARKS,
    RTIPC__STAT_SLEEPS,
    RTIPC__STAT_WAKES, /* reported as futex_wakes: park gives wakers made */
    RTIPC__STAT_COUNT
};

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
 * reaches it through its thread-local storage pointer. */
struct rtipc__task {
    rtipc_task_t *id;        /* the handle it was given (closed when it is released) */
    uint32_t flags;
    volatile bool ended;     /* its entry returned: its kernel task is gone or going */
    TaskHandle_t handle;     /* the kernel's */
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

/* Drop @p t's watchdog subscription, if any (wdt.c): its task has ended or
 * is being deleted. Task context. */
void rtipc__wdt_forget(struct rtipc__task *t);

/* The descriptor of a FreeRTOS task, or NULL if it never used rtipc. Reads
 * the task's TLS: only for a task known to exist (NULL = the caller). */
struct rtipc__task *rtipc__task_of(TaskHandle_t handle);

/* The live descriptor whose task is @p handle, or NULL, found without
 * touching the task (which may have been deleted). Task or interrupt. */
struct rtipc__task *rtipc__task_find(TaskHandle_t handle);

/* Wrappers of kernel queues (queue, semaphore, mutex, a ring buffer's
 * member semaphore) share this head so that a queue set can map a kernel
 * member handle back to the rtipc handle it stands for, which the head
 * keeps (flags sit after waiters, in what would be padding on 64-bit). */
struct rtipc__qhead {
    uintptr_t handle; /* the rtipc object's handle (a ring buffer's, for its member) */
    StaticQueue_t cb; /* the kernel object; its handle is &cb */
    void *set;        /* the rtipc queue set it belongs to, or NULL */
    volatile uint32_t waiters; /* tasks inside a blocking call (delete -> EBUSY) */
    uint32_t flags;
    int64_t spin;
};

static inline QueueHandle_t rtipc__qhandle(struct rtipc__qhead *h) { return (QueueHandle_t)(void *)&h->cb; }

static inline struct rtipc__qhead *rtipc__qhead_of(void *kernel_handle)
{
    return (struct rtipc__qhead *)(void *)((unsigned char *)kernel_handle - offsetof(struct rtipc__qhead, cb));
}

#ifdef ESP_PLATFORM
/* ESP-IDF: a ring buffer is ESP-IDF's own (ringbuf_espidf.c) and joins a set
 * itself (xRingbufferAddToQueueSetRead), posting the address of its
 * StaticRingbuffer_t, which its wrapper keeps where struct rtipc__qhead
 * keeps cb. Join @p set (kernel set @p kernel_set, @p room events left):
 * 0 and *capacity, RTIPC_EINVAL (not live), RTIPC_EBUSY (items in it or out
 * of it, or in a set already) or RTIPC_EOVERFLOW (more than room). Leave:
 * 0 and *capacity, RTIPC_EINVAL (not live, or not in @p set) or
 * RTIPC_EBUSY. Task context; queueset.c keeps the set's counts. */
int rtipc__ringbuf_join(rtipc_ringbuf_t *rb, void *set, QueueSetHandle_t kernel_set, uint32_t room,
                           uint32_t *capacity);
int rtipc__ringbuf_leave(rtipc_ringbuf_t *rb, void *set, QueueSetHandle_t kernel_set, uint32_t *capacity);
#endif
/* Take the events @p member left in @p kernel_set (read without a select
 * before it left the set) out of the set, keeping the order of the others,
 * so that no select ever returns a member that left: its memory may be gone.
 * Task context, right after the member left the set (queueset.c). */
void rtipc__set_purge(QueueSetHandle_t kernel_set, QueueSetMemberHandle_t member);
/* A ring buffer's queue-set member (ringbuf.c): its counting semaphore and
 * the capacity it takes in a set, with 0, or RTIPC_EBUSY (items in it or
 * out of it; adding: in a set already; both outputs set), or RTIPC_EINVAL
 * (not a live ring buffer). */
int rtipc__ringbuf_member(rtipc_ringbuf_t *rb, bool adding, struct rtipc__qhead **member,
                             uint32_t *capacity);

/* The same for queues and semaphores (queue.c, sem.c): the member head of a
 * live handle and the capacity it takes in a set, or NULL. */
struct rtipc__qhead *rtipc__queue_member(const void *queue, uint32_t *capacity);
struct rtipc__qhead *rtipc__sem_member(const void *sem, uint32_t *capacity);

/* Open the handle of a wrapper whose kernel object was just created: the
 * handle (also kept in @p keep when non-NULL), or 0 when the table is full
 * (the caller undoes the kernel object: RTIPC_ENOMEM). */
static inline uintptr_t rtipc__open(void *obj, unsigned kind, uintptr_t *keep)
{
    uintptr_t h = rtipc__handle_open(obj, kind);
    if (keep != NULL)
        *keep = h;
    return h;
}

/* Waiter accounting: an object's delete is refused (RTIPC_EBUSY) while a
 * task is inside one of its blocking calls. A task with a descriptor says
 * so in it (`waiting_on`, one word the task alone writes, read by
 * rtipc__waited_on and rtipc_task_delete inside critical sections): no
 * critical section on the caller's path. Only a task without one (its
 * adoption found no memory) counts in the object's @p w instead, inside a
 * critical section. rtipc__wait_in returns what rtipc__wait_out takes. */
static inline struct rtipc__task *rtipc__wait_in(volatile uint32_t *w)
{
    struct rtipc__task *self = rtipc__self();
    if (self) {
        self->waiting_on = w;
    } else {
        RTIPC__TASK_CRIT_ENTER();
        *w += 1u;
        RTIPC__TASK_CRIT_EXIT();
    }
    return self;
}

static inline void rtipc__wait_out(struct rtipc__task *self, volatile uint32_t *w)
{
    if (self) {
        self->waiting_on = NULL;
    } else {
        RTIPC__TASK_CRIT_ENTER();
        *w -= 1u;
        RTIPC__TASK_CRIT_EXIT();
    }
}

/* Some task is inside a blocking call of the object whose counter is @p w:
 * the counter, then every live descriptor (task.c). Task context. */
bool rtipc__waited_on(const volatile uint32_t *w);

/* ---- spin-then-park: the calls (spin.c) -------------------------------------- */
#if RTIPC__SPINS
/* Spin until done(arg) returns true (then true), or until the budget runs
 * out or the rules below end the spin (false: the caller blocks). `setting`
 * is the object's (or the task's) budget, RTIPC_SPIN_DEFAULT for the global
 * one; `ticks` the caller's timeout in kernel ticks (0: no spin at all). The
 * rules (spin.h): the caller is pinned to one core (its kernel affinity),
 * the last task that woke it through rtipc ran on the other core, and no
 * other rtipc task that may run on the caller's core is ready to run
 * (checked at the start and every RTIPC__SPIN_RECHECK_NS). Task context,
 * scheduler running. `poll_gap` is the number of relax loops between two
 * calls of done (0 for a lock-free poll; more for one that takes a kernel
 * critical section, so that the waker is not kept off the kernel's lock). */
bool rtipc__spin_wait(struct rtipc__task *self, int64_t setting, TickType_t ticks, bool (*done)(void *arg),
                         void *arg, unsigned poll_gap);

/* Another rtipc-created task (not @p self) that may run on core @p core is
 * ready but not running: a spin there would keep it off the core (task.c). */
bool rtipc__core_wanted(const struct rtipc__task *self, UBaseType_t core);

/* A blocking receive (item), peek (item, peek) or take (item NULL) on the
 * kernel queue or semaphore of @p h with a timeout of @p ticks, before the
 * kernel's blocking call: spin on it where the rules allow; true when it got
 * what the call wanted while spinning. When the object is empty it counts
 * the sleep the caller then makes. Task context. */
bool rtipc__kq_spin(struct rtipc__qhead *h, void *item, bool peek, TickType_t ticks);

/* Add one to a counter of @p t (any context). */
void rtipc__stat_bump(struct rtipc__task *t, unsigned which);

/* The same inside a critical section the caller holds. */
static inline void rtipc__stat_bump_locked(struct rtipc__task *t, unsigned which) { t->stat[which]++; }

/* A wake of @p t through rtipc (a park give, a notification): from task
 * context, remember the waker's core (the same-core rule). */
static inline void rtipc__note_waker(struct rtipc__task *t)
{
    if (!rtipc__in_isr())
        t->waker_core = (int)portGET_CORE_ID() + 1;
}
#else
static inline bool rtipc__spin_wait(struct rtipc__task *self, int64_t setting, TickType_t ticks,
                                       bool (*done)(void *arg), void *arg, unsigned poll_gap)
{
    (void)self, (void)setting, (void)ticks, (void)done, (void)arg, (void)poll_gap;
    return false;
}
static inline bool rtipc__kq_spin(struct rtipc__qhead *h, void *item, bool peek, TickType_t ticks)
{
    (void)h, (void)item, (void)peek, (void)ticks;
    return false;
}
static inline void rtipc__stat_bump(struct rtipc__task *t, unsigned which) { (void)t, (void)which; }
static inline void rtipc__stat_bump_locked(struct rtipc__task *t, unsigned which) { (void)t, (void)which; }
static inline void rtipc__note_waker(struct rtipc__task *t) { (void)t; }
#endif

/* The tick count where a spin may follow (rtipc__ticks_left's start). */
static inline TickType_t rtipc__spin_start(void) { return RTIPC__SPINS ? xTaskGetTickCount() : 0; }

/* What remains of a timeout of @p ticks kernel ticks once the ticks since
 * @p start (rtipc__spin_start) have passed in a spin (portMAX_DELAY
 * stays forever; without spinning, all of it). */
static inline TickType_t rtipc__ticks_left(TickType_t ticks, TickType_t start)
{
    if (!RTIPC__SPINS || ticks == portMAX_DELAY || ticks == 0)
        return ticks;
    TickType_t spent = xTaskGetTickCount() - start;
    return spent >= ticks ? 0 : ticks - spent;
}

#endif
