/* rtipc-cm3-conformance: rtipc's conformance suite (tests/conformance) on the
 * FreeRTOS kernel on a Cortex-M3, with its interrupt scenarios on rtipc's
 * NVIC backend. Every line the suite emits is printed, and each line that
 * is not commentary ('#') is compared on the fly with the same line of
 * tests/conformance/expected.txt (built in as conformance_expected.h); the
 * firmware exits 0 only if the suite passed and every line matched. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "FreeRTOS.h"
#include "task.h"

#include "board.h"
#include "conformance.h"
#include "conformance_expected.h" /* generated: static const char conformance_expected[] */

static const char *next_expected = conformance_expected;
static unsigned compared, differing;

/* The next expected line that is not commentary, copied into @p buf;
 * false at the end. */
static bool expected_line(char *buf, size_t cap)
{
    while (*next_expected) {
        const char *eol = strchr(next_expected, '\n');
        size_t n = eol ? (size_t)(eol - next_expected) : strlen(next_expected);
        const char *line = next_expected;
        next_expected += eol ? n + 1 : n;
        if (*line == '#')
            continue;
        if (n >= cap)
            n = cap - 1;
        memcpy(buf, line, n);
        buf[n] = '\0';
        return true;
    }
    return false;
}

static void emit(const char *line, void *ctx)
{
    (void)ctx;
    printf("%s\n", line);
    if (*line == '#')
        return;
    static char want[512];
    compared++;
    if (!expected_line(want, sizeof want)) {
        differing++;
        printf("! extra line: not in expected.txt\n");
    } else if (strcmp(want, line) != 0) {
        differing++;
        printf("! expected:   %s\n", want);
    }
}

static void runner(void *arg)
{
    (void)arg;
    printf("rtipc conformance suite on FreeRTOS %s, Cortex-M3 (QEMU mps2-an385), SysTick %lu Hz\n",
           tskKERNEL_VERSION_NUMBER, (unsigned long)rtipc_cm3_systick_hz);
    int failed = rtipc_conformance_run(emit, NULL);
    static char rest[512];
    unsigned missing = 0;
    while (expected_line(rest, sizeof rest))
        missing++;
    printf("conformance: suite returned %d; %u lines compared, %u differ, %u expected lines missing\n", failed,
           compared, differing, missing);
    board_exit(failed == 0 && differing == 0 && missing == 0 ? 0 : 1);
}

int main(void)
{
    (void)board_calibrate();
    rtipc_cm3_systick_hz = board_systick_hz();
    /* A plain FreeRTOS task: rtipc adopts it on its first call. */
    if (xTaskCreate(runner, "conformance", 2048, NULL, 1, NULL) != pdPASS) {
        printf("rtipc-cm3-conformance: cannot create the runner task\n");
        return 1;
    }
    vTaskStartScheduler();
    printf("rtipc-cm3-conformance: the scheduler returned\n");
    return 1;
}
