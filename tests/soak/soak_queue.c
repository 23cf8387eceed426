/* Queues: an MPMC queue (send to back and to front, receive, peek; ISR
 * sender and receiver) and a length-1 queue written by overwrite. */
#include "soak_core.h"

enum { QLEN = 16, QP = 3, QC = 3 };
/* Stream ids: task i sends to back as 2i (ordered) and to front as 2i+1
 * (unordered); the handler is 6 (back) and 8 (front); the stop-phase kicks
 * are 7. */
enum { Q_ISR_PROD = 6, Q_KICK_PROD = 7, Q_ISR_FRONT_PROD = 8 };
/* Consumer ids: tasks 0..2, the handler 3, the final drain 4. */
enum { Q_ISR_CONS = 3, Q_DRAIN_CONS = 4 };

static rtipc_queue_t *q;
static soak_streams_t qs;

static void queue_producer(soak_worker_t *w)
{
    while (soak_running(w)) {
        bool front = soak_below(w, 8) == 0;
        soak_msg_t m;
        soak_msg_make(&qs, 2u * (uint32_t)w->id + front, front ? 0 : SOAK_ORDERED, &m);
        rtipc_timeout_t t = soak_timeout(w);
        soak_at(w, front ? "queue_send_to_front" : "queue_send");
        int rc = front ? rtipc_queue_send_to_front(q, &m, t) : rtipc_queue_send(q, &m, t);
        if (rc == 0)
            soak_sent(&qs, m.prod, m.seq);
        else
            soak_not_now(w, rc, "queue send");
        soak_pace(w);
    }
}

static void queue_consumer(soak_worker_t *w)
{
    while (soak_running(w)) {
        if (soak_below(w, 256) == 0) {
            /* Priorities change under load too (the waits reorder). */
            unsigned p = 1 + soak_below(w, 4);
            soak_at(w, "task_set_priority");
            if (rtipc_task_set_priority(NULL, p) != 0 || rtipc_task_priority(rtipc_task_current()) != (int)p)
                soak_violation(O_QUEUE, "%s: set_priority(%u) did not take", w->name, p);
        }
        soak_msg_t m;
        rtipc_timeout_t t = soak_timeout(w);
        if (soak_below(w, 10) == 0) {
            soak_at(w, "queue_peek");
            int rc = rtipc_queue_peek(q, &m, t);
            if (rc == 0) {
                if (!soak_msg_valid(&qs, &m))
                    soak_violation(O_QUEUE, "%s: peek copied a torn message", w->name);
            } else {
                soak_not_now(w, rc, "queue peek");
            }
        } else {
            soak_at(w, "queue_receive");
            int rc = rtipc_queue_receive(q, &m, t);
            if (rc == 0)
                soak_msg_received(&qs, w->id, &m);
            else
                soak_not_now(w, rc, "queue receive");
        }
        soak_pace(w);
    }
}

static void queue_isr(stress_rng_t *rng)
{
    soak_isr_op(O_QUEUE);
    bool woken = false;
    uint32_t r = stress_below(rng, 8);
    if (r == 0) {
        soak_msg_t m;
        int rc = rtipc_queue_peek_from_isr(q, &m);
        if (rc == 0 && !soak_msg_valid(&qs, &m))
            soak_violation(O_QUEUE, "peek_from_isr copied a torn message");
        else if (rc != 0 && rc != RTIPC_EWOULDBLOCK)
            soak_violation(O_QUEUE, "peek_from_isr: %s", rtipc_strerror(rc));
    } else if (r == 1) {
        soak_isr_queue_send(q, &qs, Q_ISR_FRONT_PROD, 0, true, &woken);
    } else if (r < 4) {
        soak_msg_t m;
        int rc = rtipc_queue_receive_from_isr(q, &m, &woken);
        if (rc == 0)
            soak_msg_received(&qs, Q_ISR_CONS, &m);
        else if (rc != RTIPC_EWOULDBLOCK)
            soak_violation(O_QUEUE, "receive_from_isr: %s", rtipc_strerror(rc));
    } else {
        soak_isr_queue_send(q, &qs, Q_ISR_PROD, SOAK_ORDERED, false, &woken);
    }
    rtipc_irq_yield(woken);
}

static void queue_kick(void)
{
    soak_msg_t m;
    soak_msg_make(&qs, Q_KICK_PROD, SOAK_ORDERED, &m);
    soak_add(&soak_objs[O_QUEUE].ops, 1);
    if (rtipc_queue_send(q, &m, RTIPC_NO_WAIT) == 0)
        soak_sent(&qs, m.prod, m.seq);
}

static void queue_drain(void)
{
    soak_msg_t m;
    while (rtipc_queue_receive(q, &m, RTIPC_NO_WAIT) == 0)
        soak_msg_received(&qs, Q_DRAIN_CONS, &m);
}

static void queue_final(void)
{
    soak_streams_final(&qs, "queue");
    int rc = rtipc_queue_delete(q);
    if (rc != 0)
        soak_violation(O_QUEUE, "delete: %s", rtipc_strerror(rc));
}

/* ---- length-1 queue, overwrite ------------------------------------------------ */

/* Producers: the task 0, the handler 1, the kicks 2. Consumers: the task 0,
 * and the drain continues as consumer 0 (order is checked across both). */
static rtipc_queue_t *q1;
static soak_streams_t q1s;

