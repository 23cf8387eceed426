/* queue-set: three sources, consumed by one task blocking on a queue set of
 * their three queues, or by three tasks each blocking on its own queue.
 * Latency of a message from any of the three, and the memory each design
 * needs (objects + consumer stacks). */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mechanisms/freertos_calls.h"
#include "../mechanisms/mechanisms.h"
#include "experiments.h"
#include "needs_tasks.h"

#define QS_SOURCES 3
#define QS_LEN 10
#ifdef ESP_PLATFORM
/* An ESP32's heap holds the whole run's rows as well: three 16 KiB stacks
 * do not fit beside them (a typical ESP-IDF task asks for 2-4 KiB). */
#define QS_STACK_REQUEST 4096
#else
#define QS_STACK_REQUEST 16384          /* asked for every consumer task */
#endif
#define QS_SENTINEL UINT32_MAX          /* one per queue at the end: consumers stop */
#define QS_STALL_NS 2000000000LL        /* a message not received by then is lost */

typedef struct {
    bool use_set;
    bool kernel;                  /* the kernel's queues and set (freertos_calls.h) */
    rtipc_queue_t *q[QS_SOURCES];
    rtipc_queueset_t *set;
    bench_kq_t *kq[QS_SOURCES];
    bench_kqs_t *kset;
    size_t total, warmup;
    uint8_t *target;              /* per message: the queue it was sent to */
    int64_t *t_send;              /* per message: producer's timestamp before the send */
    bench_samples_t *out;
    bench_rng_t rng;
    /* Messages received so far: release by the consumer after it checked and
     * recorded one, acquire by the producer before the next send. */
    _Atomic size_t received;
    _Atomic int ready;            /* consumers started (release; stack[] written) */
    _Atomic int go;
    _Atomic int done[QS_SOURCES + 1];   /* consumers 0..2, producer at QS_SOURCES */
    size_t stack[QS_SOURCES];     /* stack bytes each consumer got */
    bench_failure_t failure;
} qs_state_t;

typedef struct {
    qs_state_t *st;
    int index;                    /* the consumer's queue, or -1 for the set consumer */
} qs_arg_t;

/* The stack the calling consumer task got (the target says how it knows). */
static size_t own_stack_size(void) { return bench_target_task_stack(QS_STACK_REQUEST, NULL); }

/* A message from queue k: 1 for a sentinel, 0 when checked and recorded,
 * -1 on a sequence error. */
static int handle(qs_state_t *st, int k, uint32_t v, int64_t t)
{
    if (v == QS_SENTINEL)
        return 1;
    size_t want = atomic_load_explicit(&st->received, memory_order_acquire);
    if (v != want) {
        bench_failure_set(&st->failure,
                          "message %ld arrived where %ld was due (lost, duplicated or reordered)",
                          (long)v, (long)want);
        return -1;
    }
    if (st->target[v] != k) {
        bench_failure_set(&st->failure, "message %ld was sent to queue %ld but came out of another",
                          (long)v, (long)st->target[v]);
        return -1;
    }
    if (v >= st->warmup)
        bench_samples_push(st->out, t - st->t_send[v]);
    atomic_store_explicit(&st->received, (size_t)v + 1, memory_order_release);
    return 0;
}

static void set_consumer(qs_state_t *st)
{
    int sentinels = 0;
    while (sentinels < QS_SOURCES && !bench_failure_is_set(&st->failure)) {
        if (st->kernel) {
            /* xQueueSelectFromSet(set, portMAX_DELAY), then xQueueReceive(member, &v, 0). */
            int k = bench_kqs_select(st->kset, st->kq, QS_SOURCES, BENCH_KWAIT_FOREVER);
            if (k < 0) {
                bench_failure_set(&st->failure, "xQueueSelectFromSet returned %s",
                                  k == -1 ? "nothing" : "a handle that is not a member");
                break;
            }
            uint32_t v;
            int rc = bench_kq_receive(st->kq[k], &v, 0);
            int64_t t = bench_now_ns();
            if (rc != 0) {
                bench_failure_set(&st->failure, "queue %ld selected but xQueueReceive found it empty", (long)k);
                break;
            }
            int h = handle(st, k, v, t);
            if (h < 0)
                break;
            sentinels += h;
            continue;
        }
        void *member = NULL;
        int rc = rtipc_queueset_select(st->set, &member, RTIPC_FOREVER);
        if (rc != 0) {
            bench_failure_set(&st->failure, "select failed with %ld", (long)rc);
            break;
        }
        int k = 0;
        while (k < QS_SOURCES && st->q[k] != member)
            k++;
        if (k == QS_SOURCES) {
            bench_failure_set(&st->failure, "select returned a handle that is not a member");
            break;
        }
        uint32_t v;
        rc = rtipc_queue_receive(st->q[k], &v, RTIPC_NO_WAIT);
        int64_t t = bench_now_ns();
        if (rc != 0) {
            bench_failure_set(&st->failure, "queue %ld selected but its receive failed with %ld",
                              (long)k, (long)rc);
            break;
        }
        int h = handle(st, k, v, t);
        if (h < 0)
            break;
        sentinels += h;
    }
}

