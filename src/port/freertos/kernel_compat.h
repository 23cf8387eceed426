/* The FreeRTOS port against the kernel it is built with: the kernel's
 * headers (ESP-IDF's path or the plain one), the version and configuration
 * rtipc needs (each missing piece an #error naming the setting), the
 * ESP-IDF and Cortex-M specifics, and timeouts in kernel ticks. */
#ifndef RTIPC_PORT_FREERTOS_KERNEL_COMPAT_H
#define RTIPC_PORT_FREERTOS_KERNEL_COMPAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The port's sources define the calls that direct mode puts in line
 * (rtipc/freertos_direct.h): its macros must not rename them here. */
#define RTIPC__DEFINING_CALLS 1

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
#if !defined(rtipcCONFIG_TLS_INDEX) && defined(CONFIG_FREERTOS_THREAD_LOCAL_STORAGE_POINTERS) && \
    CONFIG_FREERTOS_THREAD_LOCAL_STORAGE_POINTERS > 1
/* Index 0 is ESP-IDF's pthread layer's: rtipc takes index 1 where
 * menuconfig gives two or more; with ESP-IDF's default of one it finds
 * descriptors by task handle (task.c). */
#define rtipcCONFIG_TLS_INDEX 1
#endif
/* With TLS deletion callbacks ESP-IDF doubles configNUM_THREAD_LOCAL_STORAGE_POINTERS
 * (the upper half holds the callbacks): the menuconfig count is the one to check. */
#ifdef CONFIG_FREERTOS_THREAD_LOCAL_STORAGE_POINTERS
#define RTIPC__TLS_POINTERS CONFIG_FREERTOS_THREAD_LOCAL_STORAGE_POINTERS
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

/* ---- where a task's descriptor is found (task.c) -------------------------------
 * A thread-local storage pointer where the configuration has one for rtipc
 * (rtipcCONFIG_TLS_INDEX; by default index 0, or 1 on ESP-IDF, whose
 * pthread layer holds index 0); otherwise, or with rtipcCONFIG_TLS_INDEX
 * set to -1, a table keyed by the kernel's task handle. The pointer is one
 * load; the table a few more. */
#ifndef RTIPC__TLS_POINTERS
#ifdef configNUM_THREAD_LOCAL_STORAGE_POINTERS
#define RTIPC__TLS_POINTERS configNUM_THREAD_LOCAL_STORAGE_POINTERS
#else
#define RTIPC__TLS_POINTERS 0
#endif
#endif
#if !defined(rtipcCONFIG_TLS_INDEX) && !defined(ESP_PLATFORM) && RTIPC__TLS_POINTERS > 0
#define rtipcCONFIG_TLS_INDEX 0
#endif
#if !defined(rtipcCONFIG_TLS_INDEX) || rtipcCONFIG_TLS_INDEX < 0
#define RTIPC__DESCRIPTOR_IN_TLS 0
#elif RTIPC__TLS_POINTERS <= rtipcCONFIG_TLS_INDEX
#ifdef CONFIG_FREERTOS_THREAD_LOCAL_STORAGE_POINTERS
#error "rtipcCONFIG_TLS_INDEX names a thread-local storage pointer that CONFIG_FREERTOS_THREAD_LOCAL_STORAGE_POINTERS does not give: raise the count in menuconfig, or leave rtipcCONFIG_TLS_INDEX undefined"
#else
#error "rtipcCONFIG_TLS_INDEX names a thread-local storage pointer that configNUM_THREAD_LOCAL_STORAGE_POINTERS does not give: raise the count, or leave rtipcCONFIG_TLS_INDEX undefined"
#endif
#else
#define RTIPC__DESCRIPTOR_IN_TLS 1
#endif

/* ---- notifications and parking ----------------------------------------------
 * The application's slots 0 .. RTIPC_NOTIFY_SLOTS-1 are the kernel's
 * notification indexes 0 .. RTIPC_NOTIFY_SLOTS-1. rtipc's own objects that
 * park a task (mailbox, SPSC ring: park.h) use the last index where the
 * array has one beyond the slots; otherwise each descriptor's own binary
 * semaphore. (The ESP-IDF component sizes RTIPC_NOTIFY_SLOTS from
 * menuconfig's array: 3 slots and the index with 4 entries or more, one
 * slot per entry below that.) */
#if !defined(configUSE_TASK_NOTIFICATIONS) || configUSE_TASK_NOTIFICATIONS != 1
#error "rtipc on FreeRTOS needs configUSE_TASK_NOTIFICATIONS 1"
#endif
#if configTASK_NOTIFICATION_ARRAY_ENTRIES < RTIPC_NOTIFY_SLOTS
#error "rtipc on FreeRTOS needs configTASK_NOTIFICATION_ARRAY_ENTRIES >= RTIPC_NOTIFY_SLOTS (each slot is a kernel index): build rtipc with RTIPC_NOTIFY_SLOTS at most the array's entries"
#endif
#if configTASK_NOTIFICATION_ARRAY_ENTRIES > RTIPC_NOTIFY_SLOTS
#define RTIPC__PARK_ON_INDEX 1
#define RTIPC__PARK_INDEX (configTASK_NOTIFICATION_ARRAY_ENTRIES - 1)
#else
#define RTIPC__PARK_ON_INDEX 0
#endif

#if RTIPC_PRIORITY_LEVELS > configMAX_PRIORITIES
#error "RTIPC_PRIORITY_LEVELS must not exceed configMAX_PRIORITIES (rtipc priority p is FreeRTOS priority p)"
#endif

/* ---- time --------------------------------------------------------------------- */
/* Ticks for a blocking kernel call: RTIPC_FOREVER -> portMAX_DELAY; a finite
 * timeout is rounded up to whole ticks plus one, since the current tick is
 * already partly over and the whole timeout must elapse; a duration beyond
 * the tick type waits forever, as time.h says of durations that overflow. */
TickType_t rtipc__ticks_finite(rtipc_timeout_t timeout); /* time.c: the rounding */
static inline TickType_t rtipc__ticks(rtipc_timeout_t timeout)
{
    /* The two a blocking call mostly gets, in line: every wait asks. */
    if (rtipc_timeout_is_forever(timeout))
        return portMAX_DELAY;
    if (rtipc_timeout_is_no_wait(timeout))
        return 0;
    return rtipc__ticks_finite(timeout);
}

/* Tick count widened to 64 bits (it wraps in the kernel's TickType_t). */
uint64_t rtipc__tick_count64(void);

/* Map a kernel "could not complete" to the rtipc code for the timeout given. */
static inline int rtipc__fail(rtipc_timeout_t timeout)
{
    return rtipc_timeout_is_no_wait(timeout) ? RTIPC_EWOULDBLOCK : RTIPC_ETIMEDOUT;
}

#endif
