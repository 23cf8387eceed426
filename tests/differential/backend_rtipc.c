/*
 * The Linux runner's backend: executes scenario steps through rtipc's public
 * API (the headers of include/rtipc). Every task, the controller included, is pinned to
 * core 0, so that SCHED_FIFO gives uniprocessor priority scheduling; the
 * controller runs above every scenario task and sleeps from the start to the
 * end tick, so it never interleaves with them.
 */
#include <dirent.h>
#include <sys/syscall.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rtipc/rtipc.h"

#include "diff.h"

const char diff_runner_name[] = "rtipc-diff-linux";
const bool diff_backend_is_kernel = false;

typedef struct {
    void *obj[DIFF_MAX_OBJECTS];
    /* Where rtipc_task_create writes each handle: before the new task
     * runs (task.h), so the task itself may read its own here. */
    rtipc_task_t *out[DIFF_MAX_TASKS];
    /* The same handle, copied once rtipc_task_create has returned, as user
     * code would; atomic because other tasks read it. */
    _Atomic(rtipc_task_t *) task[DIFF_MAX_TASKS];
    atomic_bool joined[DIFF_MAX_TASKS]; /* by a `join` step */
    int64_t created_ns[DIFF_MAX_TASKS];
    int64_t period_ns;
    int64_t start_ns; /* CLOCK_MONOTONIC at the scenario's tick 0 (just after the boundary) */
} backend_t;

static diff_run_t g_run;
static backend_t g_b;

const char *diff_backend_describe(void)
{
    static char buf[160];
    snprintf(buf, sizeof buf, "rtipc %s, Linux port, %s, every task on core 0", RTIPC_VERSION,
             rtipc_sched_policy_describe());
    return buf;
}

uint64_t diff_backend_ticks(diff_run_t *run)
{
    return rtipc_tick_count() - run->start_tick;
}

static const char *err_name(int rc)
{
    if (rc == RTIPC_OK)
        return "ok";
    const char *name = rtipc_error_name(rc);
    return name ? name : "RTIPC_unknown";
}

/* FreeRTOS reports one failure for "could not, without waiting" and "could
 * not, within the timeout"; rtipc has a code for each. The line says "fail"
 * for the code that matches the timeout given, and the code's name for any
 * other outcome, so that rtipc's own distinction is still checked. */
static void status(char *res, size_t cap, int rc, int64_t timeout)
{
    if ((rc == RTIPC_EWOULDBLOCK && timeout == 0) || (rc == RTIPC_ETIMEDOUT && timeout != 0))
        diff_res(res, cap, "fail");
    else
        diff_res(res, cap, "%s", err_name(rc));
}

/* A call that never blocks and reports a value: the value, or the code. The
 * value is read after the call (hence the pointer). */
static void value_or_status(char *res, size_t cap, int rc, const char *fmt, const uint32_t *value)
{
    if (rc == RTIPC_OK)
        diff_res(res, cap, fmt, *value);
    else
        status(res, cap, rc, 0);
}

/* A call FreeRTOS answers with a plain failure where rtipc returns
 * @p fail_rc (a full semaphore, a busy or refused buffer): "fail", or the
 * code's name. */
static void fail_or_name(char *res, size_t cap, int rc, int fail_rc)
{
    diff_res(res, cap, "%s", rc == fail_rc ? "fail" : err_name(rc));
}

/* A blocking call that hands over @p u on success: "ok U", or the status. */
static void got_or_status(char *res, size_t cap, int rc, uint32_t u, int64_t timeout)
{
    if (rc == RTIPC_OK)
        diff_res(res, cap, "ok %u", u);
    else
        status(res, cap, rc, timeout);
}

/* A wait that reports the bits or value also when it fails: "ok 0x..",
 * "fail 0x..", or the code's name. */
static void waited_bits(char *res, size_t cap, int rc, uint32_t u, int64_t timeout)
{
    if (rc == RTIPC_OK)
        diff_res(res, cap, "ok 0x%x", u);
    else if ((rc == RTIPC_EWOULDBLOCK && timeout == 0) || (rc == RTIPC_ETIMEDOUT && timeout != 0))
        diff_res(res, cap, "fail 0x%x", u);
    else
        status(res, cap, rc, timeout);
}

