/* footprint: bytes per object, measured with each object's footprint call on
 * a live object, next to the formula its header documents and, as a
 * reference, FreeRTOS's figure for a 32-bit build. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../mechanisms/freertos_bytes.h"
#include "../mechanisms/mechanisms.h"
#include "experiments.h"
#include "needs_tasks.h"

/* FreeRTOS reference sizes. Not measured here: determined once by compiling
 * the FreeRTOS-Kernel V11.1.0 headers (include/FreeRTOS.h) for a 32-bit
 * Cortex-M4 (clang --target=thumbv7em-none-eabi, port GCC/ARM_CM4F) with
 * static + dynamic allocation, configUSE_QUEUE_SETS 1 (ESP-IDF's default),
 * configUSE_TRACE_FACILITY 0, one notification slot, and reading sizeof of
 * the Static* types. ESP-IDF adds an 8-byte spinlock to each object
 * (docs/rtos-semantics.md, "Queues"); a heap allocator adds its block header. */
#define FRTOS_SRC "FreeRTOS V11.1.0, 32-bit"
enum {
    FRTOS_QUEUE_CB = 76,      /* sizeof(StaticQueue_t), also semaphores and mutexes */
    FRTOS_EVENTGROUP = 28,    /* sizeof(StaticEventGroup_t) */
    FRTOS_STREAMBUF_CB = 36,  /* sizeof(StaticStreamBuffer_t), also message buffers */
    FRTOS_PTR = 4,            /* a queue-set member handle */
    FRTOS_NOTIFY_SLOT = 5,    /* per slot in the TCB: uint32_t value + uint8_t state */
};

typedef struct {
    bench_run_t *run;
    int mismatches;
} fp_t;

/* Record measured and formula rows (and the FreeRTOS reference when
 * freertos > 0); a measured size that differs from the formula fails. */
static void record(fp_t *fp, const char *mech, const char *shape, size_t measured, size_t formula,
                   const char *formula_text, long freertos, const char *freertos_text)
{
    bench_add_value(fp->run, mech, shape, BENCH_METRIC_BYTES, "B", (double)measured);
    bench_result_t *r = bench_add_value(fp->run, mech, shape, BENCH_METRIC_FORMULA, "B", (double)formula);
    if (r)
        bench_row_note(fp->run, r, "%s", formula_text);
    if (freertos > 0) {
        r = bench_add_value(fp->run, mech, shape, BENCH_METRIC_FREERTOS_32BIT, "B", (double)freertos);
        if (r)
            bench_row_note(fp->run, r, "reference, not measured: %s", freertos_text);
    }
    if (measured != formula) {
        fp->mismatches++;
        bench_fail(fp->run, "%s %s: measured %lu B but the documented formula gives %lu B", mech, shape,
                   (unsigned long)measured, (unsigned long)formula);
    }
}

/* Whether this build of rtipc is its port named @p name (rtipc/config.h):
 * the figures below are properties of the library's port, not of the
 * platform. */
static bool rtipc_port_is(const char *name) { return strcmp(RTIPC_PORT_NAME, name) == 0; }

/* A figure a header states for 64-bit hosts: compare and say when it drifts.
 * The headers' figures are the Linux port's on 64-bit hosts. */
static void check_doc(fp_t *fp, const char *what, size_t actual, size_t documented)
{
    if (rtipc_port_is("posix") && sizeof(void *) == 8 && actual != documented)
        bench_note(fp->run, "DOC MISMATCH: %s is %lu B; its header says %lu B on 64-bit hosts", what,
                   (unsigned long)actual, (unsigned long)documented);
}

/* Storage bytes a stream or message buffer has beyond its size
 * (streambuf.h, msgbuf.h): none on Linux; the FreeRTOS kernel keeps one
 * byte free to tell full from empty. */
#define BYTEBUF_SPARE ((size_t)(rtipc_port_is("freertos") ? 1 : 0))

