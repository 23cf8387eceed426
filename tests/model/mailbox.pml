/* Model of the mailbox's version protocol (src/common/mailbox.c:
 * rtipc_mailbox_write_from_isr, rtipc_mailbox_read; the control block in
 * src/common/mailbox_internal.h).
 *
 *   C (struct rtipc_mailbox)               model
 *   _Atomic uint64_t seq                   seq: 2 x version, +1 while a write
 *                                          is in progress
 *   _Atomic rtipc__mb_word_t buf[2*words]  buf[2 * WORDS]: copy 0, then copy 1
 *
 * Each writer (rtipc_mailbox_write) publishes values whose WORDS words all
 * hold the number of the version the write creates (the value of version v
 * is v in every word; version 0, the initial value, is all zero as
 * rtipc__mailbox_init leaves it without an initial value). A reader
 * (rtipc_mailbox_read) that returns success must hold a copy whose words
 * are all equal (not torn) and equal to the version it reports (version
 * consistent with the value); successive reads of one reader report versions
 * that never go down.
 *
 * Progress: a reader's attempt (one pass of the loop in rtipc_mailbox_read)
 * is retried only if, during it, one write completed and the next one
 * claimed seq (seq moved by 2 or more since the attempt's first load):
 * never because a writer is stalled mid-write (a preempted writer holds
 * nobody up), and never once the writers are idle. The LTL property `done`
 * (checked for acceptance cycles under weak fairness) says each reader
 * completes all its reads.
 *
 * Granularity: one Promela step per atomic access (each word store of
 * store_words and each word load of load_words is its own step). Promela is
 * sequentially consistent; the release/acquire pairs R1/A1, RF/AF and A2 are
 * assumed, not verified (tests/model/README.md).
 *
 * The wait path (sleepers flag, fences F1/F2, rtipc_mailbox_wait_newer) is
 * not in this model; its wake-up is the park/unpark protocol of park.pml.
 *
 * Mutants (each must make the check fail; tests/model/run.sh):
 *   MUT_NO_RECHECK     read() returns without the second load of seq
 *   MUT_LOOSE_RECHECK  read() accepts s1 <= 2v + 3 (misses the claim of v+2)
 *   MUT_SAME_COPY      the writer fills the copy the newest value is in
 */

#ifndef WORDS
#define WORDS 2       /* words per value */
#endif
#ifndef WRITES
#define WRITES 3      /* writes per writer */
#endif
#ifndef WRITERS
#define WRITERS 1
#endif
#ifndef READERS
#define READERS 2
#endif
#ifndef READS
#define READS 2       /* rtipc_mailbox_read calls per reader */
#endif

#define EWOULDBLOCK 1

byte seq;                 /* struct rtipc_mailbox.seq */
byte buf[2 * WORDS];      /* version v lives in copy v & 1 */

/* ghost */
byte writers_done;
byte readers_done;

/* rtipc_mailbox_write_from_isr(): WRITES calls. */
proctype writer()
{
    byte s, v, i, calls = 0;

    do
    :: calls < WRITES ->
        /* s = atomic_load(&mb->seq, relaxed) */
        s = seq;
        do
        :: (s & 1) -> goto refused /* RTIPC_EWOULDBLOCK: another write in progress */
        :: else ->
            /* A2: compare_exchange_weak(&mb->seq, &s, s + 1, acquire):
             * on failure s is reloaded. */
            if
            :: d_step { seq == s -> seq = s + 1 } -> break
            :: d_step { seq != s -> s = seq }
            fi
        od;
        /* RF: release fence. v = (s >> 1) + 1; store_words(copy_of(mb, v)) */
        v = (s >> 1) + 1;
        i = 0;
        do
        :: i < WORDS ->
#ifndef MUT_SAME_COPY
            d_step { buf[(v & 1) * WORDS + i] = v; i++ }
#else
            d_step { buf[((v - 1) & 1) * WORDS + i] = v; i++ }
#endif
        :: else -> break
        od;
        /* R1: atomic_store(&mb->seq, s + 2, release) */
        atomic { assert(seq == s + 1); seq = s + 2 };
        /* F1 and the sleepers check: the wait path, not modelled. */
refused:
        calls++
    :: else -> break
    od;
    atomic { writers_done++ }
}

/* rtipc_mailbox_read(): READS calls. */
proctype reader()
{
    byte last = 0;       /* version of the previous successful read */
    byte reads = 0;
    byte v, s0, s1, i;
    bool idle0;
    byte w[WORDS];

    do
    :: reads < READS ->
again:
        /* A1: v = atomic_load(seq, acquire) >> 1 */
        atomic { s0 = seq; v = s0 >> 1; idle0 = (writers_done == WRITERS) }
        /* load_words(buf, copy_of(mb, v)): one relaxed load per word */
        i = 0;
        do
        :: i < WORDS -> d_step { w[i] = buf[(v & 1) * WORDS + i]; i++ }
        :: else -> break
        od;
        /* AF: acquire fence; s1 = atomic_load(seq, relaxed) */
        s1 = seq;
#if defined(MUT_NO_RECHECK)
        skip;
#elif defined(MUT_LOOSE_RECHECK)
        if
        :: s1 <= 2 * v + 3 -> skip
        :: else -> goto retry
        fi;
#else
        if
        :: s1 <= 2 * v + 2 -> skip
        :: else -> goto retry
        fi;
#endif
        /* Success: *version = v. */
        atomic {
            i = 0;
            do
            :: i < WORDS -> assert(w[i] == v); i++ /* not torn; the value is version v's */
            :: else -> break
            od;
            assert(v >= last);                     /* versions never go back */
            last = v;
            reads++
        }
    :: else -> break
    od;
    atomic { readers_done++ };
    goto finished;
retry:
    /* "The write of version v+2 reused this copy meanwhile: again." Only
     * writers' progress during this attempt can cause it: the write of v+1
     * completed and the one of v+2 claimed seq after our first load (seq
     * moved by at least 2), and the writers were not idle when the attempt
     * began. A writer stalled anywhere in one write never causes a retry. */
    assert(!idle0 && s1 >= s0 + 2);
    goto again;
finished:
    skip
}

init {
    byte k;
    assert(WRITERS >= 1 && 2 * WRITERS * WRITES + 1 < 256);
    atomic {
        k = 0;
        do
        :: k < WRITERS -> run writer(); k++
        :: else -> break
        od;
        k = 0;
        do
        :: k < READERS -> run reader(); k++
        :: else -> break
        od
    }
    (writers_done == WRITERS && readers_done == READERS);
    assert(!(seq & 1))
}

ltl done { <> (readers_done == READERS) }