/* A buffer receive of @p n bytes: "ok N TEXT", or the status. */
static void got_text_or_status(char *res, size_t cap, int rc, const char *buf, size_t n, int64_t timeout)
{
    if (rc == RTIPC_OK)
        diff_res(res, cap, "ok %zu %.*s", n, (int)n, buf);
    else
        status(res, cap, rc, timeout);
}

static rtipc_timeout_t to_timeout(int64_t ticks)
{
    if (ticks == 0)
        return RTIPC_NO_WAIT;
    if (ticks < 0)
        return RTIPC_FOREVER;
    return rtipc_ns(ticks * g_b.period_ns);
}

static const char *task_name_of(const rtipc_task_t *t)
{
    if (!t)
        return "none";
    for (int i = 0; i < g_run.sc->ntasks; ++i)
        if (atomic_load(&g_b.task[i]) == t)
            return g_run.sc->tasks[i].name;
    return "unknown";
}

/* The scenario's tasks run for microseconds at a time, so every task that
 * is ready gets core 0 well within a tick. A task that starts, or wakes
 * from `at`, half a tick later than it should lost the core to another
 * process (events a tick apart could then change order): the run is
 * marked disturbed and the driver runs it again. */
#define LATE_NS (g_b.period_ns / 2)

static void disturbed(const char *fmt, ...)
{
    if (atomic_exchange(&g_run.log->disturbed, 1))
        return; /* the first reason is kept */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_run.log->disturbed_reason, sizeof g_run.log->disturbed_reason, fmt, ap);
    va_end(ap);
}

/* Nanoseconds from the start of tick @p at of the scenario until now. */
static int64_t ns_after_tick(uint64_t at)
{
    return rtipc_time_ns() - (g_b.start_ns + (int64_t)at * g_b.period_ns);
}

/* A timed call ends N ticks after the tick it began in, on the kernel;
 * rtipc's timeout is N tick periods from the call itself, which ends in
 * the same tick only if the call began early in its tick, as every step
 * does unless its task lost the core (a wake before it came late). */
static void check_timed_call(int64_t ticks, const char *who)
{
    if (ticks <= 0)
        return;
    /* From the start of the tick the tick count says, which the tick thread
     * may have begun a little before start_ns's offset says it would. */
    int64_t into = ns_after_tick(diff_backend_ticks(&g_run));
    if (into > LATE_NS)
        disturbed("%s began a timed call %.1f ms into its tick", who, (double)into / 1e6);
}

/* After waking at tick @p at of the scenario: was it late? */
static void check_wake(unsigned at, const char *who)
{
    int64_t late = ns_after_tick(at);
    if (late > LATE_NS)
        disturbed("%s woke %.1f ms after tick %u", who, (double)late / 1e6, at);
}

static void task_entry(void *arg)
{
    int idx = (int)(intptr_t)arg;
    int64_t late = rtipc_time_ns() - g_b.created_ns[idx];
    if (late > LATE_NS)
        disturbed("task %s started %.1f ms after its creation", g_run.sc->tasks[idx].name, (double)late / 1e6);
    diff_run_task(&g_run, idx);
}

static int create_task(int idx)
{
    const diff_task_t *t = &g_run.sc->tasks[idx];
    rtipc_task_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.name = t->name;
    cfg.priority = t->prio;
    cfg.core = 0;
    cfg.stack_size = 64 * 1024;
    cfg.entry = task_entry;
    cfg.arg = (void *)(intptr_t)idx;
    atomic_store(&g_run.task[idx].state, TASK_CREATED);
    g_b.created_ns[idx] = rtipc_time_ns();
    g_b.out[idx] = NULL;
    int rc = rtipc_task_create(&cfg, &g_b.out[idx]);
    atomic_store(&g_b.task[idx], g_b.out[idx]);
    if (rc != RTIPC_OK)
        atomic_store(&g_run.task[idx].state, TASK_NOT_CREATED);
    return rc;
}

static int qset_member(rtipc_queueset_t *set, int member, bool add)
{
    void *h = g_b.obj[member];
    if (g_run.sc->objs[member].kind == OBJ_QUEUE)
        return add ? rtipc_queueset_add_queue(set, h) : rtipc_queueset_remove_queue(set, h);
    return add ? rtipc_queueset_add_sem(set, h) : rtipc_queueset_remove_sem(set, h);
}

