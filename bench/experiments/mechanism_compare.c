/* mechanism-compare: the published mechanism table (ISR-safe, send overhead,
 * footprint) measured here for rtipc's queue and ring buffers, two
 * mutex-guarded heap queues (C++ std::queue and a C node list) and the OS
 * peers, plus receive overhead and a cross-core round trip. */
#define _GNU_SOURCE  /* pipe2, eventfd, malloc_usable_size */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <math.h>
#include <mqueue.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "experiments.h"
#include "linux_only.h"
#include "std_queue_peer.h"

#define LEN 100                 /* the published shape: depth 100, 4-byte items */
#define BATCH 8                 /* calls between two timestamps in the batched rows */
#define BATCH_VARIANT BENCH_VARIANT_ITEM_4_BATCH_8  /* their variant */
#define ISR_ITEMS 10            /* items sent from the interrupt handler */
#define POISON UINT32_MAX       /* unblocks a receiver after a failure */
#define STALL_NS 2000000000LL   /* no progress for this long fails the run */

/* Local error codes (rtipc's are -1..-12). */
#define ERR_SIZE (-1000)        /* ring buffer item of the wrong size */
#define ERR_MERGED (-1001)      /* eventfd count not 1: signals merged or lost */
#define ERR_OS(e) (-10000 - (e))

typedef struct {
    const char *name;
    /* 0 created; -1 failed (why says it); 1 the mechanism does not exist on
     * this host (why says it). */
    int (*create)(void **obj, char *why, size_t n);
    void (*destroy)(void *obj);
    int (*send)(void *obj, uint32_t v);       /* the timed send: blocks when full */
    int (*try_send)(void *obj, uint32_t v);   /* never blocks */
    int (*recv)(void *obj, uint32_t *v);      /* blocks until an item arrives */
    int (*isr_send)(void *obj, uint32_t v, bool *woken);  /* NULL: none offered */
    /* Bytes with LEN items in it; NULL: the memory is in the kernel. */
    int (*memory)(void *obj, size_t *bytes, char *note, size_t n);
    bool no_batch;  /* cannot hold BATCH items apart (eventfd merges them) */
} mech_t;

static const char *err_text(int rc, char *buf, size_t n)
{
    if (rc == ERR_SIZE)
        snprintf(buf, n, "item of an unexpected size");
    else if (rc == ERR_MERGED)
        snprintf(buf, n, "eventfd count was not 1 (signals merged or lost)");
    else if (rc <= ERR_OS(0))
        snprintf(buf, n, "%s", strerror(-(rc - ERR_OS(0))));
    else
        snprintf(buf, n, "%s", rtipc_strerror(rc));
    return buf;
}

/* ------------------------------------------------------------ rtipc queue */

static int q_create(void **obj, char *why, size_t n)
{
    rtipc_queue_t *q;
    int rc = rtipc_queue_create(LEN, sizeof(uint32_t), &q);
    if (rc != 0) {
        snprintf(why, n, "rtipc_queue_create: %s", rtipc_strerror(rc));
        return -1;
    }
    *obj = q;
    return 0;
}
static void q_destroy(void *obj) { rtipc_queue_delete(obj); }
static int q_send(void *obj, uint32_t v) { return rtipc_queue_send(obj, &v, RTIPC_FOREVER); }
static int q_try_send(void *obj, uint32_t v) { return rtipc_queue_send(obj, &v, RTIPC_NO_WAIT); }
static int q_recv(void *obj, uint32_t *v) { return rtipc_queue_receive(obj, v, RTIPC_FOREVER); }
static int q_isr_send(void *obj, uint32_t v, bool *woken) { return rtipc_queue_send_from_isr(obj, &v, woken); }
static int q_memory(void *obj, size_t *bytes, char *note, size_t n)
{
    *bytes = rtipc_queue_footprint(obj);
    snprintf(note, n, "rtipc_queue_footprint: control block %zu B + %d x 4 B storage",
             rtipc_queue_footprint_for(0, 0), LEN);
    return 0;
}

/* ---------------------------------------------------------- ring buffers */

static int rb_create(void **obj, rtipc_ringbuf_type_t type, char *why, size_t n)
{
    /* Storage for exactly LEN 4-byte items (headers included); the memory
     * step checks that they do fit. */
    rtipc_ringbuf_t *rb;
    int rc = rtipc_ringbuf_create(LEN * rtipc_ringbuf_item_footprint(type, 4), type, &rb);
    if (rc != 0) {
        snprintf(why, n, "rtipc_ringbuf_create: %s", rtipc_strerror(rc));
        return -1;
    }
    *obj = rb;
    return 0;
}
static int rbn_create(void **o, char *w, size_t n) { return rb_create(o, RTIPC_RINGBUF_NOSPLIT, w, n); }
static int rbs_create(void **o, char *w, size_t n) { return rb_create(o, RTIPC_RINGBUF_ALLOWSPLIT, w, n); }
static int rbb_create(void **o, char *w, size_t n) { return rb_create(o, RTIPC_RINGBUF_BYTEBUF, w, n); }
static void rb_destroy(void *obj) { rtipc_ringbuf_delete(obj); }
static int rb_send(void *obj, uint32_t v) { return rtipc_ringbuf_send(obj, &v, sizeof v, RTIPC_FOREVER); }
static int rb_try_send(void *obj, uint32_t v) { return rtipc_ringbuf_send(obj, &v, sizeof v, RTIPC_NO_WAIT); }
static int rb_isr_send(void *obj, uint32_t v, bool *woken)
{
    return rtipc_ringbuf_send_from_isr(obj, &v, sizeof v, woken);
}

