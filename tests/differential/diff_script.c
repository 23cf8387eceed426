/*
 * Parser of the differential suite's scenario scripts (the format is
 * described in tests/differential/README.md). Line based: a keyword starts
 * each line; '#' starts a comment. Every name is resolved here, so the
 * runners only execute.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

#define MAX_TOKENS 16

/* Argument kinds of a step, one character each:
 *   q queue  s semaphore  m mutex  e event group  b stream buffer
 *   g message buffer  S queue set  M queue-set member (queue or semaphore)
 *   T task or `self`  D task (not self)  u number  t timeout
 *   x one word of text  L the rest of the line  A notify action
 *   c clear|dec  k clear|keep  w any|all */
typedef struct {
    const char *word;
    diff_op_t op;
    const char *args;
} op_sig_t;

static const op_sig_t op_sigs[] = {
    {"at", OP_AT, "u"},
    {"delay", OP_DELAY, "u"},
    {"yield", OP_YIELD, ""},
    {"log", OP_LOG, "L"},
    {"send", OP_SEND, "qut"},
    {"sendfront", OP_SENDFRONT, "qut"},
    {"recv", OP_RECV, "qt"},
    {"peek", OP_PEEK, "qt"},
    {"overwrite", OP_OVERWRITE, "qu"},
    {"reset", OP_RESET, "q"},
    {"count", OP_COUNT, "q"},
    {"give", OP_GIVE, "s"},
    {"take", OP_TAKE, "st"},
    {"semcount", OP_SEMCOUNT, "s"},
    {"lock", OP_LOCK, "mt"},
    {"unlock", OP_UNLOCK, "m"},
    {"holder", OP_HOLDER, "m"},
    {"prio", OP_PRIO, "T"},
    {"setprio", OP_SETPRIO, "Tu"},
    {"create", OP_CREATE, "D"},
    {"delete", OP_DELETE, "T"},
    {"join", OP_JOIN, "D"},
    {"notify", OP_NOTIFY, "TuAu"},
    {"ngive", OP_NGIVE, "Tu"},
    {"ntake", OP_NTAKE, "uct"},
    {"nwait", OP_NWAIT, "uuut"},
    {"nstate", OP_NSTATE, "Tu"},
    {"nclear", OP_NCLEAR, "Tuu"},
    {"eset", OP_ESET, "eu"},
    {"eclear", OP_ECLEAR, "eu"},
    {"eget", OP_EGET, "e"},
    {"ewait", OP_EWAIT, "eukwt"},
    {"esync", OP_ESYNC, "euut"},
    {"ssend", OP_SSEND, "bxt"},
    {"srecv", OP_SRECV, "but"},
    {"sbytes", OP_SBYTES, "b"},
    {"sreset", OP_SRESET, "b"},
    {"strigger", OP_STRIGGER, "bu"},
    {"msend", OP_MSEND, "gxt"},
    {"mrecv", OP_MRECV, "gut"},
    {"mnext", OP_MNEXT, "g"},
    {"mbytes", OP_MBYTES, "g"},
    {"select", OP_SELECT, "St"},
    {"qadd", OP_QADD, "SM"},
    {"qremove", OP_QREMOVE, "SM"},
};

typedef struct {
    const char *path;
    int line;
    char *err;
    size_t errcap;
} pctx_t;

