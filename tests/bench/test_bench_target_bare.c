/* The bare-metal target seam (bench/target/bare.c) on the host, with a
 * board whose counter the test drives: the clock it was handed, the board's
 * stamps, its one software interrupt line (one source at a time, core 0
 * only), no tasks and no tick (refused with RTIPC_ENOTSUP, and experiments
 * that need tasks reported missing with the reason), memory figures from
 * the board, and the console sink's marker lines. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness/run.h"
#include "rtipc/error.h"
#include "target/console_sink.h"
#include "target/target.h"

/* The board's counter: 25 counts of 40 ns per read, as a 25 MHz timer read
 * by a loop of 40 instructions would advance. */
static uint64_t counter;
static uint64_t read_counter(void) { return counter += 25; }

static void board_memory(bench_memory_t *out)
{
    out->kind = BENCH_MEMORY_HEAP_FREE;
    out->now_bytes = 4096;
    out->extreme_bytes = 1024;
}

/* The board's stamps: raw[0] is a stamp number, the span counts them x 7. */
static uint32_t stamps_taken;
static void stamp_start(uint32_t raw[3]) { raw[0] = ++stamps_taken, raw[1] = 11, raw[2] = 0; }
static void stamp_end(uint32_t raw[3]) { raw[0] = ++stamps_taken, raw[1] = 0, raw[2] = 22; }
static int64_t stamp_span(const uint32_t a[3], const uint32_t b[3])
{
    assert_int_equal(a[1], 11);  /* each side's raw words come back as the board kept them */
    assert_int_equal(b[2], 22);
    return (int64_t)(b[0] - a[0]) * 7;
}

/* The line: a pend runs the handler at once, as an enabled interrupt of
 * higher priority than the main loop would. */
static int pends;
static void irq_pend(void)
{
    pends++;
    bench_target_bare_interrupt();
}

static bench_bare_board_t the_board(void)
{
    return (bench_bare_board_t){.read_counter = read_counter,
                                .counter_hz = 25e6,
                                .clock = {.name = "test-timer", .provenance = BENCH_CLOCK_EMULATED_INSTRUCTIONS,
                                          .resolution = 40},
                                .memory = board_memory,
                                .description = "a test board",
                                .stamp_start = stamp_start,
                                .stamp_end = stamp_end,
                                .stamp_span = stamp_span,
                                .stamp_resolution = 1,
                                .irq_pend = irq_pend,
                                .irq_description = "line 27"};
}

static int setup(void **state)
{
    (void)state;
    bench_bare_board_t b = the_board();
    bench_target_bare_setup(&b);
    return 0;
}

static void test_clock_is_the_boards(void **state)
{
    (void)state;
    bench_clock_t c;
    bench_target_clock(&c);
    assert_string_equal(c.name, "test-timer");
    assert_int_equal(c.provenance, BENCH_CLOCK_EMULATED_INSTRUCTIONS);
    assert_string_equal(c.unit, "instr");  /* filled from the provenance */
    assert_true(c.rate_hz == 25e6);         /* filled from counter_hz */
    int64_t a = bench_now_ns(), b = bench_now_ns();
    assert_int_equal(b - a, 1000);          /* 25 counts at 25 MHz */
    int64_t t = bench_now_ns() + 5000;
    bench_sleep_ns(5000);                   /* a spin on the clock */
    assert_true(bench_now_ns() >= t);
    assert_int_equal(bench_sleep_overshoot_ns(), 0);
}

static void entry(void *arg) { (void)arg; }

static void test_no_tasks_no_tick(void **state)
{
    (void)state;
    assert_int_equal(bench_target_features(), BENCH_TARGET_INTERRUPTS);
    assert_int_equal(bench_target_core_count(), 1);
    bench_task_spec_t spec = {.name = "t", .priority = 10, .entry = entry};
    bench_task_t *t = (bench_task_t *)&spec;
    assert_int_equal(bench_target_task_start(&spec, &t), RTIPC_ENOTSUP);
    assert_null(t);
    assert_int_equal(bench_target_set_tick_rate(1000), RTIPC_ENOTSUP);
    assert_int_equal(bench_thread_cpu_ns(), -1);
    assert_int_equal(bench_thread_switches(), 0);
    assert_int_equal(bench_target_lock_memory(), 1);
}

