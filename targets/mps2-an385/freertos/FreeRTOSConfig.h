/* Kernel configuration of rtipc's FreeRTOS firmware for QEMU's mps2-an385
 * (Cortex-M3, FREERTOS_PORT GCC_ARM_CM3). The settings rtipc relies on are
 * marked "rtipc:"; docs/porting.md lists them, docs/mcu.md describes the
 * firmware. */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

#include <stdint.h>

/* Scheduler */
#define configUSE_PREEMPTION 1
#define configUSE_TIME_SLICING 1
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 0
/* SysTick's rate, measured at start-up (main.c: board_systick_hz): QEMU's
 * SysTick does not count at the board's nominal 25 MHz. */
extern uint32_t rtipc_cm3_systick_hz;
#define configCPU_CLOCK_HZ (rtipc_cm3_systick_hz)
#define configTICK_RATE_HZ 1000
#define configMAX_PRIORITIES 32                /* rtipc: >= RTIPC_PRIORITY_LEVELS */
#define configMINIMAL_STACK_SIZE 256           /* words */
#define configMAX_TASK_NAME_LEN 16
#ifdef TICK_TYPE_WIDTH_32_BITS                 /* V11 */
#define configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_32_BITS
#else                                          /* kernels before V11 */
#define configUSE_16_BIT_TICKS 0
#endif
#define configIDLE_SHOULD_YIELD 1
#define configNUMBER_OF_CORES 1

/* Memory: rtipc creates every kernel object with the *Static API in memory
 * it takes from pvPortMalloc (heap 4) or from the caller. */
#define configSUPPORT_STATIC_ALLOCATION 1      /* rtipc: required */
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configKERNEL_PROVIDED_STATIC_MEMORY 1
#define configTOTAL_HEAP_SIZE (1024u * 1024u) /* rtipc-bench's tasks and objects */
#define configAPPLICATION_ALLOCATED_HEAP 0

/* Objects */
#define configUSE_MUTEXES 1                    /* rtipc: required */
#define configUSE_RECURSIVE_MUTEXES 1          /* rtipc: required */
#define configUSE_COUNTING_SEMAPHORES 1        /* rtipc: required */
#define configUSE_QUEUE_SETS 1                 /* rtipc: required */
#define configUSE_TASK_NOTIFICATIONS 1         /* rtipc: required */
#define configTASK_NOTIFICATION_ARRAY_ENTRIES 4 /* rtipc: RTIPC_NOTIFY_SLOTS (3) + rtipc's own index */
#define configNUM_THREAD_LOCAL_STORAGE_POINTERS 1 /* rtipc: the task descriptor */
#define configMESSAGE_BUFFER_LENGTH_TYPE uint32_t /* rtipc: RTIPC_MSGBUF_LENGTH_BYTES is 4 */
#define configUSE_STREAM_BUFFERS 1
#define configUSE_EVENT_GROUPS 1
#define configQUEUE_REGISTRY_SIZE 0
#define configUSE_CO_ROUTINES 0

/* Software timers: the timer task carries event-group changes made from
 * interrupts. */
#define configUSE_TIMERS 1
#define configTIMER_TASK_PRIORITY (configMAX_PRIORITIES - 1)
#define configTIMER_QUEUE_LENGTH 16
#define configTIMER_TASK_STACK_DEPTH 256

/* Hooks: the tick hook runs rtipc's interrupt timers. The idle task spins:
 * with WFI, QEMU's -icount clock warp made each idle tick last two ticks of
 * TIMER0 (docs/mcu.md), so idle time is executed, not skipped. */
#define configUSE_IDLE_HOOK 0
#define configUSE_TICK_HOOK 1
#define configUSE_MALLOC_FAILED_HOOK 1
#define configCHECK_FOR_STACK_OVERFLOW 2

