/* Mechanisms as request/reply channels, for the round-trip experiment: a
 * pinger sends a sequence number and waits for it to come back, an echo
 * waits for it and sends it back, both tasks of one priority on one core;
 * and, where the mechanism has one, both ends in one task without waiting
 * (send then receive, give then take): the calls' own cost.
 *
 * rtipc's queue, binary semaphore and notification exist on every target
 * (round_trip_rtipc.c); the FreeRTOS kernel's own queue, semaphore and
 * notification only where rtipc runs on FreeRTOS (freertos_kernel.c;
 * freertos_kernel_absent.c elsewhere says why they are missing), so the two
 * are measured in one run. Context: the experiment's tasks. */
#ifndef BENCH_MECHANISMS_ROUND_TRIP_H
#define BENCH_MECHANISMS_ROUND_TRIP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *name;        /* bench/names.h mechanism */
    const char *one_task;    /* metric of the one-task row, NULL when it has none */
    /* A pair of channels (ping -> echo, echo -> ping) in *obj: 0, or -1. */
    int (*create)(void **obj);
    void (*destroy)(void *obj);
    /* Called first by each task (a notification needs its peer's handle). */
    void (*bind_ping)(void *obj);
    void (*bind_echo)(void *obj);
    /* One round from the pinger: 0 when @p seq came back. */
    int (*ping)(void *obj, uint32_t seq);
    /* One round at the echo: wait for a number, send it back; 0 or -1. */
    int (*echo)(void *obj);
    /* Both ends in one task, no waiting: 0 when @p seq came back. */
    int (*self)(void *obj, uint32_t seq);
} bench_round_trip_mech_t;

/* rtipc's channels: queue (depth 1), binary semaphore, notification. */
extern const bench_round_trip_mech_t *const bench_round_trip_rtipc[];
extern const size_t bench_round_trip_rtipc_count;

/* The kernel's channels in the same order (queue, semaphore, notification),
 * and their names; when the count is 0, bench_round_trip_kernel_absent says
 * why. */
extern const bench_round_trip_mech_t *const bench_round_trip_kernel[];
extern const size_t bench_round_trip_kernel_count;
extern const char *const bench_round_trip_kernel_names[3];
extern const char bench_round_trip_kernel_absent[];

#endif
