/* rtipc-bench scope (scope.h). */
#define _POSIX_C_SOURCE 200809L
#include "scope.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../harness/args.h"
#include "../../harness/run.h"
#include "../../names.h"
#include "../../results/outfile.h"
#include "../../results/run_files.h"
#include "bench_version.h"
#include "pairing.h"
#include "read.h"

#define PROG "rtipc-bench scope"

static const char scope_usage[] =
    "usage: rtipc-bench scope [options] --start LINE --end LINE CAPTURE OUT.json\n"
    "\n"
    "Reads a logic analyzer's or oscilloscope's capture of a board's two signal\n"
    "lines, pairs each edge of the start line (the producer's, raised around each\n"
    "send) with the first edge of the end line after it (the consumer's, raised\n"
    "once it has woken), and writes the latencies as one rtipc-bench/1 row, with\n"
    "the statistics of every latency row, measured by the clock 'logic-analyzer':\n"
    "compare, audit and report take OUT.json like any run. OUT.json '-' is\n"
    "standard output (the summary then goes to stderr).\n"
    "\n"
    "CAPTURE is a VCD file (PulseView, GTKWave, rtipc-bench --vcd), a sigrok\n"
    "session (.sr: PulseView, sigrok-cli), a Saleae Logic 2 digital CSV export, the\n"
    "folder of a Saleae Logic 2 binary export (digital_N.bin, format 0 or 1), or an\n"
    "oscilloscope's CSV (a time column, then a column per channel, in volts or\n"
    "levels; Rigol's Start/Increment layout too).\n"
    "\n"
    "  --start LINE        the start line: its name in the capture, or its number\n"
    "                      (0 = the first line the file declares)\n"
    "  --end LINE          the end line\n"
    "  --start-edge E      rising, falling or both (default rising)\n"
    "  --end-edge E        rising, falling or both (default rising)\n"
    "  --pair MODE         next: each start with the first end after it, before\n"
    "                      the next start (default); order: the k-th start with\n"
    "                      the k-th end, for an object that delivers in order and\n"
    "                      loses nothing while later sends start before earlier\n"
    "                      ends (the capture must hold as many of each)\n"
    "  --max-latency T     a start without an end within T is unpaired (default\n"
    "                      100ms; T takes s, ms, us or ns)\n"
    "  --glitch T          drop pulses shorter than T on both lines first (default\n"
    "                      0: none)\n"
    "  --from T, --to T    only the edges between T and T after the capture's first\n"
    "                      sample (default: all): one row of a run whose lines\n"
    "                      carry several, one after the other\n"
    "  --format F          auto (default), vcd, sigrok, saleae-csv, saleae-binary, csv\n"
    "  --sample-rate F     the instrument's rate in Hz (24M, 100k, 1e6): for files\n"
    "                      that do not say (Saleae CSV and binary format 0,\n"
    "                      an oscilloscope CSV without its time base)\n"
    "  --threshold V       an oscilloscope CSV's logic threshold, in its unit\n"
    "                      (default midway between a column's extremes)\n"
    "  --experiment ID     the row's experiment (default: the first experiment of\n"
    "                      the app's command line with --sdkconfig, else\n"
    "                      queue-latency)\n"
    "  --sdkconfig FILE    the ESP32 app's sdkconfig the board ran: its\n"
    "                      CONFIG_RTIPC_BENCH_ARGS names the experiment\n"
    "  --mechanism NAME    the row's mechanism (default kernel-queue)\n"
    "  --variant NAME      the row's variant (default cross-core)\n"
    "  --instrument TEXT   name the instrument (default: what the file says)\n"
    "  --tick-hz N         the board's tick rate, for env.tick_hz (default 1000)\n"
    "  --latencies FILE    also write each pair, one line each: its start and end\n"
    "                      sample and the latency in samples and in ns\n"
    "  -h, --help          this text\n"
    "      --version       the version of rtipc\n"
    "Options may come before or after the operands; '--' ends the options.\n"
    "\n"
    "Edges that cannot be paired are counted and reported by reason (an end with\n"
    "no start waiting, a start with no end in time, starts that overlap), never\n"
    "paired by a guess. Percentiles need 20 (p50), 1000 (p99) and 10000 (p99.9)\n"
    "pairs: a shorter capture has them absent, and the row says so.\n"
    "\n"
    "Exit status: 0 written, 1 OUT.json not written, 2 usage error or a capture\n"
    "that cannot be read or paired.\n";

