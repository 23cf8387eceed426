/* Conformance: queues, semaphores, mutexes. */
#include <stdio.h>
#include <string.h>

#include "conf_internal.h"

/* ---- queues --------------------------------------------------------------- */
static void queue_single_task(conf_t *c)
{
    rtipc_queue_t *q;
    int a = 0, b = 0, d = 0, v = 0;
    if (!conf_setup(c, "queue_create", rtipc_queue_create(3, sizeof(int), &q)))
        return;
    conf_check(c, "queue.counts.empty", "waiting=0 spaces=3", "waiting=%d spaces=%d",
               rtipc_queue_messages_waiting(q), rtipc_queue_spaces_available(q));

    v = 1;
    (void)rtipc_queue_send(q, &v, RTIPC_NO_WAIT);
    v = 2;
    (void)rtipc_queue_send(q, &v, RTIPC_NO_WAIT);
    v = 3;
    int rc = rtipc_queue_send_to_front(q, &v, RTIPC_NO_WAIT);
    (void)rtipc_queue_receive(q, &a, RTIPC_NO_WAIT);
    (void)rtipc_queue_receive(q, &b, RTIPC_NO_WAIT);
    (void)rtipc_queue_receive(q, &d, RTIPC_NO_WAIT);
    conf_check(c, "queue.send_to_front.order", "0 3 1 2", "%s %d %d %d", conf_err(rc), a, b, d);

    for (v = 1; v <= 2; ++v)
        (void)rtipc_queue_send(q, &v, RTIPC_NO_WAIT);
    conf_check(c, "queue.counts.two", "waiting=2 spaces=1", "waiting=%d spaces=%d",
               rtipc_queue_messages_waiting(q), rtipc_queue_spaces_available(q));
    a = 0;
    rc = rtipc_queue_peek(q, &a, RTIPC_NO_WAIT);
    conf_check(c, "queue.peek", "0 value=1 waiting=2", "%s value=%d waiting=%d", conf_err(rc), a,
               rtipc_queue_messages_waiting(q));
    a = 0;
    rc = rtipc_queue_receive(q, &a, RTIPC_NO_WAIT);
    conf_check(c, "queue.receive", "0 value=1 waiting=1", "%s value=%d waiting=%d", conf_err(rc), a,
               rtipc_queue_messages_waiting(q));
    v = 3;
    (void)rtipc_queue_send(q, &v, RTIPC_NO_WAIT);
    v = 4;
    (void)rtipc_queue_send(q, &v, RTIPC_NO_WAIT);
    v = 9;
    conf_check(c, "queue.send.full_no_wait", "RTIPC_EWOULDBLOCK", "%s", conf_err(rtipc_queue_send(q, &v, RTIPC_NO_WAIT)));
    conf_check(c, "queue.send_to_front.full_no_wait", "RTIPC_EWOULDBLOCK", "%s",
               conf_err(rtipc_queue_send_to_front(q, &v, RTIPC_NO_WAIT)));
    int64_t t0 = rtipc_time_ns();
    rc = rtipc_queue_send(q, &v, rtipc_ms(CONF_TIMEOUT_MS));
    conf_check(c, "queue.send.full_timeout", "RTIPC_ETIMEDOUT ok", "%s %s", conf_err(rc),
               conf_bound(rtipc_time_ns() - t0, (int64_t)CONF_TIMEOUT_MS * 1000000));
    a = b = d = 0;
    (void)rtipc_queue_receive(q, &a, RTIPC_NO_WAIT);
    (void)rtipc_queue_receive(q, &b, RTIPC_NO_WAIT);
    (void)rtipc_queue_receive(q, &d, RTIPC_NO_WAIT);
    conf_check(c, "queue.fifo.order", "2 3 4", "%d %d %d", a, b, d);

    v = 5;
    (void)rtipc_queue_send(q, &v, RTIPC_NO_WAIT);
    (void)rtipc_queue_send(q, &v, RTIPC_NO_WAIT);
    rc = rtipc_queue_reset(q);
    conf_check(c, "queue.reset.items", "0 waiting=0 spaces=3", "%s waiting=%d spaces=%d", conf_err(rc),
               rtipc_queue_messages_waiting(q), rtipc_queue_spaces_available(q));
    conf_check(c, "queue.receive.empty_no_wait", "RTIPC_EWOULDBLOCK", "%s", conf_err(rtipc_queue_receive(q, &a, RTIPC_NO_WAIT)));
    conf_check(c, "queue.peek.empty_no_wait", "RTIPC_EWOULDBLOCK", "%s", conf_err(rtipc_queue_peek(q, &a, RTIPC_NO_WAIT)));
    t0 = rtipc_time_ns();
    rc = rtipc_queue_receive(q, &a, rtipc_ms(CONF_TIMEOUT_MS));
    conf_check(c, "queue.receive.empty_timeout", "RTIPC_ETIMEDOUT ok", "%s %s", conf_err(rc),
               conf_bound(rtipc_time_ns() - t0, (int64_t)CONF_TIMEOUT_MS * 1000000));
    v = 7;
    rc = rtipc_queue_overwrite(q, &v);
    conf_check(c, "queue.overwrite.length3", "RTIPC_ENOTSUP waiting=0", "%s waiting=%d", conf_err(rc),
               rtipc_queue_messages_waiting(q));
    (void)rtipc_queue_delete(q);

    if (!conf_setup(c, "queue_create", rtipc_queue_create(1, sizeof(int), &q)))
        return;
    v = 5;
    int rc1 = rtipc_queue_overwrite(q, &v);
    v = 6;
    int rc2 = rtipc_queue_overwrite(q, &v);
    int w = rtipc_queue_messages_waiting(q), s = rtipc_queue_spaces_available(q);
    int rc3 = rtipc_queue_send(q, &v, RTIPC_NO_WAIT);
    a = 0;
    (void)rtipc_queue_receive(q, &a, RTIPC_NO_WAIT);
    conf_check(c, "queue.overwrite.length1", "0 0 waiting=1 spaces=0 send=RTIPC_EWOULDBLOCK value=6",
               "%s %s waiting=%d spaces=%d send=%s value=%d", conf_err(rc1), conf_err(rc2), w, s, conf_err(rc3), a);
    (void)rtipc_queue_delete(q);
}

