/* A streaming JSON writer for every target: no allocation, no cJSON, output
 * through a caller's sink (a FILE, a fixed buffer, a UART), so the host, the
 * FreeRTOS firmwares and the bare-metal firmware write rtipc-bench/1 with
 * the same code (document.h builds the schema on top of it).
 *
 * Layout: containers up to the writer's wrap depth put each member on its
 * own line, indented by two spaces per level; deeper ones are written on
 * one line ("{"a": 1, "b": [2, 3]}"), so each result row is one line that
 * grep and diff can work with.
 *
 * Numbers: an integral value of at most 2^53 in magnitude is written as an
 * integer (digit by digit: newlib-nano's printf has no %lld); any other
 * finite value with the shortest of %.15g and %.17g that reads back equal;
 * NaN and infinities as null (JSON has no such numbers).
 *
 * Misuse (a value where a key is due, closing what is not open, nesting
 * deeper than BENCH_JW_MAX_DEPTH) writes nothing further and sets the
 * writer's error, which bench_jw_finish reports; it never writes past a
 * sink's buffer. Context: any; one writer is used by one thread at a time. */
#ifndef BENCH_RESULTS_JSON_WRITER_H
#define BENCH_RESULTS_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define BENCH_JW_MAX_DEPTH 16

/* Receives n bytes of output (not NUL-terminated). Returns 0, or -1 when
 * the bytes could not be taken (the writer then stops and reports it). */
typedef int (*bench_jw_sink_fn)(void *ctx, const char *bytes, size_t n);

typedef enum {
    BENCH_JW_OK = 0,
    BENCH_JW_ESINK,   /* the sink refused bytes (full buffer, write error) */
    BENCH_JW_EUSAGE,  /* calls out of order: a bug in the caller */
    BENCH_JW_EDEPTH,  /* nested deeper than BENCH_JW_MAX_DEPTH */
} bench_jw_error_t;

typedef struct {
    bench_jw_sink_fn sink;
    void *ctx;
    int wrap_depth;        /* containers at depth <= this put members on lines */
    int depth;             /* open containers */
    bool is_object[BENCH_JW_MAX_DEPTH];
    unsigned members[BENCH_JW_MAX_DEPTH];
    bool key_pending;      /* a key was written, its value is due */
    bool top_taken;        /* the one top-level value has begun */
    bench_jw_error_t error;
} bench_jw_t;

/* A writer into @p sink. wrap_depth 0 writes everything on one line. */
void bench_jw_init(bench_jw_t *w, bench_jw_sink_fn sink, void *ctx, int wrap_depth);

void bench_jw_object_begin(bench_jw_t *w);
void bench_jw_object_end(bench_jw_t *w);
void bench_jw_array_begin(bench_jw_t *w);
void bench_jw_array_end(bench_jw_t *w);
/* The next member's name, inside an object. */
void bench_jw_key(bench_jw_t *w, const char *key);

/* Values: in an array, or after a key. A NULL string is written as "". */
void bench_jw_string(bench_jw_t *w, const char *s);
void bench_jw_number(bench_jw_t *w, double v);
void bench_jw_int(bench_jw_t *w, int64_t v);
void bench_jw_uint(bench_jw_t *w, uint64_t v);
void bench_jw_bool(bench_jw_t *w, bool v);
void bench_jw_null(bench_jw_t *w);

/* key + value in one call. */
void bench_jw_kv_string(bench_jw_t *w, const char *key, const char *s);
void bench_jw_kv_number(bench_jw_t *w, const char *key, double v);
void bench_jw_kv_int(bench_jw_t *w, const char *key, int64_t v);
void bench_jw_kv_uint(bench_jw_t *w, const char *key, uint64_t v);
void bench_jw_kv_bool(bench_jw_t *w, const char *key, bool v);

/* After the last value: a final newline. Returns BENCH_JW_OK when every
 * container was closed and every byte reached the sink, else the first
 * error (an open container is BENCH_JW_EUSAGE). */
bench_jw_error_t bench_jw_finish(bench_jw_t *w);
/* What an error code means, for messages. */
const char *bench_jw_error_text(bench_jw_error_t e);

/* ---- sinks ---- */

/* Into a FILE (ctx = the FILE *): -1 when fwrite writes less. */
int bench_jw_file_sink(void *ctx, const char *bytes, size_t n);

/* Into a fixed buffer, always NUL-terminated; -1 (and nothing more is
 * kept) once the text would not fit with its terminator. */
typedef struct {
    char *buf;
    size_t cap;   /* bytes of buf, terminator included */
    size_t len;   /* bytes written so far */
} bench_jw_buffer_t;
void bench_jw_buffer_init(bench_jw_buffer_t *b, char *buf, size_t cap);
int bench_jw_buffer_sink(void *ctx, const char *bytes, size_t n);

#endif