static int perr(pctx_t *p, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(p->err, p->errcap, "%s:%d: ", p->path, p->line);
    if (n < 0 || (size_t)n >= p->errcap)
        return -1;
    va_start(ap, fmt);
    vsnprintf(p->err + n, p->errcap - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* An argument that is one of two words: *flag tells the first; -1 (with
 * the error "'A': FIRST or SECOND") for any other word. */
static int word_flag(pctx_t *p, const char *a, const char *first, const char *second, bool *flag)
{
    if (strcmp(a, first) != 0 && strcmp(a, second) != 0)
        return perr(p, "'%s': %s or %s", a, first, second);
    *flag = strcmp(a, first) == 0;
    return 0;
}

static int split(char *s, char **tok, int max)
{
    int n = 0;
    while (*s) {
        while (*s && isspace((unsigned char)*s))
            ++s;
        if (!*s)
            break;
        if (n == max)
            return -1;
        tok[n++] = s;
        while (*s && !isspace((unsigned char)*s))
            ++s;
        if (*s)
            *s++ = '\0';
    }
    return n;
}

static int parse_uint(const char *s, uint32_t *out)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)s[0]))
        return -1;
    unsigned long v = strtoul(s, &end, 0);
    if (errno || *end || v > UINT32_MAX)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

static bool name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= DIFF_NAME_MAX || !isalpha((unsigned char)s[0]))
        return false;
    for (size_t i = 0; i < n; ++i)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_')
            return false;
    return true;
}

static int find_obj(const diff_scenario_t *sc, const char *name)
{
    for (int i = 0; i < sc->nobjs; ++i)
        if (strcmp(sc->objs[i].name, name) == 0)
            return i;
    return -1;
}

static int find_task(const diff_scenario_t *sc, const char *name)
{
    for (int i = 0; i < sc->ntasks; ++i)
        if (strcmp(sc->tasks[i].name, name) == 0)
            return i;
    return -1;
}

static bool kind_fits(char want, diff_obj_kind_t k)
{
    switch (want) {
    case 'q': return k == OBJ_QUEUE;
    case 's': return k == OBJ_BSEM || k == OBJ_CSEM;
    case 'm': return k == OBJ_MUTEX || k == OBJ_RMUTEX;
    case 'e': return k == OBJ_EVGROUP;
    case 'b': return k == OBJ_STREAM;
    case 'g': return k == OBJ_MSGBUF;
    case 'S': return k == OBJ_QSET;
    case 'M': return k == OBJ_QUEUE || k == OBJ_BSEM || k == OBJ_CSEM;
    default: return false;
    }
}

static const char *kind_word(char want)
{
    switch (want) {
    case 'q': return "a queue";
    case 's': return "a semaphore";
    case 'm': return "a mutex";
    case 'e': return "an event group";
    case 'b': return "a stream buffer";
    case 'g': return "a message buffer";
    case 'S': return "a queue set";
    default: return "a queue or semaphore";
    }
}

/* Task references are resolved after the whole scenario is read (a step may
 * name a task declared later); until then the name waits in the text. */
typedef struct {
    int scenario_task; /* -1: the end section */
    int step;
    int line;
    char name[DIFF_NAME_MAX];
} pending_ref_t;

#define MAX_PENDING 256

typedef struct {
    pending_ref_t refs[MAX_PENDING];
    int n;
} pending_t;

