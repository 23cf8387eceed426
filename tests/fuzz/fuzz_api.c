/* libFuzzer harness for the rtipc API (tests/fuzz/README.md).
 *
 * The input is a program: each step takes one byte that names an operation,
 * then the bytes that operation needs (missing bytes read as 0). Operations
 * cover every object type, invalid arguments, handles of the wrong type or
 * of a deleted object, static or dynamic (refused by the handle table, which
 * a call consults before it touches any memory), and interrupt context: an
 * "in handler" prefix
 * runs the next operation inside an rtipc interrupt handler (rtipc_irq_*),
 * where task-only calls must fail with RTIPC_ECONTEXT.
 *
 * Every result is checked against a small model of the documented semantics
 * kept here (plain arrays per object); a mismatch prints the call and
 * aborts. Only non-blocking calls, timeouts the model knows cannot block
 * forever, and 1 us timeouts are used. Every object is deleted at the end of
 * each input, so LeakSanitizer sees any leak. The harness keeps no state
 * from one input to the next except the interrupt source and the adopted
 * main task, so a run is deterministic per input. */
#define _POSIX_C_SOURCE 200809L
#include <rtipc/rtipc.h>

#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- input, failure, context ------------------------------------------------ */
static const uint8_t *in_data;
static size_t in_size, in_pos;
static unsigned step; /* operation number within the input, for messages */

static unsigned u8(void) { return in_pos < in_size ? in_data[in_pos++] : 0; }
static unsigned u16(void) { return u8() | u8() << 8; }
static uint32_t u32(void) { return (uint32_t)u16() | (uint32_t)u16() << 16; }

__attribute__((format(printf, 2, 3), noreturn)) static void fail(const char *call, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "fuzz_api: step %u: %s: ", step, call);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

#define CHECK(call, cond, ...)                                                                                 \
    do {                                                                                                       \
        if (!(cond))                                                                                           \
            fail(call, __VA_ARGS__);                                                                           \
    } while (0)

/* True while the current operation runs inside the interrupt handler. */
static bool g_isr;

/* FUZZ_API_TRACE=1 in the environment: one line per step on stderr (which
 * object each step addressed and where the input stood), to see what a
 * corpus file or a crash input does. */
static bool trace;

/* Any-context call: rc must be want. */
static void expect(const char *call, int rc, int want)
{
    CHECK(call, rc == want, "returned %d (%s), the model expects %d (%s)%s", rc, rtipc_strerror(rc), want,
          rtipc_strerror(want), g_isr ? " [in handler]" : "");
}

/* Task-only call: in a handler it must fail with RTIPC_ECONTEXT (or with
 * RTIPC_EINVAL when the arguments are invalid too: the order of the checks
 * is not documented) and change nothing. Returns true when the call ran in
 * task context, i.e. the model applies. */
static bool expect_task(const char *call, int rc, int want)
{
    if (g_isr) {
        CHECK(call, rc == RTIPC_ECONTEXT || (want == RTIPC_EINVAL && rc == RTIPC_EINVAL),
              "returned %d (%s) in a handler, expected RTIPC_ECONTEXT", rc, rtipc_strerror(rc));
        return false;
    }
    expect(call, rc, want);
    return true;
}

/* A timeout for a call that would block (would_block) or not. *block_rc is
 * the code the call returns when it would block. RTIPC_FOREVER and other
 * negative values (also "forever") only when the call cannot block. */
static rtipc_timeout_t pick_timeout(bool would_block, int *block_rc)
{
    rtipc_timeout_t t = RTIPC_NO_WAIT;
    switch (u8() % 8) {
    case 5:
        t = rtipc_ns(1000);
        break;
    case 6:
        t = would_block ? rtipc_ns(1) : RTIPC_FOREVER;
        break;
    case 7:
        if (!would_block)
            t = (rtipc_timeout_t){-(int64_t)u16() - 2};
        break;
    default:
        break;
    }
    *block_rc = t.ns == 0 ? RTIPC_EWOULDBLOCK : RTIPC_ETIMEDOUT;
    return t;
}

/* A spin budget: valid or not; returns the expected code. */
static int64_t pick_spin(int *want)
{
    static const int64_t v[] = {RTIPC_SPIN_DEFAULT, 0, 1000, RTIPC_SPIN_MAX_NS, RTIPC_SPIN_MAX_NS + 1, -2, INT64_MIN};
    int64_t ns = v[u8() % 7];
    *want = ns == RTIPC_SPIN_DEFAULT || (ns >= 0 && ns <= RTIPC_SPIN_MAX_NS) ? RTIPC_OK : RTIPC_EINVAL;
    return ns;
}

/* Deterministic payload bytes. */
static void fill(unsigned char *buf, size_t n)
{
    unsigned seed = u8();
    for (size_t i = 0; i < n; i++)
        buf[i] = (unsigned char)(seed + 37u * i + (i >> 3));
}

/* ---- a FIFO of byte records, the model of queues, rings and message buffers -- */
#define REC_MAX 72 /* the longest record: a ring buffer item (RB_MAXSIZE - 4) */
#define FIFO_MAX 64
typedef struct {
    unsigned char d[REC_MAX];
    size_t len;
} rec_t;
typedef struct {
    rec_t r[FIFO_MAX];
    size_t head, n;
} fifo_t;

static rec_t *fifo_at(fifo_t *f, size_t i) { return &f->r[(f->head + i) % FIFO_MAX]; }
static void fifo_push_back(fifo_t *f, const void *d, size_t len)
{
    if (f->n == FIFO_MAX)
        abort(); /* a harness bug: objects are sized to stay below FIFO_MAX */
    if (len > REC_MAX)
        abort();
    rec_t *r = fifo_at(f, f->n++);
    memcpy(r->d, d, len);
    r->len = len;
}
static void fifo_push_front(fifo_t *f, const void *d, size_t len)
{
    if (f->n == FIFO_MAX || len > REC_MAX)
        abort();
    f->head = (f->head + FIFO_MAX - 1) % FIFO_MAX;
    f->n++;
    memcpy(f->r[f->head].d, d, len);
    f->r[f->head].len = len;
}
static void fifo_pop_front(fifo_t *f)
{
    f->head = (f->head + 1) % FIFO_MAX;
    f->n--;
}

/* ---- objects ------------------------------------------------------------------- */
#define NSLOT 2
#define Q_MAXLEN 4
#define Q_MAXITEM 8

typedef struct {
    rtipc_queue_t *h;
    bool is_static;
    size_t len, isz;
    fifo_t m;
    struct rtipc_queueset *set;
    rtipc_queue_static_t cb;
    _Alignas(8) unsigned char storage[Q_MAXLEN * Q_MAXITEM];
} q_obj_t;

typedef struct {
    rtipc_sem_t *h;
    bool is_static;
    unsigned count, max;
    struct rtipc_queueset *set;
    rtipc_sem_static_t cb;
} s_obj_t;

typedef struct {
    rtipc_mutex_t *h;
    bool recursive;
    unsigned depth;
    rtipc_mutex_static_t cb;
} m_obj_t;

typedef struct {
    rtipc_eventgroup_t *h;
    uint32_t bits;
    rtipc_eventgroup_static_t cb;
} e_obj_t;

#define RB_MAXSIZE 64
#define RB_OUT_MAX 32
typedef struct {
    unsigned char *p;
    size_t len;
} rb_out_t;
typedef struct {
    rtipc_ringbuf_t *h;
    bool is_static;
    rtipc_ringbuf_type_t type;
    size_t size;         /* storage bytes after rounding */
    unsigned char *base; /* static: the storage passed */
    /* item types: every item acquired or sent and not yet received, in
     * order; acquired[i] tells an incomplete one (ptr in acq_ptr[i]). Byte
     * buffer: stored bytes not yet received in bytes[]. */
    fifo_t items;
    bool acquired[FIFO_MAX];
    unsigned char *acq_ptr[FIFO_MAX];
    unsigned char bytes[RB_MAXSIZE];
    size_t nbytes;
    rb_out_t out[RB_OUT_MAX]; /* received parts not yet returned */
    size_t nout;
    struct rtipc_queueset *set;
    rtipc_ringbuf_static_t cb;
    _Alignas(8) unsigned char storage[RB_MAXSIZE + 8];
} r_obj_t;

#define SB_MAXSIZE 40
typedef struct {
    void *h; /* rtipc_streambuf_t * or rtipc_msgbuf_t * */
    bool is_static;
    size_t size, trigger;
    unsigned char bytes[SB_MAXSIZE]; /* stream buffer contents */
    size_t n;
    fifo_t msgs; /* message buffer contents */
    size_t used;
    union {
        rtipc_streambuf_static_t s;
        rtipc_msgbuf_static_t m;
    } cb;
    unsigned char storage[RTIPC_STREAMBUF_STORAGE_SIZE(SB_MAXSIZE)];
} b_obj_t;

#define MX_MAXVAL 24
typedef struct {
    rtipc_mailbox_t *h;
    size_t vsz;
    unsigned char val[MX_MAXVAL];
    uint64_t version;
    rtipc_mailbox_static_t cb;
    _Alignas(8) unsigned char storage[RTIPC_MAILBOX_STORAGE_SIZE(MX_MAXVAL) + 8];
} x_obj_t;

#define SP_MAXCAP 8
typedef struct {
    rtipc_spsc_t *h;
    size_t cap, isz;
    fifo_t m;
    rtipc_spsc_static_t cb;
    unsigned char storage[SP_MAXCAP * Q_MAXITEM];
} p_obj_t;

#define SET_MAXLEN 16
typedef struct {
    rtipc_queueset_t *h;
    size_t len, used_cap;
    unsigned members;
    void *ev[SET_MAXLEN];
    size_t ev_head, ev_n;
    int64_t overflows;
} t_obj_t;

static q_obj_t Q[NSLOT];
static s_obj_t S[NSLOT];
static m_obj_t M[NSLOT];
static e_obj_t E[NSLOT];
static r_obj_t R[NSLOT + 1];
static b_obj_t SB[NSLOT];
static b_obj_t MB[NSLOT];
static x_obj_t X[NSLOT];
static p_obj_t P[NSLOT];
static t_obj_t T[NSLOT];

/* Handles of deleted objects, static or dynamic: the library must refuse
 * them, even once a new object lives in the same memory (a static cb here
 * is re-created in place; a freed block is reused by the allocator). */
#define STALE_MAX 32
static void *stale[STALE_MAX];
static size_t nstale;
static void stale_add(void *h)
{
    if (nstale < STALE_MAX)
        stale[nstale++] = h;
}

/* ---- queue sets (events of members) -------------------------------------------- */
static t_obj_t *set_of(struct rtipc_queueset *h)
{
    for (int i = 0; i < NSLOT; i++)
        if (T[i].h && (struct rtipc_queueset *)T[i].h == h)
            return &T[i];
    return NULL;
}
static void set_post(struct rtipc_queueset *h, void *member, size_t times)
{
    t_obj_t *t = h ? set_of(h) : NULL;
    for (size_t k = 0; t && k < times; k++) {
        if (t->ev_n == t->len) {
            t->overflows++;
        } else {
            t->ev[(t->ev_head + t->ev_n) % SET_MAXLEN] = member;
            t->ev_n++;
        }
    }
}

/* A member was reset or removed: its events leave the set, the others keep
 * their order. */
static void set_forget(struct rtipc_queueset *h, void *member)
{
    t_obj_t *t = h ? set_of(h) : NULL;
    if (!t)
        return;
    size_t kept = 0;
    for (size_t i = 0; i < t->ev_n; i++) {
        void *e = t->ev[(t->ev_head + i) % SET_MAXLEN];
        if (e != member)
            t->ev[(t->ev_head + kept++) % SET_MAXLEN] = e;
    }
    t->ev_n = kept;
}

/* ---- queues --------------------------------------------------------------------- */
static void q_check_counts(q_obj_t *o)
{
    expect("rtipc_queue_messages_waiting", rtipc_queue_messages_waiting(o->h), (int)o->m.n);
    expect("rtipc_queue_spaces_available", rtipc_queue_spaces_available(o->h), (int)(o->len - o->m.n));
}

