/* session_events: the per-frame input codec, record files and wire messages
 * (see session_events.h and docs/replay.md). All integers little-endian. */
#include "session_events.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define POINTER_BYTES 42u /* u8 active, u8 button, 10 x f32 */
#define RECORD_END 0xFFFFu

static vf_result fail(char *err, size_t cap, size_t off, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static vf_result fail(char *err, size_t cap, size_t off, const char *fmt, ...)
{
    if (err && cap) {
        int n = snprintf(err, cap, "offset %zu: ", off);
        va_list ap;
        va_start(ap, fmt);
        if (n >= 0 && (size_t)n < cap)
            vsnprintf(err + n, cap - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return VF_ERR_PARSE;
}

uint64_t vf_hash_bytes(uint64_t h, const void *data, size_t size)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < size; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* ---------------------------------------------------------------- little-endian helpers */

typedef struct writer {
    uint8_t *buf;
    size_t cap, len;
    bool ok;
} writer;

static void put(writer *w, const void *src, size_t n)
{
    if (!w->ok || n > w->cap - w->len) {
        w->ok = false;
        return;
    }
    memcpy(w->buf + w->len, src, n);
    w->len += n;
}

static void put_u8(writer *w, uint32_t v)
{
    uint8_t b = (uint8_t)v;
    put(w, &b, 1);
}

static void put_u16(writer *w, uint32_t v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    put(w, b, 2);
}

static void put_u32(writer *w, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(w, b, 4);
}

static void put_u64(writer *w, uint64_t v)
{
    put_u32(w, (uint32_t)v);
    put_u32(w, (uint32_t)(v >> 32));
}

static void put_f32(writer *w, float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    put_u32(w, v);
}

typedef struct reader {
    const uint8_t *p;
    size_t size, off;
} reader;

static bool get(reader *r, void *dst, size_t n)
{
    if (n > r->size - r->off)
        return false;
    memcpy(dst, r->p + r->off, n);
    r->off += n;
    return true;
}

static bool get_u8(reader *r, uint32_t *v)
{
    uint8_t b;
    if (!get(r, &b, 1))
        return false;
    *v = b;
    return true;
}

static bool get_u16(reader *r, uint32_t *v)
{
    uint8_t b[2];
    if (!get(r, b, 2))
        return false;
    *v = (uint32_t)b[0] | (uint32_t)b[1] << 8;
    return true;
}

static bool get_u32(reader *r, uint32_t *v)
{
    uint8_t b[4];
    if (!get(r, b, 4))
        return false;
    *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    return true;
}

static bool get_u64(reader *r, uint64_t *v)
{
    uint32_t lo, hi;
    if (!get_u32(r, &lo) || !get_u32(r, &hi))
        return false;
    *v = (uint64_t)hi << 32 | lo;
    return true;
}

static bool get_f32(reader *r, float *f)
{
    uint32_t v;
    if (!get_u32(r, &v))
        return false;
    memcpy(f, &v, 4);
    return isfinite(*f);
}

static bool printable(const char *s, size_t n, bool newlines)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!((c >= 0x20 && c < 0x7f) || (newlines && c == '\n')))
            return false;
    }
    return true;
}

/* ---------------------------------------------------------------- frames */

static const char *const event_names[VF_EVENT_TYPE_END] = {"?", "POINTER", "PAUSE", "STEP", "RESET", "SET", "SCENE"};

void vf_event_describe(const vf_event *ev, char *buf, size_t cap)
{
    const char *name = ev->type > 0 && ev->type < VF_EVENT_TYPE_END ? event_names[ev->type] : "?";
    if (ev->type == VF_EVENT_SET || ev->type == VF_EVENT_SCENE) {
        char text[VF_SESSION_TEXT_MAX];
        size_t n = strnlen(ev->text, VF_SESSION_TEXT_MAX - 1), k = 0;
        for (; k < n && k < 60; k++) /* printable; the message escapes the rest */
            text[k] = ev->text[k];
        text[k] = 0;
        snprintf(buf, cap, "%s %s%s", name, text, n > k ? "..." : "");
    } else if (ev->type == VF_EVENT_POINTER) {
        snprintf(buf, cap, "POINTER (%.6g, %.6g)", ev->pointer.pos[0], ev->pointer.pos[1]);
    } else if (ev->type == VF_EVENT_PAUSE) {
        snprintf(buf, cap, "PAUSE %s", ev->on ? "on" : "off");
    } else {
        snprintf(buf, cap, "%s", name);
    }
}

