/* The bench's task seam on FreeRTOS (bench/target/freertos_tasks.c), on the
 * POSIX simulator: a native task is the kernel's own and gets nothing of
 * rtipc's; it joins, and it can be deleted while blocked or after it ended;
 * one that calls into rtipc's port is counted as a stray; an rtipc task is
 * rtipc's. Built by targets/freertos-posix (its main runs in a FreeRTOS
 * task: tests/freertos/unit_main.c). */
#include <setjmp.h> /* cmocka needs these before cmocka.h */
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "FreeRTOS.h"
#include "semphr.h"
#include "task.h"

#include "rtipc/port_freertos.h"
#include "rtipc/rtipc.h"
#include "target/target.h"

typedef struct {
    int known;              /* rtipc_freertos_task_known() in the task */
    void *self;             /* xTaskGetCurrentTaskHandle() */
    UBaseType_t priority;   /* uxTaskPriorityGet(NULL) */
    bool call_rtipc;        /* ask rtipc who it is (a stray) */
    SemaphoreHandle_t wait; /* block on it for ever first (a kernel wait) */
    _Atomic int done;
} probe_t;

static void probe(void *arg)
{
    probe_t *p = arg;
    p->known = rtipc_freertos_task_known();
    p->self = xTaskGetCurrentTaskHandle();
    p->priority = uxTaskPriorityGet(NULL);
    if (p->wait)
        (void)xSemaphoreTake(p->wait, portMAX_DELAY);
    if (p->call_rtipc)
        (void)rtipc_task_current();
    atomic_store(&p->done, 1);
}

static bench_task_spec_t spec_for(probe_t *p, bool native)
{
    return (bench_task_spec_t){.name = "probe", .core = 0, .priority = 7, .entry = probe, .arg = p, .native = native};
}

static void test_native_task_is_the_kernels(void **state)
{
    (void)state;
    (void)bench_target_native_strays();
    probe_t p = {0};
    bench_task_spec_t s = spec_for(&p, true);
    bench_task_t *t = NULL;
    assert_int_equal(bench_target_task_start(&s, &t), 0);
    assert_null(bench_target_task_rtipc(t));
    void *handle = bench_target_task_kernel(t);
    assert_non_null(handle);
    assert_int_equal(bench_target_task_join(t), 0);
    assert_int_equal(atomic_load(&p.done), 1);
    assert_int_equal(p.known, 0);  /* no descriptor, no TLS slot of rtipc's */
    assert_ptr_equal(p.self, handle);
    assert_int_equal(p.priority, 7);  /* rtipc's priority, 1:1 */
    assert_int_equal(bench_target_native_strays(), 0);
}

static void test_rtipc_task_is_rtipcs(void **state)
{
    (void)state;
    probe_t p = {0};
    bench_task_spec_t s = spec_for(&p, false);
    bench_task_t *t = NULL;
    assert_int_equal(bench_target_task_start(&s, &t), 0);
    assert_non_null(bench_target_task_rtipc(t));
    assert_null(bench_target_task_kernel(t));
    assert_int_equal(bench_target_task_join(t), 0);
    assert_int_equal(p.known, 1);
    assert_int_equal(bench_target_native_strays(), 0);  /* only native tasks count */
}

static void test_native_stray_is_counted(void **state)
{
    (void)state;
    (void)bench_target_native_strays();
    probe_t p = {.call_rtipc = true};
    bench_task_spec_t s = spec_for(&p, true);
    bench_task_t *t = NULL;
    assert_int_equal(bench_target_task_start(&s, &t), 0);
    assert_int_equal(bench_target_task_join(t), 0);
    assert_int_equal(bench_target_native_strays(), 1);
    assert_int_equal(bench_target_native_strays(), 0);  /* reported once */
}

static void test_native_delete_blocked_and_ended(void **state)
{
    (void)state;
    probe_t p = {.wait = xSemaphoreCreateBinary()};
    assert_non_null(p.wait);
    bench_task_spec_t s = spec_for(&p, true);
    bench_task_t *t = NULL;
    assert_int_equal(bench_target_task_start(&s, &t), 0);
    vTaskDelay(2);
    assert_int_equal(eTaskGetState(bench_target_task_kernel(t)), eBlocked);
    assert_int_equal(atomic_load(&p.done), 0);
    assert_int_equal(bench_target_task_delete(t), 0);  /* blocked for good: deleted */
    /* The semaphore is free of it: a give now finds no waiter. */
    assert_int_equal(xSemaphoreGive(p.wait), pdPASS);
    assert_int_equal(atomic_load(&p.done), 0);
    (void)xSemaphoreTake(p.wait, 0);

    probe_t q = {0};
    s = spec_for(&q, true);
    assert_int_equal(bench_target_task_start(&s, &t), 0);
    while (!atomic_load(&q.done))
        vTaskDelay(1);
    vTaskDelay(2);
    assert_int_equal(bench_target_task_delete(t), 0);  /* ended (suspended): deleted as well */
    vSemaphoreDelete(p.wait);
}

static void test_native_bad_spec(void **state)
{
    (void)state;
    probe_t p = {0};
    bench_task_spec_t s = spec_for(&p, true);
    bench_task_t *t = NULL;
    s.core = configNUMBER_OF_CORES;  /* no such core */
    assert_int_equal(bench_target_task_start(&s, &t), RTIPC_EINVAL);
    s = spec_for(&p, true);
    s.priority = configMAX_PRIORITIES;
    assert_int_equal(bench_target_task_start(&s, &t), RTIPC_EINVAL);
    s = spec_for(&p, true);
    s.entry = NULL;
    assert_int_equal(bench_target_task_start(&s, &t), RTIPC_EINVAL);
    assert_null(t);
}

int main(void);
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_native_task_is_the_kernels),
        cmocka_unit_test(test_rtipc_task_is_rtipcs),
        cmocka_unit_test(test_native_stray_is_counted),
        cmocka_unit_test(test_native_delete_blocked_and_ended),
        cmocka_unit_test(test_native_bad_spec),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
