/* Ready-list order and priority changes as the FreeRTOS kernel keeps them
 * (docs/design.md, "Ready-list order"): equal-priority tasks start in
 * creation order; a task whose priority changed goes to the end of its new
 * priority's list; a mutex holder giving back an inherited priority goes
 * behind the ready tasks of its base priority; a base-priority change of a
 * holder follows vTaskPrioritySet; a new task raised above its creator
 * preempts it at once.
 *
 * Everything runs on core 0 under SCHED_FIFO, so the kernel schedules these
 * tasks strictly by priority, one at a time, as a single-core FreeRTOS
 * would. The main thread is the controller, at a priority above every task;
 * it lets the tasks run by sleeping. Without SCHED_FIFO (or core 0) the
 * order is not defined and the program skips. Tasks append one letter to a
 * log when they run a step; the log is checked on the main thread. */

#include "test_support.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#define CONTROLLER_PRIO 20
/* Long enough for every ready task of core 0 to run to its next block. */
#define SETTLE_MS 30

/* Atomic letters: the tasks and the controller share no lock (the order is
 * the kernel's), so each letter is published on its own. */
#define LOG_MAX 63
static _Atomic char log_buf[LOG_MAX];
static atomic_int log_len;
static char log_copy[LOG_MAX + 1];

static void log_reset(void)
{
    for (int i = 0; i < LOG_MAX; ++i)
        atomic_store(&log_buf[i], 0);
    atomic_store(&log_len, 0);
}

static void note(char c)
{
    int i = atomic_fetch_add(&log_len, 1);
    if (i < LOG_MAX)
        atomic_store(&log_buf[i], c);
}

static const char *log_text(void)
{
    int n = 0;
    for (; n < LOG_MAX && (log_copy[n] = atomic_load(&log_buf[n])) != 0; ++n)
        ;
    log_copy[n] = 0;
    return log_copy;
}

static void settle(void) { rtipc_task_delay(rtipc_ms(SETTLE_MS)); }

static rtipc_task_t *spawn(const char *name, unsigned prio, rtipc_task_fn fn, void *arg)
{
    rtipc_task_config_t cfg = {.name = name, .priority = prio, .core = 0, .entry = fn, .arg = arg};
    rtipc_task_t *t = NULL;
    assert_int_equal(rtipc_task_create(&cfg, &t), RTIPC_OK);
    return t;
}

/* ---- creation order --------------------------------------------------------- */

static void note_name(void *arg) { note(*(const char *)arg); }

static void equal_priority_tasks_start_in_creation_order(void **state)
{
    (void)state;
    log_reset();
    static const char names[] = "ABCDE";
    rtipc_task_t *t[5];
    for (int i = 0; i < 5; ++i)
        t[i] = spawn("order", 5, note_name, (void *)&names[i]);
    assert_string_equal(log_text(), ""); /* none outranks the creator */
    settle();
    assert_string_equal(log_text(), "ABCDE");
    for (int i = 0; i < 5; ++i)
        join_task(t[i]);
}

/* ---- a ready task whose priority is lowered ------------------------------- */

/* Three tasks that log their names are created ready at prio[i] (the
 * controller outranks them all); task `which` is moved to priority `to`
 * while still ready, and `want` is the order they then run in. */
static void move_one_of_three_ready(const char *const name[3], const unsigned prio[3], int which, unsigned to,
                                    const char *want, rtipc_task_t *out[3])
{
    log_reset();
    for (int i = 0; i < 3; ++i)
        out[i] = spawn(name[i], prio[i], note_name, (void *)name[i]);
    assert_int_equal(rtipc_task_set_priority(out[which], to), RTIPC_OK);
    settle();
    assert_string_equal(log_text(), want);
}

static void lowered_ready_task_goes_to_the_end(void **state)
{
    (void)state;
    rtipc_task_t *t[6];
    /* C is ready, not running (the controller outranks it): lowered to 5 it
     * goes behind A and B, not in front of them. */
    move_one_of_three_ready((const char *const[]){"A", "B", "C"}, (const unsigned[]){5, 5, 7}, 2, 5, "ABC", &t[0]);
    /* Raised, a ready task goes to the end of its new list too. */
    move_one_of_three_ready((const char *const[]){"D", "E", "F"}, (const unsigned[]){3, 4, 3}, 0, 4, "EDF", &t[3]);
    for (int i = 0; i < 6; ++i)
        join_task(t[i]);
}

/* ---- a holder giving back an inherited priority ---------------------------- */

static rtipc_mutex_t *mx;
static rtipc_sem_t *go_low;

static void low_holder(void *arg)
{
    (void)arg;
    assert_int_equal(rtipc_mutex_lock(mx, RTIPC_FOREVER), RTIPC_OK);
    rtipc_sem_take(go_low, RTIPC_FOREVER);
    rtipc_mutex_unlock(mx); /* back to 3: behind B, which is ready at 3 */
    note('L');
}