static void op_queue(void)
{
    q_obj_t *o = &Q[u8() % NSLOT];
    unsigned char item[Q_MAXITEM], got[Q_MAXITEM];
    bool woken = false;
    unsigned what = u8() % 20;
    int rc, brc;
    if (!o->h) {
        /* create: dynamic or static, valid or not */
        size_t len = 1 + u8() % Q_MAXLEN, isz = 1 + u8() % Q_MAXITEM;
        unsigned bad = u8() % 8;
        rtipc_queue_t **out = &o->h;
        int want = RTIPC_OK;
        if (bad == 1)
            len = 0, want = RTIPC_EINVAL;
        else if (bad == 2)
            isz = 0, want = RTIPC_EINVAL;
        else if (bad == 3)
            len = (size_t)INT32_MAX + 1, want = RTIPC_EINVAL;
        else if (bad == 4)
            out = NULL, want = RTIPC_EINVAL;
        o->is_static = what & 1;
        if (o->is_static) {
            rc = rtipc_queue_create_static(len, isz, bad == 5 ? NULL : o->storage, &o->cb, out);
            if (bad == 5)
                want = RTIPC_EINVAL;
            expect("rtipc_queue_create_static", rc, want);
        } else {
            rc = rtipc_queue_create(len, isz, out);
            expect_task("rtipc_queue_create", rc, want);
        }
        if (rc != RTIPC_OK) {
            o->h = NULL;
            return;
        }
        o->len = len, o->isz = isz, o->m.n = 0, o->set = NULL;
        CHECK("rtipc_queue_footprint", rtipc_queue_footprint(o->h) == rtipc_queue_footprint_for(len, isz),
              "footprint %zu != footprint_for %zu", rtipc_queue_footprint(o->h), rtipc_queue_footprint_for(len, isz));
        q_check_counts(o);
        return;
    }
    bool full = o->m.n == o->len, empty = o->m.n == 0;
    switch (what) {
    case 0: /* delete */
        rc = rtipc_queue_delete(o->h);
        if (expect_task("rtipc_queue_delete", rc, o->set ? RTIPC_EBUSY : RTIPC_OK) && rc == RTIPC_OK) {
            stale_add(o->h);
            o->h = NULL;
        }
        return;
    case 1:
    case 2: { /* send / send_to_front */
        bool front = what == 2, null_item = u8() % 16 == 0;
        fill(item, o->isz);
        rtipc_timeout_t t = pick_timeout(full, &brc);
        rc = front ? rtipc_queue_send_to_front(o->h, null_item ? NULL : item, t)
                   : rtipc_queue_send(o->h, null_item ? NULL : item, t);
        int want = null_item ? RTIPC_EINVAL : full ? brc : RTIPC_OK;
        if (expect_task(front ? "rtipc_queue_send_to_front" : "rtipc_queue_send", rc, want) && rc == RTIPC_OK) {
            (front ? fifo_push_front : fifo_push_back)(&o->m, item, o->isz);
            set_post(o->set, o->h, 1);
        }
        break;
    }
    case 3:
    case 4: { /* from_isr sends */
        bool front = what == 4;
        fill(item, o->isz);
        rc = front ? rtipc_queue_send_to_front_from_isr(o->h, item, u8() & 1 ? &woken : NULL)
                   : rtipc_queue_send_from_isr(o->h, item, u8() & 1 ? &woken : NULL);
        expect(front ? "rtipc_queue_send_to_front_from_isr" : "rtipc_queue_send_from_isr", rc,
               full ? RTIPC_EWOULDBLOCK : RTIPC_OK);
        if (rc == RTIPC_OK) {
            (front ? fifo_push_front : fifo_push_back)(&o->m, item, o->isz);
            set_post(o->set, o->h, 1);
        }
        break;
    }
    case 5:
    case 6: { /* receive / peek */
        bool peek = what == 6, null_item = u8() % 16 == 0;
        rtipc_timeout_t t = pick_timeout(empty, &brc);
        rc = peek ? rtipc_queue_peek(o->h, null_item ? NULL : got, t)
                  : rtipc_queue_receive(o->h, null_item ? NULL : got, t);
        int want = null_item ? RTIPC_EINVAL : empty ? brc : RTIPC_OK;
        if (expect_task(peek ? "rtipc_queue_peek" : "rtipc_queue_receive", rc, want) && rc == RTIPC_OK) {
            CHECK(peek ? "rtipc_queue_peek" : "rtipc_queue_receive", !memcmp(got, fifo_at(&o->m, 0)->d, o->isz),
                  "item differs from the model's front item");
            if (!peek)
                fifo_pop_front(&o->m);
        }
        break;
    }
    case 7:
    case 8: { /* receive_from_isr / peek_from_isr */
        bool peek = what == 8;
        rc = peek ? rtipc_queue_peek_from_isr(o->h, got) : rtipc_queue_receive_from_isr(o->h, got, &woken);
        expect(peek ? "rtipc_queue_peek_from_isr" : "rtipc_queue_receive_from_isr", rc,
               empty ? RTIPC_EWOULDBLOCK : RTIPC_OK);
        if (rc == RTIPC_OK) {
            CHECK("rtipc_queue_receive/peek_from_isr", !memcmp(got, fifo_at(&o->m, 0)->d, o->isz),
                  "item differs from the model's front item");
            if (!peek)
                fifo_pop_front(&o->m);
        }
        break;
    }
    case 9:
    case 10: { /* overwrite */
        bool isr_variant = what == 10, null_item = u8() % 16 == 0;
        fill(item, o->isz);
        int want = null_item ? RTIPC_EINVAL : o->len != 1 ? RTIPC_ENOTSUP : RTIPC_OK;
        bool applies;
        if (isr_variant) {
            rc = rtipc_queue_overwrite_from_isr(o->h, null_item ? NULL : item, &woken);
            expect("rtipc_queue_overwrite_from_isr", rc, want);
            applies = true;
        } else {
            rc = rtipc_queue_overwrite(o->h, null_item ? NULL : item);
            applies = expect_task("rtipc_queue_overwrite", rc, want);
        }
        if (applies && rc == RTIPC_OK) {
            if (empty)
                set_post(o->set, o->h, 1); /* a set hears of it only when it was empty */
            o->m.n = 0;
            fifo_push_back(&o->m, item, o->isz);
        }
        break;
    }
    case 11: /* reset */
        rc = rtipc_queue_reset(o->h);
        if (expect_task("rtipc_queue_reset", rc, RTIPC_OK)) {
            o->m.n = 0;
            set_forget(o->set, o->h); /* a select never names an emptied queue */
        }
        break;
    case 12: { /* spin setting */
        int want;
        int64_t ns = pick_spin(&want);
        expect("rtipc_queue_set_spin", rtipc_queue_set_spin(o->h, ns), want);
        break;
    }
    case 13: /* NULL handle */
        expect("rtipc_queue_messages_waiting(NULL)", rtipc_queue_messages_waiting(NULL), RTIPC_EINVAL);
        expect_task("rtipc_queue_send(NULL)", rtipc_queue_send(NULL, item, RTIPC_NO_WAIT), RTIPC_EINVAL);
        expect("rtipc_queue_receive_from_isr(NULL)", rtipc_queue_receive_from_isr(NULL, got, NULL), RTIPC_EINVAL);
        CHECK("rtipc_queue_footprint(NULL)", rtipc_queue_footprint(NULL) == 0, "not 0");
        CHECK("rtipc_queue_footprint_for(0, 1)", rtipc_queue_footprint_for(0, 1) == 0, "not 0");
        break;
    default:
        break;
    }
    q_check_counts(o);
}

/* ---- semaphores ------------------------------------------------------------------ */
static void op_sem(void)
{
    s_obj_t *o = &S[u8() % NSLOT];
    unsigned what = u8() % 12;
    bool woken = false;
    int rc, brc;
    if (!o->h) {
        unsigned kind = what % 3, bad = u8() % 8;
        unsigned max = 1 + u8() % 6, initial = u8() % (max + 1);
        rtipc_sem_t **out = bad == 1 ? NULL : &o->h;
        if (bad == 2)
            max = 0;
        else if (bad == 3)
            initial = max + 1;
        else if (bad == 4)
            max = (unsigned)INT32_MAX + 1u, initial = 0;
        int want = bad >= 1 && bad <= 4 ? RTIPC_EINVAL : RTIPC_OK;
        if (kind == 0) {
            if (bad >= 2 && bad <= 4)
                want = RTIPC_OK; /* binary: no max or initial to get wrong */
            max = 1, initial = 0;
            rc = rtipc_sem_create_binary(out);
            expect_task("rtipc_sem_create_binary", rc, want);
        } else if (kind == 1) {
            rc = rtipc_sem_create_counting(max, initial, out);
            expect_task("rtipc_sem_create_counting", rc, want);
        } else {
            rc = rtipc_sem_create_static(max, initial, bad == 5 ? NULL : &o->cb, out);
            expect("rtipc_sem_create_static", rc, bad == 5 ? RTIPC_EINVAL : want);
        }
        if (rc != RTIPC_OK) {
            o->h = NULL;
            return;
        }
        o->count = initial, o->max = max, o->set = NULL, o->is_static = kind == 2;
        return;
    }
    unsigned max = o->max;
    switch (what) {
    case 0:
        rc = rtipc_sem_delete(o->h);
        if (expect_task("rtipc_sem_delete", rc, o->set ? RTIPC_EBUSY : RTIPC_OK) && rc == RTIPC_OK) {
            stale_add(o->h);
            o->h = NULL;
            return;
        }
        break;
    case 1:
        rc = rtipc_sem_give(o->h);
        if (expect_task("rtipc_sem_give", rc, o->count == max ? RTIPC_EOVERFLOW : RTIPC_OK) && rc == RTIPC_OK) {
            o->count++;
            set_post(o->set, o->h, 1);
        }
        break;
    case 2:
        rc = rtipc_sem_give_from_isr(o->h, u8() & 1 ? &woken : NULL);
        expect("rtipc_sem_give_from_isr", rc, o->count == max ? RTIPC_EOVERFLOW : RTIPC_OK);
        if (rc == RTIPC_OK) {
            o->count++;
            set_post(o->set, o->h, 1);
        }
        break;
    case 3:
    case 4: {
        rtipc_timeout_t t = pick_timeout(o->count == 0, &brc);
        rc = rtipc_sem_take(o->h, t);
        if (expect_task("rtipc_sem_take", rc, o->count == 0 ? brc : RTIPC_OK) && rc == RTIPC_OK)
            o->count--;
        break;
    }
    case 5:
        rc = rtipc_sem_take_from_isr(o->h, &woken);
        expect("rtipc_sem_take_from_isr", rc, o->count == 0 ? RTIPC_EWOULDBLOCK : RTIPC_OK);
        if (rc == RTIPC_OK)
            o->count--;
        break;
    case 6: {
        int want;
        int64_t ns = pick_spin(&want);
        expect("rtipc_sem_set_spin", rtipc_sem_set_spin(o->h, ns), want);
        break;
    }
    case 7:
        expect("rtipc_sem_give(NULL)", g_isr ? RTIPC_EINVAL : rtipc_sem_give(NULL), RTIPC_EINVAL);
        expect("rtipc_sem_count(NULL)", rtipc_sem_count(NULL), RTIPC_EINVAL);
        expect("rtipc_sem_take_from_isr(NULL)", rtipc_sem_take_from_isr(NULL, NULL), RTIPC_EINVAL);
        CHECK("rtipc_sem_footprint", rtipc_sem_footprint(o->h) == rtipc_sem_footprint(NULL), "differs from NULL's");
        break;
    default:
        break;
    }
    expect("rtipc_sem_count", rtipc_sem_count(o->h), (int)o->count);
    expect("rtipc_sem_max", rtipc_sem_max(o->h), (int)max);
}

/* ---- mutexes --------------------------------------------------------------------- */
static void op_mutex(void)
{
    m_obj_t *o = &M[u8() % NSLOT];
    unsigned what = u8() % 8;
    int rc, brc;
    if (!o->h) {
        bool rec = u8() & 1, st = what & 1, bad = u8() % 8 == 0;
        if (st) {
            rc = rtipc_mutex_create_static(rec, &o->cb, bad ? NULL : &o->h);
            expect_task("rtipc_mutex_create_static", rc, bad ? RTIPC_EINVAL : RTIPC_OK);
        } else {
            rc = rtipc_mutex_create(rec, bad ? NULL : &o->h);
            expect_task("rtipc_mutex_create", rc, bad ? RTIPC_EINVAL : RTIPC_OK);
        }
        if (rc != RTIPC_OK) {
            o->h = NULL;
            return;
        }
        o->recursive = rec, o->depth = 0;
        return;
    }
    switch (what) {
    case 0:
        rc = rtipc_mutex_delete(o->h);
        if (expect_task("rtipc_mutex_delete", rc, o->depth ? RTIPC_EBUSY : RTIPC_OK) && rc == RTIPC_OK) {
            stale_add(o->h);
            o->h = NULL;
            return;
        }
        break;
    case 1:
    case 2:
    case 3: {
        /* never blocks: free, or held by this task */
        rtipc_timeout_t t = pick_timeout(false, &brc);
        rc = rtipc_mutex_lock(o->h, t);
        int want = o->depth && !o->recursive ? RTIPC_EDEADLOCK : RTIPC_OK;
        if (expect_task("rtipc_mutex_lock", rc, want) && rc == RTIPC_OK)
            o->depth++;
        break;
    }
    case 4:
    case 5:
        rc = rtipc_mutex_unlock(o->h);
        if (expect_task("rtipc_mutex_unlock", rc, o->depth ? RTIPC_OK : RTIPC_EPERM) && rc == RTIPC_OK)
            o->depth--;
        break;
    case 6: {
        int want;
        int64_t ns = pick_spin(&want);
        expect("rtipc_mutex_set_spin", rtipc_mutex_set_spin(o->h, ns), want);
        break;
    }
    default:
        if (!g_isr) {
            expect("rtipc_mutex_lock(NULL)", rtipc_mutex_lock(NULL, RTIPC_NO_WAIT), RTIPC_EINVAL);
            expect("rtipc_mutex_unlock(NULL)", rtipc_mutex_unlock(NULL), RTIPC_EINVAL);
        }
        CHECK("rtipc_mutex_holder(NULL)", rtipc_mutex_holder(NULL) == NULL, "not NULL");
        break;
    }
    /* The holder is this (main) task, even when asked from the handler. */
    static rtipc_task_t *self;
    if (!g_isr && !self)
        self = rtipc_task_current();
    if (self)
        CHECK("rtipc_mutex_holder", rtipc_mutex_holder(o->h) == (o->depth ? self : NULL), "holder %p, model %u takes",
              (void *)rtipc_mutex_holder(o->h), o->depth);
}