/* One pointer value within [lo, hi]; why names it. */
static bool pointer_value(float v, double lo, double hi, const char *what, int i, char *why, size_t cap)
{
    if (isfinite(v) && v >= lo && v <= hi)
        return true;
    if (why && cap)
        snprintf(why, cap, "pointer %s[%d] = %.6g: must be a finite number in [%.6g, %.6g]", what, i, v, lo, hi);
    return false;
}

bool vf_event_check(const vf_event *ev, char *why, size_t cap)
{
    switch (ev->type) {
    case VF_EVENT_POINTER: {
        const vf_event_pointer *p = &ev->pointer;
        for (int i = 0; i < 2; i++)
            if (!pointer_value(p->pos[i], VF_POINTER_POS_MIN, VF_POINTER_POS_MAX, "position", i, why, cap) ||
                !pointer_value(p->vel[i], -VF_POINTER_VEL_MAX, VF_POINTER_VEL_MAX, "velocity", i, why, cap))
                return false;
        for (int i = 0; i < 3; i++)
            if (!pointer_value(p->ray_origin[i], -VF_POINTER_ORIGIN_MAX, VF_POINTER_ORIGIN_MAX, "ray origin", i, why, cap) ||
                !pointer_value(p->ray_dir[i], -VF_POINTER_DIR_MAX, VF_POINTER_DIR_MAX, "ray direction", i, why, cap))
                return false;
        if (p->button > 1) {
            if (why && cap)
                snprintf(why, cap, "pointer button %u: must be 0 (push) or 1 (pull)", p->button);
            return false;
        }
        return true;
    }
    case VF_EVENT_PAUSE:
    case VF_EVENT_STEP:
    case VF_EVENT_RESET: return true;
    case VF_EVENT_SET:
    case VF_EVENT_SCENE: {
        size_t n = strnlen(ev->text, VF_SESSION_TEXT_MAX);
        const char *what = n == 0 || n >= VF_SESSION_TEXT_MAX ? "empty or too long"
                           : !printable(ev->text, n, false)   ? "not printable ASCII"
                           : ev->type == VF_EVENT_SET && (!strchr(ev->text, '=') || ev->text[0] == '=')
                               ? "not KEY=VALUE"
                               : NULL;
        if (what && why && cap)
            snprintf(why, cap, "%s text %s (want 1..%u printable bytes%s)", event_names[ev->type], what,
                     VF_SESSION_TEXT_MAX - 1, ev->type == VF_EVENT_SET ? ", KEY=VALUE" : "");
        return what == NULL;
    }
    default:
        if (why && cap)
            snprintf(why, cap, "unknown event type %u", ev->type);
        return false;
    }
}

static bool event_valid(const vf_event *ev)
{
    return vf_event_check(ev, NULL, 0);
}

static float clampf(float v, float lo, float hi)
{
    return isfinite(v) ? fminf(fmaxf(v, lo), hi) : 0.0f;
}

void vf_event_pointer_clamp(vf_event_pointer *p)
{
    for (int i = 0; i < 2; i++) {
        p->pos[i] = clampf(p->pos[i], VF_POINTER_POS_MIN, VF_POINTER_POS_MAX);
        p->vel[i] = clampf(p->vel[i], -VF_POINTER_VEL_MAX, VF_POINTER_VEL_MAX);
    }
    for (int i = 0; i < 3; i++) {
        p->ray_origin[i] = clampf(p->ray_origin[i], -VF_POINTER_ORIGIN_MAX, VF_POINTER_ORIGIN_MAX);
        p->ray_dir[i] = clampf(p->ray_dir[i], -1.0f, 1.0f);
    }
    p->button = p->button > 1 ? 1 : p->button;
}

bool vf_frame_add(vf_frame_inputs *in, const vf_event *ev)
{
    if (in->count >= VF_SESSION_MAX_EVENTS || !event_valid(ev))
        return false;
    in->ev[in->count++] = *ev;
    return true;
}

