/* Stream buffers: every return path of every call, the trigger level, partial
 * writes on timeout, the single-writer/single-reader refusal, and the
 * interrupt-safe calls from a real interrupt handler. */
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

/* One send or receive run by a task, with its outcome for the main thread. */
typedef struct {
    rtipc_streambuf_t *sb;
    bool send;
    unsigned char data[64];
    size_t len;
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
        io->rc = rtipc_streambuf_send(io->sb, io->data, io->len, &io->n, io->timeout);
    else
        io->rc = rtipc_streambuf_receive(io->sb, io->data, io->len, &io->n, io->timeout);
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

/* Start io on core 1 and give it time to block. */
static rtipc_task_t *start_blocked(io_t *io)
{
    rtipc_task_t *t = start_task(io->send ? "writer" : "reader", TASK_PRIORITY, other_core(), io_task, io);
    assert_true(wait_for_flag((volatile int *)&io->started, 1, 10000));
    sleep_ms(100);
    return t;
}

static void fill(rtipc_streambuf_t *sb, const char *bytes)
{
    size_t sent = 0;
    assert_int_equal(rtipc_streambuf_send(sb, bytes, strlen(bytes), &sent, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(sent, strlen(bytes));
}

/* ---- creation --------------------------------------------------------------- */
static void create_checks_its_arguments_and_reports_its_footprint(void **state)
{
    (void)state;
    rtipc_streambuf_t *sb;
    rtipc_streambuf_static_t cb;
    unsigned char storage[RTIPC_STREAMBUF_STORAGE_SIZE(16)];
    assert_int_equal(rtipc_streambuf_create(0, 0, &sb), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_create((size_t)INT32_MAX + 1, 0, &sb), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_create(8, 9, &sb), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_create(8, 0, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_create_static(16, 0, NULL, &cb, &sb), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_create_static(16, 0, storage, NULL, &sb), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_create_static(16, 0, storage, &cb, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_create_static(16, 17, storage, &cb, &sb), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_create_static(0, 0, storage, &cb, &sb), RTIPC_EINVAL);

    size_t block = rtipc_streambuf_footprint_for(0);
    assert_true(block > 0);
    assert_true(block <= sizeof(rtipc_streambuf_static_t));
    assert_int_equal(rtipc_streambuf_footprint_for((size_t)INT32_MAX + 1), 0);
    assert_int_equal(rtipc_streambuf_footprint(NULL), 0);

    assert_int_equal(rtipc_streambuf_create(100, 8, &sb), RTIPC_OK);
    /* FreeRTOS's storage is one byte longer than what it holds. */
    assert_int_equal(rtipc_streambuf_footprint(sb), block + 100 + (RTIPC_PORT_FREERTOS ? 1 : 0));
    assert_int_equal(rtipc_streambuf_spaces_available(sb), 100);
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);

    assert_int_equal(rtipc_streambuf_create_static(16, 16, storage, &cb, &sb), RTIPC_OK);
    /* The handle is a table entry (src/common/handle.h), not the caller's
     * memory, and it names the control block there. */
    assert_ptr_not_equal((void *)sb, (void *)&cb);
    assert_ptr_equal(rtipc__handle_get(sb, RTIPC__H_STREAMBUF), (void *)&cb);
    assert_int_equal(rtipc_streambuf_footprint(sb), block + RTIPC_STREAMBUF_STORAGE_SIZE(16));
    assert_int_equal(rtipc_streambuf_spaces_available(sb), 16);
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
    /* Deleted: every call refuses the dead handle. */
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_bytes_available(sb), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_footprint(sb), 0);
    assert_int_equal(rtipc_streambuf_delete(NULL), RTIPC_EINVAL);

    enter_interrupt_context();
    assert_int_equal(rtipc_streambuf_create(8, 0, &sb), RTIPC_ECONTEXT);
    leave_interrupt_context();
    assert_int_equal(rtipc_streambuf_create(8, 0, &sb), RTIPC_OK);
    enter_interrupt_context();
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_ECONTEXT);
    /* Static creation allocates nothing and is allowed in a handler, except
     * on FreeRTOS, whose creation enters a task-level critical section
     * (streambuf.h, Port notes). */
    rtipc_streambuf_t *sb2;
    if (RTIPC_PORT_FREERTOS) {
        assert_int_equal(rtipc_streambuf_create_static(16, 0, storage, &cb, &sb2), RTIPC_ECONTEXT);
        leave_interrupt_context();
        assert_int_equal(rtipc_streambuf_create_static(16, 0, storage, &cb, &sb2), RTIPC_OK);
    } else {
        assert_int_equal(rtipc_streambuf_create_static(16, 0, storage, &cb, &sb2), RTIPC_OK);
        leave_interrupt_context();
    }
    assert_int_equal(rtipc_streambuf_delete(sb2), RTIPC_OK);
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
}

static void calls_reject_bad_arguments_wrong_handles_and_wrong_context(void **state)
{
    (void)state;
    rtipc_streambuf_t *sb;
    rtipc_msgbuf_t *mb;
    assert_int_equal(rtipc_streambuf_create(8, 0, &sb), RTIPC_OK);
    assert_int_equal(rtipc_msgbuf_create(16, &mb), RTIPC_OK);
    rtipc_streambuf_t *wrong = (rtipc_streambuf_t *)(void *)mb; /* a message buffer is not a stream buffer */
    char b[4] = "abc";
    size_t n = 99;
    bool woken = false;

    assert_int_equal(rtipc_streambuf_send(NULL, b, 3, &n, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(n, 0);
    assert_int_equal(rtipc_streambuf_send(wrong, b, 3, &n, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_send(sb, NULL, 3, &n, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_send(sb, b, 0, &n, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_send(sb, b, 3, NULL, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_receive(NULL, b, 3, &n, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_receive(wrong, b, 3, &n, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_receive(sb, NULL, 3, &n, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_receive(sb, b, 0, &n, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_receive(sb, b, 3, NULL, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_send_from_isr(NULL, b, 3, &n, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_send_from_isr(sb, NULL, 3, &n, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_send_from_isr(sb, b, 0, &n, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_send_from_isr(sb, b, 3, NULL, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_receive_from_isr(NULL, b, 3, &n, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_receive_from_isr(sb, NULL, 3, &n, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_receive_from_isr(sb, b, 0, &n, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_receive_from_isr(sb, b, 3, NULL, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_set_trigger_level(NULL, 1), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_set_trigger_level(wrong, 1), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_reset(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_reset(wrong), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_delete(wrong), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_bytes_available(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_spaces_available(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_is_empty(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_is_full(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_footprint(wrong), 0);
    assert_false(woken);

    enter_interrupt_context();
    n = 99;
    assert_int_equal(rtipc_streambuf_send(sb, b, 3, &n, RTIPC_NO_WAIT), RTIPC_ECONTEXT);
    assert_int_equal(n, 0);
    assert_int_equal(rtipc_streambuf_receive(sb, b, 3, &n, RTIPC_NO_WAIT), RTIPC_ECONTEXT);
    leave_interrupt_context();

    assert_int_equal(rtipc_streambuf_bytes_available(sb), 0); /* nothing happened */
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
    assert_int_equal(rtipc_msgbuf_delete(mb), RTIPC_OK);
}

/* ---- bytes in, bytes out ---------------------------------------------------- */
static void bytes_come_out_in_order_across_the_wrap_with_exact_snapshots(void **state)
{
    (void)state;
    rtipc_streambuf_t *sb;
    assert_int_equal(rtipc_streambuf_create(8, 1, &sb), RTIPC_OK);
    assert_int_equal(rtipc_streambuf_is_empty(sb), 1);
    assert_int_equal(rtipc_streambuf_is_full(sb), 0);
    fill(sb, "abcde");
    assert_int_equal(rtipc_streambuf_bytes_available(sb), 5);
    assert_int_equal(rtipc_streambuf_spaces_available(sb), 3);
    assert_int_equal(rtipc_streambuf_is_empty(sb), 0);
    char out[16] = {0};
    size_t n = 0;
    assert_int_equal(rtipc_streambuf_receive(sb, out, 3, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, 3);
    assert_memory_equal(out, "abc", 3);
    fill(sb, "fghijk"); /* wraps: 3 at the end, 3 at the start */
    assert_int_equal(rtipc_streambuf_is_full(sb), 1);
    assert_int_equal(rtipc_streambuf_spaces_available(sb), 0);
    memset(out, 0, sizeof out);
    /* One receive larger than what is there takes everything, in order. */
    assert_int_equal(rtipc_streambuf_receive(sb, out, sizeof out, &n, RTIPC_FOREVER), RTIPC_OK);
    assert_int_equal(n, 8);
    assert_memory_equal(out, "defghijk", 8);
    assert_int_equal(rtipc_streambuf_is_empty(sb), 1);
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
}

static void no_wait_send_writes_what_fits_and_fails_only_when_full(void **state)
{
    (void)state;
    rtipc_streambuf_t *sb;
    assert_int_equal(rtipc_streambuf_create(8, 1, &sb), RTIPC_OK);
    size_t n = 0;
    assert_int_equal(rtipc_streambuf_send(sb, "0123456789", 10, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, 8);
    n = 99;
    assert_int_equal(rtipc_streambuf_send(sb, "x", 1, &n, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(n, 0);
    char out[8];
    assert_int_equal(rtipc_streambuf_receive(sb, out, 8, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_memory_equal(out, "01234567", 8);
    n = 99;
    assert_int_equal(rtipc_streambuf_receive(sb, out, 8, &n, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(n, 0);
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
}

static void send_that_times_out_writes_what_fits_or_fails_when_nothing_fits(void **state)
{
    (void)state;
    rtipc_streambuf_t *sb;
    assert_int_equal(rtipc_streambuf_create(8, 1, &sb), RTIPC_OK);
    fill(sb, "abcdef");
    size_t n = 0;
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_streambuf_send(sb, "ghijk", 5, &n, rtipc_ms(50)), RTIPC_OK);
    int64_t waited = rtipc_time_ns() - t0;
    assert_int_equal(n, 2); /* waited for 5 free bytes, then wrote the 2 that fit */
    assert_true(waited >= 50000000);
    n = 99;
    t0 = rtipc_time_ns();
    assert_int_equal(rtipc_streambuf_send(sb, "x", 1, &n, rtipc_ms(20)), RTIPC_ETIMEDOUT);
    assert_true(rtipc_time_ns() - t0 >= 20000000);
    assert_int_equal(n, 0);
    char out[8];
    assert_int_equal(rtipc_streambuf_receive(sb, out, 8, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, 8);
    assert_memory_equal(out, "abcdefgh", 8);
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
}

static void blocked_send_waits_for_its_whole_request_then_completes(void **state)
{
    (void)state;
    rtipc_streambuf_t *sb;
    assert_int_equal(rtipc_streambuf_create(8, 1, &sb), RTIPC_OK);
    fill(sb, "abcdefgh");
    io_t io = {.sb = sb, .send = true, .len = 4, .timeout = LONG_WAIT};
    memcpy(io.data, "WXYZ", 4);
    rtipc_task_t *t = start_blocked(&io);
    char out[8];
    size_t n;
    assert_int_equal(rtipc_streambuf_receive(sb, out, 2, &n, RTIPC_NO_WAIT), RTIPC_OK);
    sleep_ms(50);
    int done_with_two_free = atomic_load(&io.done);
    assert_int_equal(rtipc_streambuf_receive(sb, out, 2, &n, RTIPC_NO_WAIT), RTIPC_OK);
    join_io(t, &io);
    assert_false(done_with_two_free);
    assert_int_equal(io.rc, RTIPC_OK);
    assert_int_equal(io.n, 4);
    assert_int_equal(rtipc_streambuf_receive(sb, out, 8, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, 8);
    assert_memory_equal(out, "efghWXYZ", 8);
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
}

static void send_larger_than_the_buffer_waits_for_it_to_empty_and_fills_it(void **state)
{
    (void)state;
    rtipc_streambuf_t *sb;
    assert_int_equal(rtipc_streambuf_create(8, 1, &sb), RTIPC_OK);
    fill(sb, "abc");
    io_t io = {.sb = sb, .send = true, .len = 20, .timeout = LONG_WAIT};
    memcpy(io.data, "ABCDEFGHIJKLMNOPQRST", 20);
    rtipc_task_t *t = start_blocked(&io);
    int done_early = atomic_load(&io.done);
    char out[8];
    size_t n;
    assert_int_equal(rtipc_streambuf_receive(sb, out, 8, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, 3);
    join_io(t, &io);
    assert_false(done_early);
    assert_int_equal(io.rc, RTIPC_OK);
    assert_int_equal(io.n, 8);
    assert_int_equal(rtipc_streambuf_receive(sb, out, 8, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_memory_equal(out, "ABCDEFGH", 8);
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
}

/* ---- trigger level -------------------------------------------------------------- */
static void blocked_reader_wakes_only_when_the_trigger_level_is_reached(void **state)
{
    (void)state;
    rtipc_streambuf_t *sb;
    assert_int_equal(rtipc_streambuf_create(32, 10, &sb), RTIPC_OK);
    io_t io = {.sb = sb, .len = 32, .timeout = rtipc_ms(10000)};
    rtipc_task_t *t = start_blocked(&io);
    fill(sb, "abc");
    sleep_ms(60);
    int done_below = atomic_load(&io.done);
    fill(sb, "defghij"); /* 10 bytes: the trigger level */
    join_io(t, &io);
    assert_false(done_below);
    assert_int_equal(io.rc, RTIPC_OK);
    assert_int_equal(io.n, 10);
    assert_memory_equal(io.data, "abcdefghij", 10);
    assert_true(io.t1 - io.t0 < 5000000000LL); /* woken, not timed out */
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
}

static void reader_takes_what_is_there_when_its_timeout_expires_below_the_trigger(void **state)
{
    (void)state;
    rtipc_streambuf_t *sb;
    assert_int_equal(rtipc_streambuf_create(32, 10, &sb), RTIPC_OK);
    io_t io = {.sb = sb, .len = 32, .timeout = rtipc_ms(1000)};
    rtipc_task_t *t = start_blocked(&io);
    fill(sb, "abc");
    join_io(t, &io);
    assert_int_equal(io.rc, RTIPC_OK);
    assert_int_equal(io.n, 3);
    assert_memory_equal(io.data, "abc", 3);
    assert_true(io.t1 - io.t0 >= 1000000000);
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
}

static void reader_finding_bytes_below_the_trigger_takes_them_at_once(void **state)
{
    (void)state;
    rtipc_streambuf_t *sb;
    assert_int_equal(rtipc_streambuf_create(32, 10, &sb), RTIPC_OK);
    fill(sb, "abc");
    char out[32];
    size_t n = 0;
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_streambuf_receive(sb, out, sizeof out, &n, RTIPC_FOREVER), RTIPC_OK);
    assert_true(rtipc_time_ns() - t0 < 5000000000LL);
    assert_int_equal(n, 3);
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
}

static void receive_on_an_empty_buffer_times_out(void **state)
{
    (void)state;
    rtipc_streambuf_t *sb;
    assert_int_equal(rtipc_streambuf_create(8, 1, &sb), RTIPC_OK);
    char out[8];
    size_t n = 99;
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_streambuf_receive(sb, out, 8, &n, rtipc_ms(30)), RTIPC_ETIMEDOUT);
    assert_true(rtipc_time_ns() - t0 >= 30000000);
    assert_int_equal(n, 0);
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
}

static void trigger_level_zero_means_one_and_above_the_size_is_refused(void **state)
{
    (void)state;
    rtipc_streambuf_t *sb;
    assert_int_equal(rtipc_streambuf_create(16, 16, &sb), RTIPC_OK);
    assert_int_equal(rtipc_streambuf_set_trigger_level(sb, 17), RTIPC_EINVAL);
    assert_int_equal(rtipc_streambuf_set_trigger_level(sb, 0), RTIPC_OK);
    io_t io = {.sb = sb, .len = 16, .timeout = rtipc_ms(10000)};
    rtipc_task_t *t = start_blocked(&io);
    fill(sb, "z");
    join_io(t, &io);
    assert_int_equal(io.rc, RTIPC_OK);
    assert_int_equal(io.n, 1);
    assert_true(io.t1 - io.t0 < 5000000000LL);
    /* The level set at creation held until changed: 16 would not have woken it. */
    assert_int_equal(rtipc_streambuf_set_trigger_level(sb, 16), RTIPC_OK);
    io_t io2 = {.sb = sb, .len = 16, .timeout = rtipc_ms(1000)};
    t = start_blocked(&io2);
    fill(sb, "y");
    join_io(t, &io2);
    assert_int_equal(io2.rc, RTIPC_OK);
    assert_true(io2.t1 - io2.t0 >= 1000000000); /* not woken by 1 byte: took it at the timeout */
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
}

/* ---- one writer, one reader ------------------------------------------------------ */
static void second_writer_is_refused_while_the_first_is_blocked_in_send(void **state)
{
    (void)state;
    rtipc_streambuf_t *sb;
    assert_int_equal(rtipc_streambuf_create(4, 1, &sb), RTIPC_OK);
    fill(sb, "abcd");
    io_t io = {.sb = sb, .send = true, .len = 2, .timeout = LONG_WAIT};
    memcpy(io.data, "XY", 2);
    rtipc_task_t *t = start_blocked(&io);
    size_t n = 99;
    bool woken = false;
    int rc_send = rtipc_streambuf_send(sb, "q", 1, &n, RTIPC_NO_WAIT);
    size_t n_send = n;
    int rc_isr = rtipc_streambuf_send_from_isr(sb, "q", 1, &n, &woken);
    int rc_reset = rtipc_streambuf_reset(sb);
    int rc_delete = rtipc_streambuf_delete(sb);
    int bytes = rtipc_streambuf_bytes_available(sb);
    char out[8];
    assert_int_equal(rtipc_streambuf_receive(sb, out, 2, &n, RTIPC_NO_WAIT), RTIPC_OK);
    join_io(t, &io);
    assert_int_equal(rc_send, RTIPC_EBUSY);
    assert_int_equal(n_send, 0);
    assert_int_equal(rc_isr, RTIPC_EBUSY);
    assert_int_equal(rc_reset, RTIPC_EBUSY);
    assert_int_equal(rc_delete, RTIPC_EBUSY);
    assert_int_equal(bytes, 4);
    assert_false(woken);
    assert_int_equal(io.rc, RTIPC_OK);
    assert_int_equal(io.n, 2);
    /* The first writer has left: the side is free again. */
    assert_int_equal(rtipc_streambuf_receive(sb, out, 8, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_memory_equal(out, "cdXY", 4);
    assert_int_equal(rtipc_streambuf_send(sb, "q", 1, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
}

static void second_reader_is_refused_while_the_first_is_blocked_in_receive(void **state)
{
    (void)state;
    rtipc_streambuf_t *sb;
    assert_int_equal(rtipc_streambuf_create(8, 1, &sb), RTIPC_OK);
    io_t io = {.sb = sb, .len = 8, .timeout = LONG_WAIT};
    rtipc_task_t *t = start_blocked(&io);
    char out[8];
    size_t n = 99;
    bool woken = false;
    int rc_recv = rtipc_streambuf_receive(sb, out, 8, &n, RTIPC_NO_WAIT);
    int rc_isr = rtipc_streambuf_receive_from_isr(sb, out, 8, &n, &woken);
    int rc_reset = rtipc_streambuf_reset(sb);
    fill(sb, "hi");
    join_io(t, &io);
    assert_int_equal(rc_recv, RTIPC_EBUSY);
    assert_int_equal(rc_isr, RTIPC_EBUSY);
    assert_int_equal(rc_reset, RTIPC_EBUSY);
    assert_int_equal(io.rc, RTIPC_OK);
    assert_int_equal(io.n, 2);
    assert_memory_equal(io.data, "hi", 2);
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
}

static void deleting_a_blocked_writer_or_reader_frees_its_side(void **state)
{
    (void)state;
    rtipc_streambuf_t *sb;
    assert_int_equal(rtipc_streambuf_create(4, 1, &sb), RTIPC_OK);
    fill(sb, "abcd");
    io_t w = {.sb = sb, .send = true, .len = 2, .timeout = LONG_WAIT};
    rtipc_task_t *t = start_blocked(&w);
    assert_int_equal(rtipc_task_delete(t), RTIPC_OK);
    assert_false(atomic_load(&w.done));
    char out[8];
    size_t n;
    assert_int_equal(rtipc_streambuf_receive(sb, out, 8, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, 4); /* the deleted writer wrote nothing */
    assert_int_equal(rtipc_streambuf_send(sb, "ok", 2, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_streambuf_reset(sb), RTIPC_OK);

    io_t r = {.sb = sb, .len = 8, .timeout = LONG_WAIT};
    t = start_blocked(&r);
    assert_int_equal(rtipc_task_delete(t), RTIPC_OK);
    assert_false(atomic_load(&r.done));
    fill(sb, "zz");
    assert_int_equal(rtipc_streambuf_receive(sb, out, 8, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, 2);
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
}

static void reset_empties_an_idle_buffer(void **state)
{
    (void)state;
    rtipc_streambuf_t *sb;
    assert_int_equal(rtipc_streambuf_create(8, 1, &sb), RTIPC_OK);
    fill(sb, "abcde");
    assert_int_equal(rtipc_streambuf_reset(sb), RTIPC_OK);
    assert_int_equal(rtipc_streambuf_is_empty(sb), 1);
    assert_int_equal(rtipc_streambuf_spaces_available(sb), 8);
    fill(sb, "12345678");
    char out[8];
    size_t n;
    assert_int_equal(rtipc_streambuf_receive(sb, out, 8, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_memory_equal(out, "12345678", 8);
    assert_int_equal(rtipc_streambuf_delete(sb), RTIPC_OK);
}

/* ---- interrupt-safe calls from a real handler -------------------------------------- */
typedef struct {
    rtipc_streambuf_t *to_reader; /* a task waits to read it */
    rtipc_streambuf_t *full;      /* full, a task waits to write it */
    rtipc_streambuf_t *scratch;   /* nobody waits */
    int rc[10];
    size_t n[10];
    char got[3][8];
    bool woken_read, woken_write, woken_none;
    _Atomic int ran;
} isr_t;

static void isr_handler(void *arg)
{
    isr_t *p = arg;
    bool woken = false;
    p->rc[0] = rtipc_streambuf_send_from_isr(p->to_reader, "abc", 3, &p->n[0], &woken);
    p->woken_read = woken;
    woken = false;
    p->rc[1] = rtipc_streambuf_send_from_isr(p->full, "!", 1, &p->n[1], &woken); /* the task is the writer */
    p->rc[2] = rtipc_streambuf_receive_from_isr(p->full, p->got[0], 3, &p->n[2], &woken);
    p->woken_write = woken;
    woken = false;
    p->rc[3] = rtipc_streambuf_send_from_isr(p->scratch, "0123456789", 10, &p->n[3], &woken); /* 8 fit */
    p->rc[4] = rtipc_streambuf_send_from_isr(p->scratch, "x", 1, &p->n[4], &woken);           /* full */
    p->rc[5] = rtipc_streambuf_receive_from_isr(p->scratch, p->got[1], 5, &p->n[5], &woken);
    p->rc[6] = rtipc_streambuf_receive_from_isr(p->scratch, p->got[2], 8, &p->n[6], &woken);
    p->rc[7] = rtipc_streambuf_receive_from_isr(p->scratch, p->got[2], 8, &p->n[7], &woken); /* empty */
    p->rc[8] = rtipc_streambuf_send_from_isr(NULL, "x", 1, &p->n[8], &woken);
    p->rc[9] = rtipc_streambuf_receive_from_isr(p->scratch, p->got[2], 8, NULL, &woken);
    p->woken_none = woken;
    rtipc_irq_yield(p->woken_read || p->woken_write);
    atomic_store(&p->ran, 1);
}

static void interrupt_handler_sends_and_receives_and_reports_woken_tasks(void **state)
{
    (void)state;
    isr_t p = {0};
    assert_int_equal(rtipc_streambuf_create(8, 3, &p.to_reader), RTIPC_OK);
    assert_int_equal(rtipc_streambuf_create(4, 1, &p.full), RTIPC_OK);
    assert_int_equal(rtipc_streambuf_create(8, 1, &p.scratch), RTIPC_OK);
    fill(p.full, "wxyz");
    io_t reader = {.sb = p.to_reader, .len = 8, .timeout = rtipc_ms(10000)};
    io_t writer = {.sb = p.full, .send = true, .len = 3, .timeout = rtipc_ms(10000)};
    memcpy(writer.data, "123", 3);
    rtipc_task_t *tr = start_blocked(&reader);
    rtipc_task_t *tw = start_blocked(&writer);
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(other_core(), isr_handler, &p, &irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
    assert_true(wait_for_flag((volatile int *)&p.ran, 1, 10000));
    join_io(tr, &reader);
    join_io(tw, &writer);

    const int want[10] = {RTIPC_OK,          RTIPC_EBUSY, RTIPC_OK,          RTIPC_OK,     RTIPC_EWOULDBLOCK,
                          RTIPC_OK,          RTIPC_OK,    RTIPC_EWOULDBLOCK, RTIPC_EINVAL, RTIPC_EINVAL};
    const size_t want_n[10] = {3, 0, 3, 8, 0, 5, 3, 0, 0, 0};
    for (int i = 0; i < 10; ++i) {
        assert_int_equal(p.rc[i], want[i]);
        assert_int_equal(p.n[i], want_n[i]);
    }
    assert_memory_equal(p.got[0], "wxy", 3);
    assert_memory_equal(p.got[1], "01234", 5);
    assert_memory_equal(p.got[2], "567", 3);
    /* Both tasks outrank an idle core; nobody waited on the scratch buffer. */
    assert_true(p.woken_read);
    assert_true(p.woken_write);
    assert_false(p.woken_none);
    assert_int_equal(reader.rc, RTIPC_OK);
    assert_int_equal(reader.n, 3);
    assert_memory_equal(reader.data, "abc", 3);
    assert_int_equal(writer.rc, RTIPC_OK);
    assert_int_equal(writer.n, 3);
    char out[8];
    size_t n;
    assert_int_equal(rtipc_streambuf_receive(p.full, out, 8, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, 4);
    assert_memory_equal(out, "z123", 4);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
    assert_int_equal(rtipc_streambuf_delete(p.to_reader), RTIPC_OK);
    assert_int_equal(rtipc_streambuf_delete(p.full), RTIPC_OK);
    assert_int_equal(rtipc_streambuf_delete(p.scratch), RTIPC_OK);
}

int main(void)
{
    pin_main_to_core0();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_checks_its_arguments_and_reports_its_footprint),
        cmocka_unit_test(calls_reject_bad_arguments_wrong_handles_and_wrong_context),
        cmocka_unit_test(bytes_come_out_in_order_across_the_wrap_with_exact_snapshots),
        cmocka_unit_test(no_wait_send_writes_what_fits_and_fails_only_when_full),
        cmocka_unit_test(send_that_times_out_writes_what_fits_or_fails_when_nothing_fits),
        cmocka_unit_test(blocked_send_waits_for_its_whole_request_then_completes),
        cmocka_unit_test(send_larger_than_the_buffer_waits_for_it_to_empty_and_fills_it),
        cmocka_unit_test(blocked_reader_wakes_only_when_the_trigger_level_is_reached),
        cmocka_unit_test(reader_takes_what_is_there_when_its_timeout_expires_below_the_trigger),
        cmocka_unit_test(reader_finding_bytes_below_the_trigger_takes_them_at_once),
        cmocka_unit_test(receive_on_an_empty_buffer_times_out),
        cmocka_unit_test(trigger_level_zero_means_one_and_above_the_size_is_refused),
        cmocka_unit_test(second_writer_is_refused_while_the_first_is_blocked_in_send),
        cmocka_unit_test(second_reader_is_refused_while_the_first_is_blocked_in_receive),
        cmocka_unit_test(deleting_a_blocked_writer_or_reader_frees_its_side),
        cmocka_unit_test(reset_empties_an_idle_buffer),
        cmocka_unit_test(interrupt_handler_sends_and_receives_and_reports_woken_tasks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
