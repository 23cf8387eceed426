/* Queue set over two queues, a binary and a counting semaphore. Two producer
 * tasks and a handler feed the members; two selector tasks select and then
 * read the member with RTIPC_NO_WAIT, which must succeed since only
 * selectors read. Queue messages are checked as for the queue; semaphore
 * gives = takes + final count; the set never overflows. */
#include "soak_core.h"

enum { QA_LEN = 8, QB_LEN = 8, CNT_MAX = 4 };
enum { P_A = 0, P_B = 1, P_ISR = 2, P_KICK = 3 };
enum { C_DRAIN = 2 };

static rtipc_queueset_t *set;
static rtipc_queue_t *qa, *qb;
static rtipc_sem_t *sbin, *scnt;
static soak_streams_t st;
static atomic_llong gives[2], takes[2];

static void note_give(int i, int rc)
{
    if (soak_accepted(O_QSET, rc, RTIPC_EOVERFLOW, "give")) {
        soak_add(&gives[i], 1);
        soak_add(&soak_objs[O_QSET].sent, 1);
    }
}

static void producer(soak_worker_t *w)
{
    rtipc_queue_t *q = w->id == P_A ? qa : qb;
    while (soak_running(w)) {
        if (w->id == P_B && soak_below(w, 4) == 0) {
            soak_at(w, "sem_give (set member)");
            note_give(0, rtipc_sem_give(sbin));
        } else {
            soak_msg_t m;
            soak_msg_make(&st, (uint32_t)w->id, SOAK_ORDERED, &m);
            rtipc_timeout_t t = soak_timeout(w);
            soak_at(w, "queue_send (set member)");
            int rc = rtipc_queue_send(q, &m, t);
            if (rc == 0)
                soak_sent(&st, m.prod, m.seq);
            else
                soak_not_now(w, rc, "send");
        }
        soak_pace(w);
    }
}

/* Read the member a select returned; must succeed. */
static void read_member(void *member, int consumer)
{
    if (member == qa || member == qb) {
        soak_msg_t m;
        int rc = rtipc_queue_receive(member, &m, RTIPC_NO_WAIT);
        if (rc != 0)
            soak_violation(O_QSET, "selected queue is empty: %s", rtipc_strerror(rc));
        else
            soak_msg_received(&st, consumer, &m);
    } else if (member == sbin || member == scnt) {
        int i = member == sbin ? 0 : 1;
        int rc = rtipc_sem_take(member, RTIPC_NO_WAIT);
        if (rc != 0) {
            soak_violation(O_QSET, "selected semaphore is empty: %s", rtipc_strerror(rc));
        } else {
            soak_add(&takes[i], 1);
            soak_add(&soak_objs[O_QSET].received, 1);
        }
    } else {
        soak_violation(O_QSET, "select returned %p, not a member", member);
    }
}

static void selector(soak_worker_t *w)
{
    while (soak_running(w)) {
        void *member = NULL;
        rtipc_timeout_t t = soak_timeout(w);
        soak_at(w, "queueset_select");
        int rc = rtipc_queueset_select(set, &member, t);
        if (rc == 0) {
            soak_at(w, "read selected member");
            read_member(member, w->id);
        } else {
            soak_not_now(w, rc, "select");
        }
        soak_pace(w);
    }
}

static void qset_isr(stress_rng_t *rng)
{
    soak_isr_op(O_QSET);
    bool woken = false;
    if (stress_below(rng, 2)) {
        note_give(1, rtipc_sem_give_from_isr(scnt, &woken));
    } else {
        soak_isr_queue_send(qb, &st, P_ISR, SOAK_ORDERED, false, &woken);
    }
    rtipc_irq_yield(woken);
}

static void qset_kick(void)
{
    soak_add(&soak_objs[O_QSET].ops, 1);
    soak_msg_t m;
    soak_msg_make(&st, P_KICK, SOAK_ORDERED, &m);
    if (rtipc_queue_send(qa, &m, RTIPC_NO_WAIT) == 0)
        soak_sent(&st, m.prod, m.seq);
}

static void qset_drain(void)
{
    void *member = NULL;
    while (rtipc_queueset_select(set, &member, RTIPC_NO_WAIT) == 0)
        read_member(member, C_DRAIN);
}

static void qset_final(void)
{
    soak_streams_final(&st, "queue set");
    int cb = rtipc_sem_count(sbin), cc = rtipc_sem_count(scnt);
    if (atomic_load(&gives[0]) != atomic_load(&takes[0]) + cb || atomic_load(&gives[1]) != atomic_load(&takes[1]) + cc)
        soak_violation(O_QSET, "semaphore members: gives %lld/%lld != takes %lld/%lld + counts %d/%d",
                       (long long)atomic_load(&gives[0]), (long long)atomic_load(&gives[1]),
                       (long long)atomic_load(&takes[0]), (long long)atomic_load(&takes[1]), cb, cc);
    if (cb != 0 || cc != 0 || rtipc_queue_messages_waiting(qa) != 0 || rtipc_queue_messages_waiting(qb) != 0)
        soak_violation(O_QSET, "a member holds data after the set was drained (lost event)");
    int64_t of = rtipc_queueset_overflows(set);
    if (of != 0)
        soak_violation(O_QSET, "%lld set overflows", (long long)of);
    if (rtipc_queueset_remove_queue(set, qa) || rtipc_queueset_remove_queue(set, qb) ||
        rtipc_queueset_remove_sem(set, sbin) || rtipc_queueset_remove_sem(set, scnt) || rtipc_queueset_delete(set) ||
        rtipc_queue_delete(qa) || rtipc_queue_delete(qb) || rtipc_sem_delete(sbin) || rtipc_sem_delete(scnt))
        soak_violation(O_QSET, "teardown failed");
}

void soak_setup_queueset(void)
{
    soak_streams_init(&st, O_QSET, false);
    if (rtipc_queueset_create(QA_LEN + QB_LEN + 1 + CNT_MAX, &set) ||
        rtipc_queue_create(QA_LEN, sizeof(soak_msg_t), &qa) || rtipc_queue_create(QB_LEN, sizeof(soak_msg_t), &qb) ||
        rtipc_sem_create_binary(&sbin) || rtipc_sem_create_counting(CNT_MAX, 0, &scnt) ||
        rtipc_queueset_add_queue(set, qa) || rtipc_queueset_add_queue(set, qb) ||
        rtipc_queueset_add_sem(set, sbin) || rtipc_queueset_add_sem(set, scnt)) {
        soak_violation(O_QSET, "setup failed");
        return;
    }
    soak_spin_set(O_QSET, rtipc_queueset_set_spin(set, soak_spin(O_QSET)));
    soak_spawn(O_QSET, "qs-prodA", producer, NULL, P_A, false, 1, soak_core(0));
    soak_spawn(O_QSET, "qs-prodB", producer, NULL, P_B, false, 3, soak_core(1));
    soak_spawn(O_QSET, "qs-sel0", selector, NULL, 0, true, 2, soak_core(1));
    soak_spawn(O_QSET, "qs-sel1", selector, NULL, 1, true, 2, soak_core(0));
    soak_isr_role(1, qset_isr);
    soak_hooks(&(soak_hooks_t){qset_kick, qset_drain, qset_final});
}
