/* Conformance: ring buffers (ESP-IDF's three types: no-split, allow-split,
 * byte buffer), their waiting rules and their queue-set membership. */
#include <stdio.h>
#include <string.h>

#include "conf_internal.h"

static void fill(uint8_t *b, size_t n, uint8_t first)
{
    for (size_t i = 0; i < n; ++i)
        b[i] = (uint8_t)(first + i);
}

static const char *same(const void *p, size_t n, uint8_t first)
{
    const uint8_t *b = p;
    if (!b)
        return "null";
    for (size_t i = 0; i < n; ++i)
        if (b[i] != (uint8_t)(first + i))
            return "bad";
    return "ok";
}

/* Every check here sends bytes 1, 2, 3, ...: one pattern for them all, and
 * the buffer each starts from (a failure reported by conf_setup). */
static uint8_t data[64];

static bool create_rb(conf_t *c, size_t size, rtipc_ringbuf_type_t type, rtipc_ringbuf_t **rb)
{
    fill(data, sizeof data, 1);
    return conf_setup(c, "ringbuf_create", rtipc_ringbuf_create(size, type, rb));
}

/* ---- one-task checks ------------------------------------------------------ */

static void create_and_sizes(conf_t *c)
{
    rtipc_ringbuf_t *rb = NULL;
    int r0 = rtipc_ringbuf_create(0, RTIPC_RINGBUF_NOSPLIT, &rb);
    int r1 = rtipc_ringbuf_create(4, RTIPC_RINGBUF_NOSPLIT, &rb);
    int r2 = rtipc_ringbuf_create(64, (rtipc_ringbuf_type_t)7, &rb);
    int r3 = rtipc_ringbuf_create(64, RTIPC_RINGBUF_NOSPLIT, NULL);
    conf_check(c, "ringbuf.create.invalid", "size0=RTIPC_EINVAL size4=RTIPC_EINVAL type=RTIPC_EINVAL out=RTIPC_EINVAL",
               "size0=%s size4=%s type=%s out=%s", conf_err(r0), conf_err(r1), conf_err(r2), conf_err(r3));
    static const struct {
        rtipc_ringbuf_type_t type;
        const char *key, *expected;
    } kinds[] = {
        {RTIPC_RINGBUF_NOSPLIT, "ringbuf.sizes.nosplit", "max_item=60 free=60 waiting=0 used=0"},
        {RTIPC_RINGBUF_ALLOWSPLIT, "ringbuf.sizes.allowsplit", "max_item=60 free=60 waiting=0 used=0"},
        {RTIPC_RINGBUF_BYTEBUF, "ringbuf.sizes.bytebuf", "max_item=64 free=64 waiting=0 used=0"},
    };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        if (!conf_setup(c, "ringbuf_create", rtipc_ringbuf_create(64, kinds[k].type, &rb)))
            return;
        conf_check(c, kinds[k].key, kinds[k].expected, "max_item=%d free=%d waiting=%d used=%d",
                   rtipc_ringbuf_max_item_size(rb), rtipc_ringbuf_free_size(rb), rtipc_ringbuf_items_waiting(rb),
                   rtipc_ringbuf_bytes_used(rb));
        (void)rtipc_ringbuf_delete(rb);
    }
}

static void bytebuf(conf_t *c)
{
    rtipc_ringbuf_t *rb;
    if (!create_rb(c, 16, RTIPC_RINGBUF_BYTEBUF, &rb))
        return;
    (void)rtipc_ringbuf_send(rb, data, 10, RTIPC_NO_WAIT);
    int full = rtipc_ringbuf_send(rb, data, 7, RTIPC_NO_WAIT);
    void *item = NULL, *tail = NULL;
    size_t size = 0, tail_size = 0;
    int split = rtipc_ringbuf_receive_split(rb, &item, &size, &tail, &tail_size, RTIPC_NO_WAIT);
    int rc = rtipc_ringbuf_receive_up_to(rb, &item, &size, 4, RTIPC_NO_WAIT);
    int second = rtipc_ringbuf_receive_up_to(rb, &tail, &tail_size, 4, RTIPC_NO_WAIT);
    conf_check(c, "ringbuf.bytebuf.up_to", "full=RTIPC_EWOULDBLOCK split=RTIPC_ENOTSUP 0 size=4 data=ok second=RTIPC_EWOULDBLOCK",
               "full=%s split=%s %s size=%u data=%s second=%s", conf_err(full), conf_err(split), conf_err(rc),
               (unsigned)size, same(item, size, 1), conf_err(second));
    (void)rtipc_ringbuf_return(rb, item);
    rc = rtipc_ringbuf_receive_up_to(rb, &item, &size, 100, RTIPC_NO_WAIT);
    conf_check(c, "ringbuf.bytebuf.rest", "0 size=6 data=ok", "%s size=%u data=%s", conf_err(rc), (unsigned)size,
               same(item, size, 5));
    (void)rtipc_ringbuf_return(rb, item);
    (void)rtipc_ringbuf_delete(rb);
}

