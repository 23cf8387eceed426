/* What the portable core asks of the FreeRTOS port (src/common/port.h,
 * handle.h): the handle table's lock and memory for objects.
 *
 * The lock is a critical section, which tasks and interrupt handlers alike
 * may enter (a static object may be created from a handler). Memory is the
 * kernel heap, from tasks only: from a handler the table does not grow, and
 * a creation then gets RTIPC_ENOMEM once every existing slot is open. */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "common/handle.h"
#include "common/port.h"
#include "port_internal.h"

/* The critical section's saved state: one holder at a time (the critical
 * section excludes every other task, handler and core), so one variable. */
static rtipc__crit_t held;

void rtipc__port_handle_lock(void)
{
    rtipc__crit_t c = rtipc__enter();
    held = c;
}

void rtipc__port_handle_unlock(void) { rtipc__exit(held); }

/* pvPortMalloc aligns to portBYTE_ALIGNMENT only. A block that needs more
 * (the SPSC ring's cache lines) is over-allocated and aligned by hand, with
 * the heap block's start kept in the word just before it. */
void *rtipc__port_alloc(size_t bytes, size_t align)
{
    if (align <= portBYTE_ALIGNMENT)
        return pvPortMalloc(bytes);
    if (bytes > SIZE_MAX - align - sizeof(void *))
        return NULL;
    unsigned char *raw = pvPortMalloc(bytes + align - 1 + sizeof(void *));
    if (!raw)
        return NULL;
    uintptr_t at = ((uintptr_t)(raw + sizeof(void *)) + align - 1) & ~(uintptr_t)(align - 1);
    memcpy((unsigned char *)at - sizeof(void *), &raw, sizeof raw);
    return (void *)at;
}

void rtipc__port_free(void *block, size_t align)
{
    if (!block)
        return;
    if (align > portBYTE_ALIGNMENT)
        memcpy(&block, (unsigned char *)block - sizeof(void *), sizeof block);
    vPortFree(block);
}

/* The SPSC ring's fences stay symmetric here: no process-wide barrier, and
 * on an MCU a full fence is cheap (src/common/port.h). */
bool rtipc__port_asym_fence(void) { return false; }

void rtipc__port_heavy_fence(void) { atomic_thread_fence(memory_order_seq_cst); }
