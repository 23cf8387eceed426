/* The waking part of the SPSC ring and the mailbox for a build without a
 * kernel (the bare-metal target, docs/mcu.md). There, only the non-blocking
 * calls exist: nothing ever parks, so no side's "sleeping" flag and no
 * mailbox "sleepers" flag is ever set, and the cores (spsc.c, mailbox.c)
 * never call these. They are defined so that the portable cores link; a
 * call would mean a flag was set by something else, which is a bug, and is
 * ignored rather than acted on (there is nobody to wake). */
#include "../../common/mailbox_internal.h"
#include "../../common/spsc_internal.h"

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
