/* rtipc-bench: runs the experiments of docs/methodology.md, prints tables
 * shaped like the published ones, audits the claims, writes JSON/CSV.
 *
 *   rtipc-bench list
 *   rtipc-bench help ID|COMMAND
 *   rtipc-bench run [options] [ID...]
 *   rtipc-bench compare BASE.json NEW.json [--threshold PCT]   (compare/compare.h)
 *   rtipc-bench report RESULTS.json DIR
 *   rtipc-bench audit RESULTS.json [--json OUT.json]             (audit/audit.h)
 *   rtipc-bench capture [options] SOURCE OUT.json                (capture/capture.h)
 *   rtipc-bench scope [options] CAPTURE OUT.json                  (scope/scope.h)
 *   rtipc-bench --help | --version
 *
 * GNU conventions throughout: options before or after the operands, `--`
 * ends the options, each option at most once, --help and --version on stdout
 * with status 0. Exit status: 0 every experiment ran; 1 one failed or an
 * output could not be written (the reason is printed); 2 usage error.
 * compare: 0 nothing regressed, 1 a metric regressed, 2 usage error or
 * invalid input. report: 0 written, 1 not written, 2 usage error or invalid
 * input. audit: 0 audited, 1 OUT.json not written, 2 usage error or invalid
 * input. capture: 0 written, 1 no valid document, 2 usage error. scope: 0
 * written, 1 not written, 2 usage error or a capture that cannot be read or
 * paired. Results files are read by one reader (results/read.h) and every
 * output is written whole or not at all (results/outfile.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_outputs.h"
#include "harness/args.h"
#include "harness/run.h"
#include "names.h"
#include "results/row_clock.h"
#include "rtipc/rtipc.h"
#include "trace/trace.h"

#define PROG "rtipc-bench"

static const char usage_text[] =
    "usage: rtipc-bench list\n"
    "       rtipc-bench help ID|COMMAND  what experiment ID measures and what each latency spans,\n"
    "                                    or the usage of a command (run, compare, capture, ...)\n"
    "       rtipc-bench run [options] [ID...]   run the given experiments (all when none)\n"
    "       rtipc-bench compare BASE.json NEW.json [--threshold PCT]\n"
    "                                    compare two --json files; exit 1 when a metric\n"
    "                                    regressed past PCT% (default 10; compare --help)\n"
    "       rtipc-bench report RESULTS.json DIR  build DIR/index.html from a --json file\n"
    "       rtipc-bench audit RESULTS.json [--json OUT.json]\n"
    "                                    audit the claims on the rows of a --json file from\n"
    "                                    any target; --json: the file with the new verdicts\n"
    "       rtipc-bench capture [options] SOURCE OUT.json\n"
    "                                    the JSON a board prints, from a serial device, a\n"
    "                                    file or stdin ('-'), checked, into OUT.json\n"
    "                                    (capture --help)\n"
    "       rtipc-bench scope [options] --start LINE --end LINE CAPTURE OUT.json\n"
    "                                    latencies between two lines of a logic analyzer's\n"
    "                                    or oscilloscope's capture, as a --json file\n"
    "                                    (scope --help)\n"
    "       rtipc-bench --help | --version\n"
    "\n"
    "options for run (before or after the IDs; '--' ends the options; each at most once):\n"
    "  --quick            short run (CI, smoke tests): few samples, p99.9 omitted\n"
    "  --samples N        recorded samples per latency row, 1 to 50000000 (default per\n"
    "                     experiment)\n"
    "  --duration S       seconds per timed phase (throughput, rates), 0.01 to 3600\n"
    "  --warmup N         messages sent before recording, 0 to 10000000 (default: a tenth\n"
    "                     of the samples, at least 100)\n"
    "  --cpus A,B         CPUs playing core 0 and core 1, each an online CPU id from 0 to\n"
    "                     the number of CPUs less one (default 0,1)\n"
    "  --tick-hz HZ       tick rate during the run, 1 to 100000 (default: the library's, 1000)\n"
    "  --json FILE        write results in the rtipc-bench/1 schema (docs/json-schema.md)\n"
    "  --csv FILE         write one CSV line per result\n"
    "  --report DIR       write an HTML report to DIR/index.html (charts need gnuplot)\n"
    "  --seed N           seed of every pseudo-random choice, 0 to 2^64-1 (default 1)\n"
    "  --no-progress      no progress line on stderr (it is shown only on a terminal)\n"
    "  --vcd FILE         write waveforms of the first messages of each row (Value Change\n"
    "                     Dump for GTKWave or PulseView; docs/methodology.md)\n"
    "  --perfetto FILE    write the same as a timeline (trace-event JSON for ui.perfetto.dev)\n"
    "  --trace-samples N  messages traced per row with --vcd/--perfetto, 1 to 100000\n"
    "                     (default 200)\n"
    "  -h, --help         this text; with IDs, what those experiments measure\n"
    "      --version      the version of rtipc\n"
    "\n"
    "Outputs: each file is written to a temporary file in its own directory and renamed\n"
    "over the target once complete, so a failed write (a full disk) leaves the previous\n"
    "file as it was. Before the run starts, every output's directory must exist and be\n"
    "writable (DIR of --report, or its nearest existing parent) and no two outputs may\n"
    "name the same file.\n"
    "\n"
    "Latencies are in microseconds in tables and nanoseconds in JSON. A percentile is\n"
    "printed only with at least 10/(1-p) samples; '-' marks one that is not.\n"
    "\n"
    "Exit status: 0 every experiment ran and every output was written; 1 an experiment\n"
    "failed or an output could not be written (the reason is printed); 2 usage error (an\n"
    "unknown option or experiment, a value out of range, an option given twice, two\n"
    "outputs naming one file). compare, report and audit exit 2 for invalid input too.\n";

static int usage_error(const char *fmt, const char *arg)
{
    return bench_usage_error(PROG, fmt, arg);
}

/* The options of list, help and report: --help, --version, nothing else.
 * Returns -1 to go on with the operands at argv[optind...], else the exit
 * status. */