static void high_waiter(void *arg)
{
    (void)arg;
    assert_int_equal(rtipc_mutex_lock(mx, RTIPC_FOREVER), RTIPC_OK);
    note('H');
    rtipc_mutex_unlock(mx);
}

static void disinherited_holder_goes_behind_its_base_peers(void **state)
{
    (void)state;
    log_reset();
    assert_int_equal(rtipc_mutex_create(false, &mx), RTIPC_OK);
    assert_int_equal(rtipc_sem_create_binary(&go_low), RTIPC_OK);
    rtipc_task_t *l = spawn("L", 3, low_holder, NULL);
    settle(); /* L holds the mutex and waits for go_low */
    rtipc_task_t *h = spawn("H", 6, high_waiter, NULL);
    settle(); /* H waits for the mutex: L runs at 6 */
    assert_int_equal(rtipc_task_effective_priority(l), 6);
    rtipc_task_t *b = spawn("B", 3, note_name, "B");
    assert_int_equal(rtipc_sem_give(go_low), RTIPC_OK);
    settle();
    assert_string_equal(log_text(), "HBL");
    join_task(l);
    join_task(h);
    join_task(b);
    assert_int_equal(rtipc_sem_delete(go_low), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(mx), RTIPC_OK);
}

/* ---- base-priority changes of a mutex holder -------------------------------- */

typedef struct {
    rtipc_sem_t *step;
    int eff_after_lower, base_after_lower, kernel_after_lower;
} self_lower_t;

static int kernel_fifo_priority(void)
{
    struct sched_param sp = {0};
    return sched_getparam(0, &sp) == 0 ? sp.sched_priority : -1;
}

static void lowers_itself_holding(void *arg)
{
    self_lower_t *o = arg;
    assert_int_equal(rtipc_mutex_lock(mx, RTIPC_FOREVER), RTIPC_OK);
    /* Nobody waits for the mutex: the new priority applies at once. */
    assert_int_equal(rtipc_task_set_priority(NULL, 2), RTIPC_OK);
    o->eff_after_lower = rtipc_task_effective_priority(rtipc_task_current());
    o->base_after_lower = rtipc_task_priority(rtipc_task_current());
    o->kernel_after_lower = kernel_fifo_priority();
    rtipc_mutex_unlock(mx);
}

static void holder_lowering_itself_applies_at_once(void **state)
{
    (void)state;
    assert_int_equal(rtipc_mutex_create(false, &mx), RTIPC_OK);
    self_lower_t o = {0};
    rtipc_task_t *t = spawn("lower", 5, lowers_itself_holding, &o);
    settle();
    assert_int_equal(o.eff_after_lower, 2);
    assert_int_equal(o.base_after_lower, 2);
    if (rtipc_sched_policy() == RTIPC_SCHED_FIFO)
        assert_int_equal(o.kernel_after_lower, RTIPC_FIFO_BASE + 2);
    join_task(t);
    assert_int_equal(rtipc_mutex_delete(mx), RTIPC_OK);
}

static void holder_waits(void *arg)
{
    (void)arg;
    assert_int_equal(rtipc_mutex_lock(mx, RTIPC_FOREVER), RTIPC_OK);
    rtipc_sem_take(go_low, RTIPC_FOREVER);
    rtipc_mutex_unlock(mx);
}

static void waiter_with_timeout(void *arg)
{
    int rc = rtipc_mutex_lock(mx, rtipc_ms(60));
    if (rc == RTIPC_OK)
        rtipc_mutex_unlock(mx);
    atomic_store((atomic_int *)arg, rc);
}

/* vTaskPrioritySet on a holder that inherits: the base always changes, the
 * effective priority only when the new base is above it; giving up the
 * inheritance (the waiter times out) then drops to the base. */
