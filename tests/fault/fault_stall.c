/* Fault injection: a consumer that stalls.
 *
 * A consumer task receives for a while, then stops receiving for STALL_MS
 * (again and again), while producers keep sending with RTIPC_NO_WAIT and
 * with finite timeouts shorter and longer than the stall. Every send must
 * return success, RTIPC_EWOULDBLOCK (RTIPC_NO_WAIT only) or RTIPC_ETIMEDOUT
 * (a finite timeout, after it fully elapsed); a failed send must have stored
 * nothing (stream buffers: *sent says exactly what was stored). When the
 * producers are done and the consumer has drained the object, what it
 * received must be exactly what was sent successfully, per producer, in
 * order, without duplicates.
 *
 * Objects: queue (2 producers), ring buffer no-split (2 producers), stream
 * buffer, message buffer and SPSC ring (1 producer: single-writer objects). */
#include "test_support.h"
#include "fault_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STALL_MS 60
#define ITEMS_BETWEEN_STALLS 48
#define CAPACITY 8
#define MAX_PRODUCERS 2

typedef enum { K_QUEUE, K_RINGBUF, K_STREAMBUF, K_MSGBUF, K_SPSC, K_COUNT } kind_t;
static const char *kind_name[K_COUNT] = {"queue", "ringbuf", "streambuf", "msgbuf", "spsc"};

/* Timeouts the producers cycle through: no wait, shorter than a stall, and
 * longer than one. */
static rtipc_timeout_t timeout_of(long i)
{
    switch (i % 8) {
    case 1: return rtipc_ms(1);
    case 3: return rtipc_ms(10);
    case 5: return rtipc_ms(2);
    case 7: return rtipc_ms(STALL_MS * 4);
    default: return RTIPC_NO_WAIT;
    }
}

typedef struct {
    kind_t kind;
    rtipc_queue_t *q;
    rtipc_ringbuf_t *rb;
    rtipc_streambuf_t *sb;
    rtipc_msgbuf_t *mb;
    rtipc_spsc_t *spsc;
    int producers;
    long attempts;        /* per producer */
    int producers_done;
    /* Per producer: the values sent successfully, in order (stream buffer:
     * the byte count written, checked against the byte pattern). */
    uint32_t *sent[MAX_PRODUCERS];
    long nsent[MAX_PRODUCERS];
    long would_block, timed_out, bad_rc, early_timeout, bad_partial;
    /* Consumer side. */
    uint32_t *received[MAX_PRODUCERS];
    long nreceived[MAX_PRODUCERS];
    long stream_bytes_received, stream_mismatch;
    long stalls;
    int consumer_done;
} run_t;

typedef struct {
    run_t *r;
    int id;
    /* counted locally, merged after the join */
    long would_block, timed_out, bad_rc, early_timeout, bad_partial;
    long partial; /* stream buffer: sends that wrote part of the chunk */
} producer_t;

/* Byte i of the stream buffer's byte stream. */
static uint8_t pattern(long i) { return (uint8_t)(i * 31 + 7); }

static int send_one(run_t *r, producer_t *p, uint32_t value, long *stream_pos, rtipc_timeout_t t)
{
    switch (r->kind) {
    case K_QUEUE: return rtipc_queue_send(r->q, &value, t);
    case K_RINGBUF: return rtipc_ringbuf_send(r->rb, &value, sizeof value, t);
    case K_MSGBUF: return rtipc_msgbuf_send(r->mb, &value, sizeof value, t);
    case K_SPSC: return rtipc_spsc_push(r->spsc, &value, t);
    case K_STREAMBUF: {
        uint8_t chunk[7];
        for (int i = 0; i < 7; ++i)
            chunk[i] = pattern(*stream_pos + i);
        size_t sent = 99;
        int rc = rtipc_streambuf_send(r->sb, chunk, sizeof chunk, &sent, t);
        if (rc == RTIPC_OK && (sent == 0 || sent > sizeof chunk))
            ++p->bad_partial;
        if (rc == RTIPC_OK && sent < sizeof chunk)
            ++p->partial;
        if (rc != RTIPC_OK && sent != 0)
            ++p->bad_partial; /* an error must mean nothing was written */
        if (rc == RTIPC_OK)
            *stream_pos += (long)sent;
        return rc;
    }
    default: return RTIPC_EINVAL;
    }
}

