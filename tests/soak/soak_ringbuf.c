/* Ring buffers of the three types, each MPMC: two producer tasks and a
 * handler, two consumer tasks and (for the item types) a handler that
 * receives and returns. Items carry (producer, length, seq, checksum) and a
 * payload derived from the checksum.
 * - no-split: send or acquire/fill/complete; receivers sometimes hold two
 *   items and return them in either order.
 * - allow-split: items are reassembled from their two parts.
 * - byte buffer: fixed 32-byte records in a storage of a multiple of 32, so
 *   every receive_up_to(32) yields exactly one whole record. */
#include <string.h>

#include "soak_core.h"

enum { RB_SIZE = 1024, REC = 32, MAXITEM = 120 };
enum { RB_ISR_PROD = 2, RB_KICK_PROD = 3 };
enum { RB_ISR_CONS = 2, RB_DRAIN_CONS = 3 };

typedef struct {
    int obj;
    rtipc_ringbuf_type_t type;
    rtipc_ringbuf_t *rb;
    soak_streams_t st;
} rbx_t;

static rbx_t rbs[3] = {
    {.obj = O_RB_NOSPLIT, .type = RTIPC_RINGBUF_NOSPLIT},
    {.obj = O_RB_SPLIT, .type = RTIPC_RINGBUF_ALLOWSPLIT},
    {.obj = O_RB_BYTE, .type = RTIPC_RINGBUF_BYTEBUF},
};

static size_t item_len(rbx_t *x, uint32_t r)
{
    return x->type == RTIPC_RINGBUF_BYTEBUF ? REC : sizeof(soak_blob_hdr_t) + r % (MAXITEM - sizeof(soak_blob_hdr_t) + 1);
}

static void verify(rbx_t *x, int c, const void *data, size_t len)
{
    uint32_t p;
    uint64_t seq;
    if (!soak_blob_valid(&x->st, data, len, &p, &seq)) {
        soak_violation(x->obj, "consumer %d: torn or corrupt item of %zu bytes", c, len);
        return;
    }
    soak_received(&x->st, c, p, seq, true);
}

static void rb_producer(soak_worker_t *w)
{
    rbx_t *x = w->arg;
    unsigned char buf[MAXITEM];
    while (soak_running(w)) {
        size_t len = item_len(x, (uint32_t)stress_rand(&w->rng));
        rtipc_timeout_t t = soak_timeout(w);
        soak_blob_make(&x->st, (uint32_t)w->id, buf, len);
        uint64_t seq = atomic_load(&x->st.next[w->id]);
        if (x->type == RTIPC_RINGBUF_NOSPLIT && soak_below(w, 3) == 0) {
            void *slot = NULL;
            soak_at(w, "ringbuf_acquire");
            int rc = rtipc_ringbuf_acquire(x->rb, &slot, len, t);
            if (rc == 0) {
                memcpy(slot, buf, len);
                soak_sent(&x->st, (uint32_t)w->id, seq); /* before it can be received */
                soak_at(w, "ringbuf_complete");
                rc = rtipc_ringbuf_complete(x->rb, slot);
                if (rc != 0)
                    soak_violation(x->obj, "complete: %s", rtipc_strerror(rc));
            } else {
                soak_not_now(w, rc, "acquire");
            }
        } else {
            soak_at(w, "ringbuf_send");
            int rc = rtipc_ringbuf_send(x->rb, buf, len, t);
            if (rc == 0)
                soak_sent(&x->st, (uint32_t)w->id, seq);
            else
                soak_not_now(w, rc, "send");
        }
        soak_pace(w);
    }
}

static void give_back(rbx_t *x, void *item, const char *what)
{
    int rc = rtipc_ringbuf_return(x->rb, item);
    if (rc != 0)
        soak_violation(x->obj, "%s: return: %s", what, rtipc_strerror(rc));
}

