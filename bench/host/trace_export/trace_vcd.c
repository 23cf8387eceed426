/* The recorded events as a Value Change Dump (IEEE 1364), for GTKWave and
 * sigrok PulseView.
 *
 * Layout: one $scope module per row, nested experiment > mechanism >
 * variant, so GTKWave's hierarchy reads experiment.mechanism.variant. Every
 * row starts at LEAD_NS: rows overlay on one time axis instead of following
 * each other, so that zooming to fit shows the longest row rather than the
 * sum of all, and a cursor at time t points at the same message number of
 * every row (message k of cross-core next to message k of same-core).
 * Variable names start with rN_ (N = row number, listed in the header
 * comment): libsigrok 0.5 (PulseView 0.4) drops scopes and would otherwise
 * show many channels called "running". The queue depth is a `real`
 * variable, not an integer vector: libsigrok 0.5 stops reading a file at
 * its first multi-bit vector value ("b101 id"), while it skips reals; GTKWave
 * shows a real as a number or, with Data Format > Analog, as a step plot. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../results/outfile.h"
#include "../../trace/trace_internal.h"

#define LEAD_NS 1000  /* every row's first event; the initial values stand before it */
#define MAX_IRQ_CPUS 4

typedef struct {
    bool used;
    int running[TRACE_TASK_COUNT];   /* variable index, -1 none (not for TRACE_TASK_ISR) */
    int send, received, depth;
    int irq_cpu[MAX_IRQ_CPUS], irq_var[MAX_IRQ_CPUS], n_irq;
} vcd_row_t;

typedef struct {
    char name[96];
    int width;           /* 1 (wire) or 64 (real) */
    int64_t value;       /* current; -1 = x */
} vcd_var_t;

typedef struct {
    vcd_var_t *vars;
    int n;
} vcd_vars_t;

static void var_id(int index, char out[8])
{
    /* Identifiers are printable ASCII '!'..'~' (94 symbols), shortest first. */
    int len = 0;
    do {
        out[len++] = (char)('!' + index % 94);
        index = index / 94 - 1;
    } while (index >= 0 && len < 7);
    out[len] = 0;
}

static int add_var(vcd_vars_t *vs, int width, int64_t initial, const char *fmt, int row, const char *what)
{
    vcd_var_t *v = &vs->vars[vs->n];
    snprintf(v->name, sizeof v->name, fmt, row, what);
    v->width = width;
    v->value = initial;
    return vs->n++;
}

/* A legal identifier: letters, digits and '_', not starting with a digit. */
static void sanitise(const char *in, char *out, size_t size)
{
    size_t o = 0;
    if (!*in)
        in = "row";
    if (*in >= '0' && *in <= '9')
        out[o++] = '_';
    for (; *in && o + 1 < size; in++) {
        char c = *in;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        out[o++] = ok ? c : '_';
    }
    out[o] = 0;
}

static void put_value(FILE *f, const vcd_var_t *v, int index)
{
    char id[8];
    var_id(index, id);
    if (v->width == 1)
        fprintf(f, "%c%s\n", v->value < 0 ? 'x' : v->value ? '1' : '0', id);
    else
        fprintf(f, "r%lld %s\n", (long long)v->value, id);
}

static void declare(FILE *f, const vcd_vars_t *vs, int index)
{
    if (index < 0)
        return;
    char id[8];
    var_id(index, id);
    const vcd_var_t *v = &vs->vars[index];
    fprintf(f, "$var %s %d %s %s $end\n", v->width == 1 ? "wire" : "real", v->width, id, v->name);
}

static void declare_row(FILE *f, const vcd_row_t *r, const vcd_vars_t *vs)
{
    for (int t = 0; t < TRACE_TASK_COUNT; t++)
        declare(f, vs, r->running[t]);
    declare(f, vs, r->send);
    declare(f, vs, r->received);
    for (int i = 0; i < r->n_irq; i++)
        declare(f, vs, r->irq_var[i]);
    declare(f, vs, r->depth);
}

