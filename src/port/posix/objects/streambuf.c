/* Stream buffers and message buffers on Linux: one byte ring under the object
 * lock, with a wait list per side (wait.h). A message buffer is the same ring
 * with a 4-byte length before each message and all-or-nothing transfers.
 *
 * Single writer, single reader: each side has a claim word that a call
 * claims on entry and gives back on exit, so a second concurrent writer (or
 * reader) is refused with RTIPC_EBUSY instead of corrupting the order of the
 * bytes. The ring itself is guarded by the lock, not by those words: they
 * only detect the contract violation. */
#include "rtipc/msgbuf.h"
#include "rtipc/streambuf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "common/handle.h"
#include "port/posix/kernel/kernel.h"
#include "rtipc/error.h"

#define SB_DYNAMIC 0x1u
#define PREFIX RTIPC_MSGBUF_LENGTH_BYTES

/* One control block for both: the handle's kind (RTIPC__H_STREAMBUF or
 * RTIPC__H_MSGBUF, src/common/handle.h) says which it is. */
struct rtipc__streambuf {
    rtipc__lock_t lock;
    uint16_t flags;
    uint32_t size;               /* capacity in bytes */
    uint32_t head;               /* index of the oldest byte */
    _Atomic uint32_t count;      /* bytes held; written under lock, read anywhere */
    uint32_t trigger;            /* bytes that wake a blocked reader (>= 1) */
    _Atomic uintptr_t writer_in; /* token of the call inside a writing call, or 0 */
    _Atomic uintptr_t reader_in; /* token of the call inside a reading call, or 0 */
    unsigned char *storage;      /* size bytes */
    rtipc__waitlist_t writers;    /* the writer, while it waits for space */
    rtipc__waitlist_t readers;    /* the reader, while it waits for bytes */
    rtipc__spin_setting_t spin;   /* spin budget of the writer and the reader (spin.h) */
};

_Static_assert(sizeof(struct rtipc__streambuf) <= sizeof(rtipc_streambuf_static_t),
               "rtipc_streambuf_static_t must hold the control block");
_Static_assert(sizeof(struct rtipc__streambuf) <= sizeof(rtipc_msgbuf_static_t),
               "rtipc_msgbuf_static_t must hold the control block");
_Static_assert(PREFIX == sizeof(uint32_t), "the length prefix is one uint32_t");

/* The buffer a handle of this kind names, or NULL. */
static struct rtipc__streambuf *get(const void *handle, unsigned kind) { return rtipc__handle_get(handle, kind); }
static struct rtipc__streambuf *stream(const rtipc_streambuf_t *sb) { return get(sb, RTIPC__H_STREAMBUF); }
static struct rtipc__streambuf *message(const rtipc_msgbuf_t *mb) { return get(mb, RTIPC__H_MSGBUF); }

/* ---- creation and deletion ------------------------------------------------ */
static bool size_ok(size_t size, unsigned kind)
{
    return kind == RTIPC__H_MSGBUF ? rtipc__msgbuf_size_ok(size) : rtipc__streambuf_shape_ok(size, 0);
}

/* Initialise sb and open its handle: the handle, or 0 when the handle
 * table is full. */
static uintptr_t init(struct rtipc__streambuf *sb, size_t size, size_t trigger, void *storage, unsigned kind,
                      uint16_t flags)
{
    memset(sb, 0, sizeof *sb);
    sb->size = (uint32_t)size;
    sb->trigger = trigger == 0 ? 1 : (uint32_t)trigger;
    sb->storage = storage;
    sb->flags = flags;
    return rtipc__handle_open(sb, kind);
}

/* Both creations give the handle in *h; want_out is whether the caller
 * passed somewhere to put it. */
