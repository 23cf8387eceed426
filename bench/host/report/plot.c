/* gnuplot driving for the HTML report (plot.h). gnuplot runs as a child
 * process with a minimal environment (its own HOME, so a user's ~/.gnuplot
 * cannot change the charts; the C locale, so numbers use a decimal point). */
#define _POSIX_C_SOURCE 200809L
#include "plot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../harness/util.h"
#include "../../results/outfile.h"

#define PLOT_PATH_MAX 4096
/* The most files a session puts in its scratch directory: version.txt,
 * gnuplot.err, chart.gp, chart.svg and the charts' data files. */
#define PLOT_FILES_MAX 8

struct bench_plot {
    char dir[PLOT_PATH_MAX];
    bool available;
    char status[160];
    /* Each scratch file ever named, tracked so that a signal removes it
     * (results/outfile.h) before the directory. */
    char files[PLOT_FILES_MAX][PLOT_PATH_MAX];
    int n_files;
};

/* DIR/NAME into OUT, and tracked for removal on a signal; -1 when it does
 * not fit, or when the session already named PLOT_FILES_MAX files. */
static int scratch_path(bench_plot_t *p, const char *name, char *out, size_t outlen)
{
    int n = snprintf(out, outlen, "%s/%s", p->dir, name);
    if (n < 0 || (size_t)n >= outlen || (size_t)n >= PLOT_PATH_MAX)
        return -1;
    for (int i = 0; i < p->n_files; i++)
        if (!strcmp(p->files[i], out))
            return 0;
    if (p->n_files == PLOT_FILES_MAX)
        return -1;
    memcpy(p->files[p->n_files], out, (size_t)n + 1);
    bench_outfile_track(p->files[p->n_files++]);
    return 0;
}

/* Runs `gnuplot ARG` with stdin from /dev/null, stdout to the scratch file
 * STDOUT_NAME (or /dev/null) and stderr to gnuplot.err. Returns 0 and the
 * wait status, or -1 with errno when gnuplot could not be started. */
static int run_gnuplot(bench_plot_t *p, const char *arg, const char *stdout_name, int *wstatus)
{
    char out_path[PLOT_PATH_MAX], err_path[PLOT_PATH_MAX], home[PLOT_PATH_MAX + 8];
    if ((stdout_name && scratch_path(p, stdout_name, out_path, sizeof out_path)) ||
        scratch_path(p, "gnuplot.err", err_path, sizeof err_path)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    snprintf(home, sizeof home, "HOME=%s", p->dir);
    char *const argv[] = {"gnuplot", (char *)arg, NULL};
    char *const envp[] = {home, "LC_ALL=C", NULL};

    posix_spawn_file_actions_t fa;
    int rc = posix_spawn_file_actions_init(&fa);
    if (rc == 0)
        rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (rc == 0)
        rc = posix_spawn_file_actions_addopen(&fa, 1, stdout_name ? out_path : "/dev/null",
                                              O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (rc == 0)
        rc = posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid;
    if (rc == 0)
        rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    while (waitpid(pid, wstatus, 0) < 0) {
        if (errno != EINTR)
            return -1;
    }
    return 0;
}

bench_plot_t *bench_plot_open(char *err, size_t errlen)
{
    bench_plot_t *p = calloc(1, sizeof *p);
    if (!p) {
        bench_set_error(err, errlen, "%s", "out of memory");
        return NULL;
    }
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    int n = snprintf(p->dir, sizeof p->dir, "%s/rtipc-report-XXXXXX", tmp);
    if (n < 0 || (size_t)n >= sizeof p->dir || !mkdtemp(p->dir)) {
        bench_set_error(err, errlen, "cannot create a scratch directory in %s: %s", tmp,
                        n > 0 && (size_t)n < sizeof p->dir ? strerror(errno) : "path too long");
        free(p);
        return NULL;
    }
    bench_outfile_track(p->dir);
    int ws;
    if (run_gnuplot(p, "--version", "version.txt", &ws) != 0) {
        snprintf(p->status, sizeof p->status, "gnuplot %s (Debian package gnuplot-nox)",
                 errno == ENOENT ? "was not found in PATH" : "could not be started");
        return p;
    }
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
        snprintf(p->status, sizeof p->status, "`gnuplot --version` failed (wait status %d)", ws);
        return p;
    }
    char path[PLOT_PATH_MAX];
    char *version = scratch_path(p, "version.txt", path, sizeof path) ? NULL : bench_read_file(path);
    if (version) {
        version[strcspn(version, "\r\n")] = 0;
        snprintf(p->status, sizeof p->status, "%s", *version ? version : "gnuplot");
    } else {
        snprintf(p->status, sizeof p->status, "gnuplot");
    }
    free(version);
    p->available = true;
    return p;
}

void bench_plot_close(bench_plot_t *p)
{
    if (!p)
        return;
    DIR *d = opendir(p->dir);
    if (d) {
        struct dirent *e;
        char path[PLOT_PATH_MAX];
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            int n = snprintf(path, sizeof path, "%s/%s", p->dir, e->d_name);
            if (n > 0 && (size_t)n < sizeof path)
                unlink(path);
        }
        closedir(d);
    }
    rmdir(p->dir);
    for (int i = 0; i < p->n_files; i++)
        bench_outfile_untrack(p->files[i]);
    bench_outfile_untrack(p->dir);
    free(p);
}

