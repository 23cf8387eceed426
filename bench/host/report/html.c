/* The HTML report (html.h). The page is written in XML syntax (every element
 * closed, attributes quoted) so that XML tools can check it, and every string
 * that comes from the results file goes through put_text(). */
#define _POSIX_C_SOURCE 200809L
#include "html.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../harness/util.h"
#include "../../names.h"
#include "../../results/outfile.h"
#include "../../results/published.h"
#include "plot.h"

#define SCHEMA "rtipc-bench/1"
#define CHART_WIDTH 960

/* ------------------------------------------------------------ the model */

/* Members of env, experiments and claims (the rows come typed: read.h). */
static const cJSON *item(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

static const char *str_or(const cJSON *o, const char *key, const char *fallback)
{
    return bench_results_string(o, key, fallback);
}

static const char *str(const cJSON *o, const char *key)
{
    return str_or(o, key, "");
}

static double num(const cJSON *o, const char *key)
{
    return bench_results_number(o, key);
}

static bool is_dist(const bench_row_t *row)
{
    return row->kind == BENCH_ROW_DIST;
}

static bool is_value(const bench_row_t *row)
{
    return row->kind == BENCH_ROW_VALUE;
}

static bool is_missing(const bench_row_t *row)
{
    return row->kind == BENCH_ROW_MISSING;
}

/* The rows of one experiment, in file order. */
typedef struct {
    const bench_results_t *res;
    size_t first, n;
} rows_t;

static rows_t rows_of(const bench_results_t *res, const char *id)
{
    rows_t rs = {res, 0, 0};
    rs.n = bench_results_experiment_rows(res, id, &rs.first);
    return rs;
}

static const bench_row_t *row_at(rows_t rs, size_t i)
{
    return &rs.res->rows[rs.res->by_experiment[rs.first + i]];
}

/* for (EACH_ROW(row, rows)) visits the rows of a rows_t. */
#define EACH_ROW(row, rs) \
    size_t row##_i = 0; row##_i < (rs).n && ((row) = row_at((rs), row##_i), 1); row##_i++

/* ------------------------------------------------------------- HTML text */

/* Length of the valid UTF-8 sequence at s, or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned char c = s[0];
    size_t n;
    unsigned char lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0)
            lo = 0xa0;
        if (c == 0xed)
            hi = 0x9f;   /* no UTF-16 surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0)
            lo = 0x90;
        if (c == 0xf4)
            hi = 0x8f;
    } else
        return 0;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xbf)
            return 0;
    return n;
}

/* Text or attribute value: markup characters escaped; control characters
 * (other than tab and newline) and invalid UTF-8 replaced by U+FFFD, which
 * keeps the page well-formed whatever the file holds. */
static void put_text(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned char c = *p;
        switch (c) {
        case '&': fputs("&amp;", f); p++; continue;
        case '<': fputs("&lt;", f); p++; continue;
        case '>': fputs("&gt;", f); p++; continue;
        case '"': fputs("&quot;", f); p++; continue;
        case '\'': fputs("&#39;", f); p++; continue;
        default: break;
        }
        if (c == '\t' || c == '\n' || (c >= 0x20 && c < 0x7f)) {
            fputc(c, f);
            p++;
        } else if (c >= 0x80 && utf8_len(p)) {
            size_t n = utf8_len(p);
            fwrite(p, 1, n, f);
            p += n;
        } else {
            fputs("\xef\xbf\xbd", f);
            p++;
        }
    }
}

/* An id or class fragment: letters, digits, '-' and '_' kept, others '_'. */
static void put_token(FILE *f, const char *s)
{
    for (; *s; s++)
        fputc((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
                      *s == '-' || *s == '_'
                  ? *s
                  : '_',
              f);
}

static void put_us(FILE *f, double ns)
{
    if (isnan(ns))
        fputs("-", f);
    else
        fprintf(f, "%.3f", ns / 1000.0);
}

static void put_number(FILE *f, double v)
{
    if (isnan(v))
        fputs("-", f);
    else
        fprintf(f, "%.6g", v);
}

/* One line per '\n'-separated piece of S, as list items. */
static void put_lines_as_list(FILE *f, const char *s, const char *cls)
{
    if (!*s)
        return;
    fprintf(f, "<ul class=\"%s\">\n", cls);
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        if (len) {
            char *line = strndup(s, len);
            if (line) {
                fputs("<li>", f);
                put_text(f, line);
                fputs("</li>\n", f);
                free(line);
            }
        }
        s += len + (nl ? 1 : 0);
    }
    fputs("</ul>\n", f);
}

