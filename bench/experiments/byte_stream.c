/* byte-stream: audio-like raw bytes (44.1 kHz, 16-bit stereo = 176400 B/s in
 * 10 ms blocks of 1764 B) from a producer task on core 1 to a consumer task
 * on core 0, through a byte ring buffer, a stream buffer and a queue of
 * 1-byte items. Paced at the real-time rate (drops, CPU per MB), then as
 * fast as possible (throughput, CPU per MB). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../mechanisms/freertos_bytes.h"
#include "../mechanisms/mechanisms.h"
#include "experiments.h"
#include "needs_tasks.h"

/* The consumer keeps a 4 KiB block on its stack, more than a board's default
 * task stack; two of these fit an ESP32's heap beside the objects (Linux
 * raises every stack to its own 64 KiB minimum). */
#define TASK_STACK (16u * 1024u)

#define RATE 176400                 /* bytes per second */
#define BLOCK 1764                  /* 10 ms of audio */
#define PERIOD_NS 10000000LL
#define CAPACITY (4 * BLOCK)        /* 40 ms of audio in every mechanism */
#define SEQ_MOD 251                 /* byte value = running byte count mod 251 */
#define END_BYTE 0xff               /* after the last byte (never a data value) */
#define POLL_MS 100                 /* consumer receive timeout: only to notice failures */
#define STALL_NS 2000000000LL

typedef struct {
    const char *name;
    int (*create)(void **obj);
    void (*destroy)(void *obj);
    /* Never blocks: takes a prefix of the n bytes, *taken = its length. */
    int (*send_nb)(void *obj, const uint8_t *d, size_t n, size_t *taken);
    /* Blocks (each wait up to t ns) until all n bytes are in; *taken = n.
     * A mechanism that sends byte by byte may stop early once
     * bench_now_ns() passes stop_at (0 = never), with *taken < n. */
    int (*send_all)(void *obj, const uint8_t *d, size_t n, int64_t t, int64_t stop_at, size_t *taken);
    /* Waits up to t ns for bytes; *data points to *got bytes (in @p buf, or
     * in place for the ring buffers), to be released with done(). */
    int (*recv)(void *obj, uint8_t *buf, size_t max, const uint8_t **data, size_t *got, int64_t t);
    int (*done)(void *obj, const uint8_t *data);  /* NULL: nothing to release */
    /* The kernel's entries (freertos_bytes.h): why one is not built here. */
    const bench_kbytes_t *kbytes;
    const bench_kqueue_t *kqueue;
} bs_mech_t;

/* ---------------------------------------------------- byte ring buffer */

static int rb_create(void **obj)
{
    return rtipc_ringbuf_create(CAPACITY, RTIPC_RINGBUF_BYTEBUF, (rtipc_ringbuf_t **)obj);
}
static void rb_destroy(void *obj) { rtipc_ringbuf_delete(obj); }
static int rb_send_nb(void *obj, const uint8_t *d, size_t n, size_t *taken)
{
    *taken = 0;
    int rc = rtipc_ringbuf_send(obj, d, n, RTIPC_NO_WAIT);
    if (rc == 0) {
        *taken = n;
        return 0;
    }
    if (rc != RTIPC_EWOULDBLOCK)
        return rc;
    /* A send is all or nothing: send the part that fits. */
    int room = rtipc_ringbuf_free_size(obj);
    if (room < 0)
        return room;
    if (room == 0)
        return 0;
    size_t k = (size_t)room < n ? (size_t)room : n;
    rc = rtipc_ringbuf_send(obj, d, k, RTIPC_NO_WAIT);
    if (rc == 0)
        *taken = k;
    return rc == RTIPC_EWOULDBLOCK ? 0 : rc;
}
static int rb_send_all(void *obj, const uint8_t *d, size_t n, int64_t t, int64_t stop_at, size_t *taken)
{
    (void)stop_at;
    int rc = rtipc_ringbuf_send(obj, d, n, rtipc_ns(t));
    *taken = rc == 0 ? n : 0;
    return rc;
}
static int rb_recv(void *obj, uint8_t *buf, size_t max, const uint8_t **data, size_t *got, int64_t t)
{
    (void)buf;
    void *p;
    int rc = rtipc_ringbuf_receive_up_to(obj, &p, got, max, rtipc_ns(t));
    if (rc == 0)
        *data = p;  /* checked in place: the ring buffer's zero-copy read */
    return rc;
}
static int rb_done(void *obj, const uint8_t *data) { return rtipc_ringbuf_return(obj, (void *)(uintptr_t)data); }