static void queue_consumer(qs_state_t *st, int k)
{
    while (!bench_failure_is_set(&st->failure)) {
        uint32_t v;
        int rc = st->kernel ? bench_kq_receive(st->kq[k], &v, BENCH_KWAIT_FOREVER)
                            : rtipc_queue_receive(st->q[k], &v, RTIPC_FOREVER);
        int64_t t = bench_now_ns();
        if (rc != 0) {
            bench_failure_set(&st->failure, "receive on queue %ld failed with %ld", (long)k, (long)rc);
            break;
        }
        if (handle(st, k, v, t) != 0)
            break;
    }
}

static void consumer(void *arg)
{
    qs_arg_t *a = arg;
    qs_state_t *st = a->st;
    int slot = a->index < 0 ? 0 : a->index;
    st->stack[slot] = own_stack_size();
    atomic_fetch_add_explicit(&st->ready, 1, memory_order_release);
    if (a->index < 0)
        set_consumer(st);
    else
        queue_consumer(st, a->index);
    atomic_store_explicit(&st->done[slot], 1, memory_order_release);
}

/* Wait until all messages so far are received; -1 on failure or stall. */
static int wait_received(qs_state_t *st, size_t want)
{
    int64_t deadline = bench_now_ns() + QS_STALL_NS;
    while (atomic_load_explicit(&st->received, memory_order_acquire) < want) {
        if (bench_failure_is_set(&st->failure))
            return -1;
        if (bench_now_ns() > deadline) {
            bench_failure_set(&st->failure, "message %ld not received within 2 s (lost?)", (long)want - 1);
            return -1;
        }
    }
    return 0;
}

static void producer(void *arg)
{
    qs_state_t *st = arg;
    int consumers = st->use_set ? 1 : QS_SOURCES;
    while (atomic_load_explicit(&st->ready, memory_order_acquire) < consumers ||
           !atomic_load_explicit(&st->go, memory_order_acquire))
        bench_sleep_ns(100000);
    bench_sleep_ns(1000000);   /* let the consumers reach their blocking call */
    for (size_t i = 0; i < st->total; i++) {
        if (wait_received(st, i) != 0)
            goto out;
        /* A pause so the consumer is parked again before the next send. */
        bench_spin_until(bench_now_ns() + bench_rng_range(&st->rng, 20000, 40000));
        int k = (int)bench_rng_range(&st->rng, 0, QS_SOURCES - 1);
        uint32_t v = (uint32_t)i;
        st->target[i] = (uint8_t)k;
        st->t_send[i] = bench_now_ns();
        int rc = st->kernel ? bench_kq_send(st->kq[k], &v, 0)   /* at most one in flight */
                            : rtipc_queue_send(st->q[k], &v, RTIPC_NO_WAIT);
        if (rc != 0) {
            bench_failure_set(&st->failure, "send of message %ld failed with %ld", (long)i, (long)rc);
            goto out;
        }
    }
    if (wait_received(st, st->total) != 0)
        goto out;
    for (int k = 0; k < QS_SOURCES; k++) {
        uint32_t stop = QS_SENTINEL;
        int rc = st->kernel ? bench_kq_send(st->kq[k], &stop, 0) : rtipc_queue_send(st->q[k], &stop, RTIPC_NO_WAIT);
        if (rc != 0) {
            bench_failure_set(&st->failure, "stop message to queue %ld failed with %ld", (long)k, (long)rc);
            break;
        }
    }
out:
    atomic_store_explicit(&st->done[QS_SOURCES], 1, memory_order_release);
}

