#include "text.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VF_SUGGEST_MAX 64 /* longer words are not compared */

/* optimal string alignment distance, case-insensitive */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > VF_SUGGEST_MAX || lb > VF_SUGGEST_MAX)
        return (size_t)-1;
    static const size_t W = VF_SUGGEST_MAX + 1;
    size_t d[(VF_SUGGEST_MAX + 1) * (VF_SUGGEST_MAX + 1)];
    for (size_t i = 0; i <= la; i++)
        d[i * W] = i;
    for (size_t j = 0; j <= lb; j++)
        d[j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
            size_t best = d[(i - 1) * W + j - 1] + (ca != cb);
            if (d[(i - 1) * W + j] + 1 < best)
                best = d[(i - 1) * W + j] + 1;
            if (d[i * W + j - 1] + 1 < best)
                best = d[i * W + j - 1] + 1;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) && tolower((unsigned char)a[i - 2]) == cb &&
                d[(i - 2) * W + j - 2] + 1 < best)
                best = d[(i - 2) * W + j - 2] + 1;
            d[i * W + j] = best;
        }
    return d[la * W + lb];
}

const char *vf_suggest(const char *word, const char *const *cands, size_t n)
{
    if (!word || !word[0] || !cands)
        return NULL;
    size_t len = strlen(word), limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
    const char *best = NULL, *prefix = NULL;
    size_t best_d = (size_t)-1, prefixes = 0;
    for (size_t i = 0; i < n; i++) {
        if (!cands[i] || !cands[i][0])
            continue;
        if (!strncmp(cands[i], word, len)) {
            prefix = cands[i];
            prefixes++;
        }
        size_t d = distance(word, cands[i]);
        if (d < best_d) {
            best_d = d;
            best = cands[i];
        }
    }
    if (best && best_d <= limit)
        return best;
    return prefixes == 1 ? prefix : NULL;
}

const char *vf_suggest_in_list(const char *word, const char *list, const char *seps, char *out, size_t cap)
{
    if (!list || !seps)
        return NULL;
    char *copy = strdup(list);
    if (!copy)
        return NULL;
    const char *items[256];
    size_t n = 0;
    char *save = NULL;
    for (char *t = strtok_r(copy, seps, &save); t && n < 256; t = strtok_r(NULL, seps, &save))
        items[n++] = t;
    const char *s = vf_suggest(word, items, n);
    if (s)
        snprintf(out, cap, "%s", s);
    free(copy);
    return s ? out : NULL;
}

void vf_format_double(double v, char *buf, size_t cap)
{
    /* whole digits of |v| below 1e15: printed without an exponent (100, not 1e+02) */
    int whole = 1;
    for (double a = fabs(v); a >= 10.0 && a < 1e15 && whole < 17; a /= 10.0)
        whole++;
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, cap, "%.*g", prec > whole ? prec : whole, v);
        if (strtod(buf, NULL) == v)
            return;
    }
    snprintf(buf, cap, "%.17g", v);
}

/* The length of the UTF-8 sequence at p (1..4) and its code point, or 0 for
 * a byte that does not start a valid, shortest-form sequence. */
static size_t utf8_at(const unsigned char *p, unsigned *cp)
{
    unsigned c = p[0];
    size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (n == 0)
        return 0;
    unsigned v = n == 1 ? c : n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        v = v << 6 | (p[i] & 0x3f);
    }
    static const unsigned least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < least[n] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return n;
}

/* Code points a terminal acts on or that reorder or hide text: C1 controls,
 * bidirectional marks, embeddings and isolates, zero-width characters, line
 * and paragraph separators. */
static bool hidden_code_point(unsigned cp)
{
    return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || (cp >= 0x200b && cp <= 0x200f) ||
           (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x206f) || cp == 0xfeff;
}

void vf_text_escape(const char *s, char *buf, size_t cap, size_t max, bool quotes)
{
    if (!buf || !cap)
        return;
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t in = 0, out = 0;
    buf[0] = 0;
    while (p[in] && in < max) {
        char piece[16];
        unsigned cp = 0;
        size_t n = utf8_at(p + in, &cp);
        if (n == 0) {
            snprintf(piece, sizeof piece, "\\x%02x", p[in]);
            n = 1;
        } else if (n == 1 && (cp < 0x20 || cp == 0x7f || (quotes && cp == '\''))) {
            snprintf(piece, sizeof piece, "\\x%02x", cp);
        } else if (n > 1 && hidden_code_point(cp)) {
            snprintf(piece, sizeof piece, "\\u%04x", cp);
        } else {
            memcpy(piece, p + in, n);
            piece[n] = 0;
        }
        size_t len = strlen(piece);
        if (in + n > max || out + len + 4 > cap) /* room for "..." and the NUL */
            break;
        memcpy(buf + out, piece, len);
        out += len;
        in += n;
    }
    buf[out] = 0;
    if (p[in] && out + 3 < cap)
        memcpy(buf + out, "...", 4);
}

void vf_text_safe(const char *s, char *buf, size_t cap, size_t max)
{
    vf_text_escape(s, buf, cap, max, true);
}

void vf_set_err(char *err, size_t cap, const char *fmt, ...)
{
    if (!err || !cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
}

void vf_set_key_err(const char **key_out, char *err, size_t cap, const char *key, const char *fmt, ...)
{
    if (key_out)
        *key_out = key;
    if (!err || !cap)
        return;
    int n = snprintf(err, cap, "%s", key);
    if (n < 0 || (size_t)n >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, cap - (size_t)n, fmt, ap);
    va_end(ap);
}

void vf_format_bytes(unsigned long long bytes, char *buf, size_t cap)
{
    if (bytes >= (1ull << 30))
        snprintf(buf, cap, "%.1f GiB", (double)bytes / (double)(1ull << 30));
    else
        snprintf(buf, cap, "%.0f MiB", (double)bytes / (double)(1ull << 20));
}

bool vf_text_icontains(const char *hay, const char *needle)
{
    size_t nl = strlen(needle);
    if (nl == 0)
        return false;
    for (const char *h = hay; *h; h++) {
        size_t k = 0;
        while (k < nl && h[k] && tolower((unsigned char)h[k]) == tolower((unsigned char)needle[k]))
            k++;
        if (k == nl)
            return true;
    }
    return false;
}

bool vf_text_prefix(const char *s, size_t n, char *buf, size_t cap)
{
    if (n >= cap)
        return false;
    memcpy(buf, s, n);
    buf[n] = 0;
    return true;
}

char *vf_err_buffer(char *err, size_t *cap, char *dummy, size_t dummy_cap)
{
    if (!err || !*cap) {
        err = dummy;
        *cap = dummy_cap;
    }
    err[0] = 0;
    return err;
}
