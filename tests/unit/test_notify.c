/* Task notifications: every action, take, wait, the clear calls and every
 * error path of notify.h.
 *
 * The main thread is itself an rtipc task (adopted on first use), so most
 * tests notify the main thread and receive on it; blocking tests start a
 * helper task that notifies the main thread on a script. Tasks only record
 * what they see; all assertions run on the main thread. */
#include "test_support.h"
#include "test_timing.h"

#include <limits.h>
#include <string.h>

/* The tests use slots 0, 1 and 2. */
#if RTIPC_NOTIFY_SLOTS < 3
#error "test_notify needs at least 3 notification slots per task"
#endif

/* ---- helpers ------------------------------------------------------------ */

/* The value of a slot, read without changing anything. */
static uint32_t slot_value(rtipc_task_t *task, unsigned index)
{
    uint32_t v = 0xdeadbeef;
    assert_int_equal(rtipc_notify_value_clear(task, index, 0, &v), RTIPC_OK);
    return v;
}

/* Whether a slot is pending; clears the pending flag (as a side effect). */
static int slot_pending_consume(rtipc_task_t *task, unsigned index)
{
    int r = rtipc_notify_state_clear(task, index);
    assert_true(r == 0 || r == 1);
    return r;
}

/* Put a slot of the caller in a known state: value v, pending or not. */
static void set_slot(unsigned index, uint32_t v, int pending)
{
    assert_int_equal(rtipc_notify(rtipc_task_current(), index, v, RTIPC_NOTIFY_OVERWRITE, NULL), RTIPC_OK);
    if (!pending)
        assert_int_equal(rtipc_notify_state_clear(NULL, index), 1);
}

/* Every slot of the main thread idle and zero before each test. */
static int reset_slots(void **state)
{
    (void)state;
    for (unsigned i = 0; i < RTIPC_NOTIFY_SLOTS; ++i) {
        if (rtipc_notify_state_clear(NULL, i) < 0)
            return -1;
        if (rtipc_notify_value_clear(NULL, i, UINT32_MAX, NULL) != RTIPC_OK)
            return -1;
    }
    return 0;
}

/* A helper task that runs a script of notifications against a target. */
typedef struct {
    unsigned delay_ms; /* before this step */
    unsigned index;
    uint32_t arg;
    rtipc_notify_action_t action;
} step_t;

#define MAX_STEPS 4
typedef struct {
    rtipc_task_t *target;
    step_t steps[MAX_STEPS];
    int n;
    int rc[MAX_STEPS];
    int64_t at[MAX_STEPS];
} script_t;

static void run_script(void *arg)
{
    script_t *s = arg;
    for (int i = 0; i < s->n; ++i) {
        rtipc_task_delay(rtipc_ms(s->steps[i].delay_ms));
        s->at[i] = rtipc_time_ns();
        s->rc[i] = rtipc_notify(s->target, s->steps[i].index, s->steps[i].arg, s->steps[i].action, NULL);
    }
}

static rtipc_task_t *start_script(script_t *s)
{
    s->target = rtipc_task_current();
    for (int i = 0; i < MAX_STEPS; ++i)
        s->rc[i] = 12345;
    return start_task("script", TIMING_PRIO, RTIPC_CORE_ANY, run_script, s);
}

static void join_script(rtipc_task_t *t, const script_t *s)
{
    join_task(t);
    for (int i = 0; i < s->n; ++i)
        assert_int_equal(s->rc[i], RTIPC_OK);
}

/* ---- slots --------------------------------------------------------------- */

static void slots_per_task(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    assert_non_null(self);
    assert_true(RTIPC_NOTIFY_SLOTS >= 1);
    for (unsigned i = 0; i < RTIPC_NOTIFY_SLOTS; ++i)
        assert_int_equal(rtipc_notify(self, i, 100 + i, RTIPC_NOTIFY_OVERWRITE, NULL), RTIPC_OK);
    for (unsigned i = 0; i < RTIPC_NOTIFY_SLOTS; ++i) {
        assert_int_equal(slot_value(self, i), 100 + i);
        assert_int_equal(slot_pending_consume(self, i), 1);
    }
    /* One past the last slot is out of range for every call. */
    const unsigned bad[] = {RTIPC_NOTIFY_SLOTS, RTIPC_NOTIFY_SLOTS + 1, UINT_MAX};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        unsigned i = bad[k];
        uint32_t v = 7;
        assert_int_equal(rtipc_notify(self, i, 1, RTIPC_NOTIFY_SET_BITS, &v), RTIPC_EINVAL);
        assert_int_equal(rtipc_notify_give(self, i), RTIPC_EINVAL);
        assert_int_equal(rtipc_notify_take(i, true, &v, RTIPC_NO_WAIT), RTIPC_EINVAL);
        assert_int_equal(rtipc_notify_take(i, false, NULL, rtipc_ms(10)), RTIPC_EINVAL);
        assert_int_equal(rtipc_notify_wait(i, 0, 0, &v, RTIPC_NO_WAIT), RTIPC_EINVAL);
        assert_int_equal(rtipc_notify_wait(i, 0, 0, NULL, rtipc_ms(10)), RTIPC_EINVAL);
        assert_int_equal(rtipc_notify_state_clear(self, i), RTIPC_EINVAL);
        assert_int_equal(rtipc_notify_state_clear(NULL, i), RTIPC_EINVAL);
        assert_int_equal(rtipc_notify_value_clear(self, i, 1, &v), RTIPC_EINVAL);
        assert_int_equal(rtipc_notify_value_clear(NULL, i, 1, NULL), RTIPC_EINVAL);
    }
    /* Nothing leaked into the valid slots. */
    for (unsigned i = 0; i < RTIPC_NOTIFY_SLOTS; ++i) {
        assert_int_equal(slot_value(self, i), 100 + i);
        assert_int_equal(slot_pending_consume(self, i), 0);
    }
}