/* One design: create, run, record, tear down. */
static int run_design(bench_run_t *run, bool use_set, bool kernel, size_t samples, size_t warmup, size_t *objects,
                      size_t *stacks, int *ntasks, size_t *stack_each)
{
    const char *mech = kernel ? (use_set ? BENCH_MECH_KERNEL_QUEUE_SET : BENCH_MECH_KERNEL_THREE_TASKS)
                              : (use_set ? BENCH_MECH_QUEUE_SET : BENCH_MECH_THREE_TASKS);
    qs_state_t *st = calloc(1, sizeof *st);
    bench_samples_t s = {0};
    int rc = 0;
    if (!st)
        return bench_fail(run, "out of memory");
    st->use_set = use_set;
    st->kernel = kernel;
    st->total = samples + warmup;
    st->warmup = warmup;
    st->target = calloc(st->total, 1);
    st->t_send = calloc(st->total, sizeof *st->t_send);
    st->out = &s;
    bench_rng_init(&st->rng, run, (use_set ? 1 : 2) + (kernel ? 2 : 0));
    if (!st->target || !st->t_send || bench_samples_init(&s, samples) != 0) {
        rc = bench_fail(run, "out of memory");
        goto free_mem;
    }
    if (kernel) {
        /* Measured on the live objects: the kernel heap's free bytes before
         * and after creating them (block headers included). */
        size_t before = bench_kheap_free();
        for (int k = 0; k < QS_SOURCES && rc == 0; k++)
            rc = bench_kq_create(QS_LEN, sizeof(uint32_t), &st->kq[k]);
        if (rc == 0 && use_set) {
            rc = bench_kqs_create(QS_SOURCES * QS_LEN, &st->kset);
            for (int k = 0; k < QS_SOURCES && rc == 0; k++)
                rc = bench_kqs_add(st->kset, st->kq[k]);
        }
        size_t after = bench_kheap_free();
        if (rc != 0) {
            rc = bench_fail(run, "%s: setup: xQueueCreate, xQueueCreateSet or xQueueAddToSet failed", mech);
            goto free_objects;
        }
        if (after >= before) {
            rc = bench_fail(run, "%s: the kernel heap did not shrink while the objects were made "
                                 "(freed meanwhile?): their memory cannot be measured", mech);
            goto free_objects;
        }
        *objects = before - after;
    } else {
        for (int k = 0; k < QS_SOURCES && rc == 0; k++)
            if ((rc = rtipc_queue_create(QS_LEN, sizeof(uint32_t), &st->q[k])) != 0)
                st->q[k] = NULL;
        if (rc == 0 && use_set) {
            rc = rtipc_queueset_create(QS_SOURCES * QS_LEN, &st->set);
            for (int k = 0; k < QS_SOURCES && rc == 0; k++)
                rc = rtipc_queueset_add_queue(st->set, st->q[k]);
        }
        if (rc != 0) {
            rc = bench_fail(run, "%s: setup: %s", mech, rtipc_strerror(rc));
            goto free_objects;
        }
        *objects = use_set ? rtipc_queueset_footprint(st->set) : 0;
        for (int k = 0; k < QS_SOURCES; k++)
            *objects += rtipc_queue_footprint(st->q[k]);
    }

    int nc = use_set ? 1 : QS_SOURCES;
    qs_arg_t args[QS_SOURCES];
    bench_task_t *cons[QS_SOURCES] = {0}, *prod = NULL;
    for (int c = 0; c < nc && rc == 0; c++) {
        args[c] = (qs_arg_t){st, use_set ? -1 : c};
        bench_task_spec_t cc = {.name = "qs-consumer", .priority = 12, .core = bench_cpu(run, 0),
                                .stack_bytes = QS_STACK_REQUEST, .entry = consumer, .arg = &args[c],
                                .native = kernel};
        rc = bench_target_task_start(&cc, &cons[c]);
    }
    if (rc == 0) {
        bench_task_spec_t pc = {.name = "qs-producer", .priority = 10, .core = bench_cpu(run, 1),
                                .entry = producer, .arg = st, .native = kernel};
        rc = bench_target_task_start(&pc, &prod);
    }
    if (rc != 0) {
        bench_failure_set(&st->failure, "task creation failed (%ld)", (long)rc);
    } else {
        atomic_store_explicit(&st->go, 1, memory_order_release);
        bench_target_task_join(prod);   /* its waits are bounded */
    }
    /* Consumers end on their stop messages; one that does not within 2 s
     * (or after a failure) is deleted. */
    int64_t deadline = bench_now_ns() + QS_STALL_NS;
    for (int c = 0; c < nc; c++) {
        if (!cons[c])
            continue;
        while (!bench_failure_is_set(&st->failure) &&
               !atomic_load_explicit(&st->done[c], memory_order_acquire) && bench_now_ns() < deadline)
            bench_sleep_ns(1000000);
        bool stopped = atomic_load_explicit(&st->done[c], memory_order_acquire);
        if (!stopped)
            bench_failure_set(&st->failure, "consumer %ld did not stop", (long)c);
        handoff_join_or_delete(cons[c], stopped);
    }
    if (bench_failure_is_set(&st->failure)) {
        rc = bench_fail(run, "%s: %s", mech, st->failure.why);
        goto free_objects;
    }
    *ntasks = nc;
    *stack_each = st->stack[0];
    *stacks = 0;
    for (int c = 0; c < nc; c++) {
        if (st->stack[c] == 0 || st->stack[c] != st->stack[0]) {
            rc = bench_fail(run, "%s: consumer stacks could not be measured or differ", mech);
            goto free_objects;
        }
        *stacks += st->stack[c];
    }
    if (!bench_add_dist(run, mech, BENCH_VARIANT_ANY_OF_3, BENCH_METRIC_LATENCY, &s))
        rc = -1;

free_objects:
    if (st->kset) {
        /* After a failure a member may hold items: drain it so it can leave. */
        for (int k = 0; k < QS_SOURCES; k++) {
            uint32_t v;
            if (!st->kq[k])
                continue;
            while (bench_kq_receive(st->kq[k], &v, 0) == 0) {
            }
            (void)bench_kqs_remove(st->kset, st->kq[k]);
        }
        bench_kqs_delete(st->kset);
    }
    for (int k = 0; k < QS_SOURCES; k++)
        bench_kq_delete(st->kq[k]);
    for (int k = 0; k < QS_SOURCES; k++) {
        if (!st->q[k])
            continue;
        if (st->set) {
            rtipc_queue_reset(st->q[k]);   /* after a failure it may hold items */
            rtipc_queueset_remove_queue(st->set, st->q[k]);
        }
    }
    if (st->set)
        rtipc_queueset_delete(st->set);
    for (int k = 0; k < QS_SOURCES; k++)
        if (st->q[k])
            rtipc_queue_delete(st->q[k]);
free_mem:
    bench_samples_free(&s);
    free(st->target);
    free(st->t_send);
    free(st);
    return rc;
}

