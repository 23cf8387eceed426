/* rtipc-rv32-lockfree: rtipc's lock-free objects between the two harts of
 * QEMU's virt machine, no kernel. Hart 0 runs main(), hart 1 board_hart_main;
 * both run at once (QEMU's MTTCG gives each hart a host thread).
 *
 *   spsc     one ring each way, RV32_ITEMS sequence-numbered items each,
 *            single-item try_push/try_pop: every item popped must be the
 *            next number, with its check word intact;
 *   bulk     the same through push_bulk/pop_bulk, batches of 1..16;
 *   mailbox  one mailbox each way, each hart writing RV32_WRITES versions
 *            (value = its version, repeated) while the other reads: every
 *            copy must be untorn, its version must never go back and must
 *            equal the value's number, and the last version must arrive.
 *
 * Exit 0 when both harts found nothing lost, duplicated, reordered or torn. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "rtipc/error.h"
#include "rtipc/mailbox.h"
#include "rtipc/spsc.h"

#ifndef RV32_ITEMS
#define RV32_ITEMS 1000000u
#endif
#ifndef RV32_WRITES
#define RV32_WRITES 200000u
#endif
/* Deep enough that a hart the host deschedules for a while does not stall
 * the other at once (the harts are host threads on a shared machine). */
#define RING_CAPACITY 1024u
#define BULK_MAX 16u
#define MB_WORDS 6u

typedef struct {
    uint32_t seq;
    uint32_t check; /* seq's complement: a torn or stale copy shows */
} item_t;

typedef struct {
    uint32_t word[MB_WORDS]; /* every word holds the write's number */
} mb_value_t;

/* What one hart did in one phase. */
typedef struct {
    uint32_t received;
    uint32_t errors;
    uint32_t first_bad_got, first_bad_want;
    uint64_t reads, backwards, torn;
    uint64_t mtime;
} result_t;

static rtipc_spsc_static_t ring_cb[2];
static item_t ring_storage[2][RING_CAPACITY];
static rtipc_spsc_t *ring[2]; /* ring[h]: hart h produces */

static rtipc_mailbox_static_t mb_cb[2];
static _Alignas(8) unsigned char mb_storage[2][RTIPC_MAILBOX_STORAGE_SIZE(sizeof(mb_value_t))];
static rtipc_mailbox_t *mb[2]; /* mb[h]: hart h writes */

/* Phases: hart 0 sets `phase` to start one; each hart adds itself to
 * `done` when finished with it. */
static atomic_uint phase;
static atomic_uint done;
static result_t results[2][3];

static void note_bad(result_t *r, uint32_t got, uint32_t want)
{
    if (r->errors++ == 0) {
        r->first_bad_got = got;
        r->first_bad_want = want;
    }
}

static void check_item(result_t *r, const item_t *it, uint32_t *expect)
{
    if (it->seq != *expect || it->check != ~it->seq)
        note_bad(r, it->seq, *expect);
    *expect = it->seq + 1u; /* resynchronise: count each fault once */
    r->received++;
}

static void run_spsc(unsigned me, result_t *r)
{
    rtipc_spsc_t *out = ring[me], *in = ring[1u - me];
    uint32_t sent = 0, expect = 0;
    uint64_t t0 = board_mtime();
    while (sent < RV32_ITEMS || r->received < RV32_ITEMS) {
        if (sent < RV32_ITEMS) {
            item_t it = {sent, ~sent};
            if (rtipc_spsc_try_push(out, &it) == RTIPC_OK)
                sent++;
        }
        item_t got;
        if (r->received < RV32_ITEMS && rtipc_spsc_try_pop(in, &got) == RTIPC_OK)
            check_item(r, &got, &expect);
    }
    r->mtime = board_mtime() - t0;
}

static void run_bulk(unsigned me, result_t *r)
{
    rtipc_spsc_t *out = ring[me], *in = ring[1u - me];
    uint32_t sent = 0, expect = 0, batch = 1;
    item_t buf[BULK_MAX];
    uint64_t t0 = board_mtime();
    while (sent < RV32_ITEMS || r->received < RV32_ITEMS) {
        if (sent < RV32_ITEMS) {
            uint32_t n = batch;
            if (n > RV32_ITEMS - sent)
                n = RV32_ITEMS - sent;
            for (uint32_t i = 0; i < n; i++)
                buf[i] = (item_t){sent + i, ~(sent + i)};
            int pushed = rtipc_spsc_push_bulk(out, buf, n);
            if (pushed > 0)
                sent += (uint32_t)pushed;
            batch = batch % BULK_MAX + 1u;
        }
        if (r->received < RV32_ITEMS) {
            int popped = rtipc_spsc_pop_bulk(in, buf, BULK_MAX - (batch - 1u));
            for (int i = 0; i < popped; i++)
                check_item(r, &buf[i], &expect);
        }
    }
    r->mtime = board_mtime() - t0;
}