static int queues(fp_t *fp)
{
    static const struct {
        size_t len, item;
        const char *variant;  /* "len=LEN,item=ITEM" */
    } shapes[] = {
        {10, 4, BENCH_VARIANT_LEN_10_ITEM_4},
        {100, 4, BENCH_VARIANT_LEN_100_ITEM_4},
        {50, 8, BENCH_VARIANT_LEN_50_ITEM_8},
        {10, 64, "len=10,item=64"},
    };
    size_t cb = rtipc_queue_footprint_for(0, 0);
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        rtipc_queue_t *q;
        int rc = rtipc_queue_create(shapes[i].len, shapes[i].item, &q);
        if (rc != 0)
            return bench_fail(fp->run, "queue create: %s", rtipc_strerror(rc));
        size_t measured = rtipc_queue_footprint(q);
        rtipc_queue_delete(q);
        char ftext[96], rtext[128];
        snprintf(ftext, sizeof ftext, "control block %lu + %lu x %lu (queue.h)", (unsigned long)cb, (unsigned long)shapes[i].len,
                 (unsigned long)shapes[i].item);
        long fr = FRTOS_QUEUE_CB + (long)(shapes[i].len * shapes[i].item);
        snprintf(rtext, sizeof rtext, "StaticQueue_t %d + %lu x %lu; %s", FRTOS_QUEUE_CB, (unsigned long)shapes[i].len,
                 (unsigned long)shapes[i].item, FRTOS_SRC);
        record(fp, BENCH_MECH_RTIPC_QUEUE, shapes[i].variant, measured, cb + shapes[i].len * shapes[i].item, ftext,
               fr, rtext);
        if (shapes[i].len == 50 && shapes[i].item == 8)
            bench_note(fp->run,
                       "memory claim 'a queue costs length x item + 80-120 B; 50 x 8 B is about 520 B': "
                       "rtipc here %lu B (%lu B block + 400 B); FreeRTOS 32-bit %ld B (+8 B ESP-IDF "
                       "spinlock, + heap block header)", (unsigned long)measured, (unsigned long)cb, fr);
    }
    return 0;
}

static int semaphores(fp_t *fp)
{
    char rtext[128];
    snprintf(rtext, sizeof rtext, "StaticSemaphore_t = StaticQueue_t, no storage; %s", FRTOS_SRC);
    rtipc_sem_t *s;
    int rc = rtipc_sem_create_binary(&s);
    if (rc != 0)
        return bench_fail(fp->run, "binary semaphore create: %s", rtipc_strerror(rc));
    size_t m = rtipc_sem_footprint(s);
    rtipc_sem_delete(s);
    record(fp, BENCH_MECH_RTIPC_SEM_BINARY, BENCH_VARIANT_MAX_1, m, rtipc_sem_footprint(NULL),
           "rtipc_sem_footprint(NULL): the same for any semaphore (sem.h)", FRTOS_QUEUE_CB, rtext);
    rc = rtipc_sem_create_counting(10, 0, &s);
    if (rc != 0)
        return bench_fail(fp->run, "counting semaphore create: %s", rtipc_strerror(rc));
    m = rtipc_sem_footprint(s);
    rtipc_sem_delete(s);
    record(fp, "rtipc-sem-counting", "max=10", m, rtipc_sem_footprint(NULL),
           "rtipc_sem_footprint(NULL): the same for any semaphore (sem.h)", FRTOS_QUEUE_CB, rtext);

    for (int recursive = 0; recursive <= 1; recursive++) {
        rtipc_mutex_t *mx;
        rc = rtipc_mutex_create(recursive, &mx);
        if (rc != 0)
            return bench_fail(fp->run, "mutex create: %s", rtipc_strerror(rc));
        m = rtipc_mutex_footprint(mx);
        rtipc_mutex_delete(mx);
        record(fp, BENCH_MECH_RTIPC_MUTEX, recursive ? "recursive" : BENCH_VARIANT_PLAIN, m,
               rtipc_mutex_footprint(NULL),
               "rtipc_mutex_footprint(NULL): the same for any mutex (mutex.h)", FRTOS_QUEUE_CB, rtext);
    }
    return 0;
}