static int create(size_t size, size_t trigger, unsigned kind, bool want_out, uintptr_t *h)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    if (!want_out || !size_ok(size, kind) || trigger > size)
        return RTIPC_EINVAL;
    struct rtipc__streambuf *sb = malloc(sizeof *sb + size);
    if (!sb)
        return RTIPC_ENOMEM;
    *h = init(sb, size, trigger, sb + 1, kind, SB_DYNAMIC);
    if (*h == 0) {
        free(sb);
        return RTIPC_ENOMEM;
    }
    return RTIPC_OK;
}

static int create_static(size_t size, size_t trigger, void *storage, void *cb, unsigned kind, bool want_out,
                         uintptr_t *h)
{
    if (!want_out || !cb || !storage || !size_ok(size, kind) || trigger > size)
        return RTIPC_EINVAL;
    *h = init(cb, size, trigger, storage, kind, 0);
    return *h != 0 ? RTIPC_OK : RTIPC_ENOMEM;
}

/* True while a writer or a reader is inside a call: it may be blocked, so the
 * buffer must not change under it (reset) or vanish (delete). Lock held. */
static bool in_use(const struct rtipc__streambuf *sb)
{
    return atomic_load_explicit(&sb->writer_in, memory_order_relaxed) != 0 ||
           atomic_load_explicit(&sb->reader_in, memory_order_relaxed) != 0 ||
           !rtipc__waitlist_empty(&sb->writers) || !rtipc__waitlist_empty(&sb->readers);
}

static int destroy(const void *handle, unsigned kind)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__streambuf *sb = get(handle, kind);
    if (!sb)
        return RTIPC_EINVAL;
    rtipc__lock(&sb->lock);
    if (in_use(sb)) {
        rtipc__unlock(&sb->lock);
        return RTIPC_EBUSY;
    }
    /* From here on the handle is refused, before the memory goes. */
    rtipc__handle_close((uintptr_t)handle);
    rtipc__unlock(&sb->lock);
    if (sb->flags & SB_DYNAMIC)
        free(sb);
    return RTIPC_OK;
}

static int reset(struct rtipc__streambuf *sb)
{
    if (!sb)
        return RTIPC_EINVAL;
    int rc = RTIPC_OK;
    rtipc__lock(&sb->lock);
    if (in_use(sb)) {
        rc = RTIPC_EBUSY;
    } else {
        sb->head = 0;
        atomic_store_explicit(&sb->count, 0, memory_order_relaxed);
    }
    rtipc__unlock(&sb->lock);
    return rc;
}

/* ---- one writer, one reader ------------------------------------------------ */
/* Claim a side for the call identified by token (the address of its op, unique
 * while the call runs). False: another call is inside. */
static bool enter(_Atomic uintptr_t *side, uintptr_t token)
{
    uintptr_t expected = 0;
    /* Acquire: pairs with the release in leave(); a call that claims the side
     * starts after the previous holder's call has finished. The ring needs no
     * ordering from this word (the object lock guards it); the pair keeps the
     * refusal exact, so a later writer is never refused by a finished one. */
    return atomic_compare_exchange_strong_explicit(side, &expected, token, memory_order_acquire,
                                                   memory_order_relaxed);
}

/* Give the side back, if this call still holds it (see abandon_io). */
static void leave(_Atomic uintptr_t *side, uintptr_t token)
{
    uintptr_t expected = token;
    /* Release: pairs with the acquire in enter(); publishes that this call is over. */
    atomic_compare_exchange_strong_explicit(side, &expected, 0, memory_order_release, memory_order_relaxed);
}

/* ---- the byte ring (lock held) --------------------------------------------- */
static inline uint32_t count_of(const struct rtipc__streambuf *sb)
{
    return atomic_load_explicit(&sb->count, memory_order_relaxed);
}

static inline void set_count(struct rtipc__streambuf *sb, uint32_t n)
{
    atomic_store_explicit(&sb->count, n, memory_order_relaxed);
}

static inline uint32_t space_of(const struct rtipc__streambuf *sb) { return sb->size - count_of(sb); }

/* Copy n bytes in, offset bytes after the newest one; the caller publishes
 * them with commit() (so a message and its prefix appear in one step). */