static int simple_options(int argc, char **argv, const char *usage)
{
    static const struct option longopts[] = {
        {"help", no_argument, 0, 'h'}, {"version", no_argument, 0, BENCH_OPT_VERSION}, {0, 0, 0, 0}};
    bench_optparse_t p;
    bench_optparse_init(&p, PROG, usage, longopts);
    int c;
    while ((c = bench_optparse_next(&p, argc, argv)) >= 0)
        ;  /* --help and --version end the parse: nothing else is returned */
    return c == BENCH_OPT_STOP ? p.status : -1;
}

static int cmd_list(int argc, char **argv)
{
    int rc = simple_options(argc, argv, usage_text);
    if (rc >= 0)
        return rc;
    if (optind < argc)
        return usage_error("list takes no operand, not '%s'", argv[optind]);
    for (size_t i = 0; i < bench_experiment_count; i++) {
        const bench_experiment_t *e = bench_experiments[i];
        char why[256];
        if (bench_experiment_unavailable(e, why, sizeof why))
            printf("%-18s %s\n%-18s missing: %s (%s)\n", e->id, e->summary, "", e->id, why);
        else
            printf("%-18s %s\n", e->id, e->summary);
    }
    return 0;
}

static int show_experiment(const char *id)
{
    const bench_experiment_t *e = bench_experiment_find(id);
    if (!e)
        return usage_error("unknown experiment '%s' (see 'rtipc-bench list')", id);
    char why[256];
    printf("%s: %s\n\n%s\n", e->id, e->summary, e->definitions);
    if (bench_experiment_unavailable(e, why, sizeof why))
        printf("missing on this target: %s\n", why);
    return 0;
}

