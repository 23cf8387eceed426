/* Checks a Value Change Dump (IEEE 1364-2005, section 18) the way a strict
 * reader would: header sections closed by $end, a legal $timescale, balanced
 * scopes with legal names, variables of legal type and width with unique
 * identifier codes, $enddefinitions, every variable given a value in
 * $dumpvars, time stamps strictly increasing, and every value change naming a
 * declared variable with a value legal for its type and width.
 *
 *   validate_vcd FILE [--list]
 *
 * --list prints "scope.path.name changes" per variable (changes after
 * $dumpvars). Exit 0 when valid, 1 with the reasons, 2 on a usage error. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/harness/util.h"
#include "validate_input.h"

typedef struct {
    char *id;
    char path[256];
    int width;
    bool real;          /* a real: values are "r<number>" */
    bool initialised;   /* given a value in $dumpvars */
    long changes;       /* after $dumpvars */
} var_t;

static var_t *vars;
static size_t n_vars, cap_vars;
static int errors;

static void bad(const char *what, const char *detail)
{
    if (errors++ < 20)
        fprintf(stderr, "validate_vcd: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
}

/* Tokens are separated by white space (the standard's lexical rule). */
static char *cursor;
static char *next_token(void)
{
    while (*cursor && isspace((unsigned char)*cursor))
        cursor++;
    if (!*cursor)
        return NULL;
    char *start = cursor;
    while (*cursor && !isspace((unsigned char)*cursor))
        cursor++;
    if (*cursor)
        *cursor++ = 0;
    return start;
}

static bool identifier(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_'))
        return false;
    for (s++; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '$'))
            return false;
    return true;
}

static bool id_code(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if ((unsigned char)*s < 33 || (unsigned char)*s > 126)
            return false;
    return true;
}

static var_t *find_var(const char *id)
{
    for (size_t i = 0; i < n_vars; i++)
        if (!strcmp(vars[i].id, id))
            return &vars[i];
    return NULL;
}

/* Skip to the $end closing a section; false at end of file. */
static bool skip_to_end(const char *section)
{
    for (char *t; (t = next_token());)
        if (!strcmp(t, "$end"))
            return true;
    bad("section not closed by $end", section);
    return false;
}

static void check_timescale(void)
{
    char text[64] = "";
    for (char *t; (t = next_token()) && strcmp(t, "$end");)
        if (strlen(text) + strlen(t) < sizeof text)
            strcat(text, t);
    char *unit;
    long n = strtol(text, &unit, 10);
    static const char *const units[] = {"s", "ms", "us", "ns", "ps", "fs"};
    bool ok = false;
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        ok |= !strcmp(unit, units[i]);
    if (!(n == 1 || n == 10 || n == 100) || !ok)
        bad("illegal $timescale", text);
}

static void declare_var(const char *scope_path)
{
    static const char *const types[] = {"event", "integer", "parameter", "real", "realtime", "reg",
                                        "supply0", "supply1", "time", "tri", "triand", "trior",
                                        "trireg", "tri0", "tri1", "wand", "wire", "wor"};
    char *type = next_token(), *width = next_token(), *id = next_token(), *ref = next_token();
    if (!ref) {
        bad("truncated $var", NULL);
        return;
    }
    bool known = false;
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        known |= !strcmp(type, types[i]);
    if (!known)
        bad("unknown variable type", type);
    char *end;
    long w = strtol(width, &end, 10);
    if (*end || w < 1 || w > 1 << 20)
        bad("illegal width", width);
    bool real = !strcmp(type, "real") || !strcmp(type, "realtime");
    if ((real && w != 64) || (!strcmp(type, "integer") && w != 32) || (!strcmp(type, "event") && w != 1))
        bad("width does not fit the type", ref);
    if (!id_code(id))
        bad("illegal identifier code", id);
    else if (find_var(id))
        bad("identifier code declared twice", id);
    if (!identifier(ref))
        bad("illegal variable name", ref);
    if (!*scope_path)
        bad("variable outside any $scope", ref);
    char *t = next_token();
    if (t && t[0] == '[')  /* optional bit range */
        t = next_token();
    if (!t || strcmp(t, "$end"))
        bad("$var not closed by $end", ref);
    if (n_vars == cap_vars) {
        cap_vars = cap_vars ? 2 * cap_vars : 64;
        vars = realloc(vars, cap_vars * sizeof *vars);
        if (!vars) {
            fprintf(stderr, "validate_vcd: out of memory\n");
            exit(2);
        }
    }
    var_t *v = &vars[n_vars++];
    memset(v, 0, sizeof *v);
    v->id = id;
    snprintf(v->path, sizeof v->path, "%s.%s", scope_path, ref);
    v->width = (int)w;
    v->real = real;
}

