/* The mailbox's lock-free core: portable C11, no OS calls. Waiting for a newer
 * version lives in the port (mailbox_wait.c), reached through
 * rtipc__mailbox_wake only when tasks wait.
 *
 * The protocol: two copies of the value and seq = 2 x version (+1 while a
 * write is in progress). Version v is in copy v & 1.
 *
 *   writer                                  reader
 *   CAS seq 2n -> 2n+1 (A2, claim)          s0 = load seq (A1)
 *   fence(release) (RF)                     v = s0 / 2
 *   store words of copy (n+1) & 1           load words of copy v & 1
 *   store seq = 2n+2 (R1, publish)          fence(acquire) (AF)
 *   fence(seq_cst) (F1)                     s1 = load seq
 *   sleepers? -> wake (port)                s1 <= 2v+2 ? done : copy again
 *
 * A writer fills the copy the newest value is not in, so a reader of version
 * v is disturbed only by the write of version v+2, which claims the sequence
 * at 2v+3: the reader's second load of seq tells. Why that load is enough:
 * if the reader loaded any word stored by that writer, its acquire fence AF
 * synchronises with the writer's release fence RF (the word is the atomic
 * object that carries it), so the claim is visible to the second load. A
 * reader is never held up by a write in progress, only by two writes that
 * complete and start during one copy; a writer never looks at readers.
 *
 * Acquire/release pairs:
 *   R1 (writer, release store of seq) pairs with A1 (reader, acquire load of
 *      seq) and with A2 (the next writer's CAS, acquire). Publishes the copy
 *      of version n+1. A CAS that follows R1 is a read-modify-write, part of
 *      R1's release sequence, so a reader that loads the odd value the next
 *      writer's claim left still synchronises with R1.
 *   RF (writer, release fence after the claim) pairs with AF (reader, acquire
 *      fence before its second load of seq). Publishes the claim to any
 *      reader that saw a word of the new write.
 *   A2 also orders a writer after the writer before it, so the stores into
 *      one copy by writers two versions apart are ordered.
 *   F1 (writer, full fence) pairs with F2 in the waiter's attempt
 *      (mailbox_wait.c): the Dekker handshake "publish the version, then
 *      check for sleepers" / "announce a sleeper, then check the version";
 *      one of the two sees the other's store, so no wake-up is lost.
 *
 * Why atomic words: a reader may copy a buffer while a writer rewrites it
 * (and then discards the copy). With a plain memcpy on both sides that
 * overlap is a data race, undefined behaviour in C11 whatever the retry does
 * afterwards, and ThreadSanitizer reports it. Relaxed atomic loads and stores
 * of whole words make the overlap a race-free (if useless) read, and cost the
 * same instructions as a plain copy on every common machine. */
#include <string.h>

#include "create.h"
#include "mailbox_internal.h"
#include "rtipc/error.h"

#define WORD sizeof(rtipc__mb_word_t)

static size_t padded(size_t value_size) { return (value_size + 7) / 8 * 8; }

bool rtipc__mailbox_size_ok(size_t value_size)
{
    return value_size > 0 && value_size <= RTIPC_MAILBOX_MAX_VALUE_SIZE;
}

size_t rtipc_mailbox_footprint_for(size_t value_size)
{
    if (value_size == 0)
        return sizeof(struct rtipc__mailbox);
    if (!rtipc__mailbox_size_ok(value_size))
        return 0;
    return sizeof(struct rtipc__mailbox) + RTIPC_MAILBOX_STORAGE_SIZE(value_size);
}

size_t rtipc_mailbox_footprint(const rtipc_mailbox_t *handle)
{
    const struct rtipc__mailbox *mb = rtipc__mailbox_of(handle);
    return mb ? rtipc_mailbox_footprint_for(mb->size) : 0;
}

/* ---- word-wise copies --------------------------------------------------- */
static void store_words(_Atomic rtipc__mb_word_t *dst, const unsigned char *src, size_t size)
{
    size_t full = size / WORD, rem = size % WORD;
    for (size_t i = 0; i < full; ++i) {
        rtipc__mb_word_t w;
        memcpy(&w, src + i * WORD, WORD);
        /* Relaxed: published by R1 (and guarded by RF), see the top. */
        atomic_store_explicit(&dst[i], w, memory_order_relaxed);
    }
    if (rem) {
        rtipc__mb_word_t w = 0;
        memcpy(&w, src + full * WORD, rem);
        atomic_store_explicit(&dst[full], w, memory_order_relaxed);
    }
}

