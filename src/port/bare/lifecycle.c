/* Deleting an SPSC ring or a mailbox without a kernel (the bare-metal
 * target, docs/mcu.md). There is no heap here, so only the static creators
 * exist and deletion frees nothing: it closes the handle, so that a later
 * call through it is refused and its slot in the handle table (32 on a
 * 32-bit MCU) serves the next object. Nothing parks on this port, so no
 * waiter can make a deletion RTIPC_EBUSY. The port cannot tell an interrupt
 * handler from the main loop: delete from the main loop (spsc.h). */
#include "../../common/mailbox_internal.h"
#include "../../common/spsc_internal.h"
#include "rtipc/error.h"

int rtipc_spsc_delete(rtipc_spsc_t *handle)
{
    if (!rtipc__spsc_of(handle))
        return RTIPC_EINVAL;
    rtipc__handle_close((uintptr_t)handle);
    return RTIPC_OK;
}

int rtipc_mailbox_delete(rtipc_mailbox_t *handle)
{
    if (!rtipc__mailbox_of(handle))
        return RTIPC_EINVAL;
    rtipc__handle_close((uintptr_t)handle);
    return RTIPC_OK;
}
