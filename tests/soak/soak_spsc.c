/* SPSC rings: A with a producer task and a consumer task (single, bulk,
 * blocking and peek calls mixed), B with a handler producing (single and
 * bulk) and a consumer task. One producer per ring, so the consumer must see
 * seq 0, 1, 2, ... exactly. */
#include <inttypes.h>

#include "soak_core.h"

enum { CAP = 64, BULK = 8 };

typedef struct {
    rtipc_spsc_t *r;
    uint32_t prod;
    uint64_t expect;
    soak_streams_t st;
} spx_t;

static spx_t spa, spb;

static void take(spx_t *x, const soak_msg_t *m, int consumer)
{
    if (!soak_msg_valid(&x->st, m) || m->prod != x->prod) {
        soak_violation(O_SPSC, "torn or corrupt item");
        return;
    }
    if (m->seq != x->expect)
        soak_violation(O_SPSC, "ring %u: seq %" PRIu64 ", expected %" PRIu64, x->prod, m->seq, x->expect);
    x->expect = m->seq + 1;
    soak_received(&x->st, consumer, m->prod, m->seq, true);
}

/* Producer step: n > 1 pushes a batch. */
static int produce(spx_t *x, unsigned n, int mode, rtipc_timeout_t t, bool isr)
{
    soak_msg_t batch[BULK];
    uint64_t seq0 = atomic_load(&x->st.next[x->prod]);
    for (unsigned i = 0; i < n; ++i) {
        batch[i].prod = x->prod;
        batch[i].flags = SOAK_ORDERED;
        batch[i].seq = seq0 + i;
        batch[i].check = soak_check(O_SPSC, x->prod, seq0 + i, SOAK_ORDERED);
    }
    bool woken = false;
    int rc;
    if (n > 1) {
        rc = isr ? rtipc_spsc_push_bulk_from_isr(x->r, batch, n, &woken) : rtipc_spsc_push_bulk(x->r, batch, n);
        if (rc < 0) {
            soak_violation(O_SPSC, "push_bulk: %s", rtipc_strerror(rc));
            return rc;
        }
        for (int i = 0; i < rc; ++i)
            soak_sent(&x->st, x->prod, seq0 + (uint64_t)i);
        rc = rc > 0 ? 0 : RTIPC_EWOULDBLOCK;
    } else {
        if (isr)
            rc = rtipc_spsc_push_from_isr(x->r, batch, &woken);
        else if (mode == 0)
            rc = rtipc_spsc_try_push(x->r, batch);
        else
            rc = rtipc_spsc_push(x->r, batch, t);
        if (rc == 0)
            soak_sent(&x->st, x->prod, seq0);
    }
    if (isr)
        rtipc_irq_yield(woken);
    return rc;
}

static int consume(spx_t *x, soak_worker_t *w, rtipc_timeout_t t, int consumer)
{
    soak_msg_t batch[BULK];
    uint32_t r = w ? soak_below(w, 8) : 0;
    int rc;
    if (r == 0) {
        if (w)
            soak_at(w, "spsc_pop_bulk");
        rc = rtipc_spsc_pop_bulk(x->r, batch, BULK);
        if (rc < 0) {
            soak_violation(O_SPSC, "pop_bulk: %s", rtipc_strerror(rc));
            return rc;
        }
        for (int i = 0; i < rc; ++i)
            take(x, &batch[i], consumer);
        return rc > 0 ? 0 : RTIPC_EWOULDBLOCK;
    }
    if (r == 1) {
        soak_at(w, "spsc_peek");
        rc = rtipc_spsc_peek(x->r, &batch[1]);
        if (rc != 0)
            return rc;
        soak_at(w, "spsc_try_pop");
        rc = rtipc_spsc_try_pop(x->r, &batch[0]);
        if (rc != 0 || batch[0].seq != batch[1].seq || batch[0].check != batch[1].check)
            soak_violation(O_SPSC, "pop after peek: %d, or a different item", rc);
        if (rc == 0)
            take(x, &batch[0], consumer);
        return 0;
    }
    if (r == 2) {
        soak_at(w, "spsc_try_pop");
        rc = rtipc_spsc_try_pop(x->r, &batch[0]);
    } else {
        soak_at(w, "spsc_pop");
        rc = rtipc_spsc_pop(x->r, &batch[0], t);
    }
    if (rc == 0)
        take(x, &batch[0], consumer);
    return rc;
}