static void test_stamps_are_the_boards(void **state)
{
    (void)state;
    stamps_taken = 0;
    bench_stamp_t a = bench_target_stamp_start();
    bench_stamp_t b = bench_target_stamp_end();
    assert_int_equal(bench_target_stamp_span(a, b), 7);  /* the board's span, not the counter's */
    assert_true(b.ns > a.ns);                            /* the clock is read beside them */
    assert_true(bench_target_stamp_resolution() == 1);
    /* Without the board's stamps: two readings of the counter, its grain. */
    bench_bare_board_t plain = the_board();
    plain.stamp_start = NULL, plain.stamp_end = NULL, plain.stamp_span = NULL;
    bench_target_bare_setup(&plain);
    a = bench_target_stamp_start();
    b = bench_target_stamp_end();
    assert_int_equal(bench_target_stamp_span(a, b), 1000);  /* 25 counts of 40 ns */
    assert_true(bench_target_stamp_resolution() == 40);
    bench_bare_board_t full = the_board();
    bench_target_bare_setup(&full);
}

static int isr_calls;
static void *isr_arg;
static void counting_isr(void *arg)
{
    isr_calls++;
    isr_arg = arg;
}

static void test_one_software_line(void **state)
{
    (void)state;
    int token;
    rtipc_irq_t *irq = NULL, *other = (rtipc_irq_t *)&token;
    assert_int_equal(bench_target_irq_create(0, counting_isr, NULL, NULL), RTIPC_EINVAL);
    assert_int_equal(bench_target_irq_create(1, counting_isr, NULL, &other), RTIPC_EINVAL);
    assert_null(other);
    assert_int_equal(bench_target_irq_create(0, NULL, NULL, &other), RTIPC_EINVAL);
    bench_target_bare_interrupt();  /* a stray interrupt with no source: nothing runs */
    assert_int_equal(isr_calls, 0);
    assert_int_equal(bench_target_irq_create(0, counting_isr, &token, &irq), RTIPC_OK);
    assert_non_null(irq);
    assert_int_equal(bench_target_irq_create(0, counting_isr, NULL, &other), RTIPC_EBUSY);
    assert_null(other);
    pends = 0;
    assert_int_equal(bench_target_irq_trigger(irq), RTIPC_OK);
    assert_int_equal(bench_target_irq_trigger(irq), RTIPC_OK);
    assert_int_equal(pends, 2);
    assert_int_equal(isr_calls, 2);
    assert_ptr_equal(isr_arg, &token);
    assert_int_equal(bench_target_irq_trigger(NULL), RTIPC_EINVAL);
    assert_int_equal(bench_target_irq_delete(irq), RTIPC_OK);
    assert_int_equal(bench_target_irq_trigger(irq), RTIPC_EINVAL);  /* ended: refused */
    assert_int_equal(bench_target_irq_delete(irq), RTIPC_EINVAL);
    bench_target_bare_interrupt();
    assert_int_equal(isr_calls, 2);
    /* The line is free again. */
    assert_int_equal(bench_target_irq_create(0, counting_isr, NULL, &irq), RTIPC_OK);
    assert_int_equal(bench_target_irq_delete(irq), RTIPC_OK);
    /* A board without a line: none, and the feature is gone. */
    bench_bare_board_t none = the_board();
    none.irq_pend = NULL;
    bench_target_bare_setup(&none);
    assert_int_equal(bench_target_features(), 0);
    assert_int_equal(bench_target_irq_create(0, counting_isr, NULL, &irq), RTIPC_ENOTSUP);
    assert_null(irq);
    assert_int_equal(bench_target_irq_trigger(irq), RTIPC_ENOTSUP);
    assert_int_equal(bench_target_irq_delete(irq), RTIPC_ENOTSUP);
    bench_bare_board_t full = the_board();
    bench_target_bare_setup(&full);
}

static int run_experiment(bench_run_t *run)
{
    (void)run;
    return 0;
}

static void test_unavailable_experiments_say_why(void **state)
{
    (void)state;
    char why[256];
    bench_experiment_t e = {.id = "x", .run = run_experiment};
    assert_null(bench_experiment_unavailable(&e, why, sizeof why));  /* needs nothing */
    e.requires = BENCH_TARGET_TASKS;
    assert_string_equal(bench_experiment_unavailable(&e, why, sizeof why),
                        "needs tasks and blocking objects, which this target (bare-metal) lacks");
    e.requires = BENCH_TARGET_TASKS | BENCH_TARGET_INTERRUPTS | BENCH_TARGET_TWO_CORES;
    assert_string_equal(bench_experiment_unavailable(&e, why, sizeof why),
                        "needs tasks and blocking objects and two cores, which this target (bare-metal) lacks");
    e.requires = BENCH_TARGET_TASKS | BENCH_TARGET_THREAD_CPU_TIME | BENCH_TARGET_TWO_CORES;
    assert_string_equal(bench_experiment_unavailable(&e, why, sizeof why),
                        "needs tasks and blocking objects, two cores and per-task CPU time, "
                        "which this target (bare-metal) lacks");
    bench_experiment_t absent = {.id = "y", .unavailable = "built for Linux only"};
    assert_string_equal(bench_experiment_unavailable(&absent, why, sizeof why), "built for Linux only");
}