typedef struct {
    conf_t *c;
    rtipc_queue_t *q;
    int value;
    int rc;
    enum conf_step before, after;
} q_helper_t;

/* A semaphore waiter (s_waiter, with the mutex and semaphore scenarios). */
typedef struct {
    conf_t *c;
    rtipc_sem_t *s;
    int rc;
} s_helper_t;

enum q_call { Q_SEND, Q_RECEIVE, Q_PEEK };

/* Every helper task: a step, one queue call waiting up to @p ms, a step. */
static void q_helper_run(q_helper_t *h, enum q_call call, uint32_t ms)
{
    conf_step(h->c, h->before);
    rtipc_timeout_t t = rtipc_ms(ms);
    if (call == Q_SEND)
        h->rc = rtipc_queue_send(h->q, &h->value, t);
    else if (call == Q_RECEIVE)
        h->rc = rtipc_queue_receive(h->q, &h->value, t);
    else
        h->rc = rtipc_queue_peek(h->q, &h->value, t);
    conf_step(h->c, h->after);
}

static void q_sender(void *arg) { q_helper_run(arg, Q_SEND, CONF_LONG_MS); }
static void q_receiver(void *arg) { q_helper_run(arg, Q_RECEIVE, CONF_LONG_MS); }
static void q_receiver_short(void *arg) { q_helper_run(arg, Q_RECEIVE, 100); }
static void q_peeker(void *arg) { q_helper_run(arg, Q_PEEK, CONF_LONG_MS); }

/* The end of a case with two helpers: when the second did not start, the
 * first still waits and is given an item; then it is joined and the steps
 * read. */
static void q_end_pair(conf_t *c, rtipc_queue_t *q, rtipc_task_t *first, bool second_ran, char *steps, size_t size)
{
    if (!second_ran) {
        int v = 0;
        (void)rtipc_queue_send(q, &v, RTIPC_NO_WAIT);
    }
    conf_join(c, first);
    conf_steps(c, steps, size);
}