static void ring_fill(struct rtipc__streambuf *sb, uint32_t offset, const void *src, uint32_t n)
{
    const unsigned char *in = src;
    uint32_t at = sb->head + count_of(sb) + offset;
    if (at >= sb->size)
        at -= sb->size;
    uint32_t first = sb->size - at < n ? sb->size - at : n;
    memcpy(sb->storage + at, in, first);
    if (n > first)
        memcpy(sb->storage, in + first, n - first);
}

static void commit(struct rtipc__streambuf *sb, uint32_t n) { set_count(sb, count_of(sb) + n); }

/* Copy n bytes starting offset bytes after the oldest one, without removing. */
static void ring_peek(const struct rtipc__streambuf *sb, uint32_t offset, void *dst, uint32_t n)
{
    unsigned char *out = dst;
    uint32_t at = sb->head + offset;
    if (at >= sb->size)
        at -= sb->size;
    uint32_t first = sb->size - at < n ? sb->size - at : n;
    memcpy(out, sb->storage + at, first);
    if (n > first)
        memcpy(out + first, sb->storage, n - first);
}

/* Remove the n oldest bytes. */
static void ring_drop(struct rtipc__streambuf *sb, uint32_t n)
{
    sb->head += n;
    if (sb->head >= sb->size)
        sb->head -= sb->size;
    uint32_t left = count_of(sb) - n;
    set_count(sb, left);
    if (left == 0)
        sb->head = 0; /* keeps the next writes contiguous: fewer split copies */
}

/* ---- operations ---------------------------------------------------------------- */
typedef struct {
    rtipc__op_t op; /* first: the blocking loop hands us back this pointer */
    struct rtipc__streambuf *sb;
    const unsigned char *in; /* writer: the bytes offered */
    unsigned char *out;      /* reader: the destination */
    size_t len;              /* bytes offered, or destination capacity */
    uint32_t need;           /* writer: free bytes it waits for */
    size_t done;             /* bytes written or read; message length on receive */
    bool message;            /* message buffer: whole messages only */
    bool final;              /* no more waiting (NO_WAIT, timeout): take what there is */
    _Atomic uintptr_t *side; /* the side this call holds */
} sb_op_t;

/* Under the lock, after a write: the reader to wake, if the buffered bytes
 * reached its threshold (the trigger level; any whole message for message
 * buffers, whose trigger is 1). At most one reader waits, by contract. */
static rtipc__waiter_t *reader_to_wake(struct rtipc__streambuf *sb)
{
    rtipc__waiter_t *w = sb->readers.head;
    return w && count_of(sb) >= sb->trigger ? w : NULL;
}

/* Under the lock, after a read: the writer to wake, if the space it waits for
 * is free now (waking it earlier would only send it back to sleep). */
static rtipc__waiter_t *writer_to_wake(struct rtipc__streambuf *sb)
{
    rtipc__waiter_t *w = sb->writers.head;
    return w && space_of(sb) >= ((sb_op_t *)w->op)->need ? w : NULL;
}

/* Write under the lock; 0 or RTIPC_EWOULDBLOCK. */
static int write_now(sb_op_t *o)
{
    struct rtipc__streambuf *sb = o->sb;
    uint32_t space = space_of(sb);
    if (o->message) {
        if (space < o->need)
            return RTIPC_EWOULDBLOCK;
        uint32_t n = (uint32_t)o->len;
        ring_fill(sb, 0, &n, PREFIX);
        ring_fill(sb, PREFIX, o->in, n);
        commit(sb, PREFIX + n);
        o->done = n;
        return RTIPC_OK;
    }
    /* A stream writer waits for its whole request (capped at the size); once
     * it stops waiting it writes whatever fits. */
    if (space == 0 || (space < o->need && !o->final))
        return RTIPC_EWOULDBLOCK;
    uint32_t n = o->len < space ? (uint32_t)o->len : space;
    ring_fill(sb, 0, o->in, n);
    commit(sb, n);
    o->done = n;
    return RTIPC_OK;
}