/* The CMake default (RTIPC_NOTIFY_SLOTS=3); a build configured with another
 * count passes -DRTIPC_TEST_EXPECT_SLOTS=<n>. */
#ifndef RTIPC_TEST_EXPECT_SLOTS
#define RTIPC_TEST_EXPECT_SLOTS 3
#endif

static void default_slot_count(void **state)
{
    (void)state;
    assert_int_equal(RTIPC_NOTIFY_SLOTS, RTIPC_TEST_EXPECT_SLOTS);
}

/* ---- actions ------------------------------------------------------------- */

static void action_no_action(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    set_slot(0, 0x1234, 0);
    uint32_t prev = 0;
    assert_int_equal(rtipc_notify(self, 0, 0xffff, RTIPC_NOTIFY_NO_ACTION, &prev), RTIPC_OK);
    assert_int_equal(prev, 0x1234);
    assert_int_equal(slot_value(self, 0), 0x1234); /* value left alone, arg ignored */
    assert_int_equal(slot_pending_consume(self, 0), 1);
}

static void action_set_bits(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    set_slot(0, 0x01, 0);
    uint32_t prev = 0;
    assert_int_equal(rtipc_notify(self, 0, 0x06, RTIPC_NOTIFY_SET_BITS, &prev), RTIPC_OK);
    assert_int_equal(prev, 0x01);
    assert_int_equal(slot_value(self, 0), 0x07);
    /* ORs again while pending, bits already set stay set. */
    assert_int_equal(rtipc_notify(self, 0, 0x81, RTIPC_NOTIFY_SET_BITS, &prev), RTIPC_OK);
    assert_int_equal(prev, 0x07);
    assert_int_equal(slot_value(self, 0), 0x87);
    assert_int_equal(slot_pending_consume(self, 0), 1);
}

static void action_increment(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    set_slot(0, 5, 0);
    uint32_t prev = 0;
    assert_int_equal(rtipc_notify(self, 0, 100, RTIPC_NOTIFY_INCREMENT, &prev), RTIPC_OK); /* arg ignored */
    assert_int_equal(prev, 5);
    assert_int_equal(slot_value(self, 0), 6);
    assert_int_equal(slot_pending_consume(self, 0), 1);
    /* notify_give is the same increment. */
    assert_int_equal(rtipc_notify_give(self, 0), RTIPC_OK);
    assert_int_equal(slot_value(self, 0), 7);
    assert_int_equal(slot_pending_consume(self, 0), 1);
    /* Wraps. */
    set_slot(0, UINT32_MAX, 0);
    assert_int_equal(rtipc_notify(self, 0, 0, RTIPC_NOTIFY_INCREMENT, &prev), RTIPC_OK);
    assert_int_equal(prev, UINT32_MAX);
    assert_int_equal(slot_value(self, 0), 0);
}

static void action_overwrite_replaces_even_when_pending(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    uint32_t prev = 0;
    assert_int_equal(rtipc_notify(self, 0, 0xaaaa, RTIPC_NOTIFY_OVERWRITE, &prev), RTIPC_OK);
    assert_int_equal(prev, 0);
    /* Now pending: overwrite still replaces (no OR, no refusal). */
    assert_int_equal(rtipc_notify(self, 0, 0x5500, RTIPC_NOTIFY_OVERWRITE, &prev), RTIPC_OK);
    assert_int_equal(prev, 0xaaaa);
    assert_int_equal(slot_value(self, 0), 0x5500);
    assert_int_equal(slot_pending_consume(self, 0), 1);
}

