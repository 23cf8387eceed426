/* The mailbox's control block, shared by the portable core (mailbox.c) and a
 * port's waiting part (src/port/posix/objects/mailbox_wait.c on Linux). */
#ifndef RTIPC_COMMON_MAILBOX_INTERNAL_H
#define RTIPC_COMMON_MAILBOX_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "handle.h"
#include "rtipc/mailbox.h"

#define RTIPC__MAILBOX_DYNAMIC 0x1u

/* The unit of the value copies: the widest unsigned integer whose atomic
 * loads and stores are lock-free (and so plain moves), 64 bits where the
 * machine has them. Storage is sized in multiples of 8 bytes either way. */
#if ATOMIC_LLONG_LOCK_FREE == 2
typedef unsigned long long rtipc__mb_word_t;
#else
typedef uint32_t rtipc__mb_word_t;
#endif

/* Bytes reserved for the port's waiting part (lock and one wait list on
 * Linux: 16 bytes). */
#define RTIPC__MAILBOX_PORT_BYTES 16

struct rtipc__mailbox {
    uint32_t flags;
    uint32_t size;                 /* value bytes */
    uint32_t words;                /* words per copy */
    _Atomic rtipc__mb_word_t *buf; /* copy 0, then copy 1 */
    /* 2 x version, +1 while a write is in progress. Version v lives in copy
     * v & 1. */
    _Atomic uint64_t seq;
    /* 1 while tasks may wait for a newer version; set by a waiter and
     * recomputed by wakers, both under the port lock; read lock-free by
     * writers (see mailbox.c). */
    _Atomic uint32_t sleepers;
    _Alignas(8) unsigned char port[RTIPC__MAILBOX_PORT_BYTES];
};

_Static_assert(sizeof(struct rtipc__mailbox) <= sizeof(rtipc_mailbox_static_t),
               "rtipc_mailbox_static_t holds the control block");
_Static_assert(_Alignof(struct rtipc__mailbox) <= _Alignof(rtipc_mailbox_static_t),
               "rtipc_mailbox_static_t is aligned for the control block");

/* The mailbox a handle names, or NULL: NULL, a deleted mailbox's handle,
 * another kind's or never a handle (handle.h). */
static inline struct rtipc__mailbox *rtipc__mailbox_of(const rtipc_mailbox_t *handle)
{
    return rtipc__handle_get(handle, RTIPC__H_MAILBOX);
}

bool rtipc__mailbox_size_ok(size_t value_size);

void rtipc__mailbox_init(struct rtipc__mailbox *mb, size_t value_size, const void *initial, void *storage,
                         uint32_t flags);

/* Open mb's handle (mb initialised, and the port's part too) into *out:
 * RTIPC_OK, or RTIPC_ENOMEM when the handle table is full. */
int rtipc__mailbox_open(struct rtipc__mailbox *mb, rtipc_mailbox_t **out);

/* rtipc_mailbox_read for a mailbox already looked up. */
int rtipc__mailbox_read(const struct rtipc__mailbox *mb, void *buf, uint64_t *version);

/* The newest complete version. Acquire (see mailbox.c, A1). */
uint64_t rtipc__mailbox_version(const struct rtipc__mailbox *mb);

/* Provided by the port: make the waiting part ready, after
 * rtipc__mailbox_init zeroed it. Any context. */
void rtipc__mailbox_port_init(struct rtipc__mailbox *mb);

/* Provided by the port, for rtipc_mailbox_delete: RTIPC_EBUSY while a task
 * waits in mb; otherwise close @p handle (from then on no task can start
 * waiting) and RTIPC_OK. Task context. */
int rtipc__mailbox_port_retire(struct rtipc__mailbox *mb, uintptr_t handle);

/* Provided by the port: wake the tasks waiting for a version newer than the
 * current one. From a handler, through the interrupt path (setting *woken as
 * irq.h says; woken may be NULL); from a task, directly. */
void rtipc__mailbox_wake(struct rtipc__mailbox *mb, bool *woken);

#endif
