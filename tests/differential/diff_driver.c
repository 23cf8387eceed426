/*
 * The command line of both differential runners: reads the scenario files,
 * runs each scenario in a child process of its own (a scenario that hangs
 * or crashes cannot disturb the next one) and prints the lines the child
 * left in shared memory. POSIX: fork, mmap, waitpid.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diff.h"

#ifndef DIFF_SCENARIO_DIR
#error "DIFF_SCENARIO_DIR (the default scenario directory) must be defined by the build"
#endif
#ifndef DIFF_VERSION
#define DIFF_VERSION "unknown"
#endif

static void usage(FILE *to, const char *prog)
{
    fprintf(to,
            "Usage: %s [OPTION]... [FILE|DIR]...\n"
            "Run the differential suite's scenarios (every *.scn file of the directories and\n"
            "files given; default %s) on %s, and print one line per step.\n"
            "\n"
            "  -l, --list            list the scenarios (name, file:line) and exit\n"
            "  -s, --scenario NAME   run only NAME (repeatable; shell patterns such as 'mutex.*')\n"
            "  -o, --output FILE     write the lines to FILE (complete or not at all) instead of stdout\n"
            "      --tick-hz HZ      ticks per second of the scenario clock (default %u)\n"
            "  -h, --help            this help\n"
            "  -V, --version         the version\n"
            "\n"
            "Exit status: 0 every scenario ran to its end, 1 a scenario crashed or hung\n"
            "or a file could not be read or written, 2 usage error, 77 this runner cannot\n"
            "run meaningfully here (the reason is printed).\n",
            prog, DIFF_SCENARIO_DIR, diff_runner_name, DIFF_TICK_HZ_DEFAULT);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Parse one operand: a file, or every *.scn file of a directory in name order. */
static int load(const char *path, diff_suite_t *suite)
{
    char err[512];
    struct stat sb;
    if (stat(path, &sb) != 0) {
        fprintf(stderr, "%s: %s: %s\n", diff_runner_name, path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(sb.st_mode)) {
        if (diff_parse_file(path, suite, err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s\n", diff_runner_name, err);
            return -1;
        }
        return 0;
    }
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "%s: %s: %s\n", diff_runner_name, path, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".scn") != 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn) {
                rc = -1;
                break;
            }
            names = nn;
        }
        size_t plen = strlen(path) + 1 + len + 1;
        names[n] = malloc(plen);
        if (!names[n]) {
            rc = -1;
            break;
        }
        snprintf(names[n], plen, "%s/%s", path, e->d_name);
        ++n;
    }
    closedir(d);
    if (rc == 0)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; ++i) {
        if (rc == 0 && diff_parse_file(names[i], suite, err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s\n", diff_runner_name, err);
            rc = -1;
        }
        free(names[i]);
    }
    free(names);
    if (rc == 0 && n == 0) {
        fprintf(stderr, "%s: %s: no *.scn file\n", diff_runner_name, path);
        rc = -1;
    }
    return rc;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run one scenario in a child process; the lines stay in @p log. Sets
 * *killed when the child had to be killed. -1 when no child could start. */
static int run_child(const diff_scenario_t *sc, diff_log_t *log, unsigned hz, double limit, int *status,
                     bool *killed)
{
    memset(log, 0, sizeof *log);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "%s: fork: %s\n", diff_runner_name, strerror(errno));
        return -1;
    }
    if (pid == 0)
        _exit(diff_backend_run(sc, log, hz));
    double deadline = now_s() + limit;
    *killed = false;
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid)
            return 0;
        if (r < 0 && errno != EINTR) {
            fprintf(stderr, "%s: waitpid: %s\n", diff_runner_name, strerror(errno));
            return -1;
        }
        if (!*killed && now_s() > deadline) {
            kill(pid, SIGKILL);
            *killed = true;
        }
        sleep_ms(5);
    }
}

