/* ESP-IDF's ROM system calls: the CPU clock's ticks per microsecond, which
 * rtipc-bench's core clock reads on a board (bench/target/espidf_clock.c). */
#ifndef RTIPC_STANDIN_ESP_ROM_SYS_H
#define RTIPC_STANDIN_ESP_ROM_SYS_H
#include <stdint.h>

uint32_t esp_rom_get_cpu_ticks_per_us(void);
#endif
