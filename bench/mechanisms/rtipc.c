/* rtipc's objects as mechanisms (rtipc.h, mechanisms.h): the queue, the
 * binary semaphore, the task notification, the SPSC ring, the latest-value
 * mailbox and the three ring buffers. */
#include "rtipc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../names.h"
#include "mechanisms.h"

static int rtipc_failed(int rc, const char *call, char *why, size_t n)
{
    snprintf(why, n, "%s: %s", call, rtipc_strerror(rc));
    return -1;
}

/* ---- rtipc-queue: 4-byte items ------------------------------------------ */

int bench_rtipc_queue_send(void *queue, uint32_t seq)
{
    return rtipc_queue_send(queue, &seq, RTIPC_FOREVER);
}

int bench_rtipc_queue_recv(void *queue, uint32_t *seq)
{
    return rtipc_queue_receive(queue, seq, RTIPC_FOREVER);
}

int bench_rtipc_queue_depth(void *queue)
{
    return rtipc_queue_messages_waiting(queue);
}

static int queue_create(size_t depth, void **obj, char *why, size_t n)
{
    rtipc_queue_t *q;
    int rc = rtipc_queue_create(depth, sizeof(uint32_t), &q);
    if (rc != 0)
        return rtipc_failed(rc, "rtipc_queue_create", why, n);
    *obj = q;
    return 0;
}
static void queue_destroy(void *obj) { rtipc_queue_delete(obj); }
static int queue_try_send(void *obj, uint32_t v) { return rtipc_queue_send(obj, &v, RTIPC_NO_WAIT); }
static int queue_isr_send(void *obj, uint32_t v, bool *woken) { return rtipc_queue_send_from_isr(obj, &v, woken); }

static void queue_kick(void *obj)
{
    uint32_t v = BENCH_MECH_MARKER;
    if (rtipc_queue_send(obj, &v, RTIPC_NO_WAIT) != 0)
        (void)rtipc_queue_receive(obj, &v, RTIPC_NO_WAIT);
}

static int queue_memory(void *obj, size_t items, size_t *bytes, char *note, size_t n)
{
    *bytes = rtipc_queue_footprint(obj);
    snprintf(note, n, "rtipc_queue_footprint: control block %lu B + %lu x 4 B storage",
             (unsigned long)rtipc_queue_footprint_for(0, 0), (unsigned long)items);
    return 0;
}

static int queue_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t v = seq + (uint32_t)i, s = ~v;
        if (rtipc_queue_send(obj, &v, RTIPC_FOREVER) != 0 || rtipc_queue_receive(obj, &s, RTIPC_FOREVER) != 0 ||
            s != v)
            return -1;
    }
    return 0;
}

/* The per-item stream, in the loop shape of its peer moodycamel-blocking-cq
 * (queue_peers_cxx.cpp): the producer tries (the harness spins while the
 * queue is full), the consumer waits for one item, then takes what is there
 * without waiting, one call per item. */
static int queue_push_each(void *o, const uint32_t *it, int n)
{
    int k = 0;
    while (k < n && rtipc_queue_send(o, &it[k], RTIPC_NO_WAIT) == 0)
        k++;
    return k;
}
static int queue_pop_each(void *o, uint32_t *it, int n)
{
    if (n <= 0)
        return 0;
    int rc = rtipc_queue_receive(o, &it[0], RTIPC_FOREVER);
    if (rc != 0)
        return rc;
    int k = 1;
    while (k < n && rtipc_queue_receive(o, &it[k], RTIPC_NO_WAIT) == 0)
        k++;
    return k;
}

const bench_mech_t bench_mech_rtipc_queue = {
    .name = BENCH_MECH_RTIPC_QUEUE,
    .traits = BENCH_MECH_PARKS | BENCH_MECH_SPINS,
    .create = queue_create,
    .destroy = queue_destroy,
    .send = bench_rtipc_queue_send,
    .try_send = queue_try_send,
    .recv = bench_rtipc_queue_recv,
    .isr_send = queue_isr_send,
    .depth = bench_rtipc_queue_depth,
    .kick = queue_kick,
    .memory = queue_memory,
    .pairs = queue_pairs,
    .push_each = queue_push_each,
    .pop_each = queue_pop_each,
};

/* ---- rtipc-sem: a binary semaphore, the number in a word ---------------- */

int bench_rtipc_sem_send(void *obj, uint32_t seq)
{
    bench_rtipc_sem_handoff_t *s = obj;
    atomic_store_explicit(&s->seq, seq, memory_order_relaxed);
    return rtipc_sem_give(s->sem);
}