static void queue_multi_task(conf_t *c)
{
    if (!conf_need_order(c, "queue.reset.sender queue.reset.one_sender queue.reset.receiver queue.waiters.priority queue.peek.wakes_next"))
        return;
    char steps[160];
    rtipc_queue_t *q;
    rtipc_task_t *t1, *t2;
    int v = 1;

    /* Reset wakes a waiting sender: it runs at once (it outranks us). */
    if (!conf_setup(c, "queue_create", rtipc_queue_create(1, sizeof(int), &q)))
        return;
    (void)rtipc_queue_send(q, &v, RTIPC_NO_WAIT);
    q_helper_t s = {c, q, 99, -100, ST_S_BLOCK, ST_S_SENT};
    if (conf_spawn(c, "sender", CONF_PRIO_HIGH, q_sender, &s, &t1)) {
        conf_step(c, ST_T_ACT);
        int rc = rtipc_queue_reset(q);
        conf_step(c, ST_T_AFTER);
        conf_join(c, t1);
        v = 0;
        (void)rtipc_queue_receive(q, &v, RTIPC_NO_WAIT);
        conf_steps(c, steps, sizeof steps);
        conf_check(c, "queue.reset.sender", "0 steps=S.block T.act S.sent T.after sender=0 value=99",
                   "%s steps=%s sender=%s value=%d", conf_err(rc), steps, conf_err(s.rc), v);
    }
    (void)rtipc_queue_delete(q);

    /* Reset wakes one waiting sender only, the highest-priority one; the
     * other stays blocked although there is room again, until a receive. */
    if (conf_setup(c, "queue_create", rtipc_queue_create(2, sizeof(int), &q))) {
        v = 1;
        (void)rtipc_queue_send(q, &v, RTIPC_NO_WAIT);
        (void)rtipc_queue_send(q, &v, RTIPC_NO_WAIT);
        q_helper_t lo = {c, q, 30, -100, ST_LO_BLOCK, ST_LO_DONE};
        q_helper_t hi = {c, q, 40, -100, ST_HI_BLOCK, ST_HI_DONE};
        if (conf_spawn(c, "lo", CONF_PRIO_HIGH, q_sender, &lo, &t1)) {
            int got1 = 0, got2 = 0, rc = RTIPC_EINVAL, waiting = -1;
            if (conf_spawn(c, "hi", CONF_PRIO_HIGHER, q_sender, &hi, &t2)) {
                conf_step(c, ST_T_ACT);
                rc = rtipc_queue_reset(q);
                waiting = rtipc_queue_messages_waiting(q);
                conf_step(c, ST_T_ACT2);
                (void)rtipc_queue_receive(q, &got1, RTIPC_NO_WAIT);
                conf_step(c, ST_T_AFTER);
                conf_join(c, t2);
            }
            conf_join(c, t1);
            (void)rtipc_queue_receive(q, &got2, RTIPC_NO_WAIT);
            conf_steps(c, steps, sizeof steps);
            conf_check(c, "queue.reset.one_sender",
                       "0 waiting=1 steps=Lo.block Hi.block T.act Hi.done T.act2 Lo.done T.after items=40 30 hi=0 lo=0",
                       "%s waiting=%d steps=%s items=%d %d hi=%s lo=%s", conf_err(rc), waiting, steps, got1, got2,
                       conf_err(hi.rc), conf_err(lo.rc));
        }
        (void)rtipc_queue_delete(q);
    }

    /* Reset leaves a waiting receiver blocked: it gets the item sent later. */
    if (!conf_setup(c, "queue_create", rtipc_queue_create(2, sizeof(int), &q)))
        return;
    q_helper_t r = {c, q, 0, -100, ST_R_BLOCK, ST_R_GOT};
    if (conf_spawn(c, "receiver", CONF_PRIO_HIGH, q_receiver, &r, &t1)) {
        conf_step(c, ST_T_ACT);
        int rc = rtipc_queue_reset(q);
        conf_step(c, ST_T_ACT2);
        v = 42;
        (void)rtipc_queue_send(q, &v, RTIPC_NO_WAIT);
        conf_step(c, ST_T_AFTER);
        conf_join(c, t1);
        conf_steps(c, steps, sizeof steps);
        conf_check(c, "queue.reset.receiver", "0 steps=R.block T.act T.act2 R.got T.after receiver=0 value=42",
                   "%s steps=%s receiver=%s value=%d", conf_err(rc), steps, conf_err(r.rc), r.value);
    }

    /* Waiting receivers are served by priority, not arrival. */
    q_helper_t lo = {c, q, 0, -100, ST_LO_BLOCK, ST_LO_DONE};
    q_helper_t hi = {c, q, 0, -100, ST_HI_BLOCK, ST_HI_DONE};
    if (conf_spawn(c, "lo", CONF_PRIO_HIGH, q_receiver, &lo, &t1)) {
        bool both = conf_spawn(c, "hi", CONF_PRIO_HIGHER, q_receiver, &hi, &t2);
        if (both) {
            v = 1;
            conf_step(c, ST_T_ACT);
            (void)rtipc_queue_send(q, &v, RTIPC_NO_WAIT);
            v = 2;
            conf_step(c, ST_T_ACT2);
            (void)rtipc_queue_send(q, &v, RTIPC_NO_WAIT);
            conf_join(c, t2);
        }
        q_end_pair(c, q, t1, both, steps, sizeof steps);
        conf_check(c, "queue.waiters.priority",
                   "steps=Lo.block Hi.block T.act Hi.done T.act2 Lo.done hi=1 lo=2",
                   "steps=%s hi=%d lo=%d", steps, hi.value, lo.value);
    }

    /* A peek leaves the item, so the next waiting receiver is woken too. */
    q_helper_t rx = {c, q, 0, -100, ST_LO_BLOCK, ST_LO_DONE}, pk = {c, q, 0, -100, ST_HI_BLOCK, ST_HI_DONE};
    if (conf_spawn(c, "rx", CONF_PRIO_HIGH, q_receiver, &rx, &t1)) {
        bool both = conf_spawn(c, "peeker", CONF_PRIO_HIGHER, q_peeker, &pk, &t2);
        if (both) {
            conf_step(c, ST_T_ACT);
            v = 5;
            (void)rtipc_queue_send(q, &v, RTIPC_NO_WAIT);
            conf_step(c, ST_T_AFTER);
            conf_join(c, t2);
        }
        q_end_pair(c, q, t1, both, steps, sizeof steps);
        conf_check(c, "queue.peek.wakes_next",
                   "steps=Lo.block Hi.block T.act Hi.done Lo.done T.after peek=0:5 receive=0:5 waiting=0",
                   "steps=%s peek=%s:%d receive=%s:%d waiting=%d", steps, conf_err(pk.rc), pk.value, conf_err(rx.rc),
                   rx.value, rtipc_queue_messages_waiting(q));
    }
    (void)rtipc_queue_delete(q);
}

