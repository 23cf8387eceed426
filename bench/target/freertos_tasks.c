/* The target seam's tasks on FreeRTOS (target.h): rtipc's tasks, and the
 * kernel's own (native) tasks that drive the kernel's mechanisms, so that a
 * kernel row is what a FreeRTOS user's program measures and needs nothing
 * of rtipc's port. FreeRTOS has no join: a native task gives a semaphore
 * when its entry returns, then suspends itself, and the joiner deletes it.
 * A task that never deletes itself can be deleted at any time, whether it
 * ended or is blocked for a message that was lost. */
#include <stdatomic.h>
#include <stdlib.h>

#ifdef ESP_PLATFORM
#include "freertos/FreeRTOS.h"
#include "freertos/semphr.h"
#include "freertos/task.h"
#include "sdkconfig.h"
#else
#include "FreeRTOS.h"
#include "semphr.h"
#include "task.h"
#endif

/* The core count under V11's name: single-core kernels before V11 lack
 * it, and ESP-IDF 5.1's calls it portNUM_PROCESSORS. */
#ifndef configNUMBER_OF_CORES
#ifdef portNUM_PROCESSORS
#define configNUMBER_OF_CORES portNUM_PROCESSORS
#else
#define configNUMBER_OF_CORES 1
#endif
#endif

/* A task asked for with no stack size gets what rtipc's port gives one:
 * the configuration's default, on ESP-IDF the pthread default (rtipc/task.h). */
#if !defined(rtipcCONFIG_DEFAULT_STACK_WORDS) && defined(CONFIG_PTHREAD_TASK_STACK_SIZE_DEFAULT)
#define rtipcCONFIG_DEFAULT_STACK_WORDS (CONFIG_PTHREAD_TASK_STACK_SIZE_DEFAULT / sizeof(StackType_t))
#endif

#include "rtipc/port_freertos.h"
#include "rtipc/rtipc.h"
#include "target.h"

struct bench_task {
    rtipc_task_t *rtipc;          /* an rtipc task, or NULL */
    TaskHandle_t handle;          /* a native task */
    SemaphoreHandle_t done;       /* given by the native task when its entry returned */
    StaticSemaphore_t done_storage;
    rtipc_task_fn entry;
    void *arg;
};

/* Native tasks that ended with an rtipc descriptor, not yet reported. */
static _Atomic unsigned strays;

static void native_entry(void *arg)
{
    bench_task_t *t = arg;
    t->entry(t->arg);
    if (rtipc_freertos_task_known() == 1)
        atomic_fetch_add_explicit(&strays, 1, memory_order_relaxed);
    /* The last touch of *t: the joiner may free it from here on. */
    (void)xSemaphoreGive(t->done);
    vTaskSuspend(NULL);
}

static int native_start(const bench_task_spec_t *spec, bench_task_t *t)
{
#if (defined(ESP_PLATFORM) && configNUMBER_OF_CORES > 1) || (configNUMBER_OF_CORES > 1 && configUSE_CORE_AFFINITY == 1)
    int cores = configNUMBER_OF_CORES;
#else
    int cores = 1;
#endif
    if (spec->core < 0 || spec->core >= cores || spec->priority >= (unsigned)configMAX_PRIORITIES)
        return RTIPC_EINVAL;
    /* The stack rtipc's port would ask for the same request, so that the
     * two kinds of rows run on alike tasks (bench_target_task_stack). */
    size_t words = spec->stack_bytes / sizeof(StackType_t);
#ifdef rtipcCONFIG_DEFAULT_STACK_WORDS
    if (spec->stack_bytes == 0)
        words = rtipcCONFIG_DEFAULT_STACK_WORDS;
#endif
    if (words < (size_t)configMINIMAL_STACK_SIZE)
        words = configMINIMAL_STACK_SIZE;
    if (words > (size_t)(configSTACK_DEPTH_TYPE)-1)
        return RTIPC_ENOMEM;
    t->entry = spec->entry;
    t->arg = spec->arg;
    t->done = xSemaphoreCreateBinaryStatic(&t->done_storage);
    const char *name = spec->name ? spec->name : "bench";
    BaseType_t ok;
#if defined(ESP_PLATFORM) && configNUMBER_OF_CORES > 1
    ok = xTaskCreatePinnedToCore(native_entry, name, (configSTACK_DEPTH_TYPE)words, t, spec->priority,
                                 &t->handle, spec->core);
#elif configNUMBER_OF_CORES > 1 && configUSE_CORE_AFFINITY == 1
    ok = xTaskCreateAffinitySet(native_entry, name, (configSTACK_DEPTH_TYPE)words, t, spec->priority,
                                (UBaseType_t)1 << spec->core, &t->handle);
#else
    ok = xTaskCreate(native_entry, name, (configSTACK_DEPTH_TYPE)words, t, spec->priority, &t->handle);
#endif
    if (ok != pdPASS) {
        vSemaphoreDelete(t->done);
        return RTIPC_ENOMEM; /* the kernel refuses a task only for want of heap */
    }
    return 0;
}

int bench_target_task_start(const bench_task_spec_t *spec, bench_task_t **out)
{
    if (!spec || !spec->entry || !out)
        return RTIPC_EINVAL;
    bench_task_t *t = calloc(1, sizeof *t);
    if (!t)
        return RTIPC_ENOMEM;
    int rc;
    if (spec->native) {
        rc = native_start(spec, t);
    } else {
        rtipc_task_config_t cfg = {.name = spec->name, .priority = spec->priority, .core = spec->core,
                                   .stack_size = spec->stack_bytes, .entry = spec->entry, .arg = spec->arg};
        rc = rtipc_task_create(&cfg, &t->rtipc);
    }
    if (rc != 0) {
        free(t);
        return rc;
    }
    *out = t;
    return 0;
}

static void native_free(bench_task_t *t)
{
    vTaskDelete(t->handle);
    vSemaphoreDelete(t->done);
    free(t);
}

int bench_target_task_join(bench_task_t *task)
{
    if (task->rtipc) {
        int rc = rtipc_task_join(task->rtipc);
        if (rc == 0)
            free(task);
        return rc;
    }
    (void)xSemaphoreTake(task->done, portMAX_DELAY);
    /* It gave and is about to suspend itself: a joiner that outranks it on
     * its core lets it get there. */
    while (eTaskGetState(task->handle) != eSuspended)
        vTaskDelay(1);
    native_free(task);
    return 0;
}

int bench_target_task_delete(bench_task_t *task)
{
    if (task->rtipc) {
        int rc = rtipc_task_delete(task->rtipc);
        if (rc == 0)
            free(task);
        return rc;
    }
    /* Ended (suspended), blocked or running: the kernel deletes it as it is;
     * it never deleted itself, so the handle is still its own. */
    native_free(task);
    return 0;
}

rtipc_task_t *bench_target_task_rtipc(const bench_task_t *task) { return task->rtipc; }

void *bench_target_task_kernel(const bench_task_t *task) { return task->rtipc ? NULL : task->handle; }

unsigned bench_target_native_strays(void) { return atomic_exchange_explicit(&strays, 0, memory_order_relaxed); }
