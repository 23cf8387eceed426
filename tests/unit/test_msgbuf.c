/* Message buffers: boundaries, the 4-byte length prefix, all-or-nothing
 * sends, a too-small receive buffer leaving the message, the single-writer /
 * single-reader refusal, and the interrupt-safe calls from a real handler. */
#include <stdatomic.h>
#include <string.h>

#include "rtipc/msgbuf.h"
#include "rtipc/streambuf.h"
#include "../../src/common/handle.h"
#include "test_support.h"

/* Long enough never to expire in a passing run; finite, so that a missing
 * wake-up fails the test instead of hanging it. */
#define LONG_WAIT rtipc_ms(10000)

/* High, so that busy real-time threads of other programs on a shared machine
 * do not starve the test's tasks. */
#define TASK_PRIORITY 20

static int other_core(void) { return rtipc_core_count() >= 2 ? 1 : 0; }

typedef struct {
    rtipc_msgbuf_t *mb;
    bool send;
    unsigned char data[64];
    size_t len; /* message length, or receive capacity */
    rtipc_timeout_t timeout;
    _Atomic int started;
    _Atomic int done;
    int rc;
    size_t n;
    int64_t t0, t1;
} io_t;

static void io_task(void *arg)
{
    io_t *io = arg;
    io->t0 = rtipc_time_ns();
    atomic_store(&io->started, 1);
    if (io->send)
        io->rc = rtipc_msgbuf_send(io->mb, io->data, io->len, io->timeout);
    else
        io->rc = rtipc_msgbuf_receive(io->mb, io->data, io->len, &io->n, io->timeout);
    io->t1 = rtipc_time_ns();
    atomic_store(&io->done, 1);
}

/* Join the task of io and check that its call ended well before LONG_WAIT:
 * a call that should have been woken but ran into its timeout fails here. */
static void join_io(rtipc_task_t *t, const io_t *io)
{
    join_task(t);
    assert_true(io->t1 - io->t0 < 5000000000LL);
}

static rtipc_task_t *start_blocked(io_t *io)
{
    rtipc_task_t *t = start_task(io->send ? "writer" : "reader", TASK_PRIORITY, other_core(), io_task, io);
    assert_true(wait_for_flag((volatile int *)&io->started, 1, 10000));
    sleep_ms(100);
    return t;
}

static void put(rtipc_msgbuf_t *mb, const char *s)
{
    assert_int_equal(rtipc_msgbuf_send(mb, s, strlen(s), RTIPC_NO_WAIT), RTIPC_OK);
}

