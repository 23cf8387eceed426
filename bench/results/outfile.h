/* Output files that are either complete or not there: every file
 * rtipc-bench writes (--json, --csv, --vcd, --perfetto, --report's
 * index.html, audit --json) goes through here.
 *
 * The bytes go to a temporary file in the target's own directory
 * (".NAME.PID-N.tmp", created exclusively with the usual permissions), which
 * is flushed to the disk (fsync) and renamed over the target only when every
 * write succeeded; a failure removes the temporary and leaves a previous
 * file as it was. Renaming replaces the directory entry: a target that is a
 * symbolic link becomes a file. A target that exists and is not a regular
 * file (a terminal, a pipe, /dev/stdout, /dev/null) is written in place, as
 * nothing can be renamed over it; its write errors are reported alike.
 *
 * Writers print into a stream held in memory (bench_outfile_stream) and may
 * call bench_outfile_drain between large pieces to move what they printed to
 * the temporary, so that memory holds one piece at a time. Errors are
 * reported at commit, with strerror's text ("No space left on device").
 *
 * The checks (bench_output_check, bench_output_dir_check, bench_same_file)
 * let a command refuse its outputs before it spends time on a run.
 *
 * Context: any thread; one bench_outfile_t is used by one thread. */
#ifndef BENCH_RESULTS_OUTFILE_H
#define BENCH_RESULTS_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    FILE *stream;   /* what the writer prints into (memory) */
    char *buf;      /* the stream's buffer */
    size_t len;     /* its length at the last flush */
    int fd;         /* the temporary, -1 when not open */
    char *path;     /* the target */
    char *temp;     /* the temporary's name */
    int error;      /* the first errno of a failed step, 0 while all went well */
} bench_outfile_t;

/* Creates the temporary for PATH. Returns 0, or -1 with ERR set ("cannot
 * write PATH: reason") and nothing created. PATH "-" is standard output,
 * written in place (GNU convention): the caller keeps its own text off
 * stdout meanwhile. */
int bench_outfile_open(bench_outfile_t *o, const char *path, char *err, size_t errlen);

/* The stream to print into; valid until commit or discard. */
FILE *bench_outfile_stream(bench_outfile_t *o);

/* Moves what was printed so far into the temporary. A failure is kept and
 * reported by bench_outfile_commit; later drains do nothing. */
void bench_outfile_drain(bench_outfile_t *o);

/* Writes N bytes at P straight to the temporary (for text already in
 * memory); a failure is kept as by bench_outfile_drain. */
void bench_outfile_write(bench_outfile_t *o, const void *p, size_t n);

/* Drains, flushes the temporary to the disk, and renames it over the
 * target. Returns 0, or -1 with ERR set ("cannot write PATH: reason"), the
 * temporary removed and the target untouched. Frees everything either way. */
int bench_outfile_commit(bench_outfile_t *o, char *err, size_t errlen);

/* Removes PATH (a file, or a directory once its tracked files are gone)
 * when SIGINT, SIGTERM or SIGHUP ends the process while it is tracked, if
 * nothing else handles that signal; the temporaries above are tracked this
 * way. PATH is kept, not copied: it stays valid until untracked. At most 32
 * paths at once; past that one is not removed on a signal. */
void bench_outfile_track(char *path);
void bench_outfile_untrack(const char *path);

/* Removes the temporary and frees everything; the target is untouched.
 * Accepts an outfile whose open failed, or that was already finished. */
void bench_outfile_discard(bench_outfile_t *o);

/* TEXT (LEN bytes) into PATH as above. 0, or -1 with ERR set. */
int bench_outfile_write_text(const char *path, const char *text, size_t len, char *err, size_t errlen);

/* Whether PATH can be written as an output: not empty, not a directory, and
 * its directory exists and is writable (or PATH is an existing special file
 * that can be opened for writing). 0, or -1 with ERR set ("cannot write
 * PATH: reason"). Nothing is created. */
int bench_output_check(const char *path, char *err, size_t errlen);

/* Whether DIR can hold outputs: an existing writable directory, or a path
 * whose nearest existing ancestor is a writable directory (DIR is created
 * when the output is written). 0, or -1 with ERR set. */
int bench_output_dir_check(const char *dir, char *err, size_t errlen);

/* True when A and B name the same file: the same directory entry (the same
 * directory, after resolving links, and the same last component) or, when
 * both exist, the same file on disk (links to it). */
bool bench_same_file(const char *a, const char *b);

#endif