/* Receive = get the item in place, copy it out, give it back (the space is
 * freed only then, so the return belongs to the cost). */
static int rbn_recv(void *obj, uint32_t *v)
{
    void *p;
    size_t sz;
    int rc = rtipc_ringbuf_receive(obj, &p, &sz, RTIPC_FOREVER);
    if (rc != 0)
        return rc;
    if (sz == sizeof *v)
        memcpy(v, p, sizeof *v);
    rc = rtipc_ringbuf_return(obj, p);
    return rc ? rc : sz == sizeof *v ? 0 : ERR_SIZE;
}

static int rbs_recv(void *obj, uint32_t *v)
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
    return rc ? rc : ok ? 0 : ERR_SIZE;
}

/* A byte buffer has no item boundaries: collect 4 bytes (one piece unless
 * they wrap). */
static int rbb_recv(void *obj, uint32_t *v)
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

static int rb_memory(void *obj, size_t *bytes, char *note, size_t n, rtipc_ringbuf_type_t type)
{
    *bytes = rtipc_ringbuf_footprint(obj);
    size_t item = rtipc_ringbuf_item_footprint(type, 4);
    snprintf(note, n, "rtipc_ringbuf_footprint: control block %zu B + %d x %zu B storage%s",
             rtipc_ringbuf_footprint_for(0, type), LEN, item,
             type == RTIPC_RINGBUF_BYTEBUF ? " (no headers)" : " (4 B header + 4 B data)");
    return 0;
}
static int rbn_memory(void *o, size_t *b, char *t, size_t n) { return rb_memory(o, b, t, n, RTIPC_RINGBUF_NOSPLIT); }
static int rbs_memory(void *o, size_t *b, char *t, size_t n) { return rb_memory(o, b, t, n, RTIPC_RINGBUF_ALLOWSPLIT); }
static int rbb_memory(void *o, size_t *b, char *t, size_t n) { return rb_memory(o, b, t, n, RTIPC_RINGBUF_BYTEBUF); }

/* ------------------------------------------- C++ std::queue + std::mutex */

static int sq_create(void **obj, char *why, size_t n)
{
    *obj = std_queue_peer_create();
    if (!*obj) {
        snprintf(why, n, "std_queue_peer_create: out of memory");
        return -1;
    }
    return 0;
}
static void sq_destroy(void *obj) { std_queue_peer_delete(obj); }
static int sq_send(void *obj, uint32_t v) { return std_queue_peer_send(obj, v) ? ERR_OS(ENOMEM) : 0; }
static int sq_recv(void *obj, uint32_t *v) { return std_queue_peer_receive(obj, v) ? ERR_OS(EIO) : 0; }
static int sq_memory(void *obj, size_t *bytes, char *note, size_t n)
{
    (void)obj;
    size_t control, heap;
    if (std_queue_peer_memory(LEN, &control, &heap) != 0)
        return ERR_OS(ENOMEM);
    *bytes = control + heap;
    snprintf(note, n, "control %zu B + heap %zu B: std::deque blocks of 512 B + block map, "
             "not a node per item (counting allocator, usable sizes)", control, heap);
    return 0;
}

/* ------------------------------- C mutex + condvar + heap node per item */

typedef struct hq_node {
    struct hq_node *next;
    uint32_t v;
} hq_node_t;

typedef struct {
    pthread_mutex_t m;
    pthread_cond_t c;
    hq_node_t *head, *tail;
} hq_t;

static int hq_create(void **obj, char *why, size_t n)
{
    hq_t *q = calloc(1, sizeof *q);
    if (!q) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    pthread_mutex_init(&q->m, NULL);
    pthread_cond_init(&q->c, NULL);
    *obj = q;
    return 0;
}

static void hq_destroy(void *obj)
{
    hq_t *q = obj;
    while (q->head) {
        hq_node_t *nd = q->head;
        q->head = nd->next;
        free(nd);
    }
    pthread_cond_destroy(&q->c);
    pthread_mutex_destroy(&q->m);
    free(q);
}

static int hq_send(void *obj, uint32_t v)
{
    hq_t *q = obj;
    hq_node_t *nd = malloc(sizeof *nd);
    if (!nd)
        return ERR_OS(ENOMEM);
    nd->v = v;
    nd->next = NULL;
    pthread_mutex_lock(&q->m);
    if (q->tail)
        q->tail->next = nd;
    else
        q->head = nd;
    q->tail = nd;
    pthread_mutex_unlock(&q->m);
    pthread_cond_signal(&q->c);
    return 0;
}

static int hq_recv(void *obj, uint32_t *v)
{
    hq_t *q = obj;
    pthread_mutex_lock(&q->m);
    while (!q->head)
        pthread_cond_wait(&q->c, &q->m);
    hq_node_t *nd = q->head;
    q->head = nd->next;
    if (!q->head)
        q->tail = NULL;
    pthread_mutex_unlock(&q->m);
    *v = nd->v;
    free(nd);
    return 0;
}

