/* Model of the SPSC ring's index protocol (src/common/spsc.c,
 * src/common/spsc_internal.h, include/rtipc/spsc.h).
 *
 * One producer, one consumer and one observer calling rtipc_spsc_size().
 * Every shared variable of the C code's fast path is here:
 *
 *   C (struct rtipc_spsc)            model
 *   _Atomic uint32_t tail            tail  (IDXBITS wide instead of 32)
 *   _Atomic uint32_t head            head
 *   uint32_t head_cache (producer)   local head_cache of proctype producer
 *   uint32_t tail_cache (consumer)   local tail_cache of proctype consumer
 *   slots[(i & mask) * item_size]    slot[i % CAP], one item = one byte
 *
 * Indices run freely and wrap at 2^IDXBITS as the C indices wrap at 2^32
 * (2^32 and 2^IDXBITS are both multiples of the capacity, so `i & mask`
 * picks the same slot). Both start at START, just below the wrap, which is
 * the state of a ring that has moved k * 2^IDXBITS + START items: the first
 * pushes and pops cross the wrap. The C code never looks at an index
 * except through differences and `& mask`, so a ring created at 0 and one
 * that has run to START behave alike.
 *
 * The producer pushes the sequence numbers 1..ITEMS, in bulks of a size
 * chosen at each call (rtipc_spsc_push_bulk; 1 = rtipc_spsc_try_push). The
 * consumer pops bulks of any size (rtipc_spsc_pop_bulk, try_pop) or peeks
 * (rtipc_spsc_peek) and checks every item against the next number it
 * expects: no item lost, duplicated or reordered.
 *
 * Ghost state (not in the C code; updated in the same atomic step as the C
 * access it describes): sstate[] follows every slot through
 *   EMPTY -(producer stores item)-> WRITTEN -(R1: tail store)-> PUBLISHED
 *   -(consumer copies it out)-> READING -(R2: head store)-> EMPTY
 * and the assertions say: the producer writes only EMPTY slots (never
 * overwrites an unread one), the consumer reads only PUBLISHED ones (never a
 * slot the producer has not published). pushed/popped count items without
 * wrapping, for the size() check.
 *
 * Granularity: one Promela step per atomic access of the C code; a memcpy
 * of n items is n steps (one per slot), the local arithmetic is folded into
 * the step that reads the shared variable it depends on (d_step). Promela
 * runs steps in one total order (sequential consistency): the acquire and
 * release orderings R1/A1, R2/A2, A3 are assumed here, not verified
 * (tests/model/README.md).
 *
 * The sleeping flags and fences F1..F4 of the blocking path (spsc.c,
 * src/port/posix/objects/spsc_wait.c) are in spsc_block.pml: they only add a load after
 * each successful move and do not change the indices.
 *
 * Mutants (each must make the check fail; tests/model/run.sh):
 *   MUT_PUBLISH_FIRST  put() stores tail before it copies the items in
 *   MUT_HEAD_EARLY     get() stores head before it copies the items out
 *   MUT_SIZE_TAIL_FIRST  size() loads tail before head (A3 order swapped)
 *   MUT_NO_REFRESH     put(), finding too little room by head_cache, assumes
 *                      the ring is free instead of reloading head (A2)
 */

#ifndef CAP
#define CAP 2            /* capacity = mask + 1, a power of two */
#endif
#ifndef IDXBITS
#define IDXBITS 3        /* index width (uint32_t in the C code) */
#endif
#define IDXN (1 << IDXBITS)
#define IDXMASK (IDXN - 1)
#ifndef START
#define START (IDXN - 1) /* first index: one below the wrap */
#endif
#ifndef ITEMS
#define ITEMS 5          /* items pushed: 1..ITEMS */
#endif
#ifndef SIZE_CALLS
#define SIZE_CALLS 2     /* rtipc_spsc_size() calls by the observer */
#endif

