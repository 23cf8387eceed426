/* Tasks: creation (name, priority, core pinning, stack), join, delete (of
 * another task and of oneself), the current task, delay, yield, priorities,
 * the scheduling policy and its SCHED_OTHER fallback, and every error path
 * of task.h.
 *
 * Tasks only record what they see; all assertions run on the main thread. */
#define _GNU_SOURCE /* sched_getcpu, pthread_getattr_np, CPU_* macros */

#include "test_support.h"
#include "test_timing.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if RTIPC_PORT_FREERTOS
#include "FreeRTOS.h"
#include "task.h"
/* Single-core kernels before V11 do not know it. */
#ifndef configNUMBER_OF_CORES
#define configNUMBER_OF_CORES 1
#endif
#endif

extern char **environ;

static void set_flag(int *flag, int v) { __atomic_store_n(flag, v, __ATOMIC_RELEASE); }
static int get_flag(const int *flag) { return __atomic_load_n(flag, __ATOMIC_ACQUIRE); }

static int create(const char *name, unsigned priority, int core, rtipc_task_fn fn, void *arg, rtipc_task_t **out)
{
    rtipc_task_config_t cfg = {.name = name, .priority = priority, .core = core, .entry = fn, .arg = arg};
    return rtipc_task_create(&cfg, out);
}

static void noop(void *arg) { (void)arg; }

/* A body that stays alive until notified: queries of a task that has ended
 * are refused, so tests that query a task keep it running. */
static void until_notified(void *arg)
{
    (void)arg;
    rtipc_notify_take(0, true, NULL, RTIPC_FOREVER);
}

/* Let a task running until_notified end, and join it. */
static void release_and_join(rtipc_task_t *t)
{
    assert_int_equal(rtipc_notify_give(t, 0), RTIPC_OK);
    join_task(t);
}

/* Whether the thread with kernel id tid still exists in this process. */
static int thread_alive(long tid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%ld", tid);
    struct stat st;
    return stat(path, &st) == 0;
}

/* Poll until thread tid has gone (up to ms milliseconds). */
static int wait_thread_gone(long tid, unsigned ms)
{
    for (unsigned i = 0; i < ms; ++i) {
        if (!thread_alive(tid))
            return 1;
        sleep_ms(1);
    }
    return !thread_alive(tid);
}

/* ---- creation and pinning ------------------------------------------------ */

typedef struct {
    int expect_core;  /* RTIPC_CORE_ANY or the core */
    int runs;         /* how many times it sampled its cpu */
    int off_core;     /* samples not on expect_core */
    int cpu_count;    /* CPUs in its affinity mask */
    int has_core;     /* its mask contains expect_core */
    rtipc_task_t *self;
    rtipc_task_t *self_again;
    int core_seen;    /* rtipc_task_core(self) from inside */
    int prio_seen;
} pin_obs_t;

static void pinned_body(void *arg)
{
    pin_obs_t *o = arg;
    o->self = rtipc_task_current();
    for (int i = 0; i < 40; ++i) {
        int cpu = sched_getcpu();
        if (o->expect_core != RTIPC_CORE_ANY && cpu != o->expect_core)
            ++o->off_core;
        ++o->runs;
        if (i % 8 == 7)
            rtipc_task_delay(rtipc_ms(1)); /* give the scheduler chances to migrate it */
        else
            rtipc_task_yield();
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        o->cpu_count = CPU_COUNT(&set);
        o->has_core = o->expect_core >= 0 && CPU_ISSET(o->expect_core, &set);
    }
    o->self_again = rtipc_task_current();
    o->core_seen = rtipc_task_core(o->self);
    o->prio_seen = rtipc_task_priority(o->self);
}

static void create_pinned_runs_on_its_core(void **state)
{
    (void)state;
    int cores = rtipc_core_count();
    int tried = 0;
    for (int c = 0; c < cores && c < 4; ++c) {
        pin_obs_t o;
        memset(&o, 0, sizeof o);
        o.expect_core = c;
        char name[16];
        snprintf(name, sizeof name, "pin%d", c);
        rtipc_task_t *t = NULL;
        int rc = create(name, 3, c, pinned_body, &o, &t);
        if (rc == RTIPC_EINVAL)
            continue; /* online but outside our affinity mask */
        assert_int_equal(rc, RTIPC_OK);
        assert_non_null(t);
        ++tried;
        assert_string_equal(rtipc_task_name(t), name);
        assert_int_equal(rtipc_task_priority(t), 3);
        assert_int_equal(rtipc_task_core(t), c);
        join_task(t);
        assert_int_equal(o.runs, 40);
        if (!RTIPC_PORT_FREERTOS) /* the simulator's host CPU is not a simulated core */
            assert_int_equal(o.off_core, 0);
        if (!RTIPC_PORT_FREERTOS) { /* the kernel pins it, not the host's affinity mask */
            assert_int_equal(o.cpu_count, 1);
            assert_int_equal(o.has_core, 1);
        }
        assert_ptr_equal(o.self, t);
        assert_ptr_equal(o.self_again, t);
        assert_int_equal(o.core_seen, c);
        assert_int_equal(o.prio_seen, 3);
    }
    assert_true(tried >= 1);
}

static void create_unpinned(void **state)
{
    (void)state;
    cpu_set_t mine;
    CPU_ZERO(&mine);
    assert_int_equal(sched_getaffinity(0, sizeof mine, &mine), 0);
    pin_obs_t o;
    memset(&o, 0, sizeof o);
    o.expect_core = RTIPC_CORE_ANY;
    rtipc_task_t *t = NULL;
    assert_int_equal(create("any", 0, RTIPC_CORE_ANY, pinned_body, &o, &t), RTIPC_OK);
    assert_int_equal(rtipc_task_core(t), RTIPC_CORE_ANY);
    join_task(t);
    assert_int_equal(o.runs, 40);
    if (!RTIPC_PORT_FREERTOS)
        assert_int_equal(o.cpu_count, CPU_COUNT(&mine)); /* not narrowed */
    assert_ptr_equal(o.self, t);
    assert_int_equal(o.core_seen, RTIPC_CORE_ANY);
    assert_int_equal(o.prio_seen, 0);
}

static void create_invalid(void **state)
{
    (void)state;
    rtipc_task_t *t = NULL;
    rtipc_task_config_t cfg = {.name = "bad", .priority = 1, .core = RTIPC_CORE_ANY, .entry = noop};
    assert_int_equal(rtipc_task_create(NULL, &t), RTIPC_EINVAL);
    assert_int_equal(rtipc_task_create(&cfg, NULL), RTIPC_EINVAL);
    assert_int_equal(create("bad", 1, RTIPC_CORE_ANY, NULL, NULL, &t), RTIPC_EINVAL);
    assert_int_equal(create("bad", RTIPC_PRIORITY_LEVELS, RTIPC_CORE_ANY, noop, NULL, &t), RTIPC_EINVAL);
    assert_int_equal(create("bad", RTIPC_PRIORITY_LEVELS + 7, RTIPC_CORE_ANY, noop, NULL, &t), RTIPC_EINVAL);
    assert_int_equal(create("bad", UINT_MAX, RTIPC_CORE_ANY, noop, NULL, &t), RTIPC_EINVAL);
    const int bad_cores[] = {-2, INT_MIN, rtipc_core_count(), rtipc_core_count() + 1, CPU_SETSIZE, INT_MAX};
    for (size_t i = 0; i < sizeof bad_cores / sizeof bad_cores[0]; ++i)
        assert_int_equal(create("bad", 1, bad_cores[i], noop, NULL, &t), RTIPC_EINVAL);
    /* The highest priority is valid. */
    assert_int_equal(create("top", RTIPC_PRIORITY_LEVELS - 1, RTIPC_CORE_ANY, until_notified, NULL, &t), RTIPC_OK);
    assert_int_equal(rtipc_task_priority(t), RTIPC_PRIORITY_LEVELS - 1);
    release_and_join(t);
}

