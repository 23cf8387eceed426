/* A full disk, for tests, without privileges: preloaded (LD_PRELOAD) into a
 * program, this write() fails with ENOSPC for every file under the
 * directory RTIPC_TEST_FULL_DIR names, after RTIPC_TEST_FULL_AFTER bytes
 * (default 0) have been written to such files, as a filesystem that fills up
 * part way through a file does. Other descriptors (stdout, stderr, files
 * elsewhere) are untouched.
 *
 * It replaces write() only: the calls a program makes itself. The standard
 * I/O library's own writes go to the kernel past it, so a program that
 * writes its files through stdio sees no full disk here (rtipc-bench writes
 * its outputs with write(): bench/results/outfile.c). */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static size_t written;

/* True when descriptor FD is a file under DIR. */
static int under(int fd, const char *dir)
{
    char link[64], path[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0)
        return 0;
    path[n] = 0;
    size_t len = strlen(dir);
    return strncmp(path, dir, len) == 0 && path[len] == '/';
}

ssize_t write(int fd, const void *buf, size_t count)
{
    static ssize_t (*real_write)(int, const void *, size_t);
    if (!real_write)
        real_write = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    const char *dir = getenv("RTIPC_TEST_FULL_DIR");
    if (dir && *dir && count && under(fd, dir)) {
        const char *after = getenv("RTIPC_TEST_FULL_AFTER");
        size_t room = after ? (size_t)strtoull(after, NULL, 10) : 0;
        if (written >= room) {
            errno = ENOSPC;
            return -1;
        }
        if (count > room - written)
            count = room - written;  /* a short write, then ENOSPC */
        ssize_t w = real_write(fd, buf, count);
        if (w > 0)
            written += (size_t)w;
        return w;
    }
    return real_write(fd, buf, count);
}