static void encode_frame(writer *w, const vf_frame_inputs *in)
{
    if (in->count > VF_SESSION_MAX_EVENTS) {
        w->ok = false;
        return;
    }
    put_u16(w, in->count);
    for (uint32_t i = 0; i < in->count; i++) {
        const vf_event *ev = &in->ev[i];
        if (!event_valid(ev)) {
            w->ok = false;
            return;
        }
        put_u8(w, ev->type);
        switch (ev->type) {
        case VF_EVENT_POINTER: {
            const vf_event_pointer *p = &ev->pointer;
            put_u8(w, POINTER_BYTES);
            put_u8(w, p->active);
            put_u8(w, p->button);
            const float f[10] = {p->pos[0], p->pos[1], p->vel[0], p->vel[1], p->ray_origin[0],
                                 p->ray_origin[1], p->ray_origin[2], p->ray_dir[0], p->ray_dir[1], p->ray_dir[2]};
            for (int k = 0; k < 10; k++)
                put_f32(w, f[k]);
            break;
        }
        case VF_EVENT_PAUSE:
            put_u8(w, 1);
            put_u8(w, ev->on);
            break;
        case VF_EVENT_SET:
        case VF_EVENT_SCENE: {
            size_t n = strlen(ev->text);
            put_u8(w, (uint32_t)n);
            put(w, ev->text, n);
            break;
        }
        default: put_u8(w, 0); break;
        }
    }
}

size_t vf_frame_encode(const vf_frame_inputs *in, uint8_t *buf, size_t cap)
{
    writer w = {buf, cap, 0, true};
    encode_frame(&w, in);
    return w.ok ? w.len : 0;
}

static vf_result decode_frame(reader *r, vf_frame_inputs *out, char *err, size_t cap)
{
    char why[200];
    memset(out, 0, sizeof *out);
    uint32_t count;
    size_t at = r->off;
    if (!get_u16(r, &count))
        return fail(err, cap, at, "truncated frame");
    if (count > VF_SESSION_MAX_EVENTS)
        return fail(err, cap, at, "%u events in a frame (at most %u)", count, VF_SESSION_MAX_EVENTS);
    for (uint32_t i = 0; i < count; i++) {
        vf_event *ev = &out->ev[i];
        uint32_t type, len;
        at = r->off;
        if (!get_u8(r, &type) || !get_u8(r, &len))
            return fail(err, cap, at, "truncated event");
        if (type == 0 || type >= VF_EVENT_TYPE_END)
            return fail(err, cap, at, "unknown event type %u", type);
        ev->type = (uint8_t)type;
        switch (type) {
        case VF_EVENT_POINTER: {
            uint32_t active, button;
            float f[10];
            if (len != POINTER_BYTES)
                return fail(err, cap, at, "pointer event of %u bytes (want %u)", len, POINTER_BYTES);
            if (!get_u8(r, &active) || !get_u8(r, &button))
                return fail(err, cap, at, "truncated pointer event");
            if (active > 1 || button > 1)
                return fail(err, cap, at, "pointer event with active %u, button %u (want 0 or 1)", active, button);
            for (int k = 0; k < 10; k++)
                if (!get_f32(r, &f[k]))
                    return fail(err, cap, at, "event %u (POINTER): truncated or not finite", i + 1);
            vf_event_pointer *p = &ev->pointer;
            p->active = active;
            p->button = (uint8_t)button;
            p->pos[0] = f[0], p->pos[1] = f[1], p->vel[0] = f[2], p->vel[1] = f[3];
            for (int k = 0; k < 3; k++) {
                p->ray_origin[k] = f[4 + k];
                p->ray_dir[k] = f[7 + k];
            }
            break;
        }
        case VF_EVENT_PAUSE: {
            uint32_t on;
            if (len != 1 || !get_u8(r, &on) || on > 1)
                return fail(err, cap, at, "pause event must be 1 byte, 0 or 1");
            ev->on = on;
            break;
        }
        case VF_EVENT_STEP:
        case VF_EVENT_RESET:
            if (len != 0)
                return fail(err, cap, at, "step and reset events carry no bytes (got %u)", len);
            break;
        default:
            if (len == 0 || len >= VF_SESSION_TEXT_MAX)
                return fail(err, cap, at, "text event of %u bytes (want 1..%u)", len, VF_SESSION_TEXT_MAX - 1);
            if (!get(r, ev->text, len))
                return fail(err, cap, at, "truncated text event");
            ev->text[len] = 0;
            if (memchr(ev->text, 0, len))
                return fail(err, cap, at, "event %u (%s): its text holds a NUL byte", i + 1, event_names[type]);
            break;
        }
        if (!vf_event_check(ev, why, sizeof why))
            return fail(err, cap, at, "event %u (%s): %s", i + 1, event_names[ev->type], why);
        out->count++;
    }
    return VF_OK;
}

