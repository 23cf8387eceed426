/* The file commands and outputs of rtipc-bench on a target without files
 * (cli_outputs.h): a firmware prints its JSON on the console, and the host
 * reads it there (compare, report, audit); the options that write other
 * files are refused before the run. */
#include <stdio.h>
#include <string.h>

#include "cli_outputs.h"
#include "harness/args.h"
#include "target/target.h"

bool bench_cli_file_command(const char *cmd, int argc, char **argv, int *status)
{
    (void)argc, (void)argv;
    if (strcmp(cmd, "compare") != 0 && strcmp(cmd, "report") != 0 && strcmp(cmd, "audit") != 0 &&
        strcmp(cmd, "capture") != 0 && strcmp(cmd, "scope") != 0)
        return false;
    *status = bench_usage_error("rtipc-bench", "%s reads results files, which this target (%s) does not have: "
                                "run it on the host on the JSON this target prints",
                                cmd, bench_target_name());
    return true;
}

int bench_cli_outputs_prepare(const bench_cli_outputs_t *o)
{
    const char *opt = o->csv ? "--csv" : o->report ? "--report" : o->vcd ? "--vcd" : o->perfetto ? "--perfetto" : NULL;
    if (opt)
        return bench_usage_error("rtipc-bench", "%s writes a file, which this target (%s) cannot: --json prints "
                                 "the results on the console", opt, bench_target_name());
    return 0;
}

int bench_cli_outputs_write(bench_run_t *run, const bench_cli_outputs_t *o)
{
    char err[200];
    if (o->json && bench_print_json_console(run, err, sizeof err) != 0) {
        fprintf(stderr, "rtipc-bench: %s\n", err);
        return 1;
    }
    return 0;
}
