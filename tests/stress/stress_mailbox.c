/* Stress: the latest-value mailbox under writers at full speed.
 *
 * The value is 64 bytes whose halves must agree ({seq x 4, ~seq x 4}): a torn
 * copy shows as halves that disagree.
 *
 * 1. One writer task on core 0 publishes >= 10^6 values, value i as version
 *    i. Readers on both cores check every copy: two tasks that read in a
 *    loop, two tasks that wait for a newer version with random timeouts (no
 *    wait, 0..200 us, forever) and sometimes dawdle, and a periodic
 *    interrupt on core 1 that reads from interrupt context. No torn value,
 *    the value matches its version, versions never go backwards per reader
 *    (and wait_newer's always exceeds the version last seen), and the final
 *    version equals the number of writes.
 * 2. Two writer tasks (core 0 and core 1) and a writer interrupt (core 0)
 *    publish >= 10^6 values together; a refused write (another write in
 *    progress) is counted and retried. Readers also check that each writer's
 *    values appear in that writer's order, and the final version equals the
 *    writes that succeeded.
 *
 * 3. Ping-pong through two mailboxes with waits that never time out: every
 *    round parks both sides, so a single lost wake-up stalls it.
 *
 * Random choices come from a printed seed (RTIPC_STRESS_SEED replays them).
 * Tasks record errors; the main thread asserts after joining. A stall (no
 * progress for 30 s) fails the test: it is how a lost wake-up shows. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rtipc/mailbox.h"
#include "test_support.h"

#define STRESS_PROGRAM "stress_mailbox"
#include "stress_common.h"

/* ---- the value -------------------------------------------------------------- */
typedef struct {
    uint64_t seq[4];
    uint64_t inv[4];
} value_t;

static value_t val(uint64_t seq)
{
    return (value_t){{seq, seq, seq, seq}, {~seq, ~seq, ~seq, ~seq}};
}

static bool whole(const value_t *v)
{
    for (int i = 0; i < 4; ++i)
        if (v->seq[i] != v->seq[0] || v->inv[i] != ~v->seq[0])
            return false;
    return true;
}

/* Test 2 tags each value with its writer: id in the top byte, that writer's
 * count below. */
#define WRITERS 3
static uint64_t tag(unsigned id, uint64_t n) { return (uint64_t)id << 56 | n; }
static unsigned id_of(uint64_t seq) { return (unsigned)(seq >> 56); }
static uint64_t count_of(uint64_t seq) { return seq & ((1ull << 56) - 1); }

/* ---- shared state -------------------------------------------------------------- */
enum { READERS = 4 }; /* 2 readers, 2 waiters */

/* Test 2's writer tasks: which writer, how many values, and the state. */
typedef struct ctx ctx_t;
typedef struct {
    ctx_t *c;
    unsigned id;
    uint64_t share;
} writer_arg_t;

typedef struct {
    uint64_t reads, waits_ok, wouldblock, timedout;
    timeout_tally_t waits; /* waiters: timeouts drawn, by kind */
    uint64_t last_version;
    uint64_t last_count[WRITERS];
} reader_stats_t;

struct ctx {
    rtipc_mailbox_t *mb;
    bool multi;               /* test 2 */
    uint64_t writes;          /* test 1: values to write */
    atomic_int stop;          /* test 2: readers and interrupt writer stop */
    atomic_long progress;     /* something moved */
    atomic_long errors;
    atomic_int claimed;
    char first_error[200];
    reader_stats_t rs[READERS];
    reader_stats_t isr_rs;
    uint64_t written[WRITERS], refused[WRITERS];
    atomic_int writers_done;
    int writers_started;      /* writer tasks the main thread waits for */
    atomic_uint reader_index_next; /* readers take their slot in start order */
    writer_arg_t wa[2];            /* test 2 */
};

/* Record an error (any task or handler): what happened and two numbers. */
static void error(ctx_t *c, const char *what, uint64_t a, uint64_t b)
{
    if (atomic_fetch_add(&c->errors, 1) == 0 && atomic_exchange(&c->claimed, 1) == 0)
        snprintf(c->first_error, sizeof c->first_error, "%s (%" PRIu64 ", %" PRIu64 ")", what, a, b);
}

