/* The handle table's lock and allocator on Linux (src/common/handle.h): the
 * priority-inheriting object lock, so a preempted opener cannot be kept off
 * its core while a higher-priority task waits to create something. */
#include <stdlib.h>

#include "../common/handle.h"
#include "lock.h"

static rtipc_lock_t handle_lock = RTIPC_LOCK_INIT;

void rtipc__port_handle_lock(void) { rtipc_lock(&handle_lock); }

void rtipc__port_handle_unlock(void) { rtipc_unlock(&handle_lock); }

void *rtipc__port_handle_chunk_alloc(size_t bytes) { return malloc(bytes); }

void rtipc__port_handle_chunk_free(void *chunk) { free(chunk); }