diff_exec_t diff_backend_exec(diff_run_t *run, int caller, const diff_step_t *st, char *res, size_t cap)
{
    void *o = st->obj >= 0 ? g_b.obj[st->obj] : NULL;
    int ti = diff_task_ref(st, caller);
    /* `self` is the caller's own handle; a task naming itself reads what
     * rtipc_task_create wrote for it; another task's is the handle its
     * creator stored (NULL if the creator has not stored it yet). */
    rtipc_task_t *th = st->task == DIFF_SELF ? rtipc_task_current()
                       : ti >= 0 && ti == caller ? g_b.out[ti]
                       : ti >= 0             ? atomic_load(&g_b.task[ti])
                                             : NULL;
    rtipc_timeout_t to = to_timeout(st->timeout);
    check_timed_call(st->timeout, diff_task_name(run, caller));
    uint32_t u = 0;
    size_t n = 0;
    int rc;
    char buf[DIFF_TEXT_MAX];

    if ((st->op == OP_SRECV || st->op == OP_MRECV) && st->v[0] >= sizeof buf) {
        diff_res(res, cap, "!! length above %zu", sizeof buf - 1);
        return DIFF_PRINT;
    }
    switch (st->op) {
    case OP_AT: {
        uint64_t wake = run->start_tick;
        bool missed = false;
        rtipc_task_delay_until(&wake, st->v[0], &missed);
        if (missed) {
            diff_res(res, cap, "!! missed (tick %llu)", (unsigned long long)diff_backend_ticks(run));
            disturbed("task %s missed tick %u", diff_task_name(run, caller), st->v[0]);
        } else {
            check_wake(st->v[0], diff_task_name(run, caller));
        }
        return DIFF_QUIET;
    }
    case OP_DELAY:
        rtipc_task_delay(to_timeout(st->v[0]));
        return DIFF_QUIET;
    case OP_YIELD:
        rtipc_task_yield();
        return DIFF_QUIET;
    case OP_LOG:
        return DIFF_QUIET; /* printed by the interpreter */
    case OP_SEND:
    case OP_SENDFRONT:
        u = st->v[0];
        rc = st->op == OP_SEND ? rtipc_queue_send(o, &u, to) : rtipc_queue_send_to_front(o, &u, to);
        status(res, cap, rc, st->timeout);
        break;
    case OP_RECV:
    case OP_PEEK:
        rc = st->op == OP_RECV ? rtipc_queue_receive(o, &u, to) : rtipc_queue_peek(o, &u, to);
        got_or_status(res, cap, rc, u, st->timeout);
        break;
    case OP_OVERWRITE:
        u = st->v[0];
        status(res, cap, rtipc_queue_overwrite(o, &u), 0);
        break;
    case OP_RESET:
        status(res, cap, rtipc_queue_reset(o), 0);
        break;
    case OP_COUNT:
        diff_res(res, cap, "%d waiting %d free", rtipc_queue_messages_waiting(o), rtipc_queue_spaces_available(o));
        break;
    case OP_GIVE:
        fail_or_name(res, cap, rtipc_sem_give(o), RTIPC_EOVERFLOW);
        break;
    case OP_TAKE:
        status(res, cap, rtipc_sem_take(o, to), st->timeout);
        break;
    case OP_SEMCOUNT:
        diff_res(res, cap, "%d", rtipc_sem_count(o));
        break;
    case OP_LOCK:
        status(res, cap, rtipc_mutex_lock(o, to), st->timeout);
        break;
    case OP_UNLOCK:
        status(res, cap, rtipc_mutex_unlock(o), 0);
        break;
    case OP_HOLDER:
        diff_res(res, cap, "%s", task_name_of(rtipc_mutex_holder(o)));
        break;
    case OP_PRIO: {
        int base = rtipc_task_priority(th), eff = rtipc_task_effective_priority(th);
        if (base < 0 || eff < 0)
            diff_res(res, cap, "base=%s eff=%s", err_name(base), err_name(eff));
        else
            diff_res(res, cap, "base=%d eff=%d", base, eff);
        break;
    }
    case OP_SETPRIO:
        status(res, cap, rtipc_task_set_priority(th, st->v[0]), 0);
        break;
    case OP_CREATE:
        status(res, cap, create_task(ti), 0);
        break;
    case OP_DELETE:
        if (ti == caller) {
            atomic_store(&run->task[ti].state, TASK_DELETED);
            rtipc_task_delete(NULL);
            return DIFF_GONE; /* not reached */
        }
        rc = rtipc_task_delete(th);
        if (rc == RTIPC_OK)
            atomic_store(&run->task[ti].state, TASK_DELETED);
        status(res, cap, rc, 0);
        break;
    case OP_JOIN:
        rc = rtipc_task_join(th);
        if (rc == RTIPC_OK)
            atomic_store(&g_b.joined[ti], true);
        status(res, cap, rc, 0);
        break;
    case OP_NOTIFY:
        rc = rtipc_notify(th, st->v[0], st->v[2], (rtipc_notify_action_t)st->v[1], &u);
        if (rc == RTIPC_OK || rc == RTIPC_EPENDING)
            diff_res(res, cap, "%s prev=0x%x", rc == RTIPC_OK ? "ok" : "fail", u);
        else
            status(res, cap, rc, 0);
        break;
    case OP_NGIVE:
        status(res, cap, rtipc_notify_give(th, st->v[0]), 0);
        break;
    case OP_NTAKE:
        rc = rtipc_notify_take(st->v[0], st->flag_a, &u, to);
        got_or_status(res, cap, rc, u, st->timeout);
        break;
    case OP_NWAIT:
        u = 0xdeadbeefu; /* shows a value the call did not report */
        rc = rtipc_notify_wait(st->v[0], st->v[1], st->v[2], &u, to);
        waited_bits(res, cap, rc, u, st->timeout);
        break;
    case OP_NSTATE:
        rc = rtipc_notify_state_clear(th, st->v[0]);
        if (rc == 0 || rc == 1)
            diff_res(res, cap, "%d", rc);
        else
            status(res, cap, rc, 0);
        break;
    case OP_NCLEAR:
        value_or_status(res, cap, rtipc_notify_value_clear(th, st->v[0], st->v[1], &u), "prev=0x%x", &u);
        break;
    case OP_ESET:
        value_or_status(res, cap, rtipc_eventgroup_set_bits(o, st->v[0], &u), "0x%x", &u);
        break;
    case OP_ECLEAR:
        value_or_status(res, cap, rtipc_eventgroup_clear_bits(o, st->v[0], &u), "prev=0x%x", &u);
        break;
    case OP_EGET:
        diff_res(res, cap, "0x%x", (unsigned)rtipc_eventgroup_get_bits(o));
        break;
    case OP_EWAIT:
    case OP_ESYNC:
        u = 0xdeadbeefu;
        rc = st->op == OP_EWAIT ? rtipc_eventgroup_wait_bits(o, st->v[0], st->flag_a, st->flag_b, &u, to)
                                : rtipc_eventgroup_sync(o, st->v[0], st->v[1], &u, to);
        waited_bits(res, cap, rc, u, st->timeout);
        break;
    case OP_SSEND:
        rc = rtipc_streambuf_send(o, st->text, strlen(st->text), &n, to);
        if (rc == RTIPC_OK)
            diff_res(res, cap, "ok %zu", n);
        else
            status(res, cap, rc, st->timeout);
        break;
    case OP_SRECV:
        rc = rtipc_streambuf_receive(o, buf, st->v[0], &n, to);
        got_text_or_status(res, cap, rc, buf, n, st->timeout);
        break;
    case OP_SRESET:
        fail_or_name(res, cap, rtipc_streambuf_reset(o), RTIPC_EBUSY);
        break;
    case OP_STRIGGER:
        fail_or_name(res, cap, rtipc_streambuf_set_trigger_level(o, st->v[0]), RTIPC_EINVAL);
        break;
    case OP_SBYTES:
        diff_res(res, cap, "%d avail %d free", rtipc_streambuf_bytes_available(o), rtipc_streambuf_spaces_available(o));
        break;
    case OP_MSEND:
        status(res, cap, rtipc_msgbuf_send(o, st->text, strlen(st->text), to), st->timeout);
        break;
    case OP_MRECV:
        rc = rtipc_msgbuf_receive(o, buf, st->v[0], &n, to);
        if (rc == RTIPC_EINVAL && n > st->v[0]) /* the next message is longer than asked for */
            diff_res(res, cap, "RTIPC_EINVAL len=%zu", n);
        else
            got_text_or_status(res, cap, rc, buf, n, st->timeout);
        break;
    case OP_MNEXT:
        diff_res(res, cap, "%d", rtipc_msgbuf_next_length(o));
        break;
    case OP_MBYTES:
        diff_res(res, cap, "%d avail %d free", rtipc_msgbuf_bytes_available(o), rtipc_msgbuf_spaces_available(o));
        break;
    case OP_SELECT: {
        void *m = NULL;
        rc = rtipc_queueset_select(o, &m, to);
        if (rc == RTIPC_OK)
            diff_res(res, cap, "ok %s", diff_obj_name(&g_run, g_b.obj, m));
        else
            status(res, cap, rc, st->timeout);
        break;
    }
    case OP_QADD:
    case OP_QREMOVE:
        fail_or_name(res, cap, qset_member(o, st->obj2, st->op == OP_QADD), RTIPC_EBUSY);
        break;
    case OP_COUNT_OF_OPS:
        diff_res(res, cap, "!! unknown step");
        break;
    }
    return DIFF_PRINT;
}