/* --------------------------------------------------------- stream buffer */

static int sb_create(void **obj) { return rtipc_streambuf_create(CAPACITY, 1, (rtipc_streambuf_t **)obj); }
static void sb_destroy(void *obj) { rtipc_streambuf_delete(obj); }
static int sb_send_nb(void *obj, const uint8_t *d, size_t n, size_t *taken)
{
    int rc = rtipc_streambuf_send(obj, d, n, taken, RTIPC_NO_WAIT);
    if (rc == RTIPC_EWOULDBLOCK) {
        *taken = 0;
        return 0;
    }
    return rc;
}
static int sb_send_all(void *obj, const uint8_t *d, size_t n, int64_t t, int64_t stop_at, size_t *taken)
{
    (void)stop_at;
    /* A send waits until the whole request fits; only a timeout writes less
     * (and those bytes are in: count them). */
    size_t sent = 0;
    int rc = rtipc_streambuf_send(obj, d, n, &sent, rtipc_ns(t));
    *taken = rc == 0 ? sent : 0;
    if (rc == 0 && sent < n)
        rc = RTIPC_ETIMEDOUT;
    return rc;
}
static int sb_recv(void *obj, uint8_t *buf, size_t max, const uint8_t **data, size_t *got, int64_t t)
{
    int rc = rtipc_streambuf_receive(obj, buf, max, got, rtipc_ns(t));
    *data = buf;
    return rc;
}

/* ------------------------------------------------- queue of 1-byte items */

static int q_create(void **obj) { return rtipc_queue_create(CAPACITY, 1, (rtipc_queue_t **)obj); }
static void q_destroy(void *obj) { rtipc_queue_delete(obj); }
static int q_send_nb(void *obj, const uint8_t *d, size_t n, size_t *taken)
{
    size_t k = 0;
    int rc = 0;
    for (; k < n; k++) {
        rc = rtipc_queue_send(obj, d + k, RTIPC_NO_WAIT);
        if (rc != 0)
            break;
    }
    *taken = k;
    return rc == RTIPC_EWOULDBLOCK ? 0 : rc;
}
static int q_send_all(void *obj, const uint8_t *d, size_t n, int64_t t, int64_t stop_at, size_t *taken)
{
    int rc = 0;
    size_t k = 0;
    for (; k < n; k++) {
        /* Bounded by time, not bytes: look at the clock every 64 bytes. */
        if (stop_at && (k & 63) == 0 && k && bench_now_ns() >= stop_at)
            break;
        rc = rtipc_queue_send(obj, d + k, rtipc_ns(t));
        if (rc != 0)
            break;
    }
    *taken = k;
    return rc;
}
static int q_recv(void *obj, uint8_t *buf, size_t max, const uint8_t **data, size_t *got, int64_t t)
{
    (void)max;
    int rc = rtipc_queue_receive(obj, buf, rtipc_ns(t));
    *data = buf;
    *got = rc == 0 ? 1 : 0;
    return rc;
}

/* ------------------------------ the kernel's own (FreeRTOS targets) */

/* The kernel's stream buffer and ESP-IDF's byte ring buffer
 * (freertos_bytes.c), in this file's terms: they never stop inside a
 * block. */
