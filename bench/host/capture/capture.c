/* rtipc-bench capture (capture.h): a line reader over a file descriptor
 * that waits with poll() (for the timeout and the progress line), a
 * three-state scan for the console markers, the shared reader for the
 * check and the shared output file for the atomic write. */
#define _DEFAULT_SOURCE /* termios: the baud rates above 38400, CRTSCTS */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "../../harness/args.h"
#include "../../results/outfile.h"
#include "../../results/read.h"
#include "capture.h"

#define PROG "rtipc-bench capture"

#define MARK_BEGIN "==== rtipc-bench/1 JSON begin ===="
#define MARK_END "==== rtipc-bench/1 JSON end ===="
#define MARK_ABORTED "==== rtipc-bench/1 JSON aborted ===="

/* The largest results file the reader accepts: a line or a document past it
 * could not be read anyway. */
#define MAX_BYTES ((size_t)BENCH_RESULTS_MAX_BYTES)

static const char capture_usage[] =
    "usage: rtipc-bench capture [options] SOURCE OUT.json\n"
    "\n"
    "Reads a board's console until the rtipc-bench/1 JSON it prints between\n"
    "\"" MARK_BEGIN "\" and\n"
    "\"" MARK_END "\" is complete, checks it as compare, audit and\n"
    "report read results files (docs/json-schema.md), and writes it to OUT.json.\n"
    "SOURCE is a serial device (e.g. /dev/ttyUSB0: raw mode, 8N1, no flow control),\n"
    "a file, or '-' for standard input (e.g. `idf.py monitor | rtipc-bench capture\n"
    "- run.json`, or QEMU's output). Lines before the begin marker are skipped; a\n"
    "second begin marker (the board restarted) starts the document again. A marker\n"
    "counts anywhere on its line, after colour codes and trailing blanks; ESP-IDF\n"
    "log lines inside the document are left out (and counted); after an aborted\n"
    "document capture looks for a later complete one.\n"
    "\n"
    "  --baud N        the serial device's speed, one of 9600 19200 38400 57600\n"
    "                  115200 230400 460800 921600 1500000 2000000 3000000\n"
    "                  (default 115200; only for a terminal device)\n"
    "  --timeout S     give up when the end marker has not come S seconds after the\n"
    "                  start, 0 to 86400, 0 = wait for ever (default 600)\n"
    "  --echo          copy every line read to standard output\n"
    "  --no-progress   no progress line on stderr (it is shown only on a terminal)\n"
    "  -h, --help      this text\n"
    "      --version   the version of rtipc\n"
    "Options may come before or after the operands; '--' ends the options.\n"
    "\n"
    "OUT.json is written whole or not at all: after a failure it is as it was.\n"
    "OUT.json '-' is standard output (the document alone there; this line of\n"
    "result goes to stderr). --timeout bounds the wait for a FIFO's writer too.\n"
    "Exit status: 0 written; 1 no valid document (the input ended or the time ran\n"
    "out before the end marker, the board printed \"" MARK_ABORTED "\",\n"
    "the JSON is not valid rtipc-bench/1, SOURCE could not be read or OUT.json\n"
    "written); 2 usage error.\n";

/* A growing byte buffer; false when it would pass MAX_BYTES or memory runs out. */
typedef struct {
    char *p;
    size_t len, cap;
} buf_t;

static bool buf_add(buf_t *b, const char *s, size_t n)
{
    if (n > MAX_BYTES - b->len)
        return false;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p)
            return false;
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
    return true;
}

enum scan_state { WAITING, INSIDE, DONE, ABORTED };

typedef struct {
    enum scan_state state;
    buf_t line, doc;
    unsigned long long lines;    /* lines read */
    unsigned restarts;           /* begin markers after the first */
    unsigned long long near;     /* a line like a marker that is not one: its number (0: none) */
    unsigned long long skipped;  /* log lines that interrupted the document, left out of it */
    unsigned long long aborted;  /* the line of the last aborted marker (0: none) */
    bool echo;
} scan_t;

/* A short line as a terminal shows it: ANSI escape sequences (idf.py
 * monitor's colours) removed, trailing white space cut, into buf. NULL for
 * a line too long to be a marker or a log line. */
