/* Tasks on FreeRTOS: one FreeRTOS task per rtipc task (xTaskCreate, or
 * xTaskCreateAffinitySet on an SMP kernel with core affinity, or
 * xTaskCreatePinnedToCore on ESP-IDF). A kernel task finds its rtipc
 * descriptor through thread-local storage pointer rtipcCONFIG_TLS_INDEX, or
 * where the configuration has none for rtipc, through a table keyed by its
 * task handle (kernel_compat.h). */
#include <stdatomic.h>
#include <string.h>

#include "common/task_lookup.h"
#include "park.h"
#include "bytebuf.h"
#include "port_internal.h"
#include "rtipc/port_freertos.h"

#if RTIPC__DESCRIPTOR_IN_TLS
struct rtipc__task *rtipc__task_of(TaskHandle_t handle)
{
    /* Cleared before a descriptor is released (trampoline, release's callers). */
    return pvTaskGetThreadLocalStoragePointer(handle, rtipcCONFIG_TLS_INDEX);
}

static bool reserve(void) { return true; }
static void unreserve(void) {}

static bool attach(TaskHandle_t handle, struct rtipc__task *t, bool reserved)
{
    (void)reserved;
    vTaskSetThreadLocalStoragePointer(handle, rtipcCONFIG_TLS_INDEX, t);
    return true;
}

/* Only a task's own pointer, or a deleted task's (gone with it). */
static void detach(TaskHandle_t handle, struct rtipc__task *t)
{
    (void)t;
    if (handle == NULL)
        vTaskSetThreadLocalStoragePointer(NULL, rtipcCONFIG_TLS_INDEX, NULL);
}
#else
/* Descriptors by kernel task handle: open addressing with linear probing.
 * Attach and detach write in critical sections; a task looks up its own
 * handle without one. That read is safe because a slot's value is written
 * before its key is published (release, paired with the lookup's acquire)
 * and a slot holding a task's handle changes only when that task is
 * detached, which happens on the task itself or once it is deleted. A
 * detached slot becomes a tombstone, so that no probe chain breaks under a
 * reader; the next attach on the chain reuses it. A task deleted by
 * vTaskDelete alone leaves its entry, which a later task at the same
 * address would take for its own: adopted tasks end with
 * rtipc_task_delete(NULL) (task.h). */
#ifndef rtipcCONFIG_TASK_LOOKUP_SLOTS
#define rtipcCONFIG_TASK_LOOKUP_SLOTS 64
#endif
#define LOOKUP_SLOTS ((size_t)rtipcCONFIG_TASK_LOOKUP_SLOTS)
_Static_assert((LOOKUP_SLOTS & (LOOKUP_SLOTS - 1)) == 0 && LOOKUP_SLOTS <= 65536,
               "rtipcCONFIG_TASK_LOOKUP_SLOTS must be a power of two, at most 65536");
#define TOMBSTONE ((TaskHandle_t)(uintptr_t)1) /* never a task handle: TCBs are aligned */

static struct {
    _Atomic(TaskHandle_t) key;
    struct rtipc__task *_Atomic value;
} lookup[LOOKUP_SLOTS];
/* Keys in the table, and slots promised to tasks being created (critical
 * sections): a task pinned to the other core may attach itself before its
 * creator does, so the creator makes sure of a slot before the task exists. */
static size_t lookup_used, lookup_reserved;

static bool reserve(void)
{
    rtipc__crit_t c = rtipc__enter();
    bool ok = lookup_used + lookup_reserved < LOOKUP_SLOTS;
    if (ok)
        lookup_reserved++;
    rtipc__exit(c);
    return ok;
}

static void unreserve(void)
{
    rtipc__crit_t c = rtipc__enter();
    lookup_reserved--;
    rtipc__exit(c);
}

static size_t home(TaskHandle_t handle)
{
    /* Fibonacci hashing of the TCB's address, its high product bits. */
    uint32_t x = (uint32_t)((uintptr_t)handle >> 3) * 2654435769u;
    return (size_t)(x >> 16) & (LOOKUP_SLOTS - 1);
}

