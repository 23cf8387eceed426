/* The ring buffer calls that are the same on every port: the receives
 * unpack the span the port's receive hands back, and the queries read the
 * layout under the port's lock. The port provides the two hooks of
 * ringbuf_core.h (rtipc__ringbuf_receive_span, rtipc__ringbuf_query). */
#include "rtipc/ringbuf.h"

#include <stdint.h>

#include "ringbuf_core.h"
#include "rtipc/error.h"

_Static_assert((int)RTIPC_RINGBUF_NOSPLIT == (int)RTIPC__RB_NOSPLIT &&
                   (int)RTIPC_RINGBUF_ALLOWSPLIT == (int)RTIPC__RB_ALLOWSPLIT &&
                   (int)RTIPC_RINGBUF_BYTEBUF == (int)RTIPC__RB_BYTEBUF,
               "public and core type values agree");
_Static_assert(RTIPC_RINGBUF_HEADER_SIZE == RTIPC__RB_HEADER, "header size agrees with the core");
_Static_assert(RTIPC_RINGBUF_MAX_SIZE == RTIPC__RB_MAX_SIZE, "largest size agrees with the core");

static void one_part(const rtipc__rb_span_t *s, void **item, size_t *size)
{
    *item = s->p[0];
    *size = s->n[0];
}

static void two_parts(const rtipc__rb_span_t *s, void **head, size_t *head_size, void **tail, size_t *tail_size)
{
    *head = s->p[0];
    *head_size = s->n[0];
    *tail = s->p[1];
    *tail_size = s->n[1];
}

int rtipc_ringbuf_receive(rtipc_ringbuf_t *rb, void **item, size_t *size, rtipc_timeout_t timeout)
{
    rtipc__rb_span_t s;
    int rc = rtipc__ringbuf_receive_span(rb, RTIPC__RB_RECV_WHOLE, item, size, NULL, NULL, SIZE_MAX, timeout, false,
                                         &s);
    if (rc == RTIPC_OK)
        one_part(&s, item, size);
    return rc;
}

int rtipc_ringbuf_receive_split(rtipc_ringbuf_t *rb, void **head, size_t *head_size, void **tail,
                                size_t *tail_size, rtipc_timeout_t timeout)
{
    rtipc__rb_span_t s;
    int rc = rtipc__ringbuf_receive_span(rb, RTIPC__RB_RECV_SPLIT, head, head_size, tail, tail_size, SIZE_MAX,
                                         timeout, false, &s);
    if (rc == RTIPC_OK)
        two_parts(&s, head, head_size, tail, tail_size);
    return rc;
}

int rtipc_ringbuf_receive_up_to(rtipc_ringbuf_t *rb, void **item, size_t *size, size_t max,
                                rtipc_timeout_t timeout)
{
    rtipc__rb_span_t s;
    int rc = rtipc__ringbuf_receive_span(rb, RTIPC__RB_RECV_UP_TO, item, size, NULL, NULL, max, timeout, false, &s);
    if (rc == RTIPC_OK)
        one_part(&s, item, size);
    return rc;
}

int rtipc_ringbuf_receive_from_isr(rtipc_ringbuf_t *rb, void **item, size_t *size)
{
    rtipc__rb_span_t s;
    int rc = rtipc__ringbuf_receive_span(rb, RTIPC__RB_RECV_WHOLE, item, size, NULL, NULL, SIZE_MAX, RTIPC_NO_WAIT,
                                         true, &s);
    if (rc == RTIPC_OK)
        one_part(&s, item, size);
    return rc;
}

int rtipc_ringbuf_receive_split_from_isr(rtipc_ringbuf_t *rb, void **head, size_t *head_size, void **tail,
                                         size_t *tail_size)
{
    rtipc__rb_span_t s;
    int rc = rtipc__ringbuf_receive_span(rb, RTIPC__RB_RECV_SPLIT, head, head_size, tail, tail_size, SIZE_MAX,
                                         RTIPC_NO_WAIT, true, &s);
    if (rc == RTIPC_OK)
        two_parts(&s, head, head_size, tail, tail_size);
    return rc;
}

int rtipc_ringbuf_receive_up_to_from_isr(rtipc_ringbuf_t *rb, void **item, size_t *size, size_t max)
{
    rtipc__rb_span_t s;
    int rc = rtipc__ringbuf_receive_span(rb, RTIPC__RB_RECV_UP_TO, item, size, NULL, NULL, max, RTIPC_NO_WAIT, true,
                                         &s);
    if (rc == RTIPC_OK)
        one_part(&s, item, size);
    return rc;
}

static int get_free(const rtipc__rb_t *c) { return (int)rtipc__rb_free_size(c); }
static int get_waiting(const rtipc__rb_t *c) { return (int)rtipc__rb_waiting(c); }
static int get_used(const rtipc__rb_t *c) { return (int)c->used; }
static int get_max_item(const rtipc__rb_t *c) { return (int)rtipc__rb_max_item(c); }

int rtipc_ringbuf_free_size(const rtipc_ringbuf_t *rb) { return rtipc__ringbuf_query(rb, get_free); }

int rtipc_ringbuf_max_item_size(const rtipc_ringbuf_t *rb) { return rtipc__ringbuf_query(rb, get_max_item); }

int rtipc_ringbuf_items_waiting(const rtipc_ringbuf_t *rb) { return rtipc__ringbuf_query(rb, get_waiting); }

int rtipc_ringbuf_bytes_used(const rtipc_ringbuf_t *rb) { return rtipc__ringbuf_query(rb, get_used); }

size_t rtipc_ringbuf_item_footprint(rtipc_ringbuf_type_t type, size_t size)
{
    return rtipc__rb_item_footprint((unsigned)type, size);
}