static const char *shown(const char *l, size_t n, char *buf, size_t cap)
{
    if (n >= cap)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (l[i] == '\033' && i + 1 < n && l[i + 1] == '[') {
            for (i += 2; i < n && !(l[i] >= '@' && l[i] <= '~'); i++) {
            }
            continue;
        }
        buf[k++] = l[i];
    }
    while (k && (buf[k - 1] == ' ' || buf[k - 1] == '\t' || buf[k - 1] == '\r'))
        k--;
    buf[k] = '\0';
    return buf;
}

/* An ESP-IDF log line ("I (1234) tag: text"), or any line with a control
 * character the JSON writer never prints: not part of the document. */
static bool log_line(const char *raw, size_t n, const char *plain)
{
    if (memchr(raw, '\033', n))
        return true;
    if (!plain || !strchr("EWIDV", plain[0]) || plain[1] != ' ' || plain[2] != '(')
        return false;
    const char *p = plain + 3;
    if (*p < '0' || *p > '9')
        return false;
    while (*p >= '0' && *p <= '9')
        p++;
    return p[0] == ')' && p[1] == ' ';
}

/* One whole line (without its newline and a trailing carriage return). A
 * marker counts anywhere on its line, after colours and trailing blanks. */
static bool scan_line(scan_t *s)
{
    char *l = s->line.p ? s->line.p : "";
    size_t n = s->line.len;
    if (n && l[n - 1] == '\r')
        l[--n] = '\0';
    s->lines++;
    if (s->echo) {
        fwrite(l, 1, n, stdout);
        putchar('\n');
    }
    char buf[512];
    const char *plain = shown(l, n, buf, sizeof buf);
    if (plain && strstr(plain, MARK_BEGIN)) {
        if (s->state == INSIDE) {
            s->restarts++;
            fprintf(stderr, "%s: a second begin marker (line %llu): the board restarted; reading the new document\n",
                    PROG, s->lines);
        }
        s->state = INSIDE;
        s->doc.len = 0;
        return true;
    }
    if (s->state != INSIDE) {
        /* Something close to a marker: said if no document comes. */
        if (plain && !s->near && (strstr(plain, "rtipc-bench/") || strstr(plain, "JSON begin")))
            s->near = s->lines;
        return true;
    }
    if (plain && strstr(plain, MARK_END)) {
        s->state = DONE;
        return true;
    }
    if (plain && strstr(plain, MARK_ABORTED)) {
        /* The board gave up on this document; a later one may come (a saved
         * log of a run that restarted): keep looking. */
        s->state = WAITING;
        s->aborted = s->lines;
        fprintf(stderr, "%s: the board printed the aborted marker (line %llu); looking for another document\n", PROG,
                s->lines);
        return true;
    }
    if (log_line(l, n, plain)) {
        s->skipped++;
        return true;
    }
    return buf_add(&s->doc, l, n) && buf_add(&s->doc, "\n", 1);
}

/* The bytes read, split into lines; false when a line or the document grows
 * past MAX_BYTES (or memory runs out). */
static bool scan_bytes(scan_t *s, const char *p, size_t n)
{
    while (n && s->state != DONE && s->state != ABORTED) {
        const char *nl = memchr(p, '\n', n);
        size_t k = nl ? (size_t)(nl - p) : n;
        if (!buf_add(&s->line, p, k))
            return false;
        if (!nl)
            return true;
        if (!scan_line(s))
            return false;
        s->line.len = 0;
        p += k + 1;
        n -= k + 1;
    }
    return true;
}

static const struct {
    unsigned long baud;
    speed_t code;
} speeds[] = {{9600, B9600},       {19200, B19200},     {38400, B38400},     {57600, B57600},
              {115200, B115200},   {230400, B230400},   {460800, B460800},   {921600, B921600},
              {1500000, B1500000}, {2000000, B2000000}, {3000000, B3000000}};

/* Raw mode at the given speed: every byte as it comes, nothing translated. */
static int set_raw(int fd, speed_t speed, char *err, size_t errlen)
{
    struct termios t;
    if (tcgetattr(fd, &t) != 0) {
        snprintf(err, errlen, "cannot read the terminal's settings: %s", strerror(errno));
        return -1;
    }
    t.c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON | IXOFF);
    t.c_oflag &= ~(tcflag_t)OPOST;
    t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
    t.c_cflag &= ~(tcflag_t)(CSIZE | PARENB | CSTOPB | CRTSCTS);
    t.c_cflag |= CS8 | CREAD | CLOCAL;
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    if (cfsetispeed(&t, speed) != 0 || cfsetospeed(&t, speed) != 0 || tcsetattr(fd, TCSANOW, &t) != 0) {
        snprintf(err, errlen, "cannot set the terminal to raw mode at that speed: %s", strerror(errno));
        return -1;
    }
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void progress(const scan_t *s, double elapsed)
{
    if (s->state == WAITING)
        fprintf(stderr, "\r%s: waiting for the begin marker: %llu lines, %.0f s ", PROG, s->lines, elapsed);
    else
        fprintf(stderr, "\r%s: reading the JSON: %zu KiB, %.0f s ", PROG, s->doc.len / 1024, elapsed);
    fflush(stderr);
}