static void notifications(fp_t *fp)
{
    /* A slot lives inside the task descriptor, whose size the API does not
     * expose: only the documented figure can be given. */
    const char *notify = BENCH_MECH_RTIPC_NOTIFY;
    bench_result_t *r = bench_add_value(fp->run, notify, "per-slot", BENCH_METRIC_FORMULA, "B", 8);
    if (r)
        bench_row_note(fp->run, r, "documented in notify.h (8 B per slot in the task descriptor)");
    r = bench_add_value(fp->run, notify, "per-slot", BENCH_METRIC_FREERTOS_32BIT, "B", FRTOS_NOTIFY_SLOT);
    if (r)
        bench_row_note(fp->run, r,
                       "reference, not measured: TCB ulNotifiedValue[] 4 B + ucNotifyState[] 1 B per slot "
                       "(tasks.c V11.1.0)");
    bench_add_value(fp->run, notify, "per-task", "slots", "count", RTIPC_NOTIFY_SLOTS);
    r = bench_add_value(fp->run, notify, "per-task", BENCH_METRIC_FORMULA, "B", 8.0 * RTIPC_NOTIFY_SLOTS);
    if (r)
        bench_row_note(fp->run, r, "8 B x RTIPC_NOTIFY_SLOTS (%d)", RTIPC_NOTIFY_SLOTS);
    bench_note(fp->run, "notification slots: no 'bytes' row: a slot lives in the task descriptor and rtipc "
                        "exposes no task footprint call, so only notify.h's documented 8 B/slot is given");
}

static int ringbufs(fp_t *fp)
{
    static const struct { rtipc_ringbuf_type_t type; const char *name; } types[] = {
        {RTIPC_RINGBUF_NOSPLIT, BENCH_MECH_RTIPC_RINGBUF_NOSPLIT},
        {RTIPC_RINGBUF_ALLOWSPLIT, BENCH_MECH_RTIPC_RINGBUF_ALLOWSPLIT},
        {RTIPC_RINGBUF_BYTEBUF, BENCH_MECH_RTIPC_RINGBUF_BYTEBUF},
    };
    const size_t size = 1024;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        rtipc_ringbuf_t *rb;
        int rc = rtipc_ringbuf_create(size, types[i].type, &rb);
        if (rc == RTIPC_ENOTSUP) {
            bench_add_missing(fp->run, types[i].name, "not supported by this port (RTIPC_ENOTSUP)");
            continue;
        }
        if (rc != 0)
            return bench_fail(fp->run, "%s create: %s", types[i].name, rtipc_strerror(rc));
        size_t m = rtipc_ringbuf_footprint(rb);
        rtipc_ringbuf_delete(rb);
        size_t cb = rtipc_ringbuf_footprint_for(0, types[i].type);
        /* Item types round the storage up to a multiple of 4. */
        size_t storage = types[i].type == RTIPC_RINGBUF_BYTEBUF ? size : (size + 3) / 4 * 4;
        char ftext[96];
        snprintf(ftext, sizeof ftext, "control block %lu + storage %lu (ringbuf.h)", (unsigned long)cb, (unsigned long)storage);
        record(fp, types[i].name, BENCH_VARIANT_SIZE_1024, m, cb + storage, ftext, 0, NULL);
        check_doc(fp, "ring buffer control block", cb, 72);
    }
    return 0;
}

static int queueset(fp_t *fp)
{
    /* queueset.h: a control block plus a queue of length x pointer items;
     * the block's size is not stated, so it is taken from a length-1 set and
     * the formula checks the length term. */
    rtipc_queueset_t *one, *set;
    int rc = rtipc_queueset_create(1, &one);
    if (rc != 0)
        return bench_fail(fp->run, "queue set create: %s", rtipc_strerror(rc));
    size_t cb = rtipc_queueset_footprint(one) - rtipc_queue_footprint_for(1, sizeof(void *));
    rtipc_queueset_delete(one);
    rc = rtipc_queueset_create(30, &set);
    if (rc != 0)
        return bench_fail(fp->run, "queue set create: %s", rtipc_strerror(rc));
    size_t m = rtipc_queueset_footprint(set);
    rtipc_queueset_delete(set);
    char ftext[140], rtext[128];
    snprintf(ftext, sizeof ftext,
             "set block %lu (from a length-1 set) + queue of 30 x %lu B pointers (queue block %lu + %lu)",
             (unsigned long)cb, (unsigned long)(sizeof(void *)), (unsigned long)(rtipc_queue_footprint_for(0, 0)), (unsigned long)(30 * sizeof(void *)));
    snprintf(rtext, sizeof rtext, "a queue of 30 x 4 B handles: StaticQueue_t %d + 120; %s", FRTOS_QUEUE_CB,
             FRTOS_SRC);
    record(fp, BENCH_MECH_RTIPC_QUEUESET, BENCH_VARIANT_LEN_30, m,
           cb + rtipc_queue_footprint_for(30, sizeof(void *)), ftext,
           FRTOS_QUEUE_CB + 30 * FRTOS_PTR, rtext);
    return 0;
}

