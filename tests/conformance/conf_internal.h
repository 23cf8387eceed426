/* Shared helpers of the conformance suite (not part of its interface). */
#ifndef RTIPC_CONF_INTERNAL_H
#define RTIPC_CONF_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rtipc/rtipc.h"

#include "conformance.h"

#define CONF_PRIO_LOW 1u
#define CONF_PRIO_HIGH 3u
#define CONF_PRIO_HIGHER 4u

/* Finite timeout of the timeout checks, and the bounds they are held to: a
 * wait may end up to one tick early on a tick-based kernel (the first tick
 * of the count can come at once) and is "late" only beyond a generous slack. */
#define CONF_TIMEOUT_MS 20u
#define CONF_LATE_SLACK_NS 1000000000LL
/* Helpers' waits that must not expire during a scenario. */
#define CONF_LONG_MS 3000u

/* Step names of the ordering logs; a log entry is the index of its name. */
enum conf_step {
    ST_T_TRIGGER,
    ST_ISR,
    ST_T_RETURNED,
    ST_T_YIELD,
    ST_T_AFTER_YIELD,
    ST_T_SAW_RUN,
    ST_T_GAVE_UP,
    ST_R_RUN,
    ST_R_RUN_SAME_TICK,
    ST_R_RUN_NEXT_TICK,
    ST_R_RUN_LATER_TICK,
    ST_R_BLOCK,
    ST_R_GOT,
    ST_S_BLOCK,
    ST_S_SENT,
    ST_H_BLOCK,
    ST_H_DONE,
    ST_HI_BLOCK,
    ST_HI_DONE,
    ST_LO_BLOCK,
    ST_LO_DONE,
    ST_T_ACT,
    ST_T_ACT2,
    ST_T_AFTER,
    ST_COUNT
};

typedef struct conf {
    void (*emit)(const char *line, void *ctx);
    void *ctx;
    int failed;
    int checks;
    bool ordered;          /* preemptive priority scheduling: ordered scenarios run */
    rtipc_queue_t *log;    /* step log: one uint8_t step per entry */
    rtipc_task_t *self;
} conf_t;

/* Emit "key: observed" and compare it with the expected text. */
void conf_check(conf_t *c, const char *key, const char *expected, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Emit a '#' comment line. */
void conf_note(conf_t *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A setup call that must succeed; false (and one failure) if it did not. */
bool conf_setup(conf_t *c, const char *what, int rc);
/* false (with a "# skip" line) when ordered scenarios cannot run. */
bool conf_need_order(conf_t *c, const char *group);

/* What a check prints for a call it did not make ("not-called"): FreeRTOS
 * direct mode gives up a refusal the check would look for. No rtipc code. */
#define CONF_NOT_CALLED (-1000)
/* Error code as its macro name ("0" for success, "not-called"). */
const char *conf_err(int rc);
/* "ok", "early" or "late" for a wait of @p elapsed ns against @p timeout_ns. */
const char *conf_bound(int64_t elapsed, int64_t timeout_ns);

/* Step log: append (task or handler), and drain into "a b c" text. */
void conf_step(conf_t *c, enum conf_step s);
void conf_steps(conf_t *c, char *buf, size_t size);
int conf_steps_count(conf_t *c);

/* Helper tasks pinned to RTIPC_CONF_CORE. */
bool conf_spawn(conf_t *c, const char *name, unsigned prio, rtipc_task_fn fn, void *arg, rtipc_task_t **out);
void conf_join(conf_t *c, rtipc_task_t *t);

/* The scenario groups, conf_NAME(conf_t *c), in the order a run takes them
 * (the order of the lines in expected.txt); listed once for the
 * declarations here and the calls in conformance.c. */
#define CONF_GROUPS(X)                                                                                         \
    X(queue) X(sem) X(mutex) X(notify) X(queueset) X(eventgroup) X(streambuf) X(msgbuf) X(mailbox_spsc)      \
    X(ringbuf) X(irq) X(wdt)
#define CONF_DECLARE_GROUP(name) void conf_##name(conf_t *c);
CONF_GROUPS(CONF_DECLARE_GROUP)
#undef CONF_DECLARE_GROUP

#endif
