/* The kernel's queue, stream buffer and ESP-IDF byte ring buffer for
 * byte-stream and batching, and the live sizes of the kernel's objects for
 * footprint (freertos_bytes.h), written as a FreeRTOS user writes them.
 * FreeRTOS targets only; freertos_bytes_absent.c stands in elsewhere. */
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
#else
#include "FreeRTOS.h"
#include "event_groups.h"
#include "message_buffer.h"
#include "queue.h"
#include "semphr.h"
#include "stream_buffer.h"
#endif

#include "../names.h"
#include "freertos_bytes.h"
#include "rtipc/error.h"

/* A wait in ticks, rounded up so that a short wait still waits: the
 * experiments' waits only bound how long a failure takes to notice. */
static TickType_t ticks(int64_t wait_ns)
{
    if (wait_ns < 0)
        return portMAX_DELAY;
    uint64_t t = ((uint64_t)wait_ns * configTICK_RATE_HZ + 999999999u) / 1000000000u;
    return t >= (uint64_t)portMAX_DELAY ? portMAX_DELAY - 1 : (TickType_t)t;
}

/* What a call that did not complete means: no room or nothing without a
 * wait, a timeout with one. */
static int not_done(int64_t wait_ns) { return wait_ns == 0 ? RTIPC_EWOULDBLOCK : RTIPC_ETIMEDOUT; }

/* ---- the queue ----------------------------------------------------------- */

static int kq_create(size_t len, size_t item, void **obj)
{
    QueueHandle_t q = xQueueCreate((UBaseType_t)len, (UBaseType_t)item);
    *obj = q;
    return q ? 0 : RTIPC_ENOMEM;
}
static void kq_destroy(void *obj) { vQueueDelete((QueueHandle_t)obj); }
static int kq_send(void *obj, const void *item, int64_t wait_ns)
{
    return xQueueSend((QueueHandle_t)obj, item, ticks(wait_ns)) == pdPASS ? 0 : not_done(wait_ns);
}
static int kq_recv(void *obj, void *item, int64_t wait_ns)
{
    return xQueueReceive((QueueHandle_t)obj, item, ticks(wait_ns)) == pdPASS ? 0 : not_done(wait_ns);
}

const bench_kqueue_t bench_kqueue = {NULL, kq_create, kq_destroy, kq_send, kq_recv};

/* ---- the stream buffer (trigger level 1) --------------------------------- */

static int ksb_create(size_t capacity, void **obj)
{
    StreamBufferHandle_t sb = xStreamBufferCreate(capacity, 1);
    *obj = sb;
    return sb ? 0 : RTIPC_ENOMEM;
}
static void ksb_destroy(void *obj) { vStreamBufferDelete((StreamBufferHandle_t)obj); }
static int ksb_send_nb(void *obj, const uint8_t *d, size_t n, size_t *taken)
{
    *taken = xStreamBufferSend((StreamBufferHandle_t)obj, d, n, 0);
    return 0;
}
static int ksb_send_all(void *obj, const uint8_t *d, size_t n, int64_t wait_ns, size_t *taken)
{
    /* A send waits until the whole request fits; only a timeout writes
     * less, and the rest goes in the next call. */
    size_t done = 0;
    while (done < n) {
        size_t k = xStreamBufferSend((StreamBufferHandle_t)obj, d + done, n - done, ticks(wait_ns));
        if (k == 0)
            break;
        done += k;
    }
    *taken = done;
    return done == n ? 0 : not_done(wait_ns);
}
static int ksb_recv(void *obj, uint8_t *buf, size_t max, const uint8_t **data, size_t *got, int64_t wait_ns)
{
    *got = xStreamBufferReceive((StreamBufferHandle_t)obj, buf, max, ticks(wait_ns));
    *data = buf;
    return *got ? 0 : not_done(wait_ns);
}

const bench_kbytes_t bench_kbytes_streambuf = {
    BENCH_MECH_KERNEL_STREAMBUF, NULL, ksb_create, ksb_destroy, ksb_send_nb, ksb_send_all, ksb_recv, NULL,
};

/* ---- ESP-IDF's byte ring buffer ------------------------------------------ */

