/* Conformance suite: infrastructure and entry point. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "conf_internal.h"

#define CONF_LINE 200

static const char *const step_names[ST_COUNT] = {
    [ST_T_TRIGGER] = "T.trigger",
    [ST_ISR] = "isr",
    [ST_T_RETURNED] = "T.returned",
    [ST_T_YIELD] = "T.yield",
    [ST_T_AFTER_YIELD] = "T.after_yield",
    [ST_T_SAW_RUN] = "T.saw_run",
    [ST_T_GAVE_UP] = "T.gave_up",
    [ST_R_RUN] = "R.run",
    [ST_R_RUN_SAME_TICK] = "R.run@same_tick",
    [ST_R_RUN_NEXT_TICK] = "R.run@next_tick",
    [ST_R_RUN_LATER_TICK] = "R.run@later_tick",
    [ST_R_BLOCK] = "R.block",
    [ST_R_GOT] = "R.got",
    [ST_S_BLOCK] = "S.block",
    [ST_S_SENT] = "S.sent",
    [ST_H_BLOCK] = "H.block",
    [ST_H_DONE] = "H.done",
    [ST_HI_BLOCK] = "Hi.block",
    [ST_HI_DONE] = "Hi.done",
    [ST_LO_BLOCK] = "Lo.block",
    [ST_LO_DONE] = "Lo.done",
    [ST_T_ACT] = "T.act",
    [ST_T_ACT2] = "T.act2",
    [ST_T_AFTER] = "T.after",
};

static void emit_line(conf_t *c, const char *line) { c->emit(line, c->ctx); }

void conf_check(conf_t *c, const char *key, const char *expected, const char *fmt, ...)
{
    char observed[CONF_LINE];
    char line[CONF_LINE + 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(observed, sizeof observed, fmt, ap);
    va_end(ap);
    c->checks++;
    snprintf(line, sizeof line, "%s: %s", key, observed);
    emit_line(c, line);
    if (strcmp(observed, expected) != 0) {
        c->failed++;
        snprintf(line, sizeof line, "# FAIL %s: expected %s", key, expected);
        emit_line(c, line);
    }
}

void conf_note(conf_t *c, const char *fmt, ...)
{
    char line[CONF_LINE];
    va_list ap;
    line[0] = '#';
    line[1] = ' ';
    va_start(ap, fmt);
    vsnprintf(line + 2, sizeof line - 2, fmt, ap);
    va_end(ap);
    emit_line(c, line);
}

bool conf_setup(conf_t *c, const char *what, int rc)
{
    if (rc == RTIPC_OK)
        return true;
    c->failed++;
    conf_note(c, "FAIL setup %s: %s", what, conf_err(rc));
    return false;
}

bool conf_need_order(conf_t *c, const char *group)
{
    if (c->ordered)
        return true;
    conf_note(c, "skip %s (needs preemptive priority scheduling)", group);
    return false;
}

const char *conf_err(int rc)
{
    if (rc == RTIPC_OK)
        return "0";
    if (rc == CONF_NOT_CALLED)
        return "not-called";
    const char *name = rtipc_error_name(rc);
    return name ? name : rc > 0 ? "positive" : "unknown";
}

const char *conf_bound(int64_t elapsed, int64_t timeout_ns)
{
    if (elapsed < timeout_ns - rtipc_tick_period_ns())
        return "early";
    if (elapsed > timeout_ns + CONF_LATE_SLACK_NS)
        return "late";
    return "ok";
}

void conf_step(conf_t *c, enum conf_step s)
{
    uint8_t b = (uint8_t)s;
    if (rtipc_in_interrupt())
        (void)rtipc_queue_send_from_isr(c->log, &b, NULL);
    else
        (void)rtipc_queue_send(c->log, &b, RTIPC_NO_WAIT);
}

int conf_steps_count(conf_t *c) { return rtipc_queue_messages_waiting(c->log); }

void conf_steps(conf_t *c, char *buf, size_t size)
{
    size_t used = 0;
    uint8_t b;
    buf[0] = '\0';
    while (rtipc_queue_receive(c->log, &b, RTIPC_NO_WAIT) == RTIPC_OK) {
        const char *name = b < ST_COUNT ? step_names[b] : "?";
        int n = snprintf(buf + used, size - used, "%s%s", used ? " " : "", name);
        if (n < 0 || (size_t)n >= size - used)
            break;
        used += (size_t)n;
    }
}

bool conf_spawn(conf_t *c, const char *name, unsigned prio, rtipc_task_fn fn, void *arg, rtipc_task_t **out)
{
    /* Designated initializer: every field not named is zero. */
    rtipc_task_config_t cfg = {
        .name = name, .priority = prio, .core = RTIPC_CONF_CORE, .stack_size = RTIPC_CONF_STACK, .entry = fn, .arg = arg};
    *out = NULL;
    return conf_setup(c, name, rtipc_task_create(&cfg, out));
}

void conf_join(conf_t *c, rtipc_task_t *t)
{
    if (t)
        (void)conf_setup(c, "join", rtipc_task_join(t));
}

int rtipc_conformance_run_flags(void (*emit)(const char *line, void *ctx), void *ctx, unsigned flags)
{
    conf_t c;
    memset(&c, 0, sizeof c);
    c.emit = emit;
    c.ctx = ctx;
    c.self = rtipc_task_current();
    c.ordered = rtipc_sched_policy() == RTIPC_SCHED_FIFO && !(flags & RTIPC_CONF_SKIP_ORDERED);
    conf_note(&c, "rtipc %s, scheduling %s, %d notification slots, tick %u Hz", RTIPC_VERSION,
              rtipc_sched_policy_describe(), RTIPC_NOTIFY_SLOTS, (unsigned)rtipc_tick_rate());
    int old_prio = rtipc_task_priority(c.self);
    if (!conf_setup(&c, "set_priority", rtipc_task_set_priority(NULL, RTIPC_CONF_PRIO_RUNNER)))
        return c.failed;
    if (!conf_setup(&c, "log", rtipc_queue_create(32, sizeof(uint8_t), &c.log)))
        return c.failed;

#define CONF_RUN_GROUP(name) conf_##name(&c);
    CONF_GROUPS(CONF_RUN_GROUP)
#undef CONF_RUN_GROUP

    (void)rtipc_queue_delete(c.log);
    if (old_prio >= 0)
        (void)rtipc_task_set_priority(NULL, (unsigned)old_prio);
    conf_note(&c, "%d checks, %d failed", c.checks, c.failed);
    return c.failed;
}

int rtipc_conformance_run(void (*emit)(const char *line, void *ctx), void *ctx)
{
    return rtipc_conformance_run_flags(emit, ctx, 0);
}
