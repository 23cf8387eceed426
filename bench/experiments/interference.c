/* interference: the cross-core queue and notification handoffs while the
 * producer's core (core 1, "the other core" seen from the consumer on core 0)
 * carries a load: an interrupt storm, a CPU hog or a memory-bandwidth hog.
 * On FreeRTOS the kernel's own queue and notification run beside rtipc's
 * under each load, in the same rounds. */
#include "../harness/handoff_rounds.h"
#include "../mechanisms/freertos_calls.h"
#include "experiments.h"
#include "kernel_rows.h"
#include "needs_tasks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PROFILES = 4, MECHS = 2, SIDES = 2 }; /* side 0 rtipc's, 1 the kernel's twin */
enum { LOAD_IDLE, LOAD_IRQ, LOAD_CPU, LOAD_MEM };
static const char *const profile_name[PROFILES] = {"idle", "irq-storm", "cpu-hog", "memory-hog"};
static const char *const mech_name[MECHS] = {BENCH_MECH_RTIPC_QUEUE, BENCH_MECH_RTIPC_NOTIFY};

#define IRQ_PERIOD_NS 50000       /* 20 kHz */
#define IRQ_WORK_NS 1000          /* busy work per interrupt */
#define HOG_BYTES_MAX (64u << 20) /* far beyond a host's last-level cache */
#define HOG_BYTES_MIN (16u << 10) /* what an ESP32 has left beside the suite; beyond an MCU's cache */
#define LOAD_PRIORITY 2

/* ---- loads ---------------------------------------------------------------- */

/* One load profile as run around the rounds of one case; the figures add up
 * over that case's rounds. */
typedef struct {
    int kind;
    int cpu;
    uint64_t *buf;                /* memory hog: shared buffer of hog_bytes */
    size_t hog_bytes;
    bench_task_t *task;           /* CPU and memory hogs */
    bool native;                  /* beside the kernel's rows: the kernel's own task */
    rtipc_irq_t *irq;             /* interrupt storm */
    _Atomic int stop;
    int64_t started;              /* wall clock at start (ns) */
    int64_t cpu_ns;               /* hog task's CPU time this round (read after join) */
    uint64_t lines;               /* memory hog: lines read and written this round */
    uint64_t sink;                /* CPU hog result: stored, so the work is kept */
    /* totals over the rounds */
    double wall_ns, load_cpu_ns, load_lines;
    int64_t irqs;
} load_t;

static void cpu_hog(void *arg)
{
    load_t *ld = arg;
    int64_t c0 = bench_thread_cpu_ns();
    uint64_t x = 1;
    while (!atomic_load_explicit(&ld->stop, memory_order_relaxed))
        for (int i = 0; i < 1000; i++)
            x = x * 6364136223846793005u + 1442695040888963407u;
    ld->sink = x;
    ld->cpu_ns = bench_thread_cpu_ns() - c0;
}

/* Reads and writes back one word of every cache line of the buffer, over
 * and over: a stream of misses and write-backs through the memory system. */
static void memory_hog(void *arg)
{
    load_t *ld = arg;
    int64_t c0 = bench_thread_cpu_ns();
    /* Chunks of 64 KiB, or the whole buffer when smaller (both powers of two). */
    const size_t words = ld->hog_bytes / sizeof(uint64_t), chunk = words < 8192 ? words : 8192;
    uint64_t lines = 0;
    size_t i = 0;
    while (!atomic_load_explicit(&ld->stop, memory_order_relaxed)) {
        for (size_t j = i; j < i + chunk; j += 8)
            ld->buf[j] += 1;
        lines += chunk / 8;
        i = (i + chunk) % words;
    }
    ld->lines = lines;
    ld->cpu_ns = bench_thread_cpu_ns() - c0;
}

static void irq_work(void *arg)
{
    (void)arg;
    bench_spin_until(bench_now_ns() + IRQ_WORK_NS);
}

