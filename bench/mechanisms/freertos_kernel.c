/* The FreeRTOS kernel's own objects as entries of the mechanism table
 * (mechanisms.h), written as a FreeRTOS user writes them: the queue (and its
 * length-1 overwrite shape), the binary semaphore, the direct notification,
 * the stream and message buffers, the event group, a heap queue under a
 * FreeRTOS mutex and, on ESP-IDF, ESP-IDF's ring buffer in its three types.
 * On a FreeRTOS target every experiment measures them beside rtipc's objects
 * in the same run: they are what the published figures time, and their
 * ratio is what rtipc's layer costs. Built only where rtipc runs on
 * FreeRTOS; freertos_kernel_absent.c says why they are missing elsewhere.
 *
 * Every wait is portMAX_DELAY, as rtipc's entries wait RTIPC_FOREVER. The
 * memory of an object is measured on the live object: the kernel heap's
 * free bytes before and after its creation (block headers included). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef ESP_PLATFORM
#include "freertos/FreeRTOS.h"
#include "freertos/event_groups.h"
#include "freertos/message_buffer.h"
#include "freertos/queue.h"
#include "freertos/ringbuf.h"
#include "freertos/semphr.h"
#include "freertos/stream_buffer.h"
#include "freertos/task.h"
#else
#include "FreeRTOS.h"
#include "event_groups.h"
#include "message_buffer.h"
#include "queue.h"
#include "semphr.h"
#include "stream_buffer.h"
#include "task.h"
#endif

#include "../names.h"
#include "mechanisms.h"

const bool bench_mech_kernel_built = true;

/* ---- what the families share -------------------------------------------- */

/* From a handler: pxHigherPriorityTaskWoken -> *woken (set only). */
static void hp_woken(BaseType_t hp, bool *woken)
{
    if (hp != pdFALSE)
        *woken = true;
}

/* The kernel heap's bytes an object took, from the free bytes before its
 * creation (0 when the heap grew meanwhile: another task freed). */
static size_t heap_taken(size_t before)
{
    size_t after = xPortGetFreeHeapSize();
    return before > after ? before - after : 0;
}

static int kernel_memory(size_t bytes, size_t items, const char *what, size_t *out, char *note, size_t n)
{
    *out = bytes;
    snprintf(note, n, "kernel heap taken by %s holding up to %lu items (free bytes before and after "
             "creation)", what, (unsigned long)items);
    return 0;
}

/* ---- kernel-queue: xQueueSend / xQueueReceive of the 4-byte number ------ */

typedef struct {
    QueueHandle_t q;
    size_t depth, heap;
} kq_t;

static int kq_make(size_t depth, void **obj, char *why, size_t n)
{
    kq_t *k = calloc(1, sizeof *k);
    if (!k)
        return bench_mech_no_memory(why, n);
    size_t before = xPortGetFreeHeapSize();
    k->depth = depth ? depth : 1;
    k->q = xQueueCreate((UBaseType_t)k->depth, sizeof(uint32_t));
    k->heap = heap_taken(before);
    if (!k->q) {
        free(k);
        return bench_mech_no_memory(why, n);
    }
    *obj = k;
    return 0;
}

static void kq_destroy(void *obj)
{
    kq_t *k = obj;
    vQueueDelete(k->q);
    free(k);
}

static int kq_send(void *obj, uint32_t seq)
{
    return xQueueSend(((kq_t *)obj)->q, &seq, portMAX_DELAY) == pdPASS ? 0 : BENCH_MECH_EKERNEL;
}

static int kq_try_send(void *obj, uint32_t seq)
{
    return xQueueSend(((kq_t *)obj)->q, &seq, 0) == pdPASS ? 0 : BENCH_MECH_EFULL;
}

static int kq_recv(void *obj, uint32_t *seq)
{
    return xQueueReceive(((kq_t *)obj)->q, seq, portMAX_DELAY) == pdPASS ? 0 : BENCH_MECH_EKERNEL;
}

static int kq_isr_send(void *obj, uint32_t seq, bool *woken)
{
    BaseType_t hp = pdFALSE;
    BaseType_t ok = xQueueSendFromISR(((kq_t *)obj)->q, &seq, &hp);
    hp_woken(hp, woken);
    return ok == pdPASS ? 0 : BENCH_MECH_EFULL;
}

static int kq_depth(void *obj) { return (int)uxQueueMessagesWaiting(((kq_t *)obj)->q); }
static size_t kq_capacity(void *obj) { return ((kq_t *)obj)->depth; }

