/* sigrok session files (.sr, as PulseView and sigrok-cli save them), read
 * through libsigrok (read.h): the enabled logic channels, one line each,
 * at the session's samplerate. Built without libsigrok (no
 * RTIPC_BENCH_SIGROK), such a file is refused with the reason. */
#include <stdio.h>
#include <string.h>

#include "read.h"

#ifdef RTIPC_BENCH_SIGROK
#include <libsigrok/libsigrok.h>

typedef struct {
    scope_lines_t *c;
    int line_of[64];   /* logic channel index -> line, -1 when not read */
    int64_t sample;    /* the next sample's index */
    uint64_t rate;     /* from the session's metadata */
    int failed;        /* -1 out of memory */
    bool seen_logic;
} feed_t;

static void on_packet(const struct sr_dev_inst *sdi, const struct sr_datafeed_packet *packet, void *arg)
{
    (void)sdi;
    feed_t *fd = arg;
    if (fd->failed)
        return;
    if (packet->type == SR_DF_META) {
        const struct sr_datafeed_meta *meta = packet->payload;
        for (const GSList *l = meta->config; l; l = l->next) {
            const struct sr_config *cfg = l->data;
            if (cfg->key == SR_CONF_SAMPLERATE)
                fd->rate = g_variant_get_uint64(cfg->data);
        }
    } else if (packet->type == SR_DF_LOGIC) {
        const struct sr_datafeed_logic *logic = packet->payload;
        const uint8_t *bytes = logic->data;
        size_t unit = logic->unitsize, n = unit ? logic->length / unit : 0;
        fd->seen_logic = true;
        for (size_t j = 0; j < n; j++, fd->sample++) {
            const uint8_t *s = bytes + j * unit;
            for (size_t k = 0; k < 8 * unit && k < 64; k++) {
                if (fd->line_of[k] < 0)
                    continue;
                int level = (s[k / 8] >> (k % 8)) & 1;
                if (scope_lines_set(fd->c, fd->line_of[k], fd->sample, level) != 0) {
                    fd->failed = -1;
                    return;
                }
            }
        }
    }
}

int scope_read_sigrok(const char *path, const scope_read_opts_t *o, scope_lines_t *c, char *err, size_t errlen)
{
    struct sr_context *ctx = NULL;
    struct sr_session *session = NULL;
    sr_log_loglevel_set(SR_LOG_NONE); /* its reasons are ours to give, on one line */
    if (sr_init(&ctx) != SR_OK) {
        snprintf(err, errlen, "%s: libsigrok could not start", path);
        return -1;
    }
    int rc = -1;
    GSList *devices = NULL;
    feed_t fd = {.c = c};
    for (int k = 0; k < 64; k++)
        fd.line_of[k] = -1;
    if (sr_session_load(ctx, path, &session) != SR_OK) {
        snprintf(err, errlen, "%s: not a sigrok session file libsigrok can load (truncated or corrupt?)", path);
        goto out;
    }
    if (sr_session_dev_list(session, &devices) != SR_OK || !devices) {
        snprintf(err, errlen, "%s: the session holds no device", path);
        goto out;
    }
    const struct sr_dev_inst *sdi = devices->data;
    const char *vendor = sr_dev_inst_vendor_get(sdi), *model = sr_dev_inst_model_get(sdi);
    snprintf(c->instrument, sizeof c->instrument, "sigrok session%s%s%s%s", vendor && *vendor ? ": " : "",
             vendor ? vendor : "", model && *model ? " " : "", model ? model : "");
    /* The samplerate the session keeps in its metadata (the data feed's
     * own meta packet, where one comes, says the same). */
    GVariant *rate = NULL;
    if (sr_config_get(sr_dev_inst_driver_get(sdi), sdi, NULL, SR_CONF_SAMPLERATE, &rate) == SR_OK && rate) {
        fd.rate = g_variant_get_uint64(rate);
        g_variant_unref(rate);
    }
    for (const GSList *l = sr_dev_inst_channels_get(sdi); l; l = l->next) {
        const struct sr_channel *ch = l->data;
        if (ch->type != SR_CHANNEL_LOGIC || !ch->enabled || ch->index < 0 || ch->index >= 64)
            continue;
        if ((fd.line_of[ch->index] = scope_lines_add(c, ch->name)) < 0) {
            snprintf(err, errlen, "%s: out of memory", path);
            goto out;
        }
    }
    if (sr_session_datafeed_callback_add(session, on_packet, &fd) != SR_OK || sr_session_start(session) != SR_OK ||
        sr_session_run(session) != SR_OK) {
        snprintf(err, errlen, "%s: libsigrok could not read the session's data (truncated or corrupt?)", path);
        goto out;
    }
    if (fd.failed) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto out;
    }
    if (!fd.seen_logic || fd.sample == 0) {
        snprintf(err, errlen, "%s: no logic samples in the session", path);
        goto out;
    }
    c->first = 0;
    c->last = fd.sample - 1;
    if (o->sample_rate > 0) {
        c->rate_hz = o->sample_rate;
        c->rate_known = true;
    } else if (fd.rate > 0) {
        c->rate_hz = (double)fd.rate;
        c->rate_known = true;
    } else {
        c->rate_hz = 1e9;
        c->rate_known = false;
    }
    rc = 0;
out:
    /* Loading opened the session's device; destroying the session does not
     * close it (libsigrok 0.5). */
    for (GSList *l = devices; l; l = l->next)
        (void)sr_dev_close(l->data);
    g_slist_free(devices);
    if (session)
        sr_session_destroy(session);
    sr_exit(ctx);
    return rc;
}

#else

int scope_read_sigrok(const char *path, const scope_read_opts_t *o, scope_lines_t *c, char *err, size_t errlen)
{
    (void)o, (void)c;
    snprintf(err, errlen, "%s: this rtipc-bench was built without libsigrok (Debian: libsigrok-dev), which reads "
                          "sigrok session files; convert it with sigrok-cli -i FILE -o FILE.vcd -O vcd",
             path);
    return -1;
}

#endif