struct rtipc__task *rtipc__task_of(TaskHandle_t handle)
{
    if (handle == NULL)
        handle = xTaskGetCurrentTaskHandle();
    size_t i = home(handle);
    for (size_t n = 0; n < LOOKUP_SLOTS; n++, i = (i + 1) & (LOOKUP_SLOTS - 1)) {
        /* acquire: pairs with attach's release of the key; the value is the
         * descriptor attached with it. */
        TaskHandle_t k = atomic_load_explicit(&lookup[i].key, memory_order_acquire);
        if (k == handle)
            return atomic_load_explicit(&lookup[i].value, memory_order_relaxed);
        if (k == NULL)
            break; /* the end of the chain: never attached */
    }
    return NULL;
}

/* Fails only when every slot is taken or promised, and never for a
 * @p reserved attach (its creator's reservation stays until unreserve). */
static bool attach(TaskHandle_t handle, struct rtipc__task *t, bool reserved)
{
    if (handle == NULL)
        handle = xTaskGetCurrentTaskHandle();
    bool done = false;
    rtipc__crit_t c = rtipc__enter();
    if (!reserved && lookup_used + lookup_reserved >= LOOKUP_SLOTS) {
        rtipc__exit(c);
        return false;
    }
    size_t i = home(handle), free_slot = LOOKUP_SLOTS;
    for (size_t n = 0; n < LOOKUP_SLOTS; n++, i = (i + 1) & (LOOKUP_SLOTS - 1)) {
        TaskHandle_t k = atomic_load_explicit(&lookup[i].key, memory_order_relaxed);
        if (k == handle) { /* attached already (trampoline and creator both attach) */
            atomic_store_explicit(&lookup[i].value, t, memory_order_relaxed);
            done = true;
            break;
        }
        if (k == TOMBSTONE && free_slot == LOOKUP_SLOTS)
            free_slot = i;
        if (k == NULL) {
            if (free_slot == LOOKUP_SLOTS)
                free_slot = i;
            break;
        }
    }
    if (!done && free_slot < LOOKUP_SLOTS) {
        atomic_store_explicit(&lookup[free_slot].value, t, memory_order_relaxed);
        /* release: publishes the value stored just above with the key. */
        atomic_store_explicit(&lookup[free_slot].key, handle, memory_order_release);
        lookup_used++;
        done = true;
    }
    rtipc__exit(c);
    return done;
}

/* Only the entry that still names @p t: the slot may belong to a newer task
 * at the same address by now. */
static void detach(TaskHandle_t handle, struct rtipc__task *t)
{
    if (handle == NULL)
        handle = xTaskGetCurrentTaskHandle();
    rtipc__crit_t c = rtipc__enter();
    size_t i = home(handle);
    for (size_t n = 0; n < LOOKUP_SLOTS; n++, i = (i + 1) & (LOOKUP_SLOTS - 1)) {
        TaskHandle_t k = atomic_load_explicit(&lookup[i].key, memory_order_relaxed);
        if (k == NULL)
            break;
        if (k == handle) {
            if (atomic_load_explicit(&lookup[i].value, memory_order_relaxed) == t) {
                atomic_store_explicit(&lookup[i].key, TOMBSTONE, memory_order_relaxed);
                lookup_used--;
            }
            break;
        }
    }
    rtipc__exit(c);
}
#endif

/* The descriptor's own parking semaphore, where no notification index is
 * rtipc's (park.h). */
static void park_init(struct rtipc__task *t)
{
#if !RTIPC__PARK_ON_INDEX
    t->park = xSemaphoreCreateBinaryStatic(&t->park_cb);
#else
    (void)t;
#endif
}

static void park_fini(struct rtipc__task *t)
{
#if !RTIPC__PARK_ON_INDEX
    vSemaphoreDelete(t->park);
#else
    (void)t;
#endif
}

/* Every live descriptor, so that a kernel handle (a mutex holder) can be
 * mapped to its descriptor without reading a possibly deleted task. */
static struct rtipc__task *live_tasks;

static void track(struct rtipc__task *t)
{
    rtipc__crit_t c = rtipc__enter();
    t->next_live = live_tasks;
    live_tasks = t;
    rtipc__exit(c);
}

static void untrack(struct rtipc__task *t)
{
    rtipc__crit_t c = rtipc__enter();
    for (struct rtipc__task **p = &live_tasks; *p; p = &(*p)->next_live) {
        if (*p == t) {
            *p = t->next_live;
            break;
        }
    }
    rtipc__exit(c);
}

