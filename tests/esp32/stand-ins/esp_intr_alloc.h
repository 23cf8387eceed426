/* ESP-IDF's interrupt allocator: a handler on a CPU interrupt of the
 * calling core, here for the core's internal software interrupt 0. */
#ifndef RTIPC_STANDIN_ESP_INTR_ALLOC_H
#define RTIPC_STANDIN_ESP_INTR_ALLOC_H
#include "esp_err.h"
#define ETS_INTERNAL_SW0_INTR_SOURCE -4
#define ESP_INTR_FLAG_LEVEL1 (1 << 1)
typedef void (*intr_handler_t)(void *arg);
typedef struct intr_handle_data_t *intr_handle_t;
esp_err_t esp_intr_alloc(int source, int flags, intr_handler_t handler, void *arg, intr_handle_t *ret_handle);
#endif
