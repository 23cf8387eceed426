/* ESP-IDF keeps the kernel's headers under freertos/: the kernel's own, with
 * ESP-IDF's port additions. */
#include <FreeRTOS.h>

#include "esp_port_extras.h"