/* A marker in, or an item out: a blocked receiver or sender goes on. */
static void kq_kick(void *obj)
{
    uint32_t v = BENCH_MECH_MARKER;
    kq_t *k = obj;
    if (xQueueSend(k->q, &v, 0) != pdPASS)
        (void)xQueueReceive(k->q, &v, 0);
}

static int kq_memory(void *obj, size_t items, size_t *bytes, char *note, size_t n)
{
    return kernel_memory(((kq_t *)obj)->heap, items, "xQueueCreate(len, 4)", bytes, note, n);
}

static int kq_pairs(void *obj, uint32_t seq, int n)
{
    QueueHandle_t q = ((kq_t *)obj)->q;
    for (int i = 0; i < n; i++) {
        uint32_t v = seq + (uint32_t)i, got = ~v;
        if (xQueueSend(q, &v, portMAX_DELAY) != pdPASS || xQueueReceive(q, &got, portMAX_DELAY) != pdPASS ||
            got != v)
            return -1;
    }
    return 0;
}

/* Streams in rtipc-queue's loop shape (rtipc.c): the producer tries, the
 * consumer waits for one item, then takes what is there without waiting. */
static int kq_push_each(void *obj, const uint32_t *it, int n)
{
    QueueHandle_t q = ((kq_t *)obj)->q;
    int k = 0;
    while (k < n && xQueueSend(q, &it[k], 0) == pdPASS)
        k++;
    return k;
}

static int kq_pop_each(void *obj, uint32_t *it, int n)
{
    QueueHandle_t q = ((kq_t *)obj)->q;
    if (n <= 0)
        return 0;
    if (xQueueReceive(q, &it[0], portMAX_DELAY) != pdPASS)
        return BENCH_MECH_EKERNEL;
    int k = 1;
    while (k < n && xQueueReceive(q, &it[k], 0) == pdPASS)
        k++;
    return k;
}

const bench_mech_t bench_mech_kernel_queue = {
    .name = BENCH_MECH_KERNEL_QUEUE,
    .traits = BENCH_MECH_PARKS | BENCH_MECH_FOREIGN_WAIT | BENCH_MECH_NATIVE,
    .create = kq_make,
    .destroy = kq_destroy,
    .send = kq_send,
    .try_send = kq_try_send,
    .recv = kq_recv,
    .isr_send = kq_isr_send,
    .depth = kq_depth,
    .capacity = kq_capacity,
    .kick = kq_kick,
    .memory = kq_memory,
    .pairs = kq_pairs,
    .push_each = kq_push_each,
    .pop_each = kq_pop_each,
};

/* ---- kernel-queue-overwrite: xQueueOverwrite into a length-1 queue ------ */

static int kqo_create(size_t depth, void **obj, char *why, size_t n)
{
    (void)depth;
    return kq_make(1, obj, why, n);
}

static int kqo_send(void *obj, uint32_t seq)
{
    return xQueueOverwrite(((kq_t *)obj)->q, &seq) == pdPASS ? 0 : BENCH_MECH_EKERNEL;
}

static int kqo_isr_send(void *obj, uint32_t seq, bool *woken)
{
    BaseType_t hp = pdFALSE;
    BaseType_t ok = xQueueOverwriteFromISR(((kq_t *)obj)->q, &seq, &hp);
    hp_woken(hp, woken);
    return ok == pdPASS ? 0 : BENCH_MECH_EKERNEL;
}

static int kqo_memory(void *obj, size_t items, size_t *bytes, char *note, size_t n)
{
    (void)items;
    return kernel_memory(((kq_t *)obj)->heap, 1, "xQueueCreate(1, 4)", bytes, note, n);
}

const bench_mech_t bench_mech_kernel_queue_overwrite = {
    .name = BENCH_MECH_KERNEL_QUEUE_OVERWRITE,
    .traits = BENCH_MECH_PARKS | BENCH_MECH_MERGES | BENCH_MECH_FOREIGN_WAIT | BENCH_MECH_NATIVE,
    .create = kqo_create,
    .destroy = kq_destroy,
    .send = kqo_send,
    .try_send = kqo_send,
    .recv = kq_recv,
    .isr_send = kqo_isr_send,
    .depth = kq_depth,
    .capacity = kq_capacity,
    .kick = kq_kick,
    .memory = kqo_memory,
};

