/* Mailboxes.
 * - A: one writer task, three reader tasks (read and wait_newer) and a
 *   handler that reads. The value of version v is eight words derived from
 *   v, so a reader checks that its copy is not torn, that the version it was
 *   told matches the value, and that versions never go backwards.
 * - B: two writers (a task and a handler) and one reader: a write that finds
 *   the other in progress is refused (RTIPC_EWOULDBLOCK, counted as a drop);
 *   the final version equals the writes accepted. Values carry (writer, seq)
 *   and a check word; per writer the reader sees increasing seqs. */
#include <inttypes.h>

#include "soak_core.h"

enum { WORDS = 8, NREADERS = 3 };
typedef struct {
    uint64_t w[WORDS];
} value_t;

static rtipc_mailbox_t *mba, *mbb;
static atomic_ullong a_writes, b_writes[3];
static atomic_ullong b_next[3];

static void value_of(uint64_t writer, uint64_t seq, value_t *v)
{
    v->w[0] = writer;
    v->w[1] = seq;
    uint64_t c = 0;
    for (int i = 2; i < WORDS - 1; ++i) {
        v->w[i] = soak_mix(seq * 31 + (uint64_t)i + writer * 1000003u);
        c ^= v->w[i];
    }
    v->w[WORDS - 1] = c ^ soak_check(O_MAILBOX, (uint32_t)writer, seq, 0);
}

static bool value_ok(const value_t *v)
{
    value_t e;
    if (v->w[0] > 2)
        return false;
    value_of(v->w[0], v->w[1], &e);
    for (int i = 0; i < WORDS; ++i)
        if (e.w[i] != v->w[i])
            return false;
    return true;
}

static void a_writer(soak_worker_t *w)
{
    while (soak_running(w)) {
        value_t v;
        value_of(0, atomic_load(&a_writes) + 1, &v);
        soak_at(w, "mailbox_write");
        int rc = rtipc_mailbox_write(mba, &v);
        if (rc == 0) {
            atomic_fetch_add(&a_writes, 1);
            soak_add(&soak_objs[O_MAILBOX].sent, 1);
        } else {
            soak_violation(O_MAILBOX, "single writer: write: %s", rtipc_strerror(rc));
        }
        soak_pace(w);
    }
}

/* Check a copy of mailbox A with its version against the reader's last. */
static void a_seen(const value_t *v, uint64_t version, uint64_t *last, bool newer, const char *who)
{
    if (!value_ok(v) || v->w[0] != 0)
        soak_violation(O_MAILBOX, "%s: torn value (version %" PRIu64 ")", who, version);
    else if (v->w[1] != version)
        soak_violation(O_MAILBOX, "%s: version %" PRIu64 " holds the value of %" PRIu64, who, version, v->w[1]);
    if (version < *last || (newer && version == *last))
        soak_violation(O_MAILBOX, "%s: version %" PRIu64 " after %" PRIu64, who, version, *last);
    if (version > atomic_load(&a_writes) + 1)
        soak_violation(O_MAILBOX, "%s: version %" PRIu64 " not written yet", who, version);
    *last = version;
    soak_add(&soak_objs[O_MAILBOX].received, 1);
}

static void a_reader(soak_worker_t *w)
{
    uint64_t last = 0;
    while (soak_running(w)) {
        value_t v;
        uint64_t version = 0;
        if (soak_below(w, 2)) {
            soak_at(w, "mailbox_read");
            int rc = rtipc_mailbox_read(mba, &v, &version);
            if (rc != 0)
                soak_violation(O_MAILBOX, "read: %s", rtipc_strerror(rc));
            else
                a_seen(&v, version, &last, false, w->name);
        } else {
            rtipc_timeout_t t = soak_timeout(w);
            soak_at(w, "mailbox_wait_newer");
            int rc = rtipc_mailbox_wait_newer(mba, &v, last, &version, t);
            if (rc == 0)
                a_seen(&v, version, &last, true, w->name);
            else
                soak_not_now(w, rc, "wait_newer");
        }
        soak_pace(w);
    }
}

static uint64_t isr_last;

static void a_isr_reader(stress_rng_t *rng)
{
    (void)rng;
    soak_isr_op(O_MAILBOX);
    value_t v;
    uint64_t version = 0;
    if (rtipc_mailbox_read(mba, &v, &version) != 0)
        soak_violation(O_MAILBOX, "read from isr failed");
    else
        a_seen(&v, version, &isr_last, false, "isr reader");
}

/* ---- B: two writers ------------------------------------------------------------- */

static int b_write(int writer, bool isr)
{
    value_t v;
    uint64_t seq = atomic_load(&b_next[writer]);
    value_of((uint64_t)writer, seq, &v);
    bool woken = false;
    int rc = isr ? rtipc_mailbox_write_from_isr(mbb, &v, &woken) : rtipc_mailbox_write(mbb, &v);
    if (isr)
        rtipc_irq_yield(woken);
    if (soak_accepted(O_MAILBOX, rc, RTIPC_EWOULDBLOCK, "B write")) {
        atomic_store(&b_next[writer], seq + 1);
        atomic_fetch_add(&b_writes[writer], 1);
        soak_add(&soak_objs[O_MAILBOX].sent, 1);
    }
    return rc;
}

