/* Event groups.
 * - set/wait: 16 bits; tasks 0..2 own bits 4i..4i+3, a handler owns 12..15.
 *   An owner sets a bit only when it is not outstanding, and sometimes
 *   clears an outstanding one itself. Waiter j waits (any or all, clearing
 *   on exit) for the bits j, j+4, j+8, j+12, so every bit has one waiter.
 *   Per bit: sets = seen by its waiter + cleared by its owner + still set.
 * - sync: three tasks meet in rounds (rtipc_eventgroup_sync, FOREVER); every
 *   task completes the same number of rounds and sees all three bits. */
#include "soak_core.h"

enum { NBITS = 16, NWAITERS = 4, NOWNERS = 3 };

static rtipc_eventgroup_t *eg, *eg_sync;
static atomic_llong sets[NBITS], seen[NBITS], cleared[NBITS];

static bool outstanding(int b) { return atomic_load(&sets[b]) != atomic_load(&seen[b]) + atomic_load(&cleared[b]); }

static void check_bits(uint32_t v, const char *what)
{
    if (v & ~((1u << NBITS) - 1))
        soak_violation(O_EVENTS, "%s: bits 0x%06x outside the used ones", what, v);
}

/* One owner step for bit b (task, handler or supervisor). */
/* Task steps note their call; handler steps (w == NULL) have no worker. */
static void step_at(soak_worker_t *w, const char *where)
{
    if (w)
        soak_at(w, where);
}

static void owner_step(int b, bool may_clear, soak_worker_t *w, bool isr)
{
    if (!outstanding(b)) {
        soak_add(&sets[b], 1);
        soak_add(&soak_objs[O_EVENTS].sent, 1);
        uint32_t v = 0;
        int rc;
        if (isr) {
            bool woken = false;
            rc = rtipc_eventgroup_set_bits_from_isr(eg, 1u << b, &v, &woken);
            rtipc_irq_yield(woken);
        } else {
            step_at(w, "eventgroup_set_bits");
            rc = rtipc_eventgroup_set_bits(eg, 1u << b, &v);
        }
        if (rc != 0)
            soak_violation(O_EVENTS, "set_bits: %s", rtipc_strerror(rc));
        check_bits(v, "set_bits");
    } else if (may_clear) {
        uint32_t prev = 0;
        int rc;
        if (isr) {
            rc = rtipc_eventgroup_clear_bits_from_isr(eg, 1u << b, &prev);
        } else {
            step_at(w, "eventgroup_clear_bits");
            rc = rtipc_eventgroup_clear_bits(eg, 1u << b, &prev);
        }
        if (rc != 0)
            soak_violation(O_EVENTS, "clear_bits: %s", rtipc_strerror(rc));
        if (prev & (1u << b))
            soak_add(&cleared[b], 1);
        check_bits(prev, "clear_bits");
    }
}

static void owner(soak_worker_t *w)
{
    while (soak_running(w)) {
        owner_step(4 * w->id + (int)soak_below(w, 4), soak_below(w, 1024) == 0, w, false);
        if (soak_below(w, 32) == 0) {
            soak_at(w, "eventgroup_get_bits");
            int v = rtipc_eventgroup_get_bits(eg);
            if (v < 0)
                soak_violation(O_EVENTS, "get_bits: %s", rtipc_strerror(v));
            else
                check_bits((uint32_t)v, "get_bits");
        }
        soak_pace(w);
    }
}

static uint32_t waiter_mask(int j) { return 0x1111u << j; }

static void count_seen(uint32_t v, uint32_t mask)
{
    for (int b = 0; b < NBITS; ++b)
        if (v & mask & (1u << b)) {
            soak_add(&seen[b], 1);
            soak_add(&soak_objs[O_EVENTS].received, 1);
        }
}

static void waiter(soak_worker_t *w)
{
    uint32_t mask = waiter_mask(w->id);
    while (soak_running(w)) {
        bool all = soak_below(w, 4) == 0;
        uint32_t v = 0;
        rtipc_timeout_t t = soak_timeout(w);
        /* All four bits are rarely set together (owners clear some): wait
         * for all of them for a bounded time only. */
        if (all && rtipc_timeout_is_forever(t))
            t = rtipc_ms(2);
        soak_at(w, all ? "eventgroup_wait_bits (all)" : "eventgroup_wait_bits (any)");
        int rc = rtipc_eventgroup_wait_bits(eg, mask, true, all, &v, t);
        if (rc == 0) {
            check_bits(v, "wait_bits");
            if (all ? (v & mask) != mask : (v & mask) == 0)
                soak_violation(O_EVENTS, "%s: wait (%s) returned 0x%04x for mask 0x%04x", w->name,
                               all ? "all" : "any", v, mask);
            count_seen(v, mask);
        } else {
            soak_not_now(w, rc, "wait_bits");
        }
        soak_pace(w);
    }
}