/* A run the backend found disturbed (its core taken by another process for
 * a noticeable time) says nothing about the scenario: it is run again. */
#define DIFF_ATTEMPTS 5

/* Run one scenario; print its lines. 0 ran to its end, 1 not, 77 the runner
 * cannot run here. */
static int run_one(const diff_scenario_t *sc, diff_log_t *log, unsigned hz, FILE *out)
{
    /* The scenario's own length, three times over, plus time to start:
     * a loaded host slows the simulator's clock, never speeds it up. */
    double limit = (double)sc->ticks / (double)hz * 3.0 + 20.0;
    int status = 0;
    bool killed = false;
    int attempt;
    for (attempt = 1; attempt <= DIFF_ATTEMPTS; ++attempt) {
        if (run_child(sc, log, hz, limit, &status, &killed) != 0)
            return 1;
        if (killed || !atomic_load(&log->disturbed))
            break;
        fprintf(out, "# %s: attempt %d disturbed (%s)\n", sc->name, attempt, log->disturbed_reason);
    }
    if (atomic_load(&log->skip)) {
        fprintf(stderr, "%s: skipped: %s\n", diff_runner_name, log->skip_reason);
        return 77;
    }
    fprintf(out, "== %s\n", sc->name);
    unsigned n = atomic_load_explicit(&log->next, memory_order_relaxed);
    unsigned shown = n < DIFF_LOG_MAX ? n : DIFF_LOG_MAX;
    for (unsigned i = 0; i < shown; ++i) {
        /* acquire: the line's text (the child has ended) */
        if (atomic_load_explicit(&log->ready[i], memory_order_acquire))
            fprintf(out, "%s\n", log->lines[i]);
        else
            fprintf(out, "!! line %u was not finished\n", i + 1);
    }
    int rc = 0;
    if (n > DIFF_LOG_MAX) {
        fprintf(out, "!! %u lines lost: more than %d in one scenario\n", n - DIFF_LOG_MAX, DIFF_LOG_MAX);
        rc = 1;
    }
    if (killed) {
        fprintf(out, "!! the scenario did not end within %.0f s and was killed\n", limit);
        rc = 1;
    } else if (WIFSIGNALED(status)) {
        fprintf(out, "!! the scenario's process died of signal %d\n", WTERMSIG(status));
        rc = 1;
    } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        fprintf(out, "!! the scenario's process exited with status %d\n", WEXITSTATUS(status));
        rc = 1;
    } else if (!atomic_load_explicit(&log->complete, memory_order_acquire)) {
        fprintf(out, "!! the scenario ended without its end report\n");
        rc = 1;
    } else if (attempt > DIFF_ATTEMPTS) {
        fprintf(out, "!! disturbed in all %d attempts; the lines above are the last attempt's\n", DIFF_ATTEMPTS);
        rc = 1;
    }
    return rc;
}

