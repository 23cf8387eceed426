/* ESP-IDF's ring buffer (the esp_ringbuf component), as far as rtipc's
 * mapping (src/port/freertos/ringbuf_espidf.c) calls it: declarations with
 * the parameter types of ESP-IDF v5.1's freertos/ringbuf.h, for the host
 * compile of syntax_check.sh. Nothing here is linked. */
#ifndef RTIPC_STANDIN_FREERTOS_RINGBUF_H
#define RTIPC_STANDIN_FREERTOS_RINGBUF_H

#include <stddef.h>
#include <stdint.h>

#include <FreeRTOS.h>
#include <queue.h>
#include <task.h>

#include "esp_port_extras.h" /* portMUX_TYPE */

typedef void *RingbufHandle_t;

/* Type values as ESP-IDF numbers them; RINGBUF_TYPE_MAX ends the list. */
typedef enum {
    RINGBUF_TYPE_NOSPLIT = 0,
    RINGBUF_TYPE_ALLOWSPLIT,
    RINGBUF_TYPE_BYTEBUF,
    RINGBUF_TYPE_MAX,
} RingbufferType_t;

/* Opaque storage of the control block, shaped like ESP-IDF's: two sizes, a
 * flags word, eleven pointers, a count, two task lists, the set handle and
 * the spinlock. */
typedef struct xSTATIC_RINGBUFFER {
    size_t sizes[2];
    UBaseType_t flags;
    void *pointers[11];
    BaseType_t count;
    StaticList_t lists[2];
    void *set;
    portMUX_TYPE lock;
} StaticRingbuffer_t;

RingbufHandle_t xRingbufferCreate(size_t xBufferSize, RingbufferType_t xBufferType);
RingbufHandle_t xRingbufferCreateNoSplit(size_t xItemSize, size_t xItemNum);
RingbufHandle_t xRingbufferCreateStatic(size_t xBufferSize, RingbufferType_t xBufferType,
                                        uint8_t *pucRingbufferStorage, StaticRingbuffer_t *pxStaticRingbuffer);
void vRingbufferDelete(RingbufHandle_t xRingbuffer);

BaseType_t xRingbufferSend(RingbufHandle_t xRingbuffer, const void *pvItem, size_t xItemSize,
                           TickType_t xTicksToWait);
BaseType_t xRingbufferSendFromISR(RingbufHandle_t xRingbuffer, const void *pvItem, size_t xItemSize,
                                  BaseType_t *pxHigherPriorityTaskWoken);
BaseType_t xRingbufferSendAcquire(RingbufHandle_t xRingbuffer, void **ppvItem, size_t xItemSize,
                                  TickType_t xTicksToWait);
BaseType_t xRingbufferSendComplete(RingbufHandle_t xRingbuffer, void *pvItem);

void *xRingbufferReceive(RingbufHandle_t xRingbuffer, size_t *pxItemSize, TickType_t xTicksToWait);
void *xRingbufferReceiveFromISR(RingbufHandle_t xRingbuffer, size_t *pxItemSize);
BaseType_t xRingbufferReceiveSplit(RingbufHandle_t xRingbuffer, void **ppvHeadItem, void **ppvTailItem,
                                   size_t *pxHeadItemSize, size_t *pxTailItemSize, TickType_t xTicksToWait);
BaseType_t xRingbufferReceiveSplitFromISR(RingbufHandle_t xRingbuffer, void **ppvHeadItem, void **ppvTailItem,
                                          size_t *pxHeadItemSize, size_t *pxTailItemSize);
void *xRingbufferReceiveUpTo(RingbufHandle_t xRingbuffer, size_t *pxItemSize, TickType_t xTicksToWait,
                             size_t xMaxSize);
void *xRingbufferReceiveUpToFromISR(RingbufHandle_t xRingbuffer, size_t *pxItemSize, size_t xMaxSize);
void vRingbufferReturnItem(RingbufHandle_t xRingbuffer, void *pvItem);
void vRingbufferReturnItemFromISR(RingbufHandle_t xRingbuffer, void *pvItem, BaseType_t *pxHigherPriorityTaskWoken);

size_t xRingbufferGetMaxItemSize(RingbufHandle_t xRingbuffer);
size_t xRingbufferGetCurFreeSize(RingbufHandle_t xRingbuffer);
void vRingbufferGetInfo(RingbufHandle_t xRingbuffer, UBaseType_t *uxFree, UBaseType_t *uxRead,
                        UBaseType_t *uxWrite, UBaseType_t *uxAcquire, UBaseType_t *uxItemsWaiting);

BaseType_t xRingbufferAddToQueueSetRead(RingbufHandle_t xRingbuffer, QueueSetHandle_t xQueueSet);
BaseType_t xRingbufferRemoveFromQueueSetRead(RingbufHandle_t xRingbuffer, QueueSetHandle_t xQueueSet);
/* In ESP-IDF an inline test: whether a selected set member is this ring buffer. */
static inline BaseType_t xRingbufferCanRead(RingbufHandle_t xRingbuffer, QueueSetMemberHandle_t xMember)
{
    return xMember == (QueueSetMemberHandle_t)xRingbuffer ? pdTRUE : pdFALSE;
}

#endif
