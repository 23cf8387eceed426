/* ESP-IDF keeps the kernel's headers under freertos/: the kernel's own. */
#include <message_buffer.h>
