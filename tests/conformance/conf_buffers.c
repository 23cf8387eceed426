/* Conformance: stream buffers, message buffers, mailboxes, SPSC rings. */
#include <stdio.h>
#include <string.h>

#include "conf_internal.h"

static void fill_pattern(uint8_t *b, size_t n, uint8_t first)
{
    for (size_t i = 0; i < n; ++i)
        b[i] = (uint8_t)(first + i);
}

static const char *pattern_ok(const uint8_t *b, size_t n, uint8_t first)
{
    for (size_t i = 0; i < n; ++i)
        if (b[i] != (uint8_t)(first + i))
            return "bad";
    return "ok";
}

/* ---- stream buffers ------------------------------------------------------- */
typedef struct {
    conf_t *c;
    rtipc_streambuf_t *sb;
    uint32_t timeout_ms;
    size_t received;
    int rc;
    uint8_t buf[16];
} sb_reader_t;

static void sb_reader(void *arg)
{
    sb_reader_t *r = arg;
    conf_step(r->c, ST_R_BLOCK);
    r->rc = rtipc_streambuf_receive(r->sb, r->buf, sizeof r->buf, &r->received, rtipc_ms(r->timeout_ms));
    conf_step(r->c, ST_R_GOT);
}

void conf_streambuf(conf_t *c)
{
    rtipc_streambuf_t *sb;
    uint8_t data[16], in[16];
    size_t n = 99;
    rtipc_task_t *t;
    char steps[160];
    fill_pattern(data, sizeof data, 1);
    if (!conf_setup(c, "streambuf_create", rtipc_streambuf_create(8, 1, &sb)))
        return;
    int rc = rtipc_streambuf_send(sb, data, 6, &n, RTIPC_NO_WAIT);
    conf_check(c, "streambuf.send", "0 sent=6 available=6 spaces=2", "%s sent=%u available=%d spaces=%d", conf_err(rc),
               (unsigned)n, rtipc_streambuf_bytes_available(sb), rtipc_streambuf_spaces_available(sb));
    n = 99;
    rc = rtipc_streambuf_send(sb, data + 6, 5, &n, RTIPC_NO_WAIT);
    conf_check(c, "streambuf.send.partial_no_wait", "0 sent=2 full=1", "%s sent=%u full=%d", conf_err(rc), (unsigned)n,
               rtipc_streambuf_is_full(sb));
    n = 99;
    rc = rtipc_streambuf_send(sb, data, 1, &n, RTIPC_NO_WAIT);
    conf_check(c, "streambuf.send.full_no_wait", "RTIPC_EWOULDBLOCK sent=0", "%s sent=%u", conf_err(rc), (unsigned)n);
    n = 99;
    rc = rtipc_streambuf_receive(sb, in, 3, &n, RTIPC_NO_WAIT);
    conf_check(c, "streambuf.receive.part", "0 received=3 data=ok", "%s received=%u data=%s", conf_err(rc), (unsigned)n,
               pattern_ok(in, 3, 1));
    n = 99;
    int64_t t0 = rtipc_time_ns();
    rc = rtipc_streambuf_send(sb, data + 8, 5, &n, rtipc_ms(CONF_TIMEOUT_MS));
    conf_check(c, "streambuf.send.partial_timeout", "0 sent=3 ok", "%s sent=%u %s", conf_err(rc), (unsigned)n,
               conf_bound(rtipc_time_ns() - t0, (int64_t)CONF_TIMEOUT_MS * 1000000));
    n = 99;
    rc = rtipc_streambuf_receive(sb, in, sizeof in, &n, RTIPC_NO_WAIT);
    conf_check(c, "streambuf.receive.all", "0 received=8 data=ok", "%s received=%u data=%s", conf_err(rc), (unsigned)n,
               pattern_ok(in, 8, 4));
    n = 99;
    rc = rtipc_streambuf_receive(sb, in, sizeof in, &n, RTIPC_NO_WAIT);
    conf_check(c, "streambuf.receive.empty_no_wait", "RTIPC_EWOULDBLOCK received=0", "%s received=%u", conf_err(rc),
               (unsigned)n);
    (void)rtipc_streambuf_delete(sb);

    /* A reader blocked below the trigger level takes what is there at its
     * timeout (whether or not it blocked before the byte came). */
    if (!conf_setup(c, "streambuf_create", rtipc_streambuf_create(16, 4, &sb)))
        return;
    sb_reader_t r1 = {c, sb, 100, 99, -100, {0}};
    if (conf_spawn(c, "reader", CONF_PRIO_HIGH, sb_reader, &r1, &t)) {
        rc = rtipc_streambuf_send(sb, data, 1, &n, RTIPC_NO_WAIT);
        conf_join(c, t);
        conf_steps(c, steps, sizeof steps);
        conf_check(c, "streambuf.trigger.timeout_takes_what_is_there", "0 reader=0 received=1 data=ok",
                   "%s reader=%s received=%u data=%s", conf_err(rc), conf_err(r1.rc), (unsigned)r1.received,
                   pattern_ok(r1.buf, r1.received, 1));
    }
    if (conf_need_order(c, "streambuf.trigger.level")) {
        sb_reader_t r2 = {c, sb, CONF_LONG_MS, 99, -100, {0}};
        if (conf_spawn(c, "reader", CONF_PRIO_HIGH, sb_reader, &r2, &t)) {
            conf_step(c, ST_T_ACT);
            (void)rtipc_streambuf_send(sb, data, 2, &n, RTIPC_NO_WAIT);
            conf_step(c, ST_T_ACT2);
            (void)rtipc_streambuf_send(sb, data + 2, 2, &n, RTIPC_NO_WAIT);
            conf_step(c, ST_T_AFTER);
            conf_join(c, t);
            conf_steps(c, steps, sizeof steps);
            conf_check(c, "streambuf.trigger.level", "steps=R.block T.act T.act2 R.got T.after reader=0 received=4 data=ok",
                       "steps=%s reader=%s received=%u data=%s", steps, conf_err(r2.rc), (unsigned)r2.received,
                       pattern_ok(r2.buf, r2.received, 1));
        }
    }
    (void)rtipc_streambuf_delete(sb);

    /* Trigger level 0 counts as 1: one byte wakes the reader. */
    if (conf_need_order(c, "streambuf.trigger.zero_is_one") &&
        conf_setup(c, "streambuf_create", rtipc_streambuf_create(16, 0, &sb))) {
        sb_reader_t r3 = {c, sb, CONF_LONG_MS, 99, -100, {0}};
        if (conf_spawn(c, "reader", CONF_PRIO_HIGH, sb_reader, &r3, &t)) {
            conf_step(c, ST_T_ACT);
            (void)rtipc_streambuf_send(sb, data, 1, &n, RTIPC_NO_WAIT);
            conf_step(c, ST_T_AFTER);
            conf_join(c, t);
            conf_steps(c, steps, sizeof steps);
            conf_check(c, "streambuf.trigger.zero_is_one", "steps=R.block T.act R.got T.after reader=0 received=1",
                       "steps=%s reader=%s received=%u", steps, conf_err(r3.rc), (unsigned)r3.received);
        }
        (void)rtipc_streambuf_delete(sb);
    }
}