/* Check one copy and its version against what this reader saw before. */
static void check_copy(ctx_t *c, reader_stats_t *s, const value_t *v, uint64_t version)
{
    if (!whole(v)) {
        error(c, "torn value (seq, ~inv)", v->seq[0], ~v->inv[0]);
        return;
    }
    if (version < s->last_version)
        error(c, "version went backwards (now, before)", version, s->last_version);
    if (!c->multi) {
        if (v->seq[0] != version)
            error(c, "value does not match its version (value, version)", v->seq[0], version);
    } else if (version > 0) {
        unsigned id = id_of(v->seq[0]);
        if (id >= WRITERS)
            error(c, "unknown writer (id, version)", id, version);
        else if (count_of(v->seq[0]) < s->last_count[id])
            error(c, "a writer's values out of order (now, before)", count_of(v->seq[0]),
                  s->last_count[id]);
        else
            s->last_count[id] = count_of(v->seq[0]);
    }
    s->last_version = version;
}

static bool readers_should_stop(ctx_t *c, const reader_stats_t *s)
{
    return c->multi ? atomic_load_explicit(&c->stop, memory_order_acquire) != 0 : s->last_version >= c->writes;
}

static void reader_task(void *arg)
{
    ctx_t *c = arg;
    unsigned me = atomic_fetch_add(&c->reader_index_next, 1);
    reader_stats_t *s = &c->rs[me];
    while (!readers_should_stop(c, s)) {
        value_t v;
        uint64_t ver;
        int rc = rtipc_mailbox_read(c->mb, &v, &ver);
        if (rc != RTIPC_OK) {
            error(c, "read failed (rc, reader)", (uint64_t)(int64_t)rc, me);
            return;
        }
        check_copy(c, s, &v, ver);
        s->reads++;
        atomic_fetch_add_explicit(&c->progress, 1, memory_order_relaxed);
        /* Share the core with the writer under SCHED_FIFO; now and then let
         * everything else on the machine run too. */
        if (s->reads % 64 == 0)
            rtipc_task_yield();
        if (s->reads % 4096 == 0)
            rtipc_task_delay(rtipc_us(50));
    }
}

static void waiter_task(void *arg)
{
    ctx_t *c = arg;
    unsigned me = atomic_fetch_add(&c->reader_index_next, 1);
    reader_stats_t *s = &c->rs[me];
    rng_t g = rng_for(100 + me);
    uint64_t last_seen = 0;
    while (!readers_should_stop(c, s)) {
        rtipc_timeout_t t = random_timeout(&g, &s->waits);
        value_t v;
        uint64_t ver = UINT64_MAX;
        int rc = rtipc_mailbox_wait_newer(c->mb, &v, last_seen, &ver, t);
        if (rc == RTIPC_OK) {
            if (ver <= last_seen)
                error(c, "wait_newer gave a version not newer (version, last seen)", ver, last_seen);
            check_copy(c, s, &v, ver);
            last_seen = ver;
            s->waits_ok++;
            atomic_fetch_add_explicit(&c->progress, 1, memory_order_relaxed);
        } else if (rc == RTIPC_EWOULDBLOCK) {
            s->wouldblock++;
        } else if (rc == RTIPC_ETIMEDOUT) {
            s->timedout++;
        } else {
            error(c, "wait_newer failed (rc, waiter)", (uint64_t)(int64_t)rc, me);
            return;
        }
        /* Sometimes dawdle, so that writes also find nobody waiting. */
        if (below(&g, 4) == 0)
            rtipc_task_delay(rtipc_us(below(&g, 100)));
    }
}

static void reader_isr(void *arg)
{
    ctx_t *c = arg;
    value_t v;
    uint64_t ver;
    if (rtipc_mailbox_read(c->mb, &v, &ver) != RTIPC_OK) {
        error(c, "read in a handler failed", 0, 0);
        return;
    }
    check_copy(c, &c->isr_rs, &v, ver);
    c->isr_rs.reads++;
}

static void print_stats(ctx_t *c);

static bool writers_finished(void *arg)
{
    ctx_t *c = arg;
    return atomic_load(&c->writers_done) >= c->writers_started;
}

/* Main thread: wait until the c->writers_started writers are done; a stall
 * of progress ends the process. */
static bool wait_done(ctx_t *c)
{
    if (wait_with_stall_check(writers_finished, c, &c->progress))
        return true;
    /* Tasks are still running (some may be spinning at a high priority): the
     * next test could not start cleanly, so the process ends here rather
     * than hang until ctest's timeout. */
    printf("stress_mailbox: STALL (no progress for 30 s) after %" PRIu64 " + %" PRIu64 " + %" PRIu64
           " writes; %ld errors (first: %s)\n",
           c->written[0], c->written[1], c->written[2], atomic_load(&c->errors), c->first_error);
    print_stats(c);
    fflush(stdout);
    _exit(1);
}