static int load_start(bench_run_t *run, void *ctx)
{
    load_t *ld = ctx;
    atomic_store(&ld->stop, 0);
    ld->cpu_ns = 0;
    ld->lines = 0;
    ld->started = bench_now_ns();
    int rc = 0;
    if (ld->kind == LOAD_IRQ) {
        rc = bench_target_irq_create(ld->cpu, irq_work, NULL, &ld->irq);
        if (rc == 0) {
            rc = rtipc_irq_timer_start(ld->irq, IRQ_PERIOD_NS, IRQ_PERIOD_NS);
            if (rc != 0) {
                bench_target_irq_delete(ld->irq);
                ld->irq = NULL;
            }
        }
    } else if (ld->kind == LOAD_CPU || ld->kind == LOAD_MEM) {
        bench_task_spec_t cfg = {.name = ld->kind == LOAD_CPU ? "cpu-hog" : "memory-hog",
                                 .priority = LOAD_PRIORITY, .core = ld->cpu,
                                 .entry = ld->kind == LOAD_CPU ? cpu_hog : memory_hog, .arg = ld,
                                 .native = ld->native};
        rc = bench_target_task_start(&cfg, &ld->task);
    }
    if (rc != 0)
        return bench_fail(run, "%s: load start failed: %s", profile_name[ld->kind],
                          rtipc_strerror(rc));
    return 0;
}

static void load_stop(bench_run_t *run, void *ctx)
{
    load_t *ld = ctx;
    if (ld->irq) {
        rtipc_irq_timer_stop(ld->irq);
        ld->irqs += rtipc_irq_count(ld->irq);
        if (bench_target_irq_delete(ld->irq) != 0)
            bench_fail(run, "irq-storm: interrupt delete failed");
        ld->irq = NULL;
    }
    if (ld->task) {
        atomic_store_explicit(&ld->stop, 1, memory_order_relaxed);
        /* Bounded: the hog checks the flag every few microseconds, and its
         * core is free again now that the producer has ended. */
        bench_target_task_join(ld->task);
        ld->task = NULL;
        ld->load_cpu_ns += (double)ld->cpu_ns;
        ld->load_lines += (double)ld->lines;
    }
    ld->wall_ns += (double)(bench_now_ns() - ld->started);
}

/* ---- the handoff, with the producer blocking after each send ---------------
 * The harness's producer (priority 10) would otherwise spin on core 1 from
 * one send to the next, and a priority-2 load there would never run. Here it
 * blocks after each send until the consumer is back in its receive call (the
 * consumer gives a semaphore each time it enters receive, after its previous
 * timestamp, so outside the measured span), like a producer that waits for
 * its consumer: the load runs on core 1 while the consumer on core 0 wakes
 * up and receives. The wait is bounded (the last message gets no give, and a
 * give arriving late is only drained before the next send). */
typedef struct {
    handoff_ops_t inner;
    rtipc_sem_t *back;            /* consumer -> producer: "receiving again" */
    bench_ksem_t *kback;          /* the same, the kernel's binary semaphore for the
                                     kernel's rows (their tasks are the kernel's own) */
} rest_t;

#define REST_BOUND_NS 2000000

/* Producer, untimed, before each send: forget gives that belong to earlier
 * messages (the consumer's entry into this message's receive). */
static void rest_before_send(void *obj)
{
    rest_t *r = obj;
    if (r->kback)
        while (bench_ksem_take(r->kback, 0) == 0)
            ;
    else
        while (rtipc_sem_take(r->back, RTIPC_NO_WAIT) == 0)
            ;
}

static int rest_send(void *obj, uint32_t seq)
{
    rest_t *r = obj;
    int rc = r->inner.send(r->inner.obj, seq);
    if (rc != 0)
        return rc;
    if (r->kback)
        return bench_ksem_take(r->kback, REST_BOUND_NS) < 0 ? BENCH_MECH_EKERNEL : 0;
    rc = rtipc_sem_take(r->back, rtipc_ns(REST_BOUND_NS));
    return rc == RTIPC_ETIMEDOUT ? 0 : rc;
}

