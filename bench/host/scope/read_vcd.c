/* Value Change Dump (IEEE 1364) captures (read.h): the 1-bit variables,
 * one sample per $timescale unit, or per --sample-rate period. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read.h"

typedef struct {
    char *p, *end;
} tok_t;

/* The next whitespace-separated token, NUL-terminated in place, or NULL. */
static char *next_token(tok_t *t)
{
    while (t->p < t->end && isspace((unsigned char)*t->p))
        t->p++;
    if (t->p >= t->end)
        return NULL;
    char *s = t->p;
    while (t->p < t->end && !isspace((unsigned char)*t->p))
        t->p++;
    if (t->p < t->end)
        *t->p++ = 0;
    return s;
}

/* Skips to the "$end" that closes a section; false at the end of the file. */
static bool skip_section(tok_t *t)
{
    for (char *s; (s = next_token(t));)
        if (!strcmp(s, "$end"))
            return true;
    return false;
}

typedef struct {
    char *id;  /* the VCD identifier code */
    int line;  /* its line, -1 for a variable that is not 1 bit */
} var_t;

typedef struct {
    var_t *v;
    size_t n, cap;
} vars_t;

static int find_var(const vars_t *vs, const char *id)
{
    for (size_t i = 0; i < vs->n; i++)
        if (!strcmp(vs->v[i].id, id))
            return (int)i;
    return -1;
}

/* $timescale's rate in units a second ("1 ns": 1e9, "10ps", "100 us" ...),
 * exact for every unit, or 0. */
static double timescale_hz(const char *num, const char *unit)
{
    char *end;
    double k = strtod(num, &end);
    if (*end && !unit)
        unit = end;
    else if (*end)
        return 0;
    if (!(k == 1 || k == 10 || k == 100) || !unit)
        return 0;
    static const struct {
        const char *name;
        double per_s;
    } units[] = {{"s", 1}, {"ms", 1e3}, {"us", 1e6}, {"ns", 1e9}, {"ps", 1e12}, {"fs", 1e15}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(unit, units[i].name))
            return units[i].per_s / k;
    return 0;
}

/* "25" "MHz" (a number, then a unit of Hz): the rate, else 0. */
static double rate_of(const char *num, const char *unit)
{
    char *end;
    double v = strtod(num, &end);
    if (end == num || *end || !(v > 0))
        return 0;
    static const struct {
        const char *name;
        double hz;
    } units[] = {{"Hz", 1}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(unit, units[i].name))
            return v * units[i].hz;
    return 0;
}

static int fail(char *err, size_t errlen, const char *path, const char *why, vars_t *vs, char *text)
{
    snprintf(err, errlen, "%s: %s", path, why);
    free(vs->v);
    free(text);
    return -1;
}

