/* Ring buffers on ESP-IDF: ESP-IDF's own ring buffer (freertos/ringbuf.h,
 * the esp_ringbuf component) inside rtipc's wrapper, created with
 * xRingbufferCreateStatic in rtipc's memory (one pvPortMalloc block holds
 * wrapper and storage when created dynamically). Other FreeRTOS kernels use
 * the portable ring buffer (ringbuf.c).
 *
 * rtipc adds what its contract asks and ESP-IDF leaves to configASSERT: the
 * generation-checked handle, the argument checks every port shares
 * (ringbuf_core.h), the items-out and waiter checks of delete and of a
 * queue set's add, and a bounds check of every pointer given back. Where
 * ESP-IDF behaves differently (item headers, the largest item, whom a call
 * wakes, queue-set events) include/rtipc/ringbuf.h says so in its port
 * notes.
 *
 * Queue sets: ESP-IDF's ring buffer posts its own handle (&cb) to the set
 * once per send or completion (xRingbufferAddToQueueSetRead). The handle in
 * front of cb sits where the kernel queues' wrappers keep theirs
 * (struct rtipc__qhead), so queueset.c maps a selected member back. */
#include <string.h>

#include "common/create.h"
#include "common/handle.h"
#include "common/ringbuf_core.h"
#include "freertos/ringbuf.h"
#include "port_internal.h"
#include "rtipc/ringbuf.h"

#if !defined(configSUPPORT_STATIC_ALLOCATION) || configSUPPORT_STATIC_ALLOCATION != 1
#error "rtipc's ESP-IDF ring buffer needs configSUPPORT_STATIC_ALLOCATION 1 (xRingbufferCreateStatic)"
#endif

struct rtipc__ringbuf {
#if RTIPC_DIRECT
    StaticRingbuffer_t cb; /* first: in direct mode the address is the handle, as with a queue */
    uintptr_t handle;
#else
    uintptr_t handle;      /* what rtipc_queueset_select hands back, where struct rtipc__qhead keeps its own */
    StaticRingbuffer_t cb; /* ESP-IDF's ring buffer; its handle is &cb */
#endif
    uint32_t flags;
    unsigned char *storage;
    uint32_t size;         /* storage bytes */
    uint32_t max_item;     /* ESP-IDF's largest item; 0 where its own figure would wrap */
    unsigned type;
    void *set;             /* the rtipc queue set it belongs to, or NULL */
    volatile uint32_t waiters; /* tasks inside a blocking call (delete -> EBUSY) */
    int64_t spin;
};

_Static_assert(sizeof(struct rtipc__ringbuf) <= sizeof(rtipc_ringbuf_static_t),
               "rtipc_ringbuf_static_t holds the ring buffer (raise RTIPC_RINGBUF_STATIC_SIZE)");
_Static_assert(_Alignof(struct rtipc__ringbuf) <= _Alignof(rtipc_ringbuf_static_t), "static block alignment");
_Static_assert(sizeof(struct rtipc__ringbuf) % 4 == 0, "the storage after a dynamic control block is aligned");
_Static_assert(RTIPC_DIRECT ? offsetof(struct rtipc__ringbuf, cb) == 0
                            : offsetof(struct rtipc__ringbuf, handle) == offsetof(struct rtipc__qhead, handle) &&
                                  offsetof(struct rtipc__ringbuf, cb) == offsetof(struct rtipc__qhead, cb),
               "queueset.c finds the rtipc handle of a member handle");
_Static_assert((int)RTIPC_RINGBUF_NOSPLIT == (int)RINGBUF_TYPE_NOSPLIT &&
                   (int)RTIPC_RINGBUF_ALLOWSPLIT == (int)RINGBUF_TYPE_ALLOWSPLIT &&
                   (int)RTIPC_RINGBUF_BYTEBUF == (int)RINGBUF_TYPE_BYTEBUF,
               "rtipc's ring buffer types are ESP-IDF's");
/* ESP-IDF's item header: a length and a flags word. */
_Static_assert(RTIPC_RINGBUF_HEADER_SIZE == sizeof(size_t) + sizeof(UBaseType_t),
               "RTIPC_RINGBUF_HEADER_SIZE is ESP-IDF's item header");

