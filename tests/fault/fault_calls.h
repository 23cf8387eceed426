/* The blocking calls of the API, for the fault tests that run each of them
 * under a fault (fault_signal.c, fault_timeout.c): for every call, how to
 * put its object in the state where the call blocks, the call itself (run
 * by a waiting task), the event that lets it complete, the check of what a
 * successful call moved, and the cleanup. Static functions: include in one
 * source per program. */
#ifndef RTIPC_FAULT_CALLS_H
#define RTIPC_FAULT_CALLS_H

#include "test_support.h"

#include <pthread.h>
#include <string.h>

typedef enum {
    C_QUEUE_SEND, C_QUEUE_RECEIVE, C_QUEUE_PEEK, C_SEM_TAKE, C_MUTEX_LOCK, C_NOTIFY_TAKE, C_NOTIFY_WAIT,
    C_EG_WAIT, C_EG_SYNC, C_RB_SEND, C_RB_RECEIVE, C_RB_ACQUIRE, C_SB_SEND, C_SB_RECEIVE, C_MB_SEND,
    C_MB_RECEIVE, C_MAILBOX_WAIT, C_SPSC_PUSH, C_SPSC_POP, C_QUEUESET_SELECT, C_COUNT
} call_t;

static const char *call_name[C_COUNT] = {
    "queue_send", "queue_receive", "queue_peek", "sem_take", "mutex_lock", "notify_take", "notify_wait",
    "eventgroup_wait_bits", "eventgroup_sync", "ringbuf_send", "ringbuf_receive", "ringbuf_acquire",
    "streambuf_send", "streambuf_receive", "msgbuf_send", "msgbuf_receive", "mailbox_wait_newer",
    "spsc_push", "spsc_pop", "queueset_select"};

typedef struct {
    call_t call;
    rtipc_queue_t *q;
    rtipc_sem_t *s;
    rtipc_mutex_t *m;
    rtipc_eventgroup_t *eg;
    rtipc_ringbuf_t *rb;
    rtipc_streambuf_t *sb;
    rtipc_msgbuf_t *mb;
    rtipc_mailbox_t *mbox;
    rtipc_spsc_t *spsc;
    rtipc_queueset_t *set;
    rtipc_task_t *task;    /* the waiter (notification target) */
    /* waiter side */
    rtipc_timeout_t timeout;
    pthread_t thread;
    int ready;
    int rc;
    int value;             /* what the call produced, checked on success */
    int64_t started_ns, returned_ns;
    long in_call;          /* signals caught during the call */
    int calling;           /* the call has begun */
    int done;
} ctx_t;

#define FILLER 11 /* what fills an object before a send must block */
#define EVENT 77  /* what the event delivers */

