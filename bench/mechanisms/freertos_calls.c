/* The kernel's queue and queue set, called directly (freertos_calls.h). */
#include "freertos_calls.h"

#include <stdio.h>
#include <stdlib.h>

#include "rtipc/wdt.h"

#ifdef ESP_PLATFORM
#include "esp_heap_caps.h"
#include "esp_memory_utils.h"
#include "esp_task_wdt.h"
#include "freertos/FreeRTOS.h"
#include "freertos/queue.h"
#include "freertos/semphr.h"
#include "freertos/task.h"
#include "sdkconfig.h"
#else
#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"
#endif

const bool bench_kcalls_built = true;

struct bench_kq {
    QueueHandle_t h;
};
struct bench_kqs {
    QueueSetHandle_t h;
};
struct bench_ksem {
    SemaphoreHandle_t h;
};

/* ns -> ticks, rounded up (a wait never ends early); FOREVER -> portMAX_DELAY. */
static TickType_t ticks(int64_t wait_ns)
{
    if (wait_ns == BENCH_KWAIT_FOREVER)
        return portMAX_DELAY;
    if (wait_ns <= 0)
        return 0;
    int64_t per_tick = 1000000000LL / configTICK_RATE_HZ;
    int64_t t = (wait_ns + per_tick - 1) / per_tick;
    /* Unsigned: TickType_t may be 64 bits wide, portMAX_DELAY all ones. */
    return (uint64_t)t >= (uint64_t)portMAX_DELAY ? portMAX_DELAY - 1 : (TickType_t)t;
}

int bench_kq_create(size_t length, size_t item, bench_kq_t **q)
{
    bench_kq_t *k = calloc(1, sizeof *k);
    if (!k)
        return -1;
    k->h = xQueueCreate((UBaseType_t)length, (UBaseType_t)item);
    if (!k->h) {
        free(k);
        return -1;
    }
    *q = k;
    return 0;
}

size_t bench_kq_cb_size(void) { return sizeof(StaticQueue_t); }

int bench_kq_create_static(size_t length, size_t item, void *storage, void *cb, bench_kq_t **q)
{
    bench_kq_t *k = calloc(1, sizeof *k);
    if (!k)
        return -1;
    k->h = xQueueCreateStatic((UBaseType_t)length, (UBaseType_t)item, storage, cb);
    if (!k->h) {
        free(k);
        return -1;
    }
    *q = k;
    return 0;
}

void bench_kq_delete(bench_kq_t *q)
{
    if (!q)
        return;
    vQueueDelete(q->h);
    free(q);
}

int bench_kq_send(bench_kq_t *q, const void *item, int64_t wait_ns)
{
    return xQueueSend(q->h, item, ticks(wait_ns)) == pdPASS ? 0 : 1;
}

int bench_kq_overwrite(bench_kq_t *q, const void *item)
{
    /* Always pdPASS on a length-1 queue; anything else is a misuse. */
    return xQueueOverwrite(q->h, item) == pdPASS ? 0 : -1;
}

int bench_kq_receive(bench_kq_t *q, void *item, int64_t wait_ns)
{
    return xQueueReceive(q->h, item, ticks(wait_ns)) == pdPASS ? 0 : 1;
}

int bench_kq_peek(bench_kq_t *q, void *item, int64_t wait_ns)
{
    return xQueuePeek(q->h, item, ticks(wait_ns)) == pdPASS ? 0 : 1;
}

int bench_kqs_create(size_t length, bench_kqs_t **set)
{
    bench_kqs_t *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->h = xQueueCreateSet((UBaseType_t)length);
    if (!s->h) {
        free(s);
        return -1;
    }
    *set = s;
    return 0;
}

int bench_kqs_add(bench_kqs_t *set, bench_kq_t *q) { return xQueueAddToSet(q->h, set->h) == pdPASS ? 0 : -1; }

int bench_kqs_remove(bench_kqs_t *set, bench_kq_t *q)
{
    return xQueueRemoveFromSet(q->h, set->h) == pdPASS ? 0 : -1;
}

void bench_kqs_delete(bench_kqs_t *set)
{
    if (!set)
        return;
    vQueueDelete(set->h);
    free(set);
}

int bench_kqs_select(bench_kqs_t *set, bench_kq_t *const *members, int n, int64_t wait_ns)
{
    QueueSetMemberHandle_t m = xQueueSelectFromSet(set->h, ticks(wait_ns));
    if (!m)
        return -1;
    for (int i = 0; i < n; i++)
        if (members[i]->h == m)
            return i;
    return -2;
}