#define HDR ((uint32_t)RTIPC_RINGBUF_HEADER_SIZE)
/* The least item-type storage in which ESP-IDF takes a 4-byte item: no-split
 * allows half the storage less a header, allow-split the storage less two. */
#define MIN_ITEM_STORAGE (2u * HDR + 4u)

static struct rtipc__ringbuf *get(const rtipc_ringbuf_t *handle)
{
    return rtipc__handle_get(handle, RTIPC__H_RINGBUF);
}

static RingbufHandle_t idf(struct rtipc__ringbuf *rb) { return (RingbufHandle_t)&rb->cb; }

/* ---- creation ----------------------------------------------------------------- */

/* Storage a dynamic ring buffer gets: the shared rounding, then for the item
 * types at least room for one item (rtipc_ringbuf_create's port note). */
static uint32_t dynamic_capacity(size_t size, unsigned type)
{
    uint32_t cap = rtipc__rb_capacity_for(size, type, true);
    if (cap != 0 && type != RTIPC__RB_BYTEBUF && cap < MIN_ITEM_STORAGE)
        cap = MIN_ITEM_STORAGE;
    return cap;
}

size_t rtipc_ringbuf_footprint_for(size_t size, rtipc_ringbuf_type_t type)
{
    if (size == 0)
        return rtipc__rb_type_ok((unsigned)type) ? sizeof(struct rtipc__ringbuf) : 0;
    uint32_t cap = dynamic_capacity(size, (unsigned)type);
    return cap ? sizeof(struct rtipc__ringbuf) + cap : 0;
}

size_t rtipc_ringbuf_item_footprint(rtipc_ringbuf_type_t type, size_t size)
{
    if (!rtipc__rb_type_ok((unsigned)type) || size == 0 || size > RTIPC__RB_MAX_SIZE)
        return 0;
    return type == RTIPC_RINGBUF_BYTEBUF ? size : RTIPC_RINGBUF_ITEM_BYTES(size);
}

static int init(struct rtipc__ringbuf *rb, rtipc_ringbuf_type_t type, void *storage, uint32_t cap,
                uint32_t flags, rtipc_ringbuf_t **out)
{
    memset(rb, 0, sizeof *rb);
    rb->storage = storage;
    rb->size = cap;
    rb->type = (unsigned)type;
    rb->flags = flags;
    rb->spin = RTIPC_SPIN_DEFAULT;
    (void)xRingbufferCreateStatic(cap, (RingbufferType_t)type, storage, &rb->cb);
    /* ESP-IDF's figure wraps below its least storage (no item fits then). */
    size_t max = xRingbufferGetMaxItemSize(idf(rb));
    rb->max_item = max > cap ? 0 : (uint32_t)max;
    uintptr_t h = rtipc__handle_open(rb, RTIPC__H_RINGBUF);
    if (h == 0) {
        vRingbufferDelete(idf(rb));
        return RTIPC_ENOMEM;
    }
    rb->handle = h;
    *out = (rtipc_ringbuf_t *)h;
    return RTIPC_OK;
}

int rtipc_ringbuf_create(size_t size, rtipc_ringbuf_type_t type, rtipc_ringbuf_t **out)
{
    uint32_t cap = dynamic_capacity(size, (unsigned)type);
    int rc;
    struct rtipc__ringbuf *rb = RTIPC__CREATE_ALLOC(out && cap != 0, struct rtipc__ringbuf, cap, &rc);
    if (!rb)
        return rc;
    rc = init(rb, type, (unsigned char *)(rb + 1), cap, RTIPC__DYNAMIC, out);
    if (rc != RTIPC_OK)
        rtipc__port_free(rb, _Alignof(struct rtipc__ringbuf));
    return rc;
}

int rtipc_ringbuf_create_static(size_t size, rtipc_ringbuf_type_t type, void *storage, rtipc_ringbuf_static_t *cb,
                                rtipc_ringbuf_t **out)
{
    /* As on the other FreeRTOS kernels (rtipc/ringbuf.h). */
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    uint32_t cap = rtipc__rb_capacity_for(size, (unsigned)type, false);
    if (!out || !cb || cap == 0 || !rtipc__rb_storage_ok((unsigned)type, storage))
        return RTIPC_EINVAL;
    return init((struct rtipc__ringbuf *)(void *)cb, type, storage, cap, 0, out);
}