/* Objects in the state where the call blocks. */
static void prepare(ctx_t *c)
{
    int v = FILLER;
    size_t n;
    switch (c->call) {
    case C_QUEUE_SEND:
        assert_int_equal(rtipc_queue_create(1, sizeof(int), &c->q), RTIPC_OK);
        assert_int_equal(rtipc_queue_send(c->q, &v, RTIPC_NO_WAIT), RTIPC_OK);
        break;
    case C_QUEUE_RECEIVE:
    case C_QUEUE_PEEK: assert_int_equal(rtipc_queue_create(1, sizeof(int), &c->q), RTIPC_OK); break;
    case C_SEM_TAKE: assert_int_equal(rtipc_sem_create_binary(&c->s), RTIPC_OK); break;
    case C_MUTEX_LOCK:
        assert_int_equal(rtipc_mutex_create(false, &c->m), RTIPC_OK);
        assert_int_equal(rtipc_mutex_lock(c->m, RTIPC_NO_WAIT), RTIPC_OK);
        break;
    case C_NOTIFY_TAKE:
    case C_NOTIFY_WAIT: break;
    case C_EG_WAIT:
    case C_EG_SYNC: assert_int_equal(rtipc_eventgroup_create(&c->eg), RTIPC_OK); break;
    case C_RB_SEND:
    case C_RB_ACQUIRE:
        assert_int_equal(rtipc_ringbuf_create(16, RTIPC_RINGBUF_NOSPLIT, &c->rb), RTIPC_OK);
        while (rtipc_ringbuf_send(c->rb, &v, sizeof v, RTIPC_NO_WAIT) == RTIPC_OK) {
        }
        break;
    case C_RB_RECEIVE: assert_int_equal(rtipc_ringbuf_create(16, RTIPC_RINGBUF_NOSPLIT, &c->rb), RTIPC_OK); break;
    case C_SB_SEND:
        assert_int_equal(rtipc_streambuf_create(sizeof(int), 1, &c->sb), RTIPC_OK);
        assert_int_equal(rtipc_streambuf_send(c->sb, &v, sizeof v, &n, RTIPC_NO_WAIT), RTIPC_OK);
        break;
    case C_SB_RECEIVE: assert_int_equal(rtipc_streambuf_create(16, sizeof(int), &c->sb), RTIPC_OK); break;
    case C_MB_SEND:
        assert_int_equal(rtipc_msgbuf_create(sizeof(int) + RTIPC_MSGBUF_LENGTH_BYTES, &c->mb), RTIPC_OK);
        assert_int_equal(rtipc_msgbuf_send(c->mb, &v, sizeof v, RTIPC_NO_WAIT), RTIPC_OK);
        break;
    case C_MB_RECEIVE: assert_int_equal(rtipc_msgbuf_create(16, &c->mb), RTIPC_OK); break;
    case C_MAILBOX_WAIT: assert_int_equal(rtipc_mailbox_create(sizeof(int), NULL, &c->mbox), RTIPC_OK); break;
    case C_SPSC_PUSH:
        assert_int_equal(rtipc_spsc_create(1, sizeof(int), &c->spsc), RTIPC_OK);
        assert_int_equal(rtipc_spsc_push(c->spsc, &v, RTIPC_NO_WAIT), RTIPC_OK);
        break;
    case C_SPSC_POP: assert_int_equal(rtipc_spsc_create(1, sizeof(int), &c->spsc), RTIPC_OK); break;
    case C_QUEUESET_SELECT:
        assert_int_equal(rtipc_queueset_create(1, &c->set), RTIPC_OK);
        assert_int_equal(rtipc_queue_create(1, sizeof(int), &c->q), RTIPC_OK);
        assert_int_equal(rtipc_queueset_add_queue(c->set, c->q), RTIPC_OK);
        break;
    default: break;
    }
}

/* In the waiting task: the blocking call; c->value gets what it produced. */
static int do_call(ctx_t *c)
{
    rtipc_timeout_t t = c->timeout;
    int v = EVENT, rc;
    size_t n = 0;
    switch (c->call) {
    case C_QUEUE_SEND: return rtipc_queue_send(c->q, &v, t);
    case C_QUEUE_RECEIVE: rc = rtipc_queue_receive(c->q, &c->value, t); return rc;
    case C_QUEUE_PEEK: rc = rtipc_queue_peek(c->q, &c->value, t); return rc;
    case C_SEM_TAKE: rc = rtipc_sem_take(c->s, t); c->value = EVENT; return rc;
    case C_MUTEX_LOCK:
        rc = rtipc_mutex_lock(c->m, t);
        if (rc == RTIPC_OK) {
            c->value = rtipc_mutex_holder(c->m) == rtipc_task_current() ? EVENT : -1;
            rtipc_mutex_unlock(c->m);
        }
        return rc;
    case C_NOTIFY_TAKE: {
        uint32_t val = 0;
        rc = rtipc_notify_take(0, true, &val, t);
        c->value = (int)val;
        return rc;
    }
    case C_NOTIFY_WAIT: {
        uint32_t val = 0;
        rc = rtipc_notify_wait(0, 0, UINT32_MAX, &val, t);
        c->value = (int)val;
        return rc;
    }
    case C_EG_WAIT: {
        uint32_t bits = 0;
        rc = rtipc_eventgroup_wait_bits(c->eg, 0x3, true, true, &bits, t);
        c->value = (int)bits;
        return rc;
    }
    case C_EG_SYNC: {
        uint32_t bits = 0;
        rc = rtipc_eventgroup_sync(c->eg, 0x1, 0x3, &bits, t);
        c->value = (int)bits;
        return rc;
    }
    case C_RB_SEND: return rtipc_ringbuf_send(c->rb, &v, sizeof v, t);
    case C_RB_ACQUIRE: {
        void *item = NULL;
        rc = rtipc_ringbuf_acquire(c->rb, &item, sizeof v, t);
        if (rc == RTIPC_OK) {
            memcpy(item, &v, sizeof v);
            rtipc_ringbuf_complete(c->rb, item);
        }
        return rc;
    }
    case C_RB_RECEIVE: {
        void *item = NULL;
        size_t size = 0;
        rc = rtipc_ringbuf_receive(c->rb, &item, &size, t);
        if (rc == RTIPC_OK) {
            memcpy(&c->value, item, sizeof c->value);
            rtipc_ringbuf_return(c->rb, item);
        }
        return rc;
    }
    case C_SB_SEND: return rtipc_streambuf_send(c->sb, &v, sizeof v, &n, t);
    case C_SB_RECEIVE: return rtipc_streambuf_receive(c->sb, &c->value, sizeof c->value, &n, t);
    case C_MB_SEND: return rtipc_msgbuf_send(c->mb, &v, sizeof v, t);
    case C_MB_RECEIVE: return rtipc_msgbuf_receive(c->mb, &c->value, sizeof c->value, &n, t);
    case C_MAILBOX_WAIT: return rtipc_mailbox_wait_newer(c->mbox, &c->value, 0, NULL, t);
    case C_SPSC_PUSH: return rtipc_spsc_push(c->spsc, &v, t);
    case C_SPSC_POP: return rtipc_spsc_pop(c->spsc, &c->value, t);
    case C_QUEUESET_SELECT: {
        void *member = NULL;
        rc = rtipc_queueset_select(c->set, &member, t);
        if (rc == RTIPC_OK)
            c->value = member == c->q && rtipc_queue_receive(c->q, &v, RTIPC_NO_WAIT) == RTIPC_OK ? v : -1;
        return rc;
    }
    default: return RTIPC_EINVAL;
    }
}

