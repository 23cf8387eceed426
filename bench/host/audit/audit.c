/* rtipc-bench audit (audit.h): the rows of a results file, loaded and
 * checked by the reader every command shares (results/read.h), back into a
 * bench_run_t, then bench_audit_claims on it. The interval of the median is
 * the file's p50_ci95, or the reader's bootstrap from the histogram. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness/args.h"
#include "../../harness/run.h"
#include "../../results/outfile.h"
#include "../../results/read.h"
#include "audit.h"

#define PROG "rtipc-bench audit"

static const char audit_usage[] =
    "usage: rtipc-bench audit FILE.json [--json OUT.json]\n"
    "\n"
    "Audits the nine claims of a results file in the rtipc-bench/1 schema, made on\n"
    "any target (this host, the bare-metal Cortex-M3 suite, the ESP-IDF suite, the\n"
    "FreeRTOS POSIX simulator), with the rules `rtipc-bench run` applies, and prints\n"
    "the audit as `run` does. Figures in the evidence keep the rows' unit: us for\n"
    "rows in ns, instructions for rows in instr.\n"
    "\n"
    "A figure that is null, missing or not finite never makes a verdict: a claim\n"
    "that needs it is not-testable. FILE.json is read and checked as compare and\n"
    "report read it (docs/json-schema.md, \"Reading results files\"). FILE.json '-'\n"
    "is standard input; OUT.json '-' is standard output, and the audit's text then\n"
    "goes to stderr.\n"
    "\n"
    "  --json OUT.json    write FILE.json back to OUT.json with its \"claims\"\n"
    "                     replaced by the new verdicts (everything else as read);\n"
    "                     written whole or not at all, and never FILE.json itself\n"
    "  --timeout S        wait at most S seconds for a FIFO, socket or device\n"
    "                     named as FILE.json to have something to read, 0 to\n"
    "                     86400, 0 = for ever (default 30)\n"
    "  -h, --help         this text\n"
    "      --version      the version of rtipc\n"
    "Options may come before or after the file; '--' ends the options.\n"
    "\n"
    "Exit status: 0 audited, 1 OUT.json could not be written, 2 usage error or an\n"
    "unreadable or invalid file.\n";

/* One row of the model into run->results (appended), its names kept in the
 * run's pool; skipped with a warning when memory runs out. */
static void add_row(const char *path, const bench_row_t *r, bench_run_t *run)
{
    bench_result_t *row = run->results[run->n_results];
    memset(row, 0, sizeof *row);
    const char *names[] = {r->experiment, r->mechanism, r->variant, r->metric, r->unit};
    const char **fields[] = {&row->experiment, &row->mechanism, &row->variant, &row->metric, &row->unit};
    for (size_t k = 0; k < 5; k++) {
        if (!(*fields[k] = bench_strpool_get(&run->names, names[k]))) {
            fprintf(stderr, "%s: warning: %s: results[%zu]: no memory for its names; row not audited\n", PROG,
                    path, r->index);
            return;
        }
    }
    /* The clock that measured it: claims refuse some clocks (an emulator's
     * cannot show where memory sits). */
    const char *clock = bench_strpool_get(&run->names, r->clock ? r->clock : "");
    row->clock = clock ? clock : "";
    if (r->note[0] && bench_result_note(row, "%s", r->note) != 0)
        fprintf(stderr, "%s: warning: %s: results[%zu]: no memory for its note\n", PROG, path, r->index);
    switch (r->kind) {
    case BENCH_ROW_MISSING: row->kind = BENCH_MISSING; break;
    case BENCH_ROW_VALUE:
        row->kind = BENCH_VALUE;
        row->value = r->value;
        break;
    case BENCH_ROW_DIST: {
        row->kind = BENCH_DIST;
        bench_stats_t *st = &row->stats;
        st->n = r->n > SIZE_MAX ? SIZE_MAX : (size_t)r->n;
        st->min = r->min;
        st->mean = r->mean;
        st->p50 = r->p50;
        st->p90 = r->p90;
        st->p99 = r->p99;
        st->p999 = r->p999;
        st->max = r->max;
        st->stddev = r->stddev;
        st->p50_lo = r->ci_lo;  /* NAN without an interval: no claim rests on it */
        st->p50_hi = r->ci_hi;
        break;
    }
    }
    run->n_results++;
}

/* The model's rows into run (the first of each repeated key: the one the
 * claims' lookups would find anyway). 0, or -1 when memory runs out. */