static int run_queue_set(bench_run_t *run)
{
    size_t samples = bench_sample_count(run, 20000, 2000);
    size_t warmup = bench_warmup_count(run, samples);
    /* rtipc's designs, and on a FreeRTOS target the kernel's of the same
     * shape (its queue set and queues) right after each. */
    enum { D = 4 };
    static const struct {
        bool set, kernel;
        const char *mech;
    } designs[D] = {
        {true, false, BENCH_MECH_QUEUE_SET},
        {true, true, BENCH_MECH_KERNEL_QUEUE_SET},
        {false, false, BENCH_MECH_THREE_TASKS},
        {false, true, BENCH_MECH_KERNEL_THREE_TASKS},
    };
    size_t obj[D] = {0}, stk[D] = {0}, each[D] = {0};
    int tasks[D] = {0};
    for (int d = 0; d < D; d++) {
        bench_progress(run, (double)d / D);
        if (designs[d].kernel && !bench_mech_kernel_built)
            continue;
        if (run_design(run, designs[d].set, designs[d].kernel, samples, warmup, &obj[d], &stk[d], &tasks[d],
                       &each[d]) != 0)
            return -1;
        if (each[d] != each[0])
            return bench_fail(run, "the designs' consumer stacks differ (%lu vs %lu B)", (unsigned long)each[0],
                              (unsigned long)each[d]);
    }
    bench_progress(run, 1.0);

    char shape[64];
    snprintf(shape, sizeof shape, "%dx(len=%d,item=4),stack=%lu", QS_SOURCES, QS_LEN, (unsigned long)each[0]);
    for (int d = 0; d < D; d++) {
        if (designs[d].kernel && !bench_mech_kernel_built)
            continue;
        const char *m = designs[d].mech;
        bench_result_t *r = bench_add_value(run, m, shape, BENCH_METRIC_MEMORY, "B", (double)(obj[d] + stk[d]));
        if (r)
            bench_row_note(run, r, "objects %lu%s + %d stack(s) %lu; task descriptors not counted",
                     (unsigned long)obj[d], designs[d].kernel ? " (kernel heap free bytes before - after creation)" : "",
                     tasks[d], (unsigned long)stk[d]);
        bench_add_value(run, m, shape, BENCH_METRIC_OBJECTS, "B", (double)obj[d]);
        bench_add_value(run, m, shape, "stacks", "B", (double)stk[d]);
        bench_add_value(run, m, shape, BENCH_METRIC_CONSUMER_TASKS, "count", tasks[d]);
    }
    const char *how;
    (void)bench_target_task_stack(QS_STACK_REQUEST, &how);
    bench_note(run, "stack: %d B requested per consumer task; each got %lu B (%s; rtipc raises small stacks "
                    "to its minimum)", QS_STACK_REQUEST, (unsigned long)each[0], how);
    bench_note(run, "task descriptors are not counted: rtipc exposes no size for them (they also hold the "
                    "notification slots); they would add the same amount per task to the 3-tasks side");
    bench_note(run, "ESP32 mapping (FreeRTOS 32-bit figures, see footprint): 3 queues cost 3 x (76 + 40) B "
                    "either way, the set 76 + 30 x 4 = 196 B; each extra consumer task costs its stack "
                    "(2-4 KiB typical) + a TCB, so one set task saves about 2 x (2-4 KiB + TCB) - 196 B: "
                    "stacks dominate there as here");
    return 0;
}