static void print_stats(ctx_t *c)
{
    for (int i = 0; i < READERS; ++i) {
        reader_stats_t *s = &c->rs[i];
        if (s->reads)
            printf("  reader %d: %" PRIu64 " reads, last version %" PRIu64 "\n", i, s->reads, s->last_version);
        else
            printf("  waiter %d: %" PRIu64 " newer versions; timeouts no-wait %" PRIu64 " finite %" PRIu64
                   " forever %" PRIu64 "; would-block %" PRIu64 ", timed-out %" PRIu64 "\n",
                   i, s->waits_ok, s->waits.no_wait, s->waits.finite, s->waits.forever, s->wouldblock, s->timedout);
    }
    printf("  interrupt reader: %" PRIu64 " reads, last version %" PRIu64 "\n", c->isr_rs.reads,
           c->isr_rs.last_version);
}

/* Readers: [0] loop on core 0, [1] loop on core 1, [2] waiter on core 0,
 * [3] waiter on core 1. */
static void start_readers(ctx_t *c, rtipc_task_t *t[READERS])
{
    /* One at a time, so each takes the index that matches its core. */
    t[0] = start_task("rd0", 4, test_core(0), reader_task, c);
    while (atomic_load(&c->reader_index_next) < 1)
        sleep_ms(1);
    t[1] = start_task("rd1", 4, test_core(1), reader_task, c);
    while (atomic_load(&c->reader_index_next) < 2)
        sleep_ms(1);
    t[2] = start_task("wt0", 6, test_core(0), waiter_task, c);
    while (atomic_load(&c->reader_index_next) < 3)
        sleep_ms(1);
    t[3] = start_task("wt1", 6, test_core(1), waiter_task, c);
}

/* ======================================================================== */
/* 1. one writer                                                             */
/* ======================================================================== */
static void single_writer_task(void *arg)
{
    ctx_t *c = arg;
    for (uint64_t i = 1; i <= c->writes; ++i) {
        value_t v = val(i);
        int rc = rtipc_mailbox_write(c->mb, &v);
        if (rc != RTIPC_OK) { /* a single writer is never refused */
            error(c, "single writer refused or failed (write, rc)", i, (uint64_t)(int64_t)rc);
            break;
        }
        c->written[0]++;
        atomic_fetch_add_explicit(&c->progress, 1, memory_order_relaxed);
        if (i % 64 == 0)
            rtipc_task_yield(); /* readers of equal priority on this core */
    }
    atomic_store(&c->writers_done, 1);
}