/* ---- task notifications (slots of the main task) -------------------------------------- */
static uint32_t nv[RTIPC_NOTIFY_SLOTS];
static bool np[RTIPC_NOTIFY_SLOTS];
static rtipc_task_t *main_task;

static void op_notify(void)
{
    unsigned what = u8() % 10;
    unsigned idx = u8() % (RTIPC_NOTIFY_SLOTS + 2); /* out of range sometimes */
    bool bad_idx = idx >= RTIPC_NOTIFY_SLOTS;
    uint32_t arg = u32(), prev = 0xdeadbeef, val = 0xdeadbeef;
    bool woken = false;
    int rc, brc;
    switch (what) {
    case 0:
    case 1:
    case 2: { /* notify / notify_from_isr, every action and some unknown ones */
        unsigned a = u8() % 7;
        rtipc_notify_action_t action = (rtipc_notify_action_t)a;
        bool null_task = u8() % 16 == 0, with_prev = u8() & 1;
        int want = null_task || bad_idx || a > 4 ? RTIPC_EINVAL : RTIPC_OK;
        if (want == RTIPC_OK && a == RTIPC_NOTIFY_NO_OVERWRITE && np[idx])
            want = RTIPC_EPENDING;
        rtipc_task_t *tk = null_task ? NULL : main_task;
        bool applies;
        if (what == 2) {
            rc = rtipc_notify_from_isr(tk, idx, arg, action, with_prev ? &prev : NULL, &woken);
            expect("rtipc_notify_from_isr", rc, want);
            applies = true;
        } else {
            rc = rtipc_notify(tk, idx, arg, action, with_prev ? &prev : NULL);
            applies = expect_task("rtipc_notify", rc, want);
        }
        if (applies && (rc == RTIPC_OK || rc == RTIPC_EPENDING)) {
            if (with_prev)
                CHECK("rtipc_notify", prev == nv[idx], "previous %#x, model %#x", prev, nv[idx]);
            if (rc == RTIPC_OK) {
                if (a == RTIPC_NOTIFY_SET_BITS)
                    nv[idx] |= arg;
                else if (a == RTIPC_NOTIFY_INCREMENT)
                    nv[idx]++;
                else if (a == RTIPC_NOTIFY_OVERWRITE || a == RTIPC_NOTIFY_NO_OVERWRITE)
                    nv[idx] = arg;
                np[idx] = true;
            }
        }
        break;
    }
    case 3: { /* give / give_from_isr */
        bool isr_variant = u8() & 1, applies;
        if (isr_variant) {
            rc = rtipc_notify_give_from_isr(main_task, idx, &woken);
            expect("rtipc_notify_give_from_isr", rc, bad_idx ? RTIPC_EINVAL : RTIPC_OK);
            applies = true;
        } else {
            rc = rtipc_notify_give(main_task, idx);
            applies = expect_task("rtipc_notify_give", rc, bad_idx ? RTIPC_EINVAL : RTIPC_OK);
        }
        if (applies && rc == RTIPC_OK)
            nv[idx]++, np[idx] = true;
        break;
    }
    case 4:
    case 5: { /* take */
        bool clear = u8() & 1, with_val = u8() & 1;
        bool blocks = !bad_idx && nv[idx] == 0;
        rtipc_timeout_t t = pick_timeout(blocks, &brc);
        rc = rtipc_notify_take(idx, clear, with_val ? &val : NULL, t);
        int want = bad_idx ? RTIPC_EINVAL : blocks ? brc : RTIPC_OK;
        if (expect_task("rtipc_notify_take", rc, want) && !bad_idx) {
            if (rc == RTIPC_OK) {
                if (with_val)
                    CHECK("rtipc_notify_take", val == nv[idx], "value %#x, model %#x", val, nv[idx]);
                nv[idx] = clear ? 0 : nv[idx] - 1;
            }
            /* FreeRTOS: a take ends "pending" whether it got a count or not. */
            np[idx] = false;
        }
        break;
    }
    case 6:
    case 7: { /* wait */
        uint32_t entry = u8() & 1 ? u32() : 0, exitb = u8() & 1 ? u32() : 0;
        bool with_val = u8() & 1;
        bool blocks = !bad_idx && !np[idx];
        rtipc_timeout_t t = pick_timeout(blocks, &brc);
        rc = rtipc_notify_wait(idx, entry, exitb, with_val ? &val : NULL, t);
        int want = bad_idx ? RTIPC_EINVAL : blocks ? brc : RTIPC_OK;
        if (expect_task("rtipc_notify_wait", rc, want) && !bad_idx) {
            /* Entry bits clear only when the call really waits. */
            if (blocks && t.ns != 0)
                nv[idx] &= ~entry;
            if (with_val)
                CHECK("rtipc_notify_wait", val == nv[idx], "value %#x, model %#x", val, nv[idx]);
            if (rc == RTIPC_OK) {
                nv[idx] &= ~exitb;
                np[idx] = false;
            }
        }
        break;
    }
    case 8: { /* state_clear */
        bool null_task = u8() & 1;
        rc = rtipc_notify_state_clear(null_task ? NULL : main_task, idx);
        if (expect_task("rtipc_notify_state_clear", rc, bad_idx ? RTIPC_EINVAL : np[idx] ? 1 : 0) && !bad_idx)
            np[idx] = false;
        break;
    }
    default: { /* value_clear, spin */
        bool null_task = u8() & 1, with_prev = u8() & 1;
        rc = rtipc_notify_value_clear(null_task ? NULL : main_task, idx, arg, with_prev ? &prev : NULL);
        if (expect_task("rtipc_notify_value_clear", rc, bad_idx ? RTIPC_EINVAL : RTIPC_OK) && !bad_idx) {
            if (with_prev)
                CHECK("rtipc_notify_value_clear", prev == nv[idx], "previous %#x, model %#x", prev, nv[idx]);
            nv[idx] &= ~arg;
        }
        int want;
        int64_t ns = pick_spin(&want);
        expect_task("rtipc_notify_set_spin", rtipc_notify_set_spin(NULL, ns), want);
        break;
    }
    }
}

/* Bring the slots back to zero, not pending, for the next input. */
static void notify_reset(void)
{
    for (unsigned i = 0; i < RTIPC_NOTIFY_SLOTS; i++) {
        uint32_t prev;
        expect("rtipc_notify_value_clear(all)", rtipc_notify_value_clear(main_task, i, ~0u, &prev), RTIPC_OK);
        CHECK("rtipc_notify_value_clear(all)", prev == nv[i], "previous %#x, model %#x", prev, nv[i]);
        expect("rtipc_notify_state_clear", rtipc_notify_state_clear(NULL, i), np[i] ? 1 : 0);
        nv[i] = 0, np[i] = false;
    }
}

/* ---- event groups ---------------------------------------------------------------- */
static uint32_t pick_bits(void)
{
    switch (u8() % 4) {
    case 0:
        return 1u << (u8() % 32); /* a reserved bit 1 time in 4 */
    case 1:
        return u32() & RTIPC_EVENTGROUP_BITS_MASK;
    case 2:
        return u8() & 0x0f;
    default:
        return u32();
    }
}

static void op_eventgroup(void)
{
    e_obj_t *o = &E[u8() % NSLOT];
    unsigned what = u8() % 10;
    uint32_t v = 0xdeadbeef;
    bool woken = false;
    int rc, brc;
    if (!o->h) {
        bool bad = u8() % 8 == 0;
        if (what & 1) {
            rc = rtipc_eventgroup_create_static(&o->cb, bad ? NULL : &o->h);
            expect("rtipc_eventgroup_create_static", rc, bad ? RTIPC_EINVAL : RTIPC_OK);
        } else {
            rc = rtipc_eventgroup_create(bad ? NULL : &o->h);
            expect_task("rtipc_eventgroup_create", rc, bad ? RTIPC_EINVAL : RTIPC_OK);
        }
        if (rc != RTIPC_OK)
            o->h = NULL;
        o->bits = 0;
        return;
    }
    uint32_t bits = pick_bits();
    bool reserved = bits & ~RTIPC_EVENTGROUP_BITS_MASK;
    switch (what) {
    case 0:
        rc = rtipc_eventgroup_delete(o->h);
        if (expect_task("rtipc_eventgroup_delete", rc, RTIPC_OK)) {
            stale_add(o->h);
            o->h = NULL;
            return;
        }
        break;
    case 1:
    case 2: { /* set (task / isr) */
        bool isr_variant = what == 2, with_v = u8() & 1, applies;
        if (isr_variant) {
            rc = rtipc_eventgroup_set_bits_from_isr(o->h, bits, with_v ? &v : NULL, &woken);
            expect("rtipc_eventgroup_set_bits_from_isr", rc, reserved ? RTIPC_EINVAL : RTIPC_OK);
            applies = true;
        } else {
            rc = rtipc_eventgroup_set_bits(o->h, bits, with_v ? &v : NULL);
            applies = expect_task("rtipc_eventgroup_set_bits", rc, reserved ? RTIPC_EINVAL : RTIPC_OK);
        }
        if (applies && rc == RTIPC_OK) {
            o->bits |= bits;
            if (with_v)
                CHECK("rtipc_eventgroup_set_bits", v == o->bits, "value %#x, model %#x", v, o->bits);
        }
        break;
    }
    case 3:
    case 4: { /* clear */
        bool isr_variant = what == 4, with_v = u8() & 1, applies;
        if (isr_variant) {
            rc = rtipc_eventgroup_clear_bits_from_isr(o->h, bits, with_v ? &v : NULL);
            expect("rtipc_eventgroup_clear_bits_from_isr", rc, reserved ? RTIPC_EINVAL : RTIPC_OK);
            applies = true;
        } else {
            rc = rtipc_eventgroup_clear_bits(o->h, bits, with_v ? &v : NULL);
            applies = expect_task("rtipc_eventgroup_clear_bits", rc, reserved ? RTIPC_EINVAL : RTIPC_OK);
        }
        if (applies && rc == RTIPC_OK) {
            if (with_v)
                CHECK("rtipc_eventgroup_clear_bits", v == o->bits, "previous %#x, model %#x", v, o->bits);
            o->bits &= ~bits;
        }
        break;
    }
    case 5:
    case 6: { /* wait */
        bool clear = u8() & 1, all = u8() & 1, with_v = u8() & 1;
        bool inval = bits == 0 || reserved;
        bool met = !inval && (all ? (o->bits & bits) == bits : (o->bits & bits) != 0);
        rtipc_timeout_t t = pick_timeout(!inval && !met, &brc);
        rc = rtipc_eventgroup_wait_bits(o->h, bits, clear, all, with_v ? &v : NULL, t);
        if (expect_task("rtipc_eventgroup_wait_bits", rc, inval ? RTIPC_EINVAL : met ? RTIPC_OK : brc)) {
            if (with_v)
                CHECK("rtipc_eventgroup_wait_bits", v == (inval ? 0 : o->bits), "value %#x, model %#x", v,
                      inval ? 0 : o->bits);
            if (met && clear)
                o->bits &= ~bits;
        }
        break;
    }
    case 7: { /* sync */
        uint32_t wait_for = pick_bits();
        bool with_v = u8() & 1;
        bool inval = wait_for == 0 || reserved || (wait_for & ~RTIPC_EVENTGROUP_BITS_MASK);
        uint32_t after = o->bits | (inval ? 0 : bits);
        bool met = !inval && (after & wait_for) == wait_for;
        rtipc_timeout_t t = pick_timeout(!inval && !met, &brc);
        rc = rtipc_eventgroup_sync(o->h, bits, wait_for, with_v ? &v : NULL, t);
        if (expect_task("rtipc_eventgroup_sync", rc, inval ? RTIPC_EINVAL : met ? RTIPC_OK : brc)) {
            if (with_v)
                CHECK("rtipc_eventgroup_sync", v == (inval ? 0 : after), "value %#x, model %#x", v, inval ? 0 : after);
            if (!inval)
                o->bits = met ? after & ~wait_for : after;
        }
        break;
    }
    case 8: {
        int want;
        int64_t ns = pick_spin(&want);
        expect("rtipc_eventgroup_set_spin", rtipc_eventgroup_set_spin(o->h, ns), want);
        CHECK("rtipc_eventgroup_footprint", rtipc_eventgroup_footprint(o->h) == rtipc_eventgroup_footprint(NULL),
              "differs from NULL's");
        break;
    }
    default:
        expect("rtipc_eventgroup_get_bits(NULL)", rtipc_eventgroup_get_bits(NULL), RTIPC_EINVAL);
        expect("rtipc_eventgroup_set_bits_from_isr(NULL)", rtipc_eventgroup_set_bits_from_isr(NULL, 1, NULL, NULL),
               RTIPC_EINVAL);
        break;
    }
    expect("rtipc_eventgroup_get_bits", rtipc_eventgroup_get_bits(o->h), (int)o->bits);
}

