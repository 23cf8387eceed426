/* Runs the conformance suite on the Linux port: the suite runs in an rtipc
 * task pinned to core 0, and every line goes to stdout. Exit status 0 when
 * every check passed, 1 otherwise, 2 when the runner task could not start.
 * Option --skip-ordered: leave out the scenarios that need preemptive
 * priority scheduling (they are skipped anyway under SCHED_OTHER). */
#include <stdio.h>
#include <string.h>

#include "rtipc/rtipc.h"

#include "conformance.h"

typedef struct {
    unsigned flags;
    int failed;
} run_t;

static void emit_stdout(const char *line, void *ctx)
{
    (void)ctx;
    fputs(line, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

static void runner(void *arg)
{
    run_t *r = arg;
    r->failed = rtipc_conformance_run_flags(emit_stdout, NULL, r->flags);
}

int main(int argc, char **argv)
{
    run_t r = {0, -1};
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--skip-ordered") == 0) {
            r.flags |= RTIPC_CONF_SKIP_ORDERED;
        } else {
            fprintf(stderr, "usage: %s [--skip-ordered]\n", argv[0]);
            return 2;
        }
    }
    rtipc_task_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.name = "conformance";
    cfg.priority = RTIPC_CONF_PRIO_RUNNER;
    cfg.core = RTIPC_CONF_CORE;
    cfg.stack_size = 64 * 1024;
    cfg.entry = runner;
    cfg.arg = &r;
    rtipc_task_t *t;
    int rc = rtipc_task_create(&cfg, &t);
    if (rc != RTIPC_OK) {
        fprintf(stderr, "conformance: cannot start the runner task: %s\n", rtipc_strerror(rc));
        return 2;
    }
    rc = rtipc_task_join(t);
    if (rc != RTIPC_OK) {
        fprintf(stderr, "conformance: join failed: %s\n", rtipc_strerror(rc));
        return 2;
    }
    return r.failed == 0 ? 0 : 1;
}