#define KBYTES(p, K)                                                                                         \
    static int p##_create(void **obj) { return K.create(CAPACITY, obj); }                                    \
    static void p##_destroy(void *obj) { K.destroy(obj); }                                                   \
    static int p##_send_nb(void *obj, const uint8_t *d, size_t n, size_t *taken)                             \
    {                                                                                                        \
        return K.send_nb(obj, d, n, taken);                                                                  \
    }                                                                                                        \
    static int p##_send_all(void *obj, const uint8_t *d, size_t n, int64_t t, int64_t stop_at, size_t *taken) \
    {                                                                                                        \
        (void)stop_at;                                                                                       \
        return K.send_all(obj, d, n, t, taken);                                                              \
    }                                                                                                        \
    static int p##_recv(void *obj, uint8_t *buf, size_t max, const uint8_t **data, size_t *got, int64_t t)  \
    {                                                                                                        \
        return K.recv(obj, buf, max, data, got, t);                                                          \
    }                                                                                                        \
    static int p##_done(void *obj, const uint8_t *data) { return K.done ? K.done(obj, data) : 0; }
KBYTES(ksb, bench_kbytes_streambuf)
KBYTES(krb, bench_kbytes_ringbuf)

/* A kernel queue of 1-byte items: xQueueSend / xQueueReceive per byte. */
static int kq_create(void **obj) { return bench_kqueue.create(CAPACITY, 1, obj); }
static void kq_destroy(void *obj) { bench_kqueue.destroy(obj); }
static int kq_send_nb(void *obj, const uint8_t *d, size_t n, size_t *taken)
{
    size_t k = 0;
    int rc = 0;
    for (; k < n; k++) {
        rc = bench_kqueue.send(obj, d + k, 0);
        if (rc != 0)
            break;
    }
    *taken = k;
    return rc == RTIPC_EWOULDBLOCK ? 0 : rc;
}
static int kq_send_all(void *obj, const uint8_t *d, size_t n, int64_t t, int64_t stop_at, size_t *taken)
{
    int rc = 0;
    size_t k = 0;
    for (; k < n; k++) {
        if (stop_at && (k & 63) == 0 && k && bench_now_ns() >= stop_at)
            break;
        rc = bench_kqueue.send(obj, d + k, t);
        if (rc != 0)
            break;
    }
    *taken = k;
    return rc;
}
static int kq_recv(void *obj, uint8_t *buf, size_t max, const uint8_t **data, size_t *got, int64_t t)
{
    (void)max;
    int rc = bench_kqueue.recv(obj, buf, t);
    *data = buf;
    *got = rc == 0 ? 1 : 0;
    return rc;
}

/* rtipc's objects, each followed by the kernel's own (measured only on a
 * FreeRTOS target). */
static const bs_mech_t mechs[] = {
    {BENCH_MECH_RTIPC_RINGBUF_BYTEBUF, rb_create, rb_destroy, rb_send_nb, rb_send_all, rb_recv, rb_done, NULL, NULL},
    {BENCH_MECH_ESPIDF_RINGBUF_BYTEBUF, krb_create, krb_destroy, krb_send_nb, krb_send_all, krb_recv, krb_done,
     &bench_kbytes_ringbuf, NULL},
    {BENCH_MECH_RTIPC_STREAMBUF, sb_create, sb_destroy, sb_send_nb, sb_send_all, sb_recv, NULL, NULL, NULL},
    {BENCH_MECH_KERNEL_STREAMBUF, ksb_create, ksb_destroy, ksb_send_nb, ksb_send_all, ksb_recv, ksb_done,
     &bench_kbytes_streambuf, NULL},
    {"rtipc-queue-1B", q_create, q_destroy, q_send_nb, q_send_all, q_recv, NULL, NULL, NULL},
    {BENCH_MECH_KERNEL_QUEUE_1B, kq_create, kq_destroy, kq_send_nb, kq_send_all, kq_recv, NULL, NULL, &bench_kqueue},
};
#define N_MECHS (sizeof mechs / sizeof mechs[0])