/* ---- kernel-sem: xSemaphoreGive / xSemaphoreTake, the number in a word -- */

typedef struct {
    SemaphoreHandle_t sem;
    _Atomic uint32_t seq;
    size_t heap;
} ks_t;

static int ks_create(size_t depth, void **obj, char *why, size_t n)
{
    (void)depth;
    ks_t *s = calloc(1, sizeof *s);
    if (!s)
        return bench_mech_no_memory(why, n);
    size_t before = xPortGetFreeHeapSize();
    s->sem = xSemaphoreCreateBinary();
    s->heap = heap_taken(before);
    if (!s->sem) {
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

/* The number is stored before the give, read after the take: the give and
 * take order the two (relaxed: a semaphore that did not would show as a
 * sequence error). A give that fails (the semaphore still full: two
 * messages would merge) fails the run. */
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

static void ks_kick(void *obj) { (void)xSemaphoreGive(((ks_t *)obj)->sem); }

static int ks_memory(void *obj, size_t items, size_t *bytes, char *note, size_t n)
{
    (void)items;
    return kernel_memory(((ks_t *)obj)->heap, 1, "xSemaphoreCreateBinary()", bytes, note, n);
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
    .traits = BENCH_MECH_PARKS | BENCH_MECH_MERGES | BENCH_MECH_FOREIGN_WAIT | BENCH_MECH_NATIVE,
    .create = ks_create,
    .destroy = ks_destroy,
    .send = ks_send,
    .recv = ks_recv,
    .isr_send = ks_isr_send,
    .kick = ks_kick,
    .memory = ks_memory,
    .pairs = ks_pairs,
};

/* ---- kernel-notify: xTaskNotifyGive / ulTaskNotifyTake(pdTRUE) ---------- */

typedef struct {
    /* The consumer's kernel handle: set by the consumer itself (bind from
     * it, or its first receive), read by the giver (release/acquire: the
     * handle of a task that exists). */
    _Atomic(TaskHandle_t) consumer;
    _Atomic uint32_t seq;
} kn_t;

static int kn_create(size_t depth, void **obj, char *why, size_t n)
{
    (void)depth;
    *obj = calloc(1, sizeof(kn_t));
    return *obj ? 0 : bench_mech_no_memory(why, n);
}

static void kn_destroy(void *obj) { free(obj); }

static void kn_self(kn_t *k)
{
    if (!atomic_load_explicit(&k->consumer, memory_order_relaxed))
        atomic_store_explicit(&k->consumer, xTaskGetCurrentTaskHandle(), memory_order_release);
}

/* A native consumer's kernel handle is known at the bind; otherwise (a
 * caller that binds nothing) the consumer stores its own at its first
 * receive. The handle is learnt once: an object serves one consumer task
 * for its life, so a run with a new consumer makes a new object (a handle
 * learnt anew could be read by the giver before the new consumer stored
 * it, and name a task that ended). */
static void kn_bind(void *obj, bench_task_t *producer, bench_task_t *consumer)
{
    kn_t *k = obj;
    (void)producer;
    TaskHandle_t h = bench_target_task_kernel(consumer);
    TaskHandle_t none = NULL;
    if (h)
        atomic_compare_exchange_strong_explicit(&k->consumer, &none, h, memory_order_release, memory_order_relaxed);
}

/* The consumer's handle; before its first receive, wait a tick at a time. */
static TaskHandle_t kn_consumer(kn_t *k)
{
    TaskHandle_t h;
    while (!(h = atomic_load_explicit(&k->consumer, memory_order_acquire)))
        vTaskDelay(1);
    return h;
}

static int kn_send(void *obj, uint32_t seq)
{
    kn_t *k = obj;
    TaskHandle_t to = kn_consumer(k);
    atomic_store_explicit(&k->seq, seq, memory_order_relaxed);
    return xTaskNotifyGive(to) == pdPASS ? 0 : BENCH_MECH_EKERNEL;
}

/* From a handler the consumer must already be known. */
static int kn_isr_send(void *obj, uint32_t seq, bool *woken)
{
    kn_t *k = obj;
    TaskHandle_t to = atomic_load_explicit(&k->consumer, memory_order_acquire);
    if (!to)
        return BENCH_MECH_EKERNEL;
    atomic_store_explicit(&k->seq, seq, memory_order_relaxed);
    BaseType_t hp = pdFALSE;
    vTaskNotifyGiveFromISR(to, &hp);
    hp_woken(hp, woken);
    return 0;
}

/* A count other than 1: two gives merged (a message would be lost). */
static int kn_recv(void *obj, uint32_t *seq)
{
    kn_t *k = obj;
    kn_self(k);
    uint32_t count = ulTaskNotifyTake(pdTRUE, portMAX_DELAY);
    if (count != 1)
        return BENCH_MECH_EMERGED;
    *seq = atomic_load_explicit(&k->seq, memory_order_relaxed);
    return 0;
}

static void kn_kick(void *obj)
{
    TaskHandle_t to = atomic_load_explicit(&((kn_t *)obj)->consumer, memory_order_acquire);
    if (to)
        (void)xTaskNotifyGive(to);
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
    .traits = BENCH_MECH_PARKS | BENCH_MECH_MERGES | BENCH_MECH_FOREIGN_WAIT | BENCH_MECH_NATIVE,
    .create = kn_create,
    .destroy = kn_destroy,
    .send = kn_send,
    .recv = kn_recv,
    .isr_send = kn_isr_send,
    .bind = kn_bind,
    .kick = kn_kick,
    .pairs = kn_pairs,
};

/* ---- kernel-streambuf / kernel-msgbuf: the number as 4 bytes ------------- */

typedef struct {
    StreamBufferHandle_t sb;
    size_t depth, heap;
    bool message;  /* a message buffer: one call moves one whole item */
} kb_t;

static int kb_make(size_t depth, bool message, void **obj, char *why, size_t n)
{
    kb_t *b = calloc(1, sizeof *b);
    if (!b)
        return bench_mech_no_memory(why, n);
    b->depth = depth ? depth : 1;
    b->message = message;
    size_t before = xPortGetFreeHeapSize();
    /* A message buffer stores each item behind its length word. */
    b->sb = message ? xMessageBufferCreate(b->depth * (sizeof(uint32_t) + sizeof(size_t)))
                    : xStreamBufferCreate(b->depth * sizeof(uint32_t), sizeof(uint32_t));
    b->heap = heap_taken(before);
    if (!b->sb) {
        free(b);
        return bench_mech_no_memory(why, n);
    }
    *obj = b;
    return 0;
}

static int ksb_create(size_t depth, void **obj, char *why, size_t n) { return kb_make(depth, false, obj, why, n); }
static int kmb_create(size_t depth, void **obj, char *why, size_t n) { return kb_make(depth, true, obj, why, n); }

static void kb_destroy(void *obj)
{
    kb_t *b = obj;
    vStreamBufferDelete(b->sb);
    free(b);
}

static int kb_send(void *obj, uint32_t seq)
{
    kb_t *b = obj;
    size_t sent = b->message ? xMessageBufferSend(b->sb, &seq, sizeof seq, portMAX_DELAY)
                             : xStreamBufferSend(b->sb, &seq, sizeof seq, portMAX_DELAY);
    return sent == sizeof seq ? 0 : BENCH_MECH_EKERNEL;
}

static int kb_try_send(void *obj, uint32_t seq)
{
    kb_t *b = obj;
    /* A stream buffer with fewer than 4 bytes free would take part of the
     * item: only a whole one is sent. */
    if (!b->message && xStreamBufferSpacesAvailable(b->sb) < sizeof seq)
        return BENCH_MECH_EFULL;
    size_t sent = b->message ? xMessageBufferSend(b->sb, &seq, sizeof seq, 0)
                             : xStreamBufferSend(b->sb, &seq, sizeof seq, 0);
    return sent == sizeof seq ? 0 : BENCH_MECH_EFULL;
}

static int kb_isr_send(void *obj, uint32_t seq, bool *woken)
{
    kb_t *b = obj;
    BaseType_t hp = pdFALSE;
    size_t sent = 0;
    if (b->message)
        sent = xMessageBufferSendFromISR(b->sb, &seq, sizeof seq, &hp);
    else if (xStreamBufferSpacesAvailable(b->sb) >= sizeof seq)
        sent = xStreamBufferSendFromISR(b->sb, &seq, sizeof seq, &hp);
    hp_woken(hp, woken);
    return sent == sizeof seq ? 0 : BENCH_MECH_EFULL;
}

/* A stream buffer may hand over an item in parts (its trigger level is one
 * item, but a receive returns what is there): gather 4 bytes. */
static int kb_recv(void *obj, uint32_t *seq)
{
    kb_t *b = obj;
    if (b->message)
        return xMessageBufferReceive(b->sb, seq, sizeof *seq, portMAX_DELAY) == sizeof *seq ? 0 : BENCH_MECH_ESIZE;
    unsigned char *p = (unsigned char *)seq;
    size_t got = 0;
    while (got < sizeof *seq) {
        size_t r = xStreamBufferReceive(b->sb, p + got, sizeof *seq - got, portMAX_DELAY);
        if (r == 0)
            return BENCH_MECH_EKERNEL;
        got += r;
    }
    return 0;
}

static int kb_depth(void *obj)
{
    kb_t *b = obj;
    size_t bytes = xStreamBufferBytesAvailable(b->sb);
    return (int)(b->message ? bytes / (sizeof(uint32_t) + sizeof(size_t)) : bytes / sizeof(uint32_t));
}

static size_t kb_capacity(void *obj) { return ((kb_t *)obj)->depth; }

static void kb_kick(void *obj)
{
    uint32_t v = BENCH_MECH_MARKER;
    if (kb_try_send(obj, v) != 0)
        (void)xStreamBufferReset(((kb_t *)obj)->sb);
}

static int kb_memory(void *obj, size_t items, size_t *bytes, char *note, size_t n)
{
    kb_t *b = obj;
    return kernel_memory(b->heap, items, b->message ? "xMessageBufferCreate(len x (4 + sizeof(size_t)))"
                                                     : "xStreamBufferCreate(len x 4, 4)", bytes, note, n);
}

static int kb_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t v = seq + (uint32_t)i, got = ~v;
        if (kb_send(obj, v) != 0 || kb_recv(obj, &got) != 0 || got != v)
            return -1;
    }
    return 0;
}