int main(int argc, char **argv)
{
    enum { OPT_TICK_HZ = 256 };
    static const struct option longopts[] = {
        {"list", no_argument, NULL, 'l'},         {"scenario", required_argument, NULL, 's'},
        {"output", required_argument, NULL, 'o'}, {"tick-hz", required_argument, NULL, OPT_TICK_HZ},
        {"help", no_argument, NULL, 'h'},         {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    const char *prog = argv[0];
    bool list = false;
    const char *output = NULL;
    unsigned hz = DIFF_TICK_HZ_DEFAULT;
    char **patterns = calloc((size_t)argc, sizeof *patterns);
    int npatterns = 0;
    if (!patterns)
        return 1;
    int c;
    while ((c = getopt_long(argc, argv, "ls:o:hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'l':
            list = true;
            break;
        case 's':
            patterns[npatterns++] = optarg;
            break;
        case 'o':
            output = optarg;
            break;
        case OPT_TICK_HZ: {
            char *end;
            errno = 0;
            unsigned long v = strtoul(optarg, &end, 10);
            if (errno || *end || optarg[0] == '-' || v < 10 || v > 1000) {
                fprintf(stderr, "%s: --tick-hz: '%s' is not a rate from 10 to 1000\n", prog, optarg);
                return 2;
            }
            hz = (unsigned)v;
            break;
        }
        case 'h':
            usage(stdout, prog);
            return 0;
        case 'V':
            printf("%s (rtipc differential suite) %s\n", diff_runner_name, DIFF_VERSION);
            return 0;
        default:
            usage(stderr, prog);
            return 2;
        }
    }
    diff_suite_t suite = {0};
    if (optind == argc) {
        if (load(DIFF_SCENARIO_DIR, &suite) != 0)
            return 1;
    }
    for (int i = optind; i < argc; ++i)
        if (load(argv[i], &suite) != 0)
            return 1;

    bool *selected = calloc((size_t)suite.count + 1, sizeof *selected);
    if (!selected)
        return 1;
    int nsel = 0;
    for (int i = 0; i < suite.count; ++i) {
        selected[i] = npatterns == 0;
        for (int p = 0; p < npatterns; ++p)
            if (fnmatch(patterns[p], suite.items[i].name, 0) == 0)
                selected[i] = true;
        nsel += selected[i];
    }
    for (int p = 0; p < npatterns; ++p) {
        bool any = false;
        for (int i = 0; i < suite.count; ++i)
            any = any || fnmatch(patterns[p], suite.items[i].name, 0) == 0;
        if (!any) {
            fprintf(stderr, "%s: no scenario matches '%s' (--list shows them)\n", prog, patterns[p]);
            return 2;
        }
    }
    if (list) {
        for (int i = 0; i < suite.count; ++i)
            if (selected[i])
                printf("%s\t%s:%d\n", suite.items[i].name, suite.items[i].file, suite.items[i].line);
        return 0;
    }

    char tmp[4096] = "";
    FILE *out = stdout;
    if (output) {
        if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", output, (long)getpid()) >= (int)sizeof tmp) {
            fprintf(stderr, "%s: %s: name too long\n", prog, output);
            return 1;
        }
        out = fopen(tmp, "w");
        if (!out) {
            fprintf(stderr, "%s: %s: %s\n", prog, tmp, strerror(errno));
            return 1;
        }
    }
    diff_log_t *log = mmap(NULL, sizeof *log, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (log == MAP_FAILED) {
        fprintf(stderr, "%s: mmap: %s\n", prog, strerror(errno));
        return 1;
    }
    fprintf(out, "# %s: %d scenarios, tick %u Hz\n", diff_backend_describe(), nsel, hz);
    int failed = 0, status = 0;
    for (int i = 0; i < suite.count && status != 77; ++i) {
        if (!selected[i])
            continue;
        int rc = run_one(&suite.items[i], log, hz, out);
        if (rc == 77)
            status = 77;
        else if (rc != 0)
            ++failed;
    }
    if (status != 77 && failed)
        fprintf(stderr, "%s: %d of %d scenarios did not run to their end\n", prog, failed, nsel);
    if (out != stdout) {
        bool bad = ferror(out) != 0;
        bad = (fclose(out) != 0) || bad;
        if (status == 77 || bad) {
            if (bad)
                fprintf(stderr, "%s: writing %s failed: %s\n", prog, tmp, strerror(errno));
            remove(tmp);
            return status == 77 ? 77 : 1;
        }
        if (rename(tmp, output) != 0) {
            fprintf(stderr, "%s: rename %s to %s: %s\n", prog, tmp, output, strerror(errno));
            remove(tmp);
            return 1;
        }
    } else if (fflush(stdout) != 0) {
        return 1;
    }
    munmap(log, sizeof *log);
    diff_suite_free(&suite);
    free(selected);
    free(patterns);
    if (status == 77)
        return 77;
    return failed ? 1 : 0;
}
