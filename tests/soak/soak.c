/* rtipc-soak: randomized multi-producer / multi-consumer load on every rtipc
 * object at once, for a given duration, with invariants checked on every
 * message and at the end. See tests/soak/README.md.
 *
 *   rtipc-soak [--duration SECONDS|30m|2h] [--seed N] [--json FILE]
 *
 * Exit status: 0 when no invariant was violated and nothing stalled, 1 on a
 * violation or a stall, 2 on a usage or setup error. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soak_core.h"

extern stress_errors_t soak_errors;
extern soak_worker_t *soak_workers[];
extern int soak_worker_count;

/* ---- interrupt roles and hooks --------------------------------------------- */

#define MAX_ROLES 16
#define MAX_HOOKS 32

static struct {
    rtipc_irq_t *irq;
    stress_rng_t rng;
    soak_isr_role_fn roles[MAX_ROLES];
    int nroles;
} irqs[2];

static soak_hooks_t hooks[MAX_HOOKS];
static int nhooks;

void soak_isr_role(int irq, soak_isr_role_fn fn)
{
    if (irqs[irq].nroles >= MAX_ROLES) {
        fprintf(stderr, "soak: too many interrupt roles\n");
        exit(2);
    }
    irqs[irq].roles[irqs[irq].nroles++] = fn;
}

void soak_hooks(const soak_hooks_t *h)
{
    if (nhooks >= MAX_HOOKS) {
        fprintf(stderr, "soak: too many hooks\n");
        exit(2);
    }
    hooks[nhooks++] = *h;
}

/* A timer-driven handler: a random subset of its roles each time. */
static void isr_handler(void *arg)
{
    int i = (int)(intptr_t)arg;
    for (int r = 0; r < irqs[i].nroles; ++r)
        if (stress_below(&irqs[i].rng, 4) != 0)
            irqs[i].roles[r](&irqs[i].rng);
}

/* ---- options ----------------------------------------------------------------- */

static double opt_duration = 60;
static const char *opt_json;
static double opt_stall = 10;     /* no object makes progress */
static double opt_obj_stall = 60; /* one object makes no progress */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: rtipc-soak [--duration D] [--seed N] [--json FILE] [--stall S] [--help]\n"
            "  --duration D  run time: seconds, or with a suffix s, m or h (30m, 2h); default 60\n"
            "  --seed N      base seed of the random choices (decimal or 0x hex); default from the clock\n"
            "  --json FILE   write the totals as JSON to FILE\n"
            "  --stall S     fail when no object makes progress for S seconds (default 10); one object\n"
            "                alone may stall for 6 x S\n"
            "Runs randomized load on every rtipc object at once and checks its invariants.\n"
            "Exit status 0 only if no invariant was violated.\n");
}

static bool parse_duration(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || v < 0)
        return false;
    if (*end == 'h')
        v *= 3600, ++end;
    else if (*end == 'm')
        v *= 60, ++end;
    else if (*end == 's')
        ++end;
    if (*end != '\0')
        return false;
    *out = v;
    return true;
}

/* ---- reporting ------------------------------------------------------------------- */

static double t_start;
static uint64_t seed;

static long long total_of(size_t offset)
{
    long long t = 0;
    for (int i = 0; i < O_COUNT; ++i)
        t += atomic_load((atomic_llong *)((char *)&soak_objs[i] + offset));
    return t;
}
#define TOTAL(field) total_of(offsetof(soak_obj_t, field))

static void dump_workers(void)
{
    fprintf(stderr, "soak: workers not finished (name, object, priority, core, operations, where):\n");
    for (int i = 0; i < soak_worker_count; ++i) {
        soak_worker_t *w = soak_workers[i];
        if (atomic_load(&w->done))
            continue;
        fprintf(stderr, "  %-15s %-16s prio %2u core %2d ops %10lld  in %s\n", w->name, soak_objs[w->obj].name,
                w->priority, w->core, (long long)atomic_load(&w->ops), atomic_load(&w->where));
    }
    for (int i = 0; i < 2; ++i)
        if (irqs[i].irq)
            fprintf(stderr, "  irq %d: handler ran %" PRId64 " times\n", i, rtipc_irq_count(irqs[i].irq));
}