static int hq_memory(void *obj, size_t *bytes, char *note, size_t n)
{
    hq_t *q = obj;
    size_t heap = 0, nodes = 0, one = 0;
    pthread_mutex_lock(&q->m);
    for (hq_node_t *nd = q->head; nd; nd = nd->next, nodes++)
        heap += one = malloc_usable_size(nd);
    pthread_mutex_unlock(&q->m);
    *bytes = sizeof *q + heap;
    snprintf(note, n, "control %zu B + %zu nodes x %zu B (malloc_usable_size of a %zu B node)",
             sizeof *q, nodes, one, sizeof(hq_node_t));
    return 0;
}

/* ------------------------------------------------------------ OS peers */

typedef struct {
    int fd[2];
} pipe_peer_t;

static int pipe_create(void **obj, char *why, size_t n)
{
    pipe_peer_t *p = malloc(sizeof *p);
    if (!p) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    if (pipe2(p->fd, O_CLOEXEC) != 0) {
        int e = errno;
        free(p);
        snprintf(why, n, "pipe2: %s", strerror(e));
        return e == ENOSYS ? 1 : -1;
    }
    *obj = p;
    return 0;
}
static void pipe_destroy(void *obj)
{
    pipe_peer_t *p = obj;
    close(p->fd[0]);
    close(p->fd[1]);
    free(p);
}
static int pipe_send(void *obj, uint32_t v)
{
    pipe_peer_t *p = obj;
    ssize_t w;
    do
        w = write(p->fd[1], &v, sizeof v);  /* <= PIPE_BUF: atomic */
    while (w < 0 && errno == EINTR);
    return w == (ssize_t)sizeof v ? 0 : ERR_OS(w < 0 ? errno : EIO);
}
static int pipe_recv(void *obj, uint32_t *v)
{
    pipe_peer_t *p = obj;
    size_t got = 0;
    while (got < sizeof *v) {
        ssize_t r = read(p->fd[0], (unsigned char *)v + got, sizeof *v - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return ERR_OS(r < 0 ? errno : EPIPE);
        got += (size_t)r;
    }
    return 0;
}

/* eventfd carries a count, not data: the sequence number goes through a
 * shared variable, published before the count is raised. */
typedef struct {
    int fd;
    _Atomic uint32_t seq;
} efd_peer_t;

static int efd_create(void **obj, char *why, size_t n)
{
    efd_peer_t *e = malloc(sizeof *e);
    if (!e) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    e->fd = eventfd(0, EFD_CLOEXEC);
    if (e->fd < 0) {
        int err = errno;
        free(e);
        snprintf(why, n, "eventfd: %s", strerror(err));
        return err == ENOSYS ? 1 : -1;
    }
    atomic_init(&e->seq, 0);
    *obj = e;
    return 0;
}
static void efd_destroy(void *obj)
{
    efd_peer_t *e = obj;
    close(e->fd);
    free(e);
}
static int efd_send(void *obj, uint32_t v)
{
    efd_peer_t *e = obj;
    /* Release: pairs with the acquire in efd_recv; publishes the sequence
     * number the count stands for. */
    atomic_store_explicit(&e->seq, v, memory_order_release);
    uint64_t one = 1;
    ssize_t w;
    do
        w = write(e->fd, &one, sizeof one);
    while (w < 0 && errno == EINTR);
    return w == (ssize_t)sizeof one ? 0 : ERR_OS(w < 0 ? errno : EIO);
}
static int efd_recv(void *obj, uint32_t *v)
{
    efd_peer_t *e = obj;
    uint64_t count;
    ssize_t r;
    do
        r = read(e->fd, &count, sizeof count);
    while (r < 0 && errno == EINTR);
    if (r != (ssize_t)sizeof count)
        return ERR_OS(r < 0 ? errno : EIO);
    /* Acquire: pairs with the release in efd_send. */
    *v = atomic_load_explicit(&e->seq, memory_order_acquire);
    return count == 1 ? 0 : ERR_MERGED;
}

typedef struct {
    mqd_t q;
} mq_peer_t;

static int mq_maxmsg_used;  /* depth the kernel granted (set by the experiment thread) */

static int mq_create(void **obj, char *why, size_t n)
{
    static unsigned counter;
    mq_peer_t *p = malloc(sizeof *p);
    if (!p) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    char name[64];
    snprintf(name, sizeof name, "/rtipc-bench-%ld-%u", (long)getpid(), counter++);
    /* The published depth first; an unprivileged process may be held to
     * the default msg_max of 10 (enough: at most one message is in flight
     * in every timed phase). */
    const long depths[] = {LEN, 10};
    p->q = (mqd_t)-1;
    int e = 0;
    for (size_t i = 0; i < 2 && p->q == (mqd_t)-1; i++) {
        struct mq_attr a = {.mq_maxmsg = depths[i], .mq_msgsize = sizeof(uint32_t)};
        p->q = mq_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600, &a);
        e = errno;
        if (p->q != (mqd_t)-1)
            mq_maxmsg_used = (int)depths[i];
        else if (e != EINVAL && e != EMFILE && e != ENOMEM)
            break;
    }
    if (p->q == (mqd_t)-1) {
        free(p);
        snprintf(why, n, "mq_open: %s", strerror(e));
        return e == ENOSYS ? 1 : -1;
    }
    mq_unlink(name);  /* the descriptor keeps it alive; nothing is left behind */
    *obj = p;
    return 0;
}
static void mq_destroy(void *obj)
{
    mq_peer_t *p = obj;
    mq_close(p->q);
    free(p);
}
static int mq_peer_send(void *obj, uint32_t v)
{
    mq_peer_t *p = obj;
    int rc;
    do
        rc = mq_send(p->q, (const char *)&v, sizeof v, 0);
    while (rc != 0 && errno == EINTR);
    return rc == 0 ? 0 : ERR_OS(errno);
}
/* Never blocks: a deadline in the past fails at once when the queue is full. */
static int mq_peer_try_send(void *obj, uint32_t v)
{
    mq_peer_t *p = obj;
    struct timespec past = {0, 0};
    return mq_timedsend(p->q, (const char *)&v, sizeof v, 0, &past) == 0 ? 0 : ERR_OS(errno);
}
static int mq_peer_recv(void *obj, uint32_t *v)
{
    mq_peer_t *p = obj;
    ssize_t r;
    do
        r = mq_receive(p->q, (char *)v, sizeof *v, NULL);
    while (r < 0 && errno == EINTR);
    return r == (ssize_t)sizeof *v ? 0 : ERR_OS(r < 0 ? errno : EIO);
}