int bench_ksem_create(bench_ksem_t **s)
{
    bench_ksem_t *k = calloc(1, sizeof *k);
    if (!k)
        return -1;
    if (!(k->h = xSemaphoreCreateBinary())) {
        free(k);
        return -1;
    }
    *s = k;
    return 0;
}

void bench_ksem_delete(bench_ksem_t *s)
{
    if (!s)
        return;
    vSemaphoreDelete(s->h);
    free(s);
}

int bench_ksem_give(bench_ksem_t *s) { return xSemaphoreGive(s->h) == pdPASS ? 0 : 1; }

int bench_ksem_take(bench_ksem_t *s, int64_t wait_ns) { return xSemaphoreTake(s->h, ticks(wait_ns)) == pdPASS ? 0 : 1; }

void bench_kdelay_ticks(unsigned n) { vTaskDelay((TickType_t)n); }

size_t bench_kheap_free(void) { return xPortGetFreeHeapSize(); }

#ifdef ESP_PLATFORM
void *bench_kplace_alloc(int where, size_t size, char *why, size_t n)
{
    if (where == BENCH_KPLACE_INTERNAL) {
        void *p = heap_caps_malloc(size, MALLOC_CAP_INTERNAL | MALLOC_CAP_8BIT);
        if (!p) {
            snprintf(why, n, "heap_caps_malloc(%lu, MALLOC_CAP_INTERNAL | MALLOC_CAP_8BIT) failed",
                     (unsigned long)size);
            return NULL;
        }
        if (!esp_ptr_internal(p) || esp_ptr_external_ram(p)) {
            snprintf(why, n, "heap_caps_malloc(MALLOC_CAP_INTERNAL) returned %p, not in internal RAM", p);
            heap_caps_free(p);
            return NULL;
        }
        return p;
    }
#if defined(CONFIG_SPIRAM) && CONFIG_SPIRAM
    void *p = heap_caps_malloc(size, MALLOC_CAP_SPIRAM);
    if (!p) {
        snprintf(why, n, "heap_caps_malloc(%lu, MALLOC_CAP_SPIRAM) failed", (unsigned long)size);
        return NULL;
    }
    if (!esp_ptr_external_ram(p)) {
        snprintf(why, n, "heap_caps_malloc(MALLOC_CAP_SPIRAM) returned %p, not in external RAM", p);
        heap_caps_free(p);
        return NULL;
    }
    return p;
#else
    snprintf(why, n, "no PSRAM: this ESP-IDF build has CONFIG_SPIRAM off (the chip or its emulation has none)");
    return NULL;
#endif
}

void bench_kplace_free(void *p) { heap_caps_free(p); }

const char *bench_kplace_how(void)
{
    return "heap_caps_malloc(MALLOC_CAP_INTERNAL | MALLOC_CAP_8BIT) storage, esp_ptr_internal checked";
}

const char *bench_kplace_psram_how(void)
{
    return "heap_caps_malloc(MALLOC_CAP_SPIRAM) storage, esp_ptr_external_ram checked";
}
#else
void *bench_kplace_alloc(int where, size_t size, char *why, size_t n)
{
    if (where != BENCH_KPLACE_INTERNAL) {
        snprintf(why, n, "no external PSRAM on this target");
        return NULL;
    }
    size_t rounded = (size + 63) / 64 * 64;  /* aligned_alloc: a multiple of the alignment */
    void *p = aligned_alloc(64, rounded);
    if (!p)
        snprintf(why, n, "out of memory");
    return p;
}

void bench_kplace_free(void *p) { free(p); }

const char *bench_kplace_how(void) { return "the C heap (aligned_alloc, 64 B lines)"; }

const char *bench_kplace_psram_how(void) { return "none"; }
#endif

/* ---- the task watchdog ---- */

#ifdef ESP_PLATFORM
const bool bench_kwdt_espidf = true;
int bench_kwdt_add(void) { return esp_task_wdt_add(NULL) == ESP_OK ? 0 : -1; }
int bench_kwdt_reset(void) { return esp_task_wdt_reset() == ESP_OK ? 0 : -1; }
int bench_kwdt_delete(void) { return esp_task_wdt_delete(NULL) == ESP_OK ? 0 : -1; }
#else
const bool bench_kwdt_espidf = false;
int bench_kwdt_add(void) { return rtipc_wdt_add(NULL); }
int bench_kwdt_reset(void) { return rtipc_wdt_reset(); }
int bench_kwdt_delete(void) { return rtipc_wdt_delete(NULL); }
#endif