static void b_writer(soak_worker_t *w)
{
    while (soak_running(w)) {
        soak_at(w, "mailbox_write (B)");
        b_write(0, false);
        soak_pace(w);
    }
}

static void b_isr_writer(stress_rng_t *rng)
{
    (void)rng;
    soak_isr_op(O_MAILBOX);
    b_write(1, true);
}

static void b_reader(soak_worker_t *w)
{
    uint64_t last = 0, last_seq[3] = {0, 0, 0};
    bool seen[3] = {false, false, false};
    while (soak_running(w)) {
        value_t v;
        uint64_t version = 0;
        rtipc_timeout_t t = soak_timeout(w);
        soak_at(w, "mailbox_wait_newer (B)");
        int rc = rtipc_mailbox_wait_newer(mbb, &v, last, &version, t);
        if (rc != 0) {
            soak_not_now(w, rc, "wait_newer (B)");
        } else if (!value_ok(&v)) {
            soak_violation(O_MAILBOX, "B: torn value (version %" PRIu64 ")", version);
        } else {
            int wr = (int)v.w[0];
            if (version <= last)
                soak_violation(O_MAILBOX, "B: version %" PRIu64 " after %" PRIu64, version, last);
            if (version > 0 && seen[wr] && v.w[1] <= last_seq[wr])
                soak_violation(O_MAILBOX, "B: writer %d's seq %" PRIu64 " after %" PRIu64, wr, v.w[1],
                               last_seq[wr]);
            if (version > 0) {
                seen[wr] = true;
                last_seq[wr] = v.w[1];
            }
            last = version;
            soak_add(&soak_objs[O_MAILBOX].received, 1);
        }
        soak_pace(w);
    }
}

static void mailbox_kick(void)
{
    /* The writers have ended: the supervisor writes (A: as the single
     * writer; B: as writer 2) to release readers waiting FOREVER. */
    value_t v;
    value_of(0, atomic_load(&a_writes) + 1, &v);
    soak_add(&soak_objs[O_MAILBOX].ops, 2);
    if (rtipc_mailbox_write(mba, &v) == 0) {
        atomic_fetch_add(&a_writes, 1);
        soak_add(&soak_objs[O_MAILBOX].sent, 1);
    }
    b_write(2, false);
}

static void mailbox_final(void)
{
    uint64_t va = 0, vb = 0;
    rtipc_mailbox_version(mba, &va);
    rtipc_mailbox_version(mbb, &vb);
    if (va != atomic_load(&a_writes))
        soak_violation(O_MAILBOX, "A: version %" PRIu64 " after %llu writes", va,
                       (unsigned long long)atomic_load(&a_writes));
    unsigned long long bw = atomic_load(&b_writes[0]) + atomic_load(&b_writes[1]) + atomic_load(&b_writes[2]);
    if (vb != bw)
        soak_violation(O_MAILBOX, "B: version %" PRIu64 " after %llu accepted writes", vb, bw);
    value_t v;
    uint64_t ver = 0;
    if (rtipc_mailbox_read(mba, &v, &ver) != 0 || !value_ok(&v) || v.w[1] != ver)
        soak_violation(O_MAILBOX, "A: final value does not match its version");
    if (rtipc_mailbox_delete(mba) || rtipc_mailbox_delete(mbb))
        soak_violation(O_MAILBOX, "delete failed");
}

void soak_setup_mailbox(void)
{
    value_t init;
    value_of(0, 0, &init);
    static rtipc_mailbox_static_t mbb_cb;
    static _Alignas(8) unsigned char mbb_storage[RTIPC_MAILBOX_STORAGE_SIZE(sizeof(value_t))];
    if (rtipc_mailbox_create(sizeof(value_t), &init, &mba) ||
        rtipc_mailbox_create_static(sizeof(value_t), &init, mbb_storage, &mbb_cb, &mbb)) {
        soak_violation(O_MAILBOX, "create failed");
        return;
    }
    soak_spin_set(O_MAILBOX, rtipc_mailbox_set_spin(mba, soak_spin(O_MAILBOX)));
    soak_spin_set(O_MAILBOX, rtipc_mailbox_set_spin(mbb, soak_spin(O_MAILBOX)));
    soak_spawn(O_MAILBOX, "mbx-writer", a_writer, NULL, 0, false, 2, soak_core(0));
    static const char *rn[NREADERS] = {"mbx-read0", "mbx-read1", "mbx-read2"};
    for (int i = 0; i < NREADERS; ++i)
        soak_spawn(O_MAILBOX, rn[i], a_reader, NULL, i, true, 1 + (unsigned)i, soak_core((i + 1) & 1));
    soak_spawn(O_MAILBOX, "mbxB-writer", b_writer, NULL, 0, false, 1, soak_core(1));
    soak_spawn(O_MAILBOX, "mbxB-reader", b_reader, NULL, 0, true, 2, soak_core(0));
    soak_isr_role(1, a_isr_reader);
    soak_isr_role(0, b_isr_writer);
    soak_hooks(&(soak_hooks_t){mailbox_kick, NULL, mailbox_final});
}
