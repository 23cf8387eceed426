/* Trap entry of rtipc's interrupt vector (each hart's supervisor software
 * interrupt, the rv32_virt backend of src/port/freertos), the same on every
 * hart: saved and restored with the kernel port's own context macros
 * (portContext.h: the hart's current task and its own interrupt stack), so
 * that the vector may switch tasks on its hart as the port's tick and yield
 * entries do. */
#include "portContext.h"

    .section .text.rtipc_rv32_irq_entry, "ax"
    .global rtipc_rv32_irq_entry
rtipc_rv32_irq_entry:
    portcontextSAVE_INTERRUPT_CONTEXT
    call    rtipc_freertos_irq_vector
    portcontextRESTORE_CONTEXT