static void inheriting_holder_base_changes(void **state)
{
    (void)state;
    assert_int_equal(rtipc_mutex_create(false, &mx), RTIPC_OK);
    assert_int_equal(rtipc_sem_create_binary(&go_low), RTIPC_OK);
    rtipc_task_t *l = spawn("L", 2, holder_waits, NULL);
    settle();
    atomic_int rc = 12345;
    rtipc_task_t *h = spawn("H", 6, waiter_with_timeout, &rc);
    settle();
    assert_int_equal(rtipc_task_effective_priority(l), 6);
    assert_int_equal(rtipc_task_set_priority(l, 4), RTIPC_OK); /* below the inherited 6 */
    assert_int_equal(rtipc_task_priority(l), 4);
    assert_int_equal(rtipc_task_effective_priority(l), 6);
    assert_int_equal(rtipc_task_set_priority(l, 1), RTIPC_OK);
    assert_int_equal(rtipc_task_effective_priority(l), 6);
    rtipc_task_delay(rtipc_ms(100)); /* H times out */
    assert_int_equal(atomic_load(&rc), RTIPC_ETIMEDOUT);
    assert_int_equal(rtipc_task_effective_priority(l), 1);
    /* A new base above the inherited priority raises the effective one. */
    atomic_store(&rc, 12345);
    rtipc_task_t *h2 = spawn("H2", 6, waiter_with_timeout, &rc);
    settle();
    assert_int_equal(rtipc_task_effective_priority(l), 6);
    assert_int_equal(rtipc_task_set_priority(l, 8), RTIPC_OK);
    assert_int_equal(rtipc_task_effective_priority(l), 8);
    assert_int_equal(rtipc_sem_give(go_low), RTIPC_OK);
    settle();
    assert_int_equal(atomic_load(&rc), RTIPC_OK);
    join_task(l);
    join_task(h);
    join_task(h2);
    assert_int_equal(rtipc_sem_delete(go_low), RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(mx), RTIPC_OK);
}

/* ---- a new task raised above its creator ------------------------------------ */

static void raised_new_task_preempts_its_creator(void **state)
{
    (void)state;
    log_reset();
    rtipc_task_t *t = spawn("T", 5, note_name, "T");
    assert_string_equal(log_text(), "");
    /* It has not run yet; raised above the controller it runs now, before
     * the call returns. */
    assert_int_equal(rtipc_task_set_priority(t, CONTROLLER_PRIO + 1), RTIPC_OK);
    note('c');
    assert_string_equal(log_text(), "Tc");
    join_task(t);
    /* Created above its creator, a task runs before rtipc_task_create returns. */
    log_reset();
    t = spawn("U", CONTROLLER_PRIO + 1, note_name, "U");
    note('c');
    assert_string_equal(log_text(), "Uc");
    join_task(t);
}

/* ---- a task deleted before it ran ---------------------------------------------- */

static void task_deleted_before_it_ran_never_runs(void **state)
{
    (void)state;
    log_reset();
    rtipc_task_t *t = spawn("T", 5, note_name, "T");
    assert_int_equal(rtipc_task_delete(t), RTIPC_OK);
    settle();
    assert_string_equal(log_text(), "");
}

/* ---- the handle of a task that runs at once ------------------------------------ */

static rtipc_task_t *_Atomic seen_own;
static rtipc_task_t *own_handle;

static void reads_own_handle(void *arg)
{
    (void)arg;
    /* rtipc_task_create has not returned yet, but *out is written. */
    atomic_store(&seen_own, own_handle);
}

static void handle_is_stored_before_a_new_task_runs(void **state)
{
    (void)state;
    atomic_store(&seen_own, NULL);
    own_handle = NULL;
    rtipc_task_config_t cfg = {.name = "own", .priority = CONTROLLER_PRIO + 1, .core = 0, .entry = reads_own_handle};
    assert_int_equal(rtipc_task_create(&cfg, &own_handle), RTIPC_OK);
    assert_non_null(own_handle);
    assert_ptr_equal(atomic_load(&seen_own), own_handle);
    join_task(own_handle);
}

/* The controller: pinned to core 0 at SCHED_FIFO CONTROLLER_PRIO (its rtipc
 * priority as an adopted thread). */
static int setup(void **state)
{
    (void)state;
    if (rtipc_sched_policy() != RTIPC_SCHED_FIFO) {
        print_message("skipped: needs SCHED_FIFO (%s)\n", rtipc_sched_policy_describe());
        return -1;
    }
    struct sched_param sp = {.sched_priority = RTIPC_FIFO_BASE + CONTROLLER_PRIO};
    if (pin_self_to_cpu(0) != 0 || pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) != 0) {
        print_message("skipped: cannot run the controller on core 0 under SCHED_FIFO\n");
        return -1;
    }
    if (rtipc_task_effective_priority(rtipc_task_current()) != CONTROLLER_PRIO)
        return -1;
    return 0;
}

int main(void)
{
    if (setup(NULL) != 0)
        return 77; /* skipped (CTest SKIP_RETURN_CODE) */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(equal_priority_tasks_start_in_creation_order),
        cmocka_unit_test(lowered_ready_task_goes_to_the_end),
        cmocka_unit_test(disinherited_holder_goes_behind_its_base_peers),
        cmocka_unit_test(holder_lowering_itself_applies_at_once),
        cmocka_unit_test(inheriting_holder_base_changes),
        cmocka_unit_test(raised_new_task_preempts_its_creator),
        cmocka_unit_test(task_deleted_before_it_ran_never_runs),
        cmocka_unit_test(handle_is_stored_before_a_new_task_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