static void action_no_overwrite(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    uint32_t prev = 0;
    /* Not pending: it writes and marks pending. */
    set_slot(0, 0x11, 0);
    assert_int_equal(rtipc_notify(self, 0, 0x22, RTIPC_NOTIFY_NO_OVERWRITE, &prev), RTIPC_OK);
    assert_int_equal(prev, 0x11);
    assert_int_equal(slot_value(self, 0), 0x22);
    /* Pending: refused, value unchanged, previous still reported. */
    prev = 0;
    assert_int_equal(rtipc_notify(self, 0, 0x33, RTIPC_NOTIFY_NO_OVERWRITE, &prev), RTIPC_EPENDING);
    assert_int_equal(prev, 0x22);
    assert_int_equal(slot_value(self, 0), 0x22);
    assert_int_equal(rtipc_notify(self, 0, 0x44, RTIPC_NOTIFY_NO_OVERWRITE, NULL), RTIPC_EPENDING);
    assert_int_equal(slot_value(self, 0), 0x22);
    /* Still pending after the refusals; once cleared, it succeeds again. */
    assert_int_equal(slot_pending_consume(self, 0), 1);
    assert_int_equal(rtipc_notify(self, 0, 0x55, RTIPC_NOTIFY_NO_OVERWRITE, &prev), RTIPC_OK);
    assert_int_equal(prev, 0x22);
    assert_int_equal(slot_value(self, 0), 0x55);
    assert_int_equal(slot_pending_consume(self, 0), 1);
}

static void previous_may_be_null(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    const rtipc_notify_action_t actions[] = {RTIPC_NOTIFY_NO_ACTION, RTIPC_NOTIFY_SET_BITS, RTIPC_NOTIFY_INCREMENT,
                                             RTIPC_NOTIFY_OVERWRITE};
    for (size_t i = 0; i < sizeof actions / sizeof actions[0]; ++i)
        assert_int_equal(rtipc_notify(self, 1, 2, actions[i], NULL), RTIPC_OK);
    assert_int_equal(slot_value(self, 1), 2); /* 0 -> 0 -> 2 -> 3 -> 2 */
}

/* ---- take --------------------------------------------------------------- */