#ifdef ESP_PLATFORM
static int krb_create(size_t capacity, void **obj)
{
    RingbufHandle_t rb = xRingbufferCreate(capacity, RINGBUF_TYPE_BYTEBUF);
    *obj = rb;
    return rb ? 0 : RTIPC_ENOMEM;
}
static void krb_destroy(void *obj) { vRingbufferDelete((RingbufHandle_t)obj); }
static int krb_send_nb(void *obj, const uint8_t *d, size_t n, size_t *taken)
{
    RingbufHandle_t rb = obj;
    *taken = 0;
    if (xRingbufferSend(rb, d, n, 0) == pdTRUE) {
        *taken = n;
        return 0;
    }
    /* A send is all or nothing: send the part that fits. */
    size_t room = xRingbufferGetCurFreeSize(rb);
    size_t k = room < n ? room : n;
    if (k && xRingbufferSend(rb, d, k, 0) == pdTRUE)
        *taken = k;
    return 0;
}
static int krb_send_all(void *obj, const uint8_t *d, size_t n, int64_t wait_ns, size_t *taken)
{
    BaseType_t ok = xRingbufferSend((RingbufHandle_t)obj, d, n, ticks(wait_ns));
    *taken = ok == pdTRUE ? n : 0;
    return ok == pdTRUE ? 0 : not_done(wait_ns);
}
static int krb_recv(void *obj, uint8_t *buf, size_t max, const uint8_t **data, size_t *got, int64_t wait_ns)
{
    (void)buf;
    *got = 0;
    void *p = xRingbufferReceiveUpTo((RingbufHandle_t)obj, got, ticks(wait_ns), max);
    *data = p;  /* checked in place, then returned */
    return p ? 0 : not_done(wait_ns);
}
static int krb_done(void *obj, const uint8_t *data)
{
    vRingbufferReturnItem((RingbufHandle_t)obj, (void *)(uintptr_t)data);
    return 0;
}

const bench_kbytes_t bench_kbytes_ringbuf = {
    BENCH_MECH_ESPIDF_RINGBUF_BYTEBUF, NULL, krb_create, krb_destroy, krb_send_nb, krb_send_all, krb_recv, krb_done,
};
#else
#define NOT_ESPIDF "ESP-IDF's ring buffer (esp_ringbuf): this FreeRTOS target is not ESP-IDF"
const bench_kbytes_t bench_kbytes_ringbuf = {.name = BENCH_MECH_ESPIDF_RINGBUF_BYTEBUF, .absent = NOT_ESPIDF};
#endif

/* ---- footprint ----------------------------------------------------------- */

/* One creation: the object (NULL when it failed) and what the static form
 * takes (control block + storage), for the note. */
typedef struct {
    void *h;
    size_t cb, storage;
    const char *call, *cb_type;
} kfp_made_t;

static kfp_made_t kfp_create(bench_kfp_kind_t kind, size_t a, size_t b)
{
    kfp_made_t m = {0};
    switch (kind) {
    case BENCH_KFP_QUEUE:
        m.h = xQueueCreate((UBaseType_t)a, (UBaseType_t)b);
        m.cb = sizeof(StaticQueue_t), m.storage = a * b, m.call = "xQueueCreate", m.cb_type = "StaticQueue_t";
        break;
    case BENCH_KFP_SEM_BINARY:
        m.h = xSemaphoreCreateBinary();
        m.cb = sizeof(StaticSemaphore_t), m.call = "xSemaphoreCreateBinary", m.cb_type = "StaticSemaphore_t";
        break;
    case BENCH_KFP_SEM_COUNTING:
        m.h = xSemaphoreCreateCounting((UBaseType_t)a, 0);
        m.cb = sizeof(StaticSemaphore_t), m.call = "xSemaphoreCreateCounting", m.cb_type = "StaticSemaphore_t";
        break;
    case BENCH_KFP_MUTEX:
        m.h = xSemaphoreCreateMutex();
        m.cb = sizeof(StaticSemaphore_t), m.call = "xSemaphoreCreateMutex", m.cb_type = "StaticSemaphore_t";
        break;
    case BENCH_KFP_MUTEX_RECURSIVE:
        m.h = xSemaphoreCreateRecursiveMutex();
        m.cb = sizeof(StaticSemaphore_t), m.call = "xSemaphoreCreateRecursiveMutex",
        m.cb_type = "StaticSemaphore_t";
        break;
    case BENCH_KFP_EVENTGROUP:
        m.h = xEventGroupCreate();
        m.cb = sizeof(StaticEventGroup_t), m.call = "xEventGroupCreate", m.cb_type = "StaticEventGroup_t";
        break;
    case BENCH_KFP_STREAMBUF:
        m.h = xStreamBufferCreate(a, 1);
        /* The static form's storage is one byte more than the size. */
        m.cb = sizeof(StaticStreamBuffer_t), m.storage = a + 1, m.call = "xStreamBufferCreate",
        m.cb_type = "StaticStreamBuffer_t";
        break;
    case BENCH_KFP_MSGBUF:
        m.h = xMessageBufferCreate(a);
        m.cb = sizeof(StaticMessageBuffer_t), m.storage = a + 1, m.call = "xMessageBufferCreate",
        m.cb_type = "StaticMessageBuffer_t";
        break;
    case BENCH_KFP_QUEUE_SET:
        /* A set is a queue of member handles. */
        m.h = xQueueCreateSet((UBaseType_t)a);
        m.cb = sizeof(StaticQueue_t), m.storage = a * sizeof(QueueSetMemberHandle_t), m.call = "xQueueCreateSet",
        m.cb_type = "StaticQueue_t";
        break;
#ifdef ESP_PLATFORM
    case BENCH_KFP_RINGBUF_NOSPLIT:
    case BENCH_KFP_RINGBUF_ALLOWSPLIT:
    case BENCH_KFP_RINGBUF_BYTEBUF: {
        RingbufferType_t t = kind == BENCH_KFP_RINGBUF_NOSPLIT     ? RINGBUF_TYPE_NOSPLIT
                             : kind == BENCH_KFP_RINGBUF_ALLOWSPLIT ? RINGBUF_TYPE_ALLOWSPLIT
                                                                    : RINGBUF_TYPE_BYTEBUF;
        m.h = xRingbufferCreate(a, t);
        /* Item types round the storage up to a multiple of 4. */
        m.cb = sizeof(StaticRingbuffer_t), m.storage = t == RINGBUF_TYPE_BYTEBUF ? a : (a + 3) / 4 * 4,
        m.call = "xRingbufferCreate", m.cb_type = "StaticRingbuffer_t";
        break;
    }
#else
    case BENCH_KFP_RINGBUF_NOSPLIT:
    case BENCH_KFP_RINGBUF_ALLOWSPLIT:
    case BENCH_KFP_RINGBUF_BYTEBUF:
        break;
#endif
    }
    return m;
}

