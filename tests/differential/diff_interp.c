/*
 * The interpreter of the differential suite: runs a task's steps through
 * the backend and prints one canonical line per step, the same text on
 * every runner. Portable C11: the backends call it from their tasks.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "diff.h"

void diff_log(diff_run_t *run, const char *fmt, ...)
{
    /* The slot is claimed first, so the lines keep the order in which the
     * tasks reached this call; the text is published by the ready flag. */
    unsigned slot = atomic_fetch_add_explicit(&run->log->next, 1u, memory_order_relaxed);
    if (slot >= DIFF_LOG_MAX)
        return; /* the driver reports the lost lines */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(run->log->lines[slot], DIFF_LINE_MAX, fmt, ap);
    va_end(ap);
    /* release: the line's text, for the driver reading it after the child ends */
    atomic_store_explicit(&run->log->ready[slot], 1, memory_order_release);
}

void diff_res(char *res, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res, cap, fmt, ap);
    va_end(ap);
}

int diff_task_ref(const diff_step_t *st, int caller)
{
    return st->task == DIFF_SELF ? caller : st->task;
}

const char *diff_task_name(const diff_run_t *run, int index)
{
    if (index < 0 || index >= run->sc->ntasks)
        return "end";
    return run->sc->tasks[index].name;
}

const char *diff_obj_name(const diff_run_t *run, void *const *handles, const void *h)
{
    for (int i = 0; i < run->sc->nobjs; ++i)
        if (handles[i] == h)
            return run->sc->objs[i].name;
    return "unknown";
}

/* Execute one step and print its line; false when the task is gone. */
static bool run_step(diff_run_t *run, int caller, const diff_step_t *st)
{
    const char *who = diff_task_name(run, caller);
    char res[DIFF_LINE_MAX];
    res[0] = '\0';
    if (st->op == OP_LOG) {
        diff_log(run, "%s: %s", who, st->text);
        return true;
    }
    if (st->kernel_outcome[0] && diff_backend_is_kernel) {
        diff_log(run, "%s: %s -> (kernel: %s)", who, st->src, st->kernel_outcome);
        return true;
    }
    diff_exec_t e = diff_backend_exec(run, caller, st, res, sizeof res);
    if (e == DIFF_GONE)
        return false;
    if (e == DIFF_QUIET && res[0] == '\0')
        return true;
    if (st->stamp)
        diff_log(run, "%s: %s -> %s @%llu", who, st->src, res, (unsigned long long)diff_backend_ticks(run));
    else
        diff_log(run, "%s: %s -> %s", who, st->src, res);
    return true;
}

void diff_run_task(diff_run_t *run, int index)
{
    const diff_task_t *t = &run->sc->tasks[index];
    atomic_store(&run->task[index].state, TASK_RUNNING);
    for (int i = 0; i < t->nsteps; ++i) {
        atomic_store(&run->task[index].step, i);
        if (!run_step(run, index, &t->steps[i]))
            return;
    }
    atomic_store(&run->task[index].state, TASK_DONE);
}

void diff_run_finish(diff_run_t *run)
{
    const diff_scenario_t *sc = run->sc;
    for (int i = 0; i < sc->ntasks; ++i) {
        const char *name = sc->tasks[i].name;
        int step = atomic_load(&run->task[i].step);
        switch (atomic_load(&run->task[i].state)) {
        case TASK_NOT_CREATED:
            diff_log(run, "end: %s never created", name);
            break;
        case TASK_CREATED:
            diff_log(run, "end: %s never ran", name);
            break;
        case TASK_RUNNING:
            diff_log(run, "end: %s waits in step %d: %s", name, step + 1, sc->tasks[i].steps[step].src);
            break;
        case TASK_DONE:
            diff_log(run, "end: %s done", name);
            break;
        default:
            diff_log(run, "end: %s deleted", name);
            break;
        }
    }
    for (int i = 0; i < sc->final.nsteps; ++i)
        run_step(run, DIFF_CONTROLLER, &sc->final.steps[i]);
    /* release: every line above, for the driver */
    atomic_store_explicit(&run->log->complete, 1u, memory_order_release);
}