void conf_queue(conf_t *c)
{
    queue_single_task(c);
    queue_multi_task(c);
}

/* ---- semaphores ----------------------------------------------------------- */
void conf_sem(conf_t *c)
{
    rtipc_sem_t *s;
    if (!conf_setup(c, "sem_create", rtipc_sem_create_binary(&s)))
        return;
    conf_check(c, "sem.binary.initial", "count=0 max=1", "count=%d max=%d", rtipc_sem_count(s), rtipc_sem_max(s));
    conf_check(c, "sem.binary.take_empty_no_wait", "RTIPC_EWOULDBLOCK", "%s", conf_err(rtipc_sem_take(s, RTIPC_NO_WAIT)));
    int64_t t0 = rtipc_time_ns();
    int rc = rtipc_sem_take(s, rtipc_ms(CONF_TIMEOUT_MS));
    conf_check(c, "sem.binary.take_empty_timeout", "RTIPC_ETIMEDOUT ok", "%s %s", conf_err(rc),
               conf_bound(rtipc_time_ns() - t0, (int64_t)CONF_TIMEOUT_MS * 1000000));
    rc = rtipc_sem_give(s);
    conf_check(c, "sem.binary.give", "0 count=1", "%s count=%d", conf_err(rc), rtipc_sem_count(s));
    rc = rtipc_sem_give(s);
    conf_check(c, "sem.binary.give_full", "RTIPC_EOVERFLOW count=1", "%s count=%d", conf_err(rc), rtipc_sem_count(s));
    rc = rtipc_sem_take(s, RTIPC_NO_WAIT);
    conf_check(c, "sem.binary.take", "0 count=0", "%s count=%d", conf_err(rc), rtipc_sem_count(s));
    (void)rtipc_sem_delete(s);

    rtipc_sem_t *bad = NULL;
    conf_check(c, "sem.counting.initial_above_max", "RTIPC_EINVAL", "%s", conf_err(rtipc_sem_create_counting(2, 3, &bad)));
    if (!conf_setup(c, "sem_create", rtipc_sem_create_counting(3, 1, &s)))
        return;
    conf_check(c, "sem.counting.initial", "count=1 max=3", "count=%d max=%d", rtipc_sem_count(s), rtipc_sem_max(s));
    int g1 = rtipc_sem_give(s), g2 = rtipc_sem_give(s);
    conf_check(c, "sem.counting.give_to_max", "0 0 count=3", "%s %s count=%d", conf_err(g1), conf_err(g2),
               rtipc_sem_count(s));
    rc = rtipc_sem_give(s);
    conf_check(c, "sem.counting.give_full", "RTIPC_EOVERFLOW count=3", "%s count=%d", conf_err(rc), rtipc_sem_count(s));
    int t1 = rtipc_sem_take(s, RTIPC_NO_WAIT), t2 = rtipc_sem_take(s, RTIPC_NO_WAIT), t3 = rtipc_sem_take(s, RTIPC_NO_WAIT);
    conf_check(c, "sem.counting.take_all", "0 0 0 count=0", "%s %s %s count=%d", conf_err(t1), conf_err(t2),
               conf_err(t3), rtipc_sem_count(s));
    conf_check(c, "sem.counting.take_empty_no_wait", "RTIPC_EWOULDBLOCK", "%s", conf_err(rtipc_sem_take(s, RTIPC_NO_WAIT)));
    (void)rtipc_sem_delete(s);
}

