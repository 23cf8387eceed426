/* Checks a Chrome/Perfetto trace-event JSON file: every event has ph, ts,
 * pid and tid; B/E pairs balance per thread; complete slices (X) have a
 * duration and nest properly on their thread (a viewer cannot draw two
 * slices of one thread that partly overlap); every flow start (s) has
 * exactly one finish (f) with the same id and each binds to a slice of its
 * thread; counters (C) carry numeric values; metadata names are strings.
 *
 *   validate_trace_events FILE
 *
 * Prints a summary line on success. Exit 0 valid, 1 invalid, 2 usage. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/harness/util.h"
#include "validate_input.h"

static int errors;

static void bad(const char *what, const cJSON *ev)
{
    if (errors++ >= 20)
        return;
    char *text = ev ? cJSON_PrintUnformatted(ev) : NULL;
    fprintf(stderr, "validate_trace_events: %s%s%s\n", what, text ? ": " : "", text ? text : "");
    free(text);
}

typedef struct {
    double b, e;          /* start, end */
} slice_t;

typedef struct {
    double pid, tid;
    long open_b;          /* B minus E so far */
    slice_t *sl;          /* its X slices */
    size_t n, cap;
} thread_t;

static thread_t *threads;
static size_t n_threads, cap_threads;

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    *cap = *cap ? 2 * *cap : 16;
    if (*cap < need)
        *cap = need;
    p = realloc(p, *cap * elem);
    if (!p) {
        fprintf(stderr, "validate_trace_events: out of memory\n");
        exit(2);
    }
    return p;
}

static thread_t *thread_of(double pid, double tid)
{
    for (size_t i = 0; i < n_threads; i++)
        if (threads[i].pid == pid && threads[i].tid == tid)
            return &threads[i];
    threads = grow(threads, &cap_threads, n_threads + 1, sizeof *threads);
    thread_t *t = &threads[n_threads++];
    memset(t, 0, sizeof *t);
    t->pid = pid;
    t->tid = tid;
    return t;
}

typedef struct {
    char id[64];
    double pid, tid, ts;
    bool enclosing;       /* f with "bp":"e" */
    const cJSON *ev;
} flow_t;

static flow_t *starts, *finishes;
static size_t n_starts, cap_starts, n_finishes, cap_finishes;

static void flow_id(const cJSON *ev, char out[64])
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(ev, "id");
    if (cJSON_IsNumber(id))
        snprintf(out, 64, "n%.0f", id->valuedouble);
    else if (cJSON_IsString(id))
        snprintf(out, 64, "s%s", id->valuestring);
    else
        out[0] = 0;
}

/* Slices sorted by start, the longer first at equal starts (the parent). */
static const thread_t *sort_thread;
static int by_start(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    const thread_t *t = sort_thread;
    if (t->sl[i].b != t->sl[j].b)
        return t->sl[i].b < t->sl[j].b ? -1 : 1;
    if (t->sl[i].e != t->sl[j].e)
        return t->sl[i].e > t->sl[j].e ? -1 : 1;
    return 0;
}

#define EPS 1e-9