/* ---- message buffers ------------------------------------------------------ */
void conf_msgbuf(conf_t *c)
{
    rtipc_msgbuf_t *mb;
    uint8_t data[32], in[32];
    size_t len = 99;
    fill_pattern(data, sizeof data, 1);
    if (!conf_setup(c, "msgbuf_create", rtipc_msgbuf_create(32, &mb)))
        return;
    int rc = rtipc_msgbuf_send(mb, data, 10, RTIPC_NO_WAIT);
    conf_check(c, "msgbuf.send", "0 used=14 next=10", "%s used=%d next=%d", conf_err(rc), rtipc_msgbuf_bytes_available(mb),
               rtipc_msgbuf_next_length(mb));
    rc = rtipc_msgbuf_send(mb, data, 20, RTIPC_NO_WAIT);
    conf_check(c, "msgbuf.send.all_or_nothing", "RTIPC_EWOULDBLOCK used=14", "%s used=%d", conf_err(rc),
               rtipc_msgbuf_bytes_available(mb));
    int64_t t0 = rtipc_time_ns();
    rc = rtipc_msgbuf_send(mb, data, 20, rtipc_ms(CONF_TIMEOUT_MS));
    conf_check(c, "msgbuf.send.all_or_nothing_timeout", "RTIPC_ETIMEDOUT ok used=14", "%s %s used=%d", conf_err(rc),
               conf_bound(rtipc_time_ns() - t0, (int64_t)CONF_TIMEOUT_MS * 1000000), rtipc_msgbuf_bytes_available(mb));
    conf_check(c, "msgbuf.send.never_fits", "RTIPC_EINVAL", "%s", conf_err(rtipc_msgbuf_send(mb, data, 29, RTIPC_NO_WAIT)));
    rc = rtipc_msgbuf_receive(mb, in, 4, &len, RTIPC_NO_WAIT);
    conf_check(c, "msgbuf.receive.too_small", "RTIPC_EINVAL len=10 next=10 used=14", "%s len=%u next=%d used=%d",
               conf_err(rc), (unsigned)len, rtipc_msgbuf_next_length(mb), rtipc_msgbuf_bytes_available(mb));
    (void)rtipc_msgbuf_send(mb, data + 10, 3, RTIPC_NO_WAIT);
    len = 99;
    rc = rtipc_msgbuf_receive(mb, in, sizeof in, &len, RTIPC_NO_WAIT);
    conf_check(c, "msgbuf.receive", "0 len=10 data=ok", "%s len=%u data=%s", conf_err(rc), (unsigned)len,
               pattern_ok(in, len, 1));
    len = 99;
    rc = rtipc_msgbuf_receive(mb, in, sizeof in, &len, RTIPC_NO_WAIT);
    conf_check(c, "msgbuf.receive.boundary", "0 len=3 data=ok empty=1", "%s len=%u data=%s empty=%d", conf_err(rc),
               (unsigned)len, pattern_ok(in, len, 11), rtipc_msgbuf_is_empty(mb));
    len = 99;
    t0 = rtipc_time_ns();
    rc = rtipc_msgbuf_receive(mb, in, sizeof in, &len, rtipc_ms(CONF_TIMEOUT_MS));
    conf_check(c, "msgbuf.receive.empty_timeout", "RTIPC_ETIMEDOUT len=0 ok", "%s len=%u %s", conf_err(rc), (unsigned)len,
               conf_bound(rtipc_time_ns() - t0, (int64_t)CONF_TIMEOUT_MS * 1000000));
    (void)rtipc_msgbuf_delete(mb);
}

