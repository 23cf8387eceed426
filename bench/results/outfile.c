/* Output files written whole or not at all (outfile.h). */
#define _XOPEN_SOURCE 700  /* realpath */
#include "outfile.h"
#include "errtext.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define fail bench_errtext

/* The directory part of PATH ("." when it has none), malloc'd; *base points
 * at the last component inside PATH. */
static char *split_dir(const char *path, const char **base)
{
    const char *slash = strrchr(path, '/');
    *base = slash ? slash + 1 : path;
    if (!slash)
        return strdup(".");
    size_t len = slash == path ? 1 : (size_t)(slash - path);  /* "/x": the root */
    char *dir = malloc(len + 1);
    if (dir) {
        memcpy(dir, path, len);
        dir[len] = 0;
    }
    return dir;
}

static void keep_error(bench_outfile_t *o, int e)
{
    if (!o->error)
        o->error = e ? e : EIO;
}

static void write_all(bench_outfile_t *o, const char *p, size_t n)
{
    while (n && !o->error) {
        ssize_t w = write(o->fd, p, n);
        if (w < 0) {
            if (errno != EINTR)
                keep_error(o, errno);
            continue;
        }
        p += w;
        n -= (size_t)w;
    }
}

/* An existing target that is not a regular file (a terminal, a pipe,
 * /dev/null, /dev/stdout) cannot be replaced, and need not be: it is written
 * in place. */
static bool is_special(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* The temporaries being written (and scratch directories), so that SIGINT,
 * SIGTERM or SIGHUP removes them before the process ends: slots the handler
 * reads lock-free (C11 lets a handler use lock-free atomics). A path that
 * finds no free slot is written all the same, just not cleaned up on a
 * signal. */
enum { LIVE_MAX = 32 };
static _Atomic(char *) live[LIVE_MAX];

static void on_stop(int sig)
{
    /* Files first, then the directories they were in: unlink() refuses a
     * directory and rmdir() a file, so each pass leaves the other's alone. */
    for (int i = 0; i < LIVE_MAX; i++) {
        char *t = atomic_load(&live[i]);
        if (t)
            (void)unlink(t);
    }
    for (int i = 0; i < LIVE_MAX; i++) {
        char *t = atomic_load(&live[i]);
        if (t)
            (void)rmdir(t);
    }
    /* Then the signal's own effect: the process ends as it would have. */
    signal(sig, SIG_DFL);
    raise(sig);
}

void bench_outfile_track(char *path)
{
    static bool installed;
    if (!installed) {
        installed = true;
        /* Only where nobody else handles the signal. */
        const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
            struct sigaction old;
            if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL) {
                struct sigaction sa;
                memset(&sa, 0, sizeof sa);
                sa.sa_handler = on_stop;
                sigemptyset(&sa.sa_mask);
                (void)sigaction(sigs[i], &sa, NULL);
            }
        }
    }
    for (int i = 0; path && i < LIVE_MAX; i++) {
        char *none = NULL;
        if (atomic_compare_exchange_strong(&live[i], &none, path))
            return;
    }
}

void bench_outfile_untrack(const char *path)
{
    for (int i = 0; path && i < LIVE_MAX; i++) {
        char *mine = (char *)path;
        if (atomic_compare_exchange_strong(&live[i], &mine, NULL))
            return;
    }
}