/* Creates scenario object @p ob; its handle (NULL on failure) goes to *out. */
static int create_obj(const diff_obj_t *ob, void **out)
{
    int rc = RTIPC_EINVAL;
    rtipc_queue_t *q = NULL;
    rtipc_sem_t *s = NULL;
    rtipc_mutex_t *m = NULL;
    rtipc_eventgroup_t *e = NULL;
    rtipc_streambuf_t *b = NULL;
    rtipc_msgbuf_t *g = NULL;
    rtipc_queueset_t *set = NULL;
    switch (ob->kind) {
    case OBJ_QUEUE: rc = rtipc_queue_create(ob->a, sizeof(uint32_t), &q); *out = q; break;
    case OBJ_BSEM: rc = rtipc_sem_create_binary(&s); *out = s; break;
    case OBJ_CSEM: rc = rtipc_sem_create_counting(ob->a, ob->b, &s); *out = s; break;
    case OBJ_MUTEX: rc = rtipc_mutex_create(false, &m); *out = m; break;
    case OBJ_RMUTEX: rc = rtipc_mutex_create(true, &m); *out = m; break;
    case OBJ_EVGROUP: rc = rtipc_eventgroup_create(&e); *out = e; break;
    case OBJ_STREAM: rc = rtipc_streambuf_create(ob->a, ob->b, &b); *out = b; break;
    case OBJ_MSGBUF: rc = rtipc_msgbuf_create(ob->a, &g); *out = g; break;
    case OBJ_QSET: rc = rtipc_queueset_create(ob->a, &set); *out = set; break;
    }
    return rc;
}