static int others(fp_t *fp)
{
    char ftext[96], rtext[128];
    rtipc_eventgroup_t *eg;
    int rc = rtipc_eventgroup_create(&eg);
    if (rc != 0)
        return bench_fail(fp->run, "event group create: %s", rtipc_strerror(rc));
    size_t m = rtipc_eventgroup_footprint(eg);
    rtipc_eventgroup_delete(eg);
    snprintf(rtext, sizeof rtext, "sizeof(StaticEventGroup_t); %s", FRTOS_SRC);
    record(fp, BENCH_MECH_RTIPC_EVENTGROUP, BENCH_VARIANT_24_BIT, m, rtipc_eventgroup_footprint(NULL),
           "rtipc_eventgroup_footprint(NULL): the same for any group (eventgroup.h)", FRTOS_EVENTGROUP,
           rtext);
    check_doc(fp, "event group", m, 24);

    const size_t size = 1024;
    snprintf(rtext, sizeof rtext, "StaticStreamBuffer_t %d + size + 1 (FreeRTOS keeps one byte free); %s",
             FRTOS_STREAMBUF_CB, FRTOS_SRC);
    rtipc_streambuf_t *sb;
    rc = rtipc_streambuf_create(size, 1, &sb);
    if (rc != 0)
        return bench_fail(fp->run, "stream buffer create: %s", rtipc_strerror(rc));
    m = rtipc_streambuf_footprint(sb);
    rtipc_streambuf_delete(sb);
    size_t cb = rtipc_streambuf_footprint_for(0);
    snprintf(ftext, sizeof ftext, "control block %lu + %lu (streambuf.h)", (unsigned long)cb, (unsigned long)(size + BYTEBUF_SPARE));
    record(fp, BENCH_MECH_RTIPC_STREAMBUF, BENCH_VARIANT_SIZE_1024, m, cb + size + BYTEBUF_SPARE, ftext,
           FRTOS_STREAMBUF_CB + (long)size + 1,
           rtext);
    check_doc(fp, "stream buffer control block", cb, 72);

    rtipc_msgbuf_t *mb;
    rc = rtipc_msgbuf_create(size, &mb);
    if (rc != 0)
        return bench_fail(fp->run, "message buffer create: %s", rtipc_strerror(rc));
    m = rtipc_msgbuf_footprint(mb);
    rtipc_msgbuf_delete(mb);
    cb = rtipc_msgbuf_footprint_for(0);
    snprintf(ftext, sizeof ftext, "control block %lu + %lu (msgbuf.h)", (unsigned long)cb, (unsigned long)(size + BYTEBUF_SPARE));
    record(fp, BENCH_MECH_RTIPC_MSGBUF, BENCH_VARIANT_SIZE_1024, m, cb + size + BYTEBUF_SPARE, ftext,
           FRTOS_STREAMBUF_CB + (long)size + 1, rtext);
    check_doc(fp, "message buffer control block", cb, 72);

    rtipc_mailbox_t *box;
    rc = rtipc_mailbox_create(16, NULL, &box);
    if (rc != 0)
        return bench_fail(fp->run, "mailbox create: %s", rtipc_strerror(rc));
    m = rtipc_mailbox_footprint(box);
    rtipc_mailbox_delete(box);
    cb = rtipc_mailbox_footprint_for(0);
    snprintf(ftext, sizeof ftext, "control block %lu + 2 copies of 16 B rounded to 8 = %lu (mailbox.h)", (unsigned long)cb,
             (unsigned long)(RTIPC_MAILBOX_STORAGE_SIZE(16)));
    record(fp, BENCH_MECH_RTIPC_MAILBOX, BENCH_VARIANT_VALUE_16, m, cb + RTIPC_MAILBOX_STORAGE_SIZE(16), ftext, 0,
           NULL);
    if (cb > 64)
        bench_note(fp->run, "DOC MISMATCH: mailbox control block is %lu B; mailbox.h says 64 at most", (unsigned long)cb);

    rtipc_spsc_t *ring;
    rc = rtipc_spsc_create(1024, 4, &ring);
    if (rc != 0)
        return bench_fail(fp->run, "spsc create: %s", rtipc_strerror(rc));
    m = rtipc_spsc_footprint(ring);
    rtipc_spsc_delete(ring);
    record(fp, BENCH_MECH_RTIPC_SPSC, "cap=1024,item=4", m, 192 + 1024 * 4,
           "192 (three 64 B lines) + 1024 x 4 (spsc.h)", 0, NULL);
    return 0;
}

