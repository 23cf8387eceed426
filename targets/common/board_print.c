/* board_print.h over the board's console. */
#include "board_print.h"

void board_putc(char c);
void board_puts(const char *s);

void board_put_hex(uint32_t v)
{
    static const char digits[] = "0123456789abcdef";
    board_puts("0x");
    for (int shift = 28; shift >= 0; shift -= 4)
        board_putc(digits[(v >> shift) & 0xfu]);
}

void board_put_dec(uint32_t v)
{
    char buf[11];
    int i = (int)sizeof buf;
    buf[--i] = '\0';
    do {
        buf[--i] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    board_puts(&buf[i]);
}

void board_put_int(int v)
{
    if (v < 0) {
        board_putc('-');
        board_put_dec(0u - (uint32_t)v);
    } else {
        board_put_dec((uint32_t)v);
    }
}
