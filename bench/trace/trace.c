/* The event array, the row table and the traced-message window. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace_internal.h"

_Atomic bool bench_trace_live;
_Atomic uint32_t bench_trace_first;
_Atomic uint32_t bench_trace_span;

/* Events a traced message makes at most: producer send begin/end, depth,
 * one sleep (stopped/running); consumer stopped, running, received, depth;
 * handler enter/exit; and slack. Sizes the array. */
#define EVENTS_PER_MESSAGE 12
/* Rows the array is sized for; a run of every experiment traces ~40. */
#define ROWS_SIZED 48
#define MAX_EVENTS ((size_t)1 << 21)  /* 48 MiB */
#define SCRATCH_ROW 0xffff

static bench_trace_event_t *events;
static size_t capacity;        /* slots for traced rows */
static size_t reserve;         /* slots beyond them, for scratch recording */
static size_t per_row;         /* --trace-samples */
static _Atomic size_t next;    /* next free slot (may run past the limit) */
static _Atomic size_t limit;   /* slots a writer may use now */
static _Atomic size_t dropped; /* events that found no slot */
static _Atomic uint16_t current_row;
static bench_trace_row_t rows[BENCH_TRACE_MAX_ROWS];
static size_t n_rows;
static bool enabled;
static bool row_active;        /* live was set by bench_trace_row_begin */
static size_t scratch_saved_next, scratch_saved_dropped;