#define EMPTY 0
#define WRITTEN 1
#define PUBLISHED 2
#define READING 3

#define WRAP(x) ((x) & IDXMASK)
#define MIN(a, b) ((a) < (b) -> (a) : (b))

byte tail = START;       /* struct rtipc_spsc.tail */
byte head = START;       /* struct rtipc_spsc.head */
byte slot[CAP];          /* the storage: slot[i % CAP] holds item i */

/* ghost */
byte sstate[CAP];
byte pushed;             /* items published, not wrapped */
byte popped;             /* items released by head stores, not wrapped */
bool producer_done, consumer_done, observer_done;

/* rtipc__spsc_put(): the producer side of push_n() after clamp_count(). */
proctype producer()
{
    byte head_cache = START; /* struct rtipc_spsc.head_cache: producer only */
    byte next = 1;           /* next sequence number to push */
    byte t, room, want, n, i;

    do
    :: next <= ITEMS ->
        /* push_n -> clamp_count: 1 .. capacity items; never more than the
         * items left to send (the model's producer has no more). */
        select (want : 1 .. CAP);
        want = MIN(want, ITEMS + 1 - next);
        /* uint32_t tail = atomic_load(&r->tail, relaxed): only the producer
         * writes tail. room = cap - (tail - head_cache). */
        d_step {
            t = tail;
            assert(WRAP(t - head_cache) <= CAP);
            room = CAP - WRAP(t - head_cache)
        }
        if
        :: room < want ->
#ifndef MUT_NO_REFRESH
            /* A2: r->head_cache = atomic_load(&r->head, acquire) */
            d_step {
                head_cache = head;
                assert(WRAP(t - head_cache) <= CAP);
                room = CAP - WRAP(t - head_cache)
            }
#else
            /* Mutant: pretend the consumer has freed the whole ring. */
            room = CAP
#endif
        :: else
        fi;
        n = MIN(want, room);
        if
        :: n == 0 -> skip /* RTIPC_EWOULDBLOCK (or 0 moved) */
        :: else ->
#ifdef MUT_PUBLISH_FIRST
            d_step {
                tail = WRAP(t + n);
                pushed = pushed + n
            }
#endif
            /* copy_in(r, tail, items, n): one step per slot, wrapping at the
             * end of the storage as copy_in's two memcpy calls do. */
            i = 0;
            do
            :: i < n ->
                d_step {
                    assert(sstate[WRAP(t + i) % CAP] == EMPTY); /* never overwrite an unread slot */
                    slot[WRAP(t + i) % CAP] = next + i;
                    sstate[WRAP(t + i) % CAP] = WRITTEN;
                    i++
                }
            :: else -> break
            od;
#ifndef MUT_PUBLISH_FIRST
            /* R1: atomic_store(&r->tail, tail + n, release) */
            atomic {
                tail = WRAP(t + n);
                pushed = pushed + n;
                i = 0;
                do
                :: i < n -> assert(sstate[WRAP(t + i) % CAP] == WRITTEN);
                            sstate[WRAP(t + i) % CAP] = PUBLISHED; i++
                :: else -> break
                od
            }
#else
            atomic {
                i = 0;
                do
                :: i < n -> sstate[WRAP(t + i) % CAP] = PUBLISHED; i++
                :: else -> break
                od
            }
#endif
            next = next + n
        fi
    :: else -> break
    od;
    producer_done = true
}

