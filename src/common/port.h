/* What the portable core (src/common) asks of the port it is built with,
 * besides the hooks each object's internal header names (rtipc__spsc_wake,
 * rtipc__spsc_wait, rtipc__mailbox_wake, the ring buffer's receive and query,
 * the handle table's lock in handle.h). Every port defines all of them; the
 * bare-metal build has no interrupt layer and no heap and says no. */
#ifndef RTIPC_COMMON_PORT_H
#define RTIPC_COMMON_PORT_H

#include <stdbool.h>
#include <stddef.h>

/* Whether the caller runs in an interrupt handler (rtipc's, or one the port
 * can recognise). Any context. */
bool rtipc__port_in_interrupt(void);

/* A block of @p bytes aligned to @p align (a power of two, at most
 * RTIPC__CACHE_LINE), or NULL when there is no memory (always, without a
 * heap). rtipc__port_free gives back a block of rtipc__port_alloc with the
 * same @p align; NULL is ignored. Task context; thread-safe. */
void *rtipc__port_alloc(size_t bytes, size_t align);
void rtipc__port_free(void *block, size_t align);

/* The SPSC ring's parking handshake with an asymmetric fence (spsc.c,
 * rtipc_spsc_set_fence): rtipc__port_asym_fence() is true when the port has
 * a process-wide barrier and it is in force (registered at the first call;
 * never changes after). A ring created asymmetric pays only a compiler
 * barrier on its fast paths; its side about to park calls
 * rtipc__port_heavy_fence, which orders memory on every thread of the
 * process as a full fence on each would. Ports without one say false (MCUs:
 * a fence is cheap there). Task context. */
bool rtipc__port_asym_fence(void);
void rtipc__port_heavy_fence(void);

#endif
