/* rtipc-bench: runs the experiments of docs/methodology.md, prints tables
 * shaped like the published ones, audits the claims, writes JSON/CSV.
 *
 *   rtipc-bench list
 *   rtipc-bench help ID
 *   rtipc-bench run [options] [ID...]
 *   rtipc-bench compare BASE.json NEW.json [--threshold PCT]   (compare/compare.h)
 *   rtipc-bench report RESULTS.json DIR
 *   rtipc-bench audit RESULTS.json [--json OUT.json]             (audit/audit.h)
 *
 * Exit status: 0 every experiment ran; 1 one failed or an output could not be
 * written (the reason is printed); 2 usage error. compare: 0 nothing
 * regressed, 1 a metric regressed, 2 usage error or invalid input. audit: 0
 * audited, 1 OUT.json not written, 2 usage error or invalid input. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "audit/audit.h"
#include "cli.h"
#include "compare/compare.h"
#include "harness/bench.h"
#include "report/html.h"
#include "rtipc/rtipc.h"
#include "trace/trace.h"

static const char usage_text[] =
    "usage: rtipc-bench list\n"
    "       rtipc-bench help ID          what experiment ID measures and what each latency spans\n"
    "       rtipc-bench run [options] [ID...]   run the given experiments (all when none)\n"
    "       rtipc-bench compare BASE.json NEW.json [--threshold PCT]\n"
    "                                    compare two --json files; exit 1 when a metric\n"
    "                                    regressed past PCT% (default 10; compare --help)\n"
    "       rtipc-bench report RESULTS.json DIR  build DIR/index.html from a --json file\n"
    "       rtipc-bench audit RESULTS.json [--json OUT.json]\n"
    "                                    audit the claims on the rows of a --json file from\n"
    "                                    any target; --json: the file with the new verdicts\n"
    "\n"
    "options for run:\n"
    "  --quick            short run (CI, smoke tests): few samples, p99.9 omitted\n"
    "  --samples N        recorded samples per latency row (default per experiment)\n"
    "  --duration S       seconds per timed phase (throughput, rates)\n"
    "  --warmup N         messages sent before recording (default: a tenth, >= 100)\n"
    "  --cpus A,B         CPUs playing core 0 and core 1 (default 0,1)\n"
    "  --tick-hz HZ       tick rate during the run (default: the library's, 1000)\n"
    "  --json FILE        write results in the rtipc-bench/1 schema (docs/json-schema.md)\n"
    "  --csv FILE         write one CSV line per result\n"
    "  --report DIR       write an HTML report to DIR/index.html (charts need gnuplot)\n"
    "  --seed N           seed of every pseudo-random choice (default 1)\n"
    "  --no-progress      no progress line on stderr (it is shown only on a terminal)\n"
    "  --vcd FILE         write waveforms of the first messages of each row (Value Change\n"
    "                     Dump for GTKWave or PulseView; docs/methodology.md)\n"
    "  --perfetto FILE    write the same as a timeline (trace-event JSON for ui.perfetto.dev)\n"
    "  --trace-samples N  messages traced per row with --vcd/--perfetto (default 200)\n"
    "  -h, --help         this text\n"
    "\n"
    "Latencies are in microseconds in tables and nanoseconds in JSON. A percentile is\n"
    "printed only with at least 10/(1-p) samples; '-' marks one that is not.\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "rtipc-bench: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'rtipc-bench --help'.\n");
    return 2;
}

static int parse_u64(const char *s, unsigned long long *out)
{
    char *end;
    errno = 0;
    if (!s || !*s || *s == '-')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

static int cmd_list(void)
{
    for (size_t i = 0; i < bench_experiment_count; i++)
        printf("%-18s %s\n", bench_experiments[i]->id, bench_experiments[i]->summary);
    return 0;
}

static int cmd_help(const char *id)
{
    const bench_experiment_t *e = bench_experiment_find(id);
    if (!e)
        return usage_error("unknown experiment '%s' (see 'rtipc-bench list')", id);
    printf("%s: %s\n\n%s\n", e->id, e->summary, e->definitions);
    return 0;
}

/* Says how writing DIR/index.html went: 1 when the page could not be written,
 * else 0; charts that could not be drawn (no gnuplot) only warn. */
