/* Semaphores: a binary and a counting semaphore, given by tasks and a
 * handler, taken by tasks and a handler. gives + initial = takes + final
 * count; the count never exceeds the maximum. */
#include "soak_core.h"

typedef struct {
    int obj;
    rtipc_sem_t *s;
    unsigned max, initial;
    atomic_llong gives, takes;
} semx_t;

static semx_t bin = {.obj = O_SEM_BIN, .max = 1, .initial = 0};
static semx_t cnt = {.obj = O_SEM_CNT, .max = 8, .initial = 3};

static void check_count(semx_t *x)
{
    int c = rtipc_sem_count(x->s);
    if (c < 0 || (unsigned)c > x->max)
        soak_violation(x->obj, "count %d outside 0..%u", c, x->max);
}

static void note_give(semx_t *x, int rc, const char *what)
{
    if (rc == 0) {
        soak_add(&x->gives, 1);
        soak_add(&soak_objs[x->obj].sent, 1);
    } else if (rc == RTIPC_EOVERFLOW) {
        soak_add(&soak_objs[x->obj].dropped, 1);
    } else {
        soak_violation(x->obj, "%s: %s", what, rtipc_strerror(rc));
    }
}

static void note_take(semx_t *x)
{
    soak_add(&x->takes, 1);
    soak_add(&soak_objs[x->obj].received, 1);
}

static void giver(soak_worker_t *w)
{
    semx_t *x = w->arg;
    while (soak_running(w)) {
        soak_at(w, "sem_give");
        int rc = rtipc_sem_give(x->s);
        note_give(x, rc, "give");
        check_count(x);
        if (rc == RTIPC_EOVERFLOW) /* full: let the takers run */
            rtipc_task_delay(rtipc_us(20 + soak_below(w, 200)));
        soak_pace(w);
    }
}

static void taker(soak_worker_t *w)
{
    semx_t *x = w->arg;
    while (soak_running(w)) {
        rtipc_timeout_t t = soak_timeout(w);
        soak_at(w, "sem_take");
        int rc = rtipc_sem_take(x->s, t);
        if (rc == 0)
            note_take(x);
        else
            soak_not_now(w, rc, "take");
        check_count(x);
        soak_pace(w);
    }
}

static void sem_isr(semx_t *x, stress_rng_t *rng)
{
    soak_add(&soak_objs[x->obj].isr_ops, 1);
    soak_add(&soak_objs[x->obj].ops, 1);
    bool woken = false;
    if (stress_below(rng, 3) == 0) {
        int rc = rtipc_sem_take_from_isr(x->s, &woken);
        if (rc == 0)
            note_take(x);
        else if (rc != RTIPC_EWOULDBLOCK)
            soak_violation(x->obj, "take_from_isr: %s", rtipc_strerror(rc));
    } else {
        note_give(x, rtipc_sem_give_from_isr(x->s, &woken), "give_from_isr");
    }
    rtipc_irq_yield(woken);
}

static void bin_isr(stress_rng_t *rng) { sem_isr(&bin, rng); }
static void cnt_isr(stress_rng_t *rng) { sem_isr(&cnt, rng); }

static void sem_kick(semx_t *x)
{
    soak_add(&soak_objs[x->obj].ops, 1);
    int rc = rtipc_sem_give(x->s);
    if (rc != RTIPC_EOVERFLOW)
        note_give(x, rc, "give (stop)");
}
static void bin_kick(void) { sem_kick(&bin); }
static void cnt_kick(void) { sem_kick(&cnt); }

static void sem_final(semx_t *x)
{
    int c = rtipc_sem_count(x->s);
    long long g = atomic_load(&x->gives), t = atomic_load(&x->takes);
    if (c < 0 || (long long)x->initial + g != t + c)
        soak_violation(x->obj, "initial %u + gives %lld != takes %lld + final count %d", x->initial, g, t, c);
    int rc = rtipc_sem_delete(x->s);
    if (rc != 0)
        soak_violation(x->obj, "delete: %s", rtipc_strerror(rc));
}
static void bin_final(void) { sem_final(&bin); }
static void cnt_final(void) { sem_final(&cnt); }

void soak_setup_sems(void)
{
    static rtipc_sem_static_t cnt_cb;
    if (rtipc_sem_create_binary(&bin.s) || rtipc_sem_create_static(cnt.max, cnt.initial, &cnt_cb, &cnt.s)) {
        soak_violation(O_SEM_BIN, "create failed");
        return;
    }
    soak_spin_set(O_SEM_BIN, rtipc_sem_set_spin(bin.s, soak_spin(O_SEM_BIN)));
    soak_spin_set(O_SEM_CNT, rtipc_sem_set_spin(cnt.s, soak_spin(O_SEM_CNT)));
    soak_spawn(O_SEM_BIN, "bs-give0", giver, &bin, 0, false, 1, soak_core(0));
    soak_spawn(O_SEM_BIN, "bs-give1", giver, &bin, 1, false, 4, soak_core(1));
    soak_spawn(O_SEM_BIN, "bs-take0", taker, &bin, 0, true, 2, soak_core(1));
    soak_spawn(O_SEM_BIN, "bs-take1", taker, &bin, 1, true, 3, soak_core(0));
    soak_spawn(O_SEM_CNT, "cs-give0", giver, &cnt, 0, false, 2, soak_core(0));
    soak_spawn(O_SEM_CNT, "cs-give1", giver, &cnt, 1, false, 3, soak_core(1));
    soak_spawn(O_SEM_CNT, "cs-take0", taker, &cnt, 0, true, 1, soak_core(0));
    soak_spawn(O_SEM_CNT, "cs-take1", taker, &cnt, 1, true, 4, soak_core(1));
    soak_spawn(O_SEM_CNT, "cs-take2", taker, &cnt, 2, true, 2, RTIPC_CORE_ANY);
    soak_isr_role(0, bin_isr);
    soak_isr_role(1, cnt_isr);
    soak_hooks(&(soak_hooks_t){bin_kick, NULL, bin_final});
    soak_hooks(&(soak_hooks_t){cnt_kick, NULL, cnt_final});
}