/* From the main thread: make the call able to complete. */
static void make_event(ctx_t *c)
{
    int v = EVENT, back = 0;
    size_t n = 0;
    switch (c->call) {
    case C_QUEUE_SEND:
    case C_SPSC_PUSH:
        if (c->call == C_QUEUE_SEND)
            assert_int_equal(rtipc_queue_receive(c->q, &back, RTIPC_NO_WAIT), RTIPC_OK);
        else
            assert_int_equal(rtipc_spsc_pop(c->spsc, &back, RTIPC_NO_WAIT), RTIPC_OK);
        assert_int_equal(back, FILLER);
        break;
    case C_QUEUE_RECEIVE:
    case C_QUEUE_PEEK:
    case C_QUEUESET_SELECT: assert_int_equal(rtipc_queue_send(c->q, &v, RTIPC_NO_WAIT), RTIPC_OK); break;
    case C_SEM_TAKE: assert_int_equal(rtipc_sem_give(c->s), RTIPC_OK); break;
    case C_MUTEX_LOCK: assert_int_equal(rtipc_mutex_unlock(c->m), RTIPC_OK); break;
    case C_NOTIFY_TAKE:
    case C_NOTIFY_WAIT:
        assert_int_equal(rtipc_notify(c->task, 0, EVENT, RTIPC_NOTIFY_OVERWRITE, NULL), RTIPC_OK);
        break;
    case C_EG_WAIT: assert_int_equal(rtipc_eventgroup_set_bits(c->eg, 0x3, NULL), RTIPC_OK); break;
    case C_EG_SYNC: assert_int_equal(rtipc_eventgroup_set_bits(c->eg, 0x2, NULL), RTIPC_OK); break;
    case C_RB_SEND:
    case C_RB_ACQUIRE: {
        void *item;
        size_t size;
        assert_int_equal(rtipc_ringbuf_receive(c->rb, &item, &size, RTIPC_NO_WAIT), RTIPC_OK);
        assert_int_equal(rtipc_ringbuf_return(c->rb, item), RTIPC_OK);
        break;
    }
    case C_RB_RECEIVE: assert_int_equal(rtipc_ringbuf_send(c->rb, &v, sizeof v, RTIPC_NO_WAIT), RTIPC_OK); break;
    case C_SB_SEND:
        assert_int_equal(rtipc_streambuf_receive(c->sb, &back, sizeof back, &n, RTIPC_NO_WAIT), RTIPC_OK);
        break;
    case C_SB_RECEIVE:
        assert_int_equal(rtipc_streambuf_send(c->sb, &v, sizeof v, &n, RTIPC_NO_WAIT), RTIPC_OK);
        assert_int_equal(n, sizeof v);
        break;
    case C_MB_SEND:
        assert_int_equal(rtipc_msgbuf_receive(c->mb, &back, sizeof back, &n, RTIPC_NO_WAIT), RTIPC_OK);
        break;
    case C_MB_RECEIVE: assert_int_equal(rtipc_msgbuf_send(c->mb, &v, sizeof v, RTIPC_NO_WAIT), RTIPC_OK); break;
    case C_MAILBOX_WAIT: assert_int_equal(rtipc_mailbox_write(c->mbox, &v), RTIPC_OK); break;
    case C_SPSC_POP: assert_int_equal(rtipc_spsc_push(c->spsc, &v, RTIPC_NO_WAIT), RTIPC_OK); break;
    default: fail_msg("no event for %s", call_name[c->call]);
    }
}

