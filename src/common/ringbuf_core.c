/* Ring buffer byte layout (see ringbuf_core.h for the picture). */
#include "ringbuf_core.h"

#include <string.h>

enum { ST_ACQUIRED = 0, ST_READY = 1, ST_READ = 2, ST_RETURNED = 3 };
#define ST_MASK 3u
#define F_DUMMY 4u
#define F_SPLIT 8u
#define LEN_SHIFT 4

/* ---- headers (memcpy: the storage may be declared as bytes) -------------- */
static inline uint32_t hdr(const rtipc__rb_t *r, uint32_t at)
{
    uint32_t h;
    memcpy(&h, r->buf + at, sizeof h);
    return h;
}

static inline void put_hdr(rtipc__rb_t *r, uint32_t at, uint32_t h) { memcpy(r->buf + at, &h, sizeof h); }

static inline uint32_t make_hdr(uint32_t len, uint32_t flags, uint32_t state)
{
    return len << LEN_SHIFT | flags | state;
}

static inline uint32_t hdr_len(uint32_t h) { return h >> LEN_SHIFT; }
static inline uint32_t hdr_state(uint32_t h) { return h & ST_MASK; }

static inline void set_state(rtipc__rb_t *r, uint32_t at, uint32_t state)
{
    put_hdr(r, at, (hdr(r, at) & ~ST_MASK) | state);
}

static inline uint32_t round_up(uint32_t n) { return (n + RTIPC__RB_ALIGN - 1) & ~(RTIPC__RB_ALIGN - 1); }

static inline uint32_t wrap(const rtipc__rb_t *r, uint32_t at) { return at >= r->size ? at - r->size : at; }

static inline uint32_t write_pos(const rtipc__rb_t *r) { return wrap(r, r->head + r->used); }

/* Bytes the unit at `at` with header h occupies; a dummy runs to the end. */
static inline uint32_t unit_bytes(const rtipc__rb_t *r, uint32_t at, uint32_t h)
{
    return (h & F_DUMMY) ? r->size - at : RTIPC__RB_HEADER + round_up(hdr_len(h));
}

/* Offset just past the item whose first unit is at `at` (both parts of a
 * split item). */
static inline uint32_t item_end(const rtipc__rb_t *r, uint32_t at, uint32_t h)
{
    if (h & F_SPLIT)
        return wrap(r, unit_bytes(r, 0, hdr(r, 0))); /* the rest starts at 0 */
    return wrap(r, at + unit_bytes(r, at, h));
}

static inline bool is_data_of(const rtipc__rb_t *r, uint32_t at, const void *p)
{
    return (const void *)(r->buf + at + RTIPC__RB_HEADER) == p;
}

/* Bytes in [head, read): units handed to readers and not yet reclaimed. */
static uint32_t received_bytes(const rtipc__rb_t *r)
{
    if (r->read == r->head) /* nothing received, or all of a full buffer */
        return (r->used == r->size && r->pending == 0) ? r->size : 0;
    return r->read > r->head ? r->read - r->head : r->size - r->head + r->read;
}

void rtipc__rb_init(rtipc__rb_t *r, unsigned type, void *buf, uint32_t size)
{
    memset(r, 0, sizeof *r);
    r->buf = buf;
    r->size = size;
    r->type = type & 3u;
}

/* Longest data that fits a free run of `run` bytes as one unit. */
static inline uint32_t fit(uint32_t run) { return run >= RTIPC__RB_HEADER + RTIPC__RB_ALIGN ? run - RTIPC__RB_HEADER : 0; }

static inline uint32_t max_u32(uint32_t a, uint32_t b) { return a > b ? a : b; }

uint32_t rtipc__rb_free_size(const rtipc__rb_t *r)
{
    if (r->type == RTIPC__RB_BYTEBUF)
        return r->size - r->used;
    if (r->used == 0)
        return rtipc__rb_max_item(r);
    if (r->used == r->size)
        return 0;
    uint32_t w = write_pos(r);
    if (w < r->head)
        return fit(r->head - w); /* one free run between write and head */
    /* Free runs: the tail [w, size) and the start [0, head). */
    uint32_t tail = r->size - w, start = r->head;
    uint32_t best = max_u32(fit(tail), fit(start)); /* whole, after a dummy if at the start */
    if (r->type == RTIPC__RB_ALLOWSPLIT && fit(tail) && fit(start))
        best = fit(tail) + fit(start); /* one part in each run */
    return best;
}

