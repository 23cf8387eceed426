/* Model of the park/unpark handshake and the blocking loop (src/port/posix/kernel/wait.c,
 * src/port/posix/kernel/wait.h) as the queue uses them (src/port/posix/objects/queue.c:
 * attempt_send, attempt_receive), with the spin-then-park phase of
 * src/port/posix/kernel/spin.c (rtipc__spin_wait), futex semantics (src/port/posix/kernel/futex.h),
 * timeouts and, with -DDELETE, a deletion request (rtipc_task_delete in
 * src/port/posix/kernel/task.c) racing a wake-up.
 *
 * Tasks (one proctype `task`, three instances):
 *   0  receiver, no timeout: rtipc_queue_receive(q, .., RTIPC_WAIT_FOREVER)
 *   1  receiver with a timeout; if it times out it receives again with no
 *      timeout (so a correct run always ends); with -DDELETE another task
 *      may delete it at any moment
 *   2  sender of ITEMS items, no timeout: rtipc_queue_send(.., FOREVER)
 * on a queue of length QLEN. Equal priorities: the wait lists are FIFO.
 *
 *   C                                         model
 *   struct rtipc_task.park (futex word)       park[t]: bit 0 ASLEEP, +STEP per unpark
 *   the kernel's futex queue of park[t]       infutex[t]: t sleeps in FUTEX_WAIT
 *   rtipc__waiter_t.woken (the node in block)  woken[t] (one node per task at a time)
 *   struct rtipc_task.delete_requested        delreq[t]
 *   the deadline (rtipc_time_ns() >= it)      expired[t], set once by proctype clock
 *   q->lock (rtipc__lock_t)                    lock: a mutex (0 free, owner + 1)
 *   count_of(q), q->receivers, q->senders     count, wl[]/wlen[] (FIFO lists)
 *
 * Futex semantics: FUTEX_WAIT compares the word and queues the sleeper in
 * one atomic step (else EAGAIN, which rtipc__futex_wait reports as 0); it
 * returns when a FUTEX_WAKE on that word dequeues it, when the deadline has
 * passed (-ETIMEDOUT), or spuriously (SPURIOUS times in all, which also
 * stands for -EINTR). FUTEX_WAKE wakes the one sleeper of that word if
 * there is one. Each task parks on its own word, so a wake can only reach
 * the task whose word it names; a late unpark of a task that has moved on
 * reaches it in its next wait, as a spurious wake-up.
 *
 * Granularity: one step per atomic access outside the object lock. What a
 * task does under q->lock (a waiter list update, attempt_*) is one step,
 * except the store of woken, which the waiter reads without the lock: it
 * is the last action of that step (rtipc__waitlist_wake stores it last).
 * rtipc__spin_wait polls woken: one optional poll stands for any number of
 * polls (a poll that fails changes nothing). Not modelled: the spin rules'
 * bookkeeping (run states, waker_cpu: they only decide whether to spin),
 * interrupt-context wakers and the deferred release (wait_until_released),
 * priorities and priority inheritance. Promela is sequentially consistent:
 * the acquire/release orderings of wait.c are assumed (tests/model/README.md).
 *
 * Properties:
 * - no lost wake-up: every task ends (a waiter left asleep while the
 *   others are done is an invalid end state of the init process, which
 *   waits for all of them); with -a, `<> alldone` under weak fairness
 *   (no cycle in which a task waits forever);
 * - no wake-up of the wrong waiter: a waker marks woken only a node that is
 *   queued on that list and not woken yet (assertion in wl_wake_one);
 * - a timeout or a deletion racing a wake leaves the queue consistent: at
 *   the end every item was either received once or is still in the queue,
 *   no sender or receiver is left waiting, and counts stay in range.
 *
 * Mutants (each must make the check fail; tests/model/run.sh):
 *   MUT_CHECK_BEFORE_BUMP  unpark decides on FUTEX_WAKE from a load of park
 *                          made before its bump, not from the CAS's old value
 *   MUT_STORE_ANNOUNCE     park_sleep announces with a plain store, not a CAS
 *                          from `seen`
 *   MUT_SEEN_AFTER_CHECK   park_until loads `seen` after checking woken
 *   MUT_NO_PASS_ON         (with DELETE) a deleted waiter that was woken does
 *                          not pass the wake-up on to the next waiter
 */

#ifndef QLEN
#define QLEN 1
#endif
#define ITEMS 2           /* one for each receiver */
#ifndef SPURIOUS
#define SPURIOUS 1
#endif

#define NT 3
#define NONE 255
#define ASLEEP 1          /* RTIPC__PARK_ASLEEP */
#define STEP 2            /* RTIPC__PARK_STEP */

#define RECEIVERS 0
#define SENDERS 1

#define OK 0
#define WOULDBLOCK 1
#define ETIMEDOUT 2