static const char page_style[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
    "color:#1d2330;background:#fff;margin:0 auto;padding:0 24px 48px;max-width:1240px}\n"
    "h1{font-size:24px;margin:20px 0 4px}h2{font-size:19px;margin:32px 0 6px;padding-top:8px;"
    "border-top:2px solid #dfe3ea}h3{font-size:15px;margin:18px 0 6px}\n"
    "p.lead{margin:0 0 10px;color:#445}code,pre{font:12.5px/1.4 'DejaVu Sans Mono',monospace}\n"
    "pre{background:#f5f6f8;border:1px solid #e3e6ea;padding:8px 10px;overflow-x:auto;"
    "white-space:pre-wrap}\n"
    "table{border-collapse:collapse;margin:6px 0 10px;font-size:13px}\n"
    "th,td{border:1px solid #dde1e6;padding:3px 7px;text-align:left;vertical-align:top}\n"
    "th{background:#eef1f5;font-weight:600;white-space:nowrap}\n"
    "table.dist{font-size:12px}table.dist th,table.dist td{padding:2px 5px}\n"
    "tbody tr:nth-child(even){background:#fafbfc}td.num{text-align:right;"
    "font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "div.wide{overflow-x:auto}td.id{white-space:nowrap}h2 code{font-size:18px}\n"
    "tr.published td{color:#5b4a16;background:#fdf8e8;font-style:italic;border-top:0}\n"
    "dl.env{display:grid;grid-template-columns:max-content 1fr max-content 1fr;gap:2px 12px;"
    "font-size:13px;margin:6px 0;max-width:1240px}dl.env dt{font-weight:600;text-align:right;"
    "color:#334}dl.env dd{margin:0;overflow-wrap:anywhere}\n"
    ".badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;"
    "font-weight:600;white-space:nowrap;color:#fff;background:#6b7280}\n"
    ".v-holds,.s-ok{background:#1f7a3a}.v-does-not-hold,.s-failed{background:#b42318}"
    ".v-not-testable{background:#6b7280}.quick{background:#a15c07}\n"
    ".notice{border-left:4px solid #a15c07;background:#fff7e8;padding:6px 10px;margin:8px 0}\n"
    ".failure{border-left:4px solid #b42318;background:#fdecea;padding:6px 10px;margin:8px 0}\n"
    "ul.notes{margin:6px 0;padding-left:20px;color:#333}ul.notes li{margin:2px 0}\n"
    "details{margin:6px 0}summary{cursor:pointer;color:#2b4c7e}\n"
    "figure{margin:10px 0}figcaption{font-size:12.5px;color:#445;max-width:960px}\n"
    "svg.chart{max-width:100%;height:auto;border:1px solid #e3e6ea}\n"
    "nav ul{columns:3;padding-left:20px;margin:4px 0}nav li{margin:1px 0}\n"
    "footer{margin-top:36px;color:#556;font-size:12.5px}\n";

/* ------------------------------------------------------------- the report */

typedef struct {
    FILE *f;
    const bench_results_t *res;
    const cJSON *env, *experiments, *claims;
    bench_plot_t *plot;     /* NULL when no plot session could be set up */
    char plot_error[256];   /* then why */
    int chart_no;
    bench_html_outcome_t *outcome;
} report_t;

/* What draws the charts, or why nothing does. */
static const char *plotter_status(const report_t *r)
{
    return r->plot ? bench_plot_status(r->plot) : r->plot_error;
}

static void chart_missing(report_t *r, const char *why)
{
    r->outcome->charts_missing++;
    if (!r->outcome->warning[0])
        snprintf(r->outcome->warning, sizeof r->outcome->warning, "%s", why);
    fputs("<p class=\"notice\">Chart not drawn: ", r->f);
    put_text(r->f, why);
    fputs("</p>\n", r->f);
}

/* Renders SCRIPT and inlines the chart with CAPTION (our own text). */
static void put_chart(report_t *r, const char *script, int height, const char *kind,
                      const char *experiment, const char *caption)
{
    if (!bench_plot_available(r->plot)) {
        chart_missing(r, plotter_status(r));
        return;
    }
    char prefix[32], err[320];
    snprintf(prefix, sizeof prefix, "c%d-", ++r->chart_no);
    char *svg = NULL;
    if (bench_plot_render(r->plot, script, CHART_WIDTH, height, prefix, &svg, err, sizeof err) != 0) {
        chart_missing(r, err);
        return;
    }
    fprintf(r->f, "<figure class=\"chart\" data-chart=\"%s\"", kind);
    if (experiment) {
        fputs(" data-experiment=\"", r->f);
        put_text(r->f, experiment);
        fputs("\"", r->f);
    }
    fputs(">\n", r->f);
    /* gnuplot's root element, with our class added for the page style. */
    fputs("<svg class=\"chart\"", r->f);
    fputs(svg + strlen("<svg"), r->f);
    fprintf(r->f, "\n<figcaption>%s</figcaption>\n</figure>\n", caption);
    free(svg);
    r->outcome->charts_drawn++;
}

/* A chart being built: its data file and its plot command are written
 * together, then the setup, which depends on what was plotted, goes before
 * the plot command in the whole script. */
typedef struct {
    FILE *data;            /* the data file in the scratch directory */
    FILE *plot;            /* the plot command, into plot_text */
    char *plot_text;
    size_t plot_len;
    char *script;          /* the whole script, once chart_setup() succeeded */
    size_t script_len;
} chart_t;

/* Opens the data file DATA_NAME and the plot command. False, with the chart
 * reported missing, when nothing can draw or either cannot be opened. */
static bool chart_open(report_t *r, chart_t *c, const char *data_name)
{
    memset(c, 0, sizeof *c);
    if (!bench_plot_available(r->plot)) {
        chart_missing(r, plotter_status(r));
        return false;
    }
    c->data = bench_plot_data_file(r->plot, data_name);
    c->plot = c->data ? open_memstream(&c->plot_text, &c->plot_len) : NULL;
    if (!c->plot) {
        if (c->data)
            fclose(c->data);
        chart_missing(r, "cannot write the chart's data in the scratch directory");
        return false;
    }
    return true;
}

/* Closes the data file and the plot command (DRAWN curves or points in
 * them) and returns the stream the setup is written to. NULL, with the chart
 * reported missing (NONE_DRAWN when nothing was plotted), when it cannot be
 * drawn. */
static FILE *chart_setup(report_t *r, chart_t *c, int drawn, const char *none_drawn)
{
    bool data_ok = fclose(c->data) == 0;
    fputc('\n', c->plot);
    fclose(c->plot);
    FILE *setup = NULL;
    if (!drawn || !data_ok)
        chart_missing(r, drawn ? "cannot write the chart's data in the scratch directory" : none_drawn);
    else if (!(setup = open_memstream(&c->script, &c->script_len)))
        chart_missing(r, "out of memory");
    if (!setup)
        free(c->plot_text);
    return setup;
}

/* Puts the plot command after the setup written to SETUP and inlines the
 * chart (put_chart()). */
static void chart_draw(report_t *r, chart_t *c, FILE *setup, int height, const char *kind,
                       const char *experiment, const char *caption)
{
    fputs(c->plot_text, setup);
    fclose(setup);
    free(c->plot_text);
    put_chart(r, c->script, height, kind, experiment, caption);
    free(c->script);
}

/* Every env field, whatever the file holds, as name/value pairs. */
/* One env value as a reader wants it: an object as "name value, ..." (a
 * member in bytes in KiB or MiB), an array as its items, not raw JSON. */
static void put_env_value(FILE *f, const cJSON *v)
{
    if (cJSON_IsString(v)) {
        put_text(f, v->valuestring);
    } else if (cJSON_IsBool(v)) {
        fputs(cJSON_IsTrue(v) ? "yes" : "no", f);
    } else if (cJSON_IsNumber(v)) {
        fprintf(f, "%.10g", v->valuedouble);
    } else if (cJSON_IsNull(v)) {
        fputs("-", f);
    } else {
        bool object = cJSON_IsObject(v);
        for (const cJSON *c = v->child; c; c = c->next) {
            if (c != v->child)
                fputs(", ", f);
            size_t len = object && c->string ? strlen(c->string) : 0;
            bool bytes = len > 6 && !strcmp(c->string + len - 6, "_bytes") && cJSON_IsNumber(c);
            if (object && c->string) {
                char name[80];
                snprintf(name, sizeof name, "%.*s", (int)(bytes ? len - 6 : len), c->string);
                put_text(f, name);
                fputc(' ', f);
            }
            if (bytes && c->valuedouble >= 1024.0 * 1024.0)
                fprintf(f, "%.1f MiB", c->valuedouble / (1024.0 * 1024.0));
            else if (bytes)
                fprintf(f, "%.1f KiB", c->valuedouble / 1024.0);
            else
                put_env_value(f, c);
        }
    }
}

static void put_env(report_t *r)
{
    FILE *f = r->f;
    fputs("<dl class=\"env\">\n", f);
    for (const cJSON *v = r->env ? r->env->child : NULL; v; v = v->next) {
        fputs("<dt>", f);
        put_text(f, v->string ? v->string : "");
        fputs("</dt><dd>", f);
        put_env_value(f, v);
        fputs("</dd>\n", f);
    }
    fputs("</dl>\n", f);
}

static void put_header(report_t *r)
{
    FILE *f = r->f;
    const cJSON *env = r->env;
    fputs("<header>\n<h1>rtipc-bench report</h1>\n<p class=\"lead\">rtipc ", f);
    put_text(f, str_or(env, "rtipc_version", "?"));
    fputs(", commit <code>", f);
    put_text(f, str_or(env, "git_commit", "?"));
    fputs("</code>, started ", f);
    put_text(f, str_or(env, "started_utc", "?"));
    fputs(" on ", f);
    put_text(f, str_or(env, "cpu_model", "?"));
    /* The scheduler as the target describes it ("FreeRTOS (fixed-priority
     * preemptive)"), not the POSIX name a FreeRTOS run also carries. */
    const char *sched = str_or(env, "sched_detail", "");
    fputs(" (", f);
    put_text(f, *sched ? sched : str_or(env, "sched_policy", "?"));
    fputs(")", f);
    if (cJSON_IsTrue(item(env, "quick")))
        fputs(" <span class=\"badge quick\">quick run</span>", f);
    fputs("</p>\n", f);
    if (cJSON_IsTrue(item(env, "quick")))
        fputs("<p class=\"notice\">A <code>--quick</code> run: few samples per row, p99.9 omitted. "
              "Good for checking that everything runs, not for conclusions.</p>\n",
              f);
    if (!bench_plot_available(r->plot)) {
        fputs("<p class=\"notice\">This report has no charts: ", f);
        put_text(f, plotter_status(r));
        fputs(". Once gnuplot runs here, <code>rtipc-bench report RESULTS.json DIR</code> rebuilds the page "
              "with them.</p>\n",
              f);
    }
    fputs("<details open=\"open\"><summary>Environment</summary>\n", f);
    put_env(r);
    fputs("</details>\n</header>\n", f);
}

static void put_contents(report_t *r)
{
    FILE *f = r->f;
    fputs("<nav>\n<h2>Contents</h2>\n<ul>\n<li><a href=\"#claims\">Claim audit</a></li>\n"
          "<li><a href=\"#overview\">Latency against memory</a></li>\n",
          f);
    const cJSON *e;
    cJSON_ArrayForEach(e, r->experiments)
    {
        const char *id = str(e, "id"), *status = str(e, "status");
        fputs("<li><a href=\"#exp-", f);
        put_token(f, id);
        fputs("\">", f);
        put_text(f, id);
        fputs("</a>", f);
        if (strcmp(status, "ok") != 0) {
            fputs(" <span class=\"badge s-failed\">", f);
            put_text(f, status);
            fputs("</span>", f);
        }
        fputs("</li>\n", f);
    }
    fputs("</ul>\n</nav>\n", f);
}

static void put_claims(report_t *r)
{
    FILE *f = r->f;
    static const char *const verdicts[] = {"holds", "does-not-hold", "not-testable"};
    int count[3] = {0, 0, 0};
    const cJSON *c;
    cJSON_ArrayForEach(c, r->claims)
    {
        for (int k = 0; k < 3; k++)
            if (!strcmp(str(c, "verdict"), verdicts[k]))
                count[k]++;
    }
    fprintf(f, "<section id=\"claims\">\n<h2>Claim audit</h2>\n<p>%d hold, %d do not hold, %d not "
               "testable in this run (an experiment that did not run or failed leaves its claim "
               "not testable). Each verdict is computed from this run's rows by the rule beside it.</p>\n",
            count[0], count[1], count[2]);
    fputs("<div class=\"wide\"><table class=\"claims\">\n<thead><tr><th>#</th><th>Claim</th><th>Verdict</th>"
          "<th>Rule</th><th>Evidence</th></tr></thead>\n<tbody>\n",
          f);
    cJSON_ArrayForEach(c, r->claims)
    {
        const char *verdict = str(c, "verdict");
        const char *cls = "unknown";
        for (int k = 0; k < 3; k++)
            if (!strcmp(verdict, verdicts[k]))
                cls = verdicts[k];
        fputs("<tr><td class=\"num\">", f);
        put_number(f, num(c, "id"));
        fputs("</td><td>", f);
        put_text(f, str(c, "claim"));
        fprintf(f, "</td><td><span class=\"badge v-%s\">", cls);
        put_text(f, verdict);
        fputs("</span></td><td>", f);
        put_text(f, str(c, "rule"));
        fputs("</td><td>", f);
        put_text(f, str(c, "evidence"));
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody>\n</table></div>\n</section>\n", f);
}

/* ------------------------------------------------- latency tail chart */

/* Width in ns of the histogram bucket starting at LOW (docs/json-schema.md:
 * one ns per bucket below 2^bits, then 2^bits buckets per power of two). */
static double bucket_width(double low, int bits)
{
    uint64_t v = (uint64_t)low;
    if (v < ((uint64_t)1 << bits))
        return 1;
    int top = 63 - __builtin_clzll(v);
    return (double)((uint64_t)1 << (top - bits));
}

/* Values below 1 ns (an overhead minus the timestamp cost can reach 0) are
 * drawn at 1 ns, the left edge a log axis can show. */
static double chart_us(double ns)
{
    return (ns < 1 ? 1 : ns) / 1000.0;
}

/* Writes the exceedance curve of ROW's histogram as one data block: at each
 * non-empty bucket's lower and upper edge, the fraction of samples at or
 * above that edge (straight lines between edges: samples spread evenly
 * inside a bucket). Returns the sample count, 0 when there is no usable
 * histogram (nothing written). */
static double write_tail_block(FILE *data, const bench_row_t *row)
{
    int bits = (int)row->sub_bucket_bits;
    double total = 0;
    for (size_t k = 0; k < row->n_bins; k++)
        total += (double)row->bins[k].count;
    if (!(total > 0))
        return 0;
    double at_or_above = total;
    for (size_t k = 0; k < row->n_bins; k++) {
        double low = (double)row->bins[k].low, count = (double)row->bins[k].count;
        if (!(count > 0))
            continue;
        double high = low + bucket_width(low, bits);
        fprintf(data, "%.9g %.9g\n", chart_us(low), at_or_above / total);
        at_or_above -= count;
        if (at_or_above > 0.5)
            fprintf(data, "%.9g %.9g\n", chart_us(high), at_or_above / total);
    }
    fputs("\n\n", data);
    return total;
}

/* The name field K (0 mechanism, 1 variant, 2 metric) of a row. */
static const char *row_name(const bench_row_t *row, int k)
{
    return k == 0 ? row->mechanism : k == 1 ? row->variant : row->metric;
}

/* A curve's title: the fields (mechanism, variant, metric) that differ
 * between the experiment's rows, or all of them when nothing differs. */
static void row_title(char *out, size_t outlen, const bench_row_t *row, const bool varies[3])
{
    bool any = varies[0] || varies[1] || varies[2];
    out[0] = 0;
    size_t used = 0;
    for (int k = 0; k < 3; k++) {
        const char *v = row_name(row, k);
        if ((any && !varies[k]) || !*v)
            continue;
        int n = snprintf(out + used, outlen - used, "%s%s", used ? " " : "", v);
        if (n < 0 || (size_t)n >= outlen - used)
            break;
        used += (size_t)n;
    }
}

static const char *const line_colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                          "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
#define N_COLORS (sizeof line_colors / sizeof *line_colors)

/* The most curves one tail chart draws (the suite's largest, the ESP32's
 * mechanism-compare, has 50 distribution rows). */
enum { MAX_CURVES = 64 };

static void put_tail_chart(report_t *r, const char *id)
{
    rows_t rows = rows_of(r->res, id);
    const bench_row_t *row, *first = NULL;
    bool varies[3] = {false, false, false};
    for (EACH_ROW(row, rows)) {
        if (!is_dist(row))
            continue;
        if (!first)
            first = row;
        for (int k = 0; k < 3; k++)
            if (strcmp(row_name(row, k), row_name(first, k)) != 0)
                varies[k] = true;
    }
    chart_t c;
    if (!first || !chart_open(r, &c, "tail.dat"))
        return;
    FILE *data = c.data, *s = c.plot;
    int curves = 0;
    size_t longest = 8, left_out = 0;
    double most = 1;
    char title[200];
    for (EACH_ROW(row, rows)) {
        if (!is_dist(row))
            continue;
        /* A chart of more curves is unreadable, and gnuplot's time grows
         * with them: the first MAX_CURVES in file order are drawn, and the
         * caption says how many more rows the tables hold. */
        if (curves >= MAX_CURVES) {
            left_out++;
            continue;
        }
        double n = write_tail_block(data, row);
        if (n <= 0)
            continue;
        if (n > most)
            most = n;
        row_title(title, sizeof title, row, varies);
        if (strlen(title) > longest)
            longest = strlen(title);
        fprintf(s, "%s '%s' index %d using 1:2 with lines lc rgb '%s' dt %d lw 1.6 title ",
                curves ? ", \\\n    " : "plot", curves ? "" : "tail.dat", curves, line_colors[curves % N_COLORS],
                1 + (curves / (int)N_COLORS) % 5);
        bench_plot_put_string(s, title);
        curves++;
    }
    FILE *g = chart_setup(r, &c, curves, "no distribution row has a usable histogram");
    if (!g)
        return;
    double bottom = pow(10, floor(log10(0.5 / most)));
    fprintf(g, "set logscale xy 10\nset format x '%%g'\nset mxtics 10\n"
               "set xlabel 'latency [µs]'\nset ylabel 'fraction of samples at or above the latency'\n"
               "set yrange [%g:1.5]\nset ytics ('1' 1, '0.5 = p50' 0.5, '0.1 = p90' 0.1, "
               "'0.01 = p99' 0.01, '0.001 = p99.9' 0.001",
            bottom);
    for (double y = 1e-4; y >= bottom * 0.999; y /= 10)
        fprintf(g, ", '%g' %g", y, y);
    fputs(")\nset grid xtics ytics mxtics lt 1 lc rgb '#dddddd' lw 1, lt 1 lc rgb '#f0f0f0' lw 1\n"
          "set border 3\nset xtics nomirror\nset ytics nomirror\n"
          "set key outside below left Left reverse samplen 3 spacing 1.1 font ',11'\n",
          g);
    /* The key goes under the plot in as many columns as the longest title
     * allows (gnuplot counts about 7.2 px per character at 11 px, the
     * chart's own text size, plus 70 px for the sample line), and the canvas
     * grows by its rows (18 px each). */
    int columns = (CHART_WIDTH - 60) / (int)(longest * 7.2 + 70);
    if (columns < 1)
        columns = 1;
    int key_rows = (curves + columns - 1) / columns;
    fprintf(g, "set key maxrows %d\n", key_rows);
    int height = 420 + key_rows * 18;
    char caption[800], more[160] = "";
    if (left_out)
        snprintf(more, sizeof more, " Only the first %d rows are drawn: %zu more distribution row%s of this "
                 "experiment %s in its table, not here.", MAX_CURVES, left_out, left_out == 1 ? "" : "s",
                 left_out == 1 ? "is" : "are");
    snprintf(caption, sizeof caption,
             "Latency tail of every distribution row of this experiment: for each latency x, the "
             "fraction of that row's samples at or above x, from the row's histogram (log axes). "
             "A curve crosses 0.5 at its median and 0.01 at its p99; the further right a curve "
             "reaches at the bottom, the longer its tail.%s", more);
    chart_draw(r, &c, g, height, "latency-tail", id, caption);
}

/* ------------------------------------------------------------ tables */

/* The cells naming a row: mechanism, variant, metric. */
static void put_row_names(FILE *f, const bench_row_t *row)
{
    for (int k = 0; k < 3; k++) {
        fputs("<td class=\"id\">", f);
        put_text(f, row_name(row, k));
        fputs("</td>", f);
    }
}

/* Whether experiment @p id has rows of the FreeRTOS kernel's (or ESP-IDF's)
 * own objects: the published figures then stand beside those. */
static bool kernel_rows(rows_t rows)
{
    const bench_row_t *row;
    for (EACH_ROW(row, rows))
        if (!strncmp(row->mechanism, "kernel-", 7) || !strncmp(row->mechanism, "espidf-", 7))
            return true;
    return false;
}

/* The published figures of @p row, a table line each below it (spanning
 * @p columns): context, never part of the results. */
static void put_published(FILE *f, const bench_row_t *row, bool kernel_run, int columns)
{
    const bench_published_t *refs[4];
    size_t n = bench_published_for(row->experiment, row->mechanism, row->variant, row->metric, kernel_run, refs, 4);
    char buf[256];
    for (size_t k = 0; k < n && k < 4; k++) {
        fprintf(f, "<tr class=\"published\"><td colspan=\"%d\">", columns);
        put_text(f, bench_published_text(refs[k], buf, sizeof buf));
        fputs("</td></tr>\n", f);
    }
}

static void put_dist_table(report_t *r, const char *id)
{
    FILE *f = r->f;
    bool any = false, notes = false;
    rows_t rows = rows_of(r->res, id);
    const bench_row_t *row;
    for (EACH_ROW(row, rows)) {
        if (is_dist(row)) {
            any = true;
            if (*row->note)
                notes = true;
        }
    }
    if (!any)
        return;
    const bool kernel_run = kernel_rows(rows);
    fputs("<h3>Distributions</h3>\n<div class=\"wide\"><table class=\"dist\">\n<thead><tr>"
          "<th>mechanism</th><th>variant</th><th>metric</th><th>n</th><th>min [µs]</th>"
          "<th>mean [µs]</th><th>p50 [µs]</th><th>p90 [µs]</th><th>p99 [µs]</th><th>p99.9 [µs]</th>"
          "<th>max [µs]</th><th>jitter [µs]</th><th>sd [µs]</th><th>p50 95% CI [µs]</th>",
          f);
    if (notes)
        fputs("<th>note</th>", f);
    fputs("</tr></thead>\n<tbody>\n", f);
    for (EACH_ROW(row, rows)) {
        if (!is_dist(row))
            continue;
        const double columns[] = {row->min, row->mean, row->p50, row->p90, row->p99,
                                  row->p999, row->max, row->jitter, row->stddev};
        fputs("<tr>", f);
        put_row_names(f, row);
        fputs("<td class=\"num\">", f);
        put_number(f, (double)row->n);
        fputs("</td>", f);
        for (size_t k = 0; k < sizeof columns / sizeof *columns; k++) {
            fputs("<td class=\"num\">", f);
            put_us(f, columns[k]);
            fputs("</td>", f);
        }
        fputs("<td class=\"num\">", f);
        if (row->ci == BENCH_CI_FILE) {  /* the file's own interval, as written */
            put_us(f, row->ci_lo);
            fputs("–", f);
            put_us(f, row->ci_hi);
        } else {
            fputs("-", f);
        }
        fputs("</td>", f);
        if (notes) {
            fputs("<td>", f);
            put_text(f, row->note);
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
        put_published(f, row, kernel_run, notes ? 15 : 14);
    }
    fputs("</tbody>\n</table></div>\n", f);
}

static void put_value_table(report_t *r, const char *id)
{
    FILE *f = r->f;
    bool any = false;
    rows_t rows = rows_of(r->res, id);
    const bench_row_t *row;
    for (EACH_ROW(row, rows))
        any |= is_value(row);
    if (!any)
        return;
    const bool kernel_run = kernel_rows(rows);
    fputs("<h3>Values</h3>\n<div class=\"wide\"><table class=\"values\">\n<thead><tr><th>mechanism</th>"
          "<th>variant</th><th>metric</th><th>value</th><th>unit</th><th>note</th></tr></thead>\n<tbody>\n",
          f);
    for (EACH_ROW(row, rows)) {
        if (!is_value(row))
            continue;
        fputs("<tr>", f);
        put_row_names(f, row);
        fputs("<td class=\"num\">", f);
        put_number(f, row->value);
        fputs("</td><td>", f);
        put_text(f, row->unit);
        fputs("</td><td>", f);
        put_text(f, row->note);
        fputs("</td></tr>\n", f);
        put_published(f, row, kernel_run, 6);
    }
    fputs("</tbody>\n</table></div>\n", f);
}

static void put_missing_rows(report_t *r, const char *id)
{
    FILE *f = r->f;
    bool any = false;
    rows_t rows = rows_of(r->res, id);
    const bench_row_t *row;
    for (EACH_ROW(row, rows)) {
        if (!is_missing(row))
            continue;
        if (!any)
            fputs("<h3>Missing mechanisms</h3>\n<ul class=\"notes\">\n", f);
        any = true;
        fputs("<li><code>", f);
        put_text(f, row->mechanism);
        fputs("</code>: ", f);
        put_text(f, row->note);
        fputs("</li>\n", f);
    }
    if (any)
        fputs("</ul>\n", f);
}

static void put_experiment(report_t *r, const cJSON *e)
{
    FILE *f = r->f;
    const char *id = str(e, "id"), *status = str_or(e, "status", "?");
    fputs("<section class=\"experiment\" id=\"exp-", f);
    put_token(f, id);
    fputs("\">\n<h2><code>", f);
    put_text(f, id);
    fprintf(f, "</code> <span class=\"badge %s\">", !strcmp(status, "ok") ? "s-ok" : "s-failed");
    put_text(f, status);
    fputs("</span></h2>\n", f);
    const char *summary = str(e, "summary");
    fputs("<p class=\"lead\">", f);
    put_text(f, summary);
    if (!isnan(num(e, "seconds")))
        fprintf(f, "%s(ran %.1f s)", *summary ? " " : "", num(e, "seconds"));
    fputs("</p>\n", f);
    if (*str(e, "failure")) {
        fputs("<p class=\"failure\"><strong>Failed:</strong> ", f);
        put_text(f, str(e, "failure"));
        fputs("</p>\n", f);
    }
    if (*str(e, "definitions")) {
        fputs("<details><summary>Definitions: what each figure spans</summary>\n<pre>", f);
        put_text(f, str(e, "definitions"));
        fputs("</pre>\n</details>\n", f);
    }
    put_dist_table(r, id);
    put_value_table(r, id);
    put_missing_rows(r, id);
    if (*str(e, "notes")) {
        fputs("<h3>Notes</h3>\n", f);
        put_lines_as_list(f, str(e, "notes"), "notes");
    }
    put_tail_chart(r, id);
    fputs("</section>\n", f);
}

/* Whether the file's "experiments" names @p id. */
static bool listed(const report_t *r, const char *id)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, r->experiments)
        if (!strcmp(str(e, "id"), id))
            return true;
    return false;
}

/* Rows of an experiment the file's "experiments" does not list get a
 * section of their own, saying so, rather than vanish from the page. */
static void put_unlisted_experiments(report_t *r)
{
    const bench_results_t *res = r->res;
    for (size_t i = 0; i < res->n_rows; i++) {
        const char *id = res->rows[res->by_experiment[i]].experiment;
        if ((i > 0 && !strcmp(id, res->rows[res->by_experiment[i - 1]].experiment)) || listed(r, id))
            continue;
        cJSON *e = cJSON_CreateObject();
        if (!e || !cJSON_AddStringToObject(e, "id", id) || !cJSON_AddStringToObject(e, "status", "not listed") ||
            !cJSON_AddStringToObject(e, "notes", "The file's \"experiments\" does not list this experiment: its "
                                                 "rows are shown without its summary, status or definitions.\n")) {
            cJSON_Delete(e);
            continue;
        }
        put_experiment(r, e);
        cJSON_Delete(e);
    }
}

/* ------------------------------------------ latency against memory */

typedef struct {
    const bench_row_t *latency;    /* distribution row */
    const bench_row_t *memory;     /* value row in bytes */
    int series;              /* index into overview_series */
} overview_point_t;

/* What the two series' latencies are, for the chart's key. */
static const char *const overview_series[] = {"round trip", "one-way handoff"};

/* The experiments that time a one-way cross-core handoff of a mechanism,
 * most specific first; the first row found for a mechanism is used. */
static const char *const handoff_experiments[] = {BENCH_EXP_CORE_PLACEMENT, BENCH_EXP_QUEUE_LATENCY,
                                                   BENCH_EXP_NOTIFY_VS_SEM};

/* Those experiments name a binary semaphore "rtipc-sem"; footprint measures
 * it as "rtipc-sem-binary". */
static const char *footprint_name(const char *mechanism)
{
    return !strcmp(mechanism, BENCH_MECH_RTIPC_SEM) ? BENCH_MECH_RTIPC_SEM_BINARY : mechanism;
}

static const bench_row_t *find_row(const report_t *r, const char *experiment, const char *mechanism,
                                   const char *variant, const char *metric, bool dist)
{
    rows_t rows = rows_of(r->res, experiment);
    const bench_row_t *row;
    for (EACH_ROW(row, rows)) {
        if (dist ? !is_dist(row) : !is_value(row))
            continue;
        if ((mechanism && strcmp(row->mechanism, mechanism)) || (variant && strcmp(row->variant, variant)) ||
            (metric && strcmp(row->metric, metric)))
            continue;
        if (!dist && isnan(row->value))
            continue;
        return row;
    }
    return NULL;
}

/* Footprint of MECHANISM: its measured bytes for the depth-100, 4-byte shape
 * the handoff experiments use when there is one, else its first measured
 * size, else its documented size (formula). */
static const bench_row_t *footprint_of(const report_t *r, const char *mechanism)
{
    const char *name = footprint_name(mechanism);
    const bench_row_t *row = find_row(r, BENCH_EXP_FOOTPRINT, name, BENCH_VARIANT_LEN_100_ITEM_4, BENCH_METRIC_BYTES,
                                      false);
    if (!row)
        row = find_row(r, BENCH_EXP_FOOTPRINT, name, NULL, BENCH_METRIC_BYTES, false);
    if (!row)
        row = find_row(r, BENCH_EXP_FOOTPRINT, name, NULL, BENCH_METRIC_FORMULA, false);
    return row;
}

static bool seen_mechanism(overview_point_t *pts, size_t n, int series, const char *mechanism)
{
    for (size_t i = 0; i < n; i++)
        if (pts[i].series == series && !strcmp(pts[i].latency->mechanism, mechanism))
            return true;
    return false;
}

/* Candidates: every mechanism with a latency of either kind, with its
 * memory row or NULL. */
static size_t overview_candidates(const report_t *r, overview_point_t *pts, size_t cap)
{
    size_t n = 0;
    rows_t rows = rows_of(r->res, BENCH_EXP_MECHANISM_COMPARE);
    const bench_row_t *row;
    for (EACH_ROW(row, rows)) {
        if (n == cap || !is_dist(row) || strcmp(row->metric, BENCH_METRIC_ROUND_TRIP) != 0)
            continue;
        const char *mech = row->mechanism;
        if (seen_mechanism(pts, n, 0, mech))
            continue;
        const bench_row_t *best =
            find_row(r, BENCH_EXP_MECHANISM_COMPARE, mech, BENCH_VARIANT_ITEM_4, BENCH_METRIC_ROUND_TRIP, true);
        pts[n].latency = best ? best : row;
        pts[n].memory = find_row(r, BENCH_EXP_MECHANISM_COMPARE, mech, NULL, BENCH_METRIC_MEMORY, false);
        pts[n].series = 0;
        n++;
    }
    for (size_t e = 0; e < sizeof handoff_experiments / sizeof *handoff_experiments; e++) {
        rows_t handoff = rows_of(r->res, handoff_experiments[e]);
        for (EACH_ROW(row, handoff)) {
            if (n == cap || !is_dist(row) || strcmp(row->variant, BENCH_VARIANT_CROSS_CORE) != 0 ||
                strcmp(row->metric, BENCH_METRIC_LATENCY) != 0)
                continue;
            const char *mech = row->mechanism;
            if (seen_mechanism(pts, n, 1, mech))
                continue;
            pts[n].latency = row;
            pts[n].memory = footprint_of(r, mech);
            pts[n].series = 1;
            n++;
        }
    }
    return n;
}

/* The points the chart draws: those with a memory figure and a median. */
static bool overview_drawable(const overview_point_t *pt)
{
    return pt->memory && !isnan(pt->latency->p50) && pt->memory->value > 0;
}

static void put_overview_chart(report_t *r, const overview_point_t *pts, size_t n)
{
    chart_t c;
    if (!chart_open(r, &c, "overview.dat"))
        return;
    FILE *data = c.data, *s = c.plot;
    /* One data block and one key entry per point, numbered as in the table
     * under the chart: names next to the points would overlap, since several
     * mechanisms need nearly the same memory and time. */
    double x_lo = INFINITY, x_hi = 0, y_lo = INFINITY, y_hi = 0;
    int drawn = 0;
    char title[200];
    for (size_t i = 0; i < n; i++) {
        if (!overview_drawable(&pts[i]))
            continue;
        double bytes = pts[i].memory->value;
        double p50 = pts[i].latency->p50 / 1000.0, p99 = pts[i].latency->p99 / 1000.0;
        if (isnan(p99) || p99 < p50)
            p99 = p50;
        x_lo = fmin(x_lo, bytes);
        x_hi = fmax(x_hi, bytes);
        y_lo = fmin(y_lo, p50);
        y_hi = fmax(y_hi, p99);
        drawn++;
        fprintf(data, "%.9g %.9g %.9g %.9g \"%d\"\n\n\n", bytes, p50, p50, p99, drawn);
        snprintf(title, sizeof title, "%d  %s, %s", drawn, pts[i].latency->mechanism,
                 overview_series[pts[i].series]);
        int style = pts[i].series + 1;
        fprintf(s, "%s 'overview.dat' index %d using 1:2:3:4 with yerrorbars ls %d title ",
                drawn > 1 ? ", \\\n    " : "plot", drawn - 1, style);
        bench_plot_put_string(s, title);
        fprintf(s, ", \\\n    '' index %d using 1:2:5 with labels offset char %s textcolor ls %d notitle",
                drawn - 1, drawn % 2 ? "0.9,0.6 left" : "-0.9,0.6 right", style);
    }
    FILE *g = chart_setup(r, &c, drawn, "no latency row with a memory figure has a median");
    if (!g)
        return;
    /* The key stands right of the plot, one entry per point. */
    int height = 120 + drawn * 19;
    if (height < 560)
        height = 560;
    /* Whole powers of ten around the points, with room for their numbers. */
    fprintf(g, "set logscale xy 10\nset format x '%%g'\nset format y '%%g'\n"
               "set xrange [%g:%g]\nset yrange [%g:%g]\n"
               "set xlabel 'memory per object [B]'\n"
               "set ylabel 'latency [µs]: point at p50, bar up to p99'\n"
               "set grid xtics ytics mxtics mytics lt 1 lc rgb '#dddddd' lw 1, lt 1 lc rgb '#f0f0f0' lw 1\n"
               "set border 3\nset xtics nomirror\nset ytics nomirror\n"
               "set key outside right top Left reverse\n"
               "set style line 1 lc rgb '#1f77b4' pt 7 ps 1.1 lw 1.4\n"
               "set style line 2 lc rgb '#d62728' pt 5 ps 1.1 lw 1.4\n",
            pow(10, floor(log10(x_lo / 1.5))), pow(10, ceil(log10(x_hi * 1.5))), pow(10, floor(log10(y_lo / 1.5))),
            pow(10, ceil(log10(y_hi * 1.5))));
    chart_draw(r, &c, g, height, "latency-memory", NULL,
               "Latency against memory per object for every mechanism that has both figures in this run "
               "(log axes; numbers as in the table below). Each point sits at the latency's median; its bar "
               "reaches up to the p99 (no bar when the run had too few samples for a p99). A round trip is "
               "two handoffs, so compare points within one series.");
}

static void put_name_list(FILE *f, const char *lead, const char *const *names, size_t n)
{
    if (!n)
        return;
    fprintf(f, "<li>%s ", lead);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ", <code>" : "<code>", f);
        put_text(f, names[i]);
        fputs("</code>", f);
    }
    fputs("</li>\n", f);
}

