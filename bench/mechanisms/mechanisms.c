/* The table of mechanisms (mechanisms.h) and what the families share. */
#include "mechanisms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness/handoff.h"
#include "../names.h"
#include "rtipc/error.h"

/* rtipc.c, on every target. */
extern const bench_mech_t bench_mech_rtipc_queue;
extern const bench_mech_t bench_mech_rtipc_sem;
extern const bench_mech_t bench_mech_rtipc_notify;
extern const bench_mech_t bench_mech_rtipc_spsc;
extern const bench_mech_t bench_mech_rtipc_spsc_sym;
extern const bench_mech_t bench_mech_rtipc_mailbox;
extern const bench_mech_t bench_mech_rtipc_ringbuf_nosplit;
extern const bench_mech_t bench_mech_rtipc_ringbuf_allowsplit;
extern const bench_mech_t bench_mech_rtipc_ringbuf_bytebuf;
/* lockfree.c, posix.c, locked_queues.c, queue_peers.c on Linux; absent.c elsewhere. */
extern const bench_mech_t bench_mech_spin;
extern const bench_mech_t bench_mech_futex;
extern const bench_mech_t bench_mech_eventfd;
extern const bench_mech_t bench_mech_pipe;
extern const bench_mech_t bench_mech_posix_mq;
extern const bench_mech_t bench_mech_posix_sem;
extern const bench_mech_t bench_mech_mutex_condvar;
extern const bench_mech_t bench_mech_mutex_condvar_pi;
extern const bench_mech_t bench_mech_mutex_condvar_list;
extern const bench_mech_t bench_mech_std_queue_mutex;
extern const bench_mech_t bench_mech_ck_ring;
extern const bench_mech_t bench_mech_boost_spsc;
extern const bench_mech_t bench_mech_atomic_queue_spsc;
extern const bench_mech_t bench_mech_moodycamel_rwq;
extern const bench_mech_t bench_mech_moodycamel_blocking_rwq;
extern const bench_mech_t bench_mech_moodycamel_blocking_cq;
extern const bench_mech_t bench_mech_urcu_wfcq;
/* freertos_kernel.c on a FreeRTOS target (the ring buffers on ESP-IDF
 * only); freertos_kernel_absent.c elsewhere. */
extern const bench_mech_t bench_mech_kernel_queue;
extern const bench_mech_t bench_mech_kernel_sem;
extern const bench_mech_t bench_mech_kernel_notify;
extern const bench_mech_t bench_mech_kernel_queue_overwrite;
extern const bench_mech_t bench_mech_kernel_streambuf;
extern const bench_mech_t bench_mech_kernel_msgbuf;
extern const bench_mech_t bench_mech_kernel_eventgroup;
extern const bench_mech_t bench_mech_kernel_mutex_list;
extern const bench_mech_t bench_mech_espidf_ringbuf_nosplit;
extern const bench_mech_t bench_mech_espidf_ringbuf_allowsplit;
extern const bench_mech_t bench_mech_espidf_ringbuf_bytebuf;

const bench_mech_t *const bench_mechanisms[] = {
    &bench_mech_rtipc_queue,
    &bench_mech_rtipc_sem,
    &bench_mech_rtipc_notify,
    &bench_mech_rtipc_mailbox,
    &bench_mech_rtipc_spsc,
    &bench_mech_rtipc_spsc_sym,
    &bench_mech_rtipc_ringbuf_nosplit,
    &bench_mech_rtipc_ringbuf_allowsplit,
    &bench_mech_rtipc_ringbuf_bytebuf,
    &bench_mech_spin,
    &bench_mech_futex,
    &bench_mech_eventfd,
    &bench_mech_pipe,
    &bench_mech_posix_mq,
    &bench_mech_posix_sem,
    &bench_mech_mutex_condvar,
    &bench_mech_mutex_condvar_pi,
    &bench_mech_mutex_condvar_list,
    &bench_mech_std_queue_mutex,
    &bench_mech_ck_ring,
    &bench_mech_boost_spsc,
    &bench_mech_atomic_queue_spsc,
    &bench_mech_moodycamel_rwq,
    &bench_mech_moodycamel_blocking_rwq,
    &bench_mech_moodycamel_blocking_cq,
    &bench_mech_urcu_wfcq,
    &bench_mech_kernel_queue,
    &bench_mech_kernel_sem,
    &bench_mech_kernel_notify,
    &bench_mech_kernel_queue_overwrite,
    &bench_mech_kernel_streambuf,
    &bench_mech_kernel_msgbuf,
    &bench_mech_kernel_eventgroup,
    &bench_mech_kernel_mutex_list,
    &bench_mech_espidf_ringbuf_nosplit,
    &bench_mech_espidf_ringbuf_allowsplit,
    &bench_mech_espidf_ringbuf_bytebuf,
};
const size_t bench_mechanism_count = sizeof bench_mechanisms / sizeof bench_mechanisms[0];

