/* Stream buffers on FreeRTOS: a kernel stream buffer
 * (xStreamBufferCreateStatic over rtipc's own storage). */
#include <string.h>

#include "bytebuf.h"
#include "rtipc/streambuf.h"
#include "common/checks.h"
#include "common/create.h"

struct rtipc__streambuf {
    struct rtipc__bytebuf b;
};

_Static_assert(sizeof(struct rtipc__streambuf) <= sizeof(rtipc_streambuf_static_t),
               "rtipc_streambuf_static_t holds the stream buffer (raise RTIPC_BYTEBUF_STATIC_SIZE)");
_Static_assert(_Alignof(struct rtipc__streambuf) <= _Alignof(rtipc_streambuf_static_t), "static block alignment");
_Static_assert(RTIPC_STREAMBUF_STORAGE_SIZE(0) == RTIPC__BYTEBUF_STORAGE(0), "the storage the kernel needs");

static struct rtipc__streambuf *get(const rtipc_streambuf_t *handle) { return rtipc__handle_get(handle, RTIPC__H_STREAMBUF); }

/* The kernel's stream buffer over @p storage (size + 1 bytes), and its handle. */
static int init(struct rtipc__streambuf *sb, size_t size, size_t trigger, void *storage, uint32_t flags,
                rtipc_streambuf_t **out)
{
    rtipc__bytebuf_track_deletes();
    memset(sb, 0, sizeof *sb);
    sb->b.flags = flags;
    sb->b.size = size;
    sb->b.spin = RTIPC_SPIN_DEFAULT;
    sb->b.handle = xStreamBufferCreateStatic(RTIPC__BYTEBUF_STORAGE(size), trigger ? trigger : 1, storage,
                                             &sb->b.cb);
    uintptr_t h = rtipc__open(sb, RTIPC__H_STREAMBUF, NULL);
    if (h == 0) {
        vStreamBufferDelete(sb->b.handle);
        return RTIPC_ENOMEM;
    }
    *out = (rtipc_streambuf_t *)h;
    return RTIPC_OK;
}

int rtipc_streambuf_create(size_t size, size_t trigger_level, rtipc_streambuf_t **out)
{
    int rc;
    struct rtipc__streambuf *sb =
        RTIPC__CREATE_ALLOC(out && rtipc__streambuf_shape_ok(size, trigger_level), struct rtipc__streambuf,
                            RTIPC__BYTEBUF_STORAGE(size), &rc);
    if (!sb)
        return rc;
    rc = init(sb, size, trigger_level, sb + 1, RTIPC__DYNAMIC, out);
    if (rc != RTIPC_OK)
        rtipc__port_free(sb, _Alignof(struct rtipc__streambuf));
    return rc;
}

int rtipc_streambuf_create_static(size_t size, size_t trigger_level, void *storage, rtipc_streambuf_static_t *cb,
                                  rtipc_streambuf_t **out)
{
    /* The kernel's creation enters a task-level critical section. */
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!out || !cb || !storage || !rtipc__streambuf_shape_ok(size, trigger_level))
        return RTIPC_EINVAL;
    return init((struct rtipc__streambuf *)(void *)cb, size, trigger_level, storage, 0, out);
}

int rtipc_streambuf_delete(rtipc_streambuf_t *handle)
{
    struct rtipc__streambuf *sb = get(handle);
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!sb)
        return RTIPC_EINVAL;
    if (!rtipc__side_enter(&sb->b.writer))
        return RTIPC_EBUSY;
    if (!rtipc__side_enter(&sb->b.reader)) {
        rtipc__side_leave(&sb->b.writer);
        return RTIPC_EBUSY;
    }
    /* From here on the handle is refused, before the memory goes. */
    rtipc__handle_close((uintptr_t)handle);
    vStreamBufferDelete(sb->b.handle);
    if (sb->b.flags & RTIPC__DYNAMIC)
        rtipc__port_free(sb, _Alignof(struct rtipc__streambuf));
    return RTIPC_OK;
}