static void run_mailbox(unsigned me, result_t *r)
{
    rtipc_mailbox_t *out = mb[me], *in = mb[1u - me];
    uint32_t written = 0;
    uint64_t last = 0, t0 = board_mtime();
    while (written < RV32_WRITES || last < RV32_WRITES) {
        if (written < RV32_WRITES) {
            mb_value_t v;
            for (unsigned i = 0; i < MB_WORDS; i++)
                v.word[i] = written + 1u;
            /* One writer per mailbox: a write never finds another in progress. */
            if (rtipc_mailbox_write(out, &v) == RTIPC_OK)
                written++;
            else
                note_bad(r, 0, written + 1u);
        }
        mb_value_t got;
        uint64_t version;
        if (rtipc_mailbox_read(in, &got, &version) != RTIPC_OK) {
            note_bad(r, 0, 0);
            continue;
        }
        r->reads++;
        bool torn = false;
        for (unsigned i = 1; i < MB_WORDS; i++)
            torn |= got.word[i] != got.word[0];
        if (torn || got.word[0] != (uint32_t)version) {
            r->torn++;
            note_bad(r, got.word[0], (uint32_t)version);
        }
        if (version < last) {
            r->backwards++;
            note_bad(r, (uint32_t)version, (uint32_t)last);
        }
        if (version > last)
            last = version;
    }
    r->received = (uint32_t)last;
    r->mtime = board_mtime() - t0;
}

static void run_phase(unsigned me, unsigned p)
{
    result_t *r = &results[me][p];
    if (p == 0)
        run_spsc(me, r);
    else if (p == 1)
        run_bulk(me, r);
    else
        run_mailbox(me, r);
}

/* Hart 1: every phase hart 0 starts, then back to waiting. */
void board_hart_main(unsigned hart)
{
    for (unsigned p = 0; p < 3; p++) {
        while (atomic_load(&phase) != p + 1u)
            ;
        run_phase(hart, p);
        atomic_fetch_add(&done, 1u);
    }
    for (;;)
        __asm__ volatile("wfi");
}

static int create_objects(void)
{
    mb_value_t zero;
    memset(&zero, 0, sizeof zero);
    for (unsigned h = 0; h < 2; h++) {
        int rc = rtipc_spsc_create_static(RING_CAPACITY, sizeof(item_t), ring_storage[h], &ring_cb[h], &ring[h]);
        if (rc != RTIPC_OK)
            return rc;
        rc = rtipc_mailbox_create_static(sizeof(mb_value_t), &zero, mb_storage[h], &mb_cb[h], &mb[h]);
        if (rc != RTIPC_OK)
            return rc;
    }
    return RTIPC_OK;
}

int main(void)
{
    static const char *const names[3] = {"spsc", "spsc-bulk", "mailbox"};
    printf("rtipc-rv32-lockfree: %u harts, QEMU virt, mtime %u Hz; %u items each way per ring phase, "
           "%u mailbox writes each way\n",
           (unsigned)BOARD_HARTS, (unsigned)BOARD_MTIME_HZ, (unsigned)RV32_ITEMS, (unsigned)RV32_WRITES);
    int rc = create_objects();
    if (rc != RTIPC_OK) {
        printf("rtipc-rv32-lockfree: creating the objects failed: %d\n", rc);
        return 1;
    }
    unsigned failures = 0;
    for (unsigned p = 0; p < 3; p++) {
        atomic_store(&done, 0u);
        atomic_store(&phase, p + 1u);
        uint64_t c0 = board_cycles();
        run_phase(0, p);
        uint64_t cycles = board_cycles() - c0;
        while (atomic_load(&done) != 1u)
            ;
        for (unsigned h = 0; h < 2; h++) {
            const result_t *r = &results[h][p];
            uint32_t want = p == 2 ? RV32_WRITES : RV32_ITEMS;
            bool ok = r->errors == 0 && r->received == want;
            failures += !ok;
            printf("%-9s hart %u <- hart %u: %s: received %lu of %lu", names[p], h, 1u - h, ok ? "ok" : "FAILED",
                   (unsigned long)r->received, (unsigned long)want);
            if (p == 2)
                printf(", %llu reads (%llu torn, %llu backwards)", (unsigned long long)r->reads,
                       (unsigned long long)r->torn, (unsigned long long)r->backwards);
            if (r->errors)
                printf(", %lu errors, first: got %lu, wanted %lu", (unsigned long)r->errors,
                       (unsigned long)r->first_bad_got, (unsigned long)r->first_bad_want);
            printf(", %llu us of mtime\n", (unsigned long long)(r->mtime / (BOARD_MTIME_HZ / 1000000u)));
        }
        printf("%-9s hart 0 ran %llu cycles\n", names[p], (unsigned long long)cycles);
    }
    printf("rtipc-rv32-lockfree: %s\n", failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