static int setup(void)
{
    const diff_scenario_t *sc = g_run.sc;
    for (int i = 0; i < sc->nobjs; ++i) {
        const diff_obj_t *ob = &sc->objs[i];
        int rc = create_obj(ob, &g_b.obj[i]);
        if (rc != RTIPC_OK) {
            diff_log(&g_run, "!! setup: creating %s failed: %s", ob->name, err_name(rc));
            return -1;
        }
    }
    for (int i = 0; i < sc->nmembers; ++i) {
        int rc = qset_member(g_b.obj[sc->members[i][0]], sc->members[i][1], true);
        if (rc != RTIPC_OK) {
            diff_log(&g_run, "!! setup: member %s %s: %s", sc->objs[sc->members[i][0]].name,
                     sc->objs[sc->members[i][1]].name, err_name(rc));
            return -1;
        }
    }
    return 0;
}

/* At the end every scenario task has ended or is blocked: one that is
 * runnable (state R) was woken and then kept off core 0 by something else,
 * so the lines it would have printed are missing. Stores its name. */
static bool runnable_thread(char *name, size_t cap)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return false;
    char self[32];
    snprintf(self, sizeof self, "%ld", (long)syscall(SYS_gettid));
    bool found = false;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, self) == 0)
            continue;
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/self/task/%.20s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        /* "tid (comm) S ...": the state follows the last ')'. */
        char *close = strrchr(buf, ')');
        char *open = strchr(buf, '(');
        if (close && open && close[1] == ' ' && close[2] == 'R') {
            snprintf(name, cap, "%.*s", (int)(close - open - 1), open + 1);
            found = true;
        }
    }
    closedir(d);
    return found;
}