#define KERNEL_BUFFER(ident, mech_name, make)                                                          \
    const bench_mech_t ident = {                                                                       \
        .name = mech_name,                                                                             \
        .traits = BENCH_MECH_PARKS | BENCH_MECH_FOREIGN_WAIT | BENCH_MECH_NATIVE,                                          \
        .create = make,                                                                                \
        .destroy = kb_destroy,                                                                         \
        .send = kb_send,                                                                               \
        .try_send = kb_try_send,                                                                       \
        .recv = kb_recv,                                                                               \
        .isr_send = kb_isr_send,                                                                       \
        .depth = kb_depth,                                                                             \
        .capacity = kb_capacity,                                                                       \
        .kick = kb_kick,                                                                               \
        .memory = kb_memory,                                                                           \
        .pairs = kb_pairs,                                                                             \
    }
KERNEL_BUFFER(bench_mech_kernel_streambuf, BENCH_MECH_KERNEL_STREAMBUF, ksb_create);
KERNEL_BUFFER(bench_mech_kernel_msgbuf, BENCH_MECH_KERNEL_MSGBUF, kmb_create);

/* ---- kernel-eventgroup: a bit set and waited for, the number in a word --- */

#define KE_BIT ((EventBits_t)1)

typedef struct {
    EventGroupHandle_t eg;
    _Atomic uint32_t seq;
    size_t heap;
} ke_t;

