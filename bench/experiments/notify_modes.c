/* notify-modes: task notification latency and correctness per mode. A
 * sender task on core 1 (or an interrupt handler on core 0) notifies a
 * receiver task on core 0 blocked in its take or wait. A latency phase sends
 * one notification at a time; a burst phase sends faster than the receiver
 * takes and checks what each mode promises about the notifications it merges
 * or refuses. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiments.h"
#include "needs_tasks.h"
#include "../mechanisms/freertos_isr_notify.h"

#define RECEIVER_PRIO 12
#define SENDER_PRIO 10
#define SLOT 0
#define BURST_SEND_GAP_NS 1000   /* sender: pause between burst sends */
#define BURST_PROC_NS 10000      /* receiver: work after each take in a burst */

typedef enum { TAKE_CLEAR, TAKE_DECREMENT, SET_BITS, OVERWRITE, NO_OVERWRITE, FROM_ISR, MODES } nm_mode_t;

static const char *const mode_name[MODES] = {"take-clear", "take-decrement", "set-bits",
                                             "overwrite",  "no-overwrite",   "from-isr"};

typedef struct {
    nm_mode_t mode;
    /* The kernel's notification calls (kernel-notify rows), or NULL for
     * rtipc's (rtipc-notify rows). */
    const bench_fr_isr_notify_t *k;
    const char *mech;           /* the rows' mechanism */
    char label[64];             /* the mode, and the mechanism for the kernel's: notes, failures */
    void *k_receiver;           /* kernel: the receiver's kernel handle, set before
                                   receiver_ready (published by its release) */
    bool burst;                 /* burst phase (else latency phase) */
    int64_t stall_ns;           /* nothing received for this long fails */
    bench_failure_t failure;    /* either side failed: the other stops */
    rtipc_task_t *receiver;     /* rtipc's rows: published to the sender by go */
    rtipc_irq_t *irq;           /* from-isr: the interrupt on core 0 */
    _Atomic int go;             /* main -> sender: receiver handle is set */
    _Atomic int receiver_ready;

    /* Latency phase. */
    size_t total, warmup;
    bench_rng_t rng;
    bench_samples_t *out;
    _Atomic int64_t *t_send;    /* per message: timestamp just before the notify
                                   call (from-isr: in the handler, before the give) */
    _Atomic uint32_t cur_seq;   /* sequence number of the notification in flight;
                                   the notify call's lock (or the trigger) publishes it */
    _Atomic size_t received;    /* receiver -> sender (release/acquire) */
    _Atomic long not_woken;     /* from-isr gives that readied no task */

    /* Burst phase. Sender side, published by the release of sender_done. */
    uint32_t n_send;            /* sends (from-isr: triggers) planned */
    uint64_t sent, refused;
    uint64_t target;            /* what the receiver must account for */
    uint8_t *accepted;          /* no-overwrite: accepted[v] for v in 1..n_send */
    _Atomic int sender_done;
    /* Receiver side, read after the join. */
    uint64_t got_n;             /* takes/waits that returned a notification */
    uint64_t units;             /* gives, bits or values accounted for */
    uint32_t last_value;        /* overwrite, no-overwrite */
    uint32_t *got;              /* no-overwrite: values received, in order */
    unsigned next_bit;          /* set-bits: lowest bit not yet received */
    _Atomic uint32_t rounds_done; /* set-bits: rounds of 32 bits completed */
    /* from-isr. */
    uint64_t isr_gives;         /* handler only; published by fence_ack */
    _Atomic int fence_req;      /* sender -> handler: give no more */
    _Atomic int fence_ack;      /* handler -> sender: seen (release) */
} nm_t;

/* ---- the mode's two halves ---------------------------------------------- */

/* Receiver: block for the next notification of this mode, at most
 * @p timeout_ns (0: no wait). */
