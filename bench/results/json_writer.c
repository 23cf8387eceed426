#include "json_writer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void bench_jw_init(bench_jw_t *w, bench_jw_sink_fn sink, void *ctx, int wrap_depth)
{
    memset(w, 0, sizeof *w);
    w->sink = sink;
    w->ctx = ctx;
    w->wrap_depth = wrap_depth < 0 ? 0 : wrap_depth;
}

static void put(bench_jw_t *w, const char *s, size_t n)
{
    if (w->error || n == 0)
        return;
    if (w->sink(w->ctx, s, n) != 0)
        w->error = BENCH_JW_ESINK;
}

static void puts_(bench_jw_t *w, const char *s) { put(w, s, strlen(s)); }

static void fail(bench_jw_t *w, bench_jw_error_t e)
{
    if (!w->error)
        w->error = e;
}

static bool wrapped(const bench_jw_t *w, int depth) { return depth >= 1 && depth <= w->wrap_depth; }

static void newline_indent(bench_jw_t *w, int depth)
{
    static const char spaces[] = "                                ";
    put(w, "\n", 1);
    size_t n = (size_t)depth * 2;
    while (n > 0) {
        size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        put(w, spaces, k);
        n -= k;
    }
}

/* Before a member of the innermost container: its separator and layout. */
static void before_member(bench_jw_t *w)
{
    if (w->depth == 0)
        return;
    int d = w->depth - 1;
    if (w->members[d]++)
        put(w, wrapped(w, w->depth) ? "," : ", ", wrapped(w, w->depth) ? 1 : 2);
    if (wrapped(w, w->depth))
        newline_indent(w, w->depth);
}

/* A value may start here: at the top (once), in an array, or after a key. */
static bool value_start(bench_jw_t *w)
{
    if (w->error)
        return false;
    if (w->depth == 0) {
        if (w->top_taken) {
            fail(w, BENCH_JW_EUSAGE);
            return false;
        }
        w->top_taken = true;
        return true;
    }
    if (w->is_object[w->depth - 1]) {
        if (!w->key_pending) {
            fail(w, BENCH_JW_EUSAGE);
            return false;
        }
        w->key_pending = false;
        return true;
    }
    before_member(w);
    return true;
}

static void open_(bench_jw_t *w, bool object)
{
    if (!value_start(w))
        return;
    if (w->depth == BENCH_JW_MAX_DEPTH) {
        fail(w, BENCH_JW_EDEPTH);
        return;
    }
    put(w, object ? "{" : "[", 1);
    w->is_object[w->depth] = object;
    w->members[w->depth] = 0;
    w->depth++;
}

static void close_(bench_jw_t *w, bool object)
{
    if (w->error)
        return;
    if (w->depth == 0 || w->is_object[w->depth - 1] != object || w->key_pending) {
        fail(w, BENCH_JW_EUSAGE);
        return;
    }
    bool had = w->members[w->depth - 1] != 0;
    if (had && wrapped(w, w->depth))
        newline_indent(w, w->depth - 1);
    w->depth--;
    put(w, object ? "}" : "]", 1);
}

void bench_jw_object_begin(bench_jw_t *w) { open_(w, true); }
void bench_jw_object_end(bench_jw_t *w) { close_(w, true); }
void bench_jw_array_begin(bench_jw_t *w) { open_(w, false); }
void bench_jw_array_end(bench_jw_t *w) { close_(w, false); }

static void quoted(bench_jw_t *w, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    put(w, "\"", 1);
    const char *run = s;
    for (const char *p = s;; p++) {
        unsigned char c = (unsigned char)*p;
        if (c != 0 && c != '"' && c != '\\' && c >= 0x20)
            continue;
        put(w, run, (size_t)(p - run));
        if (c == 0)
            break;
        char esc[6] = {'\\', 0, 0, 0, 0, 0};
        size_t n = 2;
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\n': esc[1] = 'n'; break;
        case '\t': esc[1] = 't'; break;
        case '\r': esc[1] = 'r'; break;
        default:
            esc[1] = 'u', esc[2] = '0', esc[3] = '0', esc[4] = hex[c >> 4], esc[5] = hex[c & 15];
            n = 6;
            break;
        }
        put(w, esc, n);
        run = p + 1;
    }
    put(w, "\"", 1);
}

