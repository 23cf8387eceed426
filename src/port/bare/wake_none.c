/* The waking part of the SPSC ring and the mailbox for a build without a
 * kernel (the bare-metal target, docs/mcu.md). There, only the non-blocking
 * calls exist: nothing ever parks, so no side's "sleeping" flag and no
 * mailbox "sleepers" flag is ever set, and the cores (spsc.c, mailbox.c)
 * never call these. They are defined so that the portable cores link; a
 * call would mean a flag was set by something else, which is a bug, and is
 * ignored rather than acted on (there is nobody to wake). */
#include "common/mailbox_internal.h"
#include "common/port.h"
#include "common/spsc_internal.h"
#include "rtipc/error.h"

void rtipc__spsc_wake(struct rtipc__spsc *r, unsigned side, bool *woken)
{
    (void)r;
    (void)side;
    (void)woken;
}

void rtipc__mailbox_wake(struct rtipc__mailbox *mb, bool *woken)
{
    (void)mb;
    (void)woken;
}

/* Nothing can wait without a kernel: a blocking push or pop that would have
 * to is refused (spsc.h, "Port notes"). */
int rtipc__spsc_wait(struct rtipc__spsc *r, unsigned side, const void *in, void *out, rtipc_timeout_t timeout)
{
    (void)r, (void)side, (void)in, (void)out, (void)timeout;
    return RTIPC_ENOTSUP;
}

/* The port cannot tell a handler from the main loop: callers that must not
 * run in one say so in their documentation. */
bool rtipc__port_in_interrupt(void) { return false; }