static int load_run(const char *path, const bench_results_t *res, bench_run_t *run)
{
    run->env.tick_hz = res->tick_hz;
    run->results = calloc(res->n_rows ? res->n_rows : 1, sizeof *run->results);
    if (!run->results)
        return -1;
    run->cap_results = res->n_rows;
    for (size_t i = 0; i < res->n_rows; i++)
        if (!(run->results[i] = malloc(sizeof *run->results[i])))
            return -1;
    for (size_t i = 0; i < res->n_rows; i++)
        if (res->rows[i].dup_of == SIZE_MAX)
            add_row(path, &res->rows[i], run);
    return 0;
}

/* The file with its claims replaced by run's, written to path (whole or
 * not at all). 0, or -1 after a line on stderr. */
/* The claims array as cJSON: audit rewrites it inside the tree it read, so
 * that every other member stays as it was (results/document.c writes the
 * same members in every other case). */
static cJSON *claims_json(const bench_run_t *run)
{
    cJSON *claims = cJSON_CreateArray();
    for (int i = 0; i < BENCH_CLAIMS; i++) {
        const bench_claim_t *c = &run->claims[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "id", c->id);
        cJSON_AddStringToObject(o, "claim", c->claim);
        cJSON_AddStringToObject(o, "verdict", bench_verdict_name(c->verdict));
        cJSON_AddStringToObject(o, "rule", c->rule);
        cJSON_AddStringToObject(o, "evidence", c->evidence);
        cJSON_AddItemToArray(claims, o);
    }
    return claims;
}

static int write_audited(cJSON *root, const bench_run_t *run, const char *path)
{
    cJSON *claims = claims_json(run);
    bool ok = claims && (cJSON_GetObjectItemCaseSensitive(root, "claims")
                             ? cJSON_ReplaceItemInObjectCaseSensitive(root, "claims", claims)
                             : cJSON_AddItemToObject(root, "claims", claims));
    char *text = ok ? cJSON_Print(root) : NULL;
    if (!ok)
        cJSON_Delete(claims);
    char err[600];
    int rc = -1;
    if (!text) {
        snprintf(err, sizeof err, "cannot write %s: %s", path, strerror(ENOMEM));
    } else {
        size_t len = strlen(text);
        text[len] = '\n';  /* over the terminator: the text is written by length */
        rc = bench_outfile_write_text(path, text, len + 1, err, sizeof err);
    }
    free(text);
    if (rc != 0)
        fprintf(stderr, "%s: %s\n", PROG, err);
    return rc;
}

int bench_audit_main(int argc, char **argv)
{
    const char *out = NULL;
    double wait_s = BENCH_RESULTS_WAIT_S;
    static const struct option longopts[] = {{"json", required_argument, 0, 'j'},
                                             {"timeout", required_argument, 0, 't'},
                                             {"help", no_argument, 0, 'h'},
                                             {"version", no_argument, 0, BENCH_OPT_VERSION},
                                             {0, 0, 0, 0}};
    bench_optparse_t p;
    bench_optparse_init(&p, PROG, audit_usage, longopts);
    int c;
    while ((c = bench_optparse_next(&p, argc, argv)) >= 0) {
        if (c == 't' && bench_parse_real(optarg, 0, 86400, &wait_s) != 0)
            return bench_usage_error(PROG, "--timeout '%s' is not a number of seconds from 0 to 86400", optarg);
        if (c == 'j' && !*optarg)
            return bench_usage_error(PROG, "%s", "--json wants an output file");
        if (c == 'j')
            out = optarg;
    }
    if (c == BENCH_OPT_STOP)
        return p.status;
    if (argc - optind != 1)
        return bench_usage_error(PROG, "%s", argc - optind ? "audit wants one results file"
                                                            : "audit wants a results file: audit FILE.json [--json OUT.json]");
    const char *in = argv[optind];
    char err[600];
    if (out && bench_same_file(in, out))
        return bench_usage_error(PROG, "--json %s would overwrite the results file it audits", out);
    if (out && bench_output_check(out, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }

    static bench_run_t run;
    memset(&run, 0, sizeof run);
    bench_results_t res;
    int status = 2;
    if (bench_results_load_waiting(&res, in, wait_s, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s: %s\n", PROG, in, err);
    } else if (load_run(in, &res, &run) != 0) {
        fprintf(stderr, "%s: %s: out of memory\n", PROG, in);
        status = 1;
    } else {
        bench_results_warn(&res, stderr, PROG, in);
        bench_audit_claims(&run);
        /* --json - takes standard output: the audit's text goes to stderr. */
        FILE *text = out && !strcmp(out, "-") ? stderr : stdout;
        fprintf(text, "claim audit of %s: %zu result rows, tick %u Hz\n", strcmp(in, "-") ? in : "standard input",
                run.n_results, run.env.tick_hz);
        bench_print_claims(text, &run);
        status = out && write_audited(res.root, &run, out) != 0 ? 1 : 0;
    }
    bench_results_free(&res);
    bench_free_rows(&run);
    return status;
}
