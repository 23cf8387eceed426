/* The names of rtipc-bench's result rows: experiment ids, mechanisms,
 * variants and metrics that more than one file writes or reads.
 *
 * A row is found by its four names (bench_find, the claim audit, compare,
 * the HTML report), and the firmwares of targets/ emit rows under the same
 * names so that `rtipc-bench audit` and `compare` read them as the host's.
 * A name that drifted in one place would not fail: the claim it feeds would
 * quietly become "not testable". Every C file that writes or reads one of
 * these names uses the constant, never the string (tests that check printed
 * output keep the strings on purpose). A name only one file uses stays in
 * that file, except the experiment ids: all of rtipc-bench's are here.
 *
 * The strings are those of docs/experiments.md and of every recorded run:
 * changing one renames a row of the rtipc-bench/1 output.
 *
 * Plain C string literals (and two look-ups of the twin list), for C and
 * C++, host and firmware builds alike:
 * they concatenate (BENCH_VARIANT_CROSS_CORE "/open-loop-5kHz",
 * BENCH_MECH_RTIPC_QUEUE "/" BENCH_VARIANT_FLUSHED) and fit static
 * initialisers. */
#ifndef BENCH_NAMES_H
#define BENCH_NAMES_H

#include <string.h>

/* ---- experiment ids ------------------------------------------------------
 * rtipc-bench's experiments, in the order of the registry
 * (experiments/registry.c) and of docs/experiments.md. */
#define BENCH_EXP_QUEUE_LATENCY "queue-latency"
#define BENCH_EXP_QUEUE_PLACEMENT "queue-placement"
#define BENCH_EXP_ISR_HANDOFF "isr-handoff"
#define BENCH_EXP_MECHANISM_COMPARE "mechanism-compare"
#define BENCH_EXP_BYTE_STREAM "byte-stream"
#define BENCH_EXP_BLOCKED_PRODUCER "blocked-producer"
#define BENCH_EXP_STATE_VS_EVENT "state-vs-event"
#define BENCH_EXP_CORE_PLACEMENT "core-placement"
#define BENCH_EXP_BATCHING "batching"
#define BENCH_EXP_QUEUE_SET "queue-set"
#define BENCH_EXP_FOOTPRINT "footprint"
#define BENCH_EXP_INTERFERENCE "interference"
#define BENCH_EXP_NOTIFY_VS_SEM "notify-vs-sem"
#define BENCH_EXP_NOTIFY_MODES "notify-modes"
#define BENCH_EXP_PEERS "peers"
#define BENCH_EXP_ROUND_TRIP "round-trip"
#define BENCH_EXP_LOCKFREE_COST "lockfree-cost"


/* ---- mechanisms ----------------------------------------------------------
 * rtipc's objects. */
#define BENCH_MECH_RTIPC_QUEUE "rtipc-queue"
#define BENCH_MECH_RTIPC_QUEUE_OVERWRITE "rtipc-queue-overwrite"  /* length-1 queue, rtipc_queue_overwrite */
#define BENCH_MECH_RTIPC_QUEUESET "rtipc-queueset"
#define BENCH_MECH_RTIPC_SEM "rtipc-sem"                /* a binary semaphore, in the handoffs */
#define BENCH_MECH_RTIPC_SEM_BINARY "rtipc-sem-binary"  /* the same object, in footprint */
#define BENCH_MECH_RTIPC_MUTEX "rtipc-mutex"
#define BENCH_MECH_RTIPC_EVENTGROUP "rtipc-eventgroup"
#define BENCH_MECH_RTIPC_NOTIFY "rtipc-notify"
#define BENCH_MECH_RTIPC_NOTIFY_FROM_ISR "rtipc-notify-from-isr"
#define BENCH_MECH_RTIPC_MAILBOX "rtipc-mailbox"
#define BENCH_MECH_RTIPC_SPSC "rtipc-spsc"
#define BENCH_MECH_RTIPC_SPSC_SYM "rtipc-spsc-sym"  /* the ring with RTIPC_SPSC_FENCE_SYMMETRIC */
#define BENCH_MECH_RTIPC_SPSC_FROM_ISR "rtipc-spsc-from-isr"  /* pushed by a handler, polled */
#define BENCH_MECH_RTIPC_RINGBUF_NOSPLIT "rtipc-ringbuf-nosplit"
#define BENCH_MECH_RTIPC_RINGBUF_ALLOWSPLIT "rtipc-ringbuf-allowsplit"
/* The FreeRTOS kernel's own objects, written as a FreeRTOS user writes
 * them (mechanisms/freertos_kernel.c), measured beside rtipc's on every
 * FreeRTOS target: the rows the claim audit decides from there. */