/* "100ms", "2.5us", "40ns", "1s", "0.001" (seconds): seconds, or -1. */
static double parse_duration(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || !isfinite(v) || v < 0)
        return -1;
    static const struct {
        const char *unit;
        double s;
    } units[] = {{"", 1}, {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(end, units[i].unit))
            return v * units[i].s <= 86400 ? v * units[i].s : -1;
    return -1;
}

/* "24M", "24MHz", "100k", "1e6", "1G": Hz, or -1. */
static double parse_rate(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || !isfinite(v) || !(v > 0))
        return -1;
    double k = 1;
    if (*end == 'k')
        k = 1e3, end++;
    else if (*end == 'M')
        k = 1e6, end++;
    else if (*end == 'G')
        k = 1e9, end++;
    if (!strcmp(end, "Hz"))
        end += 2;
    return *end || v * k > 1e12 ? -1 : v * k;
}

typedef struct {
    const char *start, *end, *experiment, *mechanism, *variant, *instrument, *latencies, *sdkconfig;
    bool experiment_given;
    scope_edge_t start_edge, end_edge;
    scope_pairing_t pairing;
    double max_latency_s, glitch_s, from_s, to_s;
    unsigned long long tick_hz;
    scope_read_opts_t read;
} options_t;

static int parse_options(int argc, char **argv, options_t *o, int *status)
{
    enum {
        OPT_START = 0x100, OPT_END, OPT_START_EDGE, OPT_END_EDGE, OPT_PAIR, OPT_MAX, OPT_GLITCH, OPT_FORMAT,
        OPT_RATE, OPT_THRESHOLD, OPT_EXPERIMENT, OPT_MECHANISM, OPT_VARIANT, OPT_INSTRUMENT, OPT_TICK, OPT_LATENCIES, OPT_FROM, OPT_TO, OPT_SDKCONFIG
    };
    static const struct option longopts[] = {{"start", required_argument, 0, OPT_START},
                                             {"end", required_argument, 0, OPT_END},
                                             {"start-edge", required_argument, 0, OPT_START_EDGE},
                                             {"end-edge", required_argument, 0, OPT_END_EDGE},
                                             {"pair", required_argument, 0, OPT_PAIR},
                                             {"max-latency", required_argument, 0, OPT_MAX},
                                             {"glitch", required_argument, 0, OPT_GLITCH},
                                             {"format", required_argument, 0, OPT_FORMAT},
                                             {"sample-rate", required_argument, 0, OPT_RATE},
                                             {"threshold", required_argument, 0, OPT_THRESHOLD},
                                             {"experiment", required_argument, 0, OPT_EXPERIMENT},
                                             {"mechanism", required_argument, 0, OPT_MECHANISM},
                                             {"variant", required_argument, 0, OPT_VARIANT},
                                             {"instrument", required_argument, 0, OPT_INSTRUMENT},
                                             {"tick-hz", required_argument, 0, OPT_TICK},
                                             {"latencies", required_argument, 0, OPT_LATENCIES},
                                             {"from", required_argument, 0, OPT_FROM},
                                             {"to", required_argument, 0, OPT_TO},
                                             {"sdkconfig", required_argument, 0, OPT_SDKCONFIG},
                                             {"help", no_argument, 0, 'h'},
                                             {"version", no_argument, 0, BENCH_OPT_VERSION},
                                             {0, 0, 0, 0}};
    *o = (options_t){.experiment = BENCH_EXP_QUEUE_LATENCY, .mechanism = "kernel-queue", .variant = "cross-core",
                     .max_latency_s = 0.1, .to_s = INFINITY, .tick_hz = 1000, .read = {.threshold = NAN}};
    bench_optparse_t p;
    bench_optparse_init(&p, PROG, scope_usage, longopts);
    int c;
    while ((c = bench_optparse_next(&p, argc, argv)) >= 0) {
        switch (c) {
        case OPT_START: o->start = optarg; break;
        case OPT_END: o->end = optarg; break;
        case OPT_START_EDGE:
        case OPT_END_EDGE:
            if (scope_edge_parse(optarg, c == OPT_START_EDGE ? &o->start_edge : &o->end_edge) != 0)
                return *status = bench_usage_error(PROG, "%s '%s' is not rising, falling or both",
                                                   c == OPT_START_EDGE ? "--start-edge" : "--end-edge", optarg),
                       -1;
            break;
        case OPT_PAIR:
            if (strcmp(optarg, "next") != 0 && strcmp(optarg, "order") != 0)
                return *status = bench_usage_error(PROG, "--pair '%s' is not next or order", optarg), -1;
            o->pairing = !strcmp(optarg, "order") ? SCOPE_PAIR_ORDER : SCOPE_PAIR_NEXT;
            break;
        case OPT_MAX:
        case OPT_GLITCH:
        case OPT_FROM:
        case OPT_TO: {
            static const char *const names[] = {"--max-latency", "--glitch", "--from", "--to"};
            double d = parse_duration(optarg);
            if (d < 0 || (c == OPT_MAX && d == 0))
                return *status = bench_usage_error(PROG, "%s '%s' is not a duration (100ms, 2us, 40ns)%s",
                                                   names[c - OPT_MAX], optarg, c == OPT_MAX ? " above 0" : ""),
                       -1;
            *(c == OPT_MAX ? &o->max_latency_s : c == OPT_GLITCH ? &o->glitch_s : c == OPT_FROM ? &o->from_s : &o->to_s) = d;
            break;
        }
        case OPT_FORMAT:
            if (scope_format_parse(optarg, &o->read.format) != 0)
                return *status = bench_usage_error(PROG, "--format '%s' is not auto, vcd, sigrok, saleae-csv, "
                                                   "saleae-binary or csv", optarg),
                       -1;
            break;
        case OPT_RATE:
            if ((o->read.sample_rate = parse_rate(optarg)) < 0)
                return *status = bench_usage_error(PROG, "--sample-rate '%s' is not a rate in Hz (24M, 100k, 1e6)",
                                                   optarg),
                       -1;
            break;
        case OPT_THRESHOLD: {
            char *end;
            o->read.threshold = strtod(optarg, &end);
            if (end == optarg || *end || !isfinite(o->read.threshold))
                return *status = bench_usage_error(PROG, "--threshold '%s' is not a number", optarg), -1;
            break;
        }
        case OPT_EXPERIMENT:
            if (!bench_experiment_find(optarg))
                return *status = bench_usage_error(PROG, "--experiment '%s' is not an experiment (rtipc-bench "
                                                   "list)", optarg),
                       -1;
            o->experiment = optarg;
            o->experiment_given = true;
            break;
        case OPT_SDKCONFIG: o->sdkconfig = optarg; break;
        case OPT_MECHANISM:
        case OPT_VARIANT:
        case OPT_INSTRUMENT:
            if (!*optarg || strlen(optarg) > 95)
                return *status = bench_usage_error(PROG, "an empty or over-long name: '%.40s'", optarg), -1;
            *(c == OPT_MECHANISM ? &o->mechanism : c == OPT_VARIANT ? &o->variant : &o->instrument) = optarg;
            break;
        case OPT_TICK:
            if (bench_parse_uint(optarg, 1, 1000000, &o->tick_hz) != 0)
                return *status = bench_usage_error(PROG, "--tick-hz '%s' is not a rate from 1 to 1000000",
                                                   optarg),
                       -1;
            break;
        case OPT_LATENCIES: o->latencies = optarg; break;
        default: return *status = bench_usage_error(PROG, "%s", "unexpected option"), -1;
        }
    }
    if (c == BENCH_OPT_STOP)
        return *status = p.status, -1;
    if (o->to_s <= o->from_s)
        return *status = bench_usage_error(PROG, "%s", "--to must come after --from"), -1;
    if (!o->start || !o->end)
        return *status = bench_usage_error(PROG, "%s", "--start LINE and --end LINE name the two lines to pair"), -1;
    return 0;
}

