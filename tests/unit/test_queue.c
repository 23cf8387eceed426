/* Unit tests of include/rtipc/queue.h: every return path of every call
 * (task and _from_isr variants), FIFO / front / peek / overwrite / reset
 * semantics, timeouts (including the deadline a woken waiter keeps when it
 * retries), memory footprint, calling contexts, and the priority order of
 * blocked receivers and senders.
 *
 * Worker tasks never assert: they record what they saw in a worker_t and
 * publish it with a release store of `done`; the main thread asserts after
 * an acquire load of `done` or after joining. Worker records live in static
 * storage and every test releases its tasks (join, or delete when a call
 * never returned) before asserting, so a failing test leaves nothing behind.
 *
 * "Blocked" is checked, not assumed: a worker counts as blocked once it has
 * announced its call and its thread is asleep in /proc (see start_worker).
 *
 * Not covered: RTIPC_ENOMEM from a blocking call ("a foreign calling thread
 * could not be adopted") needs an allocation failure inside rtipc__self(),
 * which recycles task descriptors and cannot be made to fail from a test
 * without fault injection. */
#include "../../src/common/handle.h"
#include "test_support.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* The ENOMEM test makes an allocation fail on purpose; the sanitizers must
 * return NULL then instead of aborting the program. */
#if defined(__SANITIZE_ADDRESS__)
#define TQ_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TQ_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define TQ_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TQ_TSAN 1
#endif
#endif
#ifdef TQ_ASAN
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }
#endif
#ifdef TQ_TSAN
const char *__tsan_default_options(void);
const char *__tsan_default_options(void) { return "allocator_may_return_null=1"; }
#endif

#define NS_PER_MS INT64_C(1000000)
/* Extra time a task gets after it is seen asleep in its blocking call (or,
 * where /proc is missing, after it said it is about to make the call). */
#define SETTLE_MS 5
#define SETTLE_BLIND_MS 50
/* Slack allowed past a timeout (noisy machines, sanitizer builds); a timing
 * measurement that overshoots it is retried, a too-early one never is. */
#define LATE_MS 200
#define TIMING_ATTEMPTS 3
/* Timeouts of the timing tests: longer than LATE_MS, so that a timeout that
 * is doubled (or restarted after a wake-up) cannot pass for a late one. */
#define TIMEOUT_MS 250
/* Bound on "this happens promptly": only ever waited out when a test fails,
 * or when other processes' real-time tasks hog the cores. */
#define PROMPT_MS 5000
/* Timeout of worker calls that are expected to be woken long before it; a
 * worker that returns only near it was not woken (its last attempt at the
 * timeout may still succeed, which must not count as a wake-up). */
#define LONG_MS 20000
/* Worker priorities are given relative to this base (0..7 above it). Only
 * their order matters to the tests; a high base keeps the workers, which
 * block almost all the time, from being starved by other programs'
 * real-time tasks on the same core. */
#define PRIO_BASE (RTIPC_PRIORITY_LEVELS >= 16 ? RTIPC_PRIORITY_LEVELS - 8 : 0)
_Static_assert(PRIO_BASE + 7 < RTIPC_PRIORITY_LEVELS, "need 8 priority levels");

/* ---- worker tasks ------------------------------------------------------ */
typedef enum { OP_SEND, OP_SEND_TO_FRONT, OP_RECEIVE, OP_PEEK, OP_OVERWRITE } op_kind_t;

typedef struct {
    /* set by the main thread before start */
    rtipc_queue_t *q;
    op_kind_t op;
    rtipc_timeout_t timeout;
    int value;        /* item to send */
    int *completions; /* optional shared counter of finished calls */
    rtipc_irq_t *arm_irq;  /* optional: one-shot timer started just before */
    int64_t arm_delay_ns;  /* the call, to fire this long after t_start */
    /* written by the task; `started` and `done` through __atomic */
    int tid;          /* its kernel thread id, 0 if unknown */
    int started;      /* about to make the call; tid is set */
    int done;         /* the call has returned; results below are final */
    int rc;
    int got;          /* item received or peeked */
    int order;        /* value of *completions before this one finished */
    int64_t t_start;  /* rtipc_time_ns() just before the call */
    int64_t elapsed_ns;
    /* main thread only */
    int seen_blocked; /* start_worker saw it asleep in its call */
} worker_t;

static worker_t make_worker(rtipc_queue_t *q, op_kind_t op, int value, rtipc_timeout_t timeout)
{
    worker_t w;
    memset(&w, 0, sizeof w);
    w.q = q;
    w.op = op;
    w.value = value;
    w.timeout = timeout;
    w.got = -1;
    w.order = -1;
    w.rc = 1; /* not an rtipc code: "never returned" */
    return w;
}

/* One call of the queue API, by kind: item is what is sent, or where the
 * received or peeked item goes. */
static int queue_call(rtipc_queue_t *q, op_kind_t op, void *item, rtipc_timeout_t timeout)
{
    switch (op) {
    case OP_SEND:
        return rtipc_queue_send(q, item, timeout);
    case OP_SEND_TO_FRONT:
        return rtipc_queue_send_to_front(q, item, timeout);
    case OP_RECEIVE:
        return rtipc_queue_receive(q, item, timeout);
    case OP_PEEK:
        return rtipc_queue_peek(q, item, timeout);
    case OP_OVERWRITE:
        return rtipc_queue_overwrite(q, item);
    }
    return 1; /* not an rtipc code */
}

static void worker(void *arg)
{
    worker_t *w = arg;
    int item = -1;
    int rc = 1;
    w->tid = test_thread_id();
    int64_t t0 = rtipc_time_ns();
    w->t_start = t0;
    if (w->arm_irq)
        rtipc_irq_timer_start(w->arm_irq, w->arm_delay_ns, 0);
    __atomic_store_n(&w->started, 1, __ATOMIC_RELEASE);
    bool takes = w->op == OP_RECEIVE || w->op == OP_PEEK;
    rc = queue_call(w->q, w->op, takes ? (void *)&item : (void *)&w->value, w->timeout);
    w->elapsed_ns = rtipc_time_ns() - t0;
    w->rc = rc;
    w->got = item;
    if (w->completions)
        w->order = __atomic_fetch_add(w->completions, 1, __ATOMIC_ACQ_REL);
    __atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
}

static int is_done(worker_t *w) { return __atomic_load_n(&w->done, __ATOMIC_ACQUIRE); }

