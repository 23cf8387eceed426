/* The file commands and outputs of rtipc-bench on a target with files
 * (cli_outputs.h): compare, report, audit, and run's --csv, --vcd,
 * --perfetto and --report beside --json. */
#define _POSIX_C_SOURCE 200809L

#define PROG "rtipc-bench"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/audit/audit.h"
#include "host/capture/capture.h"
#include "cli_outputs.h"
#include "host/compare/compare.h"
#include "harness/args.h"
#include "names.h"
#include "host/report/html.h"
#include "host/scope/scope.h"
#include "results/outfile.h"
#include "results/read.h"
#include "results/run_files.h"
#include "trace/trace.h"

static const char report_usage[] =
    "usage: rtipc-bench report RESULTS.json DIR\n"
    "\n"
    "Builds DIR/index.html (tables, charts when gnuplot is installed, the claim\n"
    "audit) from an rtipc-bench/1 file of any target. DIR is created when missing;\n"
    "the page is written whole or not at all. RESULTS.json '-' is standard input.\n"
    "\n"
    "  --timeout S     wait at most S seconds for a FIFO, socket or device named\n"
    "                  as RESULTS.json to have something to read, 0 to 86400,\n"
    "                  0 = for ever (default 30)\n"
    "  -h, --help      this text\n"
    "      --version   the version of rtipc\n"
    "Options may come before or after the operands; '--' ends the options.\n"
    "\n"
    "Exit status: 0 written, 1 not written, 2 usage error or invalid input.\n";

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
    double wait_s = BENCH_RESULTS_WAIT_S;
    static const struct option longopts[] = {{"timeout", required_argument, 0, 't'},
                                             {"help", no_argument, 0, 'h'},
                                             {"version", no_argument, 0, BENCH_OPT_VERSION},
                                             {0, 0, 0, 0}};
    bench_optparse_t p;
    bench_optparse_init(&p, PROG " report", report_usage, longopts);
    int c;
    while ((c = bench_optparse_next(&p, argc, argv)) >= 0)
        if (c == 't' && bench_parse_real(optarg, 0, 86400, &wait_s) != 0)
            return bench_usage_error(PROG " report", "--timeout '%s' is not a number of seconds from 0 to 86400",
                                     optarg);
    if (c == BENCH_OPT_STOP)
        return p.status;
    int rc;
    if (argc - optind != 2)
        return bench_usage_error(PROG, "%s", "report wants a results file and a directory: report RESULTS.json DIR");
    const char *in = argv[optind], *dir = argv[optind + 1];
    char err[600];
    size_t len = strlen(dir) + sizeof "/index.html";
    char *page = malloc(len);
    if (!page) {
        fprintf(stderr, "%s report: out of memory\n", PROG);
        return 1;
    }
    snprintf(page, len, "%s/index.html", dir);
    bool same = bench_same_file(in, page);
    free(page);
    if (same)
        return bench_usage_error(PROG " report", "%s/index.html would overwrite the results file it is built from",
                                 dir);
    if (bench_output_dir_check(dir, err, sizeof err) != 0) {
        fprintf(stderr, "%s report: %s\n", PROG, err);
        return 1;
    }
    bench_results_t res;
    if (bench_results_load_waiting(&res, in, wait_s, err, sizeof err) != 0) {
        fprintf(stderr, "%s report: %s: %s\n", PROG, in, err);
        return 2;
    }
    bench_results_warn(&res, stderr, PROG " report", in);
    bench_html_outcome_t outcome;
    rc = bench_html_report(&res, dir, &outcome, err, sizeof err);
    bench_results_free(&res);
    return report_status(rc, &outcome, dir, err);
}

/* After the run with --vcd/--perfetto: the recorder's cost (measured now
 * when queue-latency did not measure it), its counts, and the files. */
static int finish_trace(bench_run_t *run, const char *vcd, const char *perfetto)
{
    int status = 0;
    const char *e = BENCH_EXP_QUEUE_LATENCY, *q = BENCH_MECH_RTIPC_QUEUE, *v = BENCH_VARIANT_CROSS_CORE;
    const bench_result_t *p50 = bench_find(run, e, q, v, BENCH_METRIC_TRACE_OVERHEAD_P50);
    const bench_result_t *p99 = bench_find(run, e, q, v, BENCH_METRIC_TRACE_OVERHEAD_P99);
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
    char err[600];
    if (vcd && bench_trace_write_vcd(vcd, &run->env, err, sizeof err) != 0) {
        fprintf(stderr, "rtipc-bench: %s\n", err);
        status = 1;
    }
    if (perfetto && bench_trace_write_perfetto(perfetto, &run->env, err, sizeof err) != 0) {
        fprintf(stderr, "rtipc-bench: %s\n", err);
        status = 1;
    }
    bench_trace_shutdown();
    return status;
}