/* ---- mailbox and SPSC ring ------------------------------------------------ */
void conf_mailbox_spsc(conf_t *c)
{
    rtipc_mailbox_t *mb;
    int init = 7, v = 0;
    uint64_t ver = 99;
    if (conf_setup(c, "mailbox_create", rtipc_mailbox_create(sizeof(int), &init, &mb))) {
        int rc = rtipc_mailbox_read(mb, &v, &ver);
        conf_check(c, "mailbox.initial", "0 value=7 version=0", "%s value=%d version=%u", conf_err(rc), v, (unsigned)ver);
        int w = 8;
        int r1 = rtipc_mailbox_write(mb, &w);
        w = 9;
        int r2 = rtipc_mailbox_write(mb, &w);
        rc = rtipc_mailbox_read(mb, &v, &ver);
        conf_check(c, "mailbox.write", "0 0 read=0 value=9 version=2", "%s %s read=%s value=%d version=%u", conf_err(r1),
                   conf_err(r2), conf_err(rc), v, (unsigned)ver);
        v = -1;
        rc = rtipc_mailbox_wait_newer(mb, &v, 2, &ver, RTIPC_NO_WAIT);
        conf_check(c, "mailbox.wait_newer.none", "RTIPC_EWOULDBLOCK value=-1", "%s value=%d", conf_err(rc), v);
        rc = rtipc_mailbox_wait_newer(mb, &v, 0, &ver, RTIPC_NO_WAIT);
        conf_check(c, "mailbox.wait_newer.missed", "0 value=9 version=2", "%s value=%d version=%u", conf_err(rc), v,
                   (unsigned)ver);
        (void)rtipc_mailbox_delete(mb);
    }

    rtipc_spsc_t *r = NULL;
    conf_check(c, "spsc.create.not_power_of_two", "RTIPC_EINVAL", "%s", conf_err(rtipc_spsc_create(3, sizeof(int), &r)));
    if (!conf_setup(c, "spsc_create", rtipc_spsc_create(4, sizeof(int), &r)))
        return;
    int rc = rtipc_spsc_try_pop(r, &v);
    conf_check(c, "spsc.empty", "RTIPC_EWOULDBLOCK size=0 capacity=4", "%s size=%d capacity=%d", conf_err(rc),
               rtipc_spsc_size(r), rtipc_spsc_capacity(r));
    int p[5];
    for (int i = 0; i < 5; ++i) {
        v = i + 1;
        p[i] = rtipc_spsc_try_push(r, &v);
    }
    conf_check(c, "spsc.fill", "0 0 0 0 RTIPC_EWOULDBLOCK size=4", "%s %s %s %s %s size=%d", conf_err(p[0]),
               conf_err(p[1]), conf_err(p[2]), conf_err(p[3]), conf_err(p[4]), rtipc_spsc_size(r));
    v = 0;
    rc = rtipc_spsc_peek(r, &v);
    conf_check(c, "spsc.peek", "0 value=1 size=4", "%s value=%d size=%d", conf_err(rc), v, rtipc_spsc_size(r));
    int out[3] = {0, 0, 0};
    int n = rtipc_spsc_pop_bulk(r, out, 3);
    conf_check(c, "spsc.pop_bulk", "3 values=1 2 3 size=1", "%d values=%d %d %d size=%d", n, out[0], out[1], out[2],
               rtipc_spsc_size(r));
    int in[5] = {5, 6, 7, 8, 9};
    n = rtipc_spsc_push_bulk(r, in, 5);
    conf_check(c, "spsc.push_bulk", "3 size=4", "%d size=%d", n, rtipc_spsc_size(r));
    int got[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; ++i)
        (void)rtipc_spsc_pop(r, &got[i], rtipc_ms(CONF_TIMEOUT_MS));
    conf_check(c, "spsc.order", "4 5 6 7", "%d %d %d %d", got[0], got[1], got[2], got[3]);
    int64_t t0 = rtipc_time_ns();
    rc = rtipc_spsc_pop(r, &v, rtipc_ms(CONF_TIMEOUT_MS));
    conf_check(c, "spsc.pop.empty_timeout", "RTIPC_ETIMEDOUT ok", "%s %s", conf_err(rc),
               conf_bound(rtipc_time_ns() - t0, (int64_t)CONF_TIMEOUT_MS * 1000000));
    (void)rtipc_spsc_delete(r);
}
