/* The mechanisms rtipc-bench passes messages through, rtipc's objects and the
 * peers they are compared with, each described once, by the name its rows
 * carry (names.h), in one table (mechanisms.c). An experiment names the
 * mechanisms it measures, finds them here and drives them through the
 * operations each offers; the same name means the same code in every
 * experiment.
 *
 * One file per family: rtipc.c (rtipc's objects, every target),
 * posix.c (Linux's kernel primitives: futex, eventfd, pipe, POSIX message
 * queues and semaphores), locked_queues.c (queues behind a mutex and
 * condition variables, in C and, through locked_queues_cxx.cpp, C++),
 * lockfree.c (the polled word and the lock-free SPSC libraries, boost's
 * through lockfree_cxx.cpp), freertos_kernel.c (the FreeRTOS kernel's own
 * objects and ESP-IDF's ring buffers, where rtipc runs on FreeRTOS). A target
 * that does not build a family lists its entries from absent.c (or
 * freertos_kernel_absent.c), each saying why, so that an experiment asking
 * for one records it as missing.
 *
 * Messages are 4-byte sequence numbers; receivers check them. Every
 * operation but create and destroy may be NULL (not offered). The object is
 * used by one producer and one consumer at a time. */
#ifndef BENCH_MECHANISMS_H
#define BENCH_MECHANISMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../harness/experiment.h"
#include "rtipc/task.h"

/* Never a sequence number: the end of a throughput stream
 * (harness/throughput.h), and the item a kick sends. */
#define BENCH_MECH_MARKER UINT32_MAX

/* A spinning receive gives up (BENCH_MECH_ESTALL) after this long. */
#define BENCH_MECH_STALL_NS 2000000000LL

/* The adapters' own error codes, beside rtipc's (-1..-12). */
#define BENCH_MECH_ESTALL (-2000)   /* a spinning receive saw nothing for BENCH_MECH_STALL_NS */
#define BENCH_MECH_EMERGED (-2001)  /* a count other than 1: two signals merged */
#define BENCH_MECH_EMISSED (-2002)  /* a latest-value version skipped: an update was lost */
#define BENCH_MECH_EFULL (-2003)    /* a send that does not wait found no room */
#define BENCH_MECH_ESIZE (-2004)    /* an item of the wrong size came out */
#define BENCH_MECH_EKERNEL (-2005)  /* a FreeRTOS kernel call returned pdFAIL */
#define BENCH_MECH_EOS(e) (-10000 - (e))  /* a system call failed with errno e */

/* What rc (0, an rtipc error, one of the codes above) means, into buf. */
const char *bench_mech_strerror(int rc, char *buf, size_t n);

/* What a mechanism is like (its traits): how its receiver waits, what it
 * merges. */
enum {
    BENCH_MECH_PARKS = 1u << 0,   /* recv can block, the receiver asleep */
    BENCH_MECH_SPINS = 1u << 1,   /* its receiver can wait actively (recv spins, or
                                     recv_spin is offered, or rtipc's spin budget) */
    BENCH_MECH_MERGES = 1u << 2,  /* sends before a receive merge into one (a count):
                                     it cannot hold several items apart */
    BENCH_MECH_FOREIGN_WAIT = 1u << 3,  /* it blocks outside rtipc (the kernel, a condition
                                           variable): deleting a task blocked in it does not
                                           release it, only kick does */
    BENCH_MECH_NATIVE = 1u << 4,  /* the kernel's own object (FreeRTOS, ESP-IDF, the
                                     published C++ queue), driven by the kernel's own
                                     tasks (bench_task_spec_t.native) */
};

typedef struct bench_mech {
    const char *name;       /* names.h: BENCH_MECH_* */
    /* Set when the mechanism is not built for this target or this build:
     * why ("Concurrency Kit's <ck_ring.h> was not found at build time").
     * create is then NULL. */
    const char *absent;
    unsigned traits;        /* BENCH_MECH_PARKS | _SPINS | _MERGES | _FOREIGN_WAIT | _NATIVE */

    /* One object holding up to @p depth items where the mechanism has a
     * bound (a word, a semaphore and a count have none; a pipe holds what
     * the kernel gives it). 0 made; 1 it does not exist on this host, -1 it
     * failed: @p why says it. */
    int (*create)(size_t depth, void **obj, char *why, size_t n);
    void (*destroy)(void *obj);

    /* ---- one item per call (handoffs, round trips, overheads) ---- */
    /* Deliver @p seq: blocks while full (the polled rings and word never
     * wait: BENCH_MECH_EFULL). 0 or a negative error. */
    int (*send)(void *obj, uint32_t seq);
    /* The same without ever waiting. */
    int (*try_send)(void *obj, uint32_t seq);
    /* Wait for the next item: blocking where the mechanism blocks, else
     * polling (BENCH_MECH_ESTALL after BENCH_MECH_STALL_NS). */
    int (*recv)(void *obj, uint32_t *seq);
    /* Wait by polling the non-blocking receive of a mechanism that can
     * also block (never parks; BENCH_MECH_ESTALL after the stall time). */
    int (*recv_spin)(void *obj, uint32_t *seq);
    /* send from an interrupt handler (rtipc_irq); *woken as rtipc's
     * _from_isr calls set it. */
    int (*isr_send)(void *obj, uint32_t seq, bool *woken);
    /* Told both task handles before the first item (a notification needs
     * the consumer's). */
    void (*bind)(void *obj, bench_task_t *producer, bench_task_t *consumer);
    /* Items waiting now (>= 0), for the trace; negative when unknown. */
    int (*depth)(void *obj);
    /* Items the object holds, as made (posix-mq: what the kernel granted). */
    size_t (*capacity)(void *obj);
    /* Release a receiver blocked in its wait (and a sender blocked on a full
     * object) without ever blocking, from another thread: after a lost
     * message, so that the run fails instead of hanging. */
    void (*kick)(void *obj);
    /* Heap bytes of the object holding @p items items (it holds them now),
     * with a note saying what they are. 0 or a negative error. NULL: its
     * memory is in the kernel. */
    int (*memory)(void *obj, size_t items, size_t *bytes, char *note, size_t n);

    /* ---- call cost ---- */
    /* @p n uncontended rounds of send(seq + i) then receive on the calling
     * task, each item checked; 0, or -1 at the first error or mismatch. */
    int (*pairs)(void *obj, uint32_t seq, int n);

    /* ---- streams (throughput) ---- */
    /* Up to @p n items, one call per item: the number moved, 0..n (0: full
     * or empty, for the polled rings; a blocking mechanism moves all n, or
     * pops one), or a negative error. */
    int (*push_each)(void *obj, const uint32_t *items, int n);
    int (*pop_each)(void *obj, uint32_t *items, int n);
    /* The same with the mechanism's own many-item call. */
    int (*push_bulk)(void *obj, const uint32_t *items, int n);
    int (*pop_bulk)(void *obj, uint32_t *items, int n);
    /* A mechanism that merges (a count): wait for items and take them all,
     * returning how many; *end set when the end marker came with them. */
    long (*pop_count)(void *obj, bool *end);
    /* Its end marker: 1 pushed, 0 no room yet, negative error. */
    int (*push_marker)(void *obj);
} bench_mech_t;