struct rtipc__task *rtipc__task_find(TaskHandle_t handle)
{
    struct rtipc__task *found = NULL;
    rtipc__crit_t c = rtipc__enter();
    for (struct rtipc__task *t = live_tasks; t; t = t->next_live) {
        if (t->handle == handle) {
            found = t;
            break;
        }
    }
    rtipc__exit(c);
    return found;
}

#if RTIPC__SPINS
bool rtipc__core_wanted(const struct rtipc__task *self, UBaseType_t core)
{
    bool wanted = false;
    /* Only tasks rtipc created and whose entry has not returned: their
     * kernel task exists for as long as this critical section lasts (a
     * delete retires the descriptor with the scheduler suspended, which
     * holds the kernel's task lock on SMP, and an ending task sets `ended`
     * before it deletes itself). An adopted task may have been deleted by
     * the kernel's own call without rtipc knowing: it is not looked at. */
    rtipc__crit_t c = rtipc__enter();
    for (struct rtipc__task *t = live_tasks; t && !wanted; t = t->next_live) {
        if (t == self || !(t->flags & RTIPC__TASK_CREATED) || t->ended || !t->handle)
            continue;
        wanted = (vTaskCoreAffinityGet(t->handle) & ((UBaseType_t)1 << core)) != 0 &&
                 eTaskGetState(t->handle) == eReady;
    }
    rtipc__exit(c);
    return wanted;
}
#endif

bool rtipc__waited_on(const volatile uint32_t *w)
{
    RTIPC__TASK_CRIT_ENTER();
    bool waited = *w != 0;
    for (struct rtipc__task *t = live_tasks; t && !waited; t = t->next_live)
        waited = t->waiting_on == w;
    RTIPC__TASK_CRIT_EXIT();
    return waited;
}

static void copy_name(char dst[16], const char *src)
{
    size_t n = 0;
    if (!src)
        src = "task";
    for (; n < 15 && src[n]; ++n)
        dst[n] = src[n];
    dst[n] = '\0';
}

struct rtipc__task *rtipc__self(void)
{
    if (rtipc__in_isr() || xTaskGetSchedulerState() == taskSCHEDULER_NOT_STARTED)
        return NULL;
    struct rtipc__task *t = rtipc__task_of(NULL);
    if (t)
        return t;
    /* A task rtipc did not create: adopt it. */
    t = pvPortMalloc(sizeof *t);
    if (!t)
        return NULL;
    memset(t, 0, sizeof *t);
    t->flags = RTIPC__TASK_ADOPTED;
    t->handle = xTaskGetCurrentTaskHandle();
    t->core = RTIPC_CORE_ANY;
    t->notify_spin = RTIPC_SPIN_DEFAULT;
    copy_name(t->name, pcTaskGetName(NULL));
#if !RTIPC__HAVE_BASE_PRIORITY
    t->base_priority = uxTaskPriorityGet(NULL);
#endif
    t->id = (rtipc_task_t *)rtipc__handle_open(t, RTIPC__H_TASK);
    if (!t->id) {
        vPortFree(t); /* the handle table is full: as if out of memory */
        return NULL;
    }
    park_init(t);
    if (!attach(NULL, t, false)) {
        /* The lookup table is full: as if out of memory. */
        rtipc__handle_close((uintptr_t)t->id);
        park_fini(t);
        vPortFree(t);
        return NULL;
    }
    track(t);
    return t;
}

/* Take a descriptor off the live list and close its handle: from here on no
 * call reaches it. Critical sections only (the scheduler may be suspended). */
static void retire(struct rtipc__task *t)
{
    if (t->handle) /* none if its creation failed */
        detach(t->handle, t);
    untrack(t);
    rtipc__handle_close((uintptr_t)t->id);
}

/* ---- hooks (task_internal.h) ---------------------------------------------- */
static const rtipc__task_hooks_t *hooks[RTIPC__TASK_HOOKS];

void rtipc__task_hooks_add(const rtipc__task_hooks_t *add)
{
    bool added = false;
    RTIPC__TASK_CRIT_ENTER();
    for (int i = 0; i < RTIPC__TASK_HOOKS && !added; i++) {
        if (hooks[i] == NULL)
            hooks[i] = add;
        added = hooks[i] == add;
    }
    RTIPC__TASK_CRIT_EXIT();
    configASSERT(added); /* more sets than slots: the port's own mistake */
}