typedef struct {
    size_t stack;
    int got;
} stack_obs_t;

/* Room a task's own frames use on its stack before it measures it. */
#define STACK_USED_MAX (8 * 1024)
/* Room the simulator's port keeps at the top of a task's stack for its own
 * record of the host thread. */
#define PORT_RECORD_MAX 256

static void stack_body(void *arg)
{
    stack_obs_t *o = arg;
#if RTIPC_PORT_FREERTOS
    /* The kernel's stack, not the host thread's. The simulator's port runs
     * the host thread on that stack (V10.5.1) or on a stack of its own
     * (V11.3.0). In the first case the host thread's stack ends at the top
     * of the kernel's, below the port's own record, and the distance from
     * the kernel's base is the size; the high-water mark is not, for a
     * signal handler's frame (the tick's, with the CPU's vector state) lands
     * there at any moment and can take kilobytes. In the second the kernel's
     * stack is untouched but for the port's first frame, and what is still
     * free of it is a little less than its size. */
    TaskStatus_t st;
    vTaskGetInfo(NULL, &st, pdFALSE, eRunning); /* the base; the mark only where it is used */
    const uintptr_t base = (uintptr_t)st.pxStackBase;
    pthread_attr_t host;
    void *host_lo = NULL;
    size_t host_size = 0;
    if (pthread_getattr_np(pthread_self(), &host) != 0)
        return; /* o->got stays 0: the test fails */
    const int have = pthread_attr_getstack(&host, &host_lo, &host_size) == 0;
    pthread_attr_destroy(&host);
    if (!have)
        return;
    if ((uintptr_t)host_lo <= base && base < (uintptr_t)host_lo + host_size)
        o->stack = (uintptr_t)host_lo + host_size - base + PORT_RECORD_MAX;
    else
        o->stack = (size_t)uxTaskGetStackHighWaterMark(NULL) * sizeof(StackType_t) + STACK_USED_MAX;
    o->got = 1;
    return;
#endif
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        size_t size = 0;
        if (pthread_attr_getstacksize(&attr, &size) == 0) {
            o->stack = size;
            o->got = 1;
        }
        pthread_attr_destroy(&attr);
    }
}

static void create_stack_size(void **state)
{
    (void)state;
    const size_t asked[] = {0, 1, 16 * 1024, 1024 * 1024};
    for (size_t i = 0; i < sizeof asked / sizeof asked[0]; ++i) {
        stack_obs_t o = {0, 0};
        rtipc_task_config_t cfg = {.name = "stack", .core = RTIPC_CORE_ANY, .stack_size = asked[i],
                                   .entry = stack_body, .arg = &o};
        rtipc_task_t *t = NULL;
#if RTIPC_PORT_FREERTOS
        if (asked[i] / sizeof(StackType_t) > (size_t)(configSTACK_DEPTH_TYPE)-1) {
            /* task.h, Port notes: the kernel's depth type cannot say it. */
            assert_int_equal(rtipc_task_create(&cfg, &t), RTIPC_ENOMEM);
            continue;
        }
#endif
        assert_int_equal(rtipc_task_create(&cfg, &t), RTIPC_OK);
        join_task(t);
        assert_int_equal(o.got, 1);
#if RTIPC_PORT_FREERTOS
        /* task.h, Port notes: at least configMINIMAL_STACK_SIZE words. */
        assert_true(o.stack >= (size_t)configMINIMAL_STACK_SIZE * sizeof(StackType_t));
#else
        assert_true(o.stack >= 64 * 1024); /* raised to the minimum */
#endif
        assert_true(o.stack >= asked[i]);
    }
}

/* A stack no machine can map: the OS refuses the thread. */
static void create_refused_by_os(void **state)
{
    (void)state;
    rtipc_task_config_t cfg = {.name = "huge", .core = RTIPC_CORE_ANY, .stack_size = (size_t)1 << 46, .entry = noop};
    rtipc_task_t *t = NULL;
    int rc = rtipc_task_create(&cfg, &t);
    if (rc == RTIPC_OK) {
        join_task(t);
        skip(); /* the machine mapped 64 TiB of stack: nothing to check */
    }
    assert_true(rc == RTIPC_ENOMEM || rc == RTIPC_ESYSTEM);
    /* Still fine afterwards. */
    assert_int_equal(create("after", 1, RTIPC_CORE_ANY, noop, NULL, &t), RTIPC_OK);
    join_task(t);
}