/* ---- mutexes -------------------------------------------------------------- */
static const char *holder_name(conf_t *c, const rtipc_mutex_t *m)
{
    rtipc_task_t *h = rtipc_mutex_holder(m);
    return h == NULL ? "none" : h == c->self ? "runner" : "other";
}

typedef struct {
    conf_t *c;
    rtipc_mutex_t *m;
    uint32_t timeout_ms;
    int unlock_rc, lock_rc;
    const char *holder;
    enum conf_step before, after;
} m_helper_t;

/* Another task: may neither release nor take the mutex the runner holds. */
static void m_intruder(void *arg)
{
    m_helper_t *h = arg;
    h->unlock_rc = rtipc_mutex_unlock(h->m);
    h->lock_rc = rtipc_mutex_lock(h->m, RTIPC_NO_WAIT);
    h->holder = holder_name(h->c, h->m);
}

/* Waits for the mutex, then releases it at once. */
static void m_waiter(void *arg)
{
    m_helper_t *h = arg;
    conf_step(h->c, h->before);
    h->lock_rc = rtipc_mutex_lock(h->m, rtipc_ms(h->timeout_ms));
    conf_step(h->c, h->after);
    if (h->lock_rc == RTIPC_OK)
        h->unlock_rc = rtipc_mutex_unlock(h->m);
}

