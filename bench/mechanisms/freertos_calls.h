/* The FreeRTOS kernel's queue and queue set called directly, for the
 * experiments that need more than the mechanism table's 4-byte entries:
 * items of any size, the overwrite and peek calls, caller-placed storage
 * (xQueueCreateStatic), the queue set's select. Written as a FreeRTOS user
 * writes them (freertos_calls.c); on Linux freertos_calls_absent.c makes
 * every call fail (bench_kcalls_built false), and experiments only call
 * them where bench_mech_kernel_built is true. */
#ifndef BENCH_FREERTOS_CALLS_H
#define BENCH_FREERTOS_CALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

extern const bool bench_kcalls_built;

/* Waits: BENCH_KWAIT_FOREVER is portMAX_DELAY, 0 never waits, else ns
 * rounded up to whole ticks. */
#define BENCH_KWAIT_FOREVER INT64_MIN

typedef struct bench_kq bench_kq_t;

/* xQueueCreate(length, item): 0, or -1 (out of memory). */
int bench_kq_create(size_t length, size_t item, bench_kq_t **q);
/* xQueueCreateStatic over @p storage (length x item bytes) and @p cb
 * (bench_kq_cb_size() bytes, aligned for any type): 0 or -1. */
size_t bench_kq_cb_size(void);
int bench_kq_create_static(size_t length, size_t item, void *storage, void *cb, bench_kq_t **q);
void bench_kq_delete(bench_kq_t *q);

/* 0 done, 1 full / empty after the wait (errQUEUE_FULL, pdFALSE), <0 never. */
int bench_kq_send(bench_kq_t *q, const void *item, int64_t wait_ns);   /* xQueueSend */
int bench_kq_overwrite(bench_kq_t *q, const void *item);               /* xQueueOverwrite */
int bench_kq_receive(bench_kq_t *q, void *item, int64_t wait_ns);      /* xQueueReceive */
int bench_kq_peek(bench_kq_t *q, void *item, int64_t wait_ns);         /* xQueuePeek */

/* A binary semaphore (xSemaphoreCreateBinary): 0 or -1 (out of memory). */
typedef struct bench_ksem bench_ksem_t;
int bench_ksem_create(bench_ksem_t **s);
void bench_ksem_delete(bench_ksem_t *s);
/* 0 given, 1 already given (xSemaphoreGive's pdFAIL), <0 never. */
int bench_ksem_give(bench_ksem_t *s);
/* 0 taken, 1 not within the wait (pdFALSE), <0 never. */
int bench_ksem_take(bench_ksem_t *s, int64_t wait_ns);

/* A queue set (xQueueCreateSet(length)) and its members. */
typedef struct bench_kqs bench_kqs_t;
int bench_kqs_create(size_t length, bench_kqs_t **set);
int bench_kqs_add(bench_kqs_t *set, bench_kq_t *q);      /* xQueueAddToSet: 0 or -1 */
int bench_kqs_remove(bench_kqs_t *set, bench_kq_t *q);   /* xQueueRemoveFromSet (q empty) */
void bench_kqs_delete(bench_kqs_t *set);
/* xQueueSelectFromSet: the index in @p members (n of them) of the queue
 * selected, -1 on a timeout, -2 for a handle that is no member. */
int bench_kqs_select(bench_kqs_t *set, bench_kq_t *const *members, int n, int64_t wait_ns);

/* The task watchdog as a FreeRTOS user subscribes to it, for the calling
 * task. ESP-IDF: its Task Watchdog Timer's own calls, esp_task_wdt_add(NULL),
 * esp_task_wdt_reset(), esp_task_wdt_delete(NULL) (the TWDT must be running:
 * rtipc_wdt_start reconfigures it); a trip then reaches rtipc's trip
 * callback with task NULL, core -1 and the task's name (rtipc/wdt.h). Other
 * kernels have no task watchdog: rtipc's (rtipc_wdt_add(NULL) ...) stands
 * in. 0, or a negative error. */
int bench_kwdt_add(void);
int bench_kwdt_reset(void);
int bench_kwdt_delete(void);
/* True where bench_kwdt_* are ESP-IDF's own calls. */
extern const bool bench_kwdt_espidf;

/* vTaskDelay(ticks), as a FreeRTOS user sleeps "one tick": until the
 * tick after next at most, the next at least (on Linux it never runs). */
void bench_kdelay_ticks(unsigned n);

/* The kernel heap's free bytes now (xPortGetFreeHeapSize). */
size_t bench_kheap_free(void);

/* Storage for a queue, placed as an ESP-IDF user places it:
 * BENCH_KPLACE_INTERNAL heap_caps_malloc(MALLOC_CAP_INTERNAL |
 * MALLOC_CAP_8BIT), checked with esp_ptr_internal; BENCH_KPLACE_PSRAM
 * heap_caps_malloc(MALLOC_CAP_SPIRAM), checked with esp_ptr_external_ram.
 * Elsewhere INTERNAL is the C heap, aligned to 64 B, and PSRAM does not
 * exist. NULL with @p why set when it cannot be had. */
enum { BENCH_KPLACE_INTERNAL, BENCH_KPLACE_PSRAM };
void *bench_kplace_alloc(int where, size_t size, char *why, size_t n);
void bench_kplace_free(void *p);
/* How INTERNAL and PSRAM storage are obtained (and checked) on this
 * target, for notes ("none" where there is no such storage). */
const char *bench_kplace_how(void);
const char *bench_kplace_psram_how(void);

#endif
