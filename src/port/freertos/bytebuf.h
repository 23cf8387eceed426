/* The part the stream buffer (streambuf.c) and the message buffer
 * (msgbuf.c) share on FreeRTOS: a kernel stream buffer in rtipc's wrapper
 * and the single-writer / single-reader guards rtipc makes checkable. */
#ifndef RTIPC_PORT_FREERTOS_BYTEBUF_H
#define RTIPC_PORT_FREERTOS_BYTEBUF_H

#include <stdatomic.h>

#include "port_internal.h"
#ifdef ESP_PLATFORM
#include "freertos/stream_buffer.h"
#else
#include "stream_buffer.h"
#endif

struct rtipc__fr_bytebuf {
    uint32_t flags;
    StaticStreamBuffer_t cb;
    StreamBufferHandle_t handle;
    size_t size;                /* usable bytes */
    _Atomic unsigned char writer; /* 1 while a writing call runs */
    _Atomic unsigned char reader; /* 1 while a reading call runs */
    int64_t spin;
};

/* The kernel keeps one byte of its storage free to tell full from empty, so
 * rtipc gives it size + 1 bytes for size usable ones. */
#define RTIPC__FR_BYTEBUF_STORAGE(size) ((size) + 1u)

static inline bool rtipc__fr_side_enter(_Atomic unsigned char *side)
{
    return atomic_exchange_explicit(side, 1, memory_order_acquire) == 0;
}

static inline void rtipc__fr_side_leave(_Atomic unsigned char *side)
{
    atomic_store_explicit(side, 0, memory_order_release);
}

#endif
