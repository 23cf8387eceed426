/*
 * The kernel runner's backend: executes scenario steps through the FreeRTOS
 * kernel's own API (xQueueSend, xSemaphoreTake, vTaskPrioritySet, ...) on the
 * POSIX simulator. No rtipc code is involved: this runner is the oracle the
 * Linux runner is compared with. rtipc priority p is FreeRTOS priority p.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "FreeRTOS.h"
#include "event_groups.h"
#include "message_buffer.h"
#include "queue.h"
#include "semphr.h"
#include "stream_buffer.h"
#include "task.h"

#include "diff.h"

#if configTICK_RATE_HZ != 100 || configUSE_TIME_SLICING != 0 || configMAX_PRIORITIES != 32
#error "the kernel runner's FreeRTOSConfig.h must match the suite (100 Hz, no time slicing, 32 priorities)"
#endif
#if tskKERNEL_VERSION_MAJOR < 11
#error "the kernel runner needs FreeRTOS-Kernel V11 or later (uxTaskBasePriorityGet)"
#endif

const char diff_runner_name[] = "rtipc-diff-kernel";
const bool diff_backend_is_kernel = true;

typedef struct {
    void *obj[DIFF_MAX_OBJECTS];
    TaskHandle_t task[DIFF_MAX_TASKS];
    SemaphoreHandle_t ended[DIFF_MAX_TASKS]; /* given when a task's steps are done: `join` */
    TickType_t created_tick[DIFF_MAX_TASKS]; /* the tick of its xTaskCreate */
    TickType_t step_end_tick[DIFF_MAX_TASKS]; /* the tick its last step ended in */
} backend_t;

static diff_run_t g_run;
static backend_t g_b;

const char *diff_backend_describe(void)
{
    return "FreeRTOS " tskKERNEL_VERSION_NUMBER ", POSIX simulator (GCC_POSIX), the kernel's own API";
}

uint64_t diff_backend_ticks(diff_run_t *run)
{
    return (uint64_t)xTaskGetTickCount() - run->start_tick;
}

/* The simulator's tick is a host timer signal: when the host keeps the
 * simulator's thread off its CPU, ticks come late, and steps a tick apart
 * may change order. A gap of more than one and a half periods between two
 * ticks (host clock) marks the run disturbed, and the driver runs it again,
 * as the Linux runner does when it loses core 0. */
static int64_t host_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* async-signal-safe: the tick runs in a signal handler */
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void disturbed(const char *why)
{
    if (!g_run.log || atomic_exchange(&g_run.log->disturbed, 1))
        return;
    /* A plain copy: this may run in the tick's signal handler. */
    size_t i = 0;
    for (; why[i] && i + 1 < sizeof g_run.log->disturbed_reason; ++i)
        g_run.log->disturbed_reason[i] = why[i];
    g_run.log->disturbed_reason[i] = 0;
}

void vApplicationTickHook(void)
{
    static int64_t last;
    int64_t now = host_ns();
    if (last != 0 && now - last > 3 * (1000000000 / configTICK_RATE_HZ) / 2)
        disturbed("a simulator tick came late (the host kept the kernel off its CPU)");
    last = now;
}

void diff_kernel_assert_failed(const char *file, unsigned long line)
{
    const char *base = strrchr(file, '/');
    if (g_run.log)
        diff_log(&g_run, "!! configASSERT failed in %s:%lu", base ? base + 1 : file, line);
    _exit(3);
}

/* Only the tick can end the idle task's turn (every scenario task is
 * blocked), and the tick is a signal, which ends the sleep. */
void vApplicationIdleHook(void);
void vApplicationIdleHook(void)
{
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
}

static TickType_t to_ticks(int64_t t)
{
    return t < 0 ? portMAX_DELAY : (TickType_t)t;
}