static int cmd_help(int argc, char **argv)
{
    int rc = simple_options(argc, argv, usage_text);
    if (rc >= 0)
        return rc;
    if (argc - optind != 1)
        return usage_error("%s", "help wants one experiment id or command");
    /* A command: its own --help. */
    const char *what = argv[optind];
    static const char *const commands[] = {"list", "help", "run"};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(what, commands[i]))
            return fputs(usage_text, stdout) < 0 ? 1 : 0;
    static char help_option[] = "--help";
    char *sub[] = {(char *)what, help_option, NULL};
    int status;
    if (bench_cli_file_command(what, 2, sub, &status))
        return status;
    if (!bench_experiment_find(what))
        return usage_error("'%s' is neither an experiment nor a command (see 'rtipc-bench list'; commands: list, "
                           "help, run, compare, report, audit, capture, scope)", what);
    return show_experiment(what);
}

/* Where the run's tables go: stdout, or stderr while an output takes stdout
 * ('-'). */
static FILE *human;

/* The experiment's notes, copied from the run's buffer at their length. A
 * copy that finds no memory is replaced by a line saying so, never dropped
 * in silence (and a failure, so that the run's status shows it). */
static char notes_lost[] = "its notes were lost: no memory for a copy\n";

static void keep_notes(bench_run_t *run, bench_outcome_t *oc)
{
    size_t n = strlen(run->notes) + 1;
    oc->notes = malloc(n);
    if (oc->notes) {
        memcpy(oc->notes, run->notes, n);
        return;
    }
    oc->notes = notes_lost;
    if (!oc->failed) {
        oc->failed = 1;
        snprintf(oc->failure, sizeof oc->failure, "no memory to keep its %lu bytes of notes", (unsigned long)n);
    }
}

static void run_one(bench_run_t *run, const bench_experiment_t *e, size_t index, size_t count)
{
    bench_outcome_t *oc = &run->outcomes[run->n_outcomes++];
    memset(oc, 0, sizeof *oc);
    oc->experiment = e;
    run->current = e;
    run->failure[0] = 0;
    run->notes[0] = 0;
    char why[256];
    if (bench_experiment_unavailable(e, why, sizeof why)) {
        /* Not run here: a missing row with the reason, as a mechanism the
         * target lacks is reported. */
        bench_add_missing(run, e->id, why);
        snprintf(run->notes, sizeof run->notes, "not run on this target: %s\n", why);
        keep_notes(run, oc);
        run->current = NULL;
        bench_print_experiment(human, run, oc);
        fflush(human);
        return;
    }
    if (run->opts.progress)
        fprintf(stderr, "[%lu/%lu] %s ...\n", (unsigned long)(index + 1), (unsigned long)count, e->id);
    int64_t t0 = bench_now_ns();
    (void)bench_target_native_strays();  /* counted from here on */
    int rc = e->run(run);
    /* A kernel row's task must need nothing of rtipc's (target.h): one that
     * got an rtipc descriptor fails the experiment. */
    unsigned strays = bench_target_native_strays();
    if (strays && !run->failure[0])
        rc = bench_fail(run, "%u of the kernel's own tasks called into rtipc's port: the kernel's rows are "
                             "not the kernel's alone (a harness bug)", strays);
    /* Its performance targets, from its rows, under its tables. */
    if (rc == 0 && !run->failure[0])
        bench_audit_perf_targets(run);
    oc->seconds = (double)(bench_now_ns() - t0) / 1e9;
    if (rc != 0 || run->failure[0]) {
        oc->failed = 1;
        snprintf(oc->failure, sizeof oc->failure, "%s",
                 run->failure[0] ? run->failure : "failed without a reason (a bug)");
    }
    keep_notes(run, oc);
    if (run->opts.progress)
        fprintf(stderr, "\r  %-20s done in %.1f s%s\n", e->id, oc->seconds, oc->failed ? " (FAILED)" : "");
    run->current = NULL;
    bench_print_experiment(human, run, oc);
    fflush(human);
}

/* --cpus A,B: two CPU ids, each below the online count. */
static int parse_cpus(const char *s, int cpu[2])
{
    const char *comma = strchr(s, ',');
    char first[24];
    unsigned long long a, b, top = (unsigned long long)bench_target_core_count() - 1;
    if (!comma || (size_t)(comma - s) >= sizeof first)
        return -1;
    memcpy(first, s, (size_t)(comma - s));
    first[comma - s] = 0;
    if (bench_parse_uint(first, 0, top, &a) != 0 || bench_parse_uint(comma + 1, 0, top, &b) != 0)
        return -1;
    cpu[0] = (int)a;
    cpu[1] = (int)b;
    return 0;
}