/* Why no document began: how many lines were read, and the first that
 * looked like a marker without being one. */
static void waiting_reason(const scan_t *s, const char *what, double timeout, char *err, size_t errlen)
{
    char after[32] = "", near[96] = "";
    if (timeout >= 0)
        snprintf(after, sizeof after, " %.0f s", timeout);
    if (s->near)
        snprintf(near, sizeof near, "; saw a line like the begin marker at line %llu", s->near);
    snprintf(err, errlen, "%s%s without the begin marker (%llu line%s read%s)", what, after, s->lines,
             s->lines == 1 ? "" : "s", near);
}

/* Read fd until the document is complete or aborted, the input ends, or the
 * time runs out. 0 with s->state DONE or ABORTED; -1 with the reason. */
static int read_console(int fd, scan_t *s, double timeout, bool show, char *err, size_t errlen)
{
    double t0 = now_s(), shown = -1;
    char chunk[4096];
    for (;;) {
        double elapsed = now_s() - t0;
        if (show && elapsed - shown >= 1) {
            progress(s, elapsed);
            shown = elapsed;
        }
        if (timeout > 0 && elapsed >= timeout) {
            if (s->state == WAITING && s->aborted) {
                s->state = ABORTED;  /* no document after the aborted one */
                return 0;
            }
            if (s->state == WAITING)
                waiting_reason(s, "timed out after", timeout, err, errlen);
            else
                snprintf(err, errlen, "timed out after %.0f s inside the JSON (%zu bytes after the begin marker)",
                         timeout, s->doc.len);
            return -1;
        }
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int r = poll(&pfd, 1, 250);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            snprintf(err, errlen, "cannot wait for the input: %s", strerror(errno));
            return -1;
        }
        if (r == 0)
            continue;
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        /* A terminal whose other end went away reads EIO: the input ended. */
        if (n < 0 && errno != EIO) {
            snprintf(err, errlen, "cannot read the input: %s", strerror(errno));
            return -1;
        }
        if (n <= 0) {
            if (s->line.len && !scan_line(s)) /* a last line without its newline */
                goto too_big;
            if (s->state == DONE || s->state == ABORTED)
                return 0;
            if (s->state == WAITING && s->aborted) {
                s->state = ABORTED;  /* no document after the aborted one */
                return 0;
            }
            if (s->state == WAITING)
                waiting_reason(s, "the input ended", -1, err, errlen);
            else
                snprintf(err, errlen, "truncated capture: the input ended inside the JSON, %zu bytes after the "
                         "begin marker, without the end marker", s->doc.len);
            return -1;
        }
        if (!scan_bytes(s, chunk, (size_t)n))
            goto too_big;
        if (s->state == DONE || s->state == ABORTED)
            return 0;
    }
too_big:
    snprintf(err, errlen, "a line or the document passed %zu MiB (or memory ran out): not an rtipc-bench console",
             MAX_BYTES >> 20);
    return -1;
}

