/* Numbers on a board's console without stdio, for fault reports and exit
 * lines (stdio may be what broke). Over the board's board_putc and
 * board_puts; shared by rtipc's boards (mps2-an385, qemu-virt-rv32). */
#ifndef RTIPC_TARGETS_BOARD_PRINT_H
#define RTIPC_TARGETS_BOARD_PRINT_H

#include <stdint.h>

/* "0x" and 8 hex digits. */
void board_put_hex(uint32_t v);
/* Decimal, unsigned. */
void board_put_dec(uint32_t v);
/* Decimal, with a '-' when negative. */
void board_put_int(int v);

#endif
