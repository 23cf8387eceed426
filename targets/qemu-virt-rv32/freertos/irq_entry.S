/* Trap entry of rtipc's interrupt vector (hart 0's supervisor software
 * interrupt, the rv32_virt backend of src/port/freertos): saved and restored
 * with the kernel port's own context macros (portContext.h), so that the
 * vector may switch tasks as the port's tick and yield entries do. */
#include "portContext.h"

    .section .text.rtipc_rv32_irq_entry, "ax"
    .global rtipc_rv32_irq_entry
rtipc_rv32_irq_entry:
    portcontextSAVE_INTERRUPT_CONTEXT
    call    rtipc_freertos_irq_vector
    portcontextRESTORE_CONTEXT