static void name_truncated(void **state)
{
    (void)state;
    struct {
        const char *given;
        const char *kept;
    } cases[] = {
        {"abcdefghijklmnopqrstuvwxyz", "abcdefghijklmno"},
        {"0123456789abcdef", "0123456789abcde"},
        {"0123456789abcde", "0123456789abcde"},
        {"x", "x"},
        {NULL, "task"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        rtipc_task_t *t = NULL;
        assert_int_equal(create(cases[i].given, 1, RTIPC_CORE_ANY, until_notified, NULL, &t), RTIPC_OK);
        const char *name = rtipc_task_name(t);
        assert_non_null(name);
        assert_string_equal(name, cases[i].kept);
        assert_true(strlen(name) <= 15);
        release_and_join(t);
    }
    assert_null(rtipc_task_name(NULL));
}

static void core_count(void **state)
{
    (void)state;
    int n = rtipc_core_count();
    assert_true(n >= 1);
    long online = RTIPC_PORT_FREERTOS ? 0 : sysconf(_SC_NPROCESSORS_ONLN);
    if (online > 0)
        assert_int_equal(n, online);
#if RTIPC_PORT_FREERTOS
    assert_int_equal(n, configNUMBER_OF_CORES); /* task.h, Port notes */
#endif
    assert_int_equal(rtipc_task_core(NULL), RTIPC_EINVAL);
}

/* ---- join ---------------------------------------------------------------- */

typedef struct {
    int done;
} join_obs_t;

static void slow_body(void *arg)
{
    join_obs_t *o = arg;
    rtipc_task_delay(rtipc_ms(100));
    set_flag(&o->done, 1);
}

static void join_waits_and_releases(void **state)
{
    (void)state;
    join_obs_t o = {0};
    rtipc_task_t *t = NULL;
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(create("slow", TIMING_PRIO, RTIPC_CORE_ANY, slow_body, &o, &t), RTIPC_OK);
    assert_int_equal(rtipc_task_join(t), RTIPC_OK);
    int64_t dt = rtipc_time_ns() - t0;
    assert_int_equal(get_flag(&o.done), 1);
    assert_elapsed(dt, 100 * MS);
    /* Released: the handle is no longer a live task. */
    assert_int_equal(rtipc_task_priority(t), RTIPC_EINVAL);
    assert_int_equal(rtipc_task_effective_priority(t), RTIPC_EINVAL);
    assert_null(rtipc_task_name(t));
    assert_int_equal(rtipc_task_core(t), RTIPC_EINVAL);
    assert_int_equal(rtipc_task_join(t), RTIPC_EINVAL);
    assert_int_equal(rtipc_task_delete(t), RTIPC_EINVAL);
    /* The next task reuses the descriptor, under a new handle: the old one
     * still names nothing (handles carry a generation). */
    rtipc_task_t *t2 = NULL;
    assert_int_equal(create("next", 2, RTIPC_CORE_ANY, noop, NULL, &t2), RTIPC_OK);
    assert_ptr_not_equal(t2, t);
    assert_int_equal(rtipc_task_priority(t), RTIPC_EINVAL);
    assert_int_equal(rtipc_task_join(t), RTIPC_EINVAL);
    join_task(t2);
}

static void join_finished_task(void **state)
{
    (void)state;
    rtipc_task_t *t = NULL;
    assert_int_equal(create("quick", 2, RTIPC_CORE_ANY, noop, NULL, &t), RTIPC_OK);
    sleep_ms(20); /* it has returned long ago */
    assert_int_equal(rtipc_task_join(t), RTIPC_OK);
}

static void join_invalid(void **state)
{
    (void)state;
    assert_int_equal(rtipc_task_join(NULL), RTIPC_EINVAL);
    /* The main thread was not created by rtipc_task_create. */
    assert_int_equal(rtipc_task_join(rtipc_task_current()), RTIPC_EINVAL);
}

typedef struct {
    int rc_join_self;
    int rc_delete_main;
    rtipc_task_t *main_task;
} self_join_obs_t;

static void join_self_body(void *arg)
{
    self_join_obs_t *o = arg;
    o->rc_join_self = rtipc_task_join(rtipc_task_current());
    o->rc_delete_main = rtipc_task_delete(o->main_task);
}

static void join_self_is_deadlock(void **state)
{
    (void)state;
    self_join_obs_t o = {12345, 12345, rtipc_task_current()};
    rtipc_task_t *t = NULL;
    assert_int_equal(create("selfjoin", 2, RTIPC_CORE_ANY, join_self_body, &o, &t), RTIPC_OK);
    join_task(t);
    assert_int_equal(o.rc_join_self, RTIPC_EDEADLOCK);
    /* Deleting an adopted thread (main) from another task is refused. */
    assert_int_equal(o.rc_delete_main, RTIPC_EINVAL);
}

/* ---- the current task ------------------------------------------------------ */

typedef struct {
    rtipc_task_t *seen;
    rtipc_task_t *seen_again;
    char name[16];
    int prio;
    int core;
    int done;
} foreign_obs_t;

/* The priority rtipc derives for a thread it adopts, given this thread's
 * scheduling (a new pthread inherits it): SCHED_FIFO priority minus
 * RTIPC_FIFO_BASE, clamped, or 0 under other policies. */
static int adopted_priority(void)
{
    int policy;
    struct sched_param sp;
    if (pthread_getschedparam(pthread_self(), &policy, &sp) != 0 || policy != SCHED_FIFO)
        return 0;
    int p = sp.sched_priority - RTIPC_FIFO_BASE;
    return p < 0 ? 0 : p >= RTIPC_PRIORITY_LEVELS ? RTIPC_PRIORITY_LEVELS - 1 : p;
}

/* What a thread rtipc did not create sees of itself. */
static void observe_self(foreign_obs_t *o)
{
    o->seen = rtipc_task_current();
    o->seen_again = rtipc_task_current();
    const char *n = rtipc_task_name(o->seen);
    snprintf(o->name, sizeof o->name, "%s", n ? n : "(null)");
    o->prio = rtipc_task_priority(o->seen);
    o->core = rtipc_task_core(o->seen);
}

static void *foreign_thread(void *arg)
{
    observe_self(arg);
    return NULL;
}

#if RTIPC_PORT_FREERTOS
/* A FreeRTOS task rtipc did not create: adopted on its first rtipc call, it
 * ends through rtipc_task_delete(NULL), which releases what adoption made. */
static void foreign_kernel_task(void *arg)
{
    foreign_obs_t *o = arg;
    observe_self(o);
    __atomic_store_n(&o->done, 1, __ATOMIC_RELEASE);
    rtipc_task_delete(NULL);
}

/* task.h, Port notes: an adopted FreeRTOS task keeps its kernel name and
 * priority. */
static void current_in_main_and_foreign_kernel_tasks(void)
{
    rtipc_task_t *me = rtipc_task_current();
    assert_non_null(me);
    assert_ptr_equal(rtipc_task_current(), me);
    assert_string_equal(rtipc_task_name(me), pcTaskGetName(NULL));
    assert_int_equal(rtipc_task_priority(me), (int)uxTaskPriorityGet(NULL));
    assert_int_equal(rtipc_task_core(me), RTIPC_CORE_ANY);

    static foreign_obs_t o;
    memset(&o, 0, sizeof o);
    assert_int_equal(xTaskCreate(foreign_kernel_task, "kern", 4096, &o, 2, NULL), pdPASS);
    assert_true(wait_for_flag(&o.done, 1, 5000));
    sleep_ms(2); /* the idle task frees the deleted task */
    assert_non_null(o.seen);
    assert_ptr_equal(o.seen, o.seen_again);
    assert_ptr_not_equal(o.seen, me);
    assert_string_equal(o.name, "kern");
    assert_int_equal(o.prio, 2);
    assert_int_equal(o.core, RTIPC_CORE_ANY);
    assert_null(rtipc_task_name(o.seen)); /* it has ended: refused */
    assert_int_equal(rtipc_task_priority(o.seen), RTIPC_EINVAL);
}
#endif

static void current_in_main_and_foreign_threads(void **state)
{
    (void)state;
#if RTIPC_PORT_FREERTOS
    current_in_main_and_foreign_kernel_tasks();
    return;
#endif
    rtipc_task_t *me = rtipc_task_current();
    assert_non_null(me);
    assert_ptr_equal(rtipc_task_current(), me);
    assert_int_equal(strncmp(rtipc_task_name(me), "thread-", 7), 0);
    assert_int_equal(rtipc_task_priority(me), adopted_priority());
    assert_int_equal(rtipc_task_core(me), RTIPC_CORE_ANY);

    foreign_obs_t o;
    memset(&o, 0, sizeof o);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, foreign_thread, &o), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_non_null(o.seen);
    assert_ptr_equal(o.seen, o.seen_again);
    assert_ptr_not_equal(o.seen, me);
    assert_int_equal(strncmp(o.name, "thread-", 7), 0);
    assert_int_equal(o.prio, adopted_priority()); /* derived like main's */
    assert_int_equal(o.core, RTIPC_CORE_ANY);
}

/* ---- delay and yield ------------------------------------------------------- */

typedef struct {
    int rc;
    int64_t elapsed;
    int rc_yield;
    int rc_no_wait;
    int64_t elapsed_no_wait;
} delay_obs_t;

static void delay_body(void *arg)
{
    delay_obs_t *o = arg;
    int64_t t0 = rtipc_time_ns();
    o->rc = rtipc_task_delay(rtipc_ms(60));
    o->elapsed = rtipc_time_ns() - t0;
    o->rc_yield = rtipc_task_yield();
    t0 = rtipc_time_ns();
    o->rc_no_wait = rtipc_task_delay(RTIPC_NO_WAIT);
    o->elapsed_no_wait = rtipc_time_ns() - t0;
}

static void delay_sleeps_about_the_time(void **state)
{
    (void)state;
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_task_delay(rtipc_ms(100)), RTIPC_OK);
    assert_elapsed(rtipc_time_ns() - t0, 100 * MS);

    t0 = rtipc_time_ns();
    assert_int_equal(rtipc_task_delay(RTIPC_NO_WAIT), RTIPC_OK);
    assert_elapsed(rtipc_time_ns() - t0, 0);
    assert_int_equal(rtipc_task_delay(rtipc_ns(-5)), RTIPC_OK);

    delay_obs_t o = {12345, 0, 12345, 12345, 0};
    rtipc_task_t *t = NULL;
    assert_int_equal(create("delay", TIMING_PRIO, test_core(1), delay_body, &o, &t), RTIPC_OK);
    join_task(t);
    assert_int_equal(o.rc, RTIPC_OK);
    assert_elapsed(o.elapsed, 60 * MS);
    assert_int_equal(o.rc_yield, RTIPC_OK);
    assert_int_equal(o.rc_no_wait, RTIPC_OK);
    assert_elapsed(o.elapsed_no_wait, 0);
    assert_int_equal(rtipc_task_yield(), RTIPC_OK);
}