/* Names of sibling scopes must differ after sanitising: add _2, _3... */
static void scope_name(const char *raw, char names[][72], size_t n_before, char *out)
{
    char base[64];
    sanitise(raw, base, sizeof base);
    snprintf(out, 72, "%s", base);
    for (int k = 2;; k++) {
        bool clash = false;
        for (size_t i = 0; i < n_before; i++)
            clash |= !strcmp(names[i], out);
        if (!clash)
            return;
        snprintf(out, 72, "%.60s_%d", base, k); /* room for the suffix */
    }
}

static void write_scopes(FILE *f, const bench_trace_row_t *rows, size_t n_rows, const vcd_row_t *vr,
                         const vcd_vars_t *vs)
{
    static char exp_names[BENCH_TRACE_MAX_ROWS][72], mech_names[BENCH_TRACE_MAX_ROWS][72],
        var_names[BENCH_TRACE_MAX_ROWS][72];
    size_t n_exp = 0;
    for (size_t a = 0; a < n_rows; a++) {
        bool first_of_exp = true;
        for (size_t b = 0; b < a; b++)
            first_of_exp &= !(vr[b].used && !strcmp(rows[b].experiment, rows[a].experiment));
        if (!vr[a].used || !first_of_exp)
            continue;
        scope_name(rows[a].experiment, exp_names, n_exp, exp_names[n_exp]);
        fprintf(f, "$scope module %s $end\n", exp_names[n_exp++]);
        size_t n_mech = 0;
        for (size_t m = a; m < n_rows; m++) {
            if (!vr[m].used || strcmp(rows[m].experiment, rows[a].experiment))
                continue;
            bool first_of_mech = true;
            for (size_t b = a; b < m; b++)
                first_of_mech &= !(vr[b].used && !strcmp(rows[b].experiment, rows[a].experiment) &&
                                   !strcmp(rows[b].mechanism, rows[m].mechanism));
            if (!first_of_mech)
                continue;
            scope_name(rows[m].mechanism, mech_names, n_mech, mech_names[n_mech]);
            fprintf(f, "$scope module %s $end\n", mech_names[n_mech++]);
            size_t n_var = 0;
            for (size_t v = m; v < n_rows; v++) {
                if (!vr[v].used || strcmp(rows[v].experiment, rows[a].experiment) ||
                    strcmp(rows[v].mechanism, rows[m].mechanism))
                    continue;
                scope_name(rows[v].variant, var_names, n_var, var_names[n_var]);
                fprintf(f, "$scope module %s $end\n", var_names[n_var++]);
                declare_row(f, &vr[v], vs);
                fputs("$upscope $end\n", f);
            }
            fputs("$upscope $end\n", f);
        }
        fputs("$upscope $end\n", f);
    }
}

static void core_label(const bench_env_t *env, int cpu, char *out, size_t size)
{
    if (cpu == env->cpu[0])
        snprintf(out, size, "core0");
    else if (cpu == env->cpu[1])
        snprintf(out, size, "core1");
    else
        snprintf(out, size, "cpu%d", cpu);
}

/* Which variables each row needs, and their values before its first event
 * (a task whose first event is "stopped" was running until then). */
