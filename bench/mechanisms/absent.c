/* The table's entries of the mechanisms built for Linux only (lockfree.c,
 * posix.c, locked_queues.c, queue_peers.c) on a target that does not build them: each
 * says why, so that an experiment asking for one records it as missing. */
#include "../names.h"
#include "mechanisms.h"

#define LINUX_ONLY(ident, mech_name, why) \
    const bench_mech_t ident = {.name = mech_name, .absent = "built for Linux only: " why}

LINUX_ONLY(bench_mech_spin, BENCH_MECH_SPIN, "with the lock-free SPSC libraries (lockfree.c)");
LINUX_ONLY(bench_mech_futex, BENCH_MECH_FUTEX, "Linux's futex");
LINUX_ONLY(bench_mech_eventfd, BENCH_MECH_EVENTFD, "Linux's eventfd");
LINUX_ONLY(bench_mech_pipe, BENCH_MECH_PIPE, "a POSIX pipe");
LINUX_ONLY(bench_mech_posix_mq, BENCH_MECH_POSIX_MQ, "a POSIX message queue");
LINUX_ONLY(bench_mech_posix_sem, BENCH_MECH_POSIX_SEM, "a POSIX semaphore");
LINUX_ONLY(bench_mech_mutex_condvar, BENCH_MECH_MUTEX_CONDVAR, "pthread mutexes and condition variables");
LINUX_ONLY(bench_mech_mutex_condvar_pi, BENCH_MECH_MUTEX_CONDVAR_PI, "priority-inheriting pthread mutexes");
LINUX_ONLY(bench_mech_mutex_condvar_list, BENCH_MECH_MUTEX_CONDVAR_LIST, "pthread mutexes and condition variables");
#ifndef ESP_PLATFORM /* the ESP32 app builds it (std_queue.c) */
LINUX_ONLY(bench_mech_std_queue_mutex, BENCH_MECH_STD_QUEUE_MUTEX, "C++ std::mutex and std::condition_variable");
#endif
LINUX_ONLY(bench_mech_ck_ring, BENCH_MECH_CK_RING, "Concurrency Kit");
LINUX_ONLY(bench_mech_boost_spsc, BENCH_MECH_BOOST_SPSC, "C++ and Boost.Lockfree");
LINUX_ONLY(bench_mech_atomic_queue_spsc, BENCH_MECH_ATOMIC_QUEUE_SPSC, "C++ and atomic_queue");
LINUX_ONLY(bench_mech_moodycamel_rwq, BENCH_MECH_MOODYCAMEL_RWQ, "C++ and moodycamel's readerwriterqueue");
LINUX_ONLY(bench_mech_moodycamel_blocking_rwq, BENCH_MECH_MOODYCAMEL_BLOCKING_RWQ,
           "C++ and moodycamel's readerwriterqueue");
LINUX_ONLY(bench_mech_moodycamel_blocking_cq, BENCH_MECH_MOODYCAMEL_BLOCKING_CQ, "C++ and moodycamel's concurrentqueue");
LINUX_ONLY(bench_mech_urcu_wfcq, BENCH_MECH_URCU_WFCQ, "userspace RCU (liburcu)");