static int nm_receive(nm_t *st, uint32_t *v, int64_t timeout_ns)
{
    if (st->k) {
        switch (st->mode) {
        case TAKE_CLEAR:
        case FROM_ISR:
            return st->k->notify_take(true, v, timeout_ns);       /* ulTaskNotifyTake(pdTRUE) */
        case TAKE_DECREMENT:
            return st->k->notify_take(false, v, timeout_ns);      /* ulTaskNotifyTake(pdFALSE) */
        case SET_BITS:
            return st->k->notify_wait(UINT32_MAX, v, timeout_ns); /* xTaskNotifyWait(0, all bits) */
        default:
            return st->k->notify_wait(0, v, timeout_ns);          /* xTaskNotifyWait(0, 0) */
        }
    }
    rtipc_timeout_t timeout = rtipc_ns(timeout_ns);
    switch (st->mode) {
    case TAKE_CLEAR:
    case FROM_ISR:
        return rtipc_notify_take(SLOT, true, v, timeout);
    case TAKE_DECREMENT:
        return rtipc_notify_take(SLOT, false, v, timeout);
    case SET_BITS:
        return rtipc_notify_wait(SLOT, 0, UINT32_MAX, v, timeout);
    default:  /* OVERWRITE, NO_OVERWRITE: the value stays, the pending flag clears */
        return rtipc_notify_wait(SLOT, 0, 0, v, timeout);
    }
}

/* Sender (task): notify with argument @p arg. */
static int nm_send(nm_t *st, uint32_t arg)
{
    if (st->k && st->mode != FROM_ISR) {
        switch (st->mode) {
        case TAKE_CLEAR:
        case TAKE_DECREMENT:
            return st->k->notify_give(st->k_receiver);
        case SET_BITS:
            return st->k->notify(st->k_receiver, arg, BENCH_KN_SET_BITS);
        case OVERWRITE:
            return st->k->notify(st->k_receiver, arg, BENCH_KN_OVERWRITE);
        default:
            return st->k->notify(st->k_receiver, arg, BENCH_KN_NO_OVERWRITE);
        }
    }
    switch (st->mode) {
    case TAKE_CLEAR:
    case TAKE_DECREMENT:
        return rtipc_notify_give(st->receiver, SLOT);
    case SET_BITS:
        return rtipc_notify(st->receiver, SLOT, arg, RTIPC_NOTIFY_SET_BITS, NULL);
    case OVERWRITE:
        return rtipc_notify(st->receiver, SLOT, arg, RTIPC_NOTIFY_OVERWRITE, NULL);
    case NO_OVERWRITE:
        return rtipc_notify(st->receiver, SLOT, arg, RTIPC_NOTIFY_NO_OVERWRITE, NULL);
    default:  /* FROM_ISR: the handler gives */
        return bench_target_irq_trigger(st->irq);
    }
}

static void nm_isr(void *arg)
{
    nm_t *st = arg;
    /* Acquire: pairs with the sender's release store of fence_req. */
    if (atomic_load_explicit(&st->fence_req, memory_order_acquire)) {
        /* Release: publishes isr_gives of every earlier run (runs of one core
         * are sequential) to the sender. */
        atomic_store_explicit(&st->fence_ack, 1, memory_order_release);
        return;
    }
    if (!st->burst) {
        uint32_t seq = atomic_load_explicit(&st->cur_seq, memory_order_relaxed);
        if (seq < st->total)
            atomic_store_explicit(&st->t_send[seq], bench_now_ns(), memory_order_relaxed);
    }
    bool woken = false;
    /* The kernel's: vTaskNotifyGiveFromISR then portYIELD_FROM_ISR. */
    int rc = st->k ? st->k->notify_give_from_isr(st->k_receiver, &woken)
                   : rtipc_notify_give_from_isr(st->receiver, SLOT, &woken);
    if (rc != 0)
        bench_failure_set(&st->failure, "give from the handler failed with %d", rc);
    st->isr_gives++;
    if (!woken && !st->burst)
        atomic_fetch_add_explicit(&st->not_woken, 1, memory_order_relaxed);
    if (!st->k)
        rtipc_irq_yield(woken);
}

/* ---- latency: one notification at a time -------------------------------- */

static uint32_t lat_arg(nm_mode_t mode, size_t i)
{
    return mode == SET_BITS ? 1u << (i % 32) : (uint32_t)i;
}

