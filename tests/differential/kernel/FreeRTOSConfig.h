/* Kernel configuration of the differential suite's kernel runner (the real
 * FreeRTOS kernel on its POSIX simulator, GCC_POSIX). The scheduling settings
 * are the ones rtipc's Linux port promises to behave like: preemption on,
 * time slicing off, 32 priorities. */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

/* Scheduler */
#define configUSE_PREEMPTION 1
#define configUSE_TIME_SLICING 0 /* equal priorities do not share the core on ticks */
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 0
#define configTICK_RATE_HZ 100 /* the scenario clock: DIFF_TICK_HZ_DEFAULT */
#define configCPU_CLOCK_HZ 1000000
#define configMAX_PRIORITIES 32 /* RTIPC_PRIORITY_LEVELS: rtipc priority p is FreeRTOS priority p */
#define configMINIMAL_STACK_SIZE 1024 /* the simulator runs each task on a pthread stack of its own */
#define configMAX_TASK_NAME_LEN 16
#define configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_64_BITS
#define configIDLE_SHOULD_YIELD 1
#define configNUMBER_OF_CORES 1

/* Memory: heap_3 (malloc), so the kernel's objects are ordinary allocations. */
#define configSUPPORT_STATIC_ALLOCATION 0
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configTOTAL_HEAP_SIZE (1024u * 1024u)
#define configAPPLICATION_ALLOCATED_HEAP 0

/* Objects */
#define configUSE_MUTEXES 1
#define configUSE_RECURSIVE_MUTEXES 1
#define configUSE_COUNTING_SEMAPHORES 1
#define configUSE_QUEUE_SETS 1
#define configUSE_TASK_NOTIFICATIONS 1
#define configTASK_NOTIFICATION_ARRAY_ENTRIES 3 /* RTIPC_NOTIFY_SLOTS */
#define configMESSAGE_BUFFER_LENGTH_TYPE uint32_t /* RTIPC_MSGBUF_LENGTH_BYTES is 4 */
#define configUSE_STREAM_BUFFERS 1
#define configUSE_EVENT_GROUPS 1
#define configQUEUE_REGISTRY_SIZE 0
#define configUSE_TRACE_FACILITY 0
#define configUSE_CO_ROUTINES 0

/* No timer service task: nothing in the scenarios needs one, and a task of
 * its own would only add a participant to the schedule. */
#define configUSE_TIMERS 0

#define configUSE_IDLE_HOOK 1 /* sleeps: the simulator's idle task would spin a host core */
#define configUSE_TICK_HOOK 1 /* late-tick detection (backend_kernel.c) */
#define configUSE_MALLOC_FAILED_HOOK 0
#define configCHECK_FOR_STACK_OVERFLOW 0

#define INCLUDE_vTaskPrioritySet 1
#define INCLUDE_uxTaskPriorityGet 1
#define INCLUDE_vTaskDelete 1
#define INCLUDE_vTaskSuspend 1 /* portMAX_DELAY blocks without end */
#define INCLUDE_xTaskDelayUntil 1
#define INCLUDE_vTaskDelay 1
#define INCLUDE_xTaskGetSchedulerState 1
#define INCLUDE_xTaskGetCurrentTaskHandle 1
#define INCLUDE_xSemaphoreGetMutexHolder 1

/* A failed assertion ends the scenario with a line naming it: the suite
 * must never make a call the kernel asserts on (README.md, rtipc-only). */
void diff_kernel_assert_failed(const char *file, unsigned long line);
#define configASSERT(x)                                         \
    do {                                                        \
        if ((x) == 0)                                           \
            diff_kernel_assert_failed(__FILE__, __LINE__);      \
    } while (0)

#endif
