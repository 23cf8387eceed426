/* arch_* layer for the FreeRTOS RV32 SMP port: route a trap cause of every
 * hart to one of the port's entry points (board_trap_install, board.h). */
#ifndef RTIPC_RV32_ARCH_TRAP_HANDLER_H
#define RTIPC_RV32_ARCH_TRAP_HANDLER_H

void board_trap_install(unsigned cause, void (*entry)(void));

static inline void arch_trap_handler_install(unsigned cause, void (*entry)(void)) { board_trap_install(cause, entry); }

#endif
