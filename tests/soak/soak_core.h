/* rtipc soak test: the shared machinery of tests/soak (objects and their
 * counters, workers, phases, message streams with order and checksum checks,
 * interrupt roles). Each object's load lives in its own file; soak.c runs
 * them all at once for the requested duration and checks the totals. */
#ifndef RTIPC_SOAK_CORE_H
#define RTIPC_SOAK_CORE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stress_support.h"

/* ---- objects and their counters ------------------------------------------ */

enum {
    O_QUEUE,
    O_QUEUE_OVW,
    O_SEM_BIN,
    O_SEM_CNT,
    O_MUTEX,
    O_RMUTEX,
    O_NOTIFY,
    O_EVENTS,
    O_RB_NOSPLIT,
    O_RB_SPLIT,
    O_RB_BYTE,
    O_STREAM,
    O_MSGBUF,
    O_MAILBOX,
    O_SPSC,
    O_QSET,
    O_TASK,
    O_COUNT
};

typedef struct {
    const char *name;
    atomic_llong ops;        /* API calls made on the object */
    atomic_llong sent;       /* messages (or gives, sets, writes) accepted */
    atomic_llong received;   /* messages (or takes, observations) taken out */
    atomic_llong dropped;    /* counted refusals: ISR overflow, overwrite, EPENDING, full semaphore */
    atomic_llong timeouts;   /* RTIPC_ETIMEDOUT */
    atomic_llong wouldblock; /* RTIPC_EWOULDBLOCK */
    atomic_llong isr_ops;    /* calls made from interrupt handlers */
    atomic_llong violations; /* invariant violations (must stay 0) */
} soak_obj_t;

extern soak_obj_t soak_objs[O_COUNT];

