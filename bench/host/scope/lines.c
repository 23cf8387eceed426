/* A capture's digital lines (lines.h). */
#include "lines.h"

#include <stdlib.h>
#include <string.h>

void scope_lines_init(scope_lines_t *c)
{
    memset(c, 0, sizeof *c);
    c->rate_hz = 1e9;
    strcpy(c->instrument, "unknown");
}

void scope_lines_free(scope_lines_t *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->lines[i].name);
        free(c->lines[i].at);
        free(c->lines[i].level);
    }
    free(c->lines);
    memset(c, 0, sizeof *c);
}

int scope_lines_add(scope_lines_t *c, const char *name)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 8;
        scope_line_t *l = realloc(c->lines, cap * sizeof *l);
        if (!l)
            return -1;
        c->lines = l;
        c->cap = cap;
    }
    scope_line_t *l = &c->lines[c->n];
    memset(l, 0, sizeof *l);
    l->initial = -1;
    size_t len = strlen(name);
    if (!(l->name = malloc(len + 1)))
        return -1;
    memcpy(l->name, name, len + 1);
    return (int)c->n++;
}

int scope_lines_set(scope_lines_t *c, int index, int64_t at, int level)
{
    scope_line_t *l = &c->lines[index];
    level = level != 0;
    if (l->n == 0 && (l->initial < 0 || at <= c->first)) {
        /* Its level before any change: the first reading (a level first
         * read later was unknown before, so no change is seen), or one at
         * the capture's first sample, which replaces it. */
        l->initial = level;
        return 0;
    }
    if (l->n && at < l->at[l->n - 1])
        return -2;
    int now = l->n ? l->level[l->n - 1] : l->initial;
    if (now == level)
        return 0;
    if (l->n && at == l->at[l->n - 1]) {
        /* Two changes at one sample: the line ends that sample at the later
         * level, which may undo the earlier change. */
        l->n--;
        int before = l->n ? l->level[l->n - 1] : l->initial;
        if (before == level)
            return 0;
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        int64_t *a = realloc(l->at, cap * sizeof *a);
        if (!a)
            return -1;
        l->at = a;
        uint8_t *v = realloc(l->level, cap * sizeof *v);
        if (!v)
            return -1;
        l->level = v;
        l->cap = cap;
    }
    l->at[l->n] = at;
    l->level[l->n] = (uint8_t)level;
    l->n++;
    return 0;
}

int scope_lines_find(const scope_lines_t *c, const char *spec)
{
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(c->lines[i].name, spec))
            return (int)i;
    char *end;
    unsigned long k = strtoul(spec, &end, 10);
    if (*spec >= '0' && *spec <= '9' && *end == 0 && k < c->n)
        return (int)k;
    return -1;
}

size_t scope_lines_deglitch(scope_lines_t *c, int index, int64_t min_samples)
{
    scope_line_t *l = &c->lines[index];
    if (min_samples <= 0)
        return 0;
    size_t removed = 0, out = 0;
    for (size_t i = 0; i < l->n; i++) {
        /* A change undone within min_samples is a glitch: drop both. */
        if (i + 1 < l->n && l->at[i + 1] - l->at[i] < min_samples) {
            i++;
            removed++;
            continue;
        }
        /* Dropping a glitch may leave two changes to one level in a row. */
        int before = out ? l->level[out - 1] : l->initial;
        if (before == l->level[i])
            continue;
        l->at[out] = l->at[i];
        l->level[out] = l->level[i];
        out++;
    }
    l->n = out;
    return removed;
}

int scope_lines_idle(const scope_lines_t *c, int index)
{
    const scope_line_t *l = &c->lines[index];
    if (l->initial < 0)
        return l->n ? !l->level[0] : -1;
    int64_t time_at[2] = {0, 0}, from = c->first;
    int level = l->initial;
    for (size_t i = 0; i < l->n; i++) {
        time_at[level] += l->at[i] - from;
        from = l->at[i];
        level = l->level[i];
    }
    time_at[level] += (c->last > from ? c->last - from : 0);
    return time_at[1] > time_at[0];
}
