/* ESP-IDF's Task Watchdog Timer (esp_system, v5.1 API): the calls rtipc's
 * watchdog maps onto. */
#ifndef RTIPC_STANDIN_ESP_TASK_WDT_H
#define RTIPC_STANDIN_ESP_TASK_WDT_H
#include <stdbool.h>
#include <stdint.h>

#include "esp_err.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"

/* Settings: timeout, the cores whose idle task is watched (a bit each),
 * and whether a timeout ends in a panic. */
typedef struct {
    uint32_t timeout_ms;
    uint32_t idle_core_mask;
    bool trigger_panic;
} esp_task_wdt_config_t;

esp_err_t esp_task_wdt_init(const esp_task_wdt_config_t *config);        /* ESP_ERR_INVALID_STATE: running */
esp_err_t esp_task_wdt_reconfigure(const esp_task_wdt_config_t *config); /* of a running TWDT */
esp_err_t esp_task_wdt_deinit(void);                 /* refused while tasks are subscribed */
esp_err_t esp_task_wdt_add(TaskHandle_t task);       /* NULL: the caller */
esp_err_t esp_task_wdt_delete(TaskHandle_t task);    /* NULL: the caller */
esp_err_t esp_task_wdt_reset(void);                  /* for the caller */

/* Called from the TWDT's interrupt at each timeout; weak, an application
 * may define it. */
void __attribute__((weak)) esp_task_wdt_isr_user_handler(void);

/* The entries that have not reset the TWDT: each line of the report goes
 * to @p handler (a subscribed task's line passes its name as the task's
 * own name pointer). */
typedef void (*task_wdt_msg_handler)(void *opaque, const char *msg);
esp_err_t esp_task_wdt_print_triggered_tasks(task_wdt_msg_handler handler, void *opaque, int *cpus_fail);
#endif
