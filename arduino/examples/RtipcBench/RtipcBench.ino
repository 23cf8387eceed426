// RtipcBench: rtipc-bench's quick suite on an ESP32, from the Arduino IDE.
//
// The suite runs in a task of its own on core 0 at priority 1, with a
// 32 KiB stack, as the ESP-IDF app runs it (targets/esp32/main/bench_main.c):
// its experiments pin their tasks to cores 0 and 1 at priorities 2 to 12,
// above it, and need more stack than Arduino's loop task has (8 KiB).
//
// Everything goes to the serial port at 115200 baud: rtipc-bench prints to
// stdout, which arduino-esp32 sends to UART0, the port Serial uses. The
// tables and the claim audit come first, then the rtipc-bench/1 JSON between
// its marker lines, and "rtipc-bench: exit status N" last. On the host:
//
//   rtipc-bench capture --baud 115200 /dev/ttyUSB0 run.json
//   rtipc-bench audit run.json
//   rtipc-bench report run.json run-report
//
// (close the IDE's Serial Monitor first: capture needs the port). The run is
// over at the exit status line; docs/arduino.md says which figures differ
// from the ESP-IDF app's and why.

#include <rtipc.h>

#include "freertos/FreeRTOS.h"
#include "freertos/task.h"

// The command line, as the host tool takes it ("run --help" lists the
// options; "list" the experiments). "--json -" prints the JSON on the
// console between the markers capture looks for.
static const char kCommandLine[] = "run --quick --no-progress --json -";

static const uint32_t kRunnerStackBytes = 32 * 1024;  // bytes on ESP-IDF
static const UBaseType_t kRunnerPriority = 1;          // below every measured task
static const BaseType_t kRunnerCore = 0;

static void runner(void *arg)
{
    (void)arg;
    int status = rtipc_bench_run(kCommandLine);  // flushes stdout before it returns
    Serial.printf("rtipc-bench: exit status %d\n", status);
    vTaskDelete(NULL);
}

void setup()
{
    // UART0 at 115200 baud, the speed the boot messages use too.
    Serial.begin(115200);
    delay(2000);  // time to open a serial monitor or start capture
    Serial.printf("rtipc-bench: running \"%s\" on core %d\n", kCommandLine, (int)kRunnerCore);
    if (xTaskCreatePinnedToCore(runner, "rtipc-bench", kRunnerStackBytes, NULL, kRunnerPriority, NULL,
                                kRunnerCore) != pdPASS)
        Serial.println("rtipc-bench: cannot create the runner task (heap too small?)");
}

void loop()
{
    // Nothing to do on core 1: the loop task deletes itself, so that it
    // neither wakes during the measurements nor holds its 8 KiB of stack.
    vTaskDelete(NULL);
}