static void producer_task(void *arg)
{
    producer_t *p = arg;
    run_t *r = p->r;
    long stream_pos = 0;
    for (long i = 0; i < r->attempts; ++i) {
        uint32_t value = ((uint32_t)p->id << 24) | (uint32_t)i; /* a failed value is never reused */
        rtipc_timeout_t t = timeout_of(i + p->id);
        int64_t t0 = rtipc_time_ns();
        int rc = send_one(r, p, value, &stream_pos, t);
        int64_t took = rtipc_time_ns() - t0;
        if (rc == RTIPC_OK) {
            if (r->kind != K_STREAMBUF)
                r->sent[p->id][r->nsent[p->id]++] = value;
        } else if (rc == RTIPC_EWOULDBLOCK && rtipc_timeout_is_no_wait(t)) {
            ++p->would_block;
        } else if (rc == RTIPC_ETIMEDOUT && !rtipc_timeout_is_no_wait(t)) {
            ++p->timed_out;
            if (took < t.ns)
                ++p->early_timeout;
        } else {
            ++p->bad_rc;
        }
    }
    if (r->kind == K_STREAMBUF)
        r->nsent[p->id] = stream_pos;
}

/* Receive one unit; 1 if got, 0 if nothing within the timeout, -1 on error. */
static int receive_one(run_t *r, rtipc_timeout_t t)
{
    uint32_t v = 0;
    int rc;
    switch (r->kind) {
    case K_QUEUE: rc = rtipc_queue_receive(r->q, &v, t); break;
    case K_RINGBUF: {
        void *item;
        size_t size;
        rc = rtipc_ringbuf_receive(r->rb, &item, &size, t);
        if (rc == RTIPC_OK) {
            if (size != sizeof v)
                return -1;
            memcpy(&v, item, sizeof v);
            rtipc_ringbuf_return(r->rb, item);
        }
        break;
    }
    case K_MSGBUF: {
        size_t len = 0;
        rc = rtipc_msgbuf_receive(r->mb, &v, sizeof v, &len, t);
        if (rc == RTIPC_OK && len != sizeof v)
            return -1;
        break;
    }
    case K_SPSC: rc = rtipc_spsc_pop(r->spsc, &v, t); break;
    case K_STREAMBUF: {
        uint8_t buf[16];
        size_t n = 0;
        rc = rtipc_streambuf_receive(r->sb, buf, sizeof buf, &n, t);
        if (rc == RTIPC_OK) {
            for (size_t i = 0; i < n; ++i)
                if (buf[i] != pattern(r->stream_bytes_received + (long)i))
                    ++r->stream_mismatch;
            r->stream_bytes_received += (long)n;
        }
        return rc == RTIPC_OK ? 1 : rc == RTIPC_ETIMEDOUT ? 0 : -1;
    }
    default: return -1;
    }
    if (rc == RTIPC_ETIMEDOUT)
        return 0;
    if (rc != RTIPC_OK)
        return -1;
    unsigned id = v >> 24;
    if (id >= (unsigned)r->producers)
        return -1;
    r->received[id][r->nreceived[id]++] = v;
    return 1;
}

static void consumer_task(void *arg)
{
    run_t *r = arg;
    long since_stall = 0;
    for (;;) {
        int got = receive_one(r, rtipc_ms(20));
        if (got < 0)
            break;
        if (got == 0 && load(&r->producers_done))
            break; /* drained */
        if (got == 1 && ++since_stall == ITEMS_BETWEEN_STALLS) {
            since_stall = 0;
            ++r->stalls;
            rtipc_task_delay(rtipc_ms(STALL_MS)); /* the stall */
        }
    }
    store(&r->consumer_done, 1);
}

static long total_would_block, total_timed_out, total_sent, total_attempts, total_stalls;