static void nosplit(conf_t *c)
{
    rtipc_ringbuf_t *rb;
    if (!create_rb(c, 64, RTIPC_RINGBUF_NOSPLIT, &rb))
        return;
    int rc = rtipc_ringbuf_send(rb, data, 5, RTIPC_NO_WAIT);
    conf_check(c, "ringbuf.nosplit.send", "0 waiting=1 used=12", "%s waiting=%d used=%d", conf_err(rc),
               rtipc_ringbuf_items_waiting(rb), rtipc_ringbuf_bytes_used(rb));
    int big = rtipc_ringbuf_send(rb, data, 61, RTIPC_NO_WAIT);
    int zero = rtipc_ringbuf_send(rb, data, 0, RTIPC_NO_WAIT);
    conf_check(c, "ringbuf.nosplit.send.invalid", "too_big=RTIPC_EINVAL zero=RTIPC_EINVAL",
               "too_big=%s zero=%s", conf_err(big), conf_err(zero));
    void *item = NULL;
    size_t size = 99;
    rc = rtipc_ringbuf_receive(rb, &item, &size, RTIPC_NO_WAIT);
    conf_check(c, "ringbuf.nosplit.receive", "0 size=5 data=ok waiting=0 used=12", "%s size=%u data=%s waiting=%d used=%d",
               conf_err(rc), (unsigned)size, same(item, size, 1), rtipc_ringbuf_items_waiting(rb),
               rtipc_ringbuf_bytes_used(rb));
    int busy = rtipc_ringbuf_delete(rb);
    int bad = rtipc_ringbuf_return(rb, data);
    rc = rtipc_ringbuf_return(rb, item);
    int twice = rtipc_ringbuf_return(rb, item);
    conf_check(c, "ringbuf.nosplit.return", "delete=RTIPC_EBUSY foreign=RTIPC_EINVAL 0 twice=RTIPC_EINVAL used=0",
               "delete=%s foreign=%s %s twice=%s used=%d", conf_err(busy), conf_err(bad), conf_err(rc), conf_err(twice),
               rtipc_ringbuf_bytes_used(rb));
    int sent = 0;
    while ((rc = rtipc_ringbuf_send(rb, data, 10, RTIPC_NO_WAIT)) == RTIPC_OK)
        sent++;
    conf_check(c, "ringbuf.nosplit.full_no_wait", "sent=4 RTIPC_EWOULDBLOCK free=0", "sent=%d %s free=%d", sent,
               conf_err(rc), rtipc_ringbuf_free_size(rb));
    int64_t t0 = rtipc_time_ns();
    rc = rtipc_ringbuf_send(rb, data, 10, rtipc_ms(CONF_TIMEOUT_MS));
    conf_check(c, "ringbuf.nosplit.full_timeout", "RTIPC_ETIMEDOUT ok", "%s %s", conf_err(rc),
               conf_bound(rtipc_time_ns() - t0, (int64_t)CONF_TIMEOUT_MS * 1000000));
    for (int i = 0; i < sent; i++) {
        if (rtipc_ringbuf_receive(rb, &item, &size, RTIPC_NO_WAIT) == RTIPC_OK)
            (void)rtipc_ringbuf_return(rb, item);
    }
    rc = rtipc_ringbuf_receive(rb, &item, &size, RTIPC_NO_WAIT);
    t0 = rtipc_time_ns();
    int rt = rtipc_ringbuf_receive(rb, &item, &size, rtipc_ms(CONF_TIMEOUT_MS));
    conf_check(c, "ringbuf.nosplit.empty", "no_wait=RTIPC_EWOULDBLOCK timeout=RTIPC_ETIMEDOUT ok",
               "no_wait=%s timeout=%s %s", conf_err(rc), conf_err(rt),
               conf_bound(rtipc_time_ns() - t0, (int64_t)CONF_TIMEOUT_MS * 1000000));

    /* Acquire reserves space in order; nothing is receivable until it is
     * completed, and an item sent after it waits behind it (counted as
     * waiting, not receivable). */
    void *slot = NULL;
    rc = rtipc_ringbuf_acquire(rb, &slot, 6, RTIPC_NO_WAIT);
    int behind = rtipc_ringbuf_send(rb, data, 3, RTIPC_NO_WAIT);
    int waiting = rtipc_ringbuf_items_waiting(rb);
    if (slot)
        memcpy(slot, data + 10, 6);
    int done = slot ? rtipc_ringbuf_complete(rb, slot) : RTIPC_EINVAL;
    int again = slot ? rtipc_ringbuf_complete(rb, slot) : RTIPC_EINVAL;
    int after = rtipc_ringbuf_items_waiting(rb);
    rtipc_ringbuf_receive(rb, &item, &size, RTIPC_NO_WAIT);
    conf_check(c, "ringbuf.nosplit.acquire", "0 send=0 waiting=1 complete=0 again=RTIPC_EINVAL waiting=2 first=6:ok",
               "%s send=%s waiting=%d complete=%s again=%s waiting=%d first=%u:%s", conf_err(rc), conf_err(behind),
               waiting, conf_err(done), conf_err(again), after, (unsigned)size, same(item, size, 11));
    (void)rtipc_ringbuf_return(rb, item);
    if (rtipc_ringbuf_receive(rb, &item, &size, RTIPC_NO_WAIT) == RTIPC_OK)
        (void)rtipc_ringbuf_return(rb, item);

    /* The interrupt-safe calls, from a task. */
    bool woken = false;
    rc = rtipc_ringbuf_send_from_isr(rb, data, 7, &woken);
    item = NULL;
    int rr = rtipc_ringbuf_receive_from_isr(rb, &item, &size);
    int rb_rc = item ? rtipc_ringbuf_return_from_isr(rb, item, &woken) : RTIPC_EINVAL;
    conf_check(c, "ringbuf.nosplit.from_isr", "send=0 receive=0 size=7 return=0 woken=0 used=0",
               "send=%s receive=%s size=%u return=%s woken=%d used=%d", conf_err(rc), conf_err(rr), (unsigned)size,
               conf_err(rb_rc), woken, rtipc_ringbuf_bytes_used(rb));
    rc = rtipc_ringbuf_delete(rb);
    /* FreeRTOS direct mode does not refuse a deleted object's handle: the
     * deleted ring buffer is not used again there. */
    conf_check(c, "ringbuf.delete", "0 then=RTIPC_EINVAL", "%s then=%s", conf_err(rc),
               RTIPC_DIRECT ? conf_err(CONF_NOT_CALLED) : conf_err(rtipc_ringbuf_send(rb, data, 1, RTIPC_NO_WAIT)));
}