static void lat_sender(void *arg)
{
    nm_t *st = arg;
    if (!handoff_task_wait_flag(&st->go, &st->failure, 2000000000) ||
        !handoff_task_wait_flag(&st->receiver_ready, &st->failure, 2000000000)) {
        bench_failure_set(&st->failure, "tasks did not start within 2 s");
        return;
    }
    bench_delay_ns(2000000);  /* the receiver reaches its take/wait */
    for (size_t i = 0; i <= st->total; i++) {
        int64_t end = bench_now_ns() + st->stall_ns;
        while (atomic_load_explicit(&st->received, memory_order_acquire) < i) {
            if (bench_failure_is_set(&st->failure))
                return;
            if (bench_now_ns() > end) {
                bench_failure_set(&st->failure, "notification %lu not received within %lld ms (lost?)", (unsigned long)(i - 1),
                                  (long long)(st->stall_ns / 1000000));
                return;
            }
        }
        if (i == st->total)
            break;
        bench_spin_until(bench_now_ns() + bench_rng_range(&st->rng, 20000, 40000));
        atomic_store_explicit(&st->cur_seq, (uint32_t)i, memory_order_relaxed);
        if (st->mode != FROM_ISR)
            atomic_store_explicit(&st->t_send[i], bench_now_ns(), memory_order_relaxed);
        int rc = nm_send(st, lat_arg(st->mode, i));
        if (rc != 0) {
            bench_failure_set(&st->failure, "notification %lu: send failed with %d (%s)", (unsigned long)i, rc,
                              rtipc_strerror(rc));
            return;
        }
    }
}

/* The receiver's kernel handle, for the kernel's sender and handler. */
static void publish_self(nm_t *st)
{
    if (st->k)
        st->k_receiver = st->k->task_self();
    atomic_store_explicit(&st->receiver_ready, 1, memory_order_release);
}

static void lat_receiver(void *arg)
{
    nm_t *st = arg;
    publish_self(st);
    int64_t last = bench_now_ns();
    for (size_t i = 0; i < st->total;) {
        uint32_t v = 0;
        int rc = nm_receive(st, &v, 20000000);
        int64_t t = bench_now_ns();
        if (rc == RTIPC_ETIMEDOUT) {
            if (bench_failure_is_set(&st->failure))
                return;
            if (t - last > st->stall_ns) {
                bench_failure_set(&st->failure, "notification %lu not received within %lld ms (lost?)", (unsigned long)i,
                                  (long long)(st->stall_ns / 1000000));
                return;
            }
            continue;
        }
        if (rc != 0) {
            bench_failure_set(&st->failure, "receive of notification %lu failed with %d", (unsigned long)i, rc);
            return;
        }
        uint32_t seq = atomic_load_explicit(&st->cur_seq, memory_order_relaxed);
        /* One notification in flight: a take sees exactly one give, a wait
         * exactly the argument sent. */
        uint32_t want = st->mode == TAKE_CLEAR || st->mode == TAKE_DECREMENT || st->mode == FROM_ISR
                            ? 1u : lat_arg(st->mode, i);
        if (seq != (uint32_t)i || v != want) {
            bench_failure_set(&st->failure,
                              "notification %lu: got value %u (sequence %u), wanted value %u (lost, "
                              "duplicated or reordered)", (unsigned long)i, (unsigned)v, (unsigned)seq, (unsigned)want);
            return;
        }
        int64_t ts = atomic_load_explicit(&st->t_send[i], memory_order_relaxed);
        if (ts == 0 || t < ts) {
            bench_failure_set(&st->failure, "notification %lu received before it was stamped as sent", (unsigned long)i);
            return;
        }
        if (i >= st->warmup)
            bench_samples_push(st->out, t - ts);
        last = t;
        i++;
        /* Release: the sender sends the next only after this. */
        atomic_store_explicit(&st->received, i, memory_order_release);
    }
}

/* ---- burst: the sender outpaces the receiver ------------------------------ */

