/* ESP-IDF's microsecond timer, one counter for both cores. */
#ifndef RTIPC_STANDIN_ESP_TIMER_H
#define RTIPC_STANDIN_ESP_TIMER_H
#include <stdint.h>
int64_t esp_timer_get_time(void);
#endif
