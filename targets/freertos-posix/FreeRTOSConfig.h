/* Kernel configuration of the rtipc example on the FreeRTOS POSIX simulator
 * (FREERTOS_PORT GCC_POSIX). The settings rtipc relies on are marked
 * "rtipc:"; docs/porting.md lists them. */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#include <stdint.h>

/* Scheduler */
#define configUSE_PREEMPTION 1
#define configUSE_TIME_SLICING 1
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 0
#define configTICK_RATE_HZ 1000
#define configCPU_CLOCK_HZ 1000000
#define configMAX_PRIORITIES 32                /* rtipc: >= RTIPC_PRIORITY_LEVELS */
#define configMINIMAL_STACK_SIZE 4096
#define configMAX_TASK_NAME_LEN 16
#if defined(RTIPC_EXAMPLE_KERNEL_BEFORE_V11) && RTIPC_EXAMPLE_KERNEL_BEFORE_V11
#define configUSE_16_BIT_TICKS 0 /* kernels before V11 (set by CMakeLists.txt) */
#else
#define configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_64_BITS /* the POSIX port's TickType_t is unsigned long anyway */
#endif
#if defined(RTIPC_EXAMPLE_NEAR_WRAP) && RTIPC_EXAMPLE_NEAR_WRAP
/* Start the kernel's tick count 300 ticks before it wraps, so that the run
 * crosses the wrap (rtipc's own count starts at 0 and does not wrap). */
#define configINITIAL_TICK_COUNT ((TickType_t)0 - (TickType_t)300)
#endif
#define configIDLE_SHOULD_YIELD 1
#define configNUMBER_OF_CORES 1

/* Memory: rtipc creates every kernel object with the *Static API in memory
 * it takes from pvPortMalloc (FREERTOS_HEAP) or from the caller. */
#define configSUPPORT_STATIC_ALLOCATION 1      /* rtipc: required */
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configKERNEL_PROVIDED_STATIC_MEMORY 1 /* V11; before, main.c provides the idle and timer task memory */
#define configTOTAL_HEAP_SIZE (4u * 1024u * 1024u)
#define configAPPLICATION_ALLOCATED_HEAP 0

/* Objects */
#define configUSE_MUTEXES 1                    /* rtipc: required */
#define configUSE_RECURSIVE_MUTEXES 1          /* rtipc: required */
#define configUSE_COUNTING_SEMAPHORES 1        /* rtipc: required */
#define configUSE_QUEUE_SETS 1                 /* rtipc: required */
#define configUSE_TASK_NOTIFICATIONS 1         /* rtipc: required */
/* (RTIPC_EXAMPLE_STOCK_CONFIG gives 1 and 0: a kernel's stock settings.) */
#ifndef configTASK_NOTIFICATION_ARRAY_ENTRIES
#define configTASK_NOTIFICATION_ARRAY_ENTRIES 4 /* rtipc: RTIPC_NOTIFY_SLOTS (3) + rtipc's parking index */
#endif
#ifndef configNUM_THREAD_LOCAL_STORAGE_POINTERS
#define configNUM_THREAD_LOCAL_STORAGE_POINTERS 1 /* rtipc: the task descriptor */
#endif
#define configMESSAGE_BUFFER_LENGTH_TYPE uint32_t /* rtipc: RTIPC_MSGBUF_LENGTH_BYTES is 4 */
#define configUSE_STREAM_BUFFERS 1
#define configUSE_EVENT_GROUPS 1
#define configQUEUE_REGISTRY_SIZE 0
#define configUSE_TRACE_FACILITY 1 /* tests/unit/test_task.c: a task's stack base (vTaskGetInfo) */
#define configUSE_CO_ROUTINES 0

/* Software timers: the timer task carries event-group changes made from
 * interrupts (xEventGroupSetBitsFromISR). */
#define configUSE_TIMERS 1
#define configTIMER_TASK_PRIORITY (configMAX_PRIORITIES - 1)
#define configTIMER_QUEUE_LENGTH 16
#define configTIMER_TASK_STACK_DEPTH configMINIMAL_STACK_SIZE

/* Hooks: the tick hook plays an interrupt handler in the example. */
#define configUSE_IDLE_HOOK 0
#define configUSE_TICK_HOOK 1
#define configUSE_MALLOC_FAILED_HOOK 1
#define configCHECK_FOR_STACK_OVERFLOW 0

/* API functions rtipc calls */
#define INCLUDE_vTaskPrioritySet 1
#define INCLUDE_uxTaskPriorityGet 1
#define INCLUDE_vTaskDelete 1
#define INCLUDE_vTaskSuspend 1
#define INCLUDE_vTaskDelay 1
#define INCLUDE_xTaskGetSchedulerState 1
#define INCLUDE_xTaskGetCurrentTaskHandle 1
#define INCLUDE_xSemaphoreGetMutexHolder 1
#define INCLUDE_xTimerPendFunctionCall 1
#define INCLUDE_eTaskGetState 1
#define INCLUDE_uxTaskGetStackHighWaterMark 1 /* tests/unit/test_task.c: a task's stack */

/* rtipc: rtipc_cycles() reads the host's monotonic clock (sim_support.c),
 * as a board's configuration would name its cycle counter. */
uint64_t rtipc_example_clock_ns(void);
#define rtipcCONFIG_CYCLES() rtipc_example_clock_ns()
#define rtipcCONFIG_CYCLES_HZ 1000000000u
#define rtipcCONFIG_CYCLES_NAME "clock_monotonic"
/* What that clock is, for rtipc-bench's results (bench/target/clock.h):
 * the host OS's clock, not a cycle counter. */
#define rtipcCONFIG_CYCLES_PROVENANCE "os-clock"

/* A failed kernel assertion stops the example with the file and line. */
void rtipc_example_assert_failed(const char *file, unsigned long line);
#define configASSERT(x)                                          \
    do {                                                         \
        if ((x) == 0)                                            \
            rtipc_example_assert_failed(__FILE__, __LINE__);     \
    } while (0)

#endif
