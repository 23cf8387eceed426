/* Stream and message buffers, single writer + single reader as documented:
 * - stream buffer A: a writer task and a reader task; stream buffer B: a
 *   handler writes, a task reads. The byte stream is a sequence of 24-byte
 *   records (producer, seq, checksum) cut at random lengths; the reader
 *   reassembles them and each must be the next of the sequence.
 * - message buffer A: writer task, reader task; B: handler writer, reader
 *   task. Messages of random length carry (producer, length, seq, checksum)
 *   and a payload; the reader must see seq 0, 1, 2, ... with no gap (a
 *   handler's refused send does not use up its seq). The reader sometimes
 *   offers a buffer too small and must get RTIPC_EINVAL with the length.
 * A second writer or reader never exists, so RTIPC_EBUSY is a violation. */
#include <string.h>

#include "soak_core.h"

enum { SB_SIZE = 256, MB_SIZE = 512, MAXMSG = 128 };

/* ---- stream buffers ------------------------------------------------------------ */

typedef struct {
    rtipc_streambuf_t *sb;
    uint32_t prod;
    uint64_t wpos;                 /* writer: bytes written */
    uint64_t rpos;                 /* reader: bytes read */
    unsigned char rec[sizeof(soak_msg_t)];
    soak_streams_t st;
} sbx_t;

static sbx_t sba, sbb;

static unsigned char stream_byte(sbx_t *x, uint64_t pos)
{
    soak_msg_t m = {.prod = x->prod, .flags = SOAK_ORDERED, .seq = pos / sizeof m};
    m.check = soak_check(O_STREAM, m.prod, m.seq, m.flags);
    unsigned char b[sizeof m];
    memcpy(b, &m, sizeof m);
    return b[pos % sizeof m];
}

/* Write up to @p max bytes of the stream; returns the call's code. */
static int sb_write(sbx_t *x, size_t max, rtipc_timeout_t t, bool isr)
{
    unsigned char buf[64];
    if (max > sizeof buf)
        max = sizeof buf;
    for (size_t i = 0; i < max; ++i)
        buf[i] = stream_byte(x, x->wpos + i);
    size_t sent = 0;
    int rc;
    if (isr) {
        bool woken = false;
        rc = rtipc_streambuf_send_from_isr(x->sb, buf, max, &sent, &woken);
        rtipc_irq_yield(woken);
    } else {
        rc = rtipc_streambuf_send(x->sb, buf, max, &sent, t);
    }
    if (rc == 0) {
        if (sent == 0 || sent > max)
            soak_violation(O_STREAM, "send reported %zu of %zu bytes", sent, max);
        uint64_t before = x->wpos / sizeof(soak_msg_t);
        x->wpos += sent;
        for (uint64_t r = before; r < x->wpos / sizeof(soak_msg_t); ++r)
            soak_sent(&x->st, x->prod, r);
    } else if (rc == RTIPC_EBUSY) {
        soak_violation(O_STREAM, "single writer refused with EBUSY");
    }
    return rc;
}

static int sb_read(sbx_t *x, size_t max, rtipc_timeout_t t, int consumer)
{
    unsigned char buf[64];
    if (max > sizeof buf)
        max = sizeof buf;
    size_t got = 0;
    int rc = rtipc_streambuf_receive(x->sb, buf, max, &got, t);
    if (rc == 0) {
        if (got == 0 || got > max)
            soak_violation(O_STREAM, "receive reported %zu of %zu bytes", got, max);
        for (size_t i = 0; i < got; ++i) {
            size_t off = x->rpos % sizeof x->rec;
            x->rec[off] = buf[i];
            ++x->rpos;
            if (off + 1 == sizeof x->rec) {
                soak_msg_t m;
                memcpy(&m, x->rec, sizeof m);
                if (!soak_msg_valid(&x->st, &m) || m.prod != x->prod ||
                    m.seq != x->rpos / sizeof m - 1)
                    soak_violation(O_STREAM, "record %llu torn, corrupt or out of place",
                                   (unsigned long long)(x->rpos / sizeof m - 1));
                else
                    soak_received(&x->st, consumer, m.prod, m.seq, true);
            }
        }
    } else if (rc == RTIPC_EBUSY) {
        soak_violation(O_STREAM, "single reader refused with EBUSY");
    }
    return rc;
}