static int ke_create(size_t depth, void **obj, char *why, size_t n)
{
    (void)depth;
    ke_t *e = calloc(1, sizeof *e);
    if (!e)
        return bench_mech_no_memory(why, n);
    size_t before = xPortGetFreeHeapSize();
    e->eg = xEventGroupCreate();
    e->heap = heap_taken(before);
    if (!e->eg) {
        free(e);
        return bench_mech_no_memory(why, n);
    }
    *obj = e;
    return 0;
}

static void ke_destroy(void *obj)
{
    ke_t *e = obj;
    vEventGroupDelete(e->eg);
    free(e);
}

/* A bit already set would merge two messages: that fails the run. */
static int ke_send(void *obj, uint32_t seq)
{
    ke_t *e = obj;
    if (xEventGroupGetBits(e->eg) & KE_BIT)
        return BENCH_MECH_EMERGED;
    atomic_store_explicit(&e->seq, seq, memory_order_relaxed);
    (void)xEventGroupSetBits(e->eg, KE_BIT);
    return 0;
}

static int ke_recv(void *obj, uint32_t *seq)
{
    ke_t *e = obj;
    EventBits_t got = xEventGroupWaitBits(e->eg, KE_BIT, pdTRUE, pdTRUE, portMAX_DELAY);
    if (!(got & KE_BIT))
        return BENCH_MECH_EKERNEL;
    *seq = atomic_load_explicit(&e->seq, memory_order_relaxed);
    return 0;
}