static void events_isr(stress_rng_t *rng)
{
    soak_isr_op(O_EVENTS);
    owner_step(12 + (int)stress_below(rng, 4), stress_below(rng, 256) == 0, NULL, true);
}

/* ---- sync rounds ------------------------------------------------------------------- */

enum { NSYNC = 3 };
static atomic_llong sync_rounds[NSYNC];
static atomic_llong stop_round; /* 0: not decided */

static void syncer(soak_worker_t *w)
{
    long long rounds = 0;
    for (;;) {
        if (!soak_running(w)) {
            /* The first to notice decides the last round: the others have
             * completed at most as many rounds as this task. */
            long long expected = 0;
            atomic_compare_exchange_strong(&stop_round, &expected, rounds + 1);
        }
        long long sr = atomic_load(&stop_round);
        if (sr != 0 && rounds >= sr)
            break;
        if (soak_below(w, 4) == 0)
            rtipc_task_delay(rtipc_us(soak_below(w, 300)));
        uint32_t v = 0;
        soak_at(w, "eventgroup_sync");
        int rc = rtipc_eventgroup_sync(eg_sync, 1u << w->id, 0x7, &v, RTIPC_FOREVER);
        if (rc != 0) {
            soak_violation(O_EVENTS, "sync: %s", rtipc_strerror(rc));
            break;
        }
        if ((v & 0x7) != 0x7)
            soak_violation(O_EVENTS, "%s: sync returned 0x%x", w->name, v);
        ++rounds;
        atomic_store(&sync_rounds[w->id], rounds);
        soak_pace(w);
    }
}

static void events_kick(void)
{
    /* The owners and the handler are gone: the supervisor sets bits as
     * their owner so that waiters blocked FOREVER wake up. */
    for (int b = 0; b < NBITS; ++b)
        owner_step(b, false, NULL, false);
}

static void events_final(void)
{
    int v = rtipc_eventgroup_get_bits(eg);
    for (int b = 0; b < NBITS; ++b) {
        long long s = atomic_load(&sets[b]), o = atomic_load(&seen[b]), c = atomic_load(&cleared[b]);
        long long still = (v >= 0 && (v & (1 << b))) ? 1 : 0;
        if (s != o + c + still)
            soak_violation(O_EVENTS, "bit %d: set %lld != seen %lld + cleared %lld + still set %lld", b, s, o, c,
                           still);
        soak_add(&soak_objs[O_EVENTS].dropped, c);
    }
    long long r0 = atomic_load(&sync_rounds[0]);
    for (int i = 1; i < NSYNC; ++i)
        if (atomic_load(&sync_rounds[i]) != r0)
            soak_violation(O_EVENTS, "sync: task %d completed %lld rounds, task 0 %lld", i,
                           (long long)atomic_load(&sync_rounds[i]), r0);
    if (r0 == 0)
        soak_violation(O_EVENTS, "sync: no round completed");
    if (rtipc_eventgroup_delete(eg) || rtipc_eventgroup_delete(eg_sync))
        soak_violation(O_EVENTS, "delete failed");
}

void soak_setup_events(void)
{
    static rtipc_eventgroup_static_t sync_cb;
    if (rtipc_eventgroup_create(&eg) || rtipc_eventgroup_create_static(&sync_cb, &eg_sync)) {
        soak_violation(O_EVENTS, "create failed");
        return;
    }
    soak_spin_set(O_EVENTS, rtipc_eventgroup_set_spin(eg, soak_spin(O_EVENTS)));
    soak_spin_set(O_EVENTS, rtipc_eventgroup_set_spin(eg_sync, soak_spin(O_EVENTS)));
    static const char *on[NOWNERS] = {"eg-own0", "eg-own1", "eg-own2"};
    static const char *wn[NWAITERS] = {"eg-wait0", "eg-wait1", "eg-wait2", "eg-wait3"};
    static const char *sn[NSYNC] = {"eg-sync0", "eg-sync1", "eg-sync2"};
    for (int i = 0; i < NOWNERS; ++i)
        soak_spawn(O_EVENTS, on[i], owner, NULL, i, false, 1 + (unsigned)i, soak_core(i & 1));
    for (int j = 0; j < NWAITERS; ++j)
        soak_spawn(O_EVENTS, wn[j], waiter, NULL, j, true, 4 - (unsigned)j, soak_core((j + 1) & 1));
    for (int i = 0; i < NSYNC; ++i)
        soak_spawn(O_EVENTS, sn[i], syncer, NULL, i, false, 2 + (unsigned)i, soak_core(i & 1));
    soak_isr_role(1, events_isr);
    soak_hooks(&(soak_hooks_t){events_kick, NULL, events_final});
}
