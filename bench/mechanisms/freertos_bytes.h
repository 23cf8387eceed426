/* The FreeRTOS kernel's own byte and item objects for the experiments that
 * drive them directly rather than through the mechanism table (byte-stream,
 * batching) and their live sizes (footprint): queues of any item size, the
 * stream buffer and, on ESP-IDF, the byte ring buffer. Written as a FreeRTOS
 * user writes them (freertos_bytes.c); where rtipc does not run on FreeRTOS
 * (bench_mech_kernel_built false) freertos_bytes_absent.c gives entries that
 * say why and a footprint call that reports nothing measured.
 *
 * Errors are rtipc's codes (rtipc/error.h), so that the experiments report
 * both families the same way: RTIPC_ETIMEDOUT (a wait gave up),
 * RTIPC_EWOULDBLOCK (a call that does not wait found no room or nothing),
 * RTIPC_ENOMEM (creation failed). A wait of wait_ns < 0 is portMAX_DELAY. */
#ifndef BENCH_FREERTOS_BYTES_H
#define BENCH_FREERTOS_BYTES_H

#include <stddef.h>
#include <stdint.h>

/* A kernel queue: xQueueCreate(len, item), xQueueSend, xQueueReceive. */
typedef struct {
    const char *absent;  /* why it is not built here; NULL when it is */
    int (*create)(size_t len, size_t item, void **obj);
    void (*destroy)(void *obj);
    int (*send)(void *obj, const void *item, int64_t wait_ns);
    int (*recv)(void *obj, void *item, int64_t wait_ns);
} bench_kqueue_t;
extern const bench_kqueue_t bench_kqueue;

/* A byte stream object (the kernel's stream buffer, ESP-IDF's byte ring
 * buffer), in byte-stream's terms. */
typedef struct {
    const char *name;    /* names.h */
    const char *absent;  /* why it is not built here; NULL when it is */
    int (*create)(size_t capacity, void **obj);
    void (*destroy)(void *obj);
    /* Never waits: takes a prefix of the n bytes, *taken its length. */
    int (*send_nb)(void *obj, const uint8_t *d, size_t n, size_t *taken);
    /* Waits (each call up to wait_ns) until all n bytes are in. */
    int (*send_all)(void *obj, const uint8_t *d, size_t n, int64_t wait_ns, size_t *taken);
    /* Up to max bytes, in buf or in place (*data); released by done. */
    int (*recv)(void *obj, uint8_t *buf, size_t max, const uint8_t **data, size_t *got, int64_t wait_ns);
    int (*done)(void *obj, const uint8_t *data);  /* NULL: nothing to release */
} bench_kbytes_t;
extern const bench_kbytes_t bench_kbytes_streambuf;  /* kernel-streambuf, trigger level 1 */
extern const bench_kbytes_t bench_kbytes_ringbuf;    /* espidf-ringbuf-bytebuf */

/* The kernel objects footprint measures. */
typedef enum {
    BENCH_KFP_QUEUE,          /* a = length, b = item size */
    BENCH_KFP_SEM_BINARY,
    BENCH_KFP_SEM_COUNTING,   /* a = max count */
    BENCH_KFP_MUTEX,
    BENCH_KFP_MUTEX_RECURSIVE,
    BENCH_KFP_EVENTGROUP,
    BENCH_KFP_STREAMBUF,      /* a = size */
    BENCH_KFP_MSGBUF,         /* a = size */
    BENCH_KFP_QUEUE_SET,      /* a = length */
    BENCH_KFP_RINGBUF_NOSPLIT,     /* a = size (ESP-IDF) */
    BENCH_KFP_RINGBUF_ALLOWSPLIT,  /* a = size (ESP-IDF) */
    BENCH_KFP_RINGBUF_BYTEBUF,     /* a = size (ESP-IDF) */
} bench_kfp_kind_t;

/* The kernel heap bytes one live object of @p kind takes when created
 * dynamically (free bytes before and after creation, the median of three
 * creations), with a note saying how and what its static form takes. 0
 * measured; 1 the object does not exist on this target, -1 failed: @p note
 * says why. */
int bench_kfp_measure(bench_kfp_kind_t kind, size_t a, size_t b, size_t *bytes, char *note, size_t n);

#endif