/* ---- ring buffers ------------------------------------------------------------------ */
static size_t rb_idx(const r_obj_t *o, size_t i) { return (o->items.head + i) % FIFO_MAX; }

/* Items receivable now: the completed items before the first acquired one. */
static size_t rb_receivable(const r_obj_t *o)
{
    size_t i = 0;
    while (i < o->items.n && !o->acquired[rb_idx(o, i)])
        i++;
    return i;
}

static size_t rb_ready(const r_obj_t *o)
{
    size_t k = 0;
    for (size_t i = 0; i < o->items.n; i++)
        k += !o->acquired[rb_idx(o, i)];
    return k;
}

static bool rb_empty(const r_obj_t *o) { return o->items.n == 0 && o->nbytes == 0 && o->nout == 0; }

static void rb_check_ptr(const r_obj_t *o, const char *call, const unsigned char *p, size_t n)
{
    if (o->type != RTIPC_RINGBUF_BYTEBUF)
        CHECK(call, ((uintptr_t)p & 3) == 0, "pointer %p not 4-byte aligned", (const void *)p);
    if (o->is_static)
        CHECK(call, p >= o->base && p + n <= o->base + o->size, "pointer %p (%zu bytes) outside the storage",
              (const void *)p, n);
}

static void rb_out_add(r_obj_t *o, unsigned char *p, size_t n)
{
    if (o->nout == RB_OUT_MAX)
        abort();
    o->out[o->nout++] = (rb_out_t){p, n};
}

static void rb_check(r_obj_t *o)
{
    bool bytes = o->type == RTIPC_RINGBUF_BYTEBUF;
    int max = (int)(bytes ? o->size : o->size - RTIPC_RINGBUF_HEADER_SIZE);
    expect("rtipc_ringbuf_max_item_size", rtipc_ringbuf_max_item_size(o->h), max);
    expect("rtipc_ringbuf_items_waiting", rtipc_ringbuf_items_waiting(o->h), (int)(bytes ? o->nbytes : rb_ready(o)));
    int fs = rtipc_ringbuf_free_size(o->h), used = rtipc_ringbuf_bytes_used(o->h);
    CHECK("rtipc_ringbuf_free_size", fs >= 0 && fs <= max, "%d outside 0..%d", fs, max);
    CHECK("rtipc_ringbuf_bytes_used", used >= 0 && (size_t)used <= o->size, "%d outside 0..%zu", used, o->size);
    if (bytes) {
        size_t outb = o->nout ? o->out[0].len : 0;
        expect("rtipc_ringbuf_bytes_used", used, (int)(o->nbytes + outb));
        expect("rtipc_ringbuf_free_size", fs, (int)(o->size - o->nbytes - outb));
    } else if (rb_empty(o)) {
        expect("rtipc_ringbuf_free_size (empty)", fs, max);
        expect("rtipc_ringbuf_bytes_used (empty)", used, 0);
    } else {
        size_t need = 0;
        for (size_t i = 0; i < o->items.n; i++)
            need += RTIPC_RINGBUF_ITEM_BYTES(fifo_at(&o->items, i)->len);
        CHECK("rtipc_ringbuf_bytes_used", (size_t)used >= need, "%d below the %zu bytes of the stored items", used, need);
    }
    CHECK("rtipc_ringbuf_footprint", rtipc_ringbuf_footprint(o->h) > o->size, "not above the storage size");
}

/* The bytes of a receive from a byte buffer: the front of the stream. */
static void rb_take_bytes(r_obj_t *o, const char *call, unsigned char *p, size_t n, size_t max)
{
    CHECK(call, n >= 1 && n <= o->nbytes && n <= max, "size %zu, model has %zu bytes (max %zu)", n, o->nbytes, max);
    rb_check_ptr(o, call, p, n);
    CHECK(call, !memcmp(p, o->bytes, n), "bytes differ from the stream's front");
    if (o->is_static && n < o->nbytes && n < max)
        CHECK(call, p + n == o->base + o->size, "stopped short of the end of the storage with bytes left");
    memmove(o->bytes, o->bytes + n, o->nbytes - n);
    o->nbytes -= n;
    rb_out_add(o, p, n);
}

/* The front item of an item buffer, received whole or in two parts. */
static void rb_take_item(r_obj_t *o, const char *call, unsigned char *h, size_t hn, unsigned char *t, size_t tn)
{
    rec_t *r = fifo_at(&o->items, 0);
    CHECK(call, hn + tn == r->len, "size %zu + %zu, model item %zu", hn, tn, r->len);
    CHECK(call, hn > 0 && (t == NULL) == (tn == 0), "parts %p/%zu %p/%zu", (void *)h, hn, (void *)t, tn);
    rb_check_ptr(o, call, h, hn);
    CHECK(call, !memcmp(h, r->d, hn), "head bytes differ from the model's item");
    if (t) {
        rb_check_ptr(o, call, t, tn);
        CHECK(call, !memcmp(t, r->d + hn, tn), "tail bytes differ from the model's item");
    }
    fifo_pop_front(&o->items);
    rb_out_add(o, h, hn);
    if (t)
        rb_out_add(o, t, tn);
}

static void op_ringbuf(void)
{
    r_obj_t *o = &R[u8() % (NSLOT + 1)];
    unsigned what = u8() % 16;
    unsigned char data[RB_MAXSIZE + 8], local[8];
    bool woken = false;
    int rc, brc;
    if (!o->h) {
        unsigned type = u8() % 4, bad = u8() % 8;
        size_t size = 1 + u8() % RB_MAXSIZE;
        bool st = what & 1, item_type = type != RTIPC_RINGBUF_BYTEBUF;
        if (bad == 1)
            size = 0;
        else if (bad == 2)
            size = RTIPC_RINGBUF_MAX_SIZE + 1;
        /* Dynamic creation rounds item-type sizes up to 4 before checking
         * the minimum of 8 (5..7 become 8); static creation demands both. */
        size_t checked = item_type && !st ? (size + 3) & ~(size_t)3 : size;
        int want = type > 2 || size == 0 || size > RTIPC_RINGBUF_MAX_SIZE || (item_type && checked < 8)
                       ? RTIPC_EINVAL
                       : RTIPC_OK;
        rtipc_ringbuf_t **out = bad == 3 ? NULL : &o->h;
        if (bad == 3)
            want = RTIPC_EINVAL;
        if (st) {
            bool misaligned = bad == 4;
            if (item_type && (size % 4 || misaligned))
                want = RTIPC_EINVAL;
            o->base = misaligned ? o->storage + 1 : o->storage; /* byte buffers take any alignment */
            rc = rtipc_ringbuf_create_static(size, (rtipc_ringbuf_type_t)type, o->base, &o->cb, out);
            expect("rtipc_ringbuf_create_static", rc, want);
        } else {
            rc = rtipc_ringbuf_create(size, (rtipc_ringbuf_type_t)type, out);
            expect_task("rtipc_ringbuf_create", rc, want);
            if (rc == RTIPC_OK && item_type)
                size = (size + 3) & ~(size_t)3;
            if (rc == RTIPC_OK)
                CHECK("rtipc_ringbuf_footprint", rtipc_ringbuf_footprint(o->h) ==
                                                     rtipc_ringbuf_footprint_for(size, (rtipc_ringbuf_type_t)type),
                      "differs from footprint_for");
        }
        if (rc != RTIPC_OK) {
            o->h = NULL;
            return;
        }
        o->is_static = st, o->type = (rtipc_ringbuf_type_t)type, o->size = size;
        o->items.n = 0, o->nbytes = 0, o->nout = 0, o->set = NULL;
        rb_check(o);
        return;
    }
    bool bytes = o->type == RTIPC_RINGBUF_BYTEBUF;
    size_t max = bytes ? o->size : o->size - 4;
    switch (what) {
    case 0:
        rc = rtipc_ringbuf_delete(o->h);
        if (expect_task("rtipc_ringbuf_delete", rc,
                        o->set || o->nout || (o->items.n && rb_ready(o) < o->items.n) ? RTIPC_EBUSY : RTIPC_OK) &&
            rc == RTIPC_OK) {
            stale_add(o->h);
            o->h = NULL;
            return;
        }
        break;
    case 1:
    case 2:
    case 3: { /* send / send_from_isr */
        size_t n = 1 + u8() % (max + 2);
        unsigned bad = u8() % 16;
        if (bad == 1)
            n = 0;
        bool null_data = bad == 2;
        fill(data, n > sizeof data ? sizeof data : n);
        int fs = rtipc_ringbuf_free_size(o->h);
        bool inval = null_data || n == 0 || n > max, fits = !inval && n <= (size_t)fs;
        size_t before = rb_receivable(o);
        bool applies = true;
        if (what == 3) {
            rc = rtipc_ringbuf_send_from_isr(o->h, null_data ? NULL : data, n, &woken);
            expect("rtipc_ringbuf_send_from_isr", rc, inval ? RTIPC_EINVAL : fits ? RTIPC_OK : RTIPC_EWOULDBLOCK);
        } else {
            rtipc_timeout_t t = pick_timeout(!inval && !fits, &brc);
            rc = rtipc_ringbuf_send(o->h, null_data ? NULL : data, n, t);
            applies = expect_task("rtipc_ringbuf_send", rc, inval ? RTIPC_EINVAL : fits ? RTIPC_OK : brc);
        }
        if (applies && rc == RTIPC_OK) {
            if (bytes) {
                memcpy(o->bytes + o->nbytes, data, n);
                o->nbytes += n;
                set_post(o->set, o->h, 1);
            } else {
                o->acquired[rb_idx(o, o->items.n)] = false;
                fifo_push_back(&o->items, data, n);
                set_post(o->set, o->h, rb_receivable(o) - before);
            }
        }
        break;
    }
    case 4: { /* acquire */
        size_t n = 1 + u8() % (max + 2);
        bool null_item = u8() % 16 == 0;
        int fs = rtipc_ringbuf_free_size(o->h);
        void *p = NULL;
        int want = null_item ? RTIPC_EINVAL
                   : o->type != RTIPC_RINGBUF_NOSPLIT ? RTIPC_ENOTSUP
                   : n > max ? RTIPC_EINVAL
                   : RTIPC_OK;
        bool fits = want == RTIPC_OK && n <= (size_t)fs;
        rtipc_timeout_t t = pick_timeout(want == RTIPC_OK && !fits, &brc);
        rc = rtipc_ringbuf_acquire(o->h, null_item ? NULL : &p, n, t);
        if (want == RTIPC_OK && !fits)
            want = brc;
        if (expect_task("rtipc_ringbuf_acquire", rc, want) && rc == RTIPC_OK) {
            rb_check_ptr(o, "rtipc_ringbuf_acquire", p, n);
            fill(data, n);
            memcpy(p, data, n);
            size_t k = rb_idx(o, o->items.n);
            o->acquired[k] = true;
            o->acq_ptr[k] = p;
            fifo_push_back(&o->items, data, n);
        }
        break;
    }
    case 5: { /* complete: an acquired item, or a pointer that is not one */
        size_t pick = u8(), cand = 0;
        unsigned char *p = NULL;
        long at = -1;
        for (size_t i = 0; i < o->items.n; i++)
            if (o->acquired[rb_idx(o, i)])
                cand++;
        if (cand && pick % 4 != 0) {
            size_t want_k = pick % cand;
            for (size_t i = 0; i < o->items.n; i++)
                if (o->acquired[rb_idx(o, i)] && want_k-- == 0) {
                    at = (long)i;
                    p = o->acq_ptr[rb_idx(o, i)];
                    break;
                }
        } else if (o->nout && pick % 2) {
            p = o->out[pick % o->nout].p; /* received, not acquired */
        } else {
            p = pick & 1 ? local : NULL;
        }
        size_t before = rb_receivable(o);
        rc = rtipc_ringbuf_complete(o->h, p);
        if (expect_task("rtipc_ringbuf_complete", rc, at >= 0 ? RTIPC_OK : RTIPC_EINVAL) && rc == RTIPC_OK) {
            o->acquired[rb_idx(o, (size_t)at)] = false;
            set_post(o->set, o->h, rb_receivable(o) - before);
        }
        break;
    }
    case 6:
    case 7: { /* receive / receive_from_isr (no-split, byte buffer) */
        void *p = NULL;
        size_t n = 0;
        bool null_out = u8() % 16 == 0, applies = true;
        int want = null_out ? RTIPC_EINVAL : o->type == RTIPC_RINGBUF_ALLOWSPLIT ? RTIPC_ENOTSUP : RTIPC_OK;
        bool none = bytes ? (o->nbytes == 0 || o->nout > 0) : rb_receivable(o) == 0;
        if (what == 7) {
            rc = rtipc_ringbuf_receive_from_isr(o->h, null_out ? NULL : &p, &n);
            expect("rtipc_ringbuf_receive_from_isr", rc, want == RTIPC_OK && none ? RTIPC_EWOULDBLOCK : want);
        } else {
            rtipc_timeout_t t = pick_timeout(want == RTIPC_OK && none, &brc);
            rc = rtipc_ringbuf_receive(o->h, null_out ? NULL : &p, &n, t);
            applies = expect_task("rtipc_ringbuf_receive", rc, want == RTIPC_OK && none ? brc : want);
        }
        if (applies && rc == RTIPC_OK) {
            if (bytes)
                rb_take_bytes(o, "rtipc_ringbuf_receive", p, n, SIZE_MAX);
            else
                rb_take_item(o, "rtipc_ringbuf_receive", p, n, NULL, 0);
        }
        break;
    }
    case 8:
    case 9: { /* receive_split / _from_isr */
        void *h = NULL, *t = NULL;
        size_t hn = 0, tn = 0;
        bool null_out = u8() % 16 == 0, applies = true;
        int want = null_out ? RTIPC_EINVAL : bytes ? RTIPC_ENOTSUP : RTIPC_OK;
        bool none = !bytes && rb_receivable(o) == 0;
        if (what == 9) {
            rc = rtipc_ringbuf_receive_split_from_isr(o->h, &h, &hn, null_out ? NULL : &t, &tn);
            expect("rtipc_ringbuf_receive_split_from_isr", rc, want == RTIPC_OK && none ? RTIPC_EWOULDBLOCK : want);
        } else {
            rtipc_timeout_t tt = pick_timeout(want == RTIPC_OK && none, &brc);
            rc = rtipc_ringbuf_receive_split(o->h, &h, &hn, null_out ? NULL : &t, &tn, tt);
            applies = expect_task("rtipc_ringbuf_receive_split", rc, want == RTIPC_OK && none ? brc : want);
        }
        if (applies && rc == RTIPC_OK) {
            if (o->type == RTIPC_RINGBUF_NOSPLIT)
                CHECK("rtipc_ringbuf_receive_split", t == NULL, "a no-split item came in two parts");
            rb_take_item(o, "rtipc_ringbuf_receive_split", h, hn, t, tn);
        }
        break;
    }
    case 10:
    case 11: { /* receive_up_to / _from_isr */
        void *p = NULL;
        size_t n = 0, mx = u8() % 8 == 0 ? 0 : 1 + u8() % (o->size + 1);
        bool null_out = u8() % 16 == 0, applies = true;
        int want = null_out || mx == 0 ? RTIPC_EINVAL : !bytes ? RTIPC_ENOTSUP : RTIPC_OK;
        if (null_out && !bytes)
            want = RTIPC_EINVAL;
        bool none = o->nbytes == 0 || o->nout > 0;
        if (what == 11) {
            rc = rtipc_ringbuf_receive_up_to_from_isr(o->h, &p, null_out ? NULL : &n, mx);
            /* EINVAL and ENOTSUP together: either check may come first */
            if (!(bytes == false && (null_out || mx == 0) && rc == RTIPC_ENOTSUP))
                expect("rtipc_ringbuf_receive_up_to_from_isr", rc, want == RTIPC_OK && none ? RTIPC_EWOULDBLOCK : want);
        } else {
            rtipc_timeout_t t = pick_timeout(want == RTIPC_OK && none, &brc);
            rc = rtipc_ringbuf_receive_up_to(o->h, &p, null_out ? NULL : &n, mx, t);
            if (!(bytes == false && (null_out || mx == 0) && rc == RTIPC_ENOTSUP))
                applies = expect_task("rtipc_ringbuf_receive_up_to", rc, want == RTIPC_OK && none ? brc : want);
        }
        if (applies && rc == RTIPC_OK)
            rb_take_bytes(o, "rtipc_ringbuf_receive_up_to", p, n, mx);
        break;
    }
    case 12:
    case 13: { /* return / return_from_isr: an item out, or a pointer that is not one */
        unsigned pick = u8();
        unsigned char *p;
        long at = -1;
        if (o->nout && pick % 4 != 0) {
            at = (long)(pick % o->nout);
            p = o->out[at].p;
        } else if (o->nout && pick % 8 == 0) {
            p = o->out[pick / 8 % o->nout].p + 1; /* not the start of an item */
        } else if (o->items.n && o->acquired[rb_idx(o, 0)] && pick % 2) {
            p = o->acq_ptr[rb_idx(o, 0)]; /* acquired, never received */
        } else {
            p = pick & 1 ? local : NULL;
        }
        bool applies = true;
        if (what == 13) {
            rc = rtipc_ringbuf_return_from_isr(o->h, p, &woken);
            expect("rtipc_ringbuf_return_from_isr", rc, at >= 0 ? RTIPC_OK : RTIPC_EINVAL);
        } else {
            rc = rtipc_ringbuf_return(o->h, p);
            applies = expect_task("rtipc_ringbuf_return", rc, at >= 0 ? RTIPC_OK : RTIPC_EINVAL);
        }
        if (applies && rc == RTIPC_OK)
            o->out[at] = o->out[--o->nout];
        break;
    }
    case 14: {
        int want;
        int64_t ns = pick_spin(&want);
        expect("rtipc_ringbuf_set_spin", rtipc_ringbuf_set_spin(o->h, ns), want);
        CHECK("rtipc_ringbuf_item_footprint", rtipc_ringbuf_item_footprint(o->type, 5) ==
                                                  (bytes ? 5 : RTIPC_RINGBUF_ITEM_BYTES(5)), "wrong");
        CHECK("rtipc_ringbuf_item_footprint", rtipc_ringbuf_item_footprint((rtipc_ringbuf_type_t)3, 5) == 0, "not 0");
        break;
    }
    default:
        expect("rtipc_ringbuf_free_size(NULL)", rtipc_ringbuf_free_size(NULL), RTIPC_EINVAL);
        expect("rtipc_ringbuf_return_from_isr(NULL)", rtipc_ringbuf_return_from_isr(NULL, local, NULL), RTIPC_EINVAL);
        break;
    }
    rb_check(o);
}