bool bench_plot_available(const bench_plot_t *p)
{
    return p && p->available;
}

const char *bench_plot_status(const bench_plot_t *p)
{
    return p ? p->status : "no plot session";
}

FILE *bench_plot_data_file(bench_plot_t *p, const char *name)
{
    char path[PLOT_PATH_MAX];
    if (strchr(name, '/') || scratch_path(p, name, path, sizeof path)) {
        errno = EINVAL;
        return NULL;
    }
    return fopen(path, "w");
}

void bench_plot_put_string(FILE *script, const char *s)
{
    fputc('\'', script);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\'')
            fputs("''", script);
        else if (c < 0x20 || c == 0x7f)
            fputc(' ', script);
        else
            fputc(c, script);
    }
    fputc('\'', script);
}

/* ---------------------------------------------------- SVG for inlining */

typedef struct {
    char *buf;
    size_t len, cap;
    bool failed;
} text_t;

static void text_add(text_t *t, const char *s, size_t n)
{
    if (t->failed)
        return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (t->len + n + 1 > cap)
            cap *= 2;
        char *b = realloc(t->buf, cap);
        if (!b) {
            t->failed = true;
            return;
        }
        t->buf = b;
        t->cap = cap;
    }
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    t->buf[t->len] = 0;
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Turns gnuplot's stand-alone SVG document into an element for an HTML page:
 * drops the XML prolog and the namespace declarations (the HTML parser puts
 * an inline <svg> in the SVG namespace by itself; xlink:href becomes SVG 2's
 * href), drops gnuplot's <title>
 * elements (they only name the plot "Gnuplot"), and prefixes ids and the
 * references to them. */
