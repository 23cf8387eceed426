/* Sizes shared by the start-up code and C (values must match
 * qemu-virt-rv32.ld, which checks nothing of them). */
#ifndef RTIPC_BOARD_QEMU_VIRT_RV32_LAYOUT_H
#define RTIPC_BOARD_QEMU_VIRT_RV32_LAYOUT_H

#define BOARD_HARTS 2
#define BOARD_HART_STACK_BYTES 65536
#define BOARD_FAULT_STACK_BYTES 1024
/* Exceptions (entry 0) and the 16 standard interrupt causes. */
#define BOARD_TRAP_ENTRIES 16

#endif
