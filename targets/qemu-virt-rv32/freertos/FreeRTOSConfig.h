/* Kernel configuration of rtipc's FreeRTOS firmware for QEMU's virt RISC-V
 * machine with two harts: the FreeRTOS SMP kernel (configNUMBER_OF_CORES 2)
 * with the community port GCC/RISC-V_RV32_SMP_QEMU_VIRT over rtipc's own
 * board support (targets/qemu-virt-rv32/board). The settings rtipc relies on
 * are marked "rtipc:" (docs/porting.md); docs/rv32-virt.md describes the
 * firmware. The port's assembly includes this file too, so everything but
 * plain #defines is kept from the assembler. */
#ifndef FREERTOS_CONFIG_H
#define FREERTOS_CONFIG_H

/* Cores: both harts, tasks may be pinned (rtipc's task core), and tasks of
 * different priorities run at once, as on ESP-IDF's dual-core parts. */
#define configNUMBER_OF_CORES 2
#define configUSE_CORE_AFFINITY 1
#define configRUN_MULTIPLE_PRIORITIES 1
#define configUSE_TASK_PREEMPTION_DISABLE 0
#define configUSE_PASSIVE_IDLE_HOOK 0
#define configTICK_CORE 0

/* Scheduler */
#define configUSE_PREEMPTION 1
#define configUSE_TIME_SLICING 1
#define configUSE_PORT_OPTIMISED_TASK_SELECTION 0 /* the SMP kernel's rule */
/* The tick counts CLINT mtime (10 MHz, the device tree's timebase). */
#define configCPU_CLOCK_HZ 10000000
#define configTICK_RATE_HZ 1000
#define configMTIME_BASE_ADDRESS 0x0200BFF8
#define configMTIMECMP_BASE_ADDRESS 0x02004000
/* The port's per-core interrupt stacks (words). */
#define configISR_STACK_SIZE_WORDS 1024
#define configMAX_PRIORITIES 32                /* rtipc: >= RTIPC_PRIORITY_LEVELS */
#define configMINIMAL_STACK_SIZE 512           /* words */
#define configMAX_TASK_NAME_LEN 16
#define configTICK_TYPE_WIDTH_IN_BITS TICK_TYPE_WIDTH_32_BITS
#define configIDLE_SHOULD_YIELD 1

/* Memory: rtipc creates every kernel object with the *Static API in memory
 * it takes from pvPortMalloc (heap 4) or from the caller. */
#define configSUPPORT_STATIC_ALLOCATION 1      /* rtipc: required */
#define configSUPPORT_DYNAMIC_ALLOCATION 1
#define configKERNEL_PROVIDED_STATIC_MEMORY 1
#define configTOTAL_HEAP_SIZE (1024 * 1024)
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
#define configTIMER_TASK_STACK_DEPTH 512

/* Hooks: the tick hook (core 0's tick) runs rtipc's interrupt timers. */
#define configUSE_IDLE_HOOK 0
#define configUSE_TICK_HOOK 1
#define configUSE_MALLOC_FAILED_HOOK 1
#define configCHECK_FOR_STACK_OVERFLOW 2

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

#ifndef __ASSEMBLER__
#include <stdint.h>

/* rtipc: rtipc_cycles() is the CLINT's mtime, the one clock both harts
 * share: 10 MHz of the emulator's virtual time, which without -icount
 * follows the host's wall clock. */
uint64_t board_mtime(void);
#define rtipcCONFIG_CYCLES() board_mtime()
#define rtipcCONFIG_CYCLES_HZ 10000000u
#if defined(RTIPC_RV32_ICOUNT_SHIFT) && RTIPC_RV32_ICOUNT_SHIFT >= 0
/* Under QEMU's instruction counting (the vendored build's deterministic
 * mode, docs/rv32-virt.md) the virtual time is 2^shift ns per instruction,
 * and every clock follows it: the figures stay in virtual ns. */
#define rtipcCONFIG_CYCLES_NAME "clint-mtime (10 MHz of QEMU icount time, shared by both harts)"
#define rtipcCONFIG_CYCLES_PROVENANCE "emulated-instructions"
#define benchCONFIG_CLOCK_UNIT "ns"
#else
#define rtipcCONFIG_CYCLES_NAME "clint-mtime (10 MHz, shared by both harts)"
#define rtipcCONFIG_CYCLES_PROVENANCE "emulated-wall-clock"
#endif

/* rtipc-bench: spans within one core (same-core handoffs, round trips,
 * stamp pairs) read the hart's own mcycle instead (bench/target/target.h,
 * "a clock of one core"). QEMU 7.2 without -icount derives it from the
 * host's cycle counter, so its rate is calibrated against mtime at start;
 * it resolves far below mtime's 100 ns. */
uint64_t board_cycles(void);
#define benchCONFIG_CORE_CLOCK() board_cycles()
#if defined(RTIPC_RV32_ICOUNT_SHIFT) && RTIPC_RV32_ICOUNT_SHIFT >= 0
#define benchCONFIG_CORE_CLOCK_NAME "mcycle (per hart; QEMU icount: the virtual time)"
#define benchCONFIG_CORE_CLOCK_PROVENANCE "emulated-instructions"
#else
#define benchCONFIG_CORE_CLOCK_NAME "mcycle (per hart; QEMU: the host's cycle counter)"
#define benchCONFIG_CORE_CLOCK_PROVENANCE "emulated-core-cycles"
#endif

/* rtipc-bench: per-task CPU time (byte-stream's cpu-per-MB, interference's
 * hog time) from the kernel's run-time statistics, counted on mtime at
 * every switch on either core (bench/target/freertos.c). */
#define configUSE_TRACE_FACILITY 1
#define configGENERATE_RUN_TIME_STATS 1
#define configRUN_TIME_COUNTER_TYPE uint64_t
#define portCONFIGURE_TIMER_FOR_RUN_TIME_STATS()
#define portGET_RUN_TIME_COUNTER_VALUE() board_mtime()
#define benchCONFIG_RUN_TIME_COUNTER_HZ 10000000u

/* rtipc-bench: what its results say the target is (bench/target/freertos.c). */
#define benchCONFIG_BOARD "RV32IMAC x2 harts, QEMU virt (MTTCG: the harts run at once; emulated wall clock)"
#define benchCONFIG_KERNEL_PORT "community GCC RISC-V_RV32_SMP_QEMU_VIRT, heap 4, configNUMBER_OF_CORES 2"

/* A failed kernel assertion stops the firmware with the file and line. */
void rtipc_target_assert_failed(const char *file, unsigned long line);
#define configASSERT(x)                                  \
    do {                                                 \
        if ((x) == 0)                                    \
            rtipc_target_assert_failed(__FILE__, __LINE__); \
    } while (0)
#endif

#endif
