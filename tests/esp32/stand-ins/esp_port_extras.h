/* What ESP-IDF's kernel port declares beyond a FreeRTOS-Kernel checkout's,
 * for the app's sources and the component's alike: the spinlock type of its
 * critical sections and the calling core. */
#ifndef RTIPC_STANDIN_ESP_PORT_EXTRAS_H
#define RTIPC_STANDIN_ESP_PORT_EXTRAS_H
#include <stdint.h>

/* A spinlock, one per protected object. */
typedef struct {
    volatile uint32_t owner;
    volatile uint32_t count;
} portMUX_TYPE;
#define portMUX_INITIALIZER_UNLOCKED {0u, 0u}

BaseType_t xPortGetCoreID(void);

/* The cores the port runs, as ESP-IDF's portmacro.h names them. */
#ifndef portNUM_PROCESSORS
#define portNUM_PROCESSORS 2
#endif
#endif