static void sleep_ns(int64_t ns)
{
    if (ns <= 0)
        return;
    struct timespec ts = {(time_t)(ns / 1000000000), (long)(ns % 1000000000)};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

/* Poll until *flag == want (acquire) or ms milliseconds have passed by the
 * clock; returns whether it happened. */
static int wait_flag(int *flag, int want, unsigned ms)
{
    int64_t deadline = rtipc_time_ns() + (int64_t)ms * NS_PER_MS;
    for (;;) {
        if (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == want)
            return 1;
        if (rtipc_time_ns() >= deadline)
            return 0;
        sleep_ns(100000);
    }
}

static int wait_done(worker_t *w, unsigned ms) { return wait_flag(&w->done, 1, ms); }

/* The worker's call returned success well before its LONG_MS timeout, i.e.
 * it was woken and did not merely succeed in its last attempt. */
static int woken_in_time(const worker_t *w)
{
    return w->rc == RTIPC_OK && w->elapsed_ns < (int64_t)(LONG_MS - 2000) * NS_PER_MS;
}

/* Wait up to ms for the worker's call to return, then release its task:
 * joined if the call returned, else deleted (which wakes it out of the
 * blocking call), so that a failing test leaves no task behind. Returns
 * whether the call returned. */
static int finish_worker(rtipc_task_t *t, worker_t *w, unsigned ms)
{
    int done = wait_done(w, ms);
    if (done)
        join_task(t);
    else
        assert_int_equal(rtipc_task_delete(t), RTIPC_OK);
    return done;
}

/* Start a worker pinned to core 0, at priority PRIO_BASE + rel_priority, and
 * wait until it is blocked in its call:
 * it said it is about to make the call, and then its thread is asleep (the
 * only place it can sleep is the park of the blocking call; uncontended
 * locks do not sleep). Sets w->seen_blocked; tests assert it after joining,
 * so that no assertion leaves a task running behind. */
static rtipc_task_t *start_worker(const char *name, unsigned rel_priority, worker_t *w)
{
    rtipc_task_t *t = start_task(name, PRIO_BASE + rel_priority, test_core(0), worker, w);
    w->seen_blocked = test_wait_parked(&w->started, &w->done, &w->tid, PROMPT_MS, SETTLE_MS, SETTLE_BLIND_MS);
    return t;
}

/* ---- small helpers (main thread only) ----------------------------------- */
static rtipc_queue_t *new_queue(size_t length, size_t item_size)
{
    rtipc_queue_t *q = NULL;
    assert_int_equal(rtipc_queue_create(length, item_size, &q), RTIPC_OK);
    assert_non_null(q);
    return q;
}

static void send_int(rtipc_queue_t *q, int v) { assert_int_equal(rtipc_queue_send(q, &v, RTIPC_NO_WAIT), RTIPC_OK); }

static int receive_int(rtipc_queue_t *q)
{
    int v = -1;
    assert_int_equal(rtipc_queue_receive(q, &v, RTIPC_NO_WAIT), RTIPC_OK);
    return v;
}

static void assert_counts(rtipc_queue_t *q, int waiting, int spaces)
{
    assert_int_equal(rtipc_queue_messages_waiting(q), waiting);
    assert_int_equal(rtipc_queue_spaces_available(q), spaces);
}

/* Run op on q in a worker with a timeout of timeout_ms and check that it
 * fails with RTIPC_ETIMEDOUT, copies nothing out, never returns before the
 * timeout and not much after it. The worker runs at a high real-time
 * priority and measures itself, so the result does not depend on the main
 * thread getting the CPU; an overshoot is still retried, an early return
 * never is. */
static void assert_times_out_after_about(rtipc_queue_t *q, op_kind_t op, unsigned timeout_ms)
{
    static worker_t w;
    int64_t best = INT64_MAX;
    int finished = 1, all_timed_out = 1, nothing_copied = 1, never_early = 1;
    for (int attempt = 0; attempt < TIMING_ATTEMPTS; ++attempt) {
        w = make_worker(q, op, 99, rtipc_ms(timeout_ms));
        rtipc_task_t *t = start_task("timed", PRIO_BASE + 7, test_core(0), worker, &w);
        finished = finish_worker(t, &w, timeout_ms + PROMPT_MS);
        if (!finished)
            break;
        all_timed_out = all_timed_out && w.rc == RTIPC_ETIMEDOUT;
        nothing_copied = nothing_copied && w.got == -1;
        never_early = never_early && w.elapsed_ns >= (int64_t)timeout_ms * NS_PER_MS;
        if (w.elapsed_ns < best)
            best = w.elapsed_ns;
        if (best < (int64_t)(timeout_ms + LATE_MS) * NS_PER_MS)
            break;
    }
    assert_true(finished);
    assert_true(all_timed_out);
    assert_true(nothing_copied);
    assert_true(never_early);
    assert_true(best < (int64_t)(timeout_ms + LATE_MS) * NS_PER_MS);
}

/* Every call on a handle that is not a live queue gives RTIPC_EINVAL (and
 * footprint 0), and touches nothing. */
static void assert_handle_invalid_everywhere(rtipc_queue_t *q)
{
    int v = 7;
    assert_int_equal(rtipc_queue_send(q, &v, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_send(q, &v, rtipc_ms(10)), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_send_to_front(q, &v, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_receive(q, &v, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_receive(q, &v, rtipc_ms(10)), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_peek(q, &v, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_overwrite(q, &v), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_reset(q), RTIPC_EINVAL);
    bool woken = false;
    assert_int_equal(rtipc_queue_send_from_isr(q, &v, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_send_to_front_from_isr(q, &v, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_overwrite_from_isr(q, &v, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_receive_from_isr(q, &v, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_peek_from_isr(q, &v), RTIPC_EINVAL);
    assert_false(woken);
    assert_int_equal(rtipc_queue_messages_waiting(q), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_spaces_available(q), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_footprint(q), 0);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_EINVAL);
    assert_int_equal(v, 7);
}

/* ======================================================================== */
/* create                                                                    */
/* ======================================================================== */
static void create_gives_an_empty_queue_of_the_requested_length(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(5, sizeof(int));
    assert_counts(q, 0, 5);
    int v = -1;
    assert_int_equal(rtipc_queue_receive(q, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    for (int i = 0; i < 5; ++i)
        send_int(q, i);
    assert_counts(q, 5, 0);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void create_with_null_out_is_invalid(void **state)
{
    (void)state;
    assert_int_equal(rtipc_queue_create(4, sizeof(int), NULL), RTIPC_EINVAL);
}

static void create_with_zero_length_or_item_size_is_invalid(void **state)
{
    (void)state;
    rtipc_queue_t *q = NULL;
    assert_int_equal(rtipc_queue_create(0, sizeof(int), &q), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_create(4, 0, &q), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_create(0, 0, &q), RTIPC_EINVAL);
    assert_null(q);
}

static void create_with_overflowing_shape_is_invalid(void **state)
{
    (void)state;
    rtipc_queue_t *q = NULL;
    /* length above INT32_MAX, even with 1-byte items */
    assert_int_equal(rtipc_queue_create((size_t)INT32_MAX + 1, 1, &q), RTIPC_EINVAL);
    /* more than UINT32_MAX bytes */
    assert_int_equal(rtipc_queue_create(2, UINT32_MAX, &q), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_create(65536, 65536, &q), RTIPC_EINVAL);
    /* products that wrap size_t */
    assert_int_equal(rtipc_queue_create(SIZE_MAX, SIZE_MAX, &q), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_create(2, SIZE_MAX / 2 + 1, &q), RTIPC_EINVAL);
#if SIZE_MAX > UINT32_MAX
    assert_int_equal(rtipc_queue_create(1, (size_t)UINT32_MAX + 1, &q), RTIPC_EINVAL);
#endif
    assert_null(q);
}

/* Creates (and at once deletes) the largest valid queue through the
 * rtipc_queue_t * that out points at (left NULL on failure); its result.
 * Both ports' branches below use it, so they ask for the same queue. */
static int create_largest_queue(void *out)
{
    rtipc_queue_t **q = out;
    int rc = rtipc_queue_create(1, UINT32_MAX, q);
    if (rc == RTIPC_OK)
        rtipc_queue_delete(*q);
    return rc;
}

static void create_fails_with_enomem_when_memory_is_exhausted(void **state)
{
    (void)state;
    if (RTIPC_PORT_FREERTOS) {
        /* The kernel's heap (configTOTAL_HEAP_SIZE) cannot hold the largest
         * valid queue. */
        rtipc_queue_t *q = NULL;
        assert_int_equal(create_largest_queue(&q), RTIPC_ENOMEM);
        assert_null(q);
        return;
    }
    /* Ask for the largest valid queue (UINT32_MAX bytes of storage) with the
     * address space capped a little above what the process maps now. */
    rtipc_queue_t *q = NULL;
    assert_int_equal(with_address_space_capped(create_largest_queue, &q), RTIPC_ENOMEM);
    /* And the same shape is a valid one: the refusal was about memory. */
    assert_true(rtipc_queue_footprint_for(1, UINT32_MAX) > UINT32_MAX);
}

/* ======================================================================== */
/* create_static                                                             */
/* ======================================================================== */
static void static_queue_uses_caller_storage(void **state)
{
    (void)state;
    rtipc_queue_static_t cb;
    uint32_t storage[3];
    memset(storage, 0, sizeof storage);
    rtipc_queue_t *q = NULL;
    assert_int_equal(rtipc_queue_create_static(3, sizeof(uint32_t), storage, &cb, &q), RTIPC_OK);
    /* The handle is a table entry (src/common/handle.h), not the caller's
     * memory, and it names the control block there. */
    assert_ptr_not_equal((void *)q, (void *)&cb);
    assert_ptr_equal(rtipc__handle_get(q, RTIPC__H_QUEUE), (void *)&cb);
    assert_counts(q, 0, 3);
    uint32_t a = 0x11223344u, b = 0x55667788u, c = 0x99aabbccu;
    assert_int_equal(rtipc_queue_send(q, &a, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_queue_send(q, &b, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_queue_send(q, &c, RTIPC_NO_WAIT), RTIPC_OK);
    /* The items live in the caller's storage, in ring order. */
    assert_int_equal(storage[0], a);
    assert_int_equal(storage[1], b);
    assert_int_equal(storage[2], c);
    assert_int_equal(rtipc_queue_send(q, &a, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    uint32_t out = 0;
    assert_int_equal(rtipc_queue_receive(q, &out, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(out, a);
    assert_int_equal(rtipc_queue_footprint(q), rtipc_queue_footprint_for(3, sizeof(uint32_t)));
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void static_create_with_null_arguments_is_invalid(void **state)
{
    (void)state;
    rtipc_queue_static_t cb;
    int storage[4];
    rtipc_queue_t *q = NULL;
    assert_int_equal(rtipc_queue_create_static(4, sizeof(int), storage, &cb, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_create_static(4, sizeof(int), storage, NULL, &q), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_create_static(4, sizeof(int), NULL, &cb, &q), RTIPC_EINVAL);
    assert_null(q);
}

static void static_create_with_zero_or_overflowing_shape_is_invalid(void **state)
{
    (void)state;
    rtipc_queue_static_t cb;
    int storage[4];
    rtipc_queue_t *q = NULL;
    assert_int_equal(rtipc_queue_create_static(0, sizeof(int), storage, &cb, &q), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_create_static(4, 0, storage, &cb, &q), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_create_static((size_t)INT32_MAX + 1, 1, storage, &cb, &q), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_create_static(2, UINT32_MAX, storage, &cb, &q), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_create_static(SIZE_MAX, SIZE_MAX, storage, &cb, &q), RTIPC_EINVAL);
    assert_null(q);
    /* None of these made cb a live queue. */
    memset(&cb, 0, sizeof cb);
    assert_int_equal(rtipc_queue_create_static(0, 4, storage, &cb, &q), RTIPC_EINVAL);
    assert_handle_invalid_everywhere((rtipc_queue_t *)(void *)&cb);
}

static void deleted_static_queue_handle_is_invalid(void **state)
{
    (void)state;
    int storage[2];
    rtipc_queue_static_t cb;
    rtipc_queue_t *q = NULL;
    assert_int_equal(rtipc_queue_create_static(2, sizeof(int), storage, &cb, &q), RTIPC_OK);
    send_int(q, 1);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
    assert_handle_invalid_everywhere(q);
    /* The memory can be used again for a new queue. */
    assert_int_equal(rtipc_queue_create_static(2, sizeof(int), storage, &cb, &q), RTIPC_OK);
    assert_counts(q, 0, 2);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void never_created_handle_is_invalid(void **state)
{
    (void)state;
    rtipc_queue_static_t junk;
    memset(&junk, 0, sizeof junk);
    assert_handle_invalid_everywhere((rtipc_queue_t *)(void *)&junk);
    memset(&junk, 0xa5, sizeof junk);
    assert_handle_invalid_everywhere((rtipc_queue_t *)(void *)&junk);
}

static void null_handle_is_invalid(void **state)
{
    (void)state;
    assert_handle_invalid_everywhere(NULL);
}

/* ======================================================================== */
/* delete                                                                    */
/* ======================================================================== */
static void delete_discards_items_still_in_the_queue(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(3, sizeof(int));
    send_int(q, 1);
    send_int(q, 2);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

/* ---- a blocked worker, woken by what the main thread does -------------- */
/* The worker (priority 3) blocks in its call; the main thread may first try
 * to delete the queue (refused busy while someone waits: such rows use a
 * static queue, so that a delete that wrongly succeeds leaves the worker's
 * memory valid), or reset it (which frees no item, so a receiver stays
 * blocked); then it makes the call that wakes the worker. */
typedef enum { WAKE_BY_SEND, WAKE_BY_RECEIVE, WAKE_BY_OVERWRITE, WAKE_BY_SEND_AFTER_RESET } wake_act_t;

typedef struct {
    const char *name;  /* the test's name (first: TABLE_TEST) */
    const char *task;  /* the worker's */
    size_t length;
    int prefill[2];    /* sent before the worker starts */
    int n_prefill;
    op_kind_t op;      /* the worker's call ... */
    int value;         /* ... the item it sends ... */
    bool forever;      /* ... and its timeout: RTIPC_FOREVER, else LONG_MS */
    bool try_delete;   /* delete first: refused busy, nothing changes */
    wake_act_t act;
    int act_value;     /* the item the main thread sends or overwrites */
    int want_first;    /* WAKE_BY_RECEIVE: the item the main thread gets */
    int want_got;      /* OP_RECEIVE, OP_PEEK: the item the worker gets */
    int left[2];       /* the items left in the queue, in order */
    int n_left;
} wake_case_t;

static const wake_case_t wake_cases[] = {
    {.name = "delete_with_waiting_receiver_is_refused_busy", .task = "rx", .length = 2, .op = OP_RECEIVE,
     .try_delete = true, .act = WAKE_BY_SEND, .act_value = 42, .want_got = 42},
    {.name = "delete_with_waiting_sender_is_refused_busy", .task = "tx", .length = 1, .prefill = {1}, .n_prefill = 1,
     .op = OP_SEND, .value = 2, .try_delete = true, .act = WAKE_BY_RECEIVE, .want_first = 1, .left = {2},
     .n_left = 1},
    {.name = "blocked_send_completes_when_a_receiver_makes_space", .task = "tx", .length = 1, .prefill = {1},
     .n_prefill = 1, .op = OP_SEND, .value = 2, .forever = true, .act = WAKE_BY_RECEIVE, .want_first = 1,
     .left = {2}, .n_left = 1},
    {.name = "blocked_send_to_front_puts_its_item_first_once_space_appears", .task = "txf", .length = 2,
     .prefill = {1, 2}, .n_prefill = 2, .op = OP_SEND_TO_FRONT, .value = 9, .act = WAKE_BY_RECEIVE, .want_first = 1,
     .left = {9, 2}, .n_left = 2},
    {.name = "blocked_receive_forever_gets_an_item_sent_later", .task = "rx", .length = 2, .op = OP_RECEIVE,
     .forever = true, .act = WAKE_BY_SEND, .act_value = 77, .want_got = 77},
    {.name = "timed_receive_returns_the_item_before_the_timeout", .task = "rx", .length = 2, .op = OP_RECEIVE,
     .act = WAKE_BY_SEND, .act_value = 8, .want_got = 8},
    {.name = "blocked_peek_sees_an_item_sent_later_and_leaves_it", .task = "peek", .length = 2, .op = OP_PEEK,
     .act = WAKE_BY_SEND, .act_value = 31, .want_got = 31, .left = {31}, .n_left = 1},
    {.name = "overwrite_wakes_a_waiting_receiver", .task = "rx", .length = 1, .op = OP_RECEIVE,
     .act = WAKE_BY_OVERWRITE, .act_value = 66, .want_got = 66},
    {.name = "reset_keeps_receivers_blocked", .task = "rx", .length = 2, .op = OP_RECEIVE,
     .act = WAKE_BY_SEND_AFTER_RESET, .act_value = 12, .want_got = 12},
};

static void blocked_worker_is_woken(void **state)
{
    const wake_case_t *c = *state;
    static rtipc_queue_static_t cb;
    static int storage[2];
    static worker_t w;
    rtipc_queue_t *q = NULL;
    if (c->try_delete)
        assert_int_equal(rtipc_queue_create_static(c->length, sizeof(int), storage, &cb, &q), RTIPC_OK);
    else
        q = new_queue(c->length, sizeof(int));
    for (int i = 0; i < c->n_prefill; ++i)
        send_int(q, c->prefill[i]);
    w = make_worker(q, c->op, c->value, c->forever ? RTIPC_FOREVER : rtipc_ms(LONG_MS));
    rtipc_task_t *t = start_worker(c->task, 3, &w);
    /* (With no waiter yet, the delete would rightly succeed.) */
    int rc_delete = c->try_delete && w.seen_blocked ? rtipc_queue_delete(q) : RTIPC_EBUSY;
    int waiting = rtipc_queue_messages_waiting(q);
    int rc_reset = c->act == WAKE_BY_SEND_AFTER_RESET ? rtipc_queue_reset(q) : RTIPC_OK;
    if (c->act == WAKE_BY_SEND_AFTER_RESET)
        sleep_ms(50);
    int still_blocked = !is_done(&w);
    int item = c->act_value, first = -1, rc_act;
    if (c->act == WAKE_BY_RECEIVE)
        rc_act = rtipc_queue_receive(q, &first, RTIPC_NO_WAIT);
    else if (c->act == WAKE_BY_OVERWRITE)
        rc_act = rtipc_queue_overwrite(q, &item);
    else
        rc_act = rtipc_queue_send(q, &item, RTIPC_NO_WAIT);
    int ok = finish_worker(t, &w, PROMPT_MS);
    assert_true(w.seen_blocked);
    if (c->try_delete) {
        /* Not deleted: still usable, and the waiter still waits. */
        assert_int_equal(rc_delete, RTIPC_EBUSY);
        assert_int_equal(waiting, c->n_prefill);
    }
    if (c->try_delete || c->act == WAKE_BY_SEND_AFTER_RESET)
        assert_true(still_blocked);
    if (c->act == WAKE_BY_SEND_AFTER_RESET)
        assert_int_equal(rc_reset, RTIPC_OK);
    assert_int_equal(rc_act, RTIPC_OK);
    if (c->act == WAKE_BY_RECEIVE)
        assert_int_equal(first, c->want_first);
    assert_true(ok);
    assert_true(woken_in_time(&w));
    if (c->op == OP_RECEIVE || c->op == OP_PEEK)
        assert_int_equal(w.got, c->want_got);
    assert_true(w.elapsed_ns < (int64_t)LONG_MS * NS_PER_MS);
    assert_counts(q, c->n_left, (int)c->length - c->n_left);
    for (int i = 0; i < c->n_left; ++i)
        assert_int_equal(receive_int(q), c->left[i]);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void delete_of_a_queue_in_a_set_is_refused_busy(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(2, sizeof(int));
    rtipc_queueset_t *set = NULL;
    assert_int_equal(rtipc_queueset_create(4, &set), RTIPC_OK);
    assert_int_equal(rtipc_queueset_add_queue(set, q), RTIPC_OK);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_EBUSY);
    /* Not deleted: still a working member. */
    send_int(q, 3);
    void *member = NULL;
    assert_int_equal(rtipc_queueset_select(set, &member, RTIPC_NO_WAIT), RTIPC_OK);
    assert_ptr_equal(member, (void *)q);
    assert_int_equal(receive_int(q), 3);
    assert_int_equal(rtipc_queueset_remove_queue(set, q), RTIPC_OK);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
    assert_int_equal(rtipc_queueset_delete(set), RTIPC_OK);
}

/* ======================================================================== */
/* send / send_to_front / receive                                            */
/* ======================================================================== */
static void send_and_receive_are_fifo(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(4, sizeof(int));
    for (int i = 1; i <= 4; ++i)
        send_int(q, i * 10);
    for (int i = 1; i <= 4; ++i)
        assert_int_equal(receive_int(q), i * 10);
    assert_counts(q, 0, 4);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void send_copies_the_item_by_value(void **state)
{
    (void)state;
    typedef struct {
        char text[12];
        uint64_t n;
    } msg_t;
    rtipc_queue_t *q = new_queue(2, sizeof(msg_t));
    msg_t m = {"first", 1};
    assert_int_equal(rtipc_queue_send(q, &m, RTIPC_NO_WAIT), RTIPC_OK);
    /* Changing the source after the send does not change the queued item. */
    strcpy(m.text, "changed");
    m.n = 99;
    msg_t out;
    memset(&out, 0, sizeof out);
    assert_int_equal(rtipc_queue_receive(q, &out, RTIPC_NO_WAIT), RTIPC_OK);
    assert_string_equal(out.text, "first");
    assert_int_equal(out.n, 1);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void fifo_order_survives_ring_wraparound(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(3, sizeof(int));
    int next_in = 0, next_out = 0;
    send_int(q, next_in++);
    send_int(q, next_in++);
    /* Keep two items in a ring of three for many laps. */
    for (int i = 0; i < 20; ++i) {
        send_int(q, next_in++);
        assert_int_equal(receive_int(q), next_out++);
        assert_counts(q, 2, 1);
    }
    assert_int_equal(receive_int(q), next_out++);
    assert_int_equal(receive_int(q), next_out++);
    assert_int_equal(next_out, next_in);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void send_to_front_item_is_received_first(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(4, sizeof(int));
    send_int(q, 1);
    send_int(q, 2);
    int urgent = 99;
    assert_int_equal(rtipc_queue_send_to_front(q, &urgent, RTIPC_NO_WAIT), RTIPC_OK);
    assert_counts(q, 3, 1);
    assert_int_equal(receive_int(q), 99);
    assert_int_equal(receive_int(q), 1);
    assert_int_equal(receive_int(q), 2);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void send_to_front_and_back_mix_across_the_ring_edge(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(3, sizeof(int));
    int v = 1;
    /* Front on an empty ring wraps the head below 0; back then wraps the tail. */
    assert_int_equal(rtipc_queue_send_to_front(q, &v, RTIPC_NO_WAIT), RTIPC_OK);
    send_int(q, 2);
    v = 3;
    assert_int_equal(rtipc_queue_send_to_front(q, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_counts(q, 3, 0);
    assert_int_equal(rtipc_queue_send_to_front(q, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(receive_int(q), 3);
    assert_int_equal(receive_int(q), 1);
    assert_int_equal(receive_int(q), 2);
    assert_counts(q, 0, 3);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

/* ---- calls refused at once, leaving the queue as it was ----------------- */
/* The queue holds the items 1, 2, ... (n_prefill of them); every call of the
 * row returns want_rc, copies nothing out, and afterwards the queue holds
 * exactly what it held, in order. */
typedef struct {
    op_kind_t op;
    int timeout_ms; /* test_timeout_ms */
} call_t;

typedef struct {
    const char *name;
    size_t length;
    int n_prefill;
    bool null_item;
    int want_rc;
    call_t calls[4];
    int n_calls;
} refused_case_t;

static const refused_case_t refused_cases[] = {
    {"send_with_no_wait_on_full_queue_would_block", 2, 2, false, RTIPC_EWOULDBLOCK, {{OP_SEND, 0}}, 1},
    {"send_to_front_with_no_wait_on_full_queue_would_block", 1, 1, false, RTIPC_EWOULDBLOCK,
     {{OP_SEND_TO_FRONT, 0}}, 1},
    {"send_with_null_item_is_invalid", 2, 0, true, RTIPC_EINVAL,
     {{OP_SEND, 0}, {OP_SEND, 10}, {OP_SEND_TO_FRONT, 0}, {OP_SEND_TO_FRONT, -1}}, 4},
    {"receive_with_null_item_is_invalid", 2, 1, true, RTIPC_EINVAL, {{OP_RECEIVE, 0}, {OP_RECEIVE, 10}}, 2},
    {"peek_with_no_wait_on_empty_queue_would_block", 2, 0, false, RTIPC_EWOULDBLOCK, {{OP_PEEK, 0}}, 1},
    {"peek_with_null_item_is_invalid", 2, 1, true, RTIPC_EINVAL, {{OP_PEEK, 0}, {OP_PEEK, -1}}, 2},
    {"overwrite_on_length_2_queue_is_refused", 2, 1, false, RTIPC_ENOTSUP, {{OP_OVERWRITE, 0}}, 1},
    {"overwrite_with_null_item_is_invalid", 1, 1, true, RTIPC_EINVAL, {{OP_OVERWRITE, 0}}, 1},
};

static void refused_call_leaves_the_queue(void **state)
{
    const refused_case_t *c = *state;
    rtipc_queue_t *q = new_queue(c->length, sizeof(int));
    for (int i = 1; i <= c->n_prefill; ++i)
        send_int(q, i);
    for (int i = 0; i < c->n_calls; ++i) {
        int v = 123;
        int rc = queue_call(q, c->calls[i].op, c->null_item ? NULL : &v, test_timeout_ms(c->calls[i].timeout_ms));
        assert_int_equal(rc, c->want_rc);
        if (!c->null_item)
            assert_int_equal(v, 123); /* untouched */
    }
    assert_counts(q, c->n_prefill, (int)c->length - c->n_prefill);
    for (int i = 1; i <= c->n_prefill; ++i)
        assert_int_equal(receive_int(q), i);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

/* ---- calls that time out ------------------------------------------------ */
typedef struct {
    const char *name;
    op_kind_t op;
    size_t length;
    int n_prefill; /* the items 1, 2, ...: full for the senders */
} timeout_case_t;

static const timeout_case_t timeout_cases[] = {
    {"send_times_out_after_about_the_timeout", OP_SEND, 1, 1},
    {"send_to_front_times_out_after_about_the_timeout", OP_SEND_TO_FRONT, 1, 1},
    {"receive_times_out_after_about_the_timeout", OP_RECEIVE, 2, 0},
    {"peek_times_out_after_about_the_timeout", OP_PEEK, 2, 0},
};

static void call_times_out_after_about_the_timeout(void **state)
{
    const timeout_case_t *c = *state;
    rtipc_queue_t *q = new_queue(c->length, sizeof(int));
    for (int i = 1; i <= c->n_prefill; ++i)
        send_int(q, i);
    assert_times_out_after_about(q, c->op, TIMEOUT_MS);
    /* The queue still holds only the original items. */
    assert_counts(q, c->n_prefill, (int)c->length - c->n_prefill);
    for (int i = 1; i <= c->n_prefill; ++i)
        assert_int_equal(receive_int(q), i);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void receive_with_no_wait_on_empty_queue_would_block(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(2, sizeof(int));
    int v = 123;
    assert_int_equal(rtipc_queue_receive(q, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(v, 123); /* untouched */
    send_int(q, 5);
    assert_int_equal(receive_int(q), 5);
    assert_int_equal(rtipc_queue_receive(q, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void adopted_main_thread_blocks_and_times_out(void **state)
{
    (void)state;
    /* The main thread was not created by rtipc: its first blocking call
     * adopts it as a task, and then it waits like one. */
    rtipc_queue_t *q = new_queue(1, sizeof(int));
    int v = 123;
    int64_t t0 = rtipc_time_ns();
    int rc = rtipc_queue_receive(q, &v, rtipc_ms(50));
    int64_t elapsed = rtipc_time_ns() - t0;
    assert_int_equal(rc, RTIPC_ETIMEDOUT);
    assert_int_equal(v, 123);
    assert_true(elapsed >= 50 * NS_PER_MS);
    assert_true(elapsed < (int64_t)PROMPT_MS * NS_PER_MS);
    send_int(q, 1);
    v = 2;
    t0 = rtipc_time_ns();
    rc = rtipc_queue_send(q, &v, rtipc_ms(50));
    elapsed = rtipc_time_ns() - t0;
    assert_int_equal(rc, RTIPC_ETIMEDOUT);
    assert_true(elapsed >= 50 * NS_PER_MS);
    assert_int_equal(receive_int(q), 1);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

/* ======================================================================== */
/* peek                                                                      */
/* ======================================================================== */
static void peek_leaves_the_item(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(3, sizeof(int));
    send_int(q, 7);
    send_int(q, 8);
    int v = -1;
    assert_int_equal(rtipc_queue_peek(q, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(v, 7);
    v = -1;
    assert_int_equal(rtipc_queue_peek(q, &v, rtipc_ms(10)), RTIPC_OK);
    assert_int_equal(v, 7);
    assert_counts(q, 2, 1);
    assert_int_equal(receive_int(q), 7);
    assert_int_equal(rtipc_queue_peek(q, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(v, 8);
    assert_int_equal(receive_int(q), 8);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void peek_wakes_the_next_waiting_receiver(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(2, sizeof(int));
    /* The peeker has the higher priority, so the send wakes it first; the
     * receiver gets the item only if the peek passes the wake-up on. */
    static worker_t peeker, receiver;
    peeker = make_worker(q, OP_PEEK, 0, rtipc_ms(LONG_MS));
    receiver = make_worker(q, OP_RECEIVE, 0, rtipc_ms(LONG_MS));
    rtipc_task_t *tp = start_worker("peek", 4, &peeker);
    rtipc_task_t *tr = start_worker("rx", 2, &receiver);
    send_int(q, 55);
    int peeked = finish_worker(tp, &peeker, PROMPT_MS);
    int received = finish_worker(tr, &receiver, PROMPT_MS);
    assert_true(peeker.seen_blocked);
    assert_true(receiver.seen_blocked);
    assert_true(peeked);
    assert_true(received);
    assert_true(woken_in_time(&peeker));
    assert_int_equal(peeker.got, 55);
    assert_true(woken_in_time(&receiver));
    assert_int_equal(receiver.got, 55);
    assert_counts(q, 0, 2);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

/* ======================================================================== */
/* overwrite                                                                 */
/* ======================================================================== */
static void overwrite_writes_into_an_empty_mailbox(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(1, sizeof(int));
    int v = 4;
    assert_int_equal(rtipc_queue_overwrite(q, &v), RTIPC_OK);
    assert_counts(q, 1, 0);
    assert_int_equal(receive_int(q), 4);
    assert_counts(q, 0, 1);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void overwrite_replaces_the_item_of_a_full_mailbox(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(1, sizeof(int));
    send_int(q, 1);
    for (int v = 2; v <= 5; ++v) {
        assert_int_equal(rtipc_queue_overwrite(q, &v), RTIPC_OK);
        assert_counts(q, 1, 0); /* never more than one */
    }
    assert_int_equal(receive_int(q), 5);
    assert_counts(q, 0, 1);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

/* ======================================================================== */
/* reset                                                                     */
/* ======================================================================== */
static void reset_empties_the_queue(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(3, sizeof(int));
    send_int(q, 1);
    send_int(q, 2);
    assert_int_equal(receive_int(q), 1);
    send_int(q, 3);
    assert_int_equal(rtipc_queue_reset(q), RTIPC_OK);
    assert_counts(q, 0, 3);
    int v = -1;
    assert_int_equal(rtipc_queue_receive(q, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    /* Works normally afterwards. */
    send_int(q, 4);
    send_int(q, 5);
    assert_int_equal(receive_int(q), 4);
    assert_int_equal(receive_int(q), 5);
    assert_int_equal(rtipc_queue_reset(q), RTIPC_OK); /* on an empty queue too */
    assert_counts(q, 0, 3);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void reset_wakes_only_the_highest_priority_sender(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(2, sizeof(int));
    send_int(q, 1);
    send_int(q, 2);
    static worker_t lo, hi;
    lo = make_worker(q, OP_SEND, 20, rtipc_ms(LONG_MS));
    hi = make_worker(q, OP_SEND, 30, rtipc_ms(LONG_MS));
    rtipc_task_t *tlo = start_worker("tx-lo", 1, &lo);
    rtipc_task_t *thi = start_worker("tx-hi", 3, &hi);
    int rc = rtipc_queue_reset(q);
    int hi_ok = wait_done(&hi, PROMPT_MS);
    sleep_ms(50);
    /* One sender was woken: the low one still waits although there is room. */
    int lo_still_blocked = !is_done(&lo);
    int waiting = rtipc_queue_messages_waiting(q);
    int first = -1;
    int rc_first = rtipc_queue_receive(q, &first, RTIPC_NO_WAIT); /* wakes lo */
    int lo_ok = finish_worker(tlo, &lo, PROMPT_MS);
    hi_ok = finish_worker(thi, &hi, 0) && hi_ok;
    assert_true(lo.seen_blocked);
    assert_true(hi.seen_blocked);
    assert_int_equal(rc, RTIPC_OK);
    assert_true(hi_ok);
    assert_true(woken_in_time(&hi));
    assert_true(lo_still_blocked);
    assert_int_equal(waiting, 1);
    assert_int_equal(rc_first, RTIPC_OK);
    assert_int_equal(first, 30);
    assert_true(lo_ok);
    assert_true(woken_in_time(&lo));
    assert_int_equal(receive_int(q), 20);
    assert_counts(q, 0, 2);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

/* ======================================================================== */
/* snapshots and footprint                                                   */
/* ======================================================================== */
static void messages_waiting_and_spaces_available_track_the_count(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(4, sizeof(int));
    assert_counts(q, 0, 4);
    send_int(q, 1);
    assert_counts(q, 1, 3);
    int v = 2;
    assert_int_equal(rtipc_queue_send_to_front(q, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_counts(q, 2, 2);
    assert_int_equal(rtipc_queue_peek(q, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_counts(q, 2, 2);
    send_int(q, 3);
    send_int(q, 4);
    assert_counts(q, 4, 0);
    assert_int_equal(rtipc_queue_send(q, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_counts(q, 4, 0);
    receive_int(q);
    assert_counts(q, 3, 1);
    assert_int_equal(rtipc_queue_reset(q), RTIPC_OK);
    assert_counts(q, 0, 4);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void footprint_counts_control_block_and_storage(void **state)
{
    (void)state;
    size_t cb = rtipc_queue_footprint_for(0, 0);
    assert_true(cb > 0);
    assert_int_equal(rtipc_queue_footprint_for(1, 1), cb + 1);
    assert_int_equal(rtipc_queue_footprint_for(10, 4), cb + 40);
    assert_int_equal(rtipc_queue_footprint_for(100, 24), cb + 2400);
    assert_int_equal(rtipc_queue_footprint_for(INT32_MAX, 1), cb + (size_t)INT32_MAX);
    assert_int_equal(rtipc_queue_footprint_for(1, UINT32_MAX), cb + (size_t)UINT32_MAX);
    rtipc_queue_t *q = new_queue(10, 4);
    assert_int_equal(rtipc_queue_footprint(q), cb + 40);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
    q = new_queue(3, 100);
    assert_int_equal(rtipc_queue_footprint(q), cb + 300);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
    /* A static queue counts the caller's memory the same way. */
    rtipc_queue_static_t scb;
    unsigned char storage[7 * 3];
    assert_int_equal(rtipc_queue_create_static(7, 3, storage, &scb, &q), RTIPC_OK);
    assert_int_equal(rtipc_queue_footprint(q), cb + 21);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void control_block_fits_in_64_bytes(void **state)
{
    (void)state;
    /* FreeRTOS's block holds the kernel's own queue (StaticQueue_t). */
    if (!RTIPC_PORT_FREERTOS)
        assert_true(rtipc_queue_footprint_for(0, 0) <= 64);
    assert_true(rtipc_queue_footprint_for(0, 0) <= sizeof(rtipc_queue_static_t));
}

static void footprint_of_invalid_shape_is_zero(void **state)
{
    (void)state;
    assert_int_equal(rtipc_queue_footprint_for(0, 4), 0);
    assert_int_equal(rtipc_queue_footprint_for(4, 0), 0);
    assert_int_equal(rtipc_queue_footprint_for((size_t)INT32_MAX + 1, 1), 0);
    assert_int_equal(rtipc_queue_footprint_for(2, UINT32_MAX), 0);
    assert_int_equal(rtipc_queue_footprint_for(65536, 65536), 0);
    assert_int_equal(rtipc_queue_footprint_for(SIZE_MAX, SIZE_MAX), 0);
    assert_int_equal(rtipc_queue_footprint_for(2, SIZE_MAX / 2 + 1), 0);
#if SIZE_MAX > UINT32_MAX
    assert_int_equal(rtipc_queue_footprint_for(1, (size_t)UINT32_MAX + 1), 0);
#endif
}

/* ======================================================================== */
/* _from_isr variants                                                        */
/* ======================================================================== */
static void isr_send_receive_and_peek_work_from_task_context(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(3, sizeof(int));
    bool woken = false;
    int v = 1;
    assert_int_equal(rtipc_queue_send_from_isr(q, &v, &woken), RTIPC_OK);
    v = 2;
    assert_int_equal(rtipc_queue_send_from_isr(q, &v, NULL), RTIPC_OK); /* woken is optional */
    v = 0;
    assert_int_equal(rtipc_queue_send_to_front_from_isr(q, &v, &woken), RTIPC_OK);
    assert_counts(q, 3, 0);
    v = 9;
    assert_int_equal(rtipc_queue_send_from_isr(q, &v, &woken), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_queue_send_to_front_from_isr(q, &v, NULL), RTIPC_EWOULDBLOCK);
    assert_counts(q, 3, 0);
    int out = -1;
    assert_int_equal(rtipc_queue_peek_from_isr(q, &out), RTIPC_OK);
    assert_int_equal(out, 0);
    assert_counts(q, 3, 0); /* peek leaves it */
    for (int i = 0; i < 3; ++i) {
        out = -1;
        assert_int_equal(rtipc_queue_receive_from_isr(q, &out, i == 1 ? NULL : &woken), RTIPC_OK);
        assert_int_equal(out, i);
    }
    out = 123;
    assert_int_equal(rtipc_queue_receive_from_isr(q, &out, &woken), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_queue_peek_from_isr(q, &out), RTIPC_EWOULDBLOCK);
    assert_int_equal(out, 123);
    assert_false(woken); /* no task was readied */
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void isr_calls_work_from_interrupt_context(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(2, sizeof(int));
    rtipc_queue_t *mailbox = new_queue(1, sizeof(int));
    int rc[10];
    int out[3] = {-1, -1, -1};
    bool woken = false;
    int a = 1, b = 2, c = 3, m1 = 7, m2 = 8;
    enter_interrupt_context();
    rc[0] = rtipc_queue_send_from_isr(q, &a, &woken);
    rc[1] = rtipc_queue_send_to_front_from_isr(q, &b, &woken);
    rc[2] = rtipc_queue_send_from_isr(q, &c, &woken); /* full */
    rc[3] = rtipc_queue_peek_from_isr(q, &out[0]);
    rc[4] = rtipc_queue_receive_from_isr(q, &out[1], &woken);
    rc[5] = rtipc_queue_receive_from_isr(q, &out[2], &woken);
    rc[6] = rtipc_queue_receive_from_isr(q, &c, &woken); /* empty */
    rc[7] = rtipc_queue_overwrite_from_isr(mailbox, &m1, &woken);
    rc[8] = rtipc_queue_overwrite_from_isr(mailbox, &m2, &woken);
    rc[9] = rtipc_queue_overwrite_from_isr(q, &m2, &woken); /* length 2 */
    leave_interrupt_context();
    assert_int_equal(rc[0], RTIPC_OK);
    assert_int_equal(rc[1], RTIPC_OK);
    assert_int_equal(rc[2], RTIPC_EWOULDBLOCK);
    assert_int_equal(rc[3], RTIPC_OK);
    assert_int_equal(out[0], 2);
    assert_int_equal(rc[4], RTIPC_OK);
    assert_int_equal(out[1], 2);
    assert_int_equal(rc[5], RTIPC_OK);
    assert_int_equal(out[2], 1);
    assert_int_equal(rc[6], RTIPC_EWOULDBLOCK);
    assert_int_equal(c, 3);
    assert_int_equal(rc[7], RTIPC_OK);
    assert_int_equal(rc[8], RTIPC_OK);
    assert_int_equal(rc[9], RTIPC_ENOTSUP);
    assert_false(woken);
    assert_counts(q, 0, 2);
    assert_counts(mailbox, 1, 0);
    assert_int_equal(receive_int(mailbox), 8);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
    assert_int_equal(rtipc_queue_delete(mailbox), RTIPC_OK);
}

static void overwrite_from_isr_replaces_the_item_and_refuses_longer_queues(void **state)
{
    (void)state;
    rtipc_queue_t *mailbox = new_queue(1, sizeof(int));
    rtipc_queue_t *q2 = new_queue(2, sizeof(int));
    int v = 1;
    assert_int_equal(rtipc_queue_overwrite_from_isr(mailbox, &v, NULL), RTIPC_OK);
    assert_counts(mailbox, 1, 0);
    v = 2;
    assert_int_equal(rtipc_queue_overwrite_from_isr(mailbox, &v, NULL), RTIPC_OK);
    assert_counts(mailbox, 1, 0);
    assert_int_equal(receive_int(mailbox), 2);
    send_int(q2, 5);
    assert_int_equal(rtipc_queue_overwrite_from_isr(q2, &v, NULL), RTIPC_ENOTSUP);
    assert_counts(q2, 1, 1);
    assert_int_equal(receive_int(q2), 5);
    assert_int_equal(rtipc_queue_delete(mailbox), RTIPC_OK);
    assert_int_equal(rtipc_queue_delete(q2), RTIPC_OK);
}

static void isr_calls_with_null_item_are_invalid(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(1, sizeof(int));
    bool woken = false;
    assert_int_equal(rtipc_queue_send_from_isr(q, NULL, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_send_to_front_from_isr(q, NULL, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_overwrite_from_isr(q, NULL, &woken), RTIPC_EINVAL);
    assert_counts(q, 0, 1);
    send_int(q, 4);
    assert_int_equal(rtipc_queue_receive_from_isr(q, NULL, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_peek_from_isr(q, NULL), RTIPC_EINVAL);
    assert_counts(q, 1, 0);
    assert_false(woken);
    assert_int_equal(receive_int(q), 4);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void isr_calls_never_clear_woken(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(1, sizeof(int));
    int v = 1;
    bool woken = true; /* only ever set by the calls, never cleared */
    assert_int_equal(rtipc_queue_send_from_isr(q, &v, &woken), RTIPC_OK);
    assert_true(woken);
    assert_int_equal(rtipc_queue_send_to_front_from_isr(q, &v, &woken), RTIPC_EWOULDBLOCK);
    assert_true(woken);
    assert_int_equal(rtipc_queue_overwrite_from_isr(q, &v, &woken), RTIPC_OK);
    assert_true(woken);
    assert_int_equal(rtipc_queue_receive_from_isr(q, &v, &woken), RTIPC_OK);
    assert_true(woken);
    assert_int_equal(rtipc_queue_receive_from_isr(q, &v, &woken), RTIPC_EWOULDBLOCK);
    assert_true(woken);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

/* A real interrupt handler (irq.h) that makes one _from_isr call and yields
 * as FreeRTOS handlers do. Records; never asserts. */
typedef enum { ISR_SEND, ISR_SEND_TO_FRONT, ISR_OVERWRITE, ISR_RECEIVE, ISR_SEND_AND_TAKE_BACK } isr_op_t;

typedef struct {
    rtipc_queue_t *q;
    isr_op_t op;
    int value;
    int got;
    int rc;
    int rc_take_back; /* ISR_SEND_AND_TAKE_BACK: the receive */
    int64_t t_fire;   /* rtipc_time_ns() when the handler ran */
    int yield_rc;
    bool woken;
    bool in_interrupt;
    int ran; /* __atomic */
} isr_job_t;

static void isr_handler(void *arg)
{
    isr_job_t *j = arg;
    bool woken = false;
    int item = -1;
    int rc = 1;
    j->t_fire = rtipc_time_ns();
    switch (j->op) {
    case ISR_SEND:
        rc = rtipc_queue_send_from_isr(j->q, &j->value, &woken);
        break;
    case ISR_SEND_TO_FRONT:
        rc = rtipc_queue_send_to_front_from_isr(j->q, &j->value, &woken);
        break;
    case ISR_OVERWRITE:
        rc = rtipc_queue_overwrite_from_isr(j->q, &j->value, &woken);
        break;
    case ISR_RECEIVE:
        rc = rtipc_queue_receive_from_isr(j->q, &item, &woken);
        break;
    case ISR_SEND_AND_TAKE_BACK:
        /* Readies the waiting receiver, then removes the item before the
         * receiver can run (the handler outranks every task of the core). */
        rc = rtipc_queue_send_from_isr(j->q, &j->value, &woken);
        j->rc_take_back = rtipc_queue_receive_from_isr(j->q, &item, &woken);
        break;
    }
    j->rc = rc;
    j->got = item;
    j->woken = woken;
    j->in_interrupt = rtipc_in_interrupt();
    j->yield_rc = rtipc_irq_yield(woken);
    __atomic_store_n(&j->ran, 1, __ATOMIC_RELEASE);
}

/* Block worker w (pinned to core 0, the only task there, so the core counts
 * as idle), run a handler on core 0 that does job j, and wait for both. */
static void run_isr_against_blocked_worker(isr_job_t *j, worker_t *w, int *ran, int *finished)
{
    int core = test_core(0) == RTIPC_CORE_ANY ? 0 : test_core(0);
    rtipc_task_t *t = start_worker("isr-peer", 5, w);
    rtipc_irq_t *irq = NULL;
    *ran = 0;
    *finished = 0;
    if (rtipc_irq_create(core, isr_handler, j, &irq) == RTIPC_OK) {
        if (rtipc_irq_trigger(irq) == RTIPC_OK)
            *ran = wait_flag(&j->ran, 1, PROMPT_MS);
        *finished = finish_worker(t, w, PROMPT_MS);
        rtipc_irq_delete(irq);
    } else {
        finish_worker(t, w, 0);
    }
}

/* Worker w (the receiver or sender of the row, blocked forever) is readied
 * by a handler's call: the handler sees itself in interrupt context, its call
 * succeeds and wakes a task that outranks an idle core, and its yield works. */
typedef struct {
    const char *name;
    isr_op_t op;
    size_t length;
    int n_prefill;   /* the items 1, 2, ... */
    int value;       /* what the handler sends */
    op_kind_t wop;   /* the worker's call ... */
    int wvalue;      /* ... and what it sends */
    int want_j_got;  /* what the handler receives (-1: nothing) */
    int want_w_got;  /* what the worker receives (-1: nothing) */
    int left;        /* the item left in the queue, or -1 */
} isr_case_t;

static const isr_case_t isr_cases[] = {
    {"send_from_isr_in_a_handler_readies_the_blocked_receiver", ISR_SEND, 2, 0, 41, OP_RECEIVE, 0, -1, 41, -1},
    {"send_to_front_from_isr_in_a_handler_readies_the_blocked_receiver", ISR_SEND_TO_FRONT, 2, 0, 42, OP_RECEIVE, 0,
     -1, 42, -1},
    {"overwrite_from_isr_in_a_handler_readies_the_blocked_receiver", ISR_OVERWRITE, 1, 0, 43, OP_RECEIVE, 0, -1, 43,
     -1},
    {"receive_from_isr_in_a_handler_readies_the_blocked_sender", ISR_RECEIVE, 1, 1, 0, OP_SEND, 2, 1, -1, 2},
};

static void handler_readies_the_blocked_worker(void **state)
{
    const isr_case_t *c = *state;
    rtipc_queue_t *q = new_queue(c->length, sizeof(int));
    for (int i = 1; i <= c->n_prefill; ++i)
        send_int(q, i);
    static isr_job_t j;
    static worker_t w;
    memset(&j, 0, sizeof j);
    j.q = q;
    j.op = c->op;
    j.value = c->value;
    w = make_worker(q, c->wop, c->wvalue, RTIPC_FOREVER);
    int ran, finished;
    run_isr_against_blocked_worker(&j, &w, &ran, &finished);
    assert_true(w.seen_blocked);
    assert_true(ran);
    assert_true(j.in_interrupt);
    assert_int_equal(j.rc, RTIPC_OK);
    assert_int_equal(j.got, c->want_j_got);
    assert_true(j.woken); /* the readied task outranks an idle core */
    assert_int_equal(j.yield_rc, RTIPC_OK);
    assert_true(finished);
    assert_true(woken_in_time(&w));
    assert_int_equal(w.got, c->want_w_got);
    int n_left = c->left < 0 ? 0 : 1;
    assert_counts(q, n_left, (int)c->length - n_left);
    if (n_left)
        assert_int_equal(receive_int(q), c->left);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void woken_receiver_that_finds_no_item_keeps_its_deadline(void **state)
{
    (void)state;
    /* A receiver waits with a timeout; late in that time a handler sends an
     * item (readying it) and takes the item back before the receiver runs.
     * The receiver retries, finds nothing and waits again with the time it
     * has left: it times out at its original deadline, not a restarted one.
     * The receiver itself starts the handler's one-shot timer just before it
     * calls receive, so the timing does not depend on the main thread.
     * Attempts where the handler did not run as intended are repeated. */
    enum { T_MS = 400, FIRE_MS = 300 };
    _Static_assert(FIRE_MS >= LATE_MS + 50 && FIRE_MS < T_MS, "a restart must overshoot the slack");
    rtipc_queue_t *q = new_queue(1, sizeof(int));
    int core = test_core(0) == RTIPC_CORE_ANY ? 0 : test_core(0);
    static isr_job_t j;
    static worker_t w;
    int valid = 0, finished = 0, irq_ok = 0;
    int64_t fired_after = 0;
    for (int attempt = 0; attempt < TIMING_ATTEMPTS; ++attempt) {
        memset(&j, 0, sizeof j);
        j.q = q;
        j.op = ISR_SEND_AND_TAKE_BACK;
        j.value = 5;
        rtipc_irq_t *irq = NULL;
        irq_ok = rtipc_irq_create(core, isr_handler, &j, &irq) == RTIPC_OK;
        if (!irq_ok)
            break;
        w = make_worker(q, OP_RECEIVE, 0, rtipc_ms(T_MS));
        w.arm_irq = irq;
        w.arm_delay_ns = FIRE_MS * NS_PER_MS;
        /* Whether it was waiting when the handler ran shows in j.woken. */
        rtipc_task_t *t = start_task("rx-deadline", PRIO_BASE + 5, test_core(0), worker, &w);
        wait_flag(&j.ran, 1, T_MS + PROMPT_MS);
        finished = finish_worker(t, &w, T_MS + PROMPT_MS);
        if (irq_ok)
            rtipc_irq_delete(irq);
        fired_after = j.t_fire - w.t_start;
        valid = irq_ok && finished && __atomic_load_n(&j.ran, __ATOMIC_ACQUIRE) &&
                j.rc == RTIPC_OK && j.rc_take_back == RTIPC_OK && j.got == 5 && j.woken &&
                fired_after >= (int64_t)(LATE_MS + 50) * NS_PER_MS && fired_after < (int64_t)T_MS * NS_PER_MS;
        if (valid && w.elapsed_ns < (int64_t)(T_MS + LATE_MS) * NS_PER_MS)
            break;
    }
    assert_true(irq_ok);
    assert_true(finished);
    assert_true(valid); /* the handler readied the receiver late in its wait */
    assert_int_equal(w.rc, RTIPC_ETIMEDOUT);
    assert_int_equal(w.got, -1);
    assert_true(w.elapsed_ns >= (int64_t)T_MS * NS_PER_MS);
    assert_true(w.elapsed_ns < (int64_t)(T_MS + LATE_MS) * NS_PER_MS);
    assert_counts(q, 0, 1);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

/* ======================================================================== */
/* calling context                                                           */
/* ======================================================================== */
static void task_only_calls_from_interrupt_are_wrong_context(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(1, sizeof(int));
    rtipc_queue_t *mailbox = new_queue(1, sizeof(int));
    send_int(q, 1);
    int v = 2;
    int out = -1;
    rtipc_queue_t *created = NULL;
    int rc[12];
    /* No assertion may run (and longjmp) while in interrupt context. */
    enter_interrupt_context();
    rc[0] = rtipc_queue_create(4, sizeof(int), &created);
    rc[1] = rtipc_queue_delete(q);
    rc[2] = rtipc_queue_send(q, &v, RTIPC_NO_WAIT);
    rc[3] = rtipc_queue_send(q, &v, rtipc_ms(10));
    rc[4] = rtipc_queue_send_to_front(q, &v, RTIPC_NO_WAIT);
    rc[5] = rtipc_queue_receive(q, &out, RTIPC_NO_WAIT);
    rc[6] = rtipc_queue_receive(q, &out, RTIPC_FOREVER);
    rc[7] = rtipc_queue_peek(q, &out, RTIPC_NO_WAIT);
    rc[8] = rtipc_queue_peek(q, &out, rtipc_ms(10));
    rc[9] = rtipc_queue_overwrite(mailbox, &v);
    rc[10] = rtipc_queue_reset(q);
    rc[11] = rtipc_queue_delete(mailbox);
    leave_interrupt_context();
    for (int i = 0; i < 12; ++i)
        assert_int_equal(rc[i], RTIPC_ECONTEXT);
    assert_null(created);
    assert_int_equal(out, -1);
    /* Nothing changed: q still holds 1, the mailbox is still empty. */
    assert_counts(q, 1, 0);
    assert_counts(mailbox, 0, 1);
    assert_int_equal(receive_int(q), 1);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
    assert_int_equal(rtipc_queue_delete(mailbox), RTIPC_OK);
}

static void interrupt_safe_calls_work_from_interrupt_context(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(3, sizeof(int));
    send_int(q, 1);
    rtipc_queue_static_t cb;
    int storage[2];
    rtipc_queue_t *sq = NULL;
    enter_interrupt_context();
    int rc_static = rtipc_queue_create_static(2, sizeof(int), storage, &cb, &sq);
    int waiting = rtipc_queue_messages_waiting(q);
    int spaces = rtipc_queue_spaces_available(q);
    size_t fp = rtipc_queue_footprint(q);
    size_t fp_for = rtipc_queue_footprint_for(3, sizeof(int));
    int static_waiting = rc_static == RTIPC_OK ? rtipc_queue_messages_waiting(sq) : -100;
    leave_interrupt_context();
    if (RTIPC_PORT_FREERTOS) {
        /* queue.h, Port notes: the kernel's creation is task-level only. */
        assert_int_equal(rc_static, RTIPC_ECONTEXT);
        assert_int_equal(rtipc_queue_create_static(2, sizeof(int), storage, &cb, &sq), RTIPC_OK);
        static_waiting = rtipc_queue_messages_waiting(sq);
    } else {
        assert_int_equal(rc_static, RTIPC_OK);
    }
    /* The handle is a table entry (src/common/handle.h), not the caller's
     * memory, and it names the control block there. */
    assert_ptr_not_equal((void *)sq, (void *)&cb);
    assert_ptr_equal(rtipc__handle_get(sq, RTIPC__H_QUEUE), (void *)&cb);
    assert_int_equal(waiting, 1);
    assert_int_equal(spaces, 2);
    assert_int_equal(fp, rtipc_queue_footprint_for(0, 0) + 3 * sizeof(int));
    assert_int_equal(fp_for, fp);
    assert_int_equal(static_waiting, 0);
    assert_int_equal(rtipc_queue_delete(sq), RTIPC_OK);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

/* ======================================================================== */
/* priority order of waiters                                                 */
/* ======================================================================== */
enum { ORDER_TASKS = 6 };
/* Started (and blocked) in index order. Expected service order: priority
 * first, FIFO among equals: tasks 1, 3, 5 (priority 4, in the order they
 * blocked), then 4 (3), 0 (2), 2 (1). */
static const unsigned order_priority[ORDER_TASKS] = {2, 4, 1, 4, 3, 4};
static const int order_rank[ORDER_TASKS] = {4, 0, 5, 1, 3, 2};

/* Start the ORDER_TASKS workers of op one by one, each blocked before the
 * next starts (a sender i sends 10 + i); they count their completions in
 * *completions. Returns whether none had finished once all were started. */
static int start_order_workers(rtipc_queue_t *q, op_kind_t op, int *completions, worker_t *w, rtipc_task_t **t)
{
    __atomic_store_n(completions, 0, __ATOMIC_RELAXED);
    for (int i = 0; i < ORDER_TASKS; ++i) {
        char name[16];
        snprintf(name, sizeof name, "%s%d-p%u", op == OP_SEND ? "tx" : "rx", i, order_priority[i]);
        w[i] = make_worker(q, op, op == OP_SEND ? 10 + i : 0, rtipc_ms(LONG_MS));
        w[i].completions = completions;
        t[i] = start_worker(name, order_priority[i], &w[i]);
    }
    return __atomic_load_n(completions, __ATOMIC_ACQUIRE) == 0;
}

/* Release the workers (without waiting when they were not served one at a
 * time), then check that each was blocked and all were served in turn. */
static void finish_order_workers(rtipc_task_t **t, worker_t *w, int none_done_early, int one_at_a_time)
{
    int all_finished = 1;
    for (int i = 0; i < ORDER_TASKS; ++i)
        all_finished = finish_worker(t[i], &w[i], one_at_a_time ? PROMPT_MS : 0) && all_finished;
    for (int i = 0; i < ORDER_TASKS; ++i)
        assert_true(w[i].seen_blocked);
    assert_true(none_done_early);
    assert_true(one_at_a_time);
    assert_true(all_finished);
}

static void blocked_receivers_are_served_by_priority_then_fifo(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(ORDER_TASKS, sizeof(int));
    static int completions;
    static worker_t w[ORDER_TASKS];
    rtipc_task_t *t[ORDER_TASKS];
    int none_done_early = start_order_workers(q, OP_RECEIVE, &completions, w, t);
    /* One item at a time: item k goes to the receiver ranked k; the next item
     * is sent only once exactly k + 1 receivers have finished. */
    int one_at_a_time = 1;
    for (int k = 0; k < ORDER_TASKS; ++k) {
        int rc = rtipc_queue_send(q, &k, RTIPC_NO_WAIT);
        one_at_a_time = one_at_a_time && rc == RTIPC_OK && wait_flag(&completions, k + 1, PROMPT_MS);
    }
    finish_order_workers(t, w, none_done_early, one_at_a_time);
    for (int i = 0; i < ORDER_TASKS; ++i) {
        assert_true(woken_in_time(&w[i]));
        assert_int_equal(w[i].got, order_rank[i]);
        assert_int_equal(w[i].order, order_rank[i]);
    }
    assert_counts(q, 0, ORDER_TASKS);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void blocked_senders_are_served_by_priority_then_fifo(void **state)
{
    (void)state;
    rtipc_queue_t *q = new_queue(1, sizeof(int));
    send_int(q, 100); /* full */
    static int completions;
    static worker_t w[ORDER_TASKS];
    rtipc_task_t *t[ORDER_TASKS];
    int none_done_early = start_order_workers(q, OP_SEND, &completions, w, t);
    /* Each receive frees the single place and wakes one sender; once that one
     * has finished, the next receive returns what it sent. */
    int got[ORDER_TASKS + 1];
    int rcs[ORDER_TASKS + 1];
    int one_at_a_time = 1;
    for (int k = 0; k <= ORDER_TASKS; ++k) {
        got[k] = -1;
        rcs[k] = rtipc_queue_receive(q, &got[k], one_at_a_time ? rtipc_ms(PROMPT_MS) : RTIPC_NO_WAIT);
        if (k < ORDER_TASKS)
            one_at_a_time = one_at_a_time && wait_flag(&completions, k + 1, PROMPT_MS);
    }
    finish_order_workers(t, w, none_done_early, one_at_a_time);
    for (int k = 0; k <= ORDER_TASKS; ++k)
        assert_int_equal(rcs[k], RTIPC_OK);
    assert_int_equal(got[0], 100);
    for (int i = 0; i < ORDER_TASKS; ++i) {
        assert_true(woken_in_time(&w[i]));
        assert_int_equal(w[i].order, order_rank[i]);
        assert_int_equal(got[1 + order_rank[i]], 10 + i);
    }
    assert_counts(q, 0, 1);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

/* ======================================================================== */
static int report_policy(void **state)
{
    (void)state;
    print_message("rtipc scheduling policy: %s; %d cores\n", rtipc_sched_policy_describe(),
                  rtipc_core_count());
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        /* create */
        cmocka_unit_test(create_gives_an_empty_queue_of_the_requested_length),
        cmocka_unit_test(create_with_null_out_is_invalid),
        cmocka_unit_test(create_with_zero_length_or_item_size_is_invalid),
        cmocka_unit_test(create_with_overflowing_shape_is_invalid),
        cmocka_unit_test(create_fails_with_enomem_when_memory_is_exhausted),
        /* create_static, invalid handles */
        cmocka_unit_test(static_queue_uses_caller_storage),
        cmocka_unit_test(static_create_with_null_arguments_is_invalid),
        cmocka_unit_test(static_create_with_zero_or_overflowing_shape_is_invalid),
        cmocka_unit_test(deleted_static_queue_handle_is_invalid),
        cmocka_unit_test(never_created_handle_is_invalid),
        cmocka_unit_test(null_handle_is_invalid),
        /* delete */
        cmocka_unit_test(delete_discards_items_still_in_the_queue),
        cmocka_unit_test(delete_of_a_queue_in_a_set_is_refused_busy),
        /* send / send_to_front */
        cmocka_unit_test(send_and_receive_are_fifo),
        cmocka_unit_test(send_copies_the_item_by_value),
        cmocka_unit_test(fifo_order_survives_ring_wraparound),
        cmocka_unit_test(send_to_front_item_is_received_first),
        cmocka_unit_test(send_to_front_and_back_mix_across_the_ring_edge),
        /* receive */
        cmocka_unit_test(receive_with_no_wait_on_empty_queue_would_block),
        cmocka_unit_test(adopted_main_thread_blocks_and_times_out),
        /* peek */
        cmocka_unit_test(peek_leaves_the_item),
        cmocka_unit_test(peek_wakes_the_next_waiting_receiver),
        /* overwrite */
        cmocka_unit_test(overwrite_writes_into_an_empty_mailbox),
        cmocka_unit_test(overwrite_replaces_the_item_of_a_full_mailbox),
        /* reset */
        cmocka_unit_test(reset_empties_the_queue),
        cmocka_unit_test(reset_wakes_only_the_highest_priority_sender),
        /* snapshots, footprint */
        cmocka_unit_test(messages_waiting_and_spaces_available_track_the_count),
        cmocka_unit_test(footprint_counts_control_block_and_storage),
        cmocka_unit_test(control_block_fits_in_64_bytes),
        cmocka_unit_test(footprint_of_invalid_shape_is_zero),
        /* _from_isr */
        cmocka_unit_test(isr_send_receive_and_peek_work_from_task_context),
        cmocka_unit_test(isr_calls_work_from_interrupt_context),
        cmocka_unit_test(overwrite_from_isr_replaces_the_item_and_refuses_longer_queues),
        cmocka_unit_test(isr_calls_with_null_item_are_invalid),
        cmocka_unit_test(isr_calls_never_clear_woken),
        cmocka_unit_test(woken_receiver_that_finds_no_item_keeps_its_deadline),
        /* context */
        cmocka_unit_test(task_only_calls_from_interrupt_are_wrong_context),
        cmocka_unit_test(interrupt_safe_calls_work_from_interrupt_context),
        /* priority order */
        cmocka_unit_test(blocked_receivers_are_served_by_priority_then_fifo),
        cmocka_unit_test(blocked_senders_are_served_by_priority_then_fifo),
        /* table-driven: one test per row, named by the row */
        TABLE_TEST(blocked_worker_is_woken, wake_cases[0]),
        TABLE_TEST(blocked_worker_is_woken, wake_cases[1]),
        TABLE_TEST(blocked_worker_is_woken, wake_cases[2]),
        TABLE_TEST(blocked_worker_is_woken, wake_cases[3]),
        TABLE_TEST(blocked_worker_is_woken, wake_cases[4]),
        TABLE_TEST(blocked_worker_is_woken, wake_cases[5]),
        TABLE_TEST(blocked_worker_is_woken, wake_cases[6]),
        TABLE_TEST(blocked_worker_is_woken, wake_cases[7]),
        TABLE_TEST(blocked_worker_is_woken, wake_cases[8]),
        TABLE_TEST(refused_call_leaves_the_queue, refused_cases[0]),
        TABLE_TEST(refused_call_leaves_the_queue, refused_cases[1]),
        TABLE_TEST(refused_call_leaves_the_queue, refused_cases[2]),
        TABLE_TEST(refused_call_leaves_the_queue, refused_cases[3]),
        TABLE_TEST(refused_call_leaves_the_queue, refused_cases[4]),
        TABLE_TEST(refused_call_leaves_the_queue, refused_cases[5]),
        TABLE_TEST(refused_call_leaves_the_queue, refused_cases[6]),
        TABLE_TEST(refused_call_leaves_the_queue, refused_cases[7]),
        TABLE_TEST(call_times_out_after_about_the_timeout, timeout_cases[0]),
        TABLE_TEST(call_times_out_after_about_the_timeout, timeout_cases[1]),
        TABLE_TEST(call_times_out_after_about_the_timeout, timeout_cases[2]),
        TABLE_TEST(call_times_out_after_about_the_timeout, timeout_cases[3]),
        TABLE_TEST(handler_readies_the_blocked_worker, isr_cases[0]),
        TABLE_TEST(handler_readies_the_blocked_worker, isr_cases[1]),
        TABLE_TEST(handler_readies_the_blocked_worker, isr_cases[2]),
        TABLE_TEST(handler_readies_the_blocked_worker, isr_cases[3]),
    };
    return cmocka_run_group_tests(tests, report_policy, NULL);
}
