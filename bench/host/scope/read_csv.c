/* An oscilloscope's CSV (read.h): a header row naming the columns, the
 * time first, then one column per channel. The time is in seconds, or, as
 * Rigol writes it ("X,CH1,CH2,Start,Increment" and a second row
 * "Sequence,Volt,Volt,START,INCREMENT"), the sample's number, its time
 * START + number x INCREMENT. A row of units under the header is skipped.
 * Each channel is cut into levels at the threshold (default midway between
 * its lowest and highest value) with a hysteresis of 10 % of that swing, so
 * that noise on a slow edge makes one edge, not several. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read.h"

#define MAX_COLUMNS 64

/* Splits @p line at commas in place: the number of fields (at most max). */
static size_t split(char *line, char **f, size_t max)
{
    size_t n = 0;
    for (char *p = line; p && n < max;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = 0;
        char *s = p;
        while (*s == ' ' || *s == '"')
            s++;
        size_t len = strlen(s);
        while (len && (s[len - 1] == '\r' || s[len - 1] == ' ' || s[len - 1] == '"'))
            s[--len] = 0;
        f[n++] = s;
        p = comma ? comma + 1 : NULL;
    }
    return n;
}

static bool number(const char *s, double *v)
{
    char *end;
    if (!*s)
        return false;
    *v = strtod(s, &end);
    return !*end && isfinite(*v);
}

typedef struct {
    double *t;      /* each row's time (seconds) or sample number (Rigol) */
    float *v;       /* rows x channels values, NAN for none */
    size_t rows, cap, channels;
} table_t;

static bool grow(table_t *tb)
{
    size_t cap = tb->cap ? tb->cap * 2 : 4096;
    double *t = realloc(tb->t, cap * sizeof *t);
    if (!t)
        return false;
    tb->t = t;
    float *v = realloc(tb->v, cap * tb->channels * sizeof *v);
    if (!v)
        return false;
    tb->v = v;
    tb->cap = cap;
    return true;
}

static int fail(char *err, size_t errlen, table_t *tb, char *text, const char *why, const char *path)
{
    snprintf(err, errlen, "%s: %s", path, why);
    free(tb->t);
    free(tb->v);
    free(text);
    return -1;
}

int scope_read_csv(const char *path, const scope_read_opts_t *o, scope_lines_t *c, char *err, size_t errlen)
{
    size_t len;
    char *text = scope_slurp_text(path, &len, err, errlen);
    if (!text)
        return -1;
    table_t tb = {0};
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    char *f[MAX_COLUMNS + 1];
    size_t nf = line ? split(line, f, MAX_COLUMNS + 1) : 0;
    if (nf < 2 || nf > MAX_COLUMNS)
        return fail(err, errlen, &tb, text, "its header does not name a time and 1 to 63 channels", path);
    double dummy;
    if (number(f[0], &dummy))
        return fail(err, errlen, &tb, text, "no header row naming the columns", path);
    /* Rigol's metadata columns are not channels. */
    int start_col = -1, inc_col = -1;
    size_t channels = 0;
    int chan_col[MAX_COLUMNS];
    for (size_t i = 1; i < nf; i++) {
        if (!strcmp(f[i], "Start"))
            start_col = (int)i;
        else if (!strcmp(f[i], "Increment"))
            inc_col = (int)i;
        else if (*f[i]) {
            chan_col[channels++] = (int)i;
            if (scope_lines_add(c, f[i]) < 0)
                return fail(err, errlen, &tb, text, "out of memory", path);
        }
    }
    if (channels == 0)
        return fail(err, errlen, &tb, text, "its header names no channel column", path);
    tb.channels = channels;
    bool rigol = start_col > 0 && inc_col > 0;
    double start = 0, inc = 0;
    unsigned long lineno = 1;
    while ((line = strtok_r(NULL, "\n", &save))) {
        lineno++;
        size_t n = split(line, f, MAX_COLUMNS + 1);
        if (n == 1 && !*f[0])
            continue;
        double t;
        if (!number(f[0], &t)) {
            if (tb.rows == 0 && lineno == 2) {
                /* A row of units; Rigol's holds the time base. */
                if (rigol && ((size_t)inc_col >= n || !number(f[start_col], &start) ||
                              !number(f[inc_col], &inc) || !(inc > 0)))
                    return fail(err, errlen, &tb, text, "Rigol's second row lacks Start and Increment",
                                path);
                continue;
            }
        {
            char why[64];
            snprintf(why, sizeof why, "line %lu: the time is not a number", lineno);
            return fail(err, errlen, &tb, text, why, path);
        }
        }
        if (tb.rows == tb.cap && !grow(&tb))
            return fail(err, errlen, &tb, text, "out of memory", path);
        tb.t[tb.rows] = t;
        for (size_t k = 0; k < channels; k++) {
            double v;
            int col = chan_col[k];
            tb.v[tb.rows * channels + k] = (size_t)col < n && number(f[col], &v) ? (float)v : NAN;
        }
        tb.rows++;
    }
    if (tb.rows < 2)
        return fail(err, errlen, &tb, text, "fewer than two samples", path);
    if (rigol && !(inc > 0))
        return fail(err, errlen, &tb, text, "Rigol's Start and Increment are missing", path);
    /* The sample clock: Rigol's increment, --sample-rate, or the time
     * column's mean step (an oscilloscope samples evenly). */
    double rate = rigol ? 1 / inc : o->sample_rate > 0 ? o->sample_rate
                                                       : (double)(tb.rows - 1) / (tb.t[tb.rows - 1] - tb.t[0]);
    if (!isfinite(rate) || !(rate > 0))
        return fail(err, errlen, &tb, text, "its times do not increase", path);
    c->rate_hz = rate;
    c->rate_known = true;
    snprintf(c->instrument, sizeof c->instrument, "%s", rigol ? "oscilloscope CSV (Rigol layout)" : "oscilloscope CSV");
    for (size_t k = 0; k < channels; k++) {
        float lo = INFINITY, hi = -INFINITY;
        for (size_t r = 0; r < tb.rows; r++) {
            float v = tb.v[r * channels + k];
            if (!isnan(v)) {
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
        }
        if (!(hi >= lo))
            continue; /* no value at all: the line stays unknown */
        double th = isnan(o->threshold) ? (lo + hi) / 2.0 : o->threshold, band = 0.05 * (hi - lo);
        int level = -1;
        for (size_t r = 0; r < tb.rows; r++) {
            float v = tb.v[r * channels + k];
            if (isnan(v))
                continue;
            int now = level < 0 ? v >= th : v >= th + band ? 1 : v <= th - band ? 0 : level;
            int64_t at = rigol ? (int64_t)llround(tb.t[r]) : (int64_t)llround(tb.t[r] * c->rate_hz);
            if (r == 0)
                c->first = at;
            c->last = at;
            if (now != level) {
                int rc = scope_lines_set(c, (int)k, at, now);
                if (rc != 0)
                    return fail(err, errlen, &tb, text,
                                rc == -2 ? "its times go backwards" : "out of memory", path);
                level = now;
            }
        }
    }
    free(tb.t);
    free(tb.v);
    free(text);
    return 0;
}