static void burst_sender(void *arg)
{
    nm_t *st = arg;
    uint64_t sent = 0, refused = 0, target = 0;
    if (!handoff_task_wait_flag(&st->go, &st->failure, 2000000000) ||
        !handoff_task_wait_flag(&st->receiver_ready, &st->failure, 2000000000)) {
        bench_failure_set(&st->failure, "tasks did not start within 2 s");
        goto out;
    }
    bench_delay_ns(2000000);
    if (st->mode == SET_BITS) {
        /* Rounds of bits 0..31 in order; a round starts once the receiver has
         * collected every bit of the previous one, so each bit is set once. */
        uint32_t rounds = st->n_send / 32;
        for (uint32_t r = 0; r < rounds; r++) {
            for (unsigned b = 0; b < 32; b++) {
                bench_spin_until(bench_now_ns() + BURST_SEND_GAP_NS);
                int rc = nm_send(st, 1u << b);
                if (rc != 0) {
                    bench_failure_set(&st->failure, "set-bits send failed with %d", rc);
                    goto out;
                }
                sent++;
            }
            int64_t end = bench_now_ns() + st->stall_ns;
            while (atomic_load_explicit(&st->rounds_done, memory_order_acquire) < r + 1) {
                if (bench_failure_is_set(&st->failure))
                    goto out;
                if (bench_now_ns() > end) {
                    bench_failure_set(&st->failure,
                                      "set-bits round %u not collected within %lld ms (bits lost?)", (unsigned)r,
                                      (long long)(st->stall_ns / 1000000));
                    goto out;
                }
            }
        }
        target = sent;
    } else {
        for (uint32_t k = 1; k <= st->n_send; k++) {
            bench_spin_until(bench_now_ns() + BURST_SEND_GAP_NS);
            int rc = nm_send(st, k);
            if (rc == RTIPC_EPENDING && st->mode == NO_OVERWRITE) {
                refused++;
            } else if (rc != 0) {
                bench_failure_set(&st->failure, "send %u failed with %d (%s)", (unsigned)k, rc, rtipc_strerror(rc));
                goto out;
            } else if (st->mode == NO_OVERWRITE) {
                st->accepted[k] = 1;
            }
            sent++;
        }
        if (st->mode == FROM_ISR) {
            /* The handler run that sees the fence gives nothing; once it has
             * answered, every give is counted. */
            atomic_store_explicit(&st->fence_req, 1, memory_order_release);
            bench_target_irq_trigger(st->irq);
            int64_t end = bench_now_ns() + st->stall_ns;
            while (!atomic_load_explicit(&st->fence_ack, memory_order_acquire)) {
                if (bench_now_ns() > end) {
                    bench_failure_set(&st->failure, "the handler did not answer the fence within %lld ms",
                                      (long long)(st->stall_ns / 1000000));
                    goto out;
                }
            }
            sent = st->isr_gives;  /* triggers that arrived while one was pending merged */
        }
        target = st->mode == TAKE_CLEAR || st->mode == TAKE_DECREMENT || st->mode == FROM_ISR ? sent
                 : st->mode == OVERWRITE ? st->n_send
                                         : sent - refused;
    }
out:
    st->sent = sent;
    st->refused = refused;
    st->target = target;
    /* Release: publishes sent/refused/target/accepted to the receiver. */
    atomic_store_explicit(&st->sender_done, 1, memory_order_release);
}

/* Account for one received notification; false (after failing) when it
 * breaks the mode's promise. */
