/* Linux's kernel primitives as mechanisms (mechanisms.h): a raw futex, an
 * eventfd, a pipe, a POSIX message queue and a POSIX semaphore. Built for
 * Linux only (absent.c lists them elsewhere). Every receive here blocks in
 * the kernel; none is an rtipc deletion point, so each offers a kick. */
#define _GNU_SOURCE  /* pipe2, eventfd, syscall(SYS_futex) */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <mqueue.h>
#include <poll.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../names.h"
#include "mechanisms.h"

/* A message through the kernel (mq_send -> mq_receive) orders the two
 * sides, but ThreadSanitizer cannot see it: tell it (no code otherwise). */
#ifdef BENCH_MECH_TSAN
#include <sanitizer/tsan_interface.h>
#define TSAN_RELEASE(p) __tsan_release(p)
#define TSAN_ACQUIRE(p) __tsan_acquire(p)
#else
#define TSAN_RELEASE(p) ((void)(p))
#define TSAN_ACQUIRE(p) ((void)(p))
#endif

/* 0 made; 1 (the call does not exist on this kernel) or -1, with why. */
static int os_failed(const char *call, int err, char *why, size_t n)
{
    snprintf(why, n, "%s: %s", call, strerror(err));
    return err == ENOSYS ? 1 : -1;
}

/* ---- futex: a word on its own cache line, the receiver parked with
 * FUTEX_WAIT, every send followed by FUTEX_WAKE (raw: no waiter
 * bookkeeping in user space) -------------------------------------------- */

typedef struct {
    _Alignas(64) _Atomic uint32_t word;  /* sequence number + 1 of the last message */
    _Alignas(64) uint32_t seen;          /* receiver's: the last value it took */
} futex_word_t;

static long futex(_Atomic uint32_t *addr, int op, uint32_t val)
{
    return syscall(SYS_futex, (uint32_t *)addr, op, val, NULL, NULL, 0);
}

static int futex_create(size_t depth, void **obj, char *why, size_t n)
{
    (void)depth;
    futex_word_t *w = bench_mech_alloc(sizeof *w);
    if (!w)
        return bench_mech_no_memory(why, n);
    atomic_init(&w->word, 0);
    *obj = w;
    return 0;
}

static int futex_send(void *obj, uint32_t seq)
{
    futex_word_t *w = obj;
    /* Release: pairs with the receiver's acquire load. */
    atomic_store_explicit(&w->word, seq + 1, memory_order_release);
    return futex(&w->word, FUTEX_WAKE_PRIVATE, 1) < 0 ? BENCH_MECH_EOS(errno) : 0;
}

static int futex_recv(void *obj, uint32_t *seq)
{
    futex_word_t *w = obj;
    uint32_t v;
    while ((v = atomic_load_explicit(&w->word, memory_order_acquire)) == w->seen) {
        if (futex(&w->word, FUTEX_WAIT_PRIVATE, w->seen) < 0 && errno != EAGAIN && errno != EINTR)
            return BENCH_MECH_EOS(errno);
    }
    w->seen = v;
    *seq = v - 1;
    return 0;
}

static void futex_kick(void *obj)
{
    futex_word_t *w = obj;
    atomic_store_explicit(&w->word, BENCH_MECH_MARKER, memory_order_release);
    futex(&w->word, FUTEX_WAKE_PRIVATE, 1);
}

static int futex_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t s = BENCH_MECH_MARKER;
        if (futex_send(obj, seq + (uint32_t)i) != 0 || futex_recv(obj, &s) != 0 || s != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}

const bench_mech_t bench_mech_futex = {
    .name = BENCH_MECH_FUTEX,
    .traits = BENCH_MECH_PARKS | BENCH_MECH_FOREIGN_WAIT,
    .create = futex_create,
    .destroy = free,
    .send = futex_send,
    .recv = futex_recv,
    .kick = futex_kick,
    .pairs = futex_pairs,
};

/* ---- eventfd: a count, no payload; the sequence number goes through a
 * shared word stored before the write and loaded after the read --------- */

#define EFD_MARKER (1ull << 40)  /* the end of a stream, added to the count */

typedef struct {
    int fd;
    _Atomic uint32_t seq;
} efd_t;

static int efd_create(size_t depth, void **obj, char *why, size_t n)
{
    (void)depth;
    efd_t *e = bench_mech_alloc(sizeof *e);
    if (!e)
        return bench_mech_no_memory(why, n);
    e->fd = eventfd(0, EFD_CLOEXEC);
    if (e->fd < 0) {
        int err = errno;
        free(e);
        return os_failed("eventfd", err, why, n);
    }
    atomic_init(&e->seq, 0);
    *obj = e;
    return 0;
}