static const mech_t mechs[] = {
    {BENCH_MECH_RTIPC_QUEUE, q_create, q_destroy, q_send, q_try_send, q_recv, q_isr_send, q_memory, false},
    {BENCH_MECH_RTIPC_RINGBUF_NOSPLIT, rbn_create, rb_destroy, rb_send, rb_try_send, rbn_recv, rb_isr_send,
     rbn_memory, false},
    {BENCH_MECH_RTIPC_RINGBUF_ALLOWSPLIT, rbs_create, rb_destroy, rb_send, rb_try_send, rbs_recv, rb_isr_send,
     rbs_memory, false},
    {BENCH_MECH_RTIPC_RINGBUF_BYTEBUF, rbb_create, rb_destroy, rb_send, rb_try_send, rbb_recv, rb_isr_send,
     rbb_memory, false},
    {BENCH_MECH_STD_QUEUE_MUTEX, sq_create, sq_destroy, sq_send, sq_send, sq_recv, NULL, sq_memory, false},
    {BENCH_MECH_MUTEX_CONDVAR, hq_create, hq_destroy, hq_send, hq_send, hq_recv, NULL, hq_memory, false},
    {BENCH_MECH_PIPE, pipe_create, pipe_destroy, pipe_send, pipe_send, pipe_recv, NULL, NULL, false},
    {BENCH_MECH_EVENTFD, efd_create, efd_destroy, efd_send, efd_send, efd_recv, NULL, NULL, true},
    {BENCH_MECH_POSIX_MQ, mq_create, mq_destroy, mq_peer_send, mq_peer_try_send, mq_peer_recv, NULL, NULL, false},
};
#define N_MECHS (sizeof mechs / sizeof mechs[0])

/* ------------------------------------------------------------ the runs */

typedef struct {
    const mech_t *m;
    void *obj[2];               /* [0] overhead phase / ping; [1] pong */
    int64_t ts_overhead;        /* subtracted from the overhead samples */
    size_t samples, warmup;     /* overhead phase */
    size_t batches;             /* batched overhead phase */
    size_t rt_samples, rt_warmup;
    int64_t rt_cap_ns;          /* round-trip phase time cap (0 = none) */
    bool rt_capped;             /* it stopped at the cap */
    bench_samples_t send_s, recv_s, rt_s, bsend_s, brecv_s;
    bench_rng_t rng;
    /* interrupt-safety check: the handler's outcome, published by isr_ran */
    int isr_rc;
    _Atomic int isr_ran;        /* release by the handler, acquire by the task */
    rtipc_irq_t *irq;
    int isr_ok;
    /* memory step */
    size_t mem_bytes;
    char mem_note[160];
    int mem_ok;
    /* supervision */
    _Atomic size_t progress;    /* bumped by the timed loop (relaxed: a heartbeat) */
    _Atomic int done;           /* tasks finished */
    bench_failure_t failure;
} mc_state_t;

/* A receive that failed or delivered the wrong item: quiet when the run
 * has already failed (the receiver was unblocked on purpose). Returns -1
 * when the caller must stop. */
static int check_item(mc_state_t *st, const char *what, int rc, uint32_t got, uint32_t want)
{
    char buf[96];
    if (bench_failure_is_set(&st->failure))
        return -1;
    if (rc != 0) {
        bench_failure_set(&st->failure, "%s: %s of item %u failed: %s", st->m->name, what, want,
                          err_text(rc, buf, sizeof buf));
        return -1;
    }
    if (got != want) {
        bench_failure_set(&st->failure,
                          "%s: %s delivered item %u where %u was due (lost, duplicated or reordered)",
                          st->m->name, what, got, want);
        return -1;
    }
    return 0;
}

static void isr_handler(void *arg)
{
    mc_state_t *st = arg;
    bool woken = false;
    int rc = 0;
    for (uint32_t k = 0; k < ISR_ITEMS && rc == 0; k++)
        rc = st->m->isr_send(st->obj[0], k, &woken);
    st->isr_rc = rc;
    rtipc_irq_yield(woken);
    /* Release: pairs with the acquire in isr_check; publishes isr_rc. */
    atomic_store_explicit(&st->isr_ran, 1, memory_order_release);
}

/* Send ISR_ITEMS items from a real interrupt handler on core 0 and receive
 * them here. Sequence numbers 0 .. ISR_ITEMS-1. */