/* ---- delete ---------------------------------------------------------------- */

typedef struct {
    rtipc_queue_t *q;
    int started;
    int after;  /* set if the blocking call ever returned */
    int rc;
    int item;
} victim_obs_t;

static void victim_queue(void *arg)
{
    victim_obs_t *o = arg;
    set_flag(&o->started, 1);
    o->rc = rtipc_queue_receive(o->q, &o->item, RTIPC_FOREVER);
    set_flag(&o->after, 1);
}

static void victim_delay(void *arg)
{
    victim_obs_t *o = arg;
    set_flag(&o->started, 1);
    o->rc = rtipc_task_delay(RTIPC_FOREVER);
    set_flag(&o->after, 1);
}

static void victim_notify(void *arg)
{
    victim_obs_t *o = arg;
    set_flag(&o->started, 1);
    uint32_t v = 0;
    o->rc = rtipc_notify_take(0, true, &v, RTIPC_FOREVER);
    set_flag(&o->after, 1);
}

static void delete_blocked_on_queue(void **state)
{
    (void)state;
    victim_obs_t o;
    memset(&o, 0, sizeof o);
    o.rc = 12345;
    assert_int_equal(rtipc_queue_create(1, sizeof(int), &o.q), RTIPC_OK);
    rtipc_task_t *t = NULL;
    assert_int_equal(create("victim", TIMING_PRIO, test_core(0), victim_queue, &o, &t), RTIPC_OK);
    assert_true(wait_for_flag(&o.started, 1, 10000));
    sleep_ms(50); /* blocked in the receive by now */
    int64_t t0 = rtipc_time_ns();
    assert_int_equal(rtipc_task_delete(t), RTIPC_OK);
    assert_elapsed(rtipc_time_ns() - t0, 0);
    assert_int_equal(get_flag(&o.after), 0); /* the receive never returned */
    assert_int_equal(o.rc, 12345);
    /* It left no waiter behind and took nothing: an item sent now stays. */
    int item = 42;
    assert_int_equal(rtipc_queue_send(o.q, &item, RTIPC_NO_WAIT), RTIPC_OK);
    sleep_ms(20);
    assert_int_equal(rtipc_queue_messages_waiting(o.q), 1);
    item = 0;
    assert_int_equal(rtipc_queue_receive(o.q, &item, RTIPC_NO_WAIT), RTIPC_OK);
    assert_int_equal(item, 42);
    assert_int_equal(o.item, 0);
    assert_int_equal(rtipc_queue_delete(o.q), RTIPC_OK); /* not EBUSY: no waiter left */
    /* Released: the handle is dead. */
    assert_int_equal(rtipc_task_priority(t), RTIPC_EINVAL);
    assert_int_equal(rtipc_task_delete(t), RTIPC_EINVAL);
}

static void delete_blocked_in_delay_and_take(void **state)
{
    (void)state;
    rtipc_task_fn bodies[] = {victim_delay, victim_notify};
    for (size_t i = 0; i < 2; ++i) {
        victim_obs_t o;
        memset(&o, 0, sizeof o);
        o.rc = 12345;
        rtipc_task_t *t = NULL;
        assert_int_equal(create("victim", TIMING_PRIO, RTIPC_CORE_ANY, bodies[i], &o, &t), RTIPC_OK);
        assert_true(wait_for_flag(&o.started, 1, 10000));
        sleep_ms(30);
        int64_t t0 = rtipc_time_ns();
        assert_int_equal(rtipc_task_delete(t), RTIPC_OK);
        assert_elapsed(rtipc_time_ns() - t0, 0);
        assert_int_equal(get_flag(&o.after), 0);
        assert_int_equal(o.rc, 12345);
    }
}

static void delete_finished_task(void **state)
{
    (void)state;
    rtipc_task_t *t = NULL;
    assert_int_equal(create("done", 3, RTIPC_CORE_ANY, noop, NULL, &t), RTIPC_OK);
    sleep_ms(20);
    assert_int_equal(rtipc_task_delete(t), RTIPC_OK);
    assert_int_equal(rtipc_task_priority(t), RTIPC_EINVAL);
}

typedef struct {
    int use_handle; /* delete(current) rather than delete(NULL) */
    int before;
    int after;
    long tid;
} self_del_obs_t;

static void self_deleting(void *arg)
{
    self_del_obs_t *o = arg;
    o->tid = (long)syscall(SYS_gettid);
    set_flag(&o->before, 1);
    /* Let rtipc_task_create return first: it still names the thread after
     * starting it, which races with a task that ends at once (see the
     * report on task.c). */
    rtipc_task_delay(rtipc_ms(10));
    rtipc_task_delete(o->use_handle ? rtipc_task_current() : NULL);
    set_flag(&o->after, 1); /* never runs */
}

#if !RTIPC_PORT_FREERTOS
static void *foreign_self_deleting(void *arg)
{
    self_del_obs_t *o = arg;
    o->tid = (long)syscall(SYS_gettid);
    if (rtipc_task_current() == NULL) /* adopt it */
        return NULL;
    set_flag(&o->before, 1);
    rtipc_task_delete(NULL);
    set_flag(&o->after, 1); /* never runs */
    return NULL;
}
#endif

#if RTIPC_PORT_FREERTOS
/* The FreeRTOS form of a foreign thread: a kernel task rtipc did not create. */
static void foreign_kernel_self_deleting(void *arg)
{
    self_del_obs_t *o = arg;
    if (rtipc_task_current() == NULL) { /* adopt it */
        vTaskDelete(NULL);
        return;
    }
    set_flag(&o->before, 1);
    rtipc_task_delete(NULL);
    set_flag(&o->after, 1); /* never runs */
}
#endif

/* A task deleting itself while another task deletes it: exactly one of the
 * two releases the descriptor (the deleter joins, or finds the task gone and
 * gets RTIPC_EINVAL); never a join of a detached thread. The two sides sleep
 * for varying times first, so that each order and the overlap all occur. */
static void self_delete_after(void *arg)
{
    rtipc_task_delay(rtipc_us((uint32_t)(uintptr_t)arg));
    rtipc_task_delete(NULL);
}

static void self_delete_races_delete_by_another(void **state)
{
    (void)state;
    int joined = 0, gone = 0;
    for (int i = 0; i < 200; ++i) {
        rtipc_task_t *t = NULL;
        uintptr_t us = (uintptr_t)(i % 40);
        assert_int_equal(create("racer", 3, RTIPC_CORE_ANY, self_delete_after, (void *)us, &t), RTIPC_OK);
        rtipc_task_delay(rtipc_us((uint32_t)((i * 7) % 40)));
        int rc = rtipc_task_delete(t);
        assert_true(rc == RTIPC_OK || rc == RTIPC_EINVAL);
        if (rc == RTIPC_OK)
            joined++;
        else
            gone++;
        /* Let a self-deleted racer's exit hook return its descriptor before
         * the next one is created. */
        sleep_ms(1);
    }
    print_message("self-delete vs delete: deleter released %d, task released itself %d\n", joined, gone);
    assert_int_equal(joined + gone, 200);
}

