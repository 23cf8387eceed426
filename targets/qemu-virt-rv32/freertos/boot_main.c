/* rtipc-rv32-boot: the SMP kernel starts on both harts. One task pinned to
 * each core checks, every time it runs, that it runs on its own core; both
 * must also be seen running at the same moment (each spins until it sees
 * the other spinning), and both must sleep and wake through the tick.
 * Exit 0 when both did all of that. */
#include <stdatomic.h>
#include <stdio.h>

#include "FreeRTOS.h"
#include "task.h"

#include "board.h"
#include "rv32_freertos.h"

#define ROUNDS 50u

static atomic_uint spinning; /* bit n: core n's task is inside its spin */
static atomic_uint overlaps[configNUMBER_OF_CORES];
static atomic_uint wrong_core[configNUMBER_OF_CORES];
static atomic_uint finished;

static void pinned(void *arg)
{
    unsigned core = (unsigned)(uintptr_t)arg;
    unsigned me = 1u << core, other = me ^ 3u;
    for (unsigned round = 0; round < ROUNDS; round++) {
        if (portGET_CORE_ID() != core)
            atomic_fetch_add(&wrong_core[core], 1u);
        /* Meet the other task inside the spin (bounded: 20 ms of mtime). */
        atomic_fetch_or(&spinning, me);
        uint64_t give_up = board_mtime() + BOARD_MTIME_HZ / 50u;
        while ((atomic_load(&spinning) & other) == 0 && board_mtime() < give_up)
            ;
        if (atomic_load(&spinning) & other)
            atomic_fetch_add(&overlaps[core], 1u);
        uint64_t linger = board_mtime() + BOARD_MTIME_HZ / 1000u; /* let the other see us */
        while (board_mtime() < linger)
            ;
        atomic_fetch_and(&spinning, ~me);
        vTaskDelay(1);
    }
    if (atomic_fetch_add(&finished, 1u) + 1u == configNUMBER_OF_CORES) {
        unsigned bad = 0;
        for (unsigned c = 0; c < configNUMBER_OF_CORES; c++) {
            printf("core %u: %u rounds, %u on a wrong core, %u met the other core's task\n", c, ROUNDS,
                   atomic_load(&wrong_core[c]), atomic_load(&overlaps[c]));
            bad += atomic_load(&wrong_core[c]) != 0 || atomic_load(&overlaps[c]) == 0;
        }
        printf("rtipc-rv32-boot: tick count %lu; %s\n", (unsigned long)xTaskGetTickCount(), bad ? "FAILED" : "passed");
        board_exit(bad ? 1 : 0);
    }
    vTaskDelete(NULL);
}

int main(void)
{
    printf("rtipc-rv32-boot: FreeRTOS %s, %d cores, QEMU virt RV32\n", tskKERNEL_VERSION_NUMBER,
           configNUMBER_OF_CORES);
    for (unsigned c = 0; c < configNUMBER_OF_CORES; c++) {
        static const char *const names[2] = {"pinned0", "pinned1"};
        if (xTaskCreateAffinitySet(pinned, names[c & 1u], 1024, (void *)(uintptr_t)c, 2, (UBaseType_t)1 << c, NULL) !=
            pdPASS) {
            printf("rtipc-rv32-boot: cannot create the task of core %u\n", c);
            return 1;
        }
    }
    rtipc_rv32_kernel_traps();
    vTaskStartScheduler();
    printf("rtipc-rv32-boot: the scheduler returned\n");
    return 1;
}