static const char *task_name_of(TaskHandle_t t)
{
    if (!t)
        return "none";
    for (int i = 0; i < g_run.sc->ntasks; ++i)
        if (g_b.task[i] == t)
            return g_run.sc->tasks[i].name;
    return "unknown";
}

static void task_entry(void *arg)
{
    int idx = (int)(intptr_t)arg;
    /* No scenario keeps a task from running through a tick boundary: one
     * that starts in a later tick than it was created in was kept off the
     * CPU by the host, and its `@` would be a tick late. */
    if (xTaskGetTickCount() != g_b.created_tick[idx])
        disturbed("a task started a tick after its creation (the host was slow to run its thread)");
    diff_run_task(&g_run, idx);
    /* What rtipc_task_join waits for; FreeRTOS has no join of its own. */
    xSemaphoreGive(g_b.ended[idx]);
    vTaskDelete(NULL);
}

static BaseType_t create_task(int idx)
{
    const diff_task_t *t = &g_run.sc->tasks[idx];
    atomic_store(&g_run.task[idx].state, TASK_CREATED);
    g_b.created_tick[idx] = xTaskGetTickCount();
    g_b.step_end_tick[idx] = g_b.created_tick[idx];
    BaseType_t rc = xTaskCreate(task_entry, t->name, configMINIMAL_STACK_SIZE, (void *)(intptr_t)idx, t->prio,
                                &g_b.task[idx]);
    if (rc != pdPASS)
        atomic_store(&g_run.task[idx].state, TASK_NOT_CREATED);
    return rc;
}

static void ok_fail(char *res, size_t cap, BaseType_t rc)
{
    diff_res(res, cap, "%s", rc == pdPASS ? "ok" : "fail");
}

static diff_exec_t exec_step(diff_run_t *run, int caller, const diff_step_t *st, char *res, size_t cap);

/* Steps of one task follow each other within microseconds, and no scenario
 * keeps a task running through a tick boundary: a step that begins in a
 * later tick than the task's previous step ended in was kept off the CPU by
 * the host, and a timed call in it would end a tick late. */
diff_exec_t diff_backend_exec(diff_run_t *run, int caller, const diff_step_t *st, char *res, size_t cap)
{
    /* The controller's final steps follow the joins, not a step of their own. */
    bool task = caller >= 0 && caller < run->sc->ntasks;
    if (task && xTaskGetTickCount() != g_b.step_end_tick[caller])
        disturbed("a task's step began a tick after its previous one ended (the host was slow to run its thread)");
    diff_exec_t e = exec_step(run, caller, st, res, cap);
    if (task)
        g_b.step_end_tick[caller] = xTaskGetTickCount();
    return e;
}

