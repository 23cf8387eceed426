/* rtipc-rv32-spin: spin-then-park on the FreeRTOS SMP kernel.
 *
 * 1. Measure: a task on core 0 and one on core 1 (rtipc tasks, pinned,
 *    priority 2) hand a token back and forth through a mailbox, an SPSC ring
 *    or task notifications, under global spin budgets of 0 and more ns
 *    (rtipc_spin_set_default; the objects and tasks follow the default).
 *    Each handoff carries the sender's mtime stamp, taken just before the
 *    write / push / give; the receiver's stamp right after its wait returns
 *    gives one one-way latency. Prints median and 99th percentile in mtime
 *    ticks (10 MHz: 100 ns each; emulated wall clock) and both tasks' spin
 *    counters per run.
 * 2. Check (exit status): with a budget far above the handoff time, a
 *    cross-core ping-pong is caught by spins (spin wake-ups counted on both
 *    sides); with both tasks on core 0 (equal priorities, then different
 *    ones) nothing spins: every wait that could have spun counts as a
 *    same-core park instead.
 *
 *   qemu-system-riscv32 -M virt,aclint=on -smp 2 -bios none -nographic \
 *       -kernel build/rv32-freertos/rtipc-rv32-spin.elf
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "FreeRTOS.h"
#include "task.h"

#include "board.h"
#include "rtipc/rtipc.h"
#include "rv32_freertos.h"

#ifndef RV32_SPIN_ROUNDS
#define RV32_SPIN_ROUNDS 2000u
#endif
#define ROUNDS RV32_SPIN_ROUNDS
#ifndef RV32_SPIN_CHECK_ONLY
#define RV32_SPIN_CHECK_ONLY 0 /* 1: the checks without the measurement */
#endif
#define CHECK_ROUNDS 200u
#define WAIT rtipc_ms(5000) /* a wait this long is a failure */
#define CHECK_BUDGET_NS 50000000 /* 50 ms: far above any cross-core handoff here, and above the
                                  * host scheduler slices that hold off a vCPU thread under load */

enum mech { M_MAILBOX, M_SPSC, M_NOTIFY, M_COUNT };
static const char *const mech_name[M_COUNT] = {"mailbox", "spsc", "notify"};
static const int64_t budgets[] = {0, 2000, 10000, 20000, 50000};
#define N_BUDGETS (sizeof budgets / sizeof *budgets)

typedef struct {
    enum mech mech;
    unsigned rounds;
    rtipc_mailbox_t *mb[2]; /* [to side] */
    rtipc_spsc_t *ring[2];
    rtipc_task_t *task[2];
    volatile uint64_t stamp[2]; /* notify: the stamp of the give to side n */
    volatile int ready;
    uint32_t *lat[2]; /* one-way latencies received by side n, mtime ticks */
    unsigned failures;
    rtipc_spin_stats_t stats[2];
} run_t;

static uint32_t lat_store[2][ROUNDS];

static void send(run_t *r, int to)
{
    uint64_t now = board_mtime();
    switch (r->mech) {
    case M_MAILBOX:
        if (rtipc_mailbox_write(r->mb[to], &now) != RTIPC_OK)
            r->failures++;
        break;
    case M_SPSC:
        if (rtipc_spsc_push(r->ring[to], &now, WAIT) != RTIPC_OK)
            r->failures++;
        break;
    case M_NOTIFY:
        r->stamp[to] = now; /* published by the give's critical section */
        if (rtipc_notify_give(r->task[to], 0) != RTIPC_OK)
            r->failures++;
        break;
    default: break;
    }
}

/* Wait for the next handoff to side `me`; its one-way latency. */
static uint32_t receive(run_t *r, int me, uint64_t *last_version)
{
    uint64_t sent = 0;
    int rc = RTIPC_EINVAL;
    switch (r->mech) {
    case M_MAILBOX:
        rc = rtipc_mailbox_wait_newer(r->mb[me], &sent, *last_version, last_version, WAIT);
        break;
    case M_SPSC: rc = rtipc_spsc_pop(r->ring[me], &sent, WAIT); break;
    case M_NOTIFY:
        rc = rtipc_notify_take(0, true, NULL, WAIT);
        sent = r->stamp[me];
        break;
    default: break;
    }
    uint64_t now = board_mtime();
    if (rc != RTIPC_OK) {
        r->failures++;
        return 0;
    }
    return now > sent ? (uint32_t)(now - sent) : 0;
}

static TaskHandle_t runner_task; /* the runner's kernel handle */
#define START_TRIES 5000u /* 1 ms delays before side 0 gives up on the runner */

/* Whether the runner waits in the kernel (a join waits without a timeout,
 * which the kernel may report as suspended). */
static bool runner_blocked(void)
{
    eTaskState st = eTaskGetState(runner_task);
    return st == eBlocked || st == eSuspended;
}