/* ---- stream buffers ------------------------------------------------------------- */
static void sb_check(b_obj_t *o)
{
    expect("rtipc_streambuf_bytes_available", rtipc_streambuf_bytes_available(o->h), (int)o->n);
    expect("rtipc_streambuf_spaces_available", rtipc_streambuf_spaces_available(o->h), (int)(o->size - o->n));
    expect("rtipc_streambuf_is_empty", rtipc_streambuf_is_empty(o->h), o->n == 0);
    expect("rtipc_streambuf_is_full", rtipc_streambuf_is_full(o->h), o->n == o->size);
}

static void op_streambuf(void)
{
    b_obj_t *o = &SB[u8() % NSLOT];
    unsigned what = u8() % 12;
    unsigned char data[SB_MAXSIZE + 8], got[SB_MAXSIZE + 8];
    bool woken = false;
    int rc, brc;
    if (!o->h) {
        size_t size = 1 + u8() % SB_MAXSIZE, trig = u8() % (size + 2);
        unsigned bad = u8() % 8;
        if (bad == 1)
            size = 0;
        else if (bad == 2)
            size = (size_t)INT32_MAX + 1;
        int want = size == 0 || size > INT32_MAX || trig > size || bad == 3 ? RTIPC_EINVAL : RTIPC_OK;
        rtipc_streambuf_t **out = bad == 3 ? NULL : (rtipc_streambuf_t **)&o->h;
        o->is_static = what & 1;
        if (o->is_static) {
            rc = rtipc_streambuf_create_static(size, trig, bad == 4 ? NULL : o->storage, &o->cb.s, out);
            expect("rtipc_streambuf_create_static", rc, bad == 4 ? RTIPC_EINVAL : want);
        } else {
            rc = rtipc_streambuf_create(size, trig, out);
            expect_task("rtipc_streambuf_create", rc, want);
        }
        if (rc != RTIPC_OK) {
            o->h = NULL;
            return;
        }
        o->size = size, o->trigger = trig, o->n = 0;
        CHECK("rtipc_streambuf_footprint", rtipc_streambuf_footprint(o->h) == rtipc_streambuf_footprint_for(size),
              "differs from footprint_for");
        sb_check(o);
        return;
    }
    size_t free_b = o->size - o->n;
    switch (what) {
    case 0:
        rc = rtipc_streambuf_delete(o->h);
        if (expect_task("rtipc_streambuf_delete", rc, RTIPC_OK)) {
            stale_add(o->h);
            o->h = NULL;
            return;
        }
        break;
    case 1:
    case 2:
    case 3: { /* send / send_from_isr */
        size_t len = 1 + u8() % (o->size + 4), sent = 12345;
        unsigned bad = u8() % 16;
        if (bad == 1)
            len = 0;
        fill(data, len);
        bool inval = len == 0 || bad == 2 || bad == 3;
        size_t now = len < free_b ? len : free_b;
        bool immediate = len <= free_b || (len > o->size && o->n == 0);
        int want;
        bool applies = true;
        if (what == 3) {
            rc = rtipc_streambuf_send_from_isr(o->h, bad == 2 ? NULL : data, len, bad == 3 ? NULL : &sent, &woken);
            want = inval ? RTIPC_EINVAL : now ? RTIPC_OK : RTIPC_EWOULDBLOCK;
            expect("rtipc_streambuf_send_from_isr", rc, want);
        } else {
            rtipc_timeout_t t = pick_timeout(!inval && !immediate, &brc);
            rc = rtipc_streambuf_send(o->h, bad == 2 ? NULL : data, len, bad == 3 ? NULL : &sent, t);
            want = inval ? RTIPC_EINVAL : now ? RTIPC_OK : brc;
            applies = expect_task("rtipc_streambuf_send", rc, want);
        }
        if (applies && rc == RTIPC_OK) {
            CHECK("rtipc_streambuf_send", sent == now, "sent %zu, model %zu", sent, now);
            memcpy(o->bytes + o->n, data, now);
            o->n += now;
        } else if (applies && bad != 3 && !g_isr) {
            CHECK("rtipc_streambuf_send", sent == 0, "sent %zu on an error", sent);
        }
        break;
    }
    case 4:
    case 5:
    case 6: { /* receive / receive_from_isr */
        size_t len = 1 + u8() % (o->size + 4), recv = 12345;
        unsigned bad = u8() % 16;
        if (bad == 1)
            len = 0;
        bool inval = len == 0 || bad == 2 || bad == 3;
        size_t now = len < o->n ? len : o->n;
        int want;
        bool applies = true;
        if (what == 6) {
            rc = rtipc_streambuf_receive_from_isr(o->h, bad == 2 ? NULL : got, len, bad == 3 ? NULL : &recv, &woken);
            want = inval ? RTIPC_EINVAL : now ? RTIPC_OK : RTIPC_EWOULDBLOCK;
            expect("rtipc_streambuf_receive_from_isr", rc, want);
        } else {
            rtipc_timeout_t t = pick_timeout(!inval && o->n == 0, &brc);
            rc = rtipc_streambuf_receive(o->h, bad == 2 ? NULL : got, len, bad == 3 ? NULL : &recv, t);
            want = inval ? RTIPC_EINVAL : now ? RTIPC_OK : brc;
            applies = expect_task("rtipc_streambuf_receive", rc, want);
        }
        if (applies && rc == RTIPC_OK) {
            CHECK("rtipc_streambuf_receive", recv == now, "received %zu, model %zu", recv, now);
            CHECK("rtipc_streambuf_receive", !memcmp(got, o->bytes, now), "bytes differ from the model");
            memmove(o->bytes, o->bytes + now, o->n - now);
            o->n -= now;
        } else if (applies && bad != 3 && !g_isr) {
            CHECK("rtipc_streambuf_receive", recv == 0, "received %zu on an error", recv);
        }
        break;
    }
    case 7: {
        size_t level = u8() % (o->size + 2);
        rc = rtipc_streambuf_set_trigger_level(o->h, level);
        expect("rtipc_streambuf_set_trigger_level", rc, level > o->size ? RTIPC_EINVAL : RTIPC_OK);
        break;
    }
    case 8:
        expect("rtipc_streambuf_reset", rtipc_streambuf_reset(o->h), RTIPC_OK);
        o->n = 0;
        break;
    case 9: {
        int want;
        int64_t ns = pick_spin(&want);
        expect("rtipc_streambuf_set_spin", rtipc_streambuf_set_spin(o->h, ns), want);
        break;
    }
    default:
        expect("rtipc_streambuf_is_empty(NULL)", rtipc_streambuf_is_empty(NULL), RTIPC_EINVAL);
        CHECK("rtipc_streambuf_footprint_for(0)", rtipc_streambuf_footprint_for(0) > 0, "0");
        break;
    }
    sb_check(o);
}

