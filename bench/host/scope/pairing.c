/* Start and end edges paired (pairing.h). */
#include "pairing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int scope_edge_parse(const char *s, scope_edge_t *out)
{
    static const char *const names[] = {"rising", "falling", "both"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, names[i])) {
            *out = (scope_edge_t)i;
            return 0;
        }
    return -1;
}

const char *scope_edge_name(scope_edge_t e)
{
    return e == SCOPE_EDGE_RISING ? "rising" : e == SCOPE_EDGE_FALLING ? "falling" : "both";
}

/* One line's edges of one kind, inside a window of samples. */
typedef struct {
    const scope_line_t *l;
    scope_edge_t e;
    int64_t from, to;
} side_t;

static bool wanted(const side_t *s, size_t i)
{
    return s->l->at[i] >= s->from && s->l->at[i] <= s->to &&
           (s->e == SCOPE_EDGE_BOTH || (s->l->level[i] == 1) == (s->e == SCOPE_EDGE_RISING));
}

/* The next wanted edge at or after position *i: its sample, or -1 with
 * none left. */
static int64_t next_edge(const side_t *s, size_t *i)
{
    while (*i < s->l->n && !wanted(s, *i))
        ++*i;
    return *i < s->l->n ? s->l->at[*i] : -1;
}

static size_t count_edges(const side_t *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->l->n; i++)
        n += wanted(s, i);
    return n;
}

static int push(scope_pairs_t *p, size_t cap, int64_t start, int64_t latency)
{
    if (p->n == cap)
        return -1; /* cap is the number of starts: a bug if reached */
    p->start_at[p->n] = start;
    p->latency[p->n++] = latency;
    return 0;
}

static int pair_next(const side_t *s, const side_t *e, int64_t max, scope_pairs_t *p, size_t cap)
{
    size_t is = 0, ie = 0;
    bool pending = false, run = false; /* run: the pending start followed another */
    int64_t since = 0;
    for (;;) {
        int64_t ts = next_edge(s, &is), te = next_edge(e, &ie);
        if (ts < 0 && te < 0)
            break;
        /* Starts first at one sample: a zero-sample latency pairs. */
        if (ts >= 0 && (te < 0 || ts <= te)) {
            is++;
            if (pending && ts - since > max) {
                p->start_without_end++; /* its end never came in time */
                run = false;
            } else if (pending) {
                p->overlapped++;        /* the earlier one; the run goes on */
                run = true;
            }
            pending = true;
            since = ts;
            continue;
        }
        ie++;
        if (!pending) {
            p->end_without_start++;
        } else if (te - since > max) {
            p->start_without_end++;
            p->end_without_start++;
        } else if (run) {
            p->overlapped++;            /* the run's last start */
            p->end_after_overlap++;
        } else if (push(p, cap, since, te - since) != 0) {
            return -1;
        }
        pending = run = false;
    }
    if (pending)
        p->start_without_end++; /* the capture ended first */
    return 0;
}

static int pair_order(const side_t *s, const side_t *e, int64_t max, scope_pairs_t *p, size_t cap, char *err,
                      size_t errlen)
{
    if (p->starts != p->ends) {
        snprintf(err, errlen,
                 "pairing by order needs one end per start: %zu start and %zu end edges (a message lost, or "
                 "the capture cut one off: --pair next pairs what it can and counts the rest)",
                 p->starts, p->ends);
        return -2;
    }
    size_t is = 0, ie = 0;
    for (size_t k = 0; k < p->starts; k++, is++, ie++) {
        int64_t ts = next_edge(s, &is), te = next_edge(e, &ie);
        if (te < ts || te - ts > max) {
            snprintf(err, errlen, "pairing by order: end %zu is %s its start (samples %lld and %lld)", k + 1,
                     te < ts ? "before" : "past --max-latency from", (long long)ts, (long long)te);
            return -2;
        }
        if (push(p, cap, ts, te - ts) != 0)
            return -1;
    }
    return 0;
}

int scope_pair(const scope_lines_t *c, int start, scope_edge_t se, int end, scope_edge_t ee, int64_t max_samples,
               int64_t from, int64_t to, scope_pairing_t mode, scope_pairs_t *out, char *err, size_t errlen)
{
    side_t s = {&c->lines[start], se, from, to}, e = {&c->lines[end], ee, from, to};
    memset(out, 0, sizeof *out);
    out->starts = count_edges(&s);
    out->ends = count_edges(&e);
    size_t cap = out->starts ? out->starts : 1;
    out->latency = malloc(cap * sizeof *out->latency);
    out->start_at = malloc(cap * sizeof *out->start_at);
    if (!out->latency || !out->start_at) {
        scope_pairs_free(out);
        return -1;
    }
    int rc = mode == SCOPE_PAIR_ORDER ? pair_order(&s, &e, max_samples, out, cap, err, errlen)
                                      : pair_next(&s, &e, max_samples, out, cap);
    if (rc != 0) {
        scope_pairs_free(out);
        return rc;
    }
    return 0;
}

void scope_pairs_free(scope_pairs_t *p)
{
    free(p->latency);
    free(p->start_at);
    p->latency = p->start_at = NULL;
    p->n = 0;
}