static void efd_destroy(void *obj)
{
    efd_t *e = obj;
    close(e->fd);
    free(e);
}

static int efd_add(efd_t *e, uint64_t v)
{
    ssize_t w;
    do
        w = write(e->fd, &v, sizeof v);
    while (w < 0 && errno == EINTR);
    return w == (ssize_t)sizeof v ? 0 : BENCH_MECH_EOS(w < 0 ? errno : EIO);
}

static int efd_take(efd_t *e, uint64_t *count)
{
    ssize_t r;
    do
        r = read(e->fd, count, sizeof *count);
    while (r < 0 && errno == EINTR);
    return r == (ssize_t)sizeof *count ? 0 : BENCH_MECH_EOS(r < 0 ? errno : EIO);
}

static int efd_send(void *obj, uint32_t seq)
{
    efd_t *e = obj;
    /* Release: pairs with the acquire in efd_recv; publishes the sequence
     * number the count stands for. */
    atomic_store_explicit(&e->seq, seq, memory_order_release);
    return efd_add(e, 1);
}

static int efd_recv(void *obj, uint32_t *seq)
{
    efd_t *e = obj;
    uint64_t count;
    int rc = efd_take(e, &count);
    if (rc != 0)
        return rc;
    *seq = atomic_load_explicit(&e->seq, memory_order_acquire);
    return count == 1 ? 0 : BENCH_MECH_EMERGED;
}

static void efd_kick(void *obj)
{
    efd_t *e = obj;
    atomic_store_explicit(&e->seq, BENCH_MECH_MARKER, memory_order_release);
    (void)efd_add(e, EFD_MARKER);
}

static int efd_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t s = BENCH_MECH_MARKER;
        if (efd_send(obj, seq + (uint32_t)i) != 0 || efd_recv(obj, &s) != 0 || s != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}

/* A stream: one write of 1 per item; the reader takes whatever count has
 * accumulated (counts merge: that is what eventfd is for). */
static int efd_push_each(void *obj, const uint32_t *items, int n)
{
    (void)items;
    for (int k = 0; k < n; k++) {
        int rc = efd_add(obj, 1);
        if (rc != 0)
            return rc;
    }
    return n;
}

static int efd_push_marker(void *obj) { return efd_add(obj, EFD_MARKER) == 0 ? 1 : -1; }

static long efd_pop_count(void *obj, bool *end)
{
    uint64_t count;
    int rc = efd_take(obj, &count);
    if (rc != 0)
        return rc;
    if (count >= EFD_MARKER) {
        count -= EFD_MARKER;
        *end = true;
    }
    return (long)count;
}

const bench_mech_t bench_mech_eventfd = {
    .name = BENCH_MECH_EVENTFD,
    .traits = BENCH_MECH_PARKS | BENCH_MECH_MERGES | BENCH_MECH_FOREIGN_WAIT,
    .create = efd_create,
    .destroy = efd_destroy,
    .send = efd_send,
    .try_send = efd_send,  /* a write that raises the count never waits */
    .recv = efd_recv,
    .kick = efd_kick,
    .pairs = efd_pairs,
    .push_each = efd_push_each,
    .pop_count = efd_pop_count,
    .push_marker = efd_push_marker,
};

/* ---- pipe: 4-byte write / 4-byte read, blocking; it holds what the kernel
 * gives a pipe (64 KiB by default) --------------------------------------- */

typedef struct {
    int fd[2];
} pipe_t;

static int pipe_create(size_t depth, void **obj, char *why, size_t n)
{
    (void)depth;
    pipe_t *p = bench_mech_alloc(sizeof *p);
    if (!p)
        return bench_mech_no_memory(why, n);
    if (pipe2(p->fd, O_CLOEXEC) != 0) {
        int e = errno;
        free(p);
        return os_failed("pipe2", e, why, n);
    }
    *obj = p;
    return 0;
}

static void pipe_destroy(void *obj)
{
    pipe_t *p = obj;
    close(p->fd[0]);
    close(p->fd[1]);
    free(p);
}

static int pipe_send(void *obj, uint32_t v)
{
    pipe_t *p = obj;
    ssize_t w;
    do
        w = write(p->fd[1], &v, sizeof v);  /* <= PIPE_BUF: all or nothing */
    while (w < 0 && errno == EINTR);
    return w == (ssize_t)sizeof v ? 0 : BENCH_MECH_EOS(w < 0 ? errno : EIO);
}