vf_result vf_frame_decode(const uint8_t *data, size_t size, vf_frame_inputs *out, size_t *used, char *err, size_t cap)
{
    reader r = {data, size, 0};
    vf_result res = decode_frame(&r, out, err, cap);
    *used = r.off;
    return res;
}

/* ---------------------------------------------------------------- headers */

static void encode_header(writer *w, const vf_session_header *h)
{
    size_t n = strnlen(h->scene, sizeof h->scene), m = strnlen(h->params, sizeof h->params);
    if (n == 0 || n >= sizeof h->scene || m >= sizeof h->params) {
        w->ok = false;
        return;
    }
    put_u8(w, (uint32_t)n);
    put(w, h->scene, n);
    put_u32(w, h->frames);
    put_u16(w, (uint32_t)m);
    put(w, h->params, m);
}

size_t vf_header_encode(const vf_session_header *h, uint8_t *buf, size_t cap)
{
    writer w = {buf, cap, 0, true};
    encode_header(&w, h);
    return w.ok ? w.len : 0;
}

static vf_result decode_header(reader *r, vf_session_header *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    uint32_t n = 0, m = 0;
    size_t at = r->off;
    if (!get_u8(r, &n) || n == 0 || n >= sizeof out->scene)
        return fail(err, cap, at, "scene name of %u bytes (want 1..%zu)", n, sizeof out->scene - 1);
    if (!get(r, out->scene, n) || !printable(out->scene, n, false))
        return fail(err, cap, at, "scene name truncated or not printable");
    at = r->off;
    if (!get_u32(r, &out->frames) || out->frames > VF_SESSION_MAX_FRAMES)
        return fail(err, cap, at, "frame count missing or above %u", VF_SESSION_MAX_FRAMES);
    at = r->off;
    if (!get_u16(r, &m) || m >= sizeof out->params)
        return fail(err, cap, at, "parameter text of %u bytes (at most %zu)", m, sizeof out->params - 1);
    if (!get(r, out->params, m) || !printable(out->params, m, true))
        return fail(err, cap, at, "parameter text truncated or not printable");
    return VF_OK;
}

vf_result vf_header_decode(const uint8_t *data, size_t size, vf_session_header *out, size_t *used, char *err, size_t cap)
{
    reader r = {data, size, 0};
    vf_result res = decode_header(&r, out, err, cap);
    *used = r.off;
    return res;
}

/* ---------------------------------------------------------------- record files */

vf_result vf_record_parse(const uint8_t *data, size_t size, vf_record *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    reader r = {data, size, 0};
    char magic[8];
    uint32_t version = 0;
    if (size > VF_RECORD_MAX_BYTES)
        return fail(err, cap, 0, "a record file of %zu bytes (at most %u)", size, VF_RECORD_MAX_BYTES);
    if (!get(&r, magic, 8) || memcmp(magic, VF_RECORD_MAGIC, 8))
        return fail(err, cap, 0, "not a vkfluid record file (no %s magic)", VF_RECORD_MAGIC);
    if (!get_u32(&r, &version) || version != VF_SESSION_VERSION)
        return fail(err, cap, 8, "record format version %u (this vkfluid reads %u)", version, VF_SESSION_VERSION);
    vf_result res = decode_header(&r, &out->header, err, cap);
    if (res != VF_OK)
        return res;
    vf_frame_inputs *scratch = malloc(sizeof *scratch);
    uint32_t alloc = 0;
    if (!scratch)
        return VF_ERR_NO_MEMORY;
    for (;;) {
        size_t at = r.off;
        if (r.size - r.off >= 2 && (r.p[r.off] | r.p[r.off + 1] << 8) == RECORD_END) {
            uint32_t count = 0;
            r.off += 2;
            if (!get_u32(&r, &count) || count != out->frame_count)
                res = fail(err, cap, at, "the end mark says %u frames, the file holds %u", count, out->frame_count);
            else if (r.off != r.size)
                res = fail(err, cap, r.off, "%zu bytes after the end mark", r.size - r.off);
            else if (!(out->data = malloc(size)))
                res = VF_ERR_NO_MEMORY;
            break;
        }
        if (r.off >= r.size) {
            res = fail(err, cap, at, "truncated: no end mark (the recording did not finish)");
            break;
        }
        if (out->frame_count >= VF_SESSION_MAX_FRAMES) {
            res = fail(err, cap, at, "more than %u frames", VF_SESSION_MAX_FRAMES);
            break;
        }
        if (out->frame_count == alloc) {
            uint32_t next = alloc ? alloc * 2 : 256;
            uint32_t *o = realloc(out->offsets, (size_t)next * sizeof *o);
            if (!o) {
                res = VF_ERR_NO_MEMORY;
                break;
            }
            out->offsets = o;
            alloc = next;
        }
        out->offsets[out->frame_count] = (uint32_t)r.off;
        char why[400];
        if ((res = decode_frame(&r, scratch, why, sizeof why)) != VF_OK) {
            if (err && cap)
                snprintf(err, cap, "frame %u, %s", out->frame_count, why);
            break;
        }
        out->frame_count++;
    }
    free(scratch);
    if (res != VF_OK) {
        vf_record_free(out);
        return res;
    }
    memcpy(out->data, data, size);
    out->size = size;
    return VF_OK;
}