/* One receive by consumer c with timeout t; returns the call's code. */
static int rb_receive_one(rbx_t *x, int c, rtipc_timeout_t t, soak_worker_t *w)
{
    void *item = NULL;
    size_t size = 0;
    int rc;
    switch (x->type) {
    case RTIPC_RINGBUF_NOSPLIT:
        if (w)
            soak_at(w, "ringbuf_receive");
        rc = rtipc_ringbuf_receive(x->rb, &item, &size, t);
        if (rc == 0) {
            verify(x, c, item, size);
            void *item2 = NULL;
            size_t size2 = 0;
            if (w && soak_below(w, 4) == 0) {
                soak_at(w, "ringbuf_receive (second)");
                if (rtipc_ringbuf_receive(x->rb, &item2, &size2, RTIPC_NO_WAIT) == 0)
                    verify(x, c, item2, size2);
                else
                    item2 = NULL;
            }
            if (item2 && soak_below(w, 2)) {
                give_back(x, item2, "second");
                item2 = NULL;
            }
            give_back(x, item, "first");
            if (item2)
                give_back(x, item2, "second");
        }
        return rc;
    case RTIPC_RINGBUF_ALLOWSPLIT: {
        void *tail = NULL;
        size_t tsize = 0;
        if (w)
            soak_at(w, "ringbuf_receive_split");
        rc = rtipc_ringbuf_receive_split(x->rb, &item, &size, &tail, &tsize, t);
        if (rc == 0) {
            unsigned char buf[MAXITEM];
            if (size + tsize > sizeof buf) {
                soak_violation(x->obj, "split item of %zu + %zu bytes", size, tsize);
            } else {
                memcpy(buf, item, size);
                if (tail)
                    memcpy(buf + size, tail, tsize);
                verify(x, c, buf, size + tsize);
            }
            give_back(x, item, "head");
            if (tail)
                give_back(x, tail, "tail");
        }
        return rc;
    }
    default:
        if (w)
            soak_at(w, "ringbuf_receive_up_to");
        rc = rtipc_ringbuf_receive_up_to(x->rb, &item, &size, REC, t);
        if (rc == 0) {
            if (size != REC)
                soak_violation(x->obj, "byte buffer handed out %zu bytes of a %d-byte record", size, REC);
            else
                verify(x, c, item, size);
            give_back(x, item, "bytes");
        }
        return rc;
    }
}

static void rb_consumer(soak_worker_t *w)
{
    rbx_t *x = w->arg;
    while (soak_running(w)) {
        int rc = rb_receive_one(x, w->id, soak_timeout(w), w);
        if (rc != 0)
            soak_not_now(w, rc, "receive");
        soak_pace(w);
    }
}

static void rb_isr(rbx_t *x, stress_rng_t *rng)
{
    soak_isr_op(x->obj);
    bool woken = false;
    if (stress_below(rng, 4) == 0) {
        void *item = NULL, *tail = NULL;
        size_t size = 0, tsize = 0;
        int rc;
        if (x->type == RTIPC_RINGBUF_NOSPLIT)
            rc = rtipc_ringbuf_receive_from_isr(x->rb, &item, &size);
        else if (x->type == RTIPC_RINGBUF_ALLOWSPLIT)
            rc = rtipc_ringbuf_receive_split_from_isr(x->rb, &item, &size, &tail, &tsize);
        else
            rc = rtipc_ringbuf_receive_up_to_from_isr(x->rb, &item, &size, REC);
        if (rc == 0) {
            unsigned char buf[MAXITEM];
            if (size + tsize <= sizeof buf) {
                memcpy(buf, item, size);
                if (tail)
                    memcpy(buf + size, tail, tsize);
                verify(x, RB_ISR_CONS, buf, size + tsize);
            } else {
                soak_violation(x->obj, "isr: item of %zu + %zu bytes", size, tsize);
            }
            if (rtipc_ringbuf_return_from_isr(x->rb, item, &woken) != 0 ||
                (tail && rtipc_ringbuf_return_from_isr(x->rb, tail, &woken) != 0))
                soak_violation(x->obj, "return_from_isr failed");
        } else if (rc != RTIPC_EWOULDBLOCK) {
            soak_violation(x->obj, "receive_from_isr: %s", rtipc_strerror(rc));
        }
    } else {
        unsigned char buf[MAXITEM];
        size_t len = item_len(x, (uint32_t)stress_rand(rng));
        soak_blob_make(&x->st, RB_ISR_PROD, buf, len);
        uint64_t seq = atomic_load(&x->st.next[RB_ISR_PROD]);
        int rc = rtipc_ringbuf_send_from_isr(x->rb, buf, len, &woken);
        if (soak_accepted(x->obj, rc, RTIPC_EWOULDBLOCK, "send_from_isr"))
            soak_sent(&x->st, RB_ISR_PROD, seq);
    }
    rtipc_irq_yield(woken);
}

