/* What the portable core asks of the Linux port (src/common/port.h,
 * handle.h): the handle table's lock and memory for objects.
 *
 * The lock is the priority-inheriting object lock, so a preempted opener
 * cannot be kept off its core while a higher-priority task waits to create
 * something. An interrupt handler may create static objects, which allocate
 * nothing: the table does not grow from a handler either (the creation gets
 * RTIPC_ENOMEM when every existing slot is open). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../common/handle.h"
#include "../../common/port.h"
#include "lock.h"

static rtipc_lock_t handle_lock = RTIPC_LOCK_INIT;

void rtipc__port_handle_lock(void) { rtipc_lock(&handle_lock); }

void rtipc__port_handle_unlock(void) { rtipc_unlock(&handle_lock); }

void *rtipc__port_alloc(size_t bytes, size_t align)
{
    if (align <= _Alignof(max_align_t))
        return malloc(bytes);
    /* aligned_alloc wants a size that is a multiple of the alignment. */
    if (bytes > SIZE_MAX - (align - 1))
        return NULL;
    return aligned_alloc(align, (bytes + align - 1) / align * align);
}

void rtipc__port_free(void *block, size_t align)
{
    (void)align;
    free(block);
}