int rtipc_streambuf_send(rtipc_streambuf_t *handle, const void *data, size_t len, size_t *sent, rtipc_timeout_t timeout)
{
    struct rtipc__streambuf *sb = get(handle);
    if (sent)
        *sent = 0;
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!sb || !data || !sent || len == 0)
        return RTIPC_EINVAL;
    if (!rtipc__side_enter(&sb->b.writer))
        return RTIPC_EBUSY;
    struct rtipc__task *self = rtipc__bytebuf_wait_begin(&sb->b, true, timeout);
    size_t n = xStreamBufferSend(sb->b.handle, data, len, rtipc__ticks(timeout));
    rtipc__bytebuf_wait_end(self);
    rtipc__side_leave(&sb->b.writer);
    *sent = n;
    return n > 0 ? RTIPC_OK : rtipc__fail(timeout);
}

int rtipc_streambuf_receive(rtipc_streambuf_t *handle, void *buf, size_t len, size_t *received, rtipc_timeout_t timeout)
{
    struct rtipc__streambuf *sb = get(handle);
    if (received)
        *received = 0;
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    if (!sb || !buf || !received || len == 0)
        return RTIPC_EINVAL;
    if (!rtipc__side_enter(&sb->b.reader))
        return RTIPC_EBUSY;
    struct rtipc__task *self = rtipc__bytebuf_wait_begin(&sb->b, false, timeout);
    size_t n = xStreamBufferReceive(sb->b.handle, buf, len, rtipc__ticks(timeout));
    rtipc__bytebuf_wait_end(self);
    rtipc__side_leave(&sb->b.reader);
    *received = n;
    return n > 0 ? RTIPC_OK : rtipc__fail(timeout);
}

int rtipc_streambuf_send_from_isr(rtipc_streambuf_t *handle, const void *data, size_t len, size_t *sent, bool *woken)
{
    struct rtipc__streambuf *sb = get(handle);
    if (sent)
        *sent = 0;
    if (!sb || !data || !sent || len == 0)
        return RTIPC_EINVAL;
    if (!rtipc__side_enter(&sb->b.writer))
        return RTIPC_EBUSY;
    BaseType_t hp = pdFALSE;
    size_t n = xStreamBufferSendFromISR(sb->b.handle, data, len, &hp);
    rtipc__side_leave(&sb->b.writer);
    rtipc__woken(hp, woken);
    *sent = n;
    return n > 0 ? RTIPC_OK : RTIPC_EWOULDBLOCK;
}

int rtipc_streambuf_receive_from_isr(rtipc_streambuf_t *handle, void *buf, size_t len, size_t *received, bool *woken)
{
    struct rtipc__streambuf *sb = get(handle);
    if (received)
        *received = 0;
    if (!sb || !buf || !received || len == 0)
        return RTIPC_EINVAL;
    if (!rtipc__side_enter(&sb->b.reader))
        return RTIPC_EBUSY;
    BaseType_t hp = pdFALSE;
    size_t n = xStreamBufferReceiveFromISR(sb->b.handle, buf, len, &hp);
    rtipc__side_leave(&sb->b.reader);
    rtipc__woken(hp, woken);
    *received = n;
    return n > 0 ? RTIPC_OK : RTIPC_EWOULDBLOCK;
}

int rtipc_streambuf_set_trigger_level(rtipc_streambuf_t *handle, size_t level)
{
    struct rtipc__streambuf *sb = get(handle);
    if (!sb || level > sb->b.size)
        return RTIPC_EINVAL;
    return xStreamBufferSetTriggerLevel(sb->b.handle, level ? level : 1) == pdTRUE ? RTIPC_OK : RTIPC_EINVAL;
}