static int isr_check(mc_state_t *st, uint32_t *seq)
{
    char buf[96];
    int rc = bench_target_irq_trigger(st->irq);
    if (rc != 0) {
        bench_failure_set(&st->failure, "%s: rtipc_irq_trigger: %s", st->m->name, rtipc_strerror(rc));
        return -1;
    }
    int64_t deadline = bench_now_ns() + STALL_NS;
    while (!atomic_load_explicit(&st->isr_ran, memory_order_acquire)) {
        if (bench_now_ns() > deadline) {
            bench_failure_set(&st->failure, "%s: the interrupt handler did not run within 2 s", st->m->name);
            return -1;
        }
        bench_sleep_ns(50000);
    }
    if (st->isr_rc != 0) {
        bench_failure_set(&st->failure, "%s: send from the interrupt handler failed: %s", st->m->name,
                          err_text(st->isr_rc, buf, sizeof buf));
        return -1;
    }
    for (uint32_t k = 0; k < ISR_ITEMS; k++) {
        uint32_t v = POISON;
        int rc2 = st->m->recv(st->obj[0], &v);
        if (check_item(st, "receive (items sent by the handler)", rc2, v, k))
            return -1;
    }
    *seq += ISR_ITEMS;
    st->isr_ok = 1;
    return 0;
}

/* Fill with LEN items without blocking (they must all fit), measure, then
 * drain them in order. */
static int memory_step(mc_state_t *st, uint32_t *seq)
{
    char buf[96];
    for (uint32_t k = 0; k < LEN; k++) {
        int rc = st->m->try_send(st->obj[0], *seq + k);
        if (rc != 0) {
            bench_failure_set(&st->failure, "%s: only %u of %d 4-byte items fit (%s)", st->m->name, k, LEN,
                              err_text(rc, buf, sizeof buf));
            return -1;
        }
    }
    int rc = st->m->memory(st->obj[0], &st->mem_bytes, st->mem_note, sizeof st->mem_note);
    if (rc != 0) {
        bench_failure_set(&st->failure, "%s: memory measurement: %s", st->m->name,
                          err_text(rc, buf, sizeof buf));
        return -1;
    }
    for (uint32_t k = 0; k < LEN; k++) {
        uint32_t v = POISON;
        rc = st->m->recv(st->obj[0], &v);
        if (check_item(st, "receive (memory step)", rc, v, *seq + k))
            return -1;
    }
    *seq += LEN;
    st->mem_ok = 1;
    return 0;
}

/* a / b rounded to the nearest integer, for either sign of a (b > 0). */
static int64_t div_round(int64_t a, int64_t b)
{
    return a >= 0 ? (a + b / 2) / b : -((-a + b / 2) / b);
}

/* Core 1: interrupt check, memory step, then send/receive pairs in one
 * task: the send finds nobody waiting and room; the receive finds the item. */
static void overhead_task(void *arg)
{
    mc_state_t *st = arg;
    const mech_t *m = st->m;
    void *o = st->obj[0];
    uint32_t seq = 0;
    char buf[96];
    if (st->irq && isr_check(st, &seq) != 0)
        goto out;
    if (m->memory && memory_step(st, &seq) != 0)
        goto out;
    size_t total = st->warmup + st->samples;
    for (size_t i = 0; i < total; i++, seq++) {
        if (bench_failure_is_set(&st->failure))
            break;
        int64_t t0 = bench_now_ns();
        int rc = m->send(o, seq);
        int64_t t1 = bench_now_ns();
        if (rc != 0) {
            bench_failure_set(&st->failure, "%s: send of item %u failed: %s", m->name, seq,
                              err_text(rc, buf, sizeof buf));
            break;
        }
        uint32_t v = POISON;
        rc = m->recv(o, &v);
        int64_t t2 = bench_now_ns();
        if (check_item(st, "receive", rc, v, seq))
            break;
        if (i >= st->warmup) {
            bench_samples_push(&st->send_s, t1 - t0 - st->ts_overhead);
            bench_samples_push(&st->recv_s, t2 - t1 - st->ts_overhead);
        }
        atomic_store_explicit(&st->progress, i + 1, memory_order_relaxed);
    }
    if (m->no_batch)
        goto out;
    /* BATCH sends between two timestamps, then BATCH receives: the
     * timestamp's 10 ns steps shrink to a BATCH-th per call. */
    size_t btotal = st->warmup / BATCH + st->batches;
    for (size_t i = 0; i < btotal; i++) {
        if (bench_failure_is_set(&st->failure))
            break;
        int rc = 0;
        int64_t t0 = bench_now_ns();
        for (uint32_t k = 0; k < BATCH && rc == 0; k++)
            rc = m->send(o, seq + k);
        int64_t t1 = bench_now_ns();
        if (rc != 0) {
            bench_failure_set(&st->failure, "%s: batched send failed: %s", m->name,
                              err_text(rc, buf, sizeof buf));
            break;
        }
        uint32_t v[BATCH], got = 0;
        while (got < BATCH && rc == 0)
            rc = m->recv(o, &v[got++]);
        int64_t t2 = bench_now_ns();
        for (uint32_t k = 0; k < got; k++)
            if (check_item(st, "batched receive", k + 1 == got ? rc : 0, v[k], seq + k))
                goto out;
        seq += BATCH;
        if (i >= btotal - st->batches) {
            bench_samples_push(&st->bsend_s, div_round(t1 - t0 - st->ts_overhead, BATCH));
            bench_samples_push(&st->brecv_s, div_round(t2 - t1 - st->ts_overhead, BATCH));
        }
        atomic_store_explicit(&st->progress, total + i + 1, memory_order_relaxed);
    }
out:
    atomic_fetch_add(&st->done, 1);
}