static int parse_step(pctx_t *p, diff_scenario_t *sc, int task, char **tok, int ntok, pending_t *pend)
{
    diff_task_t *t = task >= 0 ? &sc->tasks[task] : &sc->final;
    if (t->nsteps == DIFF_MAX_STEPS)
        return perr(p, "more than %d steps", DIFF_MAX_STEPS);
    diff_step_t *st = &t->steps[t->nsteps];
    memset(st, 0, sizeof *st);
    st->obj = st->obj2 = st->task = -1;
    st->line = p->line;

    int first = 0;
    if (strcmp(tok[0], "rtipc-only") == 0) {
        if (ntok < 3)
            return perr(p, "rtipc-only needs the kernel's outcome and a step");
        if (strlen(tok[1]) >= sizeof st->kernel_outcome)
            return perr(p, "kernel outcome too long");
        strcpy(st->kernel_outcome, tok[1]);
        first = 2;
    }
    if (ntok > first + 1 && strcmp(tok[ntok - 1], "@") == 0) {
        st->stamp = true;
        --ntok;
    }
    const op_sig_t *sig = NULL;
    for (size_t i = 0; i < sizeof op_sigs / sizeof op_sigs[0]; ++i)
        if (strcmp(op_sigs[i].word, tok[first]) == 0)
            sig = &op_sigs[i];
    if (!sig)
        return perr(p, "unknown step '%s'", tok[first]);
    st->op = sig->op;

    /* The canonical text of the step: its words one space apart. */
    size_t used = 0;
    for (int i = first; i < ntok; ++i) {
        int n = snprintf(st->src + used, sizeof st->src - used, "%s%s", i > first ? " " : "", tok[i]);
        if (n < 0 || (size_t)n >= sizeof st->src - used)
            return perr(p, "step too long");
        used += (size_t)n;
    }
    if (sig->op == OP_LOG) {
        /* `log` keeps the rest of the line as written (spaces normalised). */
        if (ntok < first + 2)
            return perr(p, "log needs a text");
        if (strlen(st->src) - 4 >= sizeof st->text)
            return perr(p, "log text too long");
        strcpy(st->text, st->src + 4);
        ++t->nsteps;
        return 0;
    }
    int nargs = (int)strlen(sig->args);
    if (ntok - first - 1 != nargs)
        return perr(p, "'%s' takes %d argument%s", sig->word, nargs, nargs == 1 ? "" : "s");
    int nv = 0;
    for (int i = 0; i < nargs; ++i) {
        const char *a = tok[first + 1 + i];
        char k = sig->args[i];
        switch (k) {
        case 'u':
            if (nv == 3 || parse_uint(a, &st->v[nv]) != 0)
                return perr(p, "'%s' is not a number", a);
            ++nv;
            break;
        case 't':
            if (strcmp(a, "forever") == 0) {
                st->timeout = DIFF_FOREVER;
            } else {
                uint32_t v;
                if (parse_uint(a, &v) != 0 || v > 100000)
                    return perr(p, "'%s' is not a timeout (ticks, 0 or forever)", a);
                st->timeout = v;
            }
            break;
        case 'x':
            if (strlen(a) >= sizeof st->text)
                return perr(p, "text too long");
            strcpy(st->text, a);
            break;
        case 'A':
            if (strcmp(a, "none") == 0)
                st->v[nv++] = DIFF_N_NONE;
            else if (strcmp(a, "bits") == 0)
                st->v[nv++] = DIFF_N_BITS;
            else if (strcmp(a, "inc") == 0)
                st->v[nv++] = DIFF_N_INC;
            else if (strcmp(a, "overwrite") == 0)
                st->v[nv++] = DIFF_N_OVERWRITE;
            else if (strcmp(a, "nooverwrite") == 0)
                st->v[nv++] = DIFF_N_NOOVERWRITE;
            else
                return perr(p, "'%s' is not a notify action (none bits inc overwrite nooverwrite)", a);
            break;
        case 'c':
            if (word_flag(p, a, "clear", "dec", &st->flag_a) < 0)
                return -1;
            break;
        case 'k':
            if (word_flag(p, a, "clear", "keep", &st->flag_a) < 0)
                return -1;
            break;
        case 'w': /* any or all: the flag says all */
            if (word_flag(p, a, "any", "all", &st->flag_b) < 0)
                return -1;
            st->flag_b = !st->flag_b;
            break;
        case 'T':
        case 'D':
            if (k == 'T' && strcmp(a, "self") == 0) {
                if (task < 0)
                    return perr(p, "no 'self' in the end section");
                st->task = DIFF_SELF;
                break;
            }
            if (!name_ok(a))
                return perr(p, "'%s' is not a task name", a);
            if (pend->n == MAX_PENDING)
                return perr(p, "too many task references");
            pend->refs[pend->n].scenario_task = task;
            pend->refs[pend->n].step = t->nsteps;
            pend->refs[pend->n].line = p->line;
            strcpy(pend->refs[pend->n].name, a);
            ++pend->n;
            break;
        default: {
            int o = find_obj(sc, a);
            if (o < 0)
                return perr(p, "no object '%s'", a);
            if (!kind_fits(k, sc->objs[o].kind))
                return perr(p, "'%s' is not %s", a, kind_word(k));
            if (k == 'M')
                st->obj2 = o;
            else
                st->obj = o;
            break;
        }
        }
    }
    if (st->op == OP_AT && st->v[0] == 0)
        return perr(p, "at 0: tasks start at 0 anyway");
    if ((st->op == OP_NOTIFY || st->op == OP_NGIVE || st->op == OP_NSTATE || st->op == OP_NCLEAR)
        && st->v[0] >= DIFF_NOTIFY_SLOTS && !st->kernel_outcome[0])
        return perr(p, "notification index %u out of range (an rtipc-only step may use it)", st->v[0]);
    if ((st->op == OP_NTAKE || st->op == OP_NWAIT) && st->v[0] >= DIFF_NOTIFY_SLOTS && !st->kernel_outcome[0])
        return perr(p, "notification index %u out of range (an rtipc-only step may use it)", st->v[0]);
    if (st->op == OP_SETPRIO && (st->v[0] < 1 || st->v[0] > DIFF_PRIO_MAX) && !st->kernel_outcome[0])
        return perr(p, "priority %u outside 1..%u", st->v[0], DIFF_PRIO_MAX);
    if (task < 0) {
        switch (st->op) {
        case OP_AT: case OP_DELAY: case OP_YIELD: case OP_CREATE: case OP_DELETE: case OP_JOIN:
            return perr(p, "the end section runs non-blocking steps only");
        default:
            if (st->timeout != 0)
                return perr(p, "the end section runs non-blocking steps only (timeout 0)");
        }
    }
    ++t->nsteps;
    return 0;
}