static int rest_recv(void *obj, uint32_t *seq)
{
    rest_t *r = obj;
    /* Already given: an earlier give not yet drained. */
    int rc = r->kback ? (bench_ksem_give(r->kback) < 0 ? BENCH_MECH_EKERNEL : 0) : rtipc_sem_give(r->back);
    if (rc != 0 && rc != RTIPC_EOVERFLOW)
        return rc;
    return r->inner.recv(r->inner.obj, seq);
}

static void rest_bind(void *obj, bench_task_t *producer, bench_task_t *consumer)
{
    rest_t *r = obj;
    if (r->inner.bind)
        r->inner.bind(r->inner.obj, producer, consumer);
}

/* ---- the experiment ------------------------------------------------------ */

/* The highest tail percentile these rows report: 2 = p99.9, 1 = p99, 0 = p90. */
static double tail(const bench_result_t *r, int level)
{
    return level == 2 ? r->stats.p999 : level == 1 ? r->stats.p99 : r->stats.p90;
}

static int measure_interference(bench_run_t *run)
{
    rtipc_queue_t *q = NULL;
    bench_rtipc_notify_handoff_t note = {0};
    load_t *loads = calloc(SIDES * MECHS * PROFILES, sizeof *loads);
    /* The kernel's twins where rtipc runs on FreeRTOS (NULL on Linux). */
    const bench_mech_t *twin[MECHS] = {bench_mech_kernel_twin(mech_name[0]), bench_mech_kernel_twin(mech_name[1])};
    /* As large as the target allows up to 64 MiB: a host's caches are
     * megabytes, an MCU's RAM may be less than the largest size. */
    size_t hog_bytes = HOG_BYTES_MAX;
    uint64_t *buf = NULL;
    while (loads && !buf && hog_bytes >= HOG_BYTES_MIN)
        if (!(buf = malloc(hog_bytes)))
            hog_bytes /= 2;
    /* Where the heap set the size, take half of it: the samples and tasks
     * of the rounds need the rest. */
    if (buf && hog_bytes < HOG_BYTES_MAX && hog_bytes / 2 >= HOG_BYTES_MIN) {
        free(buf);
        hog_bytes /= 2;
        buf = malloc(hog_bytes);
    }
    if (!loads || !buf) {
        free(loads);
        free(buf);
        return bench_fail(run, "out of memory (a load buffer of %u KiB)", HOG_BYTES_MIN >> 10);
    }
    memset(buf, 1, hog_bytes);  /* fault every page in before measuring */
    if (hog_bytes < HOG_BYTES_MAX)
        bench_note(run, "memory-hog buffer %zu KiB (half the largest of 64 MiB, 32 MiB, ... that could be allocated, "
                        "down to 16 KiB: the rounds need the rest)",
                   hog_bytes >> 10);
    /* The irq storm needs an interrupt source on the producer's core; a
     * target whose sources serve fewer cores runs the other loads. */
    const int load_cpu = bench_cpu(run, 1);
    rtipc_irq_t *probe = NULL;
    int irq_rc = bench_target_irq_create(load_cpu, irq_work, NULL, &probe);
    if (irq_rc == 0)
        bench_target_irq_delete(probe);
    else
        for (int side = 0; side < SIDES; side++)
            for (int m = 0; m < MECHS; m++) {
                if (side && !twin[m])
                    continue;
                char what[64];
                snprintf(what, sizeof what, "%s/%s", side ? twin[m]->name : mech_name[m], profile_name[LOAD_IRQ]);
                bench_add_missing(run, what, irq_rc == RTIPC_ENOTSUP ? "no interrupt source on the producer's core on this target"
                                                                 : rtipc_strerror(irq_rc));
            }
    int rc = rtipc_queue_create(100, sizeof(uint32_t), &q);
    if (rc != 0) {
        free(loads);
        free(buf);
        return bench_fail(run, "queue create: %s", rtipc_strerror(rc));
    }
    rtipc_sem_t *back = NULL;
    rc = rtipc_sem_create_binary(&back);
    if (rc != 0) {
        rtipc_queue_delete(q);
        free(loads);
        free(buf);
        return bench_fail(run, "semaphore create: %s", rtipc_strerror(rc));
    }
    /* The kernel's rows wait on the kernel's own binary semaphore. */
    bench_ksem_t *kback = NULL;
    if ((twin[0] || twin[1]) && bench_ksem_create(&kback) != 0) {
        rtipc_sem_delete(back);
        rtipc_queue_delete(q);
        free(loads);
        free(buf);
        return bench_fail(run, "xSemaphoreCreateBinary failed (kernel heap)");
    }
    rest_t inner[MECHS] = {
        {{.send = bench_rtipc_queue_send, .recv = bench_rtipc_queue_recv, .obj = q}, back, NULL},
        {{.send = bench_rtipc_notify_value_send, .recv = bench_rtipc_notify_value_recv, .bind = bench_rtipc_notify_bind,
          .obj = &note}, back, NULL},
    };
    /* The kernel's cases: each its own wrapper, whose inner operations its
     * start hook points at that round's fresh kernel object. */
    rest_t kinner[MECHS][PROFILES];
    kernel_round_t kr[MECHS][PROFILES] = {{{0}}};

    size_t rounds = bench_quick(run) ? 2 : 4;
    handoff_case_t cases[SIDES * MECHS * PROFILES] = {{0}};
    int case_of[SIDES][MECHS][PROFILES]; /* index in cases, -1 for a case not run */
    const char *name_of[SIDES][MECHS] = {{mech_name[0], mech_name[1]},
                                         {twin[0] ? twin[0]->name : NULL, twin[1] ? twin[1]->name : NULL}};
    size_t ncases = 0;
    for (int m = 0; m < MECHS; m++) {
        for (int p = 0; p < PROFILES; p++) {
            for (int side = 0; side < SIDES; side++) {
                case_of[side][m][p] = -1;
                if ((p == LOAD_IRQ && irq_rc != 0) || (side && !twin[m]) || bench_failed(run))
                    continue;
                handoff_case_t *c = &cases[ncases];
                load_t *ld = &loads[(side * MECHS + m) * PROFILES + p];
                ld->kind = p;
                ld->cpu = load_cpu;
                ld->buf = buf;
                ld->hog_bytes = hog_bytes;
                ld->native = side == 1;
                c->start = load_start;
                c->stop = load_stop;
                c->ctx = ld;
                rest_t *r = &inner[m];
                if (side) {
                    r = &kinner[m][p];
                    *r = (rest_t){.kback = kback};
                    kernel_round_t *k = &kr[m][p];
                    k->start = load_start;
                    k->stop = load_stop;
                    k->ctx = ld;
                    if (kernel_round_init(run, k, twin[m], 100, &r->inner) != 0)
                        continue;  /* missing (recorded) or failed */
                    c->start = kernel_round_start;
                    c->stop = kernel_round_stop;
                    c->ctx = k;
                }
                case_of[side][m][p] = (int)ncases++;
                c->mechanism = name_of[side][m];
                c->variant = profile_name[p];
                c->ops = (handoff_ops_t){.send = rest_send, .recv = rest_recv, .bind = rest_bind,
                                         .before_send = rest_before_send, .obj = r, .native = side == 1};
                c->cfg = handoff_default(run, 10000, 1000);
                /* The producer's own wake-up (>= several us) already separates
                 * the consumer's return to its receive from the next send, so a
                 * shorter gap than the default keeps the run within budget. */
                c->cfg.gap_min_ns = 10000;
                c->cfg.gap_max_ns = 20000;
                c->cfg.warmup = bench_warmup_count(run, 1000); /* 100 per round unless --warmup */
            }
        }
    }
    /* Every case's samples are pooled until the end: on a target whose
     * heap says how much is free (an ESP32 beside the suite's rows), they
     * take at most half of it, the rest left to the tasks and the rounds'
     * buffers (two of a round's share each). */
    size_t cap = SIZE_MAX;
    bench_memory_t mem;
    bench_target_memory(&mem);
    if (mem.kind == BENCH_MEMORY_HEAP_FREE && mem.now_bytes > 0)
        cap = (size_t)mem.now_bytes / 2 / (ncases + 2) / sizeof(int64_t);
    bool capped = false;
    for (size_t c = 0; c < ncases; c++) {
        if (cases[c].cfg.samples > cap) {
            cases[c].cfg.samples = cap;
            capped = true;
        }
    }
    if (capped)
        bench_note(run, "samples: %zu per case, what half of the free heap (%lld KiB) holds for %zu cases", cap,
                   (long long)(mem.now_bytes >> 10), ncases);
    if (cap < 100 || bench_failed(run)) {
        for (int m = 0; m < MECHS; m++)
            for (int p = 0; p < PROFILES; p++)
                kernel_round_done(&kr[m][p]);
        bench_ksem_delete(kback);
        rtipc_sem_delete(back);
        rtipc_queue_delete(q);
        free(loads);
        free(buf);
        if (bench_failed(run))
            return -1;
        return bench_fail(run, "out of memory (%zu samples per case fit in half the free heap)", cap);
    }
    /* The budget grows with the kernel's cases: each case has its share. */
    size_t rtipc_cases = 0;
    for (int m = 0; m < MECHS; m++)
        for (int p = 0; p < PROFILES; p++)
            rtipc_cases += case_of[0][m][p] >= 0;
    bench_progress(run, 0.0);
    if (handoff_measure_rounds(run, cases, ncases, rounds, 0.0, 1.0,
                               (bench_quick(run) ? 1.2 : 8.5) * (double)ncases / (double)rtipc_cases) == 0) {
        int level = 2;
        for (size_t c = 0; c < ncases; c++)
            while (level > 0 && isnan(tail(cases[c].row, level)))
                level--;
        const char *pn = level == 2 ? "p99.9" : level == 1 ? "p99" : "p90";
        for (int side = 0; side < SIDES; side++) {
            for (int m = 0; m < MECHS; m++) {
                if (case_of[side][m][LOAD_IDLE] < 0)
                    continue;
                const bench_result_t *idle = cases[case_of[side][m][LOAD_IDLE]].row;
                char line[400];
                int len = snprintf(line, sizeof line,
                                   "%s idle: p50 %.1f us, %s %.1f us, max %.1f us; vs idle",
                                   name_of[side][m], idle->stats.p50 / 1000, pn, tail(idle, level) / 1000,
                                   idle->stats.max / 1000);
                for (int p = 1, first = 1; p < PROFILES && len > 0 && (size_t)len < sizeof line; p++) {
                    if (case_of[side][m][p] < 0)
                        continue;
                    const bench_result_t *r = cases[case_of[side][m][p]].row;
                    len += snprintf(line + len, sizeof line - (size_t)len,
                                    "%s %s: p50 x%.2f, %s x%.2f, max x%.2f", first ? "" : ";",
                                    profile_name[p], r->stats.p50 / idle->stats.p50, pn,
                                    tail(r, level) / tail(idle, level), r->stats.max / idle->stats.max);
                    first = 0;
                }
                bench_note(run, "%s", line);
            }
        }
        /* What the loads actually did during the measurement: the mean over
         * the mechanisms that ran each. */
        double irq_hz = 0, cpu_share = 0, mem_share = 0, mem_mbs = 0;
        int ran = 0;
        for (int sm = 0; sm < SIDES * MECHS; sm++) {
            if (case_of[sm / MECHS][sm % MECHS][LOAD_IDLE] < 0)
                continue;
            ran++;
            const load_t *li = &loads[sm * PROFILES + LOAD_IRQ];
            const load_t *lc = &loads[sm * PROFILES + LOAD_CPU];
            const load_t *lm = &loads[sm * PROFILES + LOAD_MEM];
            irq_hz += li->wall_ns > 0 ? (double)li->irqs / li->wall_ns * 1e9 : 0;
            cpu_share += lc->wall_ns > 0 ? lc->load_cpu_ns / lc->wall_ns * 100 : 0;
            mem_share += lm->wall_ns > 0 ? lm->load_cpu_ns / lm->wall_ns * 100 : 0;
            mem_mbs += lm->wall_ns > 0 ? lm->load_lines * 64 / lm->wall_ns * 1e3 : 0;
        }
        if (ran > 0) {
            irq_hz /= ran;
            cpu_share /= ran;
            mem_share /= ran;
            mem_mbs /= ran;
        }
        char storm[96] = "irq-storm not run";
        if (irq_rc == 0)
            snprintf(storm, sizeof storm, "irq-storm ran %.0f interrupts/s (%.0f asked; late expiries merge)",
                     irq_hz, 1e9 / IRQ_PERIOD_NS);
        const char *over = ran == 4 ? "the four" : ran == 3 ? "the three" : "both";
        if (bench_target_features() & BENCH_TARGET_THREAD_CPU_TIME)
            bench_note(run,
                       "Loads on core 1 (mean over %s mechanisms' rounds): %s; cpu-hog got %.0f%% of core 1; "
                       "memory-hog got %.0f%% and read+wrote back %.0f MB/s of cache lines.",
                       over, storm, cpu_share, mem_share, mem_mbs);
        else
            bench_note(run,
                       "Loads on core 1 (mean over %s mechanisms' rounds): %s; memory-hog read+wrote back %.0f MB/s "
                       "of cache lines; the hogs' shares of core 1 are not known (no per-task CPU time on this "
                       "target).",
                       over, storm, mem_mbs);
    }

    for (int m = 0; m < MECHS; m++)
        for (int p = 0; p < PROFILES; p++)
            kernel_round_done(&kr[m][p]);
    rc = rtipc_queue_delete(q);
    if (rc != 0)
        bench_fail(run, "queue delete: %s", rtipc_strerror(rc));
    rc = rtipc_sem_delete(back);
    if (rc != 0)
        bench_fail(run, "semaphore delete: %s", rtipc_strerror(rc));
    bench_ksem_delete(kback);
    free(loads);
    free(buf);
    return bench_failed(run) ? -1 : 0;
}