/* Core 1: ping through obj[0], wait for the echo through obj[1]. */
static void rt_initiator(void *arg)
{
    mc_state_t *st = arg;
    const mech_t *m = st->m;
    char buf[96];
    size_t total = st->rt_warmup + st->rt_samples;
    int64_t stop_at = st->rt_cap_ns ? bench_now_ns() + st->rt_cap_ns : INT64_MAX;
    for (size_t i = 0; i < total; i++) {
        if (bench_failure_is_set(&st->failure))
            break;
        if (i > st->rt_warmup && bench_now_ns() > stop_at) {
            /* Keep the experiment inside its time budget on a loaded machine;
             * the responder is told to stop with the poison item. */
            st->rt_capped = true;
            int rc = m->send(st->obj[0], POISON);
            if (rc != 0)
                bench_failure_set(&st->failure, "%s: stop item: send failed: %s", m->name,
                                  err_text(rc, buf, sizeof buf));
            break;
        }
        /* A pause so that the responder is parked in its receive again. */
        bench_spin_until(bench_now_ns() + bench_rng_range(&st->rng, 5000, 15000));
        int64_t t0 = bench_now_ns();
        int rc = m->send(st->obj[0], (uint32_t)i);
        if (rc != 0) {
            bench_failure_set(&st->failure, "%s: ping %zu: send failed: %s", m->name, i,
                              err_text(rc, buf, sizeof buf));
            break;
        }
        uint32_t v = POISON;
        rc = m->recv(st->obj[1], &v);
        int64_t t1 = bench_now_ns();
        if (check_item(st, "receive of the echo", rc, v, (uint32_t)i))
            break;
        if (i >= st->rt_warmup)
            bench_samples_push(&st->rt_s, t1 - t0);
        atomic_store_explicit(&st->progress, i + 1, memory_order_relaxed);
    }
    atomic_fetch_add(&st->done, 1);
}

/* Core 0: echo every ping. */
static void rt_responder(void *arg)
{
    mc_state_t *st = arg;
    const mech_t *m = st->m;
    char buf[96];
    size_t total = st->rt_warmup + st->rt_samples;
    for (size_t i = 0; i < total; i++) {
        uint32_t v = POISON;
        int rc = m->recv(st->obj[0], &v);
        if (rc == 0 && v == POISON && i > st->rt_warmup)
            break;  /* the initiator stopped at the time cap */
        if (check_item(st, "receive of the ping", rc, v, (uint32_t)i))
            break;
        rc = m->send(st->obj[1], v);
        if (rc != 0) {
            bench_failure_set(&st->failure, "%s: echo %zu: send failed: %s", m->name, i,
                              err_text(rc, buf, sizeof buf));
            break;
        }
    }
    atomic_fetch_add(&st->done, 1);
}

/* Start the tasks, watch them, and when one fails or nothing moves for
 * STALL_NS, unblock every receiver with a poison item; then join. */
static int supervise(bench_run_t *run, mc_state_t *st, const rtipc_task_config_t *cfg, int n)
{
    rtipc_task_t *t[2] = {NULL, NULL};
    int started = 0;
    atomic_store(&st->done, 0);
    atomic_store(&st->progress, 0);
    for (; started < n; started++) {
        int rc = rtipc_task_create(&cfg[started], &t[started]);
        if (rc != 0) {
            bench_failure_set(&st->failure, "%s: task creation: %s", st->m->name, rtipc_strerror(rc));
            break;
        }
    }
    size_t last = 0;
    int64_t last_t = bench_now_ns();
    bool poked = false;
    while (atomic_load(&st->done) < started) {
        bench_sleep_ns(2000000);
        size_t p = atomic_load_explicit(&st->progress, memory_order_relaxed);
        int64_t now = bench_now_ns();
        if (p != last) {
            last = p;
            last_t = now;
        } else if (now - last_t > STALL_NS) {
            bench_failure_set(&st->failure, "%s: no progress for 2 s after step %zu (item lost?)",
                              st->m->name, p);
        }
        if (bench_failure_is_set(&st->failure) && !poked) {
            for (int k = 0; k < 2; k++)
                if (st->obj[k])
                    (void)st->m->try_send(st->obj[k], POISON);
            poked = true;
        }
    }
    for (int k = 0; k < started; k++)
        rtipc_task_join(t[k]);
    if (bench_failure_is_set(&st->failure))
        return bench_fail(run, "%s", st->failure.why);
    return 0;
}