static int report_status(int rc, const bench_html_outcome_t *outcome, const char *dir, const char *err)
{
    if (rc != 0) {
        fprintf(stderr, "rtipc-bench: no report written in %s: %s\n", dir, err);
        return 1;
    }
    if (outcome->charts_missing)
        fprintf(stderr, "rtipc-bench: warning: %s/index.html lacks %d chart(s): %s\n", dir,
                outcome->charts_missing, outcome->warning);
    return 0;
}

static int cmd_report(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (argc != 3)
        return usage_error("%s", "report wants a results file and a directory: report RESULTS.json DIR");
    bench_html_outcome_t outcome;
    char err[512];
    int rc = bench_html_report_from_file(argv[1], argv[2], &outcome, err, sizeof err);
    return report_status(rc, &outcome, argv[2], err);
}

static void run_one(bench_run_t *run, const bench_experiment_t *e, size_t index, size_t count)
{
    bench_outcome_t *oc = &run->outcomes[run->n_outcomes++];
    memset(oc, 0, sizeof *oc);
    oc->experiment = e;
    run->current = e;
    run->failure[0] = 0;
    run->notes[0] = 0;
    if (run->opts.progress)
        fprintf(stderr, "[%zu/%zu] %s ...\n", index + 1, count, e->id);
    int64_t t0 = bench_now_ns();
    int rc = e->run(run);
    oc->seconds = (double)(bench_now_ns() - t0) / 1e9;
    if (rc != 0 || run->failure[0]) {
        oc->failed = 1;
        snprintf(oc->failure, sizeof oc->failure, "%s",
                 run->failure[0] ? run->failure : "failed without a reason (a bug)");
    }
    snprintf(oc->notes, sizeof oc->notes, "%s", run->notes);
    if (run->opts.progress)
        fprintf(stderr, "\r  %-20s done in %.1f s%s\n", e->id, oc->seconds, oc->failed ? " (FAILED)" : "");
    run->current = NULL;
    bench_print_experiment(stdout, run, oc);
    fflush(stdout);
}

/* After the run with --vcd/--perfetto: the recorder's cost (measured now
 * when queue-latency did not measure it), its counts, and the files. */
static int finish_trace(bench_run_t *run, const char *vcd, const char *perfetto)
{
    int status = 0;
    const bench_result_t *p50 = bench_find(run, "queue-latency", "rtipc-queue", "cross-core", "trace-overhead-p50");
    const bench_result_t *p99 = bench_find(run, "queue-latency", "rtipc-queue", "cross-core", "trace-overhead-p99");
    if (p50 && p99) {
        printf("\ntrace overhead: p50 %+.0f ns, p99 %+.0f ns (traced - untraced; see queue-latency's note)\n",
               p50->value, p99->value);
    } else {
        bench_trace_overhead_t o;
        run->failure[0] = 0;
        if (bench_trace_measure_overhead(run, &o) == 0) {
            char text[800];
            bench_trace_describe_overhead(&o, text, sizeof text);
            printf("\n%s\n", text);
        } else {
            fprintf(stderr, "rtipc-bench: %s\n", run->failure);
            status = 1;
        }
    }
    printf("trace: %zu events recorded, %zu dropped (the array was full), first %zu messages per row\n",
           bench_trace_recorded(), bench_trace_dropped(), bench_trace_samples_per_row());
    if (vcd && bench_trace_write_vcd(vcd, &run->env) != 0) {
        fprintf(stderr, "rtipc-bench: cannot write %s: %s\n", vcd, strerror(errno));
        status = 1;
    }
    if (perfetto && bench_trace_write_perfetto(perfetto, &run->env) != 0) {
        fprintf(stderr, "rtipc-bench: cannot write %s: %s\n", perfetto, strerror(errno));
        status = 1;
    }
    bench_trace_shutdown();
    return status;
}