/* ---- state, as ESP-IDF reports it ---------------------------------------------- */

typedef struct {
    UBaseType_t free, read, write, acquire, waiting; /* offsets into the storage; items or bytes */
} info_t;

static info_t info_of(struct rtipc__ringbuf *rb)
{
    info_t i;
    vRingbufferGetInfo(idf(rb), &i.free, &i.read, &i.write, &i.acquire, &i.waiting);
    return i;
}

/* acquire == free is an empty or a full buffer; only a full one has no free
 * space (a buffer that takes items has some when empty). */
static bool full(struct rtipc__ringbuf *rb, const info_t *i)
{
    return i->acquire == i->free && rb->max_item != 0 && xRingbufferGetCurFreeSize(idf(rb)) == 0;
}

/* Items are out: received and not yet freed (read ahead of free), acquired
 * and not completed (acquire ahead of write), or a full buffer of which
 * nothing is waiting to be read. */
static bool in_use(struct rtipc__ringbuf *rb, const info_t *i)
{
    return i->read != i->free || i->write != i->acquire || (i->waiting == 0 && full(rb, i));
}

/* ---- deletion and settings ------------------------------------------------------ */

int rtipc_ringbuf_delete(rtipc_ringbuf_t *handle)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb)
        return RTIPC_EINVAL;
    info_t i = info_of(rb);
    if (rtipc__waited_on(&rb->waiters) || rb->set != NULL || in_use(rb, &i))
        return RTIPC_EBUSY;
    /* From here on the handle is refused, before the memory goes. */
    rtipc__handle_close((uintptr_t)handle);
    vRingbufferDelete(idf(rb)); /* frees nothing: created static */
    if (rb->flags & RTIPC__DYNAMIC)
        rtipc__port_free(rb, _Alignof(struct rtipc__ringbuf));
    return RTIPC_OK;
}

int rtipc_ringbuf_set_spin(rtipc_ringbuf_t *handle, int64_t ns)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb || !rtipc__spin_ok(ns))
        return RTIPC_EINVAL;
    rb->spin = ns; /* kept for the contract; ESP-IDF's wait blocks at once */
    return RTIPC_OK;
}

/* ---- sending -------------------------------------------------------------------------- */

/* An item of @p size for @p rb: the shared check, then ESP-IDF's largest
 * item (it refuses a larger one as if it had timed out). */
static bool item_ok(const struct rtipc__ringbuf *rb, size_t size)
{
    return rtipc__rb_check_item(rb->type, rb->size, size) == RTIPC_OK && size <= rb->max_item;
}

/* Brackets a blocking ESP-IDF call with the waiter count delete checks. */
static TickType_t wait_begin(struct rtipc__ringbuf *rb, rtipc_timeout_t timeout, struct rtipc__task **waiter)
{
    TickType_t ticks = rtipc__ticks(timeout);
    *waiter = ticks != 0 ? rtipc__wait_in(&rb->waiters) : NULL;
    return ticks;
}

static void wait_end(struct rtipc__ringbuf *rb, TickType_t ticks, struct rtipc__task *waiter)
{
    if (ticks != 0)
        rtipc__wait_out(waiter, &rb->waiters);
}

int rtipc_ringbuf_send(rtipc_ringbuf_t *handle, const void *data, size_t size, rtipc_timeout_t timeout)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb || !data || !item_ok(rb, size))
        return RTIPC_EINVAL;
    struct rtipc__task *waiter;
    TickType_t ticks = wait_begin(rb, timeout, &waiter);
    BaseType_t ok = xRingbufferSend(idf(rb), data, size, ticks);
    wait_end(rb, ticks, waiter);
    return ok == pdTRUE ? RTIPC_OK : rtipc__fail(timeout);
}