int bench_capture_main(int argc, char **argv)
{
    enum { OPT_BAUD = 0x100, OPT_TIMEOUT, OPT_ECHO, OPT_NO_PROGRESS };
    static const struct option longopts[] = {{"baud", required_argument, 0, OPT_BAUD},
                                             {"timeout", required_argument, 0, OPT_TIMEOUT},
                                             {"echo", no_argument, 0, OPT_ECHO},
                                             {"no-progress", no_argument, 0, OPT_NO_PROGRESS},
                                             {"help", no_argument, 0, 'h'},
                                             {"version", no_argument, 0, BENCH_OPT_VERSION},
                                             {0, 0, 0, 0}};
    unsigned long long baud = 115200;
    bool baud_given = false, progress_on = true;
    double timeout = 600;
    scan_t s = {0};
    bench_optparse_t p;
    bench_optparse_init(&p, PROG, capture_usage, longopts);
    int c;
    while ((c = bench_optparse_next(&p, argc, argv)) >= 0) {
        switch (c) {
        case OPT_BAUD: {
            bool known = false;
            if (bench_parse_uint(optarg, 1, 100000000, &baud) == 0)
                for (size_t i = 0; i < sizeof speeds / sizeof speeds[0]; i++)
                    known |= speeds[i].baud == baud;
            if (!known)
                return bench_usage_error(PROG, "--baud '%s' is not one of the speeds --help lists", optarg);
            baud_given = true;
            break;
        }
        case OPT_TIMEOUT:
            if (bench_parse_real(optarg, 0, 86400, &timeout) != 0)
                return bench_usage_error(PROG, "--timeout '%s' is not a number of seconds from 0 to 86400", optarg);
            break;
        case OPT_ECHO: s.echo = true; break;
        case OPT_NO_PROGRESS: progress_on = false; break;
        default: return bench_usage_error(PROG, "%s", "unexpected option");
        }
    }
    if (c == BENCH_OPT_STOP)
        return p.status;
    if (argc - optind != 2)
        return bench_usage_error(PROG, "%s", "capture wants a source and an output file: capture SOURCE OUT.json");
    const char *src = argv[optind], *out = argv[optind + 1];
    bool from_stdin = !strcmp(src, "-");
    if (s.echo && !strcmp(out, "-"))
        return bench_usage_error(PROG, "%s", "--echo and OUT.json '-' both ask for standard output");
    if (!from_stdin && bench_same_file(src, out))
        return bench_usage_error(PROG, "OUT.json %s is the source itself", out);
    char err[600];
    if (bench_output_check(out, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", PROG, err);
        return 1;
    }
    /* Not blocking in open() (a FIFO nobody writes to would hold it there,
     * outside --timeout): the reads wait in poll(), which the timeout
     * bounds. */
    int fd = from_stdin ? STDIN_FILENO : open(src, O_RDONLY | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        fprintf(stderr, "%s: cannot open %s: %s\n", PROG, src, strerror(errno));
        return 1;
    }
    if (isatty(fd)) {
        speed_t code = B115200;
        for (size_t i = 0; i < sizeof speeds / sizeof speeds[0]; i++)
            if (speeds[i].baud == baud)
                code = speeds[i].code;
        if (set_raw(fd, code, err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s: %s\n", PROG, src, err);
            if (!from_stdin)
                close(fd);
            return 1;
        }
    } else if (baud_given) {
        fprintf(stderr, "%s: note: %s is not a terminal; --baud does not apply\n", PROG, src);
    }
    bool show = progress_on && isatty(STDERR_FILENO);
    int rc = read_console(fd, &s, timeout, show, err, sizeof err);
    if (show)
        fprintf(stderr, "\r%*s\r", 72, "");
    if (!from_stdin)
        close(fd);
    const char *name = from_stdin ? "standard input" : src;
    int status = 1;
    if (rc != 0) {
        fprintf(stderr, "%s: %s: %s; %s not written\n", PROG, name, err, out);
    } else if (s.state == ABORTED) {
        fprintf(stderr, "%s: %s: the board could not finish its JSON (it printed the aborted marker at line %llu, "
                "after %zu bytes, and no complete document followed); %s not written\n", PROG, name, s.aborted,
                s.doc.len, out);
    } else {
        bench_results_t res;
        if (bench_results_parse(&res, s.doc.p ? s.doc.p : "", err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s: the captured JSON is not valid rtipc-bench/1: %s; %s not written\n", PROG, name,
                    err, out);
        } else if (bench_outfile_write_text(out, s.doc.p, s.doc.len, err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s\n", PROG, err);
        } else {
            size_t experiments = res.experiments ? (size_t)cJSON_GetArraySize(res.experiments) : 0;
            /* OUT.json '-' is standard output: the document alone there. */
            char skipped[64] = "";
            if (s.skipped)
                snprintf(skipped, sizeof skipped, "; %llu log line%s inside it left out", s.skipped,
                         s.skipped == 1 ? "" : "s");
            fprintf(strcmp(out, "-") ? stdout : stderr, "%s: %s: %zu result rows of %zu experiments (%zu bytes%s) "
                    "written to %s\n", PROG, name, res.n_rows, experiments, s.doc.len, skipped,
                    strcmp(out, "-") ? out : "standard output");
            status = 0;
        }
        bench_results_free(&res);
    }
    free(s.line.p);
    free(s.doc.p);
    return status;
}
