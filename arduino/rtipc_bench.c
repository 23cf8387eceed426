/* rtipc_bench_run (rtipc_bench.h): a command line split into the argv that
 * rtipc-bench's own command line takes (bench/cli.h), as the ESP-IDF app
 * splits CONFIG_RTIPC_BENCH_ARGS. */
#include "rtipc_bench.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "freertos/FreeRTOS.h"
#include "freertos/task.h"

#include "cli.h"

/* The line and its words stay in static storage: bench_cli runs one
 * command at a time, and its argv must outlive the call. */
static char line[RTIPC_BENCH_LINE_MAX + 1];
static char *words[RTIPC_BENCH_WORDS_MAX + 2];
static char program[] = "rtipc-bench";
static bool running;
static portMUX_TYPE running_lock = portMUX_INITIALIZER_UNLOCKED;

static bool claim(void)
{
    bool was;
    taskENTER_CRITICAL(&running_lock);
    was = running;
    running = true;
    taskEXIT_CRITICAL(&running_lock);
    return !was;
}

static void release(void)
{
    taskENTER_CRITICAL(&running_lock);
    running = false;
    taskEXIT_CRITICAL(&running_lock);
}

/* Split `line` in place at blanks into words[1..]; words[0] is the program
 * name. Returns the number of words, or -1 when there are too many. */
static int split(void)
{
    int n = 0;
    char *save = NULL;
    words[n++] = program;
    for (char *w = strtok_r(line, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
        if (n > RTIPC_BENCH_WORDS_MAX)
            return -1;
        words[n++] = w;
    }
    words[n] = NULL;
    return n;
}

int rtipc_bench_run(const char *command_line)
{
    if (!command_line) {
        printf("rtipc-bench: no command line\n");
        return 2;
    }
    if (strlen(command_line) > RTIPC_BENCH_LINE_MAX) {
        printf("rtipc-bench: the command line is longer than %d characters\n", RTIPC_BENCH_LINE_MAX);
        return 2;
    }
    if (!claim()) {
        printf("rtipc-bench: another run is in progress\n");
        return 2;
    }
    snprintf(line, sizeof line, "%s", command_line);
    int argc = split();
    int status;
    if (argc < 0) {
        printf("rtipc-bench: the command line has more than %d words\n", RTIPC_BENCH_WORDS_MAX);
        status = 2;
    } else {
        status = bench_cli(argc, words);
    }
    fflush(stdout);
    release();
    return status;
}
