/* Unit tests of include/rtipc/spsc.h: every return path of every call, FIFO
 * order across the storage edge and the index wrap-around, bulk transfers,
 * the park handshake (every waking call wakes a parked peer, the sleeping
 * flag is cleared again so the fast path stays lock-free), interrupt-context
 * calls in real handlers, and the control block's layout.
 *
 * Worker tasks never assert: they record what they saw in a worker_t and
 * publish it with a release store of `done`; the main thread asserts after
 * an acquire load of `done` or after joining. Some tests look inside the
 * control block (spsc_internal.h) to check the layout and the flags. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../src/common/spsc_internal.h"
#include "rtipc/spsc.h"
#include "../../src/common/handle.h"
#include "test_support.h"

/* ---- allocation failure injection (alloc_fail.h) ---- */
#include "alloc_fail.h"

/* ---- timing ------------------------------------------------------------------ */
#define PROMPT_MS 5000  /* "at once", generously: other programs may keep a core busy */
#define SLACK_MS 300    /* allowed above a requested timeout on a busy machine */
#define SETTLE_MS 20    /* after a worker is seen asleep, before acting */
#define LONG_MS 20000   /* a timeout the test never means to reach */

typedef struct {
    uint32_t seq;
    uint32_t check;
} item_t;

static item_t mk(uint32_t seq) { return (item_t){seq, ~seq * 2654435761u}; }
static int is_item(item_t it, uint32_t seq) { return it.seq == seq && it.check == ~seq * 2654435761u; }

static rtipc_spsc_t *new_ring(size_t capacity)
{
    rtipc_spsc_t *r = NULL;
    assert_int_equal(rtipc_spsc_create(capacity, sizeof(item_t), &r), RTIPC_OK);
    assert_non_null(r);
    return r;
}

static void push_seq(rtipc_spsc_t *r, uint32_t seq)
{
    item_t it = mk(seq);
    assert_int_equal(rtipc_spsc_try_push(r, &it), RTIPC_OK);
}

static uint32_t pop_seq(rtipc_spsc_t *r)
{
    item_t it = {0, 0};
    assert_int_equal(rtipc_spsc_try_pop(r, &it), RTIPC_OK);
    assert_true(is_item(it, it.seq));
    return it.seq;
}

static uint32_t sleeping_flag(rtipc_spsc_t *r, int side)
{
    struct rtipc__spsc *in = rtipc__spsc_of(r);
    if (!in)
        abort(); /* not a live ring: the caller's bug */
    return atomic_load(&in->sleeping[side]);
}

/* ---- workers -------------------------------------------------------------------- */
enum op { OP_PUSH, OP_POP };

typedef struct {
    rtipc_spsc_t *r;
    enum op op;
    uint32_t value;
    rtipc_timeout_t timeout;
    int tid;
    int started;
    int done;
    int rc;
    item_t got;
    int64_t elapsed_ns;
    int seen_blocked; /* set by the main thread */
} worker_t;

static worker_t make_worker(rtipc_spsc_t *r, enum op op, uint32_t value, rtipc_timeout_t timeout)
{
    /* rc 1 is not an rtipc result: a worker that never ran cannot pass. */
    return (worker_t){.r = r, .op = op, .value = value, .timeout = timeout, .rc = 1};
}

static void worker(void *arg)
{
    worker_t *w = arg;
    w->tid = (int)syscall(SYS_gettid);
    __atomic_store_n(&w->started, 1, __ATOMIC_RELEASE);
    int64_t t0 = rtipc_time_ns();
    item_t it = mk(w->value);
    int rc = w->op == OP_PUSH ? rtipc_spsc_push(w->r, &it, w->timeout) : rtipc_spsc_pop(w->r, &w->got, w->timeout);
    w->elapsed_ns = rtipc_time_ns() - t0;
    w->rc = rc;
    __atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
}

static int is_done(worker_t *w) { return __atomic_load_n(&w->done, __ATOMIC_ACQUIRE); }

/* Start a worker on @p core and wait until it is parked in its call: it said
 * it is about to call, and its thread is asleep (the only place it can sleep
 * is the park). Sets w->seen_blocked; tests assert it after joining. */
static rtipc_task_t *start_worker_on(const char *name, unsigned priority, int core, worker_t *w)
{
    rtipc_task_t *t = start_task(name, priority, core, worker, w);
    w->seen_blocked = test_wait_parked(&w->started, &w->done, &w->tid, PROMPT_MS, SETTLE_MS, SETTLE_MS);
    return t;
}

static rtipc_task_t *start_worker(const char *name, worker_t *w)
{
    return start_worker_on(name, 3, test_core(1), w);
}

/* ======================================================================== */
/* allocation failure (first: adoption fails only while the task pool is    */
/* empty, i.e. before any task has been joined)                             */
/* ======================================================================== */
#if CAN_FAIL_ALLOC
typedef struct {
    rtipc_spsc_t *r;
    int rc_pop_must_wait, rc_push_must_wait, rc_need_not_wait;
} foreign_t;

/* A plain pthread (not an rtipc task) whose adoption cannot allocate. */
static void *foreign_thread(void *arg)
{
    foreign_t *f = arg;
    item_t it = mk(5);
    set_fail_alloc(1);
    f->rc_pop_must_wait = rtipc_spsc_pop(f->r, &it, rtipc_ms(20));
    f->rc_need_not_wait = rtipc_spsc_push(f->r, &it, rtipc_ms(20)); /* room: no task needed */
    f->rc_push_must_wait = rtipc_spsc_push(f->r, &it, rtipc_ms(20)); /* full (capacity 1) */
    set_fail_alloc(0);
    return NULL;
}
#endif

static void blocking_calls_from_a_thread_that_cannot_be_adopted_fail_with_nomem(void **state)
{
    SKIP_ON_FREERTOS("a thread rtipc did not create");
    (void)state;
#if CAN_FAIL_ALLOC
    foreign_t f = {0};
    f.r = new_ring(1);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, foreign_thread, &f), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_int_equal(f.rc_pop_must_wait, RTIPC_ENOMEM);
    assert_int_equal(f.rc_need_not_wait, RTIPC_OK);
    assert_int_equal(f.rc_push_must_wait, RTIPC_ENOMEM);
    /* Nobody was left announced as sleeping. */
    assert_int_equal(sleeping_flag(f.r, RTIPC__SPSC_CONSUMER), 0);
    assert_int_equal(sleeping_flag(f.r, RTIPC__SPSC_PRODUCER), 0);
    assert_int_equal(rtipc_spsc_size(f.r), 1);
    assert_int_equal(rtipc_spsc_delete(f.r), RTIPC_OK);
#else
    printf("[  NOTE    ] allocation failure cannot be injected under a sanitizer\n");
    skip();
#endif
}

/* Creates (and at once deletes) the largest valid ring; its result. */
static int create_largest_ring(void *unused)
{
    (void)unused;
    rtipc_spsc_t *r = NULL;
    int rc = rtipc_spsc_create(1, UINT32_MAX, &r);
    if (rc == RTIPC_OK)
        rtipc_spsc_delete(r);
    return rc;
}