static void mutex_inheritance(conf_t *c, rtipc_mutex_t *m)
{
    if (!conf_need_order(c, "mutex.inherit.*"))
        return;
    char steps[160];
    rtipc_task_t *t1, *t2;
    int rc = rtipc_mutex_lock(m, RTIPC_NO_WAIT);
    conf_check(c, "mutex.inherit.before", "0 base=2 effective=2", "%s base=%d effective=%d", conf_err(rc),
               rtipc_task_priority(c->self), rtipc_task_effective_priority(c->self));
    m_helper_t h = {c, m, CONF_LONG_MS, -100, -100, NULL, ST_H_BLOCK, ST_H_DONE};
    if (!conf_spawn(c, "waiter", CONF_PRIO_HIGHER, m_waiter, &h, &t1)) {
        (void)rtipc_mutex_unlock(m);
        return;
    }
    conf_check(c, "mutex.inherit.during", "base=2 effective=4", "base=%d effective=%d", rtipc_task_priority(c->self),
               rtipc_task_effective_priority(c->self));
    conf_step(c, ST_T_ACT);
    rc = rtipc_mutex_unlock(m);
    conf_step(c, ST_T_AFTER);
    int eff = rtipc_task_effective_priority(c->self);
    conf_join(c, t1);
    conf_steps(c, steps, sizeof steps);
    conf_check(c, "mutex.inherit.after_unlock", "0 effective=2 steps=H.block T.act H.done T.after waiter=0",
               "%s effective=%d steps=%s waiter=%s", conf_err(rc), eff, steps, conf_err(h.lock_rc));

    /* A waiter that times out: the holder drops to the highest priority
     * still waiting (it holds only this mutex). */
    (void)rtipc_mutex_lock(m, RTIPC_NO_WAIT);
    m_helper_t mid = {c, m, CONF_LONG_MS, -100, -100, NULL, ST_LO_BLOCK, ST_LO_DONE};
    m_helper_t hi = {c, m, 50, -100, -100, NULL, ST_HI_BLOCK, ST_HI_DONE};
    if (!conf_spawn(c, "mid", CONF_PRIO_HIGH, m_waiter, &mid, &t1)) {
        (void)rtipc_mutex_unlock(m);
        return;
    }
    int during = -1, after_timeout = -1;
    if (conf_spawn(c, "hi", CONF_PRIO_HIGHER, m_waiter, &hi, &t2)) {
        during = rtipc_task_effective_priority(c->self);
        (void)rtipc_task_delay(rtipc_ms(300)); /* hi gives up after 50 ms */
        after_timeout = rtipc_task_effective_priority(c->self);
        conf_join(c, t2);
    }
    conf_step(c, ST_T_ACT);
    rc = rtipc_mutex_unlock(m);
    conf_step(c, ST_T_AFTER);
    eff = rtipc_task_effective_priority(c->self);
    conf_join(c, t1);
    conf_steps(c, steps, sizeof steps);
    conf_check(c, "mutex.inherit.waiter_timeout",
               "during=4 after_timeout=3 hi=RTIPC_ETIMEDOUT unlock=0 effective=2 "
               "steps=Lo.block Hi.block Hi.done T.act Lo.done T.after mid=0",
               "during=%d after_timeout=%d hi=%s unlock=%s effective=%d steps=%s mid=%s", during, after_timeout,
               conf_err(hi.lock_rc), conf_err(rc), eff, steps, conf_err(mid.lock_rc));
}

/* Inheritance is kept until the holder holds no mutex: releasing the other
 * mutex first changes nothing, and the waiter (equal to the inherited
 * priority) does not preempt until the holder drops. */
static void mutex_two_held(conf_t *c)
{
    if (!conf_need_order(c, "mutex.inherit.two_mutexes"))
        return;
    rtipc_mutex_t *m1, *m2;
    rtipc_task_t *t;
    char steps[160];
    if (!conf_setup(c, "mutex_create", rtipc_mutex_create(false, &m1)))
        return;
    if (!conf_setup(c, "mutex_create", rtipc_mutex_create(false, &m2))) {
        (void)rtipc_mutex_delete(m1);
        return;
    }
    (void)rtipc_mutex_lock(m1, RTIPC_NO_WAIT);
    (void)rtipc_mutex_lock(m2, RTIPC_NO_WAIT);
    m_helper_t h = {c, m1, CONF_LONG_MS, -100, -100, NULL, ST_H_BLOCK, ST_H_DONE};
    if (conf_spawn(c, "waiter", CONF_PRIO_HIGHER, m_waiter, &h, &t)) {
        int during = rtipc_task_effective_priority(c->self);
        conf_step(c, ST_T_ACT);
        int u2 = rtipc_mutex_unlock(m2);
        int mid = rtipc_task_effective_priority(c->self);
        conf_step(c, ST_T_ACT2);
        int u1 = rtipc_mutex_unlock(m1);
        conf_step(c, ST_T_AFTER);
        int end = rtipc_task_effective_priority(c->self);
        conf_join(c, t);
        conf_steps(c, steps, sizeof steps);
        conf_check(c, "mutex.inherit.two_mutexes",
                   "during=4 unlock_other=0 still=4 unlock_awaited=0 effective=2 "
                   "steps=H.block T.act T.act2 H.done T.after waiter=0",
                   "during=%d unlock_other=%s still=%d unlock_awaited=%s effective=%d steps=%s waiter=%s", during,
                   conf_err(u2), mid, conf_err(u1), end, steps, conf_err(h.lock_rc));
    } else {
        (void)rtipc_mutex_unlock(m2);
        (void)rtipc_mutex_unlock(m1);
    }
    (void)rtipc_mutex_delete(m2);
    (void)rtipc_mutex_delete(m1);
}

