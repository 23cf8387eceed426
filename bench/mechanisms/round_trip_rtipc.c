/* rtipc's queue, binary semaphore and notification as request/reply
 * channels (round_trip.h). */
#include <stdlib.h>

#include "../names.h"
#include "round_trip.h"
#include "rtipc/rtipc.h"

/* ---- queue: depth 1, the sequence number as the item ---- */

typedef struct {
    rtipc_queue_t *there, *back;
} rq_t;

static int rq_create(void **obj)
{
    rq_t *q = calloc(1, sizeof *q);
    if (!q || rtipc_queue_create(1, sizeof(uint32_t), &q->there) != RTIPC_OK ||
        rtipc_queue_create(1, sizeof(uint32_t), &q->back) != RTIPC_OK) {
        if (q && q->there)
            rtipc_queue_delete(q->there);
        free(q);
        return -1;
    }
    *obj = q;
    return 0;
}

static void rq_destroy(void *obj)
{
    rq_t *q = obj;
    rtipc_queue_delete(q->there);
    rtipc_queue_delete(q->back);
    free(q);
}

static void no_binding(void *obj) { (void)obj; }

static int rq_ping(void *obj, uint32_t seq)
{
    rq_t *q = obj;
    uint32_t got = ~seq;
    return rtipc_queue_send(q->there, &seq, RTIPC_FOREVER) == RTIPC_OK &&
                   rtipc_queue_receive(q->back, &got, RTIPC_FOREVER) == RTIPC_OK && got == seq
               ? 0
               : -1;
}

static int rq_echo(void *obj)
{
    rq_t *q = obj;
    uint32_t v;
    return rtipc_queue_receive(q->there, &v, RTIPC_FOREVER) == RTIPC_OK &&
                   rtipc_queue_send(q->back, &v, RTIPC_FOREVER) == RTIPC_OK
               ? 0
               : -1;
}

static int rq_self(void *obj, uint32_t seq)
{
    rq_t *q = obj;
    uint32_t got = ~seq;
    return rtipc_queue_send(q->there, &seq, RTIPC_NO_WAIT) == RTIPC_OK &&
                   rtipc_queue_receive(q->there, &got, RTIPC_NO_WAIT) == RTIPC_OK && got == seq
               ? 0
               : -1;
}

static const bench_round_trip_mech_t rq_mech = {BENCH_MECH_RTIPC_QUEUE, BENCH_METRIC_SEND_RECEIVE,
                                                    rq_create, rq_destroy, no_binding, no_binding,
                                                    rq_ping, rq_echo, rq_self};

/* ---- binary semaphore: a give each way ---- */

typedef struct {
    rtipc_sem_t *there, *back;
} rs_t;

static int rs_create(void **obj)
{
    rs_t *s = calloc(1, sizeof *s);
    if (!s || rtipc_sem_create_binary(&s->there) != RTIPC_OK || rtipc_sem_create_binary(&s->back) != RTIPC_OK) {
        if (s && s->there)
            rtipc_sem_delete(s->there);
        free(s);
        return -1;
    }
    *obj = s;
    return 0;
}

static void rs_destroy(void *obj)
{
    rs_t *s = obj;
    rtipc_sem_delete(s->there);
    rtipc_sem_delete(s->back);
    free(s);
}

static int rs_ping(void *obj, uint32_t seq)
{
    (void)seq;
    rs_t *s = obj;
    return rtipc_sem_give(s->there) == RTIPC_OK && rtipc_sem_take(s->back, RTIPC_FOREVER) == RTIPC_OK ? 0 : -1;
}

static int rs_echo(void *obj)
{
    rs_t *s = obj;
    return rtipc_sem_take(s->there, RTIPC_FOREVER) == RTIPC_OK && rtipc_sem_give(s->back) == RTIPC_OK ? 0 : -1;
}

static int rs_self(void *obj, uint32_t seq)
{
    (void)seq;
    rs_t *s = obj;
    return rtipc_sem_give(s->there) == RTIPC_OK && rtipc_sem_take(s->there, RTIPC_NO_WAIT) == RTIPC_OK ? 0 : -1;
}

static const bench_round_trip_mech_t rs_mech = {BENCH_MECH_RTIPC_SEM, BENCH_METRIC_GIVE_TAKE, rs_create,
                                                  rs_destroy, no_binding, no_binding, rs_ping, rs_echo, rs_self};

/* ---- notification: a give to the peer's slot 0 each way ---- */

typedef struct {
    rtipc_task_t *volatile ping, *volatile echo;
} rn_t;

static int rn_create(void **obj)
{
    rn_t *n = calloc(1, sizeof *n);
    *obj = n;
    return n ? 0 : -1;
}

static void rn_destroy(void *obj) { free(obj); }
static void rn_bind_ping(void *obj) { ((rn_t *)obj)->ping = rtipc_task_current(); }
static void rn_bind_echo(void *obj) { ((rn_t *)obj)->echo = rtipc_task_current(); }

static int rn_ping(void *obj, uint32_t seq)
{
    (void)seq;
    rn_t *n = obj;
    uint32_t got = 0;
    return rtipc_notify_give(n->echo, 0) == RTIPC_OK && rtipc_notify_take(0, true, &got, RTIPC_FOREVER) == RTIPC_OK &&
                   got == 1
               ? 0
               : -1;
}

static int rn_echo(void *obj)
{
    rn_t *n = obj;
    uint32_t got = 0;
    return rtipc_notify_take(0, true, &got, RTIPC_FOREVER) == RTIPC_OK && got == 1 &&
                   rtipc_notify_give(n->ping, 0) == RTIPC_OK
               ? 0
               : -1;
}

static const bench_round_trip_mech_t rn_mech = {BENCH_MECH_RTIPC_NOTIFY, NULL, rn_create, rn_destroy,
                                                     rn_bind_ping, rn_bind_echo, rn_ping, rn_echo, NULL};

const bench_round_trip_mech_t *const bench_round_trip_rtipc[] = {&rq_mech, &rs_mech, &rn_mech};
const size_t bench_round_trip_rtipc_count = sizeof bench_round_trip_rtipc / sizeof bench_round_trip_rtipc[0];
