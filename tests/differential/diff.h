/*
 * The differential suite (tests/differential/README.md): scenarios parsed
 * from plain-text scripts, one interpreter, and two backends that execute
 * the same steps, one on rtipc's Linux port and one on the real FreeRTOS
 * kernel (its own API, on the POSIX simulator). Each backend prints the
 * same canonical lines, so their outputs can be compared line by line.
 *
 * This header is shared by the parser (diff_script.c), the interpreter
 * (diff_interp.c), the process driver (diff_driver.c) and both backends.
 */
#ifndef RTIPC_DIFF_H
#define RTIPC_DIFF_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DIFF_NAME_MAX 24     /* object and task names */
#define DIFF_MAX_OBJECTS 16
#define DIFF_MAX_TASKS 10
#define DIFF_MAX_STEPS 48    /* per task */
#define DIFF_MAX_MEMBERS 8
#define DIFF_TEXT_MAX 64     /* data of ssend/msend, text of log */
#define DIFF_SRC_MAX 112     /* the step as written, normalised */
#define DIFF_LINE_MAX 200    /* one output line */
#define DIFF_LOG_MAX 400     /* lines per scenario */

/* Priority of the controller, above every scenario task. Scenario tasks use
 * 1 .. DIFF_PRIO_MAX (0 is the kernel's idle priority). */
#define DIFF_PRIO_CONTROLLER 31u
#define DIFF_PRIO_MAX 30u
#define DIFF_NOTIFY_SLOTS 3u

/* Timeouts, in ticks. */
#define DIFF_FOREVER (-1)

/* Task references. */
#define DIFF_SELF (-2)
#define DIFF_CONTROLLER (-1)

typedef enum {
    OBJ_QUEUE,
    OBJ_BSEM,
    OBJ_CSEM,
    OBJ_MUTEX,
    OBJ_RMUTEX,
    OBJ_EVGROUP,
    OBJ_STREAM,
    OBJ_MSGBUF,
    OBJ_QSET,
} diff_obj_kind_t;

typedef struct {
    char name[DIFF_NAME_MAX];
    diff_obj_kind_t kind;
    unsigned a; /* queue length, semaphore max, buffer size, set length */
    unsigned b; /* semaphore initial count, stream trigger level */
} diff_obj_t;

typedef enum {
    OP_AT,
    OP_DELAY,
    OP_YIELD,
    OP_LOG,
    OP_SEND,
    OP_SENDFRONT,
    OP_RECV,
    OP_PEEK,
    OP_OVERWRITE,
    OP_RESET,
    OP_COUNT,
    OP_GIVE,
    OP_TAKE,
    OP_SEMCOUNT,
    OP_LOCK,
    OP_UNLOCK,
    OP_HOLDER,
    OP_PRIO,
    OP_SETPRIO,
    OP_CREATE,
    OP_DELETE,
    OP_JOIN,
    OP_NOTIFY,
    OP_NGIVE,
    OP_NTAKE,
    OP_NWAIT,
    OP_NSTATE,
    OP_NCLEAR,
    OP_ESET,
    OP_ECLEAR,
    OP_EGET,
    OP_EWAIT,
    OP_ESYNC,
    OP_SSEND,
    OP_SRECV,
    OP_SBYTES,
    OP_SRESET,
    OP_STRIGGER,
    OP_MSEND,
    OP_MRECV,
    OP_MNEXT,
    OP_MBYTES,
    OP_SELECT,
    OP_QADD,
    OP_QREMOVE,
    OP_COUNT_OF_OPS
} diff_op_t;

/* Notification actions, as FreeRTOS's eNotifyAction numbers them. */
typedef enum {
    DIFF_N_NONE = 0,
    DIFF_N_BITS = 1,
    DIFF_N_INC = 2,
    DIFF_N_OVERWRITE = 3,
    DIFF_N_NOOVERWRITE = 4,
} diff_notify_action_t;

typedef struct {
    diff_op_t op;
    int obj;          /* object index (or -1) */
    int obj2;         /* second object (queue-set member) or -1 */
    int task;         /* task index, DIFF_SELF, or -1 */
    int64_t timeout;  /* ticks; 0 = no wait; DIFF_FOREVER */
    uint32_t v[3];    /* numeric arguments, in the order written */
    bool flag_a;      /* ntake: clear (else decrement); ewait: clear on exit */
    bool flag_b;      /* ewait: wait for all (else any) */
    bool stamp;       /* '@' at the end: print the tick the step ended at */
    char text[DIFF_TEXT_MAX];
    char src[DIFF_SRC_MAX];          /* the step as written, one space apart */
    char kernel_outcome[DIFF_TEXT_MAX]; /* non-empty: an rtipc-only step */
    int line;         /* line in the scenario file */
} diff_step_t;

