/* ESP-IDF keeps the kernel's headers under freertos/: the kernel's own. */
#include <event_groups.h>