static bool burst_account(nm_t *st, uint32_t v)
{
    switch (st->mode) {
    case TAKE_CLEAR:
    case FROM_ISR:
        if (v == 0) {
            bench_failure_set(&st->failure, "take returned with a zero count");
            return false;
        }
        st->units += v;  /* several gives merged into one take */
        return true;
    case TAKE_DECREMENT:
        if (v == 0) {
            bench_failure_set(&st->failure, "take returned with a zero count");
            return false;
        }
        st->units++;
        return true;
    case SET_BITS: {
        /* Bits arrive in the order set: a contiguous run from next_bit. */
        uint32_t run = v >> st->next_bit;
        if (v == 0 || (run << st->next_bit) != v || (run & (run + 1)) != 0) {
            bench_failure_set(&st->failure,
                              "set-bits: got 0x%08x while bit %u was due (a bit lost, repeated or out of "
                              "order)", (unsigned)v, (unsigned)st->next_bit);
            return false;
        }
        unsigned k = (unsigned)__builtin_popcount(run);
        st->units += k;
        st->next_bit += k;
        if (st->next_bit == 32) {
            st->next_bit = 0;
            /* Release: the sender starts the next round after this. */
            atomic_store_explicit(&st->rounds_done, atomic_load_explicit(&st->rounds_done, memory_order_relaxed) + 1,
                                  memory_order_release);
        }
        return true;
    }
    case OVERWRITE:
        if (v <= st->last_value || v > st->n_send) {
            bench_failure_set(&st->failure, "overwrite: got %u after %u (values must strictly increase)", (unsigned)v,
                              (unsigned)st->last_value);
            return false;
        }
        st->last_value = v;
        st->units = v;  /* done when the last value sent has arrived */
        return true;
    default:  /* NO_OVERWRITE */
        if (v <= st->last_value || v > st->n_send) {
            bench_failure_set(&st->failure, "no-overwrite: got %u after %u (values must strictly increase)",
                              (unsigned)v, (unsigned)st->last_value);
            return false;
        }
        st->last_value = v;
        st->got[st->units++] = v;
        return true;
    }
}

static void burst_receiver(void *arg)
{
    nm_t *st = arg;
    publish_self(st);
    int64_t last = bench_now_ns();
    for (;;) {
        /* Acquire: pairs with the sender's release of sender_done. */
        if (atomic_load_explicit(&st->sender_done, memory_order_acquire) && st->units >= st->target)
            break;
        uint32_t v = 0;
        int rc = nm_receive(st, &v, 20000000);
        int64_t t = bench_now_ns();
        if (rc == RTIPC_ETIMEDOUT) {
            if (bench_failure_is_set(&st->failure))
                return;
            if (t - last > st->stall_ns) {
                bench_failure_set(&st->failure, "nothing received for %lld ms with %llu accounted (lost?)",
                                  (long long)(st->stall_ns / 1000000), (unsigned long long)st->units);
                return;
            }
            continue;
        }
        if (rc != 0) {
            bench_failure_set(&st->failure, "receive failed with %d", rc);
            return;
        }
        last = t;
        st->got_n++;
        if (!burst_account(st, v))
            return;
        bench_spin_until(bench_now_ns() + BURST_PROC_NS);  /* the receiver's work */
    }
    /* Nothing may be left over: no count, bit or pending value. */
    uint32_t v = 0;
    int rc = nm_receive(st, &v, 0);
    if (rc != RTIPC_EWOULDBLOCK)
        bench_failure_set(&st->failure,
                          "a notification was left over after all were accounted for (rc %d, value %u)",
                          rc, (unsigned)v);
}

/* ---- running a phase ------------------------------------------------------ */

static int nm_run_tasks(bench_run_t *run, nm_t *st, rtipc_task_fn receiver, rtipc_task_fn sender)
{
    /* The kernel's rows run on the kernel's own tasks. */
    bench_task_spec_t rc_cfg = {.name = "nm-receiver", .priority = RECEIVER_PRIO, .core = bench_cpu(run, 0),
                                .entry = receiver, .arg = st, .native = st->k != NULL};
    bench_task_spec_t sc_cfg = {.name = "nm-sender", .priority = SENDER_PRIO, .core = bench_cpu(run, 1),
                                .entry = sender, .arg = st, .native = st->k != NULL};
    bench_task_t *r = NULL, *s = NULL;
    int rc = bench_target_task_start(&rc_cfg, &r);
    if (rc != 0)
        return bench_fail(run, "%s: receiver task: %s", st->label, rtipc_strerror(rc));
    st->receiver = bench_target_task_rtipc(r);
    rc = bench_target_task_start(&sc_cfg, &s);
    if (rc != 0)
        bench_failure_set(&st->failure, "sender task: %s", rtipc_strerror(rc));
    /* Release: the sender (and, through its triggers, the handler) see the
     * receiver's handle. */
    atomic_store_explicit(&st->go, 1, memory_order_release);
    if (s)
        bench_target_task_join(s);
    /* No handler may run once the receiver's handle is gone (a failure can
     * leave a trigger pending): delete the interrupt first. */
    if (st->irq) {
        bench_target_irq_delete(st->irq);
        st->irq = NULL;
    }
    bench_target_task_join(r);  /* it ends on its own, or within 20 ms of a failure */
    if (bench_failure_is_set(&st->failure))
        return bench_fail(run, "%s: %s", st->label, st->failure.why);
    return 0;
}