/* Upper bound of the ticks a task's steps take: `at`, delays and finite
 * timeouts; the default duration of a scenario follows from it. */
static unsigned task_span(const diff_task_t *t)
{
    uint64_t at = 0;
    for (int i = 0; i < t->nsteps; ++i) {
        const diff_step_t *st = &t->steps[i];
        if (st->op == OP_AT && st->v[0] > at)
            at = st->v[0];
        else if (st->op == OP_DELAY)
            at += st->v[0];
        else if (st->timeout > 0)
            at += (uint64_t)st->timeout;
    }
    return at > 100000 ? 100000u : (unsigned)at;
}

static int finish_scenario(pctx_t *p, diff_scenario_t *sc, pending_t *pend)
{
    for (int i = 0; i < pend->n; ++i) {
        pending_ref_t *r = &pend->refs[i];
        diff_task_t *t = r->scenario_task >= 0 ? &sc->tasks[r->scenario_task] : &sc->final;
        int idx = find_task(sc, r->name);
        if (idx < 0) {
            p->line = r->line;
            return perr(p, "no task '%s'", r->name);
        }
        t->steps[r->step].task = idx;
        if (t->steps[r->step].op == OP_CREATE && !sc->tasks[idx].deferred) {
            p->line = r->line;
            return perr(p, "create %s: only a deferred task is created by a step", r->name);
        }
    }
    pend->n = 0;
    if (sc->ntasks == 0) {
        p->line = sc->line;
        return perr(p, "scenario '%s' has no task", sc->name);
    }
    if (sc->ticks == 0) {
        unsigned span = 0;
        for (int i = 0; i < sc->ntasks; ++i) {
            unsigned s = task_span(&sc->tasks[i]);
            if (s > span)
                span = s;
        }
        sc->ticks = span + 10;
    }
    return 0;
}

static diff_scenario_t *new_scenario(diff_suite_t *suite)
{
    if (suite->count == suite->cap) {
        int cap = suite->cap ? suite->cap * 2 : 64;
        diff_scenario_t *n = realloc(suite->items, (size_t)cap * sizeof *n);
        if (!n)
            return NULL;
        suite->items = n;
        suite->cap = cap;
    }
    diff_scenario_t *sc = &suite->items[suite->count++];
    memset(sc, 0, sizeof *sc);
    return sc;
}

