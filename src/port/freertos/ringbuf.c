/* ESP-IDF ring buffers are not part of the FreeRTOS kernel and are not
 * ported yet: creation reports RTIPC_ENOTSUP, so no ring buffer is ever live
 * and every call on a handle reports RTIPC_EINVAL. The item layout
 * (rtipc_ringbuf_item_footprint) is the portable core's and is answered. */
#include "../../common/ringbuf_core.h"
#include "port_internal.h"
#include "rtipc/ringbuf.h"

static bool type_ok(rtipc_ringbuf_type_t type)
{
    return type == RTIPC_RINGBUF_NOSPLIT || type == RTIPC_RINGBUF_ALLOWSPLIT || type == RTIPC_RINGBUF_BYTEBUF;
}

int rtipc_ringbuf_create(size_t size, rtipc_ringbuf_type_t type, rtipc_ringbuf_t **out)
{
    (void)size;
    (void)type;
    if (rtipc__fr_in_isr())
        return RTIPC_ECONTEXT;
    return out ? RTIPC_ENOTSUP : RTIPC_EINVAL;
}

int rtipc_ringbuf_create_static(size_t size, rtipc_ringbuf_type_t type, void *storage, rtipc_ringbuf_static_t *cb,
                                rtipc_ringbuf_t **out)
{
    (void)size;
    (void)type;
    return out && storage && cb ? RTIPC_ENOTSUP : RTIPC_EINVAL;
}

#define NOT_LIVE(rb) ((void)(rb), RTIPC_EINVAL)

int rtipc_ringbuf_delete(rtipc_ringbuf_t *rb) { return rtipc__fr_in_isr() ? RTIPC_ECONTEXT : NOT_LIVE(rb); }

int rtipc_ringbuf_send(rtipc_ringbuf_t *rb, const void *data, size_t size, rtipc_timeout_t timeout)
{
    (void)data, (void)size, (void)timeout;
    return rtipc__fr_in_isr() ? RTIPC_ECONTEXT : NOT_LIVE(rb);
}

int rtipc_ringbuf_acquire(rtipc_ringbuf_t *rb, void **item, size_t size, rtipc_timeout_t timeout)
{
    (void)item, (void)size, (void)timeout;
    return rtipc__fr_in_isr() ? RTIPC_ECONTEXT : NOT_LIVE(rb);
}

int rtipc_ringbuf_complete(rtipc_ringbuf_t *rb, void *item)
{
    (void)item;
    return NOT_LIVE(rb);
}

int rtipc_ringbuf_receive(rtipc_ringbuf_t *rb, void **item, size_t *size, rtipc_timeout_t timeout)
{
    (void)item, (void)size, (void)timeout;
    return rtipc__fr_in_isr() ? RTIPC_ECONTEXT : NOT_LIVE(rb);
}

int rtipc_ringbuf_receive_split(rtipc_ringbuf_t *rb, void **head, size_t *head_size, void **tail,
                                size_t *tail_size, rtipc_timeout_t timeout)
{
    (void)head, (void)head_size, (void)tail, (void)tail_size, (void)timeout;
    return rtipc__fr_in_isr() ? RTIPC_ECONTEXT : NOT_LIVE(rb);
}

int rtipc_ringbuf_receive_up_to(rtipc_ringbuf_t *rb, void **item, size_t *size, size_t max, rtipc_timeout_t timeout)
{
    (void)item, (void)size, (void)max, (void)timeout;
    return rtipc__fr_in_isr() ? RTIPC_ECONTEXT : NOT_LIVE(rb);
}

int rtipc_ringbuf_return(rtipc_ringbuf_t *rb, void *item)
{
    (void)item;
    return rtipc__fr_in_isr() ? RTIPC_ECONTEXT : NOT_LIVE(rb);
}

int rtipc_ringbuf_send_from_isr(rtipc_ringbuf_t *rb, const void *data, size_t size, bool *woken)
{
    (void)data, (void)size, (void)woken;
    return NOT_LIVE(rb);
}

int rtipc_ringbuf_receive_from_isr(rtipc_ringbuf_t *rb, void **item, size_t *size)
{
    (void)item, (void)size;
    return NOT_LIVE(rb);
}

int rtipc_ringbuf_receive_split_from_isr(rtipc_ringbuf_t *rb, void **head, size_t *head_size, void **tail,
                                         size_t *tail_size)
{
    (void)head, (void)head_size, (void)tail, (void)tail_size;
    return NOT_LIVE(rb);
}

int rtipc_ringbuf_receive_up_to_from_isr(rtipc_ringbuf_t *rb, void **item, size_t *size, size_t max)
{
    (void)item, (void)size, (void)max;
    return NOT_LIVE(rb);
}

int rtipc_ringbuf_return_from_isr(rtipc_ringbuf_t *rb, void *item, bool *woken)
{
    (void)item, (void)woken;
    return NOT_LIVE(rb);
}

int rtipc_ringbuf_free_size(const rtipc_ringbuf_t *rb) { return NOT_LIVE(rb); }
int rtipc_ringbuf_max_item_size(const rtipc_ringbuf_t *rb) { return NOT_LIVE(rb); }
int rtipc_ringbuf_items_waiting(const rtipc_ringbuf_t *rb) { return NOT_LIVE(rb); }
int rtipc_ringbuf_bytes_used(const rtipc_ringbuf_t *rb) { return NOT_LIVE(rb); }
size_t rtipc_ringbuf_footprint(const rtipc_ringbuf_t *rb) { return (void)rb, 0; }

/* 0: no ring buffer of any shape can be created on this port. */
size_t rtipc_ringbuf_footprint_for(size_t size, rtipc_ringbuf_type_t type)
{
    (void)size, (void)type;
    return 0;
}

size_t rtipc_ringbuf_item_footprint(rtipc_ringbuf_type_t type, size_t size)
{
    if (!type_ok(type) || size == 0 || size > RTIPC_RINGBUF_MAX_SIZE)
        return 0;
    return rtipc__rb_item_bytes((unsigned)type, (uint32_t)size);
}

int rtipc_ringbuf_set_spin(rtipc_ringbuf_t *rb, int64_t ns)
{
    (void)ns;
    return NOT_LIVE(rb);
}
