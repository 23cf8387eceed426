/* The string pool (strpool.h): strings packed into chunks of 1 KiB (a longer
 * one gets a chunk of its own), found again through an open-addressing hash
 * table of them, kept at most half full: a run has a few hundred names, a
 * file read back may have tens of thousands. */
#include "strpool.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_BYTES 1024

struct bench_strpool_chunk {
    bench_strpool_chunk_t *next;
    size_t used, size;
    char bytes[];
};

static char *room(bench_strpool_t *pool, size_t len)
{
    bench_strpool_chunk_t *c = pool->chunks;
    if (!c || c->size - c->used < len) {
        size_t size = len > CHUNK_BYTES ? len : CHUNK_BYTES;
        c = malloc(sizeof *c + size);
        if (!c)
            return NULL;
        c->used = 0;
        c->size = size;
        c->next = pool->chunks;
        pool->chunks = c;
    }
    char *p = c->bytes + c->used;
    c->used += len;
    return p;
}

/* FNV-1a, 32 bits. */
static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The slot of @p s in the table, or of the empty slot where it belongs
 * (pool->cap is a power of two, the table never full). */
static size_t slot(const bench_strpool_t *pool, const char *s)
{
    size_t mask = pool->cap - 1, i = hash(s) & mask;
    while (pool->strings[i] && strcmp(pool->strings[i], s) != 0)
        i = (i + 1) & mask;
    return i;
}

/* Doubles the table (64 slots the first time). 0, or -1 out of memory. */
static int grow(bench_strpool_t *pool)
{
    size_t cap = pool->cap ? pool->cap * 2 : 64;
    const char **old = pool->strings;
    size_t old_cap = pool->cap;
    pool->strings = calloc(cap, sizeof *pool->strings);
    if (!pool->strings) {
        pool->strings = old;
        return -1;
    }
    pool->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i])
            pool->strings[slot(pool, old[i])] = old[i];
    free(old);
    return 0;
}

const char *bench_strpool_get(bench_strpool_t *pool, const char *s)
{
    if (!s)
        s = "";
    if (pool->cap) {
        size_t i = slot(pool, s);
        if (pool->strings[i])
            return pool->strings[i];
    }
    if ((pool->n + 1) * 2 > pool->cap && grow(pool) != 0)
        return NULL;
    size_t len = strlen(s) + 1;
    char *copy = room(pool, len);
    if (!copy)
        return NULL;
    memcpy(copy, s, len);
    pool->strings[slot(pool, copy)] = copy;
    pool->n++;
    return copy;
}

void bench_strpool_free(bench_strpool_t *pool)
{
    while (pool->chunks) {
        bench_strpool_chunk_t *c = pool->chunks;
        pool->chunks = c->next;
        free(c);
    }
    free(pool->strings);
    pool->strings = NULL;
    pool->n = pool->cap = 0;
}