/* Side 0 starts each round, side 1 answers. */
static void side(run_t *r, int me)
{
    uint64_t version = 0;
    r->task[me] = rtipc_task_current();
    /* Side 1 goes straight into its first wait (a delay here would make
     * side 0's first wait a spin on the same core: the rules cannot know
     * that a delayed task is the waker). Side 0 starts once side 1 is there
     * and the runner, preempted on core 0 by side 0's creation, is blocked
     * in its join: while the runner is ready every wait of side 0 is a
     * same-core park, and side 0 rarely blocks long enough to let it run.
     * A fixed delay is not enough: under host load hart 0 can sit out a
     * whole tick, so side 0 delays until the kernel says so. */
    if (me == 1)
        r->ready = 1;
    if (me == 0) {
        unsigned tries = 0;
        do
            (void)rtipc_task_delay(rtipc_ms(1));
        while ((!r->ready || !runner_blocked()) && ++tries < START_TRIES);
        if (tries == START_TRIES)
            r->failures++; /* the run goes on: its waits still end */
    }
    for (unsigned i = 0; i < r->rounds; i++) {
        if (me == 0) {
            send(r, 1);
            uint32_t l = receive(r, 0, &version);
            if (r->lat[0])
                r->lat[0][i] = l;
        } else {
            uint32_t l = receive(r, 1, &version);
            if (r->lat[1])
                r->lat[1][i] = l;
            send(r, 0);
        }
    }
    (void)rtipc_spin_stats(NULL, &r->stats[me]);
}

static void side0(void *arg) { side(arg, 0); }
static void side1(void *arg) { side(arg, 1); }

static int spawn(const char *name, int core, unsigned prio, rtipc_task_fn fn, void *arg, rtipc_task_t **out)
{
    rtipc_task_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.name = name;
    cfg.priority = prio;
    cfg.core = core;
    cfg.stack_size = 4096;
    cfg.entry = fn;
    cfg.arg = arg;
    return rtipc_task_create(&cfg, out);
}

