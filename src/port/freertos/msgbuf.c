/* Message buffers on FreeRTOS: a kernel message buffer
 * (xMessageBufferCreateStatic over rtipc's own storage). Its length prefix
 * is configMESSAGE_BUFFER_LENGTH_TYPE, which must be a 4-byte type so that
 * sizes match rtipc's RTIPC_MSGBUF_LENGTH_BYTES. */
#include <string.h>

#include "bytebuf.h"
#ifdef ESP_PLATFORM
#include "freertos/message_buffer.h"
#else
#include "message_buffer.h"
#endif
#include "rtipc/msgbuf.h"
#include "common/checks.h"
#include "common/create.h"

#ifndef configMESSAGE_BUFFER_LENGTH_TYPE
#error "rtipc on FreeRTOS needs configMESSAGE_BUFFER_LENGTH_TYPE uint32_t (RTIPC_MSGBUF_LENGTH_BYTES is 4)"
#endif
_Static_assert(sizeof(configMESSAGE_BUFFER_LENGTH_TYPE) == RTIPC_MSGBUF_LENGTH_BYTES,
               "configMESSAGE_BUFFER_LENGTH_TYPE must be 4 bytes (uint32_t)");

struct rtipc__msgbuf {
    struct rtipc__bytebuf b;
};

static struct rtipc__msgbuf *get(const rtipc_msgbuf_t *handle) { return rtipc__handle_get(handle, RTIPC__H_MSGBUF); }
static bool size_ok(size_t size) { return rtipc__msgbuf_size_ok(size); }

_Static_assert(sizeof(struct rtipc__msgbuf) <= sizeof(rtipc_msgbuf_static_t),
               "rtipc_msgbuf_static_t holds the message buffer (raise RTIPC_BYTEBUF_STATIC_SIZE)");
_Static_assert(_Alignof(struct rtipc__msgbuf) <= _Alignof(rtipc_msgbuf_static_t), "static block alignment");
_Static_assert(RTIPC_MSGBUF_STORAGE_SIZE(0) == RTIPC__BYTEBUF_STORAGE(0), "the storage the kernel needs");

/* The kernel's message buffer over @p storage (size + 1 bytes), and its handle. */
static int init(struct rtipc__msgbuf *mb, size_t size, void *storage, uint32_t flags, rtipc_msgbuf_t **out)
{
    rtipc__bytebuf_track_deletes();
    memset(mb, 0, sizeof *mb);
    mb->b.flags = flags;
    mb->b.size = size;
    mb->b.spin = RTIPC_SPIN_DEFAULT;
    mb->b.handle = xMessageBufferCreateStatic(RTIPC__BYTEBUF_STORAGE(size), storage, &mb->b.cb);
    uintptr_t h = rtipc__open(mb, RTIPC__H_MSGBUF, NULL);
    if (h == 0) {
        vMessageBufferDelete(mb->b.handle);
        return RTIPC_ENOMEM;
    }
    *out = (rtipc_msgbuf_t *)h;
    return RTIPC_OK;
}

int rtipc_msgbuf_create(size_t size, rtipc_msgbuf_t **out)
{
    int rc;
    struct rtipc__msgbuf *mb =
        RTIPC__CREATE_ALLOC(out && size_ok(size), struct rtipc__msgbuf, RTIPC__BYTEBUF_STORAGE(size), &rc);
    if (!mb)
        return rc;
    rc = init(mb, size, mb + 1, RTIPC__DYNAMIC, out);
    if (rc != RTIPC_OK)
        rtipc__port_free(mb, _Alignof(struct rtipc__msgbuf));
    return rc;
}

int rtipc_msgbuf_create_static(size_t size, void *storage, rtipc_msgbuf_static_t *cb, rtipc_msgbuf_t **out)
{
    /* The kernel's creation enters a task-level critical section. */
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!out || !cb || !storage || !size_ok(size))
        return RTIPC_EINVAL;
    return init((struct rtipc__msgbuf *)(void *)cb, size, storage, 0, out);
}

