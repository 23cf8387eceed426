/* Instruction counts of rtipc's hot calls, for the callgrind guard
 * tests/perf/op_costs.sh (which explains how the counts are compared).
 *
 * Every operation runs on the calling thread alone, uncontended and never
 * blocking (RTIPC_NO_WAIT): first WARMUP_CALLS times uncounted (lazy symbol
 * binding, adoption of the main thread as a task, one-time initialisation),
 * then MEASURED_CALLS times between two callgrind client requests that switch
 * collection on and off for this thread, followed by a dump named after the
 * operation. With valgrind --collect-atstart=no each dump therefore holds the
 * instructions of one operation's measured loop and nothing else: divided by
 * the call count it gives instructions per operation, the loop's own few
 * instructions (counter, call set-up, return-code test) included.
 *
 * Outside valgrind the client requests do nothing and the program is a plain
 * functional check of the same calls.
 *
 * Output (stdout): the build description (key: value lines, as printed by
 * --describe), then one line "op NAME CALLS" per measured operation.
 * Exit status: 0 done; 1 a call failed or another thread was running (the
 * reason on stderr); 2 usage error. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include <valgrind/callgrind.h>

#include "rtipc/rtipc.h"

/* Set by tests/CMakeLists.txt from the configuration that built the library. */
#ifndef OP_COSTS_COMPILER
#define OP_COSTS_COMPILER "unknown"
#endif
#ifndef OP_COSTS_BUILD_TYPE
#define OP_COSTS_BUILD_TYPE "unknown"
#endif
#ifndef OP_COSTS_ARCH
#define OP_COSTS_ARCH "unknown"
#endif

enum {
    WARMUP_CALLS = 256,
    MEASURED_CALLS = 10000,
    PAIR_QUEUE_LENGTH = 8,
    SPSC_CAPACITY = 16,
    SPSC_BULK = 8,
    MAILBOX_VALUE_SIZE = 16,
    RINGBUF_SIZE = 64,
    RINGBUF_ITEM_SIZE = 4,
    STREAMBUF_SIZE = 256, /* a multiple of the chunk: no send or receive ever wraps */
    STREAMBUF_CHUNK = 16,
};

/* The objects the operations use, created once before any measurement. */
typedef struct {
    rtipc_queue_t *pair_queue;
    rtipc_queue_t *fill_queue; /* room for every queue_send call, warm-up included */
    rtipc_sem_t *sem;
    rtipc_mutex_t *mutex;
    rtipc_task_t *self;
    rtipc_spsc_t *spsc;
    rtipc_spsc_t *spsc_bulk;
    rtipc_mailbox_t *mailbox;
    rtipc_ringbuf_t *ringbuf;
    rtipc_streambuf_t *streambuf;
    rtipc_eventgroup_t *events;
    uint64_t last_cycles;
} fixture_t;

/* Out of line and cold, so that the measured loops carry only a test and a
 * branch per checked call. */
static _Noreturn __attribute__((cold, noinline)) void fail(const char *what, int rc)
{
    fprintf(stderr, "op_costs: %s returned %d (%s)\n", what, rc, rtipc_strerror(rc));
    exit(1);
}

