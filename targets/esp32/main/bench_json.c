#include "bench_json.h"

#include <math.h>
#include <stdint.h>

static void str(FILE *o, const char *s)
{
    fputc('"', o);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(o, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(o, "\\u%04x", *p);
        else
            fputc(*p, o);
    }
    fputc('"', o);
}

/* Decimal digits of v by hand: newlib-nano's printf (the bare-metal bench)
 * has no %lld. */
static void dec(FILE *o, unsigned long long v)
{
    char buf[24];
    int i = (int)sizeof buf;
    buf[--i] = '\0';
    do {
        buf[--i] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v);
    fputs(&buf[i], o);
}

static void num(FILE *o, double v)
{
    if (isnan(v) || isinf(v))
        fputs("null", o);
    else
        fprintf(o, "%.15g", v);
}

static void kv_str(FILE *o, const char *k, const char *v, bool comma)
{
    str(o, k);
    fputs(": ", o);
    str(o, v);
    if (comma)
        fputs(", ", o);
}

static void kv_num(FILE *o, const char *k, double v, bool comma)
{
    str(o, k);
    fputs(": ", o);
    num(o, v);
    if (comma)
        fputs(", ", o);
}

void ebj_begin(ebj_t *w, FILE *out, const ebj_env_t *e)
{
    w->out = out;
    w->rows = 0;
    w->platform = e->platform ? e->platform : "ESP-IDF";
    char kernel[96], policy[96];
    snprintf(kernel, sizeof kernel, "FreeRTOS %s (ESP-IDF %s)", e->freertos_version, e->idf_version);
    snprintf(policy, sizeof policy, "FreeRTOS fixed-priority preemptive, %d core(s)", e->cores);
    const double clock_hz = e->clock_hz > 0 ? e->clock_hz : (double)e->cpu_mhz * 1e6;
    const double resolution = e->clock_resolution_ns > 0 ? e->clock_resolution_ns : 1000.0 / (double)e->cpu_mhz;
    fprintf(out, "%s\n{\"schema\": \"rtipc-bench/1\",\n \"env\": {", EBJ_BEGIN_MARKER);
    kv_str(out, "cpu_model", e->chip, true);
    kv_str(out, "chip", e->chip, true);
    kv_num(out, "cores_online", e->cores, true);
    kv_num(out, "cores", e->cores, true);
    fputs("\"cpus\": [0, 1], ", out);
    kv_num(out, "cpu_mhz", e->cpu_mhz, true);
    kv_str(out, "kernel", e->kernel ? e->kernel : kernel, true);
    kv_str(out, "hostname", e->hostname ? e->hostname : "esp-idf", true);
    kv_str(out, "sched_policy", "SCHED_FIFO", true);
    kv_str(out, "sched_detail", e->sched_detail ? e->sched_detail : policy, true);
    kv_str(out, "priorities",
           e->priorities ? e->priorities : "rtipc priority p is FreeRTOS priority p: receivers 10, senders 5", true);
    kv_str(out, "compiler", e->compiler, true);
    kv_str(out, "cflags", e->cflags, true);
    kv_str(out, "rtipc_version", e->rtipc_version, true);
    kv_str(out, "git_commit", e->git_commit ? e->git_commit : "unknown", true);
    if (e->idf_version)
        kv_str(out, "idf_version", e->idf_version, true);
    if (e->freertos_version)
        kv_str(out, "freertos_version", e->freertos_version, true);
    kv_num(out, "tick_hz", e->tick_hz, true);
    kv_str(out, "clock_source", e->clock_source ? e->clock_source : "ccount", true);
    kv_num(out, "clock_hz", clock_hz, true);
    kv_num(out, "clock_resolution_ns", resolution, true);
    kv_num(out, "timestamp_overhead_ns", e->timestamp_overhead_ns, true);
    fputs("\"memory_locked\": true, ", out); /* no paging on the MCU */
    kv_num(out, "seed", 0, true);
    fprintf(out, "\"quick\": %s, ", e->samples < 1000 ? "true" : "false");
    kv_num(out, "samples", e->samples, true);
    kv_str(out, "started_utc", e->started_utc, false);
    fputs("},\n \"results\": [", out);
}

int ebj_dist(ebj_t *w, const char *experiment, const char *mechanism, const char *variant, const char *metric,
             bench_samples_t *samples)
{
    bench_stats_t st;
    if (bench_stats_compute(samples, &st) != 0)
        return -1;
    ebj_dist_stats(w, experiment, mechanism, variant, metric, &st);
    bench_stats_free(&st);
    return 0;
}

