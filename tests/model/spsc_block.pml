/* Model of the SPSC ring's blocking path: rtipc_spsc_push / rtipc_spsc_pop
 * with no timeout (src/port/posix/objects/spsc_wait.c: wait_for, attempt,
 * rtipc__spsc_wake), the "sleeping" flag handshake with the wait-free moves
 * (src/common/spsc.c: rtipc__spsc_put/get, the load of sleeping[] after
 * fences F1/F2, push_n/pop_n), on top of the park/unpark handshake and the
 * blocking loop (park_common.pml, rtipc__block in src/port/posix/kernel/wait.c).
 *
 * Task 0 is the consumer (pops ITEMS items), task 1 the producer (pushes the
 * sequence numbers 1..ITEMS) on a ring of capacity CAP, so both sides must
 * park. Shared: tail, head, slot[], sleeping[2] (struct rtipc_spsc), the
 * port lock and the two wait lists (spsc_port_t), the park words.
 *
 * Each access to the ring is one step, as in spsc.pml; a fence is not a
 * step (Promela is sequentially consistent: F1..F4 are assumed, which is
 * exactly what the seq_cst fences provide for this store->load handshake).
 *
 * With -DTIMED the consumer's first blocking pop has a timeout (a clock
 * process lets the deadline pass at any moment): wait_for's deadline check
 * after the spin, the timed park, abandon() clearing the flag and the last
 * attempt that must not raise it again. After a timeout it pops again with
 * no timeout.
 *
 * Properties: the consumer gets 1..ITEMS in order; no lost wake-up (both
 * sides finish: a side parked forever is an invalid end state; with -a,
 * `<> alldone` under weak fairness); at the end no sleeping flag is left
 * raised and no wait list holds a task.
 *
 * Mutants:
 *   MUT_FLAG_AFTER   attempt() raises sleeping[me] after its retry of the
 *                    ring, not before (the F3/F4 order broken)
 *   MUT_NO_PEER_CHECK  put()/get() do not look at the peer's sleeping flag
 *                    after a move (F1/F2 and the load dropped)
 *   MUT_RAISE_ABANDONED  (with TIMED) the last attempt after a timeout
 *                    raises the flag although the caller stops waiting
 */

#ifndef CAP
#define CAP 1
#endif
#ifndef ITEMS
#define ITEMS 3
#endif
#ifndef SPURIOUS
#define SPURIOUS 1
#endif

#define NT 2
#define NONE 255
#define ASLEEP 1
#define STEP 2

#define CONSUMER 0          /* RTIPC__SPSC_CONSUMER: task 0, wait list 0 */
#define PRODUCER 1          /* RTIPC__SPSC_PRODUCER: task 1, wait list 1 */

#define OK 0
#define WOULDBLOCK 1
#define ETIMEDOUT 2

#define P_NONE 0
#define P_WOKEN 1
#define P_TIMEDOUT 2
#define P_DELETED 3

byte park[NT];
bool infutex[NT];
bool woken[NT];
bool delreq[NT];
bool expired[NT];
byte spurious = SPURIOUS;

byte lock;                  /* spsc_port_t.lock */
byte wl[2 * NT];            /* spsc_port_t.waiters[side] */
byte wlen[2];

byte tail, head;            /* struct rtipc_spsc.tail / head (no wrap needed here) */
byte slot[CAP];
bool sleeping[2];           /* struct rtipc_spsc.sleeping[side] */

/* ghost */
bool queued[NT];
bool finished[NT];

#include "park_common.pml"

/* One wait-free move of one item, for side `me`: rtipc__spsc_put (producer)
 * or rtipc__spsc_get (consumer); moved 0/1, ps = *peer_sleeping. */
inline ring_move(moved, ps)
{
    moved = 0;
    ps = 0;
    if
    :: me == PRODUCER ->
        d_step { x = tail; room = CAP - (x - cache) }     /* relaxed; head_cache */
        if
        :: room < 1 -> d_step { cache = head; room = CAP - (x - cache) } /* A2 */
        :: else
        fi;
        if
        :: room > 0 ->
            slot[x % CAP] = x + 1;                         /* copy_in */
            tail = x + 1;                                  /* R1 */
#ifndef MUT_NO_PEER_CHECK
            ps = sleeping[CONSUMER];                       /* F1, then the load */
#endif
            moved = 1
        :: else
        fi
    :: else ->
        d_step { x = head; room = cache - x }              /* relaxed; tail_cache */
        if
        :: room < 1 -> d_step { cache = tail; room = cache - x } /* A1 */
        :: else
        fi;
        if
        :: room > 0 ->
            d_step { assert(slot[x % CAP] == x + 1); got = x + 1 } /* copy_out */
            head = x + 1;                                  /* R2 */
#ifndef MUT_NO_PEER_CHECK
            ps = sleeping[PRODUCER];                       /* F2, then the load */
#endif
            moved = 1
        :: else
        fi
    fi;
    d_step { x = 0; room = 0 }
}

