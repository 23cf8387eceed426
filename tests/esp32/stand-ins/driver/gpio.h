/* The part of ESP-IDF's GPIO driver the app and the bench seam call. */
#ifndef RTIPC_STANDIN_GPIO_H
#define RTIPC_STANDIN_GPIO_H
#include <stdint.h>
typedef int esp_err_t;
typedef int gpio_num_t;
typedef enum { GPIO_MODE_DISABLE = 0, GPIO_MODE_INPUT = 1, GPIO_MODE_OUTPUT = 2 } gpio_mode_t;
esp_err_t gpio_reset_pin(gpio_num_t gpio);
esp_err_t gpio_set_direction(gpio_num_t gpio, gpio_mode_t mode);
esp_err_t gpio_set_level(gpio_num_t gpio, uint32_t level);
#endif
