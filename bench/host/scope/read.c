/* Picking the reader of a capture (read.h). */
#define _POSIX_C_SOURCE 200809L
#include "read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const format_names[] = {"auto", "vcd", "sigrok", "saleae-csv", "saleae-binary", "csv"};

int scope_format_parse(const char *name, scope_format_t *out)
{
    for (size_t i = 0; i < sizeof format_names / sizeof format_names[0]; i++)
        if (!strcmp(name, format_names[i])) {
            *out = (scope_format_t)i;
            return 0;
        }
    return -1;
}

const char *scope_format_name(scope_format_t f) { return format_names[f]; }

#define MAX_BYTES ((size_t)1 << 30)

char *scope_slurp(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        if (cap >= MAX_BYTES) {
            snprintf(err, errlen, "%s is larger than 1 GiB", path);
            free(buf);
            fclose(f);
            return NULL;
        }
        char *more = realloc(buf, cap * 2 + 1);
        if (!more) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = more;
        cap *= 2;
    }
    if (!buf) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(ENOMEM));
        fclose(f);
        return NULL;
    }
    if (ferror(f)) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno ? errno : EIO));
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

char *scope_slurp_text(const char *path, size_t *len, char *err, size_t errlen)
{
    char *text = scope_slurp(path, len, err, errlen);
    if (text && *len && text[*len - 1] != '\n') {
        snprintf(err, errlen, "%s: it ends in the middle of a line (truncated?)", path);
        free(text);
        return NULL;
    }
    return text;
}

/* The format of @p path from its first bytes. */
static scope_format_t sniff(const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return SCOPE_FORMAT_AUTO;
    }
    if (S_ISDIR(st.st_mode))
        return SCOPE_FORMAT_SALEAE_BINARY;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return SCOPE_FORMAT_AUTO;
    }
    char head[256] = {0};
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    if (n >= 8 && !memcmp(head, "<SALEAE>", 8)) {
        snprintf(err, errlen,
                 "%s is one line of a Saleae binary export: give the export's folder (its digital_N.bin "
                 "files are the lines)",
                 path);
        return SCOPE_FORMAT_AUTO;
    }
    if (n >= 4 && !memcmp(head, "PK\003\004", 4))
        return SCOPE_FORMAT_SIGROK; /* a zip: sigrok's session files are */
    size_t i = 0;
    while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
        i++;
    if (i < n && head[i] == '$')
        return SCOPE_FORMAT_VCD;
    if (!strncmp(head + i, "Time [s]", 8))
        return SCOPE_FORMAT_SALEAE_CSV;
    if (memchr(head, ',', n) && !memchr(head, 0, n))
        return SCOPE_FORMAT_CSV;
    snprintf(err, errlen,
             "%s is not a capture rtipc-bench scope reads (VCD, sigrok .sr, Saleae CSV or binary folder, "
             "oscilloscope CSV)",
             path);
    return SCOPE_FORMAT_AUTO;
}

int scope_read(const char *path, const scope_read_opts_t *o, scope_lines_t *c, char *err, size_t errlen)
{
    scope_lines_init(c);
    scope_format_t f = o->format != SCOPE_FORMAT_AUTO ? o->format : sniff(path, err, errlen);
    int rc = -1;
    switch (f) {
    case SCOPE_FORMAT_AUTO: return -1; /* sniff said why */
    case SCOPE_FORMAT_VCD: rc = scope_read_vcd(path, o, c, err, errlen); break;
    case SCOPE_FORMAT_SIGROK: rc = scope_read_sigrok(path, o, c, err, errlen); break;
    case SCOPE_FORMAT_SALEAE_CSV: rc = scope_read_saleae_csv(path, o, c, err, errlen); break;
    case SCOPE_FORMAT_SALEAE_BINARY: rc = scope_read_saleae_binary(path, o, c, err, errlen); break;
    case SCOPE_FORMAT_CSV: rc = scope_read_csv(path, o, c, err, errlen); break;
    }
    if (rc != 0) {
        scope_lines_free(c);
        scope_lines_init(c);
        return -1;
    }
    snprintf(c->format, sizeof c->format, "%s", scope_format_name(f));
    if (c->n == 0) {
        snprintf(err, errlen, "%s holds no digital line", path);
        scope_lines_free(c);
        scope_lines_init(c);
        return -1;
    }
    return 0;
}
