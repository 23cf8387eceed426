/* peers: rtipc's objects side by side with the physical floor (a spinning
 * cache line), the kernel's own primitives and two lock-free SPSC libraries,
 * measured in one run with one harness: one-way handoff latency with the
 * receiver parked and with it waiting actively, streaming throughput, and
 * the cost of one uncontended send + receive. Ends with the project's
 * targets, each computed from the figures of this run. */
#define _GNU_SOURCE  /* pipe2, eventfd, syscall(SYS_futex) */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <math.h>
#include <mqueue.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "experiments.h"
#include "handoff_extra.h"
#include "linux_only.h"
#include "peers_cxx.h"
#include "rtipc/config.h"

#if defined(__has_include)
#if __has_include(<ck_ring.h>)
#include <ck_ring.h>
#define PEERS_HAVE_CK 1
#endif
#endif

/* ck_ring orders its indices with plain volatile accesses and compiler
 * barriers (enough on x86), which ThreadSanitizer cannot see: under TSan it
 * would report the ring's own slots as races, so it is left out there. */
#if defined(__SANITIZE_THREAD__)
#define PEERS_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PEERS_TSAN 1
#endif
#endif

/* A message through the kernel (mq_send -> mq_receive) orders the two
 * sides, but ThreadSanitizer cannot see it: tell it (no code otherwise). */
#ifdef PEERS_TSAN
#include <sanitizer/tsan_interface.h>
#define TSAN_RELEASE(p) __tsan_release(p)
#define TSAN_ACQUIRE(p) __tsan_acquire(p)
#else
#define TSAN_RELEASE(p) ((void)(p))
#define TSAN_ACQUIRE(p) ((void)(p))
#endif

#define EXP BENCH_EXP_PEERS
#define CAP 1024                  /* items every bounded queue/ring holds */
#define RUN 64                    /* items per push/pop call in the throughput loops */
#define PAIRS 1000                /* call-cost: send+receive pairs per timed batch */
#define MARKER UINT32_MAX         /* throughput: end of the stream; handoff: a kick */
#define EFD_MARKER (1ull << 40)   /* eventfd: the end of the stream, added to the count */
#define STALL_NS 2000000000LL     /* a spinning wait gives up after this long */
#define KICK_AFTER_NS 3000000000LL /* the watchdog unblocks a receiver idle this long */

/* Local error codes (rtipc's are -1..-12); the handoff driver prints them. */
#define ERR_STALL (-2000)   /* a spinning receiver saw nothing for STALL_NS */
#define ERR_MERGED (-2001)  /* eventfd count not 1: two signals merged */
#define ERR_MISSED (-2002)  /* mailbox version skipped: an update was lost */
#define ERR_FULL (-2003)    /* a non-blocking send found the ring full */
#define ERR_OS(e) (-10000 - (e))