/* Writes only when the pipe has room (poll without waiting). */
static int pipe_try_send(void *obj, uint32_t v)
{
    pipe_t *p = obj;
    struct pollfd pf = {.fd = p->fd[1], .events = POLLOUT};
    if (poll(&pf, 1, 0) <= 0 || !(pf.revents & POLLOUT))
        return BENCH_MECH_EFULL;
    return pipe_send(obj, v);
}

static int pipe_recv(void *obj, uint32_t *v)
{
    pipe_t *p = obj;
    size_t got = 0;
    while (got < sizeof *v) {
        ssize_t r = read(p->fd[0], (unsigned char *)v + got, sizeof *v - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return BENCH_MECH_EOS(r < 0 ? errno : EPIPE);
        got += (size_t)r;
    }
    return 0;
}

/* Releases either side without ever blocking: room -> a marker for a stuck
 * reader; data -> drained for a stuck writer. */
static void pipe_kick(void *obj)
{
    pipe_t *p = obj;
    struct pollfd pf[2] = {{.fd = p->fd[1], .events = POLLOUT}, {.fd = p->fd[0], .events = POLLIN}};
    if (poll(pf, 2, 0) <= 0)
        return;
    if (pf[0].revents & POLLOUT)
        (void)pipe_send(p, BENCH_MECH_MARKER);
    else if (pf[1].revents & POLLIN) {
        unsigned char junk[4096];
        (void)!read(p->fd[0], junk, sizeof junk);
    }
}

static int pipe_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t s = BENCH_MECH_MARKER;
        if (pipe_send(obj, seq + (uint32_t)i) != 0 || pipe_recv(obj, &s) != 0 || s != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}

static int pipe_push_each(void *obj, const uint32_t *items, int n)
{
    for (int k = 0; k < n; k++) {
        int rc = pipe_send(obj, items[k]);
        if (rc != 0)
            return rc;
    }
    return n;
}

static int pipe_pop_each(void *obj, uint32_t *items, int n)
{
    (void)n;
    int rc = pipe_recv(obj, items);
    return rc ? rc : 1;
}

const bench_mech_t bench_mech_pipe = {
    .name = BENCH_MECH_PIPE,
    .traits = BENCH_MECH_PARKS | BENCH_MECH_FOREIGN_WAIT,
    .create = pipe_create,
    .destroy = pipe_destroy,
    .send = pipe_send,
    .try_send = pipe_try_send,
    .recv = pipe_recv,
    .kick = pipe_kick,
    .pairs = pipe_pairs,
    .push_each = pipe_push_each,
    .pop_each = pipe_pop_each,
};

/* ---- posix-mq: 4-byte messages, the depth asked for or, when the kernel
 * refuses it (an unprivileged process may be held to msg_max, 10), 10 ---- */

typedef struct {
    mqd_t q;
    size_t depth;  /* what the kernel granted */
} mq_t;

static int mq_create(size_t depth, void **obj, char *why, size_t n)
{
    static _Atomic unsigned counter;
    mq_t *p = bench_mech_alloc(sizeof *p);
    if (!p)
        return bench_mech_no_memory(why, n);
    char name[64];
    snprintf(name, sizeof name, "/rtipc-bench-mq-%ld-%u", (long)getpid(), atomic_fetch_add(&counter, 1));
    const long depths[] = {(long)depth, 10};
    p->q = (mqd_t)-1;
    int e = 0;
    for (size_t i = 0; i < 2 && p->q == (mqd_t)-1; i++) {
        struct mq_attr a = {.mq_maxmsg = depths[i], .mq_msgsize = sizeof(uint32_t)};
        p->q = mq_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600, &a);
        e = errno;
        if (p->q != (mqd_t)-1)
            p->depth = (size_t)depths[i];
        else if (e != EINVAL && e != EMFILE && e != ENOMEM)
            break;
    }
    if (p->q == (mqd_t)-1) {
        free(p);
        return os_failed("mq_open", e, why, n);
    }
    mq_unlink(name);  /* the descriptor keeps it alive; nothing is left behind */
    *obj = p;
    return 0;
}

static void mq_destroy(void *obj)
{
    mq_t *p = obj;
    mq_close(p->q);
    free(p);
}

static size_t mq_capacity(void *obj) { return ((mq_t *)obj)->depth; }

static int mq_send1(void *obj, uint32_t v)
{
    mq_t *p = obj;
    int rc;
    TSAN_RELEASE(p);
    do
        rc = mq_send(p->q, (const char *)&v, sizeof v, 0);
    while (rc != 0 && errno == EINTR);
    return rc == 0 ? 0 : BENCH_MECH_EOS(errno);
}