/* The hooks as they are now, copied in a critical section (one may be
 * added meanwhile), then called outside it. */
static void run_hooks(struct rtipc__task *t, bool deleted_blocked)
{
    const rtipc__task_hooks_t *now[RTIPC__TASK_HOOKS];
    RTIPC__TASK_CRIT_ENTER();
    for (int i = 0; i < RTIPC__TASK_HOOKS; i++)
        now[i] = hooks[i];
    RTIPC__TASK_CRIT_EXIT();
    for (int i = 0; i < RTIPC__TASK_HOOKS && now[i]; i++) {
        void (*hook)(struct rtipc__task *) = deleted_blocked ? now[i]->deleted_blocked : now[i]->ended;
        if (hook)
            hook(t);
    }
}

/* Free a retired descriptor. */
static void dispose(struct rtipc__task *t)
{
    run_hooks(t, false); /* a watchdog subscription ends with its task */
    if (t->flags & RTIPC__TASK_CREATED)
        vSemaphoreDelete(t->done);
    park_fini(t);
    vPortFree(t);
}

static void release(struct rtipc__task *t)
{
    run_hooks(t, false); /* before the handle closes, as the watchdog expects */
    retire(t);
    dispose(t);
}

static void trampoline(void *arg)
{
    struct rtipc__task *t = arg;
#ifdef ESP_PLATFORM
    /* ESP-IDF's vTaskSuspendAll holds only the creator's core: a task pinned
     * to the other core may start before the creator attached its descriptor
     * (the creator made sure a lookup slot is there for it). */
    (void)attach(NULL, t, true);
#endif
    t->entry(t->arg);
    t->ended = true; /* the calls on a running task refuse it from now on */
    run_hooks(t, false); /* it has ended, as on Linux; not at the join */
    /* Detach from the descriptor before the joiner may free it. */
    detach(NULL, t);
    xSemaphoreGive(t->done);
    vTaskDelete(NULL);
}

int rtipc_task_create(const rtipc_task_config_t *cfg, rtipc_task_t **out)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!cfg || cfg->priority >= RTIPC_PRIORITY_LEVELS)
        return RTIPC_EINVAL;
    return rtipc__task_create_at(cfg, cfg->priority, out);
}