/* One kernel object, measured live (freertos_bytes.c): a bytes row beside
 * rtipc's, missing where the object does not exist. */
static int kernel_row(fp_t *fp, const char *mech, const char *variant, bench_kfp_kind_t kind, size_t a, size_t b)
{
    size_t bytes = 0;
    char note[320];
    int rc = bench_kfp_measure(kind, a, b, &bytes, note, sizeof note);
    if (rc == 1) {
        bench_add_missing(fp->run, mech, note);
        return 0;
    }
    if (rc != 0)
        return bench_fail(fp->run, "%s %s: %s", mech, variant, note);
    bench_result_t *r = bench_add_value(fp->run, mech, variant, BENCH_METRIC_BYTES, "B", (double)bytes);
    if (r)
        bench_row_note(fp->run, r, "%s", note);
    return 0;
}

/* On a FreeRTOS target, the kernel's own objects in rtipc's shapes. */
static int kernel_objects(fp_t *fp)
{
    static const struct {
        size_t len, item;
        const char *variant;
    } shapes[] = {
        {10, 4, BENCH_VARIANT_LEN_10_ITEM_4},
        {100, 4, BENCH_VARIANT_LEN_100_ITEM_4},
        {50, 8, BENCH_VARIANT_LEN_50_ITEM_8},
        {10, 64, "len=10,item=64"},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (kernel_row(fp, BENCH_MECH_KERNEL_QUEUE, shapes[i].variant, BENCH_KFP_QUEUE, shapes[i].len,
                       shapes[i].item))
            return -1;
    static const struct {
        const char *mech, *variant;
        bench_kfp_kind_t kind;
        size_t a;
    } objs[] = {
        {BENCH_MECH_KERNEL_SEM, BENCH_VARIANT_MAX_1, BENCH_KFP_SEM_BINARY, 0},
        {BENCH_MECH_KERNEL_SEM_COUNTING, "max=10", BENCH_KFP_SEM_COUNTING, 10},
        {BENCH_MECH_KERNEL_MUTEX, BENCH_VARIANT_PLAIN, BENCH_KFP_MUTEX, 0},
        {BENCH_MECH_KERNEL_MUTEX, "recursive", BENCH_KFP_MUTEX_RECURSIVE, 0},
        {BENCH_MECH_ESPIDF_RINGBUF_NOSPLIT, BENCH_VARIANT_SIZE_1024, BENCH_KFP_RINGBUF_NOSPLIT, 1024},
        {BENCH_MECH_ESPIDF_RINGBUF_ALLOWSPLIT, BENCH_VARIANT_SIZE_1024, BENCH_KFP_RINGBUF_ALLOWSPLIT, 1024},
        {BENCH_MECH_ESPIDF_RINGBUF_BYTEBUF, BENCH_VARIANT_SIZE_1024, BENCH_KFP_RINGBUF_BYTEBUF, 1024},
        {BENCH_MECH_KERNEL_QUEUE_SET, BENCH_VARIANT_LEN_30, BENCH_KFP_QUEUE_SET, 30},
        {BENCH_MECH_KERNEL_EVENTGROUP, BENCH_VARIANT_24_BIT, BENCH_KFP_EVENTGROUP, 0},
        {BENCH_MECH_KERNEL_STREAMBUF, BENCH_VARIANT_SIZE_1024, BENCH_KFP_STREAMBUF, 1024},
        {BENCH_MECH_KERNEL_MSGBUF, BENCH_VARIANT_SIZE_1024, BENCH_KFP_MSGBUF, 1024},
    };
    for (size_t i = 0; i < sizeof objs / sizeof objs[0]; i++)
        if (kernel_row(fp, objs[i].mech, objs[i].variant, objs[i].kind, objs[i].a, 0))
            return -1;
    bench_note(fp->run, "kernel-* and espidf-* bytes rows: measured on live objects, the kernel heap's free "
                        "bytes (xPortGetFreeHeapSize) before and after a dynamic creation, median of three, "
                        "heap block headers included; each row's note gives its static form too");
    return 0;
}

static int run_footprint(bench_run_t *run)
{
    fp_t fp = {.run = run};
    bench_progress(run, 0.0);
    if (queues(&fp) || semaphores(&fp))
        return -1;
    notifications(&fp);
    if (ringbufs(&fp) || queueset(&fp) || others(&fp))
        return -1;
    if (bench_mech_kernel_built && kernel_objects(&fp))
        return -1;
    bench_note(run, "freertos-32bit rows: reference figures, not measurements: sizeof of FreeRTOS "
                    "V11.1.0's Static*_t types compiled for a 32-bit Cortex-M4 (static + dynamic "
                    "allocation, queue sets on, trace off) plus the storage FreeRTOS allocates; ESP-IDF "
                    "adds 8 B per object (spinlock), a heap allocator its block header. ESP-IDF's ring "
                    "buffer and rtipc's mailbox and SPSC ring have no FreeRTOS kernel twin");
    bench_progress(run, 1.0);
    return fp.mismatches ? -1 : 0;
}

const bench_experiment_t exp_footprint = {
    .id = BENCH_EXP_FOOTPRINT,
    .summary = EXP_FOOTPRINT_SUMMARY,
    .definitions =
        "bytes (B): what the object's footprint call (rtipc_*_footprint) reports for a live object\n"
        "  created dynamically with the shape in the variant: control block plus storage.\n"
        "formula (B): the size the object's header documents for that shape, computed from the\n"
        "  documented terms (e.g. rtipc_queue_footprint_for(0,0) + length x item size); a measured\n"
        "  size that differs fails the experiment.\n"
        "freertos-32bit (B): REFERENCE, not measured: FreeRTOS V11.1.0's Static*_t sizes for a 32-bit\n"
        "  Cortex-M4 build (queue sets on, trace off) plus the storage FreeRTOS allocates for that\n"
        "  shape; heap block headers and ESP-IDF's 8-byte spinlock not included.\n"
        "rtipc-notify: a slot lives in the task descriptor; rtipc exposes no task footprint, so only\n"
        "  the documented 8 B per slot (x RTIPC_NOTIFY_SLOTS per task) is given.\n"
        "rtipc-queueset formula: the set's own block is not documented; it is derived from a\n"
        "  length-1 set, so the formula checks the length x pointer term.\n"
        "On a FreeRTOS target, bytes rows of the kernel's own objects in the same shapes, MEASURED\n"
        "  on live objects: the kernel heap's free bytes (xPortGetFreeHeapSize) before and after\n"
        "  the dynamic creation (xQueueCreate, xSemaphoreCreateBinary / Counting(10, 0) / Mutex /\n"
        "  RecursiveMutex, xEventGroupCreate, xStreamBufferCreate(1024, 1), xMessageBufferCreate\n"
        "  (1024), xQueueCreateSet(30), and on ESP-IDF xRingbufferCreate(1024, type)), the median\n"
        "  of three creations; heap block headers included. Each row's note gives the static form\n"
        "  (sizeof(Static..._t) + storage) of the same object. mechanisms kernel-queue, kernel-sem,\n"
        "  kernel-sem-counting, kernel-mutex, kernel-eventgroup, kernel-streambuf, kernel-msgbuf,\n"
        "  kernel-queue-set, espidf-ringbuf-* (missing, with the reason, off ESP-IDF).",
    .run = run_footprint,
    .requires = EXP_FOOTPRINT_REQUIRES,
};
