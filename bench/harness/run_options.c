/* What a run's options decide for an experiment: quick or full, sample and
 * warm-up counts sized to the heap, durations, the CPUs playing core 0 and
 * core 1, and random streams seeded from the run's seed. */
#include <stdio.h>
#include <stdlib.h>

#include "../names.h"
#include "run.h"

bool bench_quick(const bench_run_t *run) { return run->opts.quick; }

bool bench_samples_fixed(const bench_run_t *run) { return run->opts.samples != 0; }

size_t bench_sample_count(const bench_run_t *run, size_t full, size_t quick)
{
    if (run->opts.samples)
        return run->opts.samples;
    return run->opts.quick ? quick : full;
}

size_t bench_samples_fit_heap(bench_run_t *run, size_t samples, size_t bytes, unsigned share, const char *what)
{
    bench_memory_t mem;
    bench_target_memory(&mem);
    if (mem.kind != BENCH_MEMORY_HEAP_FREE || mem.now_bytes <= 0 || !bytes || !share)
        return samples;
    size_t cap = (size_t)mem.now_bytes / share / bytes;
    cap -= cap / 11;  /* the warm-up's tenth */
    if (cap < 100)
        cap = 100;
    if (samples <= cap)
        return samples;
    bench_note(run, "%s: %lu samples, not %lu: what 1/%u of the free heap (%ld KiB) holds", what,
               (unsigned long)cap, (unsigned long)samples, share, (long)(mem.now_bytes >> 10));
    return cap;
}

size_t bench_warmup_count(const bench_run_t *run, size_t samples)
{
    return bench_warmup_count_min(run, samples, 100);
}

size_t bench_warmup_count_min(const bench_run_t *run, size_t samples, size_t least)
{
    if (run->opts.warmup >= 0)
        return (size_t)run->opts.warmup;
    size_t w = samples / 10;
    return w < least ? least : w;
}

double bench_duration(const bench_run_t *run, double full, double quick)
{
    if (run->opts.duration_s > 0)
        return run->opts.duration_s;
    return run->opts.quick ? quick : full;
}

int bench_cpu(const bench_run_t *run, int logical_core)
{
    return run->opts.cpu[logical_core ? 1 : 0];
}

bool bench_two_cores(const bench_run_t *run) { return run->opts.cpu[0] != run->opts.cpu[1]; }

const char *bench_core_variant(const bench_run_t *run)
{
    return bench_two_cores(run) ? BENCH_VARIANT_CROSS_CORE : BENCH_VARIANT_SAME_CORE;
}

uint32_t bench_tick_hz(const bench_run_t *run) { return run->env.tick_hz; }

double bench_timestamp_overhead_ns(const bench_run_t *run) { return run->env.timestamp_overhead_ns; }

void bench_rng_init(bench_rng_t *r, const bench_run_t *run, uint64_t stream)
{
    /* splitmix64 of (seed, stream) so that streams are independent. */
    uint64_t z = run->opts.seed + 0x9e3779b97f4a7c15ULL * (stream + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    r->s = z ? z : 1;
}

uint64_t bench_rng_next(bench_rng_t *r)
{
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * 0x2545f4914f6cdd1dULL;
}

int64_t bench_rng_range(bench_rng_t *r, int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return lo;
    return lo + (int64_t)(bench_rng_next(r) % (uint64_t)(hi - lo + 1));
}