static nm_t *nm_new(bench_run_t *run, const bench_fr_isr_notify_t *k, nm_mode_t mode, bool burst)
{
    nm_t *st = calloc(1, sizeof *st);
    if (!st) {
        bench_fail(run, "out of memory");
        return NULL;
    }
    st->k = k;
    st->mech = k ? BENCH_MECH_KERNEL_NOTIFY : BENCH_MECH_RTIPC_NOTIFY;
    if (k)
        snprintf(st->label, sizeof st->label, "%s/%s", st->mech, mode_name[mode]);
    else
        snprintf(st->label, sizeof st->label, "%s", mode_name[mode]);
    st->mode = mode;
    st->burst = burst;
    st->stall_ns = 1000000000;
    if (mode == FROM_ISR) {
        int rc = bench_target_irq_create(bench_cpu(run, 0), nm_isr, st, &st->irq);
        if (rc != 0) {
            bench_fail(run, "interrupt create: %s", rtipc_strerror(rc));
            free(st);
            return NULL;
        }
    }
    return st;
}

static void nm_free(nm_t *st)
{
    if (st->irq)
        bench_target_irq_delete(st->irq);
    free(st->t_send);
    free(st->accepted);
    free(st->got);
    free(st);
}

static int latency_phase(bench_run_t *run, const bench_fr_isr_notify_t *k, nm_mode_t mode, size_t samples,
                         size_t warmup)
{
    nm_t *st = nm_new(run, k, mode, false);
    if (!st)
        return -1;
    bench_samples_t s = {0};
    int rc = -1;
    st->total = samples + warmup;
    st->warmup = warmup;
    st->out = &s;
    bench_rng_init(&st->rng, run, 200 + (uint64_t)mode);
    st->t_send = calloc(st->total, sizeof *st->t_send);
    if (!st->t_send || bench_samples_init(&s, samples) != 0) {
        bench_fail(run, "out of memory");
        goto out;
    }
    if (nm_run_tasks(run, st, lat_receiver, lat_sender) != 0)
        goto out;
    if (!bench_add_dist(run, st->mech, mode_name[mode], BENCH_METRIC_LATENCY, &s))
        goto out;
    long nw = atomic_load(&st->not_woken);
    if (nw)
        bench_note(run, "%s: %ld of %lu gives readied no task (woken stayed false; the receiver "
                   "was not yet parked)", st->label, nw, (unsigned long)st->total);
    rc = 0;
out:
    bench_samples_free(&s);
    nm_free(st);
    return rc;
}