static void test_memory_and_environment(void **state)
{
    (void)state;
    bench_memory_t m;
    bench_target_memory(&m);
    assert_int_equal(m.kind, BENCH_MEMORY_HEAP_FREE);
    assert_int_equal(m.now_bytes, 4096);
    assert_int_equal(m.extreme_bytes, 1024);
    bench_env_t env;
    memset(&env, 0, sizeof env);
    bench_target_describe(&env);
    assert_string_equal(env.target, "bare-metal");
    assert_int_equal(env.cores_online, 1);
    assert_non_null(strstr(env.kernel, "a test board"));
    assert_string_equal(env.clock.name, "test-timer");
    assert_int_equal(env.tick_hz, 1);
    assert_int_equal(env.sched_fifo, 0);
    assert_non_null(strstr(env.sched_policy, "bare metal"));
    assert_non_null(strstr(env.priorities, "line 27"));
}

/* What the console sink prints for one document, complete or not, and what
 * bench_console_sink_end returns. */
static int console_document(bool complete, char *text, size_t len)
{
    char path[] = "/tmp/rtipc-bench-bare-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    assert_true(saved >= 0);
    assert_int_equal(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
    bench_console_sink_begin("rtipc-bench/1 JSON");
    fputs("{\"a\": 1}\n", stdout);
    int rc = bench_console_sink_end("rtipc-bench/1 JSON", complete);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    FILE *f = fdopen(fd, "r");
    assert_non_null(f);
    rewind(f);
    size_t n = fread(text, 1, len - 1, f);
    text[n] = 0;
    fclose(f);
    unlink(path);
    return rc;
}

static void test_output_goes_to_the_console(void **state)
{
    (void)state;
    char text[256];
    assert_int_equal(console_document(true, text, sizeof text), 0);
    assert_string_equal(text, "==== rtipc-bench/1 JSON begin ====\n{\"a\": 1}\n==== rtipc-bench/1 JSON end ====\n");
}

/* A document that could not be completed is marked so that the host refuses
 * it (scripts/mcu-run.sh, capture), and the writer hears of the failure. */
static void test_an_incomplete_output_is_marked_aborted(void **state)
{
    (void)state;
    char text[256];
    assert_int_equal(console_document(false, text, sizeof text), -1);
    assert_string_equal(text,
                        "==== rtipc-bench/1 JSON begin ====\n{\"a\": 1}\n==== rtipc-bench/1 JSON aborted ====\n");
}

static void test_provenance_names_are_stable(void **state)
{
    (void)state;
    static const char *const names[BENCH_CLOCK_PROVENANCES] = {
        "host-tsc", "os-clock", "mcu-cycles", "emulated-instructions", "emulated-wall-clock",
        "emulated-core-cycles", "logic-analyzer"};
    for (int i = 0; i < BENCH_CLOCK_PROVENANCES; i++) {
        bench_clock_provenance_t p = BENCH_CLOCK_OS;
        assert_string_equal(bench_clock_provenance_name((bench_clock_provenance_t)i), names[i]);
        assert_int_equal(bench_clock_provenance_parse(names[i], &p), 0);
        assert_int_equal(p, i);
    }
    bench_clock_provenance_t p = BENCH_CLOCK_MCU_CYCLES;
    assert_int_equal(bench_clock_provenance_parse("tsc", &p), -1);
    assert_int_equal(bench_clock_provenance_parse(NULL, &p), -1);
    assert_int_equal(p, BENCH_CLOCK_MCU_CYCLES);  /* untouched on failure */
    assert_null(bench_clock_provenance_name((bench_clock_provenance_t)BENCH_CLOCK_PROVENANCES));
    assert_string_equal(bench_clock_provenance_unit(BENCH_CLOCK_HOST_TSC), "ns");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clock_is_the_boards),
        cmocka_unit_test(test_no_tasks_no_tick),
        cmocka_unit_test(test_stamps_are_the_boards),
        cmocka_unit_test(test_one_software_line),
        cmocka_unit_test(test_unavailable_experiments_say_why),
        cmocka_unit_test(test_memory_and_environment),
        cmocka_unit_test(test_output_goes_to_the_console),
        cmocka_unit_test(test_an_incomplete_output_is_marked_aborted),
        cmocka_unit_test(test_provenance_names_are_stable),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
