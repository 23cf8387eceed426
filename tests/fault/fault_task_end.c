/* Fault injection: tasks that end while other tasks depend on them.
 *
 * - A mutex holder that ends (returns from its entry, deletes itself, or is
 *   deleted) while others wait: the mutex stays held by the ended task for
 *   good (mutex.h, task.h): waiters with a timeout get RTIPC_ETIMEDOUT after
 *   it, a FOREVER waiter stays blocked until it is itself deleted, unlock by
 *   anyone else is RTIPC_EPERM, delete is RTIPC_EBUSY, and no later task is
 *   ever taken for the holder (its descriptor is not reused).
 * - A task deleted while it is blocked in a receive / take / lock / wait /
 *   select / pop: the object stays consistent, its other waiters are still
 *   served, and no waiter entry is left behind (the object can be deleted).
 * - A task deleted just as it is woken: the wake-up passes to the next
 *   waiter, nothing is lost (checked over many rounds).
 * - A notification sent to a deleted task: RTIPC_EINVAL.
 *
 * Worker tasks record what they saw; the main thread asserts afterwards. */
#include "test_support.h"
#include "fault_common.h"

#include <stdio.h>
#include <string.h>

/* Time a started task is given to reach its blocking call and park. */
#define SETTLE_MS 50
/* Bound for anything that should happen "at once" on a loaded machine. */
#define PROMPT_MS 5000

static long faults_injected; /* task ends / deletions provoked */
static long operations;      /* blocking calls whose outcome was checked */

/* The context of the helper tasks below (holder, locker, taker, killer):
 * one type for all, each using its own few fields. */
typedef struct {
    rtipc_mutex_t *m;
    rtipc_sem_t *s, *go;
    rtipc_task_t *target;
    rtipc_timeout_t timeout;
    int64_t waited_ns;
    int mode, rc, locked, done, got;
} task_ctx_t;

/* ---- a mutex holder that ends ---------------------------------------------- */
enum { END_RETURN, END_SELF_DELETE, END_DELETED };

static rtipc_mutex_static_t held_cb[3];
static rtipc_mutex_t *held[3];

static void holder_task(void *arg)
{
    task_ctx_t *h = arg;
    if (rtipc_mutex_lock(h->m, RTIPC_NO_WAIT) == RTIPC_OK)
        store(&h->locked, 1);
    else
        store(&h->locked, -1);
    rtipc_sem_take(h->go, RTIPC_FOREVER); /* the deletion point for END_DELETED */
    if (h->mode == END_SELF_DELETE)
        rtipc_task_delete(NULL);
}

static void locker_task(void *arg)
{
    task_ctx_t *l = arg;
    int64_t t0 = rtipc_time_ns();
    l->rc = rtipc_mutex_lock(l->m, l->timeout);
    l->waited_ns = rtipc_time_ns() - t0;
    store(&l->done, 1);
    if (l->rc == RTIPC_OK)
        rtipc_mutex_unlock(l->m);
}