static int run_command(bench_run_t *runp, int argc, char **argv)
{
    runp->opts.cpu[0] = 0;
    runp->opts.cpu[1] = bench_target_core_count() > 1 ? 1 : 0;
    runp->opts.warmup = -1;
    runp->opts.seed = 1;
    runp->opts.progress = isatty(STDERR_FILENO);
    bench_cli_outputs_t out = {0};
    bool help = false;
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
        {"help", no_argument, 0, 'h'},            {"version", no_argument, 0, BENCH_OPT_VERSION},
        {0, 0, 0, 0}};
    int c;
    unsigned long long v;
    double d;
    /* --help is answered after the operands are known (`run ID --help`). */
    bench_optparse_t p;
    bench_optparse_init(&p, PROG, NULL, longopts);
    while ((c = bench_optparse_next(&p, argc, argv)) >= 0) {
        switch (c) {
        case O_QUICK: runp->opts.quick = true; break;
        case O_SAMPLES:
            if (bench_parse_uint(optarg, 1, 50000000, &v))
                return usage_error("--samples wants a count from 1 to 50000000, not '%s'", optarg);
            runp->opts.samples = (size_t)v;
            break;
        case O_DURATION:
            if (bench_parse_real(optarg, 0.01, 3600, &d))
                return usage_error("--duration wants seconds from 0.01 to 3600, not '%s'", optarg);
            runp->opts.duration_s = d;
            break;
        case O_WARMUP:
            if (bench_parse_uint(optarg, 0, 10000000, &v))
                return usage_error("--warmup wants a count from 0 to 10000000, not '%s'", optarg);
            runp->opts.warmup = (long)v;
            break;
        case O_CPUS:
            if (parse_cpus(optarg, runp->opts.cpu) != 0) {
                return bench_usage_error(PROG, "--cpus wants two CPU ids A,B, each from 0 to %d, not '%s'",
                                         bench_target_core_count() - 1, optarg);
            }
            break;
        case O_TICK:
            if (bench_parse_uint(optarg, 1, 100000, &v))
                return usage_error("--tick-hz wants a rate from 1 to 100000, not '%s'", optarg);
            runp->opts.tick_hz = (uint32_t)v;
            break;
        case O_JSON: out.json = optarg; break;
        case O_CSV: out.csv = optarg; break;
        case O_REPORT: out.report = optarg; break;
        case O_SEED:
            if (bench_parse_uint(optarg, 0, ULLONG_MAX, &v))
                return usage_error("--seed wants an integer from 0 to 18446744073709551615, not '%s'", optarg);
            runp->opts.seed = v;
            break;
        case O_NOPROG: runp->opts.progress = false; break;
        case O_VCD: out.vcd = optarg; break;
        case O_PERFETTO: out.perfetto = optarg; break;
        case O_TRACE_SAMPLES:
            if (bench_parse_uint(optarg, 1, BENCH_TRACE_MAX_SAMPLES, &v))
                return usage_error("--trace-samples wants a count from 1 to 100000, not '%s'", optarg);
            out.trace_samples = (size_t)v;
            break;
        case 'h': help = true; break;
        default: break;
        }
    }
    if (c == BENCH_OPT_STOP)
        return p.status;
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
    if (help) {  /* `run ID... --help`: what those experiments measure */
        if (n == 0)
            fputs(usage_text, stdout);
        for (size_t i = 0; i < n; i++) {
            if (i)
                putchar('\n');
            show_experiment(chosen[i]->id);
        }
        return 0;
    }
    if (n == 0)
        for (; n < bench_experiment_count; n++)
            chosen[n] = bench_experiments[n];
    if (out.trace_samples && !out.vcd && !out.perfetto)
        return usage_error("%s", "--trace-samples needs --vcd or --perfetto");
    int rc = bench_cli_outputs_prepare(&out);
    if (rc != 0)
        return rc;
    /* An output to standard output ('-') keeps it for that output alone:
     * the tables go to stderr. (A target without files prints everything on
     * its console, the JSON between its markers.) */
    human = stdout;
    const char *const outputs[] = {out.json, out.csv, out.vcd, out.perfetto};
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++)
        if (outputs[i] && !strcmp(outputs[i], "-") && (bench_target_features() & BENCH_TARGET_FILES))
            human = stderr;

    if (runp->opts.tick_hz) {
        rc = bench_target_set_tick_rate(runp->opts.tick_hz);
        if (rc != 0) {
            fprintf(stderr, "rtipc-bench: cannot set the tick to %u Hz: %s\n", (unsigned)runp->opts.tick_hz,
                    rtipc_strerror(rc));
            return 1;
        }
    }
    (void)bench_now_ns();  /* fix the clock origin before any task exists */
    runp->env.memory_locked = bench_target_lock_memory();
    bench_env_collect(&runp->env);
    runp->clock = bench_clock_provenance_name(runp->env.clock.provenance);
    runp->core_clock = runp->env.has_core_clock ? bench_clock_provenance_name(runp->env.core_clock.provenance) : NULL;
    runp->env.cpu[0] = runp->opts.cpu[0];
    runp->env.cpu[1] = runp->opts.cpu[1];
    runp->env.seed = runp->opts.seed;
    runp->env.quick = runp->opts.quick;
    bench_print_env(human, &runp->env);

    for (size_t i = 0; i < n; i++)
        run_one(runp, chosen[i], i, n);
    bench_target_memory(&runp->env.memory);
    bench_audit_claims(runp);
    bench_print_claims(human, runp);
    bench_print_memory(human, &runp->env);

    int status = 0;
    for (size_t i = 0; i < runp->n_outcomes; i++) {
        if (runp->outcomes[i].failed) {
            fprintf(stderr, "rtipc-bench: experiment %s failed: %s\n", runp->outcomes[i].experiment->id,
                    runp->outcomes[i].failure);
            status = 1;
        }
    }
    if (bench_cli_outputs_write(runp, &out) != 0)
        status = 1;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "rtipc-bench: writing the results to stdout failed\n");
        status = 1;
    }
    for (size_t i = 0; i < runp->n_outcomes; i++)
        if (runp->outcomes[i].notes != notes_lost)
            free(runp->outcomes[i].notes);
    bench_free_rows(runp);
    return status;
}