/* Every output writable and no two the same file: 0, 1 (a runtime failure,
 * printed) or 2 (a usage error, printed). */
static int check_outputs(const bench_cli_outputs_t *o)
{
    char err[600];
    const char *names[] = {"--json", "--csv", "--vcd", "--perfetto", "--report"};
    const char *paths[] = {o->json, o->csv, o->vcd, o->perfetto, NULL};
    char *page = NULL;
    if (o->report) {
        size_t len = strlen(o->report) + sizeof "/index.html";
        if (!(page = malloc(len))) {
            fprintf(stderr, "rtipc-bench: out of memory\n");
            return 1;
        }
        snprintf(page, len, "%s/index.html", o->report);
        paths[4] = page;
    }
    int rc = 0;
    /* '-' is standard output (GNU convention): one output at most, and not
     * a folder. */
    if (o->report && !strcmp(o->report, "-"))
        rc = bench_usage_error(PROG, "%s", "--report writes a folder: '-' (standard output) cannot be one");
    for (int i = 0; i < 4 && !rc; i++)
        for (int j = i + 1; j < 4 && !rc; j++)
            if (paths[i] && paths[j] && !strcmp(paths[i], "-") && !strcmp(paths[j], "-"))
                rc = bench_usage_error(PROG, "%s - and %s - both ask for standard output: one output at most can "
                                       "take it", names[i], names[j]);
    for (int i = 0; i < 5 && !rc; i++)
        for (int j = i + 1; j < 5 && !rc; j++)
            if (paths[i] && paths[j] && bench_same_file(paths[i], paths[j]))
                rc = bench_usage_error(PROG, "%s %s and %s %s name the same file", names[i],
                                       i == 4 ? o->report : paths[i], names[j], j == 4 ? o->report : paths[j]);
    for (int i = 0; i < 4 && !rc; i++)
        if (paths[i] && bench_output_check(paths[i], err, sizeof err) != 0)
            rc = 1;
    if (!rc && o->report && bench_output_dir_check(o->report, err, sizeof err) != 0)
        rc = 1;
    if (!rc && page && access(o->report, F_OK) == 0 && bench_output_check(page, err, sizeof err) != 0)
        rc = 1;
    if (rc == 1)
        fprintf(stderr, "rtipc-bench: %s (nothing was run)\n", err);
    free(page);
    return rc;
}

bool bench_cli_file_command(const char *cmd, int argc, char **argv, int *status)
{
    if (!strcmp(cmd, "compare"))
        *status = bench_compare_main(argc, argv);
    else if (!strcmp(cmd, "report"))
        *status = cmd_report(argc, argv);
    else if (!strcmp(cmd, "audit"))
        *status = bench_audit_main(argc, argv);
    else if (!strcmp(cmd, "capture"))
        *status = bench_capture_main(argc, argv);
    else if (!strcmp(cmd, "scope"))
        *status = bench_scope_main(argc, argv);
    else
        return false;
    return true;
}

int bench_cli_outputs_prepare(const bench_cli_outputs_t *o)
{
    int rc = check_outputs(o);
    if (rc != 0)
        return rc;
    if ((o->vcd || o->perfetto) &&
        bench_trace_init(o->trace_samples ? o->trace_samples : BENCH_TRACE_DEFAULT_SAMPLES) != 0) {
        fprintf(stderr, "rtipc-bench: cannot allocate the trace: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}

int bench_cli_outputs_write(bench_run_t *run, const bench_cli_outputs_t *o)
{
    int status = 0;
    char err[600];
    if (o->json && bench_write_json(run, o->json, err, sizeof err) != 0) {
        fprintf(stderr, "rtipc-bench: %s\n", err);
        status = 1;
    }
    if (o->csv && bench_write_csv(run, o->csv, err, sizeof err) != 0) {
        fprintf(stderr, "rtipc-bench: %s\n", err);
        status = 1;
    }
    if (bench_trace_enabled() && finish_trace(run, o->vcd, o->perfetto) != 0)
        status = 1;
    if (o->report) {
        /* The same path as `report FILE DIR`: the JSON text, read back. */
        char *text = bench_json_text(run);
        bench_results_t res;
        bench_html_outcome_t outcome = {0};
        snprintf(err, sizeof err, "out of memory");
        int rc = text && bench_results_parse(&res, text, err, sizeof err) == 0 ? 0 : -1;
        if (rc == 0) {
            rc = bench_html_report(&res, o->report, &outcome, err, sizeof err);
            bench_results_free(&res);
        }
        if (report_status(rc, &outcome, o->report, err) != 0)
            status = 1;
        free(text);
    }
    return status;
}