/* Read under the lock; 0, RTIPC_EWOULDBLOCK, or RTIPC_EINVAL when the next
 * message does not fit the destination (it stays; o->done is its length). */
static int read_now(sb_op_t *o)
{
    struct rtipc__streambuf *sb = o->sb;
    uint32_t count = count_of(sb);
    if (count == 0)
        return RTIPC_EWOULDBLOCK;
    if (o->message) {
        uint32_t n;
        ring_peek(sb, 0, &n, PREFIX);
        o->done = n;
        if (n > o->len)
            return RTIPC_EINVAL;
        ring_peek(sb, PREFIX, o->out, n);
        ring_drop(sb, PREFIX + n);
        return RTIPC_OK;
    }
    uint32_t n = o->len < count ? (uint32_t)o->len : count;
    ring_peek(sb, 0, o->out, n);
    ring_drop(sb, n);
    o->done = n;
    return RTIPC_OK;
}

static int attempt_write(rtipc__op_t *op)
{
    sb_op_t *o = (sb_op_t *)op;
    int rc = write_now(o);
    if (rc == RTIPC_OK) {
        rtipc__waiter_t *w = reader_to_wake(o->sb);
        if (w)
            op->wake = rtipc__waitlist_wake(&o->sb->readers, w);
    }
    return rc;
}

static int attempt_read(rtipc__op_t *op)
{
    sb_op_t *o = (sb_op_t *)op;
    int rc = read_now(o);
    if (rc == RTIPC_OK) {
        rtipc__waiter_t *w = writer_to_wake(o->sb);
        if (w)
            op->wake = rtipc__waitlist_wake(&o->sb->writers, w);
    }
    return rc;
}

/* The blocking loop gave up waiting (timeout or deletion), lock held. After a
 * timeout one last attempt follows, which must take what there is. If the
 * task is being deleted it ends without returning through us, so it gives
 * its side back now; otherwise a deleted writer would lock out every later
 * one. (When a timeout and a deletion request coincide, the last attempt then
 * runs without the claim: a second writer arriving in that instant would not
 * be refused, but the ring stays consistent under the lock.) */
static void abandon_io(rtipc__op_t *op)
{
    sb_op_t *o = (sb_op_t *)op;
    o->final = true;
    struct rtipc__task *self = rtipc__current_or_null();
    if (self && atomic_load_explicit(&self->delete_requested, memory_order_relaxed))
        leave(o->side, (uintptr_t)o);
}

static int do_io(sb_op_t *o, rtipc_timeout_t timeout)
{
    struct rtipc__streambuf *sb = o->sb;
    bool writing = o->in != NULL;
    o->side = writing ? &sb->writer_in : &sb->reader_in;
    if (!enter(o->side, (uintptr_t)o))
        return RTIPC_EBUSY;
    o->op.attempt = writing ? attempt_write : attempt_read;
    o->op.abandon = abandon_io;
    o->final = rtipc_timeout_is_no_wait(timeout);
    int rc = rtipc__block(&sb->lock, writing ? &sb->writers : &sb->readers, &o->op, timeout,
                          rtipc__spin_setting(&sb->spin));
    leave(o->side, (uintptr_t)o);
    return rc;
}

/* Interrupt-safe transfer: one attempt, never waits. */
static int do_io_from_isr(sb_op_t *o, bool *woken)
{
    struct rtipc__streambuf *sb = o->sb;
    bool writing = o->in != NULL;
    _Atomic uintptr_t *side = writing ? &sb->writer_in : &sb->reader_in;
    if (!enter(side, (uintptr_t)o))
        return RTIPC_EBUSY;
    o->final = true;
    rtipc__isr_wake_t wake = {NULL, false};
    rtipc__lock(&sb->lock);
    int rc = writing ? write_now(o) : read_now(o);
    if (rc == RTIPC_OK) {
        rtipc__waiter_t *w = writing ? reader_to_wake(sb) : writer_to_wake(sb);
        if (w)
            wake = rtipc__isr_wake(writing ? &sb->readers : &sb->writers, w);
    }
    rtipc__unlock(&sb->lock);
    rtipc__isr_release(wake, woken);
    leave(side, (uintptr_t)o);
    return rc;
}