#define BENCH_MECH_KERNEL_QUEUE "kernel-queue"                      /* xQueueSend / xQueueReceive */
#define BENCH_MECH_KERNEL_QUEUE_OVERWRITE "kernel-queue-overwrite"  /* xQueueOverwrite, length 1 */
#define BENCH_MECH_KERNEL_SEM "kernel-sem"                          /* a binary semaphore */
#define BENCH_MECH_KERNEL_NOTIFY "kernel-notify"                    /* xTaskNotifyGive / ulTaskNotifyTake */
#define BENCH_MECH_KERNEL_STREAMBUF "kernel-streambuf"
#define BENCH_MECH_KERNEL_MSGBUF "kernel-msgbuf"
#define BENCH_MECH_KERNEL_EVENTGROUP "kernel-eventgroup"
#define BENCH_MECH_KERNEL_MUTEX_LIST "kernel-mutex-list"  /* heap nodes under a FreeRTOS mutex */
#define BENCH_MECH_KERNEL_QUEUE_SET "kernel-queue-set"    /* xQueueCreateSet, one consumer */
#define BENCH_MECH_KERNEL_THREE_TASKS "kernel-3-tasks"    /* one kernel queue and task per source */
#define BENCH_MECH_KERNEL_QUEUE_1B "kernel-queue-1B"      /* byte-stream: a queue of 1-byte items */
#define BENCH_MECH_KERNEL_SEM_COUNTING "kernel-sem-counting"  /* footprint: xSemaphoreCreateCounting */
#define BENCH_MECH_KERNEL_MUTEX "kernel-mutex"            /* footprint: xSemaphoreCreate(Recursive)Mutex */
/* ESP-IDF's ring buffer (esp_ringbuf), on ESP-IDF only. */
#define BENCH_MECH_ESPIDF_RINGBUF_NOSPLIT "espidf-ringbuf-nosplit"
#define BENCH_MECH_ESPIDF_RINGBUF_ALLOWSPLIT "espidf-ringbuf-allowsplit"
#define BENCH_MECH_ESPIDF_RINGBUF_BYTEBUF "espidf-ringbuf-bytebuf"
#define BENCH_MECH_RTIPC_OVER_KERNEL "rtipc/kernel"  /* ratio rows */
#define BENCH_MECH_RTIPC_RINGBUF_BYTEBUF "rtipc-ringbuf-bytebuf"
#define BENCH_MECH_RTIPC_STREAMBUF "rtipc-streambuf"
#define BENCH_MECH_RTIPC_MSGBUF "rtipc-msgbuf"

/* Each rtipc mechanism and the kernel's own object it maps onto on a
 * FreeRTOS target, as X(rtipc, kernel): an experiment there measures the
 * second beside the first under the same variant and metric, and the claim
 * audit decides from the kernel's row when a run has it. */
#define BENCH_KERNEL_TWINS(X)                                                        \
    X(BENCH_MECH_RTIPC_QUEUE, BENCH_MECH_KERNEL_QUEUE)                               \
    X(BENCH_MECH_RTIPC_QUEUE_OVERWRITE, BENCH_MECH_KERNEL_QUEUE_OVERWRITE)           \
    X(BENCH_MECH_RTIPC_SEM, BENCH_MECH_KERNEL_SEM)                                   \
    X(BENCH_MECH_RTIPC_NOTIFY, BENCH_MECH_KERNEL_NOTIFY)                             \
    X(BENCH_MECH_RTIPC_STREAMBUF, BENCH_MECH_KERNEL_STREAMBUF)                       \
    X(BENCH_MECH_RTIPC_MSGBUF, BENCH_MECH_KERNEL_MSGBUF)                             \
    X(BENCH_MECH_RTIPC_EVENTGROUP, BENCH_MECH_KERNEL_EVENTGROUP)                     \
    X(BENCH_MECH_RTIPC_RINGBUF_NOSPLIT, BENCH_MECH_ESPIDF_RINGBUF_NOSPLIT)           \
    X(BENCH_MECH_RTIPC_RINGBUF_ALLOWSPLIT, BENCH_MECH_ESPIDF_RINGBUF_ALLOWSPLIT)     \
    X(BENCH_MECH_RTIPC_RINGBUF_BYTEBUF, BENCH_MECH_ESPIDF_RINGBUF_BYTEBUF)           \
    X(BENCH_MECH_QUEUE_SET, BENCH_MECH_KERNEL_QUEUE_SET)                             \
    X(BENCH_MECH_THREE_TASKS, BENCH_MECH_KERNEL_THREE_TASKS)