void ebj_dist_stats(ebj_t *w, const char *experiment, const char *mechanism, const char *variant,
                    const char *metric, const bench_stats_t *s)
{
    ebj_dist_stats_unit(w, experiment, mechanism, variant, metric, "ns", s);
}

void ebj_value(ebj_t *w, const char *experiment, const char *mechanism, const char *variant, const char *metric,
               const char *unit, double value)
{
    FILE *o = w->out;
    fputs(w->rows++ ? ",\n  {" : "\n  {", o);
    kv_str(o, "experiment", experiment, true);
    kv_str(o, "mechanism", mechanism, true);
    kv_str(o, "variant", variant, true);
    kv_str(o, "metric", metric, true);
    kv_str(o, "unit", unit, true);
    kv_num(o, "value", value, false);
    fputc('}', o);
}

void ebj_dist_stats_unit(ebj_t *w, const char *experiment, const char *mechanism, const char *variant,
                         const char *metric, const char *unit, const bench_stats_t *s)
{
    const bench_stats_t st = *s;
    FILE *o = w->out;
    fputs(w->rows++ ? ",\n  {" : "\n  {", o);
    kv_str(o, "experiment", experiment, true);
    kv_str(o, "mechanism", mechanism, true);
    kv_str(o, "variant", variant, true);
    kv_str(o, "metric", metric, true);
    kv_str(o, "unit", unit, true);
    kv_num(o, "n", (double)st.n, true);
    kv_num(o, "min", st.min, true);
    kv_num(o, "mean", st.mean, true);
    kv_num(o, "p50", st.p50, true);
    kv_num(o, "p90", st.p90, true);
    kv_num(o, "p99", st.p99, true);
    kv_num(o, "p999", st.p999, true);
    kv_num(o, "max", st.max, true);
    kv_num(o, "stddev", st.stddev, true);
    kv_num(o, "jitter", st.max - st.min, true);
    fputs("\"p50_ci95\": [", o);
    num(o, st.p50_lo);
    fputs(", ", o);
    num(o, st.p50_hi);
    fprintf(o, "], \"histogram\": {\"sub_bucket_bits\": %d, \"buckets\": [", BENCH_HIST_SUB_BITS);
    int printed = 0;
    for (unsigned b = 0; b < BENCH_HIST_BUCKETS; b++) {
        if (st.hist[b]) {
            fputs(printed++ ? ", [" : "[", o);
            dec(o, (unsigned long long)bench_hist_bucket_low(b));
            fprintf(o, ", %lu]", (unsigned long)st.hist[b]);
        }
    }
    fputs("]}}", o);
}

void ebj_end(ebj_t *w, const ebj_experiment_t *x, int count)
{
    FILE *o = w->out;
    fputs("],\n \"experiments\": [", o);
    for (int i = 0; i < count; i++) {
        fputs(i ? ",\n  {" : "\n  {", o);
        kv_str(o, "id", x[i].id, true);
        kv_str(o, "summary", x[i].summary, true);
        kv_str(o, "status", x[i].ok ? "ok" : "failed", true);
        if (!x[i].ok)
            kv_str(o, "failure", x[i].failure ? x[i].failure : "unknown", true);
        kv_str(o, "definitions", x[i].definitions, true);
        kv_str(o, "notes", "", true);
        kv_num(o, "seconds", x[i].seconds, false);
        fputc('}', o);
    }
    /* The claims audit rests on the Linux experiments, which this suite does
     * not run: every claim is "not-testable" here. */
    fputs("],\n \"claims\": [", o);
    for (int id = 1; id <= 9; id++) {
        fprintf(o, "%s{\"id\": %d, ", id > 1 ? ",\n  " : "\n  ", id);
        char claim[80];
        snprintf(claim, sizeof claim, "claim %d of the Linux rtipc-bench audit", id);
        kv_str(o, "claim", claim, true);
        kv_str(o, "verdict", "not-testable", true);
        char rule[128], evidence[80];
        snprintf(rule, sizeof rule, "the %s suite does not run the experiments this claim rests on", w->platform);
        snprintf(evidence, sizeof evidence, "not run on %s", w->platform);
        kv_str(o, "rule", rule, true);
        kv_str(o, "evidence", evidence, false);
        fputc('}', o);
    }
    fprintf(o, "]}\n%s\n", EBJ_END_MARKER);
    fflush(o);
}