/* ---- message buffers ------------------------------------------------------------- */
static void mb_check(b_obj_t *o)
{
    expect("rtipc_msgbuf_bytes_available", rtipc_msgbuf_bytes_available(o->h), (int)o->used);
    expect("rtipc_msgbuf_spaces_available", rtipc_msgbuf_spaces_available(o->h), (int)(o->size - o->used));
    expect("rtipc_msgbuf_is_empty", rtipc_msgbuf_is_empty(o->h), o->msgs.n == 0);
    expect("rtipc_msgbuf_is_full", rtipc_msgbuf_is_full(o->h), o->size - o->used <= RTIPC_MSGBUF_LENGTH_BYTES);
    expect("rtipc_msgbuf_next_length", rtipc_msgbuf_next_length(o->h),
           o->msgs.n ? (int)fifo_at(&o->msgs, 0)->len : 0);
}

static void op_msgbuf(void)
{
    b_obj_t *o = &MB[u8() % NSLOT];
    unsigned what = u8() % 10;
    unsigned char data[SB_MAXSIZE + 8], got[SB_MAXSIZE + 8];
    bool woken = false;
    int rc, brc;
    if (!o->h) {
        size_t size = 1 + u8() % SB_MAXSIZE;
        unsigned bad = u8() % 8;
        if (bad == 1)
            size = (size_t)INT32_MAX + 1;
        int want = size < RTIPC_MSGBUF_LENGTH_BYTES + 1 || size > INT32_MAX || bad == 2 ? RTIPC_EINVAL : RTIPC_OK;
        rtipc_msgbuf_t **out = bad == 2 ? NULL : (rtipc_msgbuf_t **)&o->h;
        o->is_static = what & 1;
        if (o->is_static) {
            rc = rtipc_msgbuf_create_static(size, bad == 3 ? NULL : o->storage, &o->cb.m, out);
            expect("rtipc_msgbuf_create_static", rc, bad == 3 ? RTIPC_EINVAL : want);
        } else {
            rc = rtipc_msgbuf_create(size, out);
            expect_task("rtipc_msgbuf_create", rc, want);
        }
        if (rc != RTIPC_OK) {
            o->h = NULL;
            return;
        }
        o->size = size, o->used = 0, o->msgs.n = 0;
        CHECK("rtipc_msgbuf_footprint", rtipc_msgbuf_footprint(o->h) == rtipc_msgbuf_footprint_for(size),
              "differs from footprint_for");
        mb_check(o);
        return;
    }
    switch (what) {
    case 0:
        rc = rtipc_msgbuf_delete(o->h);
        if (expect_task("rtipc_msgbuf_delete", rc, RTIPC_OK)) {
            stale_add(o->h);
            o->h = NULL;
            return;
        }
        break;
    case 1:
    case 2:
    case 3: { /* send / send_from_isr */
        size_t len = 1 + u8() % o->size;
        unsigned bad = u8() % 16;
        if (bad == 1)
            len = 0;
        fill(data, len);
        bool inval = len == 0 || bad == 2 || len + 4 > o->size;
        bool fits = len + 4 <= o->size - o->used;
        bool applies = true;
        if (what == 3) {
            rc = rtipc_msgbuf_send_from_isr(o->h, bad == 2 ? NULL : data, len, &woken);
            expect("rtipc_msgbuf_send_from_isr", rc, inval ? RTIPC_EINVAL : fits ? RTIPC_OK : RTIPC_EWOULDBLOCK);
        } else {
            rtipc_timeout_t t = pick_timeout(!inval && !fits, &brc);
            rc = rtipc_msgbuf_send(o->h, bad == 2 ? NULL : data, len, t);
            applies = expect_task("rtipc_msgbuf_send", rc, inval ? RTIPC_EINVAL : fits ? RTIPC_OK : brc);
        }
        if (applies && rc == RTIPC_OK) {
            fifo_push_back(&o->msgs, data, len);
            o->used += len + 4;
        }
        break;
    }
    case 4:
    case 5:
    case 6: { /* receive / receive_from_isr */
        size_t cap = u8() % (o->size + 2), len = 12345;
        unsigned bad = u8() % 16;
        bool inval = cap == 0 || bad == 2 || bad == 3;
        size_t next = o->msgs.n ? fifo_at(&o->msgs, 0)->len : 0;
        bool applies = true;
        int want = inval ? RTIPC_EINVAL : !next ? RTIPC_EWOULDBLOCK : next > cap ? RTIPC_EINVAL : RTIPC_OK;
        if (what == 6) {
            rc = rtipc_msgbuf_receive_from_isr(o->h, bad == 2 ? NULL : got, cap, bad == 3 ? NULL : &len, &woken);
            expect("rtipc_msgbuf_receive_from_isr", rc, want);
        } else {
            rtipc_timeout_t t = pick_timeout(!inval && !next, &brc);
            if (want == RTIPC_EWOULDBLOCK)
                want = brc;
            rc = rtipc_msgbuf_receive(o->h, bad == 2 ? NULL : got, cap, bad == 3 ? NULL : &len, t);
            applies = expect_task("rtipc_msgbuf_receive", rc, want);
        }
        if (!applies || bad == 3)
            break;
        size_t want_len = rc == RTIPC_OK || (rc == RTIPC_EINVAL && !inval) ? next : 0;
        CHECK("rtipc_msgbuf_receive", len == want_len, "*len %zu, model %zu", len, want_len);
        if (rc == RTIPC_OK) {
            CHECK("rtipc_msgbuf_receive", !memcmp(got, fifo_at(&o->msgs, 0)->d, next), "bytes differ from the model");
            fifo_pop_front(&o->msgs);
            o->used -= next + 4;
        }
        break;
    }
    case 7:
        expect("rtipc_msgbuf_reset", rtipc_msgbuf_reset(o->h), RTIPC_OK);
        o->msgs.n = 0, o->used = 0;
        break;
    case 8: {
        int want;
        int64_t ns = pick_spin(&want);
        expect("rtipc_msgbuf_set_spin", rtipc_msgbuf_set_spin(o->h, ns), want);
        break;
    }
    default:
        expect("rtipc_msgbuf_next_length(NULL)", rtipc_msgbuf_next_length(NULL), RTIPC_EINVAL);
        break;
    }
    mb_check(o);
}

/* ---- mailboxes ------------------------------------------------------------------- */
static void op_mailbox(void)
{
    x_obj_t *o = &X[u8() % NSLOT];
    unsigned what = u8() % 8;
    unsigned char val[MX_MAXVAL], got[MX_MAXVAL + 8];
    uint64_t ver = 777;
    bool woken = false;
    int rc, brc;
    if (!o->h) {
        size_t vsz = 1 + u8() % MX_MAXVAL;
        unsigned bad = u8() % 8;
        bool with_init = u8() & 1;
        fill(val, vsz);
        size_t pass = bad == 1 ? 0 : bad == 2 ? RTIPC_MAILBOX_MAX_VALUE_SIZE + 1 : vsz;
        rtipc_mailbox_t **out = bad == 3 ? NULL : &o->h;
        int want = bad >= 1 && bad <= 3 ? RTIPC_EINVAL : RTIPC_OK;
        if (what & 1) {
            bool misaligned = bad == 4;
            rc = rtipc_mailbox_create_static(pass, with_init ? val : NULL, misaligned ? o->storage + 4 : o->storage,
                                             &o->cb, out);
            expect("rtipc_mailbox_create_static", rc, misaligned ? RTIPC_EINVAL : want);
        } else {
            rc = rtipc_mailbox_create(pass, with_init ? val : NULL, out);
            expect_task("rtipc_mailbox_create", rc, want);
        }
        if (rc != RTIPC_OK) {
            o->h = NULL;
            return;
        }
        o->vsz = vsz, o->version = 0;
        if (with_init)
            memcpy(o->val, val, vsz);
        else
            memset(o->val, 0, vsz);
        return;
    }
    switch (what) {
    case 0:
        rc = rtipc_mailbox_delete(o->h);
        if (expect_task("rtipc_mailbox_delete", rc, RTIPC_OK)) {
            stale_add(o->h);
            o->h = NULL;
            return;
        }
        break;
    case 1:
    case 2: { /* write / write_from_isr */
        bool null_v = u8() % 16 == 0;
        fill(val, o->vsz);
        rc = what == 1 ? rtipc_mailbox_write(o->h, null_v ? NULL : val)
                       : rtipc_mailbox_write_from_isr(o->h, null_v ? NULL : val, &woken);
        expect("rtipc_mailbox_write", rc, null_v ? RTIPC_EINVAL : RTIPC_OK);
        if (rc == RTIPC_OK) {
            memcpy(o->val, val, o->vsz);
            o->version++;
        }
        break;
    }
    case 3: { /* read */
        bool null_b = u8() % 16 == 0, with_v = u8() & 1;
        memset(got, 0xa5, sizeof got);
        rc = rtipc_mailbox_read(o->h, null_b ? NULL : got, with_v ? &ver : NULL);
        expect("rtipc_mailbox_read", rc, null_b ? RTIPC_EINVAL : RTIPC_OK);
        if (rc == RTIPC_OK) {
            CHECK("rtipc_mailbox_read", !memcmp(got, o->val, o->vsz), "value differs from the newest write");
            CHECK("rtipc_mailbox_read", got[o->vsz] == 0xa5, "wrote past value_size");
            if (with_v)
                CHECK("rtipc_mailbox_read", ver == o->version, "version %llu, model %llu", (unsigned long long)ver,
                      (unsigned long long)o->version);
        }
        break;
    }
    case 4:
    case 5: { /* wait_newer */
        static const int64_t delta[] = {-1, 0, 1, -2};
        uint64_t last = u8() % 5 == 4 ? UINT64_MAX : o->version + (uint64_t)delta[u8() % 4];
        bool newer = o->version > last && last != UINT64_MAX;
        if (last == UINT64_MAX)
            newer = false;
        bool null_b = u8() % 16 == 0;
        memset(got, 0xa5, sizeof got);
        rtipc_timeout_t t = pick_timeout(!null_b && !newer, &brc);
        rc = rtipc_mailbox_wait_newer(o->h, null_b ? NULL : got, last, &ver, t);
        if (expect_task("rtipc_mailbox_wait_newer", rc, null_b ? RTIPC_EINVAL : newer ? RTIPC_OK : brc)) {
            if (rc == RTIPC_OK) {
                CHECK("rtipc_mailbox_wait_newer", !memcmp(got, o->val, o->vsz) && ver == o->version,
                      "value or version (%llu) differs from the newest write", (unsigned long long)ver);
            } else {
                CHECK("rtipc_mailbox_wait_newer", got[0] == 0xa5 && ver == 777, "wrote its outputs on an error");
            }
        }
        break;
    }
    case 6:
        expect("rtipc_mailbox_version(NULL out)", rtipc_mailbox_version(o->h, NULL), RTIPC_EINVAL);
        expect("rtipc_mailbox_version", rtipc_mailbox_version(o->h, &ver), RTIPC_OK);
        CHECK("rtipc_mailbox_version", ver == o->version, "version %llu, model %llu", (unsigned long long)ver,
              (unsigned long long)o->version);
        CHECK("rtipc_mailbox_footprint", rtipc_mailbox_footprint(o->h) == rtipc_mailbox_footprint_for(o->vsz),
              "differs from footprint_for");
        break;
    default: {
        int want;
        int64_t ns = pick_spin(&want);
        expect("rtipc_mailbox_set_spin", rtipc_mailbox_set_spin(o->h, ns), want);
        expect("rtipc_mailbox_read(NULL)", rtipc_mailbox_read(NULL, got, NULL), RTIPC_EINVAL);
        break;
    }
    }
}

