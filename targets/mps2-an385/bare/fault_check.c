/* A firmware that faults on purpose: a load from an address nothing decodes
 * (0xf0000000) raises a BusFault, which no handler here overrides. The board's
 * default handler must name it on the UART and end QEMU with a failure
 * (scripts/mcu-run.sh checks both). */
#include <stdint.h>
#include <stdio.h>

#include "board.h"

int main(void)
{
    printf("rtipc-mcu-fault: loading from 0xf0000000\n");
    fflush(stdout);
    volatile uint32_t *nowhere = (volatile uint32_t *)(uintptr_t)0xf0000000u;
    return (int)*nowhere; /* not reached */
}