int scope_read_vcd(const char *path, const scope_read_opts_t *o, scope_lines_t *c, char *err, size_t errlen)
{
    size_t len;
    char *text = scope_slurp_text(path, &len, err, errlen);
    if (!text)
        return -1;
    tok_t t = {text, text + len};
    vars_t vs = {0};
    double unit_hz = 0, comment_rate_hz = 0;
    bool defined = false;
    char *s;
    /* Declarations, up to $enddefinitions. */
    while (!defined && (s = next_token(&t))) {
        if (!strcmp(s, "$timescale")) {
            char *a = next_token(&t), *b = a ? next_token(&t) : NULL;
            if (b && !strcmp(b, "$end"))
                unit_hz = timescale_hz(a, NULL);
            else if (b && (unit_hz = timescale_hz(a, b)) > 0 && !skip_section(&t))
                return fail(err, errlen, path, "the file ends inside $timescale", &vs, text);
            if (unit_hz <= 0)
                return fail(err, errlen, path, "its $timescale is not 1, 10 or 100 of s, ms, us, ns, ps, fs", &vs,
                            text);
        } else if (!strcmp(s, "$var")) {
            char *type = next_token(&t), *size = type ? next_token(&t) : NULL, *id = size ? next_token(&t) : NULL,
                 *ref = id ? next_token(&t) : NULL;
            if (!ref)
                return fail(err, errlen, path, "the file ends inside a $var", &vs, text);
            if (!skip_section(&t))
                return fail(err, errlen, path, "a $var has no $end", &vs, text);
            if (vs.n == vs.cap) {
                size_t cap = vs.cap ? vs.cap * 2 : 32;
                var_t *v = realloc(vs.v, cap * sizeof *v);
                if (!v)
                    return fail(err, errlen, path, "out of memory", &vs, text);
                vs.v = v;
                vs.cap = cap;
            }
            int line = -1;
            if (!strcmp(size, "1") && strcmp(type, "real") != 0) {
                /* An identifier given twice is one variable seen twice. */
                int known = find_var(&vs, id);
                line = known >= 0 ? vs.v[known].line : scope_lines_add(c, ref);
                if (line < 0 && known < 0)
                    return fail(err, errlen, path, "out of memory", &vs, text);
            }
            vs.v[vs.n++] = (var_t){id, line};
        } else if (!strcmp(s, "$version") && t.p < t.end) {
            /* The instrument or program that wrote it: the words up to $end. */
            char words[128] = "";
            for (char *w; (w = next_token(&t)) && strcmp(w, "$end") != 0;)
                if (strlen(words) + strlen(w) + 2 < sizeof words)
                    snprintf(words + strlen(words), sizeof words - strlen(words), "%s%s", *words ? " " : "", w);
            snprintf(c->instrument, sizeof c->instrument, "%s", *words ? words : "unknown");
        } else if (!strcmp(s, "$comment")) {
            /* libsigrok writes its sample rate here ("Acquisition with 2/2
             * channels at 25 MHz"), finer than its $timescale may be. */
            char *prev = NULL;
            for (char *w; (w = next_token(&t)) && strcmp(w, "$end") != 0; prev = w)
                if (prev && comment_rate_hz == 0)
                    comment_rate_hz = rate_of(prev, w);
            if (t.p >= t.end && !defined)
                return fail(err, errlen, path, "the file ends inside a $comment (truncated?)", &vs, text);
        } else if (!strcmp(s, "$enddefinitions")) {
            if (!skip_section(&t))
                return fail(err, errlen, path, "$enddefinitions has no $end", &vs, text);
            defined = true;
        } else if (s[0] == '$') {
            if (!skip_section(&t))
                return fail(err, errlen, path, "the file ends inside a declaration (truncated?)", &vs, text);
        } else {
            return fail(err, errlen, path, "not a VCD file: text before $enddefinitions", &vs, text);
        }
    }
    if (!defined)
        return fail(err, errlen, path, "no $enddefinitions (not a VCD file, or truncated)", &vs, text);
    if (unit_hz <= 0)
        return fail(err, errlen, path, "no $timescale", &vs, text);
    /* One sample per timescale unit, unless the instrument's rate is given. */
    double per_unit = 1;
    c->rate_hz = unit_hz;
    c->rate_known = true;
    double rate = o->sample_rate > 0 ? o->sample_rate : comment_rate_hz;
    if (rate > 0 && rate < unit_hz) {
        per_unit = rate / unit_hz;
        c->rate_hz = rate;
    }
    bool seen_time = false;
    int64_t now = 0;
    while ((s = next_token(&t))) {
        if (s[0] == '#') {
            char *end;
            double v = strtod(s + 1, &end);
            if (*end || !(v >= 0) || v > 9e18)
                return fail(err, errlen, path, "a time is not a whole number", &vs, text);
            int64_t at = per_unit == 1 ? (int64_t)v : (int64_t)llround(v * per_unit);
            if (seen_time && at < now)
                return fail(err, errlen, path, "its times go backwards", &vs, text);
            if (!seen_time)
                c->first = at;
            now = at;
            seen_time = true;
        } else if (s[0] == '$') {
            /* $dumpvars, $dumpall, $dumpon, $dumpoff open a list of values
             * that $end closes; $comment and the like are skipped whole. */
            if (!strcmp(s, "$comment") && !skip_section(&t))
                return fail(err, errlen, path, "the file ends inside a $comment", &vs, text);
        } else if (s[0] == 'b' || s[0] == 'B' || s[0] == 'r' || s[0] == 'R') {
            if (!next_token(&t))
                return fail(err, errlen, path, "the file ends inside a value change (truncated?)", &vs, text);
        } else if (strchr("01xXzZ", s[0])) {
            int k = find_var(&vs, s + 1);
            if (k < 0)
                return fail(err, errlen, path, "a value change names an undeclared variable", &vs, text);
            if (vs.v[k].line >= 0 && (s[0] == '0' || s[0] == '1')) {
                int rc = scope_lines_set(c, vs.v[k].line, now, s[0] - '0');
                if (rc == -1)
                    return fail(err, errlen, path, "out of memory", &vs, text);
            }
        } else {
            return fail(err, errlen, path, "an entry that is neither a time nor a value change (corrupt?)", &vs,
                        text);
        }
    }
    c->last = now;
    if (!seen_time)
        return fail(err, errlen, path, "no time stamp: no samples", &vs, text);
    free(vs.v);
    free(text);
    return 0;
}