void bench_jw_key(bench_jw_t *w, const char *key)
{
    if (w->error)
        return;
    if (w->depth == 0 || !w->is_object[w->depth - 1] || w->key_pending) {
        fail(w, BENCH_JW_EUSAGE);
        return;
    }
    before_member(w);
    quoted(w, key ? key : "");
    put(w, ": ", 2);
    w->key_pending = true;
}

void bench_jw_string(bench_jw_t *w, const char *s)
{
    if (!value_start(w))
        return;
    quoted(w, s ? s : "");
}

/* Decimal digits of v, most significant first, into buf (>= 21 bytes). */
static size_t digits(uint64_t v, char *buf)
{
    char tmp[21];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v);
    for (size_t i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    return n;
}

static void raw_uint(bench_jw_t *w, uint64_t v)
{
    char buf[21];
    put(w, buf, digits(v, buf));
}

void bench_jw_uint(bench_jw_t *w, uint64_t v)
{
    if (!value_start(w))
        return;
    raw_uint(w, v);
}

void bench_jw_int(bench_jw_t *w, int64_t v)
{
    if (!value_start(w))
        return;
    if (v < 0) {
        put(w, "-", 1);
        raw_uint(w, (uint64_t)0 - (uint64_t)v);
    } else {
        raw_uint(w, (uint64_t)v);
    }
}

void bench_jw_number(bench_jw_t *w, double v)
{
    if (!value_start(w))
        return;
    if (isnan(v) || isinf(v)) {
        puts_(w, "null");
    } else if (v == floor(v) && fabs(v) <= 9007199254740992.0) {
        if (v < 0) {
            put(w, "-", 1);
            raw_uint(w, (uint64_t)-v);
        } else {
            raw_uint(w, (uint64_t)v);
        }
    } else {
        char buf[32];
        snprintf(buf, sizeof buf, "%.15g", v);
        if (strtod(buf, NULL) != v)
            snprintf(buf, sizeof buf, "%.17g", v);
        puts_(w, buf);
    }
}

void bench_jw_bool(bench_jw_t *w, bool v)
{
    if (!value_start(w))
        return;
    puts_(w, v ? "true" : "false");
}

void bench_jw_null(bench_jw_t *w)
{
    if (!value_start(w))
        return;
    puts_(w, "null");
}

void bench_jw_kv_string(bench_jw_t *w, const char *key, const char *s)
{
    bench_jw_key(w, key);
    bench_jw_string(w, s);
}

void bench_jw_kv_number(bench_jw_t *w, const char *key, double v)
{
    bench_jw_key(w, key);
    bench_jw_number(w, v);
}

void bench_jw_kv_int(bench_jw_t *w, const char *key, int64_t v)
{
    bench_jw_key(w, key);
    bench_jw_int(w, v);
}

void bench_jw_kv_uint(bench_jw_t *w, const char *key, uint64_t v)
{
    bench_jw_key(w, key);
    bench_jw_uint(w, v);
}

void bench_jw_kv_bool(bench_jw_t *w, const char *key, bool v)
{
    bench_jw_key(w, key);
    bench_jw_bool(w, v);
}

bench_jw_error_t bench_jw_finish(bench_jw_t *w)
{
    if (!w->error && (w->depth != 0 || w->key_pending || !w->top_taken))
        fail(w, BENCH_JW_EUSAGE);
    put(w, "\n", 1);
    return w->error;
}

const char *bench_jw_error_text(bench_jw_error_t e)
{
    switch (e) {
    case BENCH_JW_OK: return "no error";
    case BENCH_JW_ESINK: return "the output refused bytes";
    case BENCH_JW_EUSAGE: return "JSON written out of order (a bug)";
    case BENCH_JW_EDEPTH: return "JSON nested too deeply (a bug)";
    }
    return "unknown JSON writer error";
}

int bench_jw_file_sink(void *ctx, const char *bytes, size_t n)
{
    return fwrite(bytes, 1, n, (FILE *)ctx) == n ? 0 : -1;
}

void bench_jw_buffer_init(bench_jw_buffer_t *b, char *buf, size_t cap)
{
    b->buf = buf;
    b->cap = cap;
    b->len = 0;
    if (cap)
        buf[0] = '\0';
}

int bench_jw_buffer_sink(void *ctx, const char *bytes, size_t n)
{
    bench_jw_buffer_t *b = ctx;
    if (b->cap == 0 || n > b->cap - 1 - b->len)
        return -1;
    memcpy(b->buf + b->len, bytes, n);
    b->len += n;
    b->buf[b->len] = '\0';
    return 0;
}