void bench_trace_put(int64_t t, bench_trace_kind_t kind, bench_trace_task_t task, int cpu,
                     uint32_t seq, int32_t value)
{
    size_t i = atomic_fetch_add_explicit(&next, 1, memory_order_relaxed);
    if (i >= atomic_load_explicit(&limit, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
        return;
    }
    bench_trace_event_t *e = &events[i];
    e->t = t;
    e->seq = seq;
    e->value = value;
    e->row = atomic_load_explicit(&current_row, memory_order_relaxed);
    e->kind = (uint8_t)kind;
    e->task = (uint8_t)task;
    e->cpu = (int16_t)cpu;
}

int bench_trace_init(size_t samples_per_row)
{
    if (samples_per_row < 1 || samples_per_row > BENCH_TRACE_MAX_SAMPLES) {
        errno = EINVAL;
        return -1;
    }
    bench_trace_shutdown();
    size_t want = samples_per_row * EVENTS_PER_MESSAGE * ROWS_SIZED;
    capacity = want < MAX_EVENTS ? want : MAX_EVENTS;
    /* The overhead rounds (trace_overhead.c) record up to 1,100 messages. */
    reserve = 1200 * EVENTS_PER_MESSAGE;
    events = calloc(capacity + reserve, sizeof *events);
    if (!events)
        return -1;  /* errno ENOMEM */
    per_row = samples_per_row;
    atomic_store(&next, 0);
    atomic_store(&dropped, 0);
    atomic_store(&limit, capacity);
    n_rows = 0;
    enabled = true;
    return 0;
}

bool bench_trace_enabled(void) { return enabled; }

void bench_trace_shutdown(void)
{
    atomic_store(&bench_trace_live, false);
    row_active = false;
    free(events);
    events = NULL;
    capacity = reserve = 0;
    n_rows = 0;
    enabled = false;
}

static bench_trace_row_t *find_row(const char *experiment, const char *mechanism, const char *variant,
                                   uint16_t *index)
{
    for (size_t i = 0; i < n_rows; i++) {
        if (!strcmp(rows[i].experiment, experiment) && !strcmp(rows[i].mechanism, mechanism) &&
            !strcmp(rows[i].variant, variant)) {
            *index = (uint16_t)i;
            return &rows[i];
        }
    }
    if (n_rows == BENCH_TRACE_MAX_ROWS)
        return NULL;
    bench_trace_row_t *r = &rows[n_rows];
    snprintf(r->experiment, sizeof r->experiment, "%s", experiment);
    snprintf(r->mechanism, sizeof r->mechanism, "%s", mechanism);
    snprintf(r->variant, sizeof r->variant, "%s", variant);
    r->traced = 0;
    *index = (uint16_t)n_rows++;
    return r;
}

void bench_trace_row_begin(const bench_run_t *run, const char *mechanism, const char *variant,
                           uint32_t first_seq, uint32_t count)
{
    if (!enabled || !mechanism)
        return;  /* an untraced run (e.g. an overhead round) leaves the state alone */
    atomic_store(&bench_trace_live, false);
    row_active = false;
    uint16_t index;
    bench_trace_row_t *r = find_row(bench_experiment_id(run), mechanism,
                                    variant ? variant : "", &index);
    if (!r || r->traced >= per_row)
        return;
    uint32_t take = (uint32_t)(per_row - r->traced) < count ? (uint32_t)(per_row - r->traced) : count;
    if (take == 0)
        return;
    r->traced += take;
    atomic_store(&current_row, index);
    atomic_store(&bench_trace_first, first_seq);
    atomic_store(&bench_trace_span, take);
    atomic_store(&bench_trace_live, true);
    row_active = true;
}

void bench_trace_row_end(void)
{
    if (!row_active)
        return;
    atomic_store(&bench_trace_live, false);
    row_active = false;
    /* Marks where this round's tasks ended: a row measured in rounds would
     * otherwise show its consumer running through the gap to the next. */
    bench_trace_put(bench_now_ns(), TRACE_ROW_END, TRACE_TASK_NONE, -1, 0, 0);
}

bool bench_trace_scratch_begin(size_t messages)
{
    atomic_store(&bench_trace_live, false);
    row_active = false;
    if (!enabled)
        return false;
    scratch_saved_next = atomic_load(&next);
    scratch_saved_dropped = atomic_load(&dropped);
    size_t start = scratch_saved_next < capacity ? scratch_saved_next : capacity;
    size_t room = messages * EVENTS_PER_MESSAGE < reserve ? messages * EVENTS_PER_MESSAGE : reserve;
    atomic_store(&next, start);
    atomic_store(&limit, start + room);
    atomic_store(&current_row, (uint16_t)SCRATCH_ROW);
    atomic_store(&bench_trace_first, 0);
    atomic_store(&bench_trace_span, UINT32_MAX);
    atomic_store(&bench_trace_live, true);
    return true;
}

size_t bench_trace_scratch_end(void)
{
    atomic_store(&bench_trace_live, false);
    if (!enabled)
        return 0;
    size_t lost = atomic_load(&dropped) - scratch_saved_dropped;
    atomic_store(&next, scratch_saved_next);
    atomic_store(&dropped, scratch_saved_dropped);
    atomic_store(&limit, capacity);
    return lost;
}

size_t bench_trace_recorded(void)
{
    size_t n = atomic_load(&next);
    return n < capacity ? n : capacity;
}

size_t bench_trace_dropped(void) { return atomic_load(&dropped); }

const bench_trace_event_t *bench_trace_events(size_t *n)
{
    *n = bench_trace_recorded();
    return events;
}

const bench_trace_row_t *bench_trace_rows(size_t *n)
{
    *n = n_rows;
    return rows;
}

size_t bench_trace_samples_per_row(void) { return per_row; }

/* qsort has no context argument; the writers run on one thread. */
static const int64_t *sort_row_start;
static int by_time(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    const bench_trace_event_t *x = &events[a], *y = &events[b];
    int64_t tx = x->t, ty = y->t;
    if (sort_row_start) {
        tx -= sort_row_start[x->row];
        ty -= sort_row_start[y->row];
    } else if (x->row != y->row) {
        return x->row < y->row ? -1 : 1;
    }
    if (tx != ty)
        return tx < ty ? -1 : 1;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    return a < b ? -1 : a > b;
}

uint32_t *bench_trace_order(bool rebased, int64_t *row_start, size_t *n)
{
    *n = bench_trace_recorded();
    for (size_t r = 0; r < BENCH_TRACE_MAX_ROWS; r++)
        row_start[r] = INT64_MAX;
    for (size_t i = 0; i < *n; i++)
        if (events[i].row < BENCH_TRACE_MAX_ROWS && events[i].t < row_start[events[i].row])
            row_start[events[i].row] = events[i].t;
    uint32_t *order = malloc((*n ? *n : 1) * sizeof *order);
    if (!order)
        return NULL;
    for (size_t i = 0; i < *n; i++)
        order[i] = (uint32_t)i;
    sort_row_start = rebased ? row_start : NULL;
    qsort(order, *n, sizeof *order, by_time);
    sort_row_start = NULL;
    return order;
}

const char *bench_trace_task_name(unsigned task)
{
    static const char *const names[TRACE_TASK_COUNT] = {"producer", "consumer", "isr"};
    return task < TRACE_TASK_COUNT ? names[task] : "task";
}