int rtipc__task_create_at(const rtipc_task_config_t *cfg, UBaseType_t priority, rtipc_task_t **out)
{
    if (!cfg || !out || !cfg->entry || priority >= (UBaseType_t)configMAX_PRIORITIES)
        return RTIPC_EINVAL;
    /* A pin needs an SMP kernel with core affinity; otherwise only core 0
     * (the one core the task runs on) or RTIPC_CORE_ANY is valid. */
#if (defined(ESP_PLATFORM) && configNUMBER_OF_CORES > 1) || (configNUMBER_OF_CORES > 1 && configUSE_CORE_AFFINITY == 1)
    int pinnable = configNUMBER_OF_CORES;
#else
    int pinnable = 1;
#endif
    if (cfg->core != RTIPC_CORE_ANY && (cfg->core < 0 || cfg->core >= pinnable))
        return RTIPC_EINVAL;
    struct rtipc__task *t = pvPortMalloc(sizeof *t);
    if (!t)
        return RTIPC_ENOMEM;
    memset(t, 0, sizeof *t);
    t->flags = RTIPC__TASK_CREATED;
    t->entry = cfg->entry;
    t->arg = cfg->arg;
    t->core = cfg->core;
    t->notify_spin = RTIPC_SPIN_DEFAULT;
    copy_name(t->name, cfg->name);
#if !RTIPC__HAVE_BASE_PRIORITY
    t->base_priority = priority;
#endif
    t->done = xSemaphoreCreateBinaryStatic(&t->done_cb);
    park_init(t);
    /* Opened before the task exists, so that it can use its own handle at
     * once; a full table is refused as a want of memory. */
    t->id = (rtipc_task_t *)rtipc__handle_open(t, RTIPC__H_TASK);
    if (!t->id) {
        vSemaphoreDelete(t->done);
        park_fini(t);
        vPortFree(t);
        return RTIPC_ENOMEM;
    }

    size_t words = cfg->stack_size / sizeof(StackType_t);
#ifdef rtipcCONFIG_DEFAULT_STACK_WORDS
    if (cfg->stack_size == 0)
        words = rtipcCONFIG_DEFAULT_STACK_WORDS;
#endif
    if (words < (size_t)configMINIMAL_STACK_SIZE)
        words = configMINIMAL_STACK_SIZE;
    if (words > (size_t)UINT32_MAX || words > (size_t)(configSTACK_DEPTH_TYPE)-1) {
        /* More than the kernel's depth type holds (16 bits before V11): it
         * would wrap to a small stack. */
        release(t);
        return RTIPC_ENOMEM;
    }

    if (!reserve()) {
        /* No lookup slot left for another task: as if out of memory. */
        release(t);
        return RTIPC_ENOMEM;
    }
    /* Suspend the scheduler so the task cannot run before its descriptor is
     * attached to it. */
    vTaskSuspendAll();
    BaseType_t ok;
#if defined(ESP_PLATFORM) && configNUMBER_OF_CORES > 1
    BaseType_t core_id = cfg->core == RTIPC_CORE_ANY ? tskNO_AFFINITY : (BaseType_t)cfg->core;
    ok = xTaskCreatePinnedToCore(trampoline, t->name, (configSTACK_DEPTH_TYPE)words, t, priority, &t->handle,
                                 core_id);
#elif configNUMBER_OF_CORES > 1 && configUSE_CORE_AFFINITY == 1
    UBaseType_t mask = cfg->core == RTIPC_CORE_ANY ? tskNO_AFFINITY : ((UBaseType_t)1 << cfg->core);
    ok = xTaskCreateAffinitySet(trampoline, t->name, (configSTACK_DEPTH_TYPE)words, t, priority, mask,
                                &t->handle);
#else
    ok = xTaskCreate(trampoline, t->name, (configSTACK_DEPTH_TYPE)words, t, priority, &t->handle);
#endif
    if (ok == pdPASS) {
        (void)attach(t->handle, t, true);
        track(t);
    }
    unreserve();
    (void)xTaskResumeAll();
    if (ok != pdPASS) {
        release(t);
        /* The kernel refuses a task only for want of heap. */
        return RTIPC_ENOMEM;
    }
    *out = t->id;
    return RTIPC_OK;
}

int rtipc_task_join(rtipc_task_t *handle)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__task *task = rtipc__task_get(handle);
    if (!task || !(task->flags & RTIPC__TASK_CREATED))
        return RTIPC_EINVAL;
    struct rtipc__task *self = rtipc__task_of(NULL);
    if (task == self)
        return RTIPC_EDEADLOCK;
    /* One join at a time: a second joiner would wait on a semaphore the
     * first one deletes. A joiner that is deleted gives its claim back
     * (rtipc_task_delete), so another task can still join. */
    rtipc__crit_t c = rtipc__enter();
    bool claimed = (task->flags & RTIPC__TASK_CLAIMED) != 0;
    if (!claimed) {
        task->flags |= RTIPC__TASK_CLAIMED;
        if (self)
            self->joining = task;
    }
    rtipc__exit(c);
    if (claimed)
        return RTIPC_EINVAL;
    (void)xSemaphoreTake(task->done, portMAX_DELAY);
    c = rtipc__enter();
    if (self)
        self->joining = NULL;
    rtipc__exit(c);
    release(task);
    return RTIPC_OK;
}