/* The first experiment CONFIG_RTIPC_BENCH_ARGS names in the ESP32 app's
 * sdkconfig @p path: 0 with o->experiment set (kept in @p keep), 1 when it
 * names none (the app runs them all: the default stays), -1 with the reason
 * in @p err. */
static int experiment_of_sdkconfig(const char *path, options_t *o, char *keep, size_t keeplen, char *err,
                                   size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    static const char key[] = "CONFIG_RTIPC_BENCH_ARGS=\"";
    char line[1024];
    int rc = -1;
    snprintf(err, errlen, "%s has no CONFIG_RTIPC_BENCH_ARGS (not the sdkconfig of rtipc's ESP32 app?)", path);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, sizeof key - 1) != 0)
            continue;
        rc = 1;
        char *save = NULL;
        for (char *w = strtok_r(line + sizeof key - 1, " \"\n", &save); w; w = strtok_r(NULL, " \"\n", &save))
            if (bench_experiment_find(w)) {
                snprintf(keep, keeplen, "%s", w);
                o->experiment = keep;
                rc = 0;
                break;
            }
        break;
    }
    fclose(f);
    return rc;
}

/* The line @p spec names, or -1 after saying which lines there are. */
static int line_of(const scope_lines_t *c, const char *spec, const char *which)
{
    int k = scope_lines_find(c, spec);
    if (k >= 0)
        return k;
    char names[400] = "";
    for (size_t i = 0; i < c->n && strlen(names) < sizeof names - 40; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%zu=%s", i ? ", " : "", i,
                 c->lines[i].name);
    fprintf(stderr, "%s: no %s line '%s' in the capture; its lines: %s\n", PROG, which, spec, names);
    return -1;
}