/* Why the kernel's entry @p m is not built here; NULL when it is (and for
 * rtipc's). */
static const char *kernel_absent(const bs_mech_t *m)
{
    return m->kbytes ? m->kbytes->absent : m->kqueue ? m->kqueue->absent : NULL;
}

/* ------------------------------------------------------------- the run */

typedef struct {
    const bs_mech_t *m;
    void *obj;
    bool paced;
    size_t blocks;             /* paced: blocks to produce */
    int64_t max_ns;            /* max: producer's sending time */
    /* producer results (read by the runner after the join) */
    uint64_t generated, accepted, dropped;
    int64_t t_first_send, cpu_prod_ns;
    /* consumer results */
    uint64_t received;
    uint64_t receives;         /* receive calls that returned bytes */
    int64_t t_last_recv, cpu_cons_ns;
    _Atomic int consumer_ready;
    bench_failure_t failure;
} bs_state_t;

/* Bytes numbered from the running count of bytes the mechanism accepted:
 * dropped bytes leave no gap, so the consumer can check every byte. */
static void fill(uint8_t *b, size_t n, uint64_t first)
{
    unsigned v = (unsigned)(first % SEQ_MOD);
    for (size_t k = 0; k < n; k++) {
        b[k] = (uint8_t)v;
        v = v + 1 == SEQ_MOD ? 0 : v + 1;
    }
}

static void producer(void *arg)
{
    bs_state_t *st = arg;
    const bs_mech_t *m = st->m;
    uint8_t block[BLOCK];
    while (!atomic_load_explicit(&st->consumer_ready, memory_order_acquire))
        bench_delay_ns(100000);
    bench_delay_ns(1000000);  /* let the consumer park in its receive */

    int64_t cpu0 = bench_thread_cpu_ns();
    st->t_first_send = bench_now_ns();
    for (size_t b = 0;; b++) {
        if (bench_failure_is_set(&st->failure))
            break;
        if (st->paced ? b >= st->blocks : bench_now_ns() - st->t_first_send >= st->max_ns)
            break;
        fill(block, BLOCK, st->accepted);
        int rc;
        size_t taken = BLOCK;
        if (st->paced)
            rc = m->send_nb(st->obj, block, BLOCK, &taken);
        else
            rc = m->send_all(st->obj, block, BLOCK, STALL_NS, st->t_first_send + st->max_ns, &taken);
        st->accepted += taken;  /* bytes that went in before a failure count too */
        if (rc != 0) {
            bench_failure_set(&st->failure, "%s: send of block %lu failed: %s", m->name, (unsigned long)b,
                              rtipc_strerror(rc));
            break;
        }
        /* max: a block cut short at the end was never generated in full. */
        st->generated += st->paced ? BLOCK : taken;
        st->dropped += st->paced ? BLOCK - taken : 0;
        if (st->paced && b + 1 < st->blocks) {
            /* The next 10 ms boundary (absolute, so that no drift builds up). */
            bench_sleep_until(st->t_first_send + (int64_t)(b + 1) * PERIOD_NS);
        }
    }
    if (!bench_failure_is_set(&st->failure)) {
        /* In-band end of stream, so that the consumer stops at once. */
        const uint8_t end = END_BYTE;
        size_t taken;
        int rc = m->send_all(st->obj, &end, 1, STALL_NS, 0, &taken);
        if (rc != 0)
            bench_failure_set(&st->failure, "%s: send of the end marker failed: %s", m->name,
                              rtipc_strerror(rc));
    }
    st->cpu_prod_ns = bench_thread_cpu_ns() - cpu0;
}