/* The peers rtipc is compared with (mechanism-compare, peers; each is one
 * entry of bench/mechanisms/mechanisms.h, which says what it is). */
#define BENCH_MECH_SPIN "spin"                        /* a polled word: the floor of a handoff */
#define BENCH_MECH_FUTEX "futex"
#define BENCH_MECH_EVENTFD "eventfd"
#define BENCH_MECH_PIPE "pipe"
#define BENCH_MECH_POSIX_MQ "posix-mq"
#define BENCH_MECH_POSIX_SEM "posix-sem"
#define BENCH_MECH_MUTEX_CONDVAR "mutex-condvar"      /* a C ring under a mutex, two condvars */
#define BENCH_MECH_MUTEX_CONDVAR_PI "mutex-condvar-pi"  /* the same ring, a priority-inheriting mutex */
#define BENCH_MECH_MUTEX_CONDVAR_LIST "mutex-condvar-list"  /* a C list of heap nodes under a mutex */
#define BENCH_MECH_STD_QUEUE_MUTEX "std-queue-mutex"  /* std::queue + std::mutex */
#define BENCH_MECH_CK_RING "ck-ring"
#define BENCH_MECH_BOOST_SPSC "boost-spsc"
#define BENCH_MECH_ATOMIC_QUEUE_SPSC "atomic-queue-spsc"            /* atomic_queue::AtomicQueueB2, SPSC */
#define BENCH_MECH_MOODYCAMEL_RWQ "moodycamel-rwq"                  /* moodycamel::ReaderWriterQueue */
#define BENCH_MECH_MOODYCAMEL_BLOCKING_RWQ "moodycamel-blocking-rwq"  /* moodycamel::BlockingReaderWriterQueue */
#define BENCH_MECH_MOODYCAMEL_BLOCKING_CQ "moodycamel-blocking-cq"  /* moodycamel::BlockingConcurrentQueue */
#define BENCH_MECH_URCU_WFCQ "urcu-wfcq"                            /* userspace RCU's cds_wfcq */
/* Not a mechanism: peers' call-cost floor of a call that locks (four CAS). */
#define BENCH_MECH_CAS_FLOOR "cas-floor"
/* Not a library: the least an SPSC ring does per item with a symmetric
 * parking handshake (a fence and a flag load per push and pop; lockfree.c). */
#define BENCH_MECH_SPSC_FENCE_FLOOR "spsc-fence-floor"

/* queue-set's two designs. */
#define BENCH_MECH_QUEUE_SET "queue-set"  /* one consumer on a queue set */
#define BENCH_MECH_THREE_TASKS "3-tasks"  /* one consumer task per queue */

/* Ratio rows: the mechanism names the numerator and the denominator. */
#define BENCH_MECH_SEM_OVER_NOTIFY "sem/notify"
#define BENCH_MECH_KERNEL_SEM_OVER_NOTIFY "kernel-sem/kernel-notify" /* the kernel's pair (FreeRTOS) */

/* An empty pair of stamps (bench_target_stamp_*), lockfree-cost's overhead. */
#define BENCH_MECH_STAMP_PAIR "stamp-pair"

/* ---- variants ------------------------------------------------------------
 * Where the two tasks run: bench_core_variant() names a sender and receiver
 * on different logical cores cross-core when there are two, same-core when
 * there is one. */
#define BENCH_VARIANT_CROSS_CORE "cross-core"
#define BENCH_VARIANT_SAME_CORE "same-core"
#define BENCH_VARIANT_EQUAL_PRIORITY "equal-priority"  /* two tasks of one priority on one core */
#define BENCH_VARIANT_ONE_TASK "one-task"              /* both ends of a call in one task */
#define BENCH_VARIANT_FROM_ISR "from-isr"              /* the call from an interrupt handler */

/* queue-placement: the queue's memory cached, or evicted before each send. */
#define BENCH_VARIANT_WARM "warm"
#define BENCH_VARIANT_FLUSHED "flushed"
#define BENCH_VARIANT_PSRAM "psram"  /* the kernel queue's storage in external PSRAM (ESP-IDF) */

