/* ESP-IDF's CPU utilities: the cycle counter rtipc-bench's core clock reads
 * (bench/target/espidf_clock.c). */
#ifndef RTIPC_STANDIN_ESP_CPU_H
#define RTIPC_STANDIN_ESP_CPU_H
#include <stdint.h>

typedef uint32_t esp_cpu_cycle_count_t;
esp_cpu_cycle_count_t esp_cpu_get_cycle_count(void);
#endif