static diff_exec_t exec_step(diff_run_t *run, int caller, const diff_step_t *st, char *res, size_t cap)
{
    void *o = st->obj >= 0 ? g_b.obj[st->obj] : NULL;
    bool rec = st->obj >= 0 && run->sc->objs[st->obj].kind == OBJ_RMUTEX;
    int ti = diff_task_ref(st, caller);
    TaskHandle_t th = st->task == DIFF_SELF ? NULL : (ti >= 0 ? g_b.task[ti] : NULL);
    TickType_t to = to_ticks(st->timeout);
    uint32_t u = 0;
    size_t n;
    BaseType_t rc;
    char buf[DIFF_TEXT_MAX];

    switch (st->op) {
    case OP_AT: {
        TickType_t wake = (TickType_t)run->start_tick;
        if (xTaskDelayUntil(&wake, (TickType_t)st->v[0]) == pdFALSE) {
            diff_res(res, cap, "!! missed (tick %llu)", (unsigned long long)diff_backend_ticks(run));
            disturbed("a task missed its tick");
        }
        return DIFF_QUIET;
    }
    case OP_DELAY:
        vTaskDelay((TickType_t)st->v[0]);
        return DIFF_QUIET;
    case OP_YIELD:
        taskYIELD();
        return DIFF_QUIET;
    case OP_LOG:
        return DIFF_QUIET;
    case OP_SEND:
    case OP_SENDFRONT:
        u = st->v[0];
        ok_fail(res, cap, st->op == OP_SEND ? xQueueSendToBack(o, &u, to) : xQueueSendToFront(o, &u, to));
        break;
    case OP_RECV:
    case OP_PEEK:
        rc = st->op == OP_RECV ? xQueueReceive(o, &u, to) : xQueuePeek(o, &u, to);
        if (rc == pdPASS)
            diff_res(res, cap, "ok %u", u);
        else
            diff_res(res, cap, "fail");
        break;
    case OP_OVERWRITE:
        u = st->v[0];
        ok_fail(res, cap, xQueueOverwrite(o, &u));
        break;
    case OP_RESET:
        ok_fail(res, cap, xQueueReset(o));
        break;
    case OP_COUNT:
        diff_res(res, cap, "%u waiting %u free", (unsigned)uxQueueMessagesWaiting(o), (unsigned)uxQueueSpacesAvailable(o));
        break;
    case OP_GIVE:
        ok_fail(res, cap, xSemaphoreGive(o));
        break;
    case OP_TAKE:
        ok_fail(res, cap, xSemaphoreTake(o, to));
        break;
    case OP_SEMCOUNT:
        diff_res(res, cap, "%u", (unsigned)uxSemaphoreGetCount(o));
        break;
    case OP_LOCK:
        ok_fail(res, cap, rec ? xSemaphoreTakeRecursive(o, to) : xSemaphoreTake(o, to));
        break;
    case OP_UNLOCK:
        ok_fail(res, cap, rec ? xSemaphoreGiveRecursive(o) : xSemaphoreGive(o));
        break;
    case OP_HOLDER:
        diff_res(res, cap, "%s", task_name_of(xSemaphoreGetMutexHolder(o)));
        break;
    case OP_PRIO:
        diff_res(res, cap, "base=%u eff=%u", (unsigned)uxTaskBasePriorityGet(th), (unsigned)uxTaskPriorityGet(th));
        break;
    case OP_SETPRIO:
        vTaskPrioritySet(th, st->v[0]);
        diff_res(res, cap, "ok");
        break;
    case OP_CREATE:
        ok_fail(res, cap, create_task(ti));
        break;
    case OP_DELETE:
        atomic_store(&run->task[ti].state, TASK_DELETED);
        if (ti == caller) {
            vTaskDelete(NULL);
            return DIFF_GONE; /* not reached */
        }
        vTaskDelete(th);
        diff_res(res, cap, "ok");
        break;
    case OP_JOIN:
        ok_fail(res, cap, xSemaphoreTake(g_b.ended[ti], portMAX_DELAY));
        break;
    case OP_NOTIFY:
        rc = xTaskNotifyAndQueryIndexed(th ? th : xTaskGetCurrentTaskHandle(), st->v[0], st->v[2],
                                        (eNotifyAction)st->v[1], &u);
        diff_res(res, cap, "%s prev=0x%x", rc == pdPASS ? "ok" : "fail", u);
        break;
    case OP_NGIVE:
        ok_fail(res, cap, xTaskNotifyGiveIndexed(th ? th : xTaskGetCurrentTaskHandle(), st->v[0]));
        break;
    case OP_NTAKE:
        u = ulTaskNotifyTakeIndexed(st->v[0], st->flag_a ? pdTRUE : pdFALSE, to);
        if (u != 0)
            diff_res(res, cap, "ok %u", u);
        else
            diff_res(res, cap, "fail");
        break;
    case OP_NWAIT:
        u = 0xdeadbeefu;
        rc = xTaskNotifyWaitIndexed(st->v[0], st->v[1], st->v[2], &u, to);
        diff_res(res, cap, "%s 0x%x", rc == pdTRUE ? "ok" : "fail", u);
        break;
    case OP_NSTATE:
        diff_res(res, cap, "%d", (int)xTaskNotifyStateClearIndexed(th, st->v[0]));
        break;
    case OP_NCLEAR:
        diff_res(res, cap, "prev=0x%x", (unsigned)ulTaskNotifyValueClearIndexed(th, st->v[0], st->v[1]));
        break;
    case OP_ESET:
        diff_res(res, cap, "0x%x", (unsigned)xEventGroupSetBits(o, st->v[0]));
        break;
    case OP_ECLEAR:
        diff_res(res, cap, "prev=0x%x", (unsigned)xEventGroupClearBits(o, st->v[0]));
        break;
    case OP_EGET:
        diff_res(res, cap, "0x%x", (unsigned)xEventGroupGetBits(o));
        break;
    case OP_EWAIT: {
        EventBits_t r = xEventGroupWaitBits(o, st->v[0], st->flag_a ? pdTRUE : pdFALSE, st->flag_b ? pdTRUE : pdFALSE, to);
        bool met = st->flag_b ? (r & st->v[0]) == st->v[0] : (r & st->v[0]) != 0;
        diff_res(res, cap, "%s 0x%x", met ? "ok" : "fail", (unsigned)r);
        break;
    }
    case OP_ESYNC: {
        EventBits_t r = xEventGroupSync(o, st->v[0], st->v[1], to);
        bool met = (r & st->v[1]) == st->v[1];
        diff_res(res, cap, "%s 0x%x", met ? "ok" : "fail", (unsigned)r);
        break;
    }
    case OP_SSEND:
        n = xStreamBufferSend(o, st->text, strlen(st->text), to);
        if (n > 0)
            diff_res(res, cap, "ok %zu", n);
        else
            diff_res(res, cap, "fail");
        break;
    case OP_SRECV:
    case OP_MRECV:
        if (st->v[0] >= sizeof buf) {
            diff_res(res, cap, "!! length above %zu", sizeof buf - 1);
            break;
        }
        n = st->op == OP_SRECV ? xStreamBufferReceive(o, buf, st->v[0], to) : xMessageBufferReceive(o, buf, st->v[0], to);
        if (n > 0)
            diff_res(res, cap, "ok %zu %.*s", n, (int)n, buf);
        else
            diff_res(res, cap, "fail");
        break;
    case OP_SBYTES:
        diff_res(res, cap, "%zu avail %zu free", xStreamBufferBytesAvailable(o), xStreamBufferSpacesAvailable(o));
        break;
    case OP_SRESET:
        ok_fail(res, cap, xStreamBufferReset(o));
        break;
    case OP_STRIGGER:
        ok_fail(res, cap, xStreamBufferSetTriggerLevel(o, st->v[0]));
        break;
    case OP_MSEND:
        n = xMessageBufferSend(o, st->text, strlen(st->text), to);
        diff_res(res, cap, "%s", n > 0 ? "ok" : "fail");
        break;
    case OP_MNEXT:
        diff_res(res, cap, "%u", (unsigned)xMessageBufferNextLengthBytes(o));
        break;
    case OP_MBYTES:
        diff_res(res, cap, "%zu avail %zu free", xStreamBufferBytesAvailable(o), xMessageBufferSpacesAvailable(o));
        break;
    case OP_SELECT: {
        QueueSetMemberHandle_t m = xQueueSelectFromSet(o, to);
        if (m)
            diff_res(res, cap, "ok %s", diff_obj_name(&g_run, g_b.obj, m));
        else
            diff_res(res, cap, "fail");
        break;
    }
    case OP_QADD:
        ok_fail(res, cap, xQueueAddToSet(g_b.obj[st->obj2], o));
        break;
    case OP_QREMOVE:
        ok_fail(res, cap, xQueueRemoveFromSet(g_b.obj[st->obj2], o));
        break;
    case OP_COUNT_OF_OPS:
        diff_res(res, cap, "!! unknown step");
        break;
    }
    return DIFF_PRINT;
}