/* isr-handoff: the handler asks for the
 * switch to the woken task (yield) or not; kernel-call: no yield, but the
 * interrupted task makes kernel calls. The throughput rows add the queue's
 * depth. */
#define BENCH_VARIANT_YIELD "yield"
#define BENCH_VARIANT_NO_YIELD "no-yield"
#define BENCH_VARIANT_NO_YIELD_KERNEL_CALL "no-yield/kernel-call"
#define BENCH_VARIANT_CORE1_YIELD "core-1/yield"
#define BENCH_VARIANT_CORE1_NO_YIELD "core-1/no-yield"
#define BENCH_VARIANT_YIELD_DEPTH_1 "yield/depth=1"
#define BENCH_VARIANT_YIELD_DEPTH_100 "yield/depth=100"
#define BENCH_VARIANT_NO_YIELD_DEPTH_1 "no-yield/depth=1"
#define BENCH_VARIANT_NO_YIELD_DEPTH_100 "no-yield/depth=100"

/* mechanism-compare: one 4-byte item per call, or 8 calls per timestamp
 * pair; the memory of a queue of 100 such items (also a footprint shape). */
#define BENCH_VARIANT_ITEM_4 "item=4"
#define BENCH_VARIANT_ITEM_4_BATCH_8 "item=4,batch=8"
#define BENCH_VARIANT_LEN_100_ITEM_4 "len=100,item=4"

/* peers: the sender's pause after each acknowledged message (the receiver
 * parked, or waiting actively), one task sending to itself, and one call
 * per item or 64 per call in the throughput rows. */
#define BENCH_VARIANT_GAP_50_100US "gap=50-100us"
#define BENCH_VARIANT_GAP_1_3US "gap=1-3us"
#define BENCH_VARIANT_SAME_THREAD "same-thread"
#define BENCH_VARIANT_PER_ITEM "per-item"
#define BENCH_VARIANT_BULK_64 "bulk=64"

/* blocked-producer: how the producer waits on the full queue, and whether
 * it subscribed to the task watchdog. */
#define BENCH_VARIANT_WAIT_FOREVER_SUBSCRIBED "wait-forever/subscribed"
#define BENCH_VARIANT_WAIT_FOREVER_UNSUBSCRIBED "wait-forever/unsubscribed"
#define BENCH_VARIANT_TIMEOUT_10MS_SUBSCRIBED "timeout-10ms/subscribed"

/* state-vs-event: the queue's depth, the overwritten length-1 queue, the
 * mailbox's latest value. */
#define BENCH_VARIANT_DEPTH_32 "depth=32"
#define BENCH_VARIANT_LENGTH_1 "length=1"
#define BENCH_VARIANT_LATEST "latest"

/* batching: 100 one-byte items, one 100-byte item, and their ratio. */
#define BENCH_VARIANT_100X1B "100x1B"
#define BENCH_VARIANT_1X100B "1x100B"
#define BENCH_VARIANT_100X1B_OVER_1X100B "100x1B/1x100B"

/* queue-set: a message to any of the three queues. */
#define BENCH_VARIANT_ANY_OF_3 "any-of-3"

/* footprint: the shape of the object measured. */
#define BENCH_VARIANT_LEN_10_ITEM_4 "len=10,item=4"
#define BENCH_VARIANT_LEN_50_ITEM_8 "len=50,item=8"
#define BENCH_VARIANT_LEN_30 "len=30"          /* queue set */
#define BENCH_VARIANT_MAX_1 "max=1"            /* binary semaphore */
#define BENCH_VARIANT_PLAIN "plain"            /* mutex, not recursive */
#define BENCH_VARIANT_24_BIT "24-bit"          /* event group */
#define BENCH_VARIANT_SIZE_1024 "size=1024"    /* stream, message and ring buffers */
#define BENCH_VARIANT_VALUE_16 "value=16"      /* mailbox */
#define BENCH_VARIANT_CONTROL_BLOCK "control-block"  /* footprint_for of an empty shape */
#define BENCH_VARIANT_CAP_64_ITEM_4 "cap=64,item=4"  /* SPSC ring (lockfree-cost) */
#define BENCH_VARIANT_CORE_0 "core-0"  /* an interrupt handler on core 0 (lockfree-cost) */