void vf_record_frame(const vf_record *rec, uint32_t i, vf_frame_inputs *out)
{
    size_t used;
    char err[8];
    if (i >= rec->frame_count ||
        vf_frame_decode(rec->data + rec->offsets[i], rec->size - rec->offsets[i], out, &used, err, sizeof err) != VF_OK)
        memset(out, 0, sizeof *out);
}

void vf_record_free(vf_record *rec)
{
    if (!rec)
        return;
    free(rec->data);
    free(rec->offsets);
    memset(rec, 0, sizeof *rec);
}

vf_result vf_record_write_header(FILE *f, const vf_session_header *h)
{
    uint8_t buf[16 + VF_SESSION_HEADER_MAX + 128];
    writer w = {buf, sizeof buf, 0, true};
    put(&w, VF_RECORD_MAGIC, 8);
    put_u32(&w, VF_SESSION_VERSION);
    encode_header(&w, h);
    if (!w.ok)
        return VF_ERR_INVALID_ARG;
    return fwrite(buf, 1, w.len, f) == w.len ? VF_OK : VF_ERR_IO;
}

vf_result vf_record_write_frame(FILE *f, const vf_frame_inputs *in)
{
    uint8_t buf[VF_SESSION_FRAME_MAX];
    size_t n = vf_frame_encode(in, buf, sizeof buf);
    if (!n)
        return VF_ERR_INVALID_ARG;
    return fwrite(buf, 1, n, f) == n ? VF_OK : VF_ERR_IO;
}

/** Appends the end mark (after the last frame); frames: how many were written. */
vf_result vf_record_write_end(FILE *f, uint32_t frames)
{
    uint8_t buf[6];
    writer w = {buf, sizeof buf, 0, true};
    put_u16(&w, RECORD_END);
    put_u32(&w, frames);
    return fwrite(buf, 1, w.len, f) == w.len ? VF_OK : VF_ERR_IO;
}

/* ---------------------------------------------------------------- wire messages */