int rtipc_streambuf_reset(rtipc_streambuf_t *handle)
{
    struct rtipc__streambuf *sb = get(handle);
    if (!sb)
        return RTIPC_EINVAL;
#if !RTIPC__HAVE_BUFFER_RESET_FROM_ISR
    /* Before V11.1 the kernel has no interrupt-safe reset (xStreamBufferReset
     * takes a task-level critical section): refused, nothing changed. */
    if (rtipc__in_isr())
        return RTIPC_ENOTSUP;
#endif
    if (!rtipc__side_enter(&sb->b.writer))
        return RTIPC_EBUSY;
    if (!rtipc__side_enter(&sb->b.reader)) {
        rtipc__side_leave(&sb->b.writer);
        return RTIPC_EBUSY;
    }
#if RTIPC__HAVE_BUFFER_RESET_FROM_ISR
    BaseType_t ok = rtipc__in_isr() ? xStreamBufferResetFromISR(sb->b.handle) : xStreamBufferReset(sb->b.handle);
#else
    BaseType_t ok = xStreamBufferReset(sb->b.handle);
#endif
    rtipc__side_leave(&sb->b.reader);
    rtipc__side_leave(&sb->b.writer);
    return ok == pdPASS ? RTIPC_OK : RTIPC_EBUSY;
}

int rtipc_streambuf_bytes_available(const rtipc_streambuf_t *handle)
{
    struct rtipc__streambuf *sb = get(handle);
    return sb ? (int)xStreamBufferBytesAvailable(sb->b.handle) : RTIPC_EINVAL;
}

int rtipc_streambuf_spaces_available(const rtipc_streambuf_t *handle)
{
    struct rtipc__streambuf *sb = get(handle);
    return sb ? (int)xStreamBufferSpacesAvailable(sb->b.handle) : RTIPC_EINVAL;
}

int rtipc_streambuf_is_empty(const rtipc_streambuf_t *handle)
{
    struct rtipc__streambuf *sb = get(handle);
    return sb ? (xStreamBufferIsEmpty(sb->b.handle) == pdTRUE) : RTIPC_EINVAL;
}

int rtipc_streambuf_is_full(const rtipc_streambuf_t *handle)
{
    struct rtipc__streambuf *sb = get(handle);
    return sb ? (xStreamBufferIsFull(sb->b.handle) == pdTRUE) : RTIPC_EINVAL;
}

size_t rtipc_streambuf_footprint_for(size_t size)
{
    if (size == 0)
        return sizeof(struct rtipc__streambuf);
    return size <= INT32_MAX ? sizeof(struct rtipc__streambuf) + RTIPC__BYTEBUF_STORAGE(size) : 0;
}

size_t rtipc_streambuf_footprint(const rtipc_streambuf_t *handle)
{
    struct rtipc__streambuf *sb = get(handle);
    return sb ? rtipc_streambuf_footprint_for(sb->b.size) : 0;
}

int rtipc_streambuf_set_spin(rtipc_streambuf_t *handle, int64_t ns)
{
    struct rtipc__streambuf *sb = get(handle);
    if (!sb || !rtipc__spin_ok(ns))
        return RTIPC_EINVAL;
    sb->b.spin = ns;
    return RTIPC_OK;
}

/* The task hook (task_internal.h): a task being deleted while it may block
 * in a buffer. The scheduler is suspended. */
static void abandon(struct rtipc__task *t)
{
    struct rtipc__bytebuf *b = t->in_bytebuf;
    if (!b)
        return;
    /* The kernel's completion call for the other side wakes the recorded
     * waiter (the task about to be deleted: one writer and one reader at a
     * time) and forgets it, so no later call notifies a deleted task. */
    BaseType_t hp = pdFALSE;
    if (t->in_bytebuf_writer) {
        (void)xStreamBufferReceiveCompletedFromISR(b->handle, &hp);
        rtipc__side_leave(&b->writer);
    } else {
        (void)xStreamBufferSendCompletedFromISR(b->handle, &hp);
        rtipc__side_leave(&b->reader);
    }
    (void)hp; /* the caller resumes the scheduler */
}

void rtipc__bytebuf_track_deletes(void)
{
    static const rtipc__task_hooks_t bytebuf_hooks = {.deleted_blocked = abandon};
    rtipc__task_hooks_add(&bytebuf_hooks);
}