/* A writer task: one send a round, made by @p send with the round's
 * timeout; the send itself accounts EBUSY. */
static void write_rounds(soak_worker_t *w, const char *where, int (*send)(soak_worker_t *w, rtipc_timeout_t t))
{
    while (soak_running(w)) {
        rtipc_timeout_t t = soak_timeout(w);
        soak_at(w, where);
        soak_not_now_but(w, send(w, t), RTIPC_EBUSY, "send");
        soak_pace(w);
    }
}

static int sb_send_one(soak_worker_t *w, rtipc_timeout_t t) { return sb_write(w->arg, 1 + soak_below(w, 64), t, false); }
static void sb_writer(soak_worker_t *w) { write_rounds(w, "streambuf_send", sb_send_one); }

static void sb_reader(soak_worker_t *w)
{
    sbx_t *x = w->arg;
    while (soak_running(w)) {
        if (soak_below(w, 64) == 0) {
            soak_at(w, "streambuf_set_trigger_level");
            /* Sends are at most 64 bytes: keep them <= size - trigger + 1. */
            if (rtipc_streambuf_set_trigger_level(x->sb, 1 + soak_below(w, 16)) != 0)
                soak_violation(O_STREAM, "set_trigger_level failed");
        }
        rtipc_timeout_t t = soak_timeout(w);
        soak_at(w, "streambuf_receive");
        int rc = sb_read(x, 1 + soak_below(w, 64), t, 0);
        soak_not_now_but(w, rc, RTIPC_EBUSY, "receive");
        soak_pace(w);
    }
}

static void sb_isr(stress_rng_t *rng)
{
    soak_isr_op(O_STREAM);
    int rc = sb_write(&sbb, 1 + stress_below(rng, 48), RTIPC_NO_WAIT, true);
    if (rc == RTIPC_EWOULDBLOCK)
        soak_add(&soak_objs[O_STREAM].dropped, 1); /* nothing written; the stream just waits */
    else if (rc != 0 && rc != RTIPC_EBUSY)
        soak_violation(O_STREAM, "send_from_isr: %s", rtipc_strerror(rc));
}

/* ---- message buffers ------------------------------------------------------------ */

typedef struct {
    rtipc_msgbuf_t *mb;
    uint32_t prod;
    uint64_t expect; /* reader: next seq */
    soak_streams_t st;
} mbx_t;

static mbx_t mba, mbb;

static int mb_write(mbx_t *x, size_t len, rtipc_timeout_t t, bool isr)
{
    unsigned char buf[MAXMSG];
    soak_blob_make(&x->st, x->prod, buf, len);
    uint64_t seq = atomic_load(&x->st.next[x->prod]);
    int rc;
    if (isr) {
        bool woken = false;
        rc = rtipc_msgbuf_send_from_isr(x->mb, buf, len, &woken);
        rtipc_irq_yield(woken);
    } else {
        rc = rtipc_msgbuf_send(x->mb, buf, len, t);
    }
    if (rc == 0)
        soak_sent(&x->st, x->prod, seq);
    else if (rc == RTIPC_EBUSY)
        soak_violation(O_MSGBUF, "single writer refused with EBUSY");
    return rc;
}

