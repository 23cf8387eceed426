/* The idle and timer tasks' memory for FreeRTOS kernels before V11, which
 * ask the application for it when configSUPPORT_STATIC_ALLOCATION is 1
 * (from V11 configKERNEL_PROVIDED_STATIC_MEMORY lets the kernel keep its
 * own). Shared by rtipc's FreeRTOS examples; empty on V11 and later. */
#include "FreeRTOS.h"
#include "task.h"

#if tskKERNEL_VERSION_MAJOR < 11
void vApplicationGetIdleTaskMemory(StaticTask_t **tcb, StackType_t **stack, uint32_t *words)
{
    static StaticTask_t idle_tcb;
    static StackType_t idle_stack[configMINIMAL_STACK_SIZE];
    *tcb = &idle_tcb;
    *stack = idle_stack;
    *words = configMINIMAL_STACK_SIZE;
}

void vApplicationGetTimerTaskMemory(StaticTask_t **tcb, StackType_t **stack, uint32_t *words)
{
    static StaticTask_t timer_tcb;
    static StackType_t timer_stack[configTIMER_TASK_STACK_DEPTH];
    *tcb = &timer_tcb;
    *stack = timer_stack;
    *words = configTIMER_TASK_STACK_DEPTH;
}
#else
typedef int rtipc_example_kernel_memory_unused; /* ISO C: no empty translation unit */
#endif
