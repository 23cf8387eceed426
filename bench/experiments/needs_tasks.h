/* The experiments that need tasks (rtipc's blocking objects): their
 * summaries and what they need, shared by their own files and by
 * needs_tasks.c, which lists them on a target without tasks (bare metal)
 * that does not build them. */
#ifndef BENCH_EXPERIMENTS_NEEDS_TASKS_H
#define BENCH_EXPERIMENTS_NEEDS_TASKS_H

#define EXP_QUEUE_LATENCY_SUMMARY \
    "4-byte counter through a depth-100 queue, core 1 -> core 0 (and same core)"
#define EXP_QUEUE_LATENCY_REQUIRES BENCH_TARGET_TASKS

#define EXP_QUEUE_PLACEMENT_SUMMARY \
    "queue-latency with the queue's memory warm vs evicted from all caches before each " \
    "send"
#define EXP_QUEUE_PLACEMENT_REQUIRES BENCH_TARGET_TASKS

#define EXP_ISR_HANDOFF_SUMMARY \
    "interrupt handler -> higher-priority task on core 0 through a queue, with and without yield-from-ISR"
#define EXP_ISR_HANDOFF_REQUIRES (BENCH_TARGET_TASKS | BENCH_TARGET_INTERRUPTS)

#define EXP_BYTE_STREAM_SUMMARY \
    "audio-like byte stream (176400 B/s in 1764 B blocks), core 1 -> core 0: byte ring " \
    "buffer vs stream buffer vs queue of 1-byte items"
/* (Without per-task CPU time its cpu-per-MB rows are left out, saying why.) */
#define EXP_BYTE_STREAM_REQUIRES BENCH_TARGET_TASKS

#define EXP_BLOCKED_PRODUCER_SUMMARY \
    "consumer stalls 1 s; producer with a watchdog subscription blocks forever vs times out"
#define EXP_BLOCKED_PRODUCER_REQUIRES BENCH_TARGET_TASKS

#define EXP_STATE_VS_EVENT_SUMMARY \
    "1 kHz state producer, consumer acting every 5 ms: queue vs overwrite vs mailbox"
#define EXP_STATE_VS_EVENT_REQUIRES BENCH_TARGET_TASKS

#define EXP_BATCHING_SUMMARY \
    "100 bytes through a queue, core 1 -> core 0: 100 x 1-byte items vs 1 x 100-byte item"
#define EXP_BATCHING_REQUIRES BENCH_TARGET_TASKS

#define EXP_QUEUE_SET_SUMMARY \
    "3 sources: one consumer on a queue set vs 3 consumer tasks (latency, memory)"
#define EXP_QUEUE_SET_REQUIRES BENCH_TARGET_TASKS

#define EXP_FOOTPRINT_SUMMARY \
    "bytes per object (measured on live objects) next to the documented formula"
#define EXP_FOOTPRINT_REQUIRES BENCH_TARGET_TASKS

#define EXP_NOTIFY_VS_SEM_SUMMARY \
    "binary semaphore vs task notification give -> take cross-core, properly and naively"
#define EXP_NOTIFY_VS_SEM_REQUIRES BENCH_TARGET_TASKS

#define EXP_NOTIFY_MODES_SUMMARY \
    "task notification latency and correctness counts per mode, core 1 -> core 0 and from an ISR"
#define EXP_NOTIFY_MODES_REQUIRES (BENCH_TARGET_TASKS | BENCH_TARGET_INTERRUPTS)

#define EXP_CORE_PLACEMENT_SUMMARY \
    "queue, semaphore and notification handoff: both tasks on one core vs one per core"
#define EXP_CORE_PLACEMENT_REQUIRES (BENCH_TARGET_TASKS | BENCH_TARGET_TWO_CORES)

#define EXP_ROUND_TRIP_SUMMARY \
    "request/reply between two equal-priority tasks, and both ends in one task: rtipc's queue, " \
    "semaphore and notification beside the FreeRTOS kernel's own calls"
#define EXP_ROUND_TRIP_REQUIRES BENCH_TARGET_TASKS

#define EXP_MECHANISM_COMPARE_SUMMARY \
    "send/receive overhead, round trip, ISR safety and memory: rtipc queue and ring buffers vs heap queues " \
    "and OS peers"
#define EXP_MECHANISM_COMPARE_REQUIRES (BENCH_TARGET_TASKS | BENCH_TARGET_INTERRUPTS)

#define EXP_INTERFERENCE_SUMMARY \
    "cross-core queue and notification handoff while core 1 runs an irq storm, a CPU hog or a memory hog"
/* (Without per-task CPU time the loads' shares of core 1 are not given.) */
#define EXP_INTERFERENCE_REQUIRES (BENCH_TARGET_TASKS | BENCH_TARGET_INTERRUPTS | BENCH_TARGET_TWO_CORES)

#endif