static void take(rtipc_msgbuf_t *mb, const char *want)
{
    char out[64];
    size_t n = 0;
    assert_int_equal(rtipc_msgbuf_receive(mb, out, sizeof out, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, strlen(want));
    assert_memory_equal(out, want, n);
}

/* ---- creation ------------------------------------------------------------------- */
static void create_checks_its_arguments_and_reports_its_footprint(void **state)
{
    (void)state;
    rtipc_msgbuf_t *mb;
    rtipc_msgbuf_static_t cb;
    unsigned char storage[RTIPC_MSGBUF_STORAGE_SIZE(32)];
    assert_int_equal(rtipc_msgbuf_create(RTIPC_MSGBUF_LENGTH_BYTES, &mb), RTIPC_EINVAL); /* no room for 1 byte */
    assert_int_equal(rtipc_msgbuf_create(0, &mb), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_create((size_t)INT32_MAX + 1, &mb), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_create(16, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_create_static(32, NULL, &cb, &mb), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_create_static(32, storage, NULL, &mb), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_create_static(32, storage, &cb, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_create_static(4, storage, &cb, &mb), RTIPC_EINVAL);

    size_t block = rtipc_msgbuf_footprint_for(0);
    assert_true(block > 0);
    assert_true(block <= sizeof(rtipc_msgbuf_static_t));
    assert_int_equal(rtipc_msgbuf_footprint_for(4), 0);
    assert_int_equal(rtipc_msgbuf_footprint(NULL), 0);

    assert_int_equal(rtipc_msgbuf_create(RTIPC_MSGBUF_LENGTH_BYTES + 1, &mb), RTIPC_OK);
    /* FreeRTOS's storage is one byte longer than what it holds. */
    assert_int_equal(rtipc_msgbuf_footprint(mb), block + 5 + (RTIPC_PORT_FREERTOS ? 1 : 0));
    put(mb, "1"); /* the smallest buffer holds one 1-byte message */
    assert_int_equal(rtipc_msgbuf_is_full(mb), 1);
    assert_int_equal(rtipc_msgbuf_delete(mb), RTIPC_OK);

    assert_int_equal(rtipc_msgbuf_create_static(32, storage, &cb, &mb), RTIPC_OK);
    /* The handle is a table entry (src/common/handle.h), not the caller's
     * memory, and it names the control block there. */
    assert_ptr_not_equal((void *)mb, (void *)&cb);
    assert_ptr_equal(rtipc__handle_get(mb, RTIPC__H_MSGBUF), (void *)&cb);
    assert_int_equal(rtipc_msgbuf_footprint(mb), block + RTIPC_MSGBUF_STORAGE_SIZE(32));
    /* Room for exactly the size given: one 28-byte message fills it. */
    unsigned char msg[32 - RTIPC_MSGBUF_LENGTH_BYTES] = {0};
    assert_int_equal(rtipc_msgbuf_send(mb, msg, sizeof msg, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_msgbuf_is_full(mb), 1);
    assert_int_equal(rtipc_msgbuf_delete(mb), RTIPC_OK);
    assert_int_equal(rtipc_msgbuf_delete(mb), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_delete(NULL), RTIPC_EINVAL);

    enter_interrupt_context();
    assert_int_equal(rtipc_msgbuf_create(16, &mb), RTIPC_ECONTEXT);
    leave_interrupt_context();
    assert_int_equal(rtipc_msgbuf_create(16, &mb), RTIPC_OK);
    enter_interrupt_context();
    assert_int_equal(rtipc_msgbuf_delete(mb), RTIPC_ECONTEXT);
    /* Static creation from a handler: allowed, except on FreeRTOS (msgbuf.h,
     * Port notes). */
    rtipc_msgbuf_t *mb2 = NULL;
    assert_int_equal(rtipc_msgbuf_create_static(32, storage, &cb, &mb2),
                     RTIPC_PORT_FREERTOS ? RTIPC_ECONTEXT : RTIPC_OK);
    leave_interrupt_context();
    if (mb2)
        assert_int_equal(rtipc_msgbuf_delete(mb2), RTIPC_OK);
    assert_int_equal(rtipc_msgbuf_delete(mb), RTIPC_OK);
}

static void calls_reject_bad_arguments_wrong_handles_and_wrong_context(void **state)
{
    (void)state;
    rtipc_msgbuf_t *mb;
    rtipc_streambuf_t *sb;
    assert_int_equal(rtipc_msgbuf_create(16, &mb), RTIPC_OK);
    assert_int_equal(rtipc_streambuf_create(16, 1, &sb), RTIPC_OK);
    rtipc_msgbuf_t *wrong = (rtipc_msgbuf_t *)(void *)sb;
    char b[16] = "abc";
    size_t n = 99;
    bool woken = false;
    assert_int_equal(rtipc_msgbuf_send(NULL, b, 3, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_send(wrong, b, 3, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_send(mb, NULL, 3, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_send(mb, b, 0, RTIPC_NO_WAIT), RTIPC_EINVAL);
    /* 13 + 4 > 16: could never fit, so no point waiting. */
    assert_int_equal(rtipc_msgbuf_send(mb, b, 13, RTIPC_FOREVER), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_send_from_isr(mb, b, 13, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_send_from_isr(NULL, b, 3, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_send_from_isr(mb, NULL, 3, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_send_from_isr(mb, b, 0, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_receive(NULL, b, 3, &n, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(n, 0);
    assert_int_equal(rtipc_msgbuf_receive(wrong, b, 3, &n, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_receive(mb, NULL, 3, &n, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_receive(mb, b, 0, &n, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_receive(mb, b, 3, NULL, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_receive_from_isr(NULL, b, 3, &n, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_receive_from_isr(mb, b, 3, NULL, &woken), RTIPC_EINVAL);
    assert_int_equal(n, 0);
    assert_int_equal(rtipc_msgbuf_next_length(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_next_length(wrong), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_reset(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_reset(wrong), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_delete(wrong), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_bytes_available(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_spaces_available(wrong), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_is_empty(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_is_full(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_msgbuf_footprint(wrong), 0);
    assert_false(woken);

    enter_interrupt_context();
    assert_int_equal(rtipc_msgbuf_send(mb, b, 3, RTIPC_NO_WAIT), RTIPC_ECONTEXT);
    assert_int_equal(rtipc_msgbuf_receive(mb, b, 3, &n, RTIPC_NO_WAIT), RTIPC_ECONTEXT);
    leave_interrupt_context();
    assert_int_equal(rtipc_msgbuf_is_empty(mb), 1);
    assert_int_equal(rtipc_msgbuf_delete(mb), RTIPC_OK);
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
}

/* ---- messages ------------------------------------------------------------------------ */
static void messages_keep_their_boundaries_and_a_4_byte_prefix_even_across_the_wrap(void **state)
{
    (void)state;
    rtipc_msgbuf_t *mb;
    assert_int_equal(rtipc_msgbuf_create(16, &mb), RTIPC_OK);
    assert_int_equal(rtipc_msgbuf_next_length(mb), 0);
    put(mb, "abcd"); /* 8 bytes at 0..7 */
    put(mb, "ef");   /* 6 bytes at 8..13 */
    assert_int_equal(rtipc_msgbuf_bytes_available(mb), 14);
    assert_int_equal(rtipc_msgbuf_spaces_available(mb), 2);
    assert_int_equal(rtipc_msgbuf_is_full(mb), 1);
    assert_int_equal(rtipc_msgbuf_next_length(mb), 4);
    take(mb, "abcd");
    /* 10 bytes at 14..15 then 0..7: the prefix itself is split. */
    put(mb, "ghijkl");
    assert_int_equal(rtipc_msgbuf_bytes_available(mb), 16);
    take(mb, "ef");
    assert_int_equal(rtipc_msgbuf_next_length(mb), 6);
    take(mb, "ghijkl");
    assert_int_equal(rtipc_msgbuf_is_empty(mb), 1);
    assert_int_equal(rtipc_msgbuf_next_length(mb), 0);
    assert_int_equal(rtipc_msgbuf_delete(mb), RTIPC_OK);
}

static void too_small_buffer_leaves_the_message_and_reports_its_length(void **state)
{
    (void)state;
    rtipc_msgbuf_t *mb;
    assert_int_equal(rtipc_msgbuf_create(32, &mb), RTIPC_OK);
    put(mb, "0123456789");
    put(mb, "next");
    char out[16] = {0};
    size_t n = 0;
    assert_int_equal(rtipc_msgbuf_receive(mb, out, 4, &n, RTIPC_FOREVER), RTIPC_EINVAL);
    assert_int_equal(n, 10);
    assert_int_equal(out[0], 0); /* nothing copied */
    bool woken = false;
    n = 0;
    assert_int_equal(rtipc_msgbuf_receive_from_isr(mb, out, 9, &n, &woken), RTIPC_EINVAL);
    assert_int_equal(n, 10);
    assert_int_equal(rtipc_msgbuf_next_length(mb), 10);
    assert_int_equal(rtipc_msgbuf_bytes_available(mb), 22);
    assert_int_equal(rtipc_msgbuf_receive(mb, out, 10, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, 10);
    assert_memory_equal(out, "0123456789", 10);
    take(mb, "next");
    assert_int_equal(rtipc_msgbuf_delete(mb), RTIPC_OK);
}

static void send_is_all_or_nothing(void **state)
{
    (void)state;
    rtipc_msgbuf_t *mb;
    assert_int_equal(rtipc_msgbuf_create(16, &mb), RTIPC_OK);
    put(mb, "12345678"); /* 12 of 16 bytes */
    assert_int_equal(rtipc_msgbuf_send(mb, "abcd", 4, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK); /* needs 8 */
    assert_int_equal(rtipc_msgbuf_bytes_available(mb), 12);
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_msgbuf_send(mb, "abcd", 4, rtipc_ms(40)), RTIPC_ETIMEDOUT);
    assert_true(rtipc_time_ns() - t0 >= 40000000);
    assert_int_equal(rtipc_msgbuf_bytes_available(mb), 12);
    /* 4 bytes free: even a 1-byte message (5 with its prefix) does not fit. */
    assert_int_equal(rtipc_msgbuf_is_full(mb), 1);
    assert_int_equal(rtipc_msgbuf_send(mb, "z", 1, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    take(mb, "12345678");
    assert_int_equal(rtipc_msgbuf_is_full(mb), 0);
    put(mb, "abcd");
    take(mb, "abcd");
    assert_int_equal(rtipc_msgbuf_delete(mb), RTIPC_OK);
}

static void blocked_send_completes_only_when_the_whole_message_fits(void **state)
{
    (void)state;
    rtipc_msgbuf_t *mb;
    assert_int_equal(rtipc_msgbuf_create(20, &mb), RTIPC_OK);
    put(mb, "a");     /* 5 bytes */
    put(mb, "b");     /* 5 bytes */
    put(mb, "cdefg"); /* 9 bytes: 19 used, 1 free */
    io_t io = {.mb = mb, .send = true, .len = 7, .timeout = LONG_WAIT}; /* needs 11 */
    memcpy(io.data, "UVWXYZ!", 7);
    rtipc_task_t *t = start_blocked(&io);
    take(mb, "a"); /* 6 free: not yet */
    sleep_ms(50);
    int done_early = atomic_load(&io.done);
    take(mb, "b"); /* exactly 11 free */
    join_io(t, &io);
    assert_false(done_early);
    assert_int_equal(io.rc, RTIPC_OK);
    assert_int_equal(rtipc_msgbuf_spaces_available(mb), 0);
    take(mb, "cdefg");
    take(mb, "UVWXYZ!");
    assert_int_equal(rtipc_msgbuf_delete(mb), RTIPC_OK);
}

static void blocked_reader_wakes_for_any_whole_message(void **state)
{
    (void)state;
    rtipc_msgbuf_t *mb;
    assert_int_equal(rtipc_msgbuf_create(32, &mb), RTIPC_OK);
    io_t io = {.mb = mb, .len = 32, .timeout = rtipc_ms(10000)};
    rtipc_task_t *t = start_blocked(&io);
    put(mb, "x");
    join_io(t, &io);
    assert_int_equal(io.rc, RTIPC_OK);
    assert_int_equal(io.n, 1);
    assert_int_equal(io.data[0], 'x');
    assert_true(io.t1 - io.t0 < 5000000000LL);
    char out[8];
    size_t n = 99;
    assert_int_equal(rtipc_msgbuf_receive(mb, out, 8, &n, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(n, 0);
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_msgbuf_receive(mb, out, 8, &n, rtipc_ms(30)), RTIPC_ETIMEDOUT);
    assert_true(rtipc_time_ns() - t0 >= 30000000);
    assert_int_equal(rtipc_msgbuf_delete(mb), RTIPC_OK);
}

static void second_writer_and_second_reader_are_refused_with_busy(void **state)
{
    (void)state;
    rtipc_msgbuf_t *mb;
    assert_int_equal(rtipc_msgbuf_create(16, &mb), RTIPC_OK);
    put(mb, "12345678");
    io_t w = {.mb = mb, .send = true, .len = 8, .timeout = LONG_WAIT};
    memcpy(w.data, "abcdefgh", 8);
    rtipc_task_t *t = start_blocked(&w);
    bool woken = false;
    int rc_send = rtipc_msgbuf_send(mb, "q", 1, RTIPC_NO_WAIT);
    int rc_isr = rtipc_msgbuf_send_from_isr(mb, "q", 1, &woken);
    int rc_reset = rtipc_msgbuf_reset(mb);
    int rc_delete = rtipc_msgbuf_delete(mb);
    take(mb, "12345678");
    join_io(t, &w);
    assert_int_equal(rc_send, RTIPC_EBUSY);
    assert_int_equal(rc_isr, RTIPC_EBUSY);
    assert_int_equal(rc_reset, RTIPC_EBUSY);
    assert_int_equal(rc_delete, RTIPC_EBUSY);
    assert_int_equal(w.rc, RTIPC_OK);
    take(mb, "abcdefgh");

    io_t r = {.mb = mb, .len = 16, .timeout = LONG_WAIT};
    t = start_blocked(&r);
    char out[16];
    size_t n = 99;
    int rc_recv = rtipc_msgbuf_receive(mb, out, 16, &n, RTIPC_NO_WAIT);
    size_t n_recv = n;
    int rc_isr_recv = rtipc_msgbuf_receive_from_isr(mb, out, 16, &n, &woken);
    put(mb, "hello");
    join_io(t, &r);
    assert_int_equal(rc_recv, RTIPC_EBUSY);
    assert_int_equal(n_recv, 0);
    assert_int_equal(rc_isr_recv, RTIPC_EBUSY);
    assert_int_equal(r.rc, RTIPC_OK);
    assert_int_equal(r.n, 5);
    assert_memory_equal(r.data, "hello", 5);
    assert_false(woken);
    assert_int_equal(rtipc_msgbuf_delete(mb), RTIPC_OK);
}

static void reset_discards_every_message(void **state)
{
    (void)state;
    rtipc_msgbuf_t *mb;
    assert_int_equal(rtipc_msgbuf_create(32, &mb), RTIPC_OK);
    put(mb, "one");
    put(mb, "two");
    assert_int_equal(rtipc_msgbuf_reset(mb), RTIPC_OK);
    assert_int_equal(rtipc_msgbuf_is_empty(mb), 1);
    assert_int_equal(rtipc_msgbuf_next_length(mb), 0);
    assert_int_equal(rtipc_msgbuf_spaces_available(mb), 32);
    put(mb, "three");
    take(mb, "three");
    assert_int_equal(rtipc_msgbuf_delete(mb), RTIPC_OK);
}

/* ---- interrupt-safe calls from a real handler ------------------------------------------ */
typedef struct {
    rtipc_msgbuf_t *to_reader, *full, *scratch;
    int rc[8];
    size_t n[8];
    char got[2][16];
    bool woken_read, woken_write, woken_none;
    _Atomic int ran;
} isr_t;

static void isr_handler(void *arg)
{
    isr_t *p = arg;
    bool woken = false;
    p->rc[0] = rtipc_msgbuf_send_from_isr(p->to_reader, "irq!", 4, &woken);
    p->woken_read = woken;
    woken = false;
    p->rc[1] = rtipc_msgbuf_send_from_isr(p->full, "no", 2, &woken); /* the task is the writer */
    p->rc[2] = rtipc_msgbuf_receive_from_isr(p->full, p->got[0], 16, &p->n[2], &woken);
    p->woken_write = woken;
    woken = false;
    p->rc[3] = rtipc_msgbuf_send_from_isr(p->scratch, "0123456789", 10, &woken);
    p->rc[4] = rtipc_msgbuf_send_from_isr(p->scratch, "abc", 3, &woken); /* 14 used, 7 needed */
    p->rc[5] = rtipc_msgbuf_receive_from_isr(p->scratch, p->got[1], 4, &p->n[5], &woken); /* too small */
    p->rc[6] = rtipc_msgbuf_receive_from_isr(p->scratch, p->got[1], 16, &p->n[6], &woken);
    p->rc[7] = rtipc_msgbuf_receive_from_isr(p->scratch, p->got[1], 16, &p->n[7], &woken); /* empty */
    p->woken_none = woken;
    rtipc_irq_yield(p->woken_read || p->woken_write);
    atomic_store(&p->ran, 1);
}

static void interrupt_handler_sends_and_receives_whole_messages_and_reports_woken(void **state)
{
    (void)state;
    isr_t p = {0};
    assert_int_equal(rtipc_msgbuf_create(32, &p.to_reader), RTIPC_OK);
    assert_int_equal(rtipc_msgbuf_create(16, &p.full), RTIPC_OK);
    assert_int_equal(rtipc_msgbuf_create(16, &p.scratch), RTIPC_OK);
    put(p.full, "fullfull"); /* 12 of 16 */
    io_t reader = {.mb = p.to_reader, .len = 32, .timeout = rtipc_ms(10000)};
    io_t writer = {.mb = p.full, .send = true, .len = 6, .timeout = rtipc_ms(10000)};
    memcpy(writer.data, "task!!", 6);
    rtipc_task_t *tr = start_blocked(&reader);
    rtipc_task_t *tw = start_blocked(&writer);
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(other_core(), isr_handler, &p, &irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
    assert_true(wait_for_flag((volatile int *)&p.ran, 1, 10000));
    join_io(tr, &reader);
    join_io(tw, &writer);
    const int want[8] = {RTIPC_OK, RTIPC_EBUSY,  RTIPC_OK, RTIPC_OK,
                         RTIPC_EWOULDBLOCK, RTIPC_EINVAL, RTIPC_OK, RTIPC_EWOULDBLOCK};
    for (int i = 0; i < 8; ++i)
        assert_int_equal(p.rc[i], want[i]);
    assert_int_equal(p.n[2], 8);
    assert_memory_equal(p.got[0], "fullfull", 8);
    assert_int_equal(p.n[5], 10);
    assert_int_equal(p.n[6], 10);
    assert_memory_equal(p.got[1], "0123456789", 10);
    assert_int_equal(p.n[7], 0);
    assert_true(p.woken_read);
    assert_true(p.woken_write);
    assert_false(p.woken_none);
    assert_int_equal(reader.rc, RTIPC_OK);
    assert_int_equal(reader.n, 4);
    assert_memory_equal(reader.data, "irq!", 4);
    assert_int_equal(writer.rc, RTIPC_OK);
    take(p.full, "task!!");
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
    assert_int_equal(rtipc_msgbuf_delete(p.to_reader), RTIPC_OK);
    assert_int_equal(rtipc_msgbuf_delete(p.full), RTIPC_OK);
    assert_int_equal(rtipc_msgbuf_delete(p.scratch), RTIPC_OK);
}

int main(void)
{
    pin_main_to_core0();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_checks_its_arguments_and_reports_its_footprint),
        cmocka_unit_test(calls_reject_bad_arguments_wrong_handles_and_wrong_context),
        cmocka_unit_test(messages_keep_their_boundaries_and_a_4_byte_prefix_even_across_the_wrap),
        cmocka_unit_test(too_small_buffer_leaves_the_message_and_reports_its_length),
        cmocka_unit_test(send_is_all_or_nothing),
        cmocka_unit_test(blocked_send_completes_only_when_the_whole_message_fits),
        cmocka_unit_test(blocked_reader_wakes_for_any_whole_message),
        cmocka_unit_test(second_writer_and_second_reader_are_refused_with_busy),
        cmocka_unit_test(reset_discards_every_message),
        cmocka_unit_test(interrupt_handler_sends_and_receives_whole_messages_and_reports_woken),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