static int burst_phase(bench_run_t *run, const bench_fr_isr_notify_t *k, nm_mode_t mode, uint32_t n_send)
{
    nm_t *st = nm_new(run, k, mode, true);
    if (!st)
        return -1;
    int rc = -1;
    const char *name = mode_name[mode];
    st->n_send = mode == SET_BITS ? n_send / 32 * 32 : n_send;
    if (mode == NO_OVERWRITE) {
        st->accepted = calloc((size_t)st->n_send + 1, 1);
        st->got = calloc((size_t)st->n_send + 1, sizeof *st->got);
        if (!st->accepted || !st->got) {
            bench_fail(run, "out of memory");
            goto out;
        }
    }
    if (nm_run_tasks(run, st, burst_receiver, burst_sender) != 0)
        goto out;

    /* The promise of each mode, checked exactly. */
    uint64_t sent = st->sent, got = st->got_n, refused = st->refused;
    uint64_t coalesced = sent - got - refused;
    bool ok = got + refused <= sent;
    switch (mode) {
    case TAKE_CLEAR:
    case FROM_ISR:
        ok = ok && st->units == sent;  /* every give counted in exactly one take */
        break;
    case TAKE_DECREMENT:
        ok = ok && got == sent && st->units == sent;  /* every give is one take */
        break;
    case SET_BITS:
        ok = ok && st->units == sent && st->next_bit == 0 &&
             atomic_load(&st->rounds_done) == st->n_send / 32;
        break;
    case OVERWRITE:
        ok = ok && sent == st->n_send && st->last_value == st->n_send;  /* the newest arrived */
        break;
    case NO_OVERWRITE: {
        ok = ok && got + refused == sent && coalesced == 0;
        /* Exactly the accepted values arrived, in order. */
        uint64_t j = 0;
        for (uint32_t v = 1; ok && v <= st->n_send; v++)
            if (st->accepted[v])
                ok = j < got && st->got[j++] == v;
        ok = ok && j == got;
        break;
    }
    default:
        break;
    }
    if (!ok) {
        bench_fail(run, "%s burst: invariant broken (sent %llu, received %llu, refused %llu, accounted "
                   "%llu, last value %u)", st->label, (unsigned long long)sent, (unsigned long long)got,
                   (unsigned long long)refused, (unsigned long long)st->units, (unsigned)st->last_value);
        goto out;
    }
    if (mode == FROM_ISR)
        bench_note(run, "%s burst: %u triggers raised, %llu handler runs gave%s", st->label, (unsigned)st->n_send,
                   (unsigned long long)sent,
                   sent < st->n_send ? " (the others arrived while one was pending and merged)" : "");
    bench_add_value(run, st->mech, name, BENCH_METRIC_SENT, "count", (double)sent);
    bench_add_value(run, st->mech, name, BENCH_METRIC_RECEIVED, "count", (double)got);
    bench_add_value(run, st->mech, name, BENCH_METRIC_COALESCED, "count", (double)coalesced);
    bench_add_value(run, st->mech, name, BENCH_METRIC_REFUSED, "count", (double)refused);
    rc = 0;
out:
    nm_free(st);
    return rc;
}

static int run_notify_modes(bench_run_t *run)
{
    /* A send stamp and a sample per message, in a quarter of the heap. */
    size_t samples = bench_samples_fit_heap(run, bench_sample_count(run, 10000, 500), 2 * sizeof(int64_t), 4,
                                            "latency phases");
    size_t warmup = bench_warmup_count(run, samples);
    uint32_t n_burst = (uint32_t)bench_sample_count(run, 10000, 1000);
    if (n_burst < 64)
        n_burst = 64;
    /* rtipc's calls, and on FreeRTOS the kernel's right after them in each
     * phase, so that both see the same conditions. */
    const bench_fr_isr_notify_t *impl[2] = {NULL, bench_fr_isr_notify};
    int n_impl = bench_fr_isr_notify ? 2 : 1;
    if (bench_fr_isr_notify)
        bench_note(run, "kernel-notify/from-isr's handler: %s", bench_fr_isr_notify->yield_how);
    for (int m = 0; m < MODES; m++) {
        for (int i = 0; i < n_impl; i++)
            if (latency_phase(run, impl[i], (nm_mode_t)m, samples, warmup) != 0)
                return -1;
        bench_progress(run, (m + 0.8) / MODES);
        for (int i = 0; i < n_impl; i++)
            if (burst_phase(run, impl[i], (nm_mode_t)m, n_burst) != 0)
                return -1;
        bench_progress(run, (m + 1.0) / MODES);
    }
    return 0;
}

