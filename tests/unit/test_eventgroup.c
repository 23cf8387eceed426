/* Event groups: every return path, wait any/all, clear on exit, a set waking
 * every satisfied waiter (more than the setter's wake batch too), the sync
 * rendezvous, reserved bits, and the interrupt-safe calls from a real
 * handler. */
#include <stdatomic.h>
#include <string.h>

#include "rtipc/eventgroup.h"
#include "../../src/common/handle.h"
#include "test_support.h"

/* Task priorities start here: high, so that busy real-time threads of other
 * programs on a shared machine do not starve the test's tasks. */
#define BASE 11

/* One wait (or sync) run by a task, with its outcome for the main thread. */
typedef struct {
    rtipc_eventgroup_t *eg;
    bool sync;
    uint32_t set;  /* sync only */
    uint32_t bits;
    bool clear, all;
    rtipc_timeout_t timeout;
    unsigned priority;
    int core;
    _Atomic int started;
    _Atomic int done;
    int rc;
    uint32_t value;
} waiter_t;

/* The core a waiter's .core names to run away from the main thread. */
static int other_core(void) { return rtipc_core_count() >= 2 ? 1 : 0; }

static void waiter_task(void *arg)
{
    waiter_t *w = arg;
    atomic_store(&w->started, 1);
    if (w->sync)
        w->rc = rtipc_eventgroup_sync(w->eg, w->set, w->bits, &w->value, w->timeout);
    else
        w->rc = rtipc_eventgroup_wait_bits(w->eg, w->bits, w->clear, w->all, &w->value, w->timeout);
    atomic_store(&w->done, 1);
}

static rtipc_task_t *start_waiter(waiter_t *w)
{
    rtipc_task_t *t = start_task("waiter", BASE + (w->priority ? w->priority : 9), w->core, waiter_task, w);
    assert_true(wait_for_flag((volatile int *)&w->started, 1, 10000));
    return t;
}

