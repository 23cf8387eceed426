/* The string pool (strpool.h): strings packed into chunks of 1 KiB (a longer
 * one gets a chunk of its own), found again by a linear look-up; a run has
 * a few hundred names at most. */
#include "strpool.h"

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

const char *bench_strpool_get(bench_strpool_t *pool, const char *s)
{
    if (!s)
        s = "";
    for (size_t i = 0; i < pool->n; i++)
        if (!strcmp(pool->strings[i], s))
            return pool->strings[i];
    if (pool->n == pool->cap) {
        size_t cap = pool->cap ? pool->cap * 2 : 64;
        const char **grown = realloc(pool->strings, cap * sizeof *grown);
        if (!grown)
            return NULL;
        pool->strings = grown;
        pool->cap = cap;
    }
    size_t len = strlen(s) + 1;
    char *copy = room(pool, len);
    if (!copy)
        return NULL;
    memcpy(copy, s, len);
    pool->strings[pool->n++] = copy;
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
