/* ESP-IDF's kernel hooks: a function called from one core's tick. */
#ifndef RTIPC_STANDIN_ESP_FREERTOS_HOOKS_H
#define RTIPC_STANDIN_ESP_FREERTOS_HOOKS_H
#include "FreeRTOS.h"
#include "esp_err.h"
typedef void (*esp_freertos_tick_cb_t)(void);
esp_err_t esp_register_freertos_tick_hook_for_cpu(esp_freertos_tick_cb_t new_tick_cb, UBaseType_t cpuid);
#endif