#define CHECK(call)                                                                                          \
    do {                                                                                                     \
        int check_rc_ = (call);                                                                              \
        if (check_rc_ != 0)                                                                                  \
            fail(#call, check_rc_);                                                                          \
    } while (0)

/* For calls that return a count: anything but @p want fails. */
#define CHECK_COUNT(call, want)                                                                              \
    do {                                                                                                     \
        int check_n_ = (call);                                                                               \
        if (check_n_ != (want))                                                                              \
            fail(#call, check_n_);                                                                           \
    } while (0)

static void op_queue_send_receive(fixture_t *f, unsigned calls)
{
    uint32_t out = 0;
    for (uint32_t i = 0; i < calls; ++i) {
        CHECK(rtipc_queue_send(f->pair_queue, &i, RTIPC_NO_WAIT));
        CHECK(rtipc_queue_receive(f->pair_queue, &out, RTIPC_NO_WAIT));
    }
    if (out != calls - 1)
        fail("queue_send_receive: last item received", (int)out);
}

/* queue_send fills fill_queue and queue_receive, which runs next, empties it. */
static void op_queue_send(fixture_t *f, unsigned calls)
{
    for (uint32_t i = 0; i < calls; ++i)
        CHECK(rtipc_queue_send(f->fill_queue, &i, RTIPC_NO_WAIT));
}

static void op_queue_receive(fixture_t *f, unsigned calls)
{
    uint32_t out = 0;
    for (unsigned i = 0; i < calls; ++i)
        CHECK(rtipc_queue_receive(f->fill_queue, &out, RTIPC_NO_WAIT));
}

static void op_sem_give_take(fixture_t *f, unsigned calls)
{
    for (unsigned i = 0; i < calls; ++i) {
        CHECK(rtipc_sem_give(f->sem));
        CHECK(rtipc_sem_take(f->sem, RTIPC_NO_WAIT));
    }
}

static void op_mutex_lock_unlock(fixture_t *f, unsigned calls)
{
    for (unsigned i = 0; i < calls; ++i) {
        CHECK(rtipc_mutex_lock(f->mutex, RTIPC_NO_WAIT));
        CHECK(rtipc_mutex_unlock(f->mutex));
    }
}

static void op_notify_give_take(fixture_t *f, unsigned calls)
{
    uint32_t value = 0;
    for (unsigned i = 0; i < calls; ++i) {
        CHECK(rtipc_notify_give(f->self, 0));
        CHECK(rtipc_notify_take(0, false, &value, RTIPC_NO_WAIT));
    }
    if (value != 1)
        fail("notify_give_take: value before the last take", (int)value);
}

static void op_spsc_push_pop(fixture_t *f, unsigned calls)
{
    uint32_t out = 0;
    for (uint32_t i = 0; i < calls; ++i) {
        CHECK(rtipc_spsc_try_push(f->spsc, &i));
        CHECK(rtipc_spsc_try_pop(f->spsc, &out));
    }
    if (out != calls - 1)
        fail("spsc_push_pop: last item popped", (int)out);
}

static void op_spsc_bulk8_push_pop(fixture_t *f, unsigned calls)
{
    uint32_t in[SPSC_BULK], out[SPSC_BULK] = {0};
    for (uint32_t k = 0; k < SPSC_BULK; ++k)
        in[k] = k + 1;
    for (unsigned i = 0; i < calls; ++i) {
        CHECK_COUNT(rtipc_spsc_push_bulk(f->spsc_bulk, in, SPSC_BULK), SPSC_BULK);
        CHECK_COUNT(rtipc_spsc_pop_bulk(f->spsc_bulk, out, SPSC_BULK), SPSC_BULK);
    }
    if (memcmp(in, out, sizeof in) != 0)
        fail("spsc_bulk8_push_pop: items popped differ from those pushed", 0);
}

static void op_mailbox_write_read(fixture_t *f, unsigned calls)
{
    unsigned char value[MAILBOX_VALUE_SIZE] = {0}, copy[MAILBOX_VALUE_SIZE];
    uint64_t version = 0;
    for (unsigned i = 0; i < calls; ++i) {
        value[0] = (unsigned char)i;
        CHECK(rtipc_mailbox_write(f->mailbox, value));
        CHECK(rtipc_mailbox_read(f->mailbox, copy, &version));
    }
    if (memcmp(value, copy, sizeof value) != 0)
        fail("mailbox_write_read: value read differs from the one written", 0);
}

static void op_ringbuf_send_receive_return(fixture_t *f, unsigned calls)
{
    uint32_t data = 0x5a5a5a5a;
    for (unsigned i = 0; i < calls; ++i) {
        void *item;
        size_t size;
        CHECK(rtipc_ringbuf_send(f->ringbuf, &data, RINGBUF_ITEM_SIZE, RTIPC_NO_WAIT));
        CHECK(rtipc_ringbuf_receive(f->ringbuf, &item, &size, RTIPC_NO_WAIT));
        if (size != RINGBUF_ITEM_SIZE)
            fail("ringbuf_send_receive_return: size of the item received", (int)size);
        CHECK(rtipc_ringbuf_return(f->ringbuf, item));
    }
}

static void op_streambuf_send_receive(fixture_t *f, unsigned calls)
{
    unsigned char data[STREAMBUF_CHUNK] = {1, 2, 3}, buf[STREAMBUF_CHUNK];
    for (unsigned i = 0; i < calls; ++i) {
        size_t sent, received;
        CHECK(rtipc_streambuf_send(f->streambuf, data, sizeof data, &sent, RTIPC_NO_WAIT));
        CHECK(rtipc_streambuf_receive(f->streambuf, buf, sizeof buf, &received, RTIPC_NO_WAIT));
        if (sent != sizeof data || received != sizeof buf)
            fail("streambuf_send_receive: bytes sent or received short", (int)(sent < received ? sent : received));
    }
}

static void op_eventgroup_set_clear(fixture_t *f, unsigned calls)
{
    uint32_t value = 0, previous = 0;
    for (unsigned i = 0; i < calls; ++i) {
        CHECK(rtipc_eventgroup_set_bits(f->events, 0x1, &value));
        CHECK(rtipc_eventgroup_clear_bits(f->events, 0x1, &previous));
    }
    if (value != 0x1 || previous != 0x1)
        fail("eventgroup_set_clear: bits seen", (int)value);
}

static void op_cycles(fixture_t *f, unsigned calls)
{
    uint64_t previous = f->last_cycles;
    for (unsigned i = 0; i < calls; ++i) {
        uint64_t now = rtipc_cycles();
        if (now < previous)
            fail("rtipc_cycles went backwards; reading", 0);
        previous = now;
    }
    f->last_cycles = previous;
}

/* Names are the keys of tests/perf/op_costs.baseline: keep them stable. */
static const struct {
    const char *name;
    void (*run)(fixture_t *f, unsigned calls);
} operations[] = {
    {"queue_send_receive", op_queue_send_receive},
    {"queue_send", op_queue_send},
    {"queue_receive", op_queue_receive},
    {"sem_give_take", op_sem_give_take},
    {"mutex_lock_unlock", op_mutex_lock_unlock},
    {"notify_give_take", op_notify_give_take},
    {"spsc_push_pop", op_spsc_push_pop},
    {"spsc_bulk8_push_pop", op_spsc_bulk8_push_pop},
    {"mailbox_write_read", op_mailbox_write_read},
    {"ringbuf_send_receive_return", op_ringbuf_send_receive_return},
    {"streambuf_send_receive", op_streambuf_send_receive},
    {"eventgroup_set_clear", op_eventgroup_set_clear},
    {"rtipc_cycles", op_cycles},
};

static void setup(fixture_t *f)
{
    memset(f, 0, sizeof *f);
    CHECK(rtipc_queue_create(PAIR_QUEUE_LENGTH, sizeof(uint32_t), &f->pair_queue));
    CHECK(rtipc_queue_create(WARMUP_CALLS + MEASURED_CALLS, sizeof(uint32_t), &f->fill_queue));
    CHECK(rtipc_sem_create_binary(&f->sem));
    CHECK(rtipc_mutex_create(false, &f->mutex));
    f->self = rtipc_task_current();
    if (!f->self)
        fail("rtipc_task_current (NULL)", RTIPC_ENOMEM);
    CHECK(rtipc_spsc_create(SPSC_CAPACITY, sizeof(uint32_t), &f->spsc));
    CHECK(rtipc_spsc_create(SPSC_CAPACITY, sizeof(uint32_t), &f->spsc_bulk));
    CHECK(rtipc_mailbox_create(MAILBOX_VALUE_SIZE, NULL, &f->mailbox));
    CHECK(rtipc_ringbuf_create(RINGBUF_SIZE, RTIPC_RINGBUF_NOSPLIT, &f->ringbuf));
    CHECK(rtipc_streambuf_create(STREAMBUF_SIZE, 1, &f->streambuf));
    CHECK(rtipc_eventgroup_create(&f->events));
}

static void teardown(fixture_t *f)
{
    CHECK(rtipc_eventgroup_delete(f->events));
    CHECK(rtipc_streambuf_delete(f->streambuf));
    CHECK(rtipc_ringbuf_delete(f->ringbuf));
    CHECK(rtipc_mailbox_delete(f->mailbox));
    CHECK(rtipc_spsc_delete(f->spsc_bulk));
    CHECK(rtipc_spsc_delete(f->spsc));
    CHECK(rtipc_mutex_delete(f->mutex));
    CHECK(rtipc_sem_delete(f->sem));
    CHECK(rtipc_queue_delete(f->fill_queue));
    CHECK(rtipc_queue_delete(f->pair_queue));
}

/* Threads of this process, from /proc/self/task; -1 if unreadable. */
static int count_threads(void)
{
    DIR *dir = opendir("/proc/self/task");
    if (!dir)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;)
        if (e->d_name[0] != '.')
            ++n;
    closedir(dir);
    return n;
}

/* The key: value lines that tie a set of counts to the code that produced
 * them; op_costs.sh compares them with the baseline's header. */
static void describe(void)
{
    printf("compiler: %s\n", OP_COSTS_COMPILER);
    printf("build: %s\n", OP_COSTS_BUILD_TYPE);
    printf("arch: %s\n", OP_COSTS_ARCH);
#ifdef __GLIBC__
    printf("libc: glibc %s\n", gnu_get_libc_version());
#else
    printf("libc: unknown\n");
#endif
    printf("cycles: %s\n", rtipc_cycles_source());
}

static void usage(FILE *to)
{
    fprintf(to, "usage: op_costs [--describe]\n"
                "Runs each rtipc hot call %d times (after %d uncounted calls) between\n"
                "callgrind client requests; run it under valgrind --tool=callgrind\n"
                "--collect-atstart=no (tests/perf/op_costs.sh does).\n"
                "  --describe  print the build description only\n",
            MEASURED_CALLS, WARMUP_CALLS);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--help") == 0) {
        usage(stdout);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "--describe") == 0) {
        describe();
        return fflush(stdout) == 0 ? 0 : 1;
    }
    if (argc != 1) {
        fprintf(stderr, "op_costs: unexpected argument '%s'\n", argv[1]);
        usage(stderr);
        return 2;
    }

    describe();
    fixture_t f;
    setup(&f);
    f.last_cycles = rtipc_cycles();
    for (size_t i = 0; i < sizeof operations / sizeof operations[0]; ++i) {
        operations[i].run(&f, WARMUP_CALLS);
        /* A helper thread could run rtipc code during the loop; none may exist. */
        int threads = count_threads();
        if (threads != 1) {
            fprintf(stderr, "op_costs: %d threads before measuring %s; the calling thread must run alone\n",
                    threads, operations[i].name);
            return 1;
        }
        CALLGRIND_ZERO_STATS;
        CALLGRIND_TOGGLE_COLLECT;
        operations[i].run(&f, MEASURED_CALLS);
        CALLGRIND_TOGGLE_COLLECT;
        CALLGRIND_DUMP_STATS_AT(operations[i].name);
        printf("op %s %d\n", operations[i].name, MEASURED_CALLS);
    }
    teardown(&f);
    if (fflush(stdout) != 0) {
        perror("op_costs: writing the results");
        return 1;
    }
    return 0;
}