static bool name_listed(const char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return true;
    return false;
}

static void put_overview(report_t *r)
{
    FILE *f = r->f;
    enum { CAP = 256 };
    overview_point_t pts[CAP];
    size_t n = overview_candidates(r, pts, CAP), drawn = 0;
    for (size_t i = 0; i < n; i++)
        drawn += overview_drawable(&pts[i]);
    fputs("<section id=\"overview\">\n<h2>Latency against memory</h2>\n<p>Each mechanism's latency "
          "next to the memory one object of it needs. Latencies: the round trip of "
          "<code>mechanism-compare</code> (memory from its <code>memory</code> rows), and the one-way "
          "cross-core handoff of <code>core-placement</code>, <code>queue-latency</code> or "
          "<code>notify-vs-sem</code> (memory from <code>footprint</code>: the depth-100 4-byte queue, a "
          "binary semaphore, one notification slot).</p>\n",
          f);
    if (!drawn) {
        fputs("<p class=\"notice\">No mechanism has both a latency and a memory figure in this run: "
              "run <code>mechanism-compare</code>, or <code>footprint</code> with one of "
              "<code>core-placement</code>, <code>queue-latency</code>, <code>notify-vs-sem</code>.</p>\n",
              f);
    } else {
        put_overview_chart(r, pts, n);
        fputs("<div class=\"wide\"><table class=\"overview\">\n<thead><tr><th>#</th><th>mechanism</th><th>latency "
              "from</th><th>p50 [µs]</th><th>p99 [µs]</th><th>memory [B]</th><th>memory from</th></tr>"
              "</thead>\n<tbody>\n",
              f);
        int number = 0;
        for (size_t i = 0; i < n; i++) {
            const bench_row_t *lat = pts[i].latency, *mem = pts[i].memory;
            if (!overview_drawable(&pts[i]))
                continue;
            fprintf(f, "<tr><td class=\"num\">%d</td><td>", ++number);
            put_text(f, lat->mechanism);
            fputs("</td><td>", f);
            put_text(f, lat->experiment);
            fputs(" ", f);
            put_text(f, lat->variant);
            fputs(" ", f);
            put_text(f, lat->metric);
            fputs("</td><td class=\"num\">", f);
            put_us(f, lat->p50);
            fputs("</td><td class=\"num\">", f);
            put_us(f, lat->p99);
            fputs("</td><td class=\"num\">", f);
            put_number(f, mem->value);
            fputs("</td><td>", f);
            put_text(f, mem->experiment);
            fputs(" ", f);
            put_text(f, mem->mechanism);
            fputs(" ", f);
            put_text(f, mem->variant);
            fputs(" ", f);
            put_text(f, mem->metric);
            fputs("</td></tr>\n", f);
        }
        fputs("</tbody>\n</table></div>\n", f);
    }

    /* What the chart leaves out, and why. */
    const char *no_memory[CAP], *no_median[CAP], *no_latency[CAP], *used_memory[CAP];
    size_t n_no_memory = 0, n_no_median = 0, n_no_latency = 0, n_used = 0;
    for (size_t i = 0; i < n; i++) {
        const char *mech = pts[i].latency->mechanism;
        if (!pts[i].memory) {
            if (!name_listed(no_memory, n_no_memory, mech))
                no_memory[n_no_memory++] = mech;
        } else if (!overview_drawable(&pts[i])) {
            if (!name_listed(no_median, n_no_median, mech))
                no_median[n_no_median++] = mech;
        } else if (!name_listed(used_memory, n_used, pts[i].memory->mechanism)) {
            used_memory[n_used++] = pts[i].memory->mechanism;
        }
    }
    const bench_results_t *res = r->res;
    for (size_t i = 0; i < res->n_rows; i++) {
        const bench_row_t *row = &res->rows[i];
        bool memory_row =
            (!strcmp(row->experiment, BENCH_EXP_FOOTPRINT) && !strcmp(row->metric, BENCH_METRIC_BYTES)) ||
            (!strcmp(row->experiment, BENCH_EXP_MECHANISM_COMPARE) && !strcmp(row->metric, BENCH_METRIC_MEMORY));
        const char *mech = row->mechanism;
        if (memory_row && is_value(row) && n_no_latency < CAP && !name_listed(used_memory, n_used, mech) &&
            !name_listed(no_latency, n_no_latency, mech))
            no_latency[n_no_latency++] = mech;
    }
    bool any_missing = false;
    for (size_t i = 0; i < res->n_rows; i++)
        any_missing |= is_missing(&res->rows[i]);
    if (n_no_memory || n_no_median || n_no_latency || any_missing) {
        fputs("<p>Not on the chart:</p>\n<ul class=\"notes\">\n", f);
        put_name_list(f, "a latency but no memory figure in this run (e.g. kernel objects):", no_memory,
                      n_no_memory);
        put_name_list(f, "a latency with too few samples for a median:", no_median, n_no_median);
        put_name_list(f, "a memory figure but no comparable latency in this run:", no_latency, n_no_latency);
        for (size_t i = 0; i < res->n_rows; i++) {
            const bench_row_t *row = &res->rows[i];
            if (!is_missing(row))
                continue;
            fputs("<li>not available on this host: <code>", f);
            put_text(f, row->mechanism);
            fputs("</code> (", f);
            put_text(f, row->experiment);
            fputs(": ", f);
            put_text(f, row->note);
            fputs(")</li>\n", f);
        }
        fputs("</ul>\n", f);
    }
    fputs("</section>\n", f);
}

