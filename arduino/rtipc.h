/* rtipc for Arduino sketches (arduino-esp32 core 3.0.x on the ESP32): the
 * whole public API (rtipc/rtipc.h: queues, semaphores, mutexes, task
 * notifications, ...) and rtipc-bench's entry point (rtipc_bench.h) in one
 * include. `#include <rtipc.h>` is what Sketch > Include Library > rtipc
 * writes. (rtipc's headers are C and read as C++ too: a sketch is C++.) */
#ifndef RTIPC_ARDUINO_H
#define RTIPC_ARDUINO_H

#include "rtipc/rtipc.h"
#include "rtipc_bench.h"

#endif