int rtipc_task_delete(rtipc_task_t *handle)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__task *self = rtipc__task_of(NULL);
    struct rtipc__task *task = handle ? rtipc__task_get(handle) : NULL;
    if (handle == NULL || (task != NULL && task == self)) {
        if (self) {
            run_hooks(self, false); /* may take the watchdog's lock: first */
            detach(NULL, self);
            vTaskSuspendAll(); /* no join starts between the check and the release */
            RTIPC__TASK_CRIT_ENTER();
            bool claimed = (self->flags & RTIPC__TASK_CLAIMED) != 0;
            RTIPC__TASK_CRIT_EXIT();
            if (claimed) {
                /* A task waits in rtipc_task_join: it ends as if entry had
                 * returned, and the joiner releases it. */
                self->ended = true;
                (void)xSemaphoreGive(self->done);
            } else {
                release(self);
            }
            (void)xTaskResumeAll();
        }
        vTaskDelete(NULL);
        for (;;) {
        } /* not reached */
    }
    /* FreeRTOS deletes at once, wherever the target is (docs/porting.md). If
     * its entry had already returned it is deleting itself: only release.
     * Looked up again with the scheduler suspended, and retired before it
     * resumes: a concurrent delete or join then finds the handle closed. */
    vTaskSuspendAll();
    task = rtipc__task_get(handle);
    RTIPC__TASK_CRIT_ENTER();
    bool refused = !task || !(task->flags & RTIPC__TASK_CREATED) || (task->flags & RTIPC__TASK_CLAIMED) != 0;
    RTIPC__TASK_CRIT_EXIT();
    if (refused) {
        /* Not ours to end, or another task joins it and will release it. */
        (void)xTaskResumeAll();
        return RTIPC_EINVAL;
    }
    if (uxSemaphoreGetCount(task->done) == 0) {
        /* Take it out of what it waits in, so the object can still be
         * deleted and no list keeps a node from its stack. */
        RTIPC__TASK_CRIT_ENTER();
        task->waiting_on = NULL;
        if (task->parked)
            rtipc__park_unlink(task->parked_list, task->parked);
        if (task->joining) /* its join ends unfinished: another may join */
            task->joining->flags &= ~RTIPC__TASK_CLAIMED;
        RTIPC__TASK_CRIT_EXIT();
        run_hooks(task, true); /* a stream or message buffer it blocks in */
        vTaskDelete(task->handle);
    }
    retire(task);
    (void)xTaskResumeAll();
    dispose(task); /* may block on the watchdog's lock: not suspended */
    return RTIPC_OK;
}

rtipc_task_t *rtipc_task_current(void) { return rtipc__task_id(rtipc__self()); }

int rtipc_freertos_task_known(void)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    return rtipc__task_of(NULL) != NULL;
}

int rtipc_task_delay(rtipc_timeout_t timeout)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!rtipc__self())
        return RTIPC_ENOMEM;
    if (rtipc_timeout_is_forever(timeout)) {
        for (;;)
            vTaskDelay(portMAX_DELAY);
    }
    if (!rtipc_timeout_is_no_wait(timeout))
        vTaskDelay(rtipc__ticks(timeout));
    return RTIPC_OK;
}

int rtipc_task_yield(void)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    taskYIELD();
    return RTIPC_OK;
}

int rtipc_task_priority(const rtipc_task_t *handle)
{
    struct rtipc__task *task = rtipc__task_live(handle);
    if (!task)
        return RTIPC_EINVAL;
#if RTIPC__HAVE_BASE_PRIORITY
    return (int)uxTaskBasePriorityGet(task->handle);
#else
    return (int)task->base_priority;
#endif
}

int rtipc_task_effective_priority(const rtipc_task_t *handle)
{
    struct rtipc__task *task = rtipc__task_live(handle);
    if (!task)
        return RTIPC_EINVAL;
    return rtipc__in_isr() ? (int)uxTaskPriorityGetFromISR(task->handle) : (int)uxTaskPriorityGet(task->handle);
}

int rtipc_task_set_priority(rtipc_task_t *handle, unsigned priority)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (priority >= RTIPC_PRIORITY_LEVELS)
        return RTIPC_EINVAL;
    struct rtipc__task *task;
    if (!handle) {
        if (!(task = rtipc__self()))
            return RTIPC_ENOMEM;
    } else if (!(task = rtipc__task_live(handle))) {
        return RTIPC_EINVAL;
    }
#if !RTIPC__HAVE_BASE_PRIORITY
    task->base_priority = priority;
#endif
    vTaskPrioritySet(task->handle, priority); /* the kernel keeps an inherited priority */
    return RTIPC_OK;
}

void *rtipc__port_task_live(const rtipc_task_t *handle) { return rtipc__task_live(handle); }
const char *rtipc__port_task_name(const void *task) { return ((const struct rtipc__task *)task)->name; }
int rtipc__port_task_core(const void *task) { return ((const struct rtipc__task *)task)->core; }

rtipc_sched_policy_t rtipc_sched_policy(void) { return RTIPC_SCHED_FIFO; }

const char *rtipc_sched_policy_describe(void)
{
#if configUSE_PREEMPTION == 1
    return "FreeRTOS (fixed-priority preemptive)";
#else
    return "FreeRTOS (cooperative)";
#endif
}

int rtipc_core_count(void) { return configNUMBER_OF_CORES; }