bool vf_session_token_valid(const char *token)
{
    size_t n = strnlen(token, VF_SESSION_TOKEN_MAX + 1);
    if (n < VF_SESSION_TOKEN_MIN || n > VF_SESSION_TOKEN_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = token[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-'))
            return false;
    }
    return true;
}

vf_result vf_msg_check_head(const uint8_t head[VF_MSG_HEAD_BYTES], uint8_t *type, uint32_t *length, char *err,
                            size_t cap)
{
    reader r = {head, VF_MSG_HEAD_BYTES, 0};
    uint32_t t = 0, v = 0, reserved = 0, len = 0;
    get_u8(&r, &t);
    get_u8(&r, &v);
    get_u16(&r, &reserved);
    get_u32(&r, &len);
    if (t == 0 || t >= VF_MSG_TYPE_END)
        return fail(err, cap, 0, "unknown message type %u", t);
    if (v != VF_WIRE_VERSION)
        return fail(err, cap, 1, "protocol version %u (this vkfluid speaks %u)", v, VF_WIRE_VERSION);
    if (reserved != 0)
        return fail(err, cap, 2, "reserved bytes not zero");
    if (len > VF_MSG_MAX_PAYLOAD)
        return fail(err, cap, 4, "a message of %u bytes (at most %u)", len, VF_MSG_MAX_PAYLOAD);
    *type = (uint8_t)t;
    *length = len;
    return VF_OK;
}

size_t vf_msg_encode(const vf_msg *msg, uint8_t *buf, size_t cap)
{
    writer w = {buf, cap, 0, true};
    put_u8(&w, msg->type);
    put_u8(&w, VF_WIRE_VERSION);
    put_u16(&w, 0);
    put_u32(&w, 0); /* length, filled below */
    switch (msg->type) {
    case VF_MSG_HELLO: encode_header(&w, &msg->header); break;
    case VF_MSG_FRAME:
        put_u32(&w, msg->frame);
        put_u64(&w, msg->state_hash);
        encode_frame(&w, &msg->in);
        break;
    case VF_MSG_JOIN: {
        size_t n = strnlen(msg->token, sizeof msg->token);
        if (!vf_session_token_valid(msg->token)) {
            w.ok = false;
            break;
        }
        put_u8(&w, (uint32_t)n);
        put(&w, msg->token, n);
        break;
    }
    case VF_MSG_BYE: break;
    default: w.ok = false; break;
    }
    if (!w.ok || w.len - VF_MSG_HEAD_BYTES > VF_MSG_MAX_PAYLOAD)
        return 0;
    uint32_t len = (uint32_t)(w.len - VF_MSG_HEAD_BYTES);
    buf[4] = (uint8_t)len, buf[5] = (uint8_t)(len >> 8), buf[6] = (uint8_t)(len >> 16), buf[7] = (uint8_t)(len >> 24);
    return w.len;
}

vf_result vf_msg_decode_payload(uint8_t type, const uint8_t *payload, size_t size, vf_msg *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    out->type = type;
    reader r = {payload, size, 0};
    vf_result res = VF_OK;
    switch (type) {
    case VF_MSG_HELLO: res = decode_header(&r, &out->header, err, cap); break;
    case VF_MSG_FRAME:
        if (!get_u32(&r, &out->frame) || !get_u64(&r, &out->state_hash))
            return fail(err, cap, 0, "truncated frame message");
        char why[400];
        if ((res = decode_frame(&r, &out->in, why, sizeof why)) != VF_OK && err && cap)
            snprintf(err, cap, "frame %u, %s", out->frame, why);
        break;
    case VF_MSG_JOIN: {
        uint32_t n = 0;
        if (!get_u8(&r, &n) || n < VF_SESSION_TOKEN_MIN || n > VF_SESSION_TOKEN_MAX || !get(&r, out->token, n))
            return fail(err, cap, 0, "a join without a session token of %u..%u characters", VF_SESSION_TOKEN_MIN,
                        VF_SESSION_TOKEN_MAX);
        out->token[n] = 0;
        if (!vf_session_token_valid(out->token))
            return fail(err, cap, 1, "a join whose token holds characters other than 0-9, A-Z, a-z, _ and -");
        break;
    }
    case VF_MSG_BYE: break;
    default: return fail(err, cap, 0, "unknown message type %u", type);
    }
    if (res == VF_OK && r.off != size)
        return fail(err, cap, r.off, "%zu unexpected bytes at the end of a message", size - r.off);
    return res;
}

vf_result vf_session_check_bytes(const uint8_t *data, size_t size, char *err, size_t cap)
{
    vf_record rec;
    vf_result res = vf_record_parse(data, size, &rec, err, cap);
    vf_record_free(&rec);
    if (res == VF_OK)
        return VF_OK;
    /* a stream of messages */
    size_t off = 0;
    bool any = false;
    vf_msg *msg = malloc(sizeof *msg);
    char werr[256];
    if (!msg)
        return VF_ERR_NO_MEMORY;
    while (off < size) {
        uint8_t type = 0;
        uint32_t len = 0;
        if (size - off < VF_MSG_HEAD_BYTES || vf_msg_check_head(data + off, &type, &len, werr, sizeof werr) != VF_OK ||
            size - off - VF_MSG_HEAD_BYTES < len ||
            vf_msg_decode_payload(type, data + off + VF_MSG_HEAD_BYTES, len, msg, werr, sizeof werr) != VF_OK) {
            free(msg);
            return res;
        }
        off += VF_MSG_HEAD_BYTES + len;
        any = true;
    }
    free(msg);
    return any ? VF_OK : res;
}