static void stalled_consumer(kind_t kind)
{
    run_t r = {.kind = kind, .producers = (kind == K_QUEUE || kind == K_RINGBUF) ? 2 : 1,
               .attempts = stress_count(600)};
    switch (kind) {
    case K_QUEUE: assert_int_equal(rtipc_queue_create(CAPACITY, sizeof(uint32_t), &r.q), RTIPC_OK); break;
    case K_RINGBUF:
        assert_int_equal(rtipc_ringbuf_create(CAPACITY * RTIPC_RINGBUF_ITEM_BYTES(4), RTIPC_RINGBUF_NOSPLIT, &r.rb),
                         RTIPC_OK);
        break;
    case K_STREAMBUF: assert_int_equal(rtipc_streambuf_create(CAPACITY * 4, 1, &r.sb), RTIPC_OK); break;
    case K_MSGBUF: assert_int_equal(rtipc_msgbuf_create(CAPACITY * 8, &r.mb), RTIPC_OK); break;
    case K_SPSC: assert_int_equal(rtipc_spsc_create(CAPACITY, sizeof(uint32_t), &r.spsc), RTIPC_OK); break;
    default: break;
    }
    for (int i = 0; i < r.producers; ++i) {
        r.sent[i] = calloc((size_t)r.attempts, sizeof(uint32_t));
        r.received[i] = calloc((size_t)r.attempts, sizeof(uint32_t));
        assert_non_null(r.sent[i]);
        assert_non_null(r.received[i]);
    }
    producer_t p[MAX_PRODUCERS] = {{.r = &r, .id = 0}, {.r = &r, .id = 1}};
    rtipc_task_t *ct = start_task("consumer", 3, RTIPC_CORE_ANY, consumer_task, &r);
    rtipc_task_t *pt[MAX_PRODUCERS];
    for (int i = 0; i < r.producers; ++i)
        pt[i] = start_task("producer", 3, RTIPC_CORE_ANY, producer_task, &p[i]);
    for (int i = 0; i < r.producers; ++i)
        join_task(pt[i]);
    store(&r.producers_done, 1);
    join_task(ct);

    long sent_ok = 0, wb = 0, to = 0, partial = 0;
    for (int i = 0; i < r.producers; ++i) {
        if (p[i].bad_rc || p[i].early_timeout || p[i].bad_partial)
            fail_msg("%s producer %d: %ld unexpected codes, %ld timeouts before the full timeout, "
                     "%ld wrong byte counts",
                     kind_name[kind], i, p[i].bad_rc, p[i].early_timeout, p[i].bad_partial);
        wb += p[i].would_block;
        to += p[i].timed_out;
        partial += p[i].partial;
        if (kind == K_STREAMBUF) {
            assert_int_equal(r.stream_mismatch, 0);
            assert_int_equal(r.stream_bytes_received, r.nsent[i]);
            sent_ok += r.nsent[i];
        } else {
            /* Exactly what was sent, in order, no duplicates. */
            if (r.nreceived[i] != r.nsent[i])
                fail_msg("%s producer %d: %ld sent, %ld received", kind_name[kind], i, r.nsent[i], r.nreceived[i]);
            assert_memory_equal(r.received[i], r.sent[i], (size_t)r.nsent[i] * sizeof(uint32_t));
            sent_ok += r.nsent[i];
        }
    }
    /* The stall must really have pushed back on the producers (a stream
     * buffer's send may also just write less). */
    assert_true(r.stalls >= 1);
    assert_true(wb + to + partial >= 1);
    printf("[  INFO    ] %-9s %ld attempts: %ld %s delivered in order, %ld would-block, %ld timed out, "
           "%ld partial, %ld stalls\n",
           kind_name[kind], r.attempts * r.producers, sent_ok, kind == K_STREAMBUF ? "bytes" : "items", wb, to,
           partial, r.stalls);
    total_would_block += wb;
    total_timed_out += to;
    total_sent += sent_ok;
    total_attempts += r.attempts * r.producers;
    total_stalls += r.stalls;
    for (int i = 0; i < r.producers; ++i) {
        free(r.sent[i]);
        free(r.received[i]);
    }
    switch (kind) {
    case K_QUEUE: assert_int_equal(rtipc_queue_delete(r.q), RTIPC_OK); break;
    case K_RINGBUF: assert_int_equal(rtipc_ringbuf_delete(r.rb), RTIPC_OK); break;
    case K_STREAMBUF: assert_int_equal(rtipc_streambuf_delete(r.sb), RTIPC_OK); break;
    case K_MSGBUF: assert_int_equal(rtipc_msgbuf_delete(r.mb), RTIPC_OK); break;
    case K_SPSC: assert_int_equal(rtipc_spsc_delete(r.spsc), RTIPC_OK); break;
    default: break;
    }
}

static void test_queue(void **state) { (void)state; stalled_consumer(K_QUEUE); }
static void test_ringbuf(void **state) { (void)state; stalled_consumer(K_RINGBUF); }
static void test_streambuf(void **state) { (void)state; stalled_consumer(K_STREAMBUF); }
static void test_msgbuf(void **state) { (void)state; stalled_consumer(K_MSGBUF); }
static void test_spsc(void **state) { (void)state; stalled_consumer(K_SPSC); }

static void test_summary(void **state)
{
    (void)state;
    printf("fault-stall: %ld consumer stalls, %ld sends (%ld would-block, %ld timed out) over 5 objects, "
           "%ld units delivered, 0 lost or duplicated\n",
           total_stalls, total_attempts, total_would_block, total_timed_out, total_sent);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_queue),   cmocka_unit_test(test_ringbuf), cmocka_unit_test(test_streambuf),
        cmocka_unit_test(test_msgbuf),  cmocka_unit_test(test_spsc),    cmocka_unit_test(test_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
