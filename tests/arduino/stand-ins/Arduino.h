/* A stand-in for the Arduino core's Arduino.h, for scripts/check-arduino.sh
 * only: the declarations rtipc's example sketches use, written here, with
 * the signatures arduino-esp32 3.0.x gives them, so that a sketch compiles
 * (never links) without the core. It is not the core's header and holds
 * nothing else: a sketch that needs more of the core is not checked by it.
 * Like the IDE, the check prepends `#include <Arduino.h>` to each .ino and
 * compiles it as C++. */
#ifndef RTIPC_STAND_IN_ARDUINO_H
#define RTIPC_STAND_IN_ARDUINO_H

#include <stddef.h>
#include <stdint.h>

/* The sketch's two functions, called by the core's loop task. */
void setup(void);
void loop(void);

/* Time since boot (esp_timer), and a sleep of the calling task. */
unsigned long millis(void);
unsigned long micros(void);
void delay(uint32_t ms);

/* The first UART (UART0), the port of the boot messages and of stdout. */
class StandInSerial {
public:
    void begin(unsigned long baud);
    size_t print(const char *text);
    size_t println(const char *text);
    size_t println(void);
    size_t printf(const char *format, ...) __attribute__((format(printf, 2, 3)));
};
extern StandInSerial Serial;

#endif
