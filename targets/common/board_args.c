#include "board_args.h"

#include <stdio.h>
#include <string.h>

static int split(char *text, char **argv, int argc, int max_args)
{
    for (char *tok = strtok(text, " \t\n"); tok && argc < max_args; tok = strtok(NULL, " \t\n"))
        argv[argc++] = tok;
    return argc;
}

int board_args_split(const char *line, bool names_program, const char *program, const char *defaults, char **argv,
                     int max_args)
{
    static char buf[512];
    int argc = 1;
    if (max_args < 1)
        return 0;
    if (line) {
        snprintf(buf, sizeof buf, "%s%s", names_program ? "" : "program ", line);
        argc = split(buf, argv, 0, max_args);
    }
    if (argc <= 1) {
        snprintf(buf, sizeof buf, "program %s", defaults ? defaults : "");
        argc = split(buf, argv, 0, max_args);
    }
    argv[0] = (char *)program;
    argv[argc] = NULL;
    return argc;
}