static int plan(const bench_trace_event_t *ev, const uint32_t *order, size_t n, size_t n_rows,
                vcd_row_t *vr, vcd_vars_t *vs, const bench_env_t *env)
{
    bool seen_task[BENCH_TRACE_MAX_ROWS][TRACE_TASK_COUNT] = {{false}};
    int first_kind[BENCH_TRACE_MAX_ROWS][TRACE_TASK_COUNT] = {{0}};
    bool send[BENCH_TRACE_MAX_ROWS] = {false}, recv[BENCH_TRACE_MAX_ROWS] = {false},
         depth[BENCH_TRACE_MAX_ROWS] = {false};
    for (size_t r = 0; r < n_rows; r++) {
        vr[r].used = false;
        vr[r].n_irq = 0;
    }
    for (size_t k = 0; k < n; k++) {
        const bench_trace_event_t *e = &ev[order[k]];
        if (e->row >= n_rows || e->task >= TRACE_TASK_COUNT)
            continue;  /* TRACE_ROW_END alone does not make a row worth showing */
        vcd_row_t *r = &vr[e->row];
        r->used = true;
        if (e->task != TRACE_TASK_ISR && !seen_task[e->row][e->task] && e->kind != TRACE_DEPTH) {
            seen_task[e->row][e->task] = true;
            first_kind[e->row][e->task] = e->kind;
        }
        send[e->row] |= e->kind == TRACE_SEND_BEGIN || e->kind == TRACE_SEND_END;
        recv[e->row] |= e->kind == TRACE_RECEIVED;
        depth[e->row] |= e->kind == TRACE_DEPTH && e->value >= 0;
        if (e->kind == TRACE_ISR_ENTER || e->kind == TRACE_ISR_EXIT) {
            bool known = false;
            for (int i = 0; i < r->n_irq; i++)
                known |= r->irq_cpu[i] == e->cpu;
            if (!known && r->n_irq < MAX_IRQ_CPUS)
                r->irq_cpu[r->n_irq++] = e->cpu;
        }
    }
    int vars = 0;
    for (size_t r = 0; r < n_rows; r++)
        vars += TRACE_TASK_COUNT + 3 + MAX_IRQ_CPUS;
    vs->vars = calloc((size_t)(vars ? vars : 1), sizeof *vs->vars);
    if (!vs->vars)
        return -1;
    vs->n = 0;
    for (size_t r = 0; r < n_rows; r++) {
        vcd_row_t *x = &vr[r];
        int num = (int)r + 1;
        for (int t = 0; t < TRACE_TASK_COUNT; t++) {
            x->running[t] = -1;
            if (x->used && seen_task[r][t]) {
                char what[48];
                snprintf(what, sizeof what, "%s_running", bench_trace_task_name((unsigned)t));
                x->running[t] = add_var(vs, 1, first_kind[r][t] != TRACE_RUNNING, "r%d_%s", num, what);
            }
        }
        x->send = x->used && send[r] ? add_var(vs, 1, 0, "r%d_%s", num, "send_in_flight") : -1;
        x->received = x->used && recv[r] ? add_var(vs, 1, 0, "r%d_%s", num, "received") : -1;
        for (int i = 0; i < x->n_irq; i++) {
            char what[48], core[16];
            core_label(env, x->irq_cpu[i], core, sizeof core);
            snprintf(what, sizeof what, "%s_in_interrupt", core);
            x->irq_var[i] = add_var(vs, 1, 0, "r%d_%s", num, what);
        }
        /* 0 until the first sample: the window starts between two messages
         * of a closed loop, or at the start of a throughput phase. */
        x->depth = x->used && depth[r] ? add_var(vs, 64, 0, "r%d_%s", num, "depth") : -1;
    }
    return 0;
}

static void header(FILE *f, const bench_env_t *env, const bench_trace_row_t *rows, size_t n_rows,
                   const vcd_row_t *vr)
{
    fprintf(f, "$date %s $end\n", env->started_utc);
    fprintf(f, "$version rtipc-bench %s (commit %s) $end\n", env->rtipc_version, env->git_commit);
    fprintf(f, "$comment\n"
               "  rtipc-bench handoff trace: the first %zu measured messages of each row.\n"
               "  Every row's time is rebased: its first event is at %d ns.\n"
               "  rN_<task>_running: the task runs (0 while it waits in a blocking call).\n"
               "  rN_send_in_flight: 1 from just before the send call to its return.\n"
               "  rN_received: toggles when the consumer holds a message (its latency stamp).\n"
               "  rN_coreK_in_interrupt: an interrupt handler runs on that core.\n"
               "  rN_depth: messages waiting in the queue, sampled after each send and receive\n"
               "    (a real: PulseView's VCD import skips reals; GTKWave can plot it as analog).\n",
            bench_trace_samples_per_row(), LEAD_NS);
    for (size_t r = 0; r < n_rows; r++)
        if (vr[r].used)
            fprintf(f, "  r%zu = %s / %s / %s\n", r + 1, rows[r].experiment, rows[r].mechanism,
                    rows[r].variant);
    fputs("$end\n$timescale 1 ns $end\n", f);
}