/* ---- writing --------------------------------------------------------------- */
typedef struct {
    uint32_t at;   /* offset of the (first) unit */
    uint32_t n1;   /* data bytes in the first unit */
    bool dummy;    /* the tail from write_pos becomes a dummy first */
    bool split;    /* second unit at offset 0 */
} placement_t;

/* Where an item of len bytes goes (it must fit: rtipc__rb_fits). */
static placement_t place(const rtipc__rb_t *r, uint32_t len)
{
    placement_t pl = {0, len, false, false};
    uint32_t need = RTIPC__RB_HEADER + round_up(len);
    uint32_t w = write_pos(r);
    if (r->used == 0 || w < r->head) {
        pl.at = w; /* the empty buffer (w == 0), or the run between w and head */
        return pl;
    }
    uint32_t tail = r->size - w;
    if (need <= tail) {
        pl.at = w;
    } else if (r->type == RTIPC__RB_ALLOWSPLIT && fit(tail)) {
        pl.at = w;
        pl.n1 = tail - RTIPC__RB_HEADER;
        pl.split = true;
    } else {
        pl.dummy = true; /* tail too short: leave it, start over at 0 */
    }
    return pl;
}

/* Write the unit headers for an item of len bytes in state `state`; fills
 * *sp with its data parts. */
static void commit(rtipc__rb_t *r, uint32_t len, uint32_t state, rtipc__rb_span_t *sp)
{
    placement_t pl = place(r, len);
    uint32_t w = write_pos(r);
    if (pl.dummy) {
        put_hdr(r, w, make_hdr(0, F_DUMMY, ST_READY));
        r->used += r->size - w;
        /* A reader that had caught up would rest on the dummy: move it on. */
        if (r->read == w)
            r->read = 0;
    }
    sp->p[1] = NULL;
    sp->n[1] = 0;
    if (pl.split) {
        uint32_t n2 = len - pl.n1;
        put_hdr(r, pl.at, make_hdr(pl.n1, F_SPLIT, state));
        put_hdr(r, 0, make_hdr(n2, 0, state));
        r->used += (r->size - pl.at) + RTIPC__RB_HEADER + round_up(n2);
        sp->p[0] = r->buf + pl.at + RTIPC__RB_HEADER;
        sp->n[0] = pl.n1;
        sp->p[1] = r->buf + RTIPC__RB_HEADER;
        sp->n[1] = n2;
    } else {
        put_hdr(r, pl.at, make_hdr(len, 0, state));
        r->used += RTIPC__RB_HEADER + round_up(len);
        sp->p[0] = r->buf + pl.at + RTIPC__RB_HEADER;
        sp->n[0] = len;
    }
    r->pending++;
}

uint32_t rtipc__rb_write(rtipc__rb_t *r, const void *data, uint32_t len)
{
    const unsigned char *src = data;
    if (r->type == RTIPC__RB_BYTEBUF) {
        uint32_t w = write_pos(r);
        uint32_t n1 = len < r->size - w ? len : r->size - w;
        memcpy(r->buf + w, src, n1);
        memcpy(r->buf, src + n1, len - n1);
        r->used += len;
        return 1;
    }
    rtipc__rb_span_t sp;
    commit(r, len, ST_READY, &sp);
    memcpy(sp.p[0], src, sp.n[0]);
    if (sp.n[1])
        memcpy(sp.p[1], src + sp.n[0], sp.n[1]);
    /* Receivable unless an earlier item is still being filled. */
    return r->acquired == 0 ? 1 : 0;
}

void *rtipc__rb_acquire(rtipc__rb_t *r, uint32_t len)
{
    rtipc__rb_span_t sp;
    commit(r, len, ST_ACQUIRED, &sp);
    r->acquired++;
    return sp.p[0];
}