static void ke_kick(void *obj) { (void)xEventGroupSetBits(((ke_t *)obj)->eg, KE_BIT); }

static int ke_memory(void *obj, size_t items, size_t *bytes, char *note, size_t n)
{
    (void)items;
    return kernel_memory(((ke_t *)obj)->heap, 1, "xEventGroupCreate()", bytes, note, n);
}

const bench_mech_t bench_mech_kernel_eventgroup = {
    .name = BENCH_MECH_KERNEL_EVENTGROUP,
    .traits = BENCH_MECH_PARKS | BENCH_MECH_MERGES | BENCH_MECH_FOREIGN_WAIT | BENCH_MECH_NATIVE,
    .create = ke_create,
    .destroy = ke_destroy,
    .send = ke_send,
    .recv = ke_recv,
    .kick = ke_kick,
    .memory = ke_memory,
};

/* ---- kernel-mutex-list: the published std::queue + std::mutex, in the
 * FreeRTOS form: a FreeRTOS mutex around a list of pvPortMalloc'd nodes,
 * and a counting semaphore (one count per node) to wait on. No bound, as
 * the published queue had none; not interrupt-safe (a mutex is not). ---- */

typedef struct kml_node {
    struct kml_node *next;
    uint32_t v;
} kml_node_t;

typedef struct {
    SemaphoreHandle_t lock, items;
    kml_node_t *head, *tail;
    size_t heap;
} kml_t;

#define KML_MAX_COUNT ((UBaseType_t)0x7fffffff)

static int kml_create(size_t depth, void **obj, char *why, size_t n)
{
    (void)depth;
    kml_t *l = calloc(1, sizeof *l);
    if (!l)
        return bench_mech_no_memory(why, n);
    size_t before = xPortGetFreeHeapSize();
    l->lock = xSemaphoreCreateMutex();
    l->items = xSemaphoreCreateCounting(KML_MAX_COUNT, 0);
    l->heap = heap_taken(before);
    if (!l->lock || !l->items) {
        if (l->lock)
            vSemaphoreDelete(l->lock);
        if (l->items)
            vSemaphoreDelete(l->items);
        free(l);
        return bench_mech_no_memory(why, n);
    }
    *obj = l;
    return 0;
}

static void kml_destroy(void *obj)
{
    kml_t *l = obj;
    while (l->head) {
        kml_node_t *x = l->head;
        l->head = x->next;
        vPortFree(x);
    }
    vSemaphoreDelete(l->lock);
    vSemaphoreDelete(l->items);
    free(l);
}

static int kml_send(void *obj, uint32_t seq)
{
    kml_t *l = obj;
    kml_node_t *x = pvPortMalloc(sizeof *x);
    if (!x)
        return BENCH_MECH_EFULL;
    x->next = NULL;
    x->v = seq;
    if (xSemaphoreTake(l->lock, portMAX_DELAY) != pdPASS) {
        vPortFree(x);
        return BENCH_MECH_EKERNEL;
    }
    if (l->tail)
        l->tail->next = x;
    else
        l->head = x;
    l->tail = x;
    (void)xSemaphoreGive(l->lock);
    return xSemaphoreGive(l->items) == pdPASS ? 0 : BENCH_MECH_EKERNEL;
}

static int kml_recv(void *obj, uint32_t *seq)
{
    kml_t *l = obj;
    if (xSemaphoreTake(l->items, portMAX_DELAY) != pdPASS || xSemaphoreTake(l->lock, portMAX_DELAY) != pdPASS)
        return BENCH_MECH_EKERNEL;
    kml_node_t *x = l->head;
    if (x) {
        l->head = x->next;
        if (!l->head)
            l->tail = NULL;
    }
    (void)xSemaphoreGive(l->lock);
    if (!x)
        return BENCH_MECH_EKERNEL;  /* a count without a node: the list is broken */
    *seq = x->v;
    vPortFree(x);
    return 0;
}

static int kml_depth(void *obj) { return (int)uxSemaphoreGetCount(((kml_t *)obj)->items); }

/* A marker node: a blocked receiver takes it and goes on. */
static void kml_kick(void *obj) { (void)kml_send(obj, BENCH_MECH_MARKER); }

/* The list's own objects, measured, plus one heap node per item held: a
 * node's block is measured too, on one node made and freed here. */