#define SLEEP_VARIANT "gap=50-100us"
#define ACTIVE_VARIANT "gap=1-3us"
#define ACTIVE_TRYPOP_VARIANT "gap=1-3us,spin-on-try-pop"
#define CALL_VARIANT "same-thread"
#define TP_EACH "per-item"
#define TP_BULK "bulk=64"

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void sleep_ns(int64_t ns)
{
    struct timespec ts = {.tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* Spin until *word differs from @p old (a spinning receiver), giving up
 * after STALL_NS. The clock is read only once the first polls failed, and
 * then every 1024 polls. */
static int spin_while_equal(_Atomic uint32_t *word, uint32_t old, uint32_t *now_value)
{
    int64_t deadline = 0;
    for (unsigned i = 1;; i++) {
        /* Acquire: pairs with the sender's release store. */
        uint32_t v = atomic_load_explicit(word, memory_order_acquire);
        if (v != old) {
            *now_value = v;
            return 0;
        }
        cpu_relax();
        if ((i & 1023) == 0) {
            int64_t now = bench_now_ns();
            if (!deadline)
                deadline = now + STALL_NS;
            else if (now > deadline)
                return ERR_STALL;
        }
    }
}

/* ------------------------------------------------------------ objects */

/* Objects of the peers whose receivers block in the kernel start with this
 * line: the sender counts its sends in it, and the watchdog thread releases
 * a receiver that has waited KICK_AFTER_NS without a send (a lost message
 * must become a failure, not a hang; these calls are no rtipc deletion
 * points). */
typedef struct {
    _Alignas(64) _Atomic uint64_t sends;
} peer_hdr_t;

static void count_send(peer_hdr_t *h)
{
    /* Only the sender writes it: a plain increment is enough. */
    atomic_store_explicit(&h->sends, atomic_load_explicit(&h->sends, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

/* Zeroed, cache-line aligned memory for a peer object. */
static void *peer_alloc(size_t size)
{
    size = (size + 63) / 64 * 64;
    void *p = aligned_alloc(64, size);
    if (p)
        memset(p, 0, size);
    return p;
}

static int no_memory(char *why, size_t n)
{
    snprintf(why, n, "out of memory");
    return -1;
}

/* ---- spin: one cache line, written by the sender, polled by the receiver */

typedef struct {
    peer_hdr_t h;
    _Alignas(64) _Atomic uint32_t word;  /* sequence number + 1 of the last message */
    _Alignas(64) uint32_t seen;          /* receiver's: the last value it took */
} word_peer_t;

static int word_create(void **obj, char *why, size_t n)
{
    word_peer_t *w = peer_alloc(sizeof *w);
    if (!w)
        return no_memory(why, n);
    atomic_init(&w->word, 0);
    *obj = w;
    return 0;
}
static void word_destroy(void *obj) { free(obj); }

static int spin_send(void *obj, uint32_t seq)
{
    word_peer_t *w = obj;
    /* Release: pairs with the receiver's acquire load. */
    atomic_store_explicit(&w->word, seq + 1, memory_order_release);
    return 0;
}

static int spin_recv(void *obj, uint32_t *seq)
{
    word_peer_t *w = obj;
    uint32_t v;
    int rc = spin_while_equal(&w->word, w->seen, &v);
    if (rc != 0)
        return rc;
    w->seen = v;
    *seq = v - 1;
    return 0;
}

static int spin_pairs(void *obj, uint32_t seq, int n)
{
    word_peer_t *w = obj;
    for (int i = 0; i < n; i++) {
        uint32_t want = seq + (uint32_t)i + 1;
        atomic_store_explicit(&w->word, want, memory_order_release);
        if (atomic_load_explicit(&w->word, memory_order_acquire) != want)
            return -1;
    }
    return 0;
}

/* ---- futex: the same word, the receiver parked with FUTEX_WAIT, every
 * send followed by FUTEX_WAKE (raw: no waiter bookkeeping in user space) */

static long futex(_Atomic uint32_t *addr, int op, uint32_t val)
{
    return syscall(SYS_futex, (uint32_t *)addr, op, val, NULL, NULL, 0);
}

static int futex_send(void *obj, uint32_t seq)
{
    word_peer_t *w = obj;
    atomic_store_explicit(&w->word, seq + 1, memory_order_release);
    long r = futex(&w->word, FUTEX_WAKE_PRIVATE, 1);
    count_send(&w->h);
    return r < 0 ? ERR_OS(errno) : 0;
}

static int futex_recv(void *obj, uint32_t *seq)
{
    word_peer_t *w = obj;
    uint32_t v;
    /* Acquire: pairs with the sender's release store. */
    while ((v = atomic_load_explicit(&w->word, memory_order_acquire)) == w->seen) {
        if (futex(&w->word, FUTEX_WAIT_PRIVATE, w->seen) < 0 && errno != EAGAIN && errno != EINTR)
            return ERR_OS(errno);
    }
    w->seen = v;
    *seq = v - 1;
    return 0;
}

static void futex_kick(void *obj)
{
    word_peer_t *w = obj;
    atomic_store_explicit(&w->word, MARKER, memory_order_release);
    futex(&w->word, FUTEX_WAKE_PRIVATE, 1);
}

static int futex_pairs(void *obj, uint32_t seq, int n)
{
    word_peer_t *w = obj;
    for (int i = 0; i < n; i++) {
        uint32_t s = MARKER;
        if (futex_send(w, seq + (uint32_t)i) != 0 || futex_recv(w, &s) != 0 || s != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}

/* ---- eventfd: a count, no payload; the sequence number goes through a
 * shared word stored before the write and loaded after the read */

typedef struct {
    peer_hdr_t h;
    _Alignas(64) int fd;
    _Atomic uint32_t seq;
} efd_peer_t;

static int efd_create(void **obj, char *why, size_t n)
{
    efd_peer_t *e = peer_alloc(sizeof *e);
    if (!e)
        return no_memory(why, n);
    e->fd = eventfd(0, EFD_CLOEXEC);
    if (e->fd < 0) {
        int err = errno;
        free(e);
        snprintf(why, n, "eventfd: %s", strerror(err));
        return err == ENOSYS ? 1 : -1;
    }
    *obj = e;
    return 0;
}
static void efd_destroy(void *obj)
{
    efd_peer_t *e = obj;
    close(e->fd);
    free(e);
}

static int efd_add(efd_peer_t *e, uint64_t v)
{
    ssize_t w;
    do
        w = write(e->fd, &v, sizeof v);
    while (w < 0 && errno == EINTR);
    return w == (ssize_t)sizeof v ? 0 : ERR_OS(w < 0 ? errno : EIO);
}

static int efd_take(efd_peer_t *e, uint64_t *count)
{
    ssize_t r;
    do
        r = read(e->fd, count, sizeof *count);
    while (r < 0 && errno == EINTR);
    return r == (ssize_t)sizeof *count ? 0 : ERR_OS(r < 0 ? errno : EIO);
}

static int efd_send(void *obj, uint32_t seq)
{
    efd_peer_t *e = obj;
    /* Release: pairs with the acquire in efd_recv. */
    atomic_store_explicit(&e->seq, seq, memory_order_release);
    int rc = efd_add(e, 1);
    count_send(&e->h);
    return rc;
}

static int efd_recv(void *obj, uint32_t *seq)
{
    efd_peer_t *e = obj;
    uint64_t count;
    int rc = efd_take(e, &count);
    if (rc != 0)
        return rc;
    *seq = atomic_load_explicit(&e->seq, memory_order_acquire);
    return count == 1 ? 0 : ERR_MERGED;
}

static void efd_kick(void *obj)
{
    efd_peer_t *e = obj;
    atomic_store_explicit(&e->seq, MARKER, memory_order_release);
    (void)efd_add(e, EFD_MARKER);
}

static int efd_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t s = MARKER;
        if (efd_send(obj, seq + (uint32_t)i) != 0 || efd_recv(obj, &s) != 0 || s != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}

/* Throughput: one write of 1 per item; the reader takes whatever count has
 * accumulated (counts merge: that is what eventfd is for). */
static int efd_push(void *obj, const uint32_t *items, int n)
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

/* ---- pipe: 4-byte write / 4-byte read, blocking */

typedef struct {
    peer_hdr_t h;
    _Alignas(64) int fd[2];
} pipe_peer_t;

static int pipe_create(void **obj, char *why, size_t n)
{
    pipe_peer_t *p = peer_alloc(sizeof *p);
    if (!p)
        return no_memory(why, n);
    if (pipe2(p->fd, O_CLOEXEC) != 0) {
        int e = errno;
        free(p);
        snprintf(why, n, "pipe2: %s", strerror(e));
        return e == ENOSYS ? 1 : -1;
    }
    *obj = p;
    return 0;
}
static void pipe_destroy(void *obj)
{
    pipe_peer_t *p = obj;
    close(p->fd[0]);
    close(p->fd[1]);
    free(p);
}

static int pipe_write4(pipe_peer_t *p, uint32_t v)
{
    ssize_t w;
    do
        w = write(p->fd[1], &v, sizeof v);  /* <= PIPE_BUF: all or nothing */
    while (w < 0 && errno == EINTR);
    return w == (ssize_t)sizeof v ? 0 : ERR_OS(w < 0 ? errno : EIO);
}

static int pipe_send(void *obj, uint32_t seq)
{
    pipe_peer_t *p = obj;
    int rc = pipe_write4(p, seq);
    count_send(&p->h);
    return rc;
}

static int pipe_recv(void *obj, uint32_t *seq)
{
    pipe_peer_t *p = obj;
    size_t got = 0;
    while (got < sizeof *seq) {
        ssize_t r = read(p->fd[0], (unsigned char *)seq + got, sizeof *seq - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return ERR_OS(r < 0 ? errno : EPIPE);
        got += (size_t)r;
    }
    return 0;
}

/* Releases either side without ever blocking: room -> a marker for a stuck
 * reader; data -> drained for a stuck writer. */
static void pipe_kick(void *obj)
{
    pipe_peer_t *p = obj;
    struct pollfd pf[2] = {{.fd = p->fd[1], .events = POLLOUT}, {.fd = p->fd[0], .events = POLLIN}};
    if (poll(pf, 2, 0) <= 0)
        return;
    if (pf[0].revents & POLLOUT)
        (void)pipe_write4(p, MARKER);
    else if (pf[1].revents & POLLIN) {
        unsigned char junk[4096];
        (void)!read(p->fd[0], junk, sizeof junk);
    }
}

static int pipe_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t s = MARKER;
        if (pipe_send(obj, seq + (uint32_t)i) != 0 || pipe_recv(obj, &s) != 0 || s != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}

/* ---- POSIX message queue: 4-byte messages */

typedef struct {
    peer_hdr_t h;
    _Alignas(64) mqd_t q;
} mq_peer_t;

static long mq_depth_used;  /* depth the kernel granted (experiment thread only) */

static int mq_create(void **obj, char *why, size_t n)
{
    static unsigned counter;
    mq_peer_t *p = peer_alloc(sizeof *p);
    if (!p)
        return no_memory(why, n);
    char name[64];
    snprintf(name, sizeof name, "/rtipc-bench-peers-%ld-%u", (long)getpid(), counter++);
    /* CAP first; an unprivileged process may be held to msg_max (10). */
    const long depths[] = {CAP, 10};
    p->q = (mqd_t)-1;
    int e = 0;
    for (size_t i = 0; i < 2 && p->q == (mqd_t)-1; i++) {
        struct mq_attr a = {.mq_maxmsg = depths[i], .mq_msgsize = sizeof(uint32_t)};
        p->q = mq_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600, &a);
        e = errno;
        if (p->q != (mqd_t)-1)
            mq_depth_used = depths[i];
        else if (e != EINVAL && e != EMFILE && e != ENOMEM)
            break;
    }
    if (p->q == (mqd_t)-1) {
        free(p);
        snprintf(why, n, "mq_open: %s", strerror(e));
        return e == ENOSYS ? 1 : -1;
    }
    mq_unlink(name);  /* the descriptor keeps it alive; nothing is left behind */
    *obj = p;
    return 0;
}
static void mq_destroy(void *obj)
{
    mq_peer_t *p = obj;
    mq_close(p->q);
    free(p);
}

static int mq_send1(mq_peer_t *p, uint32_t v)
{
    int rc;
    TSAN_RELEASE(p);
    do
        rc = mq_send(p->q, (const char *)&v, sizeof v, 0);
    while (rc != 0 && errno == EINTR);
    return rc == 0 ? 0 : ERR_OS(errno);
}

static int mq_peer_send(void *obj, uint32_t seq)
{
    mq_peer_t *p = obj;
    int rc = mq_send1(p, seq);
    count_send(&p->h);
    return rc;
}

static int mq_peer_recv(void *obj, uint32_t *seq)
{
    mq_peer_t *p = obj;
    ssize_t r;
    do
        r = mq_receive(p->q, (char *)seq, sizeof *seq, NULL);
    while (r < 0 && errno == EINTR);
    TSAN_ACQUIRE(p);
    return r == (ssize_t)sizeof *seq ? 0 : ERR_OS(r < 0 ? errno : EIO);
}

static void mq_kick(void *obj)
{
    mq_peer_t *p = obj;
    struct timespec past = {0, 0};  /* an expired deadline: never waits */
    uint32_t v = MARKER;
    if (mq_timedsend(p->q, (const char *)&v, sizeof v, 0, &past) != 0)
        (void)mq_timedreceive(p->q, (char *)&v, sizeof v, NULL, &past);
}

static int mq_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t s = MARKER;
        if (mq_peer_send(obj, seq + (uint32_t)i) != 0 || mq_peer_recv(obj, &s) != 0 || s != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}

/* ---- POSIX semaphore: sem_post / sem_wait, the sequence number in a word */

typedef struct {
    peer_hdr_t h;
    _Alignas(64) sem_t sem;
    _Atomic uint32_t seq;
} psem_peer_t;

static int psem_create(void **obj, char *why, size_t n)
{
    psem_peer_t *s = peer_alloc(sizeof *s);
    if (!s)
        return no_memory(why, n);
    if (sem_init(&s->sem, 0, 0) != 0) {
        int e = errno;
        free(s);
        snprintf(why, n, "sem_init: %s", strerror(e));
        return e == ENOSYS ? 1 : -1;
    }
    *obj = s;
    return 0;
}
static void psem_destroy(void *obj)
{
    psem_peer_t *s = obj;
    sem_destroy(&s->sem);
    free(s);
}

static int psem_send(void *obj, uint32_t seq)
{
    psem_peer_t *s = obj;
    /* Release: pairs with the acquire in psem_recv. */
    atomic_store_explicit(&s->seq, seq, memory_order_release);
    int rc = sem_post(&s->sem) == 0 ? 0 : ERR_OS(errno);
    count_send(&s->h);
    return rc;
}

static int psem_recv(void *obj, uint32_t *seq)
{
    psem_peer_t *s = obj;
    int rc;
    do
        rc = sem_wait(&s->sem);
    while (rc != 0 && errno == EINTR);
    if (rc != 0)
        return ERR_OS(errno);
    *seq = atomic_load_explicit(&s->seq, memory_order_acquire);
    return 0;
}

static void psem_kick(void *obj)
{
    psem_peer_t *s = obj;
    atomic_store_explicit(&s->seq, MARKER, memory_order_release);
    sem_post(&s->sem);
}

static int psem_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t s = MARKER;
        if (psem_send(obj, seq + (uint32_t)i) != 0 || psem_recv(obj, &s) != 0 || s != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}

/* ---- mutex-condvar: a C ring of CAP items under a pthread mutex, with
 * "not empty" and "not full" condition variables (signalled after unlock) */

typedef struct {
    peer_hdr_t h;
    _Alignas(64) pthread_mutex_t m;
    pthread_cond_t not_empty, not_full;
    size_t head, count;
    uint32_t buf[CAP];
} mcv_peer_t;

static int mcv_create(void **obj, char *why, size_t n)
{
    mcv_peer_t *q = peer_alloc(sizeof *q);
    if (!q)
        return no_memory(why, n);
    pthread_mutex_init(&q->m, NULL);
    pthread_cond_init(&q->not_empty, NULL);
    pthread_cond_init(&q->not_full, NULL);
    *obj = q;
    return 0;
}
static void mcv_destroy(void *obj)
{
    mcv_peer_t *q = obj;
    pthread_cond_destroy(&q->not_empty);
    pthread_cond_destroy(&q->not_full);
    pthread_mutex_destroy(&q->m);
    free(q);
}

static int mcv_push(mcv_peer_t *q, uint32_t v)
{
    pthread_mutex_lock(&q->m);
    while (q->count == CAP)
        pthread_cond_wait(&q->not_full, &q->m);
    q->buf[(q->head + q->count) % CAP] = v;
    q->count++;
    pthread_mutex_unlock(&q->m);
    pthread_cond_signal(&q->not_empty);
    return 0;
}

static int mcv_pop(mcv_peer_t *q, uint32_t *v)
{
    pthread_mutex_lock(&q->m);
    while (q->count == 0)
        pthread_cond_wait(&q->not_empty, &q->m);
    *v = q->buf[q->head];
    q->head = (q->head + 1) % CAP;
    q->count--;
    pthread_mutex_unlock(&q->m);
    pthread_cond_signal(&q->not_full);
    return 0;
}

static int mcv_send(void *obj, uint32_t seq)
{
    mcv_peer_t *q = obj;
    int rc = mcv_push(q, seq);
    count_send(&q->h);
    return rc;
}
static int mcv_recv(void *obj, uint32_t *seq) { return mcv_pop(obj, seq); }

static void mcv_kick(void *obj)
{
    mcv_peer_t *q = obj;
    pthread_mutex_lock(&q->m);
    if (q->count < CAP) {
        q->buf[(q->head + q->count) % CAP] = MARKER;
        q->count++;
    } else {
        q->head = (q->head + 1) % CAP;
        q->count--;
    }
    pthread_mutex_unlock(&q->m);
    pthread_cond_broadcast(&q->not_empty);
    pthread_cond_broadcast(&q->not_full);
}

static int mcv_pairs(void *obj, uint32_t seq, int n)
{
    mcv_peer_t *q = obj;
    for (int i = 0; i < n; i++) {
        uint32_t s = MARKER;
        if (mcv_push(q, seq + (uint32_t)i) != 0 || mcv_pop(q, &s) != 0 || s != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}

/* ---- std-queue-mutex: the C++ bounded std::queue (peers_cxx.cpp) */

typedef struct {
    peer_hdr_t h;
    _Alignas(64) peers_stdq_t *q;
} stdq_peer_t;

static int stdq_create(void **obj, char *why, size_t n)
{
    stdq_peer_t *p = peer_alloc(sizeof *p);
    if (!p)
        return no_memory(why, n);
    p->q = peers_stdq_create(CAP);
    if (!p->q) {
        free(p);
        return no_memory(why, n);
    }
    *obj = p;
    return 0;
}
static void stdq_destroy(void *obj)
{
    stdq_peer_t *p = obj;
    peers_stdq_delete(p->q);
    free(p);
}
static int stdq_send(void *obj, uint32_t seq)
{
    stdq_peer_t *p = obj;
    int rc = peers_stdq_push(p->q, seq) ? ERR_OS(EIO) : 0;
    count_send(&p->h);
    return rc;
}
static int stdq_recv(void *obj, uint32_t *seq)
{
    return peers_stdq_pop(((stdq_peer_t *)obj)->q, seq) ? ERR_OS(EIO) : 0;
}
static void stdq_kick(void *obj)
{
    stdq_peer_t *p = obj;
    uint32_t junk;
    if (peers_stdq_try_push(p->q, MARKER) == 1)
        (void)peers_stdq_try_pop(p->q, &junk);
}
static int stdq_pairs(void *obj, uint32_t seq, int n) { return peers_stdq_pairs(((stdq_peer_t *)obj)->q, seq, n); }

/* ---- ck-ring: Concurrency Kit's SPSC ring of pointers, the u32 carried in
 * the pointer value (slots are 8 bytes) */

#if defined(PEERS_HAVE_CK) && !defined(PEERS_TSAN)
typedef struct {
    peer_hdr_t h;
    _Alignas(64) ck_ring_t ring;
    _Alignas(64) ck_ring_buffer_t buf[CAP];
} ck_peer_t;

static int ck_create(void **obj, char *why, size_t n)
{
    ck_peer_t *c = peer_alloc(sizeof *c);
    if (!c)
        return no_memory(why, n);
    ck_ring_init(&c->ring, CAP);  /* holds CAP - 1 items */
    *obj = c;
    return 0;
}

static inline bool ck_put(ck_peer_t *c, uint32_t v)
{
    return ck_ring_enqueue_spsc(&c->ring, c->buf, (void *)(uintptr_t)v);
}

static inline bool ck_get(ck_peer_t *c, uint32_t *v)
{
    void *p;
    if (!ck_ring_dequeue_spsc(&c->ring, c->buf, &p))
        return false;
    *v = (uint32_t)(uintptr_t)p;
    return true;
}

static int ck_send(void *obj, uint32_t seq) { return ck_put(obj, seq) ? 0 : ERR_FULL; }

static int ck_recv(void *obj, uint32_t *seq)
{
    int64_t deadline = 0;
    for (unsigned i = 1; !ck_get(obj, seq); i++) {
        cpu_relax();
        if ((i & 1023) == 0) {
            int64_t now = bench_now_ns();
            if (!deadline)
                deadline = now + STALL_NS;
            else if (now > deadline)
                return ERR_STALL;
        }
    }
    return 0;
}

static int ck_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t s = MARKER;
        if (!ck_put(obj, seq + (uint32_t)i) || !ck_get(obj, &s) || s != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}

static int ck_push_each(void *obj, const uint32_t *items, int n)
{
    int k = 0;
    while (k < n && ck_put(obj, items[k]))
        k++;
    return k;
}

static int ck_pop_each(void *obj, uint32_t *items, int n)
{
    int k = 0;
    while (k < n && ck_get(obj, &items[k]))
        k++;
    return k;
}
#else
static int ck_create(void **obj, char *why, size_t n)
{
    *obj = NULL;
#if defined(PEERS_TSAN)
    snprintf(why, n, "not built under ThreadSanitizer (ck_ring's x86 barriers are invisible to it)");
#else
    snprintf(why, n, "Concurrency Kit's <ck_ring.h> was not found at build time (libck-dev)");
#endif
    return 1;
}
static int ck_send(void *obj, uint32_t seq) { (void)obj, (void)seq; return ERR_FULL; }
static int ck_recv(void *obj, uint32_t *seq) { (void)obj, (void)seq; return ERR_STALL; }
static int ck_pairs(void *obj, uint32_t seq, int n) { (void)obj, (void)seq, (void)n; return -1; }
static int ck_push_each(void *obj, const uint32_t *items, int n) { (void)obj, (void)items, (void)n; return -1; }
static int ck_pop_each(void *obj, uint32_t *items, int n) { (void)obj, (void)items, (void)n; return -1; }
#endif
static void ck_destroy(void *obj) { free(obj); }

/* ---- boost-spsc: boost::lockfree::spsc_queue<uint32_t> (peers_cxx.cpp) */

static int boost_create(void **obj, char *why, size_t n)
{
    if (!peers_boost_available()) {
        snprintf(why, n, "<boost/lockfree/spsc_queue.hpp> was not found at build time (libboost-dev)");
        return 1;
    }
    *obj = peers_boost_create(CAP);
    return *obj ? 0 : no_memory(why, n);
}
static void boost_destroy(void *obj) { peers_boost_delete(obj); }
static int boost_send(void *obj, uint32_t seq) { return peers_boost_push(obj, seq) ? 0 : ERR_FULL; }

static int boost_recv(void *obj, uint32_t *seq)
{
    int64_t deadline = 0;
    for (unsigned i = 1; !peers_boost_pop(obj, seq); i++) {
        cpu_relax();
        if ((i & 1023) == 0) {
            int64_t now = bench_now_ns();
            if (!deadline)
                deadline = now + STALL_NS;
            else if (now > deadline)
                return ERR_STALL;
        }
    }
    return 0;
}
static int boost_pairs(void *obj, uint32_t seq, int n) { return peers_boost_pairs(obj, seq, n); }

/* ---- rtipc-queue: depth CAP, 4-byte items (adapters shared with the other
 * experiments) */

static int rq_create(void **obj, char *why, size_t n)
{
    rtipc_queue_t *q;
    int rc = rtipc_queue_create(CAP, sizeof(uint32_t), &q);
    if (rc != 0) {
        snprintf(why, n, "rtipc_queue_create: %s", rtipc_strerror(rc));
        return -1;
    }
    *obj = q;
    return 0;
}
static void rq_destroy(void *obj) { rtipc_queue_delete(obj); }

static void rq_kick(void *obj)
{
    uint32_t v = MARKER;
    if (rtipc_queue_send(obj, &v, RTIPC_NO_WAIT) != 0)
        (void)rtipc_queue_receive(obj, &v, RTIPC_NO_WAIT);
}

static int rq_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t v = seq + (uint32_t)i, s = ~v;
        if (rtipc_queue_send(obj, &v, RTIPC_FOREVER) != 0 || rtipc_queue_receive(obj, &s, RTIPC_FOREVER) != 0 ||
            s != v)
            return -1;
    }
    return 0;
}

/* ---- rtipc-sem: binary semaphore, the sequence number in a word (shared
 * adapters: handoff_extra.h) */

static int rsem_create(void **obj, char *why, size_t n)
{
    hx_sem_t *s = calloc(1, sizeof *s);
    if (!s)
        return no_memory(why, n);
    int rc = rtipc_sem_create_binary(&s->sem);
    if (rc != 0) {
        free(s);
        snprintf(why, n, "rtipc_sem_create_binary: %s", rtipc_strerror(rc));
        return -1;
    }
    *obj = s;
    return 0;
}
static void rsem_destroy(void *obj)
{
    hx_sem_t *s = obj;
    rtipc_sem_delete(s->sem);
    free(s);
}

static int rsem_pairs(void *obj, uint32_t seq, int n)
{
    hx_sem_t *s = obj;
    for (int i = 0; i < n; i++) {
        atomic_store_explicit(&s->seq, seq + (uint32_t)i, memory_order_relaxed);
        if (rtipc_sem_give(s->sem) != 0 || rtipc_sem_take(s->sem, RTIPC_FOREVER) != 0 ||
            atomic_load_explicit(&s->seq, memory_order_relaxed) != seq + (uint32_t)i)
            return -1;
    }
    return 0;
}

/* ---- rtipc-notify: give to the receiver's slot 0, take with clear
 * (shared adapters: handoff_extra.h) */

static int rnot_create(void **obj, char *why, size_t n)
{
    *obj = calloc(1, sizeof(hx_notify_t));
    return *obj ? 0 : no_memory(why, n);
}
static void plain_free(void *obj) { free(obj); }

/* call-cost: give to the calling task itself, then take. */
static int rnot_pairs(void *obj, uint32_t seq, int n)
{
    (void)obj;
    (void)seq;
    rtipc_task_t *self = rtipc_task_current();
    if (!self)
        return -1;
    for (int i = 0; i < n; i++) {
        uint32_t count = 0;
        if (rtipc_notify_give(self, 0) != 0 || rtipc_notify_take(0, true, &count, RTIPC_FOREVER) != 0 ||
            count != 1)
            return -1;
    }
    return 0;
}

/* ---- rtipc-spsc: the wait-free ring, capacity CAP */

static int rspsc_create(void **obj, char *why, size_t n)
{
    rtipc_spsc_t *r;
    int rc = rtipc_spsc_create(CAP, sizeof(uint32_t), &r);
    if (rc != 0) {
        snprintf(why, n, "rtipc_spsc_create: %s", rtipc_strerror(rc));
        return -1;
    }
    *obj = r;
    return 0;
}
static void rspsc_destroy(void *obj) { rtipc_spsc_delete(obj); }
static int rspsc_send(void *obj, uint32_t seq) { return rtipc_spsc_try_push(obj, &seq); }
static int rspsc_recv(void *obj, uint32_t *seq) { return rtipc_spsc_pop(obj, seq, RTIPC_FOREVER); }

static int rspsc_recv_spin(void *obj, uint32_t *seq)
{
    int64_t deadline = 0;
    for (unsigned i = 1;; i++) {
        int rc = rtipc_spsc_try_pop(obj, seq);
        if (rc != RTIPC_EWOULDBLOCK)
            return rc;
        cpu_relax();
        if ((i & 1023) == 0) {
            int64_t now = bench_now_ns();
            if (!deadline)
                deadline = now + STALL_NS;
            else if (now > deadline)
                return ERR_STALL;
        }
    }
}

static int rspsc_pairs(void *obj, uint32_t seq, int n)
{
    for (int i = 0; i < n; i++) {
        uint32_t v = seq + (uint32_t)i, s = ~v;
        if (rtipc_spsc_try_push(obj, &v) != 0 || rtipc_spsc_try_pop(obj, &s) != 0 || s != v)
            return -1;
    }
    return 0;
}

static int rspsc_push_each(void *obj, const uint32_t *items, int n)
{
    int k = 0;
    while (k < n && rtipc_spsc_try_push(obj, &items[k]) == 0)
        k++;
    return k;
}
static int rspsc_pop_each(void *obj, uint32_t *items, int n)
{
    int k = 0;
    while (k < n && rtipc_spsc_try_pop(obj, &items[k]) == 0)
        k++;
    return k;
}
static int rspsc_push_bulk(void *obj, const uint32_t *items, int n)
{
    return rtipc_spsc_push_bulk(obj, items, (size_t)n);
}
static int rspsc_pop_bulk(void *obj, uint32_t *items, int n) { return rtipc_spsc_pop_bulk(obj, items, (size_t)n); }

/* ---- rtipc-mailbox: latest value; the receiver waits for a newer version
 * and checks that the version advanced by exactly one (nothing missed) */

typedef struct {
    rtipc_mailbox_t *mb;
    uint64_t seen;  /* receiver's: the version it last took */
} mbox_peer_t;

static int mbox_create(void **obj, char *why, size_t n)
{
    mbox_peer_t *m = calloc(1, sizeof *m);
    if (!m)
        return no_memory(why, n);
    int rc = rtipc_mailbox_create(sizeof(uint32_t), NULL, &m->mb);
    if (rc != 0) {
        free(m);
        snprintf(why, n, "rtipc_mailbox_create: %s", rtipc_strerror(rc));
        return -1;
    }
    *obj = m;
    return 0;
}
static void mbox_destroy(void *obj)
{
    mbox_peer_t *m = obj;
    rtipc_mailbox_delete(m->mb);
    free(m);
}
static int mbox_send(void *obj, uint32_t seq) { return rtipc_mailbox_write(((mbox_peer_t *)obj)->mb, &seq); }
static int mbox_recv(void *obj, uint32_t *seq)
{
    mbox_peer_t *m = obj;
    uint64_t version = 0;
    int rc = rtipc_mailbox_wait_newer(m->mb, seq, m->seen, &version, RTIPC_FOREVER);
    if (rc != 0)
        return rc;
    if (version != m->seen + 1)
        return ERR_MISSED;
    m->seen = version;
    return 0;
}
static int mbox_pairs(void *obj, uint32_t seq, int n)
{
    mbox_peer_t *m = obj;
    for (int i = 0; i < n; i++) {
        uint32_t v = seq + (uint32_t)i, s = ~v;
        uint64_t version = 0;
        if (rtipc_mailbox_write(m->mb, &v) != 0 || rtipc_mailbox_read(m->mb, &s, &version) != 0 || s != v ||
            version != m->seen + 1)
            return -1;
        m->seen = version;
    }
    return 0;
}

/* ------------------------------------------------------ the mechanisms */

enum { M_SLEEP = 1, M_ACTIVE = 2, M_CALL = 4 };

typedef struct {
    const char *name;
    unsigned modes;
    /* 0 created; -1 failed (why says it); 1 not available here (why says it). */
    int (*create)(void **obj, char *why, size_t n);
    void (*destroy)(void *obj);
    int (*send)(void *obj, uint32_t seq);   /* one message (handoff) */
    int (*recv)(void *obj, uint32_t *seq);  /* wait for one (handoff) */
    void (*bind)(void *obj, rtipc_task_t *producer, rtipc_task_t *consumer);
    int (*depth)(void *obj);
    /* Releases a receiver blocked in the kernel (or a sender blocked on a
     * full queue) without blocking; with hdr, obj starts with a peer_hdr_t
     * and the handoff watchdog uses it. NULL: every wait is bounded, or is
     * an rtipc deletion point. */
    void (*kick)(void *obj);
    bool hdr;
    int (*pairs)(void *obj, uint32_t seq, int n);  /* call-cost */
} peer_t;

static const peer_t peers[] = {
    {"spin", M_ACTIVE | M_CALL, word_create, word_destroy, spin_send, spin_recv, NULL, NULL, NULL, false, spin_pairs},
    {"futex", M_SLEEP | M_CALL, word_create, word_destroy, futex_send, futex_recv, NULL, NULL, futex_kick, true,
     futex_pairs},
    {BENCH_MECH_EVENTFD, M_SLEEP | M_CALL, efd_create, efd_destroy, efd_send, efd_recv, NULL, NULL, efd_kick, true,
     efd_pairs},
    {BENCH_MECH_PIPE, M_SLEEP | M_CALL, pipe_create, pipe_destroy, pipe_send, pipe_recv, NULL, NULL, pipe_kick,
     true, pipe_pairs},
    {BENCH_MECH_POSIX_MQ, M_SLEEP | M_CALL, mq_create, mq_destroy, mq_peer_send, mq_peer_recv, NULL, NULL, mq_kick,
     true, mq_pairs},
    {"posix-sem", M_SLEEP | M_CALL, psem_create, psem_destroy, psem_send, psem_recv, NULL, NULL, psem_kick, true,
     psem_pairs},
    {BENCH_MECH_MUTEX_CONDVAR, M_SLEEP | M_CALL, mcv_create, mcv_destroy, mcv_send, mcv_recv, NULL, NULL, mcv_kick,
     true, mcv_pairs},
    {BENCH_MECH_STD_QUEUE_MUTEX, M_SLEEP | M_CALL, stdq_create, stdq_destroy, stdq_send, stdq_recv, NULL, NULL,
     stdq_kick, true, stdq_pairs},
    {"ck-ring", M_ACTIVE | M_CALL, ck_create, ck_destroy, ck_send, ck_recv, NULL, NULL, NULL, false, ck_pairs},
    {"boost-spsc", M_ACTIVE | M_CALL, boost_create, boost_destroy, boost_send, boost_recv, NULL, NULL, NULL, false,
     boost_pairs},
    {BENCH_MECH_RTIPC_QUEUE, M_SLEEP | M_ACTIVE | M_CALL, rq_create, rq_destroy, exp_queue_send, exp_queue_recv,
     NULL, exp_queue_depth, rq_kick, false, rq_pairs},
    {BENCH_MECH_RTIPC_SEM, M_SLEEP | M_ACTIVE | M_CALL, rsem_create, rsem_destroy, hx_sem_send, hx_sem_recv, NULL,
     NULL, NULL, false, rsem_pairs},
    {BENCH_MECH_RTIPC_NOTIFY, M_SLEEP | M_ACTIVE | M_CALL, rnot_create, plain_free, hx_notify_give_send,
     hx_notify_give_recv, hx_notify_bind, NULL, NULL, false, rnot_pairs},
    {BENCH_MECH_RTIPC_SPSC, M_SLEEP | M_ACTIVE | M_CALL, rspsc_create, rspsc_destroy, rspsc_send, rspsc_recv, NULL,
     NULL, NULL, false, rspsc_pairs},
    {BENCH_MECH_RTIPC_MAILBOX, M_SLEEP | M_ACTIVE | M_CALL, mbox_create, mbox_destroy, mbox_send, mbox_recv, NULL,
     NULL, NULL, false, mbox_pairs},
};
#define N_PEERS (sizeof peers / sizeof peers[0])

static const peer_t *peer_named(const char *name)
{
    for (size_t i = 0; i < N_PEERS; i++)
        if (strcmp(peers[i].name, name) == 0)
            return &peers[i];
    return NULL;
}

/* Mechanisms found missing on this host (recorded once). */
static bool missing_seen[N_PEERS];

/* Create @p p's object; a missing mechanism is recorded once and returns 1. */
static int make(bench_run_t *run, const peer_t *p, void **obj)
{
    char why[160] = "";
    *obj = NULL;
    int rc = p->create(obj, why, sizeof why);
    if (rc == 1) {
        size_t i = (size_t)(p - peers);
        if (!missing_seen[i])
            bench_add_missing(run, p->name, why);
        missing_seen[i] = true;
        return 1;
    }
    if (rc != 0)
        return bench_fail(run, "%s: %s", p->name, why);
    return 0;
}

/* Prefix the run's failure with what was being measured. */
static void blame(bench_run_t *run, const char *mech, const char *what)
{
    bench_fail_prefix(run, "%s %s: ", mech, what);
}

/* -------------------------------------------------------- the watchdog */

/* A plain thread that releases a handoff receiver blocked in the kernel
 * once the sender has sent nothing for KICK_AFTER_NS (by then the handoff
 * driver has given up on the message and waits for the receiver to end). */
typedef struct {
    pthread_t th;
    bool started;
    pthread_mutex_t m;
    pthread_cond_t c;
    bool stop;
    const peer_t *p;    /* watched mechanism, or NULL */
    void *obj;
} watchdog_t;

static void *watchdog_main(void *arg)
{
    watchdog_t *w = arg;
    uint64_t last = 0;
    int64_t since = 0, kicked = 0;
    const void *watched = NULL;
    pthread_mutex_lock(&w->m);
    while (!w->stop) {
        int64_t now = bench_now_ns();
        if (w->obj != watched) {
            watched = w->obj;
            last = 0;
            since = now;
        }
        if (w->obj) {
            uint64_t s = atomic_load_explicit(&((peer_hdr_t *)w->obj)->sends, memory_order_relaxed);
            if (s != last) {
                last = s;
                since = now;
            } else if (now - since > KICK_AFTER_NS && now - kicked > 500000000) {
                w->p->kick(w->obj);
                kicked = now;
            }
        }
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += 100000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&w->c, &w->m, &ts);
    }
    pthread_mutex_unlock(&w->m);
    return NULL;
}

static int watchdog_start(watchdog_t *w)
{
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&w->c, &a);
    pthread_condattr_destroy(&a);
    pthread_mutex_init(&w->m, NULL);
    w->started = pthread_create(&w->th, NULL, watchdog_main, w) == 0;
    return w->started ? 0 : -1;
}

static void watchdog_watch(watchdog_t *w, const peer_t *p, void *obj)
{
    pthread_mutex_lock(&w->m);
    w->p = p;
    w->obj = p && p->hdr ? obj : NULL;
    pthread_mutex_unlock(&w->m);
}

static void watchdog_stop(watchdog_t *w)
{
    if (w->started) {
        pthread_mutex_lock(&w->m);
        w->stop = true;
        pthread_cond_signal(&w->c);
        pthread_mutex_unlock(&w->m);
        pthread_join(w->th, NULL);
    }
    pthread_cond_destroy(&w->c);
    pthread_mutex_destroy(&w->m);
}

/* ------------------------------------------------------------ handoff */

typedef struct {
    const peer_t *p;
    const char *variant;
    int (*recv)(void *obj, uint32_t *seq);  /* override of p->recv, or NULL */
    bench_samples_t pool;
    bool skip;                               /* missing here */
} hcase_t;

/* Every case in @p rounds rounds (order reversed every other round, so a
 * drift of the shared machine hits all alike), pooled into one row each:
 * (mechanism, variant, @p metric). A fresh object per round. */
static int handoff_phase(bench_run_t *run, watchdog_t *wd, hcase_t *cases, size_t n, const char *metric,
                         int64_t gap_min, int64_t gap_max, size_t full, size_t quick, size_t rounds, double p0,
                         double p1)
{
    size_t total = bench_sample_count(run, full, quick);
    size_t share = (total + rounds - 1) / rounds;
    bench_samples_t round = {0};
    int rc = bench_samples_init(&round, share);
    for (size_t c = 0; c < n && rc == 0; c++)
        rc = bench_samples_init(&cases[c].pool, share * rounds);
    if (rc != 0) {
        rc = bench_fail(run, "out of memory");
        goto out;
    }
    for (size_t r = 0; r < rounds && rc == 0; r++) {
        for (size_t k = 0; k < n && rc == 0; k++) {
            hcase_t *hc = &cases[r % 2 ? n - 1 - k : k];
            if (hc->skip)
                continue;
            void *obj;
            int m = make(run, hc->p, &obj);
            if (m == 1) {
                hc->skip = true;
                continue;
            }
            if (m != 0) {
                rc = -1;
                break;
            }
            handoff_ops_t ops = {.send = hc->p->send, .recv = hc->recv ? hc->recv : hc->p->recv,
                                 .bind = hc->p->bind, .depth = hc->p->depth, .obj = obj};
            handoff_cfg_t cfg = handoff_default(run, share, share);
            cfg.samples = share;
            cfg.warmup = bench_warmup_count(run, share);
            cfg.gap_min_ns = gap_min;
            cfg.gap_max_ns = gap_max;
            cfg.mechanism = hc->p->name;
            cfg.variant = hc->variant;
            watchdog_watch(wd, hc->p, obj);
            rc = handoff_run(run, &ops, &cfg, &round);
            watchdog_watch(wd, NULL, NULL);
            hc->p->destroy(obj);
            if (rc != 0) {
                blame(run, hc->p->name, metric);
                break;
            }
            for (size_t i = 0; i < round.n; i++)
                bench_samples_push(&hc->pool, round.ns[i]);
            bench_progress(run, p0 + (p1 - p0) * (double)(r * n + k + 1) / (double)(rounds * n));
        }
    }
    for (size_t c = 0; c < n && rc == 0; c++)
        if (!cases[c].skip && !bench_add_dist(run, cases[c].p->name, cases[c].variant, metric, &cases[c].pool))
            rc = -1;
out:
    bench_samples_free(&round);
    for (size_t c = 0; c < n; c++)
        bench_samples_free(&cases[c].pool);
    return rc;
}

/* --------------------------------------------------------- throughput */

typedef struct {
    const char *mech, *variant;
    /* Blocking: push all n / pop exactly one. Polling: push / pop 0..n
     * (0 = full / empty: the loop spins). Negative: an error. */
    int (*push)(void *obj, const uint32_t *items, int n);
    int (*pop)(void *obj, uint32_t *items, int n);
    /* Counter mechanisms instead of pop: the count taken, *end at the
     * marker. */
    long (*pop_count)(void *obj, bool *end);
    /* 1 pushed, 0 full (polling), negative error; NULL: push of MARKER. */
    int (*push_marker)(void *obj);
    bool polling;
} tp_mech_t;

/* One item per call for the blocking peers (a user's send/receive loop). */
static int each_send(int (*send)(void *, uint32_t), void *obj, const uint32_t *items, int n)
{
    for (int k = 0; k < n; k++) {
        int rc = send(obj, items[k]);
        if (rc != 0)
            return rc;
    }
    return n;
}
static int rq_push(void *o, const uint32_t *it, int n) { return each_send(exp_queue_send, o, it, n); }
static int rq_pop(void *o, uint32_t *it, int n) { (void)n; int rc = exp_queue_recv(o, it); return rc ? rc : 1; }
static int pipe_push(void *o, const uint32_t *it, int n) { return each_send(pipe_send, o, it, n); }
static int pipe_pop(void *o, uint32_t *it, int n) { (void)n; int rc = pipe_recv(o, it); return rc ? rc : 1; }
static int mq_push(void *o, const uint32_t *it, int n) { return each_send(mq_peer_send, o, it, n); }
static int mq_pop(void *o, uint32_t *it, int n) { (void)n; int rc = mq_peer_recv(o, it); return rc ? rc : 1; }
static int mcv_push_n(void *o, const uint32_t *it, int n) { return each_send(mcv_send, o, it, n); }
static int mcv_pop_1(void *o, uint32_t *it, int n) { (void)n; int rc = mcv_recv(o, it); return rc ? rc : 1; }
static int stdq_push_n(void *o, const uint32_t *it, int n) { return each_send(stdq_send, o, it, n); }
static int stdq_pop_1(void *o, uint32_t *it, int n) { (void)n; int rc = stdq_recv(o, it); return rc ? rc : 1; }
static int boost_push_each(void *o, const uint32_t *it, int n) { return peers_boost_push_each(o, it, n); }
static int boost_pop_each(void *o, uint32_t *it, int n) { return peers_boost_pop_each(o, it, n); }
static int boost_push_bulk(void *o, const uint32_t *it, int n) { return peers_boost_push_bulk(o, it, n); }
static int boost_pop_bulk(void *o, uint32_t *it, int n) { return peers_boost_pop_bulk(o, it, n); }

static const tp_mech_t tp_mechs[] = {
    {BENCH_MECH_RTIPC_SPSC, TP_BULK, rspsc_push_bulk, rspsc_pop_bulk, NULL, NULL, true},
    {BENCH_MECH_RTIPC_SPSC, TP_EACH, rspsc_push_each, rspsc_pop_each, NULL, NULL, true},
    {"boost-spsc", TP_BULK, boost_push_bulk, boost_pop_bulk, NULL, NULL, true},
    {"boost-spsc", TP_EACH, boost_push_each, boost_pop_each, NULL, NULL, true},
    {"ck-ring", TP_EACH, ck_push_each, ck_pop_each, NULL, NULL, true},
    {BENCH_MECH_RTIPC_QUEUE, TP_EACH, rq_push, rq_pop, NULL, NULL, false},
    {BENCH_MECH_MUTEX_CONDVAR, TP_EACH, mcv_push_n, mcv_pop_1, NULL, NULL, false},
    {BENCH_MECH_STD_QUEUE_MUTEX, TP_EACH, stdq_push_n, stdq_pop_1, NULL, NULL, false},
    {BENCH_MECH_PIPE, TP_EACH, pipe_push, pipe_pop, NULL, NULL, false},
    {BENCH_MECH_POSIX_MQ, TP_EACH, mq_push, mq_pop, NULL, NULL, false},
    {BENCH_MECH_EVENTFD, "counter", efd_push, NULL, efd_pop_count, efd_push_marker, false},
};
#define N_TP (sizeof tp_mechs / sizeof tp_mechs[0])

typedef struct {
    const tp_mech_t *m;
    void *obj;
    int64_t warm_ns, dur_ns;
    /* Set by whichever side is ready last, before the release store of go
     * (the others read them after the acquire load that sees it set): the
     * clock starts once both tasks run, however long their creation took. */
    int64_t t_start, t_w0, t_w1, t_stop, deadline;
    _Atomic int ready;
    _Atomic int go;
    _Atomic int failed;
    char why[160];
    _Atomic int done;         /* tasks finished (release; acquire by the runner) */
    uint64_t sent;            /* producer's, read after the join */
    uint64_t received, n0, n1;/* consumer's, read after the join */
    int64_t t0, t1;
    bool have0, have1;
} tp_state_t;

static void tp_fail(tp_state_t *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tp_fail(tp_state_t *st, const char *fmt, ...)
{
    int expected = 0;
    if (atomic_compare_exchange_strong(&st->failed, &expected, 1)) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(st->why, sizeof st->why, fmt, ap);
        va_end(ap);
    }
}

/* Both sides call it; the second one fixes the phase's times. */
static void tp_ready(tp_state_t *st)
{
    if (atomic_fetch_add(&st->ready, 1) == 1) {
        st->t_start = bench_now_ns() + 1000000;
        st->t_w0 = st->t_start + st->warm_ns;
        st->t_w1 = st->t_w0 + st->dur_ns;
        st->t_stop = st->t_w1 + 1000000;
        st->deadline = st->t_stop + STALL_NS;
        atomic_store_explicit(&st->go, 1, memory_order_release);
    }
}

static void wait_start(tp_state_t *st)
{
    tp_ready(st);
    while (!atomic_load_explicit(&st->go, memory_order_acquire))
        sleep_ns(50000);
    int64_t now = bench_now_ns();
    if (st->t_start - now > 300000)
        sleep_ns(st->t_start - now - 200000);
    bench_spin_until(st->t_start);
}

/* Core 1: push sequence numbers as fast as the mechanism takes them until
 * t_stop, then the end marker. */
static void tp_producer(void *arg)
{
    tp_state_t *st = arg;
    const tp_mech_t *m = st->m;
    uint32_t items[RUN];
    uint32_t seq = 0;
    int off = 0, since = 0;
    unsigned idle = 0;
    for (int k = 0; k < RUN; k++)
        items[k] = (uint32_t)k;
    wait_start(st);
    for (;;) {
        if (since >= RUN) {
            since = 0;
            if (bench_now_ns() >= st->t_stop || atomic_load_explicit(&st->failed, memory_order_relaxed))
                break;
        }
        int k = m->push(st->obj, items + off, RUN - off);
        if (k < 0) {
            tp_fail(st, "push of item %u failed with %d", seq + (uint32_t)off, k);
            break;
        }
        if (k == 0) {
            if (++idle >= 256) {
                idle = 0;
                since = RUN;  /* full for a while: look at the clock */
            }
            cpu_relax();
            continue;
        }
        off += k;
        since += k;
        if (off == RUN) {
            seq += RUN;
            if (seq >= MARKER - 2 * RUN)
                break;
            for (int j = 0; j < RUN; j++)
                items[j] = seq + (uint32_t)j;
            off = 0;
        }
    }
    st->sent = (uint64_t)seq + (uint64_t)off;
    uint32_t marker = MARKER;
    for (unsigned i = 1;; i++) {
        int k = m->push_marker ? m->push_marker(st->obj) : m->push(st->obj, &marker, 1);
        if (k == 1)
            break;
        if (k < 0) {
            tp_fail(st, "push of the end marker failed with %d", k);
            break;
        }
        cpu_relax();
        if ((i & 1023) == 0 && bench_now_ns() > st->deadline) {
            tp_fail(st, "still full %lld s after the end (consumer gone?)", STALL_NS / 1000000000);
            break;
        }
    }
    atomic_fetch_add_explicit(&st->done, 1, memory_order_release);
}

static void tp_window(tp_state_t *st, int64_t now)
{
    if (!st->have0 && now >= st->t_w0) {
        st->n0 = st->received;
        st->t0 = now;
        st->have0 = true;
    } else if (st->have0 && !st->have1 && now >= st->t_w1) {
        st->n1 = st->received;
        st->t1 = now;
        st->have1 = true;
    }
}

/* Core 0: take everything, checking every sequence number, until the end
 * marker; counts items in the window [t_w0, t_w1] from its own clock reads.
 * A wrong number fails the run, but the consumer drains on to the marker so
 * that the producer is never left blocked. */
static void tp_consumer(void *arg)
{
    tp_state_t *st = arg;
    const tp_mech_t *m = st->m;
    uint32_t items[RUN];
    uint32_t expect = 0;
    int since = 0;
    unsigned idle = 0;
    bool end = false;
    wait_start(st);
    while (!end) {
        long k;
        if (m->pop_count)
            k = m->pop_count(st->obj, &end);
        else
            k = m->pop(st->obj, items, RUN);
        if (k < 0) {
            tp_fail(st, "receive after item %llu failed with %ld", (unsigned long long)st->received, k);
            break;
        }
        if (k == 0 && !end) {
            if (++idle >= 256) {
                idle = 0;
                int64_t now = bench_now_ns();
                tp_window(st, now);
                if (now > st->deadline) {
                    tp_fail(st, "nothing received for %lld s after item %llu", STALL_NS / 1000000000,
                            (unsigned long long)st->received);
                    break;
                }
            }
            cpu_relax();
            continue;
        }
        if (m->pop_count) {
            st->received += (uint64_t)k;
        } else {
            for (long j = 0; j < k; j++) {
                uint32_t v = items[j];
                if (v == MARKER) {
                    end = true;
                    if (j != k - 1)
                        tp_fail(st, "%ld items after the end marker", k - 1 - j);
                    break;
                }
                if (v != expect)
                    tp_fail(st, "item %u arrived where %u was due (lost, duplicated or reordered)", v, expect);
                expect++;
                st->received++;
            }
        }
        since += (int)k;
        if (since >= RUN || end) {
            since = 0;
            tp_window(st, bench_now_ns());
        }
    }
    if (st->have0 && !st->have1) {
        /* The stream ended before the window did (a failure or a slow
         * mechanism): the window ends at the marker. */
        st->n1 = st->received;
        st->t1 = bench_now_ns();
        st->have1 = true;
    }
    atomic_fetch_add_explicit(&st->done, 1, memory_order_release);
}

static void tp_kick(const tp_mech_t *m, void *obj)
{
    const peer_t *p = peer_named(m->mech);
    if (p && p->kick)
        p->kick(obj);
}

static int tp_one(bench_run_t *run, const tp_mech_t *m, double dur, double rest)
{
    const peer_t *p = peer_named(m->mech);
    void *obj;
    int rc = make(run, p, &obj);
    if (rc == 1)
        return 0;
    if (rc != 0)
        return -1;
    tp_state_t *st = calloc(1, sizeof *st);
    if (!st) {
        p->destroy(obj);
        return bench_fail(run, "out of memory");
    }
    /* Core 0 and core 1 rest between phases: a phase keeps both busy, and
     * back-to-back phases would run into the kernel's real-time throttling
     * (95% of each second). */
    sleep_ns((int64_t)(rest * 1e9));
    int64_t warm = (int64_t)(dur * 0.2e9);
    if (warm < 10000000)
        warm = 10000000;
    st->m = m;
    st->obj = obj;
    st->warm_ns = warm;
    st->dur_ns = (int64_t)(dur * 1e9);
    rtipc_task_t *tc = NULL, *tpr = NULL;
    rtipc_task_config_t cc = {.name = "peers-consumer", .priority = 12, .core = bench_cpu(run, 0),
                              .entry = tp_consumer, .arg = st};
    rtipc_task_config_t pc = {.name = "peers-producer", .priority = 10, .core = bench_cpu(run, 1),
                              .entry = tp_producer, .arg = st};
    int started = 0;
    rc = rtipc_task_create(&cc, &tc);
    if (rc == 0) {
        started = 1;
        rc = rtipc_task_create(&pc, &tpr);
        if (rc == 0)
            started = 2;
    }
    if (rc != 0) {
        tp_fail(st, "task creation failed: %s", rtipc_strerror(rc));
        if (started == 1) {
            /* The consumer waits for a partner and then for a marker: this
             * thread stands in for the producer that does not exist. */
            tp_ready(st);
            uint32_t marker = MARKER;
            int k = 0;
            while (k == 0 && atomic_load_explicit(&st->done, memory_order_acquire) < 1) {
                k = m->push_marker ? m->push_marker(obj) : m->push(obj, &marker, 1);
                if (k == 0)
                    sleep_ns(1000000);
            }
        }
    }
    /* Watch: a blocked side that the other will never release is kicked
     * (bounded: spinning sides give up by themselves at the deadline). */
    int64_t last_kick = 0;
    while (atomic_load_explicit(&st->done, memory_order_acquire) < started) {
        sleep_ns(5000000);
        int64_t now = bench_now_ns();
        /* Acquire: pairs with tp_ready's release; st->deadline is set. */
        if (!atomic_load_explicit(&st->go, memory_order_acquire))
            continue;
        if (now > st->deadline + 1000000000 && now - last_kick > 100000000) {
            tp_fail(st, "stalled: no end %lld s after the phase", (STALL_NS + 1000000000) / 1000000000);
            tp_kick(m, obj);
            last_kick = now;
        }
    }
    if (tc)
        rtipc_task_join(tc);
    if (tpr)
        rtipc_task_join(tpr);
    int result = 0;
    if (atomic_load(&st->failed)) {
        result = bench_fail(run, "%s", st->why);
    } else if (st->sent != st->received) {
        result = bench_fail(run, "sent %llu items, received %llu", (unsigned long long)st->sent,
                            (unsigned long long)st->received);
    } else if (!st->have0 || st->t1 - st->t0 < (int64_t)(dur * 0.5e9)) {
        /* Not a fault of the mechanism (every item arrived, in order): the
         * consumer did not run through the window, e.g. under SCHED_OTHER
         * while other programs held its core. Said, not hidden. */
        bench_note(run, "%s %s: no throughput row: the consumer's window spans %.1f ms of %.0f ms (it did not run)",
                   m->mech, m->variant, st->have0 ? (double)(st->t1 - st->t0) / 1e6 : 0.0, dur * 1e3);
    } else {
        double rate = (double)(st->n1 - st->n0) * 1e9 / (double)(st->t1 - st->t0);
        bench_result_t *r = bench_add_value(run, m->mech, m->variant, BENCH_METRIC_THROUGHPUT, "items/s", rate);
        if (r)
            snprintf(r->note, sizeof r->note, "%llu items in %.3f s; %llu sent = %llu received",
                     (unsigned long long)(st->n1 - st->n0), (double)(st->t1 - st->t0) / 1e9,
                     (unsigned long long)st->sent, (unsigned long long)st->received);
    }
    if (result != 0)
        blame(run, m->mech, BENCH_METRIC_THROUGHPUT);
    free(st);
    p->destroy(obj);
    return result;
}

/* ---------------------------------------------------------- call-cost */

typedef struct {
    const peer_t *p;
    void *obj;
    size_t batches, warm;
    bench_samples_t *out;
    int rc;
} cc_state_t;

static void cc_task(void *arg)
{
    cc_state_t *st = arg;
    uint32_t seq = 0;
    for (size_t b = 0; b < st->warm + st->batches; b++) {
        int64_t t0 = bench_now_ns();
        int rc = st->p->pairs(st->obj, seq, PAIRS);
        int64_t t1 = bench_now_ns();
        if (rc != 0) {
            st->rc = -1;
            return;
        }
        seq += PAIRS;
        if (b >= st->warm)
            bench_samples_push(st->out, llround((double)(t1 - t0) / PAIRS));
    }
}

static int call_cost(bench_run_t *run, double p0, double p1)
{
    size_t batches = bench_sample_count(run, 200, 40);
    bench_samples_t s;
    if (bench_samples_init(&s, batches) != 0)
        return bench_fail(run, "out of memory");
    int rc = 0;
    for (size_t i = 0; i < N_PEERS && rc == 0; i++) {
        const peer_t *p = &peers[i];
        void *obj;
        int m = make(run, p, &obj);
        if (m == 1)
            continue;
        if (m != 0) {
            rc = -1;
            break;
        }
        s.n = 0;
        cc_state_t st = {.p = p, .obj = obj, .batches = batches, .warm = batches / 10 + 2, .out = &s};
        rtipc_task_t *t;
        rtipc_task_config_t cfg = {.name = "peers-calls", .priority = 10, .core = bench_cpu(run, 1),
                                   .entry = cc_task, .arg = &st};
        int r = rtipc_task_create(&cfg, &t);
        if (r == 0)
            rtipc_task_join(t);
        p->destroy(obj);
        if (r != 0)
            rc = bench_fail(run, "%s call-cost: task creation: %s", p->name, rtipc_strerror(r));
        else if (st.rc != 0)
            rc = bench_fail(run, "%s call-cost: a send or receive failed, or returned a wrong item", p->name);
        else if (!bench_add_dist(run, p->name, CALL_VARIANT, "call-cost", &s))
            rc = -1;
        bench_progress(run, p0 + (p1 - p0) * (double)(i + 1) / N_PEERS);
    }
    bench_samples_free(&s);
    return rc;
}

/* ------------------------------------------------------------ targets */

static double p50_of(const bench_run_t *run, const char *mech, const char *variant, const char *metric)
{
    const bench_result_t *r = bench_find(run, EXP, mech, variant, metric);
    return r && r->kind == BENCH_DIST ? r->stats.p50 : NAN;
}

static double value_of(const bench_run_t *run, const char *mech, const char *variant, const char *metric)
{
    const bench_result_t *r = bench_find(run, EXP, mech, variant, metric);
    return r && r->kind == BENCH_VALUE ? r->value : NAN;
}

/* One target: ratio = num / den against @p limit (at most, or at least).
 * Records the row and prints one line of the targets table. */
static void target(bench_run_t *run, const char *subject, const char *variant, const char *what, double num,
                   double den, double limit, bool at_least, const char *figures_fmt, double scale)
{
    double ratio = num / den;
    if (isnan(ratio)) {
        bench_note(run, "  %-12s %-34s not testable (a figure is missing)", subject, what);
        return;
    }
    bool holds = at_least ? ratio >= limit : ratio <= limit;
    char figs[96];
    snprintf(figs, sizeof figs, figures_fmt, num * scale, den * scale);
    bench_result_t *r = bench_add_value(run, subject, variant, "target-ratio", "x", ratio);
    if (r)
        snprintf(r->note, sizeof r->note, "target %s %s %.2f: %s = %.3f: %s", what, at_least ? ">=" : "<=", limit,
                 figs, ratio, holds ? "holds" : "MISSED");
    bench_note(run, "  %-12s %-34s %s %.2f | %-22s = %6.3f | %s", subject, what, at_least ? ">=" : "<=", limit,
               figs, ratio, holds ? "holds" : "MISSED");
}

static void targets(bench_run_t *run)
{
    bench_note(run, "targets (ratio of this run's figures; subject, target, figures, ratio, verdict):");
    double futex = p50_of(run, "futex", SLEEP_VARIANT, "handoff-sleeping");
    static const char *const sleepers[] = {BENCH_MECH_RTIPC_QUEUE, BENCH_MECH_RTIPC_SEM, BENCH_MECH_RTIPC_NOTIFY};
    for (size_t i = 0; i < 3; i++)
        target(run, sleepers[i], "handoff-sleeping-p50/futex", "handoff-sleeping p50 / futex",
               p50_of(run, sleepers[i], SLEEP_VARIANT, "handoff-sleeping"), futex, 1.10, false,
               "%.2f / %.2f us", 1e-3);
    double spin = p50_of(run, "spin", ACTIVE_VARIANT, "handoff-active");
    static const char *const actives[] = {BENCH_MECH_RTIPC_NOTIFY, BENCH_MECH_RTIPC_SPSC};
    for (size_t i = 0; i < 2; i++)
        target(run, actives[i], "handoff-active-p50/spin", "handoff-active p50 / spin",
               p50_of(run, actives[i], ACTIVE_VARIANT, "handoff-active"), spin, 2.0, false, "%.3f / %.3f us", 1e-3);
    target(run, BENCH_MECH_RTIPC_SPSC, "throughput-" TP_BULK "/boost-spsc", "throughput " TP_BULK " / boost-spsc",
           value_of(run, BENCH_MECH_RTIPC_SPSC, TP_BULK, BENCH_METRIC_THROUGHPUT),
           value_of(run, "boost-spsc", TP_BULK, BENCH_METRIC_THROUGHPUT),
           1.2, true, "%.1f / %.1f M/s", 1e-6);
    target(run, BENCH_MECH_RTIPC_SPSC, "throughput-" TP_EACH "/boost-spsc", "throughput " TP_EACH " / boost-spsc",
           value_of(run, BENCH_MECH_RTIPC_SPSC, TP_EACH, BENCH_METRIC_THROUGHPUT),
           value_of(run, "boost-spsc", TP_EACH, BENCH_METRIC_THROUGHPUT),
           1.2, true, "%.1f / %.1f M/s", 1e-6);
    target(run, BENCH_MECH_RTIPC_QUEUE, "call-cost-p50/mutex-condvar", "call-cost p50 / mutex-condvar",
           p50_of(run, BENCH_MECH_RTIPC_QUEUE, CALL_VARIANT, "call-cost"),
           p50_of(run, BENCH_MECH_MUTEX_CONDVAR, CALL_VARIANT, "call-cost"),
           0.5, false, "%.0f / %.0f ns", 1);
    target(run, BENCH_MECH_RTIPC_NOTIFY, "call-cost-p50/25ns", "call-cost p50 / 25 ns",
           p50_of(run, BENCH_MECH_RTIPC_NOTIFY, CALL_VARIANT, "call-cost"), 25, 1.0, false, "%.0f / %.0f ns", 1);
    target(run, BENCH_MECH_RTIPC_QUEUE, "control-block/64B", "footprint_for(0,0) / 64 B",
           (double)rtipc_queue_footprint_for(0, 0), 64, 1.0, false, "%.0f / %.0f B", 1);
    /* The slot lives inside the task descriptor: its size is what notify.h
     * documents (8 B: value + state), not a sizeof this code can take. */
    target(run, BENCH_MECH_RTIPC_NOTIFY, "slot/8B", "slot (notify.h says 8 B) / 8 B", 8, 8, 1.0, false,
           "%.0f / %.0f B", 1);
}

/* ---------------------------------------------------------- the run */

static int run_peers(bench_run_t *run)
{
    memset(missing_seen, 0, sizeof missing_seen);
    mq_depth_used = 0;
    watchdog_t *wd = calloc(1, sizeof *wd);
    if (!wd)
        return bench_fail(run, "out of memory");
    if (watchdog_start(wd) != 0) {
        watchdog_stop(wd);
        free(wd);
        return bench_fail(run, "watchdog thread: cannot start");
    }
    int rc = 0;
    bench_progress(run, 0.0);

    /* Sleeping: rtipc receivers park at once (global budget 0); restored
     * to the library's default for the active rows. */
    int64_t default_spin = rtipc_spin_default();
    rtipc_spin_set_default(0);
    hcase_t sleep_cases[N_PEERS];
    size_t ns = 0;
    for (size_t i = 0; i < N_PEERS; i++)
        if (peers[i].modes & M_SLEEP)
            sleep_cases[ns++] = (hcase_t){.p = &peers[i], .variant = SLEEP_VARIANT};
    rc = handoff_phase(run, wd, sleep_cases, ns, "handoff-sleeping", 50000, 100000, 4000, 300,
                       bench_quick(run) ? 1 : 4, 0.0, 0.45);

    rtipc_spin_set_default(default_spin);
    hcase_t active_cases[N_PEERS + 1];
    size_t na = 0;
    for (size_t i = 0; i < N_PEERS && rc == 0; i++)
        if (peers[i].modes & M_ACTIVE)
            active_cases[na++] = (hcase_t){.p = &peers[i], .variant = ACTIVE_VARIANT};
    if (rc == 0) {
        active_cases[na++] = (hcase_t){.p = peer_named(BENCH_MECH_RTIPC_SPSC), .variant = ACTIVE_TRYPOP_VARIANT,
                                       .recv = rspsc_recv_spin};
        rc = handoff_phase(run, wd, active_cases, na, "handoff-active", 1000, 3000, 6000, 1000,
                           bench_quick(run) ? 1 : 2, 0.45, 0.55);
    }

    double dur = bench_duration(run, 0.4, 0.04);
    double rest = bench_quick(run) ? 0.01 : 0.15;
    if (dur > 0.7)
        bench_note(run, "throughput phases of %.2f s keep both cores busy past the kernel's real-time budget "
                   "(95%% of a second): they may include throttling stalls", dur);
    for (size_t i = 0; i < N_TP && rc == 0; i++) {
        rc = tp_one(run, &tp_mechs[i], dur, rest);
        bench_progress(run, 0.55 + 0.3 * (double)(i + 1) / N_TP);
    }

    if (rc == 0)
        rc = call_cost(run, 0.85, 1.0);
    watchdog_stop(wd);
    free(wd);
    if (rc != 0 || bench_failed(run))
        return -1;

    bench_note(run, "no row: handoff-sleeping for spin, ck-ring, boost-spsc (they only spin); handoff-active "
               "for the kernel-only peers (they only park)");
    bench_note(run, "rtipc spin budget: build default RTIPC_SPIN_NS_DEFAULT = %lld ns (no run-time setter in "
               "this tree)", (long long)RTIPC_SPIN_NS_DEFAULT);
    if (mq_depth_used && mq_depth_used != CAP)
        bench_note(run, "posix-mq: the kernel refused depth %d; depth %ld used", CAP, mq_depth_used);
    targets(run);
    bench_progress(run, 1.0);
    return 0;
}

const bench_experiment_t exp_peers = {
    .id = EXP,
    .summary = EXP_PEERS_SUMMARY,
    .requires = EXP_PEERS_REQUIRES,
    .definitions =
        "Mechanisms (4-byte items carrying a sequence number, checked on every receipt; bounded\n"
        "  queues hold 1024 items):\n"
        "  spin: a 32-bit word on its own cache line; the sender stores seq+1, the receiver polls it\n"
        "    (pause between polls): the physical floor of a cross-core handoff.\n"
        "  futex: the same word; the sender stores then calls FUTEX_WAKE every time, the receiver\n"
        "    calls FUTEX_WAIT while the word is unchanged.\n"
        "  eventfd: write(1)/read; the sequence number goes through a shared word stored before the\n"
        "    write and loaded after the read (a read count other than 1 fails).\n"
        "  pipe: 4-byte write/read. posix-mq: mq_send/mq_receive of 4 bytes, depth 1024 (10 if the\n"
        "    kernel refuses). posix-sem: sem_post/sem_wait, the number in a shared word.\n"
        "  mutex-condvar: C ring of 1024 items under a pthread mutex, condvars for not-empty and\n"
        "    not-full, signalled after unlock. std-queue-mutex: std::queue<uint32_t> + std::mutex +\n"
        "    two std::condition_variable, bounded to 1024, notify_one after unlock.\n"
        "  ck-ring: Concurrency Kit ck_ring_enqueue_spsc/dequeue_spsc, 1024 pointer slots (1023\n"
        "    usable) carrying the number as the pointer value. boost-spsc:\n"
        "    boost::lockfree::spsc_queue<uint32_t>(1024), push/pop.\n"
        "  rtipc-queue: rtipc_queue_send/receive (RTIPC_FOREVER), depth 1024. rtipc-sem: binary\n"
        "    semaphore give/take, the number in a shared word. rtipc-notify: rtipc_notify_give to\n"
        "    the receiver's slot 0 / rtipc_notify_take(clear) (a count other than 1 fails).\n"
        "    rtipc-spsc: rtipc_spsc_try_push / rtipc_spsc_pop (RTIPC_FOREVER: 64 polls plus the\n"
        "    spin budget, then park). rtipc-mailbox: rtipc_mailbox_write / rtipc_mailbox_wait_newer\n"
        "    (the version must advance by exactly 1).\n"
        "handoff-sleeping (gap=50-100us): one-way latency, the handoff driver in closed loop: sender\n"
        "  task on core 1 (priority 10), receiver task on core 0 (priority 12). From the sender's\n"
        "  timestamp just before its send call to the receiver's timestamp just after its receive\n"
        "  returned. After each acknowledged message the sender waits a random 50-100 us, so the\n"
        "  receiver is parked in the kernel when the send starts. rtipc objects run with a spin\n"
        "  budget of 0 (rtipc_spin_set_default(0): they park at once). 4000 samples per\n"
        "  mechanism in 4 interleaved rounds (quick: 300, 1 round), a fresh object per round.\n"
        "  Not for spin, ck-ring, boost-spsc (they cannot sleep).\n"
        "handoff-active (gap=1-3us): the same with a 1-3 us gap, the receiver still waiting actively:\n"
        "  spin, ck-ring and boost-spsc poll their try-pop; rtipc objects use their blocking receive\n"
        "  with the library's default spin budget (with a budget of 0 they park at once, and this row\n"
        "  shows it). rtipc-spsc also as gap=1-3us,spin-on-try-pop (polling rtipc_spsc_try_pop).\n"
        "  6000 samples in 2 rounds (quick 1000). Not for the kernel-only peers.\n"
        "throughput (items/s): producer task on core 1 (priority 10) pushes sequence numbers as fast\n"
        "  as the mechanism takes them, consumer task on core 0 (priority 12) takes them and checks\n"
        "  each. Counted from the consumer's first clock read after a warm-up (20% of the duration,\n"
        "  at least 10 ms) to its first read bench_duration (0.4 s; quick 0.04 s) later, divided by\n"
        "  the time between those two reads (the consumer reads its clock every 64 items).\n"
        "  per-item: one push / pop call per item (blocking calls for the blocking peers; the SPSC\n"
        "  rings spin on try-push / try-pop). bulk=64: rtipc_spsc_push_bulk/pop_bulk and boost's\n"
        "  push(array, n)/pop(array, n) with up to 64 items per call. eventfd (counter): write(1)\n"
        "  per item, the reader takes the accumulated count. The pipe holds 64 KiB (kernel default).\n"
        "  sent == received is checked exactly after an end marker; phases rest 0.15 s apart. When\n"
        "  the consumer's window spans less than half the duration (it did not run: another program\n"
        "  held its core), the phase gives no row and a note says so.\n"
        "call-cost: ns per uncontended send + receive pair on one task (core 1): 1000 pairs timed as\n"
        "  a whole, divided by 1000 and rounded to whole ns; 200 such batches (quick 40) after a few\n"
        "  warm-up batches. notify: give to the calling task itself + take; sem: give + take; spsc:\n"
        "  try_push + try_pop; mailbox: write + read; others: their send + receive (never waiting).\n"
        "target-ratio (x): the targets, each a ratio of two figures of this run (or of a figure and a\n"
        "  fixed limit); the note says the target and whether it holds: rtipc-queue, -sem, -notify\n"
        "  handoff-sleeping p50 <= 1.10 x futex; rtipc-notify, -spsc handoff-active p50 <= 2 x spin;\n"
        "  rtipc-spsc throughput >= 1.2 x boost-spsc (bulk vs bulk and per-item vs per-item);\n"
        "  rtipc-queue call-cost p50 <= 0.5 x mutex-condvar; rtipc-notify call-cost p50 <= 25 ns;\n"
        "  queue control block rtipc_queue_footprint_for(0,0) <= 64 B; notification slot <= 8 B\n"
        "  (documented size). The targets table is printed as notes.\n"
        "A receiver blocked in the kernel past a lost message is released by a watchdog thread\n"
        "(the run then fails); spinning waits give up after 2 s. Timestamp overhead included.\n"
        "With --vcd/--perfetto the two handoff metrics are traced (each row over its rounds);\n"
        "throughput and call-cost are not.",
    .run = run_peers,
};
