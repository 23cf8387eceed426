/* Reading an instrument's capture into its digital lines (lines.h), for
 * rtipc-bench scope. One reader per format:
 *
 *   vcd            Value Change Dump (PulseView, GTKWave, rtipc-bench --vcd):
 *                  its 1-bit variables, sample = one $timescale unit
 *   sigrok         a sigrok session file (.sr, PulseView, sigrok-cli), read
 *                  through libsigrok: its logic channels, at its samplerate
 *   saleae-csv     Saleae Logic 2's digital CSV ("Time [s],Channel 0,...")
 *   saleae-binary  a folder of Saleae Logic 2 binary exports
 *                  (digital_N.bin; format version 0 or 1), line N each
 *   csv            an oscilloscope's CSV: a time column (seconds, or
 *                  Rigol's sample numbers with Start and Increment), then
 *                  one column per channel, levels or volts (cut at a
 *                  threshold with 10 % hysteresis)
 *
 * A reader refuses a truncated, corrupt or foreign file with a one-line
 * reason and leaves nothing behind. Task context of a host program. */
#ifndef BENCH_HOST_SCOPE_READ_H
#define BENCH_HOST_SCOPE_READ_H

#include <stddef.h>

#include "lines.h"

typedef enum {
    SCOPE_FORMAT_AUTO,
    SCOPE_FORMAT_VCD,
    SCOPE_FORMAT_SIGROK,
    SCOPE_FORMAT_SALEAE_CSV,
    SCOPE_FORMAT_SALEAE_BINARY,
    SCOPE_FORMAT_CSV,
} scope_format_t;

typedef struct {
    scope_format_t format;
    double sample_rate;  /* --sample-rate in Hz, 0 = the file's (or, where it has none, 1 GHz) */
    double threshold;    /* --threshold in the CSV's unit; NAN = midway between a column's extremes */
} scope_read_opts_t;

/* "vcd", "sigrok", ...: 0 and *out, or -1. */
int scope_format_parse(const char *name, scope_format_t *out);
const char *scope_format_name(scope_format_t f);

/* Reads @p path (a file, or a folder of Saleae binary exports) into @p c
 * (initialised here). 0; or -1 with the reason in @p err and @p c empty. */
int scope_read(const char *path, const scope_read_opts_t *o, scope_lines_t *c, char *err, size_t errlen);

/* The readers, on a file already recognised (read.c picks one). */
int scope_read_vcd(const char *path, const scope_read_opts_t *o, scope_lines_t *c, char *err, size_t errlen);
int scope_read_sigrok(const char *path, const scope_read_opts_t *o, scope_lines_t *c, char *err, size_t errlen);
int scope_read_saleae_csv(const char *path, const scope_read_opts_t *o, scope_lines_t *c, char *err,
                          size_t errlen);
int scope_read_saleae_binary(const char *dir, const scope_read_opts_t *o, scope_lines_t *c, char *err,
                             size_t errlen);
int scope_read_csv(const char *path, const scope_read_opts_t *o, scope_lines_t *c, char *err, size_t errlen);

/* A whole file in memory, NUL-terminated (read.c): the text and its length,
 * or NULL with the reason in @p err. Files above 1 GiB are refused. */
char *scope_slurp(const char *path, size_t *len, char *err, size_t errlen);

/* scope_slurp for a text capture, which ends with a line break: one that
 * ends in the middle of a line is refused as truncated. */
char *scope_slurp_text(const char *path, size_t *len, char *err, size_t errlen);

#endif
