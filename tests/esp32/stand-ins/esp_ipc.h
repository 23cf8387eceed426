/* ESP-IDF's inter-processor call: a function run by a core's IPC task. */
#ifndef RTIPC_STANDIN_ESP_IPC_H
#define RTIPC_STANDIN_ESP_IPC_H
#include <stdint.h>
#include "esp_err.h"
typedef void (*esp_ipc_func_t)(void *arg);
esp_err_t esp_ipc_call_blocking(uint32_t cpu_id, esp_ipc_func_t func, void *arg);
#endif