int bench_rtipc_sem_recv(void *obj, uint32_t *seq)
{
    bench_rtipc_sem_handoff_t *s = obj;
    int rc = rtipc_sem_take(s->sem, RTIPC_FOREVER);
    if (rc == 0)
        *seq = atomic_load_explicit(&s->seq, memory_order_relaxed);
    return rc;
}

static int sem_isr_send(void *obj, uint32_t seq, bool *woken)
{
    bench_rtipc_sem_handoff_t *s = obj;
    atomic_store_explicit(&s->seq, seq, memory_order_relaxed);
    return rtipc_sem_give_from_isr(s->sem, woken);
}

static int sem_create(size_t depth, void **obj, char *why, size_t n)
{
    (void)depth;
    bench_rtipc_sem_handoff_t *s = calloc(1, sizeof *s);
    if (!s)
        return bench_mech_no_memory(why, n);
    int rc = rtipc_sem_create_binary(&s->sem);
    if (rc != 0) {
        free(s);
        return rtipc_failed(rc, "rtipc_sem_create_binary", why, n);
    }
    *obj = s;
    return 0;
}

static void sem_destroy(void *obj)
{
    bench_rtipc_sem_handoff_t *s = obj;
    rtipc_sem_delete(s->sem);
    free(s);
}

static int sem_pairs(void *obj, uint32_t seq, int n)
{
    bench_rtipc_sem_handoff_t *s = obj;
    for (int i = 0; i < n; i++) {
        atomic_store_explicit(&s->seq, seq + (uint32_t)i, memory_order_relaxed);
        if (rtipc_sem_give(s->sem) != 0 || rtipc_sem_take(s->sem, RTIPC_FOREVER) != 0 ||
            atomic_load_explicit(&s->seq, memory_order_relaxed) != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}

const bench_mech_t bench_mech_rtipc_sem = {
    .name = BENCH_MECH_RTIPC_SEM,
    .traits = BENCH_MECH_PARKS | BENCH_MECH_SPINS,
    .create = sem_create,
    .destroy = sem_destroy,
    .send = bench_rtipc_sem_send,
    .recv = bench_rtipc_sem_recv,
    .isr_send = sem_isr_send,
    .pairs = sem_pairs,
};

/* ---- rtipc-notify: give to the receiver's slot 0, take with clear -------- */

void bench_rtipc_notify_bind(void *obj, bench_task_t *producer, bench_task_t *consumer)
{
    (void)producer;
    ((bench_rtipc_notify_handoff_t *)obj)->consumer = bench_target_task_rtipc(consumer);
}

int bench_rtipc_notify_value_send(void *obj, uint32_t seq)
{
    bench_rtipc_notify_handoff_t *h = obj;
    return rtipc_notify(h->consumer, 0, seq, RTIPC_NOTIFY_NO_OVERWRITE, NULL);
}

int bench_rtipc_notify_value_recv(void *obj, uint32_t *seq)
{
    (void)obj;
    /* Waits for the pending flag, not a non-zero value: message 0 counts. */
    return rtipc_notify_wait(0, 0, UINT32_MAX, seq, RTIPC_FOREVER);
}

int bench_rtipc_notify_give_send(void *obj, uint32_t seq)
{
    bench_rtipc_notify_handoff_t *h = obj;
    atomic_store_explicit(&h->seq, seq, memory_order_relaxed);
    return rtipc_notify_give(h->consumer, 0);
}

int bench_rtipc_notify_give_recv(void *obj, uint32_t *seq)
{
    bench_rtipc_notify_handoff_t *h = obj;
    uint32_t count = 0;
    int rc = rtipc_notify_take(0, true, &count, RTIPC_FOREVER);
    if (rc != 0)
        return rc;
    if (count != 1)
        return RTIPC_EOVERFLOW; /* gives merged: a message was lost */
    *seq = atomic_load_explicit(&h->seq, memory_order_relaxed);
    return 0;
}

static int notify_isr_send(void *obj, uint32_t seq, bool *woken)
{
    bench_rtipc_notify_handoff_t *h = obj;
    atomic_store_explicit(&h->seq, seq, memory_order_relaxed);
    return rtipc_notify_give_from_isr(h->consumer, 0, woken);
}

static int notify_create(size_t depth, void **obj, char *why, size_t n)
{
    (void)depth;
    *obj = calloc(1, sizeof(bench_rtipc_notify_handoff_t));
    return *obj ? 0 : bench_mech_no_memory(why, n);
}
static void notify_destroy(void *obj) { free(obj); }

/* Call cost: give to the calling task itself, then take. */
static int notify_pairs(void *obj, uint32_t seq, int n)
{
    (void)obj;
    (void)seq;
    rtipc_task_t *self = rtipc_task_current();
    if (!self)
        return -1;
    for (int i = 0; i < n; i++) {
        uint32_t count = 0;
        if (rtipc_notify_give(self, 0) != 0 || rtipc_notify_take(0, true, &count, RTIPC_FOREVER) != 0 ||
            count != 1)
            return -1;
    }
    return 0;
}

const bench_mech_t bench_mech_rtipc_notify = {
    .name = BENCH_MECH_RTIPC_NOTIFY,
    .traits = BENCH_MECH_PARKS | BENCH_MECH_SPINS,
    .create = notify_create,
    .destroy = notify_destroy,
    .send = bench_rtipc_notify_give_send,
    .recv = bench_rtipc_notify_give_recv,
    .isr_send = notify_isr_send,
    .bind = bench_rtipc_notify_bind,
    .pairs = notify_pairs,
};

/* ---- rtipc-spsc: the wait-free ring ------------------------------------- */

static int spsc_create(size_t depth, void **obj, char *why, size_t n)
{
    rtipc_spsc_t *r;
    int rc = rtipc_spsc_create(depth, sizeof(uint32_t), &r);
    if (rc != 0)
        return rtipc_failed(rc, "rtipc_spsc_create", why, n);
    *obj = r;
    return 0;
}
static void spsc_destroy(void *obj) { rtipc_spsc_delete(obj); }
static int spsc_send(void *obj, uint32_t seq) { return rtipc_spsc_try_push(obj, &seq); }
static int spsc_recv(void *obj, uint32_t *seq) { return rtipc_spsc_pop(obj, seq, RTIPC_FOREVER); }

static int spsc_recv_spin(void *obj, uint32_t *seq)
{
    bench_mech_spin_t spin = {0};
    for (;;) {
        int rc = rtipc_spsc_try_pop(obj, seq);
        if (rc != RTIPC_EWOULDBLOCK)
            return rc;
        if (bench_mech_spin_pause(&spin))
            return BENCH_MECH_ESTALL;
    }
}

static int spsc_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t v = seq + (uint32_t)i, s = ~v;
        if (rtipc_spsc_try_push(obj, &v) != 0 || rtipc_spsc_try_pop(obj, &s) != 0 || s != v)
            return -1;
    }
    return 0;
}

