// QueueLatency: the cross-core queue latency experiment published for
// Arduino on the ESP32, in its published shape, through FreeRTOS's own queue
// and through rtipc's, one after the other in the same sketch.
//
// A producer task pinned to core 0 reads esp_timer_get_time() (microseconds
// since boot, one counter for both cores), puts the reading in a message
// and sends it every kPeriodMs ms. loop() is the consumer: Arduino's loop
// task, on core 1 at priority 1. It waits in the receive, reads the same
// clock as soon as the receive returns, and keeps the difference.
//
// So one latency spans: the send call on core 0, the kernel waking the
// consumer blocked on core 1 (an interrupt from core 0 to core 1 and a
// context switch), and the return from the receive. The clock is esp_timer
// in whole microseconds; one read of it (about a microsecond) is inside
// every figure. rtipc-bench's queue-latency experiment (examples/RtipcBench)
// measures the same path with more samples and its statistics.
//
// The rounds alternate: kSamples messages through FreeRTOS's queue
// (xQueueCreate, xQueueSend, xQueueReceive), then kSamples through rtipc's
// (rtipc_queue_create, rtipc_queue_send, rtipc_queue_receive). After each
// round one line at 115200 baud:
//
//   freertos-queue n=1000 min=.. p50=.. p99=.. max=.. us (timeouts 0, out of order 0)
//
// The producer waits for the consumer's word before each round, so the
// time spent printing never delays a message.

#include <rtipc.h>

#include <inttypes.h>
#include <stdlib.h>

#include "esp_timer.h"
#include "freertos/FreeRTOS.h"
#include "freertos/queue.h"
#include "freertos/task.h"

struct Stamp {
    uint32_t seq;     // the message's number in its round
    int64_t sent_us;  // esp_timer_get_time() just before the send call
};

enum Mechanism : uint8_t { kFreeRtosQueue = 0, kRtipcQueue = 1 };
static const char *const kMechanismName[] = {"freertos-queue", "rtipc-queue"};

static const uint32_t kSamples = 1000;  // messages per round
static const uint32_t kPeriodMs = 5;    // between two sends
static const uint32_t kReceiveTimeoutMs = 1000;
static const UBaseType_t kQueueLength = 8;
static const uint32_t kProducerStackBytes = 4096;  // bytes on ESP-IDF
static const UBaseType_t kProducerPriority = 2;
static const BaseType_t kProducerCore = 0;

static QueueHandle_t freertos_q;  // FreeRTOS's queue of Stamps
static rtipc_queue_t *rtipc_q;    // rtipc's queue of Stamps
static QueueHandle_t next_round;  // consumer to producer: the round's mechanism
static uint32_t latency_us[kSamples];
static volatile uint32_t send_failures;

static void producer(void *arg)
{
    (void)arg;
    for (;;) {
        Mechanism m;
        xQueueReceive(next_round, &m, portMAX_DELAY);
        TickType_t wake = xTaskGetTickCount();
        for (uint32_t i = 0; i < kSamples; i++) {
            xTaskDelayUntil(&wake, pdMS_TO_TICKS(kPeriodMs));
            Stamp s = {i, esp_timer_get_time()};
            bool sent;
            if (m == kFreeRtosQueue)
                sent = xQueueSend(freertos_q, &s, portMAX_DELAY) == pdTRUE;
            else
                sent = rtipc_queue_send(rtipc_q, &s, RTIPC_FOREVER) == 0;
            if (!sent)
                send_failures = send_failures + 1;
        }
    }
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

// Nearest-rank percentile of n sorted values, per_mille in 1..1000.
static uint32_t percentile(const uint32_t *sorted, uint32_t n, uint32_t per_mille)
{
    uint32_t rank = (n * per_mille + 999) / 1000;
    return sorted[rank > 0 ? rank - 1 : 0];
}

void setup()
{
    Serial.begin(115200);
    freertos_q = xQueueCreate(kQueueLength, sizeof(Stamp));
    next_round = xQueueCreate(1, sizeof(Mechanism));
    int rc = rtipc_queue_create(kQueueLength, sizeof(Stamp), &rtipc_q);
    if (!freertos_q || !next_round || rc != 0) {
        Serial.printf("QueueLatency: cannot create the queues (rtipc: %s)\n", rtipc_strerror(rc));
        for (;;)
            vTaskDelay(portMAX_DELAY);
    }
    if (xTaskCreatePinnedToCore(producer, "producer", kProducerStackBytes, NULL, kProducerPriority, NULL,
                                kProducerCore) != pdPASS) {
        Serial.println("QueueLatency: cannot create the producer task");
        for (;;)
            vTaskDelay(portMAX_DELAY);
    }
    Serial.printf("QueueLatency: producer on core %d (priority %u), consumer loop() on core %d (priority %u)\n",
                  (int)kProducerCore, (unsigned)kProducerPriority, (int)xPortGetCoreID(),
                  (unsigned)uxTaskPriorityGet(NULL));
    Serial.printf("QueueLatency: a send every %" PRIu32 " ms, %" PRIu32 " per round; latency = "
                  "esp_timer before the send (core 0) to esp_timer after the receive (core 1), in us\n",
                  kPeriodMs, kSamples);
}

void loop()
{
    static uint32_t round_number;
    Mechanism m = round_number++ % 2 == 0 ? kFreeRtosQueue : kRtipcQueue;
    xQueueSend(next_round, &m, portMAX_DELAY);

    uint32_t n = 0, timeouts = 0, out_of_order = 0;
    for (uint32_t i = 0; i < kSamples; i++) {
        Stamp s;
        bool received;
        if (m == kFreeRtosQueue)
            received = xQueueReceive(freertos_q, &s, pdMS_TO_TICKS(kReceiveTimeoutMs)) == pdTRUE;
        else
            received = rtipc_queue_receive(rtipc_q, &s, rtipc_ms(kReceiveTimeoutMs)) == 0;
        int64_t now_us = esp_timer_get_time();
        if (!received) {
            timeouts++;
            continue;
        }
        if (s.seq != i)
            out_of_order++;
        latency_us[n++] = (uint32_t)(now_us - s.sent_us);
    }

    if (n == 0) {
        Serial.printf("%s: no message in %" PRIu32 " ms\n", kMechanismName[m], kReceiveTimeoutMs);
        return;
    }
    qsort(latency_us, n, sizeof latency_us[0], compare_u32);
    Serial.printf("%-14s n=%" PRIu32 " min=%" PRIu32 " p50=%" PRIu32 " p99=%" PRIu32 " max=%" PRIu32
                  " us (timeouts %" PRIu32 ", out of order %" PRIu32 ", failed sends %" PRIu32 ")\n",
                  kMechanismName[m], n, latency_us[0], percentile(latency_us, n, 500),
                  percentile(latency_us, n, 990), latency_us[n - 1], timeouts, out_of_order,
                  (uint32_t)send_failures);
}