/* Interrupt priorities. QEMU implements all 8 priority bits; a real M3 has
 * fewer, and the values below use only the top 3 so that they mean the same
 * on either. Interrupts at or below configMAX_SYSCALL_INTERRUPT_PRIORITY's
 * urgency may call FromISR functions (and rtipc's _from_isr calls). */
#define configKERNEL_INTERRUPT_PRIORITY 0xE0u
#define configMAX_SYSCALL_INTERRUPT_PRIORITY 0xA0u

/* The kernel's handlers take the board's vector-table names
 * (targets/mps2-an385/board/board.h). */
#define vPortSVCHandler SVC_Handler
#define xPortPendSVHandler PendSV_Handler
#define xPortSysTickHandler SysTick_Handler

/* rtipc: the spare NVIC line of rtipc's interrupt sources; its handler
 * (app_hooks.c) calls rtipc_freertos_irq_vector(). */
#define rtipcCONFIG_CORTEX_M_IRQ 27

/* rtipc-bench: each task's uxTaskNumber counts the times it was switched
 * in, its context switches (bench/target/freertos.c reads it for the
 * batching experiment). The macro expands inside tasks.c. */
#define configUSE_TRACE_FACILITY 1
#define traceTASK_SWITCHED_IN() (pxCurrentTCB->uxTaskNumber++)
#define benchCONFIG_TASK_NUMBER_COUNTS_SWITCHES 1

/* rtipc: rtipc_cycles() is TIMER0 extended to 64 bits (board.h): 25 MHz,
 * 40 instructions a count under QEMU's -icount shift=0, where 1 instruction
 * is 1 ns of virtual time. */
#include <stdint.h>
uint64_t board_counter(void);
#define rtipcCONFIG_CYCLES() board_counter()
#define rtipcCONFIG_CYCLES_HZ 25000000u
#define rtipcCONFIG_CYCLES_NAME "cmsdk-timer0 (25 MHz, 40 instructions a count)"
#define rtipcCONFIG_CYCLES_PROVENANCE "emulated-instructions"

/* rtipc-bench: per-task CPU time (byte-stream's cpu-per-MB) from the
 * kernel's run-time statistics, counted on the same 64-bit TIMER0 clock at
 * every switch (bench/target/freertos.c; TIMER0 runs from reset). */
#define configGENERATE_RUN_TIME_STATS 1
#define configRUN_TIME_COUNTER_TYPE uint64_t
#define portCONFIGURE_TIMER_FOR_RUN_TIME_STATS()
#define portGET_RUN_TIME_COUNTER_VALUE() board_counter()
#define benchCONFIG_RUN_TIME_COUNTER_HZ 25000000u

/* rtipc-bench: what its results say the target is (bench/target/freertos.c). */
#define benchCONFIG_BOARD "Cortex-M3, QEMU mps2-an385 (-icount shift=0: 1 instruction = 1 ns)"
#define benchCONFIG_KERNEL_PORT "GCC ARM_CM3, heap 4"

/* API functions rtipc calls */
#define INCLUDE_vTaskPrioritySet 1
#define INCLUDE_uxTaskPriorityGet 1
#define INCLUDE_vTaskDelete 1
#define INCLUDE_vTaskSuspend 1
#define INCLUDE_vTaskDelay 1
#define INCLUDE_xTaskDelayUntil 1
#define INCLUDE_xTaskGetSchedulerState 1
#define INCLUDE_xTaskGetCurrentTaskHandle 1
#define INCLUDE_xSemaphoreGetMutexHolder 1
#define INCLUDE_xTimerPendFunctionCall 1
#define INCLUDE_eTaskGetState 1

/* A failed kernel assertion stops the firmware with the file and line. */
void rtipc_target_assert_failed(const char *file, unsigned long line);
#define configASSERT(x)                                     \
    do {                                                    \
        if ((x) == 0)                                       \
            rtipc_target_assert_failed(__FILE__, __LINE__); \
    } while (0)

#endif