/* Nanoseconds the process's threads have spent ready but not running
 * (run_delay in /proc/self/task/TID/schedstat), or 0 if Linux does not
 * say. Among the scenario's own tasks this stays in microseconds: they run
 * for microseconds at a time. A large value means another process took
 * core 0, and the run says nothing about the scenario. */
static uint64_t run_delay_ns(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return 0;
    uint64_t sum = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[64];
        snprintf(path, sizeof path, "/proc/self/task/%.20s/schedstat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        unsigned long long run = 0, delay = 0;
        if (fscanf(f, "%llu %llu", &run, &delay) == 2)
            sum += delay;
        fclose(f);
    }
    closedir(d);
    return sum;
}

static void controller(void *arg)
{
    (void)arg;
    /* Start just after a tick boundary, so that `at N` is N whole ticks away. */
    uint64_t t = rtipc_tick_count();
    rtipc_task_delay_until(&t, 1, NULL);
    g_run.start_tick = rtipc_tick_count();
    uint64_t delay0 = run_delay_ns();
    g_b.start_ns = rtipc_time_ns();
    if (setup() == 0) {
        for (int i = 0; i < g_run.sc->ntasks; ++i) {
            if (g_run.sc->tasks[i].deferred)
                continue;
            int rc = create_task(i);
            if (rc != RTIPC_OK)
                diff_log(&g_run, "!! setup: creating task %s failed: %s", g_run.sc->tasks[i].name, err_name(rc));
        }
        /* The tasks' first steps belong to tick 0 (as in the kernel runner). */
        if (rtipc_tick_count() != g_run.start_tick)
            disturbed("the setup took longer than the rest of its tick");
        uint64_t wake = g_run.start_tick;
        rtipc_task_delay_until(&wake, g_run.sc->ticks, NULL);
    }
    uint64_t waited = run_delay_ns() - delay0;
    if (waited > (uint64_t)LATE_NS)
        disturbed("its threads waited %.1f ms for core 0 in all", (double)waited / 1e6);
    check_wake(g_run.sc->ticks, "the controller");
    char who[64];
    if (runnable_thread(who, sizeof who))
        disturbed("thread %s was ready but not running at the end", who);
    diff_run_finish(&g_run);
    /* Release the tasks that ended and were not joined (ThreadSanitizer
     * counts them as leaked threads); the tasks still blocked end with the
     * process. */
    for (int i = 0; i < g_run.sc->ntasks; ++i)
        if (atomic_load(&g_run.task[i].state) == TASK_DONE && !atomic_load(&g_b.joined[i]))
            rtipc_task_join(atomic_load(&g_b.task[i]));
    fflush(NULL);
    _exit(0);
}

int diff_backend_run(const diff_scenario_t *sc, diff_log_t *log, unsigned tick_hz)
{
    if (rtipc_sched_policy() != RTIPC_SCHED_FIFO) {
        snprintf(log->skip_reason, sizeof log->skip_reason,
                 "the scenarios need SCHED_FIFO on core 0 for uniprocessor priority scheduling; rtipc runs %s",
                 rtipc_sched_policy_describe());
        atomic_store(&log->skip, 1);
        return 77;
    }
    g_run.sc = sc;
    g_run.log = log;
    g_run.backend = &g_b;
    if (rtipc_tick_set_rate(tick_hz) != RTIPC_OK) {
        diff_log(&g_run, "!! rtipc_tick_set_rate(%u) failed", tick_hz);
        return 1;
    }
    g_b.period_ns = rtipc_tick_period_ns();

    rtipc_task_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.name = "controller";
    cfg.priority = DIFF_PRIO_CONTROLLER;
    cfg.core = 0;
    cfg.stack_size = 64 * 1024;
    cfg.entry = controller;
    rtipc_task_t *ctl;
    int rc = rtipc_task_create(&cfg, &ctl);
    if (rc == RTIPC_EINVAL) {
        snprintf(log->skip_reason, sizeof log->skip_reason,
                 "the scenarios run on core 0, which this process may not use (cpuset or affinity)");
        atomic_store(&log->skip, 1);
        return 77;
    }
    if (rc != RTIPC_OK) {
        diff_log(&g_run, "!! cannot start the controller: %s", err_name(rc));
        return 1;
    }
    rtipc_task_join(ctl); /* the controller ends the process */
    return 1;
}