const bench_experiment_t exp_queue_set = {
    .id = BENCH_EXP_QUEUE_SET,
    .summary = EXP_QUEUE_SET_SUMMARY,
    .definitions =
        "Setup: three queues of length 10, 4-byte items. One producer task on core 1 (priority 10)\n"
        "  sends each message (a sequence number) to a randomly chosen queue, closed loop: it waits\n"
        "  for the previous message to be received, then a random 20-40 us gap, then sends.\n"
        "queue-set: one consumer task (core 0, priority 12) blocks in rtipc_queueset_select on a set\n"
        "  of length 30 holding the three queues, then receives from the selected queue (no wait).\n"
        "3-tasks: three consumer tasks (core 0, priority 12), each blocked in rtipc_queue_receive on\n"
        "  its own queue.\n"
        "latency (any-of-3): from the producer's timestamp just before rtipc_queue_send to the\n"
        "  consumer's timestamp just after its receive returned (the consumer is running).\n"
        "memory (B): objects (3 queues, plus the set for queue-set: their footprint calls) + the\n"
        "  stacks of the consumer tasks (the size each consumer thread really got, the same for\n"
        "  both designs). The producer is common to both and not counted; task descriptors are not\n"
        "  counted (rtipc exposes no size for them). objects, stacks: the two parts.\n"
        "kernel-queue-set, kernel-3-tasks (FreeRTOS targets only, each right after rtipc's design):\n"
        "  the same with the kernel's own objects: three xQueueCreate(10, 4); kernel-queue-set adds\n"
        "  xQueueCreateSet(30) and xQueueAddToSet for each, and its consumer blocks in\n"
        "  xQueueSelectFromSet(set, portMAX_DELAY) then calls xQueueReceive(member, &v, 0); each\n"
        "  kernel-3-tasks consumer blocks in xQueueReceive(q, &v, portMAX_DELAY). The producer sends\n"
        "  with xQueueSend(q, &v, 0). latency: from just before xQueueSend to just after xQueueReceive.\n"
        "  objects: the kernel heap's free bytes (xPortGetFreeHeapSize) before creating the queues (and\n"
        "  the set) minus after, so block headers count; stacks as for rtipc's rows (the same tasks).\n"
        "Every message is checked: its number must be the next one and it must come out of the\n"
        "  queue it was sent to; otherwise the run fails.",
    .run = run_queue_set,
    .requires = EXP_QUEUE_SET_REQUIRES,
};