static void create_fails_with_nomem_when_memory_is_exhausted(void **state)
{
    SKIP_ON_FREERTOS("an address-space limit");
    (void)state;
    /* Cap the address space a little above what is mapped now, then ask for
     * the largest valid ring (UINT32_MAX bytes of storage). */
    assert_int_equal(with_address_space_capped(create_largest_ring, NULL), RTIPC_ENOMEM);
    /* The shape itself is valid: the refusal was about memory. */
    assert_true(rtipc_spsc_footprint_for(1, UINT32_MAX) > UINT32_MAX);
}

/* ======================================================================== */
/* creation and deletion                                                     */
/* ======================================================================== */
static void create_gives_an_empty_ring_of_the_requested_capacity(void **state)
{
    (void)state;
    rtipc_spsc_t *r = new_ring(8);
    assert_int_equal(rtipc_spsc_capacity(r), 8);
    assert_int_equal(rtipc_spsc_size(r), 0);
    item_t it;
    assert_int_equal(rtipc_spsc_try_pop(r, &it), RTIPC_EWOULDBLOCK);
    assert_int_equal((uintptr_t)r % 64, 0);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
    /* The extremes of the shape are accepted. */
    assert_int_equal(rtipc_spsc_create(1, 1, &r), RTIPC_OK);
    assert_int_equal(rtipc_spsc_capacity(r), 1);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
    assert_true(rtipc_spsc_footprint_for(RTIPC_SPSC_MAX_CAPACITY, 1) > 0);
}