static int kml_memory(void *obj, size_t items, size_t *bytes, char *note, size_t n)
{
    kml_t *l = obj;
    size_t before = xPortGetFreeHeapSize();
    void *probe = pvPortMalloc(sizeof(kml_node_t));
    size_t node = heap_taken(before);
    if (probe)
        vPortFree(probe);
    *bytes = l->heap + items * node;
    snprintf(note, n, "mutex + counting semaphore %lu B (kernel heap) + %lu x %lu B pvPortMalloc node "
             "(measured)", (unsigned long)l->heap, (unsigned long)items, (unsigned long)node);
    return 0;
}

static int kml_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t v = seq + (uint32_t)i, got = ~v;
        if (kml_send(obj, v) != 0 || kml_recv(obj, &got) != 0 || got != v)
            return -1;
    }
    return 0;
}

const bench_mech_t bench_mech_kernel_mutex_list = {
    .name = BENCH_MECH_KERNEL_MUTEX_LIST,
    .traits = BENCH_MECH_PARKS | BENCH_MECH_FOREIGN_WAIT | BENCH_MECH_NATIVE,
    .create = kml_create,
    .destroy = kml_destroy,
    .send = kml_send,
    .try_send = kml_send,
    .recv = kml_recv,
    .depth = kml_depth,
    .kick = kml_kick,
    .memory = kml_memory,
    .pairs = kml_pairs,
};

/* ---- ESP-IDF's ring buffer (esp_ringbuf), in its three types ------------ */

#ifdef ESP_PLATFORM

typedef struct {
    RingbufHandle_t rb;
    RingbufferType_t type;
    size_t depth, heap;
} kr_t;

/* Bytes one 4-byte item takes in a ring buffer of @p type: an 8-byte header
 * in front of a no-split or allow-split item (ESP-IDF's ring buffer
 * documentation), none in a byte buffer. */
static size_t kr_item_bytes(RingbufferType_t type) { return type == RINGBUF_TYPE_BYTEBUF ? 4 : 4 + 8; }

static int kr_make(size_t depth, RingbufferType_t type, void **obj, char *why, size_t n)
{
    kr_t *r = calloc(1, sizeof *r);
    if (!r)
        return bench_mech_no_memory(why, n);
    r->depth = depth ? depth : 1;
    r->type = type;
    size_t before = xPortGetFreeHeapSize();
    /* Sizes are rounded up to 4 bytes by the ring buffer itself. */
    r->rb = xRingbufferCreate(r->depth * kr_item_bytes(type), type);
    r->heap = heap_taken(before);
    if (!r->rb) {
        free(r);
        return bench_mech_no_memory(why, n);
    }
    *obj = r;
    return 0;
}

static int krn_create(size_t d, void **o, char *w, size_t n) { return kr_make(d, RINGBUF_TYPE_NOSPLIT, o, w, n); }
static int kra_create(size_t d, void **o, char *w, size_t n) { return kr_make(d, RINGBUF_TYPE_ALLOWSPLIT, o, w, n); }
static int krb_create(size_t d, void **o, char *w, size_t n) { return kr_make(d, RINGBUF_TYPE_BYTEBUF, o, w, n); }

static void kr_destroy(void *obj)
{
    kr_t *r = obj;
    vRingbufferDelete(r->rb);
    free(r);
}

static int kr_send(void *obj, uint32_t seq)
{
    return xRingbufferSend(((kr_t *)obj)->rb, &seq, sizeof seq, portMAX_DELAY) == pdTRUE ? 0 : BENCH_MECH_EKERNEL;
}

static int kr_try_send(void *obj, uint32_t seq)
{
    return xRingbufferSend(((kr_t *)obj)->rb, &seq, sizeof seq, 0) == pdTRUE ? 0 : BENCH_MECH_EFULL;
}

static int kr_isr_send(void *obj, uint32_t seq, bool *woken)
{
    BaseType_t hp = pdFALSE;
    BaseType_t ok = xRingbufferSendFromISR(((kr_t *)obj)->rb, &seq, sizeof seq, &hp);
    hp_woken(hp, woken);
    return ok == pdTRUE ? 0 : BENCH_MECH_EFULL;
}

/* Each type received as its users receive it: a whole item (no-split), an
 * item that may come in two parts (allow-split), up to 4 bytes at a time
 * (byte buffer); every piece returned to the buffer. */
