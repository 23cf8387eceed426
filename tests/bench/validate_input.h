/* The common start of the bench output validators (validate_*.c): read the
 * file named on the command line and, for the JSON ones, parse it. A file
 * that cannot be read or parsed ends the program with a message. */
#ifndef RTIPC_TESTS_VALIDATE_INPUT_H
#define RTIPC_TESTS_VALIDATE_INPUT_H

#include <stdio.h>
#include <stdlib.h>

#include "../../bench/harness/util.h"

/* The text of @p path (to free), or exit 2: "@p prog: cannot read @p path". */
static inline char *validate_read(const char *prog, const char *path)
{
    char *text = bench_read_file(path);
    if (!text) {
        fprintf(stderr, "%s: cannot read %s\n", prog, path);
        exit(2);
    }
    return text;
}

#ifdef cJSON__h
/* @p path parsed as JSON (to cJSON_Delete), or exit 2 when it cannot be read
 * and @p not_json when it is not JSON: "@p prog: @p path is not JSON". */
static inline cJSON *validate_read_json(const char *prog, const char *path, int not_json)
{
    char *text = validate_read(prog, path);
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!root) {
        fprintf(stderr, "%s: %s is not JSON\n", prog, path);
        exit(not_json);
    }
    return root;
}
#endif

#endif