static int spsc_push_each(void *obj, const uint32_t *items, int n)
{
    int k = 0;
    while (k < n && rtipc_spsc_try_push(obj, &items[k]) == 0)
        k++;
    return k;
}
static int spsc_pop_each(void *obj, uint32_t *items, int n)
{
    int k = 0;
    while (k < n && rtipc_spsc_try_pop(obj, &items[k]) == 0)
        k++;
    return k;
}
static int spsc_push_bulk(void *obj, const uint32_t *items, int n)
{
    return rtipc_spsc_push_bulk(obj, items, (size_t)n);
}
static int spsc_pop_bulk(void *obj, uint32_t *items, int n) { return rtipc_spsc_pop_bulk(obj, items, (size_t)n); }

/* rtipc-spsc and rtipc-spsc-sym: one ring, two ways of creating it. */
#define SPSC_MECH(mech_name, create_fn)                                                                      \
    {                                                                                                        \
        .name = (mech_name), .traits = BENCH_MECH_PARKS | BENCH_MECH_SPINS, .create = (create_fn),           \
        .destroy = spsc_destroy, .send = spsc_send, .try_send = spsc_send, .recv = spsc_recv,                \
        .recv_spin = spsc_recv_spin, .pairs = spsc_pairs, .push_each = spsc_push_each,                       \
        .pop_each = spsc_pop_each, .push_bulk = spsc_push_bulk, .pop_bulk = spsc_pop_bulk,                   \
    }

const bench_mech_t bench_mech_rtipc_spsc = SPSC_MECH(BENCH_MECH_RTIPC_SPSC, spsc_create);

/* ---- rtipc-spsc-sym: the same ring created with the symmetric fence
 * (spsc.h: a full fence per push and pop), which rtipc-spsc also has where
 * the port has no process-wide barrier ---- */