static void consumer(void *arg)
{
    bs_state_t *st = arg;
    const bs_mech_t *m = st->m;
    uint8_t buf[4096];
    unsigned expect = 0;
    int64_t cpu0 = bench_thread_cpu_ns();
    int64_t last_progress = bench_now_ns();
    bool end = false;
    atomic_store_explicit(&st->consumer_ready, 1, memory_order_release);
    while (!end) {
        const uint8_t *data = NULL;
        size_t got = 0;
        int rc = m->recv(st->obj, buf, sizeof buf, &data, &got, POLL_MS * 1000000LL);
        if (rc == 0) {
            int64_t now = bench_now_ns();
            size_t n_data = got;
            for (size_t k = 0; k < got; k++) {
                if (data[k] == END_BYTE && k + 1 == got) {
                    end = true;
                    n_data = k;
                    break;
                }
                if (data[k] != expect) {
                    bench_failure_set(&st->failure,
                                      "%s: byte %llu is %u where %u was due (lost, duplicated or reordered)",
                                      m->name, (unsigned long long)(st->received + k), data[k], expect);
                    break;
                }
                expect = expect + 1 == SEQ_MOD ? 0 : expect + 1;
            }
            if (m->done) {
                int rc2 = m->done(st->obj, data);
                if (rc2 != 0)
                    bench_failure_set(&st->failure, "%s: return of a read failed: %s", m->name,
                                      rtipc_strerror(rc2));
            }
            st->received += n_data;
            st->receives++;
            if (n_data)
                st->t_last_recv = now;
            last_progress = now;
        } else if (rc != RTIPC_ETIMEDOUT && rc != RTIPC_EWOULDBLOCK) {
            bench_failure_set(&st->failure, "%s: receive failed: %s", m->name, rtipc_strerror(rc));
        } else if (bench_now_ns() - last_progress > STALL_NS) {
            bench_failure_set(&st->failure, "%s: no byte for 2 s after %llu bytes (end marker lost?)",
                              m->name, (unsigned long long)st->received);
        }
        if (bench_failure_is_set(&st->failure))
            break;
    }
    st->cpu_cons_ns = bench_thread_cpu_ns() - cpu0;
}