static void ovw_writer(soak_worker_t *w)
{
    while (soak_running(w)) {
        soak_msg_t m;
        soak_msg_make(&q1s, 0, SOAK_ORDERED, &m);
        soak_at(w, "queue_overwrite");
        int rc = rtipc_queue_overwrite(q1, &m);
        if (rc == 0)
            soak_sent(&q1s, 0, m.seq);
        else
            soak_violation(O_QUEUE_OVW, "overwrite: %s", rtipc_strerror(rc));
        if (rtipc_queue_messages_waiting(q1) > 1)
            soak_violation(O_QUEUE_OVW, "length-1 queue holds more than one item");
        if (soak_below(w, 16) == 0) {
            soak_at(w, "queue_send");
            /* A plain send on the full mailbox queue fails rather than overwrite. */
            soak_msg_make(&q1s, 0, SOAK_ORDERED, &m);
            rc = rtipc_queue_send(q1, &m, RTIPC_NO_WAIT);
            if (rc == 0)
                soak_sent(&q1s, 0, m.seq);
            else if (rc != RTIPC_EWOULDBLOCK)
                soak_violation(O_QUEUE_OVW, "send: %s", rtipc_strerror(rc));
        }
        soak_pace(w);
    }
}

static void ovw_reader(soak_worker_t *w)
{
    while (soak_running(w)) {
        soak_msg_t m;
        rtipc_timeout_t t = soak_timeout(w);
        soak_at(w, "queue_receive");
        int rc = rtipc_queue_receive(q1, &m, t);
        if (rc == 0)
            soak_msg_received(&q1s, 0, &m);
        else
            soak_not_now(w, rc, "receive");
        soak_pace(w);
    }
}

static void ovw_isr(stress_rng_t *rng)
{
    (void)rng;
    soak_isr_op(O_QUEUE_OVW);
    bool woken = false;
    soak_msg_t m;
    soak_msg_make(&q1s, 1, SOAK_ORDERED, &m);
    int rc = rtipc_queue_overwrite_from_isr(q1, &m, &woken);
    if (rc == 0)
        soak_sent(&q1s, 1, m.seq);
    else
        soak_violation(O_QUEUE_OVW, "overwrite_from_isr: %s", rtipc_strerror(rc));
    rtipc_irq_yield(woken);
}

static void ovw_kick(void)
{
    soak_msg_t m;
    soak_msg_make(&q1s, 2, SOAK_ORDERED, &m);
    soak_add(&soak_objs[O_QUEUE_OVW].ops, 1);
    if (rtipc_queue_overwrite(q1, &m) == 0)
        soak_sent(&q1s, 2, m.seq);
}

static void ovw_drain(void)
{
    soak_msg_t m;
    /* Only the newest item can be left, and it must be the last one written
     * by whoever wrote last: the kick or, without kicks, a writer. */
    int n = 0;
    while (rtipc_queue_receive(q1, &m, RTIPC_NO_WAIT) == 0) {
        soak_msg_received(&q1s, 0, &m);
        if (++n > 1)
            soak_violation(O_QUEUE_OVW, "more than one item drained from a length-1 queue");
        if (m.seq + 1 != atomic_load(&q1s.next[m.prod]))
            soak_violation(O_QUEUE_OVW, "drained item is not its writer's newest");
    }
}

static void ovw_final(void)
{
    long long lost = soak_streams_final(&q1s, "overwrite queue");
    soak_add(&soak_objs[O_QUEUE_OVW].dropped, lost);
    int rc = rtipc_queue_delete(q1);
    if (rc != 0)
        soak_violation(O_QUEUE_OVW, "delete: %s", rtipc_strerror(rc));
}

void soak_setup_queues(void)
{
    soak_streams_init(&qs, O_QUEUE, false);
    soak_streams_init(&q1s, O_QUEUE_OVW, true);
    static rtipc_queue_static_t q1_cb;
    static soak_msg_t q1_storage[1];
    if (rtipc_queue_create(QLEN, sizeof(soak_msg_t), &q) ||
        rtipc_queue_create_static(1, sizeof(soak_msg_t), q1_storage, &q1_cb, &q1)) {
        soak_violation(O_QUEUE, "create failed");
        return;
    }
    soak_spin_set(O_QUEUE, rtipc_queue_set_spin(q, soak_spin(O_QUEUE)));
    soak_spin_set(O_QUEUE_OVW, rtipc_queue_set_spin(q1, soak_spin(O_QUEUE_OVW)));
    static const char *pn[QP] = {"q-prod0", "q-prod1", "q-prod2"};
    static const char *cn[QC] = {"q-cons0", "q-cons1", "q-cons2"};
    for (int i = 0; i < QP; ++i)
        soak_spawn(O_QUEUE, pn[i], queue_producer, NULL, i, false, 1 + (unsigned)i, soak_core(i & 1));
    for (int i = 0; i < QC; ++i)
        soak_spawn(O_QUEUE, cn[i], queue_consumer, NULL, i, true, 3 - (unsigned)i, soak_core((i + 1) & 1));
    soak_isr_role(0, queue_isr);
    soak_hooks(&(soak_hooks_t){queue_kick, queue_drain, queue_final});

    soak_spawn(O_QUEUE_OVW, "q1-writer", ovw_writer, NULL, 0, false, 2, soak_core(0));
    soak_spawn(O_QUEUE_OVW, "q1-reader", ovw_reader, NULL, 0, true, 3, soak_core(1));
    soak_isr_role(1, ovw_isr);
    soak_hooks(&(soak_hooks_t){ovw_kick, ovw_drain, ovw_final});
}