static char *svg_for_html(const char *doc, const char *prefix, char *err, size_t errlen)
{
    const char *s = strstr(doc, "<svg");
    if (!s) {
        bench_set_error(err, errlen, "%s", "gnuplot wrote no <svg> element");
        return NULL;
    }
    static const char *const dropped_attrs[] = {"xmlns=\"", "xmlns:xlink=\""};
    static const char *const id_openers[] = {"id='", "id=\"", "href='#", "href=\"#", "url(#"};
    static const char xlink_href[] = "xlink:href=";
    text_t out = {0};
    const char *root_end = strchr(s, '>');
    while (*s) {
        bool in_root = root_end && s < root_end;
        bool matched = false;
        for (size_t i = 0; in_root && i < sizeof dropped_attrs / sizeof *dropped_attrs; i++) {
            if (starts_with(s, dropped_attrs[i])) {
                const char *close = strchr(s + strlen(dropped_attrs[i]), '"');
                if (close && close < root_end) {
                    s = close + 1;
                    matched = true;
                }
                break;
            }
        }
        if (matched)
            continue;
        /* SVG 2's plain href: the page declares no xlink namespace. */
        if (starts_with(s, xlink_href)) {
            s += strlen("xlink:");
            continue;
        }
        if (starts_with(s, "<title>")) {
            const char *close = strstr(s, "</title>");
            if (close) {
                s = close + strlen("</title>");
                continue;
            }
        }
        for (size_t i = 0; i < sizeof id_openers / sizeof *id_openers; i++) {
            if (starts_with(s, id_openers[i])) {
                size_t n = strlen(id_openers[i]);
                text_add(&out, s, n);
                text_add(&out, prefix, strlen(prefix));
                s += n;
                matched = true;
                break;
            }
        }
        if (!matched)
            text_add(&out, s++, 1);
    }
    if (out.failed || !out.buf) {
        free(out.buf);
        bench_set_error(err, errlen, "%s", "out of memory");
        return NULL;
    }
    return out.buf;
}

/* The last non-empty line gnuplot wrote on stderr (its error message). */
static void gnuplot_error_line(bench_plot_t *p, char *line, size_t linelen)
{
    char path[PLOT_PATH_MAX];
    line[0] = 0;
    char *text = scratch_path(p, "gnuplot.err", path, sizeof path) ? NULL : bench_read_file(path);
    if (!text)
        return;
    char *save = NULL;
    for (char *l = strtok_r(text, "\r\n", &save); l; l = strtok_r(NULL, "\r\n", &save))
        if (l[strspn(l, " \t")])
            snprintf(line, linelen, "%s", l);
    free(text);
}

int bench_plot_render(bench_plot_t *p, const char *script, int width, int height,
                      const char *id_prefix, char **svg, char *err, size_t errlen)
{
    *svg = NULL;
    if (!bench_plot_available(p)) {
        bench_set_error(err, errlen, "%s", p ? p->status : "no plot session");
        return -1;
    }
    char script_path[PLOT_PATH_MAX], svg_path[PLOT_PATH_MAX];
    if (scratch_path(p, "chart.gp", script_path, sizeof script_path) ||
        scratch_path(p, "chart.svg", svg_path, sizeof svg_path)) {
        bench_set_error(err, errlen, "%s", "scratch path too long");
        return -1;
    }
    unlink(svg_path);
    FILE *f = fopen(script_path, "w");
    if (!f) {
        bench_set_error(err, errlen, "cannot write %s: %s", script_path, strerror(errno));
        return -1;
    }
    fputs("cd ", f);
    bench_plot_put_string(f, p->dir);
    fprintf(f, "\nset terminal svg size %d,%d noenhanced font 'sans,11' background '#ffffff'\n"
               "set encoding utf8\nset output 'chart.svg'\n",
            width, height);
    fputs(script, f);
    fputs("\nunset output\n", f);
    if (fclose(f) != 0) {
        bench_set_error(err, errlen, "cannot write %s: %s", script_path, strerror(errno));
        return -1;
    }
    int ws;
    if (run_gnuplot(p, script_path, NULL, &ws) != 0) {
        bench_set_error(err, errlen, "cannot run gnuplot: %s", strerror(errno));
        return -1;
    }
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
        char line[200];
        gnuplot_error_line(p, line, sizeof line);
        char what[48];
        if (WIFEXITED(ws))
            snprintf(what, sizeof what, "exit status %d", WEXITSTATUS(ws));
        else
            snprintf(what, sizeof what, "wait status %d", ws);
        bench_set_error(err, errlen, "gnuplot failed (%s): %s", what, line[0] ? line : "no message");
        return -1;
    }
    char *doc = bench_read_file(svg_path);
    if (!doc) {
        bench_set_error(err, errlen, "gnuplot wrote no chart: %s", strerror(errno));
        return -1;
    }
    *svg = svg_for_html(doc, id_prefix, err, errlen);
    free(doc);
    return *svg ? 0 : -1;
}