static int spsc_sym_create(size_t depth, void **obj, char *why, size_t n)
{
    rtipc_spsc_fence_t was = rtipc_spsc_fence();
    int rc = rtipc_spsc_set_fence(RTIPC_SPSC_FENCE_SYMMETRIC);
    if (rc != RTIPC_OK)
        return rtipc_failed(rc, "rtipc_spsc_set_fence", why, n);
    rc = spsc_create(depth, obj, why, n);
    /* Back to what every other ring of the run gets. */
    (void)rtipc_spsc_set_fence(was);
    return rc;
}

const bench_mech_t bench_mech_rtipc_spsc_sym = SPSC_MECH(BENCH_MECH_RTIPC_SPSC_SYM, spsc_sym_create);

/* ---- rtipc-mailbox: the latest value; the receiver waits for a newer
 * version and checks that it advanced by exactly one (nothing missed) ---- */

typedef struct {
    rtipc_mailbox_t *mb;
    uint64_t seen;  /* receiver's: the version it last took */
} mailbox_t;

static int mailbox_create(size_t depth, void **obj, char *why, size_t n)
{
    (void)depth;
    mailbox_t *m = calloc(1, sizeof *m);
    if (!m)
        return bench_mech_no_memory(why, n);
    int rc = rtipc_mailbox_create(sizeof(uint32_t), NULL, &m->mb);
    if (rc != 0) {
        free(m);
        return rtipc_failed(rc, "rtipc_mailbox_create", why, n);
    }
    *obj = m;
    return 0;
}

static void mailbox_destroy(void *obj)
{
    mailbox_t *m = obj;
    rtipc_mailbox_delete(m->mb);
    free(m);
}

static int mailbox_send(void *obj, uint32_t seq) { return rtipc_mailbox_write(((mailbox_t *)obj)->mb, &seq); }

static int mailbox_recv(void *obj, uint32_t *seq)
{
    mailbox_t *m = obj;
    uint64_t version = 0;
    int rc = rtipc_mailbox_wait_newer(m->mb, seq, m->seen, &version, RTIPC_FOREVER);
    if (rc != 0)
        return rc;
    if (version != m->seen + 1)
        return BENCH_MECH_EMISSED;
    m->seen = version;
    return 0;
}

static int mailbox_pairs(void *obj, uint32_t seq, int n)
{
    mailbox_t *m = obj;
    for (int i = 0; i < n; i++) {
        uint32_t v = seq + (uint32_t)i, s = ~v;
        uint64_t version = 0;
        if (rtipc_mailbox_write(m->mb, &v) != 0 || rtipc_mailbox_read(m->mb, &s, &version) != 0 || s != v ||
            version != m->seen + 1)
            return -1;
        m->seen = version;
    }
    return 0;
}

const bench_mech_t bench_mech_rtipc_mailbox = {
    .name = BENCH_MECH_RTIPC_MAILBOX,
    .traits = BENCH_MECH_PARKS | BENCH_MECH_SPINS,
    .create = mailbox_create,
    .destroy = mailbox_destroy,
    .send = mailbox_send,
    .recv = mailbox_recv,
    .pairs = mailbox_pairs,
};

/* ---- rtipc ring buffers: storage for exactly depth 4-byte items (headers
 * included) ---------------------------------------------------------------- */

static int ringbuf_create(size_t depth, rtipc_ringbuf_type_t type, void **obj, char *why, size_t n)
{
    rtipc_ringbuf_t *rb;
    int rc = rtipc_ringbuf_create(depth * rtipc_ringbuf_item_footprint(type, 4), type, &rb);
    if (rc != 0)
        return rtipc_failed(rc, "rtipc_ringbuf_create", why, n);
    *obj = rb;
    return 0;
}
static int nosplit_create(size_t d, void **o, char *w, size_t n) { return ringbuf_create(d, RTIPC_RINGBUF_NOSPLIT, o, w, n); }
static int allowsplit_create(size_t d, void **o, char *w, size_t n) { return ringbuf_create(d, RTIPC_RINGBUF_ALLOWSPLIT, o, w, n); }
static int bytebuf_create(size_t d, void **o, char *w, size_t n) { return ringbuf_create(d, RTIPC_RINGBUF_BYTEBUF, o, w, n); }
static void ringbuf_destroy(void *obj) { rtipc_ringbuf_delete(obj); }
static int ringbuf_send(void *obj, uint32_t v) { return rtipc_ringbuf_send(obj, &v, sizeof v, RTIPC_FOREVER); }
static int ringbuf_try_send(void *obj, uint32_t v) { return rtipc_ringbuf_send(obj, &v, sizeof v, RTIPC_NO_WAIT); }
static int ringbuf_isr_send(void *obj, uint32_t v, bool *woken)
{
    return rtipc_ringbuf_send_from_isr(obj, &v, sizeof v, woken);
}

