/* The handle table's lock and allocator on FreeRTOS (src/common/handle.h): a
 * critical section, which tasks and interrupt handlers alike may enter (a
 * static object may be created from a handler), and the kernel heap for new
 * chunks, from tasks only: from a handler the table does not grow, and a
 * creation then gets RTIPC_ENOMEM once every existing slot is open. */
#include "../../common/handle.h"
#include "port_internal.h"

/* The critical section's saved state: one holder at a time (the critical
 * section excludes every other task, handler and core), so one variable. */
static rtipc__fr_crit_t held;

void rtipc__port_handle_lock(void)
{
    rtipc__fr_crit_t c = rtipc__fr_enter();
    held = c;
}

void rtipc__port_handle_unlock(void) { rtipc__fr_exit(held); }

void *rtipc__port_handle_chunk_alloc(size_t bytes) { return rtipc__fr_in_isr() ? NULL : pvPortMalloc(bytes); }

void rtipc__port_handle_chunk_free(void *chunk) { vPortFree(chunk); }
