/* The FreeRTOS kernel's own queue, binary semaphore and direct notification
 * as request/reply channels (round_trip.h), measured beside rtipc's in the
 * same run: their ratio is what rtipc's mapping onto the kernel costs. Built
 * only where rtipc runs on FreeRTOS. */
#include <stdlib.h>

#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"

#include "../names.h"
#include "round_trip.h"

/* ---- queue ---- */

typedef struct {
    QueueHandle_t there, back;
} kq_t;

static int kq_create(void **obj)
{
    kq_t *q = calloc(1, sizeof *q);
    if (!q || !(q->there = xQueueCreate(1, sizeof(uint32_t))) || !(q->back = xQueueCreate(1, sizeof(uint32_t)))) {
        if (q && q->there)
            vQueueDelete(q->there);
        free(q);
        return -1;
    }
    *obj = q;
    return 0;
}

static void kq_destroy(void *obj)
{
    kq_t *q = obj;
    vQueueDelete(q->there);
    vQueueDelete(q->back);
    free(q);
}

static void no_binding(void *obj) { (void)obj; }

static int kq_ping(void *obj, uint32_t seq)
{
    kq_t *q = obj;
    uint32_t got = ~seq;
    return xQueueSend(q->there, &seq, portMAX_DELAY) == pdPASS && xQueueReceive(q->back, &got, portMAX_DELAY) == pdPASS &&
                   got == seq
               ? 0
               : -1;
}

static int kq_echo(void *obj)
{
    kq_t *q = obj;
    uint32_t v;
    return xQueueReceive(q->there, &v, portMAX_DELAY) == pdPASS && xQueueSend(q->back, &v, portMAX_DELAY) == pdPASS ? 0
                                                                                                                 : -1;
}

static int kq_self(void *obj, uint32_t seq)
{
    kq_t *q = obj;
    uint32_t got = ~seq;
    return xQueueSend(q->there, &seq, 0) == pdPASS && xQueueReceive(q->there, &got, 0) == pdPASS && got == seq ? 0 : -1;
}

static const bench_round_trip_mech_t kernel_queue = {BENCH_MECH_KERNEL_QUEUE, BENCH_METRIC_SEND_RECEIVE,
                                                     kq_create, kq_destroy, no_binding, no_binding,
                                                     kq_ping, kq_echo, kq_self};

/* ---- binary semaphore ---- */

typedef struct {
    SemaphoreHandle_t there, back;
} ks_t;

static int ks_create(void **obj)
{
    ks_t *s = calloc(1, sizeof *s);
    if (!s || !(s->there = xSemaphoreCreateBinary()) || !(s->back = xSemaphoreCreateBinary())) {
        if (s && s->there)
            vSemaphoreDelete(s->there);
        free(s);
        return -1;
    }
    *obj = s;
    return 0;
}

static void ks_destroy(void *obj)
{
    ks_t *s = obj;
    vSemaphoreDelete(s->there);
    vSemaphoreDelete(s->back);
    free(s);
}

static int ks_ping(void *obj, uint32_t seq)
{
    (void)seq;
    ks_t *s = obj;
    return xSemaphoreGive(s->there) == pdPASS && xSemaphoreTake(s->back, portMAX_DELAY) == pdPASS ? 0 : -1;
}

static int ks_echo(void *obj)
{
    ks_t *s = obj;
    return xSemaphoreTake(s->there, portMAX_DELAY) == pdPASS && xSemaphoreGive(s->back) == pdPASS ? 0 : -1;
}

static int ks_self(void *obj, uint32_t seq)
{
    (void)seq;
    ks_t *s = obj;
    return xSemaphoreGive(s->there) == pdPASS && xSemaphoreTake(s->there, 0) == pdPASS ? 0 : -1;
}

static const bench_round_trip_mech_t kernel_sem = {BENCH_MECH_KERNEL_SEM, BENCH_METRIC_GIVE_TAKE, ks_create,
                                                   ks_destroy, no_binding, no_binding, ks_ping, ks_echo, ks_self};

/* ---- direct notification (index 0 of the kernel's array) ---- */

typedef struct {
    volatile TaskHandle_t ping, echo;
} kn_t;

static int kn_create(void **obj)
{
    kn_t *n = calloc(1, sizeof *n);
    *obj = n;
    return n ? 0 : -1;
}

static void kn_destroy(void *obj) { free(obj); }
static void kn_bind_ping(void *obj) { ((kn_t *)obj)->ping = xTaskGetCurrentTaskHandle(); }
static void kn_bind_echo(void *obj) { ((kn_t *)obj)->echo = xTaskGetCurrentTaskHandle(); }

static int kn_ping(void *obj, uint32_t seq)
{
    (void)seq;
    kn_t *n = obj;
    xTaskNotifyGive(n->echo);
    return ulTaskNotifyTake(pdTRUE, portMAX_DELAY) == 1 ? 0 : -1;
}

static int kn_echo(void *obj)
{
    kn_t *n = obj;
    int rc = ulTaskNotifyTake(pdTRUE, portMAX_DELAY) == 1 ? 0 : -1;
    xTaskNotifyGive(n->ping);
    return rc;
}

static const bench_round_trip_mech_t kernel_notify = {BENCH_MECH_KERNEL_NOTIFY, NULL, kn_create, kn_destroy,
                                                      kn_bind_ping, kn_bind_echo, kn_ping, kn_echo, NULL};

const bench_round_trip_mech_t *const bench_round_trip_kernel[] = {&kernel_queue, &kernel_sem, &kernel_notify};
const size_t bench_round_trip_kernel_count = sizeof bench_round_trip_kernel / sizeof bench_round_trip_kernel[0];
const char *const bench_round_trip_kernel_names[3] = {BENCH_MECH_KERNEL_QUEUE, BENCH_MECH_KERNEL_SEM,
                                                      BENCH_MECH_KERNEL_NOTIFY};
const char bench_round_trip_kernel_absent[] = "";
