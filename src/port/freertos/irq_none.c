/* Interrupt backend for targets that have none yet (see irq_port.h), ESP-IDF
 * among them: no core has a vector, so rtipc_irq_create reports
 * RTIPC_ENOTSUP and nothing is ever pended. */
#include "irq_port.h"
#include "port_internal.h"

unsigned rtipc__irq_hw_cores(void) { return 0u; }

int rtipc__irq_hw_init(unsigned core)
{
    (void)core;
    return RTIPC_ENOTSUP;
}

void rtipc__irq_hw_pend(unsigned core) { (void)core; }
