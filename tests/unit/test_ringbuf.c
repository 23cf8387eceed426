/* Ring buffers: layout (headers, alignment, dummy tail, split items, byte
 * stream), zero-copy receive and in-order reclaim, acquire/complete, waiting
 * and waking, interrupt-safe calls from a real handler, and every error. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rtipc/ringbuf.h"
#include "test_support.h"

/* ---- helpers --------------------------------------------------------------- */
static int irq_core(void) { return rtipc_core_count() >= 2 ? 1 : 0; }

static unsigned char byte_of(unsigned seed, size_t i) { return (unsigned char)(seed * 131u + i * 7u + 1u); }

static void fill(void *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; ++i)
        ((unsigned char *)p)[i] = byte_of(seed, i);
}

static bool holds(const void *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; ++i)
        if (((const unsigned char *)p)[i] != byte_of(seed, i))
            return false;
    return true;
}

static int send_seeded(rtipc_ringbuf_t *rb, size_t n, unsigned seed, rtipc_timeout_t t)
{
    unsigned char buf[512];
    assert_true(n <= sizeof buf);
    fill(buf, n, seed);
    return rtipc_ringbuf_send(rb, buf, n, t);
}

/* Caller storage for static ring buffers: 4-byte aligned, offsets visible. */
typedef struct {
    rtipc_ringbuf_static_t cb;
    uint32_t words[64];
    rtipc_ringbuf_t *rb;
} fixture_t;

static unsigned char *base(fixture_t *f) { return (unsigned char *)f->words; }

static void make_static(fixture_t *f, size_t size, rtipc_ringbuf_type_t type)
{
    assert_true(size <= sizeof f->words);
    memset(f->words, 0xee, sizeof f->words);
    assert_int_equal(rtipc_ringbuf_create_static(size, type, f->words, &f->cb, &f->rb), RTIPC_OK);
}