static void load_words(unsigned char *dst, const _Atomic rtipc__mb_word_t *src, size_t size)
{
    size_t full = size / WORD, rem = size % WORD;
    for (size_t i = 0; i < full; ++i) {
        /* Relaxed: ordered by A1 before and AF after, see the top. */
        rtipc__mb_word_t w = atomic_load_explicit((_Atomic rtipc__mb_word_t *)&src[i], memory_order_relaxed);
        memcpy(dst + i * WORD, &w, WORD);
    }
    if (rem) {
        rtipc__mb_word_t w = atomic_load_explicit((_Atomic rtipc__mb_word_t *)&src[full], memory_order_relaxed);
        memcpy(dst + full * WORD, &w, rem);
    }
}

static _Atomic rtipc__mb_word_t *copy_of(const struct rtipc__mailbox *mb, uint64_t version)
{
    return mb->buf + (size_t)(version & 1) * mb->words;
}

void rtipc__mailbox_init(struct rtipc__mailbox *mb, size_t value_size, const void *initial, void *storage,
                         uint32_t flags)
{
    memset(mb, 0, sizeof *mb);
    mb->size = (uint32_t)value_size;
    mb->words = (uint32_t)(padded(value_size) / WORD);
    mb->buf = storage;
    for (size_t i = 0; i < 2 * (size_t)mb->words; ++i)
        atomic_init(&mb->buf[i], 0);
    if (initial)
        store_words(copy_of(mb, 0), initial, value_size);
    atomic_init(&mb->seq, 0);
    atomic_init(&mb->sleepers, 0);
    mb->flags = flags;
    rtipc__mailbox_port_init(mb);
}

int rtipc__mailbox_open(struct rtipc__mailbox *mb, rtipc_mailbox_t **out)
{
    uintptr_t h = rtipc__handle_open(mb, RTIPC__H_MAILBOX);
    if (h == 0)
        return RTIPC_ENOMEM;
    *out = (rtipc_mailbox_t *)h;
    return RTIPC_OK;
}

int rtipc_mailbox_create_static(size_t value_size, const void *initial, void *storage,
                                rtipc_mailbox_static_t *cb, rtipc_mailbox_t **out)
{
    if (!out || !cb || !storage || !rtipc__mailbox_size_ok(value_size))
        return RTIPC_EINVAL;
    if ((uintptr_t)storage % 8 != 0)
        return RTIPC_EINVAL; /* the words are accessed atomically */
    struct rtipc__mailbox *mb = (struct rtipc__mailbox *)(void *)cb;
    rtipc__mailbox_init(mb, value_size, initial, storage, 0);
    return rtipc__mailbox_open(mb, out);
}

/* The control block's size is a multiple of 8, so the copies that follow it
 * in a dynamic block are 8-byte aligned. */
_Static_assert(sizeof(struct rtipc__mailbox) % 8 == 0, "copies follow the block aligned");
#define MAILBOX_ALIGN _Alignof(struct rtipc__mailbox)

int rtipc_mailbox_create(size_t value_size, const void *initial, rtipc_mailbox_t **out)
{
    bool ok = out && rtipc__mailbox_size_ok(value_size);
    int rc;
    struct rtipc__mailbox *mb = rtipc__create_alloc(
        ok, sizeof *mb + (ok ? RTIPC_MAILBOX_STORAGE_SIZE(value_size) : 0), MAILBOX_ALIGN, &rc);
    if (!mb)
        return rc;
    rtipc__mailbox_init(mb, value_size, initial, mb + 1, RTIPC__MAILBOX_DYNAMIC);
    rc = rtipc__mailbox_open(mb, out);
    if (rc != RTIPC_OK)
        rtipc__port_free(mb, MAILBOX_ALIGN);
    return rc;
}

