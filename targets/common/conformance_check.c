/* Conformance suite with its expected lines compared on the target
 * (conformance_check.h). */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "conformance.h"
#include "conformance_check.h"

static const char *next_expected;
static const char *const *known_deviations;
static unsigned compared, differing, accepted;

/* Whether @p line is a listed deviation for the same key as @p want. */
static bool is_known_deviation(const char *line, const char *want)
{
    const char *colon = strchr(want, ':');
    if (!known_deviations || !colon)
        return false;
    size_t key = (size_t)(colon - want) + 1;
    if (strncmp(line, want, key) != 0)
        return false;
    for (const char *const *d = known_deviations; *d; d++)
        if (strcmp(*d, line) == 0)
            return true;
    return false;
}

/* The next expected line that is not commentary, copied into @p buf;
 * false at the end. */
static bool expected_line(char *buf, size_t cap)
{
    while (*next_expected) {
        const char *eol = strchr(next_expected, '\n');
        size_t n = eol ? (size_t)(eol - next_expected) : strlen(next_expected);
        const char *line = next_expected;
        next_expected += eol ? n + 1 : n;
        if (*line == '#')
            continue;
        if (n >= cap)
            n = cap - 1;
        memcpy(buf, line, n);
        buf[n] = '\0';
        return true;
    }
    return false;
}

static void emit(const char *line, void *ctx)
{
    (void)ctx;
    printf("%s\n", line);
    if (*line == '#')
        return;
    static char want[512];
    compared++;
    if (!expected_line(want, sizeof want)) {
        differing++;
        printf("! extra line: not in expected.txt\n");
    } else if (strcmp(want, line) != 0) {
        if (is_known_deviation(line, want)) {
            accepted++;
            printf("~ a documented deviation of this kernel or build; expected.txt: %s\n", want);
        } else {
            differing++;
            printf("! expected:   %s\n", want);
        }
    }
}

int rtipc_conformance_check(const char *expected, const char *const *deviations)
{
    next_expected = expected;
    known_deviations = deviations;
    int failed = rtipc_conformance_run(emit, NULL);
    static char rest[512];
    unsigned missing = 0;
    while (expected_line(rest, sizeof rest))
        missing++;
    printf("conformance: suite returned %d; %u lines compared, %u differ, %u documented deviations, "
           "%u expected lines missing\n",
           failed, compared, differing, accepted, missing);
    /* Each accepted deviation is also one of the suite's failures. */
    return failed == (int)accepted && differing == 0 && missing == 0 ? 0 : 1;
}
