/* Handles that cannot be confused (error.h, RTIPC_EINVAL): for every object
 * kind and the interrupt source, created dynamically and statically, a
 * handle of a deleted object is refused by every call, also once its memory
 * holds a new object; a handle of one kind is refused by every other kind's
 * calls; values that were never handles are refused without a crash. Run in
 * the ASan build, these also show that no call reads a deleted object's
 * memory. Only the public API is used (test_handle_table.c looks inside the
 * handle table). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define REFUSED(call) assert_int_equal((call), RTIPC_EINVAL)

/* Live objects the refusal checks use as the other argument. */
static rtipc_queueset_t *live_set;
static rtipc_queue_t *live_q;

/* Caller memory for static creation, one control block and storage per
 * index: a test puts a new object where a deleted one was (the same index),
 * or keeps one of each kind alive at once (an index per kind). */
typedef union {
    rtipc_queue_static_t q;
    rtipc_sem_static_t s;
    rtipc_mutex_static_t m;
    rtipc_eventgroup_static_t e;
    rtipc_streambuf_static_t sb;
    rtipc_msgbuf_static_t mb;
    rtipc_ringbuf_static_t rb;
    rtipc_spsc_static_t p;
    rtipc_mailbox_static_t x;
} cb_t;
#define NMEM 32
static cb_t cbs[NMEM];
static _Alignas(64) unsigned char storage[NMEM][256];

static void isr(void *arg) { (void)arg; }

/* ---- one kind: make, use, and every call refusing a handle ------------------------- */
typedef struct {
    const char *name;
    bool has_static;
    /* Create (statically in cbs[mem] / storage[mem] when is_static). */
    int (*make)(bool is_static, int mem, void **out);
    int (*destroy)(void *h);
    /* Calls that succeed on a live object of this kind. */
    void (*works)(void *h);
    /* Every call of this kind given h: refused (RTIPC_EINVAL, 0, NULL). */
    void (*refused)(void *h);
} kind_t;