static int cmd_run(int argc, char **argv)
{
    static bench_run_t run;
    run.opts.cpu[0] = 0;
    run.opts.cpu[1] = rtipc_core_count() > 1 ? 1 : 0;
    run.opts.warmup = -1;
    run.opts.seed = 1;
    run.opts.progress = isatty(STDERR_FILENO);
    const char *json = NULL, *csv = NULL, *report = NULL;
    const char *vcd = NULL, *perfetto = NULL;
    size_t trace_samples = 0;
    enum { O_QUICK = 256, O_SAMPLES, O_DURATION, O_WARMUP, O_CPUS, O_TICK, O_JSON, O_CSV, O_SEED, O_NOPROG,
           O_VCD, O_PERFETTO, O_TRACE_SAMPLES, O_REPORT };
    static const struct option longopts[] = {
        {"quick", no_argument, 0, O_QUICK},       {"samples", required_argument, 0, O_SAMPLES},
        {"duration", required_argument, 0, O_DURATION}, {"warmup", required_argument, 0, O_WARMUP},
        {"cpus", required_argument, 0, O_CPUS},   {"tick-hz", required_argument, 0, O_TICK},
        {"json", required_argument, 0, O_JSON},   {"csv", required_argument, 0, O_CSV},
        {"seed", required_argument, 0, O_SEED},   {"no-progress", no_argument, 0, O_NOPROG},
        {"vcd", required_argument, 0, O_VCD},     {"perfetto", required_argument, 0, O_PERFETTO},
        {"trace-samples", required_argument, 0, O_TRACE_SAMPLES},
        {"report", required_argument, 0, O_REPORT},
        {"help", no_argument, 0, 'h'},            {0, 0, 0, 0}};
    int c;
    unsigned long long v;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
        switch (c) {
        case O_QUICK: run.opts.quick = true; break;
        case O_SAMPLES:
            if (parse_u64(optarg, &v) || v < 1 || v > 50000000)
                return usage_error("--samples wants a count from 1 to 50000000, not '%s'", optarg);
            run.opts.samples = (size_t)v;
            break;
        case O_DURATION: {
            char *end;
            double d = strtod(optarg, &end);
            if (*end || !(d > 0 && d <= 3600))
                return usage_error("--duration wants seconds (0 < S <= 3600), not '%s'", optarg);
            run.opts.duration_s = d;
            break;
        }
        case O_WARMUP:
            if (parse_u64(optarg, &v) || v > 10000000)
                return usage_error("--warmup wants a count from 0 to 10000000, not '%s'", optarg);
            run.opts.warmup = (long)v;
            break;
        case O_CPUS: {
            int a, b;
            char tail;
            if (sscanf(optarg, "%d,%d%c", &a, &b, &tail) != 2 || a < 0 || b < 0 ||
                a >= rtipc_core_count() || b >= rtipc_core_count())
                return usage_error("--cpus wants two online CPU ids A,B, not '%s'", optarg);
            run.opts.cpu[0] = a;
            run.opts.cpu[1] = b;
            break;
        }
        case O_TICK:
            if (parse_u64(optarg, &v) || v < 1 || v > 100000)
                return usage_error("--tick-hz wants 1..100000, not '%s'", optarg);
            run.opts.tick_hz = (uint32_t)v;
            break;
        case O_JSON: json = optarg; break;
        case O_CSV: csv = optarg; break;
        case O_REPORT: report = optarg; break;
        case O_SEED:
            if (parse_u64(optarg, &v))
                return usage_error("--seed wants a non-negative integer, not '%s'", optarg);
            run.opts.seed = v;
            break;
        case O_NOPROG: run.opts.progress = false; break;
        case O_VCD: vcd = optarg; break;
        case O_PERFETTO: perfetto = optarg; break;
        case O_TRACE_SAMPLES:
            if (parse_u64(optarg, &v) || v < 1 || v > BENCH_TRACE_MAX_SAMPLES)
                return usage_error("--trace-samples wants a count from 1 to 100000, not '%s'", optarg);
            trace_samples = (size_t)v;
            break;
        case 'h': fputs(usage_text, stdout); return 0;
        default: return usage_error("unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    const bench_experiment_t *chosen[BENCH_MAX_EXPERIMENTS];
    size_t n = 0;
    for (int i = optind; i < argc; i++) {
        const bench_experiment_t *e = bench_experiment_find(argv[i]);
        if (!e)
            return usage_error("unknown experiment '%s' (see 'rtipc-bench list')", argv[i]);
        for (size_t k = 0; k < n; k++)
            if (chosen[k] == e)
                return usage_error("experiment '%s' named twice", argv[i]);
        chosen[n++] = e;
    }
    if (n == 0)
        for (; n < bench_experiment_count; n++)
            chosen[n] = bench_experiments[n];
    if (trace_samples && !vcd && !perfetto)
        return usage_error("%s", "--trace-samples needs --vcd or --perfetto");
    if ((vcd || perfetto) &&
        bench_trace_init(trace_samples ? trace_samples : BENCH_TRACE_DEFAULT_SAMPLES) != 0) {
        fprintf(stderr, "rtipc-bench: cannot allocate the trace: %s\n", strerror(errno));
        return 1;
    }

    if (run.opts.tick_hz) {
        int rc = rtipc_tick_set_rate(run.opts.tick_hz);
        if (rc != 0) {
            fprintf(stderr, "rtipc-bench: cannot set the tick to %u Hz: %s\n", run.opts.tick_hz,
                    rtipc_strerror(rc));
            return 1;
        }
    }
    (void)bench_now_ns();  /* fix the clock origin before any task exists */
    run.env.memory_locked = mlockall(MCL_CURRENT | MCL_FUTURE) == 0;
    bench_env_collect(&run.env);
    run.env.cpu[0] = run.opts.cpu[0];
    run.env.cpu[1] = run.opts.cpu[1];
    run.env.seed = run.opts.seed;
    run.env.quick = run.opts.quick;
    snprintf(run.env.priorities, sizeof run.env.priorities,
             "rtipc priorities: producer 10, consumer 12, load 2-4, interrupts above all; %s",
             RTIPC_PORT_FREERTOS ? "FreeRTOS priority = rtipc priority"
             : run.env.sched_fifo ? "SCHED_FIFO 10+p" : "logical only (SCHED_OTHER)");
    bench_print_env(stdout, &run.env);

    for (size_t i = 0; i < n; i++)
        run_one(&run, chosen[i], i, n);
    bench_audit_claims(&run);
    bench_print_claims(stdout, &run);

    int status = 0;
    for (size_t i = 0; i < run.n_outcomes; i++) {
        if (run.outcomes[i].failed) {
            fprintf(stderr, "rtipc-bench: experiment %s failed: %s\n", run.outcomes[i].experiment->id,
                    run.outcomes[i].failure);
            status = 1;
        }
    }
    if (json && bench_write_json(&run, json) != 0) {
        fprintf(stderr, "rtipc-bench: cannot write %s: %s\n", json, strerror(errno));
        status = 1;
    }
    if (csv && bench_write_csv(&run, csv) != 0) {
        fprintf(stderr, "rtipc-bench: cannot write %s: %s\n", csv, strerror(errno));
        status = 1;
    }
    if (bench_trace_enabled() && finish_trace(&run, vcd, perfetto) != 0)
        status = 1;
    if (report) {
        /* The same path as `report FILE DIR`: the JSON text, parsed again. */
        char *text = bench_json_text(&run);
        bench_html_outcome_t outcome = {0};
        char err[512] = "out of memory";
        int rc = text ? bench_html_report(text, report, &outcome, err, sizeof err) : -1;
        if (report_status(rc, &outcome, report, err) != 0)
            status = 1;
        free(text);
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "rtipc-bench: writing the results to stdout failed\n");
        status = 1;
    }
    for (size_t i = 0; i < run.n_results; i++)
        if (run.results[i].kind == BENCH_DIST)
            bench_stats_free(&run.results[i].stats);
    free(run.results);
    return status;
}

int bench_cli(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("%s", "a command is required: list, help ID, run, compare, report or audit");
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
        fputs(usage_text, stdout);
        return fflush(stdout) == 0 ? 0 : 1;
    }
    int rc;
    if (!strcmp(cmd, "list"))
        rc = cmd_list();
    else if (!strcmp(cmd, "help")) {
        if (argc != 3)
            return usage_error("%s", "help wants one experiment id");
        rc = cmd_help(argv[2]);
    } else if (!strcmp(cmd, "run")) {
        /* `run ID --help` shows that experiment's definitions. */
        for (int i = 2; i < argc; i++) {
            if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
                if (i > 2 && bench_experiment_find(argv[i - 1]))
                    return cmd_help(argv[i - 1]);
            }
        }
        rc = cmd_run(argc - 1, argv + 1);
    } else if (!strcmp(cmd, "compare")) {
        rc = bench_compare_main(argc - 1, argv + 1);
    } else if (!strcmp(cmd, "report")) {
        rc = cmd_report(argc - 1, argv + 1);
    } else if (!strcmp(cmd, "audit")) {
        rc = bench_audit_main(argc - 1, argv + 1);
    } else
        return usage_error("unknown command '%s' (list, help, run, compare, report, audit)", cmd);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "rtipc-bench: writing to stdout failed\n");
        return 1;
    }
    return rc;
}