/* ---- SPSC rings ------------------------------------------------------------------- */
static void op_spsc(void)
{
    p_obj_t *o = &P[u8() % NSLOT];
    unsigned what = u8() % 12;
    unsigned char items[2 * SP_MAXCAP * Q_MAXITEM], got[2 * SP_MAXCAP * Q_MAXITEM];
    bool woken = false;
    int rc, brc;
    if (!o->h) {
        size_t cap = (size_t)1 << (u8() % 4), isz = 1 + u8() % Q_MAXITEM;
        unsigned bad = u8() % 8;
        if (bad == 1)
            cap = 0;
        else if (bad == 2)
            cap = 3 + 2 * (u8() % 2); /* 3 or 5: not a power of two */
        else if (bad == 3)
            cap = (size_t)RTIPC_SPSC_MAX_CAPACITY << 1;
        else if (bad == 4)
            isz = 0;
        rtipc_spsc_t **out = bad == 5 ? NULL : &o->h;
        int want = bad >= 1 && bad <= 5 ? RTIPC_EINVAL : RTIPC_OK;
        if (what & 1) {
            rc = rtipc_spsc_create_static(cap, isz, bad == 6 ? NULL : o->storage, &o->cb, out);
            expect("rtipc_spsc_create_static", rc, bad == 6 ? RTIPC_EINVAL : want);
        } else {
            rc = rtipc_spsc_create(cap, isz, out);
            expect_task("rtipc_spsc_create", rc, want);
        }
        if (rc != RTIPC_OK) {
            o->h = NULL;
            return;
        }
        o->cap = cap, o->isz = isz, o->m.n = 0;
        CHECK("rtipc_spsc_footprint", rtipc_spsc_footprint(o->h) == rtipc_spsc_footprint_for(cap, isz),
              "differs from footprint_for");
        expect("rtipc_spsc_capacity", rtipc_spsc_capacity(o->h), (int)cap);
        return;
    }
    bool full = o->m.n == o->cap, empty = o->m.n == 0;
    switch (what) {
    case 0:
        rc = rtipc_spsc_delete(o->h);
        if (expect_task("rtipc_spsc_delete", rc, RTIPC_OK)) {
            stale_add(o->h);
            o->h = NULL;
            return;
        }
        break;
    case 1:
    case 2: { /* try_push / push_from_isr / push */
        bool null_i = u8() % 16 == 0;
        unsigned v = u8() % 3;
        fill(items, o->isz);
        bool applies = true;
        int want = null_i ? RTIPC_EINVAL : full ? RTIPC_EWOULDBLOCK : RTIPC_OK;
        if (v == 0) {
            rc = rtipc_spsc_try_push(o->h, null_i ? NULL : items);
            expect("rtipc_spsc_try_push", rc, want);
        } else if (v == 1) {
            rc = rtipc_spsc_push_from_isr(o->h, null_i ? NULL : items, &woken);
            expect("rtipc_spsc_push_from_isr", rc, want);
        } else {
            rtipc_timeout_t t = pick_timeout(!null_i && full, &brc);
            rc = rtipc_spsc_push(o->h, null_i ? NULL : items, t);
            applies = expect_task("rtipc_spsc_push", rc, want == RTIPC_EWOULDBLOCK ? brc : want);
        }
        if (applies && rc == RTIPC_OK)
            fifo_push_back(&o->m, items, o->isz);
        break;
    }
    case 3:
    case 4: { /* try_pop / pop_from_isr / pop / peek */
        bool null_i = u8() % 16 == 0;
        unsigned v = u8() % 4;
        bool applies = true;
        int want = null_i ? RTIPC_EINVAL : empty ? RTIPC_EWOULDBLOCK : RTIPC_OK;
        if (v == 0) {
            rc = rtipc_spsc_try_pop(o->h, null_i ? NULL : got);
            expect("rtipc_spsc_try_pop", rc, want);
        } else if (v == 1) {
            rc = rtipc_spsc_pop_from_isr(o->h, null_i ? NULL : got, &woken);
            expect("rtipc_spsc_pop_from_isr", rc, want);
        } else if (v == 2) {
            rc = rtipc_spsc_peek(o->h, null_i ? NULL : got);
            expect("rtipc_spsc_peek", rc, want);
        } else {
            rtipc_timeout_t t = pick_timeout(!null_i && empty, &brc);
            rc = rtipc_spsc_pop(o->h, null_i ? NULL : got, t);
            applies = expect_task("rtipc_spsc_pop", rc, want == RTIPC_EWOULDBLOCK ? brc : want);
        }
        if (applies && rc == RTIPC_OK) {
            CHECK("rtipc_spsc_pop/peek", !memcmp(got, fifo_at(&o->m, 0)->d, o->isz), "item differs from the model");
            if (v != 2)
                fifo_pop_front(&o->m);
        }
        break;
    }
    case 5:
    case 6: { /* push_bulk / _from_isr */
        size_t n = u8() % (2 * o->cap + 1);
        bool null_i = u8() % 16 == 0;
        for (size_t i = 0; i < n; i++)
            fill(items + i * o->isz, o->isz);
        rc = what == 5 ? rtipc_spsc_push_bulk(o->h, null_i ? NULL : items, n)
                       : rtipc_spsc_push_bulk_from_isr(o->h, null_i ? NULL : items, n, &woken);
        size_t room = o->cap - o->m.n, k = n < room ? n : room;
        expect("rtipc_spsc_push_bulk", rc, null_i || n == 0 ? RTIPC_EINVAL : (int)k);
        if (rc > 0)
            for (size_t i = 0; i < k; i++)
                fifo_push_back(&o->m, items + i * o->isz, o->isz);
        break;
    }
    case 7:
    case 8: { /* pop_bulk / _from_isr */
        size_t n = u8() % (2 * o->cap + 1);
        bool null_i = u8() % 16 == 0;
        rc = what == 7 ? rtipc_spsc_pop_bulk(o->h, null_i ? NULL : got, n)
                       : rtipc_spsc_pop_bulk_from_isr(o->h, null_i ? NULL : got, n, &woken);
        size_t k = n < o->m.n ? n : o->m.n;
        expect("rtipc_spsc_pop_bulk", rc, null_i || n == 0 ? RTIPC_EINVAL : (int)k);
        for (int i = 0; i < rc; i++) {
            CHECK("rtipc_spsc_pop_bulk", !memcmp(got + (size_t)i * o->isz, fifo_at(&o->m, 0)->d, o->isz),
                  "item %d differs from the model", i);
            fifo_pop_front(&o->m);
        }
        break;
    }
    case 9: {
        int want;
        int64_t ns = pick_spin(&want);
        expect("rtipc_spsc_set_spin", rtipc_spsc_set_spin(o->h, ns), want);
        break;
    }
    default:
        expect("rtipc_spsc_size(NULL)", rtipc_spsc_size(NULL), RTIPC_EINVAL);
        expect("rtipc_spsc_try_push(NULL)", rtipc_spsc_try_push(NULL, items), RTIPC_EINVAL);
        break;
    }
    expect("rtipc_spsc_size", rtipc_spsc_size(o->h), (int)o->m.n);
}

/* ---- queue sets ------------------------------------------------------------------- */
typedef struct {
    void *h;
    struct rtipc_queueset **set;
    bool empty;
    size_t cap;
} member_t;

static member_t member_of(unsigned kind, unsigned k)
{
    if (kind == 0) {
        q_obj_t *q = &Q[k % NSLOT];
        return (member_t){q->h, &q->set, q->m.n == 0, q->len};
    }
    if (kind == 1) {
        s_obj_t *s = &S[k % NSLOT];
        return (member_t){s->h, &s->set, s->count == 0, s->max};
    }
    r_obj_t *r = &R[k % (NSLOT + 1)];
    return (member_t){r->h, &r->set, rb_empty(r), r->type == RTIPC_RINGBUF_BYTEBUF ? r->size : r->size / 8};
}

static void op_queueset(void)
{
    t_obj_t *o = &T[u8() % NSLOT];
    unsigned what = u8() % 12;
    int rc, brc;
    if (!o->h) {
        size_t len = 1 + u8() % SET_MAXLEN;
        unsigned bad = u8() % 8;
        if (bad == 1)
            len = 0;
        else if (bad == 2)
            len = (size_t)INT32_MAX + 1;
        rc = rtipc_queueset_create(len, bad == 3 ? NULL : &o->h);
        expect_task("rtipc_queueset_create", rc, bad >= 1 && bad <= 3 ? RTIPC_EINVAL : RTIPC_OK);
        if (rc != RTIPC_OK) {
            o->h = NULL;
            return;
        }
        o->len = len, o->used_cap = 0, o->members = 0, o->ev_n = 0, o->overflows = 0;
        return;
    }
    struct rtipc_queueset *self = (struct rtipc_queueset *)o->h;
    switch (what) {
    case 0:
        rc = rtipc_queueset_delete(o->h);
        if (expect_task("rtipc_queueset_delete", rc, o->members ? RTIPC_EBUSY : RTIPC_OK) && rc == RTIPC_OK) {
            stale_add(o->h);
            o->h = NULL;
            return;
        }
        break;
    case 1:
    case 2:
    case 3: { /* add */
        unsigned kind = what - 1;
        member_t m = member_of(kind, u8());
        int want = !m.h ? RTIPC_EINVAL
                   : *m.set || !m.empty ? RTIPC_EBUSY
                   : m.cap > o->len - o->used_cap ? RTIPC_EOVERFLOW
                   : RTIPC_OK;
        rc = kind == 0 ? rtipc_queueset_add_queue(o->h, m.h)
             : kind == 1 ? rtipc_queueset_add_sem(o->h, m.h)
                         : rtipc_queueset_add_ringbuf(o->h, m.h);
        if (expect_task("rtipc_queueset_add", rc, want) && rc == RTIPC_OK) {
            *m.set = self;
            o->used_cap += m.cap;
            o->members++;
        }
        break;
    }
    case 4:
    case 5:
    case 6: { /* remove */
        unsigned kind = what - 4;
        member_t m = member_of(kind, u8());
        int want = !m.h || *m.set != self ? RTIPC_EINVAL : !m.empty ? RTIPC_EBUSY : RTIPC_OK;
        rc = kind == 0 ? rtipc_queueset_remove_queue(o->h, m.h)
             : kind == 1 ? rtipc_queueset_remove_sem(o->h, m.h)
                         : rtipc_queueset_remove_ringbuf(o->h, m.h);
        if (expect_task("rtipc_queueset_remove", rc, want) && rc == RTIPC_OK) {
            set_forget(self, m.h); /* its events leave with it (queueset.h) */
            *m.set = NULL;
            o->used_cap -= m.cap;
            o->members--;
        }
        break;
    }
    case 7:
    case 8: { /* select / select_from_isr */
        void *got = (void *)&got;
        bool null_m = u8() % 16 == 0, applies = true;
        int want = null_m ? RTIPC_EINVAL : o->ev_n ? RTIPC_OK : RTIPC_EWOULDBLOCK;
        if (what == 8) {
            rc = rtipc_queueset_select_from_isr(o->h, null_m ? NULL : &got);
            expect("rtipc_queueset_select_from_isr", rc, want);
        } else {
            rtipc_timeout_t t = pick_timeout(!null_m && !o->ev_n, &brc);
            rc = rtipc_queueset_select(o->h, null_m ? NULL : &got, t);
            applies = expect_task("rtipc_queueset_select", rc, want == RTIPC_EWOULDBLOCK ? brc : want);
        }
        if (applies && rc == RTIPC_OK) {
            CHECK("rtipc_queueset_select", got == o->ev[o->ev_head], "member %p, model %p", got, o->ev[o->ev_head]);
            o->ev_head = (o->ev_head + 1) % SET_MAXLEN;
            o->ev_n--;
        }
        break;
    }
    case 9: {
        int want;
        int64_t ns = pick_spin(&want);
        expect("rtipc_queueset_set_spin", rtipc_queueset_set_spin(o->h, ns), want);
        CHECK("rtipc_queueset_footprint", rtipc_queueset_footprint(o->h) > 0, "0 for a live set");
        break;
    }
    case 10: { /* a member of the wrong type for the call */
        unsigned k = u8();
        void *sem = S[k % NSLOT].h, *q = Q[k % NSLOT].h;
        if (sem)
            expect_task("rtipc_queueset_add_queue(semaphore)", rtipc_queueset_add_queue(o->h, sem), RTIPC_EINVAL);
        if (q)
            expect_task("rtipc_queueset_add_ringbuf(queue)", rtipc_queueset_add_ringbuf(o->h, q), RTIPC_EINVAL);
        if (q && !Q[k % NSLOT].set)
            expect_task("rtipc_queueset_remove_sem(queue)", rtipc_queueset_remove_sem(o->h, q), RTIPC_EINVAL);
        expect_task("rtipc_queueset_delete(NULL)", rtipc_queueset_delete(NULL), RTIPC_EINVAL);
        break;
    }
    default:
        break;
    }
    CHECK("rtipc_queueset_overflows", rtipc_queueset_overflows(o->h) == o->overflows, "%lld, model %lld",
          (long long)rtipc_queueset_overflows(o->h), (long long)o->overflows);
}

/* ---- handles of the wrong type, or of a deleted object ------------------------------------ */
enum { K_QUEUE, K_SEM, K_MUTEX, K_EG, K_RB, K_SB, K_MB, K_MAILBOX, K_SPSC, K_SET, K_COUNT };

static bool is_live(unsigned kind, const void *h)
{
    for (int i = 0; i < NSLOT + 1; i++) {
        const void *l = NULL;
        if (i < NSLOT) {
            switch (kind) {
            case K_QUEUE: l = Q[i].h; break;
            case K_SEM: l = S[i].h; break;
            case K_MUTEX: l = M[i].h; break;
            case K_EG: l = E[i].h; break;
            case K_SB: l = SB[i].h; break;
            case K_MB: l = MB[i].h; break;
            case K_MAILBOX: l = X[i].h; break;
            case K_SPSC: l = P[i].h; break;
            case K_SET: l = T[i].h; break;
            default: break;
            }
        }
        if (kind == K_RB)
            l = R[i].h;
        if (l && l == h)
            return true;
    }
    return false;
}

