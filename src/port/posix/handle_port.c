/* The handle table's lock and allocator on Linux (src/common/handle.h): the
 * priority-inheriting object lock, so a preempted opener cannot be kept off
 * its core while a higher-priority task waits to create something. An
 * interrupt handler may create static objects, which allocate nothing: the
 * table does not grow from a handler either (the creation gets
 * RTIPC_ENOMEM when every existing slot is open). */
#include <stdlib.h>

#include "../../common/handle.h"
#include "lock.h"
#include "task_internal.h"

static rtipc_lock_t handle_lock = RTIPC_LOCK_INIT;

void rtipc__port_handle_lock(void) { rtipc_lock(&handle_lock); }

void rtipc__port_handle_unlock(void) { rtipc_unlock(&handle_lock); }

void *rtipc__port_handle_chunk_alloc(size_t bytes) { return rtipc__in_interrupt ? NULL : malloc(bytes); }

void rtipc__port_handle_chunk_free(void *chunk) { free(chunk); }
