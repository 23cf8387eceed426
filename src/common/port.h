/* What the portable core (src/common) asks of the port it is built with,
 * besides the hooks each object's internal header names (rtipc__spsc_wake,
 * rtipc__spsc_wait, rtipc__mailbox_wake, the ring buffer's receive and query,
 * the handle table's lock and allocator in handle.h). Every port defines
 * all of them; the bare-metal build has no interrupt layer and says no. */
#ifndef RTIPC_COMMON_PORT_H
#define RTIPC_COMMON_PORT_H

#include <stdbool.h>

/* Whether the caller runs in an interrupt handler (rtipc's, or one the port
 * can recognise). Any context. */
bool rtipc__port_in_interrupt(void);

#endif