static void holder_ends(int mode)
{
    assert_int_equal(rtipc_mutex_create_static(false, &held_cb[mode], &held[mode]), RTIPC_OK);
    rtipc_mutex_t *m = held[mode];
    /* Static: a holder that deletes itself is detached, so nothing orders
     * its last reads before a later reuse of a stack frame. */
    static task_ctx_t holders[3];
    task_ctx_t *hp = &holders[mode];
    *hp = (task_ctx_t){.m = m, .mode = mode};
    assert_int_equal(rtipc_sem_create_binary(&hp->go), RTIPC_OK);
    rtipc_task_t *ht = start_task("holder", 1, RTIPC_CORE_ANY, holder_task, hp);
    assert_true(wait_for_flag(&hp->locked, 1, PROMPT_MS));
    task_ctx_t timed = {.m = m, .timeout = rtipc_ms(300), .rc = NOT_RUN};
    task_ctx_t forever = {.m = m, .timeout = RTIPC_FOREVER, .rc = NOT_RUN};
    rtipc_task_t *tt = start_task("timed", 4, RTIPC_CORE_ANY, locker_task, &timed);
    rtipc_task_t *ft = start_task("forever", 3, RTIPC_CORE_ANY, locker_task, &forever);
    sleep_ms(SETTLE_MS);

    /* The holder ends while both wait. */
    if (mode == END_DELETED) {
        assert_int_equal(rtipc_task_delete(ht), RTIPC_OK);
    } else {
        assert_int_equal(rtipc_sem_give(hp->go), RTIPC_OK);
        if (mode == END_RETURN)
            join_task(ht);
        else
            sleep_ms(SETTLE_MS); /* it deleted itself: detached, not joinable */
    }
    ++faults_injected;

    /* The timed waiter gives up after its full timeout; the other waits on. */
    assert_true(wait_for_flag(&timed.done, 1, PROMPT_MS + 300));
    join_task(tt);
    assert_int_equal(timed.rc, RTIPC_ETIMEDOUT);
    assert_true(timed.waited_ns >= 300 * 1000000LL);
    assert_int_equal(load(&forever.done), 0);
    ++operations;

    /* The mutex stays held by the ended task, for everyone. */
    rtipc_task_t *stale = rtipc_mutex_holder(m);
    assert_ptr_equal(stale, ht);
    assert_int_equal(rtipc_task_priority(stale), RTIPC_EINVAL); /* not a live task */
    assert_int_equal(rtipc_mutex_unlock(m), RTIPC_EPERM);
    assert_int_equal(rtipc_mutex_lock(m, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_mutex_lock(m, rtipc_ms(20)), RTIPC_ETIMEDOUT);
    assert_int_equal(rtipc_mutex_delete(m), RTIPC_EBUSY);
    operations += 3;

    /* The FOREVER waiter can be deleted; it leaves no waiter entry behind
     * (delete is still refused, but now only because the mutex is held). */
    assert_int_equal(rtipc_task_delete(ft), RTIPC_OK);
    ++faults_injected;
    assert_int_equal(load(&forever.done), 0);
    assert_int_equal(forever.rc, NOT_RUN);

    /* New tasks, alive together so that they take every pooled descriptor
     * (the ended ones' included, were they reused), are never taken for the
     * holder. */
    enum { LATER = 6 };
    task_ctx_t later[LATER];
    rtipc_task_t *lt[LATER];
    for (int i = 0; i < LATER; ++i) {
        later[i] = (task_ctx_t){.m = m, .timeout = rtipc_ms(100), .rc = NOT_RUN};
        lt[i] = start_task("later", 2, RTIPC_CORE_ANY, locker_task, &later[i]);
    }
    for (int i = 0; i < LATER; ++i) {
        join_task(lt[i]);
        assert_int_equal(later[i].rc, RTIPC_ETIMEDOUT);
        ++operations;
    }
    assert_ptr_equal(rtipc_mutex_holder(m), stale);
    assert_int_equal(rtipc_sem_delete(hp->go), RTIPC_OK);
}

static void test_holder_returns(void **state)
{
    (void)state;
    holder_ends(END_RETURN);
}

static void test_holder_deletes_itself(void **state)
{
    (void)state;
    holder_ends(END_SELF_DELETE);
}

static void test_holder_deleted(void **state)
{
    (void)state;
    holder_ends(END_DELETED);
}

/* The plain case behind the above: a task locks, returns, is joined; the
 * next task (which gets the recycled descriptor) must not be the holder. */
static rtipc_mutex_static_t plain_cb;
static rtipc_mutex_t *plain;

typedef struct {
    int lock_rc, unlock_rc, is_holder;
} reuse_t;

static void lock_and_return(void *arg) { *(int *)arg = rtipc_mutex_lock(plain, RTIPC_NO_WAIT); }

static void try_plain(void *arg)
{
    reuse_t *r = arg;
    r->is_holder = rtipc_mutex_holder(plain) == rtipc_task_current();
    r->lock_rc = rtipc_mutex_lock(plain, RTIPC_NO_WAIT);
    r->unlock_rc = rtipc_mutex_unlock(plain);
}

static void test_next_task_is_not_the_holder(void **state)
{
    (void)state;
    assert_int_equal(rtipc_mutex_create_static(false, &plain_cb, &plain), RTIPC_OK);
    int rc = NOT_RUN;
    join_task(start_task("locker", 1, RTIPC_CORE_ANY, lock_and_return, &rc));
    assert_int_equal(rc, RTIPC_OK);
    ++faults_injected;
    for (int i = 0; i < 8; ++i) {
        reuse_t r = {NOT_RUN, NOT_RUN, -1};
        join_task(start_task("next", 1, RTIPC_CORE_ANY, try_plain, &r));
        assert_int_equal(r.is_holder, 0);
        assert_int_equal(r.lock_rc, RTIPC_EWOULDBLOCK);
        assert_int_equal(r.unlock_rc, RTIPC_EPERM);
        operations += 2;
    }
}

/* ---- a waiter deleted while blocked ------------------------------------------ */
typedef enum {
    K_QUEUE_RECV, K_QUEUE_SEND, K_SEM, K_MUTEX, K_EVENTGROUP, K_RINGBUF, K_MAILBOX, K_QUEUESET,
    K_STREAMBUF, K_MSGBUF, K_SPSC, K_COUNT
} kind_t;

static const char *kind_name[K_COUNT] = {"queue receive", "queue send", "sem take", "mutex lock",
                                         "eventgroup wait", "ringbuf receive", "mailbox wait_newer",
                                         "queueset select", "streambuf receive", "msgbuf receive",
                                         "spsc pop"};

/* Single-reader objects: only one waiter at a time. */
static bool single_waiter(kind_t k) { return k == K_STREAMBUF || k == K_MSGBUF || k == K_SPSC; }

typedef struct {
    kind_t kind;
    rtipc_queue_t *q;
    rtipc_sem_t *s;
    rtipc_mutex_t *m;
    rtipc_eventgroup_t *eg;
    rtipc_ringbuf_t *rb;
    rtipc_mailbox_t *mb;
    rtipc_queueset_t *set;
    rtipc_streambuf_t *sb;
    rtipc_msgbuf_t *msg;
    rtipc_spsc_t *spsc;
} objects_t;

typedef struct {
    objects_t *o;
    int rc;
    int value;
    int done;
} waiter_t;

static void waiter_task(void *arg)
{
    waiter_t *w = arg;
    objects_t *o = w->o;
    int v = 0, rc = NOT_RUN;
    switch (o->kind) {
    case K_QUEUE_RECV: rc = rtipc_queue_receive(o->q, &v, RTIPC_FOREVER); break;
    case K_QUEUE_SEND: v = 77; rc = rtipc_queue_send(o->q, &v, RTIPC_FOREVER); break;
    case K_SEM: rc = rtipc_sem_take(o->s, RTIPC_FOREVER); v = 77; break;
    case K_MUTEX:
        rc = rtipc_mutex_lock(o->m, RTIPC_FOREVER);
        if (rc == RTIPC_OK) {
            v = 77;
            rtipc_mutex_unlock(o->m);
        }
        break;
    case K_EVENTGROUP: {
        uint32_t bits = 0;
        rc = rtipc_eventgroup_wait_bits(o->eg, 0x1, false, true, &bits, RTIPC_FOREVER);
        v = (int)bits + 76;
        break;
    }
    case K_RINGBUF: {
        void *item;
        size_t size;
        rc = rtipc_ringbuf_receive(o->rb, &item, &size, RTIPC_FOREVER);
        if (rc == RTIPC_OK) {
            memcpy(&v, item, sizeof v);
            rtipc_ringbuf_return(o->rb, item);
        }
        break;
    }
    case K_MAILBOX: rc = rtipc_mailbox_wait_newer(o->mb, &v, 0, NULL, RTIPC_FOREVER); break;
    case K_QUEUESET: {
        void *member = NULL;
        rc = rtipc_queueset_select(o->set, &member, RTIPC_FOREVER);
        if (rc == RTIPC_OK && member == o->q)
            rc = rtipc_queue_receive(o->q, &v, RTIPC_NO_WAIT);
        break;
    }
    case K_STREAMBUF: {
        size_t n = 0;
        rc = rtipc_streambuf_receive(o->sb, &v, sizeof v, &n, RTIPC_FOREVER);
        break;
    }
    case K_MSGBUF: {
        size_t n = 0;
        rc = rtipc_msgbuf_receive(o->msg, &v, sizeof v, &n, RTIPC_FOREVER);
        break;
    }
    case K_SPSC: rc = rtipc_spsc_pop(o->spsc, &v, RTIPC_FOREVER); break;
    default: break;
    }
    w->value = v;
    w->rc = rc;
    store(&w->done, 1);
}

static void make_objects(objects_t *o)
{
    int v = 1;
    switch (o->kind) {
    case K_QUEUE_RECV: assert_int_equal(rtipc_queue_create(1, sizeof(int), &o->q), RTIPC_OK); break;
    case K_QUEUE_SEND:
        assert_int_equal(rtipc_queue_create(1, sizeof(int), &o->q), RTIPC_OK);
        assert_int_equal(rtipc_queue_send(o->q, &v, RTIPC_NO_WAIT), RTIPC_OK); /* full */
        break;
    case K_SEM: assert_int_equal(rtipc_sem_create_binary(&o->s), RTIPC_OK); break;
    case K_MUTEX:
        assert_int_equal(rtipc_mutex_create(false, &o->m), RTIPC_OK);
        assert_int_equal(rtipc_mutex_lock(o->m, RTIPC_NO_WAIT), RTIPC_OK);
        break;
    case K_EVENTGROUP: assert_int_equal(rtipc_eventgroup_create(&o->eg), RTIPC_OK); break;
    case K_RINGBUF: assert_int_equal(rtipc_ringbuf_create(64, RTIPC_RINGBUF_NOSPLIT, &o->rb), RTIPC_OK); break;
    case K_MAILBOX: assert_int_equal(rtipc_mailbox_create(sizeof(int), NULL, &o->mb), RTIPC_OK); break;
    case K_QUEUESET:
        assert_int_equal(rtipc_queueset_create(1, &o->set), RTIPC_OK);
        assert_int_equal(rtipc_queue_create(1, sizeof(int), &o->q), RTIPC_OK);
        assert_int_equal(rtipc_queueset_add_queue(o->set, o->q), RTIPC_OK);
        break;
    case K_STREAMBUF: assert_int_equal(rtipc_streambuf_create(16, sizeof(int), &o->sb), RTIPC_OK); break;
    case K_MSGBUF: assert_int_equal(rtipc_msgbuf_create(16, &o->msg), RTIPC_OK); break;
    case K_SPSC: assert_int_equal(rtipc_spsc_create(4, sizeof(int), &o->spsc), RTIPC_OK); break;
    default: break;
    }
}

/* Make exactly one wait succeed. */
static void make_available(objects_t *o)
{
    int v = 77, back = 0;
    size_t n = 0;
    switch (o->kind) {
    case K_QUEUE_RECV: assert_int_equal(rtipc_queue_send(o->q, &v, RTIPC_NO_WAIT), RTIPC_OK); break;
    case K_QUEUE_SEND:
        assert_int_equal(rtipc_queue_receive(o->q, &back, RTIPC_NO_WAIT), RTIPC_OK);
        assert_int_equal(back, 1);
        break;
    case K_SEM: assert_int_equal(rtipc_sem_give(o->s), RTIPC_OK); break;
    case K_MUTEX: assert_int_equal(rtipc_mutex_unlock(o->m), RTIPC_OK); break;
    case K_EVENTGROUP: assert_int_equal(rtipc_eventgroup_set_bits(o->eg, 0x1, NULL), RTIPC_OK); break;
    case K_RINGBUF: assert_int_equal(rtipc_ringbuf_send(o->rb, &v, sizeof v, RTIPC_NO_WAIT), RTIPC_OK); break;
    case K_MAILBOX: assert_int_equal(rtipc_mailbox_write(o->mb, &v), RTIPC_OK); break;
    case K_QUEUESET: assert_int_equal(rtipc_queue_send(o->q, &v, RTIPC_NO_WAIT), RTIPC_OK); break;
    case K_STREAMBUF: assert_int_equal(rtipc_streambuf_send(o->sb, &v, sizeof v, &n, RTIPC_NO_WAIT), RTIPC_OK); break;
    case K_MSGBUF: assert_int_equal(rtipc_msgbuf_send(o->msg, &v, sizeof v, RTIPC_NO_WAIT), RTIPC_OK); break;
    case K_SPSC: assert_int_equal(rtipc_spsc_push(o->spsc, &v, RTIPC_NO_WAIT), RTIPC_OK); break;
    default: break;
    }
}

/* Deleting the object succeeds only if no waiter entry was left behind. */
static void delete_objects(objects_t *o)
{
    int v;
    switch (o->kind) {
    case K_QUEUE_RECV: assert_int_equal(rtipc_queue_delete(o->q), RTIPC_OK); break;
    case K_QUEUE_SEND:
        /* The surviving sender's item is the one in the queue. */
        assert_int_equal(rtipc_queue_receive(o->q, &v, RTIPC_NO_WAIT), RTIPC_OK);
        assert_int_equal(v, 77);
        assert_int_equal(rtipc_queue_delete(o->q), RTIPC_OK);
        break;
    case K_SEM: assert_int_equal(rtipc_sem_delete(o->s), RTIPC_OK); break;
    case K_MUTEX: assert_int_equal(rtipc_mutex_delete(o->m), RTIPC_OK); break;
    case K_EVENTGROUP: assert_int_equal(rtipc_eventgroup_delete(o->eg), RTIPC_OK); break;
    case K_RINGBUF: assert_int_equal(rtipc_ringbuf_delete(o->rb), RTIPC_OK); break;
    case K_MAILBOX: assert_int_equal(rtipc_mailbox_delete(o->mb), RTIPC_OK); break;
    case K_QUEUESET:
        assert_int_equal(rtipc_queueset_remove_queue(o->set, o->q), RTIPC_OK);
        assert_int_equal(rtipc_queue_delete(o->q), RTIPC_OK);
        assert_int_equal(rtipc_queueset_delete(o->set), RTIPC_OK);
        break;
    case K_STREAMBUF: assert_int_equal(rtipc_streambuf_delete(o->sb), RTIPC_OK); break;
    case K_MSGBUF: assert_int_equal(rtipc_msgbuf_delete(o->msg), RTIPC_OK); break;
    case K_SPSC: assert_int_equal(rtipc_spsc_delete(o->spsc), RTIPC_OK); break;
    default: break;
    }
}

/* Two waiters (one for single-reader objects, then a fresh one after the
 * deletion): the first is deleted while blocked, then one unit is made
 * available and the other waiter must get it. */
static void waiter_deleted(kind_t kind)
{
    objects_t o = {.kind = kind};
    make_objects(&o);
    waiter_t victim = {.o = &o, .rc = NOT_RUN}, survivor = {.o = &o, .rc = NOT_RUN};
    rtipc_task_t *vt = start_task("victim", 5, RTIPC_CORE_ANY, waiter_task, &victim);
    rtipc_task_t *st = NULL;
    if (!single_waiter(kind))
        st = start_task("survivor", 3, RTIPC_CORE_ANY, waiter_task, &survivor);
    sleep_ms(SETTLE_MS);
    assert_int_equal(rtipc_task_delete(vt), RTIPC_OK);
    ++faults_injected;
    if (single_waiter(kind))
        st = start_task("survivor", 3, RTIPC_CORE_ANY, waiter_task, &survivor);
    sleep_ms(SETTLE_MS);
    make_available(&o);
    if (!wait_for_flag(&survivor.done, 1, PROMPT_MS))
        fail_msg("%s: the surviving waiter was not served after the other was deleted", kind_name[kind]);
    join_task(st);
    assert_int_equal(victim.rc, NOT_RUN);
    assert_int_equal(load(&victim.done), 0);
    assert_int_equal(survivor.rc, RTIPC_OK);
    assert_int_equal(survivor.value, 77);
    delete_objects(&o);
    operations += 2;
}

static void test_waiter_deleted(void **state)
{
    (void)state;
    for (int k = 0; k < K_COUNT; ++k)
        waiter_deleted((kind_t)k);
    printf("[  INFO    ] waiter deleted while blocked: %d kinds of wait, survivor served each time\n",
           (int)K_COUNT);
}

/* A task deleted while in its own notification wait; notifications to it
 * afterwards are refused. */
static void notify_waiter(void *arg)
{
    uint32_t v = 0;
    *(int *)arg = rtipc_notify_wait(0, 0, UINT32_MAX, &v, RTIPC_FOREVER);
}

static void test_notify_deleted_task(void **state)
{
    (void)state;
    int rc = NOT_RUN;
    rtipc_task_t *t = start_task("notified", 5, RTIPC_CORE_ANY, notify_waiter, &rc);
    sleep_ms(SETTLE_MS);
    assert_int_equal(rtipc_task_delete(t), RTIPC_OK);
    ++faults_injected;
    assert_int_equal(rc, NOT_RUN);
    /* No task was created since: the handle is not a live task. */
    uint32_t prev = 0;
    assert_int_equal(rtipc_notify(t, 0, 1, RTIPC_NOTIFY_SET_BITS, &prev), RTIPC_EINVAL);
    assert_int_equal(rtipc_notify_give(t, 0), RTIPC_EINVAL);
    assert_int_equal(rtipc_notify_from_isr(t, 0, 1, RTIPC_NOTIFY_OVERWRITE, NULL, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_notify_state_clear(t, 0), RTIPC_EINVAL);
    operations += 4;
}

/* ---- deleted just as it is woken: the wake-up is passed on ------------------ */
static void taker_task(void *arg)
{
    task_ctx_t *t = arg;
    if (rtipc_sem_take(t->s, RTIPC_FOREVER) == RTIPC_OK)
        store(&t->got, 1);
    rtipc_task_delay(RTIPC_FOREVER); /* until deleted */
}

/* Deletes its target as soon as it is told to, so that the delete and the
 * main thread's give land at about the same moment. */
static void killer_task(void *arg)
{
    task_ctx_t *k = arg;
    rtipc_sem_take(k->go, RTIPC_FOREVER);
    k->rc = rtipc_task_delete(k->target);
}

static void spin_ns(int64_t ns)
{
    int64_t end = rtipc_time_ns() + ns;
    while (rtipc_time_ns() < end) {
    }
}

static void test_deleted_while_woken(void **state)
{
    (void)state;
    long rounds = stress_count(200), first = 0, passed_on = 0;
    for (long i = 0; i < rounds; ++i) {
        rtipc_sem_t *s;
        assert_int_equal(rtipc_sem_create_binary(&s), RTIPC_OK);
        task_ctx_t a = {.s = s}, b = {.s = s};
        rtipc_task_t *at = start_task("first", 6, RTIPC_CORE_ANY, taker_task, &a);
        rtipc_task_t *bt = start_task("second", 2, RTIPC_CORE_ANY, taker_task, &b);
        task_ctx_t k = {.target = at, .rc = NOT_RUN};
        assert_int_equal(rtipc_sem_create_binary(&k.go), RTIPC_OK);
        rtipc_task_t *kt = start_task("killer", 1, RTIPC_CORE_ANY, killer_task, &k);
        sleep_ms(5);
        /* One give wakes the first (highest priority) while the killer
         * deletes it, the two a varying few microseconds apart. Exactly one
         * of the two takers must end up with the count. */
        assert_int_equal(rtipc_sem_give(k.go), RTIPC_OK);
        spin_ns((i % 16) * 4000);
        assert_int_equal(rtipc_sem_give(s), RTIPC_OK);
        join_task(kt);
        assert_int_equal(k.rc, RTIPC_OK);
        assert_int_equal(rtipc_sem_delete(k.go), RTIPC_OK);
        if (!load(&a.got) && !wait_for_flag(&b.got, 1, PROMPT_MS))
            fail_msg("round %ld: the give was lost (count %d)", i, rtipc_sem_count(s));
        int ga = load(&a.got), gb = load(&b.got);
        assert_int_equal(ga + gb, 1);
        assert_int_equal(rtipc_sem_count(s), 0);
        first += ga;
        passed_on += gb;
        assert_int_equal(rtipc_task_delete(bt), RTIPC_OK);
        assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
        faults_injected += 2;
        operations += 1;
    }
    printf("[  INFO    ] give + delete race: %ld rounds, %ld taken by the deleted task first, "
           "%ld passed on, 0 lost\n",
           rounds, first, passed_on);
}

static void test_summary(void **state)
{
    (void)state;
    printf("fault-task-end: %ld task ends/deletions injected, %ld blocking outcomes checked, 0 lost\n",
           faults_injected, operations);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_next_task_is_not_the_holder),
        cmocka_unit_test(test_holder_returns),
        cmocka_unit_test(test_holder_deletes_itself),
        cmocka_unit_test(test_holder_deleted),
        cmocka_unit_test(test_waiter_deleted),
        cmocka_unit_test(test_notify_deleted_task),
        cmocka_unit_test(test_deleted_while_woken),
        cmocka_unit_test(test_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