static void a_producer(soak_worker_t *w)
{
    while (soak_running(w)) {
        unsigned n = soak_below(w, 4) == 0 ? 1 + soak_below(w, BULK) : 1;
        int mode = (int)soak_below(w, 2);
        rtipc_timeout_t t = soak_timeout(w);
        soak_at(w, n > 1 ? "spsc_push_bulk" : mode ? "spsc_push" : "spsc_try_push");
        int rc = produce(&spa, n, mode, t, false);
        soak_not_now_but(w, rc, RTIPC_EINVAL, "push");
        soak_pace(w);
    }
}

static void consumer(soak_worker_t *w)
{
    spx_t *x = w->arg;
    while (soak_running(w)) {
        int rc = consume(x, w, soak_timeout(w), 0);
        soak_not_now_but(w, rc, RTIPC_EINVAL, "pop");
        soak_pace(w);
    }
}

static void b_isr(stress_rng_t *rng)
{
    soak_isr_op(O_SPSC);
    unsigned n = stress_below(rng, 3) == 0 ? 1 + stress_below(rng, BULK) : 1;
    int rc = produce(&spb, n, 0, RTIPC_NO_WAIT, true);
    if (rc == RTIPC_EWOULDBLOCK)
        soak_add(&soak_objs[O_SPSC].dropped, 1);
}

static void spsc_kick(void)
{
    /* Producers (task and handler) have ended: the supervisor produces. */
    soak_add(&soak_objs[O_SPSC].ops, 2);
    produce(&spa, 1, 0, RTIPC_NO_WAIT, false);
    produce(&spb, 1, 0, RTIPC_NO_WAIT, false);
}

static void drain(spx_t *x)
{
    soak_msg_t m;
    while (rtipc_spsc_try_pop(x->r, &m) == 0)
        take(x, &m, 1);
}

static void spsc_drain(void)
{
    drain(&spa);
    drain(&spb);
}

static void spsc_final(void)
{
    soak_streams_final(&spa.st, "spsc (task producer)");
    soak_streams_final(&spb.st, "spsc (isr producer)");
    if (rtipc_spsc_delete(spa.r) || rtipc_spsc_delete(spb.r))
        soak_violation(O_SPSC, "delete failed");
}

void soak_setup_spsc(void)
{
    soak_streams_init(&spa.st, O_SPSC, false);
    soak_streams_init(&spb.st, O_SPSC, false);
    spa.prod = 0;
    spb.prod = 1;
    static rtipc_spsc_static_t spb_cb;
    static soak_msg_t spb_storage[CAP];
    if (rtipc_spsc_create(CAP, sizeof(soak_msg_t), &spa.r) ||
        rtipc_spsc_create_static(CAP, sizeof(soak_msg_t), spb_storage, &spb_cb, &spb.r)) {
        soak_violation(O_SPSC, "create failed");
        return;
    }
    soak_spin_set(O_SPSC, rtipc_spsc_set_spin(spa.r, soak_spin(O_SPSC)));
    soak_spin_set(O_SPSC, rtipc_spsc_set_spin(spb.r, soak_spin(O_SPSC)));
    soak_spawn(O_SPSC, "spsc-prod", a_producer, &spa, 0, false, 2, soak_core(0));
    soak_spawn(O_SPSC, "spsc-cons", consumer, &spa, 0, true, 2, soak_core(1));
    soak_spawn(O_SPSC, "spsc-isr-cons", consumer, &spb, 0, true, 3, soak_core(1));
    soak_isr_role(0, b_isr);
    soak_hooks(&(soak_hooks_t){spsc_kick, spsc_drain, spsc_final});
}
