#include "soak_core.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

soak_obj_t soak_objs[O_COUNT] = {
    [O_QUEUE] = {.name = "queue"},
    [O_QUEUE_OVW] = {.name = "queue-overwrite"},
    [O_SEM_BIN] = {.name = "sem-binary"},
    [O_SEM_CNT] = {.name = "sem-counting"},
    [O_MUTEX] = {.name = "mutex"},
    [O_RMUTEX] = {.name = "mutex-recursive"},
    [O_NOTIFY] = {.name = "notify"},
    [O_EVENTS] = {.name = "eventgroup"},
    [O_RB_NOSPLIT] = {.name = "ringbuf-nosplit"},
    [O_RB_SPLIT] = {.name = "ringbuf-split"},
    [O_RB_BYTE] = {.name = "ringbuf-bytebuf"},
    [O_STREAM] = {.name = "streambuf"},
    [O_MSGBUF] = {.name = "msgbuf"},
    [O_MAILBOX] = {.name = "mailbox"},
    [O_SPSC] = {.name = "spsc"},
    [O_QSET] = {.name = "queueset"},
    [O_TASK] = {.name = "task"},
};

atomic_int soak_phase;

extern stress_errors_t soak_errors;
stress_errors_t soak_errors;

void soak_violation(int obj, const char *fmt, ...)
{
    char buf[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    soak_add(&soak_objs[obj].violations, 1);
    stress_error(&soak_errors, "%s: %s", soak_objs[obj].name, buf);
}

/* ---- workers ---------------------------------------------------------------- */

#define MAX_WORKERS 128
extern soak_worker_t *soak_workers[MAX_WORKERS];
extern int soak_worker_count;
soak_worker_t *soak_workers[MAX_WORKERS];
int soak_worker_count;

static void worker_entry(void *arg)
{
    soak_worker_t *w = arg;
    w->fn(w);
    atomic_store(&w->where, "(returned)");
    atomic_store(&w->done, 1);
}

soak_worker_t *soak_spawn(int obj, const char *name, soak_worker_fn fn, void *arg, int id, bool consumer,
                          unsigned priority, int core)
{
    if (soak_worker_count >= MAX_WORKERS) {
        fprintf(stderr, "soak: too many workers\n");
        exit(2);
    }
    soak_worker_t *w = calloc(1, sizeof *w);
    if (!w) {
        fprintf(stderr, "soak: out of memory\n");
        exit(2);
    }
    /* The fields not named (counters, waits, name) start at zero. */
    *w = (soak_worker_t){
        .obj = obj, .id = id, .consumer = consumer, .priority = priority, .core = core, .fn = fn, .arg = arg};
    snprintf(w->name, sizeof w->name, "%s", name);
    stress_rng_init(&w->rng, (uint64_t)soak_worker_count + 1);
    atomic_store(&w->where, "(starting)");
    soak_workers[soak_worker_count++] = w;
    rtipc_task_config_t cfg = {.name = w->name, .priority = priority, .core = core, .entry = worker_entry, .arg = w};
    int rc = rtipc_task_create(&cfg, &w->task);
    if (rc != 0) {
        fprintf(stderr, "soak: cannot create task %s: %s\n", name, rtipc_strerror(rc));
        exit(2);
    }
    return w;
}

uint32_t soak_below(soak_worker_t *w, uint32_t n) { return stress_below(&w->rng, n); }

rtipc_timeout_t soak_timeout(soak_worker_t *w)
{
    /* Mostly stress_timeout's thirds; one in eight finite timeouts is
     * longer (up to 5 ms) so that waits also expire while parked. */
    if (soak_below(w, 8) == 0) {
        ++w->waits.finite;
        return rtipc_us(200 + soak_below(w, 4800));
    }
    return stress_timeout(&w->rng, &w->waits);
}

bool soak_accepted(int obj, int rc, int full_rc, const char *what)
{
    if (rc == 0)
        return true;
    if (rc == full_rc)
        soak_add(&soak_objs[obj].dropped, 1);
    else
        soak_violation(obj, "%s: %s", what, rtipc_strerror(rc));
    return false;
}

void soak_isr_queue_send(rtipc_queue_t *q, soak_streams_t *s, uint32_t p, uint32_t flags, bool front, bool *woken)
{
    soak_msg_t m;
    soak_msg_make(s, p, flags, &m);
    int rc = front ? rtipc_queue_send_to_front_from_isr(q, &m, woken) : rtipc_queue_send_from_isr(q, &m, woken);
    if (soak_accepted(s->obj, rc, RTIPC_EWOULDBLOCK, front ? "send_to_front_from_isr" : "send_from_isr"))
        soak_sent(s, m.prod, m.seq);
}

void soak_not_now_but(soak_worker_t *w, int rc, int handled, const char *what)
{
    if (rc != 0 && rc != handled)
        soak_not_now(w, rc, what);
}

void soak_not_now(soak_worker_t *w, int rc, const char *what)
{
    if (rc == RTIPC_ETIMEDOUT) {
        soak_add(&soak_objs[w->obj].timeouts, 1);
        ++w->waits.timedout;
        return;
    }
    if (rc == RTIPC_EWOULDBLOCK) {
        soak_add(&soak_objs[w->obj].wouldblock, 1);
        ++w->waits.wouldblock;
        /* A polling task must not keep its core from the task it waits
         * for (SCHED_FIFO) or hog its time slice (SCHED_OTHER). */
        rtipc_task_delay(rtipc_us(20 + soak_below(w, 200)));
        return;
    }
    soak_violation(w->obj, "%s: %s returned %d (%s)", w->name, what, rc, rtipc_strerror(rc));
}

atomic_llong soak_quiet_until_ns;

void soak_pace(soak_worker_t *w)
{
    if (w->priority >= 2) {
        int64_t until = atomic_load_explicit(&soak_quiet_until_ns, memory_order_relaxed);
        int64_t now = rtipc_time_ns();
        if (now < until) {
            atomic_store_explicit(&w->where, "quiet period", memory_order_relaxed);
            rtipc_task_delay(rtipc_ns(until - now));
        }
    }
    if (--w->burst > 0)
        return;
    /* Pauses long enough that the load leaves the lower priorities (and
     * the rest of the machine) some of each core. */
    w->burst = 1 + (int)soak_below(w, 32);
    uint32_t r = soak_below(w, 100);
    atomic_store_explicit(&w->where, "pause", memory_order_relaxed);
    if (r < 60)
        rtipc_task_delay(rtipc_us(200 + soak_below(w, 1800)));
    else if (r < 95)
        rtipc_task_delay(rtipc_us(2000 + soak_below(w, 3000)));
    else
        rtipc_task_delay(rtipc_us(5000 + soak_below(w, 15000)));
}

int soak_core(int which) { return rtipc_core_count() >= 2 ? which : RTIPC_CORE_ANY; }
int soak_irq_core(int which) { return rtipc_core_count() >= 2 ? which : 0; }

/* ---- checksums and streams -------------------------------------------------- */

uint64_t soak_mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

uint64_t soak_check(int obj, uint32_t prod, uint64_t seq, uint32_t extra)
{
    return soak_mix(seq * 0x9e3779b97f4a7c15ull ^ ((uint64_t)obj << 56) ^ ((uint64_t)prod << 40) ^
                    ((uint64_t)extra << 8) ^ 0x5eed);
}

void soak_streams_init(soak_streams_t *s, int obj, bool lossy)
{
    memset(s, 0, sizeof *s);
    s->obj = obj;
    s->lossy = lossy;
    for (int c = 0; c < SOAK_MAXC; ++c)
        for (int p = 0; p < SOAK_MAXP; ++p)
            s->last[c][p] = -1;
}

void soak_msg_make(soak_streams_t *s, uint32_t p, uint32_t flags, soak_msg_t *m)
{
    m->prod = p;
    m->flags = flags;
    m->seq = atomic_load_explicit(&s->next[p], memory_order_relaxed);
    m->check = soak_check(s->obj, p, m->seq, flags);
}

void soak_sent(soak_streams_t *s, uint32_t p, uint64_t seq)
{
    atomic_fetch_add_explicit(&s->sent[p], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&s->sent_sum[p], seq, memory_order_relaxed);
    atomic_store_explicit(&s->next[p], seq + 1, memory_order_relaxed);
    soak_add(&soak_objs[s->obj].sent, 1);
}

bool soak_msg_valid(const soak_streams_t *s, const soak_msg_t *m)
{
    return m->prod < SOAK_MAXP && m->check == soak_check(s->obj, m->prod, m->seq, m->flags);
}

void soak_received(soak_streams_t *s, int c, uint32_t p, uint64_t seq, bool ordered)
{
    if (ordered) {
        if ((int64_t)seq <= s->last[c][p])
            soak_violation(s->obj, "consumer %d: producer %u's seq %" PRIu64 " after %" PRId64
                                   " (order or duplicate)",
                           c, p, seq, s->last[c][p]);
        s->last[c][p] = (int64_t)seq;
    }
    if (s->lossy) {
        /* Never a message from the future: it was written before it was read. */
        uint64_t next = atomic_load_explicit(&s->next[p], memory_order_relaxed);
        if (seq > next)
            soak_violation(s->obj, "consumer %d: producer %u's seq %" PRIu64 " not written yet (next %" PRIu64 ")",
                           c, p, seq, next);
    }
    atomic_fetch_add_explicit(&s->recv[p], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&s->recv_sum[p], seq, memory_order_relaxed);
    soak_add(&soak_objs[s->obj].received, 1);
}

void soak_msg_received(soak_streams_t *s, int c, const soak_msg_t *m)
{
    if (!soak_msg_valid(s, m)) {
        soak_violation(s->obj, "consumer %d: torn or corrupt message (prod %u, seq %" PRIu64 ", flags %u)", c,
                       m->prod, m->seq, m->flags);
        return;
    }
    soak_received(s, c, m->prod, m->seq, (m->flags & SOAK_ORDERED) != 0);
}

long long soak_streams_final(soak_streams_t *s, const char *what)
{
    long long lost = 0;
    for (int p = 0; p < SOAK_MAXP; ++p) {
        unsigned long long sent = atomic_load(&s->sent[p]), recv = atomic_load(&s->recv[p]);
        unsigned long long ssum = atomic_load(&s->sent_sum[p]), rsum = atomic_load(&s->recv_sum[p]);
        if (s->lossy) {
            if (recv > sent)
                soak_violation(s->obj, "%s producer %d: received %llu > sent %llu", what, p, recv, sent);
            else
                lost += (long long)(sent - recv);
        } else if (sent != recv || ssum != rsum) {
            soak_violation(s->obj,
                           "%s producer %d: sent %llu (seq sum %llu) but received %llu (seq sum %llu): "
                           "lost or duplicated messages",
                           what, p, sent, ssum, recv, rsum);
        }
    }
    return lost;
}

void soak_blob_make(soak_streams_t *s, uint32_t p, void *buf, size_t len)
{
    soak_blob_hdr_t h;
    h.prod = p;
    h.len = (uint32_t)len;
    h.seq = atomic_load_explicit(&s->next[p], memory_order_relaxed);
    h.check = soak_check(s->obj, p, h.seq, h.len);
    memcpy(buf, &h, sizeof h);
    unsigned char *b = (unsigned char *)buf + sizeof h;
    for (size_t i = 0; i < len - sizeof h; ++i)
        b[i] = (unsigned char)((h.check >> ((i & 7) * 8)) + i);
}

bool soak_blob_valid(const soak_streams_t *s, const void *buf, size_t len, uint32_t *prod, uint64_t *seq)
{
    soak_blob_hdr_t h;
    if (len < sizeof h)
        return false;
    memcpy(&h, buf, sizeof h);
    if (h.prod >= SOAK_MAXP || h.len != len || h.check != soak_check(s->obj, h.prod, h.seq, h.len))
        return false;
    const unsigned char *b = (const unsigned char *)buf + sizeof h;
    for (size_t i = 0; i < len - sizeof h; ++i)
        if (b[i] != (unsigned char)((h.check >> ((i & 7) * 8)) + i))
            return false;
    *prod = h.prod;
    *seq = h.seq;
    return true;
}

/* ---- spin budgets ------------------------------------------------------------- */

char soak_spin_list[512];

int64_t soak_spin(int obj)
{
    static stress_rng_t rng;
    static bool init;
    if (!init) {
        stress_rng_init(&rng, 777);
        init = true;
    }
    static const int64_t choices[4] = {RTIPC_SPIN_DEFAULT, 0, 5000, 100000};
    int64_t ns = choices[stress_below(&rng, 4)];
    size_t n = strlen(soak_spin_list);
    if (n + 40 < sizeof soak_spin_list) {
        if (ns == RTIPC_SPIN_DEFAULT)
            snprintf(soak_spin_list + n, sizeof soak_spin_list - n, " %s=default", soak_objs[obj].name);
        else
            snprintf(soak_spin_list + n, sizeof soak_spin_list - n, " %s=%lld", soak_objs[obj].name, (long long)ns);
    }
    return ns;
}

void soak_spin_set(int obj, int rc)
{
    if (rc != 0)
        soak_violation(obj, "set_spin: %s", rtipc_strerror(rc));
}

/* ---- stop gate ------------------------------------------------------------------ */

void soak_gate_kick(soak_gate_t *g, void (*kick)(void *), void *arg)
{
    atomic_fetch_add(&g->kicking, 1);
    if (!atomic_load(&g->exiting))
        kick(arg);
    atomic_fetch_sub(&g->kicking, 1);
}

void soak_gate_close(soak_gate_t *g)
{
    atomic_store(&g->exiting, 1);
    while (atomic_load(&g->kicking) != 0)
        rtipc_task_delay(rtipc_us(50));
}
