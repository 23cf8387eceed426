#include "console.h"

#include <string.h>

#include "row_clock.h"

static void copy(char *dst, size_t cap, const char *src) { snprintf(dst, cap, "%s", src ? src : ""); }

void bench_console_begin(bench_console_t *c, FILE *out, const bench_console_env_t *e)
{
    c->out = out;
    c->platform = e->platform ? e->platform : "the ESP-IDF suite";
    c->clock = bench_clock_provenance_name(e->clock) ? bench_clock_provenance_name(e->clock) : "";
    bench_env_t env;
    memset(&env, 0, sizeof env);
    copy(env.cpu_model, sizeof env.cpu_model, e->chip);
    env.cores_online = e->cores;
    env.cpu[0] = 0;
    env.cpu[1] = 1;
    if (e->kernel)
        copy(env.kernel, sizeof env.kernel, e->kernel);
    else
        snprintf(env.kernel, sizeof env.kernel, "FreeRTOS %s (ESP-IDF %s)", e->freertos_version ? e->freertos_version : "?",
                 e->idf_version ? e->idf_version : "?");
    copy(env.hostname, sizeof env.hostname, e->hostname ? e->hostname : "esp-idf");
    env.sched_fifo = 1; /* fixed-priority preemptive: what SCHED_FIFO names on Linux */
    if (e->sched_detail)
        copy(env.sched_policy, sizeof env.sched_policy, e->sched_detail);
    else
        snprintf(env.sched_policy, sizeof env.sched_policy, "FreeRTOS fixed-priority preemptive, %d core(s)", e->cores);
    copy(env.priorities, sizeof env.priorities,
         e->priorities ? e->priorities : "rtipc priority p is FreeRTOS priority p: receivers 10, senders 5");
    copy(env.compiler, sizeof env.compiler, e->compiler);
    copy(env.cflags, sizeof env.cflags, e->cflags);
    copy(env.rtipc_version, sizeof env.rtipc_version, e->rtipc_version);
    copy(env.git_commit, sizeof env.git_commit, e->git_commit ? e->git_commit : "unknown");
    env.tick_hz = e->tick_hz > 0 ? (uint32_t)e->tick_hz : 0;
    copy(env.target, sizeof env.target, e->target ? e->target : "esp-idf");
    copy(env.clock.name, sizeof env.clock.name, e->clock_source ? e->clock_source : "ccount");
    env.clock.provenance = e->clock;
    copy(env.clock.unit, sizeof env.clock.unit, bench_clock_provenance_unit(e->clock));
    env.clock.rate_hz = e->clock_hz > 0 ? e->clock_hz : (double)e->cpu_mhz * 1e6;
    env.clock.resolution = e->clock_resolution_ns > 0 ? e->clock_resolution_ns
                           : e->cpu_mhz > 0           ? 1000.0 / (double)e->cpu_mhz
                                                      : 0;
    env.memory = e->memory;
    env.timestamp_overhead_ns = e->timestamp_overhead_ns;
    env.memory_locked = 1; /* no paging on a microcontroller */
    env.quick = e->samples < 1000;
    copy(env.started_utc, sizeof env.started_utc, e->started_utc);

    fprintf(out, "%s\n", BENCH_DOC_BEGIN_MARKER);
    bench_doc_writer_init(&c->w, bench_jw_file_sink, out);
    bench_doc_begin(&c->w);
    bench_doc_env_begin(&c->w, &env);
    bench_jw_kv_string(&c->w, "chip", e->chip);
    bench_jw_kv_int(&c->w, "cores", e->cores);
    bench_jw_kv_int(&c->w, "cpu_mhz", e->cpu_mhz);
    if (e->idf_version)
        bench_jw_kv_string(&c->w, "idf_version", e->idf_version);
    if (e->freertos_version)
        bench_jw_kv_string(&c->w, "freertos_version", e->freertos_version);
    bench_jw_kv_int(&c->w, "samples", e->samples);
    bench_doc_env_end(&c->w);
    bench_doc_results_begin(&c->w);
}

static void row(bench_result_t *r, bench_kind_t kind, const char *experiment, const char *mechanism,
                const char *variant, const char *metric, const char *unit, const char *clock)
{
    memset(r, 0, sizeof *r);
    r->kind = kind;
    /* The row lives for one write: it points at the caller's strings. */
    r->experiment = experiment ? experiment : "";
    r->mechanism = mechanism ? mechanism : "";
    r->variant = variant ? variant : "";
    r->metric = metric ? metric : "";
    r->unit = unit ? unit : "";
    r->clock = !bench_row_clock_free_unit(r->unit) && clock ? clock : "";
}

void bench_console_dist(bench_console_t *c, const char *experiment, const char *mechanism, const char *variant,
                        const char *metric, const char *unit, const bench_stats_t *st)
{
    bench_result_t r;
    row(&r, BENCH_DIST, experiment, mechanism, variant, metric, unit, c->clock);
    r.stats = *st;
    bench_doc_result(&c->w, &r);
}

int bench_console_samples(bench_console_t *c, const char *experiment, const char *mechanism, const char *variant,
                          const char *metric, bench_samples_t *samples)
{
    bench_stats_t st;
    if (bench_stats_compute(samples, &st) != 0)
        return -1;
    bench_console_dist(c, experiment, mechanism, variant, metric, "ns", &st);
    bench_stats_free(&st);
    return 0;
}

void bench_console_value(bench_console_t *c, const char *experiment, const char *mechanism, const char *variant,
                         const char *metric, const char *unit, double value)
{
    bench_result_t r;
    row(&r, BENCH_VALUE, experiment, mechanism, variant, metric, unit, c->clock);
    r.value = value;
    bench_doc_result(&c->w, &r);
}

int bench_console_end(bench_console_t *c, const bench_doc_experiment_t *x, int count)
{
    bench_doc_list_end(&c->w);
    bench_doc_experiments_begin(&c->w);
    for (int i = 0; i < count; i++)
        bench_doc_experiment(&c->w, &x[i]);
    bench_doc_list_end(&c->w);
    bench_doc_claims_unaudited(&c->w, c->platform);
    bench_doc_end(&c->w);
    bench_jw_error_t e = bench_jw_finish(&c->w);
    fprintf(c->out, "%s\n", BENCH_DOC_END_MARKER);
    fflush(c->out);
    return e == BENCH_JW_OK ? 0 : -1;
}