static void self_delete_ends_task(void **state)
{
    (void)state;
    /* Static, one per task, never reused: nothing joins a self-deleted task,
     * so nothing orders its last accesses before a reuse of its record. */
    static self_del_obs_t obs[2] = {{0, 0, 0, 0}, {1, 0, 0, 0}};
    for (int use_handle = 0; use_handle < 2; ++use_handle) {
        self_del_obs_t *od = &obs[use_handle];
        rtipc_task_t *t = NULL;
        assert_int_equal(create("selfdel", 3, RTIPC_CORE_ANY, self_deleting, od, &t), RTIPC_OK);
        assert_true(wait_for_flag(&od->before, 1, 10000));
        assert_true(od->tid > 0);
        assert_true(wait_thread_gone(od->tid, 10000));
        assert_int_equal(get_flag(&od->after), 0);
        /* Released automatically (it must not be joined): its handle names
         * nothing any more, also once the next task has its descriptor. */
        assert_int_equal(rtipc_task_join(t), RTIPC_EINVAL);
        rtipc_task_t *next = NULL;
        assert_int_equal(create("next", 3, RTIPC_CORE_ANY, noop, NULL, &next), RTIPC_OK);
        assert_ptr_not_equal(next, t);
        assert_int_equal(rtipc_task_priority(t), RTIPC_EINVAL);
        assert_int_equal(rtipc_notify_give(t, 0), RTIPC_EINVAL);
        join_task(next);
    }
    /* An adopted thread may delete itself too: it ends, and its pthread can be
     * joined as usual. */
#if RTIPC_PORT_FREERTOS
    static self_del_obs_t o = {0, 0, 0, 0};
    assert_int_equal(xTaskCreate(foreign_kernel_self_deleting, "kern", 4096, &o, 3, NULL), pdPASS);
    assert_true(wait_for_flag(&o.before, 1, 5000));
    sleep_ms(5);
#else
    self_del_obs_t o = {0, 0, 0, 0};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, foreign_self_deleting, &o), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_int_equal(get_flag(&o.before), 1);
#endif
    assert_int_equal(get_flag(&o.after), 0);
}

/* ---- join and delete are deletion points ----------------------------------- */

/* Runs until told to stop, with no deletion point: only its own return ends
 * it; says when it has returned. */
typedef struct {
    int stop;
    int done;
} busy_t;

static void busy_until(void *arg)
{
    busy_t *b = arg;
    while (!get_flag(&b->stop))
        sleep_ms(1);
    set_flag(&b->done, 1);
}

typedef struct {
    rtipc_task_t *target;
    int started;
    int returned; /* the join or delete returned (it must not: it was deleted) */
    int rc;       /* what the join returned */
} waiter_obs_t;

static void joins_target(void *arg)
{
    waiter_obs_t *o = arg;
    set_flag(&o->started, 1);
    o->rc = rtipc_task_join(o->target);
    set_flag(&o->returned, 1);
}

static void deletes_target(void *arg)
{
    waiter_obs_t *o = arg;
    set_flag(&o->started, 1);
    rtipc_task_delete(o->target);
    set_flag(&o->returned, 1);
}

/* A task blocked in rtipc_task_join or rtipc_task_delete is deleted like a
 * task blocked anywhere else; the task it waited for is unaffected (a join
 * that was cut short can be done again by someone else). */
static void delete_blocked_in_join_or_delete(void **state)
{
    (void)state;
    static busy_t busy[2];
    for (int in_delete = 0; in_delete < 2; ++in_delete) {
        busy_t *bt = &busy[in_delete];
        rtipc_task_t *target = NULL;
        assert_int_equal(create("target", 2, RTIPC_CORE_ANY, busy_until, bt, &target), RTIPC_OK);
        waiter_obs_t o = {target, 0, 0, 0};
        rtipc_task_t *w = NULL;
        assert_int_equal(create("waiter", 2, RTIPC_CORE_ANY, in_delete ? deletes_target : joins_target, &o, &w),
                         RTIPC_OK);
        assert_true(wait_for_flag(&o.started, 1, 10000));
        sleep_ms(20); /* it is inside the join / delete now */
        if (RTIPC_PORT_FREERTOS && in_delete) {
            /* task.h, Port notes: the target ended at once, where it was, so
             * the delete did not wait; the deleter has returned. */
            assert_int_equal(get_flag(&o.returned), 1);
            assert_int_equal(rtipc_task_join(target), RTIPC_EINVAL);
            set_flag(&bt->stop, 1);
            sleep_ms(20);
            assert_int_equal(get_flag(&bt->done), 0);
            assert_int_equal(rtipc_task_delete(w), RTIPC_OK); /* ended, not joined yet: released */
            assert_int_equal(rtipc_task_join(w), RTIPC_EINVAL);
            continue;
        }
        int64_t t0 = rtipc_time_ns();
        assert_int_equal(rtipc_task_delete(w), RTIPC_OK);
        assert_true(rtipc_time_ns() - t0 < 2000 * MS);
        assert_int_equal(get_flag(&o.returned), 0);
        set_flag(&bt->stop, 1);
        if (in_delete) {
            /* The deleter was deleted itself: it closed the target's handle
             * (the target was being deleted); the target ends by itself. */
            assert_int_equal(rtipc_task_join(target), RTIPC_EINVAL);
            assert_true(wait_for_flag(&bt->done, 1, 10000));
        } else {
            assert_int_equal(rtipc_task_join(target), RTIPC_OK);
        }
    }
}

static void self_deletes_when_notified(void *arg)
{
    (void)arg;
    rtipc_notify_take(0, true, NULL, RTIPC_FOREVER);
    rtipc_task_delete(NULL);
}

/* One join per task: while a task joins it, a second join or a delete is
 * refused, and the first join still completes. A target that deletes itself
 * while joined ends the join. */
static void second_join_is_refused(void **state)
{
    (void)state;
    for (int self_delete = 0; self_delete < 2; ++self_delete) {
        rtipc_task_t *target = NULL;
        assert_int_equal(create("target", 2, RTIPC_CORE_ANY, self_delete ? self_deletes_when_notified : until_notified,
                                NULL, &target),
                         RTIPC_OK);
        static waiter_obs_t o;
        o = (waiter_obs_t){target, 0, 0, 12345};
        rtipc_task_t *j = NULL;
        assert_int_equal(create("joiner", 2, RTIPC_CORE_ANY, joins_target, &o, &j), RTIPC_OK);
        assert_true(wait_for_flag(&o.started, 1, 10000));
        sleep_ms(20); /* it waits in the join now */
        assert_int_equal(rtipc_task_join(target), RTIPC_EINVAL);
        assert_int_equal(rtipc_task_delete(target), RTIPC_EINVAL);
        assert_int_equal(rtipc_notify_give(target, 0), RTIPC_OK);
        assert_true(wait_for_flag(&o.returned, 1, 10000));
        assert_int_equal(o.rc, RTIPC_OK);
        assert_int_equal(rtipc_task_priority(target), RTIPC_EINVAL);
        join_task(j);
    }
}

typedef struct {
    rtipc_task_t *other;
    int *go;
    int started;
    int returned;
} mutual_t;

static void deletes_other_at_go(void *arg)
{
    mutual_t *m = arg;
    /* Polled outside rtipc (no deletion point): whichever is asked to end
     * first still goes on to delete the other. */
    struct timespec ts = {0, 20000};
    set_flag(&m->started, 1);
    while (!get_flag(m->go)) {
        if (RTIPC_PORT_FREERTOS)
            rtipc_task_delay(rtipc_ms(1)); /* one core: the main task sets go */
        else
            nanosleep(&ts, NULL);
    }
    rtipc_task_delete(m->other);
    set_flag(&m->returned, 1);
    rtipc_task_delay(RTIPC_FOREVER);
}