/* rtipc__spsc_get() and rtipc_spsc_peek() with available(). */
proctype consumer()
{
    byte tail_cache = START; /* struct rtipc_spsc.tail_cache: consumer only */
    byte expect = 1;         /* next sequence number due */
    byte h, avail, want, n, i;

    do
    :: expect <= ITEMS ->
        /* pop_n -> clamp_count: 1 .. capacity */
        select (want : 1 .. CAP);
        /* head = atomic_load(&r->head, relaxed); available(r, head, want):
         * avail = tail_cache - head */
        d_step {
            h = head;
            avail = WRAP(tail_cache - h);
            assert(avail <= CAP)
        }
        if
        :: avail < want ->
            /* A1: r->tail_cache = atomic_load(&r->tail, acquire) */
            d_step {
                tail_cache = tail;
                avail = WRAP(tail_cache - h);
                assert(avail <= CAP)
            }
        :: else
        fi;
        n = MIN(want, avail);
        if
        :: n == 0 -> skip /* RTIPC_EWOULDBLOCK */
        :: else ->
#ifdef MUT_HEAD_EARLY
            d_step {
                head = WRAP(h + n);
                popped = popped + n
            }
#endif
            /* copy_out(r, head, items, n): one step per slot */
            i = 0;
            do
            :: i < n ->
                d_step {
                    assert(sstate[WRAP(h + i) % CAP] == PUBLISHED); /* only published slots */
                    assert(slot[WRAP(h + i) % CAP] == expect + i);  /* none lost, duplicated, reordered */
                    sstate[WRAP(h + i) % CAP] = READING;
                    i++
                }
            :: else -> break
            od;
#ifndef MUT_HEAD_EARLY
            /* R2: atomic_store(&r->head, head + n, release) */
            atomic {
                head = WRAP(h + n);
                popped = popped + n;
                i = 0;
                do
                :: i < n -> sstate[WRAP(h + i) % CAP] = EMPTY; i++
                :: else -> break
                od
            }
#else
            atomic {
                i = 0;
                do
                :: i < n -> sstate[WRAP(h + i) % CAP] = EMPTY; i++
                :: else -> break
                od
            }
#endif
            expect = expect + n
        fi
    :: expect <= ITEMS ->
        /* rtipc_spsc_peek(): available(r, head, 1), copy_out one item, no
         * index store. */
        d_step {
            h = head;
            avail = WRAP(tail_cache - h)
        }
        if
        :: avail < 1 ->
            d_step {
                tail_cache = tail; /* A1 */
                avail = WRAP(tail_cache - h)
            }
        :: else
        fi;
        if
        :: avail == 0 -> skip
        :: else ->
            d_step {
                assert(sstate[h % CAP] == PUBLISHED);
                assert(slot[h % CAP] == expect)
            }
        fi
    :: else -> break
    od;
    consumer_done = true
}

/* rtipc_spsc_size(): any thread, no cached index. */
proctype observer()
{
    byte calls = 0;
    byte hd, tl, gpop, gpush, raw, size;

    do
    :: calls < SIZE_CALLS ->
#ifndef MUT_SIZE_TAIL_FIRST
        /* A3: head = atomic_load(&r->head, acquire), then tail (relaxed) */
        d_step { hd = head; gpop = popped }
        d_step { tl = tail; gpush = pushed }
#else
        d_step { tl = tail; gpush = pushed }
        d_step { hd = head; gpop = popped }
#endif
        d_step {
            raw = WRAP(tl - hd);               /* uint32_t n = tail - head */
            size = (raw > CAP -> CAP : raw);    /* clamp to the capacity */
            /* The difference is never negative: the tail read is at least the
             * head read (so raw is the true difference, not a wrapped
             * negative one), and the result is a size. */
            assert(gpush >= gpop);
            assert(raw == gpush - gpop);
            assert(size <= CAP);
            calls++
        }
    :: else -> break
    od;
    observer_done = true
}

init {
    assert(CAP >= 1 && (CAP & (CAP - 1)) == 0);
    assert(IDXN % CAP == 0 && ITEMS < IDXN && START < IDXN);
    atomic {
        run producer();
        run consumer();
        run observer()
    }
    (producer_done && consumer_done && observer_done);
    /* Everything pushed was popped, once, and the ring is empty again. */
    assert(pushed == ITEMS && popped == ITEMS && tail == head);
    assert(tail == WRAP(START + ITEMS))
}