const bench_mech_t *bench_mech_find(const char *name)
{
    for (size_t i = 0; i < bench_mechanism_count; i++)
        if (strcmp(bench_mechanisms[i]->name, name) == 0)
            return bench_mechanisms[i];
    return NULL;
}

int bench_mech_make(bench_run_t *run, const bench_mech_t *m, size_t depth, void **obj)
{
    *obj = NULL;
    if (m->absent || !m->create) {
        bench_add_missing(run, m->name, m->absent ? m->absent : "not built for this target");
        return 1;
    }
    char why[160] = "";
    int rc = m->create(depth, obj, why, sizeof why);
    if (rc == 1) {
        bench_add_missing(run, m->name, why);
        return 1;
    }
    if (rc != 0)
        return bench_fail(run, "%s: %s", m->name, why);
    return 0;
}

int bench_mech_push_each_blocking(int (*send)(void *, uint32_t), void *obj, const uint32_t *items, int n)
{
    for (int k = 0; k < n; k++) {
        int rc = send(obj, items[k]);
        if (rc != 0)
            return rc;
    }
    return n;
}

int bench_mech_pop_one_blocking(int (*recv)(void *, uint32_t *), void *obj, uint32_t *items)
{
    int rc = recv(obj, items);
    return rc ? rc : 1;
}

void *bench_mech_alloc(size_t size)
{
    size = (size + 63) / 64 * 64;
    void *p = aligned_alloc(64, size);
    if (p)
        memset(p, 0, size);
    return p;
}

int bench_mech_no_memory(char *why, size_t n)
{
    snprintf(why, n, "out of memory");
    return -1;
}

const char *bench_mech_strerror(int rc, char *buf, size_t n)
{
    switch (rc) {
    case BENCH_MECH_ESTALL: snprintf(buf, n, "nothing arrived within %lld s", BENCH_MECH_STALL_NS / 1000000000); break;
    case BENCH_MECH_EMERGED: snprintf(buf, n, "a count other than 1 (signals merged or lost)"); break;
    case BENCH_MECH_EMISSED: snprintf(buf, n, "a version skipped (an update was lost)"); break;
    case BENCH_MECH_EFULL: snprintf(buf, n, "no room, and the send does not wait"); break;
    case BENCH_MECH_ESIZE: snprintf(buf, n, "item of an unexpected size"); break;
    case BENCH_MECH_EKERNEL: snprintf(buf, n, "the kernel call failed (pdFAIL)"); break;
    default:
        if (rc <= BENCH_MECH_EOS(0))
            snprintf(buf, n, "%s", strerror(-(rc - BENCH_MECH_EOS(0))));
        else
            snprintf(buf, n, "%s", rtipc_strerror(rc));
        break;
    }
    return buf;
}

const bench_mech_t *bench_mech_kernel_twin(const char *name)
{
    const char *kernel = bench_mech_kernel_built ? bench_kernel_twin_name(name) : NULL;
    return kernel ? bench_mech_find(kernel) : NULL;
}

void bench_mech_handoff_ops(const bench_mech_t *m, void *obj, struct handoff_ops *ops)
{
    *ops = (handoff_ops_t){.send = m->send, .recv = m->recv, .bind = m->bind, .depth = m->depth, .obj = obj,
                           .native = (m->traits & BENCH_MECH_NATIVE) != 0};
}