/* ---- metrics ------------------------------------------------------------- */
/* Distributions, ns (instr on the Cortex-M3 firmwares). */
#define BENCH_METRIC_LATENCY "latency"
#define BENCH_METRIC_ROUND_TRIP "round-trip"
#define BENCH_METRIC_SEND_RECEIVE "send+receive"  /* a queue's send then receive in one task */
#define BENCH_METRIC_GIVE_TAKE "give+take"        /* a semaphore's give then take in one task */
#define BENCH_METRIC_SEND_FROM_ISR "send-from-isr"  /* a queue's send, timed inside a handler */
#define BENCH_METRIC_GIVE_FROM_ISR "give-from-isr"  /* a semaphore's or notification's give, the same */
#define BENCH_METRIC_SEND_OVERHEAD "send-overhead"
#define BENCH_METRIC_STALENESS "staleness"
#define BENCH_METRIC_TIME_PER_100B "time-per-100B"
#define BENCH_METRIC_HANDOFF_SLEEPING "handoff-sleeping"
#define BENCH_METRIC_HANDOFF_ACTIVE "handoff-active"
#define BENCH_METRIC_CALL_COST "call-cost"

/* Rates and what the producer offered. */
#define BENCH_METRIC_THROUGHPUT "throughput"
#define BENCH_METRIC_OFFERED "offered"
#define BENCH_METRIC_CPU_PER_MB "cpu-per-MB"

/* Counts of messages and events. */
#define BENCH_METRIC_SENT "sent"
#define BENCH_METRIC_DELIVERED "delivered"
#define BENCH_METRIC_DROPPED "dropped"
#define BENCH_METRIC_RECEIVED "received"
#define BENCH_METRIC_RECEIVES "receives"
#define BENCH_METRIC_COALESCED "coalesced"
#define BENCH_METRIC_REFUSED "refused"
#define BENCH_METRIC_PUBLISHED "published"
#define BENCH_METRIC_MISSED_UPDATES "missed-updates"
#define BENCH_METRIC_WATCHDOG_TRIPS "watchdog-trips"
#define BENCH_METRIC_IDLE_TRIPS "idle-trips"
#define BENCH_METRIC_MAX_STALL "max-stall"
#define BENCH_METRIC_CONTEXT_SWITCHES_PER_100B "context-switches-per-100B"
#define BENCH_METRIC_CONSUMER_TASKS "consumer-tasks"

/* Bytes. */
#define BENCH_METRIC_MEMORY "memory"    /* objects + consumer stacks (queue-set), a queue (mechanism-compare) */
#define BENCH_METRIC_OBJECTS "objects"  /* queue-set: the objects' part of memory */
#define BENCH_METRIC_BYTES "bytes"      /* footprint: measured on a live object */
#define BENCH_METRIC_FORMULA "formula"  /* footprint: as the headers document it */
#define BENCH_METRIC_FREERTOS_32BIT "freertos-32bit"  /* footprint: the kernel's object, for reference */

/* Ratios and flags. */
#define BENCH_METRIC_P50_RATIO "p50-ratio"
#define BENCH_METRIC_TIME_RATIO "time-ratio"
#define BENCH_METRIC_ISR_SAFE "isr-safe"
/* A performance target's ratio (harness/perf_targets.c). */
#define BENCH_METRIC_TARGET_RATIO "target-ratio"

/* What --vcd/--perfetto's recorder adds to queue-latency's cross-core row. */
#define BENCH_METRIC_TRACE_OVERHEAD_P50 "trace-overhead-p50"
#define BENCH_METRIC_TRACE_OVERHEAD_P99 "trace-overhead-p99"

/* ---- look-ups ------------------------------------------------------------ */

/* The kernel's twin of rtipc's mechanism @p rtipc (BENCH_KERNEL_TWINS), or
 * NULL; and rtipc's mechanism whose twin is @p kernel, or NULL. */
static inline const char *bench_kernel_twin_name(const char *rtipc)
{
#define BENCH_TWIN_OF(r, k) \
    if (!strcmp(rtipc, r))  \
        return k;
    BENCH_KERNEL_TWINS(BENCH_TWIN_OF)
#undef BENCH_TWIN_OF
    return NULL;
}

static inline const char *bench_rtipc_twin_name(const char *kernel)
{
#define BENCH_TWIN_OF(r, k) \
    if (!strcmp(kernel, k)) \
        return r;
    BENCH_KERNEL_TWINS(BENCH_TWIN_OF)
#undef BENCH_TWIN_OF
    return NULL;
}

#endif