static void check_nesting(thread_t *t)
{
    size_t *order = malloc((t->n ? t->n : 1) * sizeof *order);
    double *stack = malloc((t->n ? t->n : 1) * sizeof *stack);
    if (!order || !stack) {
        fprintf(stderr, "validate_trace_events: out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < t->n; i++)
        order[i] = i;
    sort_thread = t;
    qsort(order, t->n, sizeof *order, by_start);
    size_t depth = 0;
    for (size_t k = 0; k < t->n; k++) {
        double b = t->sl[order[k]].b, e = t->sl[order[k]].e;
        while (depth && stack[depth - 1] <= b + EPS)
            depth--;
        if (depth && e > stack[depth - 1] + EPS) {
            char what[160];
            snprintf(what, sizeof what, "slices overlap on pid %.0f tid %.0f at ts %.3f", t->pid, t->tid, b);
            bad(what, NULL);
        }
        stack[depth++] = e;
    }
    free(order);
    free(stack);
}

/* Inside a slice of its thread: enclosing, or (bp absent on f) the next one. */
static bool binds(const flow_t *f, bool next_slice)
{
    for (size_t i = 0; i < n_threads; i++) {
        const thread_t *t = &threads[i];
        if (t->pid != f->pid || t->tid != f->tid)
            continue;
        for (size_t k = 0; k < t->n; k++) {
            const slice_t *s = &t->sl[k];
            if (next_slice ? s->b >= f->ts - EPS : (s->b <= f->ts + EPS && f->ts <= s->e + EPS))
                return true;
        }
    }
    return false;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: validate_trace_events FILE\n");
        return 2;
    }
    cJSON *root = validate_read_json("validate_trace_events", argv[1], 1);
    const cJSON *events = cJSON_IsArray(root) ? root : cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
    if (!cJSON_IsArray(events)) {
        fprintf(stderr, "validate_trace_events: no traceEvents array\n");
        return 1;
    }
    size_t n_events = 0, n_slices = 0, n_counters = 0, n_processes = 0, n_thread_names = 0;
    const cJSON *ev;
    cJSON_ArrayForEach(ev, events) {
        n_events++;
        const cJSON *ph = cJSON_GetObjectItemCaseSensitive(ev, "ph");
        const cJSON *ts = cJSON_GetObjectItemCaseSensitive(ev, "ts");
        const cJSON *pid = cJSON_GetObjectItemCaseSensitive(ev, "pid");
        const cJSON *tid = cJSON_GetObjectItemCaseSensitive(ev, "tid");
        if (!cJSON_IsObject(ev) || !cJSON_IsString(ph) || strlen(ph->valuestring) != 1 ||
            !cJSON_IsNumber(ts) || !cJSON_IsNumber(pid) || !cJSON_IsNumber(tid)) {
            bad("event lacks ph, ts, pid or tid", ev);
            continue;
        }
        if (!isfinite(ts->valuedouble) || ts->valuedouble < 0)
            bad("ts is not a non-negative number", ev);
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(ev, "name");
        const cJSON *args = cJSON_GetObjectItemCaseSensitive(ev, "args");
        thread_t *t = thread_of(pid->valuedouble, tid->valuedouble);
        switch (ph->valuestring[0]) {
        case 'B':
            t->open_b++;
            break;
        case 'E':
            if (--t->open_b < 0) {
                bad("E without a B on its thread", ev);
                t->open_b = 0;
            }
            break;
        case 'X': {
            const cJSON *dur = cJSON_GetObjectItemCaseSensitive(ev, "dur");
            if (!cJSON_IsNumber(dur) || dur->valuedouble < 0) {
                bad("X without a non-negative dur", ev);
                break;
            }
            if (!cJSON_IsString(name))
                bad("slice without a name", ev);
            t->sl = grow(t->sl, &t->cap, t->n + 1, sizeof *t->sl);
            t->sl[t->n++] = (slice_t){ts->valuedouble, ts->valuedouble + dur->valuedouble};
            n_slices++;
            break;
        }
        case 's':
        case 'f': {
            bool start = ph->valuestring[0] == 's';
            flow_t fl = {.pid = pid->valuedouble, .tid = tid->valuedouble, .ts = ts->valuedouble, .ev = ev};
            flow_id(ev, fl.id);
            if (!fl.id[0]) {
                bad("flow event without an id", ev);
                break;
            }
            const cJSON *bp = cJSON_GetObjectItemCaseSensitive(ev, "bp");
            fl.enclosing = cJSON_IsString(bp) && !strcmp(bp->valuestring, "e");
            if (start) {
                starts = grow(starts, &cap_starts, n_starts + 1, sizeof *starts);
                starts[n_starts++] = fl;
            } else {
                finishes = grow(finishes, &cap_finishes, n_finishes + 1, sizeof *finishes);
                finishes[n_finishes++] = fl;
            }
            break;
        }
        case 'C': {
            const cJSON *v;
            int n = 0;
            if (!cJSON_IsObject(args) || !args->child)
                bad("counter without values", ev);
            else
                cJSON_ArrayForEach(v, args) {
                    n++;
                    if (!cJSON_IsNumber(v))
                        bad("counter value is not a number", ev);
                }
            n_counters += n > 0;
            break;
        }
        case 'M': {
            if (!cJSON_IsString(name)) {
                bad("metadata without a name", ev);
                break;
            }
            bool names = !strcmp(name->valuestring, "process_name") || !strcmp(name->valuestring, "thread_name");
            const cJSON *label = cJSON_GetObjectItemCaseSensitive(args, "name");
            if (names && !cJSON_IsString(label))
                bad("process/thread name is not a string", ev);
            n_processes += !strcmp(name->valuestring, "process_name");
            n_thread_names += !strcmp(name->valuestring, "thread_name");
            break;
        }
        case 'i': case 'I': case 'n': case 'b': case 'e': case 't': case 'P': case 'O': case 'N':
        case 'D': case 'R': case 'c': case 'S': case 'T': case 'F': case 'p':
            break;
        default:
            bad("unknown phase", ev);
        }
    }
    for (size_t i = 0; i < n_threads; i++) {
        if (threads[i].open_b)
            bad("B without an E on a thread", NULL);
        check_nesting(&threads[i]);
    }
    for (size_t i = 0; i < n_starts; i++) {
        size_t same = 0;
        for (size_t j = 0; j < n_starts; j++)
            same += !strcmp(starts[j].id, starts[i].id);
        if (same != 1)
            bad("flow id started more than once", starts[i].ev);
        if (!binds(&starts[i], false))
            bad("flow start inside no slice of its thread", starts[i].ev);
    }
    for (size_t i = 0; i < n_finishes; i++) {
        size_t matched = 0;
        const flow_t *s = NULL;
        for (size_t j = 0; j < n_starts; j++)
            if (!strcmp(starts[j].id, finishes[i].id)) {
                matched++;
                s = &starts[j];
            }
        if (matched != 1)
            bad("flow finish without exactly one start", finishes[i].ev);
        else if (finishes[i].ts + EPS < s->ts)
            bad("flow finishes before it starts", finishes[i].ev);
        if (!binds(&finishes[i], !finishes[i].enclosing))
            bad("flow finish binds to no slice of its thread", finishes[i].ev);
        size_t same = 0;
        for (size_t j = 0; j < n_finishes; j++)
            same += !strcmp(finishes[j].id, finishes[i].id);
        if (same != 1)
            bad("flow id finished more than once", finishes[i].ev);
    }
    if (n_starts != n_finishes)
        bad("flow starts and finishes differ in number", NULL);
    if (errors == 0)
        printf("trace events ok: %zu events, %zu slices, %zu flows, %zu counter samples, %zu processes, "
               "%zu named threads\n",
               n_events, n_slices, n_starts, n_counters, n_processes, n_thread_names);
    else
        fprintf(stderr, "validate_trace_events: %s: %d problem(s)\n", argv[1], errors);
    for (size_t i = 0; i < n_threads; i++) {
        free(threads[i].sl);
    }
    free(threads);
    free(starts);
    free(finishes);
    cJSON_Delete(root);
    return errors ? 1 : 0;
}