static void s_waiter(void *arg)
{
    s_helper_t *h = arg;
    conf_step(h->c, ST_LO_BLOCK);
    h->rc = rtipc_sem_take(h->s, rtipc_ms(100));
    conf_step(h->c, ST_LO_DONE);
}

/* A woken waiter is not handed the item, count or mutex: a lower-priority
 * waiter is readied, but the running task can take it back first; the
 * waiter then finds nothing and waits out the rest of its timeout. */
static void not_handed(conf_t *c)
{
    if (!conf_need_order(c, "queue.woken_not_handed sem.woken_not_handed mutex.woken_not_handed"))
        return;
    rtipc_task_t *t;
    char steps[160];
    rtipc_queue_t *q;
    if (conf_setup(c, "queue_create", rtipc_queue_create(2, sizeof(int), &q))) {
        q_helper_t r = {c, q, -1, -100, ST_LO_BLOCK, ST_LO_DONE};
        r.value = -1;
        if (conf_spawn(c, "rx", CONF_PRIO_LOW, q_receiver_short, &r, &t)) {
            (void)rtipc_task_delay(rtipc_ms(20));
            int v = 7, got = 0;
            conf_step(c, ST_T_ACT);
            int s1 = rtipc_queue_send(q, &v, RTIPC_NO_WAIT);
            int s2 = rtipc_queue_receive(q, &got, RTIPC_NO_WAIT);
            conf_step(c, ST_T_AFTER);
            conf_join(c, t);
            conf_steps(c, steps, sizeof steps);
            conf_check(c, "queue.woken_not_handed", "0 taken_back=0:7 steps=Lo.block T.act T.after Lo.done receiver=RTIPC_ETIMEDOUT",
                       "%s taken_back=%s:%d steps=%s receiver=%s", conf_err(s1), conf_err(s2), got, steps, conf_err(r.rc));
        }
        (void)rtipc_queue_delete(q);
    }
    rtipc_sem_t *sem;
    if (conf_setup(c, "sem_create", rtipc_sem_create_binary(&sem))) {
        s_helper_t h = {c, sem, -100};
        if (conf_spawn(c, "taker", CONF_PRIO_LOW, s_waiter, &h, &t)) {
            (void)rtipc_task_delay(rtipc_ms(20));
            conf_step(c, ST_T_ACT);
            int g = rtipc_sem_give(sem);
            int k = rtipc_sem_take(sem, RTIPC_NO_WAIT);
            conf_step(c, ST_T_AFTER);
            conf_join(c, t);
            conf_steps(c, steps, sizeof steps);
            conf_check(c, "sem.woken_not_handed", "0 taken_back=0 steps=Lo.block T.act T.after Lo.done taker=RTIPC_ETIMEDOUT",
                       "%s taken_back=%s steps=%s taker=%s", conf_err(g), conf_err(k), steps, conf_err(h.rc));
        }
        (void)rtipc_sem_delete(sem);
    }
    rtipc_mutex_t *m;
    if (conf_setup(c, "mutex_create", rtipc_mutex_create(false, &m))) {
        (void)rtipc_mutex_lock(m, RTIPC_NO_WAIT);
        m_helper_t h = {c, m, 100, -100, -100, NULL, ST_LO_BLOCK, ST_LO_DONE};
        if (conf_spawn(c, "waiter", CONF_PRIO_LOW, m_waiter, &h, &t)) {
            (void)rtipc_task_delay(rtipc_ms(20));
            conf_step(c, ST_T_ACT);
            int u = rtipc_mutex_unlock(m);
            int l = rtipc_mutex_lock(m, RTIPC_NO_WAIT);
            const char *holder = holder_name(c, m);
            conf_step(c, ST_T_AFTER);
            (void)rtipc_task_delay(rtipc_ms(300)); /* the waiter times out */
            (void)rtipc_mutex_unlock(m);
            conf_join(c, t);
            conf_steps(c, steps, sizeof steps);
            conf_check(c, "mutex.woken_not_handed",
                       "0 taken_back=0 holder=runner steps=Lo.block T.act T.after Lo.done waiter=RTIPC_ETIMEDOUT",
                       "%s taken_back=%s holder=%s steps=%s waiter=%s", conf_err(u), conf_err(l), holder, steps,
                       conf_err(h.lock_rc));
        } else {
            (void)rtipc_mutex_unlock(m);
        }
        (void)rtipc_mutex_delete(m);
    }
}