static int run_phase(bench_run_t *run, const bs_mech_t *m, bool paced, size_t blocks, int64_t max_ns)
{
    bs_state_t *st = calloc(1, sizeof *st);
    if (!st)
        return bench_fail(run, "out of memory");
    st->m = m;
    st->paced = paced;
    st->blocks = blocks;
    st->max_ns = max_ns;
    const char *phase = paced ? "paced" : "max";
    int rc = m->create(&st->obj);
    if (rc == RTIPC_ENOTSUP) {
        free(st);
        if (paced)  /* once per mechanism */
            bench_add_missing(run, m->name, "not supported by this port (RTIPC_ENOTSUP)");
        return 0;
    }
    if (rc != 0) {
        free(st);
        return bench_fail(run, "%s: create: %s", m->name, rtipc_strerror(rc));
    }
    bool native = m->kbytes || m->kqueue;  /* the kernel's object on the kernel's own tasks */
    bench_task_t *cons = NULL, *prod = NULL;
    bench_task_spec_t cc = {.name = "bs-consumer", .priority = 12, .core = bench_cpu(run, 0),
                            .stack_bytes = TASK_STACK, .entry = consumer, .arg = st, .native = native};
    bench_task_spec_t pc = {.name = "bs-producer", .priority = 10, .core = bench_cpu(run, 1),
                            .stack_bytes = TASK_STACK, .entry = producer, .arg = st, .native = native};
    rc = bench_target_task_start(&cc, &cons);
    if (rc == 0) {
        rc = bench_target_task_start(&pc, &prod);
        if (rc != 0)  /* the consumer stops at its next timeout */
            bench_failure_set(&st->failure, "task creation failed");
        bench_target_task_join(cons);
        if (prod)
            bench_target_task_join(prod);
    }
    int result = 0;
    if (rc != 0) {
        result = bench_fail(run, "%s: task creation: %s", m->name, rtipc_strerror(rc));
    } else if (bench_failure_is_set(&st->failure)) {
        result = bench_fail(run, "%s", st->failure.why);
    } else if (st->generated != st->accepted + st->dropped || st->received != st->accepted) {
        result = bench_fail(run, "%s/%s: generated %llu != accepted %llu + dropped %llu, or received "
                            "%llu != accepted", m->name, phase, (unsigned long long)st->generated,
                            (unsigned long long)st->accepted, (unsigned long long)st->dropped,
                            (unsigned long long)st->received);
    } else if (st->received == 0) {
        result = bench_fail(run, "%s/%s: no byte moved", m->name, phase);
    } else {
        /* ns per byte = ms per MB (MB = 10^6 B); none without per-task CPU time. */
        double cpu = (double)(st->cpu_prod_ns + st->cpu_cons_ns) / (double)st->received;
        bool timed = (bench_target_features() & BENCH_TARGET_THREAD_CPU_TIME) != 0;
        if (paced) {
            bench_add_value(run, m->name, phase, BENCH_METRIC_DELIVERED, "B", (double)st->received);
            bench_add_value(run, m->name, phase, BENCH_METRIC_DROPPED, "B", (double)st->dropped);
            if (timed)
                bench_add_value(run, m->name, phase, BENCH_METRIC_CPU_PER_MB, "ms/MB", cpu);
            bench_add_value(run, m->name, phase, BENCH_METRIC_RECEIVES, "count", (double)st->receives);
        } else {
            double secs = (double)(st->t_last_recv - st->t_first_send) / 1e9;
            bench_add_value(run, m->name, phase, BENCH_METRIC_DELIVERED, "B", (double)st->received);
            bench_add_value(run, m->name, phase, BENCH_METRIC_THROUGHPUT, "B/s", (double)st->received / secs);
            if (timed)
                bench_add_value(run, m->name, phase, BENCH_METRIC_CPU_PER_MB, "ms/MB", cpu);
            bench_add_value(run, m->name, phase, BENCH_METRIC_RECEIVES, "count", (double)st->receives);
        }
    }
    m->destroy(st->obj);
    free(st);
    return result;
}

static int run_byte_stream(bench_run_t *run)
{
    double paced_s = bench_duration(run, 2.0, 0.3);
    size_t blocks = (size_t)(paced_s * 1e9 / PERIOD_NS + 0.5);
    if (blocks == 0)
        blocks = 1;
    int64_t max_ns = (int64_t)(paced_s * 1e9 / 8);  /* an eighth of the paced phase */
    for (size_t i = 0; i < N_MECHS; i++) {
        bench_progress(run, (double)i / N_MECHS);
        bool kernel = mechs[i].kbytes || mechs[i].kqueue;
        if (kernel && !bench_mech_kernel_built)
            continue;  /* Linux: rtipc's objects are the implementation */
        if (kernel_absent(&mechs[i])) {
            bench_add_missing(run, mechs[i].name, kernel_absent(&mechs[i]));
            continue;
        }
        if (run_phase(run, &mechs[i], true, blocks, 0) != 0)
            return -1;
        bench_progress(run, (i + 0.8) / N_MECHS);
        if (run_phase(run, &mechs[i], false, 0, max_ns) != 0)
            return -1;
    }
    bench_progress(run, 1.0);
    if (bench_target_features() & BENCH_TARGET_THREAD_CPU_TIME)
        bench_note(run, "cpu-per-MB is all the CPU time the kernel charges to both threads, their sleeps "
                   "and wake-ups included: at the paced rate it is mostly the cost of each wake-up "
                   "(see receives), not of copying bytes");
    else
        bench_note(run, "cpu-per-MB not measured: this target does not know each task's CPU time (on ESP-IDF "
                   "the kernel's run-time statistics, CONFIG_FREERTOS_GENERATE_RUN_TIME_STATS, are off)");
    bench_note(run, "paced: %lu blocks of %d B every 10 ms (%d B/s, %.2f s); max: blocking sends for %.3f s; "
               "every mechanism holds %d B (40 ms of audio)", (unsigned long)blocks, BLOCK, RATE, (double)blocks * PERIOD_NS / 1e9,
               (double)max_ns / 1e9, CAPACITY);
    return 0;
}