static void one_writer_and_readers_on_both_cores_never_see_a_torn_or_older_value(void **state)
{
    (void)state;
    ctx_t *c = calloc(1, sizeof *c); /* leaked if a stall leaves tasks running */
    assert_non_null(c);
    c->writes = (uint64_t)stress_count(1000000);
    value_t zero = val(0);
    assert_int_equal(rtipc_mailbox_create(sizeof(value_t), &zero, &c->mb), RTIPC_OK);
    rtipc_irq_t *irq;
    assert_int_equal(rtipc_irq_create(rtipc_core_count() >= 2 ? 1 : 0, reader_isr, c, &irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_timer_start(irq, 100000, 200000), RTIPC_OK);
    double t0 = (double)rtipc_time_ns();
    rtipc_task_t *rd[READERS];
    start_readers(c, rd);
    rtipc_task_t *w = start_task("writer", 4, test_core(0), single_writer_task, c);
    c->writers_started = 1;
    if (!wait_done(c))
        fail_msg("stalled after %" PRIu64 " writes; %ld errors (first: %s)", c->written[0], atomic_load(&c->errors),
                 c->first_error);
    join_task(w);
    for (int i = 0; i < READERS; ++i)
        join_task(rd[i]); /* each stops once it has seen the last version */
    assert_int_equal(rtipc_irq_timer_stop(irq), RTIPC_OK);
    assert_int_equal(rtipc_irq_delete(irq), RTIPC_OK);
    double secs = ((double)rtipc_time_ns() - t0) / 1e9;
    printf("stress_mailbox one writer: %" PRIu64 " writes in %.2f s (%.0f writes/s), %s\n", c->written[0], secs,
           c->written[0] / secs, rtipc_sched_policy_describe());
    print_stats(c);
    if (atomic_load(&c->errors))
        fail_msg("%ld errors; first: %s", atomic_load(&c->errors), c->first_error);
    uint64_t ver;
    assert_int_equal(rtipc_mailbox_version(c->mb, &ver), RTIPC_OK);
    assert_int_equal(ver, c->writes);
    assert_int_equal(c->written[0], c->writes);
    for (int i = 0; i < READERS; ++i)
        assert_int_equal(c->rs[i].last_version, c->writes);
    assert_true(c->rs[0].reads > 0 && c->rs[1].reads > 0);
    assert_true(c->rs[2].waits_ok > 0 && c->rs[3].waits_ok > 0);
    assert_true(c->isr_rs.reads > 0);
    assert_int_equal(rtipc_mailbox_delete(c->mb), RTIPC_OK);
    free(c);
}

/* ======================================================================== */
/* 2. several writers                                                        */
/* ======================================================================== */
static void multi_writer_task(void *arg)
{
    writer_arg_t *a = arg;
    ctx_t *c = a->c;
    for (uint64_t n = 1; n <= a->share;) {
        value_t v = val(tag(a->id, n));
        int rc = rtipc_mailbox_write(c->mb, &v);
        if (rc == RTIPC_OK) {
            c->written[a->id]++;
            n++;
            atomic_fetch_add_explicit(&c->progress, 1, memory_order_relaxed);
        } else if (rc == RTIPC_EWOULDBLOCK) {
            c->refused[a->id]++; /* another write in progress: retry */
        } else {
            error(c, "write failed (writer, rc)", a->id, (uint64_t)(int64_t)rc);
            break;
        }
        if (n % 64 == 0)
            rtipc_task_yield();
    }
    atomic_fetch_add(&c->writers_done, 1);
}

static void writer_isr(void *arg)
{
    ctx_t *c = arg;
    if (atomic_load_explicit(&c->stop, memory_order_relaxed))
        return;
    value_t v = val(tag(2, c->written[2] + 1));
    bool woken = false;
    int rc = rtipc_mailbox_write_from_isr(c->mb, &v, &woken);
    if (rc == RTIPC_OK)
        c->written[2]++;
    else if (rc == RTIPC_EWOULDBLOCK)
        c->refused[2]++; /* it interrupted a write, or one runs on the other core */
    else
        error(c, "write_from_isr failed (rc, 0)", (uint64_t)(int64_t)rc, 0);
    rtipc_irq_yield(woken);
}

static void several_writers_are_serialised_and_every_write_counts(void **state)
{
    (void)state;
    ctx_t *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->multi = true;
    long total = stress_count(1000000);
    writer_arg_t *wa = c->wa;
    wa[0] = (writer_arg_t){c, 0, (uint64_t)(total / 2)};
    wa[1] = (writer_arg_t){c, 1, (uint64_t)(total - total / 2)};
    value_t zero = val(0);
    assert_int_equal(rtipc_mailbox_create(sizeof(value_t), &zero, &c->mb), RTIPC_OK);
    rtipc_irq_t *wirq, *rirq;
    assert_int_equal(rtipc_irq_create(0, writer_isr, c, &wirq), RTIPC_OK);
    assert_int_equal(rtipc_irq_create(rtipc_core_count() >= 2 ? 1 : 0, reader_isr, c, &rirq), RTIPC_OK);
    double t0 = (double)rtipc_time_ns();
    rtipc_task_t *rd[READERS];
    start_readers(c, rd);
    assert_int_equal(rtipc_irq_timer_start(wirq, 100000, 100000), RTIPC_OK);
    assert_int_equal(rtipc_irq_timer_start(rirq, 150000, 200000), RTIPC_OK);
    rtipc_task_t *w0 = start_task("wr0", 4, test_core(0), multi_writer_task, &wa[0]);
    rtipc_task_t *w1 = start_task("wr1", 4, test_core(1), multi_writer_task, &wa[1]);
    c->writers_started = 2;
    if (!wait_done(c))
        fail_msg("stalled; %ld errors (first: %s)", atomic_load(&c->errors), c->first_error);
    join_task(w0);
    join_task(w1);
    atomic_store(&c->stop, 1);
    /* The interrupt writer sees stop before its next write; stop its timer,
     * then wake the waiters with one last write of our own (counted). */
    assert_int_equal(rtipc_irq_timer_stop(wirq), RTIPC_OK);
    assert_int_equal(rtipc_irq_delete(wirq), RTIPC_OK);
    value_t last = val(tag(2, c->written[2] + 1));
    assert_int_equal(rtipc_mailbox_write(c->mb, &last), RTIPC_OK);
    c->written[2]++;
    for (int i = 0; i < READERS; ++i)
        join_task(rd[i]);
    assert_int_equal(rtipc_irq_timer_stop(rirq), RTIPC_OK);
    assert_int_equal(rtipc_irq_delete(rirq), RTIPC_OK);
    double secs = ((double)rtipc_time_ns() - t0) / 1e9;
    uint64_t sum = c->written[0] + c->written[1] + c->written[2];
    printf("stress_mailbox three writers: %" PRIu64 " writes (%" PRIu64 " + %" PRIu64 " tasks, %" PRIu64
           " interrupt) in %.2f s (%.0f writes/s); refused %" PRIu64 " / %" PRIu64 " / %" PRIu64 "\n",
           sum, c->written[0], c->written[1], c->written[2], secs, sum / secs, c->refused[0], c->refused[1],
           c->refused[2]);
    print_stats(c);
    if (atomic_load(&c->errors))
        fail_msg("%ld errors; first: %s", atomic_load(&c->errors), c->first_error);
    uint64_t ver;
    assert_int_equal(rtipc_mailbox_version(c->mb, &ver), RTIPC_OK);
    assert_int_equal(ver, sum);
    assert_int_equal(c->written[0], wa[0].share);
    assert_int_equal(c->written[1], wa[1].share);
    assert_true(c->rs[0].reads > 0 && c->rs[1].reads > 0);
    assert_true(c->rs[2].waits_ok > 0 && c->rs[3].waits_ok > 0);
    assert_int_equal(rtipc_mailbox_delete(c->mb), RTIPC_OK);
    free(c);
}

/* ======================================================================== */
/* 3. ping-pong with waits that never time out                               */
/* ======================================================================== */
/* Two mailboxes: one side writes round i to the first and waits forever for
 * version i of the second; the other waits forever for version i of the
 * first and answers in the second. Every round the write races the other
 * side's "announce, fence, look again"; one lost wake-up leaves both asleep
 * for good, which the stall check turns into a failure. */
typedef struct {
    pingpong_t pp;
    rtipc_mailbox_t *there, *back;
    value_t got; /* the pong side's value of the round */
} pp_t;

/* Round i writes version i + 1 (a new mailbox starts at version 0). */
static bool ping_round(void *arg, long i)
{
    pp_t *p = arg;
    uint64_t n = (uint64_t)i + 1, ver;
    value_t v = val(n), got;
    return rtipc_mailbox_write(p->there, &v) == RTIPC_OK &&
           rtipc_mailbox_wait_newer(p->back, &got, n - 1, &ver, RTIPC_FOREVER) == RTIPC_OK && ver == n &&
           whole(&got) && got.seq[0] == n;
}

static bool pong_take(void *arg, long i)
{
    pp_t *p = arg;
    uint64_t n = (uint64_t)i + 1, ver;
    return rtipc_mailbox_wait_newer(p->there, &p->got, n - 1, &ver, RTIPC_FOREVER) == RTIPC_OK && ver == n &&
           whole(&p->got);
}

static bool pong_answer(void *arg, long i)
{
    pp_t *p = arg;
    (void)i;
    return rtipc_mailbox_write(p->back, &p->got) == RTIPC_OK;
}

static void ping_task(void *arg)
{
    pp_t *p = arg;
    pingpong_ping(&p->pp, 7, ping_round, p);
}

static void pong_task(void *arg)
{
    pp_t *p = arg;
    pingpong_pong(&p->pp, 8, pong_take, pong_answer, p);
}

static void ping_pong_with_waits_forever_never_loses_a_wake_up(void **state)
{
    (void)state;
    pp_t *p = pingpong_new(sizeof *p);
    assert_int_equal(rtipc_mailbox_create(sizeof(value_t), NULL, &p->there), RTIPC_OK);
    assert_int_equal(rtipc_mailbox_create(sizeof(value_t), NULL, &p->back), RTIPC_OK);
    double t0 = (double)rtipc_time_ns();
    rtipc_task_t *b = start_task("pong", 5, test_core(1), pong_task, p);
    rtipc_task_t *a = start_task("ping", 5, test_core(0), ping_task, p);
    if (!wait_with_stall_check(pingpong_over, &p->pp, &p->pp.done)) {
        uint64_t v1 = 0, v2 = 0;
        rtipc_mailbox_version(p->there, &v1);
        rtipc_mailbox_version(p->back, &v2);
        fail_msg("stalled after %ld of %ld rounds (versions %" PRIu64 " / %" PRIu64 "): a lost wake-up",
                 atomic_load(&p->pp.done), p->pp.rounds, v1, v2);
    }
    pingpong_finish(&p->pp, a, b, t0);
    assert_int_equal(rtipc_mailbox_delete(p->there), RTIPC_OK);
    assert_int_equal(rtipc_mailbox_delete(p->back), RTIPC_OK);
    free(p);
}

int main(void)
{
    run_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_writer_and_readers_on_both_cores_never_see_a_torn_or_older_value),
        cmocka_unit_test(several_writers_are_serialised_and_every_write_counts),
        cmocka_unit_test(ping_pong_with_waits_forever_never_loses_a_wake_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