#define P_NONE 0
#define P_WOKEN 1         /* PARK_WOKEN */
#define P_TIMEDOUT 2      /* PARK_TIMEDOUT */
#define P_DELETED 3       /* PARK_DELETED */

byte park[NT];
bool infutex[NT];
bool woken[NT];
bool delreq[NT];
bool expired[NT];
byte spurious = SPURIOUS;

byte lock;
byte count;
byte wl[2 * NT];
byte wlen[2];

/* ghost */
bool queued[NT];
byte sent, received;
bool finished[NT];
bool deleted[NT];

#include "park_common.pml"

/* ---- the queue's attempts (queue.c), under the lock ---------------------- */
inline attempt(kind, rc, wake)
{
    d_step {
        if
        :: kind == RECEIVERS -> /* attempt_receive */
            if
            :: count == 0 -> rc = WOULDBLOCK
            :: else ->
                count--; received++; rc = OK;
                wl_wake_one(SENDERS, wake)
            fi
        :: else -> /* attempt_send */
            if
            :: count == QLEN -> rc = WOULDBLOCK
            :: else ->
                count++; sent++; rc = OK;
                wl_wake_one(RECEIVERS, wake)
            fi
        fi;
        assert(count <= QLEN)
    }
}

/* ---- rtipc__block (wait.c) -------------------------------------------------- */
inline block(kind, timed, rc)
{
    timed_out = 0;
    atomic { lock == 0 -> lock = me + 1 };          /* rtipc__lock */
    do
    :: wake = NONE;
        attempt(kind, rc, wake);
        if
        :: rc != WOULDBLOCK || timed_out ->
            if
            :: rc == WOULDBLOCK -> rc = ETIMEDOUT
            :: else
            fi;
            /* A timed-out waiter that was woken leaves no item behind: its
             * last attempt failed only because the queue is empty again. */
            assert(rc != ETIMEDOUT || kind != RECEIVERS || count == 0);
            lock = 0;                               /* rtipc__unlock */
            if
            :: wake != NONE -> unpark(wake); wake = NONE
            :: else
            fi;
            break
        :: else
        fi;
        /* w.woken = 0; mark_blocked; rtipc__waitlist_insert; unlock */
        d_step { woken[me] = 0; WL_INSERT(kind, me) };
        lock = 0;
        park_until(timed);
        atomic { lock == 0 -> lock = me + 1 };
        if
        :: !woken[me] -> d_step { wl_remove(kind, me) }
        :: else
        fi;
        assert(!queued[me]);
#ifdef DELETE
        if
        :: parked == P_DELETED ->
            /* A wake-up meant for this waiter goes to the next one. */
            pass = NONE;
#ifndef MUT_NO_PASS_ON
            if
            :: woken[me] -> d_step { wl_wake_one(kind, pass) }
            :: else
            fi;
#endif
            lock = 0;
            if
            :: pass != NONE -> unpark(pass)
            :: else
            fi;
            deleted[me] = 1;                        /* rtipc__task_exit_self */
            break
        :: else
        fi;
#endif
        if
        :: parked == P_TIMEDOUT -> timed_out = 1    /* op->abandon: none for a queue */
        :: else
        fi;
        parked = P_NONE
    od;
    timed_out = 0
}

proctype task(byte me; byte kind; byte ops; bool timed_first)
{
    byte rc, wake, pass, old, seen, prc, parked, k;
    bool timed = timed_first, timed_out, sleep, asl;

    do
    :: ops > 0 && !deleted[me] ->
        block(kind, timed, rc);
        if
        :: deleted[me] -> break
        :: rc == OK -> ops--
        :: rc == ETIMEDOUT -> assert(timed)
        fi;
        timed = 0 /* later calls wait forever */
    :: else -> break
    od;
    finished[me] = 1
}

/* The deadline of the timed receiver passes at some moment. */
proctype clock()
{
    expired[1] = 1
}

#ifdef DELETE
/* rtipc_task_delete(task 1): request, unpark, join. */
proctype deleter()
{
    byte old;
    bool asl;
    byte me = NT;
    delreq[1] = 1;
    unpark(1);
    finished[1]                                     /* pthread_join */
}
#endif

#define ALLDONE (finished[0] && finished[1] && finished[2])

init {
    atomic {
        run task(0, RECEIVERS, 1, 0);
        run task(1, RECEIVERS, 1, 1);
        run task(2, SENDERS, ITEMS, 0);
        run clock();
#ifdef DELETE
        run deleter();
#endif
    }
    ALLDONE;
    /* Every item sent was received once or is still queued; nobody waits. */
    assert(sent == ITEMS && received + count == sent);
    assert(wlen[RECEIVERS] == 0 && wlen[SENDERS] == 0);
#ifndef DELETE
    assert(received == 2 && count == 0);
#else
    assert(received == 2 - deleted[1])
#endif
}

ltl alldone { <> ALLDONE }
