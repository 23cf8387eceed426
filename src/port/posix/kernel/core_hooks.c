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

#include "common/handle.h"
#include "common/port.h"
#include "lock.h"

static rtipc__lock_t handle_lock = RTIPC__LOCK_INIT;

void rtipc__port_handle_lock(void) { rtipc__lock(&handle_lock); }

void rtipc__port_handle_unlock(void) { rtipc__unlock(&handle_lock); }

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

/* ---- the SPSC ring's asymmetric fence ------------------------------------
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) makes every running thread of
 * the process execute a full barrier before it returns (threads not running
 * pass one in the context switch), so a side about to park may pay it while
 * the fast paths pay only a compiler barrier. The command needs a one-time
 * registration; kernels before 4.14, or seccomp filters, refuse it, and then
 * the plain fences stay in force. ThreadSanitizer does not see the barrier,
 * so its builds keep the fences too. */
#include <linux/membarrier.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sanitizer.h"

enum { ASYM_UNKNOWN, ASYM_ON, ASYM_OFF };
static _Atomic int asym_state = ASYM_UNKNOWN;

static bool membarrier_register(void)
{
#if defined(RTIPC__TSAN) || !defined(SYS_membarrier)
    return false;
#else
    long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (cmds < 0 || !(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED))
        return false;
    return syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
#endif
}

bool rtipc__port_asym_fence(void)
{
    /* Relaxed: the state only ever goes from UNKNOWN to one final value, and
     * a ring reads it once at creation (before its handle is published). */
    int s = atomic_load_explicit(&asym_state, memory_order_relaxed);
    if (s == ASYM_UNKNOWN) {
        /* Registering twice is harmless: two first callers may both try. */
        s = membarrier_register() ? ASYM_ON : ASYM_OFF;
        atomic_store_explicit(&asym_state, s, memory_order_relaxed);
    }
    return s == ASYM_ON;
}

void rtipc__port_heavy_fence(void)
{
#if !defined(RTIPC__TSAN) && defined(SYS_membarrier)
    if (atomic_load_explicit(&asym_state, memory_order_relaxed) == ASYM_ON &&
        syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
        return;
#endif
    /* Rings of a port without the barrier (or, never once registered, a
     * refused call) fall back to the symmetric fence. */
    atomic_thread_fence(memory_order_seq_cst);
}
