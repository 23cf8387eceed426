/* The park/unpark handshake shared by park.pml and spsc_block.pml: wait
 * lists, futex wait/wake, rtipc__unpark and park_until (src/port/posix/kernel/wait.c,
 * wait.h, futex.h, spin.c). See park.pml for the mapping to the C code.
 *
 * The including model declares, before #including this file:
 *   NT (tasks), NONE, ASLEEP, STEP, OK, ETIMEDOUT, P_NONE .. P_DELETED,
 *   byte park[NT]; bool infutex[NT], woken[NT], delreq[NT], expired[NT];
 *   byte spurious, lock, wl[2 * NT], wlen[2]; bool queued[NT];
 * and, in the proctype that uses the inlines: byte me, k, old, seen, prc,
 * parked; bool sleep, asl. */

/* ---- wait lists (wait.c), under the lock; bodies of one atomic step ---- */

/* rtipc__waitlist_insert: equal priorities, so at the end (FIFO). */
#define WL_INSERT(L, t) \
    wl[(L) * NT + wlen[L]] = t; wlen[L]++; queued[t] = 1

/* rtipc__waitlist_remove(list, w): unlink t if queued on L. */
inline wl_remove(L, t)
{
    k = 0;
    do
    :: k < wlen[L] && wl[(L) * NT + k] != t -> k++
    :: else -> break
    od;
    if
    :: k < wlen[L] ->
        do
        :: k + 1 < wlen[L] -> wl[(L) * NT + k] = wl[(L) * NT + k + 1]; k++
        :: else -> break
        od;
        wlen[L]--;
        wl[(L) * NT + wlen[L]] = 0;
        queued[t] = 0
    :: else
    fi;
    k = 0 /* dead from here: reset, so that it does not split states */
}

/* rtipc__waitlist_wake_one: pop the first node, read its task, store
 * woken = 1 (release) last. */
inline wl_wake_one(L, res)
{
    if
    :: wlen[L] == 0 -> res = NONE
    :: else ->
        res = wl[(L) * NT];
        /* Never the wrong waiter: the node is queued here and not woken yet,
         * and the waker holds the object lock. */
        assert(queued[res] && !woken[res] && lock == me + 1);
        wl_remove(L, res);
        woken[res] = 1
    fi
}

/* ---- futex (futex.h, the kernel) ---------------------------------------- */

inline futex_wake(t)
{
    atomic {
        if
        :: infutex[t] -> infutex[t] = 0
        :: else
        fi
    }
}

/* rtipc__futex_wait(&park[me], expected, deadline); rc: OK or ETIMEDOUT. */
inline futex_wait(expected, timed, rc)
{
    rc = OK;
    atomic {
        if
        :: park[me] == expected -> infutex[me] = 1
        :: else /* EAGAIN: 0 */
        fi
    };
    if
    :: !infutex[me] -> skip /* not queued, or dequeued by FUTEX_WAKE */
    :: atomic { infutex[me] && timed && expired[me] -> infutex[me] = 0; rc = ETIMEDOUT }
    :: atomic { infutex[me] && spurious > 0 -> spurious--; infutex[me] = 0 }
    fi
}

/* ---- park / unpark (wait.c) --------------------------------------------- */

/* rtipc__unpark(t). spin_note_waker and mark_ready are spin bookkeeping. */
inline unpark(t)
{
#ifdef MUT_CHECK_BEFORE_BUMP
    asl = park[t] & ASLEEP;
#endif
    old = park[t];                                   /* relaxed load */
    do
    :: d_step { park[t] == old -> park[t] = (old + STEP) & 254 }; break /* CAS acq_rel */
    :: d_step { park[t] != old -> old = park[t] }    /* CAS failed: old reloaded */
    od;
#ifndef MUT_CHECK_BEFORE_BUMP
    if
    :: (old & ASLEEP) -> futex_wake(t)
    :: else
    fi
#else
    if
    :: asl -> futex_wake(t)
    :: else
    fi;
    asl = 0;
#endif
    old = 0 /* dead from here */
}

/* park_until(self, &w, deadline, spin) with rtipc__park_sleep and
 * rtipc__park_awake; result in parked. */
inline park_until(timed)
{
    parked = P_NONE;
    /* rtipc__spin_wait(self, spin, deadline, waiter_woken, &w): it may stop
     * polling at any time (budget, deadline, the same-core rules). */
    if
    :: woken[me] -> parked = P_WOKEN
    :: true
    fi;
    do
    :: parked != P_NONE -> break
    :: else ->
#ifndef MUT_SEEN_AFTER_CHECK
        seen = park[me];                             /* acquire */
#endif
        if
        :: woken[me] -> parked = P_WOKEN             /* is_woken: acquire */
        :: else ->
            if
            :: delreq[me] -> parked = P_DELETED
            :: else ->
#ifdef MUT_SEEN_AFTER_CHECK
                seen = park[me];
#endif
                /* rtipc__park_sleep(self, seen, deadline) */
                if
                :: !(seen & ASLEEP) ->
#ifndef MUT_STORE_ANNOUNCE
                    /* the announcement: CAS seen -> seen | ASLEEP (release) */
                    if
                    :: d_step { park[me] == seen -> park[me] = seen | ASLEEP; seen = seen | ASLEEP; sleep = 1 }
                    :: d_step { park[me] != seen -> sleep = 0 } /* an unpark came: return 0 */
                    fi
#else
                    d_step { park[me] = seen | ASLEEP; seen = seen | ASLEEP; sleep = 1 }
#endif
                :: else -> sleep = 1
                fi;
                prc = OK;
                if
                :: sleep -> futex_wait(seen, timed, prc)
                :: else
                fi;
                /* rc == -ETIMEDOUT || (deadline >= 0 && rtipc_time_ns() >= deadline) */
                if
                :: prc == ETIMEDOUT || (timed && expired[me]) ->
                    if
                    :: woken[me] -> parked = P_WOKEN
                    :: else -> parked = P_TIMEDOUT
                    fi
                :: else
                fi
            fi
        fi
    od;
    atomic { seen = 0; prc = OK; sleep = 0 } /* dead from here */
    /* rtipc__park_awake: relaxed load, then fetch_and if the bit is set */
    if
    :: (park[me] & ASLEEP) -> d_step { park[me] = park[me] & 254 }
    :: else
    fi
}
