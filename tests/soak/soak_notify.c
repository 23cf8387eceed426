/* Task notifications, three receivers:
 * - counting (slot 0): gives from tasks and a handler; the receiver takes by
 *   decrement or clear. gives = sum taken + final value.
 * - set-bits (slot 1): each setter (3 tasks, a handler) owns one bit and sets
 *   it again only once the receiver has seen it. sets = bits seen, per bit.
 * - overwrite / no-overwrite (slot 2): values (producer, seq); per producer
 *   the receiver sees increasing seqs, never one not yet written; every
 *   RTIPC_EPENDING is counted as a drop and its previous value is valid. */
#include <inttypes.h>

#include "soak_core.h"

enum { SLOT_COUNT = 0, SLOT_BITS = 1 % RTIPC_NOTIFY_SLOTS, SLOT_VALUE = 2 % RTIPC_NOTIFY_SLOTS };
enum { NSETTERS = 4 }; /* bits 0..2 tasks, bit 3 the handler */

static soak_worker_t *rx_count, *rx_bits, *rx_value;
static soak_gate_t gate_count, gate_bits, gate_value;

/* counting */
static atomic_llong n_gives, n_taken;
static atomic_llong final_count = -1;

/* set-bits */
static atomic_llong bit_sets[NSETTERS], bit_seen[NSETTERS];

/* overwrite / no-overwrite: value = producer << 28 | (seq & 0x0fffffff), seq from 1 */
enum { V_OVW = 0, V_NOOVW = 1, V_ISR = 2, V_KICK = 3, V_PRODUCERS = 4 };
static atomic_ullong v_next[V_PRODUCERS]; /* next seq to send, from 1 */
static atomic_llong v_sent[V_PRODUCERS], v_recv[V_PRODUCERS];

static void note(soak_worker_t *w, int rc, const char *what)
{
    if (rc != 0)
        soak_violation(O_NOTIFY, "%s: %s: %s", w ? w->name : "isr", what, rtipc_strerror(rc));
}

static void count_giver(soak_worker_t *w)
{
    while (soak_running(w)) {
        soak_at(w, "notify_give");
        int rc = rtipc_notify_give(rx_count->task, SLOT_COUNT);
        note(w, rc, "give");
        if (rc == 0) {
            soak_add(&n_gives, 1);
            soak_add(&soak_objs[O_NOTIFY].sent, 1);
        }
        soak_pace(w);
    }
}

static void count_take_one(soak_worker_t *w, rtipc_timeout_t t)
{
    bool clear = soak_below(w, 4) == 0;
    uint32_t v = 0;
    soak_at(w, "notify_take");
    int rc = rtipc_notify_take(SLOT_COUNT, clear, &v, t);
    if (rc == 0) {
        if (v == 0)
            soak_violation(O_NOTIFY, "take succeeded with value 0");
        long long got = clear ? v : 1;
        soak_add(&n_taken, got);
        soak_add(&soak_objs[O_NOTIFY].received, got);
    } else {
        soak_not_now(w, rc, "take");
    }
}

static void count_receiver(soak_worker_t *w)
{
    soak_spin_set(O_NOTIFY, rtipc_notify_set_spin(NULL, (int64_t)(intptr_t)w->arg));
    while (soak_running(w)) {
        count_take_one(w, soak_timeout(w));
        soak_pace(w);
    }
    soak_gate_close(&gate_count);
    uint32_t v = 0;
    int rc = rtipc_notify_take(SLOT_COUNT, true, &v, RTIPC_NO_WAIT);
    if (rc == 0)
        soak_add(&n_taken, v), soak_add(&soak_objs[O_NOTIFY].received, v);
    else if (rc != RTIPC_EWOULDBLOCK)
        soak_violation(O_NOTIFY, "final take: %s", rtipc_strerror(rc));
    uint32_t prev = 1;
    rtipc_notify_value_clear(NULL, SLOT_COUNT, 0, &prev);
    atomic_store(&final_count, prev);
}

static void bit_setter_step(int i, soak_worker_t *w)
{
    if (atomic_load(&bit_seen[i]) != atomic_load(&bit_sets[i]))
        return; /* the previous set is not observed yet */
    soak_add(&bit_sets[i], 1);
    soak_add(&soak_objs[O_NOTIFY].sent, 1);
    soak_add(&soak_objs[O_NOTIFY].ops, w ? 0 : 1);
    if (w)
        soak_at(w, "notify set-bits");
    int rc;
    if (w) {
        rc = rtipc_notify(rx_bits->task, SLOT_BITS, 1u << i, RTIPC_NOTIFY_SET_BITS, NULL);
    } else {
        bool woken = false;
        rc = rtipc_notify_from_isr(rx_bits->task, SLOT_BITS, 1u << i, RTIPC_NOTIFY_SET_BITS, NULL, &woken);
        rtipc_irq_yield(woken);
    }
    note(w, rc, "set-bits");
}

static void bit_setter(soak_worker_t *w)
{
    while (soak_running(w)) {
        bit_setter_step(w->id, w);
        soak_pace(w);
    }
}

