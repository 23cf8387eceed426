/* The FreeRTOS kernel's own queue, binary semaphore and direct notification
 * as entries of the mechanism table (mechanisms.h), measured beside rtipc's
 * in the same run (round-trip): their ratio is what rtipc's mapping onto
 * the kernel costs. Built only where rtipc runs on FreeRTOS;
 * freertos_kernel_absent.c says why they are missing elsewhere. */
#include <stdatomic.h>
#include <stdlib.h>

#ifdef ESP_PLATFORM
#include "freertos/FreeRTOS.h"
#include "freertos/queue.h"
#include "freertos/semphr.h"
#include "freertos/task.h"
#else
#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"
#endif

#include "../names.h"
#include "mechanisms.h"

/* Every wait is portMAX_DELAY, as rtipc's entries wait RTIPC_FOREVER: the
 * call-cost pairs (nothing ever waits there) compare like with like. */

/* ---- kernel-queue: xQueueSend / xQueueReceive of the 4-byte number ---- */

static int kq_create(size_t depth, void **obj, char *why, size_t n)
{
    QueueHandle_t q = xQueueCreate((UBaseType_t)(depth ? depth : 1), sizeof(uint32_t));
    if (!q)
        return bench_mech_no_memory(why, n);
    *obj = q;
    return 0;
}

static void kq_destroy(void *obj) { vQueueDelete((QueueHandle_t)obj); }

static int kq_send(void *obj, uint32_t seq)
{
    return xQueueSend((QueueHandle_t)obj, &seq, portMAX_DELAY) == pdPASS ? 0 : BENCH_MECH_EKERNEL;
}

static int kq_recv(void *obj, uint32_t *seq)
{
    return xQueueReceive((QueueHandle_t)obj, seq, portMAX_DELAY) == pdPASS ? 0 : BENCH_MECH_EKERNEL;
}

/* From a handler: pxHigherPriorityTaskWoken -> *woken (set only). */
static void hp_woken(BaseType_t hp, bool *woken)
{
    if (hp != pdFALSE)
        *woken = true;
}

static int kq_isr_send(void *obj, uint32_t seq, bool *woken)
{
    BaseType_t hp = pdFALSE;
    BaseType_t ok = xQueueSendFromISR((QueueHandle_t)obj, &seq, &hp);
    hp_woken(hp, woken);
    return ok == pdPASS ? 0 : BENCH_MECH_EFULL;
}

static int kq_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t v = seq + (uint32_t)i, got = ~v;
        if (xQueueSend((QueueHandle_t)obj, &v, portMAX_DELAY) != pdPASS ||
            xQueueReceive((QueueHandle_t)obj, &got, portMAX_DELAY) != pdPASS || got != v)
            return -1;
    }
    return 0;
}

const bench_mech_t bench_mech_kernel_queue = {
    .name = BENCH_MECH_KERNEL_QUEUE,
    .traits = BENCH_MECH_PARKS | BENCH_MECH_FOREIGN_WAIT,
    .create = kq_create,
    .destroy = kq_destroy,
    .send = kq_send,
    .recv = kq_recv,
    .isr_send = kq_isr_send,
    .pairs = kq_pairs,
};

/* ---- kernel-sem: xSemaphoreGive / xSemaphoreTake, the number in a word ---- */

typedef struct {
    SemaphoreHandle_t sem;
    _Atomic uint32_t seq;
} ks_t;

static int ks_create(size_t depth, void **obj, char *why, size_t n)
{
    (void)depth;
    ks_t *s = calloc(1, sizeof *s);
    if (!s || !(s->sem = xSemaphoreCreateBinary())) {
        free(s);
        return bench_mech_no_memory(why, n);
    }
    *obj = s;
    return 0;
}

static void ks_destroy(void *obj)
{
    ks_t *s = obj;
    vSemaphoreDelete(s->sem);
    free(s);
}

static int ks_send(void *obj, uint32_t seq)
{
    ks_t *s = obj;
    atomic_store_explicit(&s->seq, seq, memory_order_relaxed);
    return xSemaphoreGive(s->sem) == pdPASS ? 0 : BENCH_MECH_EKERNEL;
}