/* Two tasks that delete each other at the same moment both end. */
static void mutual_deletion_ends_both(void **state)
{
    (void)state;
    int cores = rtipc_core_count() >= 2 ? 2 : 1;
    /* One record per run, never reused: the tasks end unjoined. */
    enum { RUNS = 20 };
    static int gos[RUNS];
    static mutual_t pairs[RUNS][2];
    for (int run = 0; run < RUNS; ++run) {
        int *go = &gos[run];
        mutual_t *a = &pairs[run][0], *b = &pairs[run][1];
        a->go = b->go = go;
        rtipc_task_t *ta = NULL, *tb = NULL;
        assert_int_equal(create("mutual-a", 3, 0, deletes_other_at_go, a, &ta), RTIPC_OK);
        assert_int_equal(create("mutual-b", 3, cores - 1, deletes_other_at_go, b, &tb), RTIPC_OK);
        a->other = tb;
        b->other = ta;
        /* Both must be running: a task deleted before it ran never runs. */
        assert_true(wait_for_flag(&a->started, 1, 10000));
        assert_true(wait_for_flag(&b->started, 1, 10000));
        set_flag(go, 1);
        if (RTIPC_PORT_FREERTOS) {
            /* task.h, Port notes: the first to run ends the other at once,
             * before that one reached its own call; it returns, and lives
             * on until the main task deletes it. */
            sleep_ms(20);
            assert_int_equal(get_flag(&a->returned) + get_flag(&b->returned), 1);
            rtipc_task_t *survivor = get_flag(&a->returned) ? ta : tb;
            rtipc_task_t *ended = survivor == ta ? tb : ta;
            assert_int_equal(rtipc_task_priority(ended), RTIPC_EINVAL);
            assert_int_equal(rtipc_task_delete(ended), RTIPC_EINVAL);
            assert_int_equal(rtipc_task_priority(survivor), 3);
            assert_int_equal(rtipc_task_delete(survivor), RTIPC_OK);
            assert_int_equal(rtipc_task_priority(survivor), RTIPC_EINVAL);
            continue;
        }
        /* Both end: neither handle names a live task within a second. */
        int ended = 0;
        for (int i = 0; i < 1000 && !ended; ++i) {
            ended = rtipc_task_priority(ta) == RTIPC_EINVAL && rtipc_task_priority(tb) == RTIPC_EINVAL;
            if (!ended)
                sleep_ms(1);
        }
        if (!ended)
            fail_msg("run %d: two tasks deleting each other did not both end (priorities %d %d, returned %d %d)", run,
                     rtipc_task_priority(ta), rtipc_task_priority(tb), get_flag(&a->returned), get_flag(&b->returned));
        /* At most one of them saw the other end and returned. */
        assert_true(get_flag(&a->returned) + get_flag(&b->returned) <= 1);
        /* Whoever is still half-way is released when it ends: the handles
         * are closed or closing; deleting them now is refused or waits. */
        int ra = rtipc_task_delete(ta), rb = rtipc_task_delete(tb);
        assert_true(ra == RTIPC_EINVAL || ra == RTIPC_OK);
        assert_true(rb == RTIPC_EINVAL || rb == RTIPC_OK);
    }
}

/* ---- stale handles ------------------------------------------------------------ */

#if !RTIPC_PORT_FREERTOS
static void *foreign_takes_handle(void *arg)
{
    *(rtipc_task_t **)arg = rtipc_task_current();
    return NULL;
}
#endif

typedef struct {
    int given;
    uint32_t value;
} slot_obs_t;

static void reports_slot(void *arg)
{
    slot_obs_t *o = arg;
    uint32_t v = 0;
    o->given = rtipc_notify_take(0, true, &v, rtipc_ms(100)) == RTIPC_OK;
    o->value = v;
}

/* The handle of an ended task never reaches the task that reuses its
 * descriptor: a joined task's, and an adopted thread's once it exited. */
static void stale_handle_reaches_nobody(void **state)
{
    (void)state;
    rtipc_task_t *old = NULL;
    assert_int_equal(create("old", 2, RTIPC_CORE_ANY, noop, NULL, &old), RTIPC_OK);
    join_task(old);
    slot_obs_t o = {0, 0};
    rtipc_task_t *fresh = NULL;
    assert_int_equal(create("fresh", 2, RTIPC_CORE_ANY, reports_slot, &o, &fresh), RTIPC_OK);
    assert_int_equal(rtipc_notify_give(old, 0), RTIPC_EINVAL);
    assert_int_equal(rtipc_notify(old, 0, 1, RTIPC_NOTIFY_SET_BITS, NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_task_set_priority(old, 5), RTIPC_EINVAL);
    join_task(fresh);
    assert_int_equal(o.given, 0);
    assert_int_equal(rtipc_task_priority(fresh), RTIPC_EINVAL);

    /* An adopted thread's handle ends with the thread. */
    rtipc_task_t *adopted = NULL;
#if RTIPC_PORT_FREERTOS
    /* task.h, Port notes: an adopted FreeRTOS task ends through rtipc. */
    static foreign_obs_t fo;
    memset(&fo, 0, sizeof fo);
    assert_int_equal(xTaskCreate(foreign_kernel_task, "kern", 4096, &fo, 2, NULL), pdPASS);
    assert_true(wait_for_flag(&fo.done, 1, 5000));
    sleep_ms(2);
    adopted = fo.seen;
#else
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, foreign_takes_handle, &adopted), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
#endif
    assert_non_null(adopted);
    slot_obs_t o2 = {0, 0};
    rtipc_task_t *next = NULL;
    assert_int_equal(create("next", 2, RTIPC_CORE_ANY, reports_slot, &o2, &next), RTIPC_OK);
    assert_int_equal(rtipc_notify_give(adopted, 0), RTIPC_EINVAL);
    assert_int_equal(rtipc_task_priority(adopted), RTIPC_EINVAL);
    join_task(next);
    assert_int_equal(o2.given, 0);
}

/* ---- priorities ---------------------------------------------------------- */

typedef struct {
    int started;
    int rc_take;
    int kpolicy_created, kprio_created;   /* kernel view at start */
    int pt_policy, pt_prio;               /* pthread_getschedparam at start */
    int kpolicy_set, kprio_set;           /* after the main thread set 7 */
    int rc_set_self;
    int prio_self, eff_self;              /* after it set 9 on itself */
    int kpolicy_self, kprio_self;
} prio_obs_t;

static void kernel_sched(int *policy, int *prio)
{
#if RTIPC_PORT_FREERTOS
    /* The FreeRTOS kernel's view; the host thread's policy means nothing. */
    *policy = -1;
    *prio = (int)uxTaskPriorityGet(NULL);
#else
    struct sched_param sp = {0};
    *policy = sched_getscheduler(0);
    *prio = sched_getparam(0, &sp) == 0 ? sp.sched_priority : -1;
#endif
}

static void prio_body(void *arg)
{
    prio_obs_t *o = arg;
    kernel_sched(&o->kpolicy_created, &o->kprio_created);
    struct sched_param sp = {0};
    if (pthread_getschedparam(pthread_self(), &o->pt_policy, &sp) == 0)
        o->pt_prio = sp.sched_priority;
    set_flag(&o->started, 1);
    o->rc_take = rtipc_notify_take(0, true, NULL, rtipc_ms(5000)); /* the main thread's go */
    kernel_sched(&o->kpolicy_set, &o->kprio_set);
    o->rc_set_self = rtipc_task_set_priority(NULL, 9);
    o->prio_self = rtipc_task_priority(rtipc_task_current());
    o->eff_self = rtipc_task_effective_priority(rtipc_task_current());
    kernel_sched(&o->kpolicy_self, &o->kprio_self);
}