bool rtipc__rb_complete(rtipc__rb_t *r, const void *p, uint32_t *published)
{
    *published = 0;
    if (r->type == RTIPC__RB_BYTEBUF || r->acquired == 0)
        return false;
    /* Walk the items not yet received, oldest first. */
    bool blocked = false; /* an incomplete item comes before */
    uint32_t at = r->read;
    for (uint32_t left = r->pending; left > 0; --left) {
        uint32_t h = hdr(r, at);
        if (h & F_DUMMY) {
            at = 0;
            h = hdr(r, at);
        }
        if (is_data_of(r, at, p)) {
            if (hdr_state(h) != ST_ACQUIRED)
                return false;
            set_state(r, at, ST_READY);
            r->acquired--;
            if (blocked)
                return true;
            /* It was the oldest incomplete item: it and the completed items
             * queued behind it become receivable. */
            uint32_t n = 1;
            at = item_end(r, at, h);
            while (--left > 0) {
                h = hdr(r, at);
                if (h & F_DUMMY) {
                    at = 0;
                    h = hdr(r, at);
                }
                if (hdr_state(h) != ST_READY)
                    break;
                ++n;
                at = item_end(r, at, h);
            }
            *published = n;
            return true;
        }
        if (hdr_state(h) == ST_ACQUIRED)
            blocked = true;
        at = item_end(r, at, h);
    }
    return false;
}

/* ---- reading ------------------------------------------------------------------ */
bool rtipc__rb_readable(const rtipc__rb_t *r)
{
    if (r->type == RTIPC__RB_BYTEBUF)
        return r->pending == 0 && r->used > 0;
    return r->pending > 0 && hdr_state(hdr(r, r->read)) == ST_READY;
}

bool rtipc__rb_take(rtipc__rb_t *r, uint32_t max, rtipc__rb_span_t *out)
{
    if (!rtipc__rb_readable(r))
        return false;
    out->p[1] = NULL;
    out->n[1] = 0;
    if (r->type == RTIPC__RB_BYTEBUF) {
        uint32_t n = r->size - r->head; /* contiguous up to the end */
        if (n > r->used)
            n = r->used;
        if (n > max)
            n = max;
        r->pending = n;
        out->p[0] = r->buf + r->head;
        out->n[0] = n;
        return true;
    }
    uint32_t at = r->read, h = hdr(r, at);
    set_state(r, at, ST_READ);
    out->p[0] = r->buf + at + RTIPC__RB_HEADER;
    out->n[0] = hdr_len(h);
    if (h & F_SPLIT) {
        set_state(r, 0, ST_READ);
        out->p[1] = r->buf + RTIPC__RB_HEADER;
        out->n[1] = hdr_len(hdr(r, 0));
    }
    r->read = item_end(r, at, h);
    r->pending--;
    /* Never rest on a dummy: the next item is at the start. (With nothing
     * pending, read equals the write position and there is no dummy.) */
    if (r->pending > 0 && (hdr(r, r->read) & F_DUMMY))
        r->read = 0;
    return true;
}

/* Free returned units (and dummies) from head, in order. */
static bool reclaim(rtipc__rb_t *r)
{
    bool freed = false;
    while (r->used > 0) {
        uint32_t h = hdr(r, r->head);
        if (!(h & F_DUMMY) && hdr_state(h) != ST_RETURNED)
            break;
        uint32_t n = unit_bytes(r, r->head, h);
        r->used -= n;
        r->head = wrap(r, r->head + n);
        freed = true;
    }
    if (r->used == 0) /* empty: start over at 0, the whole length in one run */
        r->head = r->read = 0;
    return freed;
}

bool rtipc__rb_give_back(rtipc__rb_t *r, const void *p, bool *freed)
{
    *freed = false;
    if (r->type == RTIPC__RB_BYTEBUF) {
        if (r->pending == 0 || p != (const void *)(r->buf + r->head))
            return false;
        r->head = wrap(r, r->head + r->pending);
        r->used -= r->pending;
        r->pending = 0;
        if (r->used == 0)
            r->head = 0;
        *freed = true;
        return true;
    }
    /* Walk the received units, oldest first. */
    uint32_t at = r->head;
    for (uint32_t left = received_bytes(r); left > 0;) {
        uint32_t h = hdr(r, at);
        if (!(h & F_DUMMY) && is_data_of(r, at, p)) {
            if (hdr_state(h) != ST_READ)
                return false;
            set_state(r, at, ST_RETURNED);
            *freed = reclaim(r);
            return true;
        }
        uint32_t n = unit_bytes(r, at, h);
        left -= n;
        at = wrap(r, at + n);
    }
    return false;
}

uint32_t rtipc__rb_waiting(const rtipc__rb_t *r)
{
    if (r->type == RTIPC__RB_BYTEBUF)
        return r->used - r->pending;
    return r->pending - r->acquired;
}

bool rtipc__rb_in_use(const rtipc__rb_t *r)
{
    if (r->type == RTIPC__RB_BYTEBUF)
        return r->pending > 0;
    return r->acquired > 0 || received_bytes(r) > 0;
}