int rtipc_mailbox_delete(rtipc_mailbox_t *handle)
{
    if (rtipc__port_in_interrupt())
        return RTIPC_ECONTEXT;
    struct rtipc__mailbox *mb = rtipc__mailbox_of(handle);
    if (!mb)
        return RTIPC_EINVAL;
    int rc = rtipc__mailbox_port_retire(mb, (uintptr_t)handle);
    if (rc == RTIPC_OK && (mb->flags & RTIPC__MAILBOX_DYNAMIC))
        rtipc__port_free(mb, MAILBOX_ALIGN);
    return rc;
}

/* ---- reading -------------------------------------------------------------- */
uint64_t rtipc__mailbox_version(const struct rtipc__mailbox *mb)
{
    /* A1: acquire, pairs with R1. */
    return atomic_load_explicit((_Atomic uint64_t *)&mb->seq, memory_order_acquire) >> 1;
}

int rtipc_mailbox_read(const rtipc_mailbox_t *handle, void *buf, uint64_t *version)
{
    const struct rtipc__mailbox *mb = rtipc__mailbox_of(handle);
    if (!mb || !buf)
        return RTIPC_EINVAL;
    return rtipc__mailbox_read(mb, buf, version);
}

int rtipc__mailbox_read(const struct rtipc__mailbox *mb, void *buf, uint64_t *version)
{
    _Atomic uint64_t *seq = (_Atomic uint64_t *)&mb->seq;
    for (;;) {
        /* A1: acquire, pairs with R1; the copy of version v is complete. */
        uint64_t v = atomic_load_explicit(seq, memory_order_acquire) >> 1;
        load_words(buf, copy_of(mb, v), mb->size);
        /* AF: acquire fence, pairs with RF: a word of a newer write seen
         * above makes that write's claim visible to the load below. */
        atomic_thread_fence(memory_order_acquire);
        /* Relaxed: ordered by AF. */
        uint64_t s1 = atomic_load_explicit(seq, memory_order_relaxed);
        if (s1 <= 2 * v + 2) {
            if (version)
                *version = v;
            return RTIPC_OK;
        }
        /* The write of version v+2 reused this copy meanwhile: again. */
    }
}

int rtipc_mailbox_version(const rtipc_mailbox_t *handle, uint64_t *version)
{
    const struct rtipc__mailbox *mb = rtipc__mailbox_of(handle);
    if (!mb || !version)
        return RTIPC_EINVAL;
    *version = rtipc__mailbox_version(mb);
    return RTIPC_OK;
}

/* ---- writing -------------------------------------------------------------- */
int rtipc_mailbox_write_from_isr(rtipc_mailbox_t *handle, const void *value, bool *woken)
{
    struct rtipc__mailbox *mb = rtipc__mailbox_of(handle);
    if (!mb || !value)
        return RTIPC_EINVAL;
    /* Relaxed: only a guess for the CAS, which does the acquiring. */
    uint64_t s = atomic_load_explicit(&mb->seq, memory_order_relaxed);
    do {
        /* Another write is in progress. Waiting for it could wait forever
         * (it may be the task this handler interrupted, or a preempted
         * lower-priority task): report instead. */
        if (s & 1)
            return RTIPC_EWOULDBLOCK;
        /* A2: acquire on success, pairs with R1 of the previous write. A
         * failure reloads s (another writer finished, or a spurious
         * failure) and we try again: each retry means progress elsewhere. */
    } while (!atomic_compare_exchange_weak_explicit(&mb->seq, &s, s + 1, memory_order_acquire,
                                                    memory_order_relaxed));
    /* RF: release fence, pairs with AF in read(); keeps the claim above
     * ahead of the word stores below for any reader that sees one. */
    atomic_thread_fence(memory_order_release);
    uint64_t v = (s >> 1) + 1;
    store_words(copy_of(mb, v), value, mb->size);
    /* R1: release, pairs with A1 in read() and A2 in the next write;
     * publishes copy v & 1 as version v. */
    atomic_store_explicit(&mb->seq, s + 2, memory_order_release);
    /* F1: full fence, pairs with F2 in the waiter's attempt (mailbox_wait.c):
     * orders the version store before the load of the sleepers flag. */
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&mb->sleepers, memory_order_relaxed))
        rtipc__mailbox_wake(mb, woken);
    return RTIPC_OK;
}

int rtipc_mailbox_write(rtipc_mailbox_t *mb, const void *value)
{
    return rtipc_mailbox_write_from_isr(mb, value, NULL);
}