static void set(FILE *f, vcd_vars_t *vs, int index, int64_t value, int64_t t, int64_t *written_t)
{
    if (index < 0 || vs->vars[index].value == value)
        return;
    if (t != *written_t) {
        fprintf(f, "#%lld\n", (long long)t);
        *written_t = t;
    }
    vs->vars[index].value = value;
    put_value(f, &vs->vars[index], index);
}

int bench_trace_write_vcd(const char *path, const bench_env_t *env, char *err, size_t errlen)
{
    size_t n, n_rows;
    int64_t row_start[BENCH_TRACE_MAX_ROWS];
    const bench_trace_event_t *ev = bench_trace_events(&n);
    const bench_trace_row_t *rows = bench_trace_rows(&n_rows);
    uint32_t *order = bench_trace_order(true, row_start, &n);
    static vcd_row_t vr[BENCH_TRACE_MAX_ROWS];
    vcd_vars_t vs = {0};
    if (!order || plan(ev, order, n, n_rows, vr, &vs, env) != 0) {
        free(order);
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(ENOMEM));
        return -1;
    }
    bench_outfile_t file;
    if (bench_outfile_open(&file, path, err, errlen) != 0) {
        free(order);
        free(vs.vars);
        return -1;
    }
    FILE *f = bench_outfile_stream(&file);
    header(f, env, rows, n_rows, vr);
    write_scopes(f, rows, n_rows, vr, &vs);
    fputs("$enddefinitions $end\n#0\n$dumpvars\n", f);
    for (int i = 0; i < vs.n; i++)
        put_value(f, &vs.vars[i], i);
    fputs("$end\n", f);

    int64_t written_t = 0, last_t = 0;
    for (size_t k = 0; k < n; k++) {
        if (k % 65536 == 0)
            bench_outfile_drain(&file);  /* a bounded piece in memory at a time */
        const bench_trace_event_t *e = &ev[order[k]];
        if (e->row >= n_rows || !vr[e->row].used)
            continue;
        vcd_row_t *r = &vr[e->row];
        int64_t t = e->t - row_start[e->row] + LEAD_NS;
        int run = e->task < TRACE_TASK_COUNT ? r->running[e->task] : -1;
        switch ((bench_trace_kind_t)e->kind) {
        case TRACE_RUNNING: set(f, &vs, run, 1, t, &written_t); break;
        case TRACE_STOPPED: set(f, &vs, run, 0, t, &written_t); break;
        case TRACE_SEND_BEGIN:
            set(f, &vs, run, 1, t, &written_t);  /* a task that sends is running */
            set(f, &vs, r->send, 1, t, &written_t);
            break;
        case TRACE_SEND_END:
            set(f, &vs, run, 1, t, &written_t);
            set(f, &vs, r->send, 0, t, &written_t);
            break;
        case TRACE_RECEIVED:
            set(f, &vs, run, 1, t, &written_t);
            if (r->received >= 0)
                set(f, &vs, r->received, !vs.vars[r->received].value, t, &written_t);
            break;
        case TRACE_ISR_ENTER:
        case TRACE_ISR_EXIT:
            for (int i = 0; i < r->n_irq; i++)
                if (r->irq_cpu[i] == e->cpu)
                    set(f, &vs, r->irq_var[i], e->kind == TRACE_ISR_ENTER, t, &written_t);
            break;
        case TRACE_DEPTH:
            if (e->value >= 0)
                set(f, &vs, r->depth, e->value, t, &written_t);
            break;
        case TRACE_ROW_END:
            /* The tasks were joined: nothing runs, nothing is in flight. */
            for (int i = 0; i < TRACE_TASK_COUNT; i++)
                set(f, &vs, r->running[i], 0, t, &written_t);
            set(f, &vs, r->send, 0, t, &written_t);
            for (int i = 0; i < r->n_irq; i++)
                set(f, &vs, r->irq_var[i], 0, t, &written_t);
            break;
        case TRACE_KIND_COUNT: break;
        }
        last_t = t > last_t ? t : last_t;
    }
    /* A closing time stamp, so the last values have a visible width. */
    fprintf(f, "#%lld\n", (long long)(last_t + LEAD_NS));
    free(order);
    free(vs.vars);
    return bench_outfile_commit(&file, err, errlen);
}