int rtipc_ringbuf_acquire(rtipc_ringbuf_t *handle, void **item, size_t size, rtipc_timeout_t timeout)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb || !item)
        return RTIPC_EINVAL;
    if (rb->type != RTIPC__RB_NOSPLIT)
        return RTIPC_ENOTSUP;
    if (!item_ok(rb, size))
        return RTIPC_EINVAL;
    void *p = NULL;
    struct rtipc__task *waiter;
    TickType_t ticks = wait_begin(rb, timeout, &waiter);
    BaseType_t ok = xRingbufferSendAcquire(idf(rb), &p, size, ticks);
    wait_end(rb, ticks, waiter);
    if (ok != pdTRUE)
        return rtipc__fail(timeout);
    *item = p;
    return RTIPC_OK;
}

/* A pointer that may be an item's data in @p rb: inside the storage, past a
 * header and aligned (item types). ESP-IDF checks the item's own header
 * only by configASSERT, and a byte buffer's not at all. */
static bool item_in_storage(const struct rtipc__ringbuf *rb, const void *item)
{
    uintptr_t p = (uintptr_t)item, lo = (uintptr_t)rb->storage, hi = lo + rb->size;
    if (rb->type == RTIPC__RB_BYTEBUF)
        return p >= lo && p < hi;
    return p >= lo + HDR && p < hi && (p - lo) % RTIPC__RB_ALIGN == 0;
}

int rtipc_ringbuf_complete(rtipc_ringbuf_t *handle, void *item)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb || !item || rb->type != RTIPC__RB_NOSPLIT || !item_in_storage(rb, item))
        return RTIPC_EINVAL;
    /* Acquired and incomplete items lie between the write and acquire
     * offsets; an item past them was never acquired. */
    info_t i = info_of(rb);
    uint32_t at = (uint32_t)((unsigned char *)item - rb->storage) - HDR;
    uint32_t span = (uint32_t)((i.acquire + rb->size - i.write) % rb->size);
    uint32_t off = (uint32_t)((at + rb->size - i.write) % rb->size);
    if (span == 0 ? !full(rb, &i) : off >= span) /* full: every item may be acquired */
        return RTIPC_EINVAL;
    (void)xRingbufferSendComplete(idf(rb), item);
    return RTIPC_OK;
}

int rtipc_ringbuf_send_from_isr(rtipc_ringbuf_t *handle, const void *data, size_t size, bool *woken)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb || !data || !item_ok(rb, size))
        return RTIPC_EINVAL;
    BaseType_t hp = pdFALSE;
    BaseType_t ok = xRingbufferSendFromISR(idf(rb), data, size, &hp);
    rtipc__woken(hp, woken);
    return ok == pdTRUE ? RTIPC_OK : RTIPC_EWOULDBLOCK;
}

/* ---- receiving ---------------------------------------------------------------------- */

/* One receive of @p kind: the shared checks, then ESP-IDF's call of that
 * kind (from a handler: its FromISR form, one attempt). A no-split buffer's
 * item comes whole to a split receive as well. Outputs in s on success. */
static int receive(const rtipc_ringbuf_t *handle, int kind, const void *a, const void *b, const void *c,
                   const void *d, size_t max, rtipc_timeout_t timeout, bool isr_call, rtipc__rb_span_t *s)
{
    if (!isr_call && rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb)
        return RTIPC_EINVAL;
    int rc = rtipc__rb_check_receive(rb->type, kind, a, b, c, d, max);
    if (rc != RTIPC_OK)
        return rc;
    RingbufHandle_t h = idf(rb);
    void *head = NULL, *tail = NULL;
    size_t head_size = 0, tail_size = 0;
    struct rtipc__task *waiter = NULL;
    TickType_t ticks = isr_call ? 0 : wait_begin(rb, timeout, &waiter);
    if (rb->type == RTIPC__RB_ALLOWSPLIT) {
        BaseType_t ok = isr_call ? xRingbufferReceiveSplitFromISR(h, &head, &tail, &head_size, &tail_size)
                                 : xRingbufferReceiveSplit(h, &head, &tail, &head_size, &tail_size, ticks);
        if (ok != pdTRUE)
            head = NULL;
    } else if (kind == RTIPC__RB_RECV_UP_TO) {
        head = isr_call ? xRingbufferReceiveUpToFromISR(h, &head_size, max)
                        : xRingbufferReceiveUpTo(h, &head_size, ticks, max);
    } else {
        /* A byte buffer's whole receive: every contiguous byte (max 0). */
        head = isr_call ? xRingbufferReceiveFromISR(h, &head_size) : xRingbufferReceive(h, &head_size, ticks);
    }
    if (!isr_call)
        wait_end(rb, ticks, waiter);
    if (head == NULL)
        return isr_call ? RTIPC_EWOULDBLOCK : rtipc__fail(timeout);
    s->p[0] = head;
    s->n[0] = (uint32_t)head_size;
    s->p[1] = tail;
    s->n[1] = tail ? (uint32_t)tail_size : 0; /* ESP-IDF leaves it when not split */
    return RTIPC_OK;
}