/* ------------------------------------------------------------ the file */

static void put_page(report_t *r)
{
    FILE *f = r->f;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>rtipc-bench report ",
          f);
    put_text(f, str_or(r->env, "git_commit", ""));
    fputs(" ", f);
    put_text(f, str_or(r->env, "started_utc", ""));
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", page_style);
    put_header(r);
    put_contents(r);
    put_claims(r);
    put_overview(r);
    const cJSON *e;
    cJSON_ArrayForEach(e, r->experiments) put_experiment(r, e);
    put_unlisted_experiments(r);
    fputs("<footer>Built by rtipc-bench from results in the <code>" SCHEMA "</code> schema "
          "(docs/json-schema.md); definitions of every figure in docs/methodology.md. Charts: ",
          f);
    put_text(f, bench_plot_available(r->plot) ? plotter_status(r) : "none");
    fputs(".</footer>\n</body>\n</html>\n", f);
}

/* mkdir -p */
static int make_dirs(const char *dir)
{
    if (!*dir) {
        errno = ENOENT;
        return -1;
    }
    char *path = strdup(dir);
    if (!path)
        return -1;
    int rc = 0;
    for (char *p = path + 1; rc == 0; p++) {
        bool end = *p == 0;
        if (*p != '/' && !end)
            continue;
        *p = 0;
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            rc = -1;
        if (end)
            break;
        *p = '/';
    }
    struct stat st;
    if (rc == 0 && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
        errno = ENOTDIR;
        rc = -1;
    }
    free(path);
    return rc;
}

