/* Stress: message buffers under a single writer and a single reader, on
 * different cores, both directions at once (pair 0 writes on core 0 and reads
 * on core 1, pair 1 the other way round).
 *
 * Messages have variable length (9..127 bytes): a header (producer id,
 * sequence number) and a payload whose length and bytes are derived from the
 * sequence number, so the reader can check every byte and the length. Sends
 * use random timeouts (all-or-nothing: a failed send is retried whole) and a
 * tenth go through the interrupt-safe variant. The reader uses random
 * timeouts and, one time in eight, a buffer too small for the next message:
 * that must fail with RTIPC_EINVAL, report the message's length and leave it
 * in place for the next receive. A lost, duplicated, reordered, truncated or
 * corrupted message fails the test; a stall (no message for 30 s) is a lost
 * wake-up. */
#include "stress_local.h"

#include "rtipc/msgbuf.h"

enum {
    PAIRS = 2,
    SIZE = 509, /* prime: messages and prefixes wrap at every offset */
    HEADER = 8,
    MAX_PAYLOAD = 119,
    MAX_MESSAGE = HEADER + MAX_PAYLOAD,
};

static uint64_t hash_of(uint32_t id, uint32_t seq) { return sl_mix(((uint64_t)id << 32 | seq) ^ 0xb0ffull); }

static size_t length_of(uint32_t id, uint32_t seq) { return HEADER + 1 + hash_of(id, seq) % MAX_PAYLOAD; }

/* The whole message for (id, seq); returns its length. */
static size_t build(uint32_t id, uint32_t seq, unsigned char *out)
{
    size_t len = length_of(id, seq);
    uint64_t h = hash_of(id, seq);
    memcpy(out, &id, 4);
    memcpy(out + 4, &seq, 4);
    for (size_t k = HEADER; k < len; ++k)
        out[k] = (unsigned char)((h >> (8 * (k % 8))) ^ k);
    return len;
}

typedef struct ctx ctx_t;

typedef struct {
    ctx_t *ctx;
    uint32_t id;
    rtipc_msgbuf_t *mb;
    long messages;
    sl_rng_t wrng, rrng;
    sl_counts_t wcount, rcount;
    uint64_t too_small;
    atomic_long sent;
    atomic_long received;
} pair_t;

struct ctx {
    pair_t pair[PAIRS];
    sl_errors_t errors;
    atomic_long progress;
    atomic_int finished;
};

static void writer(void *arg)
{
    pair_t *p = arg;
    ctx_t *c = p->ctx;
    unsigned char msg[MAX_MESSAGE];
    for (long s = 0; s < p->messages; ++s) {
        size_t len = build(p->id, (uint32_t)s, msg);
        for (;;) {
            int rc;
            ++p->wcount.calls;
            if (sl_below(&p->wrng, 10) == 0)
                rc = rtipc_msgbuf_send_from_isr(p->mb, msg, len, NULL);
            else
                rc = rtipc_msgbuf_send(p->mb, msg, len, sl_timeout(&p->wrng, 1, 3, 4));
            if (rc == RTIPC_OK)
                break;
            if (!sl_retry(rc, &p->wcount)) {
                sl_error(&c->errors, "pair %u: send of seq %ld returned %d (%s)", p->id, s, rc, rtipc_strerror(rc));
                atomic_fetch_add(&c->finished, 1);
                return;
            }
        }
        atomic_store_explicit(&p->sent, s + 1, memory_order_relaxed);
    }
    atomic_fetch_add(&c->finished, 1);
}

/* One receive into a buffer of cap bytes; 0, or the error it returned. */
static int receive(pair_t *p, unsigned char *buf, size_t cap, size_t *len)
{
    ++p->rcount.calls;
    if (sl_below(&p->rrng, 10) == 0)
        return rtipc_msgbuf_receive_from_isr(p->mb, buf, cap, len, NULL);
    return rtipc_msgbuf_receive(p->mb, buf, cap, len, sl_timeout(&p->rrng, 1, 3, 4));
}