/* Receive = get the item in place, copy it out, give it back (the space is
 * freed only then, so the return belongs to the cost). */
static int nosplit_recv(void *obj, uint32_t *v)
{
    void *p;
    size_t sz;
    int rc = rtipc_ringbuf_receive(obj, &p, &sz, RTIPC_FOREVER);
    if (rc != 0)
        return rc;
    if (sz == sizeof *v)
        memcpy(v, p, sizeof *v);
    rc = rtipc_ringbuf_return(obj, p);
    return rc ? rc : sz == sizeof *v ? 0 : BENCH_MECH_ESIZE;
}

static int allowsplit_recv(void *obj, uint32_t *v)
{
    void *h, *t;
    size_t hs, ts;
    int rc = rtipc_ringbuf_receive_split(obj, &h, &hs, &t, &ts, RTIPC_FOREVER);
    if (rc != 0)
        return rc;
    bool ok = hs + ts == sizeof *v;
    if (ok) {
        memcpy(v, h, hs);
        if (t)
            memcpy((unsigned char *)v + hs, t, ts);
    }
    rc = rtipc_ringbuf_return(obj, h);
    if (t) {
        int rc2 = rtipc_ringbuf_return(obj, t);
        rc = rc ? rc : rc2;
    }
    return rc ? rc : ok ? 0 : BENCH_MECH_ESIZE;
}

/* A byte buffer has no item boundaries: collect 4 bytes (one piece unless
 * they wrap). */
static int bytebuf_recv(void *obj, uint32_t *v)
{
    unsigned char b[sizeof *v];
    size_t got = 0;
    while (got < sizeof b) {
        void *p;
        size_t sz;
        int rc = rtipc_ringbuf_receive_up_to(obj, &p, &sz, sizeof b - got, RTIPC_FOREVER);
        if (rc != 0)
            return rc;
        memcpy(b + got, p, sz);
        got += sz;
        rc = rtipc_ringbuf_return(obj, p);
        if (rc != 0)
            return rc;
    }
    memcpy(v, b, sizeof b);
    return 0;
}

static int ringbuf_memory(void *obj, size_t items, size_t *bytes, char *note, size_t n, rtipc_ringbuf_type_t type)
{
    *bytes = rtipc_ringbuf_footprint(obj);
    size_t item = rtipc_ringbuf_item_footprint(type, 4);
    snprintf(note, n, "rtipc_ringbuf_footprint: control block %lu B + %lu x %lu B storage%s",
             (unsigned long)rtipc_ringbuf_footprint_for(0, type), (unsigned long)items, (unsigned long)item,
             type == RTIPC_RINGBUF_BYTEBUF ? " (no headers)" : " (4 B header + 4 B data)");
    return 0;
}
static int nosplit_memory(void *o, size_t i, size_t *b, char *t, size_t n)
{
    return ringbuf_memory(o, i, b, t, n, RTIPC_RINGBUF_NOSPLIT);
}
static int allowsplit_memory(void *o, size_t i, size_t *b, char *t, size_t n)
{
    return ringbuf_memory(o, i, b, t, n, RTIPC_RINGBUF_ALLOWSPLIT);
}
static int bytebuf_memory(void *o, size_t i, size_t *b, char *t, size_t n)
{
    return ringbuf_memory(o, i, b, t, n, RTIPC_RINGBUF_BYTEBUF);
}

#define RINGBUF(ident, mech_name, kind)                                                                 \
    const bench_mech_t ident = {                                                                        \
        .name = mech_name,                                                                              \
        .traits = BENCH_MECH_PARKS | BENCH_MECH_SPINS,                                                   \
        .create = kind##_create,                                                                        \
        .destroy = ringbuf_destroy,                                                                     \
        .send = ringbuf_send,                                                                           \
        .try_send = ringbuf_try_send,                                                                   \
        .recv = kind##_recv,                                                                            \
        .isr_send = ringbuf_isr_send,                                                                   \
        .memory = kind##_memory,                                                                        \
    }

RINGBUF(bench_mech_rtipc_ringbuf_nosplit, BENCH_MECH_RTIPC_RINGBUF_NOSPLIT, nosplit);
RINGBUF(bench_mech_rtipc_ringbuf_allowsplit, BENCH_MECH_RTIPC_RINGBUF_ALLOWSPLIT, allowsplit);
RINGBUF(bench_mech_rtipc_ringbuf_bytebuf, BENCH_MECH_RTIPC_RINGBUF_BYTEBUF, bytebuf);