/* The run lives on the heap: its outcome table is tens of KiB, static memory
 * an MCU firmware would hold for its whole life (the ESP32's DRAM). */
static int cmd_run(int argc, char **argv)
{
    bench_run_t *run = calloc(1, sizeof *run);
    if (!run) {
        fprintf(stderr, "rtipc-bench: no memory for the run (%lu bytes)\n", (unsigned long)sizeof *run);
        return 1;
    }
    int rc = run_command(run, argc, argv);
    free(run);
    return rc;
}

int bench_cli(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("%s", "a command is required: list, help ID, run, compare, report, audit, capture or scope");
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
        fputs(usage_text, stdout);
        return fflush(stdout) == 0 ? 0 : 1;
    }
    if (!strcmp(cmd, "--version")) {
        bench_print_version(PROG);
        return fflush(stdout) == 0 ? 0 : 1;
    }
    int rc;
    if (!strcmp(cmd, "list"))
        rc = cmd_list(argc - 1, argv + 1);
    else if (!strcmp(cmd, "help"))
        rc = cmd_help(argc - 1, argv + 1);
    else if (!strcmp(cmd, "run"))
        rc = cmd_run(argc - 1, argv + 1);
    else if (bench_cli_file_command(cmd, argc - 1, argv + 1, &rc))
        ;
    else if (cmd[0] == '-')
        return usage_error("unknown option '%s' (a command comes first: list, help, run, compare, report, audit, capture, scope)",
                           cmd);
    else
        return usage_error("unknown command '%s' (list, help, run, compare, report, audit, capture, scope)", cmd);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "rtipc-bench: writing to stdout failed\n");
        return 1;
    }
    return rc;
}