static void take_clear_returns_value_before_clearing(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    for (int i = 0; i < 3; ++i)
        assert_int_equal(rtipc_notify_give(self, 0), RTIPC_OK);
    uint32_t v = 0;
    assert_int_equal(rtipc_notify_take(0, true, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(v, 3);
    assert_int_equal(slot_value(self, 0), 0);
    assert_int_equal(slot_pending_consume(self, 0), 0); /* take clears pending */
    /* Non-zero but not pending is still taken. */
    set_slot(0, 9, 0);
    assert_int_equal(rtipc_notify_take(0, true, NULL, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(slot_value(self, 0), 0);
}

static void take_decrement_returns_value_before_decrement(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    set_slot(2, 3, 1);
    uint32_t v = 0;
    assert_int_equal(rtipc_notify_take(2, false, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(v, 3);
    assert_int_equal(slot_value(self, 2), 2);
    assert_int_equal(slot_pending_consume(self, 2), 0);
    assert_int_equal(rtipc_notify_take(2, false, &v, rtipc_ms(10)), RTIPC_OK);
    assert_int_equal(v, 2);
    assert_int_equal(rtipc_notify_take(2, false, &v, RTIPC_FOREVER), RTIPC_OK);
    assert_int_equal(v, 1);
    assert_int_equal(slot_value(self, 2), 0);
    /* Now 0: the next one would block. */
    v = 77;
    assert_int_equal(rtipc_notify_take(2, false, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(v, 0);
}

static void take_no_wait_on_zero_would_block(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    uint32_t v = 77;
    assert_int_equal(rtipc_notify_take(0, true, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(v, 0);
    assert_int_equal(rtipc_notify_take(0, false, NULL, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    /* Pending but zero (no-action notify) is still nothing to take. */
    assert_int_equal(rtipc_notify(self, 0, 0, RTIPC_NOTIFY_NO_ACTION, NULL), RTIPC_OK);
    assert_int_equal(rtipc_notify_take(0, true, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    /* A failed take consumes the pending state, as FreeRTOS's does: a wait
     * that follows does not see the no-action notification. */
    assert_int_equal(slot_pending_consume(self, 0), 0);
    assert_int_equal(rtipc_notify(self, 0, 0, RTIPC_NOTIFY_NO_ACTION, NULL), RTIPC_OK);
    assert_int_equal(rtipc_notify_take(0, false, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_notify_wait(0, 0, 0, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
}

static void take_times_out(void **state)
{
    (void)state;
    uint32_t v = 77;
    int64_t t0 = rtipc_time_ns();
    int rc = rtipc_notify_take(0, true, &v, rtipc_ms(100));
    int64_t dt = rtipc_time_ns() - t0;
    assert_int_equal(rc, RTIPC_ETIMEDOUT);
    assert_int_equal(v, 0);
    assert_elapsed(dt, 100 * MS);
}

static void take_blocks_until_given(void **state)
{
    (void)state;
    script_t s = {.n = 1, .steps = {{50, 0, 0, RTIPC_NOTIFY_INCREMENT}}};
    int64_t t0 = rtipc_time_ns();
    rtipc_task_t *t = start_script(&s);
    uint32_t v = 0;
    int rc = rtipc_notify_take(0, true, &v, rtipc_ms(5000));
    int64_t t1 = rtipc_time_ns();
    join_script(t, &s);
    assert_int_equal(rc, RTIPC_OK);
    assert_int_equal(v, 1);
    assert_true(t1 >= s.at[0]);        /* not before the give */
    assert_elapsed(t1 - t0, 50 * MS);   /* it really blocked */
}

/* rtipc differs from FreeRTOS on purpose: a notification that leaves the
 * value at 0 wakes the taker, which keeps waiting. */
static void take_not_ended_by_no_action(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    script_t s = {.n = 2, .steps = {{50, 0, 0xff, RTIPC_NOTIFY_NO_ACTION}, {100, 0, 0, RTIPC_NOTIFY_INCREMENT}}};
    int64_t t0 = rtipc_time_ns();
    rtipc_task_t *t = start_script(&s);
    uint32_t v = 0;
    int rc = rtipc_notify_take(0, true, &v, rtipc_ms(5000));
    int64_t t1 = rtipc_time_ns();
    join_script(t, &s);
    assert_int_equal(rc, RTIPC_OK);
    assert_int_equal(v, 1);          /* ended by the increment, not the no-action */
    assert_true(t1 >= s.at[1]);
    assert_elapsed(t1 - t0, 150 * MS);
    assert_int_equal(slot_pending_consume(self, 0), 0);
}

static void take_no_action_only_times_out(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    script_t s = {.n = 1, .steps = {{50, 0, 0, RTIPC_NOTIFY_NO_ACTION}}};
    int64_t t0 = rtipc_time_ns();
    rtipc_task_t *t = start_script(&s);
    uint32_t v = 77;
    int rc = rtipc_notify_take(0, false, &v, rtipc_ms(250));
    int64_t t1 = rtipc_time_ns();
    join_script(t, &s);
    assert_int_equal(rc, RTIPC_ETIMEDOUT);
    assert_int_equal(v, 0);
    assert_elapsed(t1 - t0, 250 * MS);
    assert_int_equal(slot_pending_consume(self, 0), 0); /* consumed by the take, as in FreeRTOS */
}

/* ---- wait --------------------------------------------------------------- */

static void wait_entry_mask_when_nothing_pending(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    set_slot(0, 0xff, 0);
    uint32_t v = 0;
    /* With no wait the entry bits stay (FreeRTOS V11 clears them only when
     * the call may block); with a timeout they go. */
    assert_int_equal(rtipc_notify_wait(0, 0x0f, 0, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(v, 0xff);
    assert_int_equal(slot_value(self, 0), 0xff);
    assert_int_equal(rtipc_notify_wait(0, 0x0f, 0, &v, rtipc_ms(1)), RTIPC_ETIMEDOUT);
    assert_int_equal(v, 0xf0); /* cleared on entry, then captured */
    assert_int_equal(slot_value(self, 0), 0xf0);
    assert_int_equal(slot_pending_consume(self, 0), 0);
}

static void wait_entry_mask_kept_when_pending(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    set_slot(0, 0xff, 1);
    uint32_t v = 0;
    assert_int_equal(rtipc_notify_wait(0, 0x0f, 0, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(v, 0xff); /* pending: entry bits not cleared */
    assert_int_equal(slot_value(self, 0), 0xff);
    assert_int_equal(slot_pending_consume(self, 0), 0); /* wait consumed the notification */
}

/* Notifies only once the target's slot shows the entry mask applied, so the
 * notification surely comes after the waiter's entry, however late the
 * waiter gets the CPU. */
typedef struct {
    rtipc_task_t *target;
    uint32_t entered_value; /* the slot value once the entry mask applied */
    int saw_entry;
    int rc;
    int64_t at;
} after_entry_t;

static void notify_after_entry(void *arg)
{
    after_entry_t *a = arg;
    for (int i = 0; i < 5000 && !a->saw_entry; ++i) {
        uint32_t v = 0;
        if (rtipc_notify_value_clear(a->target, 0, 0, &v) == RTIPC_OK && v == a->entered_value)
            a->saw_entry = 1;
        else
            rtipc_task_delay(rtipc_ms(1));
    }
    rtipc_task_delay(rtipc_ms(20)); /* let it block */
    a->at = rtipc_time_ns();
    a->rc = rtipc_notify(a->target, 0, 0x100, RTIPC_NOTIFY_SET_BITS, NULL);
}

static void wait_entry_mask_then_notified(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    set_slot(0, 0xff, 0);
    after_entry_t a = {.target = self, .entered_value = 0xf0, .rc = 12345};
    rtipc_task_t *t = start_task("entry", TIMING_PRIO, RTIPC_CORE_ANY, notify_after_entry, &a);
    uint32_t v = 0;
    int rc = rtipc_notify_wait(0, 0x0f, 0, &v, rtipc_ms(10000));
    int64_t t1 = rtipc_time_ns();
    join_task(t);
    assert_int_equal(a.saw_entry, 1);
    assert_int_equal(a.rc, RTIPC_OK);
    assert_int_equal(rc, RTIPC_OK);
    assert_int_equal(v, 0x1f0); /* entry cleared 0x0f, then the notifier set 0x100 */
    assert_true(t1 >= a.at);
    assert_elapsed(t1 - a.at, 0);
    assert_int_equal(slot_value(self, 0), 0x1f0);
}

static void wait_exit_mask_clears_after_capture(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    set_slot(1, 0x33, 1);
    uint32_t v = 0;
    assert_int_equal(rtipc_notify_wait(1, 0, 0x03, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(v, 0x33);                  /* captured with the bits */
    assert_int_equal(slot_value(self, 1), 0x30); /* the slot no longer has them */
    assert_int_equal(slot_pending_consume(self, 1), 0);
    /* value may be NULL. */
    set_slot(1, 0x0c, 1);
    assert_int_equal(rtipc_notify_wait(1, 0, UINT32_MAX, NULL, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(slot_value(self, 1), 0);
}

static void wait_exit_mask_after_blocking(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    script_t s = {.n = 1, .steps = {{50, 0, 0x3, RTIPC_NOTIFY_SET_BITS}}};
    rtipc_task_t *t = start_script(&s);
    uint32_t v = 0;
    int rc = rtipc_notify_wait(0, 0, 0x1, &v, rtipc_ms(5000));
    join_script(t, &s);
    assert_int_equal(rc, RTIPC_OK);
    assert_int_equal(v, 0x3);
    assert_int_equal(slot_value(self, 0), 0x2);
    assert_int_equal(slot_pending_consume(self, 0), 0);
}

static void wait_ended_by_no_action(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    set_slot(0, 0x40, 0);
    script_t s = {.n = 1, .steps = {{50, 0, 0xffff, RTIPC_NOTIFY_NO_ACTION}}};
    int64_t t0 = rtipc_time_ns();
    rtipc_task_t *t = start_script(&s);
    uint32_t v = 0;
    int rc = rtipc_notify_wait(0, 0, 0, &v, rtipc_ms(5000));
    int64_t t1 = rtipc_time_ns();
    join_script(t, &s);
    assert_int_equal(rc, RTIPC_OK);
    assert_int_equal(v, 0x40);
    assert_elapsed(t1 - t0, 50 * MS);
    assert_int_equal(slot_pending_consume(self, 0), 0);
}

static void wait_times_out(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    set_slot(0, 0x55, 0);
    uint32_t v = 0;
    int64_t t0 = rtipc_time_ns();
    int rc = rtipc_notify_wait(0, 0x01, 0xff, &v, rtipc_ms(100));
    int64_t dt = rtipc_time_ns() - t0;
    assert_int_equal(rc, RTIPC_ETIMEDOUT);
    assert_elapsed(dt, 100 * MS);
    assert_int_equal(v, 0x54);                  /* current value: entry applied */
    assert_int_equal(slot_value(self, 0), 0x54); /* exit mask not applied */
    assert_int_equal(slot_pending_consume(self, 0), 0);
}

static void wait_no_wait_nothing_pending(void **state)
{
    (void)state;
    uint32_t v = 77;
    assert_int_equal(rtipc_notify_wait(2, 0, 0, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(v, 0);
    assert_int_equal(rtipc_notify_wait(2, 0, 0, NULL, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
}

/* ---- indexed slots -------------------------------------------------------- */

static void index_notify_does_not_wake_other_index(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    script_t s = {.n = 2, .steps = {{50, 1, 0x8, RTIPC_NOTIFY_SET_BITS}, {0, 2, 0, RTIPC_NOTIFY_INCREMENT}}};
    int64_t t0 = rtipc_time_ns();
    rtipc_task_t *t = start_script(&s);
    uint32_t v = 77;
    int rc = rtipc_notify_wait(0, 0, 0, &v, rtipc_ms(300));
    int64_t t1 = rtipc_time_ns();
    join_script(t, &s);
    assert_int_equal(rc, RTIPC_ETIMEDOUT);
    assert_int_equal(v, 0);
    assert_elapsed(t1 - t0, 300 * MS);
    /* The other slots got their notifications; slot 0 none. */
    assert_int_equal(slot_value(self, 0), 0);
    assert_int_equal(slot_pending_consume(self, 0), 0);
    assert_int_equal(slot_value(self, 1), 0x8);
    assert_int_equal(slot_pending_consume(self, 1), 1);
    assert_int_equal(slot_value(self, 2), 1);
    assert_int_equal(slot_pending_consume(self, 2), 1);
}

static void index_waiter_woken_by_its_own_index(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    unsigned last = RTIPC_NOTIFY_SLOTS - 1;
    script_t s = {.n = 2, .steps = {{50, 0, 0x1, RTIPC_NOTIFY_SET_BITS}, {50, last, 0x2, RTIPC_NOTIFY_SET_BITS}}};
    int64_t t0 = rtipc_time_ns();
    rtipc_task_t *t = start_script(&s);
    uint32_t v = 0;
    int rc = rtipc_notify_wait(last, 0, 0, &v, rtipc_ms(5000));
    int64_t t1 = rtipc_time_ns();
    join_script(t, &s);
    assert_int_equal(rc, RTIPC_OK);
    assert_int_equal(v, 0x2);
    assert_true(t1 >= s.at[1]); /* not woken (for good) by the slot-0 notify */
    assert_elapsed(t1 - t0, 100 * MS);
    assert_int_equal(slot_value(self, last), 0x2);
    assert_int_equal(slot_pending_consume(self, last), 0);
    assert_int_equal(slot_value(self, 0), 0x1);
    assert_int_equal(slot_pending_consume(self, 0), 1);
}

static void index_take_on_last_slot(void **state)
{
    (void)state;
    unsigned last = RTIPC_NOTIFY_SLOTS - 1;
    script_t s = {.n = 1, .steps = {{50, last, 0, RTIPC_NOTIFY_INCREMENT}}};
    rtipc_task_t *t = start_script(&s);
    uint32_t v = 0;
    int rc = rtipc_notify_take(last, false, &v, rtipc_ms(5000));
    join_script(t, &s);
    assert_int_equal(rc, RTIPC_OK);
    assert_int_equal(v, 1);
}

/* ---- cross-core give ------------------------------------------------------ */

typedef struct {
    rtipc_task_t *receiver;
    int ready;   /* receiver is about to take (atomic) */
    int rc_take;
    uint32_t value;
    int64_t t_start, t_end;
    int rc_give;
    int64_t t_give;
} xcore_t;

static void xcore_receiver(void *arg)
{
    xcore_t *x = arg;
    x->t_start = rtipc_time_ns();
    __atomic_store_n(&x->ready, 1, __ATOMIC_RELEASE);
    x->rc_take = rtipc_notify_take(0, true, &x->value, rtipc_ms(5000));
    x->t_end = rtipc_time_ns();
}

static void xcore_giver(void *arg)
{
    xcore_t *x = arg;
    for (int i = 0; i < 5000 && !__atomic_load_n(&x->ready, __ATOMIC_ACQUIRE); ++i)
        rtipc_task_delay(rtipc_ms(1));
    rtipc_task_delay(rtipc_ms(50)); /* let it block */
    x->t_give = rtipc_time_ns();
    x->rc_give = rtipc_notify_give(x->receiver, 0);
}

static void cross_core_give_wakes_take(void **state)
{
    (void)state;
    xcore_t x;
    memset(&x, 0, sizeof x);
    x.rc_take = x.rc_give = 12345;
    x.receiver = start_task("recv", TIMING_PRIO, test_core(0), xcore_receiver, &x);
    rtipc_task_t *g = start_task("give", TIMING_PRIO, test_core(1), xcore_giver, &x);
    join_task(g);
    join_task(x.receiver);
    assert_int_equal(x.ready, 1);
    assert_int_equal(x.rc_give, RTIPC_OK);
    assert_int_equal(x.rc_take, RTIPC_OK);
    assert_int_equal(x.value, 1);
    assert_true(x.t_end >= x.t_give);
    assert_true(x.t_end - x.t_start >= 50 * MS);
    assert_elapsed(x.t_end - x.t_give, 0);
}

/* ---- clear calls ---------------------------------------------------------- */

static void state_clear_returns_1_then_0(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    assert_int_equal(rtipc_notify_state_clear(NULL, 0), 0);
    assert_int_equal(rtipc_notify(self, 0, 3, RTIPC_NOTIFY_OVERWRITE, NULL), RTIPC_OK);
    assert_int_equal(rtipc_notify_state_clear(NULL, 0), 1);
    assert_int_equal(rtipc_notify_state_clear(NULL, 0), 0);
    assert_int_equal(slot_value(self, 0), 3); /* the value stays */
    /* Explicit handle of the caller works the same. */
    assert_int_equal(rtipc_notify(self, 1, 0, RTIPC_NOTIFY_NO_ACTION, NULL), RTIPC_OK);
    assert_int_equal(rtipc_notify_state_clear(self, 1), 1);
    assert_int_equal(rtipc_notify_state_clear(self, 1), 0);
    /* Clearing the state makes NO_OVERWRITE succeed again. */
    assert_int_equal(rtipc_notify(self, 0, 4, RTIPC_NOTIFY_OVERWRITE, NULL), RTIPC_OK);
    assert_int_equal(rtipc_notify(self, 0, 5, RTIPC_NOTIFY_NO_OVERWRITE, NULL), RTIPC_EPENDING);
    assert_int_equal(rtipc_notify_state_clear(NULL, 0), 1);
    assert_int_equal(rtipc_notify(self, 0, 5, RTIPC_NOTIFY_NO_OVERWRITE, NULL), RTIPC_OK);
    assert_int_equal(slot_value(self, 0), 5);
    assert_int_equal(rtipc_notify_state_clear(NULL, 0), 1);
}

static void value_clear_clears_bits(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    set_slot(0, 0xf0f0, 1);
    uint32_t prev = 0;
    assert_int_equal(rtipc_notify_value_clear(NULL, 0, 0x00ff, &prev), RTIPC_OK);
    assert_int_equal(prev, 0xf0f0);
    assert_int_equal(slot_value(self, 0), 0xf000);
    assert_int_equal(rtipc_notify_value_clear(self, 0, 0xffffffff, NULL), RTIPC_OK);
    assert_int_equal(slot_value(self, 0), 0);
    assert_int_equal(slot_pending_consume(self, 0), 1); /* the state is left alone */
}

/* Another task's slots, cleared from the main thread while it blocks on its
 * own slot 0. */
typedef struct {
    int rc;
    uint32_t value;
} other_t;

static void other_owner(void *arg)
{
    other_t *o = arg;
    o->rc = rtipc_notify_take(0, true, &o->value, rtipc_ms(5000));
}

static void clear_calls_on_another_task(void **state)
{
    (void)state;
    other_t o = {.rc = 12345};
    rtipc_task_t *t = start_task("other", TIMING_PRIO, RTIPC_CORE_ANY, other_owner, &o);
    uint32_t prev = 0;
    assert_int_equal(rtipc_notify(t, 1, 0x5, RTIPC_NOTIFY_OVERWRITE, &prev), RTIPC_OK);
    assert_int_equal(prev, 0);
    assert_int_equal(rtipc_notify_state_clear(t, 1), 1);
    assert_int_equal(rtipc_notify_state_clear(t, 1), 0);
    assert_int_equal(rtipc_notify_value_clear(t, 1, 0x4, &prev), RTIPC_OK);
    assert_int_equal(prev, 0x5);
    assert_int_equal(rtipc_notify_value_clear(t, 1, 0, &prev), RTIPC_OK);
    assert_int_equal(prev, 0x1);
    /* Main's own slot 1 is untouched. */
    assert_int_equal(slot_value(NULL, 1), 0);
    sleep_ms(20);
    assert_int_equal(rtipc_notify(t, 0, 0x77, RTIPC_NOTIFY_OVERWRITE, NULL), RTIPC_OK);
    join_task(t);
    assert_int_equal(o.rc, RTIPC_OK);
    assert_int_equal(o.value, 0x77);
}

/* ---- errors --------------------------------------------------------------- */

static void noop_task(void *arg) { (void)arg; }

static void invalid_task_and_action(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    uint32_t prev = 0;
    assert_int_equal(rtipc_notify(NULL, 0, 1, RTIPC_NOTIFY_SET_BITS, &prev), RTIPC_EINVAL);
    assert_int_equal(rtipc_notify_give(NULL, 0), RTIPC_EINVAL);

    /* A task that has been joined is no longer a live task. */
    rtipc_task_t *t = start_task("gone", 1, RTIPC_CORE_ANY, noop_task, NULL);
    join_task(t);
    assert_int_equal(rtipc_notify(t, 0, 1, RTIPC_NOTIFY_SET_BITS, &prev), RTIPC_EINVAL);
    assert_int_equal(rtipc_notify_give(t, 0), RTIPC_EINVAL);
    assert_int_equal(rtipc_notify_state_clear(t, 0), RTIPC_EINVAL);
    assert_int_equal(rtipc_notify_value_clear(t, 0, 1, &prev), RTIPC_EINVAL);

    /* Unknown actions change nothing. */
    set_slot(0, 0x10, 0);
    assert_int_equal(rtipc_notify(self, 0, 1, (rtipc_notify_action_t)5, &prev), RTIPC_EINVAL);
    assert_int_equal(rtipc_notify(self, 0, 1, (rtipc_notify_action_t)-1, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_notify(self, 0, 1, (rtipc_notify_action_t)1000, NULL), RTIPC_EINVAL);
    assert_int_equal(slot_value(self, 0), 0x10);
    assert_int_equal(slot_pending_consume(self, 0), 0);
}

static void wrong_context(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    set_slot(0, 1, 0);
    uint32_t v = 77;
    enter_interrupt_context();
    int r_notify = rtipc_notify(self, 0, 2, RTIPC_NOTIFY_OVERWRITE, &v);
    int r_give = rtipc_notify_give(self, 0);
    int r_take = rtipc_notify_take(0, true, &v, RTIPC_NO_WAIT);
    int r_take_forever = rtipc_notify_take(0, true, &v, RTIPC_FOREVER);
    int r_wait = rtipc_notify_wait(0, UINT32_MAX, UINT32_MAX, &v, RTIPC_NO_WAIT);
    int r_wait_forever = rtipc_notify_wait(0, UINT32_MAX, UINT32_MAX, &v, RTIPC_FOREVER);
    /* Context is checked before the arguments. */
    int r_bad_index = rtipc_notify(NULL, RTIPC_NOTIFY_SLOTS, 0, (rtipc_notify_action_t)99, NULL);
    int r_state_self = rtipc_notify_state_clear(NULL, 0);
    int r_state = rtipc_notify_state_clear(self, 0);
    int r_value_self = rtipc_notify_value_clear(NULL, 0, UINT32_MAX, &v);
    int r_value = rtipc_notify_value_clear(self, 0, UINT32_MAX, &v);
    leave_interrupt_context();
    assert_int_equal(r_notify, RTIPC_ECONTEXT);
    assert_int_equal(r_give, RTIPC_ECONTEXT);
    assert_int_equal(r_take, RTIPC_ECONTEXT);
    assert_int_equal(r_take_forever, RTIPC_ECONTEXT);
    assert_int_equal(r_wait, RTIPC_ECONTEXT);
    assert_int_equal(r_wait_forever, RTIPC_ECONTEXT);
    assert_int_equal(r_bad_index, RTIPC_ECONTEXT);
    /* The clear calls are task-only too (irq.h: task-only calls fail in a
     * handler). */
    assert_int_equal(r_state_self, RTIPC_ECONTEXT);
    assert_int_equal(r_state, RTIPC_ECONTEXT);
    assert_int_equal(r_value_self, RTIPC_ECONTEXT);
    assert_int_equal(r_value, RTIPC_ECONTEXT);
    assert_int_equal(v, 77);                   /* outputs untouched */
    assert_int_equal(slot_value(self, 0), 1);   /* nothing changed */
    assert_int_equal(slot_pending_consume(self, 0), 0);
    set_slot(0, 0, 1);
    enter_interrupt_context();
    r_state = rtipc_notify_state_clear(self, 0);
    leave_interrupt_context();
    assert_int_equal(r_state, RTIPC_ECONTEXT);
    assert_int_equal(slot_pending_consume(self, 0), 1); /* still pending */
}

#define T(f) cmocka_unit_test_setup(f, reset_slots)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(slots_per_task),
        T(default_slot_count),
        T(action_no_action),
        T(action_set_bits),
        T(action_increment),
        T(action_overwrite_replaces_even_when_pending),
        T(action_no_overwrite),
        T(previous_may_be_null),
        T(take_clear_returns_value_before_clearing),
        T(take_decrement_returns_value_before_decrement),
        T(take_no_wait_on_zero_would_block),
        T(take_times_out),
        T(take_blocks_until_given),
        T(take_not_ended_by_no_action),
        T(take_no_action_only_times_out),
        T(wait_entry_mask_when_nothing_pending),
        T(wait_entry_mask_kept_when_pending),
        T(wait_entry_mask_then_notified),
        T(wait_exit_mask_clears_after_capture),
        T(wait_exit_mask_after_blocking),
        T(wait_ended_by_no_action),
        T(wait_times_out),
        T(wait_no_wait_nothing_pending),
        T(index_notify_does_not_wake_other_index),
        T(index_waiter_woken_by_its_own_index),
        T(index_take_on_last_slot),
        T(cross_core_give_wakes_take),
        T(state_clear_returns_1_then_0),
        T(value_clear_clears_bits),
        T(clear_calls_on_another_task),
        T(invalid_task_and_action),
        T(wrong_context),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