/* ---- stream buffer API ------------------------------------------------------------ */
size_t rtipc_streambuf_footprint_for(size_t size)
{
    if (size == 0)
        return sizeof(struct rtipc__streambuf);
    return size_ok(size, RTIPC__H_STREAMBUF) ? sizeof(struct rtipc__streambuf) + size : 0;
}

size_t rtipc_streambuf_footprint(const rtipc_streambuf_t *handle)
{
    struct rtipc__streambuf *sb = stream(handle);
    return sb ? rtipc_streambuf_footprint_for(sb->size) : 0;
}

int rtipc_streambuf_create(size_t size, size_t trigger_level, rtipc_streambuf_t **out)
{
    uintptr_t h;
    int rc = create(size, trigger_level, RTIPC__H_STREAMBUF, out != NULL, &h);
    if (rc == RTIPC_OK)
        *out = (rtipc_streambuf_t *)h;
    return rc;
}

int rtipc_streambuf_create_static(size_t size, size_t trigger_level, void *storage,
                                  rtipc_streambuf_static_t *cb, rtipc_streambuf_t **out)
{
    uintptr_t h;
    int rc = create_static(size, trigger_level, storage, cb, RTIPC__H_STREAMBUF, out != NULL, &h);
    if (rc == RTIPC_OK)
        *out = (rtipc_streambuf_t *)h;
    return rc;
}

int rtipc_streambuf_delete(rtipc_streambuf_t *sb) { return destroy(sb, RTIPC__H_STREAMBUF); }

int rtipc_streambuf_reset(rtipc_streambuf_t *sb) { return reset(stream(sb)); }

int rtipc_streambuf_set_spin(rtipc_streambuf_t *handle, int64_t ns)
{
    struct rtipc__streambuf *sb = stream(handle);
    if (!sb)
        return RTIPC_EINVAL;
    return rtipc__spin_setting_set(&sb->spin, ns);
}

int rtipc_streambuf_send(rtipc_streambuf_t *handle, const void *data, size_t len, size_t *sent,
                         rtipc_timeout_t timeout)
{
    if (sent)
        *sent = 0;
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__streambuf *sb = stream(handle);
    if (!sb || !data || !sent || len == 0)
        return RTIPC_EINVAL;
    sb_op_t o = {.sb = sb, .in = data, .len = len, .need = len < sb->size ? (uint32_t)len : sb->size};
    int rc = do_io(&o, timeout);
    if (rc == RTIPC_OK)
        *sent = o.done;
    return rc;
}

int rtipc_streambuf_receive(rtipc_streambuf_t *handle, void *buf, size_t len, size_t *received,
                            rtipc_timeout_t timeout)
{
    if (received)
        *received = 0;
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__streambuf *sb = stream(handle);
    if (!sb || !buf || !received || len == 0)
        return RTIPC_EINVAL;
    sb_op_t o = {.sb = sb, .out = buf, .len = len};
    int rc = do_io(&o, timeout);
    if (rc == RTIPC_OK)
        *received = o.done;
    return rc;
}

int rtipc_streambuf_send_from_isr(rtipc_streambuf_t *handle, const void *data, size_t len, size_t *sent,
                                  bool *woken)
{
    if (sent)
        *sent = 0;
    struct rtipc__streambuf *sb = stream(handle);
    if (!sb || !data || !sent || len == 0)
        return RTIPC_EINVAL;
    sb_op_t o = {.sb = sb, .in = data, .len = len};
    int rc = do_io_from_isr(&o, woken);
    if (rc == RTIPC_OK)
        *sent = o.done;
    return rc;
}