static void print_table(FILE *f, double elapsed, const char *result)
{
    fprintf(f, "\nrtipc-soak totals: %.0f s, seed %" PRIu64 ", %s, %d core(s)\n", elapsed, seed,
            rtipc_sched_policy_describe(), rtipc_core_count());
    fprintf(f, "%-17s %12s %11s %11s %10s %10s %10s %10s %6s\n", "object", "operations", "sent", "received",
            "dropped", "timeouts", "wouldblock", "isr-ops", "viol.");
    for (int i = 0; i < O_COUNT; ++i) {
        soak_obj_t *o = &soak_objs[i];
        fprintf(f, "%-17s %12lld %11lld %11lld %10lld %10lld %10lld %10lld %6lld\n", o->name,
                (long long)atomic_load(&o->ops), (long long)atomic_load(&o->sent),
                (long long)atomic_load(&o->received), (long long)atomic_load(&o->dropped),
                (long long)atomic_load(&o->timeouts), (long long)atomic_load(&o->wouldblock),
                (long long)atomic_load(&o->isr_ops), (long long)atomic_load(&o->violations));
    }
    fprintf(f, "%-17s %12lld %11lld %11lld %10lld %10lld %10lld %10lld %6lld\n", "total", TOTAL(ops), TOTAL(sent),
            TOTAL(received), TOTAL(dropped), TOTAL(timeouts), TOTAL(wouldblock), TOTAL(isr_ops),
            TOTAL(violations));
    fprintf(f, "rtipc-soak: %s\n", result);
    fflush(f);
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", (unsigned char)*s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static void write_json(double elapsed, const char *result)
{
    if (!opt_json)
        return;
    FILE *f = fopen(opt_json, "w");
    if (!f) {
        fprintf(stderr, "soak: cannot write %s: %s\n", opt_json, strerror(errno));
        return;
    }
    fprintf(f, "{\n  \"program\": \"rtipc-soak\",\n  \"version\": \"%s\",\n", RTIPC_VERSION);
    fprintf(f, "  \"seed\": %" PRIu64 ",\n  \"duration_s\": %.3f,\n  \"elapsed_s\": %.3f,\n", seed, opt_duration,
            elapsed);
    fprintf(f, "  \"sched_policy\": ");
    json_string(f, rtipc_sched_policy_describe());
    fprintf(f, ",\n  \"cores\": %d,\n  \"spin_budgets_ns\": ", rtipc_core_count());
    json_string(f, soak_spin_list[0] == ' ' ? soak_spin_list + 1 : soak_spin_list);
    fprintf(f, ",\n  \"result\": ");
    json_string(f, result);
    fprintf(f, ",\n  \"objects\": [\n");
    for (int i = 0; i < O_COUNT; ++i) {
        soak_obj_t *o = &soak_objs[i];
        fprintf(f,
                "    {\"name\": \"%s\", \"operations\": %lld, \"sent\": %lld, \"received\": %lld, "
                "\"dropped\": %lld, \"timeouts\": %lld, \"wouldblock\": %lld, \"isr_operations\": %lld, "
                "\"violations\": %lld}%s\n",
                o->name, (long long)atomic_load(&o->ops), (long long)atomic_load(&o->sent),
                (long long)atomic_load(&o->received), (long long)atomic_load(&o->dropped),
                (long long)atomic_load(&o->timeouts), (long long)atomic_load(&o->wouldblock),
                (long long)atomic_load(&o->isr_ops), (long long)atomic_load(&o->violations),
                i + 1 < O_COUNT ? "," : "");
    }
    fprintf(f,
            "  ],\n  \"totals\": {\"operations\": %lld, \"sent\": %lld, \"received\": %lld, \"dropped\": %lld, "
            "\"timeouts\": %lld, \"wouldblock\": %lld, \"isr_operations\": %lld, \"violations\": %lld}\n}\n",
            TOTAL(ops), TOTAL(sent), TOTAL(received), TOTAL(dropped), TOTAL(timeouts), TOTAL(wouldblock),
            TOTAL(isr_ops), TOTAL(violations));
    fclose(f);
}

/* A stall: report who is where, print the totals and leave without joining
 * (the stuck tasks cannot be joined). */
static void fail_stall(const char *what)
{
    fprintf(stderr, "soak: STALL: %s\n", what);
    fprintf(stderr, "  (a lost wake-up, lost item or deadlock; real-time threads of other processes on these\n"
                    "   cores can also starve the load: run the soak alone)\n");
    dump_workers();
    double elapsed = stress_now() - t_start;
    print_table(stdout, elapsed, "FAIL (stall)");
    write_json(elapsed, "FAIL (stall)");
    fflush(NULL);
    _Exit(1);
}

/* ---- supervisor ------------------------------------------------------------------ */

static long long worker_last[128];
static double worker_since[128];
static long long obj_last[O_COUNT];
static double obj_since[O_COUNT];
static long long all_last;
static double all_since;

/* One watchdog check; @p per_object is false during the stop phases. */
static void watchdog(double now, bool per_object)
{
    /* Progress is what consumers complete (messages, takes, locks,
     * observations), not calls: producers retrying against a stuck
     * consumer make calls but no progress. */
    long long all = TOTAL(received);
    if (all != all_last) {
        all_last = all;
        all_since = now;
    } else if (now - all_since > opt_stall) {
        char buf[96];
        snprintf(buf, sizeof buf, "no object made progress for %.0f s", opt_stall);
        fail_stall(buf);
    }
    for (int i = 0; i < O_COUNT; ++i) {
        long long ops = atomic_load(&soak_objs[i].received);
        if (ops != obj_last[i] || !per_object) {
            obj_last[i] = ops;
            obj_since[i] = now;
        } else if (now - obj_since[i] > opt_obj_stall) {
            char buf[128];
            snprintf(buf, sizeof buf, "%s made no progress for %.0f s", soak_objs[i].name, opt_obj_stall);
            fail_stall(buf);
        }
    }
    /* A single worker stuck in one call (its object may still progress
     * through the others): every call of this load returns within
     * milliseconds, FOREVER waits included, while the load runs. */
    for (int i = 0; i < soak_worker_count; ++i) {
        soak_worker_t *w = soak_workers[i];
        long long ops = atomic_load(&w->ops);
        if (ops != worker_last[i] || !per_object || atomic_load(&w->done)) {
            worker_last[i] = ops;
            worker_since[i] = now;
        } else if (now - worker_since[i] > opt_obj_stall) {
            char buf[160];
            snprintf(buf, sizeof buf, "task %s (%s) has been in %s for %.0f s", w->name, soak_objs[w->obj].name,
                     atomic_load(&w->where), opt_obj_stall);
            fail_stall(buf);
        }
    }
}

static bool workers_done(bool consumers)
{
    for (int i = 0; i < soak_worker_count; ++i)
        if (soak_workers[i]->consumer == consumers && !atomic_load(&soak_workers[i]->done))
            return false;
    return true;
}

static int exit_status = 1;

static void supervisor(void *arg)
{
    (void)arg;
    soak_setup_queues();
    soak_setup_sems();
    soak_setup_mutexes();
    soak_setup_notify();
    soak_setup_events();
    soak_setup_ringbufs();
    soak_setup_streams();
    soak_setup_mailbox();
    soak_setup_spsc();
    soak_setup_queueset();
    soak_setup_tasks();

    /* Two timer-driven interrupt sources, one per core. */
    static const int64_t period_ns[2] = {300000, 470000};
    for (int i = 0; i < 2; ++i) {
        stress_rng_init(&irqs[i].rng, 1000 + (uint64_t)i);
        int rc = rtipc_irq_create(soak_irq_core(i), isr_handler, (void *)(intptr_t)i, &irqs[i].irq);
        if (rc == 0)
            rc = rtipc_irq_timer_start(irqs[i].irq, period_ns[i], period_ns[i]);
        if (rc != 0) {
            fprintf(stderr, "soak: interrupt source %d: %s\n", i, rtipc_strerror(rc));
            exit(2);
        }
    }
    printf("rtipc-soak: %d tasks, 2 interrupt sources, running for %.0f s\n", soak_worker_count, opt_duration);
    printf("rtipc-soak: spin budgets (ns):%s\n", soak_spin_list);
    fflush(stdout);

    t_start = stress_now();
    all_since = t_start;
    for (int i = 0; i < O_COUNT; ++i)
        obj_since[i] = t_start;
    for (int i = 0; i < soak_worker_count; ++i)
        worker_since[i] = t_start;
    double next_report = t_start + 60;
    stress_rng_t sup_rng;
    stress_rng_init(&sup_rng, 999);
    double next_quiet = t_start + 2 + stress_below(&sup_rng, 4000) / 1000.0;
    long long quiet_periods = 0;
    for (;;) {
        rtipc_task_delay(rtipc_ms(100));
        /* Software triggers on top of the timers (merged when pending). */
        for (int i = 0; i < 2; ++i)
            if (rtipc_irq_trigger(irqs[i].irq) != 0)
                soak_violation(O_TASK, "rtipc_irq_trigger failed");
        double now = stress_now();
        if (now >= next_quiet && now - t_start < opt_duration) {
            /* A quiet period of 50..300 ms every 2..6 s. */
            atomic_store(&soak_quiet_until_ns, rtipc_time_ns() + 50000000 + (int64_t)stress_below(&sup_rng, 250) * 1000000);
            next_quiet = now + 2 + stress_below(&sup_rng, 4000) / 1000.0;
            ++quiet_periods;
        }
        watchdog(now, true);
        if (now >= next_report) {
            printf("[soak] %6.0f s / %.0f s: %lld operations, %lld messages, %lld violations\n", now - t_start,
                   opt_duration, TOTAL(ops), TOTAL(received), TOTAL(violations));
            fflush(stdout);
            next_report += 60;
        }
        if (now - t_start >= opt_duration)
            break;
    }

    /* Stop: interrupts and producers first, then the consumers (kicked out of
     * FOREVER waits by each object's hook), then drain and check. */
    printf("rtipc-soak: %lld quiet periods\n", quiet_periods);
    atomic_store(&soak_quiet_until_ns, 0);
    atomic_store(&soak_phase, PH_STOP_PRODUCERS);
    for (int i = 0; i < 2; ++i) {
        rtipc_irq_timer_stop(irqs[i].irq);
        if (rtipc_irq_delete(irqs[i].irq) != 0)
            soak_violation(O_TASK, "rtipc_irq_delete failed");
        irqs[i].irq = NULL;
    }
    /* Each stop phase has a deadline too: the kicks count as progress, so
     * the progress watchdog alone would not notice a worker that never
     * returns. */
    double stop_deadline = stress_now() + opt_obj_stall;
    while (!workers_done(false)) {
        rtipc_task_delay(rtipc_ms(2));
        watchdog(stress_now(), false);
        if (stress_now() > stop_deadline)
            fail_stall("producers did not stop");
    }
    atomic_store(&soak_phase, PH_STOP_CONSUMERS);
    stop_deadline = stress_now() + opt_obj_stall;
    while (!workers_done(true)) {
        for (int h = 0; h < nhooks; ++h)
            if (hooks[h].kick)
                hooks[h].kick();
        rtipc_task_delay(rtipc_ms(1));
        watchdog(stress_now(), false);
        if (stress_now() > stop_deadline)
            fail_stall("consumers did not stop (kicked every millisecond)");
    }
    for (int i = 0; i < soak_worker_count; ++i) {
        int rc = rtipc_task_join(soak_workers[i]->task);
        if (rc != 0)
            soak_violation(soak_workers[i]->obj, "join %s: %s", soak_workers[i]->name, rtipc_strerror(rc));
    }
    for (int h = 0; h < nhooks; ++h)
        if (hooks[h].drain)
            hooks[h].drain();
    for (int h = 0; h < nhooks; ++h)
        if (hooks[h].final)
            hooks[h].final();

    double elapsed = stress_now() - t_start;
    long long v = TOTAL(violations);
    const char *result = v == 0 ? "PASS (no invariant violated)" : "FAIL (invariants violated)";
    if (v != 0 && atomic_load(&soak_errors.published))
        fprintf(stderr, "soak: first violation: %s\n", soak_errors.first);
    print_table(stdout, elapsed, result);
    write_json(elapsed, result);
    exit_status = v == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "rtipc-soak: %s needs a value\n", a);
            usage(stderr);
            return 2;
        }
        const char *v = argv[++i];
        if (!strcmp(a, "--duration")) {
            if (!parse_duration(v, &opt_duration)) {
                fprintf(stderr, "rtipc-soak: bad duration '%s' (seconds, or 30s, 30m, 2h)\n", v);
                return 2;
            }
        } else if (!strcmp(a, "--seed")) {
            char *end;
            errno = 0;
            unsigned long long s = strtoull(v, &end, 0);
            if (errno || end == v || *end) {
                fprintf(stderr, "rtipc-soak: bad seed '%s'\n", v);
                return 2;
            }
            char buf[32];
            snprintf(buf, sizeof buf, "%llu", s);
            setenv("RTIPC_STRESS_SEED", buf, 1);
        } else if (!strcmp(a, "--json")) {
            opt_json = v;
        } else if (!strcmp(a, "--stall")) {
            if (!parse_duration(v, &opt_stall) || opt_stall <= 0) {
                fprintf(stderr, "rtipc-soak: bad stall limit '%s'\n", v);
                return 2;
            }
            opt_obj_stall = 6 * opt_stall;
        } else {
            fprintf(stderr, "rtipc-soak: unknown option %s\n", a);
            usage(stderr);
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    stress_errors_init(&soak_errors);
    printf("rtipc-soak: %s, %d core(s), duration %.0f s\n", rtipc_sched_policy_describe(), rtipc_core_count(),
           opt_duration);
    seed = stress_seed();

    /* The supervisor runs above every worker so that the watchdog and the
     * stop sequence are never starved by the load. */
    rtipc_task_t *sup;
    rtipc_task_config_t cfg = {.name = "soak-super", .priority = RTIPC_PRIORITY_LEVELS - 1,
                               .core = RTIPC_CORE_ANY, .entry = supervisor};
    int rc = rtipc_task_create(&cfg, &sup);
    if (rc != 0) {
        fprintf(stderr, "rtipc-soak: cannot start the supervisor: %s\n", rtipc_strerror(rc));
        return 2;
    }
    rtipc_task_join(sup);
    return exit_status;
}