/* Record an invariant violation of object @p obj (any thread or handler). */
void soak_violation(int obj, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline void soak_add(atomic_llong *c, long long n) { atomic_fetch_add_explicit(c, n, memory_order_relaxed); }

/* ---- phases ----------------------------------------------------------------- */

enum { PH_RUN = 0, PH_STOP_PRODUCERS = 1, PH_STOP_CONSUMERS = 2 };
extern atomic_int soak_phase;

/* ---- workers ------------------------------------------------------------------ */

typedef struct soak_worker soak_worker_t;
typedef void (*soak_worker_fn)(soak_worker_t *w);

struct soak_worker {
    char name[16];
    int obj;
    int id;        /* index within the object's load (producer or consumer id) */
    bool consumer; /* consumers run until PH_STOP_CONSUMERS, producers until PH_STOP_PRODUCERS */
    unsigned priority;
    int core;
    soak_worker_fn fn;
    void *arg;
    stress_rng_t rng;
    stress_waits_t waits;
    int burst;
    _Atomic(const char *) where; /* the call it is in (for the stall diagnostic) */
    atomic_llong ops;
    atomic_int done;
    rtipc_task_t *task;
};

/* Start a worker task (main/supervisor only, before the run starts). */
soak_worker_t *soak_spawn(int obj, const char *name, soak_worker_fn fn, void *arg, int id, bool consumer,
                          unsigned priority, int core);

/* Whether the worker should go on (by its role and the phase). */
static inline bool soak_running(const soak_worker_t *w)
{
    return atomic_load(&soak_phase) < (w->consumer ? PH_STOP_CONSUMERS : PH_STOP_PRODUCERS);
}

/* Note the call the worker is about to make, and count it as one operation. */
static inline void soak_at(soak_worker_t *w, const char *where)
{
    atomic_store_explicit(&w->where, where, memory_order_relaxed);
    atomic_fetch_add_explicit(&w->ops, 1, memory_order_relaxed);
    soak_add(&soak_objs[w->obj].ops, 1);
}

/* A random timeout: NO_WAIT, finite (up to 200 us, sometimes up to 5 ms) or FOREVER. */
rtipc_timeout_t soak_timeout(soak_worker_t *w);
uint32_t soak_below(soak_worker_t *w, uint32_t n);

/* Count one call made on object @p obj from an interrupt handler. */
static inline void soak_isr_op(int obj)
{
    soak_add(&soak_objs[obj].isr_ops, 1);
    soak_add(&soak_objs[obj].ops, 1);
}

/* Account the result of a send-like call: true when it was accepted (the
 * caller counts it), @p full_rc (the object was full) counts as dropped, any
 * other code is recorded as a violation "@p what: <error>". */
bool soak_accepted(int obj, int rc, int full_rc, const char *what);

/* soak_not_now(), but 0 and @p handled (a code the caller accounted) pass. */
void soak_not_now_but(soak_worker_t *w, int rc, int handled, const char *what);

/* Account a "not now" result (ETIMEDOUT / EWOULDBLOCK; backs off after the
 * latter), or record any other code as a violation. */
void soak_not_now(soak_worker_t *w, int rc, const char *what);

/* Random bursts and pauses: call once per operation. During a quiet period
 * (set by the supervisor) tasks above priority 1 pause until it ends, so the
 * lowest priority, and the rest of the machine, get the cores for a while. */
void soak_pace(soak_worker_t *w);
extern atomic_llong soak_quiet_until_ns;

/* Cores for "core 0" and "core 1" (RTIPC_CORE_ANY with a single core). */
int soak_core(int which);
/* Core ids for interrupt sources (0, and 1 when there is a second core). */
int soak_irq_core(int which);

/* ---- checksums and message streams ------------------------------------------ */

uint64_t soak_mix(uint64_t x);
uint64_t soak_check(int obj, uint32_t prod, uint64_t seq, uint32_t extra);

#define SOAK_MAXP 12 /* producers (streams) per object */
#define SOAK_MAXC 8 /* consumers per object */
#define SOAK_ORDERED 1u

/* A fixed-size message: (producer, sequence, checksum). */
typedef struct {
    uint32_t prod;
    uint32_t flags;
    uint64_t seq;
    uint64_t check;
} soak_msg_t;

/* The accounting of an object's streams. Each producer id is used by one
 * context at a time (a task, one handler, or the main thread after that one
 * has ended); each consumer id likewise. */
typedef struct {
    int obj;
    bool lossy; /* overwrite semantics: received may be below sent */
    atomic_ullong next[SOAK_MAXP];
    atomic_ullong sent[SOAK_MAXP], sent_sum[SOAK_MAXP];
    atomic_ullong recv[SOAK_MAXP], recv_sum[SOAK_MAXP];
    int64_t last[SOAK_MAXC][SOAK_MAXP]; /* per consumer: last ordered seq seen */
} soak_streams_t;

void soak_streams_init(soak_streams_t *s, int obj, bool lossy);
/* Fill @p m with producer @p p's next message (not yet counted as sent). */
void soak_msg_make(soak_streams_t *s, uint32_t p, uint32_t flags, soak_msg_t *m);
/* Count (p, seq) as sent (after the object accepted it). */
void soak_sent(soak_streams_t *s, uint32_t p, uint64_t seq);
/* Check and count a message received by consumer @p c. */
void soak_msg_received(soak_streams_t *s, int c, const soak_msg_t *m);
/* Checksum and producer range only (a peek). */
bool soak_msg_valid(const soak_streams_t *s, const soak_msg_t *m);
/* Count (p, seq) received by consumer c, with the order check when ordered. */
void soak_received(soak_streams_t *s, int c, uint32_t p, uint64_t seq, bool ordered);
/* End of run: per producer, sent == received (lossy: received <= sent).
 * Returns the messages lost to overwriting (lossy) or 0. */
long long soak_streams_final(soak_streams_t *s, const char *what);

/* Variable-length items: a header (producer, length, seq, check) and a
 * payload derived from the check. len >= sizeof(soak_blob_hdr_t). */
typedef struct {
    uint32_t prod;
    uint32_t len;
    uint64_t seq;
    uint64_t check;
} soak_blob_hdr_t;

void soak_blob_make(soak_streams_t *s, uint32_t p, void *buf, size_t len);
/* Verify an item; on success fills *prod and *seq. */
bool soak_blob_valid(const soak_streams_t *s, const void *buf, size_t len, uint32_t *prod, uint64_t *seq);

/* A handler's send to @p q of producer @p p's next message of @p s (to the
 * front or the back); a full queue counts as dropped. */
void soak_isr_queue_send(rtipc_queue_t *q, soak_streams_t *s, uint32_t p, uint32_t flags, bool front, bool *woken);

/* ---- interrupt roles and stop protocol ----------------------------------------- */

/* An interrupt role: called from handler @p irq (0 or 1) with that handler's
 * random generator. */
typedef void (*soak_isr_role_fn)(stress_rng_t *rng);
void soak_isr_role(int irq, soak_isr_role_fn fn);

/* Stop-phase hooks, run by the supervisor: after the producers have ended,
 * kick() is called repeatedly until the object's consumers have ended (it
 * must unblock consumers waiting FOREVER, counting what it adds), then
 * drain() once, then final() checks the end-of-run invariants. */
typedef struct {
    void (*kick)(void);
    void (*drain)(void);
    void (*final)(void);
} soak_hooks_t;
void soak_hooks(const soak_hooks_t *h);

/* A gate between the supervisor's kicks and a worker that must see every
 * kick before it ends (a notification receiver draining its own slot). */
typedef struct {
    atomic_int exiting;
    atomic_int kicking;
} soak_gate_t;
/* Supervisor: run kick() unless the worker is past its final drain. */
void soak_gate_kick(soak_gate_t *g, void (*kick)(void *), void *arg);
/* Worker: no kick starts after this returns; kicks in progress have ended. */
void soak_gate_close(soak_gate_t *g);

/* A random spin budget for one object instance (RTIPC_SPIN_DEFAULT, 0 =
 * park at once, 5 us or 100 us), drawn from the seed and listed in the
 * output. */
int64_t soak_spin(int obj);
/* Check the return code of an rtipc_*_set_spin call. */
void soak_spin_set(int obj, int rc);
extern char soak_spin_list[512];

/* Object loads (one per file). */
void soak_setup_queues(void);
void soak_setup_sems(void);
void soak_setup_mutexes(void);
void soak_setup_notify(void);
void soak_setup_events(void);
void soak_setup_ringbufs(void);
void soak_setup_streams(void);
void soak_setup_mailbox(void);
void soak_setup_spsc(void);
void soak_setup_queueset(void);
void soak_setup_tasks(void);

#endif