int rtipc_streambuf_receive_from_isr(rtipc_streambuf_t *handle, void *buf, size_t len, size_t *received,
                                     bool *woken)
{
    if (received)
        *received = 0;
    struct rtipc__streambuf *sb = stream(handle);
    if (!sb || !buf || !received || len == 0)
        return RTIPC_EINVAL;
    sb_op_t o = {.sb = sb, .out = buf, .len = len};
    int rc = do_io_from_isr(&o, woken);
    if (rc == RTIPC_OK)
        *received = o.done;
    return rc;
}

int rtipc_streambuf_set_trigger_level(rtipc_streambuf_t *handle, size_t level)
{
    struct rtipc__streambuf *sb = stream(handle);
    if (!sb || level > sb->size)
        return RTIPC_EINVAL;
    rtipc__lock(&sb->lock);
    sb->trigger = level == 0 ? 1 : (uint32_t)level;
    rtipc__unlock(&sb->lock);
    return RTIPC_OK;
}

int rtipc_streambuf_bytes_available(const rtipc_streambuf_t *handle)
{
    struct rtipc__streambuf *sb = stream(handle);
    return sb ? (int)count_of(sb) : RTIPC_EINVAL;
}

int rtipc_streambuf_spaces_available(const rtipc_streambuf_t *handle)
{
    struct rtipc__streambuf *sb = stream(handle);
    return sb ? (int)space_of(sb) : RTIPC_EINVAL;
}

int rtipc_streambuf_is_empty(const rtipc_streambuf_t *handle)
{
    struct rtipc__streambuf *sb = stream(handle);
    return sb ? count_of(sb) == 0 : RTIPC_EINVAL;
}

int rtipc_streambuf_is_full(const rtipc_streambuf_t *handle)
{
    struct rtipc__streambuf *sb = stream(handle);
    return sb ? space_of(sb) == 0 : RTIPC_EINVAL;
}

/* ---- message buffer API ------------------------------------------------------------- */
size_t rtipc_msgbuf_footprint_for(size_t size)
{
    if (size == 0)
        return sizeof(struct rtipc__streambuf);
    return size_ok(size, RTIPC__H_MSGBUF) ? sizeof(struct rtipc__streambuf) + size : 0;
}

size_t rtipc_msgbuf_footprint(const rtipc_msgbuf_t *mb)
{
    struct rtipc__streambuf *sb = message(mb);
    return sb ? rtipc_msgbuf_footprint_for(sb->size) : 0;
}

int rtipc_msgbuf_create(size_t size, rtipc_msgbuf_t **out)
{
    uintptr_t h;
    int rc = create(size, 1, RTIPC__H_MSGBUF, out != NULL, &h);
    if (rc == RTIPC_OK)
        *out = (rtipc_msgbuf_t *)h;
    return rc;
}

int rtipc_msgbuf_create_static(size_t size, void *storage, rtipc_msgbuf_static_t *cb, rtipc_msgbuf_t **out)
{
    uintptr_t h;
    int rc = create_static(size, 1, storage, cb, RTIPC__H_MSGBUF, out != NULL, &h);
    if (rc == RTIPC_OK)
        *out = (rtipc_msgbuf_t *)h;
    return rc;
}

int rtipc_msgbuf_delete(rtipc_msgbuf_t *mb) { return destroy(mb, RTIPC__H_MSGBUF); }

int rtipc_msgbuf_reset(rtipc_msgbuf_t *mb) { return reset(message(mb)); }

int rtipc_msgbuf_set_spin(rtipc_msgbuf_t *mb, int64_t ns)
{
    struct rtipc__streambuf *sb = message(mb);
    if (!sb)
        return RTIPC_EINVAL;
    return rtipc__spin_setting_set(&sb->spin, ns);
}