static int measure_mech(bench_run_t *run, const mech_t *m, mc_state_t *st)
{
    char why[160] = "";
    int rc = m->create(&st->obj[0], why, sizeof why);
    if (rc == 1) {
        bench_add_missing(run, m->name, why);
        return 0;
    }
    if (rc != 0)
        return bench_fail(run, "%s: %s", m->name, why);

    int result = 0;
    if (m->isr_send) {
        rc = bench_target_irq_create(bench_cpu(run, 0), isr_handler, st, &st->irq);
        if (rc != 0) {
            result = bench_fail(run, "%s: rtipc_irq_create: %s", m->name, rtipc_strerror(rc));
            goto out;
        }
    }
    rtipc_task_config_t ov = {.name = "mc-overhead", .priority = 10, .core = bench_cpu(run, 1),
                              .entry = overhead_task, .arg = st};
    result = supervise(run, st, &ov, 1);
    if (st->irq) {
        bench_target_irq_delete(st->irq);
        st->irq = NULL;
    }
    if (result != 0)
        goto out;

    if (m->create(&st->obj[1], why, sizeof why) != 0) {
        st->obj[1] = NULL;
        result = bench_fail(run, "%s (second instance): %s", m->name, why);
        goto out;
    }
    rtipc_task_config_t rt[2] = {
        {.name = "mc-responder", .priority = 12, .core = bench_cpu(run, 0), .entry = rt_responder, .arg = st},
        {.name = "mc-initiator", .priority = 10, .core = bench_cpu(run, 1), .entry = rt_initiator, .arg = st},
    };
    result = supervise(run, st, rt, 2);
    if (result != 0)
        goto out;
    if (st->rt_capped)
        bench_note(run, "%s: round trip stopped at its %.1f s time cap after %zu of %zu samples (loaded "
                   "machine)", m->name, (double)st->rt_cap_ns / 1e9, st->rt_s.n, st->rt_samples);

    if (!bench_add_dist(run, m->name, BENCH_VARIANT_ITEM_4, BENCH_METRIC_SEND_OVERHEAD, &st->send_s) ||
        !bench_add_dist(run, m->name, BENCH_VARIANT_ITEM_4, "receive-overhead", &st->recv_s) ||
        !bench_add_dist(run, m->name, BENCH_VARIANT_ITEM_4, BENCH_METRIC_ROUND_TRIP, &st->rt_s)) {
        result = -1;
        goto out;
    }
    if (!m->no_batch &&
        (!bench_add_dist(run, m->name, BATCH_VARIANT, BENCH_METRIC_SEND_OVERHEAD, &st->bsend_s) ||
         !bench_add_dist(run, m->name, BATCH_VARIANT, "receive-overhead", &st->brecv_s))) {
        result = -1;
        goto out;
    }
    bench_result_t *r = bench_add_value(run, m->name, BENCH_VARIANT_ITEM_4, BENCH_METRIC_ISR_SAFE, "bool",
                                        st->isr_ok);
    if (r && !st->isr_ok)
        snprintf(r->note, sizeof r->note, "no interrupt-safe send offered");
    else if (r)
        snprintf(r->note, sizeof r->note, "%d items sent from an rtipc interrupt handler, received in order",
                 ISR_ITEMS);
    if (st->mem_ok) {
        r = bench_add_value(run, m->name, BENCH_VARIANT_LEN_100_ITEM_4, BENCH_METRIC_MEMORY, "B",
                            (double)st->mem_bytes);
        if (r)
            snprintf(r->note, sizeof r->note, "%s", st->mem_note);
    }
out:
    for (int k = 0; k < 2; k++)
        if (st->obj[k])
            m->destroy(st->obj[k]);
    return result;
}