static void allowsplit(conf_t *c)
{
    rtipc_ringbuf_t *rb;
    if (!create_rb(c, 32, RTIPC_RINGBUF_ALLOWSPLIT, &rb))
        return;
    void *item = NULL, *tail = NULL;
    size_t size = 0, tail_size = 0;
    /* 12 bytes (a 16-byte unit), then 4 (8): 24 of 32 used. Returning the
     * first frees the front, so a 12-byte item wraps: 4 at the end, 8 at 0. */
    (void)rtipc_ringbuf_send(rb, data, 12, RTIPC_NO_WAIT);
    (void)rtipc_ringbuf_send(rb, data + 12, 4, RTIPC_NO_WAIT);
    int acq = rtipc_ringbuf_acquire(rb, &item, 4, RTIPC_NO_WAIT);
    int whole = rtipc_ringbuf_receive(rb, &item, &size, RTIPC_NO_WAIT);
    int rc = rtipc_ringbuf_receive_split(rb, &item, &size, &tail, &tail_size, RTIPC_NO_WAIT);
    (void)rtipc_ringbuf_return(rb, item);
    conf_check(c, "ringbuf.allowsplit.calls", "acquire=RTIPC_ENOTSUP receive=RTIPC_ENOTSUP split=0 head=12 tail=0",
               "acquire=%s receive=%s split=%s head=%u tail=%u", conf_err(acq), conf_err(whole), conf_err(rc),
               (unsigned)size, (unsigned)tail_size);
    rc = rtipc_ringbuf_send(rb, data + 20, 12, RTIPC_NO_WAIT);
    int ra = rtipc_ringbuf_receive_split(rb, &item, &size, &tail, &tail_size, RTIPC_NO_WAIT);
    (void)rtipc_ringbuf_return(rb, item);
    int rb2 = rtipc_ringbuf_receive_split(rb, &item, &size, &tail, &tail_size, RTIPC_NO_WAIT);
    conf_check(c, "ringbuf.allowsplit.wrap", "send=0 first=0:4 second=0:4:ok+8:ok", "send=%s first=%s:%u second=%s:%u:%s+%u:%s",
               conf_err(rc), conf_err(ra), (unsigned)size, conf_err(rb2), (unsigned)size, same(item, size, 21),
               (unsigned)tail_size, same(tail, tail_size, (uint8_t)(21 + size)));
    (void)rtipc_ringbuf_return(rb, item);
    if (tail)
        (void)rtipc_ringbuf_return(rb, tail);
    conf_check(c, "ringbuf.allowsplit.returned", "used=0 waiting=0", "used=%d waiting=%d", rtipc_ringbuf_bytes_used(rb),
               rtipc_ringbuf_items_waiting(rb));
    (void)rtipc_ringbuf_delete(rb);
}