static int setup(void)
{
    const diff_scenario_t *sc = g_run.sc;
    for (int i = 0; i < sc->nobjs; ++i) {
        const diff_obj_t *ob = &sc->objs[i];
        void *h = NULL;
        switch (ob->kind) {
        case OBJ_QUEUE: h = xQueueCreate(ob->a, sizeof(uint32_t)); break;
        case OBJ_BSEM: h = xSemaphoreCreateBinary(); break;
        case OBJ_CSEM: h = xSemaphoreCreateCounting(ob->a, ob->b); break;
        case OBJ_MUTEX: h = xSemaphoreCreateMutex(); break;
        case OBJ_RMUTEX: h = xSemaphoreCreateRecursiveMutex(); break;
        case OBJ_EVGROUP: h = xEventGroupCreate(); break;
        case OBJ_STREAM: h = xStreamBufferCreate(ob->a, ob->b); break;
        case OBJ_MSGBUF: h = xMessageBufferCreate(ob->a); break;
        case OBJ_QSET: h = xQueueCreateSet(ob->a); break;
        }
        if (!h) {
            diff_log(&g_run, "!! setup: creating %s failed", ob->name);
            return -1;
        }
        g_b.obj[i] = h;
    }
    for (int i = 0; i < sc->nmembers; ++i) {
        if (xQueueAddToSet(g_b.obj[sc->members[i][1]], g_b.obj[sc->members[i][0]]) != pdPASS) {
            diff_log(&g_run, "!! setup: member %s %s failed", sc->objs[sc->members[i][0]].name,
                     sc->objs[sc->members[i][1]].name);
            return -1;
        }
    }
    for (int i = 0; i < sc->ntasks; ++i) {
        g_b.ended[i] = xSemaphoreCreateBinary();
        if (!g_b.ended[i]) {
            diff_log(&g_run, "!! setup: out of kernel heap");
            return -1;
        }
    }
    return 0;
}