static void priorities(void **state)
{
    (void)state;
    prio_obs_t o;
    memset(&o, 0, sizeof o);
    o.rc_take = o.rc_set_self = 12345;
    rtipc_task_t *t = NULL;
    assert_int_equal(create("prio", 3, RTIPC_CORE_ANY, prio_body, &o, &t), RTIPC_OK);
    assert_int_equal(rtipc_task_priority(t), 3);
    assert_int_equal(rtipc_task_effective_priority(t), 3);
    assert_true(wait_for_flag(&o.started, 1, 10000));

    assert_int_equal(rtipc_task_set_priority(t, 7), RTIPC_OK);
    assert_int_equal(rtipc_task_priority(t), 7);
    assert_int_equal(rtipc_task_effective_priority(t), 7);
    assert_int_equal(rtipc_task_set_priority(t, RTIPC_PRIORITY_LEVELS), RTIPC_EINVAL);
    assert_int_equal(rtipc_task_set_priority(t, UINT_MAX), RTIPC_EINVAL);
    assert_int_equal(rtipc_task_priority(t), 7);
    assert_int_equal(rtipc_notify_give(t, 0), RTIPC_OK);
    join_task(t);

    assert_int_equal(o.rc_take, RTIPC_OK);
    assert_int_equal(o.rc_set_self, RTIPC_OK);
    assert_int_equal(o.prio_self, 9);
    assert_int_equal(o.eff_self, 9);
    if (RTIPC_PORT_FREERTOS) { /* rtipc priorities are the kernel's */
        assert_int_equal(o.kprio_created, 3);
        assert_int_equal(o.kprio_set, 7);
        assert_int_equal(o.kprio_self, 9);
    } else if (rtipc_sched_policy() == RTIPC_SCHED_FIFO) {
        assert_int_equal(o.pt_policy, SCHED_FIFO);
        assert_int_equal(o.pt_prio, RTIPC_FIFO_BASE + 3);
        assert_int_equal(o.kpolicy_created, SCHED_FIFO);
        assert_int_equal(o.kprio_created, RTIPC_FIFO_BASE + 3);
        assert_int_equal(o.kpolicy_set, SCHED_FIFO);
        assert_int_equal(o.kprio_set, RTIPC_FIFO_BASE + 7);
        assert_int_equal(o.kpolicy_self, SCHED_FIFO);
        assert_int_equal(o.kprio_self, RTIPC_FIFO_BASE + 9);
    } else {
        assert_int_equal(o.pt_policy, SCHED_OTHER);
        assert_int_equal(o.kpolicy_created, SCHED_OTHER);
        assert_int_equal(o.kpolicy_set, SCHED_OTHER);
        assert_int_equal(o.kpolicy_self, SCHED_OTHER);
    }

    assert_int_equal(rtipc_task_priority(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_task_effective_priority(NULL), RTIPC_EINVAL);
    assert_int_equal(rtipc_task_set_priority(NULL, RTIPC_PRIORITY_LEVELS), RTIPC_EINVAL);

    /* NULL is the caller (here the adopted main thread). */
    rtipc_task_t *me = rtipc_task_current();
    int old = rtipc_task_priority(me);
    assert_int_equal(rtipc_task_set_priority(NULL, 5), RTIPC_OK);
    assert_int_equal(rtipc_task_priority(me), 5);
    assert_int_equal(rtipc_task_effective_priority(me), 5);
    assert_int_equal(rtipc_task_set_priority(NULL, (unsigned)old), RTIPC_OK);
    assert_int_equal(rtipc_task_priority(me), old);
}

/* The scheduling class of every priority, seen from inside the task. */
typedef struct {
    int pt_policy, pt_prio;
    int kpolicy, kprio;
} sched_obs_t;

static void sched_body(void *arg)
{
    sched_obs_t *o = arg;
    struct sched_param sp = {0};
    if (pthread_getschedparam(pthread_self(), &o->pt_policy, &sp) == 0)
        o->pt_prio = sp.sched_priority;
    kernel_sched(&o->kpolicy, &o->kprio);
}

static void sched_policy_in_force(void **state)
{
    (void)state;
    rtipc_sched_policy_t p = rtipc_sched_policy();
    assert_true(p == RTIPC_SCHED_FIFO || p == RTIPC_SCHED_OTHER);
    assert_int_equal(rtipc_sched_policy(), p); /* decided once */
    const char *d = rtipc_sched_policy_describe();
    assert_non_null(d);
    assert_true(strlen(d) > 0);
    if (RTIPC_PORT_FREERTOS) /* task.h, Port notes */
        assert_int_equal(strncmp(d, "FreeRTOS (", 10), 0);
    else if (p == RTIPC_SCHED_FIFO)
        assert_string_equal(d, "SCHED_FIFO");
    else
        assert_int_equal(strncmp(d, "SCHED_OTHER (fallback", 21), 0);

    const unsigned prios[] = {0, 4, RTIPC_PRIORITY_LEVELS - 1};
    for (size_t i = 0; i < sizeof prios / sizeof prios[0]; ++i) {
        sched_obs_t o = {-1, -1, -1, -1};
        rtipc_task_t *t = NULL;
        assert_int_equal(create("sched", prios[i], test_core(0), sched_body, &o, &t), RTIPC_OK);
        join_task(t);
        if (RTIPC_PORT_FREERTOS) {
            assert_int_equal(p, RTIPC_SCHED_FIFO);
            assert_int_equal(o.kprio, (int)prios[i]);
        } else if (p == RTIPC_SCHED_FIFO) {
            assert_int_equal(o.pt_policy, SCHED_FIFO);
            assert_int_equal(o.pt_prio, RTIPC_FIFO_BASE + (int)prios[i]);
            assert_int_equal(o.kpolicy, SCHED_FIFO);
            assert_int_equal(o.kprio, RTIPC_FIFO_BASE + (int)prios[i]);
        } else {
            assert_int_equal(o.pt_policy, SCHED_OTHER);
            assert_int_equal(o.kpolicy, SCHED_OTHER);
        }
    }
}

/* Effective priority under mutex inheritance, and set_priority while a
 * mutex is held (the inherited priority stays). */
typedef struct {
    rtipc_mutex_t *m;
    int rc_lock, rc_unlock;
} inherit_obs_t;

static void inherit_waiter(void *arg)
{
    inherit_obs_t *o = arg;
    o->rc_lock = rtipc_mutex_lock(o->m, rtipc_ms(5000));
    if (o->rc_lock == RTIPC_OK)
        o->rc_unlock = rtipc_mutex_unlock(o->m);
}

static void effective_priority_inherited(void **state)
{
    (void)state;
    rtipc_task_t *me = rtipc_task_current();
    int old = rtipc_task_priority(me);
    assert_int_equal(rtipc_task_set_priority(NULL, 1), RTIPC_OK);
    inherit_obs_t o = {NULL, 12345, 12345};
    assert_int_equal(rtipc_mutex_create(false, &o.m), RTIPC_OK);
    assert_int_equal(rtipc_mutex_lock(o.m, RTIPC_NO_WAIT), RTIPC_OK);
    rtipc_task_t *t = NULL;
    assert_int_equal(create("high", 10, RTIPC_CORE_ANY, inherit_waiter, &o, &t), RTIPC_OK);
    int boosted = 0;
    for (int i = 0; i < 5000 && !boosted; ++i) {
        boosted = rtipc_task_effective_priority(me) == 10;
        if (!boosted)
            sleep_ms(1);
    }
    assert_true(boosted);
    assert_int_equal(rtipc_task_priority(me), 1);
    /* Lowering the base while holding keeps the inherited priority. */
    assert_int_equal(rtipc_task_set_priority(NULL, 2), RTIPC_OK);
    assert_int_equal(rtipc_task_priority(me), 2);
    assert_int_equal(rtipc_task_effective_priority(me), 10);
    assert_int_equal(rtipc_mutex_unlock(o.m), RTIPC_OK);
    assert_int_equal(rtipc_task_effective_priority(me), 2);
    join_task(t);
    assert_int_equal(o.rc_lock, RTIPC_OK);
    assert_int_equal(o.rc_unlock, RTIPC_OK);
    assert_int_equal(rtipc_mutex_delete(o.m), RTIPC_OK);
    assert_int_equal(rtipc_task_set_priority(NULL, (unsigned)old), RTIPC_OK);
    assert_int_equal(rtipc_task_effective_priority(me), old);
}

/* ---- SCHED_OTHER fallback, in a fresh process ------------------------------- */

#define CHILD_ARG "--sched-other-child"

/* Exit codes of the child: 0 all as expected, else the first check that
 * failed. */
enum { CHILD_OK = 0, CHILD_POLICY = 10, CHILD_DESCRIBE = 11, CHILD_CREATE = 12, CHILD_KERNEL = 13, CHILD_PRIO = 14 };

static int sched_other_child(void)
{
    /* RTIPC_SCHED=other is in the environment; nothing of rtipc ran yet. */
    if (rtipc_sched_policy() != RTIPC_SCHED_OTHER)
        return CHILD_POLICY;
    const char *d = rtipc_sched_policy_describe();
    fprintf(stderr, "child: %s\n", d ? d : "(null)");
    if (!d || strncmp(d, "SCHED_OTHER", 11) != 0 || !strstr(d, "fallback"))
        return CHILD_DESCRIBE;
    sched_obs_t o = {-1, -1, -1, -1};
    rtipc_task_t *t = NULL;
    if (create("other", 6, RTIPC_CORE_ANY, sched_body, &o, &t) != RTIPC_OK)
        return CHILD_CREATE;
    if (rtipc_task_priority(t) != 6) /* priorities stay logical */
        return CHILD_PRIO;
    if (rtipc_task_join(t) != RTIPC_OK)
        return CHILD_CREATE;
    if (o.kpolicy != SCHED_OTHER || o.pt_policy != SCHED_OTHER)
        return CHILD_KERNEL;
    return CHILD_OK;
}

static void sched_other_fallback(void **state)
{
    (void)state;
    SKIP_ON_FREERTOS("the SCHED_OTHER fallback is a Linux scheduling policy (RTIPC_SCHED=other)");
    /* A fresh process (exec, not just fork: the policy of this process is
     * already decided and a fork would inherit the decision). */
    size_t n = 0;
    while (environ[n])
        ++n;
    char **envp = calloc(n + 2, sizeof *envp);
    assert_non_null(envp);
    size_t k = 0;
    for (size_t i = 0; i < n; ++i)
        if (strncmp(environ[i], "RTIPC_SCHED=", 12) != 0)
            envp[k++] = environ[i];
    envp[k++] = "RTIPC_SCHED=other";
    envp[k] = NULL;
    char *argv[] = {"test_task", CHILD_ARG, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, envp);
    free(envp);
    assert_int_equal(rc, 0);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), CHILD_OK);
}