static void kfp_delete(bench_kfp_kind_t kind, void *h)
{
    switch (kind) {
    case BENCH_KFP_QUEUE:
    case BENCH_KFP_QUEUE_SET:
        vQueueDelete((QueueHandle_t)h);
        break;
    case BENCH_KFP_SEM_BINARY:
    case BENCH_KFP_SEM_COUNTING:
    case BENCH_KFP_MUTEX:
    case BENCH_KFP_MUTEX_RECURSIVE:
        vSemaphoreDelete((SemaphoreHandle_t)h);
        break;
    case BENCH_KFP_EVENTGROUP:
        vEventGroupDelete((EventGroupHandle_t)h);
        break;
    case BENCH_KFP_STREAMBUF:
    case BENCH_KFP_MSGBUF:
        vStreamBufferDelete((StreamBufferHandle_t)h);
        break;
    case BENCH_KFP_RINGBUF_NOSPLIT:
    case BENCH_KFP_RINGBUF_ALLOWSPLIT:
    case BENCH_KFP_RINGBUF_BYTEBUF:
#ifdef ESP_PLATFORM
        vRingbufferDelete((RingbufHandle_t)h);
#endif
        break;
    }
}

static int cmp_size(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    return a < b ? -1 : a > b;
}

int bench_kfp_measure(bench_kfp_kind_t kind, size_t a, size_t b, size_t *bytes, char *note, size_t n)
{
#ifndef ESP_PLATFORM
    if (kind == BENCH_KFP_RINGBUF_NOSPLIT || kind == BENCH_KFP_RINGBUF_ALLOWSPLIT || kind == BENCH_KFP_RINGBUF_BYTEBUF) {
        snprintf(note, n, "%s", NOT_ESPIDF);
        return 1;
    }
#endif
    /* Another core or task may allocate or free meanwhile: the median of
     * three creations. */
    size_t taken[3];
    kfp_made_t m = {0};
    for (int i = 0; i < 3; i++) {
        size_t before = xPortGetFreeHeapSize();
        m = kfp_create(kind, a, b);
        size_t after = xPortGetFreeHeapSize();
        if (!m.h) {
            snprintf(note, n, "%s: out of kernel heap", m.call ? m.call : "create");
            return -1;
        }
        taken[i] = before > after ? before - after : 0;
        kfp_delete(kind, m.h);
    }
    qsort(taken, 3, sizeof taken[0], cmp_size);
    *bytes = taken[1];
    snprintf(note, n, "measured: kernel heap taken by %s (xPortGetFreeHeapSize before and after, median of 3; "
             "heap block headers included); its static form: sizeof(%s) %lu + storage %lu = %lu B",
             m.call, m.cb_type, (unsigned long)m.cb, (unsigned long)m.storage, (unsigned long)(m.cb + m.storage));
    return 0;
}