int diff_parse_file(const char *path, diff_suite_t *suite, char *err, size_t errcap)
{
    pctx_t p = {path, 0, err, errcap};
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errcap, "%s: %s", path, strerror(errno));
        return -1;
    }
    static pending_t pend;
    pend.n = 0;
    diff_scenario_t *sc = NULL;
    int task = -2; /* -2: before any task; -1: the end section */
    char buf[512];
    int rc = 0;
    while (fgets(buf, sizeof buf, f)) {
        ++p.line;
        size_t len = strlen(buf);
        if (len == sizeof buf - 1 && buf[len - 1] != '\n') {
            rc = perr(&p, "line too long");
            break;
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        /* `doc` is a sentence for readers of the script. */
        const char *lead = buf + strspn(buf, " \t");
        if (strncmp(lead, "doc", 3) == 0 && (lead[3] == ' ' || lead[3] == '\t' || lead[3] == '\n'))
            continue;
        char *tok[MAX_TOKENS];
        int ntok = split(buf, tok, MAX_TOKENS);
        if (ntok < 0) {
            rc = perr(&p, "too many words");
            break;
        }
        if (ntok == 0)
            continue;
        const char *kw = tok[0];
        if (strcmp(kw, "scenario") == 0) {
            if (sc && (rc = finish_scenario(&p, sc, &pend)) != 0)
                break;
            if (ntok != 2 || strlen(tok[1]) >= sizeof sc->name) {
                rc = perr(&p, "scenario NAME");
                break;
            }
            for (int i = 0; i < suite->count; ++i)
                if (strcmp(suite->items[i].name, tok[1]) == 0) {
                    rc = perr(&p, "scenario '%s' defined twice (also %s:%d)", tok[1], suite->items[i].file,
                              suite->items[i].line);
                    break;
                }
            if (rc)
                break;
            sc = new_scenario(suite);
            if (!sc) {
                rc = perr(&p, "out of memory");
                break;
            }
            strcpy(sc->name, tok[1]);
            snprintf(sc->file, sizeof sc->file, "%s", path);
            sc->line = p.line;
            task = -2;
            continue;
        }
        if (!sc) {
            rc = perr(&p, "'%s' before the first scenario", kw);
            break;
        }
        if (strcmp(kw, "ticks") == 0) {
            uint32_t v;
            if (ntok != 2 || parse_uint(tok[1], &v) != 0 || v == 0 || v > 100000) {
                rc = perr(&p, "ticks N (1..100000)");
                break;
            }
            sc->ticks = v;
            continue;
        }
        struct {
            const char *word;
            diff_obj_kind_t kind;
            int nargs;
        } objw[] = {
            {"queue", OBJ_QUEUE, 1}, {"bsem", OBJ_BSEM, 0},     {"csem", OBJ_CSEM, 2},
            {"mutex", OBJ_MUTEX, 0}, {"rmutex", OBJ_RMUTEX, 0}, {"evgroup", OBJ_EVGROUP, 0},
            {"stream", OBJ_STREAM, 2}, {"msgbuf", OBJ_MSGBUF, 1}, {"qset", OBJ_QSET, 1},
        };
        int ow = -1;
        for (int i = 0; i < (int)(sizeof objw / sizeof objw[0]); ++i)
            if (strcmp(kw, objw[i].word) == 0)
                ow = i;
        if (ow >= 0) {
            if (task != -2) {
                rc = perr(&p, "objects are declared before the tasks");
                break;
            }
            if (ntok != 2 + objw[ow].nargs || !name_ok(tok[1])) {
                rc = perr(&p, "%s NAME takes %d number%s", kw, objw[ow].nargs, objw[ow].nargs == 1 ? "" : "s");
                break;
            }
            if (sc->nobjs == DIFF_MAX_OBJECTS || find_obj(sc, tok[1]) >= 0) {
                rc = perr(&p, "too many objects, or '%s' declared twice", tok[1]);
                break;
            }
            diff_obj_t *o = &sc->objs[sc->nobjs];
            memset(o, 0, sizeof *o);
            strcpy(o->name, tok[1]);
            o->kind = objw[ow].kind;
            uint32_t v[2] = {0, 0};
            for (int i = 0; i < objw[ow].nargs; ++i)
                if (parse_uint(tok[2 + i], &v[i]) != 0) {
                    rc = perr(&p, "'%s' is not a number", tok[2 + i]);
                    break;
                }
            if (rc)
                break;
            o->a = v[0];
            o->b = v[1];
            if (o->kind == OBJ_BSEM)
                o->a = 1;
            if (o->kind != OBJ_EVGROUP && o->kind != OBJ_MUTEX && o->kind != OBJ_RMUTEX && o->a == 0) {
                rc = perr(&p, "%s %s: the size must be at least 1", kw, tok[1]);
                break;
            }
            ++sc->nobjs;
            continue;
        }
        if (strcmp(kw, "member") == 0) {
            int s = ntok == 3 ? find_obj(sc, tok[1]) : -1;
            int m = ntok == 3 ? find_obj(sc, tok[2]) : -1;
            if (task != -2 || s < 0 || m < 0 || !kind_fits('S', sc->objs[s].kind)
                || !kind_fits('M', sc->objs[m].kind) || sc->nmembers == DIFF_MAX_MEMBERS) {
                rc = perr(&p, "member SET QUEUE|SEMAPHORE, before the tasks");
                break;
            }
            sc->members[sc->nmembers][0] = s;
            sc->members[sc->nmembers][1] = m;
            ++sc->nmembers;
            continue;
        }
        if (strcmp(kw, "task") == 0) {
            uint32_t prio;
            bool deferred = ntok == 4 && strcmp(tok[3], "deferred") == 0;
            if ((ntok != 3 && !deferred) || !name_ok(tok[1]) || strcmp(tok[1], "self") == 0
                || strcmp(tok[1], "end") == 0 || parse_uint(tok[2], &prio) != 0 || prio < 1
                || prio > DIFF_PRIO_MAX) {
                rc = perr(&p, "task NAME PRIORITY(1..%u) [deferred]", DIFF_PRIO_MAX);
                break;
            }
            if (task == -1) {
                rc = perr(&p, "tasks come before the end section");
                break;
            }
            if (sc->ntasks == DIFF_MAX_TASKS || find_task(sc, tok[1]) >= 0 || find_obj(sc, tok[1]) >= 0) {
                rc = perr(&p, "too many tasks, or the name '%s' is taken", tok[1]);
                break;
            }
            diff_task_t *t = &sc->tasks[sc->ntasks];
            memset(t, 0, sizeof *t);
            strcpy(t->name, tok[1]);
            t->prio = prio;
            t->deferred = deferred;
            task = sc->ntasks++;
            continue;
        }
        if (strcmp(kw, "end") == 0 && ntok == 1) {
            if (task == -1) {
                rc = perr(&p, "a second end section");
                break;
            }
            task = -1;
            continue;
        }
        if (task == -2) {
            rc = perr(&p, "a step before the first task");
            break;
        }
        if ((rc = parse_step(&p, sc, task, tok, ntok, &pend)) != 0)
            break;
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errcap, "%s: read error", path);
        rc = -1;
    }
    fclose(f);
    if (rc == 0 && sc)
        rc = finish_scenario(&p, sc, &pend);
    return rc;
}

void diff_suite_free(diff_suite_t *suite)
{
    free(suite->items);
    suite->items = NULL;
    suite->count = suite->cap = 0;
}