static int mb_read(mbx_t *x, size_t cap, rtipc_timeout_t t, int consumer)
{
    unsigned char buf[MAXMSG];
    size_t len = 0;
    int rc = rtipc_msgbuf_receive(x->mb, buf, cap, &len, t);
    if (rc == RTIPC_EINVAL && len > cap) {
        /* Too small: the message stays; take it with a large enough buffer. */
        rc = rtipc_msgbuf_receive(x->mb, buf, sizeof buf, &len, RTIPC_NO_WAIT);
        if (rc != 0)
            soak_violation(O_MSGBUF, "message left by a too-small receive is gone: %s", rtipc_strerror(rc));
    }
    if (rc == 0) {
        uint32_t p;
        uint64_t seq;
        if (!soak_blob_valid(&x->st, buf, len, &p, &seq) || p != x->prod) {
            soak_violation(O_MSGBUF, "torn or corrupt message of %zu bytes", len);
        } else {
            if (seq != x->expect)
                soak_violation(O_MSGBUF, "message seq %llu, expected %llu (lost, duplicated or reordered)",
                               (unsigned long long)seq, (unsigned long long)x->expect);
            x->expect = seq + 1;
            soak_received(&x->st, consumer, p, seq, true);
        }
    } else if (rc == RTIPC_EBUSY) {
        soak_violation(O_MSGBUF, "single reader refused with EBUSY");
    } else if (rc == RTIPC_EINVAL) {
        soak_violation(O_MSGBUF, "receive: EINVAL with length %zu for capacity %zu", len, cap);
    }
    return rc;
}

static size_t mb_len(uint32_t r) { return sizeof(soak_blob_hdr_t) + r % (MAXMSG - sizeof(soak_blob_hdr_t) + 1); }

static int mb_send_one(soak_worker_t *w, rtipc_timeout_t t)
{
    return mb_write(w->arg, mb_len((uint32_t)stress_rand(&w->rng)), t, false);
}
static void mb_writer(soak_worker_t *w) { write_rounds(w, "msgbuf_send", mb_send_one); }

static void mb_reader(soak_worker_t *w)
{
    mbx_t *x = w->arg;
    while (soak_running(w)) {
        rtipc_timeout_t t = soak_timeout(w);
        size_t cap = soak_below(w, 8) == 0 ? 1 + soak_below(w, MAXMSG) : MAXMSG;
        soak_at(w, "msgbuf_receive");
        int rc = mb_read(x, cap, t, 0);
        if (rc != 0 && rc != RTIPC_EBUSY && rc != RTIPC_EINVAL)
            soak_not_now(w, rc, "receive");
        soak_pace(w);
    }
}

static void mb_isr(stress_rng_t *rng)
{
    soak_isr_op(O_MSGBUF);
    int rc = mb_write(&mbb, mb_len((uint32_t)stress_rand(rng)), RTIPC_NO_WAIT, true);
    if (rc == RTIPC_EWOULDBLOCK)
        soak_add(&soak_objs[O_MSGBUF].dropped, 1);
    else if (rc != 0 && rc != RTIPC_EBUSY)
        soak_violation(O_MSGBUF, "send_from_isr: %s", rtipc_strerror(rc));
}

/* ---- stop ------------------------------------------------------------------------ */

/* The writers (tasks and handler) have ended: the supervisor is now the
 * single writer, and after the readers have ended, the single reader. */
static void streams_kick(void)
{
    soak_add(&soak_objs[O_STREAM].ops, 2);
    soak_add(&soak_objs[O_MSGBUF].ops, 2);
    sb_write(&sba, 24, RTIPC_NO_WAIT, false);
    sb_write(&sbb, 24, RTIPC_NO_WAIT, false);
    mb_write(&mba, mb_len(0), RTIPC_NO_WAIT, false);
    mb_write(&mbb, mb_len(0), RTIPC_NO_WAIT, false);
}

static void streams_drain(void)
{
    while (sb_read(&sba, 64, RTIPC_NO_WAIT, 1) == 0) {
    }
    while (sb_read(&sbb, 64, RTIPC_NO_WAIT, 1) == 0) {
    }
    while (mb_read(&mba, MAXMSG, RTIPC_NO_WAIT, 1) == 0) {
    }
    while (mb_read(&mbb, MAXMSG, RTIPC_NO_WAIT, 1) == 0) {
    }
}