/* Never blocks: a deadline in the past fails at once when the queue is full. */
static int mq_try_send1(void *obj, uint32_t v)
{
    mq_t *p = obj;
    struct timespec past = {0, 0};
    TSAN_RELEASE(p);
    return mq_timedsend(p->q, (const char *)&v, sizeof v, 0, &past) == 0 ? 0 : BENCH_MECH_EOS(errno);
}

static int mq_recv1(void *obj, uint32_t *v)
{
    mq_t *p = obj;
    ssize_t r;
    do
        r = mq_receive(p->q, (char *)v, sizeof *v, NULL);
    while (r < 0 && errno == EINTR);
    TSAN_ACQUIRE(p);
    return r == (ssize_t)sizeof *v ? 0 : BENCH_MECH_EOS(r < 0 ? errno : EIO);
}

static void mq_kick(void *obj)
{
    mq_t *p = obj;
    struct timespec past = {0, 0};  /* an expired deadline: never waits */
    uint32_t v = BENCH_MECH_MARKER;
    if (mq_timedsend(p->q, (const char *)&v, sizeof v, 0, &past) != 0)
        (void)mq_timedreceive(p->q, (char *)&v, sizeof v, NULL, &past);
}

static int mq_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t s = BENCH_MECH_MARKER;
        if (mq_send1(obj, seq + (uint32_t)i) != 0 || mq_recv1(obj, &s) != 0 || s != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}

static int mq_push_each(void *obj, const uint32_t *items, int n)
{
    for (int k = 0; k < n; k++) {
        int rc = mq_send1(obj, items[k]);
        if (rc != 0)
            return rc;
    }
    return n;
}

static int mq_pop_each(void *obj, uint32_t *items, int n)
{
    (void)n;
    int rc = mq_recv1(obj, items);
    return rc ? rc : 1;
}

const bench_mech_t bench_mech_posix_mq = {
    .name = BENCH_MECH_POSIX_MQ,
    .traits = BENCH_MECH_PARKS | BENCH_MECH_FOREIGN_WAIT,
    .create = mq_create,
    .destroy = mq_destroy,
    .send = mq_send1,
    .try_send = mq_try_send1,
    .recv = mq_recv1,
    .capacity = mq_capacity,
    .kick = mq_kick,
    .pairs = mq_pairs,
    .push_each = mq_push_each,
    .pop_each = mq_pop_each,
};

/* ---- posix-sem: sem_post / sem_wait, the sequence number in a word ------ */

typedef struct {
    sem_t sem;
    _Atomic uint32_t seq;
} psem_t;

static int psem_create(size_t depth, void **obj, char *why, size_t n)
{
    (void)depth;
    psem_t *s = bench_mech_alloc(sizeof *s);
    if (!s)
        return bench_mech_no_memory(why, n);
    if (sem_init(&s->sem, 0, 0) != 0) {
        int e = errno;
        free(s);
        return os_failed("sem_init", e, why, n);
    }
    atomic_init(&s->seq, 0);
    *obj = s;
    return 0;
}

static void psem_destroy(void *obj)
{
    psem_t *s = obj;
    sem_destroy(&s->sem);
    free(s);
}

static int psem_send(void *obj, uint32_t seq)
{
    psem_t *s = obj;
    /* Release: pairs with the acquire in psem_recv. */
    atomic_store_explicit(&s->seq, seq, memory_order_release);
    return sem_post(&s->sem) == 0 ? 0 : BENCH_MECH_EOS(errno);
}

static int psem_recv(void *obj, uint32_t *seq)
{
    psem_t *s = obj;
    int rc;
    do
        rc = sem_wait(&s->sem);
    while (rc != 0 && errno == EINTR);
    if (rc != 0)
        return BENCH_MECH_EOS(errno);
    *seq = atomic_load_explicit(&s->seq, memory_order_acquire);
    return 0;
}

static void psem_kick(void *obj)
{
    psem_t *s = obj;
    atomic_store_explicit(&s->seq, BENCH_MECH_MARKER, memory_order_release);
    sem_post(&s->sem);
}

static int psem_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t s = BENCH_MECH_MARKER;
        if (psem_send(obj, seq + (uint32_t)i) != 0 || psem_recv(obj, &s) != 0 || s != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}

const bench_mech_t bench_mech_posix_sem = {
    .name = BENCH_MECH_POSIX_SEM,
    .traits = BENCH_MECH_PARKS | BENCH_MECH_FOREIGN_WAIT,
    .create = psem_create,
    .destroy = psem_destroy,
    .send = psem_send,
    .recv = psem_recv,
    .kick = psem_kick,
    .pairs = psem_pairs,
};
