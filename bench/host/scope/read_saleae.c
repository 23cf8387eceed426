/* Saleae Logic 2 exports (read.h): the digital CSV, and the binary export
 * (one digital_N.bin per line, format version 0 or 1: little-endian, times
 * as IEEE 754 doubles in seconds; version 1 adds chunks with their sample
 * rate, gaps between them). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read.h"

/* Seconds to samples on the capture's clock. */
static int64_t sample_of(double t, double rate) { return (int64_t)llround(t * rate); }

static void clock_from(const scope_read_opts_t *o, scope_lines_t *c, double file_rate)
{
    if (o->sample_rate > 0) {
        c->rate_hz = o->sample_rate;
        c->rate_known = true;
    } else if (file_rate > 0) {
        c->rate_hz = file_rate;
        c->rate_known = true;
    } else {
        c->rate_hz = 1e9; /* read to the nanosecond; the rows say the rate is not known */
        c->rate_known = false;
    }
}

/* ---- the digital CSV ---- */

/* The next comma-separated field of *p (NUL-terminated in place). */
static char *field(char **p)
{
    char *s = *p;
    if (!s)
        return NULL;
    char *comma = strchr(s, ',');
    if (comma) {
        *comma = 0;
        *p = comma + 1;
    } else {
        *p = NULL;
    }
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\r' || s[n - 1] == ' '))
        s[--n] = 0;
    while (*s == ' ')
        s++;
    return s;
}

int scope_read_saleae_csv(const char *path, const scope_read_opts_t *o, scope_lines_t *c, char *err,
                          size_t errlen)
{
    size_t len;
    char *text = scope_slurp_text(path, &len, err, errlen);
    if (!text)
        return -1;
    snprintf(c->instrument, sizeof c->instrument, "Saleae Logic 2 (digital CSV export)");
    clock_from(o, c, 0);
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    char *p = line;
    char *first = field(&p);
    if (!first || strcmp(first, "Time [s]") != 0) {
        snprintf(err, errlen, "%s: not a Saleae digital CSV (its first column is not \"Time [s]\")", path);
        free(text);
        return -1;
    }
    for (char *name; (name = field(&p));)
        if (scope_lines_add(c, *name ? name : "unnamed") < 0) {
            snprintf(err, errlen, "%s: out of memory", path);
            free(text);
            return -1;
        }
    size_t rows = 0;
    unsigned long lineno = 1;
    while ((line = strtok_r(NULL, "\n", &save))) {
        lineno++;
        if (*line == '\r' || !*line)
            continue;
        p = line;
        char *ts = field(&p), *end;
        double t = strtod(ts, &end);
        if (end == ts || *end || !isfinite(t)) {
            snprintf(err, errlen, "%s:%lu: the time \"%.20s\" is not a number of seconds", path, lineno, ts);
            free(text);
            return -1;
        }
        int64_t at = sample_of(t, c->rate_hz);
        if (rows == 0)
            c->first = at;
        for (size_t k = 0; k < c->n; k++) {
            char *v = field(&p);
            if (!v) {
                snprintf(err, errlen, "%s:%lu: %zu values where the header names %zu lines (truncated?)", path,
                         lineno, k, c->n);
                free(text);
                return -1;
            }
            if (!strcmp(v, "X"))
                continue; /* no data: a gap, or the channel off */
            if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0) {
                snprintf(err, errlen, "%s:%lu: \"%.20s\" is not 0, 1 or X", path, lineno, v);
                free(text);
                return -1;
            }
            int rc = scope_lines_set(c, (int)k, at, *v - '0');
            if (rc != 0) {
                snprintf(err, errlen, "%s:%lu: %s", path, lineno,
                         rc == -2 ? "its times go backwards" : "out of memory");
                free(text);
                return -1;
            }
        }
        c->last = at;
        rows++;
    }
    free(text);
    if (rows == 0) {
        snprintf(err, errlen, "%s: no rows after the header", path);
        return -1;
    }
    return 0;
}

/* ---- the binary export ---- */

typedef struct {
    const unsigned char *p, *end;
} bin_t;

static bool take(bin_t *b, void *out, size_t n)
{
    if ((size_t)(b->end - b->p) < n)
        return false;
    memcpy(out, b->p, n); /* little-endian on the hosts rtipc-bench runs on */
    b->p += n;
    return true;
}