/* queue */
static int q_make(bool st, int mem, void **out)
{
    return st ? rtipc_queue_create_static(4, sizeof(int), storage[mem], &cbs[mem].q, (rtipc_queue_t **)out)
              : rtipc_queue_create(4, sizeof(int), (rtipc_queue_t **)out);
}
static int q_destroy(void *h) { return rtipc_queue_delete(h); }
static void q_works(void *h)
{
    int v = 5, got = 0;
    assert_int_equal(rtipc_queue_send(h, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_queue_messages_waiting(h), 1);
    assert_int_equal(rtipc_queue_receive(h, &got, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(got, 5);
    assert_true(rtipc_queue_footprint(h) > 0);
}
static void q_refused(void *h)
{
    int v = 0;
    bool w = false;
    REFUSED(rtipc_queue_send(h, &v, RTIPC_NO_WAIT));
    REFUSED(rtipc_queue_send_to_front(h, &v, RTIPC_NO_WAIT));
    REFUSED(rtipc_queue_receive(h, &v, RTIPC_NO_WAIT));
    REFUSED(rtipc_queue_peek(h, &v, RTIPC_NO_WAIT));
    REFUSED(rtipc_queue_overwrite(h, &v));
    REFUSED(rtipc_queue_reset(h));
    REFUSED(rtipc_queue_send_from_isr(h, &v, &w));
    REFUSED(rtipc_queue_send_to_front_from_isr(h, &v, &w));
    REFUSED(rtipc_queue_overwrite_from_isr(h, &v, &w));
    REFUSED(rtipc_queue_receive_from_isr(h, &v, &w));
    REFUSED(rtipc_queue_peek_from_isr(h, &v));
    REFUSED(rtipc_queue_messages_waiting(h));
    REFUSED(rtipc_queue_spaces_available(h));
    REFUSED(rtipc_queue_set_spin(h, 0));
    assert_int_equal(rtipc_queue_footprint(h), 0);
    REFUSED(rtipc_queueset_add_queue(live_set, h));
    REFUSED(rtipc_queueset_remove_queue(live_set, h));
    REFUSED(rtipc_queue_delete(h));
    assert_false(w);
}

/* semaphore */
static int s_make(bool st, int mem, void **out)
{
    return st ? rtipc_sem_create_static(1, 0, &cbs[mem].s, (rtipc_sem_t **)out)
              : rtipc_sem_create_binary((rtipc_sem_t **)out);
}
static int s_destroy(void *h) { return rtipc_sem_delete(h); }
static void s_works(void *h)
{
    assert_int_equal(rtipc_sem_give(h), RTIPC_OK);
    assert_int_equal(rtipc_sem_count(h), 1);
    assert_int_equal(rtipc_sem_take(h, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_sem_max(h), 1);
}
static void s_refused(void *h)
{
    bool w = false;
    REFUSED(rtipc_sem_give(h));
    REFUSED(rtipc_sem_take(h, RTIPC_NO_WAIT));
    REFUSED(rtipc_sem_give_from_isr(h, &w));
    REFUSED(rtipc_sem_take_from_isr(h, &w));
    REFUSED(rtipc_sem_count(h));
    REFUSED(rtipc_sem_max(h));
    REFUSED(rtipc_sem_set_spin(h, 0));
    if (h) /* NULL gives the size of any one (the header) */
        assert_int_equal(rtipc_sem_footprint(h), 0);
    REFUSED(rtipc_queueset_add_sem(live_set, h));
    REFUSED(rtipc_queueset_remove_sem(live_set, h));
    REFUSED(rtipc_sem_delete(h));
    assert_false(w);
}

/* mutex */
static int m_make(bool st, int mem, void **out)
{
    return st ? rtipc_mutex_create_static(false, &cbs[mem].m, (rtipc_mutex_t **)out)
              : rtipc_mutex_create(false, (rtipc_mutex_t **)out);
}
static int m_destroy(void *h) { return rtipc_mutex_delete(h); }
static void m_works(void *h)
{
    assert_int_equal(rtipc_mutex_lock(h, RTIPC_NO_WAIT), RTIPC_OK);
    assert_ptr_equal(rtipc_mutex_holder(h), rtipc_task_current());
    assert_int_equal(rtipc_mutex_unlock(h), RTIPC_OK);
}
static void m_refused(void *h)
{
    REFUSED(rtipc_mutex_lock(h, RTIPC_NO_WAIT));
    REFUSED(rtipc_mutex_unlock(h));
    REFUSED(rtipc_mutex_set_spin(h, 0));
    assert_null(rtipc_mutex_holder(h));
    if (h) /* NULL gives the size of any one (the header) */
        assert_int_equal(rtipc_mutex_footprint(h), 0);
    REFUSED(rtipc_mutex_delete(h));
}

/* event group */
static int e_make(bool st, int mem, void **out)
{
    return st ? rtipc_eventgroup_create_static(&cbs[mem].e, (rtipc_eventgroup_t **)out)
              : rtipc_eventgroup_create((rtipc_eventgroup_t **)out);
}
static int e_destroy(void *h) { return rtipc_eventgroup_delete(h); }
static void e_works(void *h)
{
    assert_int_equal(rtipc_eventgroup_set_bits(h, 1, NULL), RTIPC_OK);
    assert_int_equal(rtipc_eventgroup_get_bits(h), 1);
    assert_int_equal(rtipc_eventgroup_clear_bits(h, 1, NULL), RTIPC_OK);
}
static void e_refused(void *h)
{
    uint32_t v = 0;
    bool w = false;
    REFUSED(rtipc_eventgroup_set_bits(h, 1, &v));
    REFUSED(rtipc_eventgroup_clear_bits(h, 1, &v));
    REFUSED(rtipc_eventgroup_get_bits(h));
    REFUSED(rtipc_eventgroup_wait_bits(h, 1, false, false, &v, RTIPC_NO_WAIT));
    REFUSED(rtipc_eventgroup_sync(h, 1, 1, &v, RTIPC_NO_WAIT));
    REFUSED(rtipc_eventgroup_set_bits_from_isr(h, 1, &v, &w));
    REFUSED(rtipc_eventgroup_clear_bits_from_isr(h, 1, &v));
    REFUSED(rtipc_eventgroup_set_spin(h, 0));
    if (h) /* NULL gives the size of any one (the header) */
        assert_int_equal(rtipc_eventgroup_footprint(h), 0);
    REFUSED(rtipc_eventgroup_delete(h));
    assert_false(w);
}

/* stream buffer */
static int sb_make(bool st, int mem, void **out)
{
    return st ? rtipc_streambuf_create_static(64, 1, storage[mem], &cbs[mem].sb, (rtipc_streambuf_t **)out)
              : rtipc_streambuf_create(64, 1, (rtipc_streambuf_t **)out);
}
static int sb_destroy(void *h) { return rtipc_streambuf_delete(h); }
static void sb_works(void *h)
{
    size_t n = 0;
    char buf[4];
    assert_int_equal(rtipc_streambuf_send(h, "abc", 3, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_streambuf_bytes_available(h), 3);
    assert_int_equal(rtipc_streambuf_receive(h, buf, sizeof buf, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, 3);
}
static void sb_refused(void *h)
{
    size_t n = 7;
    char buf[4] = "abc";
    bool w = false;
    REFUSED(rtipc_streambuf_send(h, buf, 3, &n, RTIPC_NO_WAIT));
    assert_int_equal(n, 0);
    REFUSED(rtipc_streambuf_receive(h, buf, sizeof buf, &n, RTIPC_NO_WAIT));
    REFUSED(rtipc_streambuf_send_from_isr(h, buf, 3, &n, &w));
    REFUSED(rtipc_streambuf_receive_from_isr(h, buf, sizeof buf, &n, &w));
    REFUSED(rtipc_streambuf_set_trigger_level(h, 1));
    REFUSED(rtipc_streambuf_reset(h));
    REFUSED(rtipc_streambuf_bytes_available(h));
    REFUSED(rtipc_streambuf_spaces_available(h));
    REFUSED(rtipc_streambuf_is_empty(h));
    REFUSED(rtipc_streambuf_is_full(h));
    REFUSED(rtipc_streambuf_set_spin(h, 0));
    assert_int_equal(rtipc_streambuf_footprint(h), 0);
    REFUSED(rtipc_streambuf_delete(h));
    assert_false(w);
}

/* message buffer */
static int mb_make(bool st, int mem, void **out)
{
    return st ? rtipc_msgbuf_create_static(64, storage[mem], &cbs[mem].mb, (rtipc_msgbuf_t **)out)
              : rtipc_msgbuf_create(64, (rtipc_msgbuf_t **)out);
}
static int mb_destroy(void *h) { return rtipc_msgbuf_delete(h); }
static void mb_works(void *h)
{
    size_t n = 0;
    char buf[8];
    assert_int_equal(rtipc_msgbuf_send(h, "hello", 5, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(rtipc_msgbuf_next_length(h), 5);
    assert_int_equal(rtipc_msgbuf_receive(h, buf, sizeof buf, &n, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(n, 5);
}
static void mb_refused(void *h)
{
    size_t n = 7;
    char buf[8] = "hello";
    bool w = false;
    REFUSED(rtipc_msgbuf_send(h, buf, 5, RTIPC_NO_WAIT));
    REFUSED(rtipc_msgbuf_receive(h, buf, sizeof buf, &n, RTIPC_NO_WAIT));
    assert_int_equal(n, 0);
    REFUSED(rtipc_msgbuf_send_from_isr(h, buf, 5, &w));
    REFUSED(rtipc_msgbuf_receive_from_isr(h, buf, sizeof buf, &n, &w));
    REFUSED(rtipc_msgbuf_next_length(h));
    REFUSED(rtipc_msgbuf_reset(h));
    REFUSED(rtipc_msgbuf_bytes_available(h));
    REFUSED(rtipc_msgbuf_spaces_available(h));
    REFUSED(rtipc_msgbuf_is_empty(h));
    REFUSED(rtipc_msgbuf_is_full(h));
    REFUSED(rtipc_msgbuf_set_spin(h, 0));
    assert_int_equal(rtipc_msgbuf_footprint(h), 0);
    REFUSED(rtipc_msgbuf_delete(h));
    assert_false(w);
}

/* ring buffers, one kind per type */
static int rb_make(rtipc_ringbuf_type_t type, bool st, int mem, void **out)
{
    return st ? rtipc_ringbuf_create_static(64, type, storage[mem], &cbs[mem].rb, (rtipc_ringbuf_t **)out)
              : rtipc_ringbuf_create(64, type, (rtipc_ringbuf_t **)out);
}
static int rbn_make(bool st, int mem, void **out) { return rb_make(RTIPC_RINGBUF_NOSPLIT, st, mem, out); }
static int rba_make(bool st, int mem, void **out) { return rb_make(RTIPC_RINGBUF_ALLOWSPLIT, st, mem, out); }
static int rbb_make(bool st, int mem, void **out) { return rb_make(RTIPC_RINGBUF_BYTEBUF, st, mem, out); }
static int rb_destroy(void *h) { return rtipc_ringbuf_delete(h); }
static void rb_works(void *h)
{
    void *item = NULL, *tail = NULL;
    size_t n = 0, tn = 0;
    assert_int_equal(rtipc_ringbuf_send(h, "abcd", 4, RTIPC_NO_WAIT), RTIPC_OK);
    int rc = rtipc_ringbuf_receive(h, &item, &n, RTIPC_NO_WAIT);
    if (rc == RTIPC_ENOTSUP) /* an allow-split buffer */
        rc = rtipc_ringbuf_receive_split(h, &item, &n, &tail, &tn, RTIPC_NO_WAIT);
    assert_int_equal(rc, RTIPC_OK);
    assert_int_equal(n + tn, 4);
    assert_int_equal(rtipc_ringbuf_return(h, item), RTIPC_OK);
}
static void rb_refused(void *h)
{
    void *item = NULL, *tail = NULL;
    size_t n = 0, tn = 0;
    char data[4] = "abc";
    bool w = false;
    REFUSED(rtipc_ringbuf_send(h, data, 4, RTIPC_NO_WAIT));
    REFUSED(rtipc_ringbuf_acquire(h, &item, 4, RTIPC_NO_WAIT));
    REFUSED(rtipc_ringbuf_complete(h, data));
    REFUSED(rtipc_ringbuf_receive(h, &item, &n, RTIPC_NO_WAIT));
    REFUSED(rtipc_ringbuf_receive_split(h, &item, &n, &tail, &tn, RTIPC_NO_WAIT));
    REFUSED(rtipc_ringbuf_receive_up_to(h, &item, &n, 4, RTIPC_NO_WAIT));
    REFUSED(rtipc_ringbuf_return(h, data));
    REFUSED(rtipc_ringbuf_send_from_isr(h, data, 4, &w));
    REFUSED(rtipc_ringbuf_receive_from_isr(h, &item, &n));
    REFUSED(rtipc_ringbuf_receive_split_from_isr(h, &item, &n, &tail, &tn));
    REFUSED(rtipc_ringbuf_receive_up_to_from_isr(h, &item, &n, 4));
    REFUSED(rtipc_ringbuf_return_from_isr(h, data, &w));
    REFUSED(rtipc_ringbuf_free_size(h));
    REFUSED(rtipc_ringbuf_max_item_size(h));
    REFUSED(rtipc_ringbuf_items_waiting(h));
    REFUSED(rtipc_ringbuf_bytes_used(h));
    REFUSED(rtipc_ringbuf_set_spin(h, 0));
    assert_int_equal(rtipc_ringbuf_footprint(h), 0);
    REFUSED(rtipc_queueset_add_ringbuf(live_set, h));
    REFUSED(rtipc_queueset_remove_ringbuf(live_set, h));
    REFUSED(rtipc_ringbuf_delete(h));
    assert_null(item);
    assert_false(w);
}

/* queue set (dynamic only) */
static int t_make(bool st, int mem, void **out)
{
    (void)st, (void)mem;
    return rtipc_queueset_create(4, (rtipc_queueset_t **)out);
}
static int t_destroy(void *h) { return rtipc_queueset_delete(h); }
static void t_works(void *h)
{
    void *m = NULL;
    assert_int_equal(rtipc_queueset_select(h, &m, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_queueset_overflows(h), 0);
    assert_true(rtipc_queueset_footprint(h) > 0);
}
static void t_refused(void *h)
{
    void *m = NULL;
    REFUSED(rtipc_queueset_add_queue(h, live_q));
    REFUSED(rtipc_queueset_remove_queue(h, live_q));
    REFUSED(rtipc_queueset_select(h, &m, RTIPC_NO_WAIT));
    REFUSED(rtipc_queueset_select_from_isr(h, &m));
    REFUSED(rtipc_queueset_overflows(h));
    REFUSED(rtipc_queueset_set_spin(h, 0));
    assert_int_equal(rtipc_queueset_footprint(h), 0);
    REFUSED(rtipc_queueset_delete(h));
    assert_null(m);
}

/* interrupt source (dynamic only) */
static int i_make(bool st, int mem, void **out)
{
    (void)st, (void)mem;
    return rtipc_irq_create(0, isr, NULL, (rtipc_irq_t **)out);
}
static int i_destroy(void *h) { return rtipc_irq_delete(h); }
static void i_works(void *h)
{
    assert_true(rtipc_irq_count(h) >= 0);
    assert_int_equal(rtipc_irq_timer_stop(h), RTIPC_OK);
    assert_int_equal(rtipc_irq_trigger(h), RTIPC_OK);
}
static void i_refused(void *h)
{
    REFUSED(rtipc_irq_trigger(h));
    REFUSED(rtipc_irq_timer_start(h, 1000000, 0));
    REFUSED(rtipc_irq_timer_stop(h));
    REFUSED(rtipc_irq_count(h));
    REFUSED(rtipc_irq_delete(h));
}

/* SPSC ring */
static int p_make(bool st, int mem, void **out)
{
    return st ? rtipc_spsc_create_static(4, sizeof(int), storage[mem], &cbs[mem].p, (rtipc_spsc_t **)out)
              : rtipc_spsc_create(4, sizeof(int), (rtipc_spsc_t **)out);
}
static int p_destroy(void *h) { return rtipc_spsc_delete(h); }
static void p_works(void *h)
{
    int v = 9, got = 0;
    assert_int_equal(rtipc_spsc_try_push(h, &v), RTIPC_OK);
    assert_int_equal(rtipc_spsc_size(h), 1);
    assert_int_equal(rtipc_spsc_try_pop(h, &got), RTIPC_OK);
    assert_int_equal(got, 9);
    assert_int_equal(rtipc_spsc_capacity(h), 4);
}
static void p_refused(void *h)
{
    int v[2] = {0, 0};
    bool w = false;
    REFUSED(rtipc_spsc_try_push(h, v));
    REFUSED(rtipc_spsc_try_pop(h, v));
    REFUSED(rtipc_spsc_push_bulk(h, v, 2));
    REFUSED(rtipc_spsc_pop_bulk(h, v, 2));
    REFUSED(rtipc_spsc_peek(h, v));
    REFUSED(rtipc_spsc_push(h, v, RTIPC_NO_WAIT));
    REFUSED(rtipc_spsc_pop(h, v, RTIPC_NO_WAIT));
    REFUSED(rtipc_spsc_push_from_isr(h, v, &w));
    REFUSED(rtipc_spsc_pop_from_isr(h, v, &w));
    REFUSED(rtipc_spsc_push_bulk_from_isr(h, v, 2, &w));
    REFUSED(rtipc_spsc_pop_bulk_from_isr(h, v, 2, &w));
    REFUSED(rtipc_spsc_size(h));
    REFUSED(rtipc_spsc_capacity(h));
    REFUSED(rtipc_spsc_set_spin(h, 0));
    assert_int_equal(rtipc_spsc_footprint(h), 0);
    REFUSED(rtipc_spsc_delete(h));
    assert_false(w);
}

/* mailbox */
static int x_make(bool st, int mem, void **out)
{
    return st ? rtipc_mailbox_create_static(8, NULL, storage[mem], &cbs[mem].x, (rtipc_mailbox_t **)out)
              : rtipc_mailbox_create(8, NULL, (rtipc_mailbox_t **)out);
}
static int x_destroy(void *h) { return rtipc_mailbox_delete(h); }
static void x_works(void *h)
{
    uint64_t v = 77, got = 0, version = 0;
    assert_int_equal(rtipc_mailbox_write(h, &v), RTIPC_OK);
    assert_int_equal(rtipc_mailbox_read(h, &got, &version), RTIPC_OK);
    assert_int_equal(got, 77);
    assert_true(version >= 1);
}
static void x_refused(void *h)
{
    uint64_t v = 0, version = 0;
    bool w = false;
    REFUSED(rtipc_mailbox_write(h, &v));
    REFUSED(rtipc_mailbox_write_from_isr(h, &v, &w));
    REFUSED(rtipc_mailbox_read(h, &v, &version));
    REFUSED(rtipc_mailbox_wait_newer(h, &v, 0, &version, RTIPC_NO_WAIT));
    REFUSED(rtipc_mailbox_version(h, &version));
    REFUSED(rtipc_mailbox_set_spin(h, 0));
    assert_int_equal(rtipc_mailbox_footprint(h), 0);
    REFUSED(rtipc_mailbox_delete(h));
    assert_false(w);
}

/* The task and notification calls refuse anything that is not a task's
 * handle too (never given NULL here: NULL names the caller there). */
static void task_refused(void *h)
{
    REFUSED(rtipc_task_priority(h));
    REFUSED(rtipc_task_effective_priority(h));
    REFUSED(rtipc_task_set_priority(h, 1));
    REFUSED(rtipc_task_core(h));
    assert_null(rtipc_task_name(h));
    REFUSED(rtipc_task_join(h));
    REFUSED(rtipc_task_delete(h));
    REFUSED(rtipc_notify_give(h, 0));
    REFUSED(rtipc_notify_state_clear(h, 0));
    REFUSED(rtipc_notify_value_clear(h, 0, 1, NULL));
    REFUSED(rtipc_notify_set_spin(h, 0));
}

static const kind_t kinds[] = {
    {"queue", true, q_make, q_destroy, q_works, q_refused},
    {"semaphore", true, s_make, s_destroy, s_works, s_refused},
    {"mutex", true, m_make, m_destroy, m_works, m_refused},
    {"event group", true, e_make, e_destroy, e_works, e_refused},
    {"stream buffer", true, sb_make, sb_destroy, sb_works, sb_refused},
    {"message buffer", true, mb_make, mb_destroy, mb_works, mb_refused},
    {"no-split ring buffer", true, rbn_make, rb_destroy, rb_works, rb_refused},
    {"allow-split ring buffer", true, rba_make, rb_destroy, rb_works, rb_refused},
    {"byte ring buffer", true, rbb_make, rb_destroy, rb_works, rb_refused},
    {"queue set", false, t_make, t_destroy, t_works, t_refused},
    {"interrupt source", false, i_make, i_destroy, i_works, i_refused},
    {"SPSC ring", true, p_make, p_destroy, p_works, p_refused},
    {"mailbox", true, x_make, x_destroy, x_works, x_refused},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

/* Whether this port creates the kind statically: the FreeRTOS port refuses
 * stream and message buffers in caller memory (RTIPC_ENOTSUP). */
static bool static_ok(const kind_t *k)
{
    if (!k->has_static)
        return false;
    void *h = NULL;
    int rc = k->make(true, NMEM - 1, &h);
    if (rc == RTIPC_ENOTSUP)
        return false;
    assert_int_equal(rc, RTIPC_OK);
    assert_int_equal(k->destroy(h), RTIPC_OK);
    return true;
}

static void *make(const kind_t *k, bool is_static, int mem)
{
    void *h = NULL;
    int rc = k->make(is_static, mem, &h);
    if (rc != RTIPC_OK)
        fail_msg("creating a %s %s: %s", is_static ? "static" : "dynamic", k->name, rtipc_strerror(rc));
    assert_non_null(h);
    return h;
}

static int setup(void **state)
{
    (void)state;
    if (rtipc_queueset_create(8, &live_set) != RTIPC_OK || rtipc_queue_create(2, sizeof(int), &live_q) != RTIPC_OK)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return rtipc_queue_delete(live_q) == RTIPC_OK && rtipc_queueset_delete(live_set) == RTIPC_OK ? 0 : -1;
}

/* ---- the tests ----------------------------------------------------------------- */
static void a_deleted_objects_handle_is_refused_by_every_call(void **state)
{
    (void)state;
    for (size_t i = 0; i < NKINDS; ++i) {
        for (int st = 0; st <= (int)static_ok(&kinds[i]); ++st) {
            void *h = make(&kinds[i], st, 0);
            kinds[i].works(h);
            assert_int_equal(kinds[i].destroy(h), RTIPC_OK);
            kinds[i].refused(h); /* under ASan: and no read of the freed block */
            task_refused(h);
        }
    }
}

/* A new object in the deleted one's memory (the same static control block,
 * or for a dynamic one, most likely the same block from the allocator) gets
 * a new handle; the old one stays refused. */
static void a_new_object_in_the_same_memory_does_not_revive_the_old_handle(void **state)
{
    (void)state;
    for (size_t i = 0; i < NKINDS; ++i) {
        for (int st = 0; st <= (int)static_ok(&kinds[i]); ++st) {
            void *a = make(&kinds[i], st, 0);
            assert_int_equal(kinds[i].destroy(a), RTIPC_OK);
            void *b = make(&kinds[i], st, 0);
            assert_ptr_not_equal(a, b);
            kinds[i].refused(a);
            kinds[i].works(b);
            /* And one of another kind in that memory. */
            const kind_t *other = &kinds[(i + 1) % NKINDS];
            assert_int_equal(kinds[i].destroy(b), RTIPC_OK);
            void *c = make(other, st && static_ok(other), 0);
            kinds[i].refused(a);
            kinds[i].refused(b);
            other->refused(a);
            other->refused(b);
            other->works(c);
            assert_int_equal(other->destroy(c), RTIPC_OK);
        }
    }
}

static void a_handle_of_another_kind_is_refused(void **state)
{
    (void)state;
    void *live[NKINDS][2];
    for (size_t i = 0; i < NKINDS; ++i)
        for (int st = 0; st < 2; ++st)
            live[i][st] = make(&kinds[i], st && static_ok(&kinds[i]), (int)(2 * i) + st);
    for (size_t i = 0; i < NKINDS; ++i) {
        for (size_t j = 0; j < NKINDS; ++j) {
            /* The three ring buffer types share their calls. */
            bool same = i == j || (kinds[i].refused == rb_refused && kinds[j].refused == rb_refused);
            for (int st = 0; st < 2 && !same; ++st)
                kinds[j].refused(live[i][st]);
        }
        for (int st = 0; st < 2; ++st)
            task_refused(live[i][st]);
    }
    /* Nothing was done to them. */
    for (size_t i = 0; i < NKINDS; ++i) {
        for (int st = 0; st < 2; ++st) {
            kinds[i].works(live[i][st]);
            assert_int_equal(kinds[i].destroy(live[i][st]), RTIPC_OK);
        }
    }
}

/* ---- tasks ------------------------------------------------------------------------ */
static void task_entry(void *arg) { (void)arg; }

static rtipc_task_t *spawn_task(void)
{
    rtipc_task_config_t cfg = {.name = "h", .entry = task_entry, .priority = 1, .core = RTIPC_CORE_ANY};
    rtipc_task_t *t = NULL;
    assert_int_equal(rtipc_task_create(&cfg, &t), RTIPC_OK);
    assert_non_null(t);
    return t;
}

static void task_works(rtipc_task_t *t)
{
    /* Never ended yet: its entry waits for nothing, so check before it runs
     * or after, with the calls that accept an ended task's handle too. */
    rtipc_spin_stats_t st;
    assert_int_equal(rtipc_spin_stats(t, &st), RTIPC_OK);
}

/* A joined task's handle is refused, also once a new task (most likely in
 * the joined one's descriptor, from the allocator) got a new handle; and an
 * ended task that was not joined yet is refused by every call on a running
 * task but can still be joined. */
static void a_joined_tasks_handle_is_refused(void **state)
{
    (void)state;
    rtipc_task_t *a = spawn_task();
    task_works(a);
    assert_int_equal(rtipc_task_join(a), RTIPC_OK);
    task_refused(a);
    rtipc_spin_stats_t st;
    REFUSED(rtipc_spin_stats(a, &st));

    rtipc_task_t *b = spawn_task();
    assert_ptr_not_equal(a, b);
    task_refused(a);
    task_works(b);
    /* b's entry returns at once: once it has, it is refused as ended. */
    while (rtipc_task_priority(b) >= 0)
        assert_int_equal(rtipc_task_delay(rtipc_ms(1)), RTIPC_OK);
    REFUSED(rtipc_task_priority(b));
    REFUSED(rtipc_notify_give(b, 0));
    assert_null(rtipc_task_name(b));
    assert_int_equal(rtipc_task_join(b), RTIPC_OK);
    task_refused(b);
    task_refused(a);

    /* An object created in the joined tasks' place is not a task. */
    void *q = make(&kinds[0], false, 0);
    task_refused(q);
    REFUSED(rtipc_task_join(q));
    assert_int_equal(kinds[0].destroy(q), RTIPC_OK);
    task_refused(a);
}

/* Values that never were handles. */
static void values_that_never_were_handles_are_refused(void **state)
{
    (void)state;
    unsigned char stack_buffer[256];
    memset(stack_buffer, 0xa5, sizeof stack_buffer);
    void *heap = malloc(256);
    assert_non_null(heap);
    memset(heap, 0x5a, 256);
    void *q = make(&kinds[0], false, 0);
    void *values[] = {
        (void *)1,
        (void *)(uintptr_t)0x10,
        (void *)UINTPTR_MAX,
        (void *)(UINTPTR_MAX - 7),
        stack_buffer,
        heap,
        (void *)"a string",
        (void *)&live_set,
        (void *)((uintptr_t)q | 0xffffu),                                        /* a live handle's kind, no slot */
        (void *)((uintptr_t)q ^ ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))), /* its top bit flipped */
    };
    for (size_t v = 0; v < sizeof values / sizeof values[0]; ++v) {
        for (size_t i = 0; i < NKINDS; ++i)
            kinds[i].refused(values[v]);
        task_refused(values[v]);
    }
    for (size_t i = 0; i < NKINDS; ++i)
        kinds[i].refused(NULL);
    /* The values touched nothing: the buffers are as they were. */
    for (size_t i = 0; i < sizeof stack_buffer; ++i)
        assert_int_equal(stack_buffer[i], 0xa5);
    for (size_t i = 0; i < 256; ++i)
        assert_int_equal(((unsigned char *)heap)[i], 0x5a);
    kinds[0].works(q);
    assert_int_equal(kinds[0].destroy(q), RTIPC_OK);
    free(heap);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_deleted_objects_handle_is_refused_by_every_call),
        cmocka_unit_test(a_new_object_in_the_same_memory_does_not_revive_the_old_handle),
        cmocka_unit_test(a_handle_of_another_kind_is_refused),
        cmocka_unit_test(values_that_never_were_handles_are_refused),
        cmocka_unit_test(a_joined_tasks_handle_is_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
