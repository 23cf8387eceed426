/* ESP-IDF's task.h: the kernel's, plus its pinned creation call and the
 * handle of a core's idle task. */
#include <task.h>

#ifndef RTIPC_STANDIN_PINNED
#define RTIPC_STANDIN_PINNED
BaseType_t xTaskCreatePinnedToCore(TaskFunction_t code, const char *name, const uint32_t stack_bytes, void *arg,
                                   UBaseType_t priority, TaskHandle_t *created, const BaseType_t core);
TaskHandle_t xTaskGetIdleTaskHandleForCPU(UBaseType_t core);
#endif