int bench_html_report(const bench_results_t *res, const char *dir, bench_html_outcome_t *outcome, char *err,
                      size_t errlen)
{
    bench_html_outcome_t scratch;
    if (!outcome)
        outcome = &scratch;
    memset(outcome, 0, sizeof *outcome);
    report_t r = {.res = res,
                  .env = res->env,
                  .experiments = res->experiments,
                  .claims = res->claims,
                  .outcome = outcome};
    if (make_dirs(dir) != 0) {
        bench_set_error(err, errlen, "cannot create the directory %s: %s", dir, strerror(errno));
        return -1;
    }
    size_t pathlen = strlen(dir) + sizeof "/index.html";
    char *path = malloc(pathlen);
    if (!path) {
        bench_set_error(err, errlen, "out of memory");
        return -1;
    }
    snprintf(path, pathlen, "%s/index.html", dir);
    bench_outfile_t page;
    int rc = bench_outfile_open(&page, path, err, errlen);
    free(path);
    if (rc != 0)
        return -1;
    /* Without a scratch directory there are no charts, but still a page. */
    r.plot = bench_plot_open(r.plot_error, sizeof r.plot_error);
    r.f = bench_outfile_stream(&page);
    put_page(&r);
    bench_plot_close(r.plot);
    return bench_outfile_commit(&page, err, errlen);
}
