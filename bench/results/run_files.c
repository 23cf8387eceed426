/* A run's results files (run_files.h). */
#include "run_files.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "document.h"
#include "json_writer.h"
#include "outfile.h"

typedef struct {
    bench_outfile_t *o;
    size_t undrained; /* bytes printed since the last drain */
} file_sink_t;

static int file_sink(void *ctx, const char *bytes, size_t n)
{
    file_sink_t *fs = ctx;
    fwrite(bytes, 1, n, bench_outfile_stream(fs->o)); /* errors: at commit */
    fs->undrained += n;
    if (fs->undrained >= (size_t)1 << 16) {
        bench_outfile_drain(fs->o);
        fs->undrained = 0;
    }
    return 0;
}

/* The document streams into the atomic writer and moves to its temporary a
 * piece at a time, so memory holds about one piece of it. */
int bench_write_json(const bench_run_t *run, const char *path, char *err, size_t errlen)
{
    bench_outfile_t o;
    if (bench_outfile_open(&o, path, err, errlen) != 0)
        return -1;
    file_sink_t fs = {&o, 0};
    bench_jw_t w;
    bench_doc_writer_init(&w, file_sink, &fs);
    bench_doc_run(&w, run);
    if (bench_jw_finish(&w) != BENCH_JW_OK) {
        bench_outfile_discard(&o);
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(ENOMEM));
        return -1;
    }
    return bench_outfile_commit(&o, err, errlen);
}

/* ------------------------------------------------------------------- CSV */

/* Fields are our own identifiers (no commas or quotes), written as is. */
int bench_write_csv(const bench_run_t *run, const char *path, char *err, size_t errlen)
{
    bench_outfile_t o;
    if (bench_outfile_open(&o, path, err, errlen) != 0)
        return -1;
    FILE *f = bench_outfile_stream(&o);
    fprintf(f, "experiment,mechanism,variant,metric,unit,n,min,mean,p50,p90,p99,p999,max,stddev,value\n");
    for (size_t i = 0; i < run->n_results; i++) {
        const bench_result_t *r = run->results[i];
        if (r->kind == BENCH_MISSING)
            continue;
        fprintf(f, "%s,%s,%s,%s,%s,", r->experiment, r->mechanism, r->variant, r->metric, r->unit);
        if (r->kind == BENCH_DIST) {
            const bench_stats_t *s = &r->stats;
            double v[] = {s->min, s->mean, s->p50, s->p90, s->p99, s->p999, s->max, s->stddev};
            fprintf(f, "%lu", (unsigned long)s->n);
            for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
                isnan(v[k]) ? fprintf(f, ",") : fprintf(f, ",%.1f", v[k]);
            fprintf(f, ",\n");
        } else {
            fprintf(f, ",,,,,,,,,%.9g\n", r->value);
        }
    }
    return bench_outfile_commit(&o, err, errlen);
}
