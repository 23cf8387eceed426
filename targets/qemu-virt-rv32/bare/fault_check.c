/* A firmware that faults on purpose: a load from an address nothing decodes
 * (0xf0000000) raises a load access fault, which nothing here handles. The
 * board's trap table must report it (mcause 5, mtval the address) and end
 * QEMU with a failure status (scripts/check-rv32.sh checks both). */
#include <stdint.h>
#include <stdio.h>

#include "board.h"

int main(void)
{
    printf("rtipc-rv32-fault: loading from 0xf0000000\n");
    volatile uint32_t *nowhere = (volatile uint32_t *)(uintptr_t)0xf0000000u;
    return (int)*nowhere; /* not reached */
}
