/* Recording and printing for rtipc's Cortex-M3 firmwares (mcu_report.h). */
#include "mcu_report.h"

#include <stdio.h>
#include <string.h>

#include "board.h"
#include "names.h"

#define MAX_SERIES 48
#define MAX_VALUES 160
#define MAX_EXPERIMENTS 16

typedef struct {
    const char *experiment, *mechanism, *variant, *metric, *unit;
    bench_stats_t st;
} series_t;

typedef struct {
    const char *experiment, *mechanism, *variant, *metric, *unit;
    double value;
} value_row_t;

static series_t series[MAX_SERIES];
static int nseries;
static value_row_t values[MAX_VALUES];
static int nvalues;
static bench_doc_experiment_t experiments[MAX_EXPERIMENTS];
static int nexperiments;
static int failures;
static bench_samples_t samples;
static int64_t overhead;
static const char *current_failure;
static uint32_t current_start;
static char target[96];

int mcu_report_init(int n) { return bench_samples_init(&samples, (size_t)n); }

void mcu_report_free(void)
{
    for (int i = 0; i < nseries; i++)
        bench_stats_free(&series[i].st);
    bench_samples_free(&samples);
}

const char *mcu_env_target(double ipc)
{
    int shift = -1;
    for (int k = 0; k <= 5; k++) {
        double want = (double)BOARD_STAMP_PERIOD / (double)(1 << k);
        if (ipc > want * 0.999 && ipc < want * 1.001)
            shift = k;
    }
    if (shift >= 0)
        snprintf(target, sizeof target, "Cortex-M3, QEMU mps2-an385, icount shift=%d", shift);
    else
        snprintf(target, sizeof target, "Cortex-M3, QEMU mps2-an385, %.3f instructions per timer count", ipc);
    return target;
}

void mcu_fail(const char *why)
{
    if (!current_failure)
        current_failure = why;
}

bool mcu_failed(void) { return current_failure != NULL; }

void mcu_experiment_begin(void)
{
    current_failure = NULL;
    samples.n = 0;
    current_start = board_timer_now();
}

void mcu_experiment_end(const char *id, const char *summary, const char *definitions)
{
    uint32_t counts = current_start - board_timer_now();
    if (nexperiments == MAX_EXPERIMENTS) {
        printf("FAILED %s: no room for another experiment\n", id);
        failures++;
        return;
    }
    bench_doc_experiment_t *x = &experiments[nexperiments++];
    /* Emulated seconds: deterministic under -icount, unlike wall time. */
    *x = (bench_doc_experiment_t){.id = id,
                                  .summary = summary,
                                  .definitions = definitions,
                                  .failed = current_failure != NULL,
                                  .failure = current_failure,
                                  .seconds = (double)counts / (double)BOARD_CPU_HZ};
    if (current_failure) {
        failures++;
        printf("FAILED %s: %s\n", id, current_failure);
    }
}

void mcu_set_overhead(int64_t instr) { overhead = instr; }

const bench_stats_t *mcu_measure_stamp_overhead(const char *experiment, int n)
{
    for (int i = 0; i < n; i++) {
        board_stamp_t t0 = board_stamp_start();
        board_stamp_t t1 = board_stamp_end();
        mcu_sample_raw(board_stamp_instr(t0, t1));
    }
    const bench_stats_t *empty = mcu_keep(experiment, BENCH_MECH_BOARD_STAMP, "empty", "overhead", "instr");
    mcu_set_overhead(empty ? (int64_t)empty->p50 : 0);
    if (empty && board_stamp_exact() && empty->min != empty->max)
        mcu_fail("an empty stamp pair measures differently from sample to sample");
    return empty;
}
int64_t mcu_overhead(void) { return overhead; }

void mcu_sample_raw(int64_t value)
{
    if (bench_samples_push(&samples, value) != 0)
        mcu_fail("sample buffer overflow");
}

void mcu_sample(int64_t raw) { mcu_sample_raw(raw - overhead); }

const bench_stats_t *mcu_keep(const char *experiment, const char *mechanism, const char *variant,
                              const char *metric, const char *unit)
{
    series_t *s = &series[nseries];
    if (nseries == MAX_SERIES || bench_stats_compute(&samples, &s->st) != 0) {
        mcu_fail(samples.n ? "no room for the statistics" : "a series has no samples");
        samples.n = 0;
        return NULL;
    }
    s->experiment = experiment;
    s->mechanism = mechanism;
    s->variant = variant;
    s->metric = metric;
    s->unit = unit;
    nseries++;
    samples.n = 0;
    return &s->st;
}

void mcu_keep_value(const char *experiment, const char *mechanism, const char *variant, const char *metric,
                    const char *unit, double value)
{
    if (nvalues == MAX_VALUES) {
        mcu_fail("no room for another value row");
        return;
    }
    values[nvalues++] = (value_row_t){experiment, mechanism, variant, metric, unit, value};
}

int mcu_failures(void) { return failures; }

void mcu_print_tables(void)
{
    printf("%-16s %-20s %-13s %-16s %6s %6s %6s %6s %6s %6s %9s\n", "experiment", "mechanism", "variant",
           "metric", "n", "min", "p50", "p90", "p99", "max", "mean");
    for (int i = 0; i < nseries; i++) {
        const series_t *s = &series[i];
        /* newlib-nano's printf knows neither %zu nor %lld. */
        printf("%-16s %-20s %-13s %-16s %6u %6.0f %6.0f %6.0f %6.0f %6.0f %9.2f\n", s->experiment, s->mechanism,
               s->variant, s->metric, (unsigned)s->st.n, s->st.min, s->st.p50, s->st.p90, s->st.p99, s->st.max,
               s->st.mean);
    }
    printf("(all in instructions)\n\n%-16s %-20s %-24s %-26s %12s\n", "experiment", "mechanism", "variant",
           "metric", "value");
    for (int i = 0; i < nvalues; i++)
        printf("%-16s %-20s %-24s %-26s %12.6g %s\n", values[i].experiment, values[i].mechanism, values[i].variant,
               values[i].metric, values[i].value, values[i].unit);
    printf("\n");
}

void mcu_print_json(const bench_console_env_t *env)
{
    bench_console_t c;
    bench_console_begin(&c, stdout, env);
    for (int i = 0; i < nseries; i++)
        bench_console_dist(&c, series[i].experiment, series[i].mechanism, series[i].variant, series[i].metric,
                           series[i].unit, &series[i].st);
    for (int i = 0; i < nvalues; i++)
        bench_console_value(&c, values[i].experiment, values[i].mechanism, values[i].variant, values[i].metric,
                            values[i].unit, values[i].value);
    if (bench_console_end(&c, experiments, nexperiments) != 0)
        failures++; /* the document did not reach the console whole */
}