static int ks_isr_send(void *obj, uint32_t seq, bool *woken)
{
    ks_t *s = obj;
    atomic_store_explicit(&s->seq, seq, memory_order_relaxed);
    BaseType_t hp = pdFALSE;
    BaseType_t ok = xSemaphoreGiveFromISR(s->sem, &hp);
    hp_woken(hp, woken);
    return ok == pdPASS ? 0 : BENCH_MECH_EKERNEL;
}

static int ks_recv(void *obj, uint32_t *seq)
{
    ks_t *s = obj;
    if (xSemaphoreTake(s->sem, portMAX_DELAY) != pdPASS)
        return BENCH_MECH_EKERNEL;
    *seq = atomic_load_explicit(&s->seq, memory_order_relaxed);
    return 0;
}

static int ks_pairs(void *obj, uint32_t seq, int n)
{
    ks_t *s = obj;
    (void)seq;
    for (int i = 0; i < n; i++)
        if (xSemaphoreGive(s->sem) != pdPASS || xSemaphoreTake(s->sem, portMAX_DELAY) != pdPASS)
            return -1;
    return 0;
}

const bench_mech_t bench_mech_kernel_sem = {
    .name = BENCH_MECH_KERNEL_SEM,
    .traits = BENCH_MECH_PARKS | BENCH_MECH_FOREIGN_WAIT,
    .create = ks_create,
    .destroy = ks_destroy,
    .send = ks_send,
    .recv = ks_recv,
    .isr_send = ks_isr_send,
    .pairs = ks_pairs,
};

/* ---- kernel-notify: xTaskNotifyGive / ulTaskNotifyTake (index 0) ---- */

typedef struct {
    volatile TaskHandle_t consumer;
    _Atomic uint32_t seq;
} kn_t;

static int kn_create(size_t depth, void **obj, char *why, size_t n)
{
    (void)depth;
    *obj = calloc(1, sizeof(kn_t));
    return *obj ? 0 : bench_mech_no_memory(why, n);
}

static void kn_destroy(void *obj) { free(obj); }

/* The consumer binds itself: rtipc's task handle is not the kernel's. */
static void kn_bind(void *obj, rtipc_task_t *producer, rtipc_task_t *consumer)
{
    (void)producer;
    if (consumer == rtipc_task_current())
        ((kn_t *)obj)->consumer = xTaskGetCurrentTaskHandle();
}

static int kn_send(void *obj, uint32_t seq)
{
    kn_t *k = obj;
    atomic_store_explicit(&k->seq, seq, memory_order_relaxed);
    return xTaskNotifyGive(k->consumer) == pdPASS ? 0 : BENCH_MECH_EKERNEL;
}

static int kn_isr_send(void *obj, uint32_t seq, bool *woken)
{
    kn_t *k = obj;
    atomic_store_explicit(&k->seq, seq, memory_order_relaxed);
    BaseType_t hp = pdFALSE;
    vTaskNotifyGiveFromISR(k->consumer, &hp);
    hp_woken(hp, woken);
    return 0;
}

static int kn_recv(void *obj, uint32_t *seq)
{
    kn_t *k = obj;
    uint32_t count = ulTaskNotifyTake(pdTRUE, portMAX_DELAY);
    if (count != 1)
        return BENCH_MECH_EMERGED;
    *seq = atomic_load_explicit(&k->seq, memory_order_relaxed);
    return 0;
}

static int kn_pairs(void *obj, uint32_t seq, int n)
{
    (void)obj, (void)seq;
    TaskHandle_t self = xTaskGetCurrentTaskHandle();
    for (int i = 0; i < n; i++) {
        (void)xTaskNotifyGive(self);
        if (ulTaskNotifyTake(pdTRUE, portMAX_DELAY) != 1)
            return -1;
    }
    return 0;
}

const bench_mech_t bench_mech_kernel_notify = {
    .name = BENCH_MECH_KERNEL_NOTIFY,
    .traits = BENCH_MECH_PARKS | BENCH_MECH_MERGES | BENCH_MECH_FOREIGN_WAIT,
    .create = kn_create,
    .destroy = kn_destroy,
    .send = kn_send,
    .recv = kn_recv,
    .isr_send = kn_isr_send,
    .bind = kn_bind,
    .pairs = kn_pairs,
};