static void sb_final(sbx_t *x, const char *what)
{
    if (x->wpos != x->rpos)
        soak_violation(O_STREAM, "%s: %llu bytes written, %llu read", what, (unsigned long long)x->wpos,
                       (unsigned long long)x->rpos);
    soak_streams_final(&x->st, what);
    if (rtipc_streambuf_delete(x->sb) != 0)
        soak_violation(O_STREAM, "%s: delete failed", what);
}

static void mb_final(mbx_t *x, const char *what)
{
    soak_streams_final(&x->st, what);
    if (rtipc_msgbuf_is_empty(x->mb) != 1)
        soak_violation(O_MSGBUF, "%s: not empty after draining", what);
    if (rtipc_msgbuf_delete(x->mb) != 0)
        soak_violation(O_MSGBUF, "%s: delete failed", what);
}

static void streams_final(void)
{
    sb_final(&sba, "stream buffer (task writer)");
    sb_final(&sbb, "stream buffer (isr writer)");
    mb_final(&mba, "message buffer (task writer)");
    mb_final(&mbb, "message buffer (isr writer)");
}

void soak_setup_streams(void)
{
    soak_streams_init(&sba.st, O_STREAM, false);
    soak_streams_init(&sbb.st, O_STREAM, false);
    soak_streams_init(&mba.st, O_MSGBUF, false);
    soak_streams_init(&mbb.st, O_MSGBUF, false);
    sba.prod = 0;
    sbb.prod = 1;
    mba.prod = 0;
    mbb.prod = 1;
    static rtipc_streambuf_static_t sbb_cb;
    static unsigned char sbb_storage[RTIPC_STREAMBUF_STORAGE_SIZE(SB_SIZE)];
    static rtipc_msgbuf_static_t mbb_cb;
    static unsigned char mbb_storage[RTIPC_MSGBUF_STORAGE_SIZE(MB_SIZE)];
    if (rtipc_streambuf_create(SB_SIZE, 1, &sba.sb) ||
        rtipc_streambuf_create_static(SB_SIZE, 8, sbb_storage, &sbb_cb, &sbb.sb) ||
        rtipc_msgbuf_create(MB_SIZE, &mba.mb) || rtipc_msgbuf_create_static(MB_SIZE, mbb_storage, &mbb_cb, &mbb.mb)) {
        soak_violation(O_STREAM, "create failed");
        return;
    }
    soak_spin_set(O_STREAM, rtipc_streambuf_set_spin(sba.sb, soak_spin(O_STREAM)));
    soak_spin_set(O_STREAM, rtipc_streambuf_set_spin(sbb.sb, soak_spin(O_STREAM)));
    soak_spin_set(O_MSGBUF, rtipc_msgbuf_set_spin(mba.mb, soak_spin(O_MSGBUF)));
    soak_spin_set(O_MSGBUF, rtipc_msgbuf_set_spin(mbb.mb, soak_spin(O_MSGBUF)));
    soak_spawn(O_STREAM, "sb-writer", sb_writer, &sba, 0, false, 2, soak_core(0));
    soak_spawn(O_STREAM, "sb-reader", sb_reader, &sba, 0, true, 1, soak_core(1));
    soak_spawn(O_STREAM, "sb-isr-reader", sb_reader, &sbb, 0, true, 3, soak_core(1));
    soak_spawn(O_MSGBUF, "mb-writer", mb_writer, &mba, 0, false, 1, soak_core(1));
    soak_spawn(O_MSGBUF, "mb-reader", mb_reader, &mba, 0, true, 2, soak_core(0));
    soak_spawn(O_MSGBUF, "mb-isr-reader", mb_reader, &mbb, 0, true, 3, soak_core(0));
    soak_isr_role(0, sb_isr);
    soak_isr_role(1, mb_isr);
    soak_hooks(&(soak_hooks_t){streams_kick, streams_drain, streams_final});
}