/* After a successful call: the data it moved is the event's. */
static void check_success(ctx_t *c)
{
    int back = 0;
    size_t n = 0;
    void *item;
    size_t size;
    switch (c->call) {
    case C_QUEUE_SEND:
        assert_int_equal(rtipc_queue_receive(c->q, &back, RTIPC_NO_WAIT), RTIPC_OK);
        assert_int_equal(back, EVENT);
        break;
    case C_SPSC_PUSH:
        assert_int_equal(rtipc_spsc_pop(c->spsc, &back, RTIPC_NO_WAIT), RTIPC_OK);
        assert_int_equal(back, EVENT);
        break;
    case C_QUEUE_PEEK:
        assert_int_equal(c->value, EVENT);
        assert_int_equal(rtipc_queue_receive(c->q, &back, RTIPC_NO_WAIT), RTIPC_OK); /* still there */
        break;
    case C_EG_WAIT: assert_int_equal(c->value, 0x3); break;
    case C_EG_SYNC: assert_int_equal(c->value, 0x3); break;
    case C_RB_SEND:
    case C_RB_ACQUIRE:
        /* The remaining filler items, then the waiter's. */
        for (;;) {
            assert_int_equal(rtipc_ringbuf_receive(c->rb, &item, &size, RTIPC_NO_WAIT), RTIPC_OK);
            memcpy(&back, item, sizeof back);
            assert_int_equal(rtipc_ringbuf_return(c->rb, item), RTIPC_OK);
            if (back != FILLER)
                break;
        }
        assert_int_equal(back, EVENT);
        break;
    case C_SB_SEND:
        assert_int_equal(rtipc_streambuf_receive(c->sb, &back, sizeof back, &n, RTIPC_NO_WAIT), RTIPC_OK);
        assert_int_equal(back, EVENT);
        break;
    case C_MB_SEND:
        assert_int_equal(rtipc_msgbuf_receive(c->mb, &back, sizeof back, &n, RTIPC_NO_WAIT), RTIPC_OK);
        assert_int_equal(back, EVENT);
        break;
    default: assert_int_equal(c->value, EVENT); break;
    }
}

static void cleanup(ctx_t *c)
{
    if (c->set) {
        int v;
        while (rtipc_queue_receive(c->q, &v, RTIPC_NO_WAIT) == RTIPC_OK) {
        }
        void *member;
        while (rtipc_queueset_select(c->set, &member, RTIPC_NO_WAIT) == RTIPC_OK) {
        }
        assert_int_equal(rtipc_queueset_remove_queue(c->set, c->q), RTIPC_OK);
        assert_int_equal(rtipc_queueset_delete(c->set), RTIPC_OK);
    }
    if (c->q)
        assert_int_equal(rtipc_queue_delete(c->q), RTIPC_OK);
    if (c->s)
        assert_int_equal(rtipc_sem_delete(c->s), RTIPC_OK);
    if (c->m) {
        rtipc_mutex_unlock(c->m); /* still held by us after a timeout run */
        assert_int_equal(rtipc_mutex_delete(c->m), RTIPC_OK);
    }
    if (c->eg)
        assert_int_equal(rtipc_eventgroup_delete(c->eg), RTIPC_OK);
    if (c->rb) {
        void *item;
        size_t size;
        while (rtipc_ringbuf_receive(c->rb, &item, &size, RTIPC_NO_WAIT) == RTIPC_OK)
            rtipc_ringbuf_return(c->rb, item);
        assert_int_equal(rtipc_ringbuf_delete(c->rb), RTIPC_OK);
    }
    if (c->sb)
        assert_int_equal(rtipc_streambuf_delete(c->sb), RTIPC_OK);
    if (c->mb)
        assert_int_equal(rtipc_msgbuf_delete(c->mb), RTIPC_OK);
    if (c->mbox)
        assert_int_equal(rtipc_mailbox_delete(c->mbox), RTIPC_OK);
    if (c->spsc)
        assert_int_equal(rtipc_spsc_delete(c->spsc), RTIPC_OK);
}

#endif