static void op_wrong(void)
{
    /* Candidates: live objects of every type, and handles of deleted
     * objects. No call dereferences a handle, so any of them may be given to
     * any call. */
    void *cand[10 * NSLOT + 1 + STALE_MAX];
    size_t n = 0;
    for (int i = 0; i < NSLOT; i++) {
        void *hs[] = {Q[i].h, S[i].h, M[i].h, E[i].h, SB[i].h, MB[i].h, R[i].h, X[i].h, P[i].h, T[i].h};
        for (size_t k = 0; k < sizeof hs / sizeof hs[0]; k++)
            if (hs[k])
                cand[n++] = hs[k];
    }
    if (R[NSLOT].h)
        cand[n++] = R[NSLOT].h;
    for (size_t i = 0; i < nstale; i++)
        cand[n++] = stale[i];
    if (!n)
        return;
    void *h = cand[u8() % n];
    unsigned call = u8() % 19;
    unsigned char buf[8] = {0};
    size_t cnt = 0;
    uint64_t v64;
    static const unsigned kind_of_call[] = {K_QUEUE, K_QUEUE, K_SEM, K_SEM, K_MUTEX, K_EG, K_RB, K_RB, K_SB, K_MB,
                                            K_MB, K_SB, K_QUEUE, K_SEM, K_EG, K_MAILBOX, K_SPSC, K_SET, K_SET};
    if (is_live(kind_of_call[call], h))
        return; /* a right handle: not this operation's business */
    switch (call) {
    case 0: expect("rtipc_queue_messages_waiting(wrong)", rtipc_queue_messages_waiting(h), RTIPC_EINVAL); break;
    case 1: expect("rtipc_queue_send_from_isr(wrong)", rtipc_queue_send_from_isr(h, buf, NULL), RTIPC_EINVAL); break;
    case 2: expect("rtipc_sem_give_from_isr(wrong)", rtipc_sem_give_from_isr(h, NULL), RTIPC_EINVAL); break;
    case 3: expect("rtipc_sem_count(wrong)", rtipc_sem_count(h), RTIPC_EINVAL); break;
    case 4: expect_task("rtipc_mutex_unlock(wrong)", rtipc_mutex_unlock(h), RTIPC_EINVAL); break;
    case 5:
        expect("rtipc_eventgroup_set_bits_from_isr(wrong)", rtipc_eventgroup_set_bits_from_isr(h, 1, NULL, NULL),
               RTIPC_EINVAL);
        break;
    case 6: expect("rtipc_ringbuf_send_from_isr(wrong)", rtipc_ringbuf_send_from_isr(h, buf, 1, NULL), RTIPC_EINVAL); break;
    case 7: expect("rtipc_ringbuf_items_waiting(wrong)", rtipc_ringbuf_items_waiting(h), RTIPC_EINVAL); break;
    case 8:
        expect("rtipc_streambuf_send_from_isr(wrong)", rtipc_streambuf_send_from_isr(h, buf, 1, &cnt, NULL),
               RTIPC_EINVAL);
        break;
    case 9: expect("rtipc_msgbuf_send_from_isr(wrong)", rtipc_msgbuf_send_from_isr(h, buf, 1, NULL), RTIPC_EINVAL); break;
    case 10: expect("rtipc_msgbuf_next_length(wrong)", rtipc_msgbuf_next_length(h), RTIPC_EINVAL); break;
    case 11: expect("rtipc_streambuf_reset(wrong)", rtipc_streambuf_reset(h), RTIPC_EINVAL); break;
    case 12: expect_task("rtipc_queue_delete(wrong)", rtipc_queue_delete(h), RTIPC_EINVAL); break;
    case 13: expect_task("rtipc_sem_delete(wrong)", rtipc_sem_delete(h), RTIPC_EINVAL); break;
    case 14: expect("rtipc_eventgroup_get_bits(wrong)", rtipc_eventgroup_get_bits(h), RTIPC_EINVAL); break;
    case 15: expect("rtipc_mailbox_version(wrong)", rtipc_mailbox_version(h, &v64), RTIPC_EINVAL); break;
    case 16: expect("rtipc_spsc_size(wrong)", rtipc_spsc_size(h), RTIPC_EINVAL); break;
    case 17:
        CHECK("rtipc_queueset_overflows(wrong)", rtipc_queueset_overflows(h) == RTIPC_EINVAL, "not RTIPC_EINVAL");
        break;
    default:
        for (int i = 0; i < NSLOT; i++)
            if (T[i].h && !is_live(K_QUEUE, h))
                expect_task("rtipc_queueset_add_queue(wrong)", rtipc_queueset_add_queue(T[i].h, h), RTIPC_EINVAL);
        break;
    }
}

/* ---- interrupt context ------------------------------------------------------------------ */
typedef void (*op_fn)(void);
static rtipc_irq_t *g_irq;
static op_fn g_isr_op;
static atomic_int g_isr_state; /* 1: an operation is posted, 2: done */

static void isr_handler(void *arg)
{
    (void)arg;
    if (atomic_load(&g_isr_state) != 1)
        return;
    CHECK("rtipc_in_interrupt", rtipc_in_interrupt(), "false inside a handler");
    g_isr_op();
    atomic_store(&g_isr_state, 2);
}

static void run_in_isr(op_fn fn)
{
    if (!g_irq) { /* no interrupt source: run it as a task */
        fn();
        return;
    }
    g_isr = true;
    g_isr_op = fn;
    atomic_store(&g_isr_state, 1);
    expect("rtipc_irq_trigger", rtipc_irq_trigger(g_irq), RTIPC_OK);
    while (atomic_load(&g_isr_state) != 2)
        sched_yield();
    atomic_store(&g_isr_state, 0);
    g_isr = false;
}

static const op_fn ops[] = {op_queue,  op_sem,    op_mutex,   op_notify, op_eventgroup, op_ringbuf,
                            op_streambuf, op_msgbuf, op_mailbox, op_spsc,   op_queueset,   op_wrong};
#define N_OPS (sizeof ops / sizeof ops[0])

/* ---- end of an input: empty, detach and delete everything (checked) ---------------- */
static void rb_drain(r_obj_t *o)
{
    while (o->nout) {
        expect("rtipc_ringbuf_return (teardown)", rtipc_ringbuf_return(o->h, o->out[o->nout - 1].p), RTIPC_OK);
        o->nout--;
    }
    for (size_t i = 0; i < o->items.n; i++) {
        size_t k = rb_idx(o, i);
        if (o->acquired[k]) {
            expect("rtipc_ringbuf_complete (teardown)", rtipc_ringbuf_complete(o->h, o->acq_ptr[k]), RTIPC_OK);
            o->acquired[k] = false;
        }
    }
    for (;;) {
        void *h, *t;
        size_t hn, tn;
        int rc = o->type == RTIPC_RINGBUF_BYTEBUF
                     ? rtipc_ringbuf_receive(o->h, &h, &hn, RTIPC_NO_WAIT)
                     : rtipc_ringbuf_receive_split(o->h, &h, &hn, &t, &tn, RTIPC_NO_WAIT);
        if (rc == RTIPC_EWOULDBLOCK)
            break;
        expect("rtipc_ringbuf_receive (teardown)", rc, RTIPC_OK);
        if (o->type == RTIPC_RINGBUF_BYTEBUF) {
            rb_take_bytes(o, "rtipc_ringbuf_receive (teardown)", h, hn, SIZE_MAX);
        } else {
            rb_take_item(o, "rtipc_ringbuf_receive_split (teardown)", h, hn, tn ? t : NULL, tn);
        }
        while (o->nout) {
            expect("rtipc_ringbuf_return (teardown)", rtipc_ringbuf_return(o->h, o->out[o->nout - 1].p), RTIPC_OK);
            o->nout--;
        }
    }
    CHECK("ringbuf teardown", rb_empty(o), "items left after draining (%zu items, %zu bytes)", o->items.n, o->nbytes);
    rb_check(o);
}

static void teardown(void)
{
    for (int i = 0; i < NSLOT; i++) {
        if (Q[i].h) {
            if (Q[i].set) {
                expect("rtipc_queue_reset (teardown)", rtipc_queue_reset(Q[i].h), RTIPC_OK);
                expect("rtipc_queueset_remove_queue (teardown)", rtipc_queueset_remove_queue(Q[i].set, Q[i].h),
                       RTIPC_OK);
            }
            expect("rtipc_queue_delete (teardown)", rtipc_queue_delete(Q[i].h), RTIPC_OK);
            Q[i].h = NULL, Q[i].set = NULL;
        }
        if (S[i].h) {
            if (S[i].set) {
                while (S[i].count) {
                    expect("rtipc_sem_take (teardown)", rtipc_sem_take(S[i].h, RTIPC_NO_WAIT), RTIPC_OK);
                    S[i].count--;
                }
                expect("rtipc_queueset_remove_sem (teardown)", rtipc_queueset_remove_sem(S[i].set, S[i].h), RTIPC_OK);
            }
            expect("rtipc_sem_delete (teardown)", rtipc_sem_delete(S[i].h), RTIPC_OK);
            S[i].h = NULL, S[i].set = NULL;
        }
        if (M[i].h) {
            for (; M[i].depth; M[i].depth--)
                expect("rtipc_mutex_unlock (teardown)", rtipc_mutex_unlock(M[i].h), RTIPC_OK);
            expect("rtipc_mutex_delete (teardown)", rtipc_mutex_delete(M[i].h), RTIPC_OK);
            M[i].h = NULL;
        }
        if (E[i].h)
            expect("rtipc_eventgroup_delete (teardown)", rtipc_eventgroup_delete(E[i].h), RTIPC_OK);
        if (SB[i].h)
            expect("rtipc_streambuf_delete (teardown)", rtipc_streambuf_delete(SB[i].h), RTIPC_OK);
        if (MB[i].h)
            expect("rtipc_msgbuf_delete (teardown)", rtipc_msgbuf_delete(MB[i].h), RTIPC_OK);
        if (X[i].h)
            expect("rtipc_mailbox_delete (teardown)", rtipc_mailbox_delete(X[i].h), RTIPC_OK);
        if (P[i].h)
            expect("rtipc_spsc_delete (teardown)", rtipc_spsc_delete(P[i].h), RTIPC_OK);
        E[i].h = NULL, SB[i].h = NULL, MB[i].h = NULL, X[i].h = NULL, P[i].h = NULL;
    }
    for (int i = 0; i < NSLOT + 1; i++) {
        if (!R[i].h)
            continue;
        rb_drain(&R[i]);
        if (R[i].set)
            expect("rtipc_queueset_remove_ringbuf (teardown)", rtipc_queueset_remove_ringbuf(R[i].set, R[i].h),
                   RTIPC_OK);
        expect("rtipc_ringbuf_delete (teardown)", rtipc_ringbuf_delete(R[i].h), RTIPC_OK);
        R[i].h = NULL, R[i].set = NULL;
    }
    for (int i = 0; i < NSLOT; i++) {
        if (T[i].h)
            expect("rtipc_queueset_delete (teardown)", rtipc_queueset_delete(T[i].h), RTIPC_OK);
        T[i].h = NULL;
    }
    notify_reset();
    nstale = 0;
}

/* ---- libFuzzer entry points -------------------------------------------------------------- */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    trace = getenv("FUZZ_API_TRACE") != NULL;
    main_task = rtipc_task_current();
    if (!main_task) {
        fprintf(stderr, "fuzz_api: the main thread could not become an rtipc task\n");
        abort();
    }
    int rc = rtipc_irq_create(0, isr_handler, NULL, &g_irq);
    if (rc != RTIPC_OK) {
        fprintf(stderr, "fuzz_api: no interrupt source (%s): handler-context steps run as a task\n",
                rtipc_strerror(rc));
        g_irq = NULL;
    }
    return 0;
}

#define MAX_STEPS 1000

static const char *const op_names[] = {"queue",   "sem",     "mutex",   "notify", "eventgroup", "ringbuf",
                                       "streambuf", "msgbuf", "mailbox", "spsc",   "queueset",   "wrong"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    in_data = data, in_size = size, in_pos = 0;
    for (step = 0; in_pos < in_size && step < MAX_STEPS; step++) {
        size_t at = in_pos;
        unsigned k = u8() % (N_OPS + 1);
        bool isr = k == N_OPS;
        if (isr)
            k = u8() % N_OPS;
        if (trace)
            fprintf(stderr, "step %u at byte %zu: %s%s\n", step, at, op_names[k], isr ? " (in handler)" : "");
        if (isr)
            run_in_isr(ops[k]);
        else
            ops[k]();
    }
    if (trace) {
        unsigned live = 0;
        for (int i = 0; i < NSLOT; i++)
            live += !!Q[i].h + !!S[i].h + !!M[i].h + !!E[i].h + !!SB[i].h + !!MB[i].h + !!X[i].h + !!P[i].h + !!T[i].h;
        for (int i = 0; i < NSLOT + 1; i++)
            live += !!R[i].h;
        fprintf(stderr, "end: %u steps, %u objects live before teardown\n", step, live);
    }
    teardown();
    return 0;
}