int rtipc_msgbuf_delete(rtipc_msgbuf_t *handle)
{
    struct rtipc__msgbuf *mb = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!mb)
        return RTIPC_EINVAL;
    if (!rtipc__side_enter(&mb->b.writer))
        return RTIPC_EBUSY;
    if (!rtipc__side_enter(&mb->b.reader)) {
        rtipc__side_leave(&mb->b.writer);
        return RTIPC_EBUSY;
    }
    /* From here on the handle is refused, before the memory goes. */
    rtipc__handle_close((uintptr_t)handle);
    vMessageBufferDelete(mb->b.handle);
    if (mb->b.flags & RTIPC__DYNAMIC)
        rtipc__port_free(mb, _Alignof(struct rtipc__msgbuf));
    return RTIPC_OK;
}

int rtipc_msgbuf_send(rtipc_msgbuf_t *handle, const void *msg, size_t len, rtipc_timeout_t timeout)
{
    struct rtipc__msgbuf *mb = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!mb || !msg || len == 0 || len > mb->b.size - RTIPC_MSGBUF_LENGTH_BYTES)
        return RTIPC_EINVAL;
    if (!rtipc__side_enter(&mb->b.writer))
        return RTIPC_EBUSY;
    struct rtipc__task *self = rtipc__bytebuf_wait_begin(&mb->b, true, timeout);
    size_t n = xMessageBufferSend(mb->b.handle, msg, len, rtipc__ticks(timeout));
    rtipc__bytebuf_wait_end(self);
    rtipc__side_leave(&mb->b.writer);
    return n == len ? RTIPC_OK : rtipc__fail(timeout);
}

/* After the kernel returned 0: empty, or the next message is too long. */
static int receive_failed(struct rtipc__msgbuf *mb, size_t cap, size_t *len, int empty_code)
{
    size_t next = xMessageBufferNextLengthBytes(mb->b.handle);
    if (next > cap) {
        *len = next;
        return RTIPC_EINVAL;
    }
    return empty_code;
}

int rtipc_msgbuf_receive(rtipc_msgbuf_t *handle, void *buf, size_t cap, size_t *len, rtipc_timeout_t timeout)
{
    struct rtipc__msgbuf *mb = get(handle);
    if (len)
        *len = 0;
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!mb || !buf || !len || cap == 0)
        return RTIPC_EINVAL;
    if (!rtipc__side_enter(&mb->b.reader))
        return RTIPC_EBUSY;
    struct rtipc__task *self = rtipc__bytebuf_wait_begin(&mb->b, false, timeout);
    size_t n = xMessageBufferReceive(mb->b.handle, buf, cap, rtipc__ticks(timeout));
    rtipc__bytebuf_wait_end(self);
    int rc = RTIPC_OK;
    if (n > 0)
        *len = n;
    else
        rc = receive_failed(mb, cap, len, rtipc__fail(timeout));
    rtipc__side_leave(&mb->b.reader);
    return rc;
}

int rtipc_msgbuf_send_from_isr(rtipc_msgbuf_t *handle, const void *msg, size_t len, bool *woken)
{
    struct rtipc__msgbuf *mb = get(handle);
    if (!mb || !msg || len == 0 || len > mb->b.size - RTIPC_MSGBUF_LENGTH_BYTES)
        return RTIPC_EINVAL;
    if (!rtipc__side_enter(&mb->b.writer))
        return RTIPC_EBUSY;
    BaseType_t hp = pdFALSE;
    size_t n = xMessageBufferSendFromISR(mb->b.handle, msg, len, &hp);
    rtipc__side_leave(&mb->b.writer);
    rtipc__woken(hp, woken);
    return n == len ? RTIPC_OK : RTIPC_EWOULDBLOCK;
}

