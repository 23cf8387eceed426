/* The SPSC ring's and the mailbox's port hooks without a kernel (the
 * bare-metal target, docs/mcu.md). There is no heap, so only the static
 * creators succeed and deletion frees nothing: it closes the handle, so that
 * a later call through it is refused and its slot in the handle table (32 on
 * a 32-bit MCU) serves the next object. Nothing parks on this port, so no
 * waiter can make a deletion RTIPC_EBUSY, and the waiting part needs no
 * set-up. The port cannot tell an interrupt handler from the main loop:
 * delete from the main loop (spsc.h). */
#include "common/mailbox_internal.h"
#include "common/spsc_internal.h"
#include "rtipc/error.h"

void rtipc__spsc_port_init(struct rtipc__spsc *r) { (void)r; }

int rtipc__spsc_port_retire(struct rtipc__spsc *r, uintptr_t handle)
{
    (void)r;
    rtipc__handle_close(handle);
    return RTIPC_OK;
}

void rtipc__mailbox_port_init(struct rtipc__mailbox *mb) { (void)mb; }

int rtipc__mailbox_port_retire(struct rtipc__mailbox *mb, uintptr_t handle)
{
    (void)mb;
    rtipc__handle_close(handle);
    return RTIPC_OK;
}