static int run_mechanism_compare(bench_run_t *run)
{
    mc_state_t *st = calloc(1, sizeof *st);
    if (!st)
        return bench_fail(run, "out of memory");
    size_t samples = bench_sample_count(run, 50000, 3000);
    size_t rt_samples = bench_sample_count(run, 10000, 1000);
    size_t batches = samples / BATCH;  /* as many calls as the unbatched rows */
    int result = 0;
    if (bench_samples_init(&st->send_s, samples) || bench_samples_init(&st->recv_s, samples) ||
        bench_samples_init(&st->rt_s, rt_samples) || bench_samples_init(&st->bsend_s, batches) ||
        bench_samples_init(&st->brecv_s, batches)) {
        result = bench_fail(run, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < N_MECHS && result == 0; i++) {
        bench_progress(run, (double)i / N_MECHS);
        mc_state_t *s = st;
        /* Fresh state per mechanism; the sample buffers are kept. */
        bench_samples_t keep[5] = {s->send_s, s->recv_s, s->rt_s, s->bsend_s, s->brecv_s};
        memset(s, 0, sizeof *s);
        s->send_s = keep[0];
        s->recv_s = keep[1];
        s->rt_s = keep[2];
        s->bsend_s = keep[3];
        s->brecv_s = keep[4];
        s->send_s.n = s->recv_s.n = s->rt_s.n = s->bsend_s.n = s->brecv_s.n = 0;
        s->m = &mechs[i];
        s->ts_overhead = llround(bench_timestamp_overhead_ns(run));
        s->samples = samples;
        s->warmup = bench_warmup_count(run, samples);
        s->batches = batches;
        s->rt_samples = rt_samples;
        s->rt_warmup = bench_warmup_count(run, rt_samples);
        /* Nine mechanisms must fit the experiment's budget; an explicit
         * --samples is obeyed whatever it costs. */
        s->rt_cap_ns = bench_samples_fixed(run) ? 0 : bench_quick(run) ? 100000000 : 700000000;
        bench_rng_init(&s->rng, run, i);
        result = measure_mech(run, &mechs[i], s);
    }
    bench_progress(run, 1.0);
    if (result != 0)
        goto out;

    /* Ratios from the batched rows: the unbatched p50s sit on the
     * timestamp's 10 ns steps. */
    /* (Rows move when rows are added: keep values, not pointers.) */
    const char *e = BENCH_EXP_MECHANISM_COMPARE, *send = BENCH_METRIC_SEND_OVERHEAD;
    const bench_result_t *q = bench_find(run, e, BENCH_MECH_RTIPC_QUEUE, BATCH_VARIANT, send);
    double q50 = q ? q->stats.p50 : 0;
    for (size_t i = 0; q50 > 0 && i < N_MECHS; i++) {
        const bench_result_t *r = bench_find(run, e, mechs[i].name, BATCH_VARIANT, send);
        if (r) {
            double ratio = r->stats.p50 / q50;
            bench_add_value(run, mechs[i].name, BATCH_VARIANT, "send-vs-rtipc-queue", "x", ratio);
        }
    }
    bench_note(run, "send/receive overhead: %lld ns of timestamp overhead subtracted from every sample "
               "(so a sample can fall slightly below 0); round-trip includes it",
               (long long)llround(bench_timestamp_overhead_ns(run)));
    bench_note(run, "eventfd carries no payload: the sequence number goes through a shared variable "
               "(stored before the write, loaded after the read; the read must return a count of 1)");
    bench_note(run, "pipe, eventfd, posix-mq: their memory is in the kernel, so no memory row");
    bench_note(run, "heap queues' memory: the control structure plus the heap blocks live with 100 "
               "items, as malloc_usable_size reports them");
    if (mq_maxmsg_used && mq_maxmsg_used != LEN)
        bench_note(run, "posix-mq: the kernel refused depth %d; measured with depth %d (at most one "
                   "message is in flight)", LEN, mq_maxmsg_used);
out:
    bench_samples_free(&st->send_s);
    bench_samples_free(&st->recv_s);
    bench_samples_free(&st->rt_s);
    bench_samples_free(&st->bsend_s);
    bench_samples_free(&st->brecv_s);
    free(st);
    return result || bench_failed(run) ? -1 : 0;
}

const bench_experiment_t exp_mechanism_compare = {
    .id = BENCH_EXP_MECHANISM_COMPARE,
    .summary = EXP_MECHANISM_COMPARE_SUMMARY,
    .requires = EXP_MECHANISM_COMPARE_REQUIRES,
    .definitions =
        "Mechanisms: rtipc-queue (depth 100, 4-byte items), rtipc-ringbuf-nosplit/-allowsplit\n"
        "  (800 B storage = 100 items of 4 B header + 4 B data), rtipc-ringbuf-bytebuf (400 B; copying\n"
        "  send, receive_up_to + return), std-queue-mutex (C++ std::queue<uint32_t> + std::mutex +\n"
        "  std::condition_variable: lock, push, unlock, notify_one), mutex-condvar (C pthread mutex +\n"
        "  condvar + a list node malloc'd per send and freed per receive), pipe (4-byte write/read),\n"
        "  eventfd (no payload: the sequence number goes through a shared variable, the count must\n"
        "  read 1), posix-mq (mq_send/mq_receive of 4 bytes, depth 100). All items are 4 bytes and\n"
        "  carry a sequence number checked on receipt; blocking calls are used throughout.\n"
        "send-overhead: one task on core 1 (priority 10) alternates send and receive. Timestamp just\n"
        "  before the send call and just after it returns, minus the timestamp overhead; nobody is\n"
        "  waiting and the mechanism is never full (it holds nothing). The receive is outside it.\n"
        "receive-overhead: same loop; timestamp after the send returned to timestamp after the\n"
        "  receive returned, minus the timestamp overhead: an item is present, nobody waits.\n"
        "  Ring buffers: receive + copy out + return of the space.\n"
        "round-trip: a task on core 1 (priority 10) sends item i through one instance and blocks on a\n"
        "  second instance; a task on core 0 (priority 12), blocked in its receive, echoes i back.\n"
        "  From the core-1 timestamp before the send to the core-1 timestamp after the echo's\n"
        "  receive returned (two cross-core wake-ups of a sleeping receiver). A random 5-15 us pause\n"
        "  before each ping lets the echoing task park again. On a loaded machine the phase stops\n"
        "  after 0.7 s (quick 0.1 s) with fewer samples, and a note says so.\n"
        "isr-safe: 1 when the library offers a send callable from an interrupt handler: for rtipc\n"
        "  objects checked by sending 10 items from a real rtipc interrupt handler on core 0 and\n"
        "  receiving them in order; 0 for the others (no interrupt-context send exists).\n"
        "memory (len=100,item=4): bytes with 100 items stored. rtipc: the object's footprint function\n"
        "  (control block + storage), after checking that 100 items fit without blocking. Heap\n"
        "  queues: control structure + the heap blocks live with 100 items (malloc_usable_size;\n"
        "  std::deque allocates 512-byte blocks, measured with a counting allocator). OS peers: the\n"
        "  memory is in the kernel: no row.\n"
        "item=4,batch=8 (send-overhead, receive-overhead): the same loop with 8 sends between two\n"
        "  timestamps, then 8 receives between two: (t_after - t_before - timestamp overhead) / 8 per\n"
        "  sample, so the timestamp's 10 ns steps shrink to 1.25 ns. The mechanism holds 0..7 items\n"
        "  during the sends (never full, nobody waiting). Not for eventfd (its count merges signals).\n"
        "send-vs-rtipc-queue (item=4,batch=8): a mechanism's batched send-overhead p50 divided by\n"
        "  rtipc-queue's.",
    .run = run_mechanism_compare,
};
