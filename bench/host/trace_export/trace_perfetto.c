/* The recorded events as Chrome/Perfetto trace-event JSON (the "JSON Object
 * Format": {"traceEvents": [...]}) for ui.perfetto.dev and chrome://tracing.
 *
 * One process per row; one thread track per task and per core's interrupt
 * handler. Complete slices ("X"): send (sender), receive-wait and got
 * (consumer: blocked in its receive call, then holding the message until it
 * blocks again), sleep (a producer waiting on the same core), handler and
 * send-from-ISR (interrupt track). A flow arrow ("s" -> "f", same id) joins
 * each send to the receipt of that message; counter events ("C") carry the
 * queue depth. Timestamps are microseconds with three decimals (ns); every
 * row starts at 0 like in the VCD. Flow ends sit 1 ns inside their slices so
 * that the viewer binds each to its slice and not to the one that ends
 * there. Written with fprintf: the names are ours and escaped. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../results/outfile.h"
#include "../../trace/trace_internal.h"

typedef struct {
    int64_t b, e;     /* slice; e = -1 while open */
    uint32_t seq;
    int tid;
    bool matched;
} send_rec_t;

typedef struct {
    int64_t t;
    uint32_t seq;
    int tid;
} recv_rec_t;

/* Per track (task or interrupt core) of the row being written. */
#define TRACKS (TRACE_TASK_COUNT + 8)
typedef struct {
    int tid;
    int cpu;
    bool named;
    int64_t stop_t;      /* open "stopped" stretch, -1 none */
    int send;            /* open send record, -1 none */
    int64_t got_t;       /* open "got" slice, -1 none */
    uint32_t got_seq;
    int64_t isr_t;       /* open handler, -1 none */
    uint32_t isr_seq;
    int64_t last_t;      /* this track's latest event */
} track_t;

typedef struct {
    FILE *f;
    bool first;
} out_t;

static void sep(out_t *o)
{
    fputs(o->first ? "\n" : ",\n", o->f);
    o->first = false;
}

static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void put_us(FILE *f, int64_t ns)
{
    fprintf(f, "%lld.%03lld", (long long)(ns / 1000), (long long)(ns % 1000));
}

static void slice(out_t *o, int pid, int tid, const char *name, uint32_t seq, int64_t b, int64_t e)
{
    sep(o);
    fprintf(o->f, "{\"ph\":\"X\",\"cat\":\"handoff\",\"name\":");
    char text[64];
    if (seq != UINT32_MAX)
        snprintf(text, sizeof text, "%s #%u", name, seq);
    else
        snprintf(text, sizeof text, "%s", name);
    put_string(o->f, text);
    fprintf(o->f, ",\"pid\":%d,\"tid\":%d,\"ts\":", pid, tid);
    put_us(o->f, b);
    fputs(",\"dur\":", o->f);
    put_us(o->f, e > b ? e - b : 0);
    if (seq != UINT32_MAX)
        fprintf(o->f, ",\"args\":{\"seq\":%u}", seq);
    fputc('}', o->f);
}

static void meta(out_t *o, int pid, int tid, const char *what, const char *key, const char *text, long number)
{
    sep(o);
    fprintf(o->f, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":0,\"args\":{\"%s\":", what, pid,
            tid, key);
    if (text)
        put_string(o->f, text);
    else
        fprintf(o->f, "%ld", number);
    fputs("}}", o->f);
}

static int track_of(const bench_trace_event_t *e)
{
    if (e->task != TRACE_TASK_ISR)
        return e->task;
    return TRACE_TASK_COUNT + (e->cpu < 0 ? 0 : e->cpu % 8);
}

static void name_track(out_t *o, int pid, track_t *tr, int index, const bench_env_t *env)
{
    if (tr->named)
        return;
    tr->named = true;
    char name[64], core[16];
    if (tr->cpu == env->cpu[0])
        snprintf(core, sizeof core, "core 0");
    else if (tr->cpu == env->cpu[1])
        snprintf(core, sizeof core, "core 1");
    else
        snprintf(core, sizeof core, "cpu %d", tr->cpu);
    if (index < TRACE_TASK_COUNT)
        snprintf(name, sizeof name, "%s (%s, cpu %d)", bench_trace_task_name((unsigned)index), core, tr->cpu);
    else
        snprintf(name, sizeof name, "%s interrupt (cpu %d)", core, tr->cpu);
    meta(o, pid, tr->tid, "thread_name", "name", name, 0);
    meta(o, pid, tr->tid, "thread_sort_index", "sort_index", NULL, index);
}