const bench_experiment_t exp_notify_modes = {
    .id = BENCH_EXP_NOTIFY_MODES,
    .summary = EXP_NOTIFY_MODES_SUMMARY,
    .definitions =
        "Receiver task on core 0 (priority 12) owns notification slot 0; sender task on core 1\n"
        "(priority 10). Modes (receiver call / sender call):\n"
        "  take-clear: rtipc_notify_take(clear) / rtipc_notify_give.\n"
        "  take-decrement: rtipc_notify_take(decrement) / rtipc_notify_give.\n"
        "  set-bits: rtipc_notify_wait(clear all bits on exit) / rtipc_notify(SET_BITS, one bit).\n"
        "  overwrite: rtipc_notify_wait / rtipc_notify(OVERWRITE, value).\n"
        "  no-overwrite: rtipc_notify_wait / rtipc_notify(NO_OVERWRITE, value); refused while pending.\n"
        "  from-isr: rtipc_notify_take(clear) / an interrupt handler on core 0, raised by the sender\n"
        "    with rtipc_irq_trigger, calls rtipc_notify_give_from_isr then rtipc_irq_yield(woken).\n"
        "latency: from the sender's timestamp taken just before its notify call (from-isr: the\n"
        "  handler's timestamp just before rtipc_notify_give_from_isr) to the receiver's timestamp\n"
        "  taken right after its take/wait returned. One notification at a time: the sender waits\n"
        "  until the receiver has checked the previous one, then a random 20-40 us gap, so the\n"
        "  receiver is blocked in its take/wait. Each carries a sequence number; the receiver checks\n"
        "  it and the value (take: exactly 1; set-bits: bit seq%32; overwrite/no-overwrite: seq).\n"
        "  10000 samples per mode full, 500 quick. In from-isr core 0 runs nothing else, so the\n"
        "  handler's woken flag is set and its yield releases the receiver right after it.\n"
        "burst (correctness counts): the sender notifies every ~1 us (10000 times full, 1000 quick;\n"
        "  set-bits in rounds of bits 0..31, a round starting once the previous one was collected),\n"
        "  the receiver works 10 us after each take/wait, so notifications pile up.\n"
        "  sent: notifications sent (from-isr: handler gives; triggers raised while one was pending\n"
        "  merge, as a pending bit does). received: takes/waits that returned one. refused: sends\n"
        "  that returned RTIPC_EPENDING (no-overwrite). coalesced = sent - received - refused: sends\n"
        "  merged into another take/wait or overwritten before being read.\n"
        "  Checked exactly (a broken invariant fails the experiment): take-clear and from-isr: the\n"
        "  counts taken sum to sent; take-decrement: received == sent; set-bits: every bit arrives\n"
        "  once, in order (the values taken are contiguous runs) and the bits total sent;\n"
        "  overwrite: values strictly increase and the last received is the last sent;\n"
        "  no-overwrite: received + refused == sent and the values received are exactly the accepted\n"
        "  ones, in order. In every mode nothing is left pending at the end.\n"
        "kernel-notify (FreeRTOS targets): every phase again, right after rtipc's, on the kernel's own\n"
        "  calls (notification index 0) with the same modes, metrics, tasks and checks:\n"
        "  take-clear: ulTaskNotifyTake(pdTRUE) / xTaskNotifyGive. take-decrement:\n"
        "  ulTaskNotifyTake(pdFALSE) / xTaskNotifyGive. set-bits: xTaskNotifyWait(0, 0xffffffff) /\n"
        "  xTaskNotify(eSetBits). overwrite: xTaskNotifyWait(0, 0) / xTaskNotify(eSetValueWithOverwrite).\n"
        "  no-overwrite: xTaskNotifyWait(0, 0) / xTaskNotify(eSetValueWithoutOverwrite), refused when it\n"
        "  returns pdFAIL. from-isr: ulTaskNotifyTake(pdTRUE) / the same handler calling\n"
        "  vTaskNotifyGiveFromISR(receiver, &xHigherPriorityTaskWoken) then\n"
        "  portYIELD_FROM_ISR(xHigherPriorityTaskWoken) (the latency stamp just before the give); on the\n"
        "  POSIX simulator the flag goes to rtipc_irq_yield instead and rtipc's vector yields at its end\n"
        "  (the simulator's portYIELD_FROM_ISR switches threads at once; a note says which). Waits are\n"
        "  20 ms timeouts rounded up to ticks, and 0 for the final nothing-left check.\n"
        "The timestamp overhead (env.timestamp_overhead_ns) is included, not subtracted.",
    .run = run_notify_modes,
    .requires = EXP_NOTIFY_MODES_REQUIRES,
};