static void bits_seen(uint32_t v)
{
    if (v & ~((1u << NSETTERS) - 1))
        soak_violation(O_NOTIFY, "set-bits value 0x%x has bits nobody set", v);
    for (int i = 0; i < NSETTERS; ++i)
        if (v & (1u << i)) {
            soak_add(&bit_seen[i], 1);
            soak_add(&soak_objs[O_NOTIFY].received, 1);
            if (atomic_load(&bit_seen[i]) > atomic_load(&bit_sets[i]))
                soak_violation(O_NOTIFY, "bit %d seen more often than set", i);
        }
}

/* A receiver of @p slot: waits until its role ends, then closes @p gate and
 * takes what the supervisor's last kicks left pending. */
static void receive_slot(soak_worker_t *w, unsigned slot, const char *where, soak_gate_t *gate, void (*seen)(uint32_t))
{
    soak_spin_set(O_NOTIFY, rtipc_notify_set_spin(NULL, (int64_t)(intptr_t)w->arg));
    while (soak_running(w)) {
        uint32_t v = 0;
        rtipc_timeout_t t = soak_timeout(w);
        soak_at(w, where);
        int rc = rtipc_notify_wait(slot, 0, 0xffffffffu, &v, t);
        if (rc != 0)
            soak_not_now(w, rc, "wait");
        else
            seen(v);
        soak_pace(w);
    }
    soak_gate_close(gate);
    uint32_t v = 0;
    if (rtipc_notify_wait(slot, 0, 0xffffffffu, &v, RTIPC_NO_WAIT) == 0)
        seen(v);
}

static void bits_receiver(soak_worker_t *w)
{
    receive_slot(w, SLOT_BITS, "notify_wait (bits)", &gate_bits, bits_seen);
    /* Bits set but never made pending cannot exist: read what is left. */
    uint32_t prev = 0;
    rtipc_notify_value_clear(NULL, SLOT_BITS, 0xffffffffu, &prev);
    bits_seen(prev);
}

static uint32_t v_encode(uint32_t p, uint64_t seq) { return p << 28 | (uint32_t)(seq & 0x0fffffffu); }

/* A value seen by the receiver or returned as "previous": a known producer
 * and a seq already written. Returns the producer, or -1. */
static int v_valid(uint32_t v, const char *what)
{
    uint32_t p = v >> 28, s = v & 0x0fffffffu;
    if (p >= V_PRODUCERS || s == 0) {
        soak_violation(O_NOTIFY, "%s value 0x%08x is not a written value", what, v);
        return -1;
    }
    uint64_t next = atomic_load(&v_next[p]);
    /* next is raised before the notify; seq s was sent if s < next (mod 2^28). */
    if (((uint32_t)(next - s) & 0x0fffffffu) == 0 || ((uint32_t)(next - s) & 0x0fffffffu) > 0x08000000u)
        soak_violation(O_NOTIFY, "%s value 0x%08x: producer %u has not written seq %u (next %" PRIu64 ")", what,
                       v, p, s, next);
    return (int)p;
}

static int v_send(int p, soak_worker_t *w, bool isr, rtipc_notify_action_t action)
{
    uint64_t seq = atomic_fetch_add(&v_next[p], 1);
    uint32_t prev = 0;
    int rc;
    if (isr) {
        bool woken = false;
        rc = rtipc_notify_from_isr(rx_value->task, SLOT_VALUE, v_encode((uint32_t)p, seq), action, &prev, &woken);
        rtipc_irq_yield(woken);
    } else {
        rc = rtipc_notify(rx_value->task, SLOT_VALUE, v_encode((uint32_t)p, seq), action, &prev);
    }
    if (rc == 0) {
        soak_add(&v_sent[p], 1);
        soak_add(&soak_objs[O_NOTIFY].sent, 1);
    } else if (rc == RTIPC_EPENDING) {
        soak_add(&soak_objs[O_NOTIFY].dropped, 1);
        v_valid(prev, "EPENDING previous");
    } else {
        note(w, rc, "value notify");
    }
    return rc;
}

static void value_writer(soak_worker_t *w)
{
    while (soak_running(w)) {
        soak_at(w, w->id == V_OVW ? "notify overwrite" : "notify no-overwrite");
        if (v_send(w->id, w, false, w->id == V_OVW ? RTIPC_NOTIFY_OVERWRITE : RTIPC_NOTIFY_NO_OVERWRITE) ==
            RTIPC_EPENDING)
            rtipc_task_delay(rtipc_us(20 + soak_below(w, 200)));
        soak_pace(w);
    }
}

static uint32_t v_last[V_PRODUCERS];

static void value_seen(uint32_t v)
{
    int p = v_valid(v, "received");
    if (p < 0)
        return;
    uint32_t s = v & 0x0fffffffu;
    uint32_t d = (s - v_last[p]) & 0x0fffffffu;
    if (v_last[p] != 0 && (d == 0 || d > 0x08000000u))
        soak_violation(O_NOTIFY, "producer %d's value seq %u after %u (order or duplicate)", p, s, v_last[p]);
    v_last[p] = s;
    soak_add(&v_recv[p], 1);
    soak_add(&soak_objs[O_NOTIFY].received, 1);
}