/* ---- waiting -------------------------------------------------------------- */

typedef struct {
    conf_t *c;
    rtipc_ringbuf_t *rb;
    enum conf_step block, done;
    int rc;
    size_t size;
    uint8_t first;
    const uint8_t *data;
} rb_helper_t;

static void receiver(void *arg)
{
    rb_helper_t *h = arg;
    void *item = NULL;
    conf_step(h->c, h->block);
    h->rc = rtipc_ringbuf_receive(h->rb, &item, &h->size, rtipc_ms(CONF_LONG_MS));
    if (h->rc == RTIPC_OK) {
        h->first = *(const uint8_t *)item;
        (void)rtipc_ringbuf_return(h->rb, item);
    }
    conf_step(h->c, h->done);
}

static void sender(void *arg)
{
    rb_helper_t *h = arg;
    conf_step(h->c, h->block);
    h->rc = rtipc_ringbuf_send(h->rb, h->data, h->size, rtipc_ms(CONF_LONG_MS));
    conf_step(h->c, h->done);
}

static void waiting(conf_t *c)
{
    if (!conf_need_order(c, "ringbuf.receiver.woken ringbuf.receivers.priority ringbuf.sender.woken_by_return"))
        return;
    rtipc_ringbuf_t *rb;
    char steps[160];
    rtipc_task_t *t, *t2;
    if (!create_rb(c, 32, RTIPC_RINGBUF_NOSPLIT, &rb))
        return;

    /* A receiver of higher priority runs as soon as the item is stored. */
    rb_helper_t r = {c, rb, ST_R_BLOCK, ST_R_GOT, -100, 0, 0, NULL};
    if (conf_spawn(c, "receiver", CONF_PRIO_HIGH, receiver, &r, &t)) {
        conf_step(c, ST_T_ACT);
        int rc = rtipc_ringbuf_send(rb, data, 3, RTIPC_NO_WAIT);
        conf_step(c, ST_T_AFTER);
        conf_join(c, t);
        conf_steps(c, steps, sizeof steps);
        conf_check(c, "ringbuf.receiver.woken", "0 steps=R.block T.act R.got T.after receiver=0 size=3 first=1",
                   "%s steps=%s receiver=%s size=%u first=%u", conf_err(rc), steps, conf_err(r.rc), (unsigned)r.size,
                   (unsigned)r.first);
    }

    /* Two receivers: the higher priority gets the first item, whatever the
     * order they began to wait in. */
    rb_helper_t lo = {c, rb, ST_LO_BLOCK, ST_LO_DONE, -100, 0, 0, NULL};
    rb_helper_t hi = {c, rb, ST_HI_BLOCK, ST_HI_DONE, -100, 0, 0, NULL};
    if (conf_spawn(c, "lo", CONF_PRIO_HIGH, receiver, &lo, &t)) {
        if (conf_spawn(c, "hi", CONF_PRIO_HIGHER, receiver, &hi, &t2)) {
            conf_step(c, ST_T_ACT);
            (void)rtipc_ringbuf_send(rb, data + 10, 2, RTIPC_NO_WAIT);
            conf_step(c, ST_T_ACT2);
            (void)rtipc_ringbuf_send(rb, data + 20, 2, RTIPC_NO_WAIT);
            conf_join(c, t2);
        }
        conf_join(c, t);
        conf_steps(c, steps, sizeof steps);
        conf_check(c, "ringbuf.receivers.priority", "steps=Lo.block Hi.block T.act Hi.done T.act2 Lo.done hi=11 lo=21",
                   "steps=%s hi=%u lo=%u", steps, (unsigned)hi.first, (unsigned)lo.first);
    }

    /* A sender waiting for room proceeds when a return frees it. */
    void *item = NULL;
    size_t size = 0;
    (void)rtipc_ringbuf_send(rb, data, 20, RTIPC_NO_WAIT); /* 24 of 32 */
    rb_helper_t s = {c, rb, ST_S_BLOCK, ST_S_SENT, -100, 12, 0, data};
    if (conf_spawn(c, "sender", CONF_PRIO_HIGH, sender, &s, &t)) {
        conf_step(c, ST_T_ACT);
        (void)rtipc_ringbuf_receive(rb, &item, &size, RTIPC_NO_WAIT);
        conf_step(c, ST_T_ACT2);
        int rc = rtipc_ringbuf_return(rb, item);
        conf_step(c, ST_T_AFTER);
        conf_join(c, t);
        conf_steps(c, steps, sizeof steps);
        conf_check(c, "ringbuf.sender.woken_by_return", "0 steps=S.block T.act T.act2 S.sent T.after sender=0 waiting=1",
                   "%s steps=%s sender=%s waiting=%d", conf_err(rc), steps, conf_err(s.rc),
                   rtipc_ringbuf_items_waiting(rb));
    }
    if (rtipc_ringbuf_receive(rb, &item, &size, RTIPC_NO_WAIT) == RTIPC_OK)
        (void)rtipc_ringbuf_return(rb, item);
    (void)rtipc_ringbuf_delete(rb);
}

