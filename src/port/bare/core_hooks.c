/* What the portable core asks of the bare-metal build (src/common/port.h,
 * handle.h). Objects are created from the main loop at start-up on the
 * bare-metal target, so a spin flag is enough for the handle table; there is
 * no heap, so the table holds chunk 0's handles only (RTIPC__HANDLE_CHUNK, 32
 * on a 32-bit MCU) and a dynamic create gets RTIPC_ENOMEM. */
#include <stdatomic.h>
#include <stddef.h>

#include "common/handle.h"
#include "common/port.h"

static atomic_flag handle_lock = ATOMIC_FLAG_INIT;

void rtipc__port_handle_lock(void)
{
    /* Acquire: pairs with the release in unlock; publishes the table. */
    while (atomic_flag_test_and_set_explicit(&handle_lock, memory_order_acquire))
        ;
}

void rtipc__port_handle_unlock(void) { atomic_flag_clear_explicit(&handle_lock, memory_order_release); }

void *rtipc__port_alloc(size_t bytes, size_t align)
{
    (void)bytes;
    (void)align;
    return NULL;
}

void rtipc__port_free(void *block, size_t align)
{
    (void)block;
    (void)align;
}

/* The SPSC ring's fences stay symmetric here: no process-wide barrier, and
 * on an MCU a full fence is cheap (src/common/port.h). */
bool rtipc__port_asym_fence(void) { return false; }

void rtipc__port_heavy_fence(void) { atomic_thread_fence(memory_order_seq_cst); }