/* ---- creation, arguments, context --------------------------------------------- */
static void create_delete_and_footprint(void **state)
{
    (void)state;
    rtipc_eventgroup_t *eg;
    rtipc_eventgroup_static_t cb;
    assert_int_equal(rtipc_eventgroup_create(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_eventgroup_create_static(NULL, &eg), RTIPC_EINVAL);
    assert_int_equal(rtipc_eventgroup_create_static(&cb, NULL), RTIPC_EINVAL);
    size_t size = rtipc_eventgroup_footprint(NULL);
    assert_true(size > 0 && size <= sizeof(rtipc_eventgroup_static_t));

    assert_int_equal(rtipc_eventgroup_create(&eg), RTIPC_OK);
    assert_int_equal(rtipc_eventgroup_get_bits(eg), 0);
    assert_int_equal(rtipc_eventgroup_footprint(eg), size);
    assert_int_equal(rtipc_eventgroup_delete(eg), RTIPC_OK);

    assert_int_equal(rtipc_eventgroup_create_static(&cb, &eg), RTIPC_OK);
    /* The handle is a table entry (src/common/handle.h), not the caller's
     * memory, and it names the control block there. */
    assert_ptr_not_equal((void *)eg, (void *)&cb);
    assert_ptr_equal(rtipc__handle_get(eg, RTIPC__H_EVENTGROUP), (void *)&cb);
    assert_int_equal(rtipc_eventgroup_delete(eg), RTIPC_OK);
    assert_int_equal(rtipc_eventgroup_delete(eg), RTIPC_EINVAL);
    assert_int_equal(rtipc_eventgroup_footprint(eg), 0);
    assert_int_equal(rtipc_eventgroup_get_bits(eg), RTIPC_EINVAL);
    assert_int_equal(rtipc_eventgroup_delete(NULL), RTIPC_EINVAL);

    /* Static creation allocates nothing; FreeRTOS refuses it in a handler
     * (eventgroup.h, Port notes), so there the group is made beforehand. */
    static rtipc_eventgroup_static_t cb2;
    rtipc_eventgroup_t *eg2 = NULL;
    if (RTIPC_PORT_FREERTOS)
        assert_int_equal(rtipc_eventgroup_create_static(&cb, &eg), RTIPC_OK);
    enter_interrupt_context();
    int rc_create = rtipc_eventgroup_create(&eg2);
    int rc_static = rtipc_eventgroup_create_static(RTIPC_PORT_FREERTOS ? &cb2 : &cb, RTIPC_PORT_FREERTOS ? &eg2 : &eg);
    int rc_delete = rtipc_eventgroup_delete(eg);
    leave_interrupt_context();
    assert_int_equal(rc_create, RTIPC_ECONTEXT);
    assert_int_equal(rc_static, RTIPC_PORT_FREERTOS ? RTIPC_ECONTEXT : RTIPC_OK);
    assert_null(eg2);
    assert_int_equal(rc_delete, RTIPC_ECONTEXT);
    assert_int_equal(rtipc_eventgroup_delete(eg), RTIPC_OK);
}

static void reserved_bits_and_bad_arguments_are_refused_and_change_nothing(void **state)
{
    (void)state;
    rtipc_eventgroup_t *eg;
    assert_int_equal(rtipc_eventgroup_create(&eg), RTIPC_OK);
    assert_int_equal(rtipc_eventgroup_set_bits(eg, 0x5, NULL), RTIPC_OK);
    uint32_t v = 77;
    bool woken = false;
    for (int bit = 24; bit < 32; ++bit) {
        uint32_t b = 1u << bit;
        assert_int_equal(rtipc_eventgroup_set_bits(eg, b | 0x2, &v), RTIPC_EINVAL);
        assert_int_equal(rtipc_eventgroup_clear_bits(eg, b | 0x1, &v), RTIPC_EINVAL);
        assert_int_equal(rtipc_eventgroup_set_bits_from_isr(eg, b, &v, &woken), RTIPC_EINVAL);
        assert_int_equal(rtipc_eventgroup_clear_bits_from_isr(eg, b, &v), RTIPC_EINVAL);
        assert_int_equal(rtipc_eventgroup_wait_bits(eg, b | 0x1, false, false, &v, RTIPC_NO_WAIT), RTIPC_EINVAL);
        assert_int_equal(rtipc_eventgroup_sync(eg, b, 0x1, &v, RTIPC_NO_WAIT), RTIPC_EINVAL);
        assert_int_equal(rtipc_eventgroup_sync(eg, 0x1, b, &v, RTIPC_NO_WAIT), RTIPC_EINVAL);
    }
    assert_int_equal(v, 0); /* outputs are 0 on invalid arguments (wait and sync) */
    assert_int_equal(rtipc_eventgroup_wait_bits(eg, 0, false, false, &v, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_eventgroup_sync(eg, 0x1, 0, &v, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_eventgroup_get_bits(eg), 0x5); /* nothing changed */
    assert_int_equal(rtipc_eventgroup_set_bits(NULL, 1, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_eventgroup_clear_bits(NULL, 1, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_eventgroup_set_bits_from_isr(NULL, 1, NULL, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_eventgroup_clear_bits_from_isr(NULL, 1, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_eventgroup_wait_bits(NULL, 1, false, false, NULL, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_eventgroup_sync(NULL, 1, 1, NULL, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_eventgroup_get_bits(NULL), RTIPC_EINVAL);
    assert_false(woken);
    /* The top usable bit works. */
    assert_int_equal(rtipc_eventgroup_set_bits(eg, 1u << 23, &v), RTIPC_OK);
    assert_int_equal(v, 0x800005);

    enter_interrupt_context();
    assert_int_equal(rtipc_eventgroup_set_bits(eg, 1, NULL), RTIPC_ECONTEXT);
    assert_int_equal(rtipc_eventgroup_clear_bits(eg, 1, NULL), RTIPC_ECONTEXT);
    assert_int_equal(rtipc_eventgroup_wait_bits(eg, 1, false, false, NULL, RTIPC_NO_WAIT), RTIPC_ECONTEXT);
    assert_int_equal(rtipc_eventgroup_sync(eg, 1, 1, NULL, RTIPC_NO_WAIT), RTIPC_ECONTEXT);
    assert_int_equal(rtipc_eventgroup_get_bits(eg), 0x800005); /* any context */
    leave_interrupt_context();
    assert_int_equal(rtipc_eventgroup_delete(eg), RTIPC_OK);
}

/* ---- set, clear, wait without blocking ---------------------------------------------- */
static void set_and_clear_report_the_bits_after_and_before(void **state)
{
    (void)state;
    rtipc_eventgroup_t *eg;
    assert_int_equal(rtipc_eventgroup_create(&eg), RTIPC_OK);
    uint32_t v = 0;
    assert_int_equal(rtipc_eventgroup_set_bits(eg, 0x5, &v), RTIPC_OK);
    assert_int_equal(v, 0x5);
    assert_int_equal(rtipc_eventgroup_set_bits(eg, 0x0, &v), RTIPC_OK); /* setting nothing is allowed */
    assert_int_equal(v, 0x5);
    assert_int_equal(rtipc_eventgroup_clear_bits(eg, 0x1, &v), RTIPC_OK);
    assert_int_equal(v, 0x5);
    assert_int_equal(rtipc_eventgroup_get_bits(eg), 0x4);
    assert_int_equal(rtipc_eventgroup_clear_bits(eg, 0xff, NULL), RTIPC_OK);
    assert_int_equal(rtipc_eventgroup_get_bits(eg), 0);
    assert_int_equal(rtipc_eventgroup_delete(eg), RTIPC_OK);
}

static void wait_any_and_wait_all_without_blocking(void **state)
{
    (void)state;
    rtipc_eventgroup_t *eg;
    assert_int_equal(rtipc_eventgroup_create(&eg), RTIPC_OK);
    assert_int_equal(rtipc_eventgroup_set_bits(eg, 0x1, NULL), RTIPC_OK);
    uint32_t v = 0;
    assert_int_equal(rtipc_eventgroup_wait_bits(eg, 0x3, false, false, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(v, 0x1);
    v = 0;
    assert_int_equal(rtipc_eventgroup_wait_bits(eg, 0x3, true, true, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(v, 0x1); /* the bits when it gave up; nothing cleared */
    assert_int_equal(rtipc_eventgroup_get_bits(eg), 0x1);
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_eventgroup_wait_bits(eg, 0x3, true, true, &v, rtipc_ms(30)), RTIPC_ETIMEDOUT);
    assert_true(rtipc_time_ns() - t0 >= 30000000);
    assert_int_equal(v, 0x1);
    assert_int_equal(rtipc_eventgroup_get_bits(eg), 0x1);
    assert_int_equal(rtipc_eventgroup_set_bits(eg, 0x6, NULL), RTIPC_OK);
    /* All of 0x3 is set now; clear on exit clears exactly the awaited bits. */
    assert_int_equal(rtipc_eventgroup_wait_bits(eg, 0x3, true, true, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(v, 0x7);
    assert_int_equal(rtipc_eventgroup_get_bits(eg), 0x4);
    /* Any with clear: clears the awaited bits, set or not; others stay. */
    assert_int_equal(rtipc_eventgroup_set_bits(eg, 0x10, NULL), RTIPC_OK);
    assert_int_equal(rtipc_eventgroup_wait_bits(eg, 0x30, true, false, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(v, 0x14);
    assert_int_equal(rtipc_eventgroup_get_bits(eg), 0x4);
    assert_int_equal(rtipc_eventgroup_delete(eg), RTIPC_OK);
}

/* ---- blocking waits -------------------------------------------------------------------- */
static void blocked_wait_all_wakes_only_when_every_bit_is_set(void **state)
{
    (void)state;
    rtipc_eventgroup_t *eg;
    assert_int_equal(rtipc_eventgroup_create(&eg), RTIPC_OK);
    waiter_t w = {.eg = eg, .bits = 0x3, .clear = true, .all = true, .timeout = rtipc_ms(10000),
                  .core = other_core()};
    rtipc_task_t *t = start_waiter(&w);
    sleep_ms(100);
    assert_int_equal(rtipc_eventgroup_delete(eg), RTIPC_EBUSY); /* it waits */
    uint32_t v;
    assert_int_equal(rtipc_eventgroup_set_bits(eg, 0x1, &v), RTIPC_OK);
    assert_int_equal(v, 0x1);
    sleep_ms(100);
    int done_with_one = atomic_load(&w.done);
    assert_int_equal(rtipc_eventgroup_set_bits(eg, 0x2, &v), RTIPC_OK);
    join_task(t);
    assert_false(done_with_one);
    assert_int_equal(v, 0); /* the setter sees the waiter's clearing */
    assert_int_equal(w.rc, RTIPC_OK);
    assert_int_equal(w.value, 0x3);
    assert_int_equal(rtipc_eventgroup_get_bits(eg), 0);
    assert_int_equal(rtipc_eventgroup_delete(eg), RTIPC_OK);
}

static void set_wakes_every_satisfied_waiter_then_clears_the_union(void **state)
{
    (void)state;
    rtipc_eventgroup_t *eg;
    assert_int_equal(rtipc_eventgroup_create(&eg), RTIPC_OK);
    /* a: any 0x1 clear; b: all 0x3 clear; c: any 0x4 keep; d: all 0x14 (0x10
     * comes later); e: any 0x1 keep (sees 0x1 though a clears it);
     * f: all 0x4|0x8, keep (not met until 0x8). Mixed priorities and cores. */
    waiter_t w[6] = {
        {.bits = 0x1, .clear = true, .priority = 5},
        {.bits = 0x3, .clear = true, .all = true, .priority = 12},
        {.bits = 0x4, .priority = 8},
        {.bits = 0x14, .all = true, .priority = 9},
        {.bits = 0x1, .priority = 3},
        {.bits = 0xc, .all = true, .priority = 7},
    };
    rtipc_task_t *t[6];
    for (int i = 0; i < 6; ++i) {
        w[i].eg = eg;
        w[i].timeout = rtipc_ms(10000);
        w[i].core = i % 2 ? other_core() : RTIPC_CORE_ANY;
        t[i] = start_waiter(&w[i]);
    }
    sleep_ms(80);
    uint32_t v;
    assert_int_equal(rtipc_eventgroup_set_bits(eg, 0x7, &v), RTIPC_OK);
    for (int i = 0; i < 6; ++i)
        if (i != 3 && i != 5)
            join_task(t[i]);
    int d_done = atomic_load(&w[3].done), f_done = atomic_load(&w[5].done);
    uint32_t after_first = (uint32_t)rtipc_eventgroup_get_bits(eg);
    assert_int_equal(rtipc_eventgroup_set_bits(eg, 0x10, NULL), RTIPC_OK);
    join_task(t[3]);
    assert_int_equal(rtipc_eventgroup_set_bits(eg, 0x8, NULL), RTIPC_OK);
    join_task(t[5]);

    assert_int_equal(v, 0x4); /* 0x7 less the union 0x1 | 0x3 */
    assert_int_equal(after_first, 0x4);
    for (int i = 0; i < 6; ++i)
        assert_int_equal(w[i].rc, RTIPC_OK);
    assert_int_equal(w[0].value, 0x7); /* every waiter of one set sees the same bits */
    assert_int_equal(w[1].value, 0x7);
    assert_int_equal(w[2].value, 0x7);
    assert_int_equal(w[4].value, 0x7);
    assert_false(d_done);
    assert_false(f_done);
    assert_int_equal(w[3].value, 0x14);
    assert_int_equal(w[5].value, 0x1c);
    assert_int_equal(rtipc_eventgroup_get_bits(eg), 0x1c);
    assert_int_equal(rtipc_eventgroup_delete(eg), RTIPC_OK);
}

/* More satisfied waiters than the setter's on-stack batch (32): the rest are
 * woken under the lock. Every one must wake, from a task and from a handler. */
enum { MANY = 40 };

typedef struct {
    rtipc_eventgroup_t *eg;
    bool woken;
    _Atomic int ran;
} many_isr_t;

static void many_isr_handler(void *arg)
{
    many_isr_t *p = arg;
    rtipc_eventgroup_set_bits_from_isr(p->eg, 0x2, NULL, &p->woken);
    rtipc_irq_yield(p->woken);
    atomic_store(&p->ran, 1);
}

static void set_wakes_more_waiters_than_its_batch_from_a_task_and_a_handler(void **state)
{
    (void)state;
    rtipc_eventgroup_t *eg;
    assert_int_equal(rtipc_eventgroup_create(&eg), RTIPC_OK);
    static waiter_t w[MANY];
    rtipc_task_t *t[MANY];
    for (int round = 0; round < 2; ++round) {
        uint32_t bit = round == 0 ? 0x1 : 0x2;
        memset(w, 0, sizeof w);
        for (int i = 0; i < MANY; ++i) {
            w[i].eg = eg;
            w[i].bits = bit;
            w[i].clear = i == 0; /* one clears: the others still see the bit */
            w[i].timeout = rtipc_ms(20000);
            w[i].priority = (unsigned)(i % 20);
            w[i].core = i % 2 ? other_core() : RTIPC_CORE_ANY;
            t[i] = start_waiter(&w[i]);
        }
        sleep_ms(150);
        many_isr_t p = {.eg = eg};
        rtipc_irq_t *irq = NULL;
        if (round == 0) {
            assert_int_equal(rtipc_eventgroup_set_bits(eg, bit, NULL), RTIPC_OK);
        } else {
            assert_int_equal(rtipc_irq_create(other_core(), many_isr_handler, &p, &irq), RTIPC_OK);
            assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
            assert_true(wait_for_flag((volatile int *)&p.ran, 1, 5000));
        }
        for (int i = 0; i < MANY; ++i)
            join_task(t[i]);
        for (int i = 0; i < MANY; ++i) {
            assert_int_equal(w[i].rc, RTIPC_OK);
            assert_int_equal(w[i].value, bit);
        }
        assert_int_equal(rtipc_eventgroup_get_bits(eg), 0);
        if (irq) {
            assert_true(p.woken);
            assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
        }
    }
    assert_int_equal(rtipc_eventgroup_delete(eg), RTIPC_OK);
}

/* ---- sync ------------------------------------------------------------------------------- */
typedef struct {
    rtipc_eventgroup_t *eg;
    uint32_t mine;
    int rounds;
    int delay_every; /* stagger arrivals */
    int failures;
    int rc_first_failure;
    uint32_t bad_value;
} rendezvous_t;

static void rendezvous_task(void *arg)
{
    rendezvous_t *r = arg;
    for (int i = 0; i < r->rounds; ++i) {
        if (r->delay_every && i % r->delay_every == 0)
            rtipc_task_delay(rtipc_ms(1));
        uint32_t v = 0;
        int rc = rtipc_eventgroup_sync(r->eg, r->mine, 0x7, &v, rtipc_ms(20000));
        if (rc != RTIPC_OK || (v & 0x7) != 0x7) {
            if (r->failures++ == 0) {
                r->rc_first_failure = rc;
                r->bad_value = v;
            }
        }
    }
}

static void sync_is_a_rendezvous_of_three_tasks_round_after_round(void **state)
{
    (void)state;
    rtipc_eventgroup_t *eg;
    assert_int_equal(rtipc_eventgroup_create(&eg), RTIPC_OK);
    rendezvous_t r[3];
    rtipc_task_t *t[3];
    for (int i = 0; i < 3; ++i) {
        r[i] = (rendezvous_t){.eg = eg, .mine = 1u << i, .rounds = 2000, .delay_every = 97 + 10 * i};
        t[i] = start_task("sync", (unsigned)(BASE + 4 + i), i == 1 ? other_core() : test_core(0), rendezvous_task, &r[i]);
    }
    for (int i = 0; i < 3; ++i)
        join_task(t[i]);
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(r[i].failures, 0);
    }
    assert_int_equal(rtipc_eventgroup_get_bits(eg), 0); /* every round cleared its bits */
    assert_int_equal(rtipc_eventgroup_delete(eg), RTIPC_OK);
}

static void sync_without_partners_times_out_leaving_its_bit_set(void **state)
{
    (void)state;
    rtipc_eventgroup_t *eg;
    assert_int_equal(rtipc_eventgroup_create(&eg), RTIPC_OK);
    uint32_t v = 0;
    assert_int_equal(rtipc_eventgroup_sync(eg, 0x1, 0x3, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(v, 0x1);
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_eventgroup_sync(eg, 0x1, 0x3, &v, rtipc_ms(30)), RTIPC_ETIMEDOUT);
    assert_true(rtipc_time_ns() - t0 >= 30000000);
    assert_int_equal(v, 0x1);
    assert_int_equal(rtipc_eventgroup_get_bits(eg), 0x1);
    /* The last to arrive completes at once and clears the awaited bits only. */
    assert_int_equal(rtipc_eventgroup_set_bits(eg, 0x10, NULL), RTIPC_OK);
    assert_int_equal(rtipc_eventgroup_sync(eg, 0x2, 0x3, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(v, 0x13);
    assert_int_equal(rtipc_eventgroup_get_bits(eg), 0x10);
    assert_int_equal(rtipc_eventgroup_delete(eg), RTIPC_OK);
}

static void sync_wakes_the_partners_it_completes(void **state)
{
    (void)state;
    rtipc_eventgroup_t *eg;
    assert_int_equal(rtipc_eventgroup_create(&eg), RTIPC_OK);
    waiter_t a = {.eg = eg, .sync = true, .set = 0x1, .bits = 0x7, .timeout = rtipc_ms(10000),
                  .core = other_core()};
    waiter_t b = {.eg = eg, .sync = true, .set = 0x2, .bits = 0x7, .timeout = rtipc_ms(10000),
                  .core = RTIPC_CORE_ANY};
    /* A plain waiter on one of the sync bits: woken by the same set. */
    waiter_t c = {.eg = eg, .bits = 0x4, .timeout = rtipc_ms(10000), .core = other_core()};
    rtipc_task_t *ta = start_waiter(&a);
    sleep_ms(30);
    rtipc_task_t *tb = start_waiter(&b);
    rtipc_task_t *tc = start_waiter(&c);
    sleep_ms(60);
    int early = atomic_load(&a.done) + atomic_load(&b.done);
    uint32_t v = 0;
    assert_int_equal(rtipc_eventgroup_sync(eg, 0x4, 0x7, &v, RTIPC_NO_WAIT), RTIPC_OK);
    join_task(ta);
    join_task(tb);
    join_task(tc);
    assert_int_equal(early, 0);
    assert_int_equal(v, 0x7);
    assert_int_equal(a.rc, RTIPC_OK);
    assert_int_equal(b.rc, RTIPC_OK);
    assert_int_equal(c.rc, RTIPC_OK);
    assert_int_equal(a.value, 0x7);
    assert_int_equal(b.value, 0x7);
    assert_int_equal(c.value, 0x7);
    assert_int_equal(rtipc_eventgroup_get_bits(eg), 0);
    assert_int_equal(rtipc_eventgroup_delete(eg), RTIPC_OK);
}

/* ---- interrupt-safe calls from a real handler ------------------------------------------------ */
typedef struct {
    rtipc_eventgroup_t *eg;
    int rc[4];
    uint32_t value, previous;
    bool woken_by_set, woken_by_clear;
    _Atomic int ran;
} isr_t;

static void isr_handler(void *arg)
{
    isr_t *p = arg;
    bool woken = false;
    p->rc[0] = rtipc_eventgroup_set_bits_from_isr(p->eg, 0x21, &p->value, &woken);
    p->woken_by_set = woken;
    woken = false;
    p->rc[1] = rtipc_eventgroup_clear_bits_from_isr(p->eg, 0x20, &p->previous);
    p->rc[2] = rtipc_eventgroup_set_bits_from_isr(p->eg, 0x1000000, NULL, &woken);
    p->rc[3] = rtipc_eventgroup_clear_bits_from_isr(p->eg, 0x80000000u, NULL);
    p->woken_by_clear = woken;
    rtipc_irq_yield(p->woken_by_set);
    atomic_store(&p->ran, 1);
}

static void interrupt_handler_sets_and_clears_bits_and_reports_woken(void **state)
{
    (void)state;
    isr_t p = {0};
    assert_int_equal(rtipc_eventgroup_create(&p.eg), RTIPC_OK);
    waiter_t w = {.eg = p.eg, .bits = 0x1, .clear = true, .timeout = rtipc_ms(10000), .core = other_core()};
    rtipc_task_t *t = start_waiter(&w);
    sleep_ms(100);
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(other_core(), isr_handler, &p, &irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_trigger(irq), RTIPC_OK);
    assert_true(wait_for_flag((volatile int *)&p.ran, 1, 10000));
    join_task(t);
    assert_int_equal(p.rc[0], RTIPC_OK);
    assert_int_equal(p.rc[1], RTIPC_OK);
    assert_int_equal(p.rc[2], RTIPC_EINVAL);
    assert_int_equal(p.rc[3], RTIPC_EINVAL);
    if (RTIPC_PORT_FREERTOS) {
        /* The port defers a handler's changes to the timer service task
         * (eventgroup.h, Port notes): the set reports the bits with its own
         * included, the clear what was there before either took effect. */
        print_message("FreeRTOS: value 0x%x previous 0x%x woken %d/%d\n", (unsigned)p.value, (unsigned)p.previous,
                      (int)p.woken_by_set, (int)p.woken_by_clear);
        assert_int_equal(p.value, 0x21);
        assert_int_equal(p.previous, 0x0);
    } else {
        assert_int_equal(p.value, 0x20); /* after the waiter's clear-on-exit of 0x1 */
        assert_int_equal(p.previous, 0x20);
        assert_true(p.woken_by_set);     /* the waiter outranks an idle core */
    }
    assert_false(p.woken_by_clear);  /* clearing wakes nobody */
    assert_int_equal(w.rc, RTIPC_OK);
    assert_int_equal(w.value, 0x21);
    assert_int_equal(rtipc_eventgroup_get_bits(p.eg), 0);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
    assert_int_equal(rtipc_eventgroup_delete(p.eg), RTIPC_OK);
}

/* The table at file scope: main only pins itself and runs it. */
static const struct CMUnitTest tests[] = {
    cmocka_unit_test(create_delete_and_footprint),
    cmocka_unit_test(reserved_bits_and_bad_arguments_are_refused_and_change_nothing),
    cmocka_unit_test(set_and_clear_report_the_bits_after_and_before),
    cmocka_unit_test(wait_any_and_wait_all_without_blocking),
    cmocka_unit_test(blocked_wait_all_wakes_only_when_every_bit_is_set),
    cmocka_unit_test(set_wakes_every_satisfied_waiter_then_clears_the_union),
    cmocka_unit_test(set_wakes_more_waiters_than_its_batch_from_a_task_and_a_handler),
    cmocka_unit_test(sync_is_a_rendezvous_of_three_tasks_round_after_round),
    cmocka_unit_test(sync_without_partners_times_out_leaving_its_bit_set),
    cmocka_unit_test(sync_wakes_the_partners_it_completes),
    cmocka_unit_test(interrupt_handler_sets_and_clears_bits_and_reports_woken),
};

int main(void)
{
    pin_main_to_core0();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
