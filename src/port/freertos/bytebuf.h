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

struct rtipc__bytebuf {
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
#define RTIPC__BYTEBUF_STORAGE(size) ((size) + 1u)

static inline bool rtipc__side_enter(_Atomic unsigned char *side)
{
    return atomic_exchange_explicit(side, 1, memory_order_acquire) == 0;
}

static inline void rtipc__side_leave(_Atomic unsigned char *side)
{
    atomic_store_explicit(side, 0, memory_order_release);
}

/* While a task may block in the kernel's stream buffer call, the kernel
 * records it as the buffer's waiter, and nothing in the kernel forgets it
 * when the task is deleted. The task's descriptor names the buffer for that
 * time, so that rtipc_task_delete can hand the side back and clear the
 * kernel's record (rtipc__bytebuf_track_deletes). NULL when nothing to record. */
static inline struct rtipc__task *rtipc__bytebuf_wait_begin(struct rtipc__bytebuf *b, bool writer,
                                                             rtipc_timeout_t timeout)
{
    if (rtipc_timeout_is_no_wait(timeout))
        return NULL;
    struct rtipc__task *self = rtipc__task_of(NULL);
    if (self) {
        RTIPC__TASK_CRIT_ENTER();
        self->in_bytebuf = b;
        self->in_bytebuf_writer = writer;
        RTIPC__TASK_CRIT_EXIT();
    }
    return self;
}

static inline void rtipc__bytebuf_wait_end(struct rtipc__task *self)
{
    if (self) {
        RTIPC__TASK_CRIT_ENTER();
        self->in_bytebuf = NULL;
        RTIPC__TASK_CRIT_EXIT();
    }
}

/* Adds the task hook through which rtipc_task_delete, deleting a task that
 * may be blocked in a stream or message buffer, hands its side back and
 * clears the kernel's record (streambuf.c). Each buffer's creation calls
 * it (task context). */
void rtipc__bytebuf_track_deletes(void);

#endif
