/* Interrupt backend for targets that have none yet (see irq_port.h): no
 * rtipc interrupt source can be created, so nothing is ever pended. */
#include "irq_port.h"
#include "port_internal.h"

int rtipc__fr_irq_hw_init(void) { return RTIPC_ENOTSUP; }

void rtipc__fr_irq_hw_pend(void) {}