static void flow(out_t *o, const char *ph, int pid, int tid, int64_t ts, unsigned long id)
{
    sep(o);
    fprintf(o->f, "{\"ph\":\"%s\",\"cat\":\"handoff\",\"name\":\"message\",\"id\":%lu,\"pid\":%d,\"tid\":%d,\"ts\":",
            ph, id, pid, tid);
    put_us(o->f, ts);
    fputs(ph[0] == 'f' ? ",\"bp\":\"e\"}" : "}", o->f);
}

/* The tasks of a round ended at @p end (-1: unknown). A receipt whose
 * consumer did not block again inside the window gets a slice up to that
 * task's last event; a wait left open ends at @p end; a send or handler
 * left open (cut off by the window) is dropped. */
static void close_tracks(out_t *o, int pid, track_t *tr, int64_t end)
{
    for (int i = 0; i < TRACKS; i++) {
        track_t *t = &tr[i];
        if (t->got_t >= 0)
            slice(o, pid, t->tid, "got", t->got_seq, t->got_t, t->last_t > t->got_t + 2 ? t->last_t : t->got_t + 2);
        if (t->stop_t >= 0 && end >= t->stop_t)
            slice(o, pid, t->tid, i == TRACE_TASK_CONSUMER ? "receive-wait" : "sleep", UINT32_MAX, t->stop_t, end);
        t->got_t = t->stop_t = t->isr_t = -1;
        t->send = -1;
    }
}

/* Writes one row's events ev[order[from..to)] (all of row @p row, in time
 * order). Returns -1 when out of memory. */
static int write_row(out_t *o, const bench_trace_event_t *ev, const uint32_t *order, size_t from, size_t to,
                     int64_t start, size_t row, const bench_trace_row_t *info, const bench_env_t *env,
                     unsigned long *next_flow)
{
    int pid = (int)row + 1;
    size_t count = to - from;
    send_rec_t *sends = malloc((count ? count : 1) * sizeof *sends);
    recv_rec_t *recvs = malloc((count ? count : 1) * sizeof *recvs);
    if (!sends || !recvs) {
        free(sends);
        free(recvs);
        return -1;
    }
    size_t n_send = 0, n_recv = 0;
    char pname[200];
    snprintf(pname, sizeof pname, "%s / %s / %s", info->experiment, info->mechanism, info->variant);
    meta(o, pid, pid * 1000, "process_name", "name", pname, 0);
    meta(o, pid, pid * 1000, "process_sort_index", "sort_index", NULL, (long)row);

    track_t tr[TRACKS];
    for (int i = 0; i < TRACKS; i++)
        tr[i] = (track_t){.tid = pid * 1000 + 1 + i, .stop_t = -1, .send = -1, .got_t = -1, .isr_t = -1};
    for (size_t k = from; k < to; k++) {
        const bench_trace_event_t *e = &ev[order[k]];
        if (e->kind == TRACE_ROW_END) {
            close_tracks(o, pid, tr, e->t - start);
            continue;
        }
        if (e->task >= TRACE_TASK_COUNT)
            continue;
        int ti = track_of(e);
        track_t *t = &tr[ti];
        int64_t ts = e->t - start;
        if (!t->named)
            t->cpu = e->cpu;
        name_track(o, pid, t, ti, env);
        bool from_isr = e->task == TRACE_TASK_ISR;
        switch ((bench_trace_kind_t)e->kind) {
        case TRACE_SEND_BEGIN:
            sends[n_send] = (send_rec_t){.b = ts, .e = -1, .seq = e->seq, .tid = t->tid};
            t->send = (int)n_send++;
            break;
        case TRACE_SEND_END:
            if (t->send >= 0) {
                send_rec_t *s = &sends[t->send];
                s->e = ts;
                slice(o, pid, t->tid, from_isr ? "send from ISR" : "send", s->seq, s->b, s->e);
                t->send = -1;
            }
            break;
        case TRACE_STOPPED:
            if (t->got_t >= 0)
                slice(o, pid, t->tid, "got", t->got_seq, t->got_t, ts);
            t->got_t = -1;
            t->stop_t = ts;
            break;
        case TRACE_RUNNING:
            if (t->stop_t >= 0)
                slice(o, pid, t->tid, e->task == TRACE_TASK_CONSUMER ? "receive-wait" : "sleep", UINT32_MAX,
                      t->stop_t, ts);
            t->stop_t = -1;
            break;
        case TRACE_RECEIVED:
            if (t->got_t >= 0)
                slice(o, pid, t->tid, "got", t->got_seq, t->got_t, ts);
            t->got_t = ts;
            t->got_seq = e->seq;
            recvs[n_recv++] = (recv_rec_t){.t = ts, .seq = e->seq, .tid = t->tid};
            break;
        case TRACE_ISR_ENTER:
            t->isr_t = ts;
            t->isr_seq = e->seq;
            break;
        case TRACE_ISR_EXIT:
            if (t->isr_t >= 0)
                slice(o, pid, t->tid, "handler", t->isr_seq, t->isr_t, ts);
            t->isr_t = -1;
            break;
        case TRACE_DEPTH:
            if (e->value < 0)
                break;  /* the mechanism has no depth */
            sep(o);
            fprintf(o->f, "{\"ph\":\"C\",\"name\":\"queue depth\",\"pid\":%d,\"tid\":%d,\"ts\":", pid, pid * 1000);
            put_us(o->f, ts);
            fprintf(o->f, ",\"args\":{\"messages\":%d}}", e->value);
            break;
        case TRACE_ROW_END: /* handled above */
        case TRACE_KIND_COUNT: break;
        }
        t->last_t = ts;
    }
    close_tracks(o, pid, tr, -1);

    /* Each receipt to the latest earlier send of its number (sequence
     * numbers restart in every round of a row measured in rounds). */
    for (size_t r = 0; r < n_recv; r++) {
        for (size_t s = n_send; s-- > 0;) {
            send_rec_t *x = &sends[s];
            if (x->matched || x->seq != recvs[r].seq || x->b > recvs[r].t || x->e < 0)
                continue;
            x->matched = true;
            unsigned long id = (*next_flow)++;
            flow(o, "s", pid, x->tid, x->e - x->b >= 2 ? x->b + 1 : x->b, id);
            flow(o, "f", pid, recvs[r].tid, recvs[r].t + 1, id);
            break;
        }
    }
    free(sends);
    free(recvs);
    return 0;
}