/* rtipc__spsc_wake(r, side) from a task: lock, wake one, clear the flag. */
inline spsc_wake(side)
{
    atomic { lock == 0 -> lock = me + 1 };
    d_step { wl_wake_one(side, wake) };
    sleeping[side] = 0;                                    /* clear_sleeping */
    lock = 0;
    if
    :: wake != NONE -> unpark(wake); wake = NONE
    :: else
    fi
}

/* try_once: rtipc_spsc_try_push / try_pop (push_n / pop_n with 1 item). */
inline try_once(moved)
{
    ring_move(moved, ps);
    if
    :: ps -> spsc_wake(1 - me)
    :: else
    fi;
    ps = 0
}

/* attempt() of spsc_wait.c, under the port lock. */
inline spsc_attempt(rc)
{
#ifndef MUT_FLAG_AFTER
    if
#ifndef MUT_RAISE_ABANDONED
    :: !abandoned -> sleeping[me] = 1                      /* then F3 / F4 */
#else
    :: true -> sleeping[me] = 1
#endif
    :: else
    fi;
#endif
    ring_move(moved, ps);
#ifdef MUT_FLAG_AFTER
    sleeping[me] = 1;
#endif
    if
    :: moved == 0 -> rc = WOULDBLOCK
    :: else ->
        sleeping[me] = 0;                                  /* clear_sleeping(r, me) */
        if
        :: ps ->
            d_step { wl_wake_one(1 - me, wake) };          /* op->wake */
            sleeping[1 - me] = 0
        :: else
        fi;
        rc = OK
    fi;
    ps = 0
}

/* rtipc__block(&p->lock, &p->waiters[me], &o->op, left, RTIPC__SPIN_NONE) */
inline block(rc)
{
    timed_out = 0;
    atomic { lock == 0 -> lock = me + 1 };
    do
    :: wake = NONE;
        spsc_attempt(rc);
        if
        :: rc != WOULDBLOCK || timed_out ->
            if
            :: rc == WOULDBLOCK -> rc = ETIMEDOUT
            :: else
            fi;
            lock = 0;
            if
            :: wake != NONE -> unpark(wake); wake = NONE
            :: else
            fi;
            break
        :: else
        fi;
        d_step { woken[me] = 0; WL_INSERT(me, me) };
        lock = 0;
        park_until(timed);
        atomic { lock == 0 -> lock = me + 1 };
        if
        :: !woken[me] -> d_step { wl_remove(me, me) }
        :: else
        fi;
        if
        :: parked == P_TIMEDOUT ->
            timed_out = 1;
            abandoned = 1;                                 /* abandon() */
            sleeping[me] = 0
        :: else
        fi;
        parked = P_NONE
    od;
    atomic { timed_out = 0; abandoned = 0 }
}

/* rtipc_spsc_push / rtipc_spsc_pop with RTIPC_WAIT_FOREVER, ITEMS times. */
proctype side(byte me)
{
    byte n = 0, rc, wake = NONE, old, seen, prc, parked, k, x, room, cache, got;
    bool sleep, asl, moved, ps, timed_out, abandoned;
#ifdef TIMED
    bool timed = (me == CONSUMER);  /* the consumer's first wait has a timeout */
#else
    bool timed = 0;
#endif

    do
    :: n < ITEMS ->
        try_once(moved);
        if
        :: moved -> skip
        :: else ->
            /* wait_for: rtipc__spin_wait(.., moved_one, o) may try again
             * (each try a whole try_once) before it gives up; then park. */
            if
            :: try_once(moved)
            :: true
            fi;
            if
            :: moved -> rc = OK
            :: !moved && timed && expired[me] ->
                /* wait_for: the deadline passed while spinning */
                try_once(moved);
                rc = (moved -> OK : ETIMEDOUT)
            :: !moved -> block(rc)
            fi
        fi;
        if
        :: moved || rc == OK ->
            if
            :: me == CONSUMER -> assert(got == n + 1)      /* in order, none lost */
            :: else
            fi;
            n++
        :: else ->
            /* Timed out: the caller stops waiting and leaves no flag raised
             * (abandon() cleared it, the last attempt did not raise it). */
            assert(rc == ETIMEDOUT && timed && !sleeping[me])
        fi;
        d_step { timed = 0; moved = 0; got = 0; rc = OK }   /* later calls: forever */
    :: else -> break
    od;
    finished[me] = 1
}

#ifdef TIMED
/* The consumer's deadline passes at some moment. */
proctype clock()
{
    expired[CONSUMER] = 1
}
#endif

init {
    atomic {
        run side(CONSUMER);
        run side(PRODUCER);
#ifdef TIMED
        run clock()
#endif
    }
    (finished[0] && finished[1]);
    assert(tail == ITEMS && head == ITEMS && wlen[0] == 0 && wlen[1] == 0);
    /* No flag is left raised: the fast paths stay lock-free afterwards. */
    assert(!sleeping[0] && !sleeping[1])
}

ltl alldone { <> (finished[0] && finished[1]) }