static void value_receiver(soak_worker_t *w) { receive_slot(w, SLOT_VALUE, "notify_wait (value)", &gate_value, value_seen); }

static void notify_isr(stress_rng_t *rng)
{
    soak_add(&soak_objs[O_NOTIFY].isr_ops, 1);
    switch (stress_below(rng, 3)) {
    case 0: {
        bool woken = false;
        soak_add(&soak_objs[O_NOTIFY].ops, 1);
        int rc = rtipc_notify_give_from_isr(rx_count->task, SLOT_COUNT, &woken);
        note(NULL, rc, "give_from_isr");
        if (rc == 0) {
            soak_add(&n_gives, 1);
            soak_add(&soak_objs[O_NOTIFY].sent, 1);
        }
        rtipc_irq_yield(woken);
        break;
    }
    case 1:
        bit_setter_step(NSETTERS - 1, NULL);
        break;
    default:
        soak_add(&soak_objs[O_NOTIFY].ops, 1);
        v_send(V_ISR, NULL, true, RTIPC_NOTIFY_NO_OVERWRITE);
        break;
    }
}

static void kick_count(void *arg)
{
    (void)arg;
    if (rtipc_notify_give(rx_count->task, SLOT_COUNT) == 0) {
        soak_add(&n_gives, 1);
        soak_add(&soak_objs[O_NOTIFY].sent, 1);
    }
}
static void kick_bits(void *arg)
{
    (void)arg;
    /* The handler's bit, set by the supervisor now that the handler is gone. */
    bit_setter_step(NSETTERS - 1, NULL);
}
static void kick_value(void *arg)
{
    (void)arg;
    v_send(V_KICK, NULL, false, RTIPC_NOTIFY_OVERWRITE);
}

static void notify_kick(void)
{
    if (!atomic_load(&rx_count->done))
        soak_gate_kick(&gate_count, kick_count, NULL);
    if (!atomic_load(&rx_bits->done))
        soak_gate_kick(&gate_bits, kick_bits, NULL);
    if (!atomic_load(&rx_value->done))
        soak_gate_kick(&gate_value, kick_value, NULL);
}

static void notify_final(void)
{
    long long g = atomic_load(&n_gives), t = atomic_load(&n_taken), f = atomic_load(&final_count);
    if (g != t + f)
        soak_violation(O_NOTIFY, "counting: gives %lld != taken %lld + final value %lld", g, t, f);
    for (int i = 0; i < NSETTERS; ++i)
        if (atomic_load(&bit_sets[i]) != atomic_load(&bit_seen[i]))
            soak_violation(O_NOTIFY, "bit %d: set %lld times, seen %lld times", i,
                           (long long)atomic_load(&bit_sets[i]), (long long)atomic_load(&bit_seen[i]));
    for (int p = 0; p < V_PRODUCERS; ++p)
        if (atomic_load(&v_recv[p]) > atomic_load(&v_sent[p]))
            soak_violation(O_NOTIFY, "value producer %d: received %lld > sent %lld", p,
                           (long long)atomic_load(&v_recv[p]), (long long)atomic_load(&v_sent[p]));
}

void soak_setup_notify(void)
{
    for (int p = 0; p < V_PRODUCERS; ++p)
        atomic_store(&v_next[p], 1);
    rx_count = soak_spawn(O_NOTIFY, "nt-rx-count", count_receiver, (void *)(intptr_t)soak_spin(O_NOTIFY), 0, true,
                          2, soak_core(0));
    rx_bits = soak_spawn(O_NOTIFY, "nt-rx-bits", bits_receiver, (void *)(intptr_t)soak_spin(O_NOTIFY), 1, true, 3,
                         soak_core(1));
    rx_value = soak_spawn(O_NOTIFY, "nt-rx-value", value_receiver, (void *)(intptr_t)soak_spin(O_NOTIFY), 2, true, 1,
                          soak_core(0));
    soak_spawn(O_NOTIFY, "nt-give0", count_giver, NULL, 0, false, 1, soak_core(1));
    soak_spawn(O_NOTIFY, "nt-give1", count_giver, NULL, 1, false, 3, soak_core(0));
    soak_spawn(O_NOTIFY, "nt-bit0", bit_setter, NULL, 0, false, 1, soak_core(0));
    soak_spawn(O_NOTIFY, "nt-bit1", bit_setter, NULL, 1, false, 2, soak_core(1));
    soak_spawn(O_NOTIFY, "nt-bit2", bit_setter, NULL, 2, false, 4, RTIPC_CORE_ANY);
    soak_spawn(O_NOTIFY, "nt-ovw", value_writer, NULL, V_OVW, false, 2, soak_core(1));
    soak_spawn(O_NOTIFY, "nt-noovw", value_writer, NULL, V_NOOVW, false, 3, soak_core(0));
    soak_isr_role(0, notify_isr);
    soak_hooks(&(soak_hooks_t){notify_kick, NULL, notify_final});
}
