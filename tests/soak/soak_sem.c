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
    if (soak_accepted(x->obj, rc, RTIPC_EOVERFLOW, what)) {
        soak_add(&x->gives, 1);
        soak_add(&soak_objs[x->obj].sent, 1);
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
    soak_isr_op(x->obj);
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
    /* Givers are producers, takers consumers; core -1 is any core. */
    static const struct {
        const char *name;
        bool counting, taker;
        int id;
        unsigned priority;
        int core;
    } workers[] = {
        {"bs-give0", false, false, 0, 1, 0}, {"bs-give1", false, false, 1, 4, 1}, {"bs-take0", false, true, 0, 2, 1},
        {"bs-take1", false, true, 1, 3, 0},  {"cs-give0", true, false, 0, 2, 0},  {"cs-give1", true, false, 1, 3, 1},
        {"cs-take0", true, true, 0, 1, 0},   {"cs-take1", true, true, 1, 4, 1},   {"cs-take2", true, true, 2, 2, -1},
    };
    for (size_t i = 0; i < sizeof workers / sizeof workers[0]; ++i) {
        semx_t *x = workers[i].counting ? &cnt : &bin;
        soak_spawn(x->obj, workers[i].name, workers[i].taker ? taker : giver, x, workers[i].id, workers[i].taker,
                   workers[i].priority, workers[i].core < 0 ? RTIPC_CORE_ANY : soak_core(workers[i].core));
    }
    soak_isr_role(0, bin_isr);
    soak_isr_role(1, cnt_isr);
    soak_hooks(&(soak_hooks_t){bin_kick, NULL, bin_final});
    soak_hooks(&(soak_hooks_t){cnt_kick, NULL, cnt_final});
}