int rtipc_msgbuf_receive_from_isr(rtipc_msgbuf_t *handle, void *buf, size_t cap, size_t *len, bool *woken)
{
    struct rtipc__msgbuf *mb = get(handle);
    if (len)
        *len = 0;
    if (!mb || !buf || !len || cap == 0)
        return RTIPC_EINVAL;
    if (!rtipc__side_enter(&mb->b.reader))
        return RTIPC_EBUSY;
    BaseType_t hp = pdFALSE;
    size_t n = xMessageBufferReceiveFromISR(mb->b.handle, buf, cap, &hp);
    rtipc__woken(hp, woken);
    int rc = RTIPC_OK;
    if (n > 0)
        *len = n;
    else
        rc = receive_failed(mb, cap, len, RTIPC_EWOULDBLOCK);
    rtipc__side_leave(&mb->b.reader);
    return rc;
}

int rtipc_msgbuf_next_length(const rtipc_msgbuf_t *handle)
{
    struct rtipc__msgbuf *mb = get(handle);
    if (!mb)
        return RTIPC_EINVAL;
    /* A statement of its own: V10.5's macro ends in a semicolon. */
    return (int)xMessageBufferNextLengthBytes(mb->b.handle);
}

int rtipc_msgbuf_reset(rtipc_msgbuf_t *handle)
{
    struct rtipc__msgbuf *mb = get(handle);
    if (!mb)
        return RTIPC_EINVAL;
#if !RTIPC__HAVE_BUFFER_RESET_FROM_ISR
    /* Before V11.1 the kernel has no interrupt-safe reset (xMessageBufferReset
     * takes a task-level critical section): refused, nothing changed. */
    if (rtipc__in_isr())
        return RTIPC_ENOTSUP;
#endif
    if (!rtipc__side_enter(&mb->b.writer))
        return RTIPC_EBUSY;
    if (!rtipc__side_enter(&mb->b.reader)) {
        rtipc__side_leave(&mb->b.writer);
        return RTIPC_EBUSY;
    }
#if RTIPC__HAVE_BUFFER_RESET_FROM_ISR
    BaseType_t ok = rtipc__in_isr() ? xMessageBufferResetFromISR(mb->b.handle) : xMessageBufferReset(mb->b.handle);
#else
    BaseType_t ok = xMessageBufferReset(mb->b.handle);
#endif
    rtipc__side_leave(&mb->b.reader);
    rtipc__side_leave(&mb->b.writer);
    return ok == pdPASS ? RTIPC_OK : RTIPC_EBUSY;
}

int rtipc_msgbuf_bytes_available(const rtipc_msgbuf_t *handle)
{
    struct rtipc__msgbuf *mb = get(handle);
    return mb ? (int)xStreamBufferBytesAvailable(mb->b.handle) : RTIPC_EINVAL;
}

int rtipc_msgbuf_spaces_available(const rtipc_msgbuf_t *handle)
{
    struct rtipc__msgbuf *mb = get(handle);
    return mb ? (int)xMessageBufferSpacesAvailable(mb->b.handle) : RTIPC_EINVAL;
}

int rtipc_msgbuf_is_empty(const rtipc_msgbuf_t *handle)
{
    struct rtipc__msgbuf *mb = get(handle);
    return mb ? (xMessageBufferIsEmpty(mb->b.handle) == pdTRUE) : RTIPC_EINVAL;
}

int rtipc_msgbuf_is_full(const rtipc_msgbuf_t *handle)
{
    struct rtipc__msgbuf *mb = get(handle);
    return mb ? (xMessageBufferIsFull(mb->b.handle) == pdTRUE) : RTIPC_EINVAL;
}

size_t rtipc_msgbuf_footprint_for(size_t size)
{
    if (size == 0)
        return sizeof(struct rtipc__msgbuf);
    return size_ok(size) ? sizeof(struct rtipc__msgbuf) + RTIPC__BYTEBUF_STORAGE(size) : 0;
}

size_t rtipc_msgbuf_footprint(const rtipc_msgbuf_t *handle)
{
    struct rtipc__msgbuf *mb = get(handle);
    return mb ? rtipc_msgbuf_footprint_for(mb->b.size) : 0;
}

int rtipc_msgbuf_set_spin(rtipc_msgbuf_t *handle, int64_t ns)
{
    struct rtipc__msgbuf *mb = get(handle);
    if (!mb || !rtipc__spin_ok(ns))
        return RTIPC_EINVAL;
    mb->b.spin = ns;
    return RTIPC_OK;
}