/* ---- queue sets ------------------------------------------------------------ */

static void in_a_set(conf_t *c)
{
    rtipc_ringbuf_t *rb;
    rtipc_queueset_t *set;
    if (!create_rb(c, 32, RTIPC_RINGBUF_NOSPLIT, &rb))
        return;
    if (!conf_setup(c, "queueset_create", rtipc_queueset_create(8, &set))) {
        (void)rtipc_ringbuf_delete(rb);
        return;
    }
    (void)rtipc_ringbuf_send(rb, data, 2, RTIPC_NO_WAIT);
    int not_empty = rtipc_queueset_add_ringbuf(set, rb);
    void *item = NULL;
    size_t size = 0;
    if (rtipc_ringbuf_receive(rb, &item, &size, RTIPC_NO_WAIT) == RTIPC_OK)
        (void)rtipc_ringbuf_return(rb, item);
    int rc = rtipc_queueset_add_ringbuf(set, rb);
    int twice = rtipc_queueset_add_ringbuf(set, rb);
    int busy = rtipc_ringbuf_delete(rb);
    conf_check(c, "queueset.ringbuf.add", "not_empty=RTIPC_EBUSY 0 twice=RTIPC_EBUSY delete=RTIPC_EBUSY",
               "not_empty=%s %s twice=%s delete=%s", conf_err(not_empty), conf_err(rc), conf_err(twice),
               conf_err(busy));
    (void)rtipc_ringbuf_send(rb, data, 3, RTIPC_NO_WAIT);
    (void)rtipc_ringbuf_send(rb, data + 3, 3, RTIPC_NO_WAIT);
    void *member = NULL, *member2 = NULL;
    int s1 = rtipc_queueset_select(set, &member, RTIPC_NO_WAIT);
    int r1 = rtipc_ringbuf_receive(rb, &item, &size, RTIPC_NO_WAIT);
    if (r1 == RTIPC_OK)
        (void)rtipc_ringbuf_return(rb, item);
    int s2 = rtipc_queueset_select(set, &member2, RTIPC_NO_WAIT);
    int r2 = rtipc_ringbuf_receive(rb, &item, &size, RTIPC_NO_WAIT);
    unsigned first = r2 == RTIPC_OK ? *(const uint8_t *)item : 0;
    if (r2 == RTIPC_OK)
        (void)rtipc_ringbuf_return(rb, item);
    int s3 = rtipc_queueset_select(set, &member, RTIPC_NO_WAIT);
    conf_check(c, "queueset.ringbuf.select", "0 member=rb 0 0 member=rb 0 first=4 empty=RTIPC_EWOULDBLOCK",
               "%s member=%s %s %s member=%s %s first=%u empty=%s", conf_err(s1), member == (void *)rb ? "rb" : "other",
               conf_err(r1), conf_err(s2), member2 == (void *)rb ? "rb" : "other", conf_err(r2), first,
               conf_err(s3));
    rc = rtipc_queueset_remove_ringbuf(set, rb);
    int again = rtipc_queueset_remove_ringbuf(set, rb);
    conf_check(c, "queueset.ringbuf.remove", "0 again=RTIPC_EINVAL delete=0", "%s again=%s delete=%s", conf_err(rc),
               conf_err(again), conf_err(rtipc_ringbuf_delete(rb)));
    (void)rtipc_queueset_delete(set);
}

void conf_ringbuf(conf_t *c)
{
    create_and_sizes(c);
    nosplit(c);
    allowsplit(c);
    bytebuf(c);
    waiting(c);
    in_a_set(c);
}