/* On FreeRTOS a runner at or below the load's priority, on the load's core,
 * would never run again to stop the load: a sketch's loop task is such a
 * runner (priority 1 on core 1). It is raised just above the load for the
 * experiment, below every measured task, and put back afterwards; a runner
 * that cannot be raised is refused, with the reason. (Linux shares a core
 * between priorities in time: its runner is left as it is.) */
static int run_interference(bench_run_t *run)
{
    if (strcmp(bench_target_name(), "freertos") != 0)
        return measure_interference(run);
    rtipc_task_t *self = rtipc_task_current();
    int was = self ? rtipc_task_priority(self) : RTIPC_ENOMEM;
    if (was < 0)
        return bench_fail(run, "the runner's priority is unknown (%s): the priority-%d load could starve it",
                          rtipc_strerror(was), LOAD_PRIORITY);
    if (was > LOAD_PRIORITY)
        return measure_interference(run);
    int rc = rtipc_task_set_priority(NULL, LOAD_PRIORITY + 1);
    if (rc != 0)
        return bench_fail(run, "the runner (priority %d) cannot be raised above the priority-%d load: %s", was,
                          LOAD_PRIORITY, rtipc_strerror(rc));
    bench_note(run, "the runner was raised from priority %d to %d for this experiment, above its priority-%d load",
               was, LOAD_PRIORITY + 1, LOAD_PRIORITY);
    int status = measure_interference(run);
    rc = rtipc_task_set_priority(NULL, (unsigned)was);
    if (rc != 0 && status == 0)
        status = bench_fail(run, "the runner's priority %d could not be put back: %s", was, rtipc_strerror(rc));
    return status;
}