static void receive_expect(rtipc_ringbuf_t *rb, size_t n, unsigned seed, void **out)
{
    void *p = NULL;
    size_t got = 0;
    assert_int_equal(rtipc_ringbuf_receive(rb, &p, &got, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(got, n);
    assert_true(holds(p, n, seed));
    *out = p;
}

/* ---- tasks used to observe waiting ---------------------------------------- */
typedef struct {
    rtipc_ringbuf_t *rb;
    rtipc_timeout_t timeout;
    size_t len;      /* sender: item length */
    unsigned seed;   /* sender: content */
    int rc;
    void *item;      /* receiver: what it got */
    size_t size;
    bool return_it;  /* receiver: give it back at once */
    _Atomic int started, done;
} waiter_t;

static void sender_task(void *arg)
{
    waiter_t *w = arg;
    unsigned char buf[512];
    fill(buf, w->len, w->seed);
    atomic_store(&w->started, 1);
    w->rc = rtipc_ringbuf_send(w->rb, buf, w->len, w->timeout);
    atomic_store(&w->done, 1);
}

static void receiver_task(void *arg)
{
    waiter_t *w = arg;
    atomic_store(&w->started, 1);
    w->rc = rtipc_ringbuf_receive(w->rb, &w->item, &w->size, w->timeout);
    if (w->rc == RTIPC_OK && w->return_it)
        w->rc = rtipc_ringbuf_return(w->rb, w->item);
    atomic_store(&w->done, 1);
}

/* Fail (rather than hang) when the waiter is not released within 5 s. */
static void finish(waiter_t *w, rtipc_task_t *t)
{
    if (!wait_for_flag((volatile int *)&w->done, 1, 5000))
        fail_msg("a waiting task was never released");
    join_task(t);
}

static rtipc_task_t *start_waiter(waiter_t *w, unsigned prio, int core, rtipc_task_fn fn)
{
    rtipc_task_t *t = start_task("rbw", prio, core, fn, w);
    assert_true(wait_for_flag((volatile int *)&w->started, 1, 2000));
    sleep_ms(20); /* let it block */
    return t;
}

/* ---- creation and memory ----------------------------------------------------- */
static void create_rejects_invalid_arguments(void **state)
{
    (void)state;
    rtipc_ringbuf_t *rb;
    rtipc_ringbuf_static_t cb;
    _Alignas(8) unsigned char storage[64];
    assert_int_equal(rtipc_ringbuf_create(64, RTIPC_RINGBUF_NOSPLIT, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_create(0, RTIPC_RINGBUF_NOSPLIT, &rb), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_create(4, RTIPC_RINGBUF_NOSPLIT, &rb), RTIPC_EINVAL); /* header only */
    assert_int_equal(rtipc_ringbuf_create(4, RTIPC_RINGBUF_ALLOWSPLIT, &rb), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_create(0, RTIPC_RINGBUF_BYTEBUF, &rb), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_create(RTIPC_RINGBUF_MAX_SIZE + 1, RTIPC_RINGBUF_BYTEBUF, &rb), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_create(64, (rtipc_ringbuf_type_t)3, &rb), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_create_static(64, RTIPC_RINGBUF_NOSPLIT, storage, &cb, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_create_static(64, RTIPC_RINGBUF_NOSPLIT, NULL, &cb, &rb), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_create_static(64, RTIPC_RINGBUF_NOSPLIT, storage, NULL, &rb), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_create_static(0, RTIPC_RINGBUF_NOSPLIT, storage, &cb, &rb), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_create_static(62, RTIPC_RINGBUF_NOSPLIT, storage, &cb, &rb), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_create_static(60, RTIPC_RINGBUF_ALLOWSPLIT, storage + 2, &cb, &rb),
                     RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_create_static(64, (rtipc_ringbuf_type_t)7, storage, &cb, &rb), RTIPC_EINVAL);
    /* A byte buffer has no headers: any length and alignment. */
    assert_int_equal(rtipc_ringbuf_create_static(61, RTIPC_RINGBUF_BYTEBUF, storage + 1, &cb, &rb), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_max_item_size(rb), 61);
    assert_int_equal(rtipc_ringbuf_delete(rb), RTIPC_OK);
}

static void create_and_delete_are_task_only_static_creation_per_port(void **state)
{
    (void)state;
    rtipc_ringbuf_t *rb = NULL, *rs = NULL;
    rtipc_ringbuf_static_t cb;
    _Alignas(8) unsigned char storage[64];
    assert_int_equal(rtipc_ringbuf_create(64, RTIPC_RINGBUF_NOSPLIT, &rb), RTIPC_OK);
    enter_interrupt_context();
    rtipc_ringbuf_t *other;
    int create_rc = rtipc_ringbuf_create(64, RTIPC_RINGBUF_NOSPLIT, &other);
    int static_rc = rtipc_ringbuf_create_static(64, RTIPC_RINGBUF_NOSPLIT, storage, &cb, &rs);
    int delete_rc = rtipc_ringbuf_delete(rb);
    leave_interrupt_context();
    assert_int_equal(create_rc, RTIPC_ECONTEXT);
    assert_int_equal(delete_rc, RTIPC_ECONTEXT);
    assert_int_equal(rtipc_ringbuf_delete(rb), RTIPC_OK);
#if RTIPC_PORT_FREERTOS
    /* Port notes (ringbuf.h): the kernel's semaphore creation inside it
     * enters a task-level critical section. */
    assert_int_equal(static_rc, RTIPC_ECONTEXT);
#else
    assert_int_equal(static_rc, RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(rs), RTIPC_OK);
#endif
}

static void dynamic_size_rounds_up_and_footprint_counts_block_and_storage(void **state)
{
    (void)state;
    size_t block = rtipc_ringbuf_footprint_for(0, RTIPC_RINGBUF_NOSPLIT);
    print_message("ring buffer control block: %zu bytes\n", block);
    assert_true(block > 0 && block <= sizeof(rtipc_ringbuf_static_t));
    assert_int_equal(rtipc_ringbuf_footprint_for(0, RTIPC_RINGBUF_BYTEBUF), block);
    assert_int_equal(rtipc_ringbuf_footprint_for(0, (rtipc_ringbuf_type_t)3), 0);
    assert_int_equal(rtipc_ringbuf_footprint_for(61, RTIPC_RINGBUF_NOSPLIT), block + 64);
    assert_int_equal(rtipc_ringbuf_footprint_for(61, RTIPC_RINGBUF_BYTEBUF), block + 61);
    assert_int_equal(rtipc_ringbuf_footprint_for(4, RTIPC_RINGBUF_ALLOWSPLIT), 0);
    /* The smallest item buffers: 5 to 7 round up to 8 (a header and one word). */
    for (size_t size = 5; size <= 7; size++)
        assert_int_equal(rtipc_ringbuf_footprint_for(size, RTIPC_RINGBUF_NOSPLIT), block + 8);

    rtipc_ringbuf_t *rb;
    assert_int_equal(rtipc_ringbuf_create(5, RTIPC_RINGBUF_ALLOWSPLIT, &rb), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_footprint(rb), block + 8);
    assert_int_equal(rtipc_ringbuf_delete(rb), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_create(61, RTIPC_RINGBUF_NOSPLIT, &rb), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_max_item_size(rb), 60); /* 64 - header */
    assert_int_equal(rtipc_ringbuf_footprint(rb), block + 64);
    assert_int_equal(rtipc_ringbuf_delete(rb), RTIPC_OK);

    /* Per item: 4-byte header, data rounded up to 4; none in a byte buffer. */
    assert_int_equal(rtipc_ringbuf_item_footprint(RTIPC_RINGBUF_NOSPLIT, 1), 8);
    assert_int_equal(rtipc_ringbuf_item_footprint(RTIPC_RINGBUF_NOSPLIT, 4), 8);
    assert_int_equal(rtipc_ringbuf_item_footprint(RTIPC_RINGBUF_ALLOWSPLIT, 5), 12);
    assert_int_equal(rtipc_ringbuf_item_footprint(RTIPC_RINGBUF_BYTEBUF, 5), 5);
    assert_int_equal(rtipc_ringbuf_item_footprint(RTIPC_RINGBUF_NOSPLIT, 0), 0);
    assert_int_equal(rtipc_ringbuf_item_footprint((rtipc_ringbuf_type_t)3, 5), 0);
    assert_int_equal(rtipc_ringbuf_item_footprint(RTIPC_RINGBUF_BYTEBUF, RTIPC_RINGBUF_MAX_SIZE + 1), 0);
    assert_int_equal(RTIPC_RINGBUF_ITEM_BYTES(18), 24);
}

static void static_ring_buffer_stores_items_in_caller_storage(void **state)
{
    (void)state;
    fixture_t f;
    make_static(&f, 64, RTIPC_RINGBUF_NOSPLIT);
    assert_int_equal(rtipc_ringbuf_footprint(f.rb), rtipc_ringbuf_footprint_for(0, RTIPC_RINGBUF_NOSPLIT) + 64);
    assert_int_equal(send_seeded(f.rb, 3, 1, RTIPC_NO_WAIT), RTIPC_OK);
    void *p;
    receive_expect(f.rb, 3, 1, &p);
    assert_ptr_equal(p, base(&f) + 4); /* first unit at offset 0, data after its header */
    assert_int_equal(rtipc_ringbuf_return(f.rb, p), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void delete_refuses_while_items_are_out_or_tasks_wait(void **state)
{
    (void)state;
    fixture_t f;
    void *p;
    size_t n;
    assert_int_equal(rtipc_ringbuf_delete(NULL), RTIPC_EINVAL);

    /* A received item is out. */
    make_static(&f, 64, RTIPC_RINGBUF_NOSPLIT);
    assert_int_equal(send_seeded(f.rb, 8, 2, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_receive(f.rb, &p, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_EBUSY);
    assert_int_equal(rtipc_ringbuf_return(f.rb, p), RTIPC_OK);
    /* An acquired item is out. */
    assert_int_equal(rtipc_ringbuf_acquire(f.rb, &p, 8, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_EBUSY);
    assert_int_equal(rtipc_ringbuf_complete(f.rb, p), RTIPC_OK);
    /* Items merely stored are discarded. */
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_EINVAL); /* dead (static: memory still ours) */

    /* A task waits. */
    make_static(&f, 64, RTIPC_RINGBUF_NOSPLIT);
    waiter_t w = {.rb = f.rb, .timeout = RTIPC_FOREVER, .return_it = true};
    rtipc_task_t *t = start_waiter(&w, 5, RTIPC_CORE_ANY, receiver_task);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_EBUSY);
    assert_int_equal(send_seeded(f.rb, 8, 3, RTIPC_NO_WAIT), RTIPC_OK);
    finish(&w, t);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);

    /* A byte buffer's read is out. */
    make_static(&f, 64, RTIPC_RINGBUF_BYTEBUF);
    assert_int_equal(send_seeded(f.rb, 8, 4, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_receive_up_to(f.rb, &p, &n, 3, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_EBUSY);
    assert_int_equal(rtipc_ringbuf_return(f.rb, p), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

/* ---- no-split ------------------------------------------------------------------- */
static void nosplit_items_come_out_in_place_in_order_with_header_and_padding(void **state)
{
    (void)state;
    fixture_t f;
    make_static(&f, 128, RTIPC_RINGBUF_NOSPLIT);
    /* 18, 3 and 27 bytes take 4+20, 4+4 and 4+28 bytes. */
    assert_int_equal(send_seeded(f.rb, 18, 10, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(send_seeded(f.rb, 3, 11, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(send_seeded(f.rb, 27, 12, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 24 + 8 + 32);
    assert_int_equal(rtipc_ringbuf_items_waiting(f.rb), 3);
    void *a, *b, *c;
    receive_expect(f.rb, 18, 10, &a);
    receive_expect(f.rb, 3, 11, &b);
    receive_expect(f.rb, 27, 12, &c);
    assert_ptr_equal(a, base(&f) + 4);
    assert_ptr_equal(b, base(&f) + 28);
    assert_ptr_equal(c, base(&f) + 36);
    assert_int_equal(rtipc_ringbuf_items_waiting(f.rb), 0);
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 64); /* out, not yet returned */
    assert_int_equal(rtipc_ringbuf_return(f.rb, a), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_return(f.rb, b), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_return(f.rb, c), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 0);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void nosplit_item_that_does_not_fit_the_tail_leaves_a_dummy_and_goes_to_the_start(void **state)
{
    (void)state;
    fixture_t f;
    void *a, *b, *c;
    make_static(&f, 64, RTIPC_RINGBUF_NOSPLIT);
    assert_int_equal(send_seeded(f.rb, 24, 1, RTIPC_NO_WAIT), RTIPC_OK); /* [0, 28) */
    assert_int_equal(send_seeded(f.rb, 24, 2, RTIPC_NO_WAIT), RTIPC_OK); /* [28, 56) */
    receive_expect(f.rb, 24, 1, &a);
    assert_int_equal(rtipc_ringbuf_return(f.rb, a), RTIPC_OK);
    /* Free: 8 bytes at the tail, 28 at the start. The larger run decides. */
    assert_int_equal(rtipc_ringbuf_free_size(f.rb), 24);
    assert_int_equal(send_seeded(f.rb, 20, 3, RTIPC_NO_WAIT), RTIPC_OK);
    /* B, the 8-byte dummy tail and C (24) are occupied. */
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 28 + 8 + 24);
    assert_int_equal(rtipc_ringbuf_free_size(f.rb), 0);
    assert_int_equal(send_seeded(f.rb, 1, 4, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    receive_expect(f.rb, 24, 2, &b);
    receive_expect(f.rb, 20, 3, &c); /* the reader skips the dummy */
    assert_ptr_equal(c, base(&f) + 4);
    /* Returning B frees B and the dummy behind it. */
    assert_int_equal(rtipc_ringbuf_return(f.rb, b), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 24);
    assert_int_equal(rtipc_ringbuf_return(f.rb, c), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 0);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void empty_buffer_starts_over_so_the_largest_item_always_fits(void **state)
{
    (void)state;
    fixture_t f;
    void *p;
    make_static(&f, 64, RTIPC_RINGBUF_NOSPLIT);
    assert_int_equal(rtipc_ringbuf_max_item_size(f.rb), 60);
    assert_int_equal(send_seeded(f.rb, 61, 1, RTIPC_NO_WAIT), RTIPC_EINVAL); /* could never fit */
    assert_int_equal(send_seeded(f.rb, 20, 1, RTIPC_NO_WAIT), RTIPC_OK);
    receive_expect(f.rb, 20, 1, &p);
    assert_int_equal(rtipc_ringbuf_return(f.rb, p), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_free_size(f.rb), 60);
    assert_int_equal(send_seeded(f.rb, 60, 2, RTIPC_NO_WAIT), RTIPC_OK);
    receive_expect(f.rb, 60, 2, &p);
    assert_ptr_equal(p, base(&f) + 4);
    assert_int_equal(rtipc_ringbuf_return(f.rb, p), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void returning_out_of_order_frees_space_only_in_order(void **state)
{
    (void)state;
    fixture_t f;
    void *a, *b, *c;
    make_static(&f, 64, RTIPC_RINGBUF_NOSPLIT);
    for (unsigned i = 0; i < 3; ++i)
        assert_int_equal(send_seeded(f.rb, 16, i, RTIPC_NO_WAIT), RTIPC_OK);
    receive_expect(f.rb, 16, 0, &a);
    receive_expect(f.rb, 16, 1, &b);
    receive_expect(f.rb, 16, 2, &c); /* three items out at once */
    int free0 = rtipc_ringbuf_free_size(f.rb);
    assert_int_equal(rtipc_ringbuf_return(f.rb, c), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 60);
    assert_int_equal(rtipc_ringbuf_return(f.rb, b), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 60);
    assert_int_equal(rtipc_ringbuf_free_size(f.rb), free0);
    assert_int_equal(rtipc_ringbuf_return(f.rb, a), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 0);
    assert_int_equal(rtipc_ringbuf_free_size(f.rb), 60);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void return_rejects_pointers_that_are_not_out(void **state)
{
    (void)state;
    fixture_t f, g;
    void *a, *b, *ga;
    make_static(&f, 64, RTIPC_RINGBUF_NOSPLIT);
    make_static(&g, 64, RTIPC_RINGBUF_NOSPLIT);
    assert_int_equal(send_seeded(f.rb, 8, 1, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(send_seeded(f.rb, 8, 2, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(send_seeded(g.rb, 8, 3, RTIPC_NO_WAIT), RTIPC_OK);
    receive_expect(f.rb, 8, 1, &a);
    receive_expect(g.rb, 8, 3, &ga);
    b = base(&f) + 16; /* the second item's data: stored but never received */
    int local;
    assert_int_equal(rtipc_ringbuf_return(NULL, a), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_return(f.rb, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_return(f.rb, b), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_return(f.rb, (unsigned char *)a + 4), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_return(f.rb, &local), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_return(f.rb, ga), RTIPC_EINVAL); /* another buffer's item */
    assert_int_equal(rtipc_ringbuf_return(f.rb, a), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_return(f.rb, a), RTIPC_EINVAL); /* twice */
    bool woken = false;
    assert_int_equal(rtipc_ringbuf_return_from_isr(f.rb, a, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_return_from_isr(NULL, a, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_return_from_isr(f.rb, NULL, &woken), RTIPC_EINVAL);
    assert_false(woken);
    assert_int_equal(rtipc_ringbuf_return(g.rb, ga), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(g.rb), RTIPC_OK);
}

static void send_and_receive_reject_invalid_arguments(void **state)
{
    (void)state;
    fixture_t f, dead;
    unsigned char buf[128] = {0};
    void *p;
    size_t n;
    make_static(&f, 64, RTIPC_RINGBUF_NOSPLIT);
    make_static(&dead, 64, RTIPC_RINGBUF_NOSPLIT);
    assert_int_equal(rtipc_ringbuf_delete(dead.rb), RTIPC_OK);
    bool woken = false;
    /* send */
    assert_int_equal(rtipc_ringbuf_send(NULL, buf, 4, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_send(dead.rb, buf, 4, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_send(f.rb, NULL, 4, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_send(f.rb, buf, 0, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_send(f.rb, buf, 61, RTIPC_FOREVER), RTIPC_EINVAL); /* oversize: no wait */
    assert_int_equal(rtipc_ringbuf_send_from_isr(NULL, buf, 4, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_send_from_isr(f.rb, NULL, 4, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_send_from_isr(f.rb, buf, 0, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_send_from_isr(f.rb, buf, 61, &woken), RTIPC_EINVAL);
    /* receive */
    assert_int_equal(rtipc_ringbuf_receive(NULL, &p, &n, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_receive(dead.rb, &p, &n, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_receive(f.rb, NULL, &n, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_receive(f.rb, &p, NULL, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_receive_split(f.rb, &p, &n, NULL, &n, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_receive_split(f.rb, &p, &n, &p, NULL, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_receive_from_isr(NULL, &p, &n), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_receive_from_isr(f.rb, NULL, &n), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_receive_split_from_isr(f.rb, &p, &n, &p, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_receive_up_to_from_isr(NULL, &p, &n, 4), RTIPC_EINVAL);
    /* queries */
    assert_int_equal(rtipc_ringbuf_free_size(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_max_item_size(dead.rb), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_items_waiting(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_bytes_used(dead.rb), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_footprint(NULL), 0);
    assert_int_equal(rtipc_ringbuf_footprint(dead.rb), 0);
    assert_false(woken);
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 0); /* nothing was stored */
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void calls_of_another_type_are_not_supported(void **state)
{
    (void)state;
    fixture_t ns, as, bb;
    void *p, *q;
    size_t n, m;
    make_static(&ns, 64, RTIPC_RINGBUF_NOSPLIT);
    make_static(&as, 64, RTIPC_RINGBUF_ALLOWSPLIT);
    make_static(&bb, 64, RTIPC_RINGBUF_BYTEBUF);
    assert_int_equal(rtipc_ringbuf_acquire(as.rb, &p, 8, RTIPC_NO_WAIT), RTIPC_ENOTSUP);
    assert_int_equal(rtipc_ringbuf_acquire(bb.rb, &p, 8, RTIPC_NO_WAIT), RTIPC_ENOTSUP);
    assert_int_equal(rtipc_ringbuf_receive(as.rb, &p, &n, RTIPC_NO_WAIT), RTIPC_ENOTSUP);
    assert_int_equal(rtipc_ringbuf_receive_from_isr(as.rb, &p, &n), RTIPC_ENOTSUP);
    assert_int_equal(rtipc_ringbuf_receive_split(bb.rb, &p, &n, &q, &m, RTIPC_NO_WAIT), RTIPC_ENOTSUP);
    assert_int_equal(rtipc_ringbuf_receive_split_from_isr(bb.rb, &p, &n, &q, &m), RTIPC_ENOTSUP);
    assert_int_equal(rtipc_ringbuf_receive_up_to(ns.rb, &p, &n, 8, RTIPC_NO_WAIT), RTIPC_ENOTSUP);
    assert_int_equal(rtipc_ringbuf_receive_up_to(as.rb, &p, &n, 8, RTIPC_NO_WAIT), RTIPC_ENOTSUP);
    assert_int_equal(rtipc_ringbuf_receive_up_to_from_isr(ns.rb, &p, &n, 8), RTIPC_ENOTSUP);
    /* A no-split buffer's items also come through receive_split, in one part. */
    assert_int_equal(send_seeded(ns.rb, 8, 5, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_receive_split(ns.rb, &p, &n, &q, &m, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, 8);
    assert_null(q);
    assert_int_equal(m, 0);
    assert_int_equal(rtipc_ringbuf_return(ns.rb, p), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(ns.rb), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(as.rb), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(bb.rb), RTIPC_OK);
}

/* ---- timeouts ------------------------------------------------------------------------ */
static void send_to_a_full_buffer_would_block_or_times_out(void **state)
{
    (void)state;
    fixture_t f;
    make_static(&f, 64, RTIPC_RINGBUF_NOSPLIT);
    assert_int_equal(send_seeded(f.rb, 60, 1, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(send_seeded(f.rb, 1, 2, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(send_seeded(f.rb, 1, 2, rtipc_ms(30)), RTIPC_ETIMEDOUT);
    assert_true(rtipc_time_ns() - t0 >= 30000000);
    bool woken = false;
    unsigned char x = 0;
    assert_int_equal(rtipc_ringbuf_send_from_isr(f.rb, &x, 1, &woken), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_ringbuf_items_waiting(f.rb), 1);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void receive_from_an_empty_buffer_would_block_or_times_out(void **state)
{
    (void)state;
    rtipc_ringbuf_type_t types[3] = {RTIPC_RINGBUF_NOSPLIT, RTIPC_RINGBUF_ALLOWSPLIT, RTIPC_RINGBUF_BYTEBUF};
    for (int i = 0; i < 3; ++i) {
        fixture_t f;
        void *p, *q;
        size_t n, m;
        make_static(&f, 64, types[i]);
        if (types[i] == RTIPC_RINGBUF_BYTEBUF) {
            assert_int_equal(rtipc_ringbuf_receive_up_to(f.rb, &p, &n, 8, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
            assert_int_equal(rtipc_ringbuf_receive_up_to_from_isr(f.rb, &p, &n, 8), RTIPC_EWOULDBLOCK);
            assert_int_equal(rtipc_ringbuf_receive(f.rb, &p, &n, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
        } else {
            assert_int_equal(rtipc_ringbuf_receive_split(f.rb, &p, &n, &q, &m, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
            assert_int_equal(rtipc_ringbuf_receive_split_from_isr(f.rb, &p, &n, &q, &m), RTIPC_EWOULDBLOCK);
        }
        if (types[i] != RTIPC_RINGBUF_ALLOWSPLIT)
            assert_int_equal(rtipc_ringbuf_receive_from_isr(f.rb, &p, &n), RTIPC_EWOULDBLOCK);
        int64_t t0 = rtipc_time_ns();
        int rc = types[i] == RTIPC_RINGBUF_ALLOWSPLIT
                     ? rtipc_ringbuf_receive_split(f.rb, &p, &n, &q, &m, rtipc_ms(30))
                     : rtipc_ringbuf_receive(f.rb, &p, &n, rtipc_ms(30));
        assert_int_equal(rc, RTIPC_ETIMEDOUT);
        assert_true(rtipc_time_ns() - t0 >= 30000000);
        assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
    }
}

/* ---- waking ---------------------------------------------------------------------------- */
static void waiting_receiver_gets_the_item_sent(void **state)
{
    (void)state;
    fixture_t f;
    make_static(&f, 64, RTIPC_RINGBUF_NOSPLIT);
    waiter_t w = {.rb = f.rb, .timeout = RTIPC_FOREVER};
    rtipc_task_t *t = start_waiter(&w, 5, test_core(1), receiver_task);
    assert_int_equal(atomic_load(&w.done), 0);
    assert_int_equal(send_seeded(f.rb, 13, 7, RTIPC_NO_WAIT), RTIPC_OK);
    finish(&w, t);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_int_equal(w.size, 13);
    assert_true(holds(w.item, 13, 7));
    assert_int_equal(rtipc_ringbuf_return(f.rb, w.item), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void waiting_sender_proceeds_when_a_return_frees_room(void **state)
{
    (void)state;
    fixture_t f;
    void *a;
    make_static(&f, 64, RTIPC_RINGBUF_NOSPLIT);
    assert_int_equal(send_seeded(f.rb, 40, 1, RTIPC_NO_WAIT), RTIPC_OK);
    waiter_t w = {.rb = f.rb, .timeout = RTIPC_FOREVER, .len = 30, .seed = 2};
    rtipc_task_t *t = start_waiter(&w, 5, test_core(1), sender_task);
    receive_expect(f.rb, 40, 1, &a);
    assert_int_equal(atomic_load(&w.done), 0); /* received is not freed */
    assert_int_equal(rtipc_ringbuf_return(f.rb, a), RTIPC_OK);
    finish(&w, t);
    assert_int_equal(w.rc, RTIPC_OK);
    receive_expect(f.rb, 30, 2, &a);
    assert_int_equal(rtipc_ringbuf_return(f.rb, a), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void waiting_sender_whose_item_fits_goes_before_a_larger_one(void **state)
{
    (void)state;
    fixture_t f;
    void *a, *b, *c, *d;
    make_static(&f, 64, RTIPC_RINGBUF_NOSPLIT);
    assert_int_equal(send_seeded(f.rb, 24, 1, RTIPC_NO_WAIT), RTIPC_OK); /* [0, 28) */
    assert_int_equal(send_seeded(f.rb, 24, 2, RTIPC_NO_WAIT), RTIPC_OK); /* [28, 56) */
    waiter_t big = {.rb = f.rb, .timeout = RTIPC_FOREVER, .len = 44, .seed = 3};
    waiter_t small = {.rb = f.rb, .timeout = RTIPC_FOREVER, .len = 8, .seed = 4};
    rtipc_task_t *tb = start_waiter(&big, 10, test_core(1), sender_task);
    rtipc_task_t *ts = start_waiter(&small, 5, test_core(1), sender_task);
    receive_expect(f.rb, 24, 1, &a);
    assert_int_equal(rtipc_ringbuf_return(f.rb, a), RTIPC_OK); /* frees [0, 28): room for 8, not 44 */
    assert_true(wait_for_flag((volatile int *)&small.done, 1, 2000));
    sleep_ms(20);
    assert_int_equal(atomic_load(&big.done), 0);
    receive_expect(f.rb, 24, 2, &b);
    receive_expect(f.rb, 8, 4, &c);
    assert_int_equal(rtipc_ringbuf_return(f.rb, b), RTIPC_OK); /* frees [28, 64): 44 fits after C */
    finish(&big, tb);
    finish(&small, ts);
    assert_int_equal(big.rc, RTIPC_OK);
    assert_int_equal(small.rc, RTIPC_OK);
    receive_expect(f.rb, 44, 3, &d);
    assert_int_equal(rtipc_ringbuf_return(f.rb, c), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_return(f.rb, d), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void one_return_that_frees_room_for_several_senders_wakes_them_all(void **state)
{
    (void)state;
    fixture_t f;
    void *a, *b;
    make_static(&f, 64, RTIPC_RINGBUF_NOSPLIT);
    assert_int_equal(send_seeded(f.rb, 24, 1, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(send_seeded(f.rb, 24, 2, RTIPC_NO_WAIT), RTIPC_OK);
    receive_expect(f.rb, 24, 1, &a);
    receive_expect(f.rb, 24, 2, &b);
    /* Nothing to receive, no room: a receiver and two senders wait. */
    waiter_t r = {.rb = f.rb, .timeout = RTIPC_FOREVER};
    waiter_t s1 = {.rb = f.rb, .timeout = RTIPC_FOREVER, .len = 8, .seed = 5};
    waiter_t s2 = {.rb = f.rb, .timeout = RTIPC_FOREVER, .len = 8, .seed = 6};
    rtipc_task_t *tr = start_waiter(&r, 6, test_core(1), receiver_task);
    rtipc_task_t *t1 = start_waiter(&s1, 5, test_core(1), sender_task);
    rtipc_task_t *t2 = start_waiter(&s2, 5, test_core(0), sender_task);
    assert_int_equal(rtipc_ringbuf_return(f.rb, a), RTIPC_OK); /* 28 free: room for both */
    finish(&s1, t1);
    finish(&s2, t2);
    finish(&r, tr);
    assert_int_equal(s1.rc, RTIPC_OK);
    assert_int_equal(s2.rc, RTIPC_OK);
    assert_int_equal(r.rc, RTIPC_OK);
    assert_int_equal(r.size, 8);
    assert_true(holds(r.item, 8, 5));
    void *c;
    receive_expect(f.rb, 8, 6, &c);
    assert_int_equal(rtipc_ringbuf_return(f.rb, b), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_return(f.rb, r.item), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_return(f.rb, c), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 0);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void receivers_are_served_by_priority(void **state)
{
    (void)state;
    fixture_t f;
    make_static(&f, 64, RTIPC_RINGBUF_NOSPLIT);
    waiter_t lo = {.rb = f.rb, .timeout = RTIPC_FOREVER};
    waiter_t hi = {.rb = f.rb, .timeout = RTIPC_FOREVER};
    rtipc_task_t *tl = start_waiter(&lo, 3, test_core(1), receiver_task);
    rtipc_task_t *th = start_waiter(&hi, 8, test_core(1), receiver_task);
    assert_int_equal(send_seeded(f.rb, 8, 1, RTIPC_NO_WAIT), RTIPC_OK);
    finish(&hi, th);
    assert_int_equal(atomic_load(&lo.done), 0);
    assert_int_equal(send_seeded(f.rb, 8, 2, RTIPC_NO_WAIT), RTIPC_OK);
    finish(&lo, tl);
    assert_true(holds(hi.item, 8, 1));
    assert_true(holds(lo.item, 8, 2));
    assert_int_equal(rtipc_ringbuf_return(f.rb, hi.item), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_return(f.rb, lo.item), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

/* ---- acquire / complete ------------------------------------------------------------------ */
static void acquired_items_are_received_in_acquisition_order_once_completed(void **state)
{
    (void)state;
    fixture_t f;
    void *a, *b, *c, *p;
    size_t n;
    make_static(&f, 128, RTIPC_RINGBUF_NOSPLIT);
    assert_int_equal(rtipc_ringbuf_acquire(f.rb, &a, 10, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_acquire(f.rb, &b, 7, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(send_seeded(f.rb, 5, 3, RTIPC_NO_WAIT), RTIPC_OK); /* copied, queued behind them */
    assert_int_equal(rtipc_ringbuf_acquire(f.rb, &c, 12, RTIPC_NO_WAIT), RTIPC_OK);
    assert_ptr_equal(a, base(&f) + 4);
    assert_ptr_equal(b, base(&f) + 20);
    assert_int_equal((uintptr_t)c % 4, 0);
    assert_int_equal(rtipc_ringbuf_items_waiting(f.rb), 1); /* only the copied one is complete */
    fill(a, 10, 1);
    fill(b, 7, 2);
    fill(c, 12, 4);
    assert_int_equal(rtipc_ringbuf_complete(f.rb, b), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_complete(f.rb, c), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_receive(f.rb, &p, &n, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK); /* A holds all */
    assert_int_equal(rtipc_ringbuf_complete(f.rb, a), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_items_waiting(f.rb), 4);
    void *x[4];
    receive_expect(f.rb, 10, 1, &x[0]);
    receive_expect(f.rb, 7, 2, &x[1]);
    receive_expect(f.rb, 5, 3, &x[2]);
    receive_expect(f.rb, 12, 4, &x[3]);
    assert_ptr_equal(x[0], a);
    assert_ptr_equal(x[1], b);
    assert_ptr_equal(x[3], c);
    assert_int_equal(rtipc_ringbuf_complete(f.rb, c), RTIPC_EINVAL); /* twice */
    for (int i = 0; i < 4; ++i)
        assert_int_equal(rtipc_ringbuf_return(f.rb, x[i]), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 0);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void complete_rejects_pointers_that_are_not_acquired(void **state)
{
    (void)state;
    fixture_t f;
    void *a, *p;
    int local;
    make_static(&f, 64, RTIPC_RINGBUF_NOSPLIT);
    assert_int_equal(rtipc_ringbuf_complete(f.rb, base(&f) + 4), RTIPC_EINVAL); /* nothing acquired */
    assert_int_equal(send_seeded(f.rb, 8, 1, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_acquire(f.rb, &a, 8, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_complete(NULL, a), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_complete(f.rb, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_complete(f.rb, &local), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_complete(f.rb, base(&f) + 4), RTIPC_EINVAL); /* the sent item */
    assert_int_equal(rtipc_ringbuf_complete(f.rb, (unsigned char *)a + 4), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_complete(f.rb, a), RTIPC_OK);
    receive_expect(f.rb, 8, 1, &p);
    assert_int_equal(rtipc_ringbuf_return(f.rb, p), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_receive(f.rb, &p, &(size_t){0}, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_return(f.rb, p), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void acquire_rejects_bad_sizes_and_waits_for_room(void **state)
{
    (void)state;
    fixture_t f;
    void *a, *p;
    make_static(&f, 64, RTIPC_RINGBUF_NOSPLIT);
    assert_int_equal(rtipc_ringbuf_acquire(NULL, &a, 8, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_acquire(f.rb, NULL, 8, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_acquire(f.rb, &a, 0, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_acquire(f.rb, &a, 61, RTIPC_FOREVER), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_acquire(f.rb, &a, 60, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_acquire(f.rb, &p, 1, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_ringbuf_acquire(f.rb, &p, 1, rtipc_ms(30)), RTIPC_ETIMEDOUT);
    assert_true(rtipc_time_ns() - t0 >= 30000000);
    fill(a, 60, 9);
    assert_int_equal(rtipc_ringbuf_complete(f.rb, a), RTIPC_OK);
    receive_expect(f.rb, 60, 9, &p);
    assert_int_equal(rtipc_ringbuf_return(f.rb, p), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void completion_that_releases_several_items_wakes_several_receivers(void **state)
{
    (void)state;
    fixture_t f;
    void *a;
    make_static(&f, 128, RTIPC_RINGBUF_NOSPLIT);
    waiter_t r[3];
    rtipc_task_t *t[3];
    for (int i = 0; i < 3; ++i) {
        r[i] = (waiter_t){.rb = f.rb, .timeout = RTIPC_FOREVER, .return_it = true};
        t[i] = start_waiter(&r[i], (unsigned)(4 + i), test_core(i % 2), receiver_task);
    }
    assert_int_equal(rtipc_ringbuf_acquire(f.rb, &a, 8, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(send_seeded(f.rb, 8, 1, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(send_seeded(f.rb, 8, 2, RTIPC_NO_WAIT), RTIPC_OK);
    sleep_ms(20);
    for (int i = 0; i < 3; ++i)
        assert_int_equal(atomic_load(&r[i].done), 0); /* all held back by the acquired item */
    fill(a, 8, 0);
    assert_int_equal(rtipc_ringbuf_complete(f.rb, a), RTIPC_OK);
    for (int i = 0; i < 3; ++i) {
        finish(&r[i], t[i]);
        assert_int_equal(r[i].rc, RTIPC_OK);
        assert_int_equal(r[i].size, 8);
    }
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 0);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

/* ---- allow-split ---------------------------------------------------------------------- */
static void allowsplit_item_wraps_in_two_parts_each_with_a_header(void **state)
{
    (void)state;
    fixture_t f;
    void *a, *b, *h, *t;
    size_t hn, tn;
    make_static(&f, 64, RTIPC_RINGBUF_ALLOWSPLIT);
    assert_int_equal(send_seeded(f.rb, 24, 1, RTIPC_NO_WAIT), RTIPC_OK); /* [0, 28) */
    assert_int_equal(send_seeded(f.rb, 24, 2, RTIPC_NO_WAIT), RTIPC_OK); /* [28, 56) */
    assert_int_equal(rtipc_ringbuf_receive_split(f.rb, &a, &hn, &t, &tn, RTIPC_NO_WAIT), RTIPC_OK);
    assert_null(t);
    assert_int_equal(tn, 0);
    assert_int_equal(rtipc_ringbuf_return(f.rb, a), RTIPC_OK);
    /* Free: 8 at the tail, 28 at the start: a split item takes up to 4 + 24. */
    assert_int_equal(rtipc_ringbuf_free_size(f.rb), 28);
    assert_int_equal(send_seeded(f.rb, 20, 3, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 28 + 8 + 20); /* two headers for C */
    assert_int_equal(rtipc_ringbuf_receive_split(f.rb, &b, &hn, &t, &tn, RTIPC_NO_WAIT), RTIPC_OK);
    assert_true(holds(b, 24, 2));
    assert_null(t);
    assert_int_equal(rtipc_ringbuf_receive_split(f.rb, &h, &hn, &t, &tn, RTIPC_NO_WAIT), RTIPC_OK);
    assert_ptr_equal(h, base(&f) + 60);
    assert_int_equal(hn, 4);
    assert_ptr_equal(t, base(&f) + 4);
    assert_int_equal(tn, 16);
    unsigned char joined[20];
    memcpy(joined, h, hn);
    memcpy(joined + hn, t, tn);
    assert_true(holds(joined, 20, 3));
    /* Parts are returned on their own; space comes back in order. */
    assert_int_equal(rtipc_ringbuf_return(f.rb, t), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 56);
    assert_int_equal(rtipc_ringbuf_return(f.rb, b), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 28);
    assert_int_equal(rtipc_ringbuf_return(f.rb, h), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 0);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void allowsplit_tail_of_only_a_header_becomes_a_dummy(void **state)
{
    (void)state;
    fixture_t f;
    void *a, *b, *c, *t;
    size_t n, tn;
    make_static(&f, 64, RTIPC_RINGBUF_ALLOWSPLIT);
    assert_int_equal(send_seeded(f.rb, 24, 1, RTIPC_NO_WAIT), RTIPC_OK); /* [0, 28) */
    assert_int_equal(send_seeded(f.rb, 28, 2, RTIPC_NO_WAIT), RTIPC_OK); /* [28, 60) */
    assert_int_equal(rtipc_ringbuf_receive_split(f.rb, &a, &n, &t, &tn, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_return(f.rb, a), RTIPC_OK);
    assert_int_equal(send_seeded(f.rb, 8, 3, RTIPC_NO_WAIT), RTIPC_OK); /* 4 left at the tail: no room for data */
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 32 + 4 + 12);
    assert_int_equal(rtipc_ringbuf_receive_split(f.rb, &b, &n, &t, &tn, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_receive_split(f.rb, &c, &n, &t, &tn, RTIPC_NO_WAIT), RTIPC_OK);
    assert_ptr_equal(c, base(&f) + 4);
    assert_int_equal(n, 8);
    assert_null(t);
    assert_int_equal(rtipc_ringbuf_return(f.rb, b), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_return(f.rb, c), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 0);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

/* ---- byte buffer ------------------------------------------------------------------------ */
static void bytebuf_sends_merge_into_one_stream(void **state)
{
    (void)state;
    fixture_t f;
    void *p;
    size_t n;
    make_static(&f, 64, RTIPC_RINGBUF_BYTEBUF);
    assert_int_equal(rtipc_ringbuf_send(f.rb, "hello", 5, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_send(f.rb, "world!", 6, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_items_waiting(f.rb), 11); /* bytes, for a byte buffer */
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 11);    /* no headers */
    assert_int_equal(rtipc_ringbuf_receive(f.rb, &p, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, 11);
    assert_memory_equal(p, "helloworld!", 11);
    assert_ptr_equal(p, base(&f));
    assert_int_equal(rtipc_ringbuf_items_waiting(f.rb), 0);
    assert_int_equal(rtipc_ringbuf_return(f.rb, p), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 0);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void bytebuf_receive_up_to_gives_at_most_n_and_one_read_at_a_time(void **state)
{
    (void)state;
    fixture_t f;
    void *p, *q;
    size_t n;
    make_static(&f, 64, RTIPC_RINGBUF_BYTEBUF);
    assert_int_equal(send_seeded(f.rb, 20, 1, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_receive_up_to(f.rb, &p, &n, 0, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_receive_up_to(f.rb, &p, &n, 8, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, 8);
    assert_true(holds(p, 8, 1));
    assert_int_equal(rtipc_ringbuf_receive_up_to(f.rb, &q, &n, 8, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_ringbuf_receive_up_to_from_isr(f.rb, &q, &n, 8), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_ringbuf_return(f.rb, (unsigned char *)p + 1), RTIPC_EINVAL);
    assert_int_equal(rtipc_ringbuf_return(f.rb, p), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_return(f.rb, p), RTIPC_EINVAL); /* nothing out */
    assert_int_equal(rtipc_ringbuf_receive_up_to(f.rb, &q, &n, 100, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, 12);
    unsigned char expect[20];
    fill(expect, 20, 1);
    assert_memory_equal(q, expect + 8, 12);
    assert_int_equal(rtipc_ringbuf_return(f.rb, q), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void bytebuf_data_that_wraps_takes_two_receives(void **state)
{
    (void)state;
    fixture_t f;
    void *p;
    size_t n;
    make_static(&f, 16, RTIPC_RINGBUF_BYTEBUF);
    assert_int_equal(rtipc_ringbuf_send(f.rb, "0123456789", 10, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_receive_up_to(f.rb, &p, &n, 6, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_return(f.rb, p), RTIPC_OK); /* 4 left at [6, 10) */
    assert_int_equal(rtipc_ringbuf_free_size(f.rb), 12);
    assert_int_equal(rtipc_ringbuf_send(f.rb, "abcdefghijkl", 13, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_ringbuf_send(f.rb, "abcdefghij", 10, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_receive(f.rb, &p, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, 10);
    assert_memory_equal(p, "6789abcdef", 10);
    assert_int_equal(rtipc_ringbuf_return(f.rb, p), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_receive(f.rb, &p, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_ptr_equal(p, base(&f));
    assert_int_equal(n, 4);
    assert_memory_equal(p, "ghij", 4);
    assert_int_equal(rtipc_ringbuf_return(f.rb, p), RTIPC_OK);
    /* The whole capacity is one item's worth; one more byte is too many. */
    assert_int_equal(rtipc_ringbuf_max_item_size(f.rb), 16);
    assert_int_equal(send_seeded(f.rb, 17, 1, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(send_seeded(f.rb, 16, 1, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(send_seeded(f.rb, 1, 1, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void bytebuf_receiver_waiting_behind_a_read_gets_the_rest_when_it_is_returned(void **state)
{
    (void)state;
    fixture_t f;
    void *p;
    size_t n;
    make_static(&f, 64, RTIPC_RINGBUF_BYTEBUF);
    assert_int_equal(rtipc_ringbuf_send(f.rb, "xy", 2, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_receive_up_to(f.rb, &p, &n, 1, RTIPC_NO_WAIT), RTIPC_OK);
    waiter_t w = {.rb = f.rb, .timeout = RTIPC_FOREVER};
    rtipc_task_t *t = start_waiter(&w, 5, test_core(1), receiver_task);
    assert_int_equal(atomic_load(&w.done), 0); /* data is there, but a read is out */
    assert_int_equal(rtipc_ringbuf_return(f.rb, p), RTIPC_OK);
    finish(&w, t);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_int_equal(w.size, 1);
    assert_memory_equal(w.item, "y", 1);
    assert_int_equal(rtipc_ringbuf_return(f.rb, w.item), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

/* ---- a model check of the layout: random operations, exact free size ---------- */
typedef struct {
    unsigned seq;
    size_t len;
    bool complete;
    void *acq; /* acquired pointer while incomplete */
} model_item_t;

typedef struct {
    void *part[2];
} held_t;

static unsigned lcg(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xffffffu;
}

/* Item types: every send of free_size succeeds and free_size + 1 fails;
 * items come out whole, in order, with their bytes; space is all back at the
 * end. */
static void run_item_model(rtipc_ringbuf_type_t type, size_t size, unsigned seed, int steps)
{
    fixture_t f;
    make_static(&f, size, type);
    model_item_t q[256];
    int qh = 0, qn = 0; /* FIFO of stored, unreceived items */
    held_t held[8];
    int nheld = 0;
    unsigned next_seq = 0;
    int max = rtipc_ringbuf_max_item_size(f.rb);
    unsigned char buf[512];
    for (int step = 0; step < steps; ++step) {
        unsigned op = lcg(&seed) % 12;
        int fr = rtipc_ringbuf_free_size(f.rb);
        assert_true(fr >= 0 && fr <= max);
        if (op < 4 && qn < 256) {
            size_t len;
            unsigned pick = lcg(&seed) % 3;
            len = pick == 0 ? (size_t)fr : pick == 1 ? (size_t)fr + 1 : 1 + lcg(&seed) % (unsigned)max;
            if (len == 0 || len > (size_t)max)
                continue;
            bool acquire = type == RTIPC_RINGBUF_NOSPLIT && lcg(&seed) % 3 == 0;
            int rc;
            void *a = NULL;
            if (acquire) {
                rc = rtipc_ringbuf_acquire(f.rb, &a, len, RTIPC_NO_WAIT);
                if (rc == RTIPC_OK)
                    fill(a, len, next_seq);
            } else {
                fill(buf, len, next_seq);
                rc = rtipc_ringbuf_send(f.rb, buf, len, RTIPC_NO_WAIT);
            }
            assert_int_equal(rc, len <= (size_t)fr ? RTIPC_OK : RTIPC_EWOULDBLOCK);
            if (rc == RTIPC_OK)
                q[(qh + qn++) % 256] = (model_item_t){next_seq++, len, !acquire, a};
        } else if (op < 5) {
            /* Complete a random incomplete item. */
            for (int k = 0; k < qn; ++k) {
                model_item_t *m = &q[(qh + k) % 256];
                if (!m->complete && lcg(&seed) % 2 == 0) {
                    assert_int_equal(rtipc_ringbuf_complete(f.rb, m->acq), RTIPC_OK);
                    m->complete = true;
                    break;
                }
            }
        } else if (op < 8 && nheld < 8) {
            void *h, *t;
            size_t hn, tn;
            int rc = rtipc_ringbuf_receive_split(f.rb, &h, &hn, &t, &tn, RTIPC_NO_WAIT);
            bool expect = qn > 0 && q[qh].complete;
            assert_int_equal(rc, expect ? RTIPC_OK : RTIPC_EWOULDBLOCK);
            if (rc != RTIPC_OK)
                continue;
            model_item_t *m = &q[qh];
            assert_int_equal(hn + tn, m->len);
            assert_int_equal((uintptr_t)h % 4, 0);
            if (type == RTIPC_RINGBUF_NOSPLIT)
                assert_null(t);
            memcpy(buf, h, hn);
            if (tn)
                memcpy(buf + hn, t, tn);
            assert_true(holds(buf, m->len, m->seq));
            qh = (qh + 1) % 256;
            --qn;
            held[nheld++] = (held_t){{h, t}};
        } else if (nheld > 0) {
            /* Return one part of a random held item (out of order). */
            int k = (int)(lcg(&seed) % (unsigned)nheld);
            int part = held[k].part[1] && lcg(&seed) % 2 ? 1 : 0;
            assert_int_equal(rtipc_ringbuf_return(f.rb, held[k].part[part]), RTIPC_OK);
            held[k].part[part] = NULL;
            if (!held[k].part[0] && !held[k].part[1])
                held[k] = held[--nheld];
            else if (!held[k].part[0]) {
                held[k].part[0] = held[k].part[1];
                held[k].part[1] = NULL;
            }
        }
        int complete = 0;
        for (int k = 0; k < qn; ++k)
            complete += q[(qh + k) % 256].complete;
        assert_int_equal(rtipc_ringbuf_items_waiting(f.rb), complete);
        int used = rtipc_ringbuf_bytes_used(f.rb);
        assert_true(used >= 0 && (size_t)used <= size);
    }
    /* Drain: complete, receive and return everything. */
    for (int k = 0; k < qn; ++k)
        if (!q[(qh + k) % 256].complete)
            assert_int_equal(rtipc_ringbuf_complete(f.rb, q[(qh + k) % 256].acq), RTIPC_OK);
    for (int k = 0; k < nheld; ++k)
        for (int p = 0; p < 2; ++p)
            if (held[k].part[p])
                assert_int_equal(rtipc_ringbuf_return(f.rb, held[k].part[p]), RTIPC_OK);
    for (; qn > 0; --qn) {
        void *h, *t;
        size_t hn, tn;
        assert_int_equal(rtipc_ringbuf_receive_split(f.rb, &h, &hn, &t, &tn, RTIPC_NO_WAIT), RTIPC_OK);
        assert_int_equal(hn + tn, q[qh].len);
        qh = (qh + 1) % 256;
        assert_int_equal(rtipc_ringbuf_return(f.rb, h), RTIPC_OK);
        if (t)
            assert_int_equal(rtipc_ringbuf_return(f.rb, t), RTIPC_OK);
    }
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 0);
    assert_int_equal(rtipc_ringbuf_free_size(f.rb), max);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void nosplit_layout_matches_a_model_under_random_operations(void **state)
{
    (void)state;
    run_item_model(RTIPC_RINGBUF_NOSPLIT, 64, 1, 20000);
    run_item_model(RTIPC_RINGBUF_NOSPLIT, 100, 2, 20000);
    run_item_model(RTIPC_RINGBUF_NOSPLIT, 256, 3, 20000);
}

static void allowsplit_layout_matches_a_model_under_random_operations(void **state)
{
    (void)state;
    run_item_model(RTIPC_RINGBUF_ALLOWSPLIT, 64, 4, 20000);
    run_item_model(RTIPC_RINGBUF_ALLOWSPLIT, 100, 5, 20000);
    run_item_model(RTIPC_RINGBUF_ALLOWSPLIT, 256, 6, 20000);
}

static unsigned char stream_byte(unsigned long i) { return (unsigned char)(i * 2654435761u >> 13); }

static void bytebuf_stream_matches_a_model_under_random_operations(void **state)
{
    (void)state;
    unsigned sizes[3] = {1, 17, 200};
    for (int s = 0; s < 3; ++s) {
        fixture_t f;
        make_static(&f, sizes[s], RTIPC_RINGBUF_BYTEBUF);
        unsigned seed = 7 + (unsigned)s;
        unsigned long sent = 0, freed = 0; /* stream bytes sent; bytes received and returned */
        void *out = NULL;                  /* the read that is out, if any */
        size_t out_n = 0;
        unsigned char buf[256];
        for (int step = 0; step < 20000; ++step) {
            int fr = rtipc_ringbuf_free_size(f.rb);
            assert_int_equal(fr, (int)(sizes[s] - (sent - freed)));
            assert_int_equal(rtipc_ringbuf_items_waiting(f.rb), (int)(sent - freed - out_n));
            unsigned op = lcg(&seed) % 3;
            if (op == 0) {
                size_t len = 1 + lcg(&seed) % sizes[s];
                for (size_t i = 0; i < len; ++i)
                    buf[i] = stream_byte(sent + i);
                int rc = rtipc_ringbuf_send(f.rb, buf, len, RTIPC_NO_WAIT);
                assert_int_equal(rc, len <= (size_t)fr ? RTIPC_OK : RTIPC_EWOULDBLOCK);
                if (rc == RTIPC_OK)
                    sent += len;
            } else if (op == 1 && !out) {
                size_t n, max = 1 + lcg(&seed) % (sizes[s] + 4);
                int rc = rtipc_ringbuf_receive_up_to(f.rb, &out, &n, max, RTIPC_NO_WAIT);
                assert_int_equal(rc, sent > freed ? RTIPC_OK : RTIPC_EWOULDBLOCK);
                if (rc != RTIPC_OK) {
                    out = NULL;
                    continue;
                }
                assert_true(n >= 1 && n <= max && n <= sent - freed);
                for (size_t i = 0; i < n; ++i)
                    assert_int_equal(((unsigned char *)out)[i], stream_byte(freed + i));
                out_n = n;
            } else if (op == 2 && out) {
                assert_int_equal(rtipc_ringbuf_return(f.rb, out), RTIPC_OK);
                out = NULL;
                freed += out_n;
                out_n = 0;
            }
        }
        if (out)
            assert_int_equal(rtipc_ringbuf_return(f.rb, out), RTIPC_OK);
        assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
    }
}

/* ---- context ------------------------------------------------------------------------------ */
static void task_only_calls_fail_in_interrupt_context(void **state)
{
    (void)state;
    fixture_t f;
    void *p = NULL, *q;
    size_t n, m;
    make_static(&f, 64, RTIPC_RINGBUF_NOSPLIT);
    assert_int_equal(send_seeded(f.rb, 8, 1, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_receive(f.rb, &p, &n, RTIPC_NO_WAIT), RTIPC_OK);
    int rc[9];
    unsigned char x = 0;
    rtipc_ringbuf_t *other;
    enter_interrupt_context();
    rc[0] = rtipc_ringbuf_create(64, RTIPC_RINGBUF_NOSPLIT, &other);
    rc[1] = rtipc_ringbuf_delete(f.rb);
    rc[2] = rtipc_ringbuf_send(f.rb, &x, 1, RTIPC_NO_WAIT);
    rc[3] = rtipc_ringbuf_acquire(f.rb, &q, 1, RTIPC_NO_WAIT);
    rc[4] = rtipc_ringbuf_complete(f.rb, p);
    rc[5] = rtipc_ringbuf_receive(f.rb, &q, &n, RTIPC_NO_WAIT);
    rc[6] = rtipc_ringbuf_receive_split(f.rb, &q, &n, &q, &m, RTIPC_NO_WAIT);
    rc[7] = rtipc_ringbuf_receive_up_to(f.rb, &q, &n, 4, RTIPC_NO_WAIT);
    rc[8] = rtipc_ringbuf_return(f.rb, p);
    int free_size = rtipc_ringbuf_free_size(f.rb);
    leave_interrupt_context();
    for (int i = 0; i < 9; ++i)
        assert_int_equal(rc[i], RTIPC_ECONTEXT);
    assert_int_equal(free_size, rtipc_ringbuf_free_size(f.rb)); /* queries work anywhere */
    assert_int_equal(rtipc_ringbuf_return(f.rb, p), RTIPC_OK); /* still out: nothing happened */
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

/* ---- interrupt-safe calls from a real handler ------------------------------------------------ */
typedef struct {
    rtipc_ringbuf_t *ns, *as, *bb;
    int rc[24];
    size_t got_n, split_n[2], bytes_n;
    bool got_ok, split_ok, bytes_ok;
    bool woken;
    _Atomic int ran;
} isr_probe_t;

static void isr_calls_handler(void *arg)
{
    isr_probe_t *p = arg;
    unsigned char data[60];
    void *item, *h, *t;
    size_t n, hn, tn;
    bool woken = true; /* set-only: nothing below may clear it */
    fill(data, sizeof data, 21);
    p->rc[0] = rtipc_ringbuf_send_from_isr(p->ns, data, 40, &woken);
    p->rc[1] = rtipc_ringbuf_send_from_isr(p->ns, data, 40, &woken); /* no room */
    p->rc[2] = rtipc_ringbuf_send_from_isr(p->ns, data, 0, &woken);
    p->rc[3] = rtipc_ringbuf_receive_from_isr(p->ns, &item, &n);
    p->got_ok = p->rc[3] == RTIPC_OK && n == 40 && holds(item, 40, 21);
    p->rc[4] = rtipc_ringbuf_receive_from_isr(p->ns, &h, &n); /* empty */
    p->rc[5] = rtipc_ringbuf_return_from_isr(p->ns, item, &woken);
    p->rc[6] = rtipc_ringbuf_return_from_isr(p->ns, item, &woken); /* twice */
    p->rc[7] = rtipc_ringbuf_send_from_isr(p->as, data, 30, NULL);
    p->rc[8] = rtipc_ringbuf_receive_split_from_isr(p->as, &h, &hn, &t, &tn);
    p->split_ok = p->rc[8] == RTIPC_OK && hn == 30 && t == NULL && holds(h, 30, 21);
    p->rc[9] = rtipc_ringbuf_return_from_isr(p->as, h, NULL);
    p->rc[10] = rtipc_ringbuf_receive_split_from_isr(p->as, &h, &hn, &t, &tn); /* empty */
    p->rc[11] = rtipc_ringbuf_receive_from_isr(p->as, &h, &hn);                /* wrong type */
    p->rc[12] = rtipc_ringbuf_send_from_isr(p->bb, data, 20, &woken);
    p->rc[13] = rtipc_ringbuf_receive_up_to_from_isr(p->bb, &item, &n, 8);
    p->bytes_ok = p->rc[13] == RTIPC_OK && n == 8 && holds(item, 8, 21);
    p->rc[14] = rtipc_ringbuf_receive_up_to_from_isr(p->bb, &h, &n, 8); /* read out */
    p->rc[15] = rtipc_ringbuf_return_from_isr(p->bb, item, &woken);
    p->rc[16] = rtipc_ringbuf_receive_up_to_from_isr(p->bb, &h, &n, 0);
    p->rc[17] = rtipc_ringbuf_receive_split_from_isr(p->bb, &h, &hn, &t, &tn);
    /* Task-only calls refuse the handler. */
    rtipc_ringbuf_t *other;
    p->rc[18] = rtipc_ringbuf_send(p->ns, data, 4, RTIPC_NO_WAIT);
    p->rc[19] = rtipc_ringbuf_receive(p->bb, &h, &n, rtipc_ms(10));
    p->rc[20] = rtipc_ringbuf_acquire(p->ns, &h, 4, RTIPC_FOREVER);
    p->rc[21] = rtipc_ringbuf_return(p->bb, item);
    p->rc[22] = rtipc_ringbuf_create(64, RTIPC_RINGBUF_BYTEBUF, &other);
    p->rc[23] = rtipc_ringbuf_delete(p->bb);
    p->woken = woken;
    atomic_store(&p->ran, 1);
}

static void interrupt_safe_calls_work_in_a_handler_and_never_block(void **state)
{
    (void)state;
    isr_probe_t p = {0};
    assert_int_equal(rtipc_ringbuf_create(64, RTIPC_RINGBUF_NOSPLIT, &p.ns), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_create(64, RTIPC_RINGBUF_ALLOWSPLIT, &p.as), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_create(64, RTIPC_RINGBUF_BYTEBUF, &p.bb), RTIPC_OK);
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(irq_core(), isr_calls_handler, &p, &irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
    assert_true(wait_for_flag((volatile int *)&p.ran, 1, 2000));
    const int want[24] = {RTIPC_OK,          RTIPC_EWOULDBLOCK, RTIPC_EINVAL,      RTIPC_OK,
                          RTIPC_EWOULDBLOCK, RTIPC_OK,          RTIPC_EINVAL,      RTIPC_OK,
                          RTIPC_OK,          RTIPC_OK,          RTIPC_EWOULDBLOCK, RTIPC_ENOTSUP,
                          RTIPC_OK,          RTIPC_OK,          RTIPC_EWOULDBLOCK, RTIPC_OK,
                          RTIPC_EINVAL,      RTIPC_ENOTSUP,     RTIPC_ECONTEXT,    RTIPC_ECONTEXT,
                          RTIPC_ECONTEXT,    RTIPC_ECONTEXT,    RTIPC_ECONTEXT,    RTIPC_ECONTEXT};
    for (int i = 0; i < 24; ++i) {
        if (p.rc[i] != want[i])
            fail_msg("handler call %d returned %d, expected %d", i, p.rc[i], want[i]);
    }
    assert_true(p.got_ok);
    assert_true(p.split_ok);
    assert_true(p.bytes_ok);
    assert_true(p.woken);
    assert_int_equal(rtipc_ringbuf_items_waiting(p.bb), 12); /* 20 sent, 8 read and returned */
    assert_int_equal(rtipc_ringbuf_bytes_used(p.ns), 0);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(p.ns), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(p.as), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(p.bb), RTIPC_OK);
}

/* A handler that sends to, or returns an item of, a ring buffer a task waits on. */
typedef struct {
    rtipc_ringbuf_t *rb;
    void *item;  /* to return (NULL: send) */
    int rc;
    bool woken;
    _Atomic int ran;
} isr_wake_t;

static void isr_wake_handler(void *arg)
{
    isr_wake_t *h = arg;
    unsigned char data[8];
    fill(data, sizeof data, 33);
    h->woken = false;
    if (h->item)
        h->rc = rtipc_ringbuf_return_from_isr(h->rb, h->item, &h->woken);
    else
        h->rc = rtipc_ringbuf_send_from_isr(h->rb, data, sizeof data, &h->woken);
    rtipc_irq_yield(h->woken);
    atomic_store(&h->ran, 1);
}

static void run_isr_wake(isr_wake_t *h, waiter_t *w, rtipc_task_fn fn)
{
    rtipc_task_t *t = start_waiter(w, 10, irq_core(), fn);
    assert_int_equal(atomic_load(&w->done), 0);
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(irq_core(), isr_wake_handler, h, &irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
    assert_true(wait_for_flag((volatile int *)&h->ran, 1, 2000));
    finish(w, t);
    assert_int_equal(h->rc, RTIPC_OK);
    assert_true(h->woken); /* the waiter outranks the idle core */
    assert_int_equal(w->rc, RTIPC_OK);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
}

static void send_from_a_handler_wakes_a_waiting_receiver(void **state)
{
    (void)state;
    fixture_t f;
    make_static(&f, 64, RTIPC_RINGBUF_NOSPLIT);
    isr_wake_t h = {.rb = f.rb};
    waiter_t w = {.rb = f.rb, .timeout = rtipc_ms(5000), .return_it = true};
    run_isr_wake(&h, &w, receiver_task);
    assert_int_equal(w.size, 8);
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 0);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void return_from_a_handler_wakes_a_waiting_sender(void **state)
{
    (void)state;
    fixture_t f;
    void *p;
    make_static(&f, 64, RTIPC_RINGBUF_NOSPLIT);
    assert_int_equal(send_seeded(f.rb, 50, 1, RTIPC_NO_WAIT), RTIPC_OK);
    receive_expect(f.rb, 50, 1, &p);
    isr_wake_t h = {.rb = f.rb, .item = p};
    waiter_t w = {.rb = f.rb, .timeout = rtipc_ms(5000), .len = 50, .seed = 2};
    run_isr_wake(&h, &w, sender_task);
    receive_expect(f.rb, 50, 2, &p);
    assert_int_equal(rtipc_ringbuf_return(f.rb, p), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

static void bytebuf_return_from_a_handler_wakes_a_receiver_behind_the_read(void **state)
{
    (void)state;
    fixture_t f;
    void *p;
    size_t n;
    make_static(&f, 64, RTIPC_RINGBUF_BYTEBUF);
    assert_int_equal(rtipc_ringbuf_send(f.rb, "ab", 2, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_ringbuf_receive_up_to(f.rb, &p, &n, 1, RTIPC_NO_WAIT), RTIPC_OK);
    isr_wake_t h = {.rb = f.rb, .item = p};
    waiter_t w = {.rb = f.rb, .timeout = rtipc_ms(5000), .return_it = true};
    run_isr_wake(&h, &w, receiver_task);
    assert_int_equal(w.size, 1);
    assert_int_equal(rtipc_ringbuf_bytes_used(f.rb), 0);
    assert_int_equal(rtipc_ringbuf_delete(f.rb), RTIPC_OK);
}

/* The table at file scope: main only pins itself and runs it. */
static const struct CMUnitTest tests[] = {
    cmocka_unit_test(create_rejects_invalid_arguments),
    cmocka_unit_test(create_and_delete_are_task_only_static_creation_per_port),
    cmocka_unit_test(dynamic_size_rounds_up_and_footprint_counts_block_and_storage),
    cmocka_unit_test(static_ring_buffer_stores_items_in_caller_storage),
    cmocka_unit_test(delete_refuses_while_items_are_out_or_tasks_wait),
    cmocka_unit_test(nosplit_items_come_out_in_place_in_order_with_header_and_padding),
    cmocka_unit_test(nosplit_item_that_does_not_fit_the_tail_leaves_a_dummy_and_goes_to_the_start),
    cmocka_unit_test(empty_buffer_starts_over_so_the_largest_item_always_fits),
    cmocka_unit_test(returning_out_of_order_frees_space_only_in_order),
    cmocka_unit_test(return_rejects_pointers_that_are_not_out),
    cmocka_unit_test(send_and_receive_reject_invalid_arguments),
    cmocka_unit_test(calls_of_another_type_are_not_supported),
    cmocka_unit_test(send_to_a_full_buffer_would_block_or_times_out),
    cmocka_unit_test(receive_from_an_empty_buffer_would_block_or_times_out),
    cmocka_unit_test(waiting_receiver_gets_the_item_sent),
    cmocka_unit_test(waiting_sender_proceeds_when_a_return_frees_room),
    cmocka_unit_test(waiting_sender_whose_item_fits_goes_before_a_larger_one),
    cmocka_unit_test(one_return_that_frees_room_for_several_senders_wakes_them_all),
    cmocka_unit_test(receivers_are_served_by_priority),
    cmocka_unit_test(acquired_items_are_received_in_acquisition_order_once_completed),
    cmocka_unit_test(complete_rejects_pointers_that_are_not_acquired),
    cmocka_unit_test(acquire_rejects_bad_sizes_and_waits_for_room),
    cmocka_unit_test(completion_that_releases_several_items_wakes_several_receivers),
    cmocka_unit_test(allowsplit_item_wraps_in_two_parts_each_with_a_header),
    cmocka_unit_test(allowsplit_tail_of_only_a_header_becomes_a_dummy),
    cmocka_unit_test(bytebuf_sends_merge_into_one_stream),
    cmocka_unit_test(bytebuf_receive_up_to_gives_at_most_n_and_one_read_at_a_time),
    cmocka_unit_test(bytebuf_data_that_wraps_takes_two_receives),
    cmocka_unit_test(bytebuf_receiver_waiting_behind_a_read_gets_the_rest_when_it_is_returned),
    cmocka_unit_test(nosplit_layout_matches_a_model_under_random_operations),
    cmocka_unit_test(allowsplit_layout_matches_a_model_under_random_operations),
    cmocka_unit_test(bytebuf_stream_matches_a_model_under_random_operations),
    cmocka_unit_test(task_only_calls_fail_in_interrupt_context),
    cmocka_unit_test(interrupt_safe_calls_work_in_a_handler_and_never_block),
    cmocka_unit_test(send_from_a_handler_wakes_a_waiting_receiver),
    cmocka_unit_test(return_from_a_handler_wakes_a_waiting_sender),
    cmocka_unit_test(bytebuf_return_from_a_handler_wakes_a_receiver_behind_the_read),
};

int main(void)
{
    pin_main_to_core0();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