/* Validates a send; the space it needs, or 0 when the arguments are invalid. */
static uint32_t message_need(const struct rtipc__streambuf *sb, const void *msg, size_t len)
{
    if (!sb || !msg || len == 0 || len > sb->size - PREFIX)
        return 0;
    return (uint32_t)len + PREFIX;
}

int rtipc_msgbuf_send(rtipc_msgbuf_t *mb, const void *msg, size_t len, rtipc_timeout_t timeout)
{
    if (rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__streambuf *sb = message(mb);
    uint32_t need = message_need(sb, msg, len);
    if (need == 0)
        return RTIPC_EINVAL;
    sb_op_t o = {.sb = sb, .in = msg, .len = len, .need = need, .message = true};
    return do_io(&o, timeout);
}

int rtipc_msgbuf_send_from_isr(rtipc_msgbuf_t *mb, const void *msg, size_t len, bool *woken)
{
    struct rtipc__streambuf *sb = message(mb);
    uint32_t need = message_need(sb, msg, len);
    if (need == 0)
        return RTIPC_EINVAL;
    sb_op_t o = {.sb = sb, .in = msg, .len = len, .need = need, .message = true};
    return do_io_from_isr(&o, woken);
}

/* Shared by both receives: *len is the length read or needed (see msgbuf.h). */
static int message_receive(rtipc_msgbuf_t *mb, void *buf, size_t cap, size_t *len, bool isr,
                           rtipc_timeout_t timeout, bool *woken)
{
    if (len)
        *len = 0;
    if (!isr && rtipc__in_interrupt)
        return RTIPC_ECONTEXT;
    struct rtipc__streambuf *sb = message(mb);
    if (!sb || !buf || !len || cap == 0)
        return RTIPC_EINVAL;
    sb_op_t o = {.sb = sb, .out = buf, .len = cap, .message = true};
    int rc = isr ? do_io_from_isr(&o, woken) : do_io(&o, timeout);
    if (rc == RTIPC_OK || (rc == RTIPC_EINVAL && o.done > cap))
        *len = o.done;
    return rc;
}

int rtipc_msgbuf_receive(rtipc_msgbuf_t *mb, void *buf, size_t cap, size_t *len, rtipc_timeout_t timeout)
{
    return message_receive(mb, buf, cap, len, false, timeout, NULL);
}

int rtipc_msgbuf_receive_from_isr(rtipc_msgbuf_t *mb, void *buf, size_t cap, size_t *len, bool *woken)
{
    return message_receive(mb, buf, cap, len, true, RTIPC_NO_WAIT, woken);
}

int rtipc_msgbuf_next_length(const rtipc_msgbuf_t *mb)
{
    struct rtipc__streambuf *sb = message(mb);
    if (!sb)
        return RTIPC_EINVAL;
    uint32_t n = 0;
    /* The lock, because the prefix may be half-way through being written. */
    rtipc__lock(&sb->lock);
    if (count_of(sb) != 0)
        ring_peek(sb, 0, &n, PREFIX);
    rtipc__unlock(&sb->lock);
    return (int)n;
}

int rtipc_msgbuf_bytes_available(const rtipc_msgbuf_t *mb)
{
    struct rtipc__streambuf *sb = message(mb);
    return sb ? (int)count_of(sb) : RTIPC_EINVAL;
}

int rtipc_msgbuf_spaces_available(const rtipc_msgbuf_t *mb)
{
    struct rtipc__streambuf *sb = message(mb);
    return sb ? (int)space_of(sb) : RTIPC_EINVAL;
}

int rtipc_msgbuf_is_empty(const rtipc_msgbuf_t *mb)
{
    struct rtipc__streambuf *sb = message(mb);
    return sb ? count_of(sb) == 0 : RTIPC_EINVAL;
}

int rtipc_msgbuf_is_full(const rtipc_msgbuf_t *mb)
{
    struct rtipc__streambuf *sb = message(mb);
    return sb ? space_of(sb) <= PREFIX : RTIPC_EINVAL;
}