int rtipc_ringbuf_receive(rtipc_ringbuf_t *rb, void **item, size_t *size, rtipc_timeout_t timeout)
{
    rtipc__rb_span_t s;
    int rc = receive(rb, RTIPC__RB_RECV_WHOLE, item, size, NULL, NULL, SIZE_MAX, timeout, false, &s);
    if (rc == RTIPC_OK) {
        *item = s.p[0];
        *size = s.n[0];
    }
    return rc;
}

int rtipc_ringbuf_receive_split(rtipc_ringbuf_t *rb, void **head, size_t *head_size, void **tail,
                                size_t *tail_size, rtipc_timeout_t timeout)
{
    rtipc__rb_span_t s;
    int rc = receive(rb, RTIPC__RB_RECV_SPLIT, head, head_size, tail, tail_size, SIZE_MAX, timeout, false, &s);
    if (rc == RTIPC_OK) {
        *head = s.p[0];
        *head_size = s.n[0];
        *tail = s.p[1];
        *tail_size = s.n[1];
    }
    return rc;
}

int rtipc_ringbuf_receive_up_to(rtipc_ringbuf_t *rb, void **item, size_t *size, size_t max,
                                rtipc_timeout_t timeout)
{
    rtipc__rb_span_t s;
    int rc = receive(rb, RTIPC__RB_RECV_UP_TO, item, size, NULL, NULL, max, timeout, false, &s);
    if (rc == RTIPC_OK) {
        *item = s.p[0];
        *size = s.n[0];
    }
    return rc;
}

int rtipc_ringbuf_receive_from_isr(rtipc_ringbuf_t *rb, void **item, size_t *size)
{
    rtipc__rb_span_t s;
    int rc = receive(rb, RTIPC__RB_RECV_WHOLE, item, size, NULL, NULL, SIZE_MAX, RTIPC_NO_WAIT, true, &s);
    if (rc == RTIPC_OK) {
        *item = s.p[0];
        *size = s.n[0];
    }
    return rc;
}

int rtipc_ringbuf_receive_split_from_isr(rtipc_ringbuf_t *rb, void **head, size_t *head_size, void **tail,
                                         size_t *tail_size)
{
    rtipc__rb_span_t s;
    int rc = receive(rb, RTIPC__RB_RECV_SPLIT, head, head_size, tail, tail_size, SIZE_MAX, RTIPC_NO_WAIT, true,
                     &s);
    if (rc == RTIPC_OK) {
        *head = s.p[0];
        *head_size = s.n[0];
        *tail = s.p[1];
        *tail_size = s.n[1];
    }
    return rc;
}

int rtipc_ringbuf_receive_up_to_from_isr(rtipc_ringbuf_t *rb, void **item, size_t *size, size_t max)
{
    rtipc__rb_span_t s;
    int rc = receive(rb, RTIPC__RB_RECV_UP_TO, item, size, NULL, NULL, max, RTIPC_NO_WAIT, true, &s);
    if (rc == RTIPC_OK) {
        *item = s.p[0];
        *size = s.n[0];
    }
    return rc;
}

/* ---- returning ------------------------------------------------------------------------ */

int rtipc_ringbuf_return(rtipc_ringbuf_t *handle, void *item)
{
    if (rtipc__in_isr())
        return RTIPC_ECONTEXT;
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb || !item || !item_in_storage(rb, item))
        return RTIPC_EINVAL;
    vRingbufferReturnItem(idf(rb), item);
    return RTIPC_OK;
}