int bench_outfile_open(bench_outfile_t *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    if (!strcmp(path, "-")) {
        /* Standard output, written in place after what stdio holds. */
        fflush(stdout);
        o->path = strdup("standard output");
        o->fd = o->path ? dup(STDOUT_FILENO) : -1;
        if (o->fd < 0) {
            int saved = o->path ? errno : ENOMEM;
            bench_outfile_discard(o);
            return fail(err, errlen, "cannot write standard output: %s", strerror(saved));
        }
        return 0;
    }
    if (is_special(path)) {
        o->path = strdup(path);
        o->fd = o->path ? open(path, O_WRONLY | O_TRUNC) : -1;
        if (o->fd < 0) {
            int saved = o->path ? errno : ENOMEM;
            bench_outfile_discard(o);
            return fail(err, errlen, "cannot write %s: %s", path, strerror(saved));
        }
        return 0;
    }
    const char *base;
    char *dir = split_dir(path, &base);
    size_t cap = strlen(path) + 64;
    o->path = strdup(path);
    o->temp = malloc(cap);
    if (!dir || !o->path || !o->temp) {
        free(dir);
        bench_outfile_discard(o);
        return fail(err, errlen, "cannot write %s: %s", path, strerror(ENOMEM));
    }
    /* Exclusive creation, so a stale temporary of another process is never
     * reused; 0666 less the umask, as for any new file. */
    for (unsigned n = 0; o->fd < 0 && n < 100; n++) {
        snprintf(o->temp, cap, "%s/.%s.%ld-%u.tmp", dir, base, (long)getpid(), n);
        o->fd = open(o->temp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (o->fd < 0 && errno != EEXIST)
            break;
    }
    int saved = errno;
    free(dir);
    if (o->fd < 0) {
        free(o->temp);  /* nothing was created */
        o->temp = NULL;
        bench_outfile_discard(o);
        return fail(err, errlen, "cannot write %s: %s", path, strerror(saved));
    }
    bench_outfile_track(o->temp);
    return 0;
}

FILE *bench_outfile_stream(bench_outfile_t *o)
{
    if (!o->stream && o->fd >= 0) {
        o->stream = open_memstream(&o->buf, &o->len);
        if (!o->stream) {
            keep_error(o, errno);
            /* The writer still needs somewhere to print: a stream that
             * discards, whose output is refused at commit. */
            o->stream = fopen("/dev/null", "w");
        }
    }
    return o->stream;
}

void bench_outfile_drain(bench_outfile_t *o)
{
    if (!o->stream || o->error)
        return;
    if (fflush(o->stream) != 0 || ferror(o->stream)) {
        keep_error(o, errno);
        return;
    }
    if (!o->buf)  /* the stream that discards (bench_outfile_stream) */
        return;
    write_all(o, o->buf, o->len);
    /* Start the buffer over: after a seek to its start the stream's length
     * is its position (POSIX, open_memstream). */
    if (fseek(o->stream, 0, SEEK_SET) != 0)
        keep_error(o, errno);
}

void bench_outfile_write(bench_outfile_t *o, const void *p, size_t n)
{
    bench_outfile_drain(o);
    write_all(o, p, n);
}

int bench_outfile_commit(bench_outfile_t *o, char *err, size_t errlen)
{
    bench_outfile_drain(o);
    if (o->stream) {
        if (ferror(o->stream))
            keep_error(o, EIO);
        if (fclose(o->stream) != 0)
            keep_error(o, errno);
        o->stream = NULL;
    }
    if (o->temp && !o->error && fsync(o->fd) != 0)
        keep_error(o, errno);
    if (close(o->fd) != 0)
        keep_error(o, errno);
    o->fd = -1;
    if (!o->temp) {  /* written in place */
        int e = o->error;
        char *path = o->path;
        o->path = NULL;
        bench_outfile_discard(o);
        int rc = e ? fail(err, errlen, "cannot write %s: %s", path, strerror(e)) : 0;
        free(path);
        return rc;
    }
    if (!o->error && rename(o->temp, o->path) != 0)
        keep_error(o, errno);
    if (!o->error)
        bench_outfile_untrack(o->temp);  /* renamed: no longer a temporary */
    if (o->error) {
        int e = o->error;
        char *path = o->path;
        o->path = NULL;
        bench_outfile_discard(o);
        fail(err, errlen, "cannot write %s: %s", path, strerror(e));
        free(path);
        return -1;
    }
    /* The new name on the disk too; the file is in place whatever this
     * says, so a directory that cannot be synced is not an error. */
    const char *base;
    char *dir = split_dir(o->path, &base);
    int dfd = dir ? open(dir, O_RDONLY) : -1;
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    free(dir);
    free(o->temp);
    o->temp = NULL;
    bench_outfile_discard(o);
    return 0;
}

void bench_outfile_discard(bench_outfile_t *o)
{
    if (o->stream)
        fclose(o->stream);
    free(o->buf);
    if (o->fd >= 0)
        close(o->fd);
    if (o->temp)
        unlink(o->temp);
    bench_outfile_untrack(o->temp);
    free(o->temp);
    free(o->path);
    memset(o, 0, sizeof *o);
    o->fd = -1;
}

int bench_outfile_write_text(const char *path, const char *text, size_t len, char *err, size_t errlen)
{
    bench_outfile_t o;
    if (bench_outfile_open(&o, path, err, errlen) != 0)
        return -1;
    bench_outfile_write(&o, text, len);
    return bench_outfile_commit(&o, err, errlen);
}

/* ---------------------------------------------------------------- checks */

static int writable_dir(const char *what, const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return fail(err, errlen, "cannot write %s: %s: %s", what, dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return fail(err, errlen, "cannot write %s: %s: %s", what, dir, strerror(ENOTDIR));
    if (access(dir, W_OK | X_OK) != 0)
        return fail(err, errlen, "cannot write %s: %s: %s", what, dir, strerror(errno));
    return 0;
}

int bench_output_check(const char *path, char *err, size_t errlen)
{
    if (!strcmp(path, "-"))  /* standard output */
        return 0;
    if (!*path)
        return fail(err, errlen, "cannot write '': an empty file name");
    const char *base;
    char *dir = split_dir(path, &base);
    if (!dir)
        return fail(err, errlen, "cannot write %s: %s", path, strerror(ENOMEM));
    struct stat st;
    int rc;
    if (!*base || !strcmp(base, ".") || !strcmp(base, "..") || (stat(path, &st) == 0 && S_ISDIR(st.st_mode)))
        rc = fail(err, errlen, "cannot write %s: %s", path, strerror(EISDIR));
    else if (is_special(path))
        rc = access(path, W_OK) == 0 ? 0 : fail(err, errlen, "cannot write %s: %s", path, strerror(errno));
    else
        rc = writable_dir(path, dir, err, errlen);
    free(dir);
    return rc;
}

int bench_output_dir_check(const char *dir, char *err, size_t errlen)
{
    if (!*dir)
        return fail(err, errlen, "cannot write in '': an empty directory name");
    char *p = strdup(dir);
    if (!p)
        return fail(err, errlen, "cannot write in %s: %s", dir, strerror(ENOMEM));
    /* The directory itself, else its nearest ancestor that exists. */
    struct stat st;
    while (stat(p, &st) != 0 && errno == ENOENT) {
        size_t len = strlen(p);
        while (len > 1 && p[len - 1] == '/')
            p[--len] = 0;
        char *slash = strrchr(p, '/');
        if (!slash)
            strcpy(p, ".");
        else if (slash == p)
            p[1] = 0;
        else
            *slash = 0;
    }
    int rc = writable_dir(dir, p, err, errlen);
    free(p);
    return rc;
}

/* The canonical name of PATH's directory entry: its directory resolved
 * (realpath; a directory that does not exist yet by its nearest existing
 * ancestor, the rest appended as written), then its last component. NULL
 * when nothing resolves or memory runs out. */
static char *entry_name(const char *path)
{
    const char *base;
    char *dir = split_dir(path, &base);
    if (!dir)
        return NULL;
    size_t keep = strlen(dir);  /* dir[0..keep) is tried; dir[keep..] does not exist */
    char *real;
    for (;;) {
        char saved = dir[keep];
        dir[keep] = 0;
        real = realpath(keep ? dir : ".", NULL);
        dir[keep] = saved;
        if (real || errno != ENOENT || keep == 0)
            break;
        while (keep > 0 && dir[keep - 1] != '/')  /* drop the last component */
            keep--;
        while (keep > 1 && dir[keep - 1] == '/')  /* and its slashes, but not the root */
            keep--;
    }
    /* The part still to be created, written as its components alone: no
     * "." and no repeated '/'. */
    size_t len = (real ? strlen(real) : 0) + strlen(dir + keep) + strlen(base) + 3;
    char *name = real ? malloc(len) : NULL;
    if (name) {
        size_t used = (size_t)snprintf(name, len, "%s", real);
        char *save = NULL;
        for (char *part = strtok_r(dir + keep, "/", &save); part; part = strtok_r(NULL, "/", &save))
            if (strcmp(part, ".") != 0)
                used += (size_t)snprintf(name + used, len - used, "/%s", part);
        snprintf(name + used, len - used, "/%s", base);
    }
    free(real);
    free(dir);
    return name;
}

bool bench_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino)
        return true;
    char *ea = entry_name(a), *eb = entry_name(b);
    bool same = ea && eb && !strcmp(ea, eb);
    free(ea);
    free(eb);
    return same;
}