static int kr_recv(void *obj, uint32_t *seq)
{
    kr_t *r = obj;
    unsigned char *out = (unsigned char *)seq;
    size_t got = 0;
    while (got < sizeof *seq) {
        size_t sz = 0, tail_sz = 0;
        void *p = NULL, *tail = NULL;
        if (r->type == RINGBUF_TYPE_NOSPLIT) {
            p = xRingbufferReceive(r->rb, &sz, portMAX_DELAY);
        } else if (r->type == RINGBUF_TYPE_ALLOWSPLIT) {
            if (xRingbufferReceiveSplit(r->rb, &p, &tail, &sz, &tail_sz, portMAX_DELAY) != pdTRUE)
                p = NULL;
        } else {
            p = xRingbufferReceiveUpTo(r->rb, &sz, portMAX_DELAY, sizeof *seq - got);
        }
        if (!p)
            return BENCH_MECH_EKERNEL;
        bool fits = got + sz + tail_sz <= sizeof *seq;
        if (fits) {
            memcpy(out + got, p, sz);
            if (tail)
                memcpy(out + got + sz, tail, tail_sz);
            got += sz + tail_sz;
        }
        vRingbufferReturnItem(r->rb, p);
        if (tail)
            vRingbufferReturnItem(r->rb, tail);
        if (!fits || (r->type != RINGBUF_TYPE_BYTEBUF && got != sizeof *seq))
            return BENCH_MECH_ESIZE;
    }
    return 0;
}

static size_t kr_capacity(void *obj) { return ((kr_t *)obj)->depth; }

static void kr_kick(void *obj)
{
    uint32_t v = BENCH_MECH_MARKER;
    (void)kr_try_send(obj, v);
}

static int kr_memory(void *obj, size_t items, size_t *bytes, char *note, size_t n)
{
    kr_t *r = obj;
    return kernel_memory(r->heap, items, r->type == RINGBUF_TYPE_BYTEBUF ? "xRingbufferCreate(len x 4, BYTEBUF)"
                                                                       : "xRingbufferCreate(len x (8 + 4))",
                         bytes, note, n);
}

static int kr_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t v = seq + (uint32_t)i, got = ~v;
        if (kr_send(obj, v) != 0 || kr_recv(obj, &got) != 0 || got != v)
            return -1;
    }
    return 0;
}

#define ESPIDF_RINGBUF(ident, mech_name, make)                                                         \
    const bench_mech_t ident = {                                                                       \
        .name = mech_name,                                                                             \
        .traits = BENCH_MECH_PARKS | BENCH_MECH_FOREIGN_WAIT | BENCH_MECH_NATIVE,                                          \
        .create = make,                                                                                \
        .destroy = kr_destroy,                                                                         \
        .send = kr_send,                                                                               \
        .try_send = kr_try_send,                                                                       \
        .recv = kr_recv,                                                                               \
        .isr_send = kr_isr_send,                                                                       \
        .capacity = kr_capacity,                                                                       \
        .kick = kr_kick,                                                                               \
        .memory = kr_memory,                                                                           \
        .pairs = kr_pairs,                                                                             \
    }
ESPIDF_RINGBUF(bench_mech_espidf_ringbuf_nosplit, BENCH_MECH_ESPIDF_RINGBUF_NOSPLIT, krn_create);
ESPIDF_RINGBUF(bench_mech_espidf_ringbuf_allowsplit, BENCH_MECH_ESPIDF_RINGBUF_ALLOWSPLIT, kra_create);
ESPIDF_RINGBUF(bench_mech_espidf_ringbuf_bytebuf, BENCH_MECH_ESPIDF_RINGBUF_BYTEBUF, krb_create);

#else

#define NOT_ESPIDF "ESP-IDF's ring buffer (esp_ringbuf): ESP-IDF only"
const bench_mech_t bench_mech_espidf_ringbuf_nosplit = {.name = BENCH_MECH_ESPIDF_RINGBUF_NOSPLIT, .absent = NOT_ESPIDF};
const bench_mech_t bench_mech_espidf_ringbuf_allowsplit = {.name = BENCH_MECH_ESPIDF_RINGBUF_ALLOWSPLIT,
                                                           .absent = NOT_ESPIDF};
const bench_mech_t bench_mech_espidf_ringbuf_bytebuf = {.name = BENCH_MECH_ESPIDF_RINGBUF_BYTEBUF, .absent = NOT_ESPIDF};

#endif