static void controller(void *arg)
{
    (void)arg;
    /* Start just after a tick boundary, so that `at N` is N whole ticks away. */
    vTaskDelay(1);
    g_run.start_tick = xTaskGetTickCount();
    if (setup() == 0) {
        for (int i = 0; i < g_run.sc->ntasks; ++i) {
            if (!g_run.sc->tasks[i].deferred && create_task(i) != pdPASS)
                diff_log(&g_run, "!! setup: creating task %s failed", g_run.sc->tasks[i].name);
        }
        /* The tasks' first steps belong to tick 0: a setup that a tick
         * boundary overtook (slow thread creation on a loaded host) shifts
         * every `@` by one. */
        if (xTaskGetTickCount() != (TickType_t)g_run.start_tick)
            disturbed("the setup took longer than the rest of its tick (the host was slow to create threads)");
        TickType_t wake = (TickType_t)g_run.start_tick;
        xTaskDelayUntil(&wake, (TickType_t)g_run.sc->ticks);
    }
    diff_run_finish(&g_run);
    fflush(NULL);
    _exit(0);
}

int diff_backend_run(const diff_scenario_t *sc, diff_log_t *log, unsigned tick_hz)
{
    g_run.sc = sc;
    g_run.log = log;
    g_run.backend = &g_b;
    if (tick_hz != configTICK_RATE_HZ) {
        diff_log(&g_run, "!! the kernel runner's tick is %u Hz (configTICK_RATE_HZ), not %u", configTICK_RATE_HZ,
                 tick_hz);
        return 1;
    }
    if (xTaskCreate(controller, "controller", configMINIMAL_STACK_SIZE, NULL, DIFF_PRIO_CONTROLLER, NULL) != pdPASS) {
        diff_log(&g_run, "!! cannot create the controller");
        return 1;
    }
    vTaskStartScheduler();
    diff_log(&g_run, "!! the scheduler returned");
    return 1;
}
