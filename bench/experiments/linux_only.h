/* The experiments built for Linux only (bench/sources.cmake): their ids,
 * summaries and what they need, shared by their own files and by
 * linux_only.c, which lists them on the targets that do not build them. */
#ifndef BENCH_EXPERIMENTS_LINUX_ONLY_H
#define BENCH_EXPERIMENTS_LINUX_ONLY_H

#define EXP_INTERFERENCE_SUMMARY \
    "cross-core queue and notification handoff while core 1 runs an irq storm, a CPU hog or a memory hog"
#define EXP_INTERFERENCE_REQUIRES \
    (BENCH_TARGET_TASKS | BENCH_TARGET_INTERRUPTS | BENCH_TARGET_TWO_CORES | BENCH_TARGET_THREAD_CPU_TIME)
#define EXP_INTERFERENCE_ABSENT "built for Linux only: it needs two cores and a 64 MiB buffer"

#define EXP_PEERS_SUMMARY \
    "rtipc vs the spin floor, futex, kernel peers and lock-free SPSC rings: handoff latency, throughput, call " \
    "cost, targets"
#define EXP_PEERS_REQUIRES BENCH_TARGET_TASKS
#define EXP_PEERS_ABSENT \
    "built for Linux only: it measures Linux's futex, pipes, eventfd and POSIX message queues and the ck_ring " \
    "and boost SPSC rings"

#endif