int bench_trace_write_perfetto(const char *path, const bench_env_t *env, char *err, size_t errlen)
{
    size_t n, n_rows;
    int64_t row_start[BENCH_TRACE_MAX_ROWS];
    const bench_trace_event_t *ev = bench_trace_events(&n);
    const bench_trace_row_t *rows = bench_trace_rows(&n_rows);
    uint32_t *order = bench_trace_order(false, row_start, &n);
    if (!order) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(ENOMEM));
        return -1;
    }
    bench_outfile_t file;
    if (bench_outfile_open(&file, path, err, errlen) != 0) {
        free(order);
        return -1;
    }
    FILE *f = bench_outfile_stream(&file);
    out_t o = {f, true};
    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":", f);
    char gen[160];
    snprintf(gen, sizeof gen, "rtipc-bench %s (commit %s)", env->rtipc_version, env->git_commit);
    put_string(f, gen);
    fprintf(f, ",\"started_utc\":");
    put_string(f, env->started_utc);
    fprintf(f, ",\"messages_per_row\":%zu,\"events\":%zu,\"dropped\":%zu},\n\"traceEvents\":[",
            bench_trace_samples_per_row(), n, bench_trace_dropped());
    unsigned long next_flow = 1;
    int rc = 0;
    for (size_t k = 0; k < n && rc == 0;) {
        size_t row = ev[order[k]].row, end = k;
        while (end < n && ev[order[end]].row == row)
            end++;
        if (row < n_rows)
            rc = write_row(&o, ev, order, k, end, row_start[row], row, &rows[row], env, &next_flow);
        bench_outfile_drain(&file);  /* one row in memory at a time */
        k = end;
    }
    fputs("\n]}\n", f);
    free(order);
    if (rc != 0) {
        bench_outfile_discard(&file);
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(ENOMEM));
        return -1;
    }
    return bench_outfile_commit(&file, err, errlen);
}