static void rb0_isr(stress_rng_t *rng) { rb_isr(&rbs[0], rng); }
static void rb1_isr(stress_rng_t *rng) { rb_isr(&rbs[1], rng); }
static void rb2_isr(stress_rng_t *rng) { rb_isr(&rbs[2], rng); }

static void rb_kick(void)
{
    for (int i = 0; i < 3; ++i) {
        rbx_t *x = &rbs[i];
        unsigned char buf[MAXITEM];
        size_t len = item_len(x, 0);
        soak_blob_make(&x->st, RB_KICK_PROD, buf, len);
        uint64_t seq = atomic_load(&x->st.next[RB_KICK_PROD]);
        soak_add(&soak_objs[x->obj].ops, 1);
        if (rtipc_ringbuf_send(x->rb, buf, len, RTIPC_NO_WAIT) == 0)
            soak_sent(&x->st, RB_KICK_PROD, seq);
    }
}

static void rb_drain(void)
{
    for (int i = 0; i < 3; ++i)
        while (rb_receive_one(&rbs[i], RB_DRAIN_CONS, RTIPC_NO_WAIT, NULL) == 0) {
        }
}

static void rb_final(void)
{
    for (int i = 0; i < 3; ++i) {
        rbx_t *x = &rbs[i];
        soak_streams_final(&x->st, soak_objs[x->obj].name);
        int used = rtipc_ringbuf_bytes_used(x->rb);
        if (used != 0)
            soak_violation(x->obj, "%d bytes still in use after draining", used);
        if (rtipc_ringbuf_delete(x->rb) != 0)
            soak_violation(x->obj, "delete failed");
    }
}

void soak_setup_ringbufs(void)
{
    static const char *names[3][4] = {{"rbn-prod0", "rbn-prod1", "rbn-cons0", "rbn-cons1"},
                                      {"rbs-prod0", "rbs-prod1", "rbs-cons0", "rbs-cons1"},
                                      {"rbb-prod0", "rbb-prod1", "rbb-cons0", "rbb-cons1"}};
    for (int i = 0; i < 3; ++i) {
        rbx_t *x = &rbs[i];
        soak_streams_init(&x->st, x->obj, false);
        static rtipc_ringbuf_static_t split_cb;
        static _Alignas(8) unsigned char split_storage[RB_SIZE];
        int rc = x->type == RTIPC_RINGBUF_ALLOWSPLIT
                     ? rtipc_ringbuf_create_static(RB_SIZE, x->type, split_storage, &split_cb, &x->rb)
                     : rtipc_ringbuf_create(RB_SIZE, x->type, &x->rb);
        if (rc != 0) {
            soak_violation(x->obj, "create failed");
            return;
        }
        soak_spin_set(x->obj, rtipc_ringbuf_set_spin(x->rb, soak_spin(x->obj)));
        soak_spawn(x->obj, names[i][0], rb_producer, x, 0, false, 1, soak_core(0));
        soak_spawn(x->obj, names[i][1], rb_producer, x, 1, false, 3, soak_core(1));
        soak_spawn(x->obj, names[i][2], rb_consumer, x, 0, true, 2, soak_core(1));
        soak_spawn(x->obj, names[i][3], rb_consumer, x, 1, true, 2, soak_core(0));
    }
    soak_isr_role(0, rb0_isr);
    soak_isr_role(1, rb1_isr);
    soak_isr_role(0, rb2_isr);
    soak_hooks(&(soak_hooks_t){rb_kick, rb_drain, rb_final});
}