const bench_experiment_t exp_interference = {
    .id = BENCH_EXP_INTERFERENCE,
    .summary = EXP_INTERFERENCE_SUMMARY,
    .requires = EXP_INTERFERENCE_REQUIRES,
    .definitions =
        "Producer on core 1 (priority 10), consumer on core 0 (priority 12), as queue-latency.\n"
        "rtipc-queue: rtipc_queue_send -> rtipc_queue_receive, 4-byte item, depth 100.\n"
        "rtipc-notify: rtipc_notify(consumer, slot 0, seq, set-without-overwrite) ->\n"
        "  rtipc_notify_wait (clearing all bits on exit).\n"
        "kernel-queue, kernel-notify (FreeRTOS targets only): the kernel's own calls under the same\n"
        "  profiles, in the same rounds, a fresh object per round: xQueueSend(q, &seq,\n"
        "  portMAX_DELAY) -> xQueueReceive(q, &seq, portMAX_DELAY), depth 100; the number stored,\n"
        "  then xTaskNotifyGive -> ulTaskNotifyTake(pdTRUE, portMAX_DELAY), then read (a count\n"
        "  other than 1 fails). Their tasks (and the hogs beside them) are the kernel's own, and\n"
        "  the producer rests on the kernel's binary semaphore (xSemaphoreTake), outside the span.\n"
        "latency (closed loop): from the producer's timestamp just before its send call to the\n"
        "  consumer's timestamp just after its receive call returned (the consumer is running).\n"
        "  Unlike queue-latency, after each send the producer blocks on a binary semaphore that\n"
        "  the consumer gives when it enters its next receive (after its timestamp; 2 ms bound),\n"
        "  like a producer waiting for its consumer: otherwise the producer would hold core 1\n"
        "  spinning and a priority-2 load there would never run; this way the load runs on\n"
        "  core 1 while the consumer wakes. The producer sends again after the acknowledgement\n"
        "  and a random 10-20 us gap, so the consumer is parked in its receive.\n"
        "Load profiles on core 1, started before and stopped (joined/deleted) after each round:\n"
        "  idle: none. irq-storm: an rtipc interrupt source on core 1 with a 50 us periodic timer\n"
        "  (20 kHz asked; late expiries merge), its handler busy for 1 us; interrupt threads run\n"
        "  above all tasks. cpu-hog: a priority-2 task computing in a loop. memory-hog: a\n"
        "  priority-2 task reading and writing back one word of every 64-byte line of a 64 MiB\n"
        "  buffer, over and over (far beyond the last-level cache; on a target with less memory\n"
        "  half the largest power-of-two size that fits, down to 16 KiB, named in a note).\n"
        "  Where the target has no interrupt source on core 1 the irq-storm rows are missing.\n"
        "Notes: p50, p99.9 and max of each profile as a ratio to idle (p99 or p90 instead of\n"
        "  p99.9 when there are too few samples for it, as in --quick); the interrupt rate\n"
        "  achieved, the hogs' share of core 1 (their thread CPU time / wall time of the rounds)\n"
        "  and the memory hog's line traffic (lines read and written back x 64 B per second).\n"
        "Cases run interleaved in rounds (4, quick: 2), samples pooled; on a target whose heap\n"
        "  reports its free size, every case's samples fit in half of it (a note gives the count).\n"
        "On a machine so loaded that the next round would overrun the experiment's time budget,\n"
        "  no further round starts and a note says so (not with --samples).\n"
        "The timestamp overhead (env.timestamp_overhead_ns) is included, not subtracted.",
    .run = run_interference,
};