/* One run: both sides on their cores at their priorities; 0 when set up. */
static int run(run_t *r, enum mech m, unsigned rounds, int core0, int core1, unsigned prio0, unsigned prio1,
               bool record)
{
    memset(r, 0, sizeof *r);
    r->mech = m;
    r->rounds = rounds;
    if (record) {
        r->lat[0] = lat_store[0];
        r->lat[1] = lat_store[1];
    }
    uint64_t zero = 0;
    for (int s = 0; s < 2; s++) {
        if ((m == M_MAILBOX && rtipc_mailbox_create(sizeof zero, &zero, &r->mb[s]) != RTIPC_OK) ||
            (m == M_SPSC && rtipc_spsc_create(4, sizeof(uint64_t), &r->ring[s]) != RTIPC_OK))
            return -1;
    }
    rtipc_task_t *t0, *t1;
    /* Side 1 first, so that side 0 finds its handle. */
    if (spawn("side1", core1, prio1, side1, r, &t1) != RTIPC_OK || spawn("side0", core0, prio0, side0, r, &t0) != RTIPC_OK)
        return -1;
    (void)rtipc_task_join(t0);
    (void)rtipc_task_join(t1);
    for (int s = 0; s < 2; s++) {
        if (r->mb[s])
            (void)rtipc_mailbox_delete(r->mb[s]);
        if (r->ring[s])
            (void)rtipc_spsc_delete(r->ring[s]);
    }
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static uint32_t all[2 * ROUNDS];

static void measure(void)
{
    printf("spin: one-way cross-core latency, mtime ticks (100 ns), %u samples per row (%u round trips)\n",
           2u * ROUNDS, ROUNDS);
    printf("spin: %-8s %9s %7s %7s %7s | %s\n", "mech", "budget_ns", "median", "p90", "p99",
           "spins caught / waits that spun, sleeps, park gives (both sides)");
    for (int m = 0; m < M_COUNT; m++) {
        for (size_t b = 0; b < N_BUDGETS; b++) {
            (void)rtipc_spin_set_default(budgets[b]);
            run_t r;
            if (run(&r, (enum mech)m, ROUNDS, 0, 1, 2, 2, true) != 0) {
                printf("spin: setup failed\n");
                board_exit(2);
            }
            memcpy(all, lat_store[0], sizeof lat_store[0]);
            memcpy(all + ROUNDS, lat_store[1], sizeof lat_store[1]);
            qsort(all, 2u * ROUNDS, sizeof *all, cmp_u32);
            unsigned n = 2u * ROUNDS;
            uint64_t spins = r.stats[0].spins + r.stats[1].spins;
            uint64_t caught = r.stats[0].spin_wakeups + r.stats[1].spin_wakeups;
            uint64_t sleeps = r.stats[0].sleeps + r.stats[1].sleeps;
            uint64_t wakes = r.stats[0].futex_wakes + r.stats[1].futex_wakes;
            printf("spin: %-8s %9lld %7lu %7lu %7lu | %llu / %llu, %llu, %llu%s\n", mech_name[m],
                   (long long)budgets[b], (unsigned long)all[n / 2], (unsigned long)all[n * 9 / 10],
                   (unsigned long)all[n * 99 / 100], (unsigned long long)caught, (unsigned long long)spins,
                   (unsigned long long)sleeps, (unsigned long long)wakes, r.failures ? " FAILED WAITS" : "");
            if (r.failures)
                board_exit(1);
        }
    }
    (void)rtipc_spin_set_default(RTIPC_SPIN_DEFAULT);
}

/* The checks; the number that failed. */
static int check(void)
{
    int failed = 0;
    (void)rtipc_spin_set_default(CHECK_BUDGET_NS);
    for (int m = 0; m < M_COUNT; m++) {
        run_t r;
        /* Cross-core: both sides spin and catch handoffs, and neither
         * refuses to spin (no other rtipc task of either core is ready).
         * Side 0 starts once the runner that shares its core is blocked; it
         * has to catch some. Side 1 is judged on the waits it had: a round
         * whose token was already there (side 0 answered before side 1 got
         * back to its wait) has nothing to catch, so it must wait in a
         * tenth of the rounds and catch nine in ten of those waits. */
        if (run(&r, (enum mech)m, CHECK_ROUNDS, 0, 1, 2, 2, false) != 0)
            return 99;
        const rtipc_spin_stats_t *s0 = &r.stats[0], *s1 = &r.stats[1];
        bool side0_ok = s0->spins > 0 && s0->spin_wakeups >= 1u && s0->same_core_parks == 0;
        bool side1_ok = s1->spins >= CHECK_ROUNDS / 10u && s1->spin_wakeups * 10u >= s1->spins * 9u &&
                        s1->same_core_parks == 0;
        bool ok = r.failures == 0 && side0_ok && side1_ok;
        printf("spin check %-7s cross-core: side 0 caught %llu of %llu spins, side 1 %llu of %llu, "
               "same-core parks %llu + %llu, sleeps %llu + %llu: %s\n",
               mech_name[m], (unsigned long long)r.stats[0].spin_wakeups, (unsigned long long)r.stats[0].spins,
               (unsigned long long)r.stats[1].spin_wakeups, (unsigned long long)r.stats[1].spins,
               (unsigned long long)r.stats[0].same_core_parks, (unsigned long long)r.stats[1].same_core_parks,
               (unsigned long long)r.stats[0].sleeps, (unsigned long long)r.stats[1].sleeps, ok ? "ok" : "FAILED");
        failed += !ok;
        /* Both on core 0, equal and then different priorities: no spin. */
        static const unsigned prio[2][2] = {{2, 2}, {3, 2}};
        for (int p = 0; p < 2; p++) {
            if (run(&r, (enum mech)m, CHECK_ROUNDS, 0, 0, prio[p][0], prio[p][1], false) != 0)
                return 99;
            ok = r.failures == 0 && r.stats[0].spins == 0 && r.stats[1].spins == 0 &&
                 r.stats[0].same_core_parks + r.stats[1].same_core_parks > 0;
            printf("spin check %-7s same core (priorities %u, %u): spins %llu + %llu, same-core parks %llu + %llu, "
                   "sleeps %llu + %llu: %s\n",
                   mech_name[m], prio[p][0], prio[p][1], (unsigned long long)r.stats[0].spins,
                   (unsigned long long)r.stats[1].spins, (unsigned long long)r.stats[0].same_core_parks,
                   (unsigned long long)r.stats[1].same_core_parks, (unsigned long long)r.stats[0].sleeps,
                   (unsigned long long)r.stats[1].sleeps, ok ? "ok" : "FAILED");
            failed += !ok;
        }
    }
    (void)rtipc_spin_set_default(RTIPC_SPIN_DEFAULT);
    return failed;
}

static void runner(void *arg)
{
    (void)arg;
    runner_task = xTaskGetCurrentTaskHandle();
    printf("rtipc-rv32-spin: FreeRTOS %s, %d cores; build default spin budget %lld ns\n", tskKERNEL_VERSION_NUMBER,
           configNUMBER_OF_CORES, (long long)rtipc_spin_default());
    if (!RV32_SPIN_CHECK_ONLY)
        measure();
    int failed = check();
    printf("rtipc-rv32-spin: %s\n", failed ? "FAILED" : "passed");
    board_exit(failed ? 1 : 0);
}

int main(void)
{
    /* Priority 1 on core 0: below the measured tasks, and blocked in join
     * while they run. An rtipc task, so that the same-core rule sees it
     * while it is ready (it creates the second side). */
    rtipc_task_t *t;
    if (spawn("spin", 0, 1, runner, NULL, &t) != RTIPC_OK) {
        printf("rtipc-rv32-spin: cannot create the runner task\n");
        return 1;
    }
    rtipc_rv32_kernel_traps();
    vTaskStartScheduler();
    printf("rtipc-rv32-spin: the scheduler returned\n");
    return 1;
}