/* ---- wrong context ------------------------------------------------------- */

static void wrong_context(void **state)
{
    (void)state;
    rtipc_task_t *t = NULL;
    assert_int_equal(create("ctx", 2, RTIPC_CORE_ANY, until_notified, NULL, &t), RTIPC_OK);
    rtipc_task_config_t cfg = {.name = "isr", .priority = 1, .core = RTIPC_CORE_ANY, .entry = noop};
    rtipc_task_t *made = NULL;
    rtipc_task_t *me = rtipc_task_current();
    int me_prio = rtipc_task_priority(me);

    enter_interrupt_context();
    int r_create = rtipc_task_create(&cfg, &made);
    int r_join = rtipc_task_join(t);
    int r_delete = rtipc_task_delete(t);
    int r_delete_self = rtipc_task_delete(NULL); /* must return, not end the caller */
    int r_delay = rtipc_task_delay(rtipc_ms(10));
    int r_delay_forever = rtipc_task_delay(RTIPC_FOREVER);
    int r_yield = rtipc_task_yield();
    int r_set = rtipc_task_set_priority(t, 4);
    int r_set_self = rtipc_task_set_priority(NULL, 4);
    /* Queries are allowed in any context. */
    int q_prio = rtipc_task_priority(t);
    int q_eff = rtipc_task_effective_priority(t);
    const char *q_name = rtipc_task_name(t);
    int q_core = rtipc_task_core(t);
    leave_interrupt_context();

    assert_int_equal(r_create, RTIPC_ECONTEXT);
    assert_null(made);
    assert_int_equal(r_join, RTIPC_ECONTEXT);
    assert_int_equal(r_delete, RTIPC_ECONTEXT);
    assert_int_equal(r_delete_self, RTIPC_ECONTEXT);
    assert_int_equal(r_delay, RTIPC_ECONTEXT);
    assert_int_equal(r_delay_forever, RTIPC_ECONTEXT);
    assert_int_equal(r_yield, RTIPC_ECONTEXT);
    assert_int_equal(r_set, RTIPC_ECONTEXT);
    assert_int_equal(r_set_self, RTIPC_ECONTEXT);
    assert_int_equal(q_prio, 2);
    assert_int_equal(q_eff, 2);
    assert_non_null(q_name);
    assert_string_equal(q_name, "ctx");
    assert_int_equal(q_core, RTIPC_CORE_ANY);
    /* Nothing happened: priorities unchanged, the task still joinable. */
    assert_int_equal(rtipc_task_priority(t), 2);
    assert_int_equal(rtipc_task_priority(me), me_prio);
    release_and_join(t);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], CHILD_ARG) == 0)
        return sched_other_child();

    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_pinned_runs_on_its_core),
        cmocka_unit_test(create_unpinned),
        cmocka_unit_test(create_invalid),
        cmocka_unit_test(create_stack_size),
        cmocka_unit_test(create_refused_by_os),
        cmocka_unit_test(name_truncated),
        cmocka_unit_test(core_count),
        cmocka_unit_test(join_waits_and_releases),
        cmocka_unit_test(join_finished_task),
        cmocka_unit_test(join_invalid),
        cmocka_unit_test(join_self_is_deadlock),
        cmocka_unit_test(second_join_is_refused),
        cmocka_unit_test(current_in_main_and_foreign_threads),
        cmocka_unit_test(delay_sleeps_about_the_time),
        cmocka_unit_test(delete_blocked_on_queue),
        cmocka_unit_test(delete_blocked_in_delay_and_take),
        cmocka_unit_test(delete_finished_task),
        cmocka_unit_test(self_delete_ends_task),
        cmocka_unit_test(delete_blocked_in_join_or_delete),
        cmocka_unit_test(mutual_deletion_ends_both),
        cmocka_unit_test(stale_handle_reaches_nobody),
        cmocka_unit_test(priorities),
        cmocka_unit_test(sched_policy_in_force),
        cmocka_unit_test(effective_priority_inherited),
        cmocka_unit_test(sched_other_fallback),
        cmocka_unit_test(wrong_context),
        cmocka_unit_test(self_delete_races_delete_by_another),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