/* A line at rest high whose rising edges were asked for has its pulses
 * upside down: say which edge leads them. */
static void idle_hint(const scope_lines_t *c, int line, scope_edge_t e, const char *opt, FILE *out)
{
    int idle = scope_lines_idle(c, line);
    if (e != SCOPE_EDGE_BOTH && idle == (e == SCOPE_EDGE_RISING))
        fprintf(out, "%s: warning: line %s rests %s, so its pulses are %s: %s %s reads their leading edges\n",
                PROG, c->lines[line].name, idle ? "high" : "low", idle ? "low" : "high", opt,
                idle ? "falling" : "rising");
}

static void fill_env(bench_env_t *e, const scope_lines_t *c, const options_t *o)
{
    memset(e, 0, sizeof *e);
    snprintf(e->target, sizeof e->target, "capture");
    snprintf(e->cpu_model, sizeof e->cpu_model, "the board under test (a capture says nothing of it)");
    snprintf(e->kernel, sizeof e->kernel, "unknown (read from a capture)");
    snprintf(e->hostname, sizeof e->hostname, "unknown");
    snprintf(e->sched_policy, sizeof e->sched_policy, "unknown (read from a capture)");
    snprintf(e->priorities, sizeof e->priorities, "unknown (read from a capture)");
    snprintf(e->compiler, sizeof e->compiler, "%s", BENCH_COMPILER);
    snprintf(e->cflags, sizeof e->cflags, "rtipc-bench scope, %s capture", c->format);
    snprintf(e->rtipc_version, sizeof e->rtipc_version, "%s", BENCH_RTIPC_VERSION);
    snprintf(e->git_commit, sizeof e->git_commit, "%s", BENCH_GIT_COMMIT);
    e->tick_hz = (uint32_t)o->tick_hz;
    e->cores_online = 0;
    e->cpu[0] = e->cpu[1] = -1;
    /* The instrument, cut to the field's 95 characters. */
    const char *instrument = o->instrument ? o->instrument : c->instrument;
    size_t n = strnlen(instrument, sizeof e->clock.name - 1);
    memcpy(e->clock.name, instrument, n);
    e->clock.name[n] = 0;
    e->clock.provenance = BENCH_CLOCK_LOGIC_ANALYZER;
    snprintf(e->clock.unit, sizeof e->clock.unit, "%s", bench_clock_provenance_unit(e->clock.provenance));
    e->clock.rate_hz = c->rate_hz;
    e->clock.resolution = 1e9 / c->rate_hz;
    e->stamp_resolution = 1e9 / c->rate_hz;
    e->memory = (bench_memory_t){BENCH_MEMORY_NONE, -1, -1};
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(e->started_utc, sizeof e->started_utc, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void summary(FILE *out, const scope_lines_t *c, const options_t *o, const scope_pairs_t *p,
                    const bench_result_t *row, size_t glitches)
{
    fprintf(out, "scope: %s capture (%s), %.6g samples/s%s: %zu start and %zu end edges, %zu pairs\n", c->format,
            o->instrument ? o->instrument : c->instrument, c->rate_hz,
            c->rate_known ? "" : " (not in the file: read to the nanosecond)", p->starts, p->ends, p->n);
    if (p->end_without_start || p->start_without_end || p->overlapped || glitches || c->gaps)
        fprintf(out,
                "  unpaired: %zu ends without a start, %zu starts without an end within %g s, %zu overlapping "
                "starts (%zu ends after them); %zu glitches dropped; %zu gaps in the data\n",
                p->end_without_start, p->start_without_end, o->max_latency_s, p->overlapped, p->end_after_overlap,
                glitches, c->gaps);
    if (row) {
        const bench_stats_t *s = &row->stats;
        const struct {
            const char *name;
            double ns;
        } fig[] = {{"min", s->min}, {"p50", s->p50}, {"p90", s->p90}, {"p99", s->p99}, {"p99.9", s->p999},
                   {"max", s->max}};
        fprintf(out, "  latency (us):");
        for (size_t i = 0; i < sizeof fig / sizeof fig[0]; i++)
            isnan(fig[i].ns) ? fprintf(out, "  %s -", fig[i].name) : fprintf(out, "  %s %.3f", fig[i].name, fig[i].ns / 1000);
        fprintf(out, "; resolution %.4g us\n", 1e6 / c->rate_hz);
    }
}

/* One line per pair: start sample, end sample, samples, ns. */
static int write_latencies(const char *path, const scope_lines_t *c, const scope_pairs_t *p, char *err,
                           size_t errlen)
{
    bench_outfile_t f;
    if (bench_outfile_open(&f, path, err, errlen) != 0)
        return -1;
    FILE *s = bench_outfile_stream(&f);
    fprintf(s, "# start_sample end_sample latency_samples latency_ns (%.9g samples/s)\n", c->rate_hz);
    for (size_t i = 0; i < p->n; i++) {
        fprintf(s, "%lld %lld %lld %.3f\n", (long long)p->start_at[i], (long long)(p->start_at[i] + p->latency[i]),
                (long long)p->latency[i], (double)p->latency[i] * 1e9 / c->rate_hz);
        if (i % 65536 == 65535)
            bench_outfile_drain(&f);
    }
    return bench_outfile_commit(&f, err, errlen);
}

int bench_scope_main(int argc, char **argv)
{
    options_t o;
    int status = 0;
    if (parse_options(argc, argv, &o, &status) != 0)
        return status;
    if (argc - optind != 2)
        return bench_usage_error(PROG, "%s", "scope wants a capture and an output file: scope CAPTURE OUT.json");
    const char *path = argv[optind], *out = argv[optind + 1];
    char experiment[64], err[600];
    if (o.sdkconfig && !o.experiment_given &&
        experiment_of_sdkconfig(o.sdkconfig, &o, experiment, sizeof experiment, err, sizeof err) < 0) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 2;
    }
    /* The summary keeps off standard output when an output takes it. */
    FILE *text = !strcmp(out, "-") || (o.latencies && !strcmp(o.latencies, "-")) ? stderr : stdout;
    if (strcmp(out, "-") != 0 && bench_same_file(path, out))
        return bench_usage_error(PROG, "OUT.json %s is the capture itself", out);
    if (o.latencies && (bench_same_file(o.latencies, out) || bench_same_file(o.latencies, path) ||
                        (!strcmp(o.latencies, "-") && !strcmp(out, "-"))))
        return bench_usage_error(PROG, "--latencies %s is the capture or OUT.json", o.latencies);
    if (bench_output_check(out, err, sizeof err) != 0 ||
        (o.latencies && bench_output_check(o.latencies, err, sizeof err) != 0)) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    scope_lines_t c;
    if (scope_read(path, &o.read, &c, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 2;
    }
    int start = line_of(&c, o.start, "start"), end = start < 0 ? -1 : line_of(&c, o.end, "end");
    if (start < 0 || end < 0) {
        scope_lines_free(&c);
        return 2;
    }
    if (start == end) {
        fprintf(stderr, "%s: --start and --end name one line (%s)\n", PROG, c.lines[start].name);
        scope_lines_free(&c);
        return 2;
    }
    int64_t glitch = (int64_t)llround(o.glitch_s * c.rate_hz);
    size_t glitches = scope_lines_deglitch(&c, start, glitch) + scope_lines_deglitch(&c, end, glitch);
    idle_hint(&c, start, o.start_edge, "--start-edge", stderr);
    idle_hint(&c, end, o.end_edge, "--end-edge", stderr);
    scope_pairs_t pairs;
    int64_t max = (int64_t)llround(o.max_latency_s * c.rate_hz);
    int64_t from = c.first + (int64_t)llround(o.from_s * c.rate_hz);
    int64_t to = isinf(o.to_s) ? INT64_MAX : c.first + (int64_t)llround(o.to_s * c.rate_hz);
    int rc = scope_pair(&c, start, o.start_edge, end, o.end_edge, max, from, to, o.pairing, &pairs, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "%s: %s\n", PROG, rc == -1 ? "out of memory" : err);
        scope_lines_free(&c);
        return 2;
    }
    if (pairs.n == 0) {
        fprintf(stderr,
                "%s: no pair: %zu %s edges on %s, %zu %s edges on %s (%zu ends without a start, %zu starts "
                "without an end within %g s, %zu overlapping)\n",
                PROG, pairs.starts, scope_edge_name(o.start_edge), c.lines[start].name, pairs.ends,
                scope_edge_name(o.end_edge), c.lines[end].name, pairs.end_without_start, pairs.start_without_end,
                o.max_latency_s, pairs.overlapped);
        scope_pairs_free(&pairs);
        scope_lines_free(&c);
        return 2;
    }
    /* The run that holds the row: the experiment's, on the capture's clock. */
    bench_run_t *run = calloc(1, sizeof *run);
    bench_samples_t s = {0};
    int result = 1;
    if (!run || bench_samples_init(&s, pairs.n) != 0) {
        fprintf(stderr, "%s: out of memory\n", PROG);
        goto done;
    }
    for (size_t i = 0; i < pairs.n; i++)
        (void)bench_samples_push(&s, (int64_t)llround((double)pairs.latency[i] * 1e9 / c.rate_hz));
    fill_env(&run->env, &c, &o);
    run->clock = bench_clock_provenance_name(BENCH_CLOCK_LOGIC_ANALYZER);
    const bench_experiment_t *exp = bench_experiment_find(o.experiment);
    bench_outcome_t *oc = &run->outcomes[run->n_outcomes++];
    oc->experiment = exp;
    run->current = exp;
    bench_result_t *row = bench_add_dist(run, o.mechanism, o.variant, BENCH_METRIC_LATENCY, &s);
    if (!row) {
        fprintf(stderr, "%s: out of memory\n", PROG);
        goto done;
    }
    bench_row_note(run, row,
                   "%s edge of %s to the %s edge of %s, read by rtipc-bench scope from a %s capture at %.6g "
                   "samples/s%s (resolution %.4g ns)",
                   scope_edge_name(o.start_edge), c.lines[start].name, scope_edge_name(o.end_edge), c.lines[end].name,
                   c.format, c.rate_hz, c.rate_known ? "" : ", a rate the file does not give", 1e9 / c.rate_hz);
    (void)bench_add_value(run, o.mechanism, o.variant, "unpaired-ends", "count", (double)pairs.end_without_start);
    (void)bench_add_value(run, o.mechanism, o.variant, "unpaired-starts", "count",
                          (double)pairs.start_without_end);
    (void)bench_add_value(run, o.mechanism, o.variant, "overlapping-starts", "count", (double)pairs.overlapped);
    bench_note(run, "From a capture (%s): %zu pairs of %zu start and %zu end edges; %zu ends without a start, %zu "
                    "starts without an end within %g s, %zu overlapping starts; %zu glitches shorter than %g s "
                    "dropped.",
               path, pairs.n, pairs.starts, pairs.ends, pairs.end_without_start, pairs.start_without_end,
               o.max_latency_s, pairs.overlapped, glitches, o.glitch_s);
    if (pairs.n < bench_samples_needed(0.999))
        bench_note(run, " %zu pairs: p99.9 needs %zu%s, so %s absent (not padded).", pairs.n,
                   bench_samples_needed(0.999), pairs.n < bench_samples_needed(0.99) ? ", p99 1000" : "",
                   pairs.n < bench_samples_needed(0.5)    ? "every percentile is"
                   : pairs.n < bench_samples_needed(0.99) ? "p99 and p99.9 are"
                                                          : "p99.9 is");
    oc->notes = run->notes; /* one experiment: the run's buffer lasts as long as the run */
    run->current = NULL;
    bench_audit_claims(run);
    if (bench_write_json(run, out, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        goto done;
    }
    if (o.latencies && write_latencies(o.latencies, &c, &pairs, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        goto done;
    }
    summary(text, &c, &o, &pairs, row, glitches);
    result = 0;
done:
    if (run) {
        bench_free_rows(run);
        free(run);
    }
    bench_samples_free(&s);
    scope_pairs_free(&pairs);
    scope_lines_free(&c);
    return result;
}