/* The declarations, up to and including $enddefinitions. */
static bool header(void)
{
    char path[256] = "";
    int depth = 0;
    bool timescale = false;
    for (char *t; (t = next_token());) {
        if (!strcmp(t, "$date") || !strcmp(t, "$version") || !strcmp(t, "$comment")) {
            if (!skip_to_end(t))
                return false;
        } else if (!strcmp(t, "$timescale")) {
            if (timescale)
                bad("$timescale given twice", NULL);
            timescale = true;
            check_timescale();
        } else if (!strcmp(t, "$scope")) {
            char *type = next_token(), *name = next_token(), *e = next_token();
            if (!e || strcmp(e, "$end")) {
                bad("$scope not closed by $end", name);
                return false;
            }
            if (strcmp(type, "module") && strcmp(type, "task") && strcmp(type, "function") &&
                strcmp(type, "begin") && strcmp(type, "fork"))
                bad("unknown scope type", type);
            if (!identifier(name))
                bad("illegal scope name", name);
            size_t used = strlen(path);
            snprintf(path + used, sizeof path - used, "%s%s", used ? "." : "", name);
            depth++;
        } else if (!strcmp(t, "$upscope")) {
            char *e = next_token();
            if (!e || strcmp(e, "$end"))
                bad("$upscope not closed by $end", NULL);
            if (depth == 0) {
                bad("$upscope without $scope", NULL);
            } else {
                depth--;
                char *dot = strrchr(path, '.');
                if (dot)
                    *dot = 0;
                else
                    path[0] = 0;
            }
        } else if (!strcmp(t, "$var")) {
            declare_var(path);
        } else if (!strcmp(t, "$enddefinitions")) {
            char *e = next_token();
            if (!e || strcmp(e, "$end"))
                bad("$enddefinitions not closed by $end", NULL);
            if (depth != 0)
                bad("a $scope is still open at $enddefinitions", path);
            if (!timescale)
                bad("no $timescale", NULL);
            if (n_vars == 0)
                bad("no variables declared", NULL);
            return true;
        } else {
            bad("unexpected token in the header", t);
            return false;
        }
    }
    bad("no $enddefinitions", NULL);
    return false;
}

static void value_change(char *t, bool in_dumpvars, bool have_time)
{
    char kind = t[0];
    const char *value = t + 1, *id;
    if (strchr("01xXzZ", kind)) {
        id = t[1] ? t + 1 : next_token();
        value = "";
    } else {
        id = next_token();
    }
    if (!id) {
        bad("value change without an identifier", t);
        return;
    }
    var_t *v = find_var(id);
    if (!v) {
        bad("value change of an undeclared identifier", id);
        return;
    }
    if (!have_time)
        bad("value change before the first time stamp", id);
    if (strchr("01xXzZ", kind)) {
        if (v->width != 1 || v->real)
            bad("scalar value for a vector or real variable", v->path);
    } else if (kind == 'b' || kind == 'B') {
        size_t n = strlen(value);
        if (v->real || n == 0 || n > (size_t)v->width || strspn(value, "01xXzZ") != n)
            bad("illegal vector value", v->path);
    } else if (kind == 'r' || kind == 'R') {
        char *end;
        errno = 0;
        strtod(value, &end);
        if (!v->real || !*value || *end || errno)
            bad("illegal real value", v->path);
    } else {
        bad("unknown value change", t);
        return;
    }
    if (in_dumpvars)
        v->initialised = true;
    else
        v->changes++;
}

static void body(void)
{
    bool have_time = false, in_dump = false, dumpvars = false;
    unsigned long long last = 0;
    char *dump_kind = NULL;
    long changes = 0;
    for (char *t; (t = next_token());) {
        if (t[0] == '#') {
            char *end;
            errno = 0;
            unsigned long long now = strtoull(t + 1, &end, 10);
            if (!t[1] || *end || errno || t[1] == '-')
                bad("illegal time stamp", t);
            else if (have_time && now <= last)
                bad("time stamp not after the previous one", t);
            last = now;
            have_time = true;
        } else if (!strcmp(t, "$dumpvars") || !strcmp(t, "$dumpall") || !strcmp(t, "$dumpon") ||
                   !strcmp(t, "$dumpoff")) {
            if (in_dump)
                bad("nested $dump section", t);
            in_dump = true;
            dump_kind = t;
            if (!strcmp(t, "$dumpvars")) {
                if (dumpvars)
                    bad("$dumpvars given twice", NULL);
                dumpvars = true;
            }
        } else if (!strcmp(t, "$end")) {
            if (!in_dump)
                bad("$end without a section", NULL);
            in_dump = false;
            dump_kind = NULL;
        } else if (!strcmp(t, "$comment")) {
            skip_to_end(t);
        } else if (t[0] == '$') {
            bad("unexpected keyword after $enddefinitions", t);
        } else {
            value_change(t, in_dump && dump_kind && !strcmp(dump_kind, "$dumpvars"), have_time);
            changes++;
        }
    }
    if (in_dump)
        bad("a $dump section is not closed", NULL);
    if (!dumpvars)
        bad("no $dumpvars (initial values)", NULL);
    for (size_t i = 0; i < n_vars; i++)
        if (!vars[i].initialised)
            bad("variable without an initial value in $dumpvars", vars[i].path);
    if (errors == 0)
        printf("vcd ok: %zu variables, %ld value changes, last time %llu\n", n_vars, changes, last);
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "--list"))) {
        fprintf(stderr, "usage: validate_vcd FILE [--list]\n");
        return 2;
    }
    char *text = validate_read("validate_vcd", argv[1]);
    cursor = text;
    if (header())
        body();
    if (errors == 0 && argc == 3)
        for (size_t i = 0; i < n_vars; i++)
            printf("%s %ld\n", vars[i].path, vars[i].changes);
    free(vars);
    free(text);
    if (errors)
        fprintf(stderr, "validate_vcd: %s: %d problem(s)\n", argv[1], errors);
    return errors ? 1 : 0;
}