static void reader(void *arg)
{
    pair_t *p = arg;
    ctx_t *c = p->ctx;
    unsigned char got[MAX_MESSAGE], want[MAX_MESSAGE];
    for (long s = 0; s < p->messages;) {
        size_t want_len = build(p->id, (uint32_t)s, want);
        size_t cap = MAX_MESSAGE, len = 99;
        bool small = sl_below(&p->rrng, 8) == 0;
        if (small)
            cap = 1 + sl_below(&p->rrng, (uint32_t)want_len - 1);
        else if (sl_below(&p->rrng, 4) == 0)
            cap = want_len; /* exact fit */
        int rc = receive(p, got, cap, &len);
        if (rc == RTIPC_EINVAL && small) {
            /* Too small: the message stays and its length is reported. */
            int next = rtipc_msgbuf_next_length(p->mb);
            if (len != want_len || next != (int)want_len)
                sl_error(&c->errors, "pair %u: seq %ld too-small receive reported %zu (next_length %d), want %zu",
                         p->id, s, len, next, want_len);
            ++p->too_small;
            continue;
        }
        if (rc != RTIPC_OK) {
            if (len != 0)
                sl_error(&c->errors, "pair %u: receive failed (%d) but reports length %zu", p->id, rc, len);
            if (sl_retry(rc, &p->rcount))
                continue;
            sl_error(&c->errors, "pair %u: receive of seq %ld (cap %zu) returned %d (%s)", p->id, s, cap, rc,
                     rtipc_strerror(rc));
            break;
        }
        if (small)
            sl_error(&c->errors, "pair %u: seq %ld (%zu bytes) received into %zu bytes", p->id, s, want_len, cap);
        uint32_t id, seq;
        memcpy(&id, got, 4);
        memcpy(&seq, got + 4, 4);
        if (len != want_len || memcmp(got, want, want_len) != 0)
            sl_error(&c->errors, "pair %u: message %ld is (id %u, seq %u, %zu bytes), want %zu bytes", p->id, s, id,
                     seq, len, want_len);
        ++s;
        atomic_store_explicit(&p->received, s, memory_order_relaxed);
        atomic_fetch_add_explicit(&c->progress, 1, memory_order_relaxed);
    }
    atomic_fetch_add(&c->finished, 1);
}

static void dump(void *arg)
{
    ctx_t *c = arg;
    for (int i = 0; i < PAIRS; ++i) {
        pair_t *p = &c->pair[i];
        fprintf(stderr, "  pair %d: %ld sent, %ld received of %ld; %d bytes buffered, next length %d\n", i,
                atomic_load(&p->sent), atomic_load(&p->received), p->messages, rtipc_msgbuf_bytes_available(p->mb),
                rtipc_msgbuf_next_length(p->mb));
    }
}

static void variable_length_messages_arrive_whole_exactly_once_in_order(void **state)
{
    (void)state;
    ctx_t *c = calloc(1, sizeof *c); /* leaked if a stall fails the test: tasks still use it */
    assert_non_null(c);
    long total = stress_count(1000000);
    rtipc_task_t *tasks[2 * PAIRS];
    for (int i = 0; i < PAIRS; ++i) {
        pair_t *p = &c->pair[i];
        p->ctx = c, p->id = (uint32_t)i;
        p->messages = sl_pair_share(total, PAIRS, i);
        sl_pair_rngs(&p->wrng, &p->rrng, i);
        assert_int_equal(rtipc_msgbuf_create(SIZE, &p->mb), RTIPC_OK);
    }
    double t0 = sl_now();
    sl_start_pairs(tasks, c->pair, sizeof c->pair[0], PAIRS, "mbw", "mbr", writer, reader);
    sl_watch(&c->finished, 2 * PAIRS, &c->progress, "message buffer pairs", dump, c);
    double secs = sl_now() - t0;
    for (int i = 0; i < 2 * PAIRS; ++i)
        join_task(tasks[i]);

    sl_counts_t w = {0}, r = {0};
    uint64_t small = 0;
    for (int i = 0; i < PAIRS; ++i) {
        sl_counts_add(&w, &c->pair[i].wcount);
        sl_counts_add(&r, &c->pair[i].rcount);
        small += c->pair[i].too_small;
    }
    printf("stress msgbuf: %ld messages in %.2f s, %.0f messages/s; sends %llu (%llu would-block, %llu "
           "timed-out), receives %llu (%llu too small, %llu would-block, %llu timed-out)\n",
           total, secs, total / secs, (unsigned long long)w.calls, (unsigned long long)w.wouldblock,
           (unsigned long long)w.timedout, (unsigned long long)r.calls, (unsigned long long)small,
           (unsigned long long)r.wouldblock, (unsigned long long)r.timedout);
    fflush(stdout);

    sl_assert_no_errors(&c->errors);
    for (int i = 0; i < PAIRS; ++i) {
        pair_t *p = &c->pair[i];
        assert_int_equal(atomic_load(&p->sent), p->messages);
        assert_int_equal(atomic_load(&p->received), p->messages);
        assert_int_equal(rtipc_msgbuf_is_empty(p->mb), 1);
        assert_int_equal(rtipc_msgbuf_delete(p->mb), RTIPC_OK);
    }
    if (total >= 100000) {
        assert_true(small > 0);
        assert_true(w.wouldblock + w.timedout > 0);
        assert_true(r.wouldblock + r.timedout > 0);
    }
    free(c);
}

STRESS_MAIN(sl_banner, "stress_msgbuf",
            cmocka_unit_test(variable_length_messages_arrive_whole_exactly_once_in_order))