static void create_with_an_invalid_shape_is_invalid(void **state)
{
    (void)state;
    rtipc_spsc_t *r = (rtipc_spsc_t *)(uintptr_t)1;
    assert_int_equal(rtipc_spsc_create(8, 4, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_create(0, 4, &r), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_create(3, 4, &r), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_create(12, 4, &r), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_create((size_t)RTIPC_SPSC_MAX_CAPACITY * 2, 1, &r), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_create(8, 0, &r), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_create(1u << 20, 1u << 12, &r), RTIPC_EINVAL); /* 2^32 bytes */
    assert_int_equal(rtipc_spsc_create(2, (size_t)UINT32_MAX + 1, &r), RTIPC_EINVAL);
    assert_ptr_equal(r, (rtipc_spsc_t *)(uintptr_t)1); /* untouched on failure */
    assert_int_equal(rtipc_spsc_footprint_for(3, 4), 0);
    assert_int_equal(rtipc_spsc_footprint_for(8, 0), 0);
    assert_int_equal(rtipc_spsc_footprint_for(1u << 20, 1u << 12), 0);
}

static void static_ring_uses_caller_storage(void **state)
{
    (void)state;
    static rtipc_spsc_static_t cb;
    static item_t storage[4];
    rtipc_spsc_t *r = NULL;
    assert_int_equal(rtipc_spsc_create_static(4, sizeof(item_t), storage, &cb, &r), RTIPC_OK);
    /* The handle is a table entry (src/common/handle.h), not the caller's
     * memory, and it names the control block there. */
    assert_ptr_not_equal((void *)r, (void *)&cb);
    assert_ptr_equal(rtipc__handle_get(r, RTIPC__H_SPSC), (void *)&cb);
    push_seq(r, 7);
    assert_true(is_item(storage[0], 7)); /* the item sits in the caller's storage */
    assert_int_equal(rtipc_spsc_footprint(r), sizeof cb + sizeof storage);
    assert_int_equal(pop_seq(r), 7);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
    /* Deleted: the handle is dead. */
    assert_int_equal(rtipc_spsc_try_push(r, &storage[1]), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_EINVAL);
}

static void static_create_with_invalid_arguments_is_invalid(void **state)
{
    (void)state;
    static rtipc_spsc_static_t cb[2];
    static item_t storage[8];
    rtipc_spsc_t *r = NULL;
    assert_int_equal(rtipc_spsc_create_static(4, sizeof(item_t), storage, &cb[0], NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_create_static(4, sizeof(item_t), storage, NULL, &r), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_create_static(4, sizeof(item_t), NULL, &cb[0], &r), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_create_static(0, sizeof(item_t), storage, &cb[0], &r), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_create_static(6, sizeof(item_t), storage, &cb[0], &r), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_create_static(4, 0, storage, &cb[0], &r), RTIPC_EINVAL);
    /* A control block that is not 64-byte aligned would break the layout. */
    rtipc_spsc_static_t *misaligned = (rtipc_spsc_static_t *)(void *)((unsigned char *)&cb[0] + 8);
    assert_int_equal(rtipc_spsc_create_static(4, sizeof(item_t), storage, misaligned, &r), RTIPC_EINVAL);
    assert_null(r);
}

static void static_create_is_allowed_in_interrupt_context(void **state)
{
    (void)state;
    static rtipc_spsc_static_t cb;
    static item_t storage[2];
    rtipc_spsc_t *r = NULL;
    int rc = create_spsc_static_in_interrupt(2, sizeof(item_t), storage, &cb, &r);
    assert_int_equal(rc, RTIPC_OK);
    assert_int_equal(rtipc_spsc_capacity(r), 2);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

static void task_only_calls_in_interrupt_context_are_wrong_context(void **state)
{
    (void)state;
    rtipc_spsc_t *r = new_ring(2);
    rtipc_spsc_t *r2 = NULL;
    item_t it = mk(1);
    enter_interrupt_context();
    int rc_create = rtipc_spsc_create(2, 4, &r2);
    int rc_delete = rtipc_spsc_delete(r);
    int rc_push = rtipc_spsc_push(r, &it, RTIPC_NO_WAIT);
    int rc_pop = rtipc_spsc_pop(r, &it, rtipc_ms(10));
    /* The non-blocking calls are fine in a handler. */
    int rc_try_push = rtipc_spsc_try_push(r, &it);
    int rc_try_pop = rtipc_spsc_try_pop(r, &it);
    int rc_fence = rtipc_spsc_set_fence(RTIPC_SPSC_FENCE_SYMMETRIC);
    int fence_of = rtipc_spsc_fence_of(r);
    leave_interrupt_context();
    assert_int_equal(rc_fence, RTIPC_ECONTEXT);
    assert_int_equal(fence_of, (int)rtipc_spsc_fence()); /* any context */
    assert_int_equal(rc_create, RTIPC_ECONTEXT);
    assert_null(r2);
    assert_int_equal(rc_delete, RTIPC_ECONTEXT);
    assert_int_equal(rc_push, RTIPC_ECONTEXT);
    assert_int_equal(rc_pop, RTIPC_ECONTEXT);
    assert_int_equal(rc_try_push, RTIPC_OK);
    assert_int_equal(rc_try_pop, RTIPC_OK);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK); /* it was not deleted */
}

static void calls_on_a_dead_or_null_handle_are_invalid(void **state)
{
    (void)state;
    static rtipc_spsc_static_t never_created; /* zeroed: no magic */
    rtipc_spsc_t *handles[] = {NULL, (rtipc_spsc_t *)(void *)&never_created};
    item_t it = mk(1), many[2];
    bool woken = false;
    for (int i = 0; i < 2; ++i) {
        rtipc_spsc_t *r = handles[i];
        assert_int_equal(rtipc_spsc_delete(r), RTIPC_EINVAL);
        assert_int_equal(rtipc_spsc_try_push(r, &it), RTIPC_EINVAL);
        assert_int_equal(rtipc_spsc_try_pop(r, &it), RTIPC_EINVAL);
        assert_int_equal(rtipc_spsc_push_bulk(r, many, 2), RTIPC_EINVAL);
        assert_int_equal(rtipc_spsc_pop_bulk(r, many, 2), RTIPC_EINVAL);
        assert_int_equal(rtipc_spsc_peek(r, &it), RTIPC_EINVAL);
        assert_int_equal(rtipc_spsc_push(r, &it, RTIPC_NO_WAIT), RTIPC_EINVAL);
        assert_int_equal(rtipc_spsc_pop(r, &it, rtipc_ms(10)), RTIPC_EINVAL);
        assert_int_equal(rtipc_spsc_push_from_isr(r, &it, &woken), RTIPC_EINVAL);
        assert_int_equal(rtipc_spsc_pop_from_isr(r, &it, &woken), RTIPC_EINVAL);
        assert_int_equal(rtipc_spsc_push_bulk_from_isr(r, many, 2, &woken), RTIPC_EINVAL);
        assert_int_equal(rtipc_spsc_pop_bulk_from_isr(r, many, 2, &woken), RTIPC_EINVAL);
        assert_int_equal(rtipc_spsc_size(r), RTIPC_EINVAL);
        assert_int_equal(rtipc_spsc_capacity(r), RTIPC_EINVAL);
        assert_int_equal(rtipc_spsc_footprint(r), 0);
    }
    assert_false(woken);
}

static void null_buffers_and_zero_counts_are_invalid(void **state)
{
    (void)state;
    rtipc_spsc_t *r = new_ring(4);
    item_t many[2];
    push_seq(r, 1);
    assert_int_equal(rtipc_spsc_try_push(r, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_try_pop(r, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_peek(r, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_push(r, NULL, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_pop(r, NULL, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_push_from_isr(r, NULL, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_pop_from_isr(r, NULL, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_push_bulk(r, NULL, 2), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_pop_bulk(r, NULL, 2), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_push_bulk(r, many, 0), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_pop_bulk(r, many, 0), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_push_bulk_from_isr(r, NULL, 1, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_pop_bulk_from_isr(r, many, 0, NULL), RTIPC_EINVAL);
    /* Nothing moved. */
    assert_int_equal(rtipc_spsc_size(r), 1);
    assert_int_equal(pop_seq(r), 1);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

/* ======================================================================== */
/* the non-blocking calls                                                    */
/* ======================================================================== */
static void try_push_and_try_pop_are_fifo_and_report_full_and_empty(void **state)
{
    (void)state;
    rtipc_spsc_t *r = new_ring(4);
    item_t it = mk(99);
    for (uint32_t i = 0; i < 4; ++i)
        push_seq(r, i);
    assert_int_equal(rtipc_spsc_try_push(r, &it), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_spsc_size(r), 4);
    for (uint32_t i = 0; i < 4; ++i)
        assert_int_equal(pop_seq(r), i);
    assert_int_equal(rtipc_spsc_try_pop(r, &it), RTIPC_EWOULDBLOCK);
    assert_true(is_item(it, 99)); /* a failed pop leaves the buffer alone */
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

static void items_are_copied_by_value(void **state)
{
    (void)state;
    rtipc_spsc_t *r = new_ring(2);
    item_t it = mk(1);
    assert_int_equal(rtipc_spsc_try_push(r, &it), RTIPC_OK);
    it = mk(2); /* changing the caller's copy changes nothing in the ring */
    item_t out;
    assert_int_equal(rtipc_spsc_try_pop(r, &out), RTIPC_OK);
    assert_true(is_item(out, 1));
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

static void fifo_order_survives_the_storage_edge(void **state)
{
    (void)state;
    rtipc_spsc_t *r = new_ring(4);
    uint32_t next_in = 0, next_out = 0;
    /* Keep 3 items in flight for many rounds: the slots rotate past the end. */
    for (int round = 0; round < 50; ++round) {
        while (rtipc_spsc_size(r) < 3)
            push_seq(r, next_in++);
        assert_int_equal(pop_seq(r), next_out++);
    }
    while (rtipc_spsc_size(r) > 0)
        assert_int_equal(pop_seq(r), next_out++);
    assert_int_equal(next_in, next_out);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

static void fifo_order_survives_the_index_wrap_around(void **state)
{
    (void)state;
    /* The indices run freely over 32 bits: start them just below the wrap. */
    static rtipc_spsc_static_t cb;
    static item_t storage[8];
    rtipc_spsc_t *r = NULL;
    assert_int_equal(rtipc_spsc_create_static(8, sizeof(item_t), storage, &cb, &r), RTIPC_OK);
    struct rtipc__spsc *in = rtipc__spsc_of(r);
    uint32_t start = UINT32_MAX - 5;
    atomic_store(&in->head, start);
    atomic_store(&in->tail, start);
    in->head_cache = start;
    in->tail_cache = start;
    uint32_t next_in = 0, next_out = 0;
    for (int round = 0; round < 6; ++round) {
        item_t batch[5], out[8];
        for (int i = 0; i < 5; ++i)
            batch[i] = mk(next_in + (uint32_t)i);
        assert_int_equal(rtipc_spsc_push_bulk(r, batch, 5), 5);
        next_in += 5;
        for (int i = 0; i < 5; ++i)
            batch[i] = mk(next_in + (uint32_t)i);
        assert_int_equal(rtipc_spsc_push_bulk(r, batch, 5), 3); /* only 3 free */
        next_in += 3;
        assert_int_equal(rtipc_spsc_size(r), 8);
        assert_int_equal(rtipc_spsc_pop_bulk(r, out, 8), 8);
        for (int i = 0; i < 8; ++i)
            assert_true(is_item(out[i], next_out++));
    }
    assert_int_equal(next_in, next_out);
    assert_true(atomic_load(&in->tail) < start); /* it did wrap */
    assert_int_equal(rtipc_spsc_size(r), 0);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

static void bulk_calls_move_as_many_as_fit_in_order(void **state)
{
    (void)state;
    rtipc_spsc_t *r = new_ring(8);
    item_t in[20], out[20];
    for (uint32_t i = 0; i < 20; ++i)
        in[i] = mk(i);
    assert_int_equal(rtipc_spsc_push_bulk(r, in, 5), 5);
    assert_int_equal(rtipc_spsc_push_bulk(r, in + 5, 5), 3); /* partial */
    assert_int_equal(rtipc_spsc_push_bulk(r, in + 8, 5), 0); /* full */
    assert_int_equal(rtipc_spsc_pop_bulk(r, out, 6), 6);
    for (uint32_t i = 0; i < 6; ++i)
        assert_true(is_item(out[i], i));
    /* Across the storage edge, and more asked for than the capacity. */
    assert_int_equal(rtipc_spsc_push_bulk(r, in + 8, 20 - 8), 6);
    assert_int_equal(rtipc_spsc_size(r), 8);
    assert_int_equal(rtipc_spsc_pop_bulk(r, out, 20), 8);
    for (uint32_t i = 0; i < 8; ++i)
        assert_true(is_item(out[i], 6 + i));
    assert_int_equal(rtipc_spsc_pop_bulk(r, out, 3), 0); /* empty */
    bool woken = false;
    assert_int_equal(rtipc_spsc_push_bulk_from_isr(r, in, 3, &woken), 3);
    assert_int_equal(rtipc_spsc_pop_bulk_from_isr(r, out, 4, &woken), 3);
    assert_false(woken); /* nobody was waiting */
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

static void peek_copies_the_front_item_and_leaves_it(void **state)
{
    (void)state;
    rtipc_spsc_t *r = new_ring(4);
    item_t it = mk(77);
    assert_int_equal(rtipc_spsc_peek(r, &it), RTIPC_EWOULDBLOCK);
    assert_true(is_item(it, 77));
    push_seq(r, 1);
    push_seq(r, 2);
    assert_int_equal(rtipc_spsc_peek(r, &it), RTIPC_OK);
    assert_true(is_item(it, 1));
    assert_int_equal(rtipc_spsc_peek(r, &it), RTIPC_OK);
    assert_true(is_item(it, 1));
    assert_int_equal(rtipc_spsc_size(r), 2);
    assert_int_equal(pop_seq(r), 1);
    assert_int_equal(rtipc_spsc_peek(r, &it), RTIPC_OK);
    assert_true(is_item(it, 2));
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

static void size_and_capacity_track_the_ring(void **state)
{
    (void)state;
    rtipc_spsc_t *r = new_ring(16);
    for (uint32_t i = 0; i < 16; ++i) {
        assert_int_equal(rtipc_spsc_size(r), (int)i);
        push_seq(r, i);
    }
    assert_int_equal(rtipc_spsc_size(r), 16);
    for (uint32_t i = 16; i > 0; --i) {
        assert_int_equal(rtipc_spsc_size(r), (int)i);
        pop_seq(r);
    }
    assert_int_equal(rtipc_spsc_size(r), 0);
    assert_int_equal(rtipc_spsc_capacity(r), 16);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

static void footprint_is_three_cache_lines_plus_storage(void **state)
{
    (void)state;
    assert_int_equal(rtipc_spsc_footprint_for(0, 0), 192);
    assert_int_equal(sizeof(rtipc_spsc_static_t), 192);
    assert_int_equal(rtipc_spsc_footprint_for(64, 16), 192 + 64 * 16);
    rtipc_spsc_t *r = NULL;
    assert_int_equal(rtipc_spsc_create(32, 24, &r), RTIPC_OK);
    assert_int_equal(rtipc_spsc_footprint(r), 192 + 32 * 24);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
    print_message("spsc: control block %zu bytes; 64 x 16-byte items: %zu bytes\n",
                  rtipc_spsc_footprint_for(0, 0), rtipc_spsc_footprint_for(64, 16));
}

static void each_side_writes_only_its_own_cache_line(void **state)
{
    (void)state;
    /* Producer-written fields on line 1, consumer-written on line 2, the
     * shared read-mostly part (and the sleeping flags) on line 0. */
    assert_int_equal(offsetof(struct rtipc__spsc, tail) / 64, 1);
    assert_int_equal(offsetof(struct rtipc__spsc, head_cache) / 64, 1);
    assert_int_equal(offsetof(struct rtipc__spsc, head) / 64, 2);
    assert_int_equal(offsetof(struct rtipc__spsc, tail_cache) / 64, 2);
    assert_int_equal(offsetof(struct rtipc__spsc, sleeping) / 64, 0);
    assert_int_equal(offsetof(struct rtipc__spsc, port) / 64, 0);
    assert_int_equal((offsetof(struct rtipc__spsc, port) + RTIPC__SPSC_PORT_BYTES - 1) / 64, 0);
    assert_int_equal(_Alignof(rtipc_spsc_static_t), 64);
}

static void cached_index_spares_the_producer_a_look_at_the_consumer(void **state)
{
    (void)state;
    /* While the cached head shows room, the producer does not read head: move
     * the real head behind its back and watch the cache stay put. */
    rtipc_spsc_t *r = new_ring(8);
    struct rtipc__spsc *in = rtipc__spsc_of(r);
    for (uint32_t i = 0; i < 8; ++i)
        push_seq(r, i); /* a cached head of 0 shows room for all eight */
    assert_int_equal(in->head_cache, 0);
    for (uint32_t i = 0; i < 4; ++i)
        pop_seq(r);
    assert_int_equal(in->head_cache, 0); /* the producer has not looked */
    push_seq(r, 8);                       /* full by the cache: looks, sees 4 */
    assert_int_equal(in->head_cache, 4);
    push_seq(r, 9);
    push_seq(r, 10);
    push_seq(r, 11);
    assert_int_equal(in->head_cache, 4);  /* room by the cache: no look */
    /* The consumer's side mirrors it. */
    uint32_t tc = in->tail_cache;
    pop_seq(r);
    assert_int_equal(in->tail_cache, tc);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

/* ======================================================================== */
/* blocking push / pop                                                        */
/* ======================================================================== */
static void push_and_pop_with_no_wait_would_block(void **state)
{
    (void)state;
    rtipc_spsc_t *r = new_ring(1);
    item_t it = mk(3);
    assert_int_equal(rtipc_spsc_pop(r, &it, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_spsc_push(r, &it, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_spsc_push(r, &it, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_spsc_pop(r, &it, RTIPC_NO_WAIT), RTIPC_OK);
    assert_true(is_item(it, 3));
    assert_int_equal(sleeping_flag(r, RTIPC__SPSC_CONSUMER), 0);
    assert_int_equal(sleeping_flag(r, RTIPC__SPSC_PRODUCER), 0);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

static void push_and_pop_succeed_at_once_when_they_can(void **state)
{
    (void)state;
    rtipc_spsc_t *r = new_ring(2);
    item_t it = mk(4);
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_spsc_push(r, &it, RTIPC_FOREVER), RTIPC_OK);
    assert_int_equal(rtipc_spsc_push(r, &it, rtipc_ms(LONG_MS)), RTIPC_OK);
    assert_int_equal(rtipc_spsc_pop(r, &it, RTIPC_FOREVER), RTIPC_OK);
    assert_int_equal(rtipc_spsc_pop(r, &it, rtipc_ms(LONG_MS)), RTIPC_OK);
    assert_true(rtipc_time_ns() - t0 < (int64_t)PROMPT_MS * 1000000);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

static void pop_times_out_after_about_the_timeout(void **state)
{
    (void)state;
    rtipc_spsc_t *r = new_ring(2);
    item_t it = mk(1);
    int64_t t0 = rtipc_time_ns();
    int rc = rtipc_spsc_pop(r, &it, rtipc_ms(50));
    int64_t el = rtipc_time_ns() - t0;
    assert_int_equal(rc, RTIPC_ETIMEDOUT);
    assert_true(el >= 50000000);
    assert_true(el < (50 + SLACK_MS) * 1000000ll);
    assert_true(is_item(it, 1)); /* untouched */
    /* The consumer no longer counts as sleeping: pushes stay lock-free. */
    assert_int_equal(sleeping_flag(r, RTIPC__SPSC_CONSUMER), 0);
    /* A timeout shorter than the polling phase still returns the timeout. */
    assert_int_equal(rtipc_spsc_pop(r, &it, rtipc_ns(1)), RTIPC_ETIMEDOUT);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

static void push_times_out_after_about_the_timeout(void **state)
{
    (void)state;
    rtipc_spsc_t *r = new_ring(1);
    push_seq(r, 1);
    item_t it = mk(2);
    int64_t t0 = rtipc_time_ns();
    int rc = rtipc_spsc_push(r, &it, rtipc_ms(50));
    int64_t el = rtipc_time_ns() - t0;
    assert_int_equal(rc, RTIPC_ETIMEDOUT);
    assert_true(el >= 50000000);
    assert_true(el < (50 + SLACK_MS) * 1000000ll);
    assert_int_equal(sleeping_flag(r, RTIPC__SPSC_PRODUCER), 0);
    assert_int_equal(pop_seq(r), 1); /* the ring kept the old item only */
    assert_int_equal(rtipc_spsc_size(r), 0);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

typedef int (*wake_fn)(rtipc_spsc_t *r, uint32_t seq);

static int wake_by_try_push(rtipc_spsc_t *r, uint32_t seq)
{
    item_t it = mk(seq);
    return rtipc_spsc_try_push(r, &it);
}
static int wake_by_push_bulk(rtipc_spsc_t *r, uint32_t seq)
{
    item_t it[2] = {mk(seq), mk(seq + 1)};
    return rtipc_spsc_push_bulk(r, it, 2) == 2 ? RTIPC_OK : RTIPC_EWOULDBLOCK;
}
static int wake_by_push_from_isr(rtipc_spsc_t *r, uint32_t seq)
{
    item_t it = mk(seq);
    bool woken = false;
    int rc = rtipc_spsc_push_from_isr(r, &it, &woken);
    return rc == RTIPC_OK && woken ? RTIPC_EINVAL : rc; /* not in a handler: nothing to report */
}
static int wake_by_push_bulk_from_isr(rtipc_spsc_t *r, uint32_t seq)
{
    item_t it = mk(seq);
    return rtipc_spsc_push_bulk_from_isr(r, &it, 1, NULL) == 1 ? RTIPC_OK : RTIPC_EWOULDBLOCK;
}
static int wake_by_blocking_push(rtipc_spsc_t *r, uint32_t seq)
{
    item_t it = mk(seq);
    return rtipc_spsc_push(r, &it, rtipc_ms(PROMPT_MS));
}

static void check_parked_consumer_is_woken_by(wake_fn wake)
{
    rtipc_spsc_t *r = new_ring(4);
    static worker_t w;
    w = make_worker(r, OP_POP, 0, rtipc_ms(LONG_MS));
    rtipc_task_t *t = start_worker("pop", &w);
    uint32_t announced = sleeping_flag(r, RTIPC__SPSC_CONSUMER);
    int rc_wake = wake(r, 42);
    int ok = wait_for_flag(&w.done, 1, PROMPT_MS);
    join_task(t);
    assert_true(w.seen_blocked);
    assert_int_equal(announced, 1); /* it announced itself before parking */
    assert_int_equal(rc_wake, RTIPC_OK);
    assert_true(ok);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_true(is_item(w.got, 42));
    assert_true(w.elapsed_ns < (int64_t)LONG_MS * 1000000 / 2);
    assert_int_equal(sleeping_flag(r, RTIPC__SPSC_CONSUMER), 0);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

static void parked_consumer_is_woken_by_try_push(void **state)
{
    (void)state;
    check_parked_consumer_is_woken_by(wake_by_try_push);
}
static void parked_consumer_is_woken_by_push_bulk(void **state)
{
    (void)state;
    check_parked_consumer_is_woken_by(wake_by_push_bulk);
}
static void parked_consumer_is_woken_by_push_from_isr_in_task_context(void **state)
{
    (void)state;
    check_parked_consumer_is_woken_by(wake_by_push_from_isr);
}
static void parked_consumer_is_woken_by_push_bulk_from_isr_in_task_context(void **state)
{
    (void)state;
    check_parked_consumer_is_woken_by(wake_by_push_bulk_from_isr);
}
static void parked_consumer_is_woken_by_a_blocking_push(void **state)
{
    (void)state;
    check_parked_consumer_is_woken_by(wake_by_blocking_push);
}

typedef int (*drain_fn)(rtipc_spsc_t *r, item_t *out);

static int drain_by_try_pop(rtipc_spsc_t *r, item_t *out) { return rtipc_spsc_try_pop(r, out); }
static int drain_by_pop_bulk(rtipc_spsc_t *r, item_t *out)
{
    return rtipc_spsc_pop_bulk(r, out, 1) == 1 ? RTIPC_OK : RTIPC_EWOULDBLOCK;
}
static int drain_by_pop_from_isr(rtipc_spsc_t *r, item_t *out) { return rtipc_spsc_pop_from_isr(r, out, NULL); }
static int drain_by_pop_bulk_from_isr(rtipc_spsc_t *r, item_t *out)
{
    return rtipc_spsc_pop_bulk_from_isr(r, out, 1, NULL) == 1 ? RTIPC_OK : RTIPC_EWOULDBLOCK;
}
static int drain_by_blocking_pop(rtipc_spsc_t *r, item_t *out) { return rtipc_spsc_pop(r, out, rtipc_ms(PROMPT_MS)); }

static void check_parked_producer_is_woken_by(drain_fn drain)
{
    rtipc_spsc_t *r = new_ring(2);
    push_seq(r, 1);
    push_seq(r, 2);
    static worker_t w;
    w = make_worker(r, OP_PUSH, 3, rtipc_ms(LONG_MS));
    rtipc_task_t *t = start_worker("push", &w);
    uint32_t announced = sleeping_flag(r, RTIPC__SPSC_PRODUCER);
    item_t first = {0, 0};
    int rc_drain = drain(r, &first);
    int ok = wait_for_flag(&w.done, 1, PROMPT_MS);
    join_task(t);
    assert_true(w.seen_blocked);
    assert_int_equal(announced, 1);
    assert_int_equal(rc_drain, RTIPC_OK);
    assert_true(is_item(first, 1));
    assert_true(ok);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_int_equal(sleeping_flag(r, RTIPC__SPSC_PRODUCER), 0);
    assert_int_equal(pop_seq(r), 2);
    assert_int_equal(pop_seq(r), 3);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

static void parked_producer_is_woken_by_try_pop(void **state)
{
    (void)state;
    check_parked_producer_is_woken_by(drain_by_try_pop);
}
static void parked_producer_is_woken_by_pop_bulk(void **state)
{
    (void)state;
    check_parked_producer_is_woken_by(drain_by_pop_bulk);
}
static void parked_producer_is_woken_by_pop_from_isr_in_task_context(void **state)
{
    (void)state;
    check_parked_producer_is_woken_by(drain_by_pop_from_isr);
}
static void parked_producer_is_woken_by_pop_bulk_from_isr_in_task_context(void **state)
{
    (void)state;
    check_parked_producer_is_woken_by(drain_by_pop_bulk_from_isr);
}
static void parked_producer_is_woken_by_a_blocking_pop(void **state)
{
    (void)state;
    check_parked_producer_is_woken_by(drain_by_blocking_pop);
}

static void peek_does_not_wake_a_parked_producer(void **state)
{
    (void)state;
    rtipc_spsc_t *r = new_ring(1);
    push_seq(r, 1);
    static worker_t w;
    w = make_worker(r, OP_PUSH, 2, rtipc_ms(LONG_MS));
    rtipc_task_t *t = start_worker("push", &w);
    item_t it;
    int rc_peek = rtipc_spsc_peek(r, &it);
    sleep_ms(50);
    int still_blocked = !is_done(&w) && test_thread_asleep(w.tid);
    int rc_pop = rtipc_spsc_try_pop(r, &it); /* now make room */
    int ok = wait_for_flag(&w.done, 1, PROMPT_MS);
    join_task(t);
    assert_true(w.seen_blocked);
    assert_int_equal(rc_peek, RTIPC_OK);
    assert_true(still_blocked);
    assert_int_equal(rc_pop, RTIPC_OK);
    assert_true(ok);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_int_equal(pop_seq(r), 2);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

static void timed_pop_returns_the_item_long_before_the_timeout(void **state)
{
    (void)state;
    rtipc_spsc_t *r = new_ring(4);
    static worker_t w;
    w = make_worker(r, OP_POP, 0, rtipc_ms(5000));
    rtipc_task_t *t = start_worker("pop", &w);
    push_seq(r, 9);
    int ok = wait_for_flag(&w.done, 1, PROMPT_MS);
    join_task(t);
    assert_true(w.seen_blocked);
    assert_true(ok);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_true(is_item(w.got, 9));
    assert_true(w.elapsed_ns < 4000000000ll);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

static void delete_with_a_parked_consumer_is_refused_busy(void **state)
{
    (void)state;
    rtipc_spsc_t *r = new_ring(2);
    static worker_t w;
    w = make_worker(r, OP_POP, 0, rtipc_ms(LONG_MS));
    rtipc_task_t *t = start_worker("pop", &w);
    int rc_delete = rtipc_spsc_delete(r);
    int still_blocked = !is_done(&w);
    int capacity = rtipc_spsc_capacity(r); /* still a live ring */
    push_seq(r, 5);
    int ok = wait_for_flag(&w.done, 1, PROMPT_MS);
    join_task(t);
    assert_true(w.seen_blocked);
    assert_int_equal(rc_delete, RTIPC_EBUSY);
    assert_true(still_blocked);
    assert_int_equal(capacity, 2);
    assert_true(ok);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_true(is_item(w.got, 5));
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

static void delete_with_a_parked_producer_is_refused_busy(void **state)
{
    (void)state;
    rtipc_spsc_t *r = new_ring(1);
    push_seq(r, 1);
    static worker_t w;
    w = make_worker(r, OP_PUSH, 2, rtipc_ms(LONG_MS));
    rtipc_task_t *t = start_worker("push", &w);
    int rc_delete = rtipc_spsc_delete(r);
    int still_blocked = !is_done(&w);
    int first = (int)pop_seq(r);
    int ok = wait_for_flag(&w.done, 1, PROMPT_MS);
    join_task(t);
    assert_true(w.seen_blocked);
    assert_int_equal(rc_delete, RTIPC_EBUSY);
    assert_true(still_blocked);
    assert_int_equal(first, 1);
    assert_true(ok);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_int_equal(pop_seq(r), 2);
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

typedef struct {
    rtipc_spsc_t *in, *out;
    int rounds;
    int errors;
} echo_t;

/* A lost wake-up does not hang a timed call: it shows as a call that lasted
 * its whole timeout (and then found the item in its last attempt). */
#define ROUND_TIMEOUT_MS 2000
#define SLOW_NS (1500 * 1000000ll)

static int timed_op(int push, rtipc_spsc_t *r, item_t *it)
{
    int64_t t0 = rtipc_time_ns();
    int rc = push ? rtipc_spsc_push(r, it, rtipc_ms(ROUND_TIMEOUT_MS)) : rtipc_spsc_pop(r, it, rtipc_ms(ROUND_TIMEOUT_MS));
    return rc == RTIPC_OK && rtipc_time_ns() - t0 < SLOW_NS;
}

/* Pops from in and pushes back to out. */
static void echo_task(void *arg)
{
    echo_t *e = arg;
    for (int i = 0; i < e->rounds; ++i) {
        item_t it;
        if (!timed_op(0, e->in, &it) || !timed_op(1, e->out, &it)) {
            e->errors++;
            return;
        }
        if (i % 64 == 0)
            rtipc_task_delay(rtipc_us(200)); /* make the other side park */
    }
}

static void ping_pong_through_two_rings_never_loses_a_wake_up(void **state)
{
    (void)state;
    static echo_t e;
    e.in = new_ring(1);
    e.out = new_ring(1);
    e.rounds = 3000;
    e.errors = 0;
    rtipc_task_t *t = start_task("echo", 3, test_core(1), echo_task, &e);
    int bad = 0, slow = 0;
    for (int i = 0; i < e.rounds; ++i) {
        item_t it = mk((uint32_t)i), back;
        if (!timed_op(1, e.in, &it) || !timed_op(0, e.out, &back)) {
            slow++;
            break;
        }
        if (!is_item(back, (uint32_t)i))
            bad++;
    }
    join_task(t);
    assert_int_equal(slow, 0);
    assert_int_equal(e.errors, 0);
    assert_int_equal(bad, 0);
    assert_int_equal(rtipc_spsc_delete(e.in), RTIPC_OK);
    assert_int_equal(rtipc_spsc_delete(e.out), RTIPC_OK);
}

/* ======================================================================== */
/* interrupt handlers                                                        */
/* ======================================================================== */
static int irq_core(void) { return rtipc_core_count() >= 2 ? 1 : 0; }

enum isr_action { ISR_PUSH, ISR_PUSH_BULK, ISR_TRY_PUSH, ISR_POP, ISR_POP_BULK };

typedef struct {
    rtipc_spsc_t *r;
    enum isr_action action;
    bool yield;
    int rc;
    bool woken;
    item_t got;
    _Atomic int handled;
} isr_job_t;

static void isr_handler(void *arg)
{
    isr_job_t *j = arg;
    item_t it = mk(1234);
    j->woken = false;
    switch (j->action) {
    case ISR_PUSH:
        j->rc = rtipc_spsc_push_from_isr(j->r, &it, &j->woken);
        break;
    case ISR_PUSH_BULK:
        j->rc = rtipc_spsc_push_bulk_from_isr(j->r, &it, 1, &j->woken);
        break;
    case ISR_TRY_PUSH:
        j->rc = rtipc_spsc_try_push(j->r, &it);
        break;
    case ISR_POP:
        j->rc = rtipc_spsc_pop_from_isr(j->r, &j->got, &j->woken);
        break;
    case ISR_POP_BULK:
        j->rc = rtipc_spsc_pop_bulk_from_isr(j->r, &j->got, 1, &j->woken);
        break;
    }
    if (j->yield)
        rtipc_irq_yield(j->woken);
    atomic_store(&j->handled, 1);
}

/* A worker parked on the interrupt's core; the handler acts once. */
static void run_isr_against_parked_worker(isr_job_t *j, worker_t *w, int *ran, int *finished)
{
    pin_main_to_core0();
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(irq_core(), isr_handler, j, &irq), RTIPC_OK);
    rtipc_task_t *t = start_worker_on(w->op == OP_POP ? "pop" : "push", 10, irq_core(), w);
    assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
    *ran = wait_for_flag((volatile int *)&j->handled, 1, PROMPT_MS);
    *finished = wait_for_flag(&w->done, 1, PROMPT_MS);
    join_task(t);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
}

static void check_handler_push_readies_the_parked_consumer(enum isr_action action, bool reports_woken)
{
    isr_job_t j;
    memset(&j, 0, sizeof j);
    j.r = new_ring(4);
    j.action = action;
    j.yield = true;
    static worker_t w;
    w = make_worker(j.r, OP_POP, 0, rtipc_ms(LONG_MS));
    int ran, finished;
    run_isr_against_parked_worker(&j, &w, &ran, &finished);
    assert_true(w.seen_blocked);
    assert_true(ran);
    assert_int_equal(j.rc, action == ISR_PUSH_BULK ? 1 : RTIPC_OK);
    /* The consumer outranks the idle core it is pinned to. */
    assert_int_equal(j.woken, reports_woken);
    assert_true(finished);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_true(is_item(w.got, 1234));
    assert_int_equal(sleeping_flag(j.r, RTIPC__SPSC_CONSUMER), 0);
    assert_int_equal(rtipc_spsc_delete(j.r), RTIPC_OK);
}

static void push_from_isr_in_a_handler_readies_the_parked_consumer(void **state)
{
    (void)state;
    check_handler_push_readies_the_parked_consumer(ISR_PUSH, true);
}

static void push_bulk_from_isr_in_a_handler_readies_the_parked_consumer(void **state)
{
    (void)state;
    check_handler_push_readies_the_parked_consumer(ISR_PUSH_BULK, true);
}

static void try_push_in_a_handler_readies_the_parked_consumer(void **state)
{
    (void)state;
    /* No woken flag to report through; the consumer still runs (at the next
     * tick at the latest, as irq.h promises). */
    check_handler_push_readies_the_parked_consumer(ISR_TRY_PUSH, false);
}

static void check_handler_pop_readies_the_parked_producer(enum isr_action action)
{
    isr_job_t j;
    memset(&j, 0, sizeof j);
    j.r = new_ring(1);
    j.action = action;
    j.yield = true;
    push_seq(j.r, 1);
    static worker_t w;
    w = make_worker(j.r, OP_PUSH, 2, rtipc_ms(LONG_MS));
    int ran, finished;
    run_isr_against_parked_worker(&j, &w, &ran, &finished);
    assert_true(w.seen_blocked);
    assert_true(ran);
    assert_int_equal(j.rc, action == ISR_POP_BULK ? 1 : RTIPC_OK);
    assert_true(is_item(j.got, 1));
    assert_true(j.woken);
    assert_true(finished);
    assert_int_equal(w.rc, RTIPC_OK);
    assert_int_equal(pop_seq(j.r), 2);
    assert_int_equal(rtipc_spsc_delete(j.r), RTIPC_OK);
}

static void pop_from_isr_in_a_handler_readies_the_parked_producer(void **state)
{
    (void)state;
    check_handler_pop_readies_the_parked_producer(ISR_POP);
}

static void pop_bulk_from_isr_in_a_handler_readies_the_parked_producer(void **state)
{
    (void)state;
    check_handler_pop_readies_the_parked_producer(ISR_POP_BULK);
}

typedef struct {
    rtipc_spsc_t *r;
    int rc[12];
    bool woken_kept;
    _Atomic int ran;
} isr_outcomes_t;

static void outcomes_handler(void *arg)
{
    isr_outcomes_t *p = arg;
    item_t it = mk(1), two[2] = {mk(2), mk(3)};
    bool woken = true; /* set-only: nothing below may clear it */
    p->rc[0] = rtipc_spsc_push_from_isr(p->r, &it, &woken);
    p->rc[1] = rtipc_spsc_push_bulk_from_isr(p->r, two, 2, &woken); /* only 1 fits */
    p->rc[2] = rtipc_spsc_push_from_isr(p->r, &it, &woken);          /* full */
    p->rc[3] = rtipc_spsc_push_bulk_from_isr(p->r, two, 2, &woken);  /* full: 0 */
    p->rc[4] = rtipc_spsc_peek(p->r, &it);
    p->rc[5] = rtipc_spsc_pop_from_isr(p->r, &it, &woken);
    p->rc[6] = rtipc_spsc_pop_bulk_from_isr(p->r, two, 2, &woken);    /* the last 1 */
    p->rc[7] = rtipc_spsc_pop_from_isr(p->r, &it, &woken);           /* empty */
    p->rc[8] = rtipc_spsc_pop_bulk_from_isr(p->r, two, 2, &woken);    /* empty: 0 */
    p->rc[9] = rtipc_spsc_peek(p->r, &it);                           /* empty */
    p->rc[10] = rtipc_spsc_push(p->r, &it, RTIPC_NO_WAIT);           /* task only */
    p->rc[11] = rtipc_spsc_pop_from_isr(NULL, &it, &woken);
    p->woken_kept = woken;
    atomic_store(&p->ran, 1);
}

static void interrupt_safe_calls_report_each_outcome_in_a_handler(void **state)
{
    (void)state;
    isr_outcomes_t p;
    memset(&p, 0, sizeof p);
    p.r = new_ring(2);
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(irq_core(), outcomes_handler, &p, &irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
    assert_true(wait_for_flag((volatile int *)&p.ran, 1, PROMPT_MS));
    const int want[12] = {RTIPC_OK, 1, RTIPC_EWOULDBLOCK, 0, RTIPC_OK, RTIPC_OK,
                          1, RTIPC_EWOULDBLOCK, 0, RTIPC_EWOULDBLOCK, RTIPC_ECONTEXT, RTIPC_EINVAL};
    for (int i = 0; i < 12; ++i)
        assert_int_equal(p.rc[i], want[i]);
    assert_true(p.woken_kept);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
    assert_int_equal(rtipc_spsc_delete(p.r), RTIPC_OK);
}

/* ---- fence policy -------------------------------------------------------- */
#if defined(__SANITIZE_THREAD__)
#define RTIPC_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RTIPC_TEST_TSAN 1
#endif
#endif
#ifndef RTIPC_TEST_TSAN
#define RTIPC_TEST_TSAN 0
#endif

/* Run before any test chooses a fence: the port's default is the
 * asymmetric fence where the kernel has the barrier, else the full one. */
static void the_default_fence_is_the_asymmetric_one_where_the_port_has_it(void **state)
{
    (void)state;
    rtipc_spsc_fence_t def = rtipc_spsc_fence();
    rtipc_spsc_t *r;
    assert_int_equal(rtipc_spsc_create(4, 4, &r), RTIPC_OK);
    assert_int_equal(rtipc_spsc_fence_of(r), def);
    int rc = rtipc_spsc_set_fence(RTIPC_SPSC_FENCE_ASYMMETRIC);
#if RTIPC_TEST_TSAN
    assert_int_equal(rc, RTIPC_ENOTSUP);
#endif
    assert_int_equal(def, rc == RTIPC_OK ? RTIPC_SPSC_FENCE_ASYMMETRIC : RTIPC_SPSC_FENCE_SYMMETRIC);
    assert_int_equal(rtipc_spsc_fence(), def); /* refused or the same: unchanged */
    assert_int_equal(rtipc_spsc_delete(r), RTIPC_OK);
}

static void set_fence_refuses_what_is_not_a_fence(void **state)
{
    (void)state;
    rtipc_spsc_fence_t was = rtipc_spsc_fence();
    assert_int_equal(rtipc_spsc_set_fence((rtipc_spsc_fence_t)2), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_set_fence((rtipc_spsc_fence_t)-1), RTIPC_EINVAL);
    assert_int_equal(rtipc_spsc_fence(), was);
    assert_int_equal(rtipc_spsc_fence_of(NULL), RTIPC_EINVAL);
}

static void a_ring_keeps_the_fence_it_was_created_with(void **state)
{
    (void)state;
    rtipc_spsc_t *before, *after;
    assert_int_equal(rtipc_spsc_set_fence(RTIPC_SPSC_FENCE_SYMMETRIC), RTIPC_OK);
    assert_int_equal(rtipc_spsc_create(4, 4, &before), RTIPC_OK);
    assert_int_equal(rtipc_spsc_fence_of(before), RTIPC_SPSC_FENCE_SYMMETRIC);
    int rc = rtipc_spsc_set_fence(RTIPC_SPSC_FENCE_ASYMMETRIC);
#if RTIPC_TEST_TSAN
    assert_int_equal(rc, RTIPC_ENOTSUP); /* TSan cannot see the barrier */
#else
    assert_true(rc == RTIPC_OK || rc == RTIPC_ENOTSUP);
#endif
    rtipc_spsc_fence_t want = rc == RTIPC_OK ? RTIPC_SPSC_FENCE_ASYMMETRIC : RTIPC_SPSC_FENCE_SYMMETRIC;
    assert_int_equal(rtipc_spsc_fence(), want);
    assert_int_equal(rtipc_spsc_create(4, 4, &after), RTIPC_OK);
    assert_int_equal(rtipc_spsc_fence_of(after), want);
    assert_int_equal(rtipc_spsc_fence_of(before), RTIPC_SPSC_FENCE_SYMMETRIC);
    /* Both work as rings whatever their fence. */
    uint32_t v = 7, got = 0;
    assert_int_equal(rtipc_spsc_try_push(after, &v), RTIPC_OK);
    assert_int_equal(rtipc_spsc_try_pop(after, &got), RTIPC_OK);
    assert_int_equal(got, 7);
    assert_int_equal(rtipc_spsc_set_fence(RTIPC_SPSC_FENCE_SYMMETRIC), RTIPC_OK);
    assert_int_equal(rtipc_spsc_fence(), RTIPC_SPSC_FENCE_SYMMETRIC);
    assert_int_equal(rtipc_spsc_fence_of(after), want);
    assert_int_equal(rtipc_spsc_delete(after), RTIPC_OK);
    assert_int_equal(rtipc_spsc_fence_of(after), RTIPC_EINVAL); /* ended: refused */
    assert_int_equal(rtipc_spsc_delete(before), RTIPC_OK);
}

int main(void)
{
    print_message("scheduling: %s\n", rtipc_sched_policy_describe());
    const struct CMUnitTest tests[] = {
        /* Allocation failure first: adoption fails only while the task pool
         * is empty, i.e. before any task has been joined. */
        cmocka_unit_test(blocking_calls_from_a_thread_that_cannot_be_adopted_fail_with_nomem),
        cmocka_unit_test(create_fails_with_nomem_when_memory_is_exhausted),
        /* Before any test chooses a fence. */
        cmocka_unit_test(the_default_fence_is_the_asymmetric_one_where_the_port_has_it),
        cmocka_unit_test(create_gives_an_empty_ring_of_the_requested_capacity),
        cmocka_unit_test(create_with_an_invalid_shape_is_invalid),
        cmocka_unit_test(static_ring_uses_caller_storage),
        cmocka_unit_test(static_create_with_invalid_arguments_is_invalid),
        cmocka_unit_test(static_create_is_allowed_in_interrupt_context),
        cmocka_unit_test(task_only_calls_in_interrupt_context_are_wrong_context),
        cmocka_unit_test(calls_on_a_dead_or_null_handle_are_invalid),
        cmocka_unit_test(null_buffers_and_zero_counts_are_invalid),
        cmocka_unit_test(try_push_and_try_pop_are_fifo_and_report_full_and_empty),
        cmocka_unit_test(items_are_copied_by_value),
        cmocka_unit_test(fifo_order_survives_the_storage_edge),
        cmocka_unit_test(fifo_order_survives_the_index_wrap_around),
        cmocka_unit_test(bulk_calls_move_as_many_as_fit_in_order),
        cmocka_unit_test(peek_copies_the_front_item_and_leaves_it),
        cmocka_unit_test(size_and_capacity_track_the_ring),
        cmocka_unit_test(footprint_is_three_cache_lines_plus_storage),
        cmocka_unit_test(each_side_writes_only_its_own_cache_line),
        cmocka_unit_test(cached_index_spares_the_producer_a_look_at_the_consumer),
        cmocka_unit_test(push_and_pop_with_no_wait_would_block),
        cmocka_unit_test(push_and_pop_succeed_at_once_when_they_can),
        cmocka_unit_test(pop_times_out_after_about_the_timeout),
        cmocka_unit_test(push_times_out_after_about_the_timeout),
        cmocka_unit_test(parked_consumer_is_woken_by_try_push),
        cmocka_unit_test(parked_consumer_is_woken_by_push_bulk),
        cmocka_unit_test(parked_consumer_is_woken_by_push_from_isr_in_task_context),
        cmocka_unit_test(parked_consumer_is_woken_by_push_bulk_from_isr_in_task_context),
        cmocka_unit_test(parked_consumer_is_woken_by_a_blocking_push),
        cmocka_unit_test(parked_producer_is_woken_by_try_pop),
        cmocka_unit_test(parked_producer_is_woken_by_pop_bulk),
        cmocka_unit_test(parked_producer_is_woken_by_pop_from_isr_in_task_context),
        cmocka_unit_test(parked_producer_is_woken_by_pop_bulk_from_isr_in_task_context),
        cmocka_unit_test(parked_producer_is_woken_by_a_blocking_pop),
        cmocka_unit_test(peek_does_not_wake_a_parked_producer),
        cmocka_unit_test(timed_pop_returns_the_item_long_before_the_timeout),
        cmocka_unit_test(delete_with_a_parked_consumer_is_refused_busy),
        cmocka_unit_test(delete_with_a_parked_producer_is_refused_busy),
        cmocka_unit_test(ping_pong_through_two_rings_never_loses_a_wake_up),
        cmocka_unit_test(push_from_isr_in_a_handler_readies_the_parked_consumer),
        cmocka_unit_test(push_bulk_from_isr_in_a_handler_readies_the_parked_consumer),
        cmocka_unit_test(try_push_in_a_handler_readies_the_parked_consumer),
        cmocka_unit_test(pop_from_isr_in_a_handler_readies_the_parked_producer),
        cmocka_unit_test(pop_bulk_from_isr_in_a_handler_readies_the_parked_producer),
        cmocka_unit_test(interrupt_safe_calls_report_each_outcome_in_a_handler),
        cmocka_unit_test(set_fence_refuses_what_is_not_a_fence),
        cmocka_unit_test(a_ring_keeps_the_fence_it_was_created_with),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
