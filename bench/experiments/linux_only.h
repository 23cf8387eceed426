/* The experiment built for Linux only (bench/sources.cmake): their ids,
 * summaries and what they need, shared by their own files and by
 * linux_only.c, which lists them on the targets that do not build them. */
#ifndef BENCH_EXPERIMENTS_LINUX_ONLY_H
#define BENCH_EXPERIMENTS_LINUX_ONLY_H

#define EXP_PEERS_SUMMARY \
    "rtipc vs the spin floor, futex, kernel peers and lock-free queue libraries: handoff latency, throughput, " \
    "call cost, targets"
#define EXP_PEERS_REQUIRES BENCH_TARGET_TASKS
#define EXP_PEERS_ABSENT \
    "built for Linux only: it measures Linux's futex, pipes, eventfd and POSIX message queues and the " \
    "lock-free queue libraries (ck_ring, boost, atomic_queue, moodycamel, userspace RCU)"

#endif