const bench_experiment_t exp_byte_stream = {
    .id = BENCH_EXP_BYTE_STREAM,
    .summary = EXP_BYTE_STREAM_SUMMARY,
    .definitions =
        "A producer task on core 1 (priority 10) streams bytes to a consumer task on core 0\n"
        "(priority 12) through one mechanism holding 7056 B (40 ms of 44.1 kHz 16-bit stereo audio):\n"
        "  rtipc-ringbuf-bytebuf: byte ring buffer; copying send of a block, zero-copy\n"
        "    receive_up_to(4096) checked in place, then returned.\n"
        "  rtipc-streambuf: stream buffer (trigger level 1); send of a block, receive of up to 4096 B.\n"
        "  rtipc-queue-1B: queue of 7056 1-byte items; one send and one receive per byte.\n"
        "On a FreeRTOS target the kernel's own objects run beside them, each after rtipc's, with\n"
        "the same phases, rows and checks:\n"
        "  espidf-ringbuf-bytebuf (ESP-IDF only; missing, with the reason, elsewhere):\n"
        "    xRingbufferCreate(7056, RINGBUF_TYPE_BYTEBUF); xRingbufferSend of a block (paced: with\n"
        "    no wait, then the prefix xRingbufferGetCurFreeSize allows), xRingbufferReceiveUpTo(4096)\n"
        "    checked in place, vRingbufferReturnItem.\n"
        "  kernel-streambuf: xStreamBufferCreate(7056, 1); xStreamBufferSend of a block (paced: no\n"
        "    wait, takes the prefix that fits), xStreamBufferReceive of up to 4096 B.\n"
        "  kernel-queue-1B: xQueueCreate(7056, 1); one xQueueSend and one xQueueReceive per byte.\n"
        "  Blocking waits are 2 s (sends) and 100 ms (receives) in ticks, rounded up.\n"
        "Every byte's value is the running count of bytes the mechanism accepted, mod 251; the\n"
        "consumer checks each one (a lost, duplicated or reordered byte fails the run), and at the\n"
        "end generated = accepted + dropped and received = accepted must hold exactly.\n"
        "paced: one 1764-byte block (10 ms of audio) every 10 ms on an absolute clock, for\n"
        "  bench_duration (2 s; quick 0.3 s). Sends never block: the bytes that do not fit are\n"
        "  dropped (the ring buffer and the stream buffer take the prefix that fits, the queue\n"
        "  stops at the first full send).\n"
        "  delivered (B), dropped (B): bytes received, bytes that did not fit.\n"
        "max: blocking sends of 1764-byte blocks (the queue: 1764 blocking 1-byte sends) as fast\n"
        "  as possible for an eighth of the paced duration (bounded by time, not bytes; the queue\n"
        "  may stop inside its last block).\n"
        "  throughput (B/s): bytes received / (consumer's timestamp after its last receive -\n"
        "  producer's timestamp before its first send).\n"
        "cpu-per-MB (ms/MB, MB = 10^6 B): CPU time of both tasks (CLOCK_THREAD_CPUTIME_ID, from\n"
        "  each task's start of the phase to its end, waits included) per MB received.\n"
        "receives (count): receive calls of the consumer that returned bytes.\n"
        "The stream ends with a byte 0xff (never a data value), sent with a blocking send and\n"
        "not counted; receives time out after 100 ms only to notice a failure.",
    .run = run_byte_stream,
    .requires = EXP_BYTE_STREAM_REQUIRES,
};
