/* rtipc-rv32-pingpong: cross-core round trips on the FreeRTOS SMP kernel,
 * a task on core 0 and one on core 1 handing a token back and forth,
 * through the kernel's own calls (task notifications, binary semaphores)
 * and through rtipc's (rtipc_notify_*, rtipc_sem_*). Prints the mean round
 * trip in mtime (emulated wall clock) and the ticks the run took: a wake-up
 * that waited for a tick instead of the inter-processor interrupt shows as
 * about one tick per round trip. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "FreeRTOS.h"
#include "semphr.h"
#include "task.h"

#include "board.h"
#include "rtipc/rtipc.h"
#include "rv32_freertos.h"

#define ROUNDS 2000u

enum mech { M_KERNEL_NOTIFY, M_KERNEL_SEM, M_RTIPC_NOTIFY, M_RTIPC_SEM, M_COUNT };
static const char *const mech_name[M_COUNT] = {"kernel notify", "kernel semaphore", "rtipc notify", "rtipc sem"};

static volatile enum mech mech;
static TaskHandle_t ping_task, pong_task;
static SemaphoreHandle_t to_pong, to_ping;
static rtipc_task_t *rt_ping, *rt_pong;
static rtipc_sem_t *rs_pong, *rs_ping;
static volatile int failures;

static void wait_token(int side)
{
    bool ok = true;
    switch (mech) {
    case M_KERNEL_NOTIFY: ok = ulTaskNotifyTake(pdTRUE, pdMS_TO_TICKS(5000)) != 0; break;
    case M_KERNEL_SEM: ok = xSemaphoreTake(side ? to_pong : to_ping, pdMS_TO_TICKS(5000)) == pdTRUE; break;
    case M_RTIPC_NOTIFY: {
        uint32_t v;
        ok = rtipc_notify_take(0, true, &v, rtipc_ms(5000)) == RTIPC_OK;
        break;
    }
    case M_RTIPC_SEM: ok = rtipc_sem_take(side ? rs_pong : rs_ping, rtipc_ms(5000)) == RTIPC_OK; break;
    default: break;
    }
    if (!ok)
        failures++;
}

static void pass_token(int to_side)
{
    switch (mech) {
    case M_KERNEL_NOTIFY: xTaskNotifyGive(to_side ? pong_task : ping_task); break;
    case M_KERNEL_SEM: xSemaphoreGive(to_side ? to_pong : to_ping); break;
    case M_RTIPC_NOTIFY: (void)rtipc_notify_give(to_side ? rt_pong : rt_ping, 0); break;
    case M_RTIPC_SEM: (void)rtipc_sem_give(to_side ? rs_pong : rs_ping); break;
    default: break;
    }
}

/* One pong task per mechanism, so that none is left waiting on the last
 * mechanism when the next one starts. */
static volatile bool pong_done;

static void pong(void *arg)
{
    (void)arg;
    rt_pong = rtipc_task_current();
    for (unsigned i = 0; i < ROUNDS; i++) {
        wait_token(1);
        pass_token(0);
    }
    pong_done = true;
    vTaskDelete(NULL);
}

static void ping(void *arg)
{
    (void)arg;
    rt_ping = rtipc_task_current();
    to_pong = xSemaphoreCreateBinary();
    to_ping = xSemaphoreCreateBinary();
    if (!to_pong || !to_ping || rtipc_sem_create_binary(&rs_pong) != RTIPC_OK ||
        rtipc_sem_create_binary(&rs_ping) != RTIPC_OK)
        board_exit(2);
    printf("rtipc-rv32-pingpong: FreeRTOS %s, ping on core %u, pong on core 1, %u round trips each\n",
           tskKERNEL_VERSION_NUMBER, (unsigned)portGET_CORE_ID(), ROUNDS);
    for (int m = 0; m < M_COUNT; m++) {
        mech = (enum mech)m;
        rt_pong = NULL;
        pong_done = false;
        if (xTaskCreateAffinitySet(pong, "pong", 2048, NULL, 2, 1u << 1, &pong_task) != pdPASS)
            board_exit(2);
        while (rt_pong == NULL)
            vTaskDelay(1);
        TickType_t k0 = xTaskGetTickCount();
        uint64_t t0 = board_mtime();
        for (unsigned i = 0; i < ROUNDS; i++) {
            pass_token(1);
            wait_token(0);
        }
        uint64_t t1 = board_mtime();
        TickType_t k1 = xTaskGetTickCount();
        while (!pong_done)
            vTaskDelay(1);
        printf("pingpong %-16s: %6llu ns per round trip, %lu ticks for %u round trips\n", mech_name[m],
               (unsigned long long)((t1 - t0) * (1000000000u / BOARD_MTIME_HZ) / ROUNDS), (unsigned long)(k1 - k0),
               ROUNDS);
    }
    printf("rtipc-rv32-pingpong: %d waits timed out\n", failures);
    board_exit(failures ? 1 : 0);
}

int main(void)
{
    if (xTaskCreateAffinitySet(ping, "ping", 2048, NULL, 2, 1u << 0, &ping_task) != pdPASS)
        return 1;
    rtipc_rv32_kernel_traps();
    vTaskStartScheduler();
    return 1;
}
