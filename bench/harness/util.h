/* Small helpers shared by rtipc-bench's parts that do not measure (compare,
 * the HTML report and its charts) and by the tests' validators. They need
 * nothing but the C library, so any program can compile util.c in. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <stddef.h>

/* The whole file at @p path, NUL-terminated, malloc'd (free() it). NULL with
 * errno set when it cannot be opened or read (the read's own error, else EIO;
 * ENOMEM when memory runs out). */
char *bench_read_file(const char *path);

/* A printf-style message into err[errlen], for functions that report why
 * they failed through a caller's buffer. Does nothing when @p err is NULL or
 * @p errlen is 0. */
void bench_set_error(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