void conf_mutex(conf_t *c)
{
    rtipc_mutex_t *m;
    rtipc_task_t *t;
    if (!conf_setup(c, "mutex_create", rtipc_mutex_create(false, &m)))
        return;
    conf_check(c, "mutex.initial", "holder=none", "holder=%s", holder_name(c, m));
    int rc = rtipc_mutex_lock(m, RTIPC_NO_WAIT);
    conf_check(c, "mutex.lock", "0 holder=runner", "%s holder=%s", conf_err(rc), holder_name(c, m));
    conf_check(c, "mutex.lock_again", "RTIPC_EDEADLOCK", "%s", conf_err(rtipc_mutex_lock(m, RTIPC_NO_WAIT)));
    m_helper_t h = {c, m, 0, -100, -100, "unset", ST_H_BLOCK, ST_H_DONE};
    if (conf_spawn(c, "intruder", CONF_PRIO_HIGH, m_intruder, &h, &t)) {
        conf_join(c, t);
        conf_check(c, "mutex.non_holder", "unlock=RTIPC_EPERM lock=RTIPC_EWOULDBLOCK holder=runner",
                   "unlock=%s lock=%s holder=%s", conf_err(h.unlock_rc), conf_err(h.lock_rc), h.holder);
    }
    rc = rtipc_mutex_unlock(m);
    conf_check(c, "mutex.unlock", "0 holder=none", "%s holder=%s", conf_err(rc), holder_name(c, m));
    conf_check(c, "mutex.unlock_free", "RTIPC_EPERM", "%s", conf_err(rtipc_mutex_unlock(m)));
    mutex_inheritance(c, m);
    (void)rtipc_mutex_delete(m);
    mutex_two_held(c);
    not_handed(c);

    if (!conf_setup(c, "mutex_create", rtipc_mutex_create(true, &m)))
        return;
    int l1 = rtipc_mutex_lock(m, RTIPC_NO_WAIT), l2 = rtipc_mutex_lock(m, RTIPC_NO_WAIT),
        l3 = rtipc_mutex_lock(m, RTIPC_NO_WAIT);
    conf_check(c, "mutex.recursive.lock3", "0 0 0 holder=runner", "%s %s %s holder=%s", conf_err(l1), conf_err(l2),
               conf_err(l3), holder_name(c, m));
    int u1 = rtipc_mutex_unlock(m), u2 = rtipc_mutex_unlock(m);
    const char *mid = holder_name(c, m);
    int u3 = rtipc_mutex_unlock(m);
    const char *end = holder_name(c, m);
    int u4 = rtipc_mutex_unlock(m);
    conf_check(c, "mutex.recursive.unlock", "0 0 holder=runner 0 holder=none RTIPC_EPERM", "%s %s holder=%s %s holder=%s %s",
               conf_err(u1), conf_err(u2), mid, conf_err(u3), end, conf_err(u4));
    (void)rtipc_mutex_delete(m);
}