/* Every mechanism, in the order of names.h. */
extern const bench_mech_t *const bench_mechanisms[];
/* Not in the table: the per-item floor of an SPSC ring that parks its peer
 * with a symmetric handshake (lockfree.c; Linux only). It has pairs, the
 * two stream ways and nothing else; peers measures it beside the rings. */
extern const bench_mech_t bench_spsc_fence_floor;

extern const size_t bench_mechanism_count;
/* The entry named @p name, or NULL (a name no entry has: a bug). */
const bench_mech_t *bench_mech_find(const char *name);

/* True where the FreeRTOS kernel's own objects are built (freertos_kernel.c:
 * rtipc runs on FreeRTOS), false on Linux (freertos_kernel_absent.c). */
extern const bool bench_mech_kernel_built;

/* The kernel's own object that rtipc's mechanism @p name maps onto, on a
 * FreeRTOS target: an experiment measures it beside rtipc's under the same
 * variant (rtipc-queue -> kernel-queue, rtipc-ringbuf-* -> ESP-IDF's ring
 * buffer, ...). NULL on Linux, and for a mechanism without one. The entry
 * returned may be absent on this target (ESP-IDF's ring buffer elsewhere):
 * bench_mech_make records it as missing then. */
const bench_mech_t *bench_mech_kernel_twin(const char *name);

/* The handoff driver's operations (harness/handoff.h) of @p m's object
 * @p obj: its send, recv, bind and depth, and native tasks for a
 * BENCH_MECH_NATIVE mechanism. */
struct handoff_ops;
void bench_mech_handoff_ops(const bench_mech_t *m, void *obj, struct handoff_ops *ops);

/* Make an object for an experiment: 0 made; 1 the mechanism is absent or
 * does not exist here, recorded as a missing row (once per experiment);
 * -1 after bench_fail(). */
int bench_mech_make(bench_run_t *run, const bench_mech_t *m, size_t depth, void **obj);

/* ---- for the families ---- */

/* A stream through a blocking mechanism, one item per call: @p send each of
 * @p n items (n, or the first error); @p recv one item (1, or the error). */
int bench_mech_push_each_blocking(int (*send)(void *, uint32_t), void *obj, const uint32_t *items, int n);
int bench_mech_pop_one_blocking(int (*recv)(void *, uint32_t *), void *obj, uint32_t *items);

/* Zeroed memory aligned to a cache line (free() it), or NULL. */
void *bench_mech_alloc(size_t size);
/* "out of memory" into why; returns -1 (create's failure). */
int bench_mech_no_memory(char *why, size_t n);

/* A polling wait that gives up after BENCH_MECH_STALL_NS: call
 * bench_mech_spin_pause after each empty poll; true once it gave up. The
 * clock is read only once the first 1024 polls failed, then every 1024. */
typedef struct {
    unsigned polls;
    int64_t deadline;
} bench_mech_spin_t;

static inline bool bench_mech_spin_pause(bench_mech_spin_t *s)
{
    rtipc_cpu_relax();
    if ((++s->polls & 1023) == 0) {
        int64_t now = bench_now_ns();
        if (!s->deadline)
            s->deadline = now + BENCH_MECH_STALL_NS;
        else if (now > s->deadline)
            return true;
    }
    return false;
}

/* Why an optional peer library is absent (peers_wanted.h): left out by the
 * build (CMake RTIPC_BENCH_PEERS=OFF defines BENCH_NO_PEERS), or not found. */
#ifdef BENCH_NO_PEERS
#define BENCH_PEER_ABSENT(header, package) "left out of this build (RTIPC_BENCH_PEERS=OFF): " header
#else
#define BENCH_PEER_ABSENT(header, package) header " was not found at build time (" package ")"
#endif

/* ThreadSanitizer builds: a family leaves out what TSan cannot follow. */
#if defined(__SANITIZE_THREAD__)
#define BENCH_MECH_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define BENCH_MECH_TSAN 1
#endif
#endif

#endif
