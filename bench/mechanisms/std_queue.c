/* std-queue-mutex as a mechanism (mechanisms.h): C++ std::queue<uint32_t>
 * behind std::mutex with two std::condition_variable, bounded to depth
 * (locked_queues_cxx.cpp), the published program's heap queue. Built on
 * Linux and in the ESP32 app (ESP-IDF's std::mutex and condition_variable
 * run on its pthreads); absent.c lists it on the other targets. */
#include <errno.h>
#include <stdio.h>

#include "../names.h"
#include "locked_queues_cxx.h"
#include "mechanisms.h"

static int stdq_create(size_t depth, void **obj, char *why, size_t n)
{
    *obj = bench_std_queue_create(depth);
    return *obj ? 0 : bench_mech_no_memory(why, n);
}
static void stdq_destroy(void *obj) { bench_std_queue_delete(obj); }
static int stdq_send(void *obj, uint32_t v) { return bench_std_queue_push(obj, v) ? BENCH_MECH_EOS(ENOMEM) : 0; }
static int stdq_recv(void *obj, uint32_t *v) { return bench_std_queue_pop(obj, v) ? BENCH_MECH_EOS(EIO) : 0; }

static int stdq_try_send(void *obj, uint32_t v)
{
    int rc = bench_std_queue_try_push(obj, v);
    return rc == 0 ? 0 : rc == 1 ? BENCH_MECH_EFULL : BENCH_MECH_EOS(ENOMEM);
}

static void stdq_kick(void *obj)
{
    uint32_t junk;
    if (bench_std_queue_try_push(obj, BENCH_MECH_MARKER) == 1)
        (void)bench_std_queue_try_pop(obj, &junk);
}

static int stdq_pairs(void *obj, uint32_t seq, int n) { return bench_std_queue_pairs(obj, seq, n); }

static int stdq_memory(void *obj, size_t items, size_t *bytes, char *note, size_t n)
{
    size_t control, heap;
    if (bench_std_queue_memory(obj, items, &control, &heap) != 0)
        return BENCH_MECH_EOS(ENOMEM);
    *bytes = control + heap;
    snprintf(note, n, "control %lu B + heap %lu B: std::deque blocks of 512 B + block map, not a node per item "
             "(counting allocator, usable sizes)", (unsigned long)control, (unsigned long)heap);
    return 0;
}

static int stdq_push_each(void *o, const uint32_t *it, int n) { return bench_mech_push_each_blocking(stdq_send, o, it, n); }

static int stdq_pop_each(void *obj, uint32_t *items, int n)
{
    (void)n;
    int rc = stdq_recv(obj, items);
    return rc ? rc : 1;
}

const bench_mech_t bench_mech_std_queue_mutex = {
    .name = BENCH_MECH_STD_QUEUE_MUTEX,
    .traits = BENCH_MECH_PARKS | BENCH_MECH_FOREIGN_WAIT | BENCH_MECH_NATIVE,
    .create = stdq_create,
    .destroy = stdq_destroy,
    .send = stdq_send,
    .try_send = stdq_try_send,
    .recv = stdq_recv,
    .kick = stdq_kick,
    .memory = stdq_memory,
    .pairs = stdq_pairs,
    .push_each = stdq_push_each,
    .pop_each = stdq_pop_each,
};