/* One digital_N.bin into line @p line. */
static int read_bin(const char *file, const scope_read_opts_t *o, scope_lines_t *c, int line, bool first_file,
                    char *err, size_t errlen)
{
    size_t len;
    char *data = scope_slurp(file, &len, err, errlen);
    if (!data)
        return -1;
    bin_t b = {(const unsigned char *)data, (const unsigned char *)data + len};
    char id[8];
    int32_t version, type;
    const char *why = NULL;
    if (!take(&b, id, 8) || memcmp(id, "<SALEAE>", 8) != 0)
        why = "not a Saleae binary export (no <SALEAE> header)";
    else if (!take(&b, &version, 4) || !take(&b, &type, 4))
        why = "truncated header";
    else if (version != 0 && version != 1)
        why = "a binary export version other than 0 and 1";
    else if (type != 0)
        why = "analog data (scope reads the digital export)";
    uint64_t chunks = 1;
    if (!why && version == 1 && !take(&b, &chunks, 8))
        why = "truncated header";
    for (uint64_t k = 0; !why && k < chunks; k++) {
        uint32_t initial;
        double rate = 0, begin, end;
        uint64_t n;
        if (!take(&b, &initial, 4) || (version == 1 && !take(&b, &rate, 8)) || !take(&b, &begin, 8) ||
            !take(&b, &end, 8) || !take(&b, &n, 8)) {
            why = "truncated chunk header";
            break;
        }
        if (initial > 1 || !isfinite(begin) || !isfinite(end) || end < begin || (version == 1 && !(rate > 0))) {
            why = "a chunk header that makes no sense (corrupt?)";
            break;
        }
        if (n > (uint64_t)(b.end - b.p) / 8) {
            why = "fewer transitions than its header counts (truncated?)";
            break;
        }
        if (first_file && k == 0) {
            clock_from(o, c, rate);
            c->first = sample_of(begin, c->rate_hz);
            c->last = sample_of(end, c->rate_hz);
        }
        int64_t b0 = sample_of(begin, c->rate_hz), e0 = sample_of(end, c->rate_hz);
        c->first = b0 < c->first ? b0 : c->first;
        c->last = e0 > c->last ? e0 : c->last;
        if (k > 0)
            c->gaps++; /* a change of level in a gap is seen at the chunk's start */
        int level = (int)initial;
        if (scope_lines_set(c, line, b0, level) == -1) {
            why = "out of memory";
            break;
        }
        for (uint64_t i = 0; i < n; i++) {
            double t;
            (void)take(&b, &t, 8);
            level = !level; /* each transition toggles the line */
            int rc = isfinite(t) ? scope_lines_set(c, line, sample_of(t, c->rate_hz), level) : -2;
            if (rc != 0) {
                why = rc == -1 ? "out of memory" : "its transition times go backwards (corrupt?)";
                break;
            }
        }
    }
    if (!why && b.p != b.end)
        why = "bytes after the last chunk (not a Saleae digital export?)";
    free(data);
    if (why) {
        snprintf(err, errlen, "%s: %s", file, why);
        return -1;
    }
    return 0;
}

static int by_number(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

int scope_read_saleae_binary(const char *dir, const scope_read_opts_t *o, scope_lines_t *c, char *err,
                             size_t errlen)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "cannot read %s: %s", dir, strerror(errno));
        return -1;
    }
    long nums[256];
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        long k;
        char tail[8];
        if (sscanf(e->d_name, "digital_%ld.%7s", &k, tail) == 2 && !strcmp(tail, "bin") && k >= 0 &&
            n < sizeof nums / sizeof nums[0])
            nums[n++] = k;
    }
    closedir(d);
    if (n == 0) {
        snprintf(err, errlen, "%s holds no digital_N.bin (a Saleae Logic 2 binary export's files)", dir);
        return -1;
    }
    qsort(nums, n, sizeof nums[0], by_number);
    snprintf(c->instrument, sizeof c->instrument, "Saleae Logic 2 (binary export)");
    for (size_t i = 0; i < n; i++) {
        char name[24], file[4096];
        snprintf(name, sizeof name, "%ld", nums[i]);
        snprintf(file, sizeof file, "%s/digital_%ld.bin", dir, nums[i]);
        int line = scope_lines_add(c, name);
        if (line < 0) {
            snprintf(err, errlen, "%s: out of memory", dir);
            return -1;
        }
        if (read_bin(file, o, c, line, i == 0, err, errlen) != 0)
            return -1;
    }
    return 0;
}
