/* FreeRTOS direct mode (rtipc/freertos_direct.h): every return path of the
 * calls it puts in line, on the kernel itself (the POSIX simulator, built
 * with RTIPC_FREERTOS_DIRECT; scripts/check-freertos.sh sim). Each call is
 * the kernel's: a handle is the kernel object, woken flags and timeouts
 * map as the headers say, and the out-of-line versions (the name in
 * parentheses) agree. The runner is a FreeRTOS task (unit_main.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "FreeRTOS.h"
#include "queue.h"
#include "semphr.h"
#include "task.h"

#include "rtipc/rtipc.h"

#if !RTIPC_DIRECT
#error "test_direct is built only in direct mode (RTIPC_FREERTOS_DIRECT)"
#endif

#define SHORT rtipc_ms(20)
#define SHORT_NS 20000000

static int64_t since(int64_t t0) { return rtipc_time_ns() - t0; }

/* ---- queues ---------------------------------------------------------------- */

static void queue_paths(void **state)
{
    (void)state;
    rtipc_queue_t *q = NULL;
    assert_int_equal(rtipc_queue_create(2, sizeof(uint32_t), &q), RTIPC_OK);
    uint32_t v = 1, out = 0;
    /* The handle is the kernel's queue. */
    assert_int_equal(uxQueueSpacesAvailable((QueueHandle_t)(void *)q), 2);

    assert_int_equal(rtipc_queue_send(NULL, &v, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_send(q, NULL, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_receive(NULL, &out, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_receive(q, NULL, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_peek(q, NULL, RTIPC_NO_WAIT), RTIPC_EINVAL);

    /* Empty: no wait, then a timeout that runs out. */
    assert_int_equal(rtipc_queue_receive(q, &out, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_queue_peek(q, &out, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_queue_receive(q, &out, SHORT), RTIPC_ETIMEDOUT);
    assert_true(since(t0) >= SHORT_NS - rtipc_tick_period_ns());

    /* Back and front, then full. */
    assert_int_equal(rtipc_queue_send(q, &v, RTIPC_FOREVER), RTIPC_OK);
    v = 2;
    assert_int_equal(rtipc_queue_send_to_front(q, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(uxQueueMessagesWaiting((QueueHandle_t)(void *)q), 2);
    v = 3;
    assert_int_equal(rtipc_queue_send(q, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    t0 = rtipc_time_ns();
    assert_int_equal(rtipc_queue_send(q, &v, SHORT), RTIPC_ETIMEDOUT);
    assert_true(since(t0) >= SHORT_NS - rtipc_tick_period_ns());
    assert_int_equal(rtipc_queue_peek(q, &out, RTIPC_FOREVER), RTIPC_OK);
    assert_int_equal(out, 2);
    assert_int_equal(rtipc_queue_receive(q, &out, RTIPC_FOREVER), RTIPC_OK);
    assert_int_equal(out, 2);
    /* The out-of-line call agrees. */
    assert_int_equal((rtipc_queue_receive)(q, &out, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(out, 1);
    assert_int_equal((rtipc_queue_receive)(q, &out, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

static void queue_isr_paths(void **state)
{
    (void)state;
    rtipc_queue_t *q = NULL;
    assert_int_equal(rtipc_queue_create(1, sizeof(uint32_t), &q), RTIPC_OK);
    uint32_t v = 7, out = 0;
    bool woken = false;
    assert_int_equal(rtipc_queue_send_from_isr(NULL, &v, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_send_from_isr(q, NULL, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_receive_from_isr(NULL, &out, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_receive_from_isr(q, NULL, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_queue_receive_from_isr(q, &out, &woken), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_queue_send_from_isr(q, &v, NULL), RTIPC_OK); /* a NULL flag is allowed */
    assert_int_equal(rtipc_queue_send_to_front_from_isr(q, &v, &woken), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_queue_send_from_isr(q, &v, &woken), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_queue_receive_from_isr(q, &out, &woken), RTIPC_OK);
    assert_int_equal(out, 7);
    assert_false(woken); /* nobody waited */
    assert_int_equal(rtipc_queue_delete(q), RTIPC_OK);
}

/* A receiver of higher priority blocked on the queue: the interrupt-safe
 * send readies it and sets the woken flag (never clears it). */
typedef struct {
    rtipc_queue_t *q;
    uint32_t got;
    int rc;
} receiver_t;

static void receiver(void *arg)
{
    receiver_t *r = arg;
    r->rc = rtipc_queue_receive(r->q, &r->got, RTIPC_FOREVER);
}

static void queue_isr_woken(void **state)
{
    (void)state;
    receiver_t r = {0};
    assert_int_equal(rtipc_queue_create(1, sizeof(uint32_t), &r.q), RTIPC_OK);
    rtipc_task_t *t = NULL;
    rtipc_task_config_t cfg = {.name = "receiver",
                               .priority = (unsigned)rtipc_task_priority(rtipc_task_current()) + 1,
                               .core = RTIPC_CORE_ANY,
                               .entry = receiver,
                               .arg = &r};
    assert_int_equal(rtipc_task_create(&cfg, &t), RTIPC_OK);
    /* Until it waits in the queue (its handle points at its kernel task). */
    for (int i = 0; i < 1000 && eTaskGetState(*(TaskHandle_t *)(void *)t) != eBlocked; i++)
        (void)rtipc_task_delay(rtipc_ms(1));
    assert_int_equal(eTaskGetState(*(TaskHandle_t *)(void *)t), eBlocked);
    uint32_t v = 42;
    bool woken = false;
    assert_int_equal(rtipc_queue_send_from_isr(r.q, &v, &woken), RTIPC_OK);
    assert_true(woken);
    assert_int_equal(rtipc_task_join(t), RTIPC_OK);
    assert_int_equal(r.rc, RTIPC_OK);
    assert_int_equal(r.got, 42);
    assert_int_equal(rtipc_queue_delete(r.q), RTIPC_OK);
}

/* ---- semaphores -------------------------------------------------------------- */

static void sem_paths(void **state)
{
    (void)state;
    rtipc_sem_t *s = NULL;
    assert_int_equal(rtipc_sem_create_counting(1, 0, &s), RTIPC_OK);
    assert_int_equal(uxSemaphoreGetCount((SemaphoreHandle_t)(void *)s), 0);
    assert_int_equal(rtipc_sem_give(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_take(NULL, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_take(s, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_sem_take(s, SHORT), RTIPC_ETIMEDOUT);
    assert_true(since(t0) >= SHORT_NS - rtipc_tick_period_ns());
    assert_int_equal(rtipc_sem_give(s), RTIPC_OK);
    assert_int_equal(rtipc_sem_give(s), RTIPC_EOVERFLOW);
    assert_int_equal(rtipc_sem_take(s, RTIPC_FOREVER), RTIPC_OK);

    bool woken = false;
    assert_int_equal(rtipc_sem_give_from_isr(NULL, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_take_from_isr(NULL, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_sem_take_from_isr(s, &woken), RTIPC_EWOULDBLOCK);
    assert_int_equal(rtipc_sem_give_from_isr(s, &woken), RTIPC_OK);
    assert_int_equal(rtipc_sem_give_from_isr(s, NULL), RTIPC_EOVERFLOW);
    assert_int_equal(rtipc_sem_take_from_isr(s, &woken), RTIPC_OK);
    assert_false(woken);
    assert_int_equal((rtipc_sem_give)(s), RTIPC_OK);
    assert_int_equal(rtipc_sem_count(s), 1);
    assert_int_equal(rtipc_sem_delete(s), RTIPC_OK);
}

/* ---- notifications ------------------------------------------------------------ */

static void notify_paths(void **state)
{
    (void)state;
    rtipc_task_t *self = rtipc_task_current();
    assert_non_null(self);
    /* The handle points at the kernel's task. */
    assert_ptr_equal(*(TaskHandle_t *)(void *)self, xTaskGetCurrentTaskHandle());
    uint32_t v = 99;
    bool woken = false;
    assert_int_equal(rtipc_notify_give(NULL, 0), RTIPC_EINVAL);
    assert_int_equal(rtipc_notify_give(self, RTIPC_NOTIFY_SLOTS), RTIPC_EINVAL);
    assert_int_equal(rtipc_notify_give_from_isr(NULL, 0, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_notify_give_from_isr(self, RTIPC_NOTIFY_SLOTS, &woken), RTIPC_EINVAL);
    assert_int_equal(rtipc_notify_take(RTIPC_NOTIFY_SLOTS, true, &v, RTIPC_NO_WAIT), RTIPC_EINVAL);
    assert_int_equal(rtipc_notify_take(RTIPC_NOTIFY_SLOTS, true, &v, RTIPC_FOREVER), RTIPC_EINVAL);

    /* Nothing there: no wait (value 0), a timeout. */
    assert_int_equal(rtipc_notify_take(0, true, &v, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal(v, 0);
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_notify_take(0, true, NULL, SHORT), RTIPC_ETIMEDOUT);
    assert_true(since(t0) >= SHORT_NS - rtipc_tick_period_ns());

    /* Three gives: a decrementing take, then a clearing one. */
    assert_int_equal(rtipc_notify_give(self, 0), RTIPC_OK);
    assert_int_equal(rtipc_notify_give(self, 0), RTIPC_OK);
    assert_int_equal(rtipc_notify_give_from_isr(self, 0, &woken), RTIPC_OK);
    assert_false(woken); /* the task notified is the one running */
    assert_int_equal(rtipc_notify_take(0, false, &v, RTIPC_FOREVER), RTIPC_OK);
    assert_int_equal(v, 3);
    assert_int_equal(rtipc_notify_take(0, true, &v, RTIPC_FOREVER), RTIPC_OK);
    assert_int_equal(v, 2);
    assert_int_equal(rtipc_notify_take(0, true, NULL, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    /* Another slot is another kernel index. */
    assert_int_equal(rtipc_notify_give(self, 1), RTIPC_OK);
    assert_int_equal(ulTaskNotifyValueClearIndexed(NULL, 1, 0), 1);
    assert_int_equal(rtipc_notify_take(0, true, NULL, RTIPC_NO_WAIT), RTIPC_EWOULDBLOCK);
    assert_int_equal((rtipc_notify_take)(1, true, &v, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(v, 1);
}

/* A take that waits for ever is woken by a notification that leaves the
 * value 0 (no action): it waits on, as notify.h says, until a give. */
typedef struct {
    rtipc_task_t *target;
} notifier_t;

static void notifier(void *arg)
{
    notifier_t *n = arg;
    (void)rtipc_notify(n->target, 0, 0, RTIPC_NOTIFY_NO_ACTION, NULL);
    (void)rtipc_task_delay(rtipc_ms(5));
    (void)rtipc_notify_give(n->target, 0);
}

static void notify_take_waits_past_no_action(void **state)
{
    (void)state;
    notifier_t n = {rtipc_task_current()};
    rtipc_task_t *t = NULL;
    rtipc_task_config_t cfg = {.name = "notifier",
                               .priority = (unsigned)rtipc_task_priority(rtipc_task_current()),
                               .core = RTIPC_CORE_ANY,
                               .entry = notifier,
                               .arg = &n};
    assert_int_equal(rtipc_task_create(&cfg, &t), RTIPC_OK);
    uint32_t v = 0;
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_notify_take(0, true, &v, RTIPC_FOREVER), RTIPC_OK);
    assert_int_equal(v, 1);
    assert_true(since(t0) >= 5000000 - rtipc_tick_period_ns());
    assert_int_equal(rtipc_task_join(t), RTIPC_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(queue_paths),
        cmocka_unit_test(queue_isr_paths),
        cmocka_unit_test(queue_isr_woken),
        cmocka_unit_test(sem_paths),
        cmocka_unit_test(notify_paths),
        cmocka_unit_test(notify_take_waits_past_no_action),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