int rtipc_ringbuf_return_from_isr(rtipc_ringbuf_t *handle, void *item, bool *woken)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb || !item || !item_in_storage(rb, item))
        return RTIPC_EINVAL;
    BaseType_t hp = pdFALSE;
    vRingbufferReturnItemFromISR(idf(rb), item, &hp);
    rtipc__woken(hp, woken);
    return RTIPC_OK;
}

/* ---- queries ----------------------------------------------------------------------------- */

int rtipc_ringbuf_free_size(const rtipc_ringbuf_t *handle)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb)
        return RTIPC_EINVAL;
    size_t n = xRingbufferGetCurFreeSize(idf(rb));
    return (int)(n > rb->max_item ? rb->max_item : n);
}

int rtipc_ringbuf_max_item_size(const rtipc_ringbuf_t *handle)
{
    struct rtipc__ringbuf *rb = get(handle);
    return rb ? (int)rb->max_item : RTIPC_EINVAL;
}

int rtipc_ringbuf_items_waiting(const rtipc_ringbuf_t *handle)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb)
        return RTIPC_EINVAL;
    UBaseType_t waiting = 0;
    vRingbufferGetInfo(idf(rb), NULL, NULL, NULL, NULL, &waiting);
    return (int)waiting;
}

int rtipc_ringbuf_bytes_used(const rtipc_ringbuf_t *handle)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb)
        return RTIPC_EINVAL;
    info_t i = info_of(rb);
    /* Everything from the free offset up to the acquire offset is taken:
     * items, headers, padding and an unused end alike. */
    if (i.acquire == i.free)
        return full(rb, &i) ? (int)rb->size : 0;
    return (int)((i.acquire + rb->size - i.free) % rb->size);
}

size_t rtipc_ringbuf_footprint(const rtipc_ringbuf_t *handle)
{
    struct rtipc__ringbuf *rb = get(handle);
    return rb ? sizeof(struct rtipc__ringbuf) + rb->size : 0;
}

/* ---- queue-set membership (queueset.c) --------------------------------------------------- */

/* Events a ring buffer may post at once: one per smallest item, counted with
 * the portable layout's 4-byte header, so that both ports size a set alike
 * (ESP-IDF's items are larger: it never posts more). */
static uint32_t set_capacity(const struct rtipc__ringbuf *rb)
{
    return rb->type == RTIPC__RB_BYTEBUF ? rb->size : rb->size / (RTIPC__RB_HEADER + RTIPC__RB_ALIGN);
}

int rtipc__ringbuf_join(rtipc_ringbuf_t *handle, void *set, QueueSetHandle_t kernel_set, uint32_t room,
                           uint32_t *capacity)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb)
        return RTIPC_EINVAL;
    info_t i = info_of(rb);
    if (rb->set != NULL || i.waiting != 0 || in_use(rb, &i))
        return RTIPC_EBUSY;
    *capacity = set_capacity(rb);
    if (*capacity > room)
        return RTIPC_EOVERFLOW;
    /* ESP-IDF refuses while an item is receivable (one may have come). */
    if (xRingbufferAddToQueueSetRead(idf(rb), kernel_set) != pdTRUE)
        return RTIPC_EBUSY;
    rb->set = set;
    return RTIPC_OK;
}

int rtipc__ringbuf_leave(rtipc_ringbuf_t *handle, void *set, QueueSetHandle_t kernel_set, uint32_t *capacity)
{
    struct rtipc__ringbuf *rb = get(handle);
    if (!rb || rb->set != set)
        return RTIPC_EINVAL; /* not a member of this set comes first, busy or not */
    info_t i = info_of(rb);
    if (i.waiting != 0 || in_use(rb, &i))
        return RTIPC_EBUSY;
    if (xRingbufferRemoveFromQueueSetRead(idf(rb), kernel_set) != pdTRUE)
        return RTIPC_EBUSY;
    rtipc__set_purge(kernel_set, (QueueSetMemberHandle_t)idf(rb));
    rb->set = NULL;
    *capacity = set_capacity(rb);
    return RTIPC_OK;
}