typedef struct {
    char name[DIFF_NAME_MAX];
    unsigned prio;
    bool deferred; /* created by a `create` step, not by the controller */
    int nsteps;
    diff_step_t steps[DIFF_MAX_STEPS];
} diff_task_t;

typedef struct {
    char name[80];
    char file[160];
    int line;
    unsigned ticks; /* duration; the controller reports the state then */
    int nobjs;
    diff_obj_t objs[DIFF_MAX_OBJECTS];
    int nmembers;
    int members[DIFF_MAX_MEMBERS][2]; /* set, member: added before tasks start */
    int ntasks;
    diff_task_t tasks[DIFF_MAX_TASKS];
    diff_task_t final; /* steps the controller runs at the end (`end` section) */
} diff_scenario_t;

/* ---- Parser (diff_script.c) ---------------------------------------- */

typedef struct {
    diff_scenario_t *items;
    int count;
    int cap;
} diff_suite_t;

/* Parse one scenario file and append its scenarios to @p suite. On a syntax
 * error, writes "FILE:LINE: message" to @p err and returns -1. */
int diff_parse_file(const char *path, diff_suite_t *suite, char *err, size_t errcap);
void diff_suite_free(diff_suite_t *suite);

/* ---- The log, in memory shared with the driver process ---------------- */

typedef struct {
    atomic_uint next;               /* next free slot */
    atomic_uint complete;           /* 1: the controller printed the end state */
    atomic_int skip;                /* the runner cannot run meaningfully here */
    char skip_reason[DIFF_LINE_MAX];
    atomic_int disturbed;           /* something outside the scenario took the core: run it again */
    char disturbed_reason[DIFF_LINE_MAX];
    atomic_uchar ready[DIFF_LOG_MAX];
    char lines[DIFF_LOG_MAX][DIFF_LINE_MAX];
} diff_log_t;

/* ---- One run of one scenario (diff_interp.c) -------------------------- */

/* A task's state as the controller reports it at the end. */
enum { TASK_NOT_CREATED, TASK_CREATED, TASK_RUNNING, TASK_DONE, TASK_DELETED };

typedef struct {
    atomic_int step;  /* index of the step being executed */
    atomic_int state; /* TASK_* */
} diff_task_state_t;

typedef struct diff_run {
    const diff_scenario_t *sc;
    diff_log_t *log;
    diff_task_state_t task[DIFF_MAX_TASKS];
    uint64_t start_tick;
    void *backend; /* the backend's handles */
} diff_run_t;

/* Append a formatted line to the log (lock-free; any task). */
void diff_log(diff_run_t *run, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Run task @p index's steps, then mark it done. Called from the task's entry. */
void diff_run_task(diff_run_t *run, int index);

/* Called by the controller at the end tick: prints each task's state, runs
 * the `end` steps, and marks the log complete. */
void diff_run_finish(diff_run_t *run);

/* Task index of a step's task reference, resolving `self` for @p caller. */
int diff_task_ref(const diff_step_t *st, int caller);

/* Name of a task index, or "end" for the controller. */
const char *diff_task_name(const diff_run_t *run, int index);

/* Name of the scenario object whose handle is @p h, given the backend's
 * handles in scenario order, or "unknown". */
const char *diff_obj_name(const diff_run_t *run, void *const *handles, const void *h);

/* Formatting helpers shared by the backends, so both print the same text. */
void diff_res(char *res, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- What each backend provides ---------------------------------------- */

/* What execution of a step asks the interpreter to print. */
typedef enum {
    DIFF_PRINT, /* "TASK: step -> result" */
    DIFF_QUIET, /* nothing (at, delay, yield) unless the result is non-empty */
    DIFF_GONE,  /* the task deleted itself: nothing more runs */
} diff_exec_t;

/* Execute one step for task @p caller (DIFF_CONTROLLER for the `end` steps),
 * writing the canonical result into @p res. */
diff_exec_t diff_backend_exec(diff_run_t *run, int caller, const diff_step_t *st, char *res, size_t cap);

/* Ticks since the scenario started (for '@' stamps). */
uint64_t diff_backend_ticks(diff_run_t *run);

/* Called by the driver in a fresh child process: run the scenario and mark
 * the log complete; the child exits with the returned status. */
int diff_backend_run(const diff_scenario_t *sc, diff_log_t *log, unsigned tick_hz);

/* A line describing the runner, printed as a '#' comment. */
const char *diff_backend_describe(void);

/* The runner's name for --version and messages. */
extern const char diff_runner_name[];

/* True in the kernel runner: rtipc-only steps are not executed there; the
 * line prints the kernel's outcome written in the script instead. */
extern const bool diff_backend_is_kernel;

/* Default tick rate of the scenario clock. */
#define DIFF_TICK_HZ_DEFAULT 100u

#endif
